#include "reclaim.h"

#include <stdlib.h>

static inline sim_time_t max_time(sim_time_t a, sim_time_t b) { return a > b ? a : b; }

static void issue_reads(reclaim *r, uint32_t die);

/* --- jobs ------------------------------------------------------------------ */

static void start_job(reclaim *r, uint32_t die, uint32_t victim, bool fold, bool background)
{
    reclaim_die *rd = &r->dies[die];
    rd->active = true;
    rd->is_fold = fold;
    rd->background = background;
    rd->victim = victim;
    rd->next = rd->fetched = 0;
    rd->reads_out = 0;
    rd->moved = 0;
    rd->reason = MEDIA_FINE;
    rd->job_started = sim_now(r->s);
    issue_reads(r, die);
}

/* Starts moving the oldest block found due that is still as it was. */
static void due_next(reclaim *r, uint32_t die)
{
    reclaim_die *rd = &r->dies[die];
    while (!rd->active && rd->due_count) {
        reclaim_due q = rd->due[rd->due_head];
        rd->due_head = (rd->due_head + 1) % RECLAIM_PENDING;
        rd->due_count--;
        const ftl_block *b = &r->f->blocks[q.block];
        if (b->state != BLOCK_CLOSED || b->erase_count != q.erases) continue; /* GC took it meanwhile */
        start_job(r, die, ftl_claim_victim(r->f, q.block), ftl_block_slc(r->f, q.block), r->idle);
        rd->reason = q.reason;
    }
}

bool reclaim_due_block(void *ctx, uint32_t block, int reason)
{
    reclaim *r = ctx;
    const ftl_block *b = &r->f->blocks[block];
    uint32_t die = ftl_die_of_block(r->f, block);
    reclaim_die *rd = &r->dies[die];
    if (b->state != BLOCK_CLOSED || rd->due_count == RECLAIM_PENDING) return false;
    rd->due[(rd->due_head + rd->due_count++) % RECLAIM_PENDING] =
        (reclaim_due){.block = block, .erases = b->erase_count, .reason = (uint8_t)reason};
    if (!rd->active && ftl_free_blocks(r->f, die) > r->p->gc_threshold) due_next(r, die);
    return true;
}

/* A die collecting in a burst (ftl.gc.burst) goes on after each erase (its
 * own or a fold's) until it has the burst's free blocks above the
 * threshold, has used its quota of victims (ftl.gc.burst_victims), or
 * finds the best victim wholly valid (collecting it would free nothing);
 * then it takes host writes again. */
static void burst_next(reclaim *r, uint32_t die)
{
    ftl_die *fd = &r->f->dies[die];
    if (!fd->collecting) return;
    bool quota_left = !r->p->gc_burst_victims || fd->burst_victims < r->p->gc_burst_victims;
    uint32_t victim = FTL_NONE;
    if (quota_left && ftl_free_blocks(r->f, die) < r->p->gc_threshold + r->p->gc_burst)
        victim = ftl_pick_victim(r->f, die);
    if (victim == FTL_NONE || r->f->blocks[victim].valid >= r->p->units_per_block) {
        ftl_burst_end(r->f, die);
        return;
    }
    ftl_burst_victim(r->f, die);
    start_job(r, die, victim, false, false);
}

/* Firmware that collects in bursts does so on every die at once (its unit
 * of GC spans the dies, as a superblock does): each die short of the
 * burst's free blocks joins, and starts when its current job (a fold) ends. */
static void burst_start(reclaim *r)
{
    for (uint32_t die = 0; die < r->p->dies; die++) {
        if (r->f->dies[die].collecting || ftl_free_blocks(r->f, die) >= r->p->gc_threshold + r->p->gc_burst) continue;
        ftl_burst_begin(r->f, die);
        if (!r->dies[die].active) burst_next(r, die);
    }
}

static void gc_start(reclaim *r, uint32_t die)
{
    if (r->dies[die].active) return;
    uint32_t victim = ftl_pick_victim(r->f, die);
    if (victim != FTL_NONE) start_job(r, die, victim, false, false);
}

static void fold_start(reclaim *r, uint32_t die, bool background)
{
    if (r->dies[die].active) return;
    uint32_t victim = ftl_pick_fold_victim(r->f, die);
    if (victim != FTL_NONE) start_job(r, die, victim, true, background);
}

