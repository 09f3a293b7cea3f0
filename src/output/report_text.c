/* SPDX-License-Identifier: MIT */
/* Formatting for report.txt. Times keep 4 significant digits and never an exponent in
 * the usual range, so columns of them line up and read without decoding. */
#include "report_text.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Doubles hold every integer exactly up to 2^53; beyond, "integral" means nothing. */
#define REPORT_TEXT_MAX_INTEGER 9007199254740992.0

const char *mb_report_text_str(const json_t *obj, const char *key)
{
    return json_string_value(json_object_get(obj, key));
}

bool mb_report_text_num(const json_t *obj, const char *key, double *out)
{
    const json_t *v = json_object_get(obj, key);
    if (!json_is_number(v))
        return false;
    *out = json_number_value(v);
    return true;
}

const char *mb_report_text_dash(const char *s)
{
    return s && *s ? s : "-";
}

bool mb_report_text_stat(const json_t *pt, const char *key, char *buf, size_t len)
{
    double v, step;
    if (!mb_report_text_num(pt, key, &v))
        return false;
    if (mb_report_text_num(pt, "below_resolution_ns", &step) && v < step)
        snprintf(buf, len, "<%g", step);
    else
        mb_report_text_sig(v, buf, len);
    return true;
}

void mb_report_text_sig(double v, char *buf, size_t len)
{
    double a = fabs(v);
    if (!isfinite(v) || a == 0) {
        snprintf(buf, len, "%g", v);
        return;
    }
    int decimals = 3 - (int)floor(log10(a));
    if (decimals < 0)
        decimals = 0;
    if (decimals > 6)
        snprintf(buf, len, "%.3e", v);
    else
        snprintf(buf, len, "%.*f", decimals, v);
}

void mb_report_text_duration(double ns, char *buf, size_t len)
{
    static const struct {
        double scale;
        const char *name;
    } units[] = {{1e9, "s"}, {1e6, "ms"}, {1e3, "us"}, {1, "ns"}};
    size_t i = 0;
    while (i + 1 < sizeof units / sizeof units[0] && fabs(ns) < units[i].scale)
        i++;
    char num[40];
    mb_report_text_sig(ns / units[i].scale, num, sizeof num);
    snprintf(buf, len, "%s %s", num, units[i].name);
}

