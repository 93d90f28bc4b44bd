#include "ftl.h"

#include "bigmem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- set-up ---------------------------------------------------------------- */

static uint32_t die_at(const ftl *f, uint32_t k);

int ftl_init(ftl *f, const ssd_params *p, gsl_rng *rng)
{
    memset(f, 0, sizeof *f);
    f->p = p;
    f->rng = rng;
    f->host_die = die_at(f, 0);
    size_t nblocks = (size_t)p->dies * p->blocks_per_die;
    f->l2p = bigmem_alloc(p->l2p_units * sizeof *f->l2p);
    uint64_t table = p->l2p_units * sizeof *f->l2p;
    f->warm = p->warm_tables == WARM_ON || (p->warm_tables == WARM_AUTO && table > FTL_WARM_TABLE);
    f->blocks = calloc(nblocks, sizeof *f->blocks);
    f->slc_bits = calloc((nblocks + 63) / 64, sizeof *f->slc_bits);
    f->dies = calloc(p->dies, sizeof *f->dies);
    f->cover = malloc(nblocks * sizeof *f->cover);
    f->ranked = malloc(nblocks * sizeof *f->ranked);
    f->move_list = malloc((size_t)p->units_per_block * sizeof *f->move_list);
    f->moved_runs = malloc((size_t)p->units_per_block * sizeof *f->moved_runs);
    if (!f->l2p || !f->blocks || !f->slc_bits || !f->dies || !f->cover || !f->ranked || !f->move_list || !f->moved_runs ||
        revmap_init(&f->rm, (uint32_t)nblocks, p->units_per_block, ftl_reverse_map_slots(p))) {
        ftl_free(f);
        return -1;
    }
    /* the fill's program units go to the dies in turn (ftl_write_now_range) */
    revmap_seq_init(&f->rm, p->units_per_program, p->dies * p->units_per_program, p->dies);
    for (uint32_t d = 0; d < p->dies; d++) {
        ftl_die *die = &f->dies[d];
        die->free = malloc(p->blocks_per_die * sizeof *die->free);
        if (!die->free) {
            ftl_free(f);
            return -1;
        }
        for (uint32_t b = 0; b < params_conventional_blocks(p); b++) die->free[die->free_count++] = d * p->blocks_per_die + b;
        for (uint32_t b = params_conventional_blocks(p); b < p->blocks_per_die; b++)
            f->blocks[d * p->blocks_per_die + b].state = BLOCK_ZONE;
        for (int s = 0; s < STREAM_COUNT; s++) die->open[s] = FTL_NONE;
    }
    return 0;
}

void ftl_free(ftl *f)
{
    if (f->dies)
        for (uint32_t d = 0; d < f->p->dies; d++) free(f->dies[d].free);
    free(f->dies);
    free(f->blocks);
    free(f->slc_bits);
    free(f->move_list);
    free(f->moved_runs);
    bigmem_free(f->l2p, f->p->l2p_units * sizeof *f->l2p);
    revmap_free(&f->rm);
    free(f->cover);
    free(f->ranked);
    free(f->version_of_physical);
    free(f->latest_version);
    free(f->map_loc);
    retire_free(&f->ret);
    memset(f, 0, sizeof *f);
}

int ftl_enable_versions(ftl *f)
{
    f->version_of_physical = calloc(f->p->physical_units, sizeof *f->version_of_physical);
    f->latest_version = calloc(f->p->l2p_units, sizeof *f->latest_version);
    return f->version_of_physical && f->latest_version ? 0 : -1;
}

void ftl_warm(const ftl *f, const uint32_t *lpns, uint32_t n)
{
    uint32_t seen = 0;
    if (n > FTL_WARM_MAX) n = FTL_WARM_MAX;
    /* Loads, not prefetches: with prefetches in the batch, the stall moved
     * to the read's lookup itself (perf, 2 TiB read); loads stay in flight
     * together. */
    for (uint32_t i = 0; i < n; i++)
        if (lpns[i] < f->p->l2p_units) seen += f->l2p[lpns[i]];
    __asm__ volatile("" : : "r"(seen)); /* keeps the loads */
}

