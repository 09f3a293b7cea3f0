/* SPDX-License-Identifier: MIT */
/* The system description's /proc/cpuinfo reading on a known text: the first processor's
 * values, a key that is a prefix of another ("model" vs "model name"), an absent key; its
 * network on a made-up sysfs tree (interfaces with and without a device, an InfiniBand
 * port), and the report's words for it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report_text.h"
#include "sysdesc.h"
#include "tmpdir.h"

static const char cpuinfo[] = "processor\t: 0\n"
                              "vendor_id\t: GenuineIntel\n"
                              "cpu family\t: 6\n"
                              "model\t\t: 85\n"
                              "model name\t: Intel(R) Xeon(R) Gold 6148 CPU @ 2.40GHz\n"
                              "stepping\t: 4\n"
                              "microcode\t: 0x2006e05\n"
                              "\n"
                              "processor\t: 1\n"
                              "cpu family\t: 7\n"
                              "flags\t\t: fpu\n";

static void test_first_processor(void **state)
{
    (void)state;
    char v[64];
    assert_int_equal(mb_sysdesc_cpuinfo_value(cpuinfo, "cpu family", v, sizeof v), 0);
    assert_string_equal(v, "6");
    assert_int_equal(mb_sysdesc_cpuinfo_value(cpuinfo, "model", v, sizeof v), 0);
    assert_string_equal(v, "85");
    assert_int_equal(mb_sysdesc_cpuinfo_value(cpuinfo, "stepping", v, sizeof v), 0);
    assert_string_equal(v, "4");
    assert_int_equal(mb_sysdesc_cpuinfo_value(cpuinfo, "microcode", v, sizeof v), 0);
    assert_string_equal(v, "0x2006e05");
}

static void test_absent(void **state)
{
    (void)state;
    char v[64];
    /* Only in the second processor's block: not the first's. */
    assert_int_equal(mb_sysdesc_cpuinfo_value(cpuinfo, "flags", v, sizeof v), -1);
    assert_int_equal(mb_sysdesc_cpuinfo_value("", "model", v, sizeof v), -1);
}

/* root/rel, its directories made, with text in it (NULL: a directory). */
static void sys_put(const char *root, const char *rel, const char *text)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    for (char *c = path + strlen(root) + 1; *c; c++)
        if (*c == '/') {
            *c = '\0';
            mkdir(path, 0755);
            *c = '/';
        }
    if (!text) {
        mkdir(path, 0755);
        return;
    }
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void sys_link(const char *root, const char *rel, const char *target)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    assert_int_equal(symlink(target, path), 0);
}

