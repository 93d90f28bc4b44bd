/* The media's bit errors and the ECC's ladder (controller.ecc_model = rber)
 * against their closed forms: the power-law RBER, the Arrhenius factor,
 * the binomial decode probability, the ladder's step distribution, and
 * what each step costs a read on the timed path. */
#include <criterion/criterion.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>

#include "drive_rig.h"
#include "flash.h"
#include "workload.h"

static media_params model(void)
{
    return (media_params){.model = ECC_RBER, .fresh = 2e-4, .wear = 3e-10, .wear_exponent = 2.1,
                          .retention = 4e-7, .retention_wear_exponent = 0.6, .retention_exponent = 0.45,
                          .disturb = 5e-10, .disturb_wear_exponent = 0.5, .disturb_exponent = 1.2,
                          .page_factor = {0.7, 1, 1.3, 1}, .slc_factor = 0.1, .activation_ev = 1.1,
                          .reference_c = 25, .codeword_bytes = 2048, .codeword_bits = 18432, .hard_limit = 90,
                          .soft_limit = 200, .retry_steps = 5, .retry_gain = 0.8};
}

Test(media, rber_is_the_power_law_of_wear_retention_and_reads)
{
    media_params mp = model();
    /* N = 2000 cycles, t = 5000 h, r = 40,000 reads, an MSB page (1.3):
     * 2e-4 + 3e-10 * 2000^2.1 + 4e-7 * 2000^0.6 * 5000^0.45 + 5e-10 * 2000^0.5 * 40000^1.2 */
    double want = 1.3 * (2e-4 + 3e-10 * 8.553877e6 + 4e-7 * 95.63525 * 46.18878 + 5e-10 * 44.72136 * 3.330213e5);
    cr_assert_float_eq(want, 0.0155736, 1e-7);
    cr_assert_float_eq(media_rber(&mp, 2000, 5000, 40000, 1.3), want, want * 1e-6);
    cr_assert_float_eq(media_rber(&mp, 0, 0, 0, 1), 2e-4, 1e-15, "a fresh page: e alone");
    cr_assert_eq(media_rber(&mp, 1e9, 0, 0, 1), 0.5, "clamped to a coin's error rate");
}

Test(media, retention_is_accelerated_by_arrhenius)
{
    media_params mp = model();
    cr_assert_float_eq(media_acceleration(&mp, 25), 1.0, 1e-12);
    /* exp(1.1 eV / k (1/298.15 K - 1/313.15 K)) = exp(2.0508) */
    cr_assert_float_eq(media_acceleration(&mp, 40), 7.774137, 1e-5);
    cr_assert_float_eq(media_acceleration(&mp, 85) / media_acceleration(&mp, 55), exp(1.1 / 8.617333262e-5 * (1 / 328.15 - 1 / 358.15)),
                       1e-9);
}

/* P(a codeword decodes) = P(Binomial(n, RBER) <= limit), from the pmf. */
Test(media, decode_probability_is_the_binomial_tail)
{
    media_params mp = model();
    double rber = 4.5e-3, one = 0;
    for (unsigned k = 0; k <= mp.hard_limit; k++) one += gsl_ran_binomial_pdf(k, rber, mp.codeword_bits);
    cr_assert_float_eq(media_decode_probability(&mp, rber, mp.hard_limit, 1), one, 1e-9);
    cr_assert_float_eq(media_decode_probability(&mp, rber, mp.hard_limit, 2), one * one, 1e-9);
    cr_assert(one > 0.05 && one < 0.95, "the rate is near the limit: %g", one);
    cr_assert_eq(media_decode_probability(&mp, 1e-4, mp.hard_limit, 2), 1.0, "far below the limit: certain");
}

/* Reads at one error rate: the share that needs i steps is P_i - P_{i-1},
 * with P_i the decode probability at RBER x gain^i; then the soft decoder
 * at the last step's rate; then nothing. 200,000 draws: each share within
 * five standard errors. */
