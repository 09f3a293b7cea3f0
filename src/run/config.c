/* SPDX-License-Identifier: MIT */
/* INI parsing on top of inih, with exact line numbers in every message.
 *
 * inih (Debian's r55) is built without INI_HANDLER_LINENO, so the handler cannot tell which
 * line it is called for, and ini_parse_string() only returns the line of the first error.
 * We therefore use ini_parse_stream() with our own line reader: inih asks for exactly one
 * line per call, so the reader's count is the line the handler is being called for. The
 * reader also sees what inih hides from the handler:
 *  - section headers: inih calls nobody for "[name]" (no INI_CALL_HANDLER_ON_NEW_SECTION),
 *    so an unknown section without keys would pass silently; the reader checks each one;
 *  - over-long lines: inih (r55) splits a line longer than its buffer (ini_max_line, 200
 *    bytes: 197 characters plus "\r\n") into several, which shifts every later line number;
 *    the reader reports such a line as an error and hands inih an empty line instead.
 *
 * Syntax accepted (inih's defaults as built by Debian, with comments made uniform):
 *  - "key = value" or "key: value"; whitespace around keys and values is ignored;
 *    a UTF-8 byte order mark and CRLF line ends are fine;
 *  - comment lines start with ';' or '#'; inline comments start with ';' or '#' preceded
 *    by whitespace: "min_experiments = 11 ; note" (inih r55 strips only ';' and only on key
 *    lines; the rest is stripped here);
 *  - an indented line after a key continues that key's value (Python configparser style;
 *    so an indented "key = value" there is not a key): the parts are joined with a space,
 *    which lets a size list go past one line:
 *        bcopy_sizes = 1K, 2K, 4K,
 *                      8K, 16K
 *  - a key given twice: the later one wins; a section may appear more than once;
 *  - section and key names are case-sensitive and are not trimmed ("[ run ]" is unknown).
 * A value error is reported at the line of its key. Zero sizes and durations are refused
 * (0 stands for auto, which is written "auto"). */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <ini.h>

#include "clock.h"

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

/* The names a choice-valued key takes, NULL-terminated in the order of its enum. */
static const char *const *choice_names(key_type_t t)
{
    return t == KT_NOISE_ACTION ? noise_actions : t == KT_SYNC ? sync_names
         : t == KT_BUFFERS      ? buffer_names  : NULL;
}

typedef struct config_key {
    const char *section;
    const char *key;
    key_type_t type;
    const char *def;
    const char *help;
    size_t offset; /* of the field in mb_config_t */
} config_key_t;

