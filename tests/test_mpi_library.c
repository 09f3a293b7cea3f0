/* SPDX-License-Identifier: MIT */
/* The MPI library's name and version from each library's own MPI_Get_library_version
 * text: Open MPI 4.1.4 and MPICH 4.0.2 as Debian 12's print them (captured here), Intel
 * MPI, MVAPICH2 and Cray MPICH as their documentation and users' logs show them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "mpi_library.h"

static void check(const char *text, const char *want_name, const char *want_version)
{
    char name[64], version[32];
    mb_mpi_library_parse(text, name, sizeof name, version, sizeof version);
    assert_string_equal(name, want_name);
    assert_string_equal(version, want_version);
}

static void test_open_mpi(void **state)
{
    (void)state;
    check("Open MPI v4.1.4, package: Debian OpenMPI, ident: 4.1.4, repo rev: v4.1.4, May 26, 2022",
          "Open MPI", "4.1.4");
}

static void test_mpich(void **state)
{
    (void)state;
    check("MPICH Version:\t4.0.2\nMPICH Release date:\tThu Apr  7 12:34:45 CDT 2022\n"
          "MPICH ABI:\t14:2:2\nMPICH Device:\tch4:ucx\n",
          "MPICH", "4.0.2");
}

static void test_intel_mpi(void **state)
{
    (void)state;
    check("Intel(R) MPI Library 2021.6 for Linux* OS\n", "Intel(R) MPI Library", "2021.6");
}

static void test_mvapich2(void **state)
{
    (void)state;
    check("MVAPICH2 Version      :\t2.3.7\nMVAPICH2 Release date :\tWed March 02 22:00:00 EST 2022\n",
          "MVAPICH2", "2.3.7");
}

static void test_cray_mpich(void **state)
{
    (void)state;
    check("MPI VERSION    : CRAY MPICH version 8.1.4.31 (ANL base 3.4a2)\n"
          "MPI BUILD INFO : Sat Feb 27 12:00 2021 (git hash 4e1ed9a)\n",
          "CRAY MPICH", "8.1.4.31");
}

/* No version number: the first line up to a comma names it; nothing is made up. */
static void test_unknown(void **state)
{
    (void)state;
    check("SomeMPI, built yesterday\nmore", "SomeMPI", "unknown");
    check("", "unknown", "unknown");
    check(NULL, "unknown", "unknown");
}

/* A number inside a word ("MPICH2", "ch4:ucx") is not the version; small buffers truncate. */
static void test_words_and_truncation(void **state)
{
    (void)state;
    check("MPICH2 Version:\t1.4.1p1\n", "MPICH2", "1.4.1p1");
    char name[5], version[4];
    mb_mpi_library_parse("Open MPI v4.1.4, package", name, sizeof name, version, sizeof version);
    assert_string_equal(name, "Open");
    assert_string_equal(version, "4.1");
}

/* The protocol limits among the control variables both Debian 12 libraries list (captured
 * with MPI_T here, -np 2), and names that only look like one. */
static void test_protocol_cvars(void **state)
{
    (void)state;
    static const char *const limits[] = {"btl_vader_eager_limit",
                                         "btl_vader_rndv_eager_limit",
                                         "btl_tcp_eager_limit",
                                         "btl_self_eager_limit",
                                         "btl_sm_eager_limit",
                                         "MPIR_CVAR_CH3_EAGER_MAX_MSG_SIZE",
                                         "MPIR_CVAR_CH4_OFI_EAGER_MAX_MSG_SIZE",
                                         "MPIR_CVAR_NEMESIS_SHM_EAGER_MAX_SZ",
                                         "MPIR_CVAR_CH4_SHM_POSIX_IQUEUE_CELL_SIZE"};
    for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++)
        assert_true(mb_mpi_library_protocol_cvar(limits[i]));
    static const char *const others[] = {"MPIR_CVAR_CTXID_EAGER_SIZE",
                                         "MPIR_CVAR_CH4_SHM_POSIX_EAGER",
                                         "btl_vader_max_send_size",
                                         "btl_vader_single_copy_mechanism",
                                         "MPIR_CVAR_CH4_SHM_POSIX_IQUEUE_NUM_CELLS",
                                         ""};
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++)
        assert_false(mb_mpi_library_protocol_cvar(others[i]));
    assert_false(mb_mpi_library_protocol_cvar(NULL));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_open_mpi),
        cmocka_unit_test(test_mpich),
        cmocka_unit_test(test_intel_mpi),
        cmocka_unit_test(test_mvapich2),
        cmocka_unit_test(test_cray_mpich),
        cmocka_unit_test(test_unknown),
        cmocka_unit_test(test_words_and_truncation),
        cmocka_unit_test(test_protocol_cvars),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
