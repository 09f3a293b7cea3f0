/* SPDX-License-Identifier: MIT */
/* Seed 000, Appendix: the cold-cache bcopy() example, copying 1 MB at a time through 16 MB.
 * Changed: the include, and the printed listing's bcopy(a+o,b+o) gains its missing length
 * argument M (as the text describes: "copies data from one segment of a to a segment of b"). */
#include "lmbench_api.h"
#define N	16
#define M	(1024*1024)
int
main(int argc, char *argv[])
{
	int	o = 0;
	char	*a = malloc(M * N);
	char	*b = malloc(M * N);
	putenv("LOOP_O=0.0");
	BENCH(bcopy(a+o,b+o,M);
		o=(o+M)%(N*M);,0);
	mb(M * get_n());
	exit(0);
}