void ftl_warm_old(const ftl *f, const uint32_t *lpns, uint32_t n)
{
    uint64_t seen = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (lpns[i] >= f->p->l2p_units) continue;
        uint32_t ppa = ftl_entry(f, lpns[i]);
        if (ppa == FTL_NONE) continue;
        seen += f->rm.valid[ppa >> 6] + f->blocks[ftl_block_of(f, ppa)].valid;
    }
    __asm__ volatile("" : : "r"(seen)); /* keeps the loads */
}

void ftl_fetch_entries(const ftl *f, const uint32_t *lpns, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if (lpns[i] < f->p->l2p_units) __builtin_prefetch(&f->l2p[lpns[i]], 1);
}

void ftl_fetch_old(const ftl *f, const uint32_t *lpns, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        if (lpns[i] >= f->p->l2p_units) continue;
        uint32_t ppa = ftl_entry(f, lpns[i]);
        if (ppa == FTL_NONE) continue;
        __builtin_prefetch(&f->rm.valid[ppa >> 6], 1);
        __builtin_prefetch(&f->blocks[ftl_block_of(f, ppa)].valid, 1);
    }
}

/* --- allocation ---------------------------------------------------------- */

/* Write allocation orders (ftl.alloc_order): the die that takes the k-th
 * program unit of a stripe. Dies are numbered channel by channel. To add
 * one: a function here and an entry in ftl_alloc_orders. */
static uint32_t order_channel_first(const ssd_params *p, uint32_t k)
{
    return (k % p->channels) * p->dies_per_channel + k / p->channels;
}

static uint32_t order_die_first(const ssd_params *p, uint32_t k)
{
    (void)p;
    return k;
}

const ftl_alloc_order ftl_alloc_orders[] = {
    {"channel-first", "consecutive program units on different channels, then the next die of each", order_channel_first},
    {"die-first", "the dies of a channel first, then the next channel", order_die_first},
    {NULL, NULL, NULL},
};

static uint32_t die_at(const ftl *f, uint32_t k) { return ftl_alloc_orders[f->p->order].die_at(f->p, k); }

static bool open_has_room(const ftl *f, uint32_t die, ftl_stream s)
{
    uint32_t b = f->dies[die].open[s];
    return b != FTL_NONE && f->blocks[b].write_ptr < ftl_capacity(f, b);
}

/* Blocks the die's SLC cache may hold now. A dynamic cache takes a share of
 * the free blocks beyond the GC threshold, so it shrinks as the drive fills. */
static uint32_t slc_limit(const ftl *f, uint32_t die)
{
    const ssd_params *p = f->p;
    if (p->slc == SLC_STATIC) return p->slc_blocks_per_die;
    if (p->slc == SLC_NONE) return 0;
    const ftl_die *d = &f->dies[die];
    uint32_t free_blocks = ftl_free_blocks(f, die);
    uint32_t spare = free_blocks > p->gc_threshold ? free_blocks - p->gc_threshold : 0;
    uint32_t dynamic = (uint32_t)(p->slc_dynamic_share * (double)(spare + d->slc_blocks));
    return dynamic < p->slc_blocks_per_die ? dynamic : p->slc_blocks_per_die;
}

bool ftl_slc_room(const ftl *f, uint32_t die)
{
    if (open_has_room(f, die, STREAM_SLC)) return true;
    /* A static cache's blocks are its own; a dynamic one leaves GC its reserve. */
    if (f->p->slc == SLC_STATIC) return f->dies[die].slc_blocks < slc_limit(f, die) && f->dies[die].free_count > 0;
    return f->dies[die].slc_blocks < slc_limit(f, die) && ftl_free_blocks(f, die) > f->p->gc_reserve;
}

bool ftl_can_alloc(const ftl *f, uint32_t die, ftl_stream s)
{
    if (s == STREAM_SLC) return ftl_slc_room(f, die);
    if (open_has_room(f, die, s)) return true;
    /* Only GC may take the reserve it needs to make progress; a static SLC
     * cache's blocks are spoken for, whether or not they hold data now. */
    uint32_t keep = ftl_stream_is_gc(s) ? 0 : f->p->gc_reserve;
    return ftl_free_blocks(f, die) > keep;
}

