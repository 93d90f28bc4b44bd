/* What the drive tells an observer as it runs: the rows of its time series
 * and each completed request (the result writer and the CSV listen). */
#ifndef SSDLAB_OBSERVE_H
#define SSDLAB_OBSERVE_H

#include <stdbool.h>
#include <stdint.h>

#include "ssdlab.h"

/* One row of the time series: what happened in one interval of simulated
 * time (metrics.interval), and the drive's state at its end. Idle
 * intervals in a row (nothing completed, written or erased) are one row
 * from the first one's start to the last one's end. */
typedef struct ssd_interval {
    double start_s, end_s;
    double iops, mib_per_s;
    double read_mib_per_s, write_mib_per_s;
    double mean_latency_us, p99_latency_us;
    double read_mean_latency_us, write_mean_latency_us; /* 0 without such requests */
    double host_gib_written, flash_gib_written; /* since time 0 */
    uint64_t free_blocks;                        /* usable by native data, all dies (64 bits: the row has no padding) */
    double slc_gib;                              /* user data the SLC-mode blocks can hold */
    uint64_t erases;                             /* in the interval */
    uint64_t gc_units;                           /* units relocated by GC in the interval */
    double temperature_c;
} ssd_interval;

/* Who hears about each closed interval and each completed request. With
 * an interval observer the drive keeps no rows itself (ssd_intervals then
 * returns none), so memory stays bounded however long the run. */
typedef struct ssd_observers {
    void (*interval)(void *ctx, const ssd_interval *row);
    void (*request)(void *ctx, const ssdlab_request *r);
    /* A reclaim job erased its block: garbage collection, or SLC folding
     * when fold is true. The FTL is consistent here (the stress test checks
     * it every time). */
    void (*reclaimed)(void *ctx, bool fold);
    void *ctx;
} ssd_observers;

#endif
