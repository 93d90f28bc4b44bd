/* The minimal workload source of the SSD model: closed-loop reads and
 * writes at a queue depth over an LBA region, random or sequential, with a
 * read share and one block size; optional preconditioning first. The full
 * workload system (phases, traces, open loop) builds on the same API. */
#ifndef SSDLAB_WORKLOAD_H
#define SSDLAB_WORKLOAD_H

#include <stdint.h>

#include "config.h"
#include "ssd.h"

extern const cfg_key workload_config_keys[];

typedef struct workload workload;

typedef struct workload_result {
    uint64_t requests;
    double seconds;          /* simulated time of the measured part */
    double iops, mib_per_s;
} workload_result;

workload *workload_create(sim *s, ssd *d, const cfg *c, char *err, size_t errlen);
void workload_free(workload *w);
/* Brings the drive to the configured starting state (fast path). */
void workload_precondition(workload *w);
/* Runs to the stop condition and fills r. */
void workload_run(workload *w, workload_result *r);

#endif
