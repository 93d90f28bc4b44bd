#include "ssd.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fatal.h"
#include "mapcache.h"
#include "power.h"

enum { CLASS_READ, CLASS_PROGRAM, CLASS_ERASE, CLASSES };
enum { LINK_TO_HOST, LINK_TO_DEVICE };
enum { GC_READ_WINDOW = 8 };

typedef enum txn_kind { TX_READ, TX_GC_READ, TX_PROGRAM, TX_ERASE, TX_MAP_READ, TX_MAP_PROGRAM } txn_kind;
enum { STREAM_MAP = STREAM_COUNT }; /* translation pages: not host data, not FTL blocks */

typedef struct txn {
    struct txn *next;
    ssdlab_request *req; /* host reads */
    uint32_t die, ppa, units, block;
    uint8_t kind, stream;
} txn;

typedef struct die_state {
    txn *head[CLASSES], *tail[CLASSES];
    sim_time_t busy_until; /* the die holds data in its register until then */
    bool busy;             /* an operation (or a deferred start) is under way */
    sim_time_t busy_ns;
    /* the program unit being filled, per stream */
    uint32_t pu_first[STREAM_COUNT], pu_fill[STREAM_COUNT];
    /* reclaim job: garbage collection or SLC folding, one at a time */
    bool gc_active, gc_is_fold, background;
    uint32_t gc_victim, gc_next, gc_reads_out;
    sim_time_t job_started;
} die_state;

typedef struct req_queue {
    ssdlab_request *head, *tail;
} req_queue;

struct ssd {
    sim *s;
    ssd_params p;
    ftl f;
    gsl_rng *rng;
    die_state *dies;
    sim_time_t *channel_free, *core_free;
    sim_time_t link_free[2];
    uint32_t *programmed; /* per block: units whose program completed */
    /* transaction pool */
    txn *free_txns;
    txn **txn_slabs;
    size_t txn_slab_count, txn_count;
    /* host side */
    uint32_t outstanding;
    req_queue admission, buffer_wait, stalled;
    uint64_t buffer_units, buffer_used;
    /* handlers */
    sim_handler_id on_fw_done, on_read_sensed, on_read_ready, on_program_done, on_erase_done, on_die_free,
        on_data_in, on_complete, on_idle, on_background;
    /* idle detection */
    bool idle;
    sim_event idle_timer;
    power_model power;
    /* cached mapping (DFTL) */
    mapcache map;
    uint64_t map_misses, map_programs;
    /* TRIM work */
    sim_handler_id on_trim_work;
    sim_time_t trim_backlog;  /* throttled: firmware work left */
    bool trim_worker;
    uint64_t *trim_pending;   /* deferred: one bit per logical unit */
    uint64_t trim_pending_units, trim_cursor;
    /* statistics */
    uint64_t completed[3], bytes[3];
    double latency_sum[3];
    gsl_histogram *latency[3];
    uint64_t flash_reads, flash_programs;
    uint64_t host_units0, gc_units0, erases0; /* at the last reset */
};

/* --- small helpers ----------------------------------------------------------- */

static void q_push(req_queue *q, ssdlab_request *r)
{
    r->next = NULL;
    if (q->tail) q->tail->next = r;
    else q->head = r;
    q->tail = r;
}

static ssdlab_request *q_pop(req_queue *q)
{
    ssdlab_request *r = q->head;
    if (r && !(q->head = r->next)) q->tail = NULL;
    return r;
}

static sim_time_t max_time(sim_time_t a, sim_time_t b) { return a > b ? a : b; }

static int add_txn_slab(ssd *d)
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

static txn *new_txn(ssd *d, txn_kind kind, uint32_t die, uint32_t ppa, uint32_t units)
{
    if (!d->free_txns && add_txn_slab(d)) ssdlab_internal_error("out of memory for flash transactions");
    txn *t = d->free_txns;
    d->free_txns = t->next;
    *t = (txn){.kind = (uint8_t)kind, .die = die, .ppa = ppa, .units = units};
    if (kind != TX_MAP_READ && kind != TX_MAP_PROGRAM) t->block = ftl_block_of(&d->f, ppa);
    return t;
}

static void free_txn(ssd *d, txn *t)
{
    t->next = d->free_txns;
    d->free_txns = t;
}

static uint32_t channel_of(const ssd *d, uint32_t die) { return die / d->p.dies_per_channel; }

static uint64_t bus_bytes(const ssd *d, uint32_t units)
{
    /* Units move with their share of the page's spare area (ECC parity). */
    uint64_t user = (uint64_t)units * d->p.unit;
    return user + user * d->p.spare_size / d->p.page_size;
}

