/* Power loss (workload.phase = power_loss) against its closed forms: an
 * unprotected drive loses exactly the acknowledged units its part-filled
 * program unit held, a protected one none, and the mapping's rebuild takes
 * the time of the flash reads it needs. */
#include <criterion/criterion.h>
#include <math.h>

#include "drive_rig.h"
#include "workload.h"

/* One die, two planes, 96 TLC pages a block: a one-shot program unit of
 * 3 pages x 2 planes x 4 units = 24 units of 4 KiB; no SLC cache; QD 1
 * sequential writes from an empty drive. */
static const char *const drive[] = {
    "controller.channels=1", "controller.dies_per_channel=1", "nand.planes_per_die=2", "nand.pages_per_block=96",
    "nand.blocks_per_plane=64", "nand.page_size=16KiB", "nand.spare_size=2KiB", "nand.bits_per_cell=3",
    "drive.user_capacity=120MB", "nand.t_read_lsb=50us", "nand.t_read_csb=60us", "nand.t_read_msb=70us",
    "nand.t_read_slc=30us", "nand.program_style=one-shot", "controller.bus_rate=400MT/s",
    "controller.t_bus_command=200ns", "workload.precondition=none", "workload.pattern=sequential",
    "workload.block_size=4KiB", "workload.queue_depth=1", "workload.read_share=0", "workload.warmup=0", NULL};

enum { UNIT_OF_PROGRAM = 24 };

typedef struct cut {
    powerloss_log log;
    sim_time_t rebuild;
    char check[256];
} cut;

/* Writes `units` units in order, lets the drive finish its flash work,
 * then the power fails. */
static cut write_then_cut(uint64_t units, const char *protection, const char *rebuild)
{
    char requests[64];
    snprintf(requests, sizeof requests, "workload.requests=%llu", (unsigned long long)units);
    drive_rig g;
    drive_rig_open(&g, drive, (const char *const[]){requests, protection, rebuild, NULL});
    cr_assert_eq(ssd_params_of(g.d)->units_per_program, UNIT_OF_PROGRAM);
    cr_assert_eq(ftl_enable_versions(ssd_ftl(g.d)), 0);
    char err[512];
    workload *w = workload_create(g.s, g.d, g.c, err, sizeof err);
    cr_assert_not_null(w, "%s", err);
    workload_result r;
    cr_assert_eq(workload_run(w, &r, err, sizeof err), 0, "%s", err);
    sim_run(g.s, SIM_TIME_MAX); /* the flash work under way ends: only part-filled units are left */
    cut c = {0};
    const ftl *f = ssd_ftl(g.d);
    sim_time_t before = sim_now(g.s);
    cr_assert_eq(ssd_power_loss(g.d), 0);
    const powerloss_log *pl = ssd_power_loss_log(g.d);
    c.rebuild = (sim_time_t)(pl->rebuild_s * 1e9 + 0.5);
    /* the clock: the flush, then the rebuild, then the firmware's padding of what it had begun */
    cr_assert_geq(sim_now(g.s) - before, (sim_time_t)((pl->flush_s + pl->rebuild_s) * 1e9));
    c.log = *pl;
    c.log.lost_lpns = NULL;
    if (pl->lost_count) {
        c.log.lost_lpns = malloc(pl->lost_count * sizeof *c.log.lost_lpns);
        memcpy(c.log.lost_lpns, pl->lost_lpns, pl->lost_count * sizeof *c.log.lost_lpns);
    }
    ftl_check(f, c.check, sizeof c.check);
    workload_free(w);
    drive_rig_close(&g);
    return c;
}

/* 5 program units and 7 units: the last 7 acknowledged units were in the
 * buffer. Unprotected, exactly they are lost (the last seven logical
 * units, in order), and every other unit still maps to its latest write
 * (the checker's versions); with capacitors nothing is. */
