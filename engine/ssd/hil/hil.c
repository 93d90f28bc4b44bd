#include "hil.h"

#include <stdlib.h>

#include "timelines.h"

/* A command without read data is done in the drive at t (now, or later
 * for a TRIM's firmware work); its completion then goes up to the host. */
static void done_at(hil *h, ssdlab_request *r, sim_time_t t)
{
    sim_time_t now = sim_now(h->s);
    if (t > now) sim_schedule_at(h->s, t, h->on_device_done, r, 0);
    else sim_schedule_at(h->s, h->protocol->done(&h->link, now), h->on_complete, r, 0);
}

static void on_device_done(sim *s, void *ctx, void *obj, uint64_t arg)
{
    (void)arg;
    done_at(ctx, obj, sim_now(s));
}

/* --- down the path --------------------------------------------------------- */

static bool moves_data(const ssdlab_request *r)
{
    int c = ssdlab_op_class(r->op);
    return c == SSDLAB_READ || c == SSDLAB_WRITE;
}

/* A zoned command's checks and zone work; true when it goes no further
 * down the path from here. */
static bool zoned_stops(hil *h, ssdlab_request *r)
{
    switch (zoned_command(h->zio, r, h->p->unit)) {
    case ZONED_NOT: return false;
    case ZONED_GO_ON: break;
    case ZONED_DONE: done_at(h, r, sim_now(h->s)); return true;
    case ZONED_WAITS: return true;
    }
    if (r->op == SSDLAB_READ) buffer_read(h->buf, r);
    else buffer_write(h->buf, r);
    return true;
}

void hil_zone_reset_done(void *ctx, ssdlab_request *r)
{
    hil *h = ctx;
    done_at(h, r, sim_now(h->s));
}

/* The request's work after the firmware stage (and, with a cached mapping,
 * once its translation units are in the cache). */
static void continue_request(hil *h, ssdlab_request *r)
{
    if (h->zio && zoned_stops(h, r)) return; /* zoned commands never come back here: no merge, no mapping reads */
    uint32_t lpn = req_first_unit(h->p, r), n = req_units(h->p, r);
    if (h->map && moves_data(r) && !mapio_ready(h->map, r, lpn, n)) return;
    switch (r->op) {
    case SSDLAB_READ:
        buffer_read(h->buf, r);
        break;
    case SSDLAB_WRITE:
        ftl_prefetch_old_of(h->f, lpn);
        buffer_write(h->buf, r);
        break;
    case SSDLAB_ZONE_APPEND: buffer_write(h->buf, r); break;
    case SSDLAB_TRIM: {
        uint32_t map_reads = h->map ? mapio_uncached(h->map, lpn, n) : 0;
        if (h->map) mapio_dirty(h->map, lpn, n);
        done_at(h, r, trim_command(&h->trim, lpn, n, map_reads));
        break;
    }
    case SSDLAB_FDP_UPDATE:
        progunit_close_stream(h->pu, ftl_host_stream(r->placement));
        done_at(h, r, sim_now(h->s));
        break;
    default: done_at(h, r, sim_now(h->s)); break; /* zone management: only in a zoned namespace */
    }
}

void hil_resume(void *ctx, ssdlab_request *r) { continue_request(ctx, r); }

static void on_fw_done(sim *s, void *ctx, void *obj, uint64_t arg)
{
    (void)arg, (void)s;
    continue_request(ctx, obj);
}

/* Firmware: the earliest free of the identical cores, in the order the
 * arbiter fetches commands. */
