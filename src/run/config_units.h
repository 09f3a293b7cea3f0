/* SPDX-License-Identifier: MIT */
/* The values of configuration keys as text: counts, sizes with units, durations with units,
 * fractions and size lists. Surrounding whitespace is ignored; counts, sizes and durations
 * are at most INT64_MAX so that JSON holds them exactly. */
#ifndef MB_CONFIG_UNITS_H
#define MB_CONFIG_UNITS_H

#include <stddef.h>
#include <stdint.h>

#define MB_SIZE_LIST_MAX 128

typedef struct mb_size_list {
    size_t n;
    uint64_t bytes[MB_SIZE_LIST_MAX];
} mb_size_list_t;

/* Each parser reads NUL-terminated text and returns 0, or -1 (the output untouched) with
 * the reason in why, without the key's name, when why is not NULL. */
int mb_units_parse_count(const char *text, uint64_t *out, char *why, size_t whylen);
/* "4096", "4K", "1M", "2G", "1MiB": K, M, G are 2^10, 2^20, 2^30 bytes. */
int mb_units_parse_size(const char *text, uint64_t *bytes, char *why, size_t whylen);
/* "500ns", "20us", "1.5ms", "1s", to the nearest ns. */
int mb_units_parse_duration(const char *text, uint64_t *ns, char *why, size_t whylen);
/* "2%" or "0.02"; 0 <= fraction < 1. */
int mb_units_parse_fraction(const char *text, double *out, char *why, size_t whylen);
/* Comma-separated sizes, at most MB_SIZE_LIST_MAX. */
int mb_units_parse_size_list(const char *text, mb_size_list_t *out, char *why, size_t whylen);

/* Write a reason into why (printf-style) when why is not NULL: the parsers' way of saying
 * why a value is refused. */
void mb_units_say(char *why, size_t whylen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The same without a reason: 0, or -1 when text is not a valid value of that kind. */
int mb_parse_count(const char *text, uint64_t *out);
int mb_parse_size(const char *text, uint64_t *bytes);
int mb_parse_duration(const char *text, uint64_t *ns);
int mb_parse_fraction(const char *text, double *out);
int mb_parse_size_list(const char *text, mb_size_list_t *out);

#endif
