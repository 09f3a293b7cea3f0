/* SPDX-License-Identifier: MIT */
/* Plots of a result directory: gnuplot data and scripts from results.json, filled in from
 * the templates of plots/ (the part users restyle), then drawn by gnuplot. Everything
 * that depends on the results (series, curves, tics, marks) is computed here; the templates
 * hold only the looks. Strings go into the scripts as single-quoted gnuplot literals, in
 * which gnuplot expands neither backquotes nor macros. */
#include "plot.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <jansson.h>

#include "fileutil.h"
#include "report.h"
#include "results.h"

#define PLOT_STYLES 8         /* line styles 1-8 in every template */
#define PLOT_CURVE_SAMPLES 64 /* points per fitted segment */
#define PLOT_TITLE_CHARS 100  /* a longer measures text is cut at a word */
#define PLOT_ZERO_X 0.5       /* where size 0 goes: a log axis has no 0 */
#define PLOT_MAX_TICS 12      /* powers of two labelled on a size axis, at most about */
#define PLOT_MAX_RANK_TICS 16 /* rank counts labelled one by one up to this many */
#define PLOT_STDERR_KEEP 4096 /* the end of gnuplot's stderr kept for an error message */
#define PLOT_MAX_SUBS 16
#define PLOT_CLAUSE_SEP ", \\\n     "

typedef struct plot_ctx {
    char *plots_dir;
    const json_t *root;
    mb_plot_files_t *files;
    char *err;
    size_t errlen;
} plot_ctx_t;

/* A key-value substitution of a template: @KEY@ becomes value. */
typedef struct plot_sub {
    const char *key;
    const char *value;
} plot_sub_t;

/* One measured point: x raw (bytes or ranks), y with its error bar. */
typedef struct plot_pt {
    double x, y, lo, hi;
} plot_pt_t;

/* The points of one benchmark that share every parameter but the x axis. */
typedef struct plot_series {
    char *label;          /* "pair=intra", "" when the benchmark has no other parameter */
    const json_t *params; /* borrowed: the first point's params */
    plot_pt_t *pts;
    size_t n, cap;
} plot_series_t;

typedef struct plot_set {
    plot_series_t *v;
    size_t n, cap;
} plot_set_t;

/* y, error bar low and high of one point, or false to leave the point out. */
typedef bool (*plot_value_fn)(const json_t *bench, const json_t *point, double *y, double *lo,
                              double *hi);

/* --- small helpers --------------------------------------------------------------- */

static bool plot_num(const json_t *obj, const char *key, double *out)
{
    const json_t *v = json_object_get(obj, key);
    if (!json_is_number(v))
        return false;
    *out = json_number_value(v);
    return isfinite(*out);
}

static const char *plot_str(const json_t *obj, const char *key)
{
    return json_string_value(json_object_get(obj, key));
}

static bool plot_has_param(const json_t *bench, const char *name)
{
    size_t i;
    const json_t *p;
    json_array_foreach(json_object_get(bench, "params"), i, p) {
        if (json_is_string(p) && strcmp(json_string_value(p), name) == 0)
            return true;
    }
    return false;
}

/* The headline statistic is the minimum (e.g. shm.latency) rather than the median. */
static bool plot_is_min(const json_t *bench)
{
    const char *s = plot_str(bench, "statistic");
    return s && strcmp(s, "min") == 0;
}

/* Takes ownership of s, also on failure. */
static int plot_list_add(char ***list, size_t *n, char *s)
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

static char *plot_path(const char *dir, const char *name, const char *ext)
{
    char *p;
    return asprintf(&p, "%s/%s%s", dir, name, ext) < 0 ? NULL : p;
}

/* A file name from a benchmark name: "mpi.pingpong" gives "mpi_pingpong". */
static char *plot_file_name(const char *bench)
{
    char *s = strdup(bench);
    for (char *p = s; p && *p; p++) {
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
              *p == '-' || *p == '_'))
            *p = '_';
    }
    return s;
}


/* s as a single-quoted gnuplot string expression; a newline becomes "\n" concatenated. */
static void plot_gp_quote(FILE *f, const char *s)
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

/* A string in a data file: double quotes, so that gnuplot reads it as one column. */
static void plot_dat_quote(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s && *s; s++) {
        unsigned char ch = (unsigned char)*s;
        fputc(ch == '"' || ch == '\\' || ch < 0x20 || ch == 0x7f ? '_' : ch, f);
    }
    fputc('"', f);
}

/* open_memstream text; take() hands the buffer over. */
typedef struct plot_text {
    char *buf;
    size_t len;
    FILE *f;
} plot_text_t;

static int plot_text_open(plot_text_t *t)
{
    t->buf = NULL;
    t->len = 0;
    t->f = open_memstream(&t->buf, &t->len);
    return t->f ? 0 : -1;
}

static char *plot_text_take(plot_text_t *t)
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

static void plot_text_discard(plot_text_t *t)
{
    free(plot_text_take(t));
}

static char *plot_quoted(const char *s)
{
    plot_text_t t;
    if (plot_text_open(&t) != 0)
        return NULL;
    plot_gp_quote(t.f, s);
    return plot_text_take(&t);
}

/* "first\nsecond" as a gnuplot string; when cut_second, second (a benchmark's measures
 * text, which the report has whole) is cut at a word to about PLOT_TITLE_CHARS, with "...". */
static char *plot_title(const char *first, const char *second, bool cut_second)
{
    size_t n = second ? strlen(second) : 0;
    const char *more = "";
    if (n > PLOT_TITLE_CHARS && cut_second) {
        n = PLOT_TITLE_CHARS;
        while (n > PLOT_TITLE_CHARS / 2 && second[n] != ' ')
            n--;
        while (n > 0 && ((unsigned char)second[n] & 0xc0) == 0x80) /* not inside a UTF-8 char */
            n--;
        more = "...";
    }
    char *joined;
    if (asprintf(&joined, "%s%s%.*s%s", first, n ? "\n" : "", (int)n, n ? second : "", more) < 0)
        return NULL;
    char *q = plot_quoted(joined);
    free(joined);
    return q;
}

/* --- templates ---------------------------------------------------------------------- */

static char *plot_slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    plot_text_t t;
    if (plot_text_open(&t) != 0) {
        fclose(f);
        return NULL;
    }
    char buf[4096];
    size_t got;
    while ((got = fread(buf, 1, sizeof buf, f)) > 0)
        fwrite(buf, 1, got, t.f);
    bool bad = ferror(f) != 0;
    fclose(f);
    char *s = plot_text_take(&t);
    if (bad) {
        free(s);
        return NULL;
    }
    return s;
}

/* The template's text from the first of: MB_PLOTS_DIR, plots/ beside the executable,
 * plots/ of the current directory. */
static char *plot_template_read(const char *file, char *err, size_t errlen)
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
        char *full = plot_path(dirs[i], file, "");
        if (!full)
            break;
        char *text = plot_slurp(full);
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
static char *plot_fill(const char *tpl, const plot_sub_t *subs, size_t nsubs)
{
    plot_text_t t;
    if (plot_text_open(&t) != 0)
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
                const plot_sub_t *hit = NULL;
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
    return plot_text_take(&t);
}

static int plot_write_string(FILE *f, void *arg)
{
    return fputs(arg, f) < 0 ? -1 : 0;
}

