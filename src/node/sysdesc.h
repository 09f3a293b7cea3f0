/* SPDX-License-Identifier: MIT */
/* The rest of seed 003's Table 1 (system description), where the machine exposes it: CPU
 * family, model number, stepping and microcode (/proc/cpuinfo), memory type and speed
 * (dmidecode, when it is installed and the DMI tables are readable), the network
 * interfaces and their link speeds (/sys/class/net), and the kernel command line
 * (/proc/cmdline). What cannot be read is the string "unknown" (a NIC's speed: null). */
#ifndef MB_SYSDESC_H
#define MB_SYSDESC_H

#include <jansson.h>

/* Add "cpu_family", "cpu_model_number", "cpu_stepping", "microcode", "memory_type",
 * "memory_speed", "kernel_cmdline" (strings) and "nics" ([{"name", "speed_mbps"}]) to node. */
void mb_sysdesc_add(json_t *node);

/* From the text of /proc/cpuinfo: the first processor's value of `key` ("cpu family",
 * "model", "stepping", "microcode") into buf; 0, or -1 when absent. */
int mb_sysdesc_cpuinfo_value(const char *cpuinfo, const char *key, char *buf, size_t len);

#endif