static void admit(hil *h, ssdlab_request *r)
{
    h->idle = false;
    reclaim_busy(h->rc);
    if (h->idle_timer) {
        sim_cancel(h->s, h->idle_timer);
        h->idle_timer = 0;
    }
    /* The firmware stage will look the request's units up: fetch the
     * mapping entry now, so the miss overlaps other events' work. */
    uint32_t lpn = req_first_unit(h->p, r);
    __builtin_prefetch(&h->f->l2p[lpn]);
    if (h->map) mapio_prefetch_place(h->map, lpn);
    int c = ssdlab_op_class(r->op); /* zone management costs what a TRIM's command does */
    sim_time_t cost = c == SSDLAB_READ ? h->p->fw_read : c == SSDLAB_WRITE ? h->p->fw_write : h->p->fw_trim;
    uint32_t units = r->bytes ? req_units(h->p, r) : 1;
    cost += (sim_time_t)(units - 1) * h->p->fw_per_unit;
    power_deposit(h->power, (double)cost * 1e-9 * h->power->controller_active_extra_w);
    sim_time_t end = datapath_firmware(h->dp, h->protocol->command(&h->link, sim_now(h->s)), cost);
    r->start = end - cost;
    sim_schedule_at(h->s, end, h->on_fw_done, r, 0);
}

/* Every command the arbiter lets the controller fetch now. */
static void fetch(hil *h)
{
    for (ssdlab_request *r; (r = arbiter_fetch(&h->arb));) admit(h, r);
}

int hil_submit(hil *h, ssdlab_request *r, ssdlab_done_fn done, void *ctx)
{
    if (!zoned_valid(h->zio, r, h->p->logical_units * h->p->unit, h->p->unit) || r->queue >= h->p->host_queues ||
        r->placement >= (h->p->fdp_handles ? h->p->fdp_handles : 1) || (r->op == SSDLAB_FDP_UPDATE && !h->p->fdp_handles))
        return -1;
    r->status = 0;
    req_priv(r)->done = done;
    req_priv(r)->done_ctx = ctx;
    r->arrival = sim_now(h->s);
    r->id = h->submitted++;
    if (moves_data(r) && h->rw_pending++ == 0) h->busy_since = r->arrival;
    req_priv(r)->merged = 0;
    arbiter_arrive(&h->arb, r);
    fetch(h);
    return 0;
}

/* The units of offsets[0..n) inside the drive, into lpns; their count. */
static uint32_t units_of(const hil *h, const uint64_t *offsets, uint32_t n, uint32_t lpns[FTL_WARM_MAX])
{
    uint32_t count = 0;
    uint64_t end = h->p->logical_units * h->p->unit;
    for (uint32_t i = 0; i < n && count < FTL_WARM_MAX; i++)
        if (offsets[i] < end) lpns[count++] = unit_at(h->p, offsets[i]);
    return count;
}

/* Hands the FTL's warming step `warm` the units of offsets[0..n); their count. */
static uint32_t warm_units(hil *h, const uint64_t *offsets, uint32_t n,
                           void (*warm)(const ftl *f, const uint32_t *lpns, uint32_t n))
{
    uint32_t lpns[FTL_WARM_MAX], count = units_of(h, offsets, n, lpns);
    warm(h->f, lpns, count);
    return count;
}

void hil_warm(hil *h, const uint64_t *offsets, uint32_t n) { h->warmed += warm_units(h, offsets, n, ftl_warm); }
void hil_fetch(hil *h, const uint64_t *offsets, uint32_t n) { h->warmed += warm_units(h, offsets, n, ftl_fetch_entries); }
void hil_warm_overwrites(hil *h, const uint64_t *offsets, uint32_t n)
{
    h->overwrites_warmed += warm_units(h, offsets, n, ftl_warm_old);
}
void hil_fetch_overwrites(hil *h, const uint64_t *offsets, uint32_t n)
{
    h->overwrites_warmed += warm_units(h, offsets, n, ftl_fetch_old);
}

/* --- up the path ----------------------------------------------------------- */

/* A write's data comes over the link and through the DMA engine into the
 * buffer memory: it is in once the slowest of them is done. */
void hil_move_in(void *ctx, ssdlab_request *r)
{
    hil *h = ctx;
    sim_time_t now = sim_now(h->s);
    sim_time_t in = max_time(h->protocol->data_in(&h->link, now, r->bytes), datapath_pass(h->dp, DP_DMA_IN, now, r->bytes));
    sim_schedule_at(h->s, in, h->on_data_in, r, 0);
}

