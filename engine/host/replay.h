/* Trace replay on a drive: timed (open loop: each record arrives at its
 * recorded time, times a scale factor) or as fast as possible at a queue
 * depth (closed loop). Its records come from trace_feed.h: read a batch
 * at a time (constant memory), filtered by device, and mapped onto the
 * drive's capacity. */
#ifndef SSDLAB_REPLAY_H
#define SSDLAB_REPLAY_H

#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "ssd.h"
#include "tenant.h"

typedef struct replay replay;

typedef struct replay_result {
    uint64_t requests, remapped, skipped; /* skipped: records of other devices */
    double seconds;
    char warning[400]; /* a doubt about the trace's time unit (trace_time_doubtful), or "" */
} replay_result;

replay *replay_create(sim *s, ssd *d, const cfg *c, char *err, size_t errlen);
void replay_free(replay *p);
/* The share of the replay done, 0 to 1: of the trace's records (as fast
 * as possible) or of its span (timed), when a first pass counted them, and
 * of any bound (requests, duration, bytes, drive writes), whichever is
 * furthest; -1 when none is known. */
double replay_progress(const replay *p);
/* workload.tenants=devices: the devices seen (ids) and what each saw, in
 * order of appearance; 0 otherwise. */
uint32_t replay_tenants(const replay *p, const tenant_stats **stats, const uint32_t **ids);
/* Runs the whole trace. Returns 0, or -1 with a message (bad record,
 * offset past the drive with workload.lba_map=error) in err. */
int replay_run(replay *p, replay_result *r, char *err, size_t errlen);

#endif
