/* SPDX-License-Identifier: MIT */
/* Seed 000, Appendix, "Measuring latency": the lrand48() example, unchanged but for the
 * include (lmbench's "bench.h" is mbsuite's "lmbench_api.h"). */
#include "lmbench_api.h"
int
main(int argc, char *argv[])
{
	putenv("LOOP_O=0.0");
	BENCH(lrand48(), 0);
	micro("lrand48()", get_n());
	exit(0);
}
