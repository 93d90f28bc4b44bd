/* Steady state by SNIA's rule (Solid State Storage Performance Test
 * Specification 2.0.2, 2020): a warm-up writes rounds, and the drive is
 * steady when, over the last five rounds, the range of their write
 * amplification is within 20 % of its mean and the range of its best-fit
 * line within 10 %. A warm-up (workload.warmup_until=steady) ends there,
 * or after workload.warmup_rounds rounds, steady or not. */
#ifndef SSDLAB_STEADYSTATE_H
#define SSDLAB_STEADYSTATE_H

#include <stdbool.h>
#include <stdint.h>

enum { STEADY_WINDOW = 5 };

typedef struct steady_rounds {
    uint64_t round_bytes; /* host bytes written per round */
    uint64_t written;     /* in the round under way */
    uint32_t rounds, max_rounds;
    double wa[STEADY_WINDOW]; /* the last rounds', oldest first */
    bool steady;
} steady_rounds;

/* True when the last STEADY_WINDOW values of y[0..n) meet SNIA's rule. */
bool steady_by_snia(const double *y, uint32_t n);

void steady_init(steady_rounds *sr, uint64_t round_bytes, uint32_t max_rounds);
/* Counts host bytes written; true when they complete a round. */
static inline bool steady_add(steady_rounds *sr, uint64_t bytes)
{
    sr->written += bytes;
    return sr->written >= sr->round_bytes;
}
/* A round ended with write amplification wa: true when the warm-up is
 * over (steady, or the last round allowed). */
bool steady_round_done(steady_rounds *sr, double wa);

#endif
