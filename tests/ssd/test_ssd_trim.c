/* TRIM: deallocation, and its cost by mode: blocking stalls every command,
 * throttled shares the firmware, deferred waits for idle time. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>

#include "sim_config.h"
#include "ssd.h"

static const char *const base[] = {
    "controller.channels=2", "controller.dies_per_channel=2", "nand.planes_per_die=2", "nand.pages_per_block=96",
    "nand.blocks_per_plane=64", "drive.user_capacity=600MB", "controller.cores=1", "controller.fw_read=50us",
    "controller.fw_trim=10us", "controller.trim_cost=100ms", "ftl.idle_time=10ms", "host.max_queue_depth=64"};

typedef struct rig {
    cfg *c;
    sim *s;
    ssd *d;
    ssdlab_request reads[4], trim;
    bool reading;
    uint64_t reads_done;
    sim_time_t max_read_latency;
    unsigned seed;
} rig;

/* The base drive with a TRIM mode and further overrides (NULL-ended),
 * preconditioned with a fill. */
static void open_rig_with(rig *g, const char *mode, const char *const *more)
{
    memset(g, 0, sizeof *g);
    g->c = cfg_create(ssdlab_schema());
    for (size_t i = 0; i < sizeof base / sizeof base[0]; i++) cfg_set_override(g->c, base[i]);
    char set[64];
    snprintf(set, sizeof set, "controller.trim_mode=%s", mode);
    cfg_set_override(g->c, set);
    for (; more && *more; more++) cfg_set_override(g->c, *more);
    cr_assert_eq(cfg_error_count(g->c), 0, "%s", cfg_errors(g->c));
    sim_options o = sim_options_from_config(g->c);
    g->s = sim_create(&o);
    char err[256];
    g->d = ssd_create(g->s, g->c, err, sizeof err);
    cr_assert_not_null(g->d, "%s", err);
    ssd_precondition(g->d, 0, NULL);
}

static void open_rig(rig *g, const char *mode) { open_rig_with(g, mode, NULL); }

static void close_rig(rig *g)
{
    ssd_free(g->d);
    sim_free(g->s);
    cfg_free(g->c);
}

static void issue_read(rig *g, ssdlab_request *r);

static void read_done(ssdlab_request *r, void *ctx)
{
    rig *g = ctx;
    g->reads_done++;
    if (r->finish - r->arrival > g->max_read_latency) g->max_read_latency = r->finish - r->arrival;
    if (g->reading) issue_read(g, r);
}

/* Reads of the drive's second half, which the trims below leave alone. */
static void issue_read(rig *g, ssdlab_request *r)
{
    g->seed = g->seed * 1103515245u + 12345u;
    uint64_t half = ssd_capacity(g->d) / 2 / 4096;
    r->op = SSDLAB_READ;
    r->offset = (half + (g->seed >> 4) % half) * 4096;
    r->bytes = 4096;
    cr_assert_eq(ssd_submit(g->d, r, read_done, g), 0);
}

static void trim_done(ssdlab_request *r, void *ctx)
{
    (void)r, (void)ctx;
}

/* Trims the first 256 MiB at time `at` while 4 readers run; stops them at `until`. */
static void trim_under_reads(rig *g, sim_time_t at, sim_time_t until)
{
    g->reading = true;
    for (int i = 0; i < 4; i++) issue_read(g, &g->reads[i]);
    sim_run(g->s, at);
    g->trim = (ssdlab_request){.op = SSDLAB_TRIM, .offset = 0, .bytes = 256u << 20};
    cr_assert_eq(ssd_submit(g->d, &g->trim, trim_done, g), 0);
    sim_run(g->s, until);
    g->reading = false;
    sim_run(g->s, SIM_TIME_MAX);
}

static uint64_t mapped_units(rig *g) { return ssd_ftl(g->d)->mapped; }

/* Blocking: 256 MiB at 100 ms/GiB is 25 ms during which no command is
 * served: the trim completes 25 ms (+ 10 us of firmware) after it is taken
 * up, and a read caught behind it waits that long. */
