/* SPDX-License-Identifier: MIT */
/* Writing one plot's NAME.dat and NAME.gp: text buffers, gnuplot quoting, templates. */
#include "plot_script.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fileutil.h"

#define PLOT_SCRIPT_TITLE_CHARS 100 /* a longer measures text is cut at a word */
#define PLOT_SCRIPT_MAX_SUBS 16

int mb_plot_list_add(char ***list, size_t *n, char *s)
{
    if (!s)
        return -1;
    char **grown = realloc(*list, (*n + 1) * sizeof *grown);
    if (!grown) {
        free(s);
        return -1;
    }
    grown[(*n)++] = s;
    *list = grown;
    return 0;
}

char *mb_plot_path(const char *dir, const char *name, const char *ext)
{
    char *p;
    return asprintf(&p, "%s/%s%s", dir, name, ext) < 0 ? NULL : p;
}

char *mb_plot_file_name(const char *bench)
{
    char *s = strdup(bench);
    for (char *p = s; p && *p; p++) {
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
              *p == '-' || *p == '_'))
            *p = '_';
    }
    return s;
}

void mb_plot_gp_quote(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; s && *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '\'')
            fputs("''", f);
        else if (ch == '\n')
            fputs("'.\"\\n\".'", f);
        else if (ch < 0x20 || ch == 0x7f)
            fputc(' ', f);
        else
            fputc(ch, f);
    }
    fputc('\'', f);
}

void mb_plot_dat_quote(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s && *s; s++) {
        unsigned char ch = (unsigned char)*s;
        fputc(ch == '"' || ch == '\\' || ch < 0x20 || ch == 0x7f ? '_' : ch, f);
    }
    fputc('"', f);
}

int mb_plot_text_open(mb_plot_text_t *t)
{
    t->buf = NULL;
    t->len = 0;
    t->f = open_memstream(&t->buf, &t->len);
    return t->f ? 0 : -1;
}

char *mb_plot_text_take(mb_plot_text_t *t)
{
    if (!t->f)
        return NULL;
    bool bad = ferror(t->f) != 0;
    bad |= fclose(t->f) != 0;
    t->f = NULL;
    if (bad) {
        free(t->buf);
        t->buf = NULL;
    }
    char *s = t->buf;
    t->buf = NULL;
    return s;
}

void mb_plot_text_discard(mb_plot_text_t *t)
{
    free(mb_plot_text_take(t));
}

char *mb_plot_quoted(const char *s)
{
    mb_plot_text_t t;
    if (mb_plot_text_open(&t) != 0)
        return NULL;
    mb_plot_gp_quote(t.f, s);
    return mb_plot_text_take(&t);
}

/* A title has room for the start of a measures text only; the report has it whole. */
char *mb_plot_title(const char *first, const char *second, bool cut_second)
{
    size_t n = second ? strlen(second) : 0;
    const char *more = "";
    if (n > PLOT_SCRIPT_TITLE_CHARS && cut_second) {
        n = PLOT_SCRIPT_TITLE_CHARS;
        while (n > PLOT_SCRIPT_TITLE_CHARS / 2 && second[n] != ' ')
            n--;
        while (n > 0 && ((unsigned char)second[n] & 0xc0) == 0x80) /* not inside a UTF-8 char */
            n--;
        more = "...";
    }
    char *joined;
    if (asprintf(&joined, "%s%s%.*s%s", first, n ? "\n" : "", (int)n, n ? second : "", more) < 0)
        return NULL;
    char *q = mb_plot_quoted(joined);
    free(joined);
    return q;
}

/* --- templates -------------------------------------------------------------------- */

static char *plot_script_slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    mb_plot_text_t t;
    if (mb_plot_text_open(&t) != 0) {
        fclose(f);
        return NULL;
    }
    char buf[4096];
    size_t got;
    while ((got = fread(buf, 1, sizeof buf, f)) > 0)
        fwrite(buf, 1, got, t.f);
    bool bad = ferror(f) != 0;
    fclose(f);
    char *s = mb_plot_text_take(&t);
    if (bad) {
        free(s);
        return NULL;
    }
    return s;
}

/* The template's text from the first of: MB_PLOTS_DIR, plots/ beside the executable,
 * plots/ of the current directory. */
static char *plot_script_template(const char *file, char *err, size_t errlen)
{
    char exe[PATH_MAX], beside[PATH_MAX + 8] = "";
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = '\0';
            snprintf(beside, sizeof beside, "%s/plots", exe);
        }
    }
    const char *dirs[] = {
#ifdef MB_PLOTS_DIR
        MB_PLOTS_DIR,
#endif
        beside, "plots"};
    char tried[1024] = "";
    size_t used = 0;
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        if (!dirs[i][0])
            continue;
        char *full = mb_plot_path(dirs[i], file, "");
        if (!full)
            break;
        char *text = plot_script_slurp(full);
        int e = errno;
        if (text) {
            free(full);
            return text;
        }
        if (used < sizeof tried)
            used += (size_t)snprintf(tried + used, sizeof tried - used, "%s%s (%s)",
                                     used ? ", " : "", full, strerror(e));
        free(full);
    }
    snprintf(err, errlen, "plot template %s not found: tried %s", file, tried);
    return NULL;
}

/* The template with each known @KEY@ replaced; an unknown one is left as it is, and so
 * are comment lines, which name the placeholders. */
