/* Simulated time: unsigned 64-bit nanoseconds since the start of a run.
 *
 * Integer time keeps event order exact and runs bit-reproducible; 2^64 ns is
 * about 584 years of simulated time, far beyond any run. */
#ifndef SSDLAB_SIMTIME_H
#define SSDLAB_SIMTIME_H

#include <stdint.h>

typedef uint64_t sim_time_t;

#define SIM_TIME_MAX UINT64_MAX

#define SIM_NS(x) ((sim_time_t)(x))
#define SIM_US(x) ((sim_time_t)(x) * UINT64_C(1000))
#define SIM_MS(x) ((sim_time_t)(x) * UINT64_C(1000000))
#define SIM_SEC(x) ((sim_time_t)(x) * UINT64_C(1000000000))

static inline double sim_time_to_sec(sim_time_t t) { return (double)t * 1e-9; }
static inline double sim_time_to_us(sim_time_t t) { return (double)t * 1e-3; }

/* Rounds to the nearest nanosecond; negative or NaN inputs give 0 and values
 * past the range saturate, so a model's arithmetic can never wrap the clock. */
static inline sim_time_t sim_time_from_sec(double s)
{
    if (!(s > 0.0)) return 0;
    double ns = s * 1e9 + 0.5;
    if (ns >= 18446744073709549568.0) return SIM_TIME_MAX;
    return (sim_time_t)ns;
}

#endif