void reclaim_after_alloc(reclaim *r, uint32_t die)
{
    if (ftl_free_blocks(r->f, die) > r->p->gc_threshold) return;
    if (r->p->gc_burst) burst_start(r);
    else gc_start(r, die);
}

/* Firmware may fold on only so many dies at once (slc.fold_jobs); the dies
 * take turns. */
bool reclaim_start_folds(reclaim *r)
{
    uint32_t dies = r->p->dies, limit = r->p->slc_fold_jobs ? r->p->slc_fold_jobs : dies, active = 0;
    bool foldable = false;
    for (uint32_t die = 0; die < dies; die++) {
        active += r->dies[die].active && r->dies[die].is_fold;
        foldable |= ftl_slc_closed(r->f, die) > 0;
    }
    if (!foldable) return false;
    for (uint32_t k = 0; k < dies && active < limit; k++) {
        uint32_t die = (r->fold_cursor + k) % dies;
        if (r->dies[die].active) continue;
        /* a die short of free blocks collects first: folding needs room
         * in native blocks, and takes the reserve GC relies on */
        if (ftl_free_blocks(r->f, die) <= r->p->gc_threshold) {
            gc_start(r, die);
            continue;
        }
        fold_start(r, die, false);
        if (r->dies[die].active) {
            active++;
            r->fold_cursor = (die + 1) % dies;
        }
    }
    return true;
}

/* --- idle-time work -------------------------------------------------------- */

/* The next piece of background work of an idle die: fold the SLC cache,
 * then collect blocks below the background GC threshold. */
static void background_next(reclaim *r, uint32_t die)
{
    if (!r->idle || r->dies[die].active) return;
    if (ftl_slc_closed(r->f, die)) {
        fold_start(r, die, true);
        return;
    }
    due_next(r, die);
    if (r->dies[die].active) return;
    if (ftl_free_blocks(r->f, die) < r->p->gc_background_threshold) {
        uint32_t victim = ftl_pick_victim(r->f, die);
        if (victim != FTL_NONE) start_job(r, die, victim, false, true);
    }
}

void reclaim_idle(reclaim *r)
{
    r->idle = true;
    for (uint32_t die = 0; die < r->p->dies; die++) background_next(r, die);
}

static void on_background(sim *s, void *ctx, void *obj, uint64_t die)
{
    (void)s, (void)obj;
    background_next(ctx, (uint32_t)die);
}

/* Idle work (folding and background GC) at a set rate: the next block
 * waits until the drive-wide rate allows it. Whatever job just ended (a
 * foreground GC too), the next piece of background work keeps to it. */
static void pace_background(reclaim *r, uint32_t die, bool was_background, uint32_t moved)
{
    reclaim_die *rd = &r->dies[die];
    sim_time_t now = sim_now(r->s);
    if (was_background && r->p->slc_idle_fold_bytes_per_ns > 0) {
        double per_die = r->p->slc_idle_fold_bytes_per_ns / r->p->dies;
        rd->background_due = rd->job_started + (sim_time_t)((double)moved * r->p->unit / per_die);
    }
    sim_time_t next = max_time(now, rd->background_due);
    if (next > now) sim_schedule_at(r->s, next, r->on_background, r, die);
    else background_next(r, die);
}

/* --- the job's transactions ------------------------------------------------ */

/* Reads the victim's pages that hold valid units, a few at a time; when all
 * are moved, erases it. */
static void issue_reads(reclaim *r, uint32_t die)
{
    reclaim_die *rd = &r->dies[die];
    const uint32_t U = r->p->units_per_block, upp = r->p->units_per_page;
    uint32_t written = r->f->blocks[rd->victim].write_ptr;
    while (rd->reads_out < RECLAIM_READ_WINDOW && rd->next < written) {
        uint32_t base = rd->victim * U + rd->next;
        uint32_t valid = 0;
        for (uint32_t k = 0; k < upp; k++) valid += ftl_valid(r->f, base + k);
        rd->next += upp;
        if (!valid) continue;
        if (rd->next > rd->fetched) {
            /* The mapping entries of a read window's pages at once, where
             * each page's were fetched as it was read: their misses
             * overlap, where the core waited for each page's alone
             * (at 2 TiB a third of the timed steady write's samples). */
            uint32_t from = rd->next - upp, n = written - from < RECLAIM_READ_WINDOW * upp ? written - from : RECLAIM_READ_WINDOW * upp;
            ftl_fetch_holders(r->f, base, n);
            rd->fetched = from + n;
        }
        rd->reads_out++;
        flash_submit(r->fl, flash_txn(r->fl, TX_GC_READ, die, base, valid));
    }
    if (rd->next < written || rd->reads_out) return;
    if (r->f->blocks[rd->victim].valid == 0) {
        flash_submit(r->fl, flash_txn(r->fl, TX_ERASE, die, rd->victim * U, 0));
        return;
    }
    rd->active = false; /* could not move everything: try another victim later */
    ftl_burst_end(r->f, die);
    ftl_release_victim(r->f, rd->victim);
}

