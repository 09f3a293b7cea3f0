/* SPDX-License-Identifier: MIT */
/* The rest of seed 003's Table 1 (system description), where the machine exposes it: CPU
 * family, model number, stepping and microcode (/proc/cpuinfo), memory type and speed
 * (dmidecode, when it is installed and the DMI tables are readable; else the type from the
 * kernel's EDAC driver, which any user may read), the network
 * interfaces with their drivers and link speeds (/sys/class/net), the RDMA ports with their
 * rates (/sys/class/infiniband: InfiniBand, RoCE, Omni-Path), and the kernel command line
 * (/proc/cmdline). What cannot be read is the string "unknown" (a NIC's speed: null). */
#ifndef MB_SYSDESC_H
#define MB_SYSDESC_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

/* Add "cpu_family", "cpu_model_number", "cpu_stepping", "microcode", "memory_type",
 * "memory_speed", "kernel_cmdline" (strings), "nics" and "rdma_ports" to node. */
void mb_sysdesc_add(json_t *node);

/* Under sys (a sysfs root, "/sys"): the first DIMM type the kernel's EDAC driver names
 * (each memory controller mcN's dimmN/dimm_mem_type, or rankN/ before Linux 3.6; an empty
 * slot's "Unknown" skipped: "Registered-DDR4") into buf; false, buf untouched, when none. */
bool mb_sysdesc_edac_memory_type_at(const char *sys, char *buf, size_t len);

/* Under sys (a sysfs root, "/sys"): the network interfaces but loopback, in name order,
 * [{"name", "speed_mbps" (null where the link reports none), "driver" ("virtio_net",
 * "mlx5_core"; "virtual" for one with no device under it: bridge, veth, ifb, tun),
 * "virtual"}]; NULL when out of memory. */
json_t *mb_sysdesc_nics_at(const char *sys);

/* Under sys: every port of every RDMA device, [{"device", "port", "rate" ("100 Gb/sec (4X
 * EDR)"), "link_layer" ("InfiniBand", "Ethernet"), "state" ("ACTIVE")}], "unknown" for a
 * file it cannot read; [] where there is no such device; NULL when out of memory. */
json_t *mb_sysdesc_rdma_ports_at(const char *sys);

/* From the text of /proc/cpuinfo: the first processor's value of `key` ("cpu family",
 * "model", "stepping", "microcode") into buf; 0, or -1 when absent. */
int mb_sysdesc_cpuinfo_value(const char *cpuinfo, const char *key, char *buf, size_t len);

#endif
