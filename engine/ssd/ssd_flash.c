/* Flash transactions: the pool they come from, the die queues that order
 * them, the channel and host-link timelines, and their completions. */
#include <stdlib.h>

#include "fatal.h"
#include "ssd_internal.h"

int add_txn_slab(ssd *d)
{
    size_t n = d->txn_count ? d->txn_count : 256;
    txn *slab = malloc(n * sizeof *slab);
    txn **slabs = realloc(d->txn_slabs, (d->txn_slab_count + 1) * sizeof *slabs);
    if (!slab || !slabs) {
        free(slab);
        if (slabs) d->txn_slabs = slabs;
        return -1;
    }
    d->txn_slabs = slabs;
    d->txn_slabs[d->txn_slab_count++] = slab;
    for (size_t i = 0; i < n; i++) {
        slab[i].next = d->free_txns;
        d->free_txns = &slab[i];
    }
    d->txn_count += n;
    return 0;
}

txn *new_txn(ssd *d, txn_kind kind, uint32_t die, uint32_t ppa, uint32_t units)
{
    if (!d->free_txns && add_txn_slab(d)) ssdlab_internal_error("out of memory for flash transactions");
    txn *t = d->free_txns;
    d->free_txns = t->next;
    *t = (txn){.kind = (uint8_t)kind, .die = die, .ppa = ppa, .units = units};
    t->block = ftl_block_of(&d->f, ppa);
    return t;
}

void free_txn(ssd *d, txn *t)
{
    t->next = d->free_txns;
    d->free_txns = t;
}

/* Reserves the channel of a die for `bytes` from `ready` on; returns the end. */
sim_time_t channel_transfer(ssd *d, uint32_t die, sim_time_t ready, uint64_t bytes)
{
    power_deposit(&d->power, (double)bytes * d->power.bus_j_per_byte);
    sim_time_t *free_at = &d->channel_free[channel_of(d, die)];
    sim_time_t end = max_time(ready, *free_at) + params_bus_time(&d->p, bytes);
    *free_at = end;
    return end;
}

sim_time_t link_transfer(ssd *d, int dir, uint64_t bytes)
{
    int lane = d->p.host == HOST_NVME ? dir : 0; /* SATA is half duplex */
    sim_time_t busy = d->p.link_command + params_link_time(&d->p, bytes);
    power_deposit(&d->power, (double)busy * 1e-9 * d->power.link_active_extra_w);
    sim_time_t end = max_time(sim_now(d->s), d->link_free[lane]) + busy;
    d->link_free[lane] = end;
    return end;
}


/* --- dies ------------------------------------------------------------------ */


/* slc: whether ppa's block runs in SLC mode (the caller has looked). */
static sim_time_t read_time(const ssd *d, uint32_t ppa, bool slc)
{
    if (slc) return d->p.t_read_slc;
    return d->p.t_read[params_page_type(&d->p, ftl_offset_of(&d->f, ppa))];
}

sim_time_t program_time(const ssd *d, uint32_t ppa)
{
    if (in_slc(d, ppa)) return d->p.t_prog_slc;
    if (d->p.style == PROGRAM_ONE_SHOT) return d->p.t_prog[0];
    return d->p.t_prog[params_page_type(&d->p, ftl_offset_of(&d->f, ppa))];
}

static txn *take_class(die_state *ds, int c)
{
    txn *t = ds->head[c];
    if (t && !(ds->head[c] = t->next)) ds->tail[c] = NULL;
    return t;
}

/* Transaction scheduling policies (controller.scheduler): which queued
 * operation a free die starts. To add one: a function here, its name in
 * scheduler_names at the same place, and in the key's choices. */
static txn *pick_read_first(die_state *ds)
{
    txn *t = take_class(ds, CLASS_READ);
    if (!t) t = take_class(ds, CLASS_PROGRAM);
    if (!t) t = take_class(ds, CLASS_ERASE);
    return t;
}

/* In arrival order, whatever the kind: the baseline reads-first is
 * measured against. */