static void test_network(void **state)
{
    (void)state;
    char *root = mb_tmpdir_new("sysdesc");
    /* eth0: a virtio NIC that reports no speed; ib0: IPoIB on a ConnectX; ifb0: the
     * kernel's own; lo: left out. */
    sys_put(root, "devices/pci0/virtio2", NULL);
    sys_put(root, "devices/pci0/0000:81:00.0", NULL);
    sys_put(root, "bus/virtio/drivers/virtio_net", NULL);
    sys_put(root, "bus/pci/drivers/mlx5_core", NULL);
    sys_put(root, "class/net/eth0/speed", "-1\n");
    sys_link(root, "class/net/eth0/device", "../../../devices/pci0/virtio2");
    sys_link(root, "devices/pci0/virtio2/driver", "../../../bus/virtio/drivers/virtio_net");
    sys_put(root, "class/net/ib0/speed", "100000\n");
    sys_link(root, "class/net/ib0/device", "../../../devices/pci0/0000:81:00.0");
    sys_link(root, "devices/pci0/0000:81:00.0/driver", "../../../bus/pci/drivers/mlx5_core");
    sys_put(root, "class/net/ifb0/speed", "10\n");
    sys_put(root, "class/net/lo/speed", "");
    sys_put(root, "class/infiniband/mlx5_0/ports/1/rate", "100 Gb/sec (4X EDR)\n");
    sys_put(root, "class/infiniband/mlx5_0/ports/1/link_layer", "InfiniBand\n");
    sys_put(root, "class/infiniband/mlx5_0/ports/1/state", "4: ACTIVE\n");

    json_t *nics = mb_sysdesc_nics_at(root);
    assert_int_equal(json_array_size(nics), 3);
    const char *names[] = {"eth0", "ib0", "ifb0"},
               *drivers[] = {"virtio_net", "mlx5_core", "virtual"};
    for (size_t i = 0; i < 3; i++) {
        const json_t *nic = json_array_get(nics, i);
        assert_string_equal(json_string_value(json_object_get(nic, "name")), names[i]);
        assert_string_equal(json_string_value(json_object_get(nic, "driver")), drivers[i]);
        assert_int_equal(json_is_true(json_object_get(nic, "virtual")), i == 2);
    }
    assert_true(json_is_null(json_object_get(json_array_get(nics, 0), "speed_mbps")));
    assert_int_equal(json_integer_value(json_object_get(json_array_get(nics, 1), "speed_mbps")),
                     100000);
    json_t *ports = mb_sysdesc_rdma_ports_at(root);
    assert_int_equal(json_array_size(ports), 1);
    const json_t *port = json_array_get(ports, 0);
    assert_string_equal(json_string_value(json_object_get(port, "device")), "mlx5_0");
    assert_int_equal(json_integer_value(json_object_get(port, "port")), 1);
    assert_string_equal(json_string_value(json_object_get(port, "rate")), "100 Gb/sec (4X EDR)");
    assert_string_equal(json_string_value(json_object_get(port, "link_layer")), "InfiniBand");
    assert_string_equal(json_string_value(json_object_get(port, "state")), "ACTIVE");

    json_t *node = json_pack("{s:o, s:o}", "nics", nics, "rdma_ports", ports);
    char text[512];
    mb_report_text_network(node, false, text, sizeof text);
    assert_string_equal(text, "eth0 (virtio_net, speed unknown), ib0 (mlx5_core, 100000 Mb/s); "
                              "RDMA: mlx5_0 port 1 100 Gb/sec (4X EDR), InfiniBand, ACTIVE; "
                              "virtual: ifb0");
    mb_report_text_network(node, true, text, sizeof text);
    assert_string_equal(text, "eth0 ?, ib0 100000M, mlx5_0:1 100 Gb/sec");
    json_decref(node);

    /* No sysfs at all: nothing listed, and the words say so. */
    char missing[1024];
    snprintf(missing, sizeof missing, "%s/none", root);
    nics = mb_sysdesc_nics_at(missing);
    ports = mb_sysdesc_rdma_ports_at(missing);
    assert_int_equal(json_array_size(nics), 0);
    assert_int_equal(json_array_size(ports), 0);
    node = json_pack("{s:o, s:o}", "nics", nics, "rdma_ports", ports);
    mb_report_text_network(node, false, text, sizeof text);
    assert_string_equal(text, "none but loopback");
    mb_report_text_network(node, true, text, sizeof text);
    assert_string_equal(text, "-");
    json_decref(node);
    /* A record from before drivers were kept: every NIC is taken as hardware. */
    node = json_pack("{s:[{s:s, s:I}]}", "nics", "name", "eth0", "speed_mbps", (json_int_t)25000);
    mb_report_text_network(node, false, text, sizeof text);
    assert_string_equal(text, "eth0 (25000 Mb/s)");
    json_decref(node);
    assert_int_equal(mb_tmpdir_free(root), 0);
}

/* The DIMM type from the kernel's EDAC driver: an empty slot's "Unknown" passed over, the
 * older rank* directories read too, nothing when there is no driver. */
static void test_edac_memory_type(void **state)
{
    (void)state;
    char *root = mb_tmpdir_new("edac");
    char type[64] = "unchanged";
    assert_false(mb_sysdesc_edac_memory_type_at(root, type, sizeof type));
    assert_string_equal(type, "unchanged");
    sys_put(root, "devices/system/edac/mc/mc0/dimm0/dimm_mem_type", "Unknown\n");
    sys_put(root, "devices/system/edac/mc/mc0/dimm1/dimm_mem_type", "Registered-DDR4\n");
    sys_put(root, "devices/system/edac/mc/power/control", "auto\n");
    assert_true(mb_sysdesc_edac_memory_type_at(root, type, sizeof type));
    assert_string_equal(type, "Registered-DDR4");
    assert_int_equal(mb_tmpdir_free(root), 0);

    root = mb_tmpdir_new("edac");
    sys_put(root, "devices/system/edac/mc/mc1/rank3/dimm_mem_type", "Unbuffered-DDR3\n");
    assert_true(mb_sysdesc_edac_memory_type_at(root, type, sizeof type));
    assert_string_equal(type, "Unbuffered-DDR3");
    assert_int_equal(mb_tmpdir_free(root), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_first_processor),
        cmocka_unit_test(test_absent),
        cmocka_unit_test(test_network),
        cmocka_unit_test(test_edac_memory_type),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