/* Write NAME.dat and NAME.gp (template filled with subs, @OUTPUT@ and @DATA@), atomically. */
static int plot_emit(plot_ctx_t *c, const char *name, const char *template_file, const char *dat,
                     const plot_sub_t *subs, size_t nsubs)
{
    int ret = -1;
    char *tpl = NULL, *script = NULL, *dat_path = NULL, *gp_path = NULL, *dat_name = NULL;
    plot_sub_t all[PLOT_MAX_SUBS + 2];
    if (nsubs > PLOT_MAX_SUBS) {
        snprintf(c->err, c->errlen, "%s: too many substitutions", template_file);
        return -1;
    }
    tpl = plot_template_read(template_file, c->err, c->errlen);
    if (!tpl)
        goto out;
    dat_name = plot_path(".", name, ".dat");
    dat_path = plot_path(c->plots_dir, name, ".dat");
    gp_path = plot_path(c->plots_dir, name, ".gp");
    if (!dat_name || !dat_path || !gp_path)
        goto oom;
    memcpy(all, subs, nsubs * sizeof *subs);
    all[nsubs] = (plot_sub_t){"OUTPUT", name};
    all[nsubs + 1] = (plot_sub_t){"DATA", dat_name + 2}; /* without "./" */
    script = plot_fill(tpl, all, nsubs + 2);
    if (!script)
        goto oom;
    if (mb_file_write_atomic(dat_path, plot_write_string, (void *)dat, c->err, c->errlen) != 0 ||
        mb_file_write_atomic(gp_path, plot_write_string, script, c->err, c->errlen) != 0)
        goto out;
    if (plot_list_add(&c->files->scripts, &c->files->nscripts, gp_path) != 0) {
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

/* --- series -------------------------------------------------------------------------- */

static void plot_set_free(plot_set_t *set)
{
    for (size_t i = 0; i < set->n; i++) {
        free(set->v[i].label);
        free(set->v[i].pts);
    }
    free(set->v);
    *set = (plot_set_t){0};
}

/* "name=value, ..." over the benchmark's parameters other than xname; with the benchmark's
 * name in front when prefix. */
static char *plot_series_label(const json_t *bench, const json_t *params, const char *xname,
                               bool prefix)
{
    plot_text_t t;
    if (plot_text_open(&t) != 0)
        return NULL;
    const char *sep = "";
    if (prefix) {
        fputs(plot_str(bench, "name"), t.f);
        sep = " ";
    }
    size_t i;
    const json_t *name;
    json_array_foreach(json_object_get(bench, "params"), i, name) {
        const char *key = json_string_value(name);
        if (!key || strcmp(key, xname) == 0)
            continue;
        const json_t *v = json_object_get(params, key);
        if (json_is_string(v))
            fprintf(t.f, "%s%s=%s", sep, key, json_string_value(v));
        else if (json_is_integer(v))
            fprintf(t.f, "%s%s=%" JSON_INTEGER_FORMAT, sep, key, json_integer_value(v));
        else if (json_is_number(v))
            fprintf(t.f, "%s%s=%g", sep, key, json_number_value(v));
        else
            continue;
        sep = ", ";
    }
    return plot_text_take(&t);
}

/* Whether every point has a number for xname: a categorical axis (shm.bandwidth's "ranks":
 * "one"/"all") is not one to plot against. */
static bool plot_x_numeric(const json_t *bench, const char *xname)
{
    size_t i;
    const json_t *pt;
    const json_t *points = json_object_get(bench, "points");
    if (json_array_size(points) == 0)
        return false;
    json_array_foreach(points, i, pt) {
        if (!json_is_number(json_object_get(json_object_get(pt, "params"), xname)))
            return false;
    }
    return true;
}

static int plot_double_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int plot_pt_cmp(const void *a, const void *b)
{
    double x = ((const plot_pt_t *)a)->x, y = ((const plot_pt_t *)b)->x;
    return (x > y) - (x < y);
}

/* Add the benchmark's points to set, one series per combination of its other parameters,
 * each sorted by x. Returns 0, or -1 when memory runs out. */
static int plot_collect(plot_set_t *set, const json_t *bench, const char *xname,
                        plot_value_fn value, bool prefix)
{
    size_t i, first = set->n;
    const json_t *pt;
    json_array_foreach(json_object_get(bench, "points"), i, pt) {
        const json_t *params = json_object_get(pt, "params");
        plot_pt_t p;
        p.x = json_number_value(json_object_get(params, xname));
        if (!(p.x >= 0) || !value(bench, pt, &p.y, &p.lo, &p.hi))
            continue;
        char *label = plot_series_label(bench, params, xname, prefix);
        if (!label)
            return -1;
        plot_series_t *s = NULL;
        for (size_t k = first; k < set->n && !s; k++) {
            if (strcmp(set->v[k].label, label) == 0)
                s = &set->v[k];
        }
        if (s) {
            free(label);
        } else {
            if (set->n == set->cap) {
                size_t cap = set->cap ? 2 * set->cap : 8;
                plot_series_t *grown = realloc(set->v, cap * sizeof *grown);
                if (!grown) {
                    free(label);
                    return -1;
                }
                set->v = grown;
                set->cap = cap;
            }
            s = &set->v[set->n++];
            *s = (plot_series_t){.label = label, .params = params};
        }
        if (s->n == s->cap) {
            size_t cap = s->cap ? 2 * s->cap : 16;
            plot_pt_t *grown = realloc(s->pts, cap * sizeof *grown);
            if (!grown)
                return -1;
            s->pts = grown;
            s->cap = cap;
        }
        s->pts[s->n++] = p;
    }
    for (size_t k = first; k < set->n; k++)
        qsort(set->v[k].pts, set->v[k].n, sizeof *set->v[k].pts, plot_pt_cmp);
    return 0;
}

/* Whether some series has two different x: one x alone makes no curve. */
static bool plot_set_has_curve(const plot_set_t *set)
{
    for (size_t k = 0; k < set->n; k++) {
        if (set->v[k].n >= 2 && set->v[k].pts[0].x != set->v[k].pts[set->v[k].n - 1].x)
            return true;
    }
    return false;
}

/* The headline time (min or median) and the median's 95% CI, divided by scale. */
static bool plot_time_value(const json_t *bench, const json_t *pt, double scale, double *y,
                            double *lo, double *hi)
{
    bool min = plot_is_min(bench);
    double v;
    if (!plot_num(pt, min ? "min" : "median", &v) || !(v > 0))
        return false;
    *y = *lo = *hi = v / scale;
    const json_t *ci = json_object_get(pt, "ci95");
    const json_t *a = json_array_get(ci, 0), *b = json_array_get(ci, 1);
    if (!min && json_is_number(a) && json_is_number(b) && json_number_value(a) > 0) {
        *lo = json_number_value(a) / scale;
        *hi = json_number_value(b) / scale;
    }
    return true;
}

static bool plot_time_us(const json_t *bench, const json_t *pt, double *y, double *lo, double *hi)
{
    return plot_time_value(bench, pt, 1e3, y, lo, hi);
}

static bool plot_time_ns(const json_t *bench, const json_t *pt, double *y, double *lo, double *hi)
{
    return plot_time_value(bench, pt, 1, y, lo, hi);
}

/* Median bandwidth in GB/s (1e9 bytes/s) and that of the time's 95% CI. */
static bool plot_bandwidth_gbs(const json_t *bench, const json_t *pt, double *y, double *lo,
                               double *hi)
{
    (void)bench;
    const json_t *bw = json_object_get(pt, "bandwidth_bytes_per_s");
    double v;
    if (!plot_num(bw, "median", &v) || !(v > 0))
        return false;
    *y = *lo = *hi = v / 1e9;
    const json_t *ci = json_object_get(bw, "ci95");
    const json_t *a = json_array_get(ci, 0), *b = json_array_get(ci, 1);
    if (json_is_number(a) && json_is_number(b)) {
        *lo = json_number_value(a) / 1e9;
        *hi = json_number_value(b) / 1e9;
    }
    return true;
}

/* Where x goes on the plot: size 0 at PLOT_ZERO_X on a size axis. */
static double plot_x_pos(double x, bool bytes)
{
    return bytes && x <= 0 ? PLOT_ZERO_X : x;
}

/* One data block per series: x_plot x y lo hi. */
static void plot_dat_series(FILE *f, const plot_series_t *s, size_t index, const char *columns,
                            bool bytes)
{
    fprintf(f, "# [%zu] %s\n# %s\n", index, s->label[0] ? s->label : "measured", columns);
    for (size_t i = 0; i < s->n; i++)
        fprintf(f, "%.10g %.15g %.6g %.6g %.6g\n", plot_x_pos(s->pts[i].x, bytes), s->pts[i].x,
                s->pts[i].y, s->pts[i].lo, s->pts[i].hi);
    fputs("\n\n", f);
}

/* The smallest and largest positive x of the set. */
static void plot_x_span(const plot_set_t *set, double *lo, double *hi)
{
    *lo = INFINITY;
    *hi = 0;
    for (size_t k = 0; k < set->n; k++) {
        for (size_t i = 0; i < set->v[k].n; i++) {
            if (set->v[k].pts[i].x > 0) {
                *lo = fmin(*lo, set->v[k].pts[i].x);
                *hi = fmax(*hi, set->v[k].pts[i].x);
            }
        }
    }
}

/* Tic list and range for the x axis of set: powers of two labelled in binary units on a
 * size axis (with "0" at PLOT_ZERO_X when size 0 is there), the rank counts themselves on a
 * rank axis when there are few. */
static void plot_x_axis(const plot_set_t *set, bool bytes, FILE *tics, char *range, size_t rlen)
{
    double lo, hi;
    bool zero = false;
    plot_x_span(set, &lo, &hi);
    for (size_t k = 0; k < set->n; k++)
        zero |= set->v[k].n > 0 && set->v[k].pts[0].x <= 0; /* sorted: 0 comes first */
    if (!(hi > 0))
        lo = hi = 1;
    snprintf(range, rlen, "[%.6g:%.6g]", (zero && bytes ? PLOT_ZERO_X : lo) / 1.5, hi * 1.5);

    const char *sep = "";
    fputc('(', tics);
    if (zero && bytes) {
        fprintf(tics, "'0' %g", PLOT_ZERO_X);
        sep = ", ";
    }
    double values[PLOT_MAX_RANK_TICS];
    size_t nv = 0;
    bool few = !bytes;
    for (size_t k = 0; k < set->n && few; k++) {
        for (size_t i = 0; i < set->v[k].n && few; i++) {
            double x = set->v[k].pts[i].x;
            size_t j = 0;
            while (j < nv && values[j] != x)
                j++;
            if (j < nv)
                continue;
            if (nv == PLOT_MAX_RANK_TICS)
                few = false;
            else
                values[nv++] = x;
        }
    }
    if (few) {
        qsort(values, nv, sizeof *values, plot_double_cmp);
        for (size_t j = 0; j < nv; j++) {
            fprintf(tics, "%s'%g' %g", sep, values[j], values[j]);
            sep = ", ";
        }
    } else {
        int lo2 = (int)floor(log2(lo)), hi2 = (int)ceil(log2(hi));
        int step = 1 + (hi2 - lo2) / PLOT_MAX_TICS;
        for (int k = lo2; k <= hi2; k++) {
            if (((k % step) + step) % step != 0)
                continue;
            char label[32];
            double v = ldexp(1, k);
            if (bytes)
                mb_report_fmt_bytes(v, label, sizeof label);
            else
                snprintf(label, sizeof label, "%g", v);
            fprintf(tics, "%s'%s' %.17g", sep, label, v);
            sep = ", ";
        }
    }
    fputc(')', tics);
}

/* Range and tics of a log y axis over the set's error bars: 1-2-5 in each decade when
 * there are few decades, finer within one (gnuplot's own log tics label only powers of 10). */
static void plot_y_axis(const plot_set_t *set, FILE *tics, char *range, size_t rlen)
{
    double lo = INFINITY, hi = 0;
    for (size_t k = 0; k < set->n; k++) {
        for (size_t i = 0; i < set->v[k].n; i++) {
            const plot_pt_t *p = &set->v[k].pts[i];
            lo = fmin(lo, p->lo > 0 ? p->lo : p->y);
            hi = fmax(hi, fmax(p->hi, p->y));
        }
    }
    if (!(hi > 0) || !(lo > 0))
        lo = hi = 1;
    lo /= 1.25;
    hi *= 1.25;
    snprintf(range, rlen, "[%.6g:%.6g]", lo, hi);
    static const double fine[] = {1, 1.5, 2, 3, 4, 5, 7}, coarse[] = {1, 2, 5}, decades[] = {1};
    int d0 = (int)floor(log10(lo)), d1 = (int)ceil(log10(hi));
    double span = log10(hi / lo);
    const double *steps = span <= 1.2 ? fine : span <= 4 ? coarse : decades;
    size_t nsteps = span <= 1.2 ? 7 : span <= 4 ? 3 : 1;
    const char *sep = "";
    fputc('(', tics);
    for (int d = d0; d <= d1; d++) {
        for (size_t m = 0; m < nsteps; m++) {
            double v = steps[m] * pow(10, d);
            if (v < lo || v > hi)
                continue;
            fprintf(tics, "%s'%g' %.17g", sep, v, v);
            sep = ", ";
        }
    }
    fputc(')', tics);
}

/* A series' look: styles 1-8 of the template, dashed the second time round. */
static void plot_style(size_t k, char *buf, size_t len)
{
    snprintf(buf, len, "ls %zu%s", k % PLOT_STYLES + 1, k >= PLOT_STYLES ? " dt 2" : "");
}

static bool plot_skipped(const json_t *bench)
{
    const json_t *s = json_object_get(bench, "skipped");
    return s && !json_is_null(s);
}

/* --- fitted models ------------------------------------------------------------------- */

/* Whether every parameter the fit names has the series' value. */
static bool plot_fit_matches(const json_t *fit_params, const json_t *params)
{
    const char *key;
    json_t *want;
    json_object_foreach((json_t *)fit_params, key, want) {
        const json_t *have = json_object_get(params, key);
        if (json_is_number(want) && json_is_number(have)) {
            if (json_number_value(want) != json_number_value(have))
                return false;
        } else if (!have || !json_equal(want, (json_t *)have)) {
            return false;
        }
    }
    return true;
}

/* The fit of a series: from the benchmark's own "fits", then the document's "fits" of that
 * name, the first whose params the series has. */
static const json_t *plot_fit_find(const json_t *root, const json_t *bench, const json_t *params)
{
    const char *name = plot_str(bench, "name");
    const json_t *lists[] = {json_object_get(bench, "fits"), json_object_get(root, "fits")};
    for (size_t l = 0; l < 2; l++) {
        size_t i;
        const json_t *fit;
        json_array_foreach(lists[l], i, fit) {
            const char *fname = plot_str(fit, "name");
            if ((l == 1 && !fname) || (fname && strcmp(fname, name) != 0))
                continue;
            if (json_array_size(json_object_get(fit, "segments")) > 0 && /* [] when none fits */
                plot_fit_matches(json_object_get(fit, "params"), params))
                return fit;
        }
    }
    return NULL;
}

/* The model of one segment at p ranks and d bytes, in ns; false for an unknown basis or a
 * basis that needs p when p is unknown (NaN). */
static bool plot_fit_eval(const json_t *terms, double p, double d, double *ns)
{
    double sum = 0, lp = p > 0 ? log2(p) : NAN;
    size_t i;
    const json_t *t;
    if (json_array_size(terms) == 0)
        return false;
    json_array_foreach(terms, i, t) {
        const char *b = plot_str(t, "basis");
        double coef, v;
        if (!b || !plot_num(t, "coef", &coef))
            return false;
        if (strcmp(b, "1") == 0)
            v = 1;
        else if (strcmp(b, "p") == 0)
            v = p;
        else if (strcmp(b, "log2(p)") == 0)
            v = lp;
        else if (strcmp(b, "p^2") == 0)
            v = p * p;
        else if (strcmp(b, "d") == 0)
            v = d;
        else if (strcmp(b, "p*d") == 0)
            v = p * d;
        else if (strcmp(b, "log2(p)*d") == 0)
            v = lp * d;
        else if (strcmp(b, "p^2*d") == 0)
            v = p * p * d;
        else
            return false;
        if (!isfinite(v))
            return false;
        sum += coef * v;
    }
    *ns = sum;
    return isfinite(sum);
}

/* One data block and plot clause per segment of the series' fit, the model sampled over the
 * segment's [d_min, d_max] (on a size axis, at the series' rank count) or over the series'
 * rank counts (on a rank axis, with the segment that holds the series' size). */
static void plot_fit_blocks(FILE *dat, FILE *cl, size_t *index, const plot_series_t *s,
                            const json_t *fit, bool bytes, const char *style)
{
    double p_fixed = bytes ? 2 : NAN, d_fixed = 0, holdout; /* as the fitter: p = 2 without ranks */
    const json_t *v = json_object_get(s->params, bytes ? "ranks" : "size_bytes");
    if (json_is_number(v)) {
        if (bytes)
            p_fixed = json_number_value(v);
        else
            d_fixed = json_number_value(v);
    }
    bool zero = bytes && s->n > 0 && s->pts[0].x <= 0;
    char title[512];
    size_t used =
        (size_t)snprintf(title, sizeof title, "fit%s%s", s->label[0] ? " " : "", s->label);
    if (plot_num(fit, "holdout_error_pct", &holdout) && used < sizeof title)
        snprintf(title + used, sizeof title - used, " (hold-out error %.3g%%)", holdout);

    size_t drawn = 0, j;
    const json_t *seg;
    json_array_foreach(json_object_get(fit, "segments"), j, seg) {
        double dmin, dmax, xs[PLOT_CURVE_SAMPLES + 1];
        size_t nx = 0;
        if (!plot_num(seg, "d_min", &dmin)) /* null: unbounded */
            dmin = -INFINITY;
        if (!plot_num(seg, "d_max", &dmax))
            dmax = INFINITY;
        if (bytes) {
            if (dmin <= 0 && zero)
                xs[nx++] = 0;
            double lo = fmax(dmin, 1), hi = isfinite(dmax) ? dmax : s->pts[s->n - 1].x;
            for (size_t k = 0; hi > lo && k < PLOT_CURVE_SAMPLES; k++)
                xs[nx++] = lo * pow(hi / lo, (double)k / (PLOT_CURVE_SAMPLES - 1));
        } else {
            double lo = s->pts[0].x, hi = s->pts[s->n - 1].x;
            if (drawn > 0 || !(d_fixed >= dmin && d_fixed <= dmax) || !(lo > 0 && hi > lo))
                continue;
            for (size_t k = 0; k < PLOT_CURVE_SAMPLES; k++)
                xs[nx++] = lo * pow(hi / lo, (double)k / (PLOT_CURVE_SAMPLES - 1));
        }
        double ys[PLOT_CURVE_SAMPLES + 1];
        size_t good = 0;
        for (size_t k = 0; k < nx; k++) {
            double ns;
            bool ok = bytes ? plot_fit_eval(json_object_get(seg, "terms"), p_fixed, xs[k], &ns)
                            : plot_fit_eval(json_object_get(seg, "terms"), xs[k], d_fixed, &ns);
            ys[k] = ok && ns > 0 ? ns / 1e3 : NAN; /* a log axis has no place for <= 0 */
            good += ok && ns > 0;
        }
        if (good < 2) {
            fprintf(dat,
                    "# %s: segment [%g, %g] bytes not drawn (unknown basis, no rank count, "
                    "or no positive value)\n",
                    title, dmin, dmax);
            continue;
        }
        fprintf(dat, "# [%zu] %s: segment d in [%g, %g] bytes\n# x_plot %s model_us\n", *index,
                title, dmin, dmax, bytes ? "size_bytes" : "ranks");
        for (size_t k = 0; k < nx; k++) {
            if (isfinite(ys[k]))
                fprintf(dat, "%.10g %.10g %.6g\n", plot_x_pos(xs[k], bytes), xs[k], ys[k]);
        }
        fputs("\n\n", dat);
        fprintf(cl, PLOT_CLAUSE_SEP "data index %zu using 1:3 with lines %s lw 2.5 ", *index,
                style);
        if (drawn == 0) {
            fputs("title ", cl);
            plot_gp_quote(cl, title);
        } else {
            fputs("notitle", cl);
        }
        (*index)++;
        drawn++;
    }
}

/* --- the plots -------------------------------------------------------------------------- */

/* Strings of one plot, freed together. */
typedef struct plot_parts {
    plot_text_t dat, clauses, tics, ytics, marks;
    char *dat_s, *clauses_s, *tics_s, *ytics_s, *marks_s, *file, *title, *xlabel, *ylabel;
} plot_parts_t;

static int plot_parts_open(plot_parts_t *p)
{
    *p = (plot_parts_t){0};
    return plot_text_open(&p->dat) | plot_text_open(&p->clauses) | plot_text_open(&p->tics) |
           plot_text_open(&p->ytics) | plot_text_open(&p->marks);
}

/* Close the texts into their strings; -1 when one could not be written. */
static int plot_parts_take(plot_parts_t *p)
{
    p->dat_s = plot_text_take(&p->dat);
    p->clauses_s = plot_text_take(&p->clauses);
    p->tics_s = plot_text_take(&p->tics);
    p->ytics_s = plot_text_take(&p->ytics);
    p->marks_s = plot_text_take(&p->marks);
    return p->dat_s && p->clauses_s && p->tics_s && p->ytics_s && p->marks_s ? 0 : -1;
}

static void plot_parts_free(plot_parts_t *p)
{
    plot_text_discard(&p->dat);
    plot_text_discard(&p->clauses);
    plot_text_discard(&p->tics);
    plot_text_discard(&p->ytics);
    plot_text_discard(&p->marks);
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
static const char *plot_clauses(const plot_parts_t *p)
{
    size_t sep = strlen(PLOT_CLAUSE_SEP);
    return strlen(p->clauses_s) >= sep ? p->clauses_s + sep : p->clauses_s;
}

static int plot_oom(plot_ctx_t *c, const char *what)
{
    snprintf(c->err, c->errlen, "plot %s: out of memory", what);
    return -1;
}

/* Time per operation (us) against size_bytes or ranks, with the fitted model. */
static int plot_bench(plot_ctx_t *c, const json_t *bench)
{
    static const char *const axes[] = {"size_bytes", "ranks"};
    const char *name = plot_str(bench, "name"), *xname = NULL;
    for (size_t a = 0; a < sizeof axes / sizeof axes[0] && !xname; a++) {
        if (plot_has_param(bench, axes[a]) && plot_x_numeric(bench, axes[a]))
            xname = axes[a];
    }
    if (!xname)
        return 0;
    bool bytes = strcmp(xname, "size_bytes") == 0, min = plot_is_min(bench), any_fit = false;
    plot_set_t set = {0};
    plot_parts_t p;
    int ret = -1;
    if (plot_parts_open(&p) != 0 || plot_collect(&set, bench, xname, plot_time_us, false) != 0)
        goto oom;
    if (!plot_set_has_curve(&set)) {
        ret = 0;
        goto out;
    }
    fprintf(p.dat.f, "# %s: %s time per operation against %s (mbsuite plot, from results.json)\n",
            name, min ? "minimum" : "median", xname);
    if (bytes && set.v[0].n && set.v[0].pts[0].x <= 0)
        fprintf(p.dat.f,
                "# size 0 bytes is plotted at x = %g (a log axis has no 0), its tic "
                "labelled 0\n",
                PLOT_ZERO_X);
    fputs("# blocks (gnuplot index): each series, followed by its fitted segments\n", p.dat.f);
    size_t index = 0;
    for (size_t k = 0; k < set.n; k++) {
        const plot_series_t *s = &set.v[k];
        const json_t *fit = plot_fit_find(c->root, bench, s->params);
        char style[32];
        plot_style(k, style, sizeof style);
        plot_dat_series(p.dat.f, s, index,
                        bytes ? "x_plot size_bytes time_us ci95_lo_us ci95_hi_us"
                              : "x_plot ranks time_us ci95_lo_us ci95_hi_us",
                        bytes);
        fprintf(p.clauses.f, PLOT_CLAUSE_SEP "data index %zu using 1:3:4:5 with %s %s title ",
                index++, fit ? "yerrorbars" : "yerrorlines", style);
        plot_gp_quote(p.clauses.f, s->label[0] ? s->label : "measured");
        if (fit) {
            plot_fit_blocks(p.dat.f, p.clauses.f, &index, s, fit, bytes, style);
            any_fit = true;
        }
    }
    char range[96], yrange[96], ylabel[160];
    plot_x_axis(&set, bytes, p.tics.f, range, sizeof range);
    plot_y_axis(&set, p.ytics.f, yrange, sizeof yrange);
    snprintf(ylabel, sizeof ylabel, "time per operation (µs): %s%s",
             min ? "minimum over experiments" : "median, bars: 95% CI of the median",
             any_fit ? "; lines: fitted model" : "");
    p.file = plot_file_name(name);
    p.title = plot_title(name, plot_str(bench, "measures"), true);
    p.xlabel = plot_quoted(bytes ? "size (bytes; K = 1024)" : "processes (ranks)");
    p.ylabel = plot_quoted(ylabel);
    if (plot_parts_take(&p) != 0 || !p.file || !p.title || !p.xlabel || !p.ylabel)
        goto oom;
    const plot_sub_t subs[] = {{"TITLE", p.title},   {"XLABEL", p.xlabel},
                               {"YLABEL", p.ylabel}, {"XRANGE", range},
                               {"XTICS", p.tics_s},  {"YRANGE", yrange},
                               {"YTICS", p.ytics_s}, {"PLOTS", plot_clauses(&p)}};
    ret = plot_emit(c, p.file, "latency_fit.gp", p.dat_s, subs, sizeof subs / sizeof subs[0]);
    goto out;
oom:
    ret = plot_oom(c, name);
out:
    plot_set_free(&set);
    plot_parts_free(&p);
    return ret;
}

/* Vertical lines and labels for the cache levels found on the curve (derived.levels) and
 * for node 0's caches as hwloc reports them; their figures also go into the data file. */
static void plot_cache_marks(const plot_ctx_t *c, const json_t *bench, double lo, double hi,
                             FILE *marks, FILE *dat)
{
    const json_t *derived = json_object_get(bench, "derived");
    const json_t *levels = json_object_get(derived, "levels");
    size_t i;
    const json_t *lv;
    char sz[32], label[160];
    fprintf(dat,
            "# cache levels found on the %s curve (derived.levels; not plotted as data)\n"
            "# size_bytes latency_ns midpoint_bytes open\n",
            plot_str(derived, "levels_from") ? plot_str(derived, "levels_from") : "latency");
    json_array_foreach(levels, i, lv) {
        double size, lat = NAN, mid;
        if (!plot_num(lv, "size_bytes", &size))
            continue;
        plot_num(lv, "latency_ns", &lat);
        bool open = json_is_true(json_object_get(lv, "open"));
        fprintf(dat, "%.15g %.6g ", size, lat);
        if (plot_num(lv, "midpoint_bytes", &mid))
            fprintf(dat, "%.15g", mid);
        else
            fputc('?', dat);
        fprintf(dat, " %d\n", open);
        if (!(size >= lo && size <= hi) || !(lat > 0))
            continue;
        mb_report_fmt_bytes(size, sz, sizeof sz);
        if (open) {
            /* Not a capacity but where the curve stops (memory, or the curve's end): marked as
             * a point with its latency. */
            snprintf(label, sizeof label, "level %zu: %.3g ns", i + 1, lat);
            fputs("set label ", marks);
            plot_gp_quote(marks, label);
            fprintf(marks,
                    " at first %.17g, first %.17g right offset character -1, character -1.2 "
                    "point ls 11 pt 6 ps 2 tc ls 11 front\n",
                    size, lat);
            continue;
        }
        snprintf(label, sizeof label, "level %zu: %s, %.3g ns", i + 1, sz, lat);
        fprintf(marks,
                "set arrow from first %.17g, graph 0 to first %.17g, graph 1 nohead ls 11 back\n",
                size, size);
        fputs("set label ", marks);
        plot_gp_quote(marks, label);
        fprintf(marks,
                " at first %.17g, graph 0.97 right rotate by 90 offset character -0.6, 0 "
                "tc ls 11 front\n",
                size);
    }
    fputs("\n\n# caches of node 0 as hwloc reports them (system.node_list[0].caches)\n"
          "# size_bytes level type\n",
          dat);
    const json_t *caches = json_object_get(
        json_array_get(json_object_get(json_object_get(c->root, "system"), "node_list"), 0),
        "caches");
    const json_t *cache;
    json_array_foreach(caches, i, cache) {
        const char *type = plot_str(cache, "type");
        double size, level;
        if (!plot_num(cache, "size_bytes", &size) || !plot_num(cache, "level", &level) ||
            (type && strcmp(type, "instruction") == 0))
            continue;
        fprintf(dat, "%.15g %.0f %s\n", size, level, type ? type : "?");
        if (!(size >= lo && size <= hi))
            continue;
        mb_report_fmt_bytes(size, sz, sizeof sz);
        snprintf(label, sizeof label, "hwloc L%.0f%s %s", level,
                 type && strcmp(type, "data") == 0 ? "d" : "", sz);
        fprintf(marks,
                "set arrow from first %.17g, graph 0 to first %.17g, graph 1 nohead ls 12 back\n",
                size, size);
        fputs("set label ", marks);
        plot_gp_quote(marks, label);
        fprintf(marks,
                " at first %.17g, graph 0.03 left rotate by 90 offset character 1.4, 0 "
                "tc ls 12 front\n",
                size);
    }
    fputs("\n\n", dat);
}

/* shm.latency: ns per load against working set, one line per access order, cache marks. */
static int plot_mem_latency(plot_ctx_t *c, const json_t *bench)
{
    const char *name = plot_str(bench, "name");
    if (!plot_has_param(bench, "size_bytes") || !plot_x_numeric(bench, "size_bytes"))
        return 0;
    bool min = plot_is_min(bench);
    plot_set_t set = {0};
    plot_parts_t p;
    int ret = -1;
    if (plot_parts_open(&p) != 0 ||
        plot_collect(&set, bench, "size_bytes", plot_time_ns, false) != 0)
        goto oom;
    if (!plot_set_has_curve(&set)) {
        ret = 0;
        goto out;
    }
    fprintf(p.dat.f,
            "# %s: %s latency per load against working set (mbsuite plot, from "
            "results.json)\n# blocks (gnuplot index): each access order, then the cache "
            "levels found, then hwloc's caches\n",
            name, min ? "minimum" : "median");
    for (size_t k = 0; k < set.n; k++) {
        char style[32];
        plot_style(k, style, sizeof style);
        plot_dat_series(p.dat.f, &set.v[k], k, "x_plot size_bytes latency_ns ci95_lo_ns ci95_hi_ns",
                        true);
        fprintf(p.clauses.f, PLOT_CLAUSE_SEP "data index %zu using 1:3 with linespoints %s title ",
                k, style);
        plot_gp_quote(p.clauses.f, set.v[k].label[0] ? set.v[k].label : "measured");
    }
    double lo, hi;
    char range[96], yrange[96], ylabel[160];
    plot_x_span(&set, &lo, &hi);
    plot_cache_marks(c, bench, lo, hi, p.marks.f, p.dat.f);
    plot_x_axis(&set, true, p.tics.f, range, sizeof range);
    plot_y_axis(&set, p.ytics.f, yrange, sizeof yrange);
    snprintf(ylabel, sizeof ylabel, "latency per load (ns), %s",
             min ? "minimum over experiments" : "median");
    p.file = strdup("mem_latency");
    p.title = plot_title(name, plot_str(bench, "measures"), true);
    p.xlabel = plot_quoted("working set (bytes; K = 1024)");
    p.ylabel = plot_quoted(ylabel);
    if (plot_parts_take(&p) != 0 || !p.file || !p.title || !p.xlabel || !p.ylabel)
        goto oom;
    const plot_sub_t subs[] = {
        {"TITLE", p.title},   {"XLABEL", p.xlabel}, {"YLABEL", p.ylabel},
        {"XRANGE", range},    {"XTICS", p.tics_s},  {"YRANGE", yrange},
        {"YTICS", p.ytics_s}, {"MARKS", p.marks_s}, {"PLOTS", plot_clauses(&p)}};
    ret = plot_emit(c, p.file, "mem_latency.gp", p.dat_s, subs, sizeof subs / sizeof subs[0]);
    goto out;
oom:
    ret = plot_oom(c, name);
out:
    plot_set_free(&set);
    plot_parts_free(&p);
    return ret;
}

/* GB/s against size_bytes, every benchmark whose points carry bandwidth_bytes_per_s. */
static int plot_bandwidth(plot_ctx_t *c)
{
    plot_set_t set = {0};
    plot_parts_t p;
    int ret = -1;
    size_t i;
    const json_t *bench;
    if (plot_parts_open(&p) != 0)
        goto oom;
    json_array_foreach(json_object_get(c->root, "benchmarks"), i, bench) {
        if (plot_skipped(bench) || !plot_str(bench, "name") ||
            !plot_has_param(bench, "size_bytes") || !plot_x_numeric(bench, "size_bytes"))
            continue;
        if (plot_collect(&set, bench, "size_bytes", plot_bandwidth_gbs, true) != 0)
            goto oom;
    }
    if (set.n == 0) {
        ret = 0;
        goto out;
    }
    fputs("# bandwidth against size, one block (gnuplot index) per benchmark and parameters "
          "(mbsuite plot, from results.json)\n# GB/s = 1e9 bytes/s; ci95: the bandwidth of the "
          "95% CI of the median time\n",
          p.dat.f);
    for (size_t k = 0; k < set.n; k++) {
        char style[32];
        plot_style(k, style, sizeof style);
        plot_dat_series(p.dat.f, &set.v[k], k,
                        "x_plot size_bytes bandwidth_GBps ci95_lo_GBps ci95_hi_GBps", true);
        fprintf(p.clauses.f,
                PLOT_CLAUSE_SEP "data index %zu using 1:3:4:5 with yerrorlines %s title ", k,
                style);
        plot_gp_quote(p.clauses.f, set.v[k].label);
    }
    char range[96];
    plot_x_axis(&set, true, p.tics.f, range, sizeof range);
    p.file = strdup("bandwidth");
    p.title = plot_title(
        "Bandwidth against size",
        "median of each point; bars: the bandwidth of the 95% CI of the median time", false);
    p.xlabel = plot_quoted("size (bytes; K = 1024)");
    p.ylabel = plot_quoted("bandwidth (GB/s = 10^9 bytes/s)");
    if (plot_parts_take(&p) != 0 || !p.file || !p.title || !p.xlabel || !p.ylabel)
        goto oom;
    const plot_sub_t subs[] = {{"TITLE", p.title},   {"XLABEL", p.xlabel},
                               {"YLABEL", p.ylabel}, {"XRANGE", range},
                               {"XTICS", p.tics_s},  {"PLOTS", plot_clauses(&p)}};
    ret = plot_emit(c, p.file, "bandwidth.gp", p.dat_s, subs, sizeof subs / sizeof subs[0]);
    goto out;
oom:
    ret = plot_oom(c, "bandwidth");
out:
    plot_set_free(&set);
    plot_parts_free(&p);
    return ret;
}

/* A number column of a data file, '?' (missing) when absent. */
static void plot_dat_num(FILE *f, const json_t *obj, const char *key, double *max)
{
    double v;
    if (plot_num(obj, key, &v)) {
        fprintf(f, " %.6g", v);
        if (max)
            *max = fmax(*max, v);
    } else {
        fputs(" ?", f);
    }
}

/* A horizontal reference line across the plot at y, labelled at the right end. */
static void plot_hline(FILE *marks, double y, const char *label, const char *dt)
{
    fprintf(marks,
            "set arrow from graph 0, first %.17g to graph 1, first %.17g nohead ls 11%s front\n", y,
            y, dt);
    fputs("set label ", marks);
    plot_gp_quote(marks, label);
    fprintf(marks, " at graph 0.99, first %.17g right offset 0, character 0.7 tc ls 11 front\n", y);
}

/* The perturbation test's per-rank percentiles (the per-run times are not stored). */
static int plot_perturb(plot_ctx_t *c, const json_t *preflight)
{
    plot_parts_t p;
    int ret = -1;
    size_t rows = 0, i, j;
    double max = 0, threshold, count, duration;
    const json_t *node, *rank;
    if (plot_parts_open(&p) != 0)
        goto oom;
    fputs("# pre-flight perturbation test (seed 002): slower% of each rank's p50, p90, p99 and "
          "slowest run than its fastest\n# (results.json keeps these per rank, not each run's "
          "time, so there is no histogram)\n# label p50_pct p90_pct p99_pct max_pct\n",
          p.dat.f);
    json_array_foreach(json_object_get(preflight, "nodes"), i, node) {
        json_array_foreach(json_object_get(node, "per_rank"), j, rank) {
            char label[256];
            double r;
            const char *cpus = plot_str(rank, "cpus");
            snprintf(label, sizeof label, "%s/r%.0f%s%s%s",
                     plot_str(node, "host") ? plot_str(node, "host") : "?",
                     plot_num(rank, "rank", &r) ? r : -1, cpus ? " (" : "", cpus ? cpus : "",
                     cpus ? ")" : "");
            plot_dat_quote(p.dat.f, label);
            plot_dat_num(p.dat.f, rank, "p50_pct", &max);
            plot_dat_num(p.dat.f, rank, "p90_pct", &max);
            plot_dat_num(p.dat.f, rank, "p99_pct", &max);
            plot_dat_num(p.dat.f, rank, "max_pct", &max);
            fputc('\n', p.dat.f);
            rows++;
        }
    }
    if (rows == 0) {
        ret = 0;
        goto out;
    }
    if (plot_num(preflight, "noise_threshold_pct", &threshold)) {
        char label[96];
        snprintf(label, sizeof label, "noise threshold (a node's p99): %g%%", threshold);
        plot_hline(p.marks.f, threshold, label, "");
        max = fmax(max, threshold);
    }
    char title[256], yrange[64];
    if (plot_num(preflight, "perturb_count", &count) &&
        plot_num(preflight, "perturb_duration_ms", &duration))
        snprintf(title, sizeof title,
                 "Perturbation test (seed 002): %.0f runs of %g ms on every rank", count, duration);
    else
        snprintf(title, sizeof title, "Perturbation test (seed 002) on every rank");
    snprintf(yrange, sizeof yrange, "[0:%.6g]", max > 0 ? max * 1.15 : 1);
    p.file = strdup("perturb");
    p.title = plot_title(title,
                         "per-run times are not stored in results.json: each rank's p50, "
                         "p90, p99 and slowest run instead of the histogram",
                         false);
    if (plot_parts_take(&p) != 0 || !p.file || !p.title)
        goto oom;
    const plot_sub_t subs[] = {{"TITLE", p.title}, {"YRANGE", yrange}, {"MARKS", p.marks_s}};
    ret = plot_emit(c, p.file, "perturb.gp", p.dat_s, subs, sizeof subs / sizeof subs[0]);
    goto out;
oom:
    ret = plot_oom(c, "perturb");
out:
    plot_parts_free(&p);
    return ret;
}

/* MHz and p99 noise per node, flagged nodes marked. */
static int plot_nodes(plot_ctx_t *c, const json_t *preflight)
{
    plot_parts_t p;
    plot_text_t noise_marks = {0};
    char *noise_marks_s = NULL;
    int ret = -1;
    size_t rows = 0, i;
    double mhz_lo = INFINITY, mhz_hi = -INFINITY, noise_max = 0, median, tol, threshold;
    const json_t *node;
    if (plot_parts_open(&p) != 0 || plot_text_open(&noise_marks) != 0)
        goto oom;
    fputs("# pre-flight per node: clock (mhz, seed 000) and perturbation-test noise of the "
          "node's noisiest rank (seed 002)\n# index host mhz p50_pct p99_pct flagged\n",
          p.dat.f);
    json_array_foreach(json_object_get(preflight, "nodes"), i, node) {
        double mhz, ignored = 0;
        const json_t *perturb = json_object_get(node, "perturb");
        fprintf(p.dat.f, "%zu ", rows);
        plot_dat_quote(p.dat.f, plot_str(node, "host") ? plot_str(node, "host") : "?");
        if (plot_num(node, "mhz", &mhz)) {
            fprintf(p.dat.f, " %.10g", mhz);
            mhz_lo = fmin(mhz_lo, mhz);
            mhz_hi = fmax(mhz_hi, mhz);
        } else {
            fputs(" ?", p.dat.f);
        }
        plot_dat_num(p.dat.f, perturb, "p50_pct", &ignored);
        plot_dat_num(p.dat.f, perturb, "p99_pct", &noise_max);
        fprintf(p.dat.f, " %d\n", json_is_true(json_object_get(node, "flagged")));
        rows++;
    }
    if (rows == 0) {
        ret = 0;
        goto out;
    }
    if (plot_num(preflight, "median_mhz", &median) && median > 0) {
        char label[96];
        snprintf(label, sizeof label, "cluster median %.1f MHz", median);
        plot_hline(p.marks.f, median, label, "");
        mhz_lo = fmin(mhz_lo, median);
        mhz_hi = fmax(mhz_hi, median);
        if (plot_num(preflight, "mhz_tolerance_pct", &tol) && tol > 0) {
            snprintf(label, sizeof label, "+%g%%", tol);
            plot_hline(p.marks.f, median * (1 + tol / 100), label, " dt 3");
            snprintf(label, sizeof label, "-%g%%", tol);
            plot_hline(p.marks.f, median * (1 - tol / 100), label, " dt 3");
            mhz_lo = fmin(mhz_lo, median * (1 - tol / 100));
            mhz_hi = fmax(mhz_hi, median * (1 + tol / 100));
        }
    }
    if (plot_num(preflight, "noise_threshold_pct", &threshold)) {
        char label[96];
        snprintf(label, sizeof label, "noise threshold %g%%", threshold);
        plot_hline(noise_marks.f, threshold, label, "");
        noise_max = fmax(noise_max, threshold);
    }
    char xrange[64], mhz_range[96], noise_range[64];
    snprintf(xrange, sizeof xrange, "[-0.6:%zu.6]", rows - 1);
    if (mhz_hi >= mhz_lo) {
        double pad = mhz_hi > mhz_lo ? (mhz_hi - mhz_lo) * 0.15 : fmax(1, mhz_hi * 0.01);
        snprintf(mhz_range, sizeof mhz_range, "[%.10g:%.10g]", mhz_lo - pad, mhz_hi + pad);
    } else {
        snprintf(mhz_range, sizeof mhz_range, "[0:1]"); /* no node has a figure */
    }
    snprintf(noise_range, sizeof noise_range, "[0:%.6g]", noise_max > 0 ? noise_max * 1.2 : 1);
    p.file = strdup("nodes");
    p.title = plot_quoted("Pre-flight per node: clock speed and noise (flagged nodes in red)");
    noise_marks_s = plot_text_take(&noise_marks);
    if (plot_parts_take(&p) != 0 || !noise_marks_s || !p.file || !p.title)
        goto oom;
    const plot_sub_t subs[] = {{"TITLE", p.title},        {"XRANGE", xrange},
                               {"MHZ_YRANGE", mhz_range}, {"NOISE_YRANGE", noise_range},
                               {"MHZ_MARKS", p.marks_s},  {"NOISE_MARKS", noise_marks_s}};
    ret = plot_emit(c, p.file, "nodes.gp", p.dat_s, subs, sizeof subs / sizeof subs[0]);
    goto out;
oom:
    ret = plot_oom(c, "nodes");
out:
    plot_text_discard(&noise_marks);
    free(noise_marks_s);
    plot_parts_free(&p);
    return ret;
}

/* --- gnuplot ------------------------------------------------------------------------- */

/* gnuplot's path from PATH, or NULL. */
static char *plot_find_gnuplot(void)
{
    const char *path = getenv("PATH");
    if (!path || !*path)
        path = "/usr/local/bin:/usr/bin:/bin";
    for (const char *p = path;;) {
        const char *end = strchr(p, ':');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        char *cand;
        if (asprintf(&cand, "%.*s/gnuplot", (int)n, n ? p : ".") < 0)
            return NULL;
        struct stat st;
        if (stat(cand, &st) == 0 && S_ISREG(st.st_mode) && access(cand, X_OK) == 0)
            return cand;
        free(cand);
        if (!end)
            return NULL;
        p = end + 1;
    }
}

/* Run `gnuplot NAME.gp` in the plots directory: fork and exec, no shell, stdout discarded,
 * the end of stderr kept for the message. Returns 0, or -1 with err. */
static int plot_run_gnuplot(const plot_ctx_t *c, const char *gnuplot, const char *name)
{
    char script[PATH_MAX];
    snprintf(script, sizeof script, "%s.gp", name);
    int pipefd[2];
    if (pipe2(pipefd, O_CLOEXEC) != 0) {
        snprintf(c->err, c->errlen, "%s/%s: pipe: %s", c->plots_dir, script, strerror(errno));
        return -1;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(c->err, c->errlen, "%s/%s: fork: %s", c->plots_dir, script, strerror(errno));
        close(pipefd[0]);
        close(pipefd[1]);
        return -1;
    }
    if (pid == 0) {
        int null = open("/dev/null", O_RDWR);
        if (null < 0 || chdir(c->plots_dir) != 0 || dup2(null, 0) < 0 || dup2(null, 1) < 0 ||
            dup2(pipefd[1], 2) < 0)
            _exit(126);
        char *const argv[] = {"gnuplot", script, NULL};
        execv(gnuplot, argv);
        _exit(127);
    }
    close(pipefd[1]);
    char tail[PLOT_STDERR_KEEP + 1];
    size_t have = 0;
    for (;;) {
        char buf[1024]; /* smaller than tail */
        ssize_t got = read(pipefd[0], buf, sizeof buf);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break;
        if (have + (size_t)got > PLOT_STDERR_KEEP) {
            size_t drop = have + (size_t)got - PLOT_STDERR_KEEP;
            memmove(tail, tail + drop, have - drop);
            have -= drop;
        }
        memcpy(tail + have, buf, (size_t)got);
        have += (size_t)got;
    }
    close(pipefd[0]);
    tail[have] = '\0';
    int status;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            snprintf(c->err, c->errlen, "%s/%s: waitpid: %s", c->plots_dir, script,
                     strerror(errno));
            return -1;
        }
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return 0;
    /* gnuplot's message is its last lines, flattened to one: runs of blanks become one. */
    size_t w = 0;
    for (size_t r = 0; r < have; r++) {
        bool blank = tail[r] == '\n' || tail[r] == ' ' || tail[r] == '\t';
        if (!blank || (w > 0 && tail[w - 1] != ' '))
            tail[w++] = blank ? ' ' : tail[r];
    }
    while (w > 0 && tail[w - 1] == ' ')
        w--;
    tail[w] = '\0';
    have = w;
    const char *msg = have > 300 ? tail + have - 300 : tail;
    if (WIFEXITED(status))
        snprintf(c->err, c->errlen, "%s/%s: gnuplot exited with status %d%s%s", c->plots_dir,
                 script, WEXITSTATUS(status), *msg ? ": " : "", msg);
    else
        snprintf(c->err, c->errlen, "%s/%s: gnuplot killed by signal %d", c->plots_dir, script,
                 WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    return -1;
}

/* Whether path is a non-empty file. */
static bool plot_nonempty(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0;
}

/* --- entry points -------------------------------------------------------------------- */

static json_t *plot_load(const char *dir, char *err, size_t errlen)
{
    struct stat st;
    char *path = plot_path(dir, "results", ".json");
    json_t *root = NULL;
    if (!path) {
        snprintf(err, errlen, "%s: out of memory", dir);
        return NULL;
    }
    if (stat(dir, &st) != 0) {
        snprintf(err, errlen, "%s: %s", dir, strerror(errno));
    } else if (!S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "%s: not a directory (a results directory holds results.json)", dir);
    } else if (stat(path, &st) != 0) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
    } else {
        json_error_t je;
        root = json_load_file(path, 0, &je);
        if (!root && je.line > 0)
            snprintf(err, errlen, "%s:%d:%d: malformed JSON: %s", path, je.line, je.column,
                     je.text);
        else if (!root)
            snprintf(err, errlen, "%s: %s", path, je.text);
        else if (!json_is_object(root) || !plot_str(root, "schema") ||
                 strcmp(plot_str(root, "schema"), MB_RESULTS_SCHEMA) != 0) {
            snprintf(err, errlen, "%s: not an mbsuite results document (\"schema\" is not \"%s\")",
                     path, MB_RESULTS_SCHEMA);
            json_decref(root);
            root = NULL;
        } else if (!json_is_array(json_object_get(root, "benchmarks"))) {
            snprintf(err, errlen, "%s: \"benchmarks\" is not an array", path);
            json_decref(root);
            root = NULL;
        }
    }
    free(path);
    return root;
}

int mb_plot_results_dir_files(const char *dir, mb_plot_files_t *files, char *err, size_t errlen)
{
    *files = (mb_plot_files_t){0};
    plot_ctx_t c = {.files = files, .err = err, .errlen = errlen};
    int ret = -1;
    char *gnuplot = NULL;
    json_t *root = plot_load(dir, err, errlen);
    if (!root)
        return -1;
    c.root = root;
    c.plots_dir = plot_path(dir, "plots", "");
    if (!c.plots_dir) {
        snprintf(err, errlen, "%s: out of memory", dir);
        goto out;
    }
    if (mb_mkdir_p(c.plots_dir, err, errlen) != 0)
        goto out;

    size_t i;
    const json_t *bench;
    json_array_foreach(json_object_get(root, "benchmarks"), i, bench) {
        const char *name = plot_str(bench, "name");
        if (!name || plot_skipped(bench))
            continue;
        int rc =
            strcmp(name, "shm.latency") == 0 ? plot_mem_latency(&c, bench) : plot_bench(&c, bench);
        if (rc != 0)
            goto out;
    }
    if (plot_bandwidth(&c) != 0)
        goto out;
    const json_t *preflight = json_object_get(root, "preflight");
    if (json_is_object(preflight) &&
        (plot_perturb(&c, preflight) != 0 || plot_nodes(&c, preflight) != 0))
        goto out;

    gnuplot = plot_find_gnuplot();
    if (!gnuplot) {
        snprintf(err, errlen, "gnuplot not found: scripts and data written, no images (%s)",
                 c.plots_dir);
        ret = MB_PLOT_NO_GNUPLOT;
        goto out;
    }
    /* Every script is run; the first failure is the one reported. */
    char first_err[1024] = "";
    for (size_t k = 0; k < files->nscripts; k++) {
        const char *slash = strrchr(files->scripts[k], '/');
        char name[PATH_MAX];
        snprintf(name, sizeof name, "%s", slash ? slash + 1 : files->scripts[k]);
        name[strlen(name) - 3] = '\0'; /* ".gp" */
        static const char *const exts[] = {".png", ".svg"};
        for (size_t e = 0; e < 2; e++) { /* a failed run must not leave an old image behind */
            char *img = plot_path(c.plots_dir, name, exts[e]);
            if (img)
                unlink(img);
            free(img);
        }
        if (plot_run_gnuplot(&c, gnuplot, name) != 0) {
            if (!first_err[0])
                snprintf(first_err, sizeof first_err, "%s", err);
            continue;
        }
        for (size_t e = 0; e < 2; e++) {
            char *img = plot_path(c.plots_dir, name, exts[e]);
            if (img && !plot_nonempty(img)) {
                if (!first_err[0])
                    snprintf(first_err, sizeof first_err, "%s/%s.gp: gnuplot wrote no %s",
                             c.plots_dir, name, img);
                free(img);
                continue;
            }
            if (plot_list_add(&files->images, &files->nimages, img) != 0 && !first_err[0])
                snprintf(first_err, sizeof first_err, "%s: out of memory", c.plots_dir);
        }
    }
    if (first_err[0]) {
        snprintf(err, errlen, "%s", first_err);
        goto out;
    }
    ret = 0;
out:
    free(gnuplot);
    free(c.plots_dir);
    json_decref(root);
    return ret;
}

int mb_plot_results_dir(const char *dir, char *err, size_t errlen)
{
    mb_plot_files_t files;
    int rc = mb_plot_results_dir_files(dir, &files, err, errlen);
    mb_plot_files_free(&files);
    return rc;
}

void mb_plot_files_free(mb_plot_files_t *files)
{
    for (size_t i = 0; i < files->nscripts; i++)
        free(files->scripts[i]);
    for (size_t i = 0; i < files->nimages; i++)
        free(files->images[i]);
    free(files->scripts);
    free(files->images);
    *files = (mb_plot_files_t){0};
}
