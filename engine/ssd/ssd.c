#include "ssd.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fatal.h"
#include "memlimit.h"
#include "ssd_internal.h"

/* --- requests ------------------------------------------------------------ */

void complete_at(ssd *d, ssdlab_request *r, sim_time_t t)
{
    sim_schedule_at(d->s, t, d->on_complete, r, 0);
}

static void start_data_in(ssd *d, ssdlab_request *r)
{
    uint32_t n = units_of(d, r);
    d->buffer_used += n;
    sim_schedule_at(d->s, link_transfer(d, LINK_TO_DEVICE, r->bytes), d->on_data_in, r, 0);
}

void admit_buffer_waiters(ssd *d)
{
    while (d->buffer_wait.head && d->buffer_used + units_of(d, d->buffer_wait.head) <= d->buffer_units)
        start_data_in(d, q_pop(&d->buffer_wait));
}


/* The die and stream for the next host program unit: the SLC cache while
 * it has room, else native blocks (or, with foreground folding, nothing
 * until folding frees an SLC block). A dynamic cache on a full drive may
 * have no blocks at all: then there is nothing to fold, and writes go to
 * native blocks. */
static uint32_t host_target(ssd *d, ftl_stream *s)
{
    if (d->p.slc != SLC_NONE) {
        uint32_t die = ftl_slc_die(&d->f);
        if (die != FTL_NONE) {
            *s = STREAM_SLC;
            return die;
        }
        if (d->p.slc_fold_when_full && start_folds(d)) return FTL_NONE;
    }
    *s = STREAM_HOST;
    return ftl_host_die(&d->f);
}

/* Places the units of a write whose data is in the buffer, a program
 * unit's worth at a time. Returns false when no die can take them now: the
 * rest waits for an erase. */
static bool place_write(ssd *d, ssdlab_request *r)
{
    uint32_t n = units_of(d, r), lpn0 = first_unit(d, r);
    while (r->placed < n) {
        ftl_stream s;
        uint32_t die = host_target(d, &s);
        if (die == FTL_NONE) return false;
        uint32_t got;
        uint32_t ppa = ftl_alloc_run(&d->f, die, s, n - r->placed, &got);
        for (uint32_t k = 0; k < got; k++) ftl_map(&d->f, lpn0 + r->placed + k, ppa + k, false);
        if (s == STREAM_SLC) d->slc_units_written += got;
        d->f.dies[die].burst_host += got;
        if (d->trim_pending_units)
            for (uint32_t k = 0; k < got; k++) trim_clear(d, lpn0 + r->placed + k);
        if (d->p.map_cached) map_dirty(d, lpn0 + r->placed, got);
        if (d->rcache.sets)
            for (uint32_t k = 0; k < got; k++) readcache_invalidate(&d->rcache, lpn0 + r->placed + k);
        if ((ftl_offset_of(&d->f, ppa) + got) % ftl_program_units(&d->f, ftl_block_of(&d->f, ppa)) == 0)
            ftl_advance_host_die(&d->f);
        fill_program_unit(d, die, s, ppa, got);
        after_alloc(d, die);
        r->placed += got;
    }
    return true;
}

void on_data_in(sim *s, void *ctx, void *obj, uint64_t arg)
{
    (void)arg;
    ssd *d = ctx;
    ssdlab_request *r = obj;
    if (d->stalled.head || !place_write(d, r)) {
        q_push(&d->stalled, r);
        return;
    }
    complete_at(d, r, sim_now(s));
}

void retry_stalled(ssd *d)
{
    while (d->stalled.head) {
        if (!place_write(d, d->stalled.head)) return;
        complete_at(d, q_pop(&d->stalled), sim_now(d->s));
    }
}

/* Asks the flash for units [lpn0, lpn0 + n) that are in flash and not in
 * the read cache, a page's run per transaction: for the request r, or, with
 * r NULL, ahead of a sequential reader (the data goes to the cache).
 * Returns the transactions issued. */
