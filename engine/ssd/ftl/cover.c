/* The reverse map's cover (revmap.h): which blocks the FTL asks it to
 * cover when GC picks a block outside it, so that the next victims are
 * inside; and the blocks of translation units alone, which take a slot
 * when opened as any block does and, once a refill has dropped them, are
 * covered one at a time from their own small table. Which blocks are
 * covered never changes a result, only how often the mapping table is
 * scanned. */
#include "ftl.h"

#include <math.h>
#include <stdlib.h>

uint32_t ftl_reverse_map_slots(const ssd_params *p)
{
    uint64_t blocks = (uint64_t)p->dies * p->blocks_per_die;
    /* A policy that may pick any block needs them all covered. */
    if (!ftl_gc_policies[p->gc_policy].cost) return (uint32_t)blocks;
    uint64_t slots = (uint64_t)ceil(p->reverse_map_share * (double)blocks);
    /* Room for each die's victim under way, the block asked for, and some
     * to choose. */
    uint64_t least = 2 * (uint64_t)p->dies + 2;
    if (slots < least) slots = least;
    return (uint32_t)(slots < blocks ? slots : blocks);
}

/* A covered block closed so lately that its count has not yet shown where
 * it is heading: within the units written while a thirty-second of the
 * slots' worth of victims are picked. Such a block stays covered, as an
 * open one does. Dropped while its count was still full, a block that
 * then empties fast (on a DRAM-less drive, one GC filled with translation
 * units) was picked a few dozen victims later, and each refill dropped
 * the next such block: the 1 TiB DRAM-less steady write made 299 refills
 * in 20 M writes, 2 with these kept (docs/ssd-model.md). A sixteenth's
 * worth kept took more from the ranking under skewed writes (test_ftl). */
static bool kept_young(const ftl *f, uint32_t b, double now)
{
    double young = f->units_per_victim * (f->rm.slots / 32);
    return ftl_closed_native(f, b) && !f->blocks[b].map_only && revmap_covers(&f->rm, b) &&
           now - (double)f->blocks[b].closed_at < young;
}

static int by_cost(const void *x, const void *y)
{
    const ftl_ranked *a = x, *b = y;
    if (a->cost != b->cost) return a->cost < b->cost ? -1 : 1;
    return (a->block > b->block) - (a->block < b->block);
}

/* The closed native blocks of data into f->ranked, lowest cost first;
 * returns how many. Blocks of translation units alone are left out: one
 * without a slot is covered when picked, from their own table (ftl_cover). */
static uint32_t rank_closed(ftl *f, double (*cost)(const ftl *, uint32_t, double), double now)
{
    uint32_t n = 0;
    for (uint32_t b = 0; b < f->rm.blocks; b++)
        if (ftl_closed_native(f, b) && !f->blocks[b].map_only && !revmap_is_seq(&f->rm, b) && !kept_young(f, b, now))
            f->ranked[n++] = (ftl_ranked){cost(f, b, now), b};
    qsort(f->ranked, n, sizeof *f->ranked, by_cost);
    return n;
}

/* Fills f->cover, within fifteen sixteenths of the slots, with `block`, the
 * victims whose moves are under way, the open blocks that record their
 * units, the closed SLC blocks (folding takes them oldest first), the
 * covered blocks closed lately (kept_young), then the closed blocks the
 * victim policy would pick next, as many of each die (GC picks per die,
 * and the first die to pick outside calls the next refill), and what room
 * is left by wear when static wear levelling may pick the least worn (an
 * eighth), else by the policy again; returns how many. */
static uint32_t choose_cover(ftl *f, uint32_t block)
{
    /* A sixteenth stays free for the blocks opened next: hot data (and a
     * DRAM-less drive's translation units) empties blocks soon after they
     * close, and they are covered only if they took a slot when opened;
     * each victim erased frees a slot for them too. Refills per
     * preconditioning or wear, with a quarter / an eighth / a sixteenth /
     * none kept: 19 / 15 / 13 / 13 (128 GiB, uniform), 102 / 82 / 71 / 295
     * (TR200 480, hot/cold, share 25 %). */
    uint32_t n = 0, slots = f->rm.slots - f->rm.slots / 16, dies = f->p->dies;
    f->cover[n++] = block;
    for (uint32_t b = 0; b < f->rm.blocks; b++)
        if (b != block && f->blocks[b].state == BLOCK_VICTIM) f->cover[n++] = b;
    uint64_t now = f->units_written[STREAM_HOST] + f->units_written[STREAM_GC];
    for (uint32_t b = 0; b < f->rm.blocks && n < slots; b++)
        if (b != block && (ftl_closed_slc(f, b) || (f->blocks[b].state == BLOCK_OPEN && revmap_covers(&f->rm, b)) ||
                           kept_young(f, b, (double)now)))
            f->cover[n++] = b;
    uint32_t ranked = rank_closed(f, ftl_gc_policies[f->p->gc_policy].cost, (double)now);
    uint32_t worn = f->p->wear_leveling_spread ? (slots - n) / 8 : 0;
    uint32_t quota = (slots - n - worn + dies - 1) / dies;
    for (uint32_t d = 0; d < dies; d++) f->dies[d].covered = 0;
    for (uint32_t i = 0; i < ranked && n < slots - worn; i++) {
        uint32_t b = f->ranked[i].block, d = ftl_die_of_block(f, b);
        if (b == block || f->dies[d].covered >= quota) continue;
        f->dies[d].covered++;
        f->cover[n++] = b;
        f->ranked[i].block = FTL_NONE;
    }
    uint32_t rest = 0;
    for (uint32_t i = 0; i < ranked; i++) {
        uint32_t b = f->ranked[i].block;
        if (b == FTL_NONE || b == block) continue;
        f->ranked[rest++] = (ftl_ranked){worn ? f->blocks[b].erase_count : f->ranked[i].cost, b};
    }
    if (worn) qsort(f->ranked, rest, sizeof *f->ranked, by_cost);
    for (uint32_t i = 0; i < rest && n < slots; i++) f->cover[n++] = f->ranked[i].block;
    return n;
}

void ftl_cover(ftl *f, uint32_t block)
{
    if (revmap_covers(&f->rm, block)) return;
    if (f->blocks[block].map_only && revmap_fill_block(&f->rm, block, f->map_loc, f->map_units, FTL_MAP_BIT)) return;
    if (revmap_fill_seq(&f->rm, block, f->blocks[block].write_ptr)) return;
    double now = (double)(f->units_written[STREAM_HOST] + f->units_written[STREAM_GC]);
    /* the first cover has no span to go by: it ranks by the count alone,
     * and keeps no young block */
    uint64_t victims = f->victims_picked - f->cover_victims;
    if (f->cover_made_at > 0 && victims > 0) f->units_per_victim = (now - f->cover_made_at) / (double)victims;
    f->cover_horizon = f->cover_made_at > 0 ? now - f->cover_made_at : 0;
    f->cover_made_at = now;
    f->cover_victims = f->victims_picked;
    uint32_t n = choose_cover(f, block);
    revmap_tables t = {f->l2p, f->p->l2p_units, f->map_loc, f->map_units, FTL_MAP_BIT, UINT32_MAX};
    revmap_refill(&f->rm, f->cover, n, &t);
}