static void on_data_in(sim *s, void *ctx, void *obj, uint64_t arg)
{
    (void)arg, (void)s;
    hil *h = ctx;
    buffer_data_in(h->buf, obj);
}

/* A write is placed (it completes now), or a read's data is in the
 * controller (it completes once moved to the host). */
void hil_buffer_done(void *ctx, ssdlab_request *r)
{
    hil *h = ctx;
    sim_time_t now = sim_now(h->s);
    if (r->op != SSDLAB_READ) {
        done_at(h, r, now);
        return;
    }
    sim_time_t out = max_time(h->protocol->read_done(&h->link, now, r->bytes), datapath_pass(h->dp, DP_DMA_OUT, now, r->bytes));
    sim_schedule_at(h->s, out, h->on_complete, r, 0);
}

static void on_complete(sim *s, void *ctx, void *obj, uint64_t arg)
{
    (void)arg;
    hil *h = ctx;
    ssdlab_request *r = obj;
    r->finish = sim_now(s);
    if (moves_data(r) && --h->rw_pending == 0) h->busy_ns += r->finish - h->busy_since;
    arbiter_done(&h->arb, r);
    h->completed(h->completed_ctx, r);
    fetch(h);
    if (h->arb.in_controller == 0 && !h->idle_timer)
        h->idle_timer = sim_schedule_cancellable_in(s, h->p->idle_time, h->on_idle, h, 0);
    req_state *st = req_priv(r);
    st->done(r, st->done_ctx);
}

/* No command for ftl.idle_time: background work starts. */
static void on_idle(sim *s, void *ctx, void *obj, uint64_t arg)
{
    (void)s, (void)obj, (void)arg;
    hil *h = ctx;
    h->idle_timer = 0;
    h->idle = true;
    if (h->p->flush_on_idle) progunit_flush(h->pu);
    trim_start_worker(&h->trim);
    reclaim_idle(h->rc);
}

sim_time_t hil_busy_ns(const hil *h) { return h->busy_ns + (h->rw_pending ? sim_now(h->s) - h->busy_since : 0); }

void hil_reset_busy(hil *h)
{
    h->busy_ns = 0;
    h->busy_since = sim_now(h->s); /* a busy period running now counts from here */
}

/* --- set-up ---------------------------------------------------------------- */

int hil_init(hil *h, sim *s, ftl *f, buffer *buf, mapio *map, progunits *pu, reclaim *rc, trimmap *tm, power_model *power,
             datapath *dp)
{
    const ssd_params *p = f->p;
    *h = (hil){.s = s, .p = p, .f = f, .buf = buf, .map = map, .pu = pu, .rc = rc, .power = power, .dp = dp,
               .link = {.p = p, .power = power}, .protocol = &host_protocols[p->host]};
    if (arbiter_init(&h->arb, &arbiter_policies[p->arbitration], p->host_queues, p->max_queue_depth, p->controller_commands,
                     p->arbitration_burst, p->wrr_weight))
        return -1;
    for (uint32_t q = 0; q < p->host_queues && q < sizeof p->queue_class; q++) {
        arbiter_set_class(&h->arb, q, p->queue_class[q]);
        if (p->queue_depth[q]) arbiter_set_depth(&h->arb, q, p->queue_depth[q]);
    }
    h->on_fw_done = sim_register_handler(s, "hil.firmware_done", on_fw_done, h);
    h->on_data_in = sim_register_handler(s, "hil.data_in", on_data_in, h);
    h->on_complete = sim_register_handler(s, "hil.complete", on_complete, h);
    h->on_device_done = sim_register_handler(s, "hil.device_done", on_device_done, h);
    h->on_idle = sim_register_handler(s, "hil.idle", on_idle, h);
    trim_init(&h->trim, s, f, buf, tm, dp, &h->idle);
    return 0;
}

void hil_free(hil *h)
{
    arbiter_free(&h->arb);
}

void hil_on_completed(hil *h, void (*fn)(void *ctx, const ssdlab_request *r), void *ctx)
{
    h->completed = fn;
    h->completed_ctx = ctx;
}
