/* PCMark-style scoring of replayed traces (UL's published definitions,
 * PCMark 8 and PCMark 10 technical guides): over the phases that replay a
 * trace, bandwidth = bytes read and written / busy time (time with a read
 * or write outstanding), average access time = mean latency of the reads
 * and writes, and score = geometric mean(bandwidth, 1 / access time). */
#ifndef SSDLAB_SCORE_H
#define SSDLAB_SCORE_H

#include <stdbool.h>
#include <stdint.h>

#include "config.h"
#include "summary_row.h"

typedef struct trace_score {
    uint32_t phases;
    uint64_t requests; /* reads and writes */
    uint64_t bytes;
    double busy_s;
    double bandwidth_mib_s; /* bytes / busy_s, MiB = 2^20 B */
    double access_time_us;
    double score;           /* sqrt(bandwidth in MiB/s x 1 / access time in s) */
    double latency_sum_us;  /* of the reads and writes; not in /score */
} trace_score;

/* Whether a phase of this configuration counts: an io phase that replays
 * a trace (a file, or a generated PCMark-like one). */
bool score_counts(const cfg *phase);
/* Adds one phase's summary row. */
void score_add(trace_score *s, const phase_summary *row);
/* Fills bandwidth, access time and score from what was added. */
void score_finish(trace_score *s);

#endif
