/* The flash layer on its own: a simulator, the layer, and owners that only
 * record when their transactions finish. Closed forms for a read, the die
 * schedulers' order, and program suspension. */
#include <criterion/criterion.h>

#include "config.h"
#include "flash.h"
#include "power.h"
#include "sim_config.h"

enum { MAX_DONE = 16 };

typedef struct rig {
    cfg *c;
    sim *s;
    ssd_params p;
    power_model power;
    datapath dp;
    flash fl;
    int kinds[MAX_DONE];
    uint32_t ids[MAX_DONE];
    sim_time_t at[MAX_DONE];
    int done;
} rig;

static bool never_slc(void *ctx, uint32_t block) { return (void)ctx, (void)block, false; }
static uint32_t fresh(void *ctx, uint32_t block) { return (void)ctx, (void)block, 0; }

static void record(void *ctx, txn *t)
{
    rig *g = ctx;
    cr_assert_lt(g->done, MAX_DONE);
    g->kinds[g->done] = t->kind;
    g->ids[g->done] = t->tu; /* the test's own tag */
    g->at[g->done++] = sim_now(g->s);
    flash_txn_free(&g->fl, t);
}

/* The example drive, with the given overrides: 16 dies of TLC. */
static void rig_open(rig *g, const char *set1, const char *set2)
{
    memset(g, 0, sizeof *g);
    g->c = cfg_create(ssdlab_schema());
    cfg_load_file(g->c, SOURCE_DIR "/models/drives/example-sata-480.yaml");
    cfg_set_override(g->c, "drive.user_capacity=10GB");
    cfg_set_override(g->c, "nand.blocks_per_plane=40");
    if (set1) cfg_set_override(g->c, set1);
    if (set2) cfg_set_override(g->c, set2);
    cr_assert_eq(cfg_error_count(g->c), 0, "%s", cfg_errors(g->c));
    char err[512];
    cr_assert_eq(ssd_params_load(&g->p, g->c, err, sizeof err), 0, "%s", err);
    sim_options o = sim_options_from_config(g->c);
    g->s = sim_create(&o);
    power_init(&g->power, g->c, g->p.dies);
    cr_assert_eq(datapath_init(&g->dp, &g->p), 0);
    cr_assert_eq(flash_init(&g->fl, g->s, &g->p, &g->power, &g->dp, sim_rng(g->s, "ecc")), 0);
    flash_set_blocks(&g->fl, &(flash_blocks){.slc = never_slc, .erase_count = fresh});
    for (int k = 0; k < TX_KINDS; k++) flash_on_done(&g->fl, (flash_kind)k, record, g);
}

static void rig_close(rig *g)
{
    flash_free(&g->fl);
    datapath_free(&g->dp);
    sim_free(g->s);
    cfg_free(g->c);
}

static txn *tagged(rig *g, flash_kind kind, uint32_t ppa, uint32_t units, uint32_t tag)
{
    txn *t = flash_txn(&g->fl, kind, 0, ppa, units);
    t->tu = tag;
    return t;
}

static sim_time_t read_cost(const rig *g, uint32_t ppa, uint32_t units)
{
    return g->p.t_read[params_page_type(&g->p, ppa % g->p.units_per_block)] +
           params_bus_time(&g->p, params_bus_bytes(&g->p, units)) + g->p.ecc_decode;
}

static sim_time_t program_cost(const rig *g, uint32_t units)
{
    return params_bus_time(&g->p, params_bus_bytes(&g->p, units)) + g->p.t_prog[0];
}

Test(flash, one_read_takes_array_time_transfer_and_decode)
{
    rig g;
    rig_open(&g, NULL, NULL);
    flash_submit(&g.fl, tagged(&g, TX_READ, 0, 1, 1));
    sim_run(g.s, SIM_TIME_MAX);
    cr_assert_eq(g.done, 1);
    cr_assert_eq(g.at[0], read_cost(&g, 0, 1), "read done at %llu, expected %llu", (unsigned long long)g.at[0],
                 (unsigned long long)read_cost(&g, 0, 1));
    cr_assert_eq(g.fl.n.reads, 1);
    rig_close(&g);
}

