/* The flash layer (flash.h): the transaction pool, the die queues and
 * their schedulers, suspension, cache read and cache program, the channel
 * timelines, die timing, and completions handed to their owners. */
#include "flash.h"

#include <stdlib.h>

#include "oom.h"

static inline sim_time_t max_time(sim_time_t a, sim_time_t b) { return a > b ? a : b; }

/* --- transactions ---------------------------------------------------------- */

/* The pool grows by a slab as large as all before it, so the most
 * transactions ever in flight are allocated a bounded number of times. */
static int add_slab(flash *fl)
{
    size_t n = fl->txn_count ? fl->txn_count : 256;
    txn *slab = malloc(n * sizeof *slab);
    txn **slabs = realloc(fl->slabs, (fl->slab_count + 1) * sizeof *slabs);
    if (!slab || !slabs) {
        free(slab);
        if (slabs) fl->slabs = slabs;
        return -1;
    }
    fl->slabs = slabs;
    fl->slabs[fl->slab_count++] = slab;
    for (size_t i = 0; i < n; i++) {
        slab[i].next = fl->free_txns;
        fl->free_txns = &slab[i];
    }
    fl->txn_count += n;
    return 0;
}

txn *flash_txn(flash *fl, flash_kind kind, uint32_t die, uint32_t ppa, uint32_t units)
{
    if (!fl->free_txns && add_slab(fl)) oom_raise("flash transactions");
    txn *t = fl->free_txns;
    fl->free_txns = t->next;
    *t = (txn){.kind = (uint8_t)kind, .die = die, .ppa = ppa, .units = units};
    t->block = divide(fl->p->block_of_unit, ppa);
    return t;
}

void flash_txn_free(flash *fl, txn *t)
{
    t->next = fl->free_txns;
    fl->free_txns = t;
}

/* --- resources ------------------------------------------------------------- */

/* Reserves the channel of a die for `units` mapping units from `ready` on
 * (their parity with them), the user data streaming through the ECC engine
 * `ecc` and the buffer memory as it moves (datapath.h); returns when the
 * slowest of them is done, and the channel is held until then. */
static sim_time_t channel_transfer(flash *fl, uint32_t die, sim_time_t ready, uint32_t units, datapath_engine ecc)
{
    bool listed = units <= fl->bus_units;
    uint64_t bytes = listed ? fl->bus_bytes[units] : params_bus_bytes(fl->p, units);
    power_deposit(fl->power, (double)bytes * fl->power->bus_j_per_byte);
    sim_time_t *free_at = &fl->channel_free[divide(fl->channel_of_die, die)];
    sim_time_t start = max_time(ready, *free_at);
    sim_time_t engines = datapath_pass(fl->dp, ecc, start, (uint64_t)units * fl->p->unit);
    sim_time_t end = max_time(start + (listed ? fl->bus_time[units] : params_bus_time(fl->p, bytes)), engines);
    *free_at = end;
    return end;
}

static bool block_slc(const flash *fl, uint32_t block) { return fl->blocks.slc(fl->blocks.ctx, block); }

/* Where unit ppa lies in its block (a transaction's block is worked out
 * once, in flash_txn): no division. */
static uint32_t offset_in_block(const flash *fl, uint32_t ppa, uint32_t block) { return ppa - block * fl->p->units_per_block; }

static uint32_t page_type_at(const flash *fl, uint32_t ppa, uint32_t block) { return fl->page_type[offset_in_block(fl, ppa, block)]; }

static sim_time_t read_time(const flash *fl, uint32_t ppa, uint32_t block, bool slc)
{
    if (slc) return fl->p->t_read_slc;
    return fl->p->t_read[page_type_at(fl, ppa, block)];
}

static sim_time_t program_time(const flash *fl, uint32_t ppa, uint32_t block)
{
    if (block_slc(fl, block)) return fl->p->t_prog_slc;
    if (fl->p->style == PROGRAM_ONE_SHOT) return fl->p->t_prog[0];
    return fl->p->t_prog[page_type_at(fl, ppa, block)];
}

/* --- dies ------------------------------------------------------------------ */

static bool die_has_work(const flash_die *ds)
{
    const flash_queues *q = &ds->q;
    return q->head[FLASH_CLASS_READ] || ds->suspended || q->head[FLASH_CLASS_PROGRAM] || q->head[FLASH_CLASS_ERASE];
}

/* Counts [from, to] as busy time, once: with cache read and cache program a
 * die's operations overlap their transfers, and summing them would count
 * the overlap twice. Operations start in time order, so a mark of what is
 * counted suffices. */
