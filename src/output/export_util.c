/* SPDX-License-Identifier: MIT */
/* Shared by the simulator exports (export_util.h): finding the latency benchmark's fit and
 * writing a set of files all or nothing. */
#include "export_util.h"

#include <limits.h>
#include <string.h>
#include <unistd.h>

#include "fit_results.h"
#include "record.h"

/* The fit in `fits` of the run's latency benchmark (the first that ran with loggp "L", e.g.
 * mpi.pingpong) for the series with label value `pair` (NULL: its first fit); *bench gets
 * the benchmark's name. Returns the fit (borrowed), or NULL with err. */
static const json_t *export_latency_fit(const json_t *root, const json_t *fits, const char *pair,
                                        const char **bench, char *err, size_t errlen)
{
    const json_t *src = mb_fit_loggp_source(root, "L");
    *bench = src ? json_string_value(json_object_get(src, "name")) : NULL;
    if (!*bench) {
        snprintf(err, errlen, "no latency benchmark (loggp \"L\", e.g. mpi.pingpong) ran");
        return NULL;
    }
    size_t i;
    const json_t *f;
    json_array_foreach(fits, i, f)
    {
        const char *name = json_string_value(json_object_get(f, "name"));
        if (!name || strcmp(name, *bench) != 0)
            continue;
        if (!pair)
            return f;
        const char *key;
        const json_t *v;
        json_object_foreach((json_t *)json_object_get(f, "params"), key, v)
        {
            if (json_is_string(v) && strcmp(json_string_value(v), pair) == 0)
                return f;
        }
    }
    snprintf(err, errlen, "%s has no fit%s%s", *bench, pair ? " for pair " : "", pair ? pair : "");
    return NULL;
}

int mb_export_run_open(const json_t *root, const char *pair, mb_export_run_t *run, char *err,
                       size_t errlen)
{
    *run = (mb_export_run_t){0};
    if (!(run->fits = mb_fit_results_of(root, &run->own, err, errlen)))
        return -1;
    run->fit = export_latency_fit(root, run->fits, pair, &run->bench, err, errlen);
    if (!run->fit) {
        mb_export_run_close(run);
        return -1;
    }
    mb_record_series_text(json_object_get(run->fit, "params"), run->series, sizeof run->series);
    if (!run->series[0])
        snprintf(run->series, sizeof run->series, "all");
    const char *started = json_string_value(json_object_get(root, "started_utc"));
    snprintf(run->source, sizeof run->source, "the run of %s",
             started ? started : "an unknown time");
    json_int_t ranks =
        json_integer_value(json_object_get(json_object_get(root, "system"), "ranks"));
    run->ranks = ranks > 2 && ranks < 1000000 ? (int)ranks : 2;
    return 0;
}

void mb_export_run_close(mb_export_run_t *run)
{
    json_decref(run->own);
    run->own = NULL;
}

int mb_export_write_files(const char *dir, const mb_export_file_t *files, size_t n, void *arg,
                          char *err, size_t errlen)
{
    if (mb_mkdir_p(dir, err, errlen) != 0)
        return -1;
    for (size_t i = 0; i < n; i++) {
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%s/%s", dir, files[i].name);
        if (mb_file_write_atomic(path, files[i].write, arg, err, errlen) == 0)
            continue;
        /* A set of files is read together: none rather than some of them. */
        for (size_t j = 0; j < i; j++) {
            snprintf(path, sizeof path, "%s/%s", dir, files[j].name);
            (void)unlink(path);
        }
        return -1;
    }
    return 0;
}
