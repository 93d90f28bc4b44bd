/* Statistics of a trace, in one streaming pass: what `ssdlab trace stats`
 * prints and what the tests check against published figures. */
#ifndef SSDLAB_TRACE_STATS_H
#define SSDLAB_TRACE_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "trace.h"

enum { SIZE_BUCKETS = 13 }; /* <=512 B, 1 KiB, 2 KiB, ... 512 KiB, 1 MiB, more */
enum { STATS_DEVICES = 64 };  /* devices described one by one; more are counted together */

/* One device (disk, volume, ASU) of a trace. */
typedef struct trace_device {
    uint32_t id;
    uint64_t requests, count[TRACE_OPS], bytes[TRACE_OPS];
    uint64_t min_offset, max_end;
    uint64_t footprint_pages; /* distinct 4 KiB pages; UINT64_MAX when not counted (range or memory) */
} trace_device;

typedef struct trace_stats {
    uint64_t requests, count[TRACE_OPS], bytes[TRACE_OPS];
    uint64_t size_hist[SIZE_BUCKETS];
    uint64_t sequential;         /* requests starting where the device's previous one ended */
    uint64_t sequential_op[2];   /* reads (writes) starting where the device's previous read (write) ended:
                                  * the split PCMark's trace statistics publish */
    uint64_t footprint_pages;    /* distinct 4 KiB pages touched; UINT64_MAX if the range was too large */
    double duration_s;
    double interarrival_mean_s, interarrival_sd_s;
    uint32_t devices;
    trace_device device[STATS_DEVICES]; /* the first STATS_DEVICES devices, in the order they appear */
    uint64_t min_offset, max_end; /* lowest offset, highest offset + size */
    trace_format format; /* as read (guessed or given) */
    uint64_t aligned;    /* requests whose offset and size are whole 4 KiB pages */
    double size_pct[3], gap_pct[3]; /* p50, p90, p99 of the request size (B) and the inter-arrival time (s) */
    uint64_t idle_gaps;  /* gaps between requests longer than 1 s */
    double idle_s;       /* their total */
    uint64_t busiest_requests; /* requests in the trace's busiest second (from its first record) */
    double busiest_at_s; /* when that second starts */
    uint64_t skipped;    /* records read but not replayed (flushes, non-data commands) */
    char skipped_kind[64]; /* what they were */
} trace_stats;

extern const double trace_stats_quantiles[3]; /* 0.5, 0.9, 0.99 */

/* Returns 0, or -1 with the reader's message (FILE:LINE: ...) in err. */
int trace_stats_compute(const char *path, const trace_options *opt, trace_stats *s, char *err, size_t errlen);
/* What a replay needs before it starts, in a lighter pass: only the
 * counts (requests, count, bytes), duration_s, min_offset, max_end,
 * format and the devices (devices, and device[]'s counts and extents) are
 * set; the footprints say "not counted" and the rest is zero. The pass
 * keeps no bitmap of pages and no histogram: on a binary trace it costs
 * little more than reading the file. As trace_stats_compute returns. */
int trace_stats_extent(const char *path, const trace_options *opt, trace_stats *s, char *err, size_t errlen);
/* The same pass, handing each record to `each` as well (a replay that
 * packs its footprint marks the pages there, rather than read the trace
 * once more). */
typedef void trace_record_fn(void *ctx, const trace_record *r);
int trace_stats_extent_each(const char *path, const trace_options *opt, trace_stats *s, trace_record_fn *each, void *ctx,
                            char *err, size_t errlen);

/* A format whose files do not state their time unit (DiskSim/MQSim ASCII:
 * DiskSim's are in ms, MQSim's in ns) may have been read in the wrong one.
 * When the span it implies is implausible for its requests (over 30 days,
 * or over an hour at under one request a second), writes a warning that
 * says so into buf and returns true. */
bool trace_time_doubtful(trace_format f, double unit_ns, uint64_t requests, double span_s, char *buf, size_t len);

#endif
