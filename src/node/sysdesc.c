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
    /* Without DMI (not root, or a VM without SMBIOS), the kernel's EDAC driver may still
     * name the DIMMs' type, to anyone. */
    if (strcmp(type, SYSDESC_UNKNOWN) == 0)
        mb_sysdesc_edac_memory_type_at("/sys", type, sizeof type);
    json_object_set_new(node, "memory_type", json_string(type));
    json_object_set_new(node, "memory_speed", json_string(speed));
}

/* The last component of the link at path (a driver's name) into buf; false when none. */
static bool sysdesc_link_name(const char *path, char *buf, size_t len)
{
    char target[512];
    ssize_t n = readlink(path, target, sizeof target - 1);
    if (n <= 0)
        return false;
    target[n] = '\0';
    const char *slash = strrchr(target, '/');
    snprintf(buf, len, "%s", slash ? slash + 1 : target);
    return buf[0] != '\0';
}

static int sysdesc_not_dot(const struct dirent *e)
{
    return strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
}

/* The entries of dir in name order, . and .. left out (scandir; the caller frees each and
 * *names); their count, 0 with *names NULL when dir cannot be read. */
static int sysdesc_list(const char *dir, struct dirent ***names)
{
    int n = scandir(dir, names, sysdesc_not_dot, alphasort);
    if (n < 0) {
        *names = NULL;
        return 0;
    }
    return n;
}

/* One file's first line into buf, newline cut; false when unreadable or empty. */
static bool sysdesc_first_line(const char *path, char *buf, size_t len)
{
    char *s = sysdesc_read(path);
    if (!s)
        return false;
    s[strcspn(s, "\n")] = '\0';
    snprintf(buf, len, "%s", s);
    free(s);
    return buf[0] != '\0';
}

bool mb_sysdesc_edac_memory_type_at(const char *sys, char *buf, size_t len)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/devices/system/edac/mc", sys);
    struct dirent **mcs;
    int nmc = sysdesc_list(path, &mcs);
    bool found = false;
    for (int m = 0; m < nmc; m++) {
        struct dirent **dimms = NULL;
        snprintf(path, sizeof path, "%s/devices/system/edac/mc/%s", sys, mcs[m]->d_name);
        int nd = strncmp(mcs[m]->d_name, "mc", 2) == 0 ? sysdesc_list(path, &dimms) : 0;
        for (int d = 0; d < nd; d++) {
            /* dimmN/ since Linux 3.6, rankN/ before; "Unknown" for an empty slot */
            const char *e = dimms[d]->d_name;
            char type[128];
            snprintf(path, sizeof path, "%s/devices/system/edac/mc/%s/%s/dimm_mem_type", sys,
                     mcs[m]->d_name, e);
            if (!found && (strncmp(e, "dimm", 4) == 0 || strncmp(e, "rank", 4) == 0) &&
                sysdesc_first_line(path, type, sizeof type) && strcmp(type, "Unknown") != 0) {
                snprintf(buf, len, "%s", type);
                found = true;
            }
            free(dimms[d]);
        }
        free(dimms);
        free(mcs[m]);
    }
    free(mcs);
    return found;
}

json_t *mb_sysdesc_nics_at(const char *sys)
{
    json_t *nics = json_array();
    char path[1024];
    snprintf(path, sizeof path, "%s/class/net", sys);
    struct dirent **names;
    int n = sysdesc_list(path, &names);
    for (int k = 0; k < n; k++) {
        const char *name = names[k]->d_name;
        if (nics && strcmp(name, "lo") != 0) {
            char line[64], driver[128];
            snprintf(path, sizeof path, "%s/class/net/%s/speed", sys, name);
            long mbps = sysdesc_first_line(path, line, sizeof line) ? strtol(line, NULL, 10) : -1;
            /* An interface with no device under it is the kernel's own (a bridge, veth,
             * ifb, tun): no hardware, no link speed to compare nodes by. */
            snprintf(path, sizeof path, "%s/class/net/%s/device", sys, name);
            bool no_device = access(path, F_OK) != 0;
            snprintf(path, sizeof path, "%s/class/net/%s/device/driver", sys, name);
            if (no_device || !sysdesc_link_name(path, driver, sizeof driver))
                snprintf(driver, sizeof driver, "%s", no_device ? "virtual" : SYSDESC_UNKNOWN);
            json_array_append_new(nics,
                                  json_pack("{s:s, s:o, s:s, s:b}", "name", name, "speed_mbps",
                                            mbps > 0 ? json_integer(mbps) : json_null(), "driver",
                                            driver, "virtual", no_device));
        }
        free(names[k]);
    }
    free(names);
    return nics;
}

/* One RDMA port's entry (mb_sysdesc_rdma_ports_at). */
static json_t *sysdesc_rdma_port(const char *sys, const char *hca, const char *num)
{
    static const char *const files[] = {"rate", "link_layer", "state"};
    char v[3][128], path[1024];
    for (size_t f = 0; f < 3; f++) {
        snprintf(path, sizeof path, "%s/class/infiniband/%s/ports/%s/%s", sys, hca, num, files[f]);
        if (!sysdesc_first_line(path, v[f], sizeof v[f]))
            snprintf(v[f], sizeof v[f], "%s", SYSDESC_UNKNOWN);
    }
    /* state reads "4: ACTIVE": the word alone */
    const char *state = strchr(v[2], ':') ? strchr(v[2], ':') + 1 : v[2];
    state += strspn(state, " ");
    return json_pack("{s:s, s:I, s:s, s:s, s:s}", "device", hca, "port",
                     (json_int_t)strtol(num, NULL, 10), "rate", v[0], "link_layer", v[1], "state",
                     state);
}

json_t *mb_sysdesc_rdma_ports_at(const char *sys)
{
    json_t *ports = json_array();
    char path[1024];
    snprintf(path, sizeof path, "%s/class/infiniband", sys);
    struct dirent **hcas;
    int nh = sysdesc_list(path, &hcas);
    for (int h = 0; h < nh; h++) {
        const char *hca = hcas[h]->d_name;
        struct dirent **nums;
        snprintf(path, sizeof path, "%s/class/infiniband/%s/ports", sys, hca);
        int np = sysdesc_list(path, &nums);
        for (int k = 0; k < np; k++) {
            if (ports)
                json_array_append_new(ports, sysdesc_rdma_port(sys, hca, nums[k]->d_name));
            free(nums[k]);
        }
        free(nums);
        free(hcas[h]);
    }
    free(hcas);
    return ports;
}

void mb_sysdesc_add(json_t *node)
{
    sysdesc_cpu(node);
    sysdesc_memory(node);
    json_t *nics = mb_sysdesc_nics_at("/sys");
    json_object_set_new(node, "nics", nics ? nics : json_null());
    json_t *ports = mb_sysdesc_rdma_ports_at("/sys");
    json_object_set_new(node, "rdma_ports", ports ? ports : json_null());
    json_object_set_new(node, "kernel_cmdline", sysdesc_line("/proc/cmdline"));
}