static uint32_t read_units(ssd *d, ssdlab_request *r, uint32_t lpn0, uint32_t n)
{
    uint32_t upp = d->p.units_per_page, issued = 0;
    txn *open = NULL;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t ppa = ftl_lookup(&d->f, lpn0 + i);
        /* Never written, trimmed (even if not yet processed), or still in
         * the write buffer: no flash. */
        if (ppa == FTL_NONE || ftl_offset_of(&d->f, ppa) >= d->programmed[ftl_block_of(&d->f, ppa)]) continue;
        if (d->trim_pending_units && trim_is_pending(d, lpn0 + i)) continue;
        if (d->rcache.sets && readcache_lookup(&d->rcache, lpn0 + i)) {
            if (r) d->rcache_hits++;
            continue;
        }
        if (open && ppa == open->ppa + open->units && ppa / upp == open->ppa / upp) {
            open->units++;
            continue;
        }
        if (open) die_enqueue(d, open, CLASS_READ);
        open = new_txn(d, r ? TX_READ : TX_PREFETCH, ftl_die_of(&d->f, ppa), ppa, 1);
        open->req = r;
        issued++;
    }
    if (open) die_enqueue(d, open, CLASS_READ);
    return issued;
}

/* Sequential read-ahead (controller.read_ahead): a read that starts where
 * the last one ended has the next read_ahead bytes fetched into the read
 * cache, so a reader at queue depth 1 finds its next request waiting. */
static void read_ahead(ssd *d, uint32_t lpn0, uint32_t n)
{
    bool sequential = lpn0 == d->read_end;
    d->read_end = lpn0 + n;
    if (!d->p.read_ahead_units || !sequential) return;
    uint32_t from = d->prefetched_to > d->read_end ? d->prefetched_to : d->read_end;
    uint64_t to = (uint64_t)d->read_end + d->p.read_ahead_units;
    if (to > d->p.logical_units) to = d->p.logical_units;
    if (from >= to) return;
    read_units(d, NULL, from, (uint32_t)(to - from));
    d->prefetched_to = (uint32_t)to;
}

static void start_read(ssd *d, ssdlab_request *r)
{
    uint32_t n = units_of(d, r), lpn0 = first_unit(d, r);
    r->pending = read_units(d, r, lpn0, n);
    read_ahead(d, lpn0, n);
    if (!r->pending) complete_at(d, r, link_transfer(d, LINK_TO_HOST, r->bytes));
}

/* A write that covers part of a mapping unit must merge the rest of the
 * unit's old data: the edge units held in flash are read first
 * (read-modify-write). Returns true when such reads were issued. */
static bool read_partial_edges(ssd *d, ssdlab_request *r)
{
    uint32_t unit = d->p.unit;
    uint32_t head = first_unit(d, r), tail = (uint32_t)((r->offset + r->bytes - 1) / unit);
    bool head_partial = r->offset % unit != 0, tail_partial = (r->offset + r->bytes) % unit != 0;
    uint32_t edges[2], n = 0;
    if (head_partial) edges[n++] = head;
    if (tail_partial && (tail != head || !head_partial)) edges[n++] = tail;
    r->pending = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t ppa = ftl_lookup(&d->f, edges[i]);
        /* nothing to merge, or the old data is in the buffer already */
        if (ppa == FTL_NONE || ftl_offset_of(&d->f, ppa) >= d->programmed[ftl_block_of(&d->f, ppa)]) continue;
        if (d->trim_pending_units && trim_is_pending(d, edges[i])) continue;
        txn *t = new_txn(d, TX_RMW_READ, ftl_die_of(&d->f, ppa), ppa, 1);
        t->req = r;
        r->pending++;
        die_enqueue(d, t, CLASS_READ);
    }
    return r->pending > 0;
}

/* The request's work after the firmware stage (and, with a cached mapping,
 * once its translation pages are in the cache). */
void continue_request(ssd *d, ssdlab_request *r)
{
    if (d->p.map_cached && r->op != SSDLAB_TRIM && !map_ready(d, r)) return;
    switch (r->op) {
    case SSDLAB_READ: start_read(d, r); break;
    case SSDLAB_WRITE:
        if (!r->merged && read_partial_edges(d, r)) break;
        r->placed = 0;
        if (!d->buffer_wait.head && d->buffer_used + units_of(d, r) <= d->buffer_units) start_data_in(d, r);
        else q_push(&d->buffer_wait, r);
        break;
    case SSDLAB_TRIM:
        if (d->p.map_cached) map_dirty(d, first_unit(d, r), units_of(d, r));
        trim(d, r);
        break;
    }
}