static void count_busy(flash_die *ds, sim_time_t from, sim_time_t to)
{
    if (from < ds->busy_mark) from = ds->busy_mark;
    if (to <= from) return;
    ds->busy_ns += to - from;
    ds->busy_mark = to;
}

/* Schedules the end of a program or erase; with suspension on, the event
 * can be cancelled and the operation remembered. */
static void run_long_op(flash *fl, flash_die *ds, txn *t, sim_time_t end, sim_handler_id done)
{
    ds->active = t;
    ds->active_end = end;
    if (fl->p->suspend) ds->active_event = sim_schedule_cancellable_at(fl->s, end, done, t, 0);
    else sim_schedule_at(fl->s, end, done, t, 0);
}

/* Cache program: the next program's data moves in while the die is still
 * programming the last one. */
static void preload_next_program(flash *fl, flash_die *ds)
{
    txn *next = ds->q.head[FLASH_CLASS_PROGRAM];
    if (!fl->p->cache_program || !next || next->data_in || next->kind != TX_PROGRAM) return;
    next->ready = channel_transfer(fl, next->die, sim_now(fl->s), next->units, DP_ECC_ENCODE);
    next->data_in = true;
}

/* A read waits behind a program or erase: suspend it, if it has long
 * enough to go, and let the read in. */
static void maybe_suspend(flash *fl, flash_die *ds)
{
    sim_time_t now = sim_now(fl->s);
    if (!fl->p->suspend || !ds->active || ds->suspended || ds->active_end <= now + fl->p->t_suspend) return;
    if (!sim_cancel(fl->s, ds->active_event)) return;
    ds->suspended = ds->active;
    ds->suspended_left = ds->active_end - now + fl->p->t_suspend;
    if (ds->busy_mark > now) { /* the rest is counted when it resumes */
        ds->busy_ns -= ds->busy_mark - now;
        ds->busy_mark = now;
    }
    ds->active = NULL;
    ds->busy = false;
    ds->busy_until = now;
    fl->n.suspends++;
}

/* A soft-decision read senses the page soft_reads times. */
static uint32_t sensings(const flash *fl, const txn *t) { return t->ecc_soft_stage ? fl->p->media.soft_reads : 1; }

/* Starts a read at `now` (which may be later than the clock: see
 * start_settled_read). */
static void start_read(flash *fl, flash_die *ds, txn *t, double slow, sim_time_t now)
{
    bool slc = block_slc(fl, t->block);
    sim_time_t tr = (sim_time_t)((double)read_time(fl, t->ppa, t->block, slc) * slow) * sensings(fl, t);
    media_count_read(&fl->med, t->block, sensings(fl, t));
    count_busy(ds, now, now + tr);
    ds->reads++;
    fl->n.reads++;
    if (slc && t->kind == TX_READ) fl->n.slc_units_read += t->units;
    power_deposit(fl->power, (double)tr * 1e-9 * fl->power->die_read_w);
    sim_schedule_at(fl->s, now + tr, fl->on_read_sensed, t, 0);
}

static void start_program(flash *fl, flash_die *ds, txn *t, double slow)
{
    sim_time_t now = sim_now(fl->s);
    sim_time_t in_end = t->data_in ? max_time(now, t->ready)
                                   : channel_transfer(fl, t->die, now, t->units, DP_ECC_ENCODE);
    sim_time_t tp = (sim_time_t)((double)program_time(fl, t->ppa, t->block) * slow);
    count_busy(ds, now, in_end + tp);
    ds->programs++;
    fl->n.programs++;
    power_deposit(fl->power, (double)tp * 1e-9 * fl->power->die_program_w);
    run_long_op(fl, ds, t, in_end + tp, fl->on_program_done);
    preload_next_program(fl, ds);
}

static void start_erase(flash *fl, flash_die *ds, txn *t, double slow)
{
    sim_time_t now = sim_now(fl->s);
    sim_time_t te = (sim_time_t)((double)(block_slc(fl, t->block) ? fl->p->t_erase_slc : fl->p->t_erase) * slow);
    count_busy(ds, now, now + te);
    ds->erases++;
    power_deposit(fl->power, (double)te * 1e-9 * fl->power->die_erase_w);
    run_long_op(fl, ds, t, now + te, fl->on_erase_done);
}

/* The time series' intervals close as the dies start work. */
static void watch_time(flash *fl, sim_time_t now)
{
    if (now >= *fl->watch_due) fl->watch(fl->watch_ctx);
}

