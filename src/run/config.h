/* SPDX-License-Identifier: MIT */
/* Run configuration: an INI file (parsed by inih) checked against the key table in
 * config_keys.def. Unknown sections or keys, bad values and bad units are errors that
 * name the file and line. Implemented by config_file.c (reading), config_parse.c (INI
 * text), config_key.c (the keys and their values) and config_units.c (units). */
#ifndef MB_CONFIG_H
#define MB_CONFIG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "config_units.h"

#define MB_CONFIG_STRING_MAX 64

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

/* The longest [mpi] pattern_compute accepted (docs/mpi.md). */
#define MB_CONFIG_PATTERN_COMPUTE_MAX_NS UINT64_C(100000000)
/* Most messages in flight per window of the streaming bandwidth benchmarks ([mpi] window). */
#define MB_CONFIG_WINDOW_MAX 1024

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

/* The file at path as NUL-terminated text (free() it), read once. A directory, more than
 * 1 MiB, or binary data (a NUL or other control byte) is refused without reading further.
 * Returns NULL with "PATH: what is wrong" (or "PATH:LINE: ...") in err. */
char *mb_config_read_file(const char *path, char *err, size_t errlen);

/* Apply the bytes buf[0..len) (not NUL-terminated) as mb_config_load_file applies a file:
 * the same refusals of binary data and of more than 1 MiB, the same messages, naming
 * `name`. For text already in memory (and the fuzzer, tests/fuzz/). Returns 0 or -1. */
int mb_config_parse_buffer(mb_config_t *cfg, const char *buf, size_t len, const char *name,
                           char *err, size_t errlen);

/* Read (as mb_config_read_file) and apply the INI file at path. Returns 0, or -1 with a
 * message naming the file, and the line where there is one. */
int mb_config_load_file(mb_config_t *cfg, const char *path, char *err, size_t errlen);

/* Every key and its value as {"section": {"key": value}} (sizes in bytes, durations in ns,
 * "auto" stays "auto"). New reference. */
json_t *mb_config_to_json(const mb_config_t *cfg);

/* Every key as a commented INI file of the defaults: "; (type) help" then "key = default",
 * by section. Its output parses back to mb_config_defaults(). */
void mb_config_print_keys(FILE *f);

#endif