void reclaim_read_done(void *ctx, txn *t)
{
    reclaim *r = ctx;
    uint32_t die = t->die, moved = 0;
    ftl_stream to_stream = ftl_gc_stream(r->f, t->block);
    for (uint32_t k = 0; k < r->p->units_per_page; k++) {
        uint32_t ppa = t->ppa + k, lpn = ftl_holds(r->f, ppa);
        if (lpn == FTL_NONE) continue; /* overwritten or trimmed meanwhile */
        uint32_t to = ftl_alloc(r->f, die, to_stream);
        if (to == FTL_NONE) break;
        ftl_relocate(r->f, ppa, lpn, to);
        ftl_burst_moved(r->f, die, 1);
        if (!(lpn & FTL_MAP_BIT) && r->hooks.relocated) r->hooks.relocated(r->hooks.ctx, lpn);
        progunit_add(r->pu, die, to_stream, to, 1);
        moved++;
    }
    ftl_count_moved(r->f, t->block, moved);
    r->dies[die].moved += moved;
    /* Each moved unit's bookkeeping (its mapping entry, the valid counts)
     * takes a core's time, which host commands then wait for. */
    if (moved && r->p->fw_move_unit) datapath_firmware(r->dp, sim_now(r->s), moved * r->p->fw_move_unit);
    flash_txn_free(r->fl, t);
    r->dies[die].reads_out--;
    issue_reads(r, die);
}

void reclaim_erase_done(void *ctx, txn *t)
{
    reclaim *r = ctx;
    uint32_t die = t->die;
    reclaim_die *rd = &r->dies[die];
    bool was_fold = rd->is_fold, was_background = rd->background;
    uint32_t moved = r->f->blocks[t->block].write_ptr;
    r->f->reallocations += rd->moved > 0;
    r->media_jobs[rd->reason] += rd->reason != MEDIA_FINE;
    r->media_moved[rd->reason] += rd->moved;
    ftl_erase(r->f, t->block);
    rd->active = false;
    flash_txn_free(r->fl, t);
    if (r->hooks.reclaimed) r->hooks.reclaimed(r->hooks.ctx, was_fold);
    burst_next(r, die);
    bool writes_wait = r->hooks.space_freed(r->hooks.ctx);
    reclaim_after_alloc(r, die);
    if (!rd->active && writes_wait && r->p->slc_fold_when_full) fold_start(r, die, false);
    if (!rd->active && ftl_free_blocks(r->f, die) > r->p->gc_threshold) due_next(r, die);
    if (!rd->active && !was_fold && ftl_free_blocks(r->f, die) > r->p->gc_threshold) {
        uint32_t cold = ftl_wear_victim(r->f, die);
        if (cold != FTL_NONE) start_job(r, die, cold, false, was_background);
    }
    if (!rd->active && r->idle) pace_background(r, die, was_background, moved);
}

/* --- set-up ---------------------------------------------------------------- */

int reclaim_init(reclaim *r, sim *s, ftl *f, flash *fl, progunits *pu, datapath *dp)
{
    *r = (reclaim){.s = s, .p = f->p, .f = f, .fl = fl, .pu = pu, .dp = dp};
    r->dies = calloc(f->p->dies, sizeof *r->dies);
    if (!r->dies) return -1;
    r->on_background = sim_register_handler(s, "reclaim.background", on_background, r);
    return 0;
}

void reclaim_free(reclaim *r) { free(r->dies); }

void reclaim_set_hooks(reclaim *r, const reclaim_hooks *h) { r->hooks = *h; }