/* Reserves the channel of a die for `bytes` from `ready` on; returns the end. */
static sim_time_t channel_transfer(ssd *d, uint32_t die, sim_time_t ready, uint64_t bytes)
{
    power_deposit(&d->power, (double)bytes * d->power.bus_j_per_byte);
    sim_time_t *free_at = &d->channel_free[channel_of(d, die)];
    sim_time_t end = max_time(ready, *free_at) + params_bus_time(&d->p, bytes);
    *free_at = end;
    return end;
}

static sim_time_t link_transfer(ssd *d, int dir, uint64_t bytes)
{
    int lane = d->p.host == HOST_NVME ? dir : 0; /* SATA is half duplex */
    sim_time_t busy = d->p.link_command + params_link_time(&d->p, bytes);
    power_deposit(&d->power, (double)busy * 1e-9 * d->power.link_active_extra_w);
    sim_time_t end = max_time(sim_now(d->s), d->link_free[lane]) + busy;
    d->link_free[lane] = end;
    return end;
}

static uint32_t units_of(const ssd *d, const ssdlab_request *r) { return (uint32_t)((r->offset % d->p.unit + r->bytes + d->p.unit - 1) / d->p.unit); }
static uint32_t first_unit(const ssd *d, const ssdlab_request *r) { return (uint32_t)(r->offset / d->p.unit); }

/* --- dies ------------------------------------------------------------------ */

static void die_enqueue(ssd *d, txn *t, int cls);

static bool in_slc(const ssd *d, uint32_t ppa) { return d->f.blocks[ftl_block_of(&d->f, ppa)].slc; }

static sim_time_t read_time(const ssd *d, uint32_t ppa)
{
    if (in_slc(d, ppa)) return d->p.t_read_slc;
    return d->p.t_read[params_page_type(&d->p, ftl_offset_of(&d->f, ppa))];
}

static sim_time_t program_time(const ssd *d, uint32_t ppa)
{
    if (in_slc(d, ppa)) return d->p.t_prog_slc;
    if (d->p.style == PROGRAM_ONE_SHOT) return d->p.t_prog[0];
    return d->p.t_prog[params_page_type(&d->p, ftl_offset_of(&d->f, ppa))];
}

static txn *die_take(die_state *ds)
{
    for (int c = 0; c < CLASSES; c++) {
        txn *t = ds->head[c];
        if (!t) continue;
        if (!(ds->head[c] = t->next)) ds->tail[c] = NULL;
        return t;
    }
    return NULL;
}

static bool die_has_work(const die_state *ds)
{
    return ds->head[CLASS_READ] || ds->head[CLASS_PROGRAM] || ds->head[CLASS_ERASE];
}

/* Starts the die's most urgent operation, if it is free. The choice is made
 * when the die frees up, so a read arriving meanwhile still goes first. */
static void die_kick(ssd *d, uint32_t die)
{
    die_state *ds = &d->dies[die];
    if (ds->busy || !die_has_work(ds)) return;
    sim_time_t now = sim_now(d->s);
    if (ds->busy_until > now) {
        ds->busy = true;
        sim_schedule_at(d->s, ds->busy_until, d->on_die_free, ds, die);
        return;
    }
    txn *t = die_take(ds);
    ds->busy = true;
    /* Thermal throttling stretches the array operations. */
    double slow = d->power.thermal && power_throttled(&d->power, now) ? d->power.throttle_slowdown : 1.0;
    switch (t->kind) {
    case TX_MAP_READ:
    case TX_READ:
    case TX_GC_READ: {
        /* translation pages are kept in SLC mode */
        sim_time_t tr = (sim_time_t)((double)(t->kind == TX_MAP_READ ? d->p.t_read_slc : read_time(d, t->ppa)) * slow);
        ds->busy_ns += tr;
        d->flash_reads++;
        power_deposit(&d->power, (double)tr * 1e-9 * d->power.die_read_w);
        sim_schedule_in(d->s, tr, d->on_read_sensed, t, 0);
        break;
    }
    case TX_MAP_PROGRAM:
    case TX_PROGRAM: {
        sim_time_t in_end = channel_transfer(d, die, now, bus_bytes(d, t->units));
        sim_time_t tp = (sim_time_t)((double)(t->kind == TX_MAP_PROGRAM ? d->p.t_prog_slc : program_time(d, t->ppa)) * slow);
        ds->busy_ns += in_end + tp - now;
        d->flash_programs++;
        power_deposit(&d->power, (double)tp * 1e-9 * d->power.die_program_w);
        sim_schedule_at(d->s, in_end + tp, d->on_program_done, t, 0);
        break;
    }
    case TX_ERASE: {
        sim_time_t te = (sim_time_t)((double)(d->f.blocks[t->block].slc ? d->p.t_erase_slc : d->p.t_erase) * slow);
        ds->busy_ns += te;
        power_deposit(&d->power, (double)te * 1e-9 * d->power.die_erase_w);
        sim_schedule_in(d->s, te, d->on_erase_done, t, 0);
        break;
    }
    }
}