Test(trim, blocking_stalls_every_command)
{
    rig g;
    open_rig(&g, "blocking");
    uint64_t before = mapped_units(&g);
    trim_under_reads(&g, SIM_MS(100), SIM_MS(300));
    cr_assert_eq(before - mapped_units(&g), 65536, "256 MiB of 4 KiB units are unmapped");
    double took = (double)(g.trim.finish - g.trim.arrival) * 1e-6;
    cr_assert(took > 25 && took < 25.5, "trim took %.3f ms", took);
    double worst = (double)g.max_read_latency * 1e-6;
    cr_assert(worst > 25 && worst < 25.6, "worst read latency %.3f ms", worst);
    close_rig(&g);
}

/* Throttled: the 25 ms of work takes half the core in 20 ms chunks: reads
 * go on at about half their rate for ~50 ms, and a read caught behind a
 * chunk waits up to 20 ms; the trim itself completes at once. */
Test(trim, throttled_shares_the_firmware)
{
    rig g;
    open_rig(&g, "throttled");
    g.reading = true;
    for (int i = 0; i < 4; i++) issue_read(&g, &g.reads[i]);
    sim_run(g.s, SIM_MS(100));
    uint64_t at_start = g.reads_done;
    g.trim = (ssdlab_request){.op = SSDLAB_TRIM, .offset = 0, .bytes = 256u << 20};
    cr_assert_eq(ssd_submit(g.d, &g.trim, trim_done, NULL), 0);
    sim_run(g.s, SIM_MS(150));
    double rate_during = (double)(g.reads_done - at_start) / 0.05;
    g.reading = false;
    sim_run(g.s, SIM_TIME_MAX);
    /* it waits only for the reads ahead of it on the core (4 x 50 us) */
    cr_assert_lt((double)(g.trim.finish - g.trim.arrival), 300e3, "the trim command itself is quick");
    /* 1 core x 50 us: 20,000 reads/s normally; half while trimming */
    cr_assert(rate_during > 0.40 * 20000 && rate_during < 0.62 * 20000, "reads/s while trimming: %.0f", rate_during);
    double worst = (double)g.max_read_latency * 1e-6;
    cr_assert(worst > 15 && worst < 21, "worst read latency %.3f ms", worst);
    close_rig(&g);
}

/* Deferred: trimmed data reads as zeros at once, but the space is reclaimed
 * only in idle time, at 100 ms/GiB: 25 ms for 256 MiB. */
Test(trim, deferred_reclaims_in_idle_time)
{
    rig g;
    open_rig(&g, "deferred");
    uint64_t before = mapped_units(&g);
    g.trim = (ssdlab_request){.op = SSDLAB_TRIM, .offset = 0, .bytes = 256u << 20};
    cr_assert_eq(ssd_submit(g.d, &g.trim, trim_done, NULL), 0);
    ssdlab_request r = {.op = SSDLAB_READ, .offset = 4096, .bytes = 4096};
    cr_assert_eq(ssd_submit(g.d, &r, trim_done, NULL), 0);
    sim_run(g.s, SIM_MS(5)); /* before the 10 ms idle threshold */
    cr_assert_eq(mapped_units(&g), before, "nothing is reclaimed before idle time");
    ssdlab_stats st;
    ssd_stats(g.d, &st);
    cr_assert_eq(st.flash_reads, 0, "a trimmed unit reads as zeros");
    sim_run(g.s, SIM_MS(5 + 10 + 20)); /* idle since ~5 ms: 20 ms of work done */
    uint64_t part = before - mapped_units(&g);
    cr_assert(part > 40000 && part < 60000, "after 20 ms of idle work: %llu units reclaimed", (unsigned long long)part);
    sim_run(g.s, SIM_TIME_MAX);
    cr_assert_eq(before - mapped_units(&g), 65536);
    char err[256];
    cr_assert_eq(ftl_check(ssd_ftl(g.d), err, sizeof err), 0, "%s", err);
    close_rig(&g);
}

/* Free: the mapping goes at once and nothing else is charged: the command
 * costs its firmware time and three SATA FISes of 650 ns (the command, its
 * acceptance, set device bits). */