/* The channel's cost of a transfer is listed per size at set-up
 * (flash.bus_time); each size a read or program moves, and one past the
 * list, takes the closed form. With the media's errors modelled and 16 soft
 * reads, a page's soft sensings (64 units) outgrow a program unit (24), so
 * they set the list's length; fresh blocks need no retry. */
Test(flash, every_transfer_size_takes_its_closed_form)
{
    rig g;
    rig_open(&g, "controller.ecc_model=rber", "controller.soft_reads=16");
    cr_assert_gt(g.p.units_per_page * g.p.media.soft_reads, g.p.units_per_program);
    uint32_t sizes[] = {1, 2, g.p.units_per_page, g.fl.bus_units, g.fl.bus_units + 1};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        sim_time_t start = sim_now(g.s);
        flash_submit(&g.fl, tagged(&g, TX_READ, 0, sizes[i], (uint32_t)i));
        sim_run(g.s, SIM_TIME_MAX);
        cr_assert_eq(g.at[g.done - 1] - start, read_cost(&g, 0, sizes[i]), "a read of %u units", sizes[i]);
    }
    sim_time_t start = sim_now(g.s);
    flash_submit(&g.fl, tagged(&g, TX_PROGRAM, 6 * g.p.units_per_block, g.p.units_per_program, 9));
    sim_run(g.s, SIM_TIME_MAX);
    cr_assert_eq(g.at[g.done - 1] - start, program_cost(&g, g.p.units_per_program));
    cr_assert_geq(g.fl.bus_units, g.p.units_per_page * g.p.media.soft_reads, "a page's soft reads are listed");
    rig_close(&g);
}

/* A read holds the die; meanwhile an erase, a program and a read queue up.
 * Reads first takes the read, then the program, then the erase; FIFO takes
 * them as they came. */
static void queued_order(const char *scheduler, const int want[3])
{
    rig g;
    rig_open(&g, scheduler, NULL);
    uint32_t upb = g.p.units_per_block, upp = g.p.units_per_program;
    flash_submit(&g.fl, tagged(&g, TX_READ, 0, 1, 0));
    flash_submit(&g.fl, tagged(&g, TX_ERASE, 5 * upb, 0, 1));
    flash_submit(&g.fl, tagged(&g, TX_PROGRAM, 6 * upb, upp, 2));
    flash_submit(&g.fl, tagged(&g, TX_READ, 1, 1, 3));
    sim_run(g.s, SIM_TIME_MAX);
    cr_assert_eq(g.done, 4);
    cr_assert_eq(g.ids[0], 0);
    for (int i = 0; i < 3; i++) cr_assert_eq(g.ids[i + 1], (uint32_t)want[i], "%s: completion %d is #%u", scheduler, i + 1, g.ids[i + 1]);
    rig_close(&g);
}

Test(flash, read_first_scheduler_takes_reads_then_programs_then_erases)
{
    queued_order("controller.scheduler=read-first", (const int[]){3, 2, 1});
}

Test(flash, fifo_scheduler_takes_operations_as_they_came)
{
    queued_order("controller.scheduler=fifo", (const int[]){1, 2, 3});
}

typedef struct late_read {
    rig *g;
    uint32_t ppa;
} late_read;

static void submit_late_read(sim *s, void *ctx, void *obj, uint64_t arg)
{
    (void)s, (void)obj, (void)arg;
    late_read *lr = ctx;
    flash_submit(&lr->g->fl, tagged(lr->g, TX_READ, lr->ppa, 1, 9));
}

/* A program runs; a read arrives at time t, once the program's data has
 * crossed the channel. Suspended, the read is served at once and the
 * program ends later by what it waited plus t_suspend; without suspension
 * the read waits for the program. */
