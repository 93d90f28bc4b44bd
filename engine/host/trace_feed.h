/* The records a trace replay issues, in order: read from the trace file
 * (or a PCMark-like trace made in memory), from workload.start_record and
 * start_time on, those of the replayed devices, moved onto the drive
 * (trace_layout, or zone by zone: trace_zones), and round again from the
 * start for workload.loop.
 *
 * Records are read up to two batches ahead, and where the drive says
 * warming pays (ssd_warm_pays) it loads a batch's mapping entries together
 * as the batch is read, then, once the batch is the one handed out, its
 * writes' old places (ssd_warm_overwrites): at full size each is a miss of
 * the cache and of the address translation, and misses issued together
 * overlap, where a lone one is waited for. Reading ahead changes nothing a
 * replay does or reports: what reading moves (records passed over,
 * addresses remapped, the last arrival time, the trace's end or a bad
 * record) travels with each record and counts once the record is taken;
 * records read ahead and never taken (a budget stopped the replay) count
 * for nothing, as when they were not read. */
#ifndef SSDLAB_TRACE_FEED_H
#define SSDLAB_TRACE_FEED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "simtime.h"
#include "ssd.h"
#include "trace.h"

typedef struct trace_feed trace_feed;

/* Records read ahead in one batch: what ssd_warm loads in one go (16
 * measured as well as 8 and 32 for the synthetic lookahead,
 * LOOKAHEAD_BATCH). A replay stopped by a budget has read at most this
 * many records that it never takes. */
enum { TRACE_FEED_AHEAD = 16 };

/* Opens the source that the workload keys name and makes the pass over
 * the trace its layout needs. NULL, with a message naming the key or the
 * file, on bad input. */
trace_feed *trace_feed_open(ssd *d, const cfg *c, char *err, size_t errlen);
void trace_feed_close(trace_feed *f);

/* 1: the next record, on the drive, into *r (its time counted from the
 * replay's start, a loop's later passes after the earlier ones); 0: none
 * is left; -1: bad input, the message in trace_feed_error. After 0 or -1
 * every later call answers the same. */
int trace_feed_next(trace_feed *f, trace_record *r);
const char *trace_feed_error(const trace_feed *f);

/* What the records taken so far did: records of other devices passed
 * over, records whose address was moved, the last one's time. */
typedef struct trace_feed_counts {
    uint64_t skipped, remapped;
    sim_time_t last_time;
} trace_feed_counts;
trace_feed_counts trace_feed_taken(const trace_feed *f);

/* The records to replay (the replayed devices', past start_record) and the
 * span of the trace to replay (ns, past start_time), when the layout's
 * pass counted them; 0 unknown. */
uint64_t trace_feed_total_records(const trace_feed *f);
sim_time_t trace_feed_span(const trace_feed *f);

/* A doubt about the trace's time unit, given the requests completed and
 * the last record's time (trace_time_doubtful); false for a PCMark-like
 * trace. */
bool trace_feed_time_doubtful(const trace_feed *f, uint64_t completed, char *doubt, size_t len);

#endif
