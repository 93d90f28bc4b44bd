/* The workers of a group as tenants, side by side (docs/workloads.md). */
#ifndef SSDLAB_TENANT_REPORT_H
#define SSDLAB_TENANT_REPORT_H

#include <stdio.h>

#include "results.h"
#include "workload.h"

/* Mean latency (us) of a tenant's reads and writes together (NAN without). */
double tenant_mean_us(const tenant_stats *t);
/* One line per worker and its /tenants row (h5 may be NULL); alone_us, when
 * not NULL, holds each worker's mean latency alone: slowdowns and the
 * group's fairness follow. */
void report_tenants(FILE *log, workload *const *w, cfg *const *phases, size_t group, const double *alone_us, results_writer *h5);

/* A trace replay's devices as tenants (workload.tenants=devices): one
 * line and /tenants row each, in the last phase row added. */
void report_device_tenants(FILE *log, const tenant_stats *stats, const uint32_t *ids, uint32_t n, uint32_t queues,
                           results_writer *h5);

#endif