Test(media, ladder_steps_follow_their_thresholds)
{
    media_params mp = model();
    double rber = 7e-3;
    enum { DRAWS = 200000 };
    uint64_t seen[MEDIA_MAX_RETRY_STEPS + 3] = {0};
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    for (int i = 0; i < DRAWS; i++) {
        media_outcome o = media_decide(&mp, rber, 2, gsl_rng_uniform(rng));
        seen[o.failed ? mp.retry_steps + 2 : o.soft ? mp.retry_steps + 1 : o.retries]++;
    }
    gsl_rng_free(rng);
    double below = 0, r = rber;
    int spread = 0;
    for (uint32_t i = 0; i <= mp.retry_steps + 2; i++) {
        double upto = i <= mp.retry_steps ? media_decode_probability(&mp, r, mp.hard_limit, 2)
                    : i == mp.retry_steps + 1 ? media_decode_probability(&mp, r, mp.soft_limit, 2) : 1.0;
        double share = upto - below, got = (double)seen[i] / DRAWS;
        double se = sqrt(share * (1 - share) / DRAWS) + 1e-6;
        cr_assert_lt(fabs(got - share), 5 * se, "outcome %u: %.5f of reads, the ladder says %.5f", i, got, share);
        spread += share > 0.01;
        below = upto;
        if (i < mp.retry_steps) r *= mp.retry_gain;
    }
    cr_assert_geq(spread, 3, "the rate spreads reads over several steps");
}

/* A BCH code (soft limit = hard limit) has no soft read: past the ladder
 * the read fails at once; with LDPC the same rate goes to the soft read. */
Test(media, a_decoder_without_soft_decisions_fails_after_the_ladder)
{
    media_params mp = model();
    media_outcome ldpc = media_decide(&mp, 0.02, 2, 0.5);
    cr_assert(ldpc.soft && !ldpc.failed && ldpc.retries == mp.retry_steps, "LDPC: %u steps, soft %u, failed %u",
              ldpc.retries, ldpc.soft, ldpc.failed);
    mp.soft_limit = mp.hard_limit;
    media_outcome bch = media_decide(&mp, 0.02, 2, 0.5);
    cr_assert(!bch.soft && bch.failed && bch.retries == mp.retry_steps, "BCH: %u steps, soft %u, failed %u", bch.retries,
              bch.soft, bch.failed);
}

/* --- on the timed path ------------------------------------------------------ */

/* test_ssd_timing's small drive: tR 50 us on every page type, 2 us decode,
 * 4 KiB units of two 2 KiB codewords (18,432 bits each with the spare). */
static const char *const drive[] = {
    "controller.channels=2", "controller.dies_per_channel=2", "nand.planes_per_die=2", "nand.pages_per_block=96",
    "nand.blocks_per_plane=64", "nand.page_size=16KiB", "nand.spare_size=2KiB", "nand.bits_per_cell=3",
    "drive.user_capacity=600MB", "nand.t_read_lsb=50us", "nand.t_read_csb=50us", "nand.t_read_msb=50us",
    "controller.ecc_decode=2us", "controller.bus_rate=533MT/s", "host.interface=sata",
    "workload.precondition=fill", "workload.queue_depth=1", "workload.requests=3000", "workload.warmup=0",
    "controller.ecc_model=rber", "controller.ecc_hard_limit=150", "controller.ecc_soft_limit=200",
    "controller.read_retry_gain=0.25", "controller.soft_reads=3", "controller.soft_decode=30us", NULL};

typedef struct reads {
    double mean_ns;
    ssdlab_stats st;
    uint64_t outcomes[ECC_OUTCOMES];
    uint64_t block_reads;
    ssd_media_events ev;
    char check[256]; /* the FTL checker's complaint, or empty */
} reads;

