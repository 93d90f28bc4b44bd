/* Reclaiming space: garbage collection and SLC folding, one job per die
 * at a time (read the victim's valid units, rewrite them, erase it), in
 * drive-wide bursts where the firmware works so, static wear levelling,
 * and the idle-time work that runs them in the background.
 *
 * Above it, the write path learns through callbacks wired at assembly:
 * when an erase has freed space (writes stalled for it may go on), when GC
 * relocated a logical unit (a DRAM-less mapping marks its translation unit
 * dirty), and when a job ended (observers). */
#ifndef SSDLAB_RECLAIM_H
#define SSDLAB_RECLAIM_H

#include <stdbool.h>

#include "flash.h"
#include "ftl.h"
#include "progunit.h"

enum { RECLAIM_READ_WINDOW = 8 }; /* victim reads a job keeps in flight */
enum { RECLAIM_PENDING = 16 };    /* blocks a die holds for read reclaim or refresh */

/* A block the media layer found due (media_reason), as its erase count was then. */
typedef struct reclaim_due {
    uint32_t block, erases;
    uint8_t reason;
} reclaim_due;

typedef struct reclaim_die {
    bool active, is_fold, background;
    uint8_t reason; /* the job's media_reason, MEDIA_FINE for GC */
    reclaim_due due[RECLAIM_PENDING];
    uint32_t due_head, due_count;
    uint32_t victim, next, reads_out;
    uint32_t fetched; /* the victim's units whose holders' mapping entries are fetched: 0 .. fetched - 1 */
    uint64_t moved; /* units the job moved so far */
    sim_time_t job_started;
    sim_time_t background_due; /* idle work at slc.idle_fold_rate: the next piece may start then */
} reclaim_die;

typedef struct reclaim_hooks {
    /* Space was freed: retry the writes waiting for it; true if some still wait. */
    bool (*space_freed)(void *ctx);
    /* GC moved logical unit lpn (data, not a translation unit). */
    void (*relocated)(void *ctx, uint32_t lpn);
    /* A job erased its block (fold: an SLC fold, else GC). */
    void (*reclaimed)(void *ctx, bool fold);
    void *ctx;
} reclaim_hooks;

typedef struct reclaim {
    sim *s;
    const ssd_params *p;
    ftl *f;
    flash *fl;
    progunits *pu;
    datapath *dp;
    reclaim_die *dies;
    uint32_t fold_cursor; /* the die whose turn it is to fold next */
    bool idle;            /* the host is idle: background work may run */
    sim_handler_id on_background;
    reclaim_hooks hooks;
    /* read reclaim and refresh: blocks moved and units they held, by reason */
    uint64_t media_jobs[MEDIA_REASONS], media_moved[MEDIA_REASONS];
} reclaim;

int reclaim_init(reclaim *r, sim *s, ftl *f, flash *fl, progunits *pu, datapath *dp);
void reclaim_free(reclaim *r);
void reclaim_set_hooks(reclaim *r, const reclaim_hooks *h);

/* A die just took units: collect if it is down to the GC threshold. */
void reclaim_after_alloc(reclaim *r, uint32_t die);
/* Foreground folding: the cache is full and writes wait for it. Returns
 * false when no die holds SLC data to fold (then writes go to native
 * blocks instead of waiting). */
bool reclaim_start_folds(reclaim *r);
/* The media layer found a block due for reclaim or refresh (wired as its
 * flash_blocks.due): it is moved when its die has no other job, GC for
 * free space first. False if it is not a closed block or the die holds
 * enough already (the next read tells again). */
bool reclaim_due_block(void *ctx, uint32_t block, int reason);
/* The host fell idle (background work starts on every die), or is busy. */
void reclaim_idle(reclaim *r);
static inline void reclaim_busy(reclaim *r) { r->idle = false; }

/* Completions of its flash transactions (wired at assembly). */
void reclaim_read_done(void *ctx, txn *t);
void reclaim_erase_done(void *ctx, txn *t);

#endif
