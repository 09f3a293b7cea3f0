/* SPDX-License-Identifier: MIT */
/* The nine mhz expressions (seed 000 5.2 and Figure 3), each repeated 100 times per loop
 * iteration. Every instance depends on the previous one, so a loop iteration takes exactly
 * 100 x (the expression's latency in clock ticks); the loop counter is a separate,
 * parallel dependency chain and hides under it (the seed runs mhz with LOOP_O=0).
 *
 * Compiler flags: built with the suite's ordinary flags (-std=c11 -O2 ...); no per-file
 * rule is needed. What it relies on, and why:
 *  - optimisation on (-O1 or more): at -O0 a and p live in memory, and every instance
 *    becomes load/compute/store, timing store-to-load forwarding instead of the ALU;
 *  - no flag that unrolls or vectorises changes anything: each chain is serial;
 *  - unsigned 64-bit arithmetic, so no instance has undefined behaviour (shift counts
 *    stay below 64: b = 1, and a>>=a+a reaches 0 after one step) that would license the
 *    compiler to drop it;
 *  - the seeds are read through volatile lvalues, each instance is made opaque to the
 *    next (MHZ_OPAQUE, no instruction), and the results are handed to mb_use_int /
 *    mb_use_pointer, so nothing can be precomputed, merged or discarded (seed 000 5.2's
 *    use_result()); this is what makes -O2 safe.
 * tests/mhz_disasm_check.sh proves on the object that each loop kept its 100 copies.
 * Under -fsanitize=address the p=*p loop gains a shadow check per load: the code still
 * runs, but mhz figures from such a build mean nothing. */
#include "mhz_expr.h"

#include "loop_rules.h"

#define MHZ_TEN(x) x x x x x x x x x x
#define MHZ_HUNDRED(x) MHZ_TEN(MHZ_TEN(x))

/* An empty asm that claims to read and rewrite v in its register: it emits no instruction,
 * but the compiler must forget what it knew of v, so it cannot merge the next instance
 * with this one. Without it GCC 12 -O2 does what seed 000 5.2 warns of: it folds the 100
 * instances of a^=a+a into two shift/xor pairs and all of a++;a^=1;a<<=1; into a=0. */
#define MHZ_OPAQUE(v) __asm__("" : "+r"(v));

void mb_mhz_expr_init(mb_mhz_expr_state_t *s)
{
    s->a = 1;
    s->b = 1;
    s->p = &s->p;
}

/* Seeds read at run time: the compiler knows nothing of their values. */
static uint64_t expr_load(const uint64_t *v)
{
    return *(const volatile uint64_t *)v;
}

/* Expressions 2-9 on integers a and b (seed 000 Figure 3, TYPE unsigned). */
#define MHZ_INT_EXPR(M, expression)                                                                \
    void mb_mhz_expr_##M(void *state, uint64_t iters)                                              \
    {                                                                                              \
        mb_mhz_expr_state_t *s = state;                                                            \
        uint64_t a = expr_load(&s->a);                                                             \
        uint64_t b = expr_load(&s->b);                                                             \
        for (; iters > 0; --iters) {                                                               \
            MHZ_HUNDRED(expression MHZ_OPAQUE(a))                                                  \
        }                                                                                          \
        mb_use_int(a);                                                                             \
        mb_use_int(b);                                                                             \
    }

/* 1. p=*p; a chain of dependent loads from one cached word. */
void mb_mhz_expr_1(void *state, uint64_t iters)
{
    mb_mhz_expr_state_t *s = state;
    void **p = *(void **const volatile *)&s->p;
    for (; iters > 0; --iters) {
        MHZ_HUNDRED(p = *p; MHZ_OPAQUE(p))
    }
    mb_use_pointer(p);
}

MHZ_INT_EXPR(2, a ^= a + a;)
MHZ_INT_EXPR(3, a ^= a + a + a;)
MHZ_INT_EXPR(4, a >>= b;)
MHZ_INT_EXPR(5, a >>= a + a;)
MHZ_INT_EXPR(6, a ^= a << b;)
MHZ_INT_EXPR(7, a ^= a + b;)
MHZ_INT_EXPR(8, a += (a + b) & 07;)
MHZ_INT_EXPR(9, a++; a ^= 1; a <<= 1;)

const char *const mb_mhz_expr_text[MB_MHZ_NEXPR] = {
    "p=*p;",    "a^=a+a;", "a^=a+a+a;",    "a>>=b;",          "a>>=a+a;",
    "a^=a<<b;", "a^=a+b;", "a+=(a+b)&07;", "a++;a^=1;a<<=1;",
};

const mb_run_fn mb_mhz_expr_fn[MB_MHZ_NEXPR] = {
    mb_mhz_expr_1, mb_mhz_expr_2, mb_mhz_expr_3, mb_mhz_expr_4, mb_mhz_expr_5,
    mb_mhz_expr_6, mb_mhz_expr_7, mb_mhz_expr_8, mb_mhz_expr_9,
};