/* The test drive with more settings, preconditioned, and run when asked. */
static workload *prepared(drive_rig *g, const char *const *more, bool run)
{
    drive_rig_open(g, drive, more);
    char err[512];
    workload *w = workload_create(g->s, g->d, g->c, err, sizeof err);
    cr_assert_not_null(w, "%s", err);
    workload_precondition(w);
    workload_result res;
    if (run) cr_assert_eq(workload_run(w, &res, err, sizeof err), 0, "%s", err);
    return w;
}

/* QD1 random reads of a filled drive with the drive's settings and more. */
static reads run_reads(const char *const *more)
{
    drive_rig g;
    workload *w = prepared(&g, more, true);
    reads r = {0};
    ssd_stats(g.d, &r.st);
    r.mean_ns = r.st.latency_sum_ns[SSDLAB_READ] / (double)r.st.completed[SSDLAB_READ];
    ssd_ecc_outcomes(g.d, r.outcomes);
    const ssd_params *p = ssd_params_of(g.d);
    const media *m = ssd_media(g.d);
    r.block_reads = 0;
    for (size_t b = 0; b < (size_t)p->dies * p->blocks_per_die; b++) r.block_reads += m->blocks[b].reads;
    ssd_media_events_get(g.d, &r.ev);
    r.check[0] = 0;
    ftl_check(ssd_ftl(g.d), r.check, sizeof r.check);
    workload_free(w);
    drive_rig_close(&g);
    return r;
}

static double bus_ns(uint32_t units)
{
    drive_rig g;
    drive_rig_open(&g, drive, (const char *const[]){"nand.rber_fresh=1e-3", NULL});
    const ssd_params *p = ssd_params_of(g.d);
    double t = (double)params_bus_time(p, params_bus_bytes(p, units));
    drive_rig_close(&g);
    return t;
}

static reads random_reads(const char *fresh, const char *steps) { return run_reads((const char *const[]){fresh, steps, NULL}); }

/* RBER 1e-3 (18 errors a codeword against 150): every read decodes at
 * once. RBER 2e-2 (369 errors) fails; one step (x 0.25: 92 errors, six
 * standard deviations below 150) corrects: each read costs one more tR,
 * transfer and decode, to the nanosecond on the mean. */
Test(media, a_ladder_step_costs_a_read_transfer_and_decode)
{
    reads clean = random_reads("nand.rber_fresh=1e-3", "controller.read_retry_steps=3");
    reads once = random_reads("nand.rber_fresh=2e-2", "controller.read_retry_steps=3");
    uint64_t n = clean.st.completed[SSDLAB_READ];
    cr_assert_eq(clean.outcomes[0], n);
    cr_assert_eq(once.outcomes[1], n, "%llu of %llu reads took one step", (unsigned long long)once.outcomes[1],
                 (unsigned long long)n);
    cr_assert_eq(once.st.read_retries, n);
    cr_assert_eq(once.st.flash_reads, 2 * clean.st.flash_reads);
    double want = 50000 + bus_ns(1) + 2000;
    cr_assert_float_eq(once.mean_ns - clean.mean_ns, want, 1.0, "one step: %.1f ns more, closed form %.1f",
                       once.mean_ns - clean.mean_ns, want);
    cr_assert_eq(once.block_reads, once.st.flash_reads, "every sensing counts against its block");
}

/* RBER 0.3 with no ladder: the hard decoder fails (5,530 errors), the
 * soft read at the same rate fails too: every read is uncorrectable, and
 * each costs three sensings, three transfers and the soft decode more. */