bool ftl_takes_host(const ftl *f, uint32_t die)
{
    const ftl_die *d = &f->dies[die];
    return !d->collecting || (double)d->burst_host < f->p->gc_burst_host_share * (double)d->burst_gc;
}

uint32_t ftl_host_die(ftl *f, ftl_stream s)
{
    for (uint32_t tries = 0; tries < f->p->dies; tries++) {
        uint32_t die = f->host_die;
        if (ftl_takes_host(f, die) && ftl_can_alloc(f, die, s)) return die;
        ftl_advance_host_die(f);
    }
    return FTL_NONE;
}

void ftl_burst_begin(ftl *f, uint32_t die)
{
    ftl_die *d = &f->dies[die];
    d->collecting = true;
    d->burst_host = d->burst_gc = 0;
    d->burst_victims = 0;
}

void ftl_advance_host_die(ftl *f)
{
    f->host_die_cursor = (f->host_die_cursor + 1) % f->p->dies;
    f->host_die = die_at(f, f->host_die_cursor);
}

uint32_t ftl_slc_die(ftl *f)
{
    for (uint32_t tries = 0; tries < f->p->dies; tries++) {
        uint32_t die = f->host_die;
        if (ftl_takes_host(f, die) && ftl_slc_room(f, die)) return die;
        ftl_advance_host_die(f);
    }
    return FTL_NONE;
}

static void set_block_slc(ftl *f, uint32_t block, bool slc)
{
    uint64_t bit = UINT64_C(1) << (block & 63);
    if (slc) f->slc_bits[block >> 6] |= bit;
    else f->slc_bits[block >> 6] &= ~bit;
}

/* The free block with the fewest erases (dynamic wear levelling); the
 * lowest id among equals, so that layouts are easy to predict. */
static uint32_t take_free_block(ftl *f, uint32_t die)
{
    ftl_die *d = &f->dies[die];
    uint32_t best = 0;
    for (uint32_t i = 1; i < d->free_count; i++) {
        uint32_t a = f->blocks[d->free[i]].erase_count, b = f->blocks[d->free[best]].erase_count;
        if (a < b || (a == b && d->free[i] < d->free[best])) best = i;
    }
    uint32_t b = d->free[best];
    d->free[best] = d->free[--d->free_count];
    return b;
}

/* A full block closes at once: it becomes a candidate for GC or folding
 * without waiting for the stream's next block. */
void ftl_close_block(ftl *f, uint32_t die, ftl_stream s)
{
    ftl_die *d = &f->dies[die];
    uint32_t b = d->open[s];
    f->blocks[b].state = BLOCK_CLOSED;
    f->blocks[b].closed_at = f->units_written[STREAM_HOST] + f->units_written[STREAM_GC];
    d->open[s] = FTL_NONE;
}

static void close_if_full(ftl *f, uint32_t die, ftl_stream s)
{
    uint32_t b = f->dies[die].open[s];
    if (f->blocks[b].write_ptr >= ftl_capacity(f, b)) ftl_close_block(f, die, s);
}

uint32_t ftl_open_block(ftl *f, uint32_t die, ftl_stream s)
{
    ftl_die *d = &f->dies[die];
    if (open_has_room(f, die, s)) return d->open[s];
    if (!ftl_can_alloc(f, die, s)) return FTL_NONE;
    uint32_t b = take_free_block(f, die);
    /* A block of translation units takes a slot too: filling its row when
     * GC picks it is a pass over their whole table (ftl_cover), and GC
     * picks such blocks often. */
    f->blocks[b].map_only = s == STREAM_MAP || s == STREAM_MAP_GC;
    revmap_take_opened(&f->rm, b);
    f->blocks[b].state = BLOCK_OPEN;
    set_block_slc(f, b, s == STREAM_SLC);
    f->blocks[b].handle = s >= STREAM_FDP_GC ? (uint8_t)(s - STREAM_FDP_GC)
                        : s >= STREAM_FDP    ? (uint8_t)(s - STREAM_FDP + 1)
                        : s == STREAM_HOST   ? 0
                                             : FTL_MIXED_HANDLE;
    d->slc_blocks += s == STREAM_SLC;
    d->open[s] = b;
    return b;
}