static const config_key_t config_keys[] = {
#define MB_CONFIG_KEY(section, key, type, def, help)                                          \
    {#section, #key, KT_##type, def, help, offsetof(mb_config_t, section##_##key)},
#include "config_keys.def"
#undef MB_CONFIG_KEY
};

#define NKEYS (sizeof config_keys / sizeof config_keys[0])

/* Largest count, size or duration: keeps every value exact as a JSON (int64) integer. */
#define VALUE_MAX ((uint64_t)INT64_MAX)

/* A value with continuation lines can be longer than one line. */
#define VALUE_TEXT_MAX 4096

static const char *type_name(key_type_t t)
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

static bool key_is_auto(const config_key_t *k) { return strcmp(k->def, "auto") == 0; }

/* ---- unit parsers: each works on a span, and says why it refused when why != NULL ---- */

static void say(char *why, size_t whylen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void say(char *why, size_t whylen, const char *fmt, ...)
{
    if (!why || whylen == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, whylen, fmt, ap);
    va_end(ap);
}

static void span_trim(const char **s, size_t *len)
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
static int span_digits(const char *s, size_t len, uint64_t *out, size_t *ndigits)
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

static int count_span(const char *s, size_t len, uint64_t *out, char *why, size_t whylen)
{
    uint64_t v;
    size_t nd;
    span_trim(&s, &len);
    int big = span_digits(s, len, &v, &nd);
    if (nd == 0 || nd != len) {
        say(why, whylen, "'%.*s' is not a count", (int)len, s);
        return -1;
    }
    if (big) {
        say(why, whylen, "'%.*s' is too large", (int)len, s);
        return -1;
    }
    *out = v;
    return 0;
}

static int size_span(const char *s, size_t len, uint64_t *out, char *why, size_t whylen)
{
    static const struct {
        const char *name;
        unsigned shift;
    } units[] = {
        {"", 0},    {"B", 0},     {"K", 10},  {"KB", 10}, {"KiB", 10}, {"M", 20},
        {"MB", 20}, {"MiB", 20},  {"G", 30},  {"GB", 30}, {"GiB", 30},
    };
    uint64_t v;
    size_t nd;
    span_trim(&s, &len);
    int big = span_digits(s, len, &v, &nd);
    if (nd == 0) {
        say(why, whylen, "'%.*s' is not a size", (int)len, s);
        return -1;
    }
    if (nd < len && s[nd] == '.') {
        say(why, whylen, "'%.*s' is not a whole number of bytes", (int)len, s);
        return -1;
    }
    const char *u = s + nd;
    size_t ulen = len - nd;
    span_trim(&u, &ulen);
    size_t i = 0;
    for (; i < sizeof units / sizeof units[0]; i++)
        if (strlen(units[i].name) == ulen && strncasecmp(units[i].name, u, ulen) == 0)
            break;
    if (i == sizeof units / sizeof units[0]) {
        say(why, whylen, "unknown unit '%.*s' in '%.*s' (use K, M or G)", (int)ulen, u, (int)len,
            s);
        return -1;
    }
    if (big || v > VALUE_MAX >> units[i].shift) {
        say(why, whylen, "'%.*s' is too large", (int)len, s);
        return -1;
    }
    *out = v << units[i].shift;
    return 0;
}

static int size_list_span(const char *s, size_t len, mb_size_list_t *out, char *why,
                          size_t whylen)
{
    mb_size_list_t list = {.n = 0};
    const char *all = s;
    size_t all_len = len;
    span_trim(&all, &all_len);
    if (all_len == 0) {
        say(why, whylen, "empty size list");
        return -1;
    }
    for (const char *p = all, *end = all + all_len;;) {
        const char *comma = memchr(p, ',', (size_t)(end - p));
        const char *e = comma ? comma : end;
        const char *item = p;
        size_t item_len = (size_t)(e - p);
        span_trim(&item, &item_len);
        if (item_len == 0) {
            say(why, whylen, "empty entry in '%.*s'", (int)all_len, all);
            return -1;
        }
        if (list.n == MB_SIZE_LIST_MAX) {
            say(why, whylen, "more than %d sizes", MB_SIZE_LIST_MAX);
            return -1;
        }
        if (size_span(item, item_len, &list.bytes[list.n], why, whylen) != 0)
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
static size_t decimal_span(const char *s, size_t len, size_t *ilen, size_t *flen)
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

static int duration_span(const char *s, size_t len, uint64_t *ns, char *why, size_t whylen)
{
    static const struct {
        const char *name;
        unsigned digits; /* log10 of ns per unit */
    } units[] = {{"ns", 0}, {"us", 3}, {"ms", 6}, {"s", 9}};
    size_t ilen, flen;
    span_trim(&s, &len);
    size_t nlen = decimal_span(s, len, &ilen, &flen);
    if (nlen == 0 || (nlen < len && s[nlen] == '.')) {
        say(why, whylen, "'%.*s' is not a duration", (int)len, s);
        return -1;
    }
    const char *u = s + nlen;
    size_t ulen = len - nlen;
    span_trim(&u, &ulen);
    if (ulen == 0) {
        say(why, whylen, "'%.*s' needs a unit (ns, us, ms or s)", (int)len, s);
        return -1;
    }
    size_t i = 0;
    for (; i < sizeof units / sizeof units[0]; i++)
        if (strlen(units[i].name) == ulen && strncmp(units[i].name, u, ulen) == 0)
            break;
    if (i == sizeof units / sizeof units[0]) {
        say(why, whylen, "unknown unit '%.*s' in '%.*s' (use ns, us, ms or s)", (int)ulen, u,
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
    int big = span_digits(s, ilen, &whole, &nd);
    const char *fd = s + ilen + 1;
    for (unsigned d = 0; d < digits; d++)
        frac = frac * 10 + (d < flen ? (uint64_t)(fd[d] - '0') : 0);
    if (flen > digits && fd[digits] >= '5')
        frac++;
    if (big || whole > (VALUE_MAX - frac) / mult) {
        say(why, whylen, "'%.*s' is too large", (int)len, s);
        return -1;
    }
    *ns = whole * mult + frac;
    return 0;
}

static int fraction_span(const char *s, size_t len, double *out, char *why, size_t whylen)
{
    size_t ilen, flen;
    span_trim(&s, &len);
    size_t nlen = decimal_span(s, len, &ilen, &flen);
    const char *rest = s + nlen;
    size_t rlen = len - nlen;
    span_trim(&rest, &rlen);
    bool percent = rlen == 1 && *rest == '%';
    if (nlen == 0 || (rlen != 0 && !percent)) {
        say(why, whylen, "'%.*s' is not a fraction (write e.g. 2%% or 0.02)", (int)len, s);
        return -1;
    }
    /* strtod stops where decimal_span did: the digits are followed by '%', space or the
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
        say(why, whylen, "'%.*s' is out of range (0 <= fraction < 1, i.e. below 100%%)", (int)len,
            s);
        return -1;
    }
    *out = v;
    return 0;
}

int mb_parse_count(const char *text, uint64_t *out)
{
    return count_span(text, strlen(text), out, NULL, 0);
}

int mb_parse_size(const char *text, uint64_t *bytes)
{
    return size_span(text, strlen(text), bytes, NULL, 0);
}

int mb_parse_duration(const char *text, uint64_t *ns)
{
    return duration_span(text, strlen(text), ns, NULL, 0);
}

int mb_parse_fraction(const char *text, double *out)
{
    return fraction_span(text, strlen(text), out, NULL, 0);
}

int mb_parse_size_list(const char *text, mb_size_list_t *out)
{
    return size_list_span(text, strlen(text), out, NULL, 0);
}

/* ---- keys ---- */

static bool section_known(const char *name, size_t len)
{
    for (size_t i = 0; i < NKEYS; i++)
        if (strlen(config_keys[i].section) == len &&
            strncmp(config_keys[i].section, name, len) == 0)
            return true;
    return false;
}

static const config_key_t *key_find(const char *section, const char *key)
{
    for (size_t i = 0; i < NKEYS; i++)
        if (strcmp(config_keys[i].section, section) == 0 && strcmp(config_keys[i].key, key) == 0)
            return &config_keys[i];
    return NULL;
}

static void clock_names(char *buf, size_t len)
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

/* Parse `text` as k's value and store it in cfg. Returns 0, or -1 with the reason in why
 * (without the "[section] key: " prefix). */
static int key_set(mb_config_t *cfg, const config_key_t *k, const char *text, char *why,
                   size_t whylen)
{
    void *field = (char *)cfg + k->offset;
    uint64_t u = 0;
    int rc = -1;

    if (strcmp(text, "auto") == 0) {
        if (!key_is_auto(k)) {
            say(why, whylen, "auto is not allowed here (the default is %s)", k->def);
            return -1;
        }
        if (k->type != KT_COUNT && k->type != KT_SIZE && k->type != KT_DURATION) {
            say(why, whylen, "auto is not supported for a %s", type_name(k->type));
            return -1;
        }
        *(uint64_t *)field = 0;
        return 0;
    }
    if (*text == '\0') {
        say(why, whylen, "no value");
        return -1;
    }
    size_t len = strlen(text);
    switch (k->type) {
    case KT_COUNT:
        rc = count_span(text, len, &u, why, whylen);
        break;
    case KT_SIZE:
    case KT_DURATION:
        rc = k->type == KT_SIZE ? size_span(text, len, &u, why, whylen)
                                : duration_span(text, len, &u, why, whylen);
        /* 0 would read back as auto (or is meaningless): refuse it rather than guess. */
        if (rc == 0 && u == 0) {
            say(why, whylen, "'%s' must be greater than zero%s", text,
                key_is_auto(k) ? " (write auto for the automatic choice)" : "");
            rc = -1;
        }
        break;
    case KT_SIZE_LIST: {
        mb_size_list_t list;
        rc = size_list_span(text, len, &list, why, whylen);
        for (size_t i = 0; rc == 0 && i < list.n; i++) {
            if (list.bytes[i] == 0) {
                say(why, whylen, "sizes must be greater than zero in '%s'", text);
                rc = -1;
            }
        }
        if (rc == 0)
            *(mb_size_list_t *)field = list;
        return rc;
    }
    case KT_FRACTION:
        return fraction_span(text, len, (double *)field, why, whylen);
    case KT_CLOCK: {
        int id = mb_clock_lookup(text);
        if (id < 0) {
            char names[128];
            clock_names(names, sizeof names);
            say(why, whylen, "unknown clock '%s' (use %s)", text, names);
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
        say(why, whylen, "'%s' is not yes or no", text);
        return -1;
    case KT_NOISE_ACTION:
    case KT_SYNC:
    case KT_BUFFERS: {
        const char *const *names = choice_names(k->type);
        for (int i = 0; names[i]; i++) {
            if (strcmp(text, names[i]) == 0) {
                *(int *)field = i;
                return 0;
            }
        }
        say(why, whylen, "'%s' is not %s", text, type_name(k->type));
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
    for (size_t i = 0; i < NKEYS; i++) {
        char why[256];
        const config_key_t *k = &config_keys[i];
        if (key_set(cfg, k, k->def, why, sizeof why) != 0) {
            /* A broken default in config_keys.def is a bug, not a user error. */
            fprintf(stderr, "mbsuite: config_keys.def: bad default for [%s] %s: %s\n",
                    k->section, k->key, why);
            abort();
        }
    }
}

/* ---- parsing ---- */

typedef struct parse_ctx {
    mb_config_t *cfg;
    const char *next, *end; /* text not yet handed to inih */
    int lineno;             /* the line inih is working on */
    bool after_key;         /* mirrors inih's prev_name: an indented line would continue */
    bool cont;              /* the current line continues the previous key's value */
    int err_line;           /* earliest error so far; 0 when none */
    char err[512];
    int key_line[NKEYS];          /* line each key was last set on; 0 when not in this text */
    const config_key_t *pending;  /* key whose value is being collected, or NULL */
    int pending_line;
    size_t pending_len;
    char pending_text[VALUE_TEXT_MAX];
} parse_ctx_t;

static void parse_error(parse_ctx_t *ctx, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Keep the error on the earliest line: value errors surface when the value is complete,
 * after inih has moved on. */
static void parse_error(parse_ctx_t *ctx, int line, const char *fmt, ...)
{
    if (ctx->err_line != 0 && ctx->err_line <= line)
        return;
    ctx->err_line = line;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ctx->err, sizeof ctx->err, fmt, ap);
    va_end(ap);
}

/* inih's rule: first char of `chars`, or an inline ';' comment after whitespace. */
static const char *find_chars_or_comment(const char *s, const char *end, const char *chars)
{
    bool was_space = false;
    while (s < end && !strchr(chars, *s) && !(was_space && *s == ';')) {
        was_space = isspace((unsigned char)*s);
        s++;
    }
    return s;
}

/* Classify the line the way ini_parse_stream() will (r55, multi-line values and inline
 * comments on), to know continuation lines and to check section headers. */
static void classify_line(parse_ctx_t *ctx, const char *line)
{
    const char *start = line, *end = line + strlen(line);
    if (ctx->lineno == 1 && (unsigned char)start[0] == 0xEF && (unsigned char)start[1] == 0xBB &&
        (unsigned char)start[2] == 0xBF)
        start += 3; /* UTF-8 byte order mark */
    while (start < end && isspace((unsigned char)*start))
        start++;
    while (end > start && isspace((unsigned char)end[-1]))
        end--;
    if (start == end || *start == ';' || *start == '#')
        return;
    if (ctx->after_key && start > line) {
        ctx->cont = true;
        return;
    }
    if (*start == '[') {
        const char *close = find_chars_or_comment(start + 1, end, "]");
        if (close < end && *close == ']') {
            ctx->after_key = false;
            if (!section_known(start + 1, (size_t)(close - start - 1)))
                parse_error(ctx, ctx->lineno, "unknown section [%.*s]",
                            (int)(close - start - 1), start + 1);
        }
        return; /* without ']', inih reports a syntax error */
    }
    const char *sep = find_chars_or_comment(start, end, "=:");
    if (sep < end && (*sep == '=' || *sep == ':')) {
        while (sep > start && isspace((unsigned char)sep[-1]))
            sep--;
        ctx->after_key = sep > start; /* inih's prev_name is the (maybe empty) name */
    }
}

/* ini_reader: hand inih the next line, whole or not at all. */
static char *read_line(char *buf, int size, void *stream)
{
    parse_ctx_t *ctx = stream;
    if (ctx->next >= ctx->end || size < 4)
        return NULL;
    const char *line = ctx->next;
    const char *nl = memchr(line, '\n', (size_t)(ctx->end - line));
    size_t len = nl ? (size_t)(nl - line) + 1 : (size_t)(ctx->end - line);
    size_t content = len;
    ctx->next += len;
    ctx->lineno++;
    ctx->cont = false;
    if (content > 0 && line[content - 1] == '\n')
        content--;
    if (content > 0 && line[content - 1] == '\r')
        content--;
    if (content > (size_t)size - 3) {
        parse_error(ctx, ctx->lineno, "line is longer than %d characters", size - 3);
        strcpy(buf, "\n");
        return buf;
    }
    memcpy(buf, line, len);
    buf[len] = '\0';
    classify_line(ctx, buf);
    return buf;
}

/* Cut an inline comment and trailing whitespace: inih r55 cuts ';' comments on key lines
 * only, not '#' ones nor any on continuation lines. */
static void strip_comment(char *s)
{
    for (char *p = s; *p; p++) {
        if ((*p == ';' || *p == '#') && p > s && isspace((unsigned char)p[-1])) {
            *p = '\0';
            break;
        }
    }
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
}

/* Apply the value collected for the pending key, if any. */
static void flush_pending(parse_ctx_t *ctx)
{
    const config_key_t *k = ctx->pending;
    char why[384];
    if (!k)
        return;
    ctx->pending = NULL;
    if (key_set(ctx->cfg, k, ctx->pending_text, why, sizeof why) != 0)
        parse_error(ctx, ctx->pending_line, "[%s] %s: %s", k->section, k->key, why);
    else
        ctx->key_line[k - config_keys] = ctx->pending_line;
}

static int append_pending(parse_ctx_t *ctx, const char *value)
{
    size_t sep = ctx->pending_len > 0 ? 1 : 0;
    size_t n = strlen(value);
    if (ctx->pending_len + sep + n >= sizeof ctx->pending_text)
        return -1;
    if (sep)
        ctx->pending_text[ctx->pending_len] = ' ';
    memcpy(ctx->pending_text + ctx->pending_len + sep, value, n + 1);
    strip_comment(ctx->pending_text + ctx->pending_len + sep);
    ctx->pending_len = strlen(ctx->pending_text);
    return 0;
}

/* ini_handler: called for every key line and continuation line. */
static int on_value(void *user, const char *section, const char *name, const char *value)
{
    parse_ctx_t *ctx = user;
    int line = ctx->lineno;

    if (ctx->cont) {
        if (!ctx->pending)
            return 0; /* its key was refused already */
        if (append_pending(ctx, value) != 0) {
            parse_error(ctx, line, "[%s] %s: value is longer than %d characters",
                        ctx->pending->section, ctx->pending->key, VALUE_TEXT_MAX - 1);
            ctx->pending = NULL;
            return 0;
        }
        return 1;
    }
    flush_pending(ctx);
    if (*section == '\0') {
        parse_error(ctx, line, "key '%s' is outside any section", name);
        return 0;
    }
    if (!section_known(section, strlen(section))) {
        parse_error(ctx, line, "unknown section [%s]", section); /* the reader saw it first */
        return 0;
    }
    const config_key_t *k = key_find(section, name);
    if (!k) {
        parse_error(ctx, line, "unknown key '%s' in section [%s]", name, section);
        return 0;
    }
    ctx->pending = k;
    ctx->pending_line = line;
    ctx->pending_len = 0;
    ctx->pending_text[0] = '\0';
    if (append_pending(ctx, value) != 0) { /* cannot happen: a line is shorter */
        parse_error(ctx, line, "[%s] %s: value is too long", k->section, k->key);
        ctx->pending = NULL;
        return 0;
    }
    return 1;
}

static int key_index(size_t offset)
{
    for (size_t i = 0; i < NKEYS; i++)
        if (config_keys[i].offset == offset)
            return (int)i;
    return -1;
}

#define KEY_LINE(ctx, field) ((ctx)->key_line[key_index(offsetof(mb_config_t, field))])

/* Cross-key checks on the result. Returns 0, or -1 with *line (0 when the offending
 * value did not come from this text) and msg set. */
static int config_check(const parse_ctx_t *ctx, int *line, char *msg, size_t msglen)
{
    const mb_config_t *c = ctx->cfg;
    int min_line = KEY_LINE(ctx, run_min_experiments);
    int max_line = KEY_LINE(ctx, run_max_experiments);

    if (c->run_min_experiments < 1) {
        *line = min_line;
        snprintf(msg, msglen, "[run] min_experiments: must be at least 1");
        return -1;
    }
    if (c->run_max_experiments < c->run_min_experiments) {
        /* Blame the key this text set; max when it set both. */
        if (max_line != 0 || min_line == 0) {
            *line = max_line;
            snprintf(msg, msglen,
                     "[run] max_experiments: %" PRIu64 " is less than min_experiments (%" PRIu64
                     ")",
                     c->run_max_experiments, c->run_min_experiments);
        } else {
            *line = min_line;
            snprintf(msg, msglen,
                     "[run] min_experiments: %" PRIu64 " is more than max_experiments (%" PRIu64
                     ")",
                     c->run_min_experiments, c->run_max_experiments);
        }
        return -1;
    }
    if (!(c->run_ci_target > 0.0)) {
        *line = KEY_LINE(ctx, run_ci_target);
        snprintf(msg, msglen, "[run] ci_target: must be greater than 0");
        return -1;
    }
    return 0;
}

int mb_config_parse_string(mb_config_t *cfg, const char *text, const char *filename,
                           char *err, size_t errlen)
{
    const char *file = filename ? filename : "<string>";
    parse_ctx_t *ctx = calloc(1, sizeof *ctx);
    char msg[512];
    int line = 0, rc = -1;

    char sink[1];

    if (!err || errlen == 0) {
        err = sink;
        errlen = sizeof sink;
    }
    if (!ctx) {
        snprintf(err, errlen, "%s: out of memory", file);
        return -1;
    }
    ctx->cfg = cfg;
    ctx->next = text;
    ctx->end = text + strlen(text);

    int ret = ini_parse_stream(read_line, ctx, on_value, ctx);
    flush_pending(ctx);
    if (ret < 0)
        snprintf(err, errlen, "%s: out of memory", file);
    else if (ret > 0 && (ctx->err_line == 0 || ret < ctx->err_line))
        snprintf(err, errlen, "%s:%d: syntax error", file, ret); /* no handler call */
    else if (ctx->err_line != 0)
        snprintf(err, errlen, "%s:%d: %s", file, ctx->err_line, ctx->err);
    else if (config_check(ctx, &line, msg, sizeof msg) != 0) {
        if (line > 0)
            snprintf(err, errlen, "%s:%d: %s", file, line, msg);
        else
            snprintf(err, errlen, "%s: %s", file, msg);
    } else
        rc = 0;
    free(ctx);
    return rc;
}

/* Whole file into a NUL-terminated buffer; NULL on failure, with *why set or else errno. */
static char *read_text_file(const char *path, const char **why)
{
    enum { LIMIT = 1 << 20 }; /* far beyond any config; stops /dev/zero and friends */
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t len = 0, cap = 0;
    int e = 0;

    *why = NULL;
    if (!f)
        return NULL;
    for (;;) {
        if (cap - len < 4096) {
            cap = cap ? 2 * cap : 8192;
            char *nb = realloc(buf, cap);
            if (!nb) {
                e = ENOMEM;
                break;
            }
            buf = nb;
        }
        size_t n = fread(buf + len, 1, cap - len - 1, f);
        len += n;
        if (len > LIMIT) {
            *why = "larger than 1 MiB, not a configuration file";
            break;
        }
        if (n == 0) {
            if (ferror(f))
                e = errno ? errno : EIO;
            break;
        }
    }
    fclose(f);
    if (!e && !*why && memchr(buf, '\0', len))
        *why = "contains a NUL byte, not a text file";
    if (e || *why) {
        free(buf);
        errno = e;
        return NULL;
    }
    buf[len] = '\0';
    return buf;
}

int mb_config_load_file(mb_config_t *cfg, const char *path, char *err, size_t errlen)
{
    const char *why;
    errno = 0;
    char *text = read_text_file(path, &why);
    if (!text) {
        if (err && errlen)
            snprintf(err, errlen, "%s: cannot read: %s", path,
                     why ? why : strerror(errno ? errno : EIO));
        return -1;
    }
    int rc = mb_config_parse_string(cfg, text, path, err, errlen);
    free(text);
    return rc;
}

/* ---- output ---- */

static json_t *key_json(const mb_config_t *cfg, const config_key_t *k)
{
    const void *field = (const char *)cfg + k->offset;
    switch (k->type) {
    case KT_COUNT:
    case KT_SIZE:
    case KT_DURATION: {
        uint64_t v = *(const uint64_t *)field;
        if (v == 0 && key_is_auto(k))
            return json_string("auto");
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
        return json_string(choice_names(k->type)[*(const int *)field]);
    }
    return NULL;
}

json_t *mb_config_to_json(const mb_config_t *cfg)
{
    json_t *root = json_object();
    if (!root)
        return NULL;
    for (size_t i = 0; i < NKEYS; i++) {
        const config_key_t *k = &config_keys[i];
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
    for (size_t i = 0; i < NKEYS; i++) {
        const config_key_t *k = &config_keys[i];
        if (!section || strcmp(section, k->section) != 0) {
            fprintf(f, "%s[%s]\n", section ? "\n" : "", k->section);
            section = k->section;
        }
        fprintf(f, "; (%s) %s\n%s = %s\n", type_name(k->type), k->help, k->key, k->def);
    }
}