static sim_time_t read_arrival(const rig *g)
{
    return params_bus_time(&g->p, params_bus_bytes(&g->p, g->p.units_per_program)) + sim_time_from_sec(100e-6);
}

static void program_then_read(bool suspend, sim_time_t *read_done, sim_time_t *program_done, rig *g)
{
    rig_open(g, suspend ? "nand.suspend=true" : "nand.suspend=false", NULL);
    uint32_t upb = g->p.units_per_block;
    flash_submit(&g->fl, tagged(g, TX_PROGRAM, 6 * upb, g->p.units_per_program, 1));
    late_read lr = {g, 0};
    sim_handler_id h = sim_register_handler(g->s, "test.late_read", submit_late_read, &lr);
    sim_schedule_at(g->s, read_arrival(g), h, NULL, 0);
    sim_run(g->s, SIM_TIME_MAX);
    cr_assert_eq(g->done, 2);
    for (int i = 0; i < 2; i++) {
        if (g->kinds[i] == TX_READ) *read_done = g->at[i];
        else *program_done = g->at[i];
    }
}

Test(flash, a_read_suspends_a_program)
{
    rig g;
    sim_time_t read_done, program_done;
    program_then_read(true, &read_done, &program_done, &g);
    sim_time_t t = read_arrival(&g);
    sim_time_t program_end = program_cost(&g, g.p.units_per_program);
    cr_assert_gt(program_end, t + g.p.t_suspend, "the program must still run when the read comes");
    sim_time_t out = t + read_cost(&g, 0, 1) - g.p.ecc_decode; /* the page has left the die */
    cr_assert_eq(read_done, out + g.p.ecc_decode, "read done %llu, expected %llu (program end %llu)", (unsigned long long)read_done, (unsigned long long)(out + g.p.ecc_decode), (unsigned long long)program_end);
    cr_assert_eq(program_done, out + (program_end - t) + g.p.t_suspend, "program resumed with what it had left plus t_suspend");
    cr_assert_eq(g.fl.n.suspends, 1);
    rig_close(&g);

    program_then_read(false, &read_done, &program_done, &g);
    cr_assert_eq(program_done, program_end);
    cr_assert_eq(read_done, program_end + read_cost(&g, 0, 1), "without suspension the read waits");
    cr_assert_eq(g.fl.n.suspends, 0);
    rig_close(&g);
}

/* Without cache read a read holds its die until its page has moved out,
 * and the die picks its next operation then. Reads 0-2 and a program are
 * queued at once; read 3 comes while read 0's page moves out. Reads go
 * first and in order, each sensed as the page before it has left: read k
 * is done after the array times and transfers of reads 0..k and its own
 * decode; the program's data crosses the channel once read 3's page has.
 * (Reads 1-3 start without an event to pick them, the program with one:
 * flash.c, start_settled_read.) */
Test(flash, queued_reads_start_as_the_die_frees)
{
    rig g;
    rig_open(&g, "nand.cache_read=false", NULL);
    uint32_t upp = g.p.units_per_program;
    flash_submit(&g.fl, tagged(&g, TX_READ, 0, 1, 0));
    flash_submit(&g.fl, tagged(&g, TX_PROGRAM, 6 * g.p.units_per_block, upp, 4));
    flash_submit(&g.fl, tagged(&g, TX_READ, 1, 1, 1));
    flash_submit(&g.fl, tagged(&g, TX_READ, 2, 1, 2));
    sim_time_t bus = params_bus_time(&g.p, params_bus_bytes(&g.p, 1)), free_at = 0;
    late_read lr = {&g, 3};
    sim_handler_id h = sim_register_handler(g.s, "test.late_read", submit_late_read, &lr);
    sim_schedule_at(g.s, read_cost(&g, 0, 1) - g.p.ecc_decode - bus / 2, h, NULL, 0);
    sim_run(g.s, SIM_TIME_MAX);
    cr_assert_eq(g.done, 5);
    const uint32_t order[5] = {0, 1, 2, 9, 4};
    for (uint32_t k = 0; k < 4; k++) {
        free_at += read_cost(&g, k, 1) - g.p.ecc_decode;
        cr_assert_eq(g.ids[k], order[k], "completion %u is #%u", k, g.ids[k]);
        cr_assert_eq(g.at[k], free_at + g.p.ecc_decode, "read %u done at %llu, expected %llu", k,
                     (unsigned long long)g.at[k], (unsigned long long)(free_at + g.p.ecc_decode));
    }
    cr_assert_eq(g.ids[4], 4u);
    cr_assert_eq(g.at[4], free_at + program_cost(&g, upp), "the program starts as read 3's page has left");
    cr_assert_eq(g.fl.n.reads, 4);
    /* Each read's sensing and its decode, the late read's arrival, one
     * event to pick the program as the die frees, and its end: the reads
     * behind another took no event of their own to be picked. */
    cr_assert_eq(sim_events_run(g.s), 4 * 2 + 1 + 1 + 1);
    rig_close(&g);
}