Test(powerloss, an_unprotected_drive_loses_what_its_buffer_held)
{
    cut lost = write_then_cut(5 * UNIT_OF_PROGRAM + 7, "drive.power_loss_protection=none", "ftl.rebuild=checkpoint");
    cr_assert_eq(lost.log.lost_units, 7);
    cr_assert_eq(lost.log.lost_relocated, 0);
    cr_assert_eq(lost.log.lost_count, 7);
    for (uint32_t i = 0; i < 7; i++) cr_assert_eq(lost.log.lost_lpns[i], 5 * UNIT_OF_PROGRAM + i);
    cr_assert_str_empty(lost.check, "%s", lost.check);
    free(lost.log.lost_lpns);

    cut whole = write_then_cut(5 * UNIT_OF_PROGRAM, "drive.power_loss_protection=none", "ftl.rebuild=checkpoint");
    cr_assert_eq(whole.log.lost_units, 0, "whole program units are on the flash");

    cut kept = write_then_cut(5 * UNIT_OF_PROGRAM + 7, "drive.power_loss_protection=capacitors", "ftl.rebuild=checkpoint");
    cr_assert_eq(kept.log.lost_units + kept.log.lost_relocated, 0);
    cr_assert_str_empty(kept.check, "%s", kept.check);
    /* the flush: one program unit padded and programmed (a one-shot TLC program, 2 ms by default, and its transfer) */
    cr_assert(kept.log.flush_s > 2e-3 && kept.log.flush_s < 3e-3, "flush %.6f s", kept.log.flush_s);
    cr_assert_gt(kept.log.flush_energy_j, 0);
    cr_assert_eq(kept.log.holdup_short, 0);

    /* capacitors that hold less than the padded program's energy (60 mW x 2 ms = 120 uJ): the flush is cut, all 7 lost */
    cut short_ = write_then_cut(5 * UNIT_OF_PROGRAM + 7, "drive.power_loss_protection=capacitors", "drive.holdup_energy=5e-5");
    cr_assert_eq(short_.log.holdup_short, 1);
    cr_assert_eq(short_.log.lost_units, 7);
    cr_assert_str_empty(short_.check, "%s", short_.check);
    free(short_.log.lost_lpns);
}

/* The rebuild by scan reads every programmed page's spare area: per
 * multi-plane read (2 planes x 4 units) the mean TLC tR (60 us), and on
 * the channel 200 ns + 2 KiB at 400 MB/s per page; the die's reads take
 * the longer here. 10 blocks and 5 program units after the flush (7,800
 * units): 975 reads, 1,950 pages. By checkpoint: the table (4 B x 29,296
 * entries, 7.2 pages at 30 us in SLC over 2 planes) and the open block's
 * 120 units. */
Test(powerloss, the_rebuild_takes_its_reads)
{
    const uint32_t upb = 2 * 96 * 4; /* units a block */
    cut scan = write_then_cut(10 * upb + 4 * UNIT_OF_PROGRAM + 4, "drive.power_loss_protection=capacitors", "ftl.rebuild=scan");
    uint32_t programmed = 10 * upb + 5 * UNIT_OF_PROGRAM; /* the flush padded the last unit */
    double reads = 10.0 * (upb / 8) + ceil((programmed - 10.0 * upb) / 8);
    double pages = 10.0 * (upb / 4) + ceil((programmed - 10.0 * upb) / 4);
    double array = reads * 60000, bus = pages * (200 + 2048 / 0.4);
    cr_assert_lt(fabs((double)scan.rebuild - fmax(array, bus)), 2.0, "scan: %llu ns, closed form %.0f (array %.0f, bus %.0f)",
                 (unsigned long long)scan.rebuild, fmax(array, bus), array, bus);

    cut ckpt = write_then_cut(10 * upb + 4 * UNIT_OF_PROGRAM + 4, "drive.power_loss_protection=capacitors", "ftl.rebuild=checkpoint");
    double entries = 120e6 / 4096; /* logical units */
    double table_pages = 4 * floor(entries) / 16384;
    double open_units = programmed - 10.0 * upb;
    double want = table_pages / 2 * 30000 + ceil(open_units / 8) * 60000;
    double want_bus = (table_pages + ceil(open_units / 4)) * (200 + 2048 / 0.4);
    cr_assert_lt(fabs((double)ckpt.rebuild - fmax(want, want_bus)), 2.0, "checkpoint: %llu ns, closed form %.0f",
                 (unsigned long long)ckpt.rebuild, fmax(want, want_bus));
}