uint32_t ftl_alloc_run(ftl *f, uint32_t die, ftl_stream s, uint32_t want, uint32_t *got)
{
    uint32_t first = ftl_alloc(f, die, s);
    *got = 0;
    if (first == FTL_NONE) return FTL_NONE;
    uint32_t pu = ftl_program_units(f, ftl_block_of(f, first));
    uint32_t room = pu - ftl_offset_of(f, first) % pu;
    uint32_t n = want < room ? want : room;
    uint32_t b = ftl_block_of(f, first);
    if (n > 1) {
        /* ftl_alloc closed the block if `first` filled it, which a program
         * unit boundary rules out here: the run stays in the open block. */
        f->blocks[b].write_ptr += n - 1;
        close_if_full(f, die, s);
    }
    *got = n;
    return first;
}

/* --- mapping ------------------------------------------------------------- */

int ftl_enable_map_units(ftl *f, uint32_t n)
{
    f->map_loc = malloc((size_t)n * sizeof *f->map_loc);
    if (!f->map_loc) return -1;
    memset(f->map_loc, 0xff, (size_t)n * sizeof *f->map_loc);
    f->map_units = n;
    return 0;
}

void ftl_map_unit(ftl *f, uint32_t tu, uint32_t ppa, bool relocated)
{
    uint32_t old = f->map_loc[tu];
    if (old != FTL_NONE) ftl_invalidate(f, old);
    f->map_loc[tu] = ppa;
    uint32_t block = ftl_block_of(f, ppa);
    revmap_set(&f->rm, ppa, block, FTL_MAP_BIT | tu);
    f->blocks[block].valid++;
    f->units_written[relocated ? STREAM_GC : STREAM_MAP]++;
}

/* A valid unit's entry names it, so its old place is `from`: the entry is
 * only stored, not read. At full size the read was a miss that GC's read
 * completion waited for; a store does not hold the core up. */
void ftl_relocate(ftl *f, uint32_t from, uint32_t what, uint32_t to)
{
    f->units_folded += ftl_block_slc(f, ftl_block_of(f, from)); /* out of the SLC cache: a fold */
    if (what & FTL_MAP_BIT) {
        ftl_map_unit(f, what & ~FTL_MAP_BIT, to, true);
        return;
    }
    ftl_invalidate(f, from);
    ftl_place(f, what, to, STREAM_GC);
    if (f->version_of_physical) f->version_of_physical[to] = f->version_of_physical[from];
}

void ftl_trim(ftl *f, uint32_t lpn)
{
    uint32_t old = ftl_entry(f, lpn);
    if (old == FTL_NONE) return;
    ftl_invalidate(f, old);
    ftl_set_entry(f, lpn, FTL_NONE);
    f->mapped--;
}

/* --- garbage collection -------------------------------------------------- */

/* GC collects native blocks; SLC blocks are emptied by folding. */
static bool collectable(const ftl *f, uint32_t b)
{
    return f->blocks[b].state == BLOCK_CLOSED && !ftl_block_slc(f, b) && f->blocks[b].valid < f->p->units_per_block;
}

/* Where a block's valid count is heading: its count less its invalidations
 * so far per unit written since it closed, carried on over the horizon
 * (the units written while the last cover lasted). Hot data empties a
 * block that was full at the last refill; ranking by the count alone
 * missed such blocks, and the refills came every few dozen victims. */
static double fewest_valid_ahead(const ftl *f, uint32_t b, double now)
{
    double valid = f->blocks[b].valid, U = f->p->units_per_block;
    return valid - (U - valid) * f->cover_horizon / (now - (double)f->blocks[b].closed_at + U);
}
static double oldest(const ftl *f, uint32_t b, double now) { return (void)now, (double)f->blocks[b].closed_at; }
static double least_worn(const ftl *f, uint32_t b, double now) { return (void)now, (double)f->blocks[b].erase_count; }