Test(media, uncorrectable_reads_are_counted_and_cost_the_soft_read)
{
    reads clean = random_reads("nand.rber_fresh=1e-3", "controller.read_retry_steps=0");
    reads lost = random_reads("nand.rber_fresh=0.3", "controller.read_retry_steps=0");
    uint64_t n = clean.st.completed[SSDLAB_READ];
    cr_assert_eq(lost.st.uncorrectable_reads, n);
    cr_assert_eq(lost.outcomes[2], n, "the failed bucket follows the soft one");
    cr_assert_eq(lost.st.soft_reads, n);
    cr_assert_eq(lost.st.refused, n, "the host hears of every one (Unrecovered Read Error)");
    double want = 3 * 50000 + bus_ns(3) + 30000;
    cr_assert_float_eq(lost.mean_ns - clean.mean_ns, want, 1.0, "soft read: %.1f ns more, closed form %.1f",
                       lost.mean_ns - clean.mean_ns, want);
    cr_assert_eq(lost.block_reads, lost.st.flash_reads + 2 * n, "a soft read senses three times");
}

/* Aging: retention hours at 40 C count 7.774 times, and the block's error
 * rate is the model's at those hours. */
Test(media, aging_adds_accelerated_retention)
{
    drive_rig g;
    workload *w = prepared(&g, (const char *const[]){"nand.rber_fresh=1e-4", "nand.rber_retention=1e-6",
                                                     "nand.rber_retention_wear_exponent=0", NULL}, false);
    ssd_age(g.d, 1000, 40);
    const ssd_params *p = ssd_params_of(g.d);
    const media *m = ssd_media(g.d);
    uint32_t written = 0;
    for (uint32_t b = 0; b < p->dies * p->blocks_per_die; b++) {
        if (!ssd_ftl(g.d)->blocks[b].write_ptr) continue;
        written++;
        double hours = 1000 * media_acceleration(&p->media, 40);
        double want = media_rber(&p->media, ssd_ftl(g.d)->blocks[b].erase_count, hours, 0, 1);
        cr_assert_float_eq(media_block_rber(m, p, b, 0, ssd_ftl(g.d)->blocks[b].erase_count, 0, sim_now(g.s)), want,
                           want * 1e-9);
        cr_assert_float_eq(want, 1.8817107e-4, 1e-11);
    }
    cr_assert_gt(written, 100u);
    workload_free(w);
    drive_rig_close(&g);
}

Test(media, refuses_an_incomplete_model)
{
    const char *const on[] = {"controller.ecc_model=rber", NULL};
    drive_rig_refused(on, NULL, "'nand.rber_fresh' is 0");
    drive_rig_refused(on, (const char *const[]){"nand.rber_fresh=1e-4", NULL}, "'controller.ecc_hard_limit' is 0");
    drive_rig_refused(on, (const char *const[]){"nand.rber_fresh=1e-4", "controller.ecc_hard_limit=50", NULL},
                      "'controller.ecc_soft_limit' (0) is below");
    drive_rig_refused(on, (const char *const[]){"nand.rber_fresh=1e-4", "controller.ecc_hard_limit=50",
                                                "controller.ecc_soft_limit=60", "controller.read_retry=0.1", NULL},
                      "whose retries follow from the error rate");
}

/* precondition=age: the same steady state as 'steady' (same seed), with
 * age_wear x nand.pe_cycles more erases on every block, and retention of
 * 1y at 40 C (a year is 8,760 h; d and y are time units). */
static ssd *preconditioned(drive_rig *g, workload **w, const char *const *more)
{
    *w = prepared(g, more, false);
    return g->d;
}

