/* SPDX-License-Identifier: MIT */
/* Unit parsers. Each works on a span, so that a size list's entries need no copies, and
 * says why it refused when why != NULL. */
#include "config_units.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Largest count, size or duration: keeps every value exact as a JSON (int64) integer. */
#define VALUE_MAX ((uint64_t)INT64_MAX)

void mb_units_say(char *why, size_t whylen, const char *fmt, ...)
{
    if (!why || whylen == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, whylen, fmt, ap);
    va_end(ap);
}

static void units_trim(const char **s, size_t *len)
{
    while (*len > 0 && isspace((unsigned char)**s)) {
        (*s)++;
        (*len)--;
    }
    while (*len > 0 && isspace((unsigned char)(*s)[*len - 1]))
        (*len)--;
}

/* Leading decimal digits of s[0..len) as a number; *ndigits gets how many (0: none).
 * Returns -1 when the number exceeds VALUE_MAX. */
static int units_digits(const char *s, size_t len, uint64_t *out, size_t *ndigits)
{
    uint64_t v = 0;
    size_t i = 0;
    int rc = 0;
    for (; i < len && isdigit((unsigned char)s[i]); i++) {
        unsigned d = (unsigned)(s[i] - '0');
        if (v > (VALUE_MAX - d) / 10)
            rc = -1;
        else
            v = v * 10 + d;
    }
    *ndigits = i;
    *out = v;
    return rc;
}

static int units_count(const char *s, size_t len, uint64_t *out, char *why, size_t whylen)
{
    uint64_t v;
    size_t nd;
    units_trim(&s, &len);
    int big = units_digits(s, len, &v, &nd);
    if (nd == 0 || nd != len) {
        mb_units_say(why, whylen, "'%.*s' is not a count", (int)len, s);
        return -1;
    }
    if (big) {
        mb_units_say(why, whylen, "'%.*s' is too large", (int)len, s);
        return -1;
    }
    *out = v;
    return 0;
}

static int units_size(const char *s, size_t len, uint64_t *out, char *why, size_t whylen)
{
    static const struct {
        const char *name;
        unsigned shift;
    } units[] = {
        {"", 0},    {"B", 0},    {"K", 10}, {"KB", 10}, {"KiB", 10}, {"M", 20},
        {"MB", 20}, {"MiB", 20}, {"G", 30}, {"GB", 30}, {"GiB", 30},
    };
    uint64_t v;
    size_t nd;
    units_trim(&s, &len);
    int big = units_digits(s, len, &v, &nd);
    if (nd == 0) {
        mb_units_say(why, whylen, "'%.*s' is not a size", (int)len, s);
        return -1;
    }
    if (nd < len && s[nd] == '.') {
        mb_units_say(why, whylen, "'%.*s' is not a whole number of bytes", (int)len, s);
        return -1;
    }
    const char *u = s + nd;
    size_t ulen = len - nd;
    units_trim(&u, &ulen);
    size_t i = 0;
    for (; i < sizeof units / sizeof units[0]; i++)
        if (strlen(units[i].name) == ulen && strncasecmp(units[i].name, u, ulen) == 0)
            break;
    if (i == sizeof units / sizeof units[0]) {
        mb_units_say(why, whylen, "unknown unit '%.*s' in '%.*s' (use K, M or G)", (int)ulen, u,
                  (int)len, s);
        return -1;
    }
    if (big || v > VALUE_MAX >> units[i].shift) {
        mb_units_say(why, whylen, "'%.*s' is too large", (int)len, s);
        return -1;
    }
    *out = v << units[i].shift;
    return 0;
}

static int units_size_list(const char *s, size_t len, mb_size_list_t *out, char *why, size_t whylen)
{
    mb_size_list_t list = {.n = 0};
    const char *all = s;
    size_t all_len = len;
    units_trim(&all, &all_len);
    if (all_len == 0) {
        mb_units_say(why, whylen, "empty size list");
        return -1;
    }
    for (const char *p = all, *end = all + all_len;;) {
        const char *comma = memchr(p, ',', (size_t)(end - p));
        const char *e = comma ? comma : end;
        const char *item = p;
        size_t item_len = (size_t)(e - p);
        units_trim(&item, &item_len);
        if (item_len == 0) {
            mb_units_say(why, whylen, "empty entry in '%.*s'", (int)all_len, all);
            return -1;
        }
        if (list.n == MB_SIZE_LIST_MAX) {
            mb_units_say(why, whylen, "more than %d sizes", MB_SIZE_LIST_MAX);
            return -1;
        }
        if (units_size(item, item_len, &list.bytes[list.n], why, whylen) != 0)
            return -1;
        list.n++;
        if (!comma)
            break;
        p = comma + 1;
    }
    *out = list;
    return 0;
}

/* Digits [int_part][.frac] of a decimal; ilen/flen are 0 when absent. Returns the length
 * of the number, 0 when s does not start with one (both parts need a digit). */
static size_t units_decimal(const char *s, size_t len, size_t *ilen, size_t *flen)
{
    size_t i = 0, f = 0;
    while (i < len && isdigit((unsigned char)s[i]))
        i++;
    if (i == 0)
        return 0;
    if (i < len && s[i] == '.') {
        while (i + 1 + f < len && isdigit((unsigned char)s[i + 1 + f]))
            f++;
        if (f == 0)
            return 0;
    }
    *ilen = i;
    *flen = f;
    return f ? i + 1 + f : i;
}