/* Starts the die's most urgent operation, if it is free. The choice is made
 * when the die frees up, so a read arriving meanwhile still goes first. */
static void die_kick(flash *fl, uint32_t die)
{
    flash_die *ds = &fl->dies[die];
    sim_time_t now = sim_now(fl->s);
    watch_time(fl, now);
    if (ds->busy || !die_has_work(ds)) return;
    if (ds->busy_until > now) {
        ds->busy = true;
        sim_schedule_at(fl->s, ds->busy_until, fl->on_die_free, ds, die);
        return;
    }
    if (ds->suspended && !ds->q.head[FLASH_CLASS_READ]) {
        /* Resume what a read suspended before starting anything new. */
        txn *t = ds->suspended;
        ds->suspended = NULL;
        ds->busy = true;
        count_busy(ds, now, now + ds->suspended_left);
        run_long_op(fl, ds, t, now + ds->suspended_left, t->kind == TX_PROGRAM ? fl->on_program_done : fl->on_erase_done);
        return;
    }
    fl->view.now = now;
    txn *t = flash_schedulers[fl->p->scheduler].pick(&ds->q, &fl->view);
    ds->busy = true;
    /* Thermal throttling stretches the array operations. */
    double slow = fl->power->thermal && power_throttled(fl->power, now) ? fl->power->throttle_slowdown : 1.0;
    switch (t->kind) {
    case TX_PROGRAM: start_program(fl, ds, t, slow); break;
    case TX_ERASE:
    case TX_ZONE_ERASE: start_erase(fl, ds, t, slow); break;
    default: start_read(fl, ds, t, slow, now); break;
    }
}

static int class_of(const txn *t)
{
    if (t->kind == TX_PROGRAM) return FLASH_CLASS_PROGRAM;
    return t->kind == TX_ERASE || t->kind == TX_ZONE_ERASE ? FLASH_CLASS_ERASE : FLASH_CLASS_READ;
}

/* Queues a transaction, or a read again (its ECC plan kept). */
static void enqueue(flash *fl, txn *t)
{
    flash_die *ds = &fl->dies[t->die];
    int cls = class_of(t);
    t->next = NULL;
    t->seq = fl->seq++;
    t->queued = sim_now(fl->s);
    if (ds->q.tail[cls]) ds->q.tail[cls]->next = t;
    else ds->q.head[cls] = t;
    ds->q.tail[cls] = t;
    if (cls == FLASH_CLASS_READ) maybe_suspend(fl, ds);
    if (cls == FLASH_CLASS_PROGRAM && ds->busy && ds->active && ds->active->kind == TX_PROGRAM)
        preload_next_program(fl, ds);
    die_kick(fl, t->die);
}

void flash_submit(flash *fl, txn *t)
{
    fl->programs_pending += t->kind == TX_PROGRAM;
    t->ecc_planned = t->ecc_soft = t->ecc_failed = t->ecc_soft_stage = 0;
    t->ecc_retries = t->ecc_attempt = 0;
    enqueue(fl, t);
}

/* --- completions ----------------------------------------------------------- */

static void finish(flash *fl, txn *t) { fl->done[t->kind].fn(fl->done[t->kind].ctx, t); }

static void on_die_free(sim *s, void *ctx, void *obj, uint64_t die)
{
    (void)s, (void)obj;
    flash *fl = ctx;
    fl->dies[die].busy = false;
    die_kick(fl, (uint32_t)die);
}

/* A die that holds a page until it has moved out (no cache read) picks its
 * next operation when it frees. If the scheduler has chosen already (a read
 * waits and nothing that arrives meanwhile can pass it: schedulers.h), that
 * read starts then, with no event to pick it at that time: on the bench's
 * steady writes, whose GC reads wait behind each other, such events were
 * 15 to 25 % of all (docs/ssd-model.md). Throttling is judged
 * as an operation starts, so a drive that models heat keeps the event.
 * What the read books as it starts (its array time, counts and energy) is
 * booked now for then, as a program books its whole time; and its
 * sensing's end is queued now, so among events due at the same instant it
 * may come earlier than it did. */
static bool start_settled_read(flash *fl, flash_die *ds)
{
    const flash_scheduler *sched = &flash_schedulers[fl->p->scheduler];
    if (!sched->settled || fl->power->thermal) return false;
    const txn *next = sched->settled(&ds->q);
    if (!next || class_of(next) != FLASH_CLASS_READ) return false;
    watch_time(fl, sim_now(fl->s));
    fl->view.now = ds->busy_until;
    txn *t = sched->pick(&ds->q, &fl->view); /* the settled one, by definition */
    ds->busy = true;
    start_read(fl, ds, t, 1.0, ds->busy_until);
    return true;
}