static txn *pick_fifo(die_state *ds)
{
    int best = -1;
    for (int c = 0; c < CLASSES; c++)
        if (ds->head[c] && (best < 0 || ds->head[c]->seq < ds->head[best]->seq)) best = c;
    return best < 0 ? NULL : take_class(ds, best);
}

const char *const scheduler_names[] = {"read-first", "fifo", NULL};
static txn *(*const schedulers[])(die_state *ds) = {pick_read_first, pick_fifo};

static bool die_has_work(const die_state *ds)
{
    return ds->head[CLASS_READ] || ds->suspended || ds->head[CLASS_PROGRAM] || ds->head[CLASS_ERASE];
}

/* Schedules the end of a program or erase; with suspension on, the event
 * can be cancelled and the operation remembered. */
static void run_long_op(ssd *d, die_state *ds, txn *t, sim_time_t end, sim_handler_id done)
{
    ds->active = t;
    ds->active_end = end;
    if (d->p.suspend) ds->active_event = sim_schedule_cancellable_at(d->s, end, done, t, 0);
    else sim_schedule_at(d->s, end, done, t, 0);
}

/* Cache program: the next program's data moves in while the die is still
 * programming the last one. */
static void preload_next_program(ssd *d, die_state *ds)
{
    txn *next = ds->head[CLASS_PROGRAM];
    if (!d->p.cache_program || !next || next->data_in || next->kind != TX_PROGRAM) return;
    next->ready = channel_transfer(d, next->die, sim_now(d->s), bus_bytes(d, next->units));
    next->data_in = true;
}

/* A read waits behind a program or erase: suspend it, if it has long
 * enough to go, and let the read in. */
/* Counts [from, to] as busy time, once: with cache read and cache program a
 * die's operations overlap their transfers, and summing them would count
 * the overlap twice. Operations start in time order, so a mark of what is
 * counted suffices. */
static void count_busy(die_state *ds, sim_time_t from, sim_time_t to)
{
    if (from < ds->busy_mark) from = ds->busy_mark;
    if (to <= from) return;
    ds->busy_ns += to - from;
    ds->busy_mark = to;
}

static void maybe_suspend(ssd *d, die_state *ds)
{
    sim_time_t now = sim_now(d->s);
    if (!d->p.suspend || !ds->active || ds->suspended || ds->active_end <= now + d->p.t_suspend) return;
    if (!sim_cancel(d->s, ds->active_event)) return;
    ds->suspended = ds->active;
    ds->suspended_left = ds->active_end - now + d->p.t_suspend;
    if (ds->busy_mark > now) { /* the rest is counted when it resumes */
        ds->busy_ns -= ds->busy_mark - now;
        ds->busy_mark = now;
    }
    ds->active = NULL;
    ds->busy = false;
    ds->busy_until = now;
    d->suspends++;
}

/* Starts the die's most urgent operation, if it is free. The choice is made
 * when the die frees up, so a read arriving meanwhile still goes first. */