void mb_report_text_value(const json_t *v, char *buf, size_t len)
{
    if (json_is_string(v)) {
        snprintf(buf, len, "%s", json_string_value(v));
    } else if (json_is_integer(v)) {
        snprintf(buf, len, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
    } else if (json_is_real(v)) {
        double d = json_real_value(v);
        if (d == floor(d) && fabs(d) < REPORT_TEXT_MAX_INTEGER)
            snprintf(buf, len, "%.0f", d);
        else
            mb_report_text_sig(d, buf, len);
    } else if (json_is_boolean(v)) {
        snprintf(buf, len, "%s", json_is_true(v) ? "yes" : "no");
    } else if (!v || json_is_null(v)) {
        snprintf(buf, len, "-");
    } else {
        char *s = json_dumps(v, JSON_COMPACT);
        snprintf(buf, len, "%s", s ? s : "-");
        free(s);
    }
}

void mb_report_text_derived_value(const json_t *v, char *buf, size_t len)
{
    mb_report_text_value(v, buf, len);
    if ((json_is_array(v) || json_is_object(v)) && strlen(buf) + 1 >= len)
        snprintf(buf, len, "%zu %s (whole in results.json)",
                 json_is_array(v) ? json_array_size(v) : json_object_size(v),
                 json_is_array(v) ? "entries" : "keys");
}

size_t mb_report_text_axis_names(const json_t *bench, const char **names, size_t max)
{
    size_t n = 0, i;
    const json_t *p;
    const json_t *params = json_object_get(bench, "params");
    if (json_is_array(params)) {
        json_array_foreach(params, i, p)
        {
            if (json_is_string(p) && n < max)
                names[n++] = json_string_value(p);
        }
        return n;
    }
    const json_t *first =
        json_object_get(json_array_get(json_object_get(bench, "points"), 0), "params");
    const char *key;
    json_object_foreach((json_t *)first, key, p)
    {
        if (n < max)
            names[n++] = key;
    }
    return n;
}

void mb_report_text_params(const json_t *bench, const json_t *pt, char *buf, size_t len)
{
    const json_t *params = json_object_get(pt, "params");
    size_t n = json_array_size(json_object_get(bench, "params")) + json_object_size(params);
    const char **names = calloc(n ? n : 1, sizeof *names);
    size_t used = 0;
    if (len)
        buf[0] = '\0';
    if (!names)
        return;
    n = mb_report_text_axis_names(bench, names, n);
    for (size_t i = 0; i < n && used < len; i++) {
        char value[128];
        mb_report_text_value(json_object_get(params, names[i]), value, sizeof value);
        int w = snprintf(buf + used, len - used, "%s%s=%s", used ? " " : "", names[i], value);
        if (w < 0)
            break;
        used += (size_t)w;
    }
    free(names);
}

/* buf[*used..] += the formatted text, cut at len. */
static void report_text_add(char *buf, size_t len, size_t *used, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void report_text_add(char *buf, size_t len, size_t *used, const char *fmt, ...)
{
    if (*used >= len)
        return;
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(buf + *used, len - *used, fmt, ap);
    va_end(ap);
    if (w > 0)
        *used += (size_t)w;
}

void mb_report_text_network(const json_t *node, bool brief, char *buf, size_t len)
{
    size_t used = 0, i, shown = 0, nvirtual = 0;
    const json_t *nic, *port;
    if (len)
        buf[0] = '\0';
    const json_t *nics = json_object_get(node, "nics");
    json_array_foreach(nics, i, nic)
    {
        if (json_is_true(json_object_get(nic, "virtual"))) {
            nvirtual++;
            continue;
        }
        const char *name = mb_report_text_dash(mb_report_text_str(nic, "name"));
        const char *driver = mb_report_text_str(nic, "driver");
        double mbps;
        bool speed = mb_report_text_num(nic, "speed_mbps", &mbps);
        report_text_add(buf, len, &used, "%s%s", shown++ ? ", " : "", name);
        if (brief && speed)
            report_text_add(buf, len, &used, " %.0fM", mbps);
        else if (brief)
            report_text_add(buf, len, &used, " ?");
        else if (speed)
            report_text_add(buf, len, &used, " (%s%s%.0f Mb/s)", driver ? driver : "",
                            driver ? ", " : "", mbps);
        else
            report_text_add(buf, len, &used, " (%s%sspeed unknown)", driver ? driver : "",
                            driver ? ", " : "");
    }
    const json_t *ports = json_object_get(node, "rdma_ports");
    json_array_foreach(ports, i, port)
    {
        const char *dev = mb_report_text_dash(mb_report_text_str(port, "device"));
        json_int_t num = json_integer_value(json_object_get(port, "port"));
        const char *rate = mb_report_text_dash(mb_report_text_str(port, "rate"));
        if (brief) {
            /* "100 Gb/sec (4X EDR)": the rate without the width and generation */
            int cut = (int)strcspn(rate, "(");
            while (cut > 0 && rate[cut - 1] == ' ')
                cut--;
            report_text_add(buf, len, &used, "%s%s:%" JSON_INTEGER_FORMAT " %.*s",
                            shown++ ? ", " : "", dev, num, cut, rate);
        } else {
            report_text_add(buf, len, &used, "%s%s port %" JSON_INTEGER_FORMAT " %s, %s, %s",
                            i       ? ", "
                            : shown ? "; RDMA: "
                                    : "RDMA: ",
                            dev, num, rate,
                            mb_report_text_dash(mb_report_text_str(port, "link_layer")),
                            mb_report_text_dash(mb_report_text_str(port, "state")));
        }
    }
    if (!brief && nvirtual) {
        size_t k = 0;
        report_text_add(buf, len, &used, "%svirtual: ", used ? "; " : "");
        json_array_foreach(nics, i, nic)
        {
            if (json_is_true(json_object_get(nic, "virtual")))
                report_text_add(buf, len, &used, "%s%s", k++ ? ", " : "",
                                mb_report_text_dash(mb_report_text_str(nic, "name")));
        }
    }
    if (used == 0)
        snprintf(buf, len, "%s",
                 !brief && json_is_array(nics) && json_array_size(nics) == 0 &&
                         json_array_size(ports) == 0
                     ? "none but loopback"
                     : "-");
}

void mb_report_text_bytes(double bytes, char *buf, size_t len)
{
    static const char *const units[] = {"", "K", "M", "G", "T", "P"};
    size_t u = 0;
    double unit = 1;
    while (u + 1 < sizeof units / sizeof units[0] && bytes >= unit * 1024) {
        unit *= 1024;
        u++;
    }
    double q = bytes / unit;
    if (q == floor(q))
        snprintf(buf, len, "%.0f%s", q, units[u]);
    else
        snprintf(buf, len, "%.3g%s", q, units[u]);
}