/* The page is in the die's register: move it out, then decode it. */
static void on_read_sensed(sim *s, void *ctx, void *obj, uint64_t arg)
{
    (void)arg;
    flash *fl = ctx;
    txn *t = obj;
    flash_die *ds = &fl->dies[t->die];
    sim_time_t out_end = channel_transfer(fl, t->die, sim_now(s), t->units * sensings(fl, t), DP_ECC_DECODE);
    count_busy(ds, sim_now(s), out_end);
    /* Without cache read the page blocks the die until it has moved out. */
    ds->busy_until = fl->p->cache_read ? sim_now(s) : out_end;
    ds->busy = false;
    sim_time_t decode = t->ecc_soft_stage ? fl->p->media.soft_decode : fl->p->ecc_decode;
    sim_schedule_at(s, out_end + decode, fl->on_read_ready, t, 0);
    if (ds->busy_until > sim_now(s) && start_settled_read(fl, ds)) return;
    die_kick(fl, t->die);
}

/* ECC failed: the page is read again (other read levels), costing
 * another array read, transfer and decode. */
static bool needs_retry(flash *fl, const txn *t)
{
    if (fl->p->read_retry == 0 && fl->p->read_retry_wear == 0) return false;
    double wear = (double)fl->blocks.erase_count(fl->blocks.ctx, t->block) / fl->p->pe_cycles;
    return gsl_rng_uniform(fl->ecc_rng) < fl->p->read_retry + fl->p->read_retry_wear * wear;
}

/* The rber model: at the first decode, the error rate the page has now
 * decides the whole ladder (media_decide), and it is counted. */
static void plan_ecc(flash *fl, txn *t)
{
    const ssd_params *p = fl->p;
    uint32_t erases = fl->blocks.erase_count(fl->blocks.ctx, t->block);
    double rber = media_block_rber(&fl->med, p, t->block, offset_in_block(fl, t->ppa, t->block), erases,
                                   block_slc(fl, t->block), sim_now(fl->s));
    uint32_t codewords = t->units * (p->unit / p->media.codeword_bytes);
    media_outcome o = media_decide(&p->media, rber, codewords, gsl_rng_uniform(fl->ecc_rng));
    t->ecc_planned = 1;
    t->ecc_retries = o.retries;
    t->ecc_soft = o.soft;
    t->ecc_failed = o.failed;
    fl->n.ecc_outcomes[o.failed ? ecc_outcome_failed(p) : o.soft ? ecc_outcome_soft(p) : o.retries]++;
    fl->n.uncorrectable += o.failed;
    if (!fl->blocks.due) return;
    media_reason why = media_reaction(&fl->med, t->block, o.retries + o.soft, sim_now(fl->s));
    if (why != MEDIA_FINE && fl->blocks.due(fl->blocks.due_ctx, t->block, why)) media_flag(&fl->med, t->block);
}

/* Reads the page again while its plan asks: true if it went back. */
static bool ecc_ladder(flash *fl, txn *t)
{
    if (!t->ecc_planned) plan_ecc(fl, t);
    if (t->ecc_attempt < t->ecc_retries) {
        t->ecc_attempt++;
        fl->n.read_retries++;
    } else if (t->ecc_soft && !t->ecc_soft_stage) {
        t->ecc_soft_stage = 1;
        fl->n.soft_reads++;
    } else {
        return false;
    }
    enqueue(fl, t);
    return true;
}

static void on_read_ready(sim *s, void *ctx, void *obj, uint64_t arg)
{
    (void)s, (void)arg;
    flash *fl = ctx;
    txn *t = obj;
    if (fl->p->media.model == ECC_RBER) {
        if (ecc_ladder(fl, t)) return;
    } else if (needs_retry(fl, t)) {
        fl->n.read_retries++;
        flash_submit(fl, t);
        return;
    }
    finish(fl, t);
}

/* A program or erase ended: the block holds `programmed` programmed
 * units, the die is free, and the owner hears of it before the die takes
 * its next operation. */
static void end_long_op(flash *fl, txn *t, uint32_t programmed)
{
    flash_die *ds = &fl->dies[t->die];
    uint32_t die = t->die;
    ds->active = NULL;
    flash_set_programmed(fl, t->block, programmed);
    ds->busy = false;
    ds->busy_until = sim_now(fl->s);
    finish(fl, t);
    die_kick(fl, die);
}