/* Rosenblum and Ousterhout's cost-benefit (LFS, 1992): free space gained
 * times age, over the cost of reading and rewriting the valid part; the
 * best is the highest, so its cost is the negative. */
static double cost_benefit(const ftl *f, uint32_t b, double now)
{
    double u = (double)f->blocks[b].valid / f->p->units_per_block;
    return -((1 - u) * (now - (double)f->blocks[b].closed_at + 1) / (1 + u));
}

/* Every victim scan: the die's block of lowest cost among those eligible,
 * the first found among equals; FTL_NONE if none is. Inline, so each
 * caller's tests are compiled into its own loop. */
static inline uint32_t scan_die(const ftl *f, uint32_t die, bool (*eligible)(const ftl *, uint32_t),
                                double (*cost)(const ftl *, uint32_t, double), double now)
{
    uint32_t first = die * f->p->blocks_per_die, best = FTL_NONE;
    double best_cost = 0;
    for (uint32_t b = first; b < first + params_conventional_blocks(f->p); b++) {
        if (!eligible(f, b)) continue;
        double c = cost(f, b, now);
        if (best == FTL_NONE || c < best_cost) {
            best = b;
            best_cost = c;
        }
    }
    return best;
}

/* scan_die over collectable blocks with a block's valid count for its
 * cost, in whole numbers and the count compared before the other tests:
 * a victim is picked for every block GC frees, and the scan reads every
 * block of the die. */
static uint32_t pick_greedy(ftl *f, uint32_t die)
{
    uint32_t first = die * f->p->blocks_per_die, end = first + params_conventional_blocks(f->p);
    uint32_t best = FTL_NONE, best_valid = f->p->units_per_block; /* collectable: fewer valid than this */
    for (uint32_t b = first; b < end; b++) {
        const ftl_block *blk = &f->blocks[b];
        if (blk->valid < best_valid && blk->state == BLOCK_CLOSED && !ftl_block_slc(f, b)) {
            best = b;
            best_valid = blk->valid;
        }
    }
    return best;
}
static uint32_t pick_fifo(ftl *f, uint32_t die) { return scan_die(f, die, collectable, oldest, 0); }

static uint32_t pick_cost_benefit(ftl *f, uint32_t die)
{
    uint64_t now = f->units_written[STREAM_HOST] + f->units_written[STREAM_GC];
    return scan_die(f, die, collectable, cost_benefit, (double)now);
}

/* Samples d blocks of the die; the least valid collectable one wins (Van
 * Houdt 2013). random is d-choices with d = 1. */
static uint32_t pick_sampled(ftl *f, uint32_t die, uint32_t d)
{
    uint32_t first = die * f->p->blocks_per_die, best = FTL_NONE;
    uint32_t found = 0;
    /* Bounded tries: a die with few closed blocks falls back to greedy. */
    for (uint32_t tries = 0; found < d && tries < 16 * d; tries++) {
        uint32_t b = first + (uint32_t)gsl_rng_uniform_int(f->rng, params_conventional_blocks(f->p));
        if (!collectable(f, b)) continue;
        found++;
        if (best == FTL_NONE || f->blocks[b].valid < f->blocks[best].valid) best = b;
    }
    return best != FTL_NONE ? best : pick_greedy(f, die);
}

static uint32_t pick_random(ftl *f, uint32_t die) { return pick_sampled(f, die, 1); }
static uint32_t pick_d_choices(ftl *f, uint32_t die) { return pick_sampled(f, die, f->p->gc_d); }

/* Victim policies, selected by name (ftl.gc.policy, whose choices are these
 * names). To add one: a function and an entry here (docs/extending.md). */
