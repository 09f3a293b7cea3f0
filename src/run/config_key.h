/* SPDX-License-Identifier: MIT */
/* The configuration keys of config_keys.def, for the config module's reader: finding a key
 * and setting its value from text. (Defaults, JSON and the key list are in config.h.) */
#ifndef MB_CONFIG_KEY_H
#define MB_CONFIG_KEY_H

#include <stdbool.h>
#include <stddef.h>

#include "config.h"

/* How many keys config_keys.def lists. */
enum {
    MB_CONFIG_NKEYS = 0
#define MB_CONFIG_KEY(section, key, type, def, help) +1
#include "config_keys.def"
#undef MB_CONFIG_KEY
};

typedef struct mb_config_key mb_config_key_t;

/* The key `key` of section `section` (case-sensitive); NULL when there is none. */
const mb_config_key_t *mb_config_key_find(const char *section, const char *key);

/* The key stored at byte `offset` of mb_config_t (offsetof(mb_config_t, run_min_experiments)). */
const mb_config_key_t *mb_config_key_at(size_t offset);

/* Whether name[0..len) is a section of some key. */
bool mb_config_key_section_known(const char *name, size_t len);

/* k's position in config_keys.def, from 0 to MB_CONFIG_NKEYS - 1. */
size_t mb_config_key_index(const mb_config_key_t *k);

/* k's section and key names, for messages. */
const char *mb_config_key_section(const mb_config_key_t *k);
const char *mb_config_key_name(const mb_config_key_t *k);

/* Parse `text` (trimmed, comment cut) as k's value and store it in cfg. Returns 0, or -1
 * with the reason in why, without the "[section] key: " prefix. */
int mb_config_key_set(mb_config_t *cfg, const mb_config_key_t *k, const char *text, char *why,
                      size_t whylen);

#endif
