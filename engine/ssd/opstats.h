/* Per-operation statistics of completed requests: counts, bytes, the
 * latency sum, maximum and histogram. The drive keeps one set (metrics.h)
 * and each tenant its own (engine/host/tenant.h). */
#ifndef SSDLAB_OPSTATS_H
#define SSDLAB_OPSTATS_H

#include <math.h>
#include <stdint.h>

#include <gsl/gsl_histogram.h>

#include "ssdlab.h"

/* Latency bins as in HdrHistogram: exact below 64 ns, then 64 bins per
 * octave (at most 1.6 % wide) up to 2^42 ns (73 minutes). The index comes
 * from the bits of the latency, not from a search or a logarithm. */
enum { SUB_BITS = 6, SUB = 1 << SUB_BITS, TOP_BIT = 42, LATENCY_BINS = (TOP_BIT - SUB_BITS + 1) * SUB };

static inline size_t latency_bin(uint64_t ns)
{
    if (ns < SUB) return ns;
    int msb = 63 - __builtin_clzll(ns);
    size_t i = (size_t)(msb - SUB_BITS + 1) * SUB + ((ns >> (msb - SUB_BITS)) & (SUB - 1));
    return i < LATENCY_BINS ? i : LATENCY_BINS - 1;
}

static inline double latency_bin_start(size_t i)
{
    if (i < SUB) return (double)i;
    int msb = (int)(i / SUB) + SUB_BITS - 1;
    return ldexp((double)(SUB + i % SUB), msb - SUB_BITS);
}

typedef struct op_stats {
    uint64_t completed[SSDLAB_CLASSES], bytes[SSDLAB_CLASSES]; /* by op class (ssdlab_op_class) */
    double latency_sum[SSDLAB_CLASSES];     /* ns */
    uint64_t latency_max[SSDLAB_CLASSES];   /* ns */
    gsl_histogram *latency[SSDLAB_CLASSES]; /* in the bins above */
    uint64_t refused;                       /* completed with a status other than 0 */
} op_stats;

/* A histogram of these bins, NULL when memory runs out. */
gsl_histogram *latency_histogram(void);
/* Every quantile, the run's and an interval's, comes from a histogram
 * through GSL's inverse CDF, which interpolates linearly inside the
 * (narrow) bin. NAN for an empty histogram. */
double histogram_quantile(gsl_histogram_pdf *pdf, const gsl_histogram *h, double q);

int op_stats_init(op_stats *s);
void op_stats_free(op_stats *s);
void op_stats_reset(op_stats *s);

/* A completed request (the hot path: no allocation). */
static inline void op_stats_add(op_stats *s, const ssdlab_request *r, uint64_t latency_ns)
{
    int c = ssdlab_op_class(r->op);
    s->completed[c]++;
    s->bytes[c] += r->status ? 0 : r->bytes; /* a refused command moved nothing */
    s->latency_sum[c] += (double)latency_ns;
    s->latency[c]->bin[latency_bin(latency_ns)] += 1;
    if (latency_ns > s->latency_max[c]) s->latency_max[c] = latency_ns;
    s->refused += r->status != 0;
}

/* The latency (ns) below which a fraction q of op's requests fell; the
 * exact maximum for q = 1; NAN without any. pdf is scratch of
 * LATENCY_BINS bins, or NULL to allocate one (reports, not the hot path). */
double op_stats_quantile(const op_stats *s, gsl_histogram_pdf *pdf, ssdlab_op op, double q);

#endif
