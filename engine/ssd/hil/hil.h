/* The host interface: submission queues, their depth limits and the
 * arbitration between them (arbiter.h), the
 * firmware's cores (a command's firmware time on the least busy one), the
 * host link's data transfers, completions, idle detection, and TRIM's
 * firmware cost. A request goes down from here: mapping lookups (a
 * DRAM-less drive's translation units), then the buffer; what comes back
 * up arrives through the callbacks this layer wires below it.
 *
 * What it owes above (the drive's statistics) is one callback per
 * completed request, wired at assembly. */
#ifndef SSDLAB_HIL_H
#define SSDLAB_HIL_H

#include "arbiter.h"
#include "buffer.h"
#include "mapio.h"
#include "progunit.h"
#include "protocol.h"
#include "reclaim.h"
#include "request_units.h"
#include "trim.h"
#include "zoned.h"

typedef struct hil {
    sim *s;
    const ssd_params *p;
    ftl *f;
    buffer *buf;
    mapio *map; /* NULL with the mapping table in DRAM */
    zoneio *zio; /* NULL without a zoned namespace */
    progunits *pu;
    reclaim *rc;
    power_model *power;
    datapath *dp;
    trim_work trim;
    host_link link;
    const host_protocol *protocol;
    uint32_t rw_pending;         /* reads and writes submitted, not yet complete (admitted or waiting) */
    sim_time_t busy_since;       /* when rw_pending last rose from 0 */
    sim_time_t busy_ns;          /* time with rw_pending > 0 since the last reset (PCMark's busy time) */
    arbiter arb;                 /* which waiting command the controller fetches next */
    uint64_t submitted;          /* requests since creation: the next request's id */
    uint64_t warmed;             /* units hil_warm had the FTL load, or hil_fetch fetch */
    uint64_t overwrites_warmed;  /* units whose old places hil_warm_overwrites had the FTL load, or hil_fetch_overwrites fetch */
    bool idle;
    sim_event idle_timer;
    sim_handler_id on_fw_done, on_data_in, on_complete, on_device_done, on_idle;
    void (*completed)(void *ctx, const ssdlab_request *r);
    void *completed_ctx;
} hil;

int hil_init(hil *h, sim *s, ftl *f, buffer *buf, mapio *map, progunits *pu, reclaim *rc, trimmap *tm, power_model *power,
             datapath *dp);
void hil_free(hil *h);
void hil_on_completed(hil *h, void (*fn)(void *ctx, const ssdlab_request *r), void *ctx);
static inline void hil_set_zones(hil *h, zoneio *zio) { h->zio = zio; }

/* Submits at the current simulated time; -1 if r lies outside the drive,
 * has no bytes, an unknown op or queue. */
int hil_submit(hil *h, ssdlab_request *r, ssdlab_done_fn done, void *ctx);
/* Warms the tables for requests at byte offsets[0..n) that a source will
 * submit soon (ftl_warm); offsets past the drive are skipped. */
void hil_warm(hil *h, const uint64_t *offsets, uint32_t n);
/* Loads the old places of writes at offsets[0..n), whose entries
 * hil_warm loaded a batch before (ftl_warm_old). */
void hil_warm_overwrites(hil *h, const uint64_t *offsets, uint32_t n);
/* hil_warm and hil_warm_overwrites as prefetches (ftl_fetch_entries,
 * ftl_fetch_old), counted with them. */
void hil_fetch(hil *h, const uint64_t *offsets, uint32_t n);
void hil_fetch_overwrites(hil *h, const uint64_t *offsets, uint32_t n);
/* Busy time so far (PCMark's): with a busy period running, up to now. */
sim_time_t hil_busy_ns(const hil *h);
void hil_reset_busy(hil *h);

/* Callbacks from below (wired at assembly). */
void hil_move_in(void *ctx, ssdlab_request *r);
void hil_buffer_done(void *ctx, ssdlab_request *r);
void hil_resume(void *ctx, ssdlab_request *r);
void hil_zone_reset_done(void *ctx, ssdlab_request *r);

#endif