const ftl_gc_policy ftl_gc_policies[] = {
    {"greedy", "the block with the fewest valid units", pick_greedy, fewest_valid_ahead},
    {"cost-benefit", "free space gained times age over the cost of moving the rest (Rosenblum and Ousterhout)",
     pick_cost_benefit, cost_benefit},
    {"random", "a collectable block drawn at random", pick_random, NULL},
    {"fifo", "the block closed first", pick_fifo, oldest},
    {"d-choices", "the least valid of ftl.gc.d sampled blocks (Van Houdt)", pick_d_choices, NULL},
    {NULL, NULL, NULL, NULL},
};

/* A victim's units are about to be moved: the reverse map must say what
 * they hold. */
static uint32_t mark_victim(ftl *f, uint32_t b)
{
    if (b == FTL_NONE) return b;
    f->victims_picked++;
    f->blocks[b].state = BLOCK_VICTIM;
    ftl_cover(f, b);
    return b;
}

uint32_t ftl_pick_victim(ftl *f, uint32_t die) { return mark_victim(f, ftl_gc_policies[f->p->gc_policy].pick(f, die)); }
uint32_t ftl_pick_fold_victim(ftl *f, uint32_t die) { return mark_victim(f, scan_die(f, die, ftl_closed_slc, oldest, 0)); }
uint32_t ftl_claim_victim(ftl *f, uint32_t block) { return mark_victim(f, block); }

uint32_t ftl_slc_closed(const ftl *f, uint32_t die)
{
    const ftl_die *d = &f->dies[die];
    uint32_t open = d->open[STREAM_SLC] != FTL_NONE;
    return d->slc_blocks - open;
}

void ftl_erase(ftl *f, uint32_t block)
{
    ftl_block *b = &f->blocks[block];
    if (ftl_block_slc(f, block)) f->dies[ftl_die_of_block(f, block)].slc_blocks--;
    set_block_slc(f, block, false);
    b->state = BLOCK_FREE;
    b->write_ptr = 0;
    b->erase_count++;
    f->erases++;
    revmap_drop(&f->rm, block);
    revmap_seq_forget(&f->rm, block);
    ftl_die *d = &f->dies[ftl_die_of_block(f, block)];
    if (retire_due(&f->ret, block, b->erase_count)) {
        if (d->retired < f->ret.spare_blocks) {
            b->state = BLOCK_RETIRED;
            d->retired++;
            f->retired++;
            return;
        }
        f->worn_erases++;
    }
    d->free[d->free_count++] = block;
}

/* Static wear levelling: when a die's erase counts spread by more than
 * ftl.wear_leveling_spread, its least-worn closed block (cold data that GC
 * never picks) is moved, so the block goes back into circulation. */
uint32_t ftl_wear_victim(ftl *f, uint32_t die)
{
    uint32_t spread = f->p->wear_leveling_spread;
    if (!spread) return FTL_NONE;
    uint32_t coldest = scan_die(f, die, ftl_closed_native, least_worn, 0);
    if (coldest == FTL_NONE) return FTL_NONE;
    uint32_t first = die * f->p->blocks_per_die, most = 0;
    for (uint32_t b = first; b < first + f->p->blocks_per_die; b++)
        if (f->blocks[b].erase_count > most) most = f->blocks[b].erase_count;
    if (most - f->blocks[coldest].erase_count <= spread) return FTL_NONE;
    return mark_victim(f, coldest);
}

/* --- integrity ----------------------------------------------------------- */

void ftl_close_partial_units(ftl *f, void (*written)(void *ctx, uint32_t block, uint32_t units), void *ctx)
{
    for (uint32_t die = 0; die < f->p->dies; die++)
        for (int s = 0; s < STREAM_COUNT; s++) {
            uint32_t b = f->dies[die].open[s];
            if (b == FTL_NONE) continue;
            uint32_t wp = f->blocks[b].write_ptr, pu = f->p->units_per_program;
            f->blocks[b].write_ptr = (wp + pu - 1) / pu * pu;
            written(ctx, b, f->blocks[b].write_ptr);
        }
}

/* A mapping entry (lpn, or FTL_MAP_BIT | tu) points at ppa: the unit must
 * be valid and, where the reverse map covers its block, say so; counted
 * into refs[block]. */
