/* SPDX-License-Identifier: MIT */
/* Seed 000, Appendix, "Measuring bandwidth": warm-cache bcopy() of 1 MB, unchanged but for
 * the include. */
#include "lmbench_api.h"
#define M	(1024*1024)
int
main(int argc, char *argv[])
{
	char	*a = malloc(M);
	char	*b = malloc(M);
	putenv("LOOP_O=0.0");
	BENCH(bcopy(a,b,M), 0);
	mb(M * get_n());
	exit(0);
}