static void die_enqueue(ssd *d, txn *t, int cls)
{
    die_state *ds = &d->dies[t->die];
    t->next = NULL;
    if (ds->tail[cls]) ds->tail[cls]->next = t;
    else ds->head[cls] = t;
    ds->tail[cls] = t;
    die_kick(d, t->die);
}

static void on_die_free(sim *s, void *ctx, void *obj, uint64_t die)
{
    (void)s, (void)obj;
    ssd *d = ctx;
    d->dies[die].busy = false;
    die_kick(d, (uint32_t)die);
}

/* The page is in the die's register: move it out, then decode it. */
static void on_read_sensed(sim *s, void *ctx, void *obj, uint64_t arg)
{
    (void)arg;
    ssd *d = ctx;
    txn *t = obj;
    die_state *ds = &d->dies[t->die];
    sim_time_t out_end = channel_transfer(d, t->die, sim_now(s), bus_bytes(d, t->units));
    ds->busy_ns += out_end - sim_now(s);
    ds->busy_until = out_end;
    ds->busy = false;
    sim_schedule_at(s, out_end + d->p.ecc_decode, d->on_read_ready, t, 0);
    die_kick(d, t->die);
}

/* --- TRIM ---------------------------------------------------------------- */

static bool trim_is_pending(const ssd *d, uint32_t lpn) { return d->trim_pending[lpn >> 6] >> (lpn & 63) & 1; }

static void trim_clear(ssd *d, uint32_t lpn)
{
    uint64_t bit = UINT64_C(1) << (lpn & 63);
    if (d->trim_pending[lpn >> 6] & bit) {
        d->trim_pending[lpn >> 6] &= ~bit;
        d->trim_pending_units--;
    }
}

/* --- program units ------------------------------------------------------- */

static void gc_start(ssd *d, uint32_t die);

/* Adds `count` just-allocated units (from ppa on, inside one program unit)
 * to their die's program unit; a full unit goes to the die as one program
 * operation. */
static void fill_program_unit(ssd *d, uint32_t die, ftl_stream s, uint32_t ppa, uint32_t count)
{
    die_state *ds = &d->dies[die];
    if (ds->pu_fill[s] == 0) ds->pu_first[s] = ppa;
    ds->pu_fill[s] += count;
    if ((ftl_offset_of(&d->f, ppa) + count) % ftl_program_units(&d->f, ftl_block_of(&d->f, ppa))) return;
    txn *t = new_txn(d, TX_PROGRAM, die, ds->pu_first[s], ds->pu_fill[s]);
    t->stream = (uint8_t)s;
    ds->pu_fill[s] = 0;
    die_enqueue(d, t, CLASS_PROGRAM);
}

static void after_alloc(ssd *d, uint32_t die)
{
    if (ftl_free_blocks(&d->f, die) <= d->p.gc_threshold) gc_start(d, die);
}

/* --- requests ------------------------------------------------------------ */

static void complete_at(ssd *d, ssdlab_request *r, sim_time_t t)
{
    sim_schedule_at(d->s, t, d->on_complete, r, 0);
}

static void start_data_in(ssd *d, ssdlab_request *r)
{
    uint32_t n = units_of(d, r);
    d->buffer_used += n;
    sim_schedule_at(d->s, link_transfer(d, LINK_TO_DEVICE, r->bytes), d->on_data_in, r, 0);
}

static void admit_buffer_waiters(ssd *d)
{
    while (d->buffer_wait.head && d->buffer_used + units_of(d, d->buffer_wait.head) <= d->buffer_units)
        start_data_in(d, q_pop(&d->buffer_wait));
}

static void start_folds(ssd *d);
static void map_dirty(ssd *d, uint32_t lpn, uint32_t n);

/* The die and stream for the next host program unit: the SLC cache while
 * it has room, else native blocks (or, with foreground folding, nothing
 * until folding frees an SLC block). */