void die_kick(ssd *d, uint32_t die)
{
    die_state *ds = &d->dies[die];
    if (d->interval && sim_now(d->s) >= d->interval_end) metrics_catch_up(d);
    if (ds->busy || !die_has_work(ds)) return;
    sim_time_t now = sim_now(d->s);
    if (ds->busy_until > now) {
        ds->busy = true;
        sim_schedule_at(d->s, ds->busy_until, d->on_die_free, ds, die);
        return;
    }
    if (ds->suspended && !ds->head[CLASS_READ]) {
        /* Resume what a read suspended before starting anything new. */
        txn *t = ds->suspended;
        ds->suspended = NULL;
        ds->busy = true;
        count_busy(ds, now, now + ds->suspended_left);
        run_long_op(d, ds, t, now + ds->suspended_left, t->kind == TX_ERASE ? d->on_erase_done : d->on_program_done);
        return;
    }
    txn *t = schedulers[d->p.scheduler](ds);
    ds->busy = true;
    /* Thermal throttling stretches the array operations. */
    double slow = d->power.thermal && power_throttled(&d->power, now) ? d->power.throttle_slowdown : 1.0;
    switch (t->kind) {
    case TX_MAP_READ:
    case TX_READ:
    case TX_PREFETCH:
    case TX_RMW_READ:
    case TX_GC_READ: {
        bool slc = in_slc(d, t->ppa);
        sim_time_t tr = (sim_time_t)((double)read_time(d, t->ppa, slc) * slow);
        count_busy(ds, now, now + tr);
        ds->reads++;
        d->flash_reads++;
        if (slc && t->kind == TX_READ) d->slc_units_read += t->units;
        power_deposit(&d->power, (double)tr * 1e-9 * d->power.die_read_w);
        sim_schedule_in(d->s, tr, d->on_read_sensed, t, 0);
        break;
    }
    case TX_PROGRAM: {
        sim_time_t in_end = t->data_in ? max_time(now, t->ready) : channel_transfer(d, die, now, bus_bytes(d, t->units));
        sim_time_t tp = (sim_time_t)((double)program_time(d, t->ppa) * slow);
        count_busy(ds, now, in_end + tp);
        ds->programs++;
        d->flash_programs++;
        power_deposit(&d->power, (double)tp * 1e-9 * d->power.die_program_w);
        run_long_op(d, ds, t, in_end + tp, d->on_program_done);
        if (t->kind == TX_PROGRAM) preload_next_program(d, ds);
        break;
    }
    case TX_ERASE: {
        sim_time_t te = (sim_time_t)((double)(d->f.blocks[t->block].slc ? d->p.t_erase_slc : d->p.t_erase) * slow);
        count_busy(ds, now, now + te);
        ds->erases++;
        power_deposit(&d->power, (double)te * 1e-9 * d->power.die_erase_w);
        run_long_op(d, ds, t, now + te, d->on_erase_done);
        break;
    }
    default: ssdlab_internal_error("die %u: transaction of unknown kind %d", die, t->kind);
    }
}

void die_enqueue(ssd *d, txn *t, int cls)
{
    die_state *ds = &d->dies[t->die];
    t->next = NULL;
    t->seq = d->txn_seq++;
    if (ds->tail[cls]) ds->tail[cls]->next = t;
    else ds->head[cls] = t;
    ds->tail[cls] = t;
    if (cls == CLASS_READ) maybe_suspend(d, ds);
    if (cls == CLASS_PROGRAM && ds->busy && ds->active && ds->active->kind == TX_PROGRAM) preload_next_program(d, ds);
    die_kick(d, t->die);
}

void on_die_free(sim *s, void *ctx, void *obj, uint64_t die)
{
    (void)s, (void)obj;
    ssd *d = ctx;
    d->dies[die].busy = false;
    die_kick(d, (uint32_t)die);
}

/* The page is in the die's register: move it out, then decode it. */
void on_read_sensed(sim *s, void *ctx, void *obj, uint64_t arg)
{
    (void)arg;
    ssd *d = ctx;
    txn *t = obj;
    die_state *ds = &d->dies[t->die];
    sim_time_t out_end = channel_transfer(d, t->die, sim_now(s), bus_bytes(d, t->units));
    count_busy(ds, sim_now(s), out_end);
    /* Without cache read the page blocks the die until it has moved out. */
    ds->busy_until = d->p.cache_read ? sim_now(s) : out_end;
    ds->busy = false;
    sim_schedule_at(s, out_end + d->p.ecc_decode, d->on_read_ready, t, 0);
    die_kick(d, t->die);
}

/* --- program units ------------------------------------------------------- */


/* Adds `count` just-allocated units (from ppa on, inside one program unit)
 * to their die's program unit; a full unit goes to the die as one program
 * operation. */
void fill_program_unit(ssd *d, uint32_t die, ftl_stream s, uint32_t ppa, uint32_t count)
{
    die_state *ds = &d->dies[die];
    if (ds->pu_fill[s] == 0) ds->pu_first[s] = ppa;
    ds->pu_fill[s] += count;
    if ((ftl_offset_of(&d->f, ppa) + count) % ftl_program_units(&d->f, ftl_block_of(&d->f, ppa))) return;
    txn *t = new_txn(d, TX_PROGRAM, die, ds->pu_first[s], ds->pu_fill[s]);
    t->stream = (uint8_t)s;
    t->padding = d->pending_padding;
    d->pending_padding = 0;
    ds->pu_fill[s] = 0;
    die_enqueue(d, t, CLASS_PROGRAM);
}