static void on_program_done(sim *s, void *ctx, void *obj, uint64_t arg)
{
    (void)s, (void)arg;
    flash *fl = ctx;
    txn *t = obj;
    uint32_t end = offset_in_block(fl, t->ppa, t->block) + t->units;
    media_programmed(&fl->med, t->block, sim_now(s));
    fl->programs_pending--;
    end_long_op(fl, t, fl->programmed[t->block] > end ? fl->programmed[t->block] : end);
}

static void on_erase_done(sim *s, void *ctx, void *obj, uint64_t arg)
{
    (void)s, (void)arg;
    flash *fl = ctx;
    txn *t = obj;
    media_erased(&fl->med, t->block);
    end_long_op(fl, t, 0);
}

/* --- set-up ---------------------------------------------------------------- */

/* What a transfer of 0 .. bus_units units costs on the channel: a read's
 * soft sensings move a page's units each, a program a program unit's. */
static int list_bus_costs(flash *fl)
{
    const ssd_params *p = fl->p;
    uint32_t reads = p->units_per_page * (p->media.soft_reads > 1 ? p->media.soft_reads : 1);
    fl->bus_units = reads > p->units_per_program ? reads : p->units_per_program;
    fl->bus_bytes = malloc((fl->bus_units + 1) * sizeof *fl->bus_bytes);
    fl->bus_time = malloc((fl->bus_units + 1) * sizeof *fl->bus_time);
    if (!fl->bus_bytes || !fl->bus_time) return -1;
    for (uint32_t n = 0; n <= fl->bus_units; n++) {
        fl->bus_bytes[n] = params_bus_bytes(p, n);
        fl->bus_time[n] = params_bus_time(p, fl->bus_bytes[n]);
    }
    return 0;
}

static const sim_time_t never = SIM_TIME_MAX;

int flash_init(flash *fl, sim *s, const ssd_params *p, power_model *power, datapath *dp, gsl_rng *ecc_rng)
{
    *fl = (flash){.s = s, .p = p, .power = power, .dp = dp, .ecc_rng = ecc_rng, .watch_due = &never,
                  .view = {.service = {p->t_read[0], p->t_prog[0], p->t_erase}}};
    size_t nblocks = (size_t)p->dies * p->blocks_per_die;
    fl->dies = calloc(p->dies, sizeof *fl->dies);
    fl->channel_free = calloc(p->channels, sizeof *fl->channel_free);
    fl->programmed = calloc(nblocks, sizeof *fl->programmed);
    fl->full = calloc((nblocks + 63) / 64, sizeof *fl->full);
    fl->page_type = malloc(p->units_per_block);
    if (!fl->dies || !fl->channel_free || !fl->programmed || !fl->full || !fl->page_type || add_slab(fl)) return -1;
    for (uint32_t off = 0; off < p->units_per_block; off++) fl->page_type[off] = (uint8_t)params_page_type(p, off);
    if (list_bus_costs(fl)) return -1;
    fl->channel_of_die = divider_of(p->dies_per_channel);
    if (media_init(&fl->med, p, power->ambient_c)) return -1;
    fl->on_read_sensed = sim_register_handler(s, "flash.read_sensed", on_read_sensed, fl);
    fl->on_read_ready = sim_register_handler(s, "flash.read_ready", on_read_ready, fl);
    fl->on_program_done = sim_register_handler(s, "flash.program_done", on_program_done, fl);
    fl->on_erase_done = sim_register_handler(s, "flash.erase_done", on_erase_done, fl);
    fl->on_die_free = sim_register_handler(s, "flash.die_free", on_die_free, fl);
    return 0;
}

void flash_free(flash *fl)
{
    for (size_t i = 0; i < fl->slab_count; i++) free(fl->slabs[i]);
    free(fl->slabs);
    free(fl->dies);
    free(fl->channel_free);
    free(fl->programmed);
    free(fl->full);
    free(fl->page_type);
    free(fl->bus_bytes);
    free(fl->bus_time);
    media_free(&fl->med);
}

void flash_on_done(flash *fl, flash_kind kind, flash_done_fn fn, void *ctx)
{
    fl->done[kind].fn = fn;
    fl->done[kind].ctx = ctx;
}

void flash_set_blocks(flash *fl, const flash_blocks *b) { fl->blocks = *b; }

void flash_set_watch(flash *fl, flash_watch_fn fn, void *ctx, const sim_time_t *due)
{
    fl->watch = fn;
    fl->watch_ctx = ctx;
    fl->watch_due = due;
}

size_t flash_die_bytes(void) { return sizeof(flash_die); }
