/* SPDX-License-Identifier: MIT */
/* Run configuration: an INI file (parsed by inih) checked against the key table in
 * config_keys.def. Unknown sections or keys, bad values and bad units are errors that
 * name the file and line. */
#ifndef MB_CONFIG_H
#define MB_CONFIG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#define MB_SIZE_LIST_MAX 128
#define MB_CONFIG_STRING_MAX 64

typedef struct mb_size_list {
    size_t n;
    uint64_t bytes[MB_SIZE_LIST_MAX];
} mb_size_list_t;

#define MB_CONFIG_CTYPE_COUNT uint64_t
#define MB_CONFIG_CTYPE_SIZE uint64_t            /* bytes; 0 = auto where allowed */
#define MB_CONFIG_CTYPE_SIZE_LIST mb_size_list_t
#define MB_CONFIG_CTYPE_DURATION uint64_t        /* ns; 0 = auto where allowed */
#define MB_CONFIG_CTYPE_FRACTION double
#define MB_CONFIG_CTYPE_CLOCK int                /* an mb_clock_id_t */
#define MB_CONFIG_CTYPE_BOOL int                 /* 0 or 1 (yes/no, true/false, on/off) */
#define MB_CONFIG_CTYPE_NOISE_ACTION int         /* an mb_noise_action_t */
#define MB_CONFIG_CTYPE_SYNC int                 /* an mb_sync_id_t */
#define MB_CONFIG_CTYPE_BUFFERS int              /* an mb_buffers_t */

/* What the pre-flight does when a node is noisier than allowed. */
typedef enum mb_noise_action { MB_NOISE_WARN = 0, MB_NOISE_ABORT } mb_noise_action_t;

/* How the ranks of a collective start each call together (harness_calls.h). */
typedef enum mb_sync_id { MB_SYNC_BARRIER = 0, MB_SYNC_WINDOW } mb_sync_id_t;

/* Message buffers: the same warm ones every call, or cycled through more than the LLC. */
typedef enum mb_buffers { MB_BUFFERS_WARM = 0, MB_BUFFERS_COLD } mb_buffers_t;

typedef struct mb_config {
#define MB_CONFIG_KEY(section, key, type, def, help) MB_CONFIG_CTYPE_##type section##_##key;
#include "config_keys.def"
#undef MB_CONFIG_KEY
} mb_config_t;

/* Set every key to its default from config_keys.def. */
void mb_config_defaults(mb_config_t *cfg);

/* Apply INI `text` on top of cfg's current values; `filename` names the source in messages.
 * Returns 0, or -1 with "FILE:LINE: what is wrong" in err (cfg is then unspecified). */
int mb_config_parse_string(mb_config_t *cfg, const char *text, const char *filename,
                           char *err, size_t errlen);

/* Read and apply the INI file at path. Returns 0, or -1 with a message naming the file. */
int mb_config_load_file(mb_config_t *cfg, const char *path, char *err, size_t errlen);

/* Every key and its value as {"section": {"key": value}} (sizes in bytes, durations in ns,
 * "auto" stays "auto"). New reference. */
json_t *mb_config_to_json(const mb_config_t *cfg);

/* Every key as a commented INI file of the defaults: "; (type) help" then "key = default",
 * by section. Its output parses back to mb_config_defaults(). */
void mb_config_print_keys(FILE *f);

/* Unit parsers; each returns 0, or -1 when the text is not a valid value of that kind (the
 * output is then untouched). Surrounding whitespace is ignored; results are at most
 * INT64_MAX so that JSON holds them exactly. */
int mb_parse_count(const char *text, uint64_t *out);
int mb_parse_size(const char *text, uint64_t *bytes);    /* "4096", "4K", "1M", "2G", "1MiB" */
int mb_parse_duration(const char *text, uint64_t *ns);   /* "500ns", "20us", "5ms", "1s" */
int mb_parse_fraction(const char *text, double *out);    /* "2%", "0.02"; 0 <= f < 1 */
int mb_parse_size_list(const char *text, mb_size_list_t *out);

#endif