Test(media, aging_adds_cycles_to_every_block_and_keeps_the_steady_state)
{
    drive_rig gs, ga;
    workload *ws, *wa;
    ssd *steady = preconditioned(&gs, &ws, (const char *const[]){"nand.rber_fresh=1e-4", "nand.pe_cycles=1000",
                                                                 "workload.precondition=steady", NULL});
    ssd *aged = preconditioned(&ga, &wa, (const char *const[]){"nand.rber_fresh=1e-4", "nand.pe_cycles=1000",
                                                               "workload.precondition=age", "workload.age_wear=35%",
                                                               "workload.age_retention=1y", "workload.age_temperature=40", NULL});
    cr_assert_eq(cfg_uint(ga.c, "workload.age_retention"), UINT64_C(8760) * 3600 * 1000000000);
    const ssd_params *p = ssd_params_of(aged);
    uint64_t worn = 0;
    for (uint32_t b = 0; b < p->dies * p->blocks_per_die; b++) {
        const ftl_block *s = &ssd_ftl(steady)->blocks[b], *a = &ssd_ftl(aged)->blocks[b];
        cr_assert_eq(a->erase_count, s->erase_count + 350, "block %u", b);
        cr_assert_eq(a->write_ptr, s->write_ptr, "block %u holds the same data", b);
        worn += s->erase_count > 0;
        double hours = a->write_ptr ? 8760 * media_acceleration(&p->media, 40) : 0;
        double want = media_rber(&p->media, a->erase_count, hours, 0, 1);
        cr_assert_float_eq(media_block_rber(ssd_media(aged), p, b, 0, a->erase_count, 0, sim_now(ga.s)), want, want * 1e-9);
    }
    cr_assert_gt(worn, 100u, "the steady state had erased blocks of its own");
    workload_free(ws);
    workload_free(wa);
    drive_rig_close(&gs);
    drive_rig_close(&ga);
}

/* --- the firmware's reactions ----------------------------------------------- */

/* 3,000 QD1 reads of one 4 KiB unit: its block reaches 1,000 reads at the
 * 1,000th and is moved, once; the block its data went to is GC's open
 * block, which is not reclaimed while open. At 5,000 nothing moves. */
Test(media, read_reclaim_fires_at_its_read_count)
{
    const char *const one_unit[] = {"nand.rber_fresh=1e-4", "controller.read_retry_steps=0", "workload.region_size=4KiB",
                                    "ftl.read_reclaim_reads=1000", NULL};
    reads moved = run_reads(one_unit);
    cr_assert_eq(moved.ev.jobs[MEDIA_DISTURBED], 1);
    cr_assert_eq(moved.ev.jobs[MEDIA_ERRORS] + moved.ev.jobs[MEDIA_STALE], 0);
    cr_assert_gt(moved.ev.moved[MEDIA_DISTURBED], 0, "the block's valid units moved");
    cr_assert_eq(moved.st.reclaimed_blocks, 1);
    cr_assert_str_empty(moved.check, "%s", moved.check);
    reads kept = run_reads((const char *const[]){"nand.rber_fresh=1e-4", "controller.read_retry_steps=0",
                                                 "workload.region_size=4KiB", "ftl.read_reclaim_reads=5000", NULL});
    cr_assert_eq(kept.ev.jobs[MEDIA_DISTURBED], 0);
    cr_assert_eq(kept.block_reads, 3000, "one block took every read");
}

/* Every read needs one ladder step (RBER 2e-2, gain 0.25): with the
 * threshold at one step the blocks read are moved; at two, none. */
Test(media, read_reclaim_fires_at_its_ladder_steps)
{
    reads at1 = run_reads((const char *const[]){"nand.rber_fresh=2e-2", "controller.read_retry_steps=3",
                                                "ftl.read_reclaim_steps=1", NULL});
    reads at2 = run_reads((const char *const[]){"nand.rber_fresh=2e-2", "controller.read_retry_steps=3",
                                                "ftl.read_reclaim_steps=2", NULL});
    cr_assert_gt(at1.ev.jobs[MEDIA_ERRORS], 10);
    cr_assert_eq(at1.ev.jobs[MEDIA_DISTURBED] + at1.ev.jobs[MEDIA_STALE], 0);
    cr_assert_str_empty(at1.check, "%s", at1.check);
    cr_assert_eq(at2.ev.jobs[MEDIA_ERRORS], 0);
}

/* Data kept 1,000 h at 25 C: a refresh age of 900 h moves the blocks read,
 * one of 1,100 h none. */
