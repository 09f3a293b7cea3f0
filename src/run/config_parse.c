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
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ini.h>

#include "config_key.h"

/* A value with continuation lines can be longer than one line. */
#define VALUE_TEXT_MAX 4096

typedef struct parse_ctx {
    mb_config_t *cfg;
    const char *next, *end; /* text not yet handed to inih */
    int lineno;             /* the line inih is working on */
    bool after_key;         /* mirrors inih's prev_name: an indented line would continue */
    bool cont;              /* the current line continues the previous key's value */
    int err_line;           /* earliest error so far; 0 when none */
    char err[512];
    int key_line[MB_CONFIG_NKEYS];  /* line each key was last set on; 0 when not in this text */
    const mb_config_key_t *pending; /* key whose value is being collected, or NULL */
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
static const char *parse_find_chars_or_comment(const char *s, const char *end, const char *chars)
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
static void parse_classify_line(parse_ctx_t *ctx, const char *line)
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
        const char *close = parse_find_chars_or_comment(start + 1, end, "]");
        if (close < end && *close == ']') {
            ctx->after_key = false;
            if (!mb_config_key_section_known(start + 1, (size_t)(close - start - 1)))
                parse_error(ctx, ctx->lineno, "unknown section [%.*s]", (int)(close - start - 1),
                            start + 1);
        }
        return; /* without ']', inih reports a syntax error */
    }
    const char *sep = parse_find_chars_or_comment(start, end, "=:");
    if (sep < end && (*sep == '=' || *sep == ':')) {
        while (sep > start && isspace((unsigned char)sep[-1]))
            sep--;
        ctx->after_key = sep > start; /* inih's prev_name is the (maybe empty) name */
    }
}

/* ini_reader: hand inih the next line, whole or not at all. */
static char *parse_read_line(char *buf, int size, void *stream)
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
    parse_classify_line(ctx, buf);
    return buf;
}

/* Cut an inline comment and trailing whitespace: inih r55 cuts ';' comments on key lines
 * only, not '#' ones nor any on continuation lines. */
static void parse_strip_comment(char *s)
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
static void parse_flush_pending(parse_ctx_t *ctx)
{
    const mb_config_key_t *k = ctx->pending;
    char why[384];
    if (!k)
        return;
    ctx->pending = NULL;
    if (mb_config_key_set(ctx->cfg, k, ctx->pending_text, why, sizeof why) != 0)
        parse_error(ctx, ctx->pending_line, "[%s] %s: %s", mb_config_key_section(k),
                    mb_config_key_name(k), why);
    else
        ctx->key_line[mb_config_key_index(k)] = ctx->pending_line;
}

static int parse_append_pending(parse_ctx_t *ctx, const char *value)
{
    size_t sep = ctx->pending_len > 0 ? 1 : 0;
    size_t n = strlen(value);
    if (ctx->pending_len + sep + n >= sizeof ctx->pending_text)
        return -1;
    if (sep)
        ctx->pending_text[ctx->pending_len] = ' ';
    memcpy(ctx->pending_text + ctx->pending_len + sep, value, n + 1);
    parse_strip_comment(ctx->pending_text + ctx->pending_len + sep);
    ctx->pending_len = strlen(ctx->pending_text);
    return 0;
}

/* ini_handler: called for every key line and continuation line. */
static int parse_on_value(void *user, const char *section, const char *name, const char *value)
{
    parse_ctx_t *ctx = user;
    int line = ctx->lineno;

    if (ctx->cont) {
        if (!ctx->pending)
            return 0; /* its key was refused already */
        if (parse_append_pending(ctx, value) != 0) {
            parse_error(ctx, line, "[%s] %s: value is longer than %d characters",
                        mb_config_key_section(ctx->pending), mb_config_key_name(ctx->pending),
                        VALUE_TEXT_MAX - 1);
            ctx->pending = NULL;
            return 0;
        }
        return 1;
    }
    parse_flush_pending(ctx);
    if (*section == '\0') {
        parse_error(ctx, line, "key '%s' is outside any section", name);
        return 0;
    }
    if (!mb_config_key_section_known(section, strlen(section))) {
        parse_error(ctx, line, "unknown section [%s]", section); /* the reader saw it first */
        return 0;
    }
    const mb_config_key_t *k = mb_config_key_find(section, name);
    if (!k) {
        parse_error(ctx, line, "unknown key '%s' in section [%s]", name, section);
        return 0;
    }
    ctx->pending = k;
    ctx->pending_line = line;
    ctx->pending_len = 0;
    ctx->pending_text[0] = '\0';
    if (parse_append_pending(ctx, value) != 0) { /* cannot happen: a line is shorter */
        parse_error(ctx, line, "[%s] %s: value is too long", mb_config_key_section(k),
                    mb_config_key_name(k));
        ctx->pending = NULL;
        return 0;
    }
    return 1;
}

/* The line of this text that set field, 0 when none did. */
#define KEY_LINE(ctx, field)                                                                       \
    ((ctx)->key_line[mb_config_key_index(mb_config_key_at(offsetof(mb_config_t, field)))])

/* Cross-key checks on the result. Returns 0, or -1 with *line (0 when the offending
 * value did not come from this text) and msg set. */
static int parse_check(const parse_ctx_t *ctx, int *line, char *msg, size_t msglen)
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
    if (c->os_experiments < 1) {
        *line = KEY_LINE(ctx, os_experiments);
        snprintf(msg, msglen, "[os] experiments: must be at least 1");
        return -1;
    }
    if (!(c->run_ci_target > 0.0)) {
        *line = KEY_LINE(ctx, run_ci_target);
        snprintf(msg, msglen, "[run] ci_target: must be greater than 0");
        return -1;
    }
    /* Every iteration of mpi.allreduce_compute computes this long: a longer phase measures
     * the clock, not the reduction, and makes each experiment last seconds. */
    if (c->mpi_pattern_compute > MB_CONFIG_PATTERN_COMPUTE_MAX_NS) {
        *line = KEY_LINE(ctx, mpi_pattern_compute);
        snprintf(msg, msglen, "[mpi] pattern_compute: must be at most 100ms");
        return -1;
    }
    if (c->mpi_window < 1 || c->mpi_window > MB_CONFIG_WINDOW_MAX) {
        *line = KEY_LINE(ctx, mpi_window);
        snprintf(msg, msglen, "[mpi] window: must be 1 to %d messages", MB_CONFIG_WINDOW_MAX);
        return -1;
    }
    return 0;
}

int mb_config_parse_string(mb_config_t *cfg, const char *text, const char *filename, char *err,
                           size_t errlen)
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

    int ret = ini_parse_stream(parse_read_line, ctx, parse_on_value, ctx);
    parse_flush_pending(ctx);
    if (ret < 0)
        snprintf(err, errlen, "%s: out of memory", file);
    else if (ret > 0 && (ctx->err_line == 0 || ret < ctx->err_line))
        snprintf(err, errlen, "%s:%d: syntax error", file, ret); /* no handler call */
    else if (ctx->err_line != 0)
        snprintf(err, errlen, "%s:%d: %s", file, ctx->err_line, ctx->err);
    else if (parse_check(ctx, &line, msg, sizeof msg) != 0) {
        if (line > 0)
            snprintf(err, errlen, "%s:%d: %s", file, line, msg);
        else
            snprintf(err, errlen, "%s: %s", file, msg);
    } else
        rc = 0;
    free(ctx);
    return rc;
}
