/* SPDX-License-Identifier: MIT */
/* The key table built from config_keys.def: each key's type, default and help, how text
 * becomes its value, and the way back (JSON for results.json, the commented key list). */
#include "config_key.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>

#include "clock.h"
#include "config_units.h"

typedef enum key_type {
    KT_COUNT,
    KT_SIZE,
    KT_SIZE_LIST,
    KT_DURATION,
    KT_FRACTION,
    KT_CLOCK,
    KT_BOOL,
    KT_NOISE_ACTION,
    KT_SYNC,
    KT_BUFFERS,
} key_type_t;

static const char *const bool_false[] = {"no", "false", "off", "0"};
static const char *const bool_true[] = {"yes", "true", "on", "1"};
static const char *const noise_actions[] = {[MB_NOISE_WARN] = "warn", [MB_NOISE_ABORT] = "abort", NULL};
static const char *const sync_names[] = {[MB_SYNC_BARRIER] = "barrier", [MB_SYNC_WINDOW] = "window", NULL};
static const char *const buffer_names[] = {[MB_BUFFERS_WARM] = "warm", [MB_BUFFERS_COLD] = "cold", NULL};

struct mb_config_key {
    const char *section;
    const char *key;
    key_type_t type;
    const char *def;
    const char *help;
    size_t offset; /* of the field in mb_config_t */
};

static const mb_config_key_t key_table[MB_CONFIG_NKEYS] = {
#define MB_CONFIG_KEY(section, key, type, def, help)                                          \
    {#section, #key, KT_##type, def, help, offsetof(mb_config_t, section##_##key)},
#include "config_keys.def"
#undef MB_CONFIG_KEY
};

/* The names a choice-valued key takes, NULL-terminated in the order of its enum. */
static const char *const *key_choice_names(key_type_t t)
{
    return t == KT_NOISE_ACTION ? noise_actions : t == KT_SYNC ? sync_names
         : t == KT_BUFFERS      ? buffer_names  : NULL;
}

static const char *key_type_name(key_type_t t)
{
    switch (t) {
    case KT_COUNT: return "count";
    case KT_SIZE: return "size";
    case KT_SIZE_LIST: return "size list";
    case KT_DURATION: return "duration";
    case KT_FRACTION: return "fraction";
    case KT_CLOCK: return "clock";
    case KT_BOOL: return "yes/no";
    case KT_NOISE_ACTION: return "warn or abort";
    case KT_SYNC: return "barrier or window";
    case KT_BUFFERS: return "warm or cold";
    }
    return "?";
}

/* A key whose default is "auto" or "none" takes that word, stored as 0. */
static bool key_is_auto(const mb_config_key_t *k)
{
    return strcmp(k->def, "auto") == 0 || strcmp(k->def, "none") == 0;
}


/* ---- finding keys ---- */

const mb_config_key_t *mb_config_key_find(const char *section, const char *key)
{
    for (size_t i = 0; i < MB_CONFIG_NKEYS; i++)
        if (strcmp(key_table[i].section, section) == 0 && strcmp(key_table[i].key, key) == 0)
            return &key_table[i];
    return NULL;
}

const mb_config_key_t *mb_config_key_at(size_t offset)
{
    for (size_t i = 0; i < MB_CONFIG_NKEYS; i++)
        if (key_table[i].offset == offset)
            return &key_table[i];
    return NULL;
}

bool mb_config_key_section_known(const char *name, size_t len)
{
    for (size_t i = 0; i < MB_CONFIG_NKEYS; i++)
        if (strlen(key_table[i].section) == len && strncmp(key_table[i].section, name, len) == 0)
            return true;
    return false;
}

size_t mb_config_key_index(const mb_config_key_t *k) { return (size_t)(k - key_table); }

const char *mb_config_key_section(const mb_config_key_t *k) { return k->section; }

const char *mb_config_key_name(const mb_config_key_t *k) { return k->key; }

/* ---- values ---- */

static void key_clock_names(char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < MB_CLOCK_COUNT && used < len; i++) {
        const mb_clock_t *c = mb_clock_get((mb_clock_id_t)i);
        const char *sep = i == 0 ? "" : i + 1 == MB_CLOCK_COUNT ? " or " : ", ";
        int n = snprintf(buf + used, len - used, "%s%s", sep, c ? c->config_name : "?");
        if (n < 0)
            break;
        used += (size_t)n;
    }
}

