/* SPDX-License-Identifier: MIT */
/* The nine mhz expressions (seed 000 5.2), each repeated 100 times in the body of a loop
 * with the harness's run(state, iters) signature. */
#ifndef MB_MHZ_EXPR_H
#define MB_MHZ_EXPR_H

#include <stdint.h>

#include "mhz.h"
#include "timing.h"

/* Instances of the expression in one loop iteration (seed 000 Figure 3: HUNDRED). */
#define MB_MHZ_EXPR_REPS 100

/* The loops read their seeds from here at run time, so the compiler cannot precompute. */
typedef struct mb_mhz_expr_state {
    uint64_t a; /* seed 1, as in the seed's mhz_##M (i = 1) */
    uint64_t b; /* seed 1 */
    void *p;    /* points to itself: p=*p; walks one cached word */
} mb_mhz_expr_state_t;

/* Sets a = b = 1 and p = &s->p. */
void mb_mhz_expr_init(mb_mhz_expr_state_t *s);

/* mb_mhz_expr_fn[k] runs expression k + 1 (seed numbering) iters x 100 times on a
 * mb_mhz_expr_state_t. */
extern const mb_run_fn mb_mhz_expr_fn[MB_MHZ_NEXPR];

/* Exported (not static) so tests/mhz_disasm_check.sh finds them by name in the object. */
void mb_mhz_expr_1(void *state, uint64_t iters);
void mb_mhz_expr_2(void *state, uint64_t iters);
void mb_mhz_expr_3(void *state, uint64_t iters);
void mb_mhz_expr_4(void *state, uint64_t iters);
void mb_mhz_expr_5(void *state, uint64_t iters);
void mb_mhz_expr_6(void *state, uint64_t iters);
void mb_mhz_expr_7(void *state, uint64_t iters);
void mb_mhz_expr_8(void *state, uint64_t iters);
void mb_mhz_expr_9(void *state, uint64_t iters);

#endif