void on_fw_done(sim *s, void *ctx, void *obj, uint64_t arg)
{
    (void)arg, (void)s;
    continue_request(ctx, obj);
}

/* Firmware: the earliest free of the identical cores, in arrival order. */
static void admit(ssd *d, ssdlab_request *r)
{
    d->outstanding++;
    d->queue_outstanding[r->queue]++;
    d->idle = false;
    if (d->idle_timer) {
        sim_cancel(d->s, d->idle_timer);
        d->idle_timer = 0;
    }
    /* The firmware stage will look the request's units up: fetch the
     * mapping entry now, so the miss overlaps other events' work. */
    __builtin_prefetch(&d->f.l2p[first_unit(d, r)]);
    uint32_t best = 0;
    for (uint32_t c = 1; c < d->p.cores; c++)
        if (d->core_free[c] < d->core_free[best]) best = c;
    sim_time_t cost = r->op == SSDLAB_READ ? d->p.fw_read : r->op == SSDLAB_WRITE ? d->p.fw_write : d->p.fw_trim;
    cost += (sim_time_t)(units_of(d, r) - 1) * d->p.fw_per_unit;
    power_deposit(&d->power, (double)cost * 1e-9 * d->power.controller_active_extra_w);
    r->start = max_time(sim_now(d->s), d->core_free[best]);
    sim_time_t end = r->start + cost;
    d->core_free[best] = end;
    sim_schedule_at(d->s, end, d->on_fw_done, r, 0);
}

static void record(ssd *d, ssdlab_request *r)
{
    uint64_t lat = r->finish - r->arrival;
    d->completed[r->op]++;
    d->bytes[r->op] += r->bytes;
    d->latency_sum[r->op] += (double)lat;
    d->latency[r->op]->bin[latency_bin(lat)] += 1;
    if (lat > d->latency_max[r->op]) d->latency_max[r->op] = lat;
    metrics_completed(d, r, lat);
    if (d->observe.request) d->observe.request(d->observe.ctx, r);
}

void on_complete(sim *s, void *ctx, void *obj, uint64_t arg)
{
    (void)arg;
    ssd *d = ctx;
    ssdlab_request *r = obj;
    r->finish = sim_now(s);
    if (r->op != SSDLAB_TRIM && --d->rw_pending == 0) d->busy_ns += r->finish - d->busy_since;
    d->outstanding--;
    d->queue_outstanding[r->queue]--;
    record(d, r);
    if (d->admission[r->queue].head) admit(d, q_pop(&d->admission[r->queue]));
    else if (d->outstanding == 0 && !d->idle_timer)
        d->idle_timer = sim_schedule_cancellable_in(s, d->p.idle_time, d->on_idle, d, 0);
    r->done(r, r->done_ctx);
}

int ssd_submit(ssd *d, ssdlab_request *r)
{
    uint64_t capacity = d->p.logical_units * d->p.unit;
    if (r->bytes == 0 || r->offset >= capacity || r->bytes > capacity - r->offset || (unsigned)r->op > SSDLAB_TRIM ||
        r->queue >= d->p.host_queues)
        return -1;
    r->arrival = sim_now(d->s);
    r->id = d->submitted++;
    if (r->op != SSDLAB_TRIM && d->rw_pending++ == 0) d->busy_since = r->arrival;
    r->merged = 0;
    if (d->queue_outstanding[r->queue] >= d->p.max_queue_depth) q_push(&d->admission[r->queue], r);
    else admit(d, r);
    return 0;
}

/* --- set-up ------------------------------------------------------------------ */

/* Memory the drive's tables take, from its parameters: the mapping tables
 * dominate (4 bytes per logical and per physical unit). The rest (events,
 * requests, histograms, the result writer) is bounded; 16 MiB covers it. */
static uint64_t memory_needed(const ssd_params *p)
{
    uint64_t nblocks = (uint64_t)p->dies * p->blocks_per_die;
    uint64_t bytes = 4 * p->logical_units + 4 * p->physical_units;
    bytes += nblocks * (sizeof(ftl_block) + 2 * sizeof(uint32_t)); /* block table, programmed, free stacks */
    bytes += (uint64_t)p->dies * (sizeof(ftl_die) + sizeof(die_state));
    if (p->map_cached) bytes += 8 * (uint64_t)p->map_pages + 16 * (uint64_t)p->map_cache_pages;
    if (p->trim == TRIM_DEFERRED) bytes += p->logical_units / 8;
    bytes += p->read_cache / p->unit * 12; /* tag and stamp per cached unit */
    return bytes + (16u << 20);
}

