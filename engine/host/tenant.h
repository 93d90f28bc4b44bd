/* What one tenant (a worker running beside others) saw: its requests,
 * bytes and latencies by operation over its measured part, from its start
 * (or the end of its warm-up) to its last completion. The runner reports
 * tenants side by side and writes them to /tenants. */
#ifndef SSDLAB_TENANT_H
#define SSDLAB_TENANT_H

#include "opstats.h"
#include "sim.h"

typedef struct tenant_stats {
    op_stats ops;
    sim_time_t first, last; /* the measured part: its start, the last completion */
    uint64_t copies;        /* a zoned writer: objects its reclaimer copied (among ops' writes) */
} tenant_stats;

static inline int tenant_stats_init(tenant_stats *t) { return op_stats_init(&t->ops); }
static inline void tenant_stats_free(tenant_stats *t) { op_stats_free(&t->ops); }

static inline void tenant_stats_reset(tenant_stats *t, sim_time_t now)
{
    op_stats_reset(&t->ops);
    t->first = t->last = now;
    t->copies = 0;
}

/* A completed request (no allocation). */
static inline void tenant_stats_add(tenant_stats *t, const ssdlab_request *r)
{
    op_stats_add(&t->ops, r, r->finish - r->arrival);
    t->last = r->finish;
}

static inline double tenant_stats_seconds(const tenant_stats *t) { return sim_time_to_sec(t->last - t->first); }

#endif