/* A program's units count as programmed only once it completes. */
Test(flash, units_are_programmed_at_completion)
{
    rig g;
    rig_open(&g, NULL, NULL);
    uint32_t upb = g.p.units_per_block, ppa = 6 * upb;
    flash_submit(&g.fl, tagged(&g, TX_PROGRAM, ppa, g.p.units_per_program, 1));
    cr_assert_not(flash_programmed(&g.fl, ppa));
    sim_run(g.s, SIM_TIME_MAX);
    cr_assert(flash_programmed(&g.fl, ppa));
    cr_assert(flash_programmed(&g.fl, ppa + g.p.units_per_program - 1));
    cr_assert_not(flash_programmed(&g.fl, ppa + g.p.units_per_program));
    flash_submit(&g.fl, tagged(&g, TX_ERASE, ppa, 0, 2));
    sim_run(g.s, SIM_TIME_MAX);
    cr_assert_not(flash_programmed(&g.fl, ppa), "an erase empties the block");
    rig_close(&g);
}

/* A block filled by its last program, then erased, then filled by the
 * preconditioning and cut back: each unit counts as programmed exactly
 * while the block's count covers it (a read asks a bit per full block
 * first, which must follow the count both ways). */
Test(flash, a_full_block_counts_every_unit_until_erased)
{
    rig g;
    rig_open(&g, NULL, NULL);
    uint32_t upb = g.p.units_per_block, upp = g.p.units_per_program, block = 9, first = block * upb;
    flash_set_programmed(&g.fl, block, upb - upp);
    cr_assert_not(flash_programmed(&g.fl, first + upb - 1));
    flash_submit(&g.fl, tagged(&g, TX_PROGRAM, first + upb - upp, upp, 1));
    sim_run(g.s, SIM_TIME_MAX);
    cr_assert(flash_programmed(&g.fl, first) && flash_programmed(&g.fl, first + upb - 1), "the last program fills it");
    cr_assert_not(flash_programmed(&g.fl, first + upb), "the next block holds nothing");
    flash_submit(&g.fl, tagged(&g, TX_ERASE, first, 0, 2));
    sim_run(g.s, SIM_TIME_MAX);
    cr_assert_not(flash_programmed(&g.fl, first) || flash_programmed(&g.fl, first + upb - 1), "an erase empties it");
    flash_set_programmed(&g.fl, block, upb);
    cr_assert(flash_programmed(&g.fl, first + upb - 1));
    flash_set_programmed(&g.fl, block, 5);
    cr_assert(flash_programmed(&g.fl, first + 4));
    cr_assert_not(flash_programmed(&g.fl, first + 5), "no longer full: the count decides");
    rig_close(&g);
}

/* FLIN-like, on the same queue: in units of their service times the read
 * has waited longest, then the program, then the erase. */
Test(flash, flin_scheduler_balances_waits_by_service_time)
{
    queued_order("controller.scheduler=flin", (const int[]){3, 2, 1});
}