static uint32_t host_target(ssd *d, ftl_stream *s)
{
    if (d->p.slc != SLC_NONE) {
        uint32_t die = ftl_slc_die(&d->f);
        if (die != FTL_NONE) {
            *s = STREAM_SLC;
            return die;
        }
        if (d->p.slc_fold_when_full) {
            start_folds(d);
            return FTL_NONE;
        }
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
        if (d->trim_pending_units)
            for (uint32_t k = 0; k < got; k++) trim_clear(d, lpn0 + r->placed + k);
        if (d->p.map_cached) map_dirty(d, lpn0 + r->placed, got);
        if ((ftl_offset_of(&d->f, ppa) + got) % ftl_program_units(&d->f, ftl_block_of(&d->f, ppa)) == 0)
            ftl_advance_host_die(&d->f);
        fill_program_unit(d, die, s, ppa, got);
        after_alloc(d, die);
        r->placed += got;
    }
    return true;
}

static void on_data_in(sim *s, void *ctx, void *obj, uint64_t arg)
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

static void retry_stalled(ssd *d)
{
    while (d->stalled.head) {
        if (!place_write(d, d->stalled.head)) return;
        complete_at(d, q_pop(&d->stalled), sim_now(d->s));
    }
}

/* --- cached mapping ------------------------------------------------------- */

static uint32_t map_page_of(const ssd *d, uint32_t lpn) { return lpn / d->p.map_entries_per_page; }
static uint32_t map_die(const ssd *d, uint32_t page) { return page % d->p.dies; }

/* Caches a translation page; a dirty page pushed out is written back. */
static void map_insert(ssd *d, uint32_t page, bool dirty)
{
    bool evicted_dirty;
    uint32_t out = mapcache_insert(&d->map, page, dirty, &evicted_dirty);
    if (out == MAPCACHE_NONE || !evicted_dirty) return;
    d->map_programs++;
    txn *t = new_txn(d, TX_MAP_PROGRAM, map_die(d, out), out, d->p.units_per_page);
    t->stream = STREAM_MAP;
    die_enqueue(d, t, CLASS_PROGRAM);
}

/* Marks the translation pages of units [lpn, lpn + n) dirty. */
static void map_dirty(ssd *d, uint32_t lpn, uint32_t n)
{
    for (uint32_t p = map_page_of(d, lpn); p <= map_page_of(d, lpn + n - 1); p++)
        if (!mapcache_touch(&d->map, p, true)) map_insert(d, p, true);
}

/* True when every translation page the request needs is cached; else
 * reads the first missing one from flash and returns false (the request
 * resumes when it arrives). */
static bool map_ready(ssd *d, ssdlab_request *r)
{
    uint32_t lpn0 = first_unit(d, r), last = lpn0 + units_of(d, r) - 1;
    for (uint32_t p = map_page_of(d, lpn0); p <= map_page_of(d, last); p++) {
        if (mapcache_touch(&d->map, p, false)) continue;
        d->map_misses++;
        txn *t = new_txn(d, TX_MAP_READ, map_die(d, p), p, d->p.units_per_page);
        t->req = r;
        die_enqueue(d, t, CLASS_READ);
        return false;
    }
    return true;
}

static void start_read(ssd *d, ssdlab_request *r)
{
    uint32_t n = units_of(d, r), lpn0 = first_unit(d, r);
    uint32_t upp = d->p.units_per_page;
    txn *open = NULL;
    r->pending = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t ppa = ftl_lookup(&d->f, lpn0 + i);
        /* Never written, trimmed (even if not yet processed), or still in
         * the write buffer: no flash. */
        if (ppa == FTL_NONE || ftl_offset_of(&d->f, ppa) >= d->programmed[ftl_block_of(&d->f, ppa)]) continue;
        if (d->trim_pending_units && trim_is_pending(d, lpn0 + i)) continue;
        if (open && ppa == open->ppa + open->units && ppa / upp == open->ppa / upp) {
            open->units++;
            continue;
        }
        if (open) die_enqueue(d, open, CLASS_READ);
        open = new_txn(d, TX_READ, ftl_die_of(&d->f, ppa), ppa, 1);
        open->req = r;
        r->pending++;
    }
    if (open) die_enqueue(d, open, CLASS_READ);
    if (!r->pending) complete_at(d, r, link_transfer(d, LINK_TO_HOST, r->bytes));
}

static void start_trim_worker(ssd *d)
{
    if (d->trim_worker || (!d->trim_backlog && !(d->trim_pending_units && d->idle))) return;
    d->trim_worker = true;
    sim_schedule_in(d->s, 0, d->on_trim_work, d, 0);
}

