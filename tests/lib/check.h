/* SPDX-License-Identifier: MIT */
/* Checking a JSON document step by step while tracking the JSON path of the value being
 * checked, so that the first problem is reported as "$.benchmarks[2].points[0].median:
 * what is wrong". Shared by the results validators (test-only code). */
#ifndef MB_CHECK_H
#define MB_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

/* The JSON kinds a value may have, or-ed together. */
enum {
    MB_CHECK_NULL = 1u << 0,
    MB_CHECK_STRING = 1u << 1,
    MB_CHECK_INTEGER = 1u << 2,
    MB_CHECK_NUMBER = 1u << 3, /* integer or real */
    MB_CHECK_BOOL = 1u << 4,
    MB_CHECK_OBJECT = 1u << 5,
    MB_CHECK_ARRAY = 1u << 6,
};

typedef enum mb_check_range {
    MB_CHECK_POSITIVE = 0, /* > 0 */
    MB_CHECK_NONNEG,       /* >= 0 */
} mb_check_range_t;

typedef struct mb_check {
    char path[512]; /* JSON path of the value being checked, "$" at the root */
    size_t len;
    char *err;
    size_t errlen;
} mb_check_t;

/* Append ".key" to the path; returns the length to give mb_check_pop to undo it. */
size_t mb_check_push_key(mb_check_t *c, const char *key);

/* Append "[i]" to the path; returns the length to give mb_check_pop to undo it. */
size_t mb_check_push_index(mb_check_t *c, size_t i);

/* Cut the path back to length old. */
void mb_check_pop(mb_check_t *c, size_t old);

/* Write "path: message" into c->err; always returns -1. */
__attribute__((format(printf, 2, 3))) int mb_check_fail(mb_check_t *c, const char *fmt, ...);

/* "object", "array", "string", "integer", "real", "boolean" or "null". */
const char *mb_check_type_name(const json_t *v);

/* obj.key if present and of one of `kinds`; else NULL with the error set (the path then
 * names the key when it has the wrong kind). */
const json_t *mb_check_get(mb_check_t *c, const json_t *obj, const char *key, unsigned kinds);

/* obj.key is a string, non-empty unless allow_empty, or null when nullable (*out = NULL).
 * Returns 0 with *out set (out may be NULL), or -1 with the error set. */
int mb_check_string(mb_check_t *c, const json_t *obj, const char *key, bool allow_empty,
                    bool nullable, const char **out);

/* obj.key is an integer >= min, or null when nullable (*out untouched). Returns 0 or -1. */
int mb_check_integer(mb_check_t *c, const json_t *obj, const char *key, json_int_t min,
                     bool nullable, json_int_t *out);

/* v (at the current path) is a finite number in range. Returns 0 with *out set, or -1. */
int mb_check_number_value(mb_check_t *c, const json_t *v, mb_check_range_t range, double *out);

/* obj.key is a finite number in range. Returns 0 with *out set (out may be NULL), or -1. */
int mb_check_number(mb_check_t *c, const json_t *obj, const char *key, mb_check_range_t range,
                    double *out);

/* obj.key is [lo, hi] with lo >= 0, hi in hi_range, lo <= hi. Returns 0 with both set, or
 * -1. mb_check_interval: hi > 0. */
int mb_check_interval_to(mb_check_t *c, const json_t *obj, const char *key,
                         mb_check_range_t hi_range, double *lo, double *hi);
int mb_check_interval(mb_check_t *c, const json_t *obj, const char *key, double *lo, double *hi);

/* a <= b, with a relative tolerance of 1e-9 when tolerant (interpolated figures). Returns
 * 0, or -1 with "an a > bn b". */
int mb_check_order(mb_check_t *c, const char *an, double a, const char *bn, double b,
                   bool tolerant);

/* obj.key is of one of `kinds` and passes fn, run with the path at the key. Returns 0 or -1. */
int mb_check_sub(mb_check_t *c, const json_t *obj, const char *key, unsigned kinds,
                 int (*fn)(mb_check_t *, const json_t *));

#endif
