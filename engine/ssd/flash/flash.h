/* The flash layer: transactions on NAND dies and their channels.
 *
 * A transaction (txn) is one array operation on one die: a page read, a
 * program unit, a block erase. The layers above create them, say what
 * each is for (its kind), and submit them; the flash layer queues them per
 * die, picks what a free die starts (the scheduler), suspends programs and
 * erases for reads, times the array and the channel bus, retries reads
 * that fail ECC, and hands each finished transaction to the completion
 * callback its kind was wired to at assembly. It never names its callers.
 *
 * Invariant: the owner of a finished transaction frees it
 * (flash_txn_free) in its completion callback. */
#ifndef SSDLAB_FLASH_H
#define SSDLAB_FLASH_H

#include <stdbool.h>
#include <stdint.h>

#include <gsl/gsl_rng.h>

#include "params.h"
#include "datapath.h"
#include "media.h"
#include "power.h"
#include "schedulers.h"
#include "txn.h"
#include "sim.h"
#include "ssdlab.h"

typedef void (*flash_done_fn)(void *ctx, txn *t);

/* What the flash layer asks of whoever owns the blocks' state: whether a
 * block runs in SLC mode, and how often it has been erased (read retry
 * rises with wear). Asked when an operation starts or a read finishes. */
typedef struct flash_blocks {
    bool (*slc)(void *ctx, uint32_t block);
    uint32_t (*erase_count)(void *ctx, uint32_t block);
    void *ctx;
    /* rber model: a read found the block due for reclaim or refresh
     * (media_reason); true if the firmware took it (it is not told again
     * until the block's next erase). NULL: no reactions. */
    bool (*due)(void *ctx, uint32_t block, int reason);
    void *due_ctx;
} flash_blocks;

/* Called on die activity once the simulated time has reached *due (a time
 * the watcher keeps): lets a sampler (the time series) close its intervals
 * on time without events of its own. */
typedef void (*flash_watch_fn)(void *ctx);

typedef struct flash_die {
    flash_queues q;
    sim_time_t busy_until; /* the die holds data in its register until then */
    bool busy;             /* an operation (or a deferred start) is under way */
    sim_time_t busy_ns;    /* time with an operation or a transfer under way */
    sim_time_t busy_mark;  /* busy_ns counts time up to here */
    uint64_t reads, programs, erases;
    txn *active; /* the program or erase under way, for suspension */
    sim_event active_event;
    sim_time_t active_end;
    txn *suspended;
    sim_time_t suspended_left;
} flash_die;

/* Reads by what ECC made of them (rber model): [i] corrected after i
 * ladder steps (0: at once), then after a soft read, then not at all. */
enum { ECC_OUTCOMES = MEDIA_MAX_RETRY_STEPS + 3 };
static inline uint32_t ecc_outcome_soft(const ssd_params *p) { return p->media.retry_steps + 1; }
static inline uint32_t ecc_outcome_failed(const ssd_params *p) { return p->media.retry_steps + 2; }

typedef struct flash_counters {
    uint64_t reads, programs, read_retries, suspends;
    uint64_t slc_units_read; /* host data read from SLC-mode blocks */
    uint64_t soft_reads, uncorrectable;
    uint64_t ecc_outcomes[ECC_OUTCOMES];
} flash_counters;

typedef struct flash {
    sim *s;
    const ssd_params *p;
    power_model *power;
    datapath *dp;
    gsl_rng *ecc_rng;
    flash_die *dies;
    sim_time_t *channel_free;
    uint32_t *programmed; /* per block: units whose program completed */
    /* per block, a bit: every unit programmed. A read asks it first: at
     * 2 TiB `programmed` (700 KB) misses the core's cache, the bits
     * (21 KB) do not, and nearly every block read is full. */
    uint64_t *full;
    /* per unit of a block, its page type (params_page_type), and each
     * die's channel: an operation's time and transfer cost no division */
    uint8_t *page_type;
    divider channel_of_die;
    /* A transfer of n units: its bytes on the channel and its time there,
     * for n up to bus_units (a page's soft reads, a program unit). Worked
     * out per transfer, their two divisions took about a third of
     * channel_transfer's samples in the DRAM-less steady write (perf). */
    uint64_t *bus_bytes;
    sim_time_t *bus_time;
    uint32_t bus_units;
    uint64_t seq;
    txn *free_txns;
    txn **slabs;
    size_t slab_count, txn_count;
    sim_handler_id on_read_sensed, on_read_ready, on_program_done, on_erase_done, on_die_free;
    struct {
        flash_done_fn fn;
        void *ctx;
    } done[TX_KINDS];
    flash_blocks blocks;
    flash_pick_view view; /* what the schedulers see: the service times, set once; the time, at each pick */
    flash_watch_fn watch;
    void *watch_ctx;
    const sim_time_t *watch_due;
    flash_counters n;
    uint32_t programs_pending; /* submitted, not yet done */
    media med; /* bit errors per block (rber model) */
} flash;

int flash_init(flash *fl, sim *s, const ssd_params *p, power_model *power, datapath *dp, gsl_rng *ecc_rng);
void flash_free(flash *fl);
/* Wiring, once at assembly. */
void flash_on_done(flash *fl, flash_kind kind, flash_done_fn fn, void *ctx);
void flash_set_blocks(flash *fl, const flash_blocks *b);
void flash_set_watch(flash *fl, flash_watch_fn fn, void *ctx, const sim_time_t *due);

txn *flash_txn(flash *fl, flash_kind kind, uint32_t die, uint32_t ppa, uint32_t units);
void flash_txn_free(flash *fl, txn *t);
void flash_submit(flash *fl, txn *t);

/* Whether the unit at ppa has been programmed (else its data is still in
 * the controller's buffer, or it was never written). */
static inline bool flash_programmed(const flash *fl, uint32_t ppa)
{
    uint32_t block = divide(fl->p->block_of_unit, ppa);
    if (fl->full[block >> 6] >> (block & 63) & 1) return true;
    return ppa - block * fl->p->units_per_block < fl->programmed[block];
}
/* The block holds `units` programmed units: the preconditioning's, or
 * where a program or an erase left it. */
static inline void flash_set_programmed(flash *fl, uint32_t block, uint32_t units)
{
    fl->programmed[block] = units;
    uint64_t bit = UINT64_C(1) << (block & 63);
    if (units == fl->p->units_per_block) fl->full[block >> 6] |= bit;
    else fl->full[block >> 6] &= ~bit;
}
/* After the fast path: the media state of a block erased `erases` times
 * that holds `units` programmed units (media_sync). */
static inline void flash_sync_media(flash *fl, uint32_t block, uint32_t erases, uint32_t units)
{
    media_sync(&fl->med, block, erases, units > 0, sim_now(fl->s));
}

/* Memory a die's state takes (for the drive's estimate). */
size_t flash_die_bytes(void);

#endif