/* Idle flush: part-filled host program units are padded to full and
 * programmed, so their data leaves the buffer. */
void flush_partial_units(ssd *d)
{
    static const ftl_stream host_streams[] = {STREAM_HOST, STREAM_SLC};
    for (uint32_t die = 0; die < d->p.dies; die++) {
        die_state *ds = &d->dies[die];
        for (int i = 0; i < 2; i++) {
            ftl_stream s = host_streams[i];
            if (!ds->pu_fill[s]) continue;
            uint32_t pu = ftl_program_units(&d->f, ftl_block_of(&d->f, ds->pu_first[s]));
            uint32_t got, pad = pu - ds->pu_fill[s];
            uint32_t ppa = ftl_alloc_run(&d->f, die, s, pad, &got);
            if (ppa == FTL_NONE || got != pad) continue; /* cannot happen: a unit never crosses a block */
            d->pending_padding = pad;
            fill_program_unit(d, die, s, ppa, got);
        }
    }
}

void after_alloc(ssd *d, uint32_t die)
{
    if (ftl_free_blocks(&d->f, die) > d->p.gc_threshold) return;
    if (d->p.gc_burst) gc_burst_start(d);
    else gc_start(d, die);
}

/* --- flash completions ------------------------------------------------------ */


/* ECC failed: the page is read again (other read levels), costing
 * another array read, transfer and decode. */
static bool needs_retry(ssd *d, const txn *t)
{
    if (d->p.read_retry == 0 && d->p.read_retry_wear == 0) return false;
    double wear = (double)d->f.blocks[t->block].erase_count / d->p.pe_cycles;
    return gsl_rng_uniform(d->ecc_rng) < d->p.read_retry + d->p.read_retry_wear * wear;
}

void on_read_ready(sim *s, void *ctx, void *obj, uint64_t arg)
{
    (void)arg;
    ssd *d = ctx;
    txn *t = obj;
    if (needs_retry(d, t)) {
        d->read_retries++;
        die_enqueue(d, t, CLASS_READ);
        return;
    }
    if (t->kind == TX_GC_READ) {
        gc_read_done(d, t);
        return;
    }
    if (t->kind == TX_RMW_READ) {
        ssdlab_request *waiting = t->req;
        free_txn(d, t);
        if (--waiting->pending == 0) {
            waiting->merged = 1;
            continue_request(d, waiting);
        }
        return;
    }
    if (t->kind == TX_MAP_READ) {
        ssdlab_request *waiting = t->req;
        if (!mapcache_touch(&d->map, t->tu, false)) map_insert(d, t->tu, false);
        free_txn(d, t);
        continue_request(d, waiting);
        return;
    }
    ssdlab_request *r = t->req;
    if (d->rcache.sets)
        for (uint32_t k = 0; k < t->units; k++)
            if (d->f.p2l[t->ppa + k] != FTL_NONE) readcache_insert(&d->rcache, d->f.p2l[t->ppa + k]);
    bool prefetch = t->kind == TX_PREFETCH;
    free_txn(d, t);
    if (prefetch) return; /* read ahead: the data waits in the cache */
    if (--r->pending == 0) complete_at(d, r, link_transfer(d, LINK_TO_HOST, r->bytes));
    (void)s;
}

void on_program_done(sim *s, void *ctx, void *obj, uint64_t arg)
{
    (void)arg;
    ssd *d = ctx;
    txn *t = obj;
    die_state *ds = &d->dies[t->die];
    ds->active = NULL;
    uint32_t end = ftl_offset_of(&d->f, t->ppa) + t->units;
    if (d->programmed[t->block] < end) d->programmed[t->block] = end;
    ds->busy = false;
    ds->busy_until = sim_now(s);
    uint32_t die = t->die;
    if (t->stream == STREAM_HOST || t->stream == STREAM_SLC) { /* host data leaves the buffer */
        d->buffer_used -= t->units - t->padding;
        admit_buffer_waiters(d);
    }
    free_txn(d, t);
    die_kick(d, die);
}