/* Throttled: a chunk of work holds the least busy core, then leaves it to
 * commands for long enough that the work takes trim_share of its time.
 * Deferred (in idle time only): the pending units of the next chunk of
 * work are unmapped, and so become reclaimable. */
static void on_trim_work(sim *s, void *ctx, void *obj, uint64_t arg)
{
    (void)obj;
    ssd *d = ctx;
    sim_time_t now = sim_now(s);
    if (d->trim_backlog) {
        sim_time_t chunk = d->trim_backlog < d->p.trim_chunk ? d->trim_backlog : d->p.trim_chunk;
        uint32_t best = 0;
        for (uint32_t c = 1; c < d->p.cores; c++)
            if (d->core_free[c] < d->core_free[best]) best = c;
        sim_time_t start = max_time(now, d->core_free[best]);
        d->core_free[best] = start + chunk;
        d->trim_backlog -= chunk;
        sim_time_t gap = (sim_time_t)((double)chunk * (1 - d->p.trim_share) / d->p.trim_share);
        sim_schedule_at(s, start + chunk + gap, d->on_trim_work, d, 0);
        return;
    }
    /* Deferred: `arg` units of work were scheduled to end now; apply them,
     * then schedule the next chunk while the drive stays idle. */
    for (uint64_t left = arg; left && d->trim_pending_units;) {
        uint64_t w = d->trim_cursor % ((d->p.logical_units + 63) / 64);
        while (d->trim_pending[w] && left) {
            uint32_t lpn = (uint32_t)(w * 64 + (uint64_t)__builtin_ctzll(d->trim_pending[w]));
            trim_clear(d, lpn);
            ftl_trim(&d->f, lpn);
            left--;
        }
        if (!d->trim_pending[w]) d->trim_cursor = w + 1;
    }
    if (d->trim_pending_units && d->idle) {
        sim_time_t per_unit = (sim_time_t)(d->p.trim_ns_per_byte * d->p.unit) + 1;
        uint64_t n = d->p.trim_chunk / per_unit + 1;
        if (n > d->trim_pending_units) n = d->trim_pending_units;
        sim_schedule_in(s, n * per_unit, d->on_trim_work, d, n);
        return;
    }
    d->trim_worker = false;
}

static void trim(ssd *d, ssdlab_request *r)
{
    uint32_t n = units_of(d, r), lpn0 = first_unit(d, r);
    sim_time_t now = sim_now(d->s);
    sim_time_t work = (sim_time_t)(d->p.trim_ns_per_byte * (double)n * d->p.unit);
    if (d->p.trim == TRIM_DEFERRED) {
        for (uint32_t i = 0; i < n; i++) {
            uint32_t lpn = lpn0 + i;
            if (ftl_lookup(&d->f, lpn) == FTL_NONE || trim_is_pending(d, lpn)) continue;
            d->trim_pending[lpn >> 6] |= UINT64_C(1) << (lpn & 63);
            d->trim_pending_units++;
        }
        complete_at(d, r, now);
        return;
    }
    for (uint32_t i = 0; i < n; i++) ftl_trim(&d->f, lpn0 + i);
    if (d->p.trim == TRIM_BLOCKING) {
        /* Every core is held: no command is served until the work is done. */
        sim_time_t start = now;
        for (uint32_t c = 0; c < d->p.cores; c++) start = max_time(start, d->core_free[c]);
        for (uint32_t c = 0; c < d->p.cores; c++) d->core_free[c] = start + work;
        complete_at(d, r, start + work);
        return;
    }
    if (d->p.trim == TRIM_THROTTLED) {
        d->trim_backlog += work;
        start_trim_worker(d);
    }
    complete_at(d, r, now);
}

/* The request's work after the firmware stage (and, with a cached mapping,
 * once its translation pages are in the cache). */