static int units_duration(const char *s, size_t len, uint64_t *ns, char *why, size_t whylen)
{
    static const struct {
        const char *name;
        unsigned digits; /* log10 of ns per unit */
    } units[] = {{"ns", 0}, {"us", 3}, {"ms", 6}, {"s", 9}};
    size_t ilen, flen;
    units_trim(&s, &len);
    size_t nlen = units_decimal(s, len, &ilen, &flen);
    if (nlen == 0 || (nlen < len && s[nlen] == '.')) {
        mb_units_say(why, whylen, "'%.*s' is not a duration", (int)len, s);
        return -1;
    }
    const char *u = s + nlen;
    size_t ulen = len - nlen;
    units_trim(&u, &ulen);
    if (ulen == 0) {
        mb_units_say(why, whylen, "'%.*s' needs a unit (ns, us, ms or s)", (int)len, s);
        return -1;
    }
    size_t i = 0;
    for (; i < sizeof units / sizeof units[0]; i++)
        if (strlen(units[i].name) == ulen && strncmp(units[i].name, u, ulen) == 0)
            break;
    if (i == sizeof units / sizeof units[0]) {
        mb_units_say(why, whylen, "unknown unit '%.*s' in '%.*s' (use ns, us, ms or s)", (int)ulen, u,
                  (int)len, s);
        return -1;
    }
    /* Exact decimal arithmetic: the first `digits` fraction digits are whole ns, the next
     * one rounds, so "1.5ms" is exactly 1500000 ns. */
    unsigned digits = units[i].digits;
    uint64_t mult = 1, whole, frac = 0;
    size_t nd;
    for (unsigned d = 0; d < digits; d++)
        mult *= 10;
    int big = units_digits(s, ilen, &whole, &nd);
    const char *fd = s + ilen + 1;
    for (unsigned d = 0; d < digits; d++)
        frac = frac * 10 + (d < flen ? (uint64_t)(fd[d] - '0') : 0);
    if (flen > digits && fd[digits] >= '5')
        frac++;
    if (big || whole > (VALUE_MAX - frac) / mult) {
        mb_units_say(why, whylen, "'%.*s' is too large", (int)len, s);
        return -1;
    }
    *ns = whole * mult + frac;
    return 0;
}

static int units_fraction(const char *s, size_t len, double *out, char *why, size_t whylen)
{
    size_t ilen, flen;
    units_trim(&s, &len);
    size_t nlen = units_decimal(s, len, &ilen, &flen);
    const char *rest = s + nlen;
    size_t rlen = len - nlen;
    units_trim(&rest, &rlen);
    bool percent = rlen == 1 && *rest == '%';
    if (nlen == 0 || (rlen != 0 && !percent)) {
        mb_units_say(why, whylen, "'%.*s' is not a fraction (write e.g. 2%% or 0.02)", (int)len, s);
        return -1;
    }
    /* strtod stops where units_decimal did: the digits are followed by '%', space or the
     * end. "e-2" rounds a percentage once, so "99.9%" gives the double nearest 0.999.
     * The program never changes LC_NUMERIC, so '.' is the decimal point. */
    char buf[64];
    double v;
    if (percent && nlen < sizeof buf - 4) {
        snprintf(buf, sizeof buf, "%.*se-2", (int)nlen, s);
        v = strtod(buf, NULL);
    } else {
        v = strtod(s, NULL);
        if (percent)
            v /= 100.0;
    }
    if (!(v >= 0.0 && v < 1.0)) {
        mb_units_say(why, whylen, "'%.*s' is out of range (0 <= fraction < 1, i.e. below 100%%)",
                  (int)len, s);
        return -1;
    }
    *out = v;
    return 0;
}

int mb_units_parse_count(const char *text, uint64_t *out, char *why, size_t whylen)
{
    return units_count(text, strlen(text), out, why, whylen);
}

int mb_units_parse_size(const char *text, uint64_t *bytes, char *why, size_t whylen)
{
    return units_size(text, strlen(text), bytes, why, whylen);
}

int mb_units_parse_duration(const char *text, uint64_t *ns, char *why, size_t whylen)
{
    return units_duration(text, strlen(text), ns, why, whylen);
}

int mb_units_parse_fraction(const char *text, double *out, char *why, size_t whylen)
{
    return units_fraction(text, strlen(text), out, why, whylen);
}

int mb_units_parse_size_list(const char *text, mb_size_list_t *out, char *why, size_t whylen)
{
    return units_size_list(text, strlen(text), out, why, whylen);
}

int mb_parse_count(const char *text, uint64_t *out)
{
    return mb_units_parse_count(text, out, NULL, 0);
}

int mb_parse_size(const char *text, uint64_t *bytes)
{
    return mb_units_parse_size(text, bytes, NULL, 0);
}

int mb_parse_duration(const char *text, uint64_t *ns)
{
    return mb_units_parse_duration(text, ns, NULL, 0);
}

int mb_parse_fraction(const char *text, double *out)
{
    return mb_units_parse_fraction(text, out, NULL, 0);
}

int mb_parse_size_list(const char *text, mb_size_list_t *out)
{
    return mb_units_parse_size_list(text, out, NULL, 0);
}
