/* Reclaiming space: garbage collection and SLC folding (one job per die
 * at a time: read the victim's valid pages, rewrite them, erase it), and
 * the idle-time work that runs them in the background. */
#include "ssd_internal.h"

static void gc_issue(ssd *d, uint32_t die);

/* --- garbage collection ---------------------------------------------------- */


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

/* A die collecting in a burst (ftl.gc.burst) goes on after each erase (its
 * own or a fold's) until it has the burst's free blocks above the
 * threshold, has used its quota of victims (ftl.gc.burst_victims), or
 * finds the best victim wholly valid (collecting it would free nothing);
 * then it takes host writes again. */
static void burst_next(ssd *d, uint32_t die)
{
    ftl_die *fd = &d->f.dies[die];
    if (!fd->collecting) return;
    bool quota_left = !d->p.gc_burst_victims || fd->burst_victims < d->p.gc_burst_victims;
    uint32_t victim = FTL_NONE;
    if (quota_left && ftl_free_blocks(&d->f, die) < d->p.gc_threshold + d->p.gc_burst) victim = ftl_pick_victim(&d->f, die);
    if (victim == FTL_NONE || d->f.blocks[victim].valid >= d->p.units_per_block) {
        fd->collecting = false;
        return;
    }
    fd->burst_victims++;
    start_job(d, die, victim, false, false);
}

/* Firmware that collects in bursts does so on every die at once (its unit
 * of GC spans the dies, as a superblock does): each die short of the
 * burst's free blocks joins, and starts when its current job (a fold) ends. */
void gc_burst_start(ssd *d)
{
    for (uint32_t die = 0; die < d->p.dies; die++) {
        ftl_die *fd = &d->f.dies[die];
        if (fd->collecting || ftl_free_blocks(&d->f, die) >= d->p.gc_threshold + d->p.gc_burst) continue;
        fd->collecting = true;
        fd->burst_host = fd->burst_gc = 0;
        fd->burst_victims = 0;
        if (!d->dies[die].gc_active) burst_next(d, die);
    }
}

void gc_start(ssd *d, uint32_t die)
{
    if (d->dies[die].gc_active) return;
    uint32_t victim = ftl_pick_victim(&d->f, die);
    if (victim != FTL_NONE) start_job(d, die, victim, false, false);
}

void fold_start(ssd *d, uint32_t die, bool background)
{
    if (d->dies[die].gc_active) return;
    uint32_t victim = ftl_pick_fold_victim(&d->f, die);
    if (victim != FTL_NONE) start_job(d, die, victim, true, background);
}

/* Foreground folding: the cache is full and writes wait for it. Firmware
 * may fold on only so many dies at once (slc.fold_jobs); the dies take
 * turns. Returns false when no die holds SLC data to fold (a dynamic cache
 * on a full drive may have no blocks at all): then writes go to native
 * blocks instead of waiting. */
bool start_folds(ssd *d)
{
    uint32_t limit = d->p.slc_fold_jobs ? d->p.slc_fold_jobs : d->p.dies, active = 0;
    bool foldable = false;
    for (uint32_t die = 0; die < d->p.dies; die++) {
        active += d->dies[die].gc_active && d->dies[die].gc_is_fold;
        foldable |= ftl_slc_closed(&d->f, die) > 0;
    }
    if (!foldable) return false;
    for (uint32_t k = 0; k < d->p.dies && active < limit; k++) {
        uint32_t die = (d->fold_cursor + k) % d->p.dies;
        if (d->dies[die].gc_active) continue;
        /* a die short of free blocks collects first: folding needs room
         * in native blocks, and takes the reserve GC relies on */
        if (ftl_free_blocks(&d->f, die) <= d->p.gc_threshold) {
            gc_start(d, die);
            continue;
        }
        fold_start(d, die, false);
        if (d->dies[die].gc_active) {
            active++;
            d->fold_cursor = (die + 1) % d->p.dies;
        }
    }
    return true;
}

/* The next piece of background work of an idle die: fold the SLC cache,
 * then collect blocks below the background GC threshold. */
void background_next(ssd *d, uint32_t die)
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

void on_idle(sim *s, void *ctx, void *obj, uint64_t arg)
{
    (void)s, (void)obj, (void)arg;
    ssd *d = ctx;
    d->idle_timer = 0;
    d->idle = true;
    if (d->p.flush_on_idle) flush_partial_units(d);
    start_trim_worker(d);
    for (uint32_t die = 0; die < d->p.dies; die++) background_next(d, die);
}

void on_background(sim *s, void *ctx, void *obj, uint64_t die)
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
            d->f.dies[die].collecting = false;
            d->f.blocks[ds->gc_victim].state = BLOCK_CLOSED;
        }
    }
}

void gc_read_done(ssd *d, txn *t)
{
    uint32_t die = t->die;
    die_state *ds = &d->dies[die];
    for (uint32_t k = 0; k < d->p.units_per_page; k++) {
        uint32_t ppa = t->ppa + k, lpn = d->f.p2l[ppa];
        if (lpn == FTL_NONE) continue; /* overwritten or trimmed meanwhile */
        uint32_t to = ftl_alloc(&d->f, die, STREAM_GC);
        if (to == FTL_NONE) break;
        ftl_relocate(&d->f, ppa, to);
        d->f.dies[die].burst_gc++;
        if (d->p.map_cached && !(lpn & FTL_MAP_BIT)) map_dirty(d, lpn, 1);
        fill_program_unit(d, die, STREAM_GC, to, 1);
    }
    free_txn(d, t);
    ds->gc_reads_out--;
    gc_issue(d, die);
}

void on_erase_done(sim *s, void *ctx, void *obj, uint64_t arg)
{
    (void)arg;
    ssd *d = ctx;
    txn *t = obj;
    uint32_t die = t->die;
    die_state *ds = &d->dies[die];
    ds->active = NULL;
    bool was_fold = ds->gc_is_fold, was_background = ds->background;
    uint32_t moved = d->f.blocks[t->block].write_ptr;
    ftl_erase(&d->f, t->block);
    d->programmed[t->block] = 0;
    ds->busy = false;
    ds->busy_until = sim_now(s);
    ds->gc_active = false;
    free_txn(d, t);
    if (d->observe.reclaimed) d->observe.reclaimed(d->observe.ctx, was_fold);
    burst_next(d, die);
    retry_stalled(d);
    after_alloc(d, die);
    if (!ds->gc_active && d->stalled.head && d->p.slc_fold_when_full) fold_start(d, die, false);
    if (!ds->gc_active && !was_fold && ftl_free_blocks(&d->f, die) > d->p.gc_threshold) {
        uint32_t cold = ftl_wear_victim(&d->f, die);
        if (cold != FTL_NONE) start_job(d, die, cold, false, was_background);
    }
    if (!ds->gc_active && d->idle) {
        /* Idle work (folding and background GC) at a set rate: the next
         * block waits until the drive-wide rate allows it. */
        if (was_background && d->p.slc_idle_fold_bytes_per_ns > 0) {
            double per_die = d->p.slc_idle_fold_bytes_per_ns / d->p.dies;
            ds->background_due = ds->job_started + (sim_time_t)((double)moved * d->p.unit / per_die);
        }
        /* whatever job just ended (a foreground GC too), the next piece of
         * background work keeps to the rate */
        sim_time_t next = max_time(sim_now(s), ds->background_due);
        if (next > sim_now(s)) sim_schedule_at(s, next, d->on_background, d, die);
        else background_next(d, die);
    }
    die_kick(d, die);
}

