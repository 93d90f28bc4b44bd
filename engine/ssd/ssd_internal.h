/* Internals of the SSD model shared by its files (ssd.c: requests and
 * set-up; ssd_flash.c: transactions, dies, channels, the host link;
 * ssd_reclaim.c: GC, SLC folding, idle-time work; ssd_trim.c: TRIM cost;
 * ssd_map.c: the DRAM-less mapping cache). Not part of any public API. */
#ifndef SSDLAB_SSD_INTERNAL_H
#define SSDLAB_SSD_INTERNAL_H

#include <math.h>
#include <stdbool.h>

#include "mapcache.h"
#include "power.h"
#include "readcache.h"
#include "ssd.h"

enum { CLASS_READ, CLASS_PROGRAM, CLASS_ERASE, CLASSES };
enum { LINK_TO_HOST, LINK_TO_DEVICE };
enum { GC_READ_WINDOW = 8 };

typedef enum txn_kind { TX_READ, TX_GC_READ, TX_PROGRAM, TX_ERASE, TX_MAP_READ, TX_RMW_READ, TX_PREFETCH } txn_kind;

typedef struct txn {
    struct txn *next;
    ssdlab_request *req; /* host reads */
    uint32_t die, ppa, units, block;
    uint8_t kind, stream;
    bool data_in;        /* cache program: data already moved in, ready at `ready` */
    sim_time_t ready;
    uint64_t seq;        /* enqueue order, for schedulers that need it */
    uint32_t padding;    /* units of a program unit written only to fill it */
    uint32_t tu;         /* TX_MAP_READ: the translation unit read */
} txn;

typedef struct die_state {
    txn *head[CLASSES], *tail[CLASSES];
    sim_time_t busy_until; /* the die holds data in its register until then */
    bool busy;             /* an operation (or a deferred start) is under way */
    sim_time_t busy_ns;    /* time with an operation or a transfer under way */
    sim_time_t busy_mark;  /* busy_ns counts time up to here */
    uint64_t reads, programs, erases;
    /* the program or erase under way, for suspension */
    txn *active;
    sim_event active_event;
    sim_time_t active_end;
    txn *suspended;
    sim_time_t suspended_left;
    /* the program unit being filled, per stream */
    uint32_t pu_first[STREAM_COUNT], pu_fill[STREAM_COUNT];
    /* reclaim job: garbage collection or SLC folding, one at a time */
    bool gc_active, gc_is_fold, background;
    uint32_t gc_victim, gc_next, gc_reads_out;
    sim_time_t job_started;
    sim_time_t background_due; /* idle work at slc.idle_fold_rate: the next piece may start then */
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
    uint64_t txn_seq;
    uint32_t pending_padding; /* padding units of the program unit being closed */
    /* transaction pool */
    txn *free_txns;
    txn **txn_slabs;
    size_t txn_slab_count, txn_count;
    /* host side */
    uint32_t outstanding;
    uint32_t rw_pending;    /* reads and writes submitted, not yet complete (admitted or waiting) */
    sim_time_t busy_since;  /* when rw_pending last rose from 0 */
    sim_time_t busy_ns;     /* time with rw_pending > 0 since the last stats reset (PCMark's busy time) */
    uint32_t *queue_outstanding; /* per submission queue */
    req_queue *admission;        /* per submission queue: commands beyond its depth */
    req_queue buffer_wait, stalled;
    uint64_t buffer_units, buffer_used;
    /* handlers */
    sim_handler_id on_fw_done, on_read_sensed, on_read_ready, on_program_done, on_erase_done, on_die_free,
        on_data_in, on_complete, on_idle, on_background;
    /* idle detection */
    bool idle;
    sim_event idle_timer;
    power_model power;
    readcache rcache;
    uint64_t rcache_hits;
    uint32_t read_end;      /* the unit after the last host read: a read starting there is sequential */
    uint32_t fold_cursor;   /* the die whose turn it is to fold next */
    uint32_t prefetched_to; /* read-ahead has asked the flash for units below this */
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
    uint64_t submitted; /* requests since creation: the next request's id */
    uint64_t completed[3], bytes[3];
    double latency_sum[3];
    gsl_histogram *latency[3];
    uint64_t latency_max[3]; /* ns */
    uint64_t flash_reads, flash_programs, read_retries, suspends;
    uint64_t slc_units_written, slc_units_read; /* host data that landed in / was read from SLC-mode blocks */
    gsl_rng *ecc_rng;
    uint64_t host_units0, gc_units0, map_units0, erases0; /* at the last reset */
    /* per-interval metrics */
    sim_time_t interval, interval_end;
    uint64_t *iv_bins; /* latency bins of the current interval */
    uint64_t iv_requests, iv_bytes, iv_op_bytes[2], iv_op_requests[2], iv_erases0, iv_gc_units0;
    uint64_t timed_units0[STREAM_COUNT]; /* units written before time 0 (preconditioning) */
    uint64_t host_bytes_written;         /* bytes of host writes completed since time 0 */
    double iv_latency_sum, iv_op_latency_sum[2];
    ssd_interval *rows;
    size_t row_count, row_cap;
    ssd_observers observe;
};