static int check_entry(const ftl *f, uint32_t what, uint32_t ppa, uint32_t *refs, char *err, size_t errlen)
{
    const char *kind = what & FTL_MAP_BIT ? "translation" : "logical";
    uint32_t n = what & ~FTL_MAP_BIT;
    if (ppa >= f->p->physical_units || !ftl_valid(f, ppa))
        return snprintf(err, errlen, "%s unit %u maps to physical unit %u, which holds no valid data", kind, n, ppa), -1;
    uint32_t block = ftl_block_of(f, ppa);
    if (f->blocks[block].map_only != !!(what & FTL_MAP_BIT)) /* each kind in blocks of its own (ftl_gc_stream) */
        return snprintf(err, errlen, "%s unit %u is in block %u, which holds %s units", kind, n, block,
                        f->blocks[block].map_only ? "translation" : "logical"), -1;
    if (revmap_covers(&f->rm, block) && ftl_holds(f, ppa) != what)
        return snprintf(err, errlen, "%s unit %u maps to physical unit %u, whose reverse map says %u", kind, n, ppa,
                        ftl_holds(f, ppa)), -1;
    refs[block]++;
    return 0;
}

int ftl_check(const ftl *f, char *err, size_t errlen)
{
    const ssd_params *p = f->p;
    const uint32_t U = p->units_per_block;
    uint32_t *refs = f->cover; /* scratch: mapping entries into each block */
    memset(refs, 0, f->rm.blocks * sizeof *refs);
    uint64_t mapped = 0;
    for (uint64_t lpn = 0; lpn < p->l2p_units; lpn++) {
        uint32_t ppa = ftl_entry(f, (uint32_t)lpn);
        if (ppa == FTL_NONE) continue;
        mapped++;
        if (check_entry(f, (uint32_t)lpn, ppa, refs, err, errlen)) return -1;
        if (f->version_of_physical && f->version_of_physical[ppa] != f->latest_version[lpn])
            return snprintf(err, errlen, "logical unit %llu maps to version %llu, its latest write is %llu",
                            (unsigned long long)lpn, (unsigned long long)f->version_of_physical[ppa],
                            (unsigned long long)f->latest_version[lpn]), -1;
    }
    for (uint32_t tu = 0; tu < f->map_units; tu++)
        if (f->map_loc[tu] != FTL_NONE && check_entry(f, FTL_MAP_BIT | tu, f->map_loc[tu], refs, err, errlen)) return -1;
    if (mapped != f->mapped)
        return snprintf(err, errlen, "%llu logical units are mapped, the count says %llu", (unsigned long long)mapped,
                        (unsigned long long)f->mapped), -1;
    for (uint32_t b = 0; b < f->rm.blocks; b++) {
        const ftl_block *blk = &f->blocks[b];
        uint32_t valid = 0;
        for (uint32_t off = 0; off < U; off++) {
            if (!ftl_valid(f, b * U + off)) continue;
            if (off >= blk->write_ptr)
                return snprintf(err, errlen, "block %u holds data at offset %u, past its write pointer %u", b, off,
                                blk->write_ptr), -1;
            valid++;
        }
        if (valid != blk->valid || refs[b] != valid)
            return snprintf(err, errlen, "block %u counts %u valid units, holds %u, and %u mapping entries point into it",
                            b, blk->valid, valid, refs[b]), -1;
        if (blk->state == BLOCK_FREE && blk->write_ptr)
            return snprintf(err, errlen, "free block %u has write pointer %u", b, blk->write_ptr), -1;
        if (blk->write_ptr > ftl_capacity(f, b))
            return snprintf(err, errlen, "block %u has write pointer %u past its capacity %u", b, blk->write_ptr,
                            ftl_capacity(f, b)), -1;
    }
    for (uint32_t d = 0; d < p->dies; d++)
        for (uint32_t i = 0; i < f->dies[d].free_count; i++)
            if (f->blocks[f->dies[d].free[i]].state != BLOCK_FREE)
                return snprintf(err, errlen, "die %u lists block %u as free, its state is %u", d, f->dies[d].free[i],
                                f->blocks[f->dies[d].free[i]].state), -1;
    return 0;
}
