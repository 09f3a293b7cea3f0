/* SPDX-License-Identifier: MIT */
/* results.json's text with each benchmark record formatted once (results_json.h). */
#include "results_json.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

struct mb_results_json_cache {
    json_t **rec; /* the record formatted, a reference held so that its address stays its */
    char **text;  /* its text as it stands in the document, indented for its depth */
    size_t n, cap;
};

mb_results_json_cache_t *mb_results_json_cache_new(void)
{
    return calloc(1, sizeof(mb_results_json_cache_t));
}

static void cache_drop(mb_results_json_cache_t *c, size_t i)
{
    json_decref(c->rec[i]);
    free(c->text[i]);
    c->rec[i] = NULL;
    c->text[i] = NULL;
}

void mb_results_json_cache_free(mb_results_json_cache_t *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->n; i++)
        cache_drop(c, i);
    free(c->rec);
    free(c->text);
    free(c);
}

/* v as json_dumps writes it at depth 0, each line after the first indented by depth more
 * spaces (JSON_INDENT(1): one space per level), as it stands at that depth in a document.
 * Newlines in the text are the layout's only: JSON escapes those in strings. New string,
 * or NULL. */
static char *json_text_at_depth(const json_t *v, size_t depth)
{
    char *flat = json_dumps(v, MB_RESULTS_JSON_FLAGS | JSON_ENCODE_ANY);
    if (!flat || depth == 0)
        return flat;
    size_t lines = 0, len = strlen(flat);
    for (const char *p = flat; (p = strchr(p, '\n')); p++)
        lines++;
    char *out = malloc(len + lines * depth + 1), *o = out;
    if (out) {
        for (const char *p = flat; *p; p++) {
            *o++ = *p;
            if (*p == '\n')
                for (size_t k = 0; k < depth; k++)
                    *o++ = ' ';
        }
        *o = '\0';
    }
    free(flat);
    return out;
}

/* Record i of the document's benchmarks, from c when c holds this very record. */
static const char *cache_text(mb_results_json_cache_t *c, size_t i, const json_t *rec)
{
    if (i >= c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 64;
        while (cap <= i)
            cap *= 2;
        json_t **recs = realloc(c->rec, cap * sizeof *recs);
        if (!recs)
            return NULL;
        c->rec = recs;
        char **texts = realloc(c->text, cap * sizeof *texts);
        if (!texts)
            return NULL;
        c->text = texts;
        memset(c->rec + c->cap, 0, (cap - c->cap) * sizeof *recs);
        memset(c->text + c->cap, 0, (cap - c->cap) * sizeof *texts);
        c->cap = cap;
    }
    if (i >= c->n)
        c->n = i + 1;
    if (c->rec[i] != rec || !c->text[i]) {
        cache_drop(c, i);
        if (!(c->text[i] = json_text_at_depth(rec, 2)))
            return NULL;
        /* jansson's reference count is the record's own bookkeeping, not its content */
        c->rec[i] = json_incref((json_t *)rec);
    }
    return c->text[i];
}

/* The "benchmarks" array at depth 1, as json_dumpf lays it out. */
static int write_benchmarks(FILE *f, const json_t *benchmarks, mb_results_json_cache_t *c)
{
    size_t n = json_array_size(benchmarks);
    if (n == 0)
        return fputs("[]", f) == EOF ? -1 : 0;
    if (fputc('[', f) == EOF)
        return -1;
    for (size_t i = 0; i < n; i++) {
        const char *text = cache_text(c, i, json_array_get(benchmarks, i));
        if (!text || fputs(i ? ",\n  " : "\n  ", f) == EOF || fputs(text, f) == EOF)
            return -1;
    }
    for (size_t i = n; i < c->n; i++) /* records no longer in the document */
        cache_drop(c, i);
    c->n = n;
    return fputs("\n ]", f) == EOF ? -1 : 0;
}

int mb_results_json_write(FILE *f, const json_t *root, mb_results_json_cache_t *c)
{
    if (!json_is_object(root) || json_object_size(root) == 0 || !c)
        return !root || json_dumpf(root, f, MB_RESULTS_JSON_FLAGS) != 0 || fputc('\n', f) == EOF
                   ? -1
                   : 0;
    const char *key;
    const json_t *v;
    bool first = true;
    int rc = fputc('{', f) == EOF ? -1 : 0;
    json_object_foreach((json_t *)root, key, v)
    {
        if (rc != 0)
            break;
        json_t *name = json_string(key);
        char *key_text = name ? json_dumps(name, JSON_ENCODE_ANY) : NULL;
        json_decref(name);
        if (!key_text || fputs(first ? "\n " : ",\n ", f) == EOF || fputs(key_text, f) == EOF ||
            fputs(": ", f) == EOF)
            rc = -1;
        free(key_text);
        first = false;
        if (rc == 0 && strcmp(key, "benchmarks") == 0 && json_is_array(v)) {
            rc = write_benchmarks(f, v, c);
        } else if (rc == 0) {
            char *text = json_text_at_depth(v, 1);
            if (!text || fputs(text, f) == EOF)
                rc = -1;
            free(text);
        }
    }
    if (rc == 0 && fputs("\n}\n", f) == EOF)
        rc = -1;
    return rc;
}