/* Refuses a drive whose tables would not fit the memory limit, before
 * anything large is allocated. */
static int check_memory(const ssd_params *p, const cfg *c, char *err, size_t errlen)
{
    char source[64] = "'sim.max_memory' (--max-memory)", need_s[32], limit_s[32];
    uint64_t need = memory_needed(p), limit = cfg_uint(c, "sim.max_memory");
    if (!limit) limit = memlimit_default(source, sizeof source);
    if (need <= limit) return 0;
    memlimit_format(need, need_s, sizeof need_s);
    memlimit_format(limit, limit_s, sizeof limit_s);
    snprintf(err, errlen,
             "the drive needs about %s of memory (%llu mapping units of flash), more than the %s that %s allows; "
             "expected a smaller drive, a larger 'ftl.mapping_unit', or a higher limit (--max-memory SIZE)",
             need_s, (unsigned long long)p->physical_units, limit_s, source);
    return -1;
}

ssd *ssd_create(sim *s, const cfg *c, char *err, size_t errlen)
{
    ssd *d = calloc(1, sizeof *d);
    if (!d) return snprintf(err, errlen, "out of memory"), NULL;
    d->s = s;
    if (ssd_params_load(&d->p, c, err, errlen) || check_memory(&d->p, c, err, errlen)) {
        free(d);
        return NULL;
    }
    const ssd_params *p = &d->p;
    d->rng = sim_rng(s, "ftl");
    d->ecc_rng = sim_rng(s, "ecc");
    size_t nblocks = (size_t)p->dies * p->blocks_per_die;
    d->dies = calloc(p->dies, sizeof *d->dies);
    d->channel_free = calloc(p->channels, sizeof *d->channel_free);
    d->core_free = calloc(p->cores, sizeof *d->core_free);
    d->programmed = calloc(nblocks, sizeof *d->programmed);
    d->queue_outstanding = calloc(p->host_queues, sizeof *d->queue_outstanding);
    d->admission = calloc(p->host_queues, sizeof *d->admission);
    bool ok = d->queue_outstanding && d->admission && d->dies && d->channel_free && d->core_free && d->programmed && ftl_init(&d->f, p, d->rng) == 0 &&
              add_txn_slab(d) == 0;
    if (ok && p->map_cached)
        ok = mapcache_init(&d->map, p->map_pages, p->map_cache_pages, p->map_cache_policy) == 0 && ftl_enable_map_units(&d->f, p->map_pages) == 0;
    if (ok && p->trim == TRIM_DEFERRED)
        ok = (d->trim_pending = calloc((p->logical_units + 63) / 64, sizeof *d->trim_pending)) != NULL;
    for (int op = 0; ok && op < 3; op++) {
        double ranges[LATENCY_BINS + 1];
        for (size_t i = 0; i <= LATENCY_BINS; i++) ranges[i] = latency_bin_start(i);
        ok = (d->latency[op] = gsl_histogram_alloc(LATENCY_BINS)) != NULL;
        if (ok) gsl_histogram_set_ranges(d->latency[op], ranges, LATENCY_BINS + 1);
    }
    if (!ok) {
        ssd_free(d);
        snprintf(err, errlen, "out of memory for a drive of %llu mapping units", (unsigned long long)p->physical_units);
        return NULL;
    }
    d->buffer_units = p->write_buffer / p->unit;
    power_init(&d->power, c, p->dies);
    if (readcache_init(&d->rcache, p->read_cache / p->unit)) {
        ssd_free(d);
        snprintf(err, errlen, "out of memory for the read cache");
        return NULL;
    }
    if (metrics_init(d, cfg_uint(c, "metrics.interval"))) {
        ssd_free(d);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    d->on_fw_done = sim_register_handler(s, "ssd.firmware_done", on_fw_done, d);
    d->on_read_sensed = sim_register_handler(s, "ssd.read_sensed", on_read_sensed, d);
    d->on_read_ready = sim_register_handler(s, "ssd.read_ready", on_read_ready, d);
    d->on_program_done = sim_register_handler(s, "ssd.program_done", on_program_done, d);
    d->on_erase_done = sim_register_handler(s, "ssd.erase_done", on_erase_done, d);
    d->on_die_free = sim_register_handler(s, "ssd.die_free", on_die_free, d);
    d->on_data_in = sim_register_handler(s, "ssd.data_in", on_data_in, d);
    d->on_complete = sim_register_handler(s, "ssd.complete", on_complete, d);
    d->on_idle = sim_register_handler(s, "ssd.idle", on_idle, d);
    d->on_trim_work = sim_register_handler(s, "ssd.trim_work", on_trim_work, d);
    d->on_background = sim_register_handler(s, "ssd.background", on_background, d);
    return d;
}

void ssd_free(ssd *d)
{
    if (!d) return;
    for (int op = 0; op < 3; op++)
        if (d->latency[op]) gsl_histogram_free(d->latency[op]);
    for (size_t i = 0; i < d->txn_slab_count; i++) free(d->txn_slabs[i]);
    free(d->txn_slabs);
    if (d->f.p) ftl_free(&d->f);
    free(d->dies);
    free(d->channel_free);
    free(d->core_free);
    free(d->programmed);
    free(d->trim_pending);
    mapcache_free(&d->map);
    metrics_free(d);
    readcache_free(&d->rcache);
    free(d->queue_outstanding);
    free(d->admission);
    free(d);
}

const ssd_params *ssd_params_of(const ssd *d) { return &d->p; }
ftl *ssd_ftl(ssd *d) { return &d->f; }
uint64_t ssd_capacity(const ssd *d) { return d->p.logical_units * d->p.unit; }
uint64_t ssd_submitted(const ssd *d) { return d->submitted; }

uint32_t ssd_outstanding(const ssd *d) { return d->outstanding; }
const gsl_histogram *ssd_latency_histogram(const ssd *d, ssdlab_op op) { return d->latency[op]; }

/* Quantiles come from the histogram through GSL's inverse CDF, which
 * interpolates linearly inside the (narrow) bin; the maximum is exact. */
double ssd_latency_quantile(const ssd *d, ssdlab_op op, double q)
{
    const gsl_histogram *h = d->latency[op];
    if (gsl_histogram_sum(h) <= 0) return NAN;
    if (q >= 1) return (double)d->latency_max[op];
    gsl_histogram_pdf *pdf = gsl_histogram_pdf_alloc(h->n);
    if (!pdf) return NAN;
    double x = gsl_histogram_pdf_init(pdf, h) ? NAN : gsl_histogram_pdf_sample(pdf, q);
    gsl_histogram_pdf_free(pdf);
    return x;
}

void ssd_stats(const ssd *d, ssdlab_stats *s)
{
    memset(s, 0, sizeof *s);
    for (int op = 0; op < 3; op++) {
        s->completed[op] = d->completed[op];
        s->bytes[op] = d->bytes[op];
        s->latency_sum_ns[op] = d->latency_sum[op];
    }
    s->host_units_written = d->f.units_written[STREAM_HOST] - d->host_units0;
    s->gc_units_written = d->f.units_written[STREAM_GC] - d->gc_units0;
    s->map_units_written = d->f.units_written[STREAM_MAP] - d->map_units0;
    s->erases = d->f.erases - d->erases0;
    s->flash_reads = d->flash_reads;
    s->map_misses = d->map_misses;
    power_model *pw = (power_model *)&d->power; /* bringing the temperature up to date changes no result */
    s->energy_j = power_energy(pw, sim_now(d->s));
    s->average_power_w = sim_now(d->s) ? s->energy_j / sim_time_to_sec(sim_now(d->s)) : 0;
    s->temperature_c = power_temperature(pw, sim_now(d->s));
    s->max_temperature_c = pw->max_temperature_c;
    s->throttled_s = sim_time_to_sec(pw->throttled_ns + (pw->throttling ? sim_now(d->s) - pw->throttle_began : 0));
    s->map_writebacks = d->map_programs;
    s->busy_s = sim_time_to_sec(d->busy_ns + (d->rw_pending ? sim_now(d->s) - d->busy_since : 0));
    s->flash_programs = d->flash_programs;
    s->read_retries = d->read_retries;
    s->read_cache_hits = d->rcache_hits;
    s->suspends = d->suspends;
    s->slc_units_written = d->slc_units_written;
    s->slc_units_read = d->slc_units_read;
    s->write_amplification =
        s->host_units_written
            ? (double)(s->host_units_written + s->gc_units_written + s->map_units_written) / (double)s->host_units_written
            : NAN;
    s->now = sim_now(d->s);
}

void ssd_die_stats(const ssd *d, uint32_t die, ssd_die_counts *out)
{
    const die_state *ds = &d->dies[die];
    *out = (ssd_die_counts){ds->busy_ns, ds->reads, ds->programs, ds->erases};
}

void ssd_reset_stats(ssd *d)
{
    memset(d->completed, 0, sizeof d->completed);
    memset(d->bytes, 0, sizeof d->bytes);
    memset(d->latency_sum, 0, sizeof d->latency_sum);
    for (int op = 0; op < 3; op++) gsl_histogram_reset(d->latency[op]);
    memset(d->latency_max, 0, sizeof d->latency_max);
    d->flash_reads = d->flash_programs = d->read_retries = d->suspends = d->rcache_hits = 0;
    d->map_misses = d->map_programs = 0;
    d->slc_units_written = d->slc_units_read = 0;
    d->host_units0 = d->f.units_written[STREAM_HOST];
    d->gc_units0 = d->f.units_written[STREAM_GC];
    d->map_units0 = d->f.units_written[STREAM_MAP];
    d->erases0 = d->f.erases;
    d->busy_ns = 0;
    d->busy_since = sim_now(d->s); /* a busy period running now counts from here */
}

void ssd_precondition(ssd *d, uint64_t overwrites, gsl_rng *rng)
{
    for (uint64_t lpn = 0; lpn < d->p.logical_units; lpn++) ftl_write_now(&d->f, (uint32_t)lpn);
    /* A ring of upcoming targets, drawn in order (so the sequence is that of
     * one draw per write), lets the cache misses of later writes overlap. */
    enum { AHEAD = 32, RING = 128 }; /* RING > 2 * AHEAD: a slot is reused only after its write */
    uint32_t ring[RING];
    uint64_t n = d->p.logical_units;
    for (uint64_t i = 0; i < overwrites + 2 * AHEAD; i++) {
        if (i < overwrites) {
            ring[i % RING] = (uint32_t)gsl_rng_uniform_int(rng, n);
            ftl_prefetch_write(&d->f, ring[i % RING], 0);
        }
        if (i >= AHEAD && i - AHEAD < overwrites) ftl_prefetch_write(&d->f, ring[(i - AHEAD) % RING], 1);
        if (i >= 2 * AHEAD && i - 2 * AHEAD < overwrites) ftl_write_now(&d->f, ring[(i - 2 * AHEAD) % RING]);
    }
    /* A DRAM-less drive has written its whole mapping table out too. */
    for (uint32_t tu = 0; tu < d->f.map_units; tu++) {
        uint32_t die = tu % d->p.dies, ppa = ftl_alloc(&d->f, die, STREAM_MAP);
        if (ppa == FTL_NONE) break;
        ftl_map_unit(&d->f, tu, ppa, false);
        if (ftl_free_blocks(&d->f, die) <= d->p.gc_threshold) ftl_collect_now(&d->f, die);
    }
    size_t nblocks = (size_t)d->p.dies * d->p.blocks_per_die;
    for (size_t b = 0; b < nblocks; b++) d->programmed[b] = d->f.blocks[b].write_ptr;
    /* The program units the fast path left part-filled are programmed too:
     * start the timed model on fresh program units. */
    for (uint32_t die = 0; die < d->p.dies; die++)
        for (int s = 0; s < STREAM_COUNT; s++) {
            uint32_t b = d->f.dies[die].open[s];
            if (b == FTL_NONE) continue;
            uint32_t wp = d->f.blocks[b].write_ptr, pu = d->p.units_per_program;
            d->f.blocks[b].write_ptr = (wp + pu - 1) / pu * pu;
            d->programmed[b] = d->f.blocks[b].write_ptr;
        }
    metrics_start_timed(d);
}