Test(media, refresh_moves_data_past_its_age)
{
    const char *const aged[] = {"nand.rber_fresh=1e-4", "workload.precondition=age", "workload.age_retention=1000h",
                                "workload.age_temperature=25", "controller.read_retry_steps=0", NULL};
    reads young = run_reads((const char *const[]){aged[0], aged[1], aged[2], aged[3], aged[4], "ftl.refresh_age=1100h", NULL});
    reads old = run_reads((const char *const[]){aged[0], aged[1], aged[2], aged[3], aged[4], "ftl.refresh_age=900h", NULL});
    cr_assert_eq(young.ev.jobs[MEDIA_STALE], 0);
    cr_assert_gt(old.ev.jobs[MEDIA_STALE], 10);
    cr_assert_eq(old.st.refreshed_blocks, old.ev.jobs[MEDIA_STALE]);
    cr_assert_str_empty(old.check, "%s", old.check);
}

/* Blocks rated for 4 cycles that fail near them (spread 30 %): steady
 * preconditioning and random writes retire some. A retired block is in no
 * free list and never again in service; no die retires past its share of
 * the spare blocks, and a block past its limit stays in service only on a
 * die that reached it. Returns the blocks retired; *worn: erases of worn
 * blocks kept in service. */
static uint64_t retire_run(const char *capacity, uint64_t *worn, uint64_t *room)
{
    drive_rig g;
    workload *w = prepared(&g, (const char *const[]){"controller.ecc_model=probability", capacity, "nand.pe_cycles=4",
                                                     "nand.endurance=1", "nand.endurance_spread=30%",
                                                     "workload.precondition=steady", "workload.steady_overwrites=3",
                                                     "workload.read_share=0", NULL}, true);
    char err[512];
    const ftl *f = ssd_ftl(g.d);
    const ssd_params *p = ssd_params_of(g.d);
    uint64_t retired = 0;
    for (uint32_t d = 0; d < p->dies; d++) {
        uint32_t on_die = 0;
        for (uint32_t i = 0; i < f->dies[d].free_count; i++)
            cr_assert_neq(f->blocks[f->dies[d].free[i]].state, BLOCK_RETIRED, "a retired block is free");
        for (uint32_t b = d * p->blocks_per_die; b < (d + 1) * p->blocks_per_die; b++) {
            on_die += f->blocks[b].state == BLOCK_RETIRED;
            if (f->blocks[b].state == BLOCK_FREE && f->blocks[b].erase_count >= f->ret.limit[b])
                cr_assert_eq(f->dies[d].retired, f->ret.spare_blocks, "block %u is worn out, free, and its die has room", b);
        }
        cr_assert_eq(on_die, f->dies[d].retired);
        cr_assert_leq(on_die, f->ret.spare_blocks);
        retired += on_die;
    }
    cr_assert_eq(retired, f->retired);
    cr_assert_eq(ftl_check(f, err, sizeof err), 0, "%s", err);
    *worn = f->worn_erases;
    *room = (uint64_t)p->dies * f->ret.spare_blocks;
    workload_free(w);
    drive_rig_close(&g);
    return retired;
}

/* 400 MB on 768 MiB of flash: room to retire every block that fails (26
 * of 48); 600 MB: the spare runs out, worn blocks stay in service. */
Test(media, retired_blocks_leave_the_free_pool)
{
    uint64_t worn, room;
    uint64_t retired = retire_run("drive.user_capacity=400MB", &worn, &room);
    cr_assert(retired > 10 && retired < room && worn == 0, "retired %llu of %llu, worn %llu", (unsigned long long)retired,
              (unsigned long long)room, (unsigned long long)worn);
    retired = retire_run("drive.user_capacity=600MB", &worn, &room);
    cr_assert(retired == room && worn > 0, "retired %llu of %llu, worn %llu", (unsigned long long)retired,
              (unsigned long long)room, (unsigned long long)worn);
}