static char *plot_script_fill(const char *tpl, const mb_plot_sub_t *subs, size_t nsubs)
{
    mb_plot_text_t t;
    if (mb_plot_text_open(&t) != 0)
        return NULL;
    for (const char *p = tpl; *p;) {
        if (p == tpl || p[-1] == '\n') {
            const char *q = p + strspn(p, " \t");
            if (*q == '#') {
                size_t n = strcspn(p, "\n");
                fwrite(p, 1, n, t.f);
                p += n;
                continue;
            }
        }
        if (*p == '@') {
            const char *q = p + 1;
            while ((*q >= 'A' && *q <= 'Z') || *q == '_')
                q++;
            if (*q == '@' && q > p + 1) {
                const mb_plot_sub_t *hit = NULL;
                for (size_t i = 0; i < nsubs && !hit; i++) {
                    if (strlen(subs[i].key) == (size_t)(q - p - 1) &&
                        strncmp(subs[i].key, p + 1, (size_t)(q - p - 1)) == 0)
                        hit = &subs[i];
                }
                if (hit) {
                    fputs(hit->value, t.f);
                    p = q + 1;
                    continue;
                }
            }
        }
        fputc(*p++, t.f);
    }
    return mb_plot_text_take(&t);
}

static int plot_script_write_string(FILE *f, void *arg)
{
    return fputs(arg, f) < 0 ? -1 : 0;
}

/* Write NAME.dat and NAME.gp (template filled with subs, @OUTPUT@ and @DATA@), atomically. */
int mb_plot_emit(mb_plot_ctx_t *c, const char *name, const char *template_file, const char *dat,
                 const mb_plot_sub_t *subs, size_t nsubs)
{
    int ret = -1;
    char *tpl = NULL, *script = NULL, *dat_path = NULL, *gp_path = NULL, *dat_name = NULL;
    mb_plot_sub_t all[PLOT_SCRIPT_MAX_SUBS + 2];
    if (nsubs > PLOT_SCRIPT_MAX_SUBS) {
        snprintf(c->err, c->errlen, "%s: too many substitutions", template_file);
        return -1;
    }
    if (c->plan_only) {
        gp_path = mb_plot_path(c->plots_dir, name, ".gp");
        if (!gp_path)
            goto oom;
        if (mb_plot_list_add(&c->files->scripts, &c->files->nscripts, gp_path) != 0) {
            gp_path = NULL;
            goto oom;
        }
        return 0;
    }
    tpl = plot_script_template(template_file, c->err, c->errlen);
    if (!tpl)
        goto out;
    dat_name = mb_plot_path(".", name, ".dat");
    dat_path = mb_plot_path(c->plots_dir, name, ".dat");
    gp_path = mb_plot_path(c->plots_dir, name, ".gp");
    if (!dat_name || !dat_path || !gp_path)
        goto oom;
    memcpy(all, subs, nsubs * sizeof *subs);
    all[nsubs] = (mb_plot_sub_t){"OUTPUT", name};
    all[nsubs + 1] = (mb_plot_sub_t){"DATA", dat_name + 2}; /* without "./" */
    script = plot_script_fill(tpl, all, nsubs + 2);
    if (!script)
        goto oom;
    if (mb_file_write_atomic(dat_path, plot_script_write_string, (void *)dat, c->err, c->errlen) !=
            0 ||
        mb_file_write_atomic(gp_path, plot_script_write_string, script, c->err, c->errlen) != 0)
        goto out;
    if (mb_plot_list_add(&c->files->scripts, &c->files->nscripts, gp_path) != 0) {
        gp_path = NULL;
        goto oom;
    }
    gp_path = NULL;
    ret = 0;
    goto out;
oom:
    snprintf(c->err, c->errlen, "%s/%s: out of memory", c->plots_dir, name);
out:
    free(tpl);
    free(script);
    free(dat_path);
    free(gp_path);
    free(dat_name);
    return ret;
}

int mb_plot_parts_open(mb_plot_parts_t *p)
{
    *p = (mb_plot_parts_t){0};
    return mb_plot_text_open(&p->dat) | mb_plot_text_open(&p->clauses) |
           mb_plot_text_open(&p->tics) | mb_plot_text_open(&p->ytics) |
           mb_plot_text_open(&p->marks);
}

/* Close the texts into their strings; -1 when one could not be written. */
int mb_plot_parts_take(mb_plot_parts_t *p)
{
    p->dat_s = mb_plot_text_take(&p->dat);
    p->clauses_s = mb_plot_text_take(&p->clauses);
    p->tics_s = mb_plot_text_take(&p->tics);
    p->ytics_s = mb_plot_text_take(&p->ytics);
    p->marks_s = mb_plot_text_take(&p->marks);
    return p->dat_s && p->clauses_s && p->tics_s && p->ytics_s && p->marks_s ? 0 : -1;
}

void mb_plot_parts_free(mb_plot_parts_t *p)
{
    mb_plot_text_discard(&p->dat);
    mb_plot_text_discard(&p->clauses);
    mb_plot_text_discard(&p->tics);
    mb_plot_text_discard(&p->ytics);
    mb_plot_text_discard(&p->marks);
    free(p->dat_s);
    free(p->clauses_s);
    free(p->tics_s);
    free(p->ytics_s);
    free(p->marks_s);
    free(p->file);
    free(p->title);
    free(p->xlabel);
    free(p->ylabel);
}

/* The clause list without the separator in front of the first clause. */
const char *mb_plot_parts_clauses(const mb_plot_parts_t *p)
{
    size_t sep = strlen(MB_PLOT_CLAUSE_SEP);
    return strlen(p->clauses_s) >= sep ? p->clauses_s + sep : p->clauses_s;
}

int mb_plot_oom(mb_plot_ctx_t *c, const char *what)
{
    snprintf(c->err, c->errlen, "plot %s: out of memory", what);
    return -1;
}
