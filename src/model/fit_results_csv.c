/* SPDX-License-Identifier: MIT */
/* fits.csv: the "fits" array flattened to one row per segment term, for spreadsheets and
 * gnuplot; the JSON stays the complete record. */
#include "fit_results.h"

#include <stdio.h>
#include <string.h>

#include "fileutil.h"
#include "record.h"

static void fit_results_csv_number(FILE *f, const json_t *v)
{
    if (json_is_integer(v))
        fprintf(f, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
    else if (json_is_number(v))
        fprintf(f, "%.9g", json_number_value(v));
}

static int fit_results_csv_writer(FILE *f, void *arg)
{
    const json_t *fits = arg;
    fprintf(
        f,
        "name,params,segment,d_min,d_max,basis,coef_ns,stderr_ns,chi2,dof,Q,holdout_error_pct\n");
    size_t i;
    const json_t *fit;
    json_array_foreach(fits, i, fit)
    {
        char params[256];
        mb_record_params_text(json_object_get(fit, "params"), ";", params, sizeof params);
        size_t s;
        const json_t *seg;
        json_array_foreach(json_object_get(fit, "segments"), s, seg)
        {
            size_t t;
            const json_t *term;
            json_array_foreach(json_object_get(seg, "terms"), t, term)
            {
                const char *name = json_string_value(json_object_get(fit, "name"));
                mb_csv_field(f, name ? name : "");
                fputc(',', f);
                mb_csv_field(f, params);
                fprintf(f, ",%zu,", s);
                fit_results_csv_number(f, json_object_get(seg, "d_min"));
                fputc(',', f);
                fit_results_csv_number(f, json_object_get(seg, "d_max"));
                fputc(',', f);
                const char *basis = json_string_value(json_object_get(term, "basis"));
                mb_csv_field(f, basis ? basis : "");
                static const char *const term_keys[] = {"coef", "stderr"};
                for (size_t k = 0; k < 2; k++) {
                    fputc(',', f);
                    fit_results_csv_number(f, json_object_get(term, term_keys[k]));
                }
                static const char *const seg_keys[] = {"chi2", "dof", "Q"};
                for (size_t k = 0; k < 3; k++) {
                    fputc(',', f);
                    fit_results_csv_number(f, json_object_get(seg, seg_keys[k]));
                }
                fputc(',', f);
                fit_results_csv_number(f, json_object_get(fit, "holdout_error_pct"));
                fputc('\n', f);
            }
        }
    }
    return ferror(f) ? -1 : 0;
}

int mb_fit_results_write_csv(const json_t *fits, const char *path, char *err, size_t errlen)
{
    if (!json_is_array(fits)) {
        snprintf(err, errlen, "%s: the fits are not an array", path);
        return -1;
    }
    return mb_file_write_atomic(path, fit_results_csv_writer, (void *)fits, err, errlen);
}
