/* SPDX-License-Identifier: MIT */
#include "sysdesc.h"

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SYSDESC_UNKNOWN "unknown"

int mb_sysdesc_cpuinfo_value(const char *cpuinfo, const char *key, char *buf, size_t len)
{
    size_t klen = strlen(key);
    for (const char *line = cpuinfo; line && *line;) {
        const char *end = strchr(line, '\n');
        size_t n = end ? (size_t)(end - line) : strlen(line);
        if (n == 0)
            break; /* the first processor's block ends at its blank line */
        if (strncmp(line, key, klen) == 0) {
            const char *p = line + klen;
            while (p < line + n && (*p == ' ' || *p == '\t'))
                p++;
            if (p < line + n && *p == ':') {
                p++;
                while (p < line + n && *p == ' ')
                    p++;
                size_t v = (size_t)(line + n - p);
                if (v == 0)
                    return -1;
                snprintf(buf, len, "%.*s", (int)v, p);
                return 0;
            }
        }
        line = end ? end + 1 : NULL;
    }
    return -1;
}

/* A whole small file, or NULL. */
static char *sysdesc_read(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    size_t cap = 65536, n;
    char *buf = malloc(cap);
    if (buf) {
        n = fread(buf, 1, cap - 1, f);
        buf[n] = '\0';
    }
    fclose(f);
    return buf;
}

static json_t *sysdesc_line(const char *path)
{
    char *s = sysdesc_read(path);
    if (!s)
        return json_string(SYSDESC_UNKNOWN);
    s[strcspn(s, "\n")] = '\0';
    json_t *v = json_string(s[0] ? s : SYSDESC_UNKNOWN);
    free(s);
    return v ? v : json_string(SYSDESC_UNKNOWN);
}

static void sysdesc_cpu(json_t *node)
{
    static const struct {
        const char *key, *field;
    } fields[] = {{"cpu family", "cpu_family"},
                  {"model", "cpu_model_number"},
                  {"stepping", "cpu_stepping"},
                  {"microcode", "microcode"}};
    char *info = sysdesc_read("/proc/cpuinfo");
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        char v[128];
        bool ok = info && mb_sysdesc_cpuinfo_value(info, fields[i].key, v, sizeof v) == 0;
        json_object_set_new(node, fields[i].field, json_string(ok ? v : SYSDESC_UNKNOWN));
    }
    free(info);
}

/* dmidecode's first memory device with a known type and speed ("Type: DDR4",
 * "Configured Memory Speed: 3200 MT/s" or "Speed: ..."). Run only when installed and the
 * DMI tables are readable, so an unprivileged run does not fork for nothing. */
static void sysdesc_memory(json_t *node)
{
    char type[64] = SYSDESC_UNKNOWN, speed[64] = SYSDESC_UNKNOWN;
    static const char *const tools[] = {"/usr/sbin/dmidecode", "/sbin/dmidecode"};
    const char *tool = NULL;
    for (size_t i = 0; i < sizeof tools / sizeof tools[0] && !tool; i++)
        if (access(tools[i], X_OK) == 0)
            tool = tools[i];
    if (tool && access("/sys/firmware/dmi/tables/DMI", R_OK) == 0) {
        char cmd[128];
        snprintf(cmd, sizeof cmd, "%s -t 17 2>/dev/null", tool);
        FILE *p = popen(cmd, "r");
        char line[256];
        while (p && fgets(line, sizeof line, p)) {
            char *s = line + strspn(line, " \t");
            s[strcspn(s, "\n")] = '\0';
            char *v = strchr(s, ':');
            if (!v || !v[1])
                continue;
            v += 2;
            if (strncmp(s, "Type:", 5) == 0 && strcmp(type, SYSDESC_UNKNOWN) == 0 &&
                strcmp(v, "Unknown") != 0 && strcmp(v, "Other") != 0)
                snprintf(type, sizeof type, "%s", v);
            else if ((strncmp(s, "Configured Memory Speed:", 24) == 0 ||
                      strncmp(s, "Speed:", 6) == 0) &&
                     strcmp(speed, SYSDESC_UNKNOWN) == 0 && strcmp(v, "Unknown") != 0)
                snprintf(speed, sizeof speed, "%s", v);
        }
        if (p)
            pclose(p);
    }
    json_object_set_new(node, "memory_type", json_string(type));
    json_object_set_new(node, "memory_speed", json_string(speed));
}

static void sysdesc_nics(json_t *node)
{
    json_t *nics = json_array();
    DIR *d = opendir("/sys/class/net");
    struct dirent *e;
    while (d && nics && (e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.' || strcmp(e->d_name, "lo") == 0)
            continue;
        char path[512];
        snprintf(path, sizeof path, "/sys/class/net/%s/speed", e->d_name);
        char *s = sysdesc_read(path);
        long mbps = s ? strtol(s, NULL, 10) : -1;
        free(s);
        json_array_append_new(nics, json_pack("{s:s, s:o}", "name", e->d_name, "speed_mbps",
                                              mbps > 0 ? json_integer(mbps) : json_null()));
    }
    if (d)
        closedir(d);
    json_object_set_new(node, "nics", nics ? nics : json_null());
}

void mb_sysdesc_add(json_t *node)
{
    sysdesc_cpu(node);
    sysdesc_memory(node);
    sysdesc_nics(node);
    json_object_set_new(node, "kernel_cmdline", sysdesc_line("/proc/cmdline"));
}