static void continue_request(ssd *d, ssdlab_request *r)
{
    if (d->p.map_cached && r->op != SSDLAB_TRIM && !map_ready(d, r)) return;
    switch (r->op) {
    case SSDLAB_READ: start_read(d, r); break;
    case SSDLAB_WRITE:
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

static void on_fw_done(sim *s, void *ctx, void *obj, uint64_t arg)
{
    (void)arg, (void)s;
    continue_request(ctx, obj);
}

/* Firmware: the earliest free of the identical cores, in arrival order. */
static void admit(ssd *d, ssdlab_request *r)
{
    d->outstanding++;
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
    sim_time_t end = max_time(sim_now(d->s), d->core_free[best]) + cost;
    d->core_free[best] = end;
    sim_schedule_at(d->s, end, d->on_fw_done, r, 0);
}

enum { LATENCY_BINS_PER_DECADE = 100, LATENCY_DECADES = 12 };

static void record(ssd *d, ssdlab_request *r)
{
    double lat = (double)(r->finish - r->arrival);
    d->completed[r->op]++;
    d->bytes[r->op] += r->bytes;
    d->latency_sum[r->op] += lat;
    /* The bins are log-spaced, so the index is computed, not searched for. */
    gsl_histogram *h = d->latency[r->op];
    double i = lat < 1 ? 0 : floor(log10(lat) * LATENCY_BINS_PER_DECADE);
    h->bin[i < (double)h->n ? (size_t)i : h->n - 1] += 1;
}

static void on_complete(sim *s, void *ctx, void *obj, uint64_t arg)
{
    (void)arg;
    ssd *d = ctx;
    ssdlab_request *r = obj;
    r->finish = sim_now(s);
    d->outstanding--;
    record(d, r);
    if (d->admission.head) admit(d, q_pop(&d->admission));
    else if (d->outstanding == 0 && !d->idle_timer)
        d->idle_timer = sim_schedule_cancellable_in(s, d->p.idle_time, d->on_idle, d, 0);
    r->done(r, r->done_ctx);
}

int ssd_submit(ssd *d, ssdlab_request *r)
{
    uint64_t capacity = d->p.logical_units * d->p.unit;
    if (r->bytes == 0 || r->offset >= capacity || r->bytes > capacity - r->offset || (unsigned)r->op > SSDLAB_TRIM)
        return -1;
    r->arrival = sim_now(d->s);
    if (d->outstanding >= d->p.max_queue_depth) q_push(&d->admission, r);
    else admit(d, r);
    return 0;
}

/* --- flash completions ------------------------------------------------------ */

static void gc_read_done(ssd *d, txn *t);

static void on_read_ready(sim *s, void *ctx, void *obj, uint64_t arg)
{
    (void)arg;
    ssd *d = ctx;
    txn *t = obj;
    if (t->kind == TX_GC_READ) {
        gc_read_done(d, t);
        return;
    }
    if (t->kind == TX_MAP_READ) {
        ssdlab_request *waiting = t->req;
        if (!mapcache_touch(&d->map, t->ppa, false)) map_insert(d, t->ppa, false);
        free_txn(d, t);
        continue_request(d, waiting);
        return;
    }
    ssdlab_request *r = t->req;
    free_txn(d, t);
    if (--r->pending == 0) complete_at(d, r, link_transfer(d, LINK_TO_HOST, r->bytes));
    (void)s;
}

static void on_program_done(sim *s, void *ctx, void *obj, uint64_t arg)
{
    (void)arg;
    ssd *d = ctx;
    txn *t = obj;
    die_state *ds = &d->dies[t->die];
    if (t->kind == TX_MAP_PROGRAM) {
        ds->busy = false;
        ds->busy_until = sim_now(s);
        uint32_t die = t->die;
        free_txn(d, t);
        die_kick(d, die);
        return;
    }
    uint32_t end = ftl_offset_of(&d->f, t->ppa) + t->units;
    if (d->programmed[t->block] < end) d->programmed[t->block] = end;
    ds->busy = false;
    ds->busy_until = sim_now(s);
    uint32_t die = t->die;
    if (t->stream != STREAM_GC) { /* host data, native or SLC, leaves the buffer */
        d->buffer_used -= t->units;
        admit_buffer_waiters(d);
    }
    free_txn(d, t);
    die_kick(d, die);
}

/* --- garbage collection ---------------------------------------------------- */

static void gc_issue(ssd *d, uint32_t die);

static void start_job(ssd *d, uint32_t die, uint32_t victim, bool fold, bool background)
{
    die_state *ds = &d->dies[die];
    ds->gc_active = true;
    ds->gc_is_fold = fold;
    ds->background = background;
    ds->gc_victim = victim;
    ds->gc_next = 0;
    ds->gc_reads_out = 0;
    ds->job_started = sim_now(d->s);
    gc_issue(d, die);
}

static void gc_start(ssd *d, uint32_t die)
{
    if (d->dies[die].gc_active) return;
    uint32_t victim = ftl_pick_victim(&d->f, die);
    if (victim != FTL_NONE) start_job(d, die, victim, false, false);
}

static void fold_start(ssd *d, uint32_t die, bool background)
{
    if (d->dies[die].gc_active) return;
    uint32_t victim = ftl_pick_fold_victim(&d->f, die);
    if (victim != FTL_NONE) start_job(d, die, victim, true, background);
}

/* Foreground folding: the cache is full and writes wait for it. */
static void start_folds(ssd *d)
{
    for (uint32_t die = 0; die < d->p.dies; die++) fold_start(d, die, false);
}

/* The next piece of background work of an idle die: fold the SLC cache,
 * then collect blocks below the background GC threshold. */
static void background_next(ssd *d, uint32_t die)
{
    if (!d->idle || d->dies[die].gc_active) return;
    if (ftl_slc_closed(&d->f, die)) {
        fold_start(d, die, true);
        return;
    }
    if (ftl_free_blocks(&d->f, die) < d->p.gc_background_threshold) {
        uint32_t victim = ftl_pick_victim(&d->f, die);
        if (victim != FTL_NONE) start_job(d, die, victim, false, true);
    }
}

static void on_idle(sim *s, void *ctx, void *obj, uint64_t arg)
{
    (void)s, (void)obj, (void)arg;
    ssd *d = ctx;
    d->idle_timer = 0;
    d->idle = true;
    start_trim_worker(d);
    for (uint32_t die = 0; die < d->p.dies; die++) background_next(d, die);
}

static void on_background(sim *s, void *ctx, void *obj, uint64_t die)
{
    (void)s, (void)obj;
    background_next(ctx, (uint32_t)die);
}

/* Reads the victim's pages that hold valid units, a few at a time; when all
 * are moved, erases it. */
static void gc_issue(ssd *d, uint32_t die)
{
    die_state *ds = &d->dies[die];
    const uint32_t U = d->p.units_per_block, upp = d->p.units_per_page;
    uint32_t written = d->f.blocks[ds->gc_victim].write_ptr;
    while (ds->gc_reads_out < GC_READ_WINDOW && ds->gc_next < written) {
        uint32_t base = ds->gc_victim * U + ds->gc_next;
        uint32_t valid = 0;
        for (uint32_t k = 0; k < upp; k++) valid += d->f.p2l[base + k] != FTL_NONE;
        ds->gc_next += upp;
        if (!valid) continue;
        ds->gc_reads_out++;
        die_enqueue(d, new_txn(d, TX_GC_READ, die, base, valid), CLASS_READ);
    }
    if (ds->gc_next >= written && ds->gc_reads_out == 0) {
        if (d->f.blocks[ds->gc_victim].valid == 0) {
            die_enqueue(d, new_txn(d, TX_ERASE, die, ds->gc_victim * U, 0), CLASS_ERASE);
        } else {
            ds->gc_active = false; /* could not move everything: try another victim later */
            d->f.blocks[ds->gc_victim].state = BLOCK_CLOSED;
        }
    }
}

static void gc_read_done(ssd *d, txn *t)
{
    uint32_t die = t->die;
    die_state *ds = &d->dies[die];
    for (uint32_t k = 0; k < d->p.units_per_page; k++) {
        uint32_t ppa = t->ppa + k, lpn = d->f.p2l[ppa];
        if (lpn == FTL_NONE) continue; /* overwritten or trimmed meanwhile */
        uint32_t to = ftl_alloc(&d->f, die, STREAM_GC);
        if (to == FTL_NONE) break;
        ftl_map(&d->f, lpn, to, true);
        if (d->p.map_cached) map_dirty(d, lpn, 1);
        fill_program_unit(d, die, STREAM_GC, to, 1);
    }
    free_txn(d, t);
    ds->gc_reads_out--;
    gc_issue(d, die);
}

static void on_erase_done(sim *s, void *ctx, void *obj, uint64_t arg)
{
    (void)arg;
    ssd *d = ctx;
    txn *t = obj;
    uint32_t die = t->die;
    die_state *ds = &d->dies[die];
    bool was_fold = ds->gc_is_fold, was_background = ds->background;
    uint32_t moved = d->f.blocks[t->block].write_ptr;
    ftl_erase(&d->f, t->block);
    d->programmed[t->block] = 0;
    ds->busy = false;
    ds->busy_until = sim_now(s);
    ds->gc_active = false;
    free_txn(d, t);
    retry_stalled(d);
    after_alloc(d, die);
    if (!ds->gc_active && d->stalled.head && d->p.slc_fold_when_full) fold_start(d, die, false);
    if (!ds->gc_active && d->idle) {
        /* Idle folding at a set rate: the next block waits until the
         * drive-wide rate allows it. */
        sim_time_t next = sim_now(s);
        if (was_fold && was_background && d->p.slc_idle_fold_bytes_per_ns > 0) {
            double per_die = d->p.slc_idle_fold_bytes_per_ns / d->p.dies;
            sim_time_t due = ds->job_started + (sim_time_t)((double)moved * d->p.unit / per_die);
            if (due > next) next = due;
        }
        if (next > sim_now(s)) sim_schedule_at(s, next, d->on_background, d, die);
        else background_next(d, die);
    }
    die_kick(d, die);
}

/* --- set-up ------------------------------------------------------------------ */

ssd *ssd_create(sim *s, const cfg *c, char *err, size_t errlen)
{
    ssd *d = calloc(1, sizeof *d);
    if (!d) return snprintf(err, errlen, "out of memory"), NULL;
    d->s = s;
    if (ssd_params_load(&d->p, c, err, errlen)) {
        free(d);
        return NULL;
    }
    const ssd_params *p = &d->p;
    d->rng = sim_rng(s, "ftl");
    size_t nblocks = (size_t)p->dies * p->blocks_per_die;
    d->dies = calloc(p->dies, sizeof *d->dies);
    d->channel_free = calloc(p->channels, sizeof *d->channel_free);
    d->core_free = calloc(p->cores, sizeof *d->core_free);
    d->programmed = calloc(nblocks, sizeof *d->programmed);
    bool ok = d->dies && d->channel_free && d->core_free && d->programmed && ftl_init(&d->f, p, d->rng) == 0 &&
              add_txn_slab(d) == 0;
    if (ok && p->map_cached) ok = mapcache_init(&d->map, p->map_pages, p->map_cache_pages) == 0;
    if (ok && p->trim == TRIM_DEFERRED)
        ok = (d->trim_pending = calloc((p->logical_units + 63) / 64, sizeof *d->trim_pending)) != NULL;
    for (int op = 0; ok && op < 3; op++) {
        /* 100 bins per decade (2.3 % wide) from 1 ns to 1000 s */
        enum { BINS = LATENCY_BINS_PER_DECADE * LATENCY_DECADES };
        double ranges[BINS + 1];
        for (int i = 0; i <= BINS; i++) ranges[i] = pow(10.0, (double)i / LATENCY_BINS_PER_DECADE);
        ok = (d->latency[op] = gsl_histogram_alloc(BINS)) != NULL;
        if (ok) gsl_histogram_set_ranges(d->latency[op], ranges, BINS + 1);
    }
    if (!ok) {
        ssd_free(d);
        snprintf(err, errlen, "out of memory for a drive of %llu mapping units", (unsigned long long)p->physical_units);
        return NULL;
    }
    d->buffer_units = p->write_buffer / p->unit;
    power_init(&d->power, c, p->dies);
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
    free(d);
}

const ssd_params *ssd_params_of(const ssd *d) { return &d->p; }
ftl *ssd_ftl(ssd *d) { return &d->f; }
uint64_t ssd_capacity(const ssd *d) { return d->p.logical_units * d->p.unit; }
uint32_t ssd_outstanding(const ssd *d) { return d->outstanding; }
const gsl_histogram *ssd_latency_histogram(const ssd *d, ssdlab_op op) { return d->latency[op]; }

double ssd_latency_quantile(const ssd *d, ssdlab_op op, double q)
{
    const gsl_histogram *h = d->latency[op];
    double total = gsl_histogram_sum(h), seen = 0;
    if (total <= 0) return NAN;
    for (size_t i = 0; i < gsl_histogram_bins(h); i++) {
        double count = gsl_histogram_get(h, i);
        if (seen + count >= q * total) {
            double lo, hi;
            gsl_histogram_get_range(h, i, &lo, &hi);
            /* geometric interpolation inside the log-spaced bin */
            double frac = count > 0 ? (q * total - seen) / count : 0;
            return lo * pow(hi / lo, frac);
        }
        seen += count;
    }
    return gsl_histogram_max(h);
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
    s->flash_programs = d->flash_programs;
    s->write_amplification =
        s->host_units_written ? (double)(s->host_units_written + s->gc_units_written) / (double)s->host_units_written : NAN;
    s->now = sim_now(d->s);
}

void ssd_reset_stats(ssd *d)
{
    memset(d->completed, 0, sizeof d->completed);
    memset(d->bytes, 0, sizeof d->bytes);
    memset(d->latency_sum, 0, sizeof d->latency_sum);
    for (int op = 0; op < 3; op++) gsl_histogram_reset(d->latency[op]);
    d->flash_reads = d->flash_programs = 0;
    d->map_misses = d->map_programs = 0;
    d->host_units0 = d->f.units_written[STREAM_HOST];
    d->gc_units0 = d->f.units_written[STREAM_GC];
    d->erases0 = d->f.erases;
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
}