static inline void q_push(req_queue *q, ssdlab_request *r)
{
    r->next = NULL;
    if (q->tail) q->tail->next = r;
    else q->head = r;
    q->tail = r;
}

static inline ssdlab_request *q_pop(req_queue *q)
{
    ssdlab_request *r = q->head;
    if (r && !(q->head = r->next)) q->tail = NULL;
    return r;
}

static inline sim_time_t max_time(sim_time_t a, sim_time_t b) { return a > b ? a : b; }
static inline uint32_t channel_of(const ssd *d, uint32_t die) { return die / d->p.dies_per_channel; }
static inline uint32_t units_of(const ssd *d, const ssdlab_request *r)
{
    return (uint32_t)((r->offset % d->p.unit + r->bytes + d->p.unit - 1) / d->p.unit);
}
static inline uint32_t first_unit(const ssd *d, const ssdlab_request *r) { return (uint32_t)(r->offset / d->p.unit); }
static inline bool in_slc(const ssd *d, uint32_t ppa) { return d->f.blocks[ftl_block_of(&d->f, ppa)].slc; }
static inline bool trim_is_pending(const ssd *d, uint32_t lpn) { return d->trim_pending[lpn >> 6] >> (lpn & 63) & 1; }

/* Units move with their share of the page's spare area (ECC parity). */
static inline uint64_t bus_bytes(const ssd *d, uint32_t units)
{
    uint64_t user = (uint64_t)units * d->p.unit;
    return user + user * d->p.spare_size / d->p.page_size;
}

/* Latency bins as in HdrHistogram: exact below 64 ns, then 64 bins per
 * octave (at most 1.6 % wide) up to 2^42 ns (73 minutes). The index comes
 * from the bits of the latency, not from a search or a logarithm. */
enum { SUB_BITS = 6, SUB = 1 << SUB_BITS, TOP_BIT = 42, LATENCY_BINS = (TOP_BIT - SUB_BITS + 1) * SUB };

static inline size_t latency_bin(uint64_t ns)
{
    if (ns < SUB) return ns;
    int msb = 63 - __builtin_clzll(ns);
    size_t i = (size_t)(msb - SUB_BITS + 1) * SUB + ((ns >> (msb - SUB_BITS)) & (SUB - 1));
    return i < LATENCY_BINS ? i : LATENCY_BINS - 1;
}

static inline double latency_bin_start(size_t i)
{
    if (i < SUB) return (double)i;
    int msb = (int)(i / SUB) + SUB_BITS - 1;
    return ldexp((double)(SUB + i % SUB), msb - SUB_BITS);
}

/* ssd_flash.c */
int add_txn_slab(ssd *d);
txn *new_txn(ssd *d, txn_kind kind, uint32_t die, uint32_t ppa, uint32_t units);
void free_txn(ssd *d, txn *t);
sim_time_t channel_transfer(ssd *d, uint32_t die, sim_time_t ready, uint64_t bytes);
sim_time_t link_transfer(ssd *d, int dir, uint64_t bytes);
void die_enqueue(ssd *d, txn *t, int cls);
void die_kick(ssd *d, uint32_t die);
void fill_program_unit(ssd *d, uint32_t die, ftl_stream s, uint32_t ppa, uint32_t count);
void flush_partial_units(ssd *d);
void after_alloc(ssd *d, uint32_t die);
void on_die_free(sim *s, void *ctx, void *obj, uint64_t die);
void on_read_sensed(sim *s, void *ctx, void *obj, uint64_t arg);
void on_read_ready(sim *s, void *ctx, void *obj, uint64_t arg);
void on_program_done(sim *s, void *ctx, void *obj, uint64_t arg);

/* ssd.c */
void complete_at(ssd *d, ssdlab_request *r, sim_time_t t);
void continue_request(ssd *d, ssdlab_request *r);
void retry_stalled(ssd *d);
void admit_buffer_waiters(ssd *d);

/* ssd_reclaim.c */
void gc_start(ssd *d, uint32_t die);
void gc_burst_start(ssd *d);
bool start_folds(ssd *d);
void fold_start(ssd *d, uint32_t die, bool background);
void background_next(ssd *d, uint32_t die);
void gc_read_done(ssd *d, txn *t);
void on_erase_done(sim *s, void *ctx, void *obj, uint64_t arg);
void on_idle(sim *s, void *ctx, void *obj, uint64_t arg);
void on_background(sim *s, void *ctx, void *obj, uint64_t die);

/* ssd_trim.c */
void trim(ssd *d, ssdlab_request *r);
void trim_clear(ssd *d, uint32_t lpn);
void start_trim_worker(ssd *d);
void on_trim_work(sim *s, void *ctx, void *obj, uint64_t arg);

/* ssd_metrics.c */
int metrics_init(ssd *d, sim_time_t interval);
void metrics_free(ssd *d);
/* Time 0 of the time series: what preconditioning wrote is not counted. */
void metrics_start_timed(ssd *d);
void metrics_completed(ssd *d, const ssdlab_request *r, uint64_t latency_ns);
void metrics_catch_up(ssd *d);

/* ssd_map.c */
void map_dirty(ssd *d, uint32_t lpn, uint32_t n);
void map_insert(ssd *d, uint32_t page, bool dirty);
bool map_ready(ssd *d, ssdlab_request *r);

#endif