int mb_config_key_set(mb_config_t *cfg, const mb_config_key_t *k, const char *text, char *why,
                      size_t whylen)
{
    void *field = (char *)cfg + k->offset;
    uint64_t u = 0;
    int rc = -1;

    if (strcmp(text, "auto") == 0 || strcmp(text, "none") == 0) {
        if (!key_is_auto(k) || strcmp(text, k->def) != 0) {
            mb_units_say(why, whylen, "%s is not allowed here (the default is %s)", text, k->def);
            return -1;
        }
        if (k->type != KT_COUNT && k->type != KT_SIZE && k->type != KT_DURATION) {
            mb_units_say(why, whylen, "%s is not supported for a %s", text, key_type_name(k->type));
            return -1;
        }
        *(uint64_t *)field = 0;
        return 0;
    }
    if (*text == '\0') {
        mb_units_say(why, whylen, "no value");
        return -1;
    }
    switch (k->type) {
    case KT_COUNT:
        rc = mb_units_parse_count(text, &u, why, whylen);
        break;
    case KT_SIZE:
    case KT_DURATION:
        rc = k->type == KT_SIZE ? mb_units_parse_size(text, &u, why, whylen)
                                : mb_units_parse_duration(text, &u, why, whylen);
        /* 0 would read back as auto (or is meaningless): refuse it rather than guess. */
        if (rc == 0 && u == 0) {
            mb_units_say(why, whylen, "'%s' must be greater than zero%s", text,
                    !key_is_auto(k)                ? ""
                    : strcmp(k->def, "none") == 0 ? " (write none for no limit)"
                                                   : " (write auto for the automatic choice)");
            rc = -1;
        }
        break;
    case KT_SIZE_LIST: {
        mb_size_list_t list;
        rc = mb_units_parse_size_list(text, &list, why, whylen);
        for (size_t i = 0; rc == 0 && i < list.n; i++) {
            if (list.bytes[i] == 0) {
                mb_units_say(why, whylen, "sizes must be greater than zero in '%s'", text);
                rc = -1;
            }
        }
        if (rc == 0)
            *(mb_size_list_t *)field = list;
        return rc;
    }
    case KT_FRACTION:
        return mb_units_parse_fraction(text, (double *)field, why, whylen);
    case KT_CLOCK: {
        int id = mb_clock_lookup(text);
        if (id < 0) {
            char names[128];
            key_clock_names(names, sizeof names);
            mb_units_say(why, whylen, "unknown clock '%s' (use %s)", text, names);
            return -1;
        }
        *(int *)field = id;
        return 0;
    }
    case KT_BOOL:
        for (size_t i = 0; i < sizeof bool_true / sizeof bool_true[0]; i++) {
            if (strcasecmp(text, bool_true[i]) == 0 || strcasecmp(text, bool_false[i]) == 0) {
                *(int *)field = strcasecmp(text, bool_true[i]) == 0;
                return 0;
            }
        }
        mb_units_say(why, whylen, "'%s' is not yes or no", text);
        return -1;
    case KT_NOISE_ACTION:
    case KT_SYNC:
    case KT_BUFFERS: {
        const char *const *names = key_choice_names(k->type);
        for (int i = 0; names[i]; i++) {
            if (strcmp(text, names[i]) == 0) {
                *(int *)field = i;
                return 0;
            }
        }
        mb_units_say(why, whylen, "'%s' is not %s", text, key_type_name(k->type));
        return -1;
    }
    }
    if (rc == 0)
        *(uint64_t *)field = u;
    return rc;
}


void mb_config_defaults(mb_config_t *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    for (size_t i = 0; i < MB_CONFIG_NKEYS; i++) {
        char why[256];
        const mb_config_key_t *k = &key_table[i];
        if (mb_config_key_set(cfg, k, k->def, why, sizeof why) != 0) {
            /* A broken default in config_keys.def is a bug, not a user error. */
            fprintf(stderr, "mbsuite: config_keys.def: bad default for [%s] %s: %s\n",
                    k->section, k->key, why);
            abort();
        }
    }
}

/* ---- the way back: JSON and the key list ---- */

static json_t *key_json(const mb_config_t *cfg, const mb_config_key_t *k)
{
    const void *field = (const char *)cfg + k->offset;
    switch (k->type) {
    case KT_COUNT:
    case KT_SIZE:
    case KT_DURATION: {
        uint64_t v = *(const uint64_t *)field;
        if (v == 0 && key_is_auto(k))
            return json_string(k->def);
        return json_integer((json_int_t)v);
    }
    case KT_SIZE_LIST: {
        const mb_size_list_t *l = field;
        json_t *a = json_array();
        for (size_t i = 0; a && i < l->n; i++) {
            if (json_array_append_new(a, json_integer((json_int_t)l->bytes[i])) != 0) {
                json_decref(a);
                return NULL;
            }
        }
        return a;
    }
    case KT_FRACTION:
        return json_real(*(const double *)field);
    case KT_CLOCK: {
        const mb_clock_t *c = mb_clock_get((mb_clock_id_t) * (const int *)field);
        return c ? json_string(c->config_name) : json_null();
    }
    case KT_BOOL:
        return json_boolean(*(const int *)field);
    case KT_NOISE_ACTION:
    case KT_SYNC:
    case KT_BUFFERS:
        return json_string(key_choice_names(k->type)[*(const int *)field]);
    }
    return NULL;
}

json_t *mb_config_to_json(const mb_config_t *cfg)
{
    json_t *root = json_object();
    if (!root)
        return NULL;
    for (size_t i = 0; i < MB_CONFIG_NKEYS; i++) {
        const mb_config_key_t *k = &key_table[i];
        json_t *sec = json_object_get(root, k->section);
        if (!sec && json_object_set_new(root, k->section, sec = json_object()) != 0)
            goto fail;
        if (json_object_set_new(sec, k->key, key_json(cfg, k)) != 0)
            goto fail;
    }
    return root;
fail:
    json_decref(root);
    return NULL;
}

void mb_config_print_keys(FILE *f)
{
    const char *section = NULL;
    for (size_t i = 0; i < MB_CONFIG_NKEYS; i++) {
        const mb_config_key_t *k = &key_table[i];
        if (!section || strcmp(section, k->section) != 0) {
            fprintf(f, "%s[%s]\n", section ? "\n" : "", k->section);
            section = k->section;
        }
        fprintf(f, "; (%s) %s\n%s = %s\n", key_type_name(k->type), k->help, k->key, k->def);
    }
}
