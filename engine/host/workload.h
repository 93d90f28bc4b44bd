/* The workload of a run: closed-loop synthetic reads and writes at a queue
 * depth over an LBA region (random or sequential, a read share, one block
 * size), or the replay of a trace (replay.h); optional preconditioning
 * first. Workload files with phases build on the same API. */
#ifndef SSDLAB_WORKLOAD_H
#define SSDLAB_WORKLOAD_H

#include <stdint.h>

#include "config.h"
#include "ssd.h"
#include "steadystate.h"
#include "tenant.h"


typedef struct workload workload;

typedef struct workload_result {
    uint64_t requests;
    double seconds;          /* simulated time of the measured part */
    double iops, mib_per_s;
    uint64_t remapped, skipped; /* trace replay: records mapped onto the drive, records of other devices */
    char warning[400];          /* trace replay: a doubt about the trace's time unit, or "" */
    /* zoned writer: objects written by the user and copied by its
     * reclaimer, zones reset, writes that waited for an empty zone */
    uint64_t zone_writes, zone_copies, zone_resets, zone_stalls, zone_objects;
    /* workload.warmup_until=steady: the rounds run, whether they ended
     * steady, and the last rounds' write amplification (oldest first; as
     * many as ran, up to STEADY_WINDOW) */
    uint32_t warmup_rounds;
    uint64_t warmup_round_bytes; /* host bytes written per round */
    bool warmup_steady;
    double warmup_wa[STEADY_WINDOW];
} workload_result;

workload *workload_create(sim *s, ssd *d, const cfg *c, char *err, size_t errlen);
void workload_free(workload *w);
/* Brings the drive to the configured starting state (fast path). */
void workload_precondition(workload *w);
/* Workers: synthetic io and trim phases that run together (phases marked
 * workload.with_previous). Each joins a shared count of active workers
 * and is started; the simulation stops when the last one finishes. */
bool workload_can_join(const workload *w);
/* Whether its warm-up runs to steady state (workload.warmup_until): a
 * worker beside others may not, since their writes would count in it. */
bool workload_warms_to_steady(const workload *w);
/* stream names the random stream the worker draws from (NULL: the phases'
 * shared "workload" stream). A worker after the group's first takes one of
 * its own, so that its draws are the same beside others as alone: tenants
 * that took turns on one stream drew different requests in each other's
 * company, and each one's lookahead guessed wrong at nearly every batch.
 * Returns -1 when memory runs out. */
int workload_join(workload *w, int *active, const char *stream);
/* What a worker saw, as a tenant (NULL for a phase run alone). */
const tenant_stats *workload_tenant(const workload *w);
/* The zoned writer of a workload.source=zoned phase, else NULL. */
const struct zonewriter *workload_zonewriter(const workload *w);
/* A trace replay with workload.tenants=devices: its devices as tenants
 * (see replay_tenants); 0 otherwise. */
uint32_t workload_device_tenants(const workload *w, const tenant_stats **stats, const uint32_t **ids);
void workload_start(workload *w);

/* How far the phase has come towards its stop condition, 0 to 1; -1 when
 * that is not known in advance (a trace, say). */
double workload_progress(const workload *w);

/* Sets r's IOPS and MiB/s from its requests and seconds and the bytes of
 * the drive's statistics. */
void workload_set_rates(workload_result *r, const ssdlab_stats *st);

/* Runs to the stop condition (or the end of the trace) and fills r; a run
 * that ran out of memory (sim_failed) stops early and reports what ran.
 * Returns 0, or -1 with a message (a bad trace record) in err. */
int workload_run(workload *w, workload_result *r, char *err, size_t errlen);

#endif