Test(trim, free_unmaps_at_once)
{
    rig g;
    open_rig(&g, "free");
    uint64_t before = mapped_units(&g);
    g.trim = (ssdlab_request){.op = SSDLAB_TRIM, .offset = 0, .bytes = 256u << 20};
    cr_assert_eq(ssd_submit(g.d, &g.trim, trim_done, NULL), 0);
    sim_run(g.s, SIM_MS(1));
    cr_assert_eq(before - mapped_units(&g), 65536);
    cr_assert_eq(g.trim.finish - g.trim.arrival, 10000 + 3 * 650, "fw_trim and the FISes only");
    close_rig(&g);
}

/* --- TRIM's work from where the mapping table lives ------------------------ */

/* How long a blocking TRIM of `mib` MiB at offset 0 takes from submission,
 * on an idle drive of `capacity` with its work derived (no trim_cost). */
static sim_time_t derived_trim_latency(const char *capacity, const char *mapping, uint32_t mib, const ssd_params **params,
                                       rig *g)
{
    open_rig_with(g, "blocking", (const char *const[]){"controller.trim_cost=0", capacity, mapping, "ftl.map_cache=4KiB", NULL});
    g->trim = (ssdlab_request){.op = SSDLAB_TRIM, .offset = 0, .bytes = mib << 20};
    cr_assert_eq(ssd_submit(g->d, &g->trim, trim_done, NULL), 0);
    sim_run(g->s, SIM_TIME_MAX);
    *params = ssd_params_of(g->d);
    return g->trim.finish - g->trim.arrival;
}

/* The command's three FISes of 650 ns and its 10 us of firmware, besides
 * the work. */
static const sim_time_t trim_command_ns = 3 * 650 + 10000;

/* A DRAM table: two DRAM accesses of 90 ns per unit (its entry, its
 * block's valid count): 256 MiB is 65,536 units, 11.8 ms, whatever the
 * drive's capacity; twice the range, twice the work. */
Test(trim, dram_work_is_two_accesses_per_unit_at_any_capacity)
{
    rig g;
    const ssd_params *p;
    for (int k = 0; k < 2; k++) {
        const char *capacity = k ? "drive.user_capacity=300MB" : "drive.user_capacity=600MB";
        sim_time_t t256 = derived_trim_latency(capacity, "ftl.mapping=dram", 256, &p, &g);
        close_rig(&g);
        sim_time_t t128 = derived_trim_latency(capacity, "ftl.mapping=dram", 128, &p, &g);
        close_rig(&g);
        cr_assert_eq(t256, trim_command_ns + 65536 * 2 * 90, "%s: 256 MiB in %llu ns", capacity, (unsigned long long)t256);
        cr_assert_eq(t128, trim_command_ns + 32768 * 2 * 90, "%s: 128 MiB in %llu ns", capacity, (unsigned long long)t128);
    }
}

/* DRAM-less: two SRAM accesses of 10 ns per unit, and first each of the
 * range's translation units the cache does not hold (a unit of 1,024
 * entries: 4 MiB of the drive; the cache holds one) read from the flash:
 * the mean tR, the unit's transfer with its spare share, the decode. */
Test(trim, dramless_work_reads_the_translation_units_it_lacks_at_any_capacity)
{
    rig g;
    const ssd_params *p;
    for (int k = 0; k < 2; k++) {
        const char *capacity = k ? "drive.user_capacity=300MB" : "drive.user_capacity=600MB";
        sim_time_t t = derived_trim_latency(capacity, "ftl.mapping=cached", 256, &p, &g);
        double t_read = 0;
        for (uint32_t i = 0; i < p->bits_per_cell; i++) t_read += (double)p->t_read[i];
        double map_read = floor(t_read / p->bits_per_cell) + (double)params_bus_time(p, params_bus_bytes(p, 1)) +
                          (double)p->ecc_decode;
        double want = (double)trim_command_ns + 65536 * 2 * 10 + 64 * map_read;
        close_rig(&g);
        cr_assert_eq((double)t, want, "%s: 256 MiB in %llu ns, closed form %.0f", capacity, (unsigned long long)t, want);
    }
}
