/* Flexible data placement (fdp.handles): each placement handle's writes
 * fill reclaim units of their own, so two tenants that each overwrite
 * only their own data leave GC nothing to move (write amplification
 * exactly 1) where a conventional drive mixes them and moves data; with
 * persistently isolated handles GC keeps each handle's data apart, with
 * initially isolated ones it may mix them; the FDP log adds up. */
#include <criterion/criterion.h>
#include <unistd.h>

#include "drive_rig.h"
#include "ftl.h"
#include "workload.h"

/* 4 dies (2 x 2) of 64 blocks, about 12 % spare. */
static const char *const base[] = {
    "host.interface=nvme", "controller.channels=2", "controller.dies_per_channel=2", "nand.planes_per_die=2",
    "nand.pages_per_block=96", "nand.blocks_per_plane=64", "drive.user_capacity=660MB", "slc.cache=none", NULL};

typedef struct rig {
    cfg *c;
    sim *s;
    ssd *d;
    drive_rig drive;
    uint64_t cap, cursor[2]; /* tenant A: [0, 30 %), B: [30 %, 100 %) */
    unsigned seed;
    bool random;
} rig;

static void open_rig_as(rig *g, const char *const *more, bool fill)
{
    memset(g, 0, sizeof *g);
    drive_rig_open(&g->drive, base, more);
    g->c = g->drive.c, g->s = g->drive.s, g->d = g->drive.d;
    g->cap = ssd_capacity(g->d) / 65536 * 65536;
    if (fill) ssd_precondition(g->d, 0, NULL);
}

static void open_rig(rig *g, const char *const *more) { open_rig_as(g, more, true); }

static void close_rig(rig *g)
{
    char err[256];
    cr_assert_eq(ftl_check(ssd_ftl(g->d), err, sizeof err), 0, "%s", err);
    drive_rig_close(&g->drive);
}

static uint64_t region_start(const rig *g, int t) { return t ? g->cap * 3 / 10 / 65536 * 65536 : 0; }
static uint64_t region_end(const rig *g, int t) { return t ? g->cap : region_start(g, 1); }

/* The next 64 KiB write of tenant t: in order (a log) or at random in its region. */
static uint64_t next_offset(rig *g, int t)
{
    uint64_t start = region_start(g, t), blocks = (region_end(g, t) - start) / 65536;
    if (g->random) {
        g->seed = g->seed * 1103515245u + 12345u;
        return start + (g->seed >> 4) % blocks * 65536;
    }
    uint64_t at = start + g->cursor[t] % blocks * 65536;
    g->cursor[t]++;
    return at;
}

static void noted(ssdlab_request *r, void *ctx) { (void)r, (void)ctx; }

/* The two tenants write `laps` times the capacity between them, 4 writes
 * each in flight, each on its own handle when `handles` (else handle 0). */
static void write_laps(rig *g, double laps, bool handles)
{
    static ssdlab_request rs[8];
    uint64_t total = (uint64_t)(laps * (double)g->cap) / 65536;
    for (uint64_t n = 0; n < total; n += 8) {
        for (int k = 0; k < 8; k++) {
            int t = k % 2;
            rs[k] = (ssdlab_request){.op = SSDLAB_WRITE, .offset = next_offset(g, t), .bytes = 65536,
                                     .placement = (uint8_t)(handles ? t : 0)};
            cr_assert_eq(ssd_submit(g->d, &rs[k], noted, NULL), 0);
        }
        sim_run(g->s, SIM_TIME_MAX);
    }
}

Test(fdp, tenants_overwriting_their_own_data_need_no_gc)
{
    rig g;
    open_rig(&g, (const char *const[]){"fdp.handles=2", NULL});
    ssd_reset_stats(g.d);
    write_laps(&g, 5, true);
    ssdlab_stats with;
    ssd_stats(g.d, &with);
    close_rig(&g);
    cr_assert_gt(with.erases, 100, "the drive reclaimed space");
    cr_assert_eq(with.gc_units_written, 0, "every reclaimed unit held one tenant's stale data");
    cr_assert_float_eq(with.write_amplification, 1.0, 1e-12);

    open_rig(&g, NULL);
    ssd_reset_stats(g.d);
    write_laps(&g, 5, false);
    ssdlab_stats without;
    ssd_stats(g.d, &without);
    close_rig(&g);
    cr_assert_gt(without.write_amplification, 1.1, "mixed in the same blocks, A's stale data sits beside B's live data: %.3f",
                 without.write_amplification);
}

/* Random overwrites inside each tenant's region, on an empty drive (so
 * that every unit was written through its tenant's handle), make GC move
 * data. With persistently isolated handles every block holds one tenant's
 * units (GC moves each handle's data to its own reclaim units); with
 * initially isolated ones GC's blocks mix the two. */
static uint32_t mixed_blocks(rig *g)
{
    ftl *f = ssd_ftl(g->d);
    const ssd_params *p = ssd_params_of(g->d);
    uint32_t mixed = 0, boundary = (uint32_t)(region_start(g, 1) / p->unit);
    for (uint32_t b = 0; b < p->dies * p->blocks_per_die; b++) {
        bool a = false, bb = false;
        if (f->blocks[b].write_ptr) ftl_cover(f, b);
        for (uint32_t off = 0; off < f->blocks[b].write_ptr; off++) {
            uint32_t lpn = ftl_holds(f, b * p->units_per_block + off);
            if (lpn == FTL_NONE || (lpn & FTL_MAP_BIT)) continue;
            if (lpn < boundary) a = true;
            else bb = true;
        }
        mixed += a && bb;
    }
    return mixed;
}

Test(fdp, persistently_isolated_handles_stay_apart_through_gc)
{
    rig g;
    open_rig_as(&g, (const char *const[]){"fdp.handles=2", "fdp.isolation=persistently", NULL}, false);
    g.random = true;
    write_laps(&g, 3, true);
    ssdlab_stats st;
    ssd_stats(g.d, &st);
    cr_assert_gt(st.gc_units_written, 0, "random overwrites: GC moves data");
    uint32_t mixed = mixed_blocks(&g);
    ssd_fdp_log log;
    ssd_fdp_log_get(g.d, &log);
    cr_assert_gt(log.handle_moved_bytes[0], 0);
    cr_assert_gt(log.handle_moved_bytes[1], 0);
    cr_assert_gt(log.media_reallocated, 0);
    close_rig(&g);
    cr_assert_eq(mixed, 0, "%u blocks hold both tenants' data", mixed);

    open_rig_as(&g, (const char *const[]){"fdp.handles=2", "fdp.isolation=initially", NULL}, false);
    g.random = true;
    write_laps(&g, 3, true);
    cr_assert_gt(mixed_blocks(&g), 0, "initially isolated: GC put both tenants' data in the same blocks");
    close_rig(&g);
}

/* The log: host bytes are the handles' bytes together, and media bytes
 * are host bytes plus what GC moved (no mapping writes, no padding here). */
Test(fdp, the_log_adds_up)
{
    rig g;
    open_rig(&g, (const char *const[]){"fdp.handles=2", "fdp.isolation=persistently", NULL});
    ssd_fdp_log before;
    ssd_fdp_log_get(g.d, &before);
    g.random = true;
    write_laps(&g, 2, true);
    ssd_fdp_log log;
    ssd_fdp_log_get(g.d, &log);
    cr_assert_eq(log.host_bytes, log.handle_host_bytes[0] + log.handle_host_bytes[1]);
    uint64_t writes = (uint64_t)(2.0 * (double)g.cap) / 65536, rounds = (writes + 7) / 8; /* write_laps: 8 a round */
    cr_assert_eq(log.handle_host_bytes[1] - before.handle_host_bytes[1], rounds * 4 * 65536, "tenant B wrote half of the writes");
    cr_assert_eq(before.host_bytes, ssd_capacity(g.d), "the fill, on handle 0");
    uint64_t moved = 0;
    for (int h = 0; h < FDP_MAX_HANDLES; h++) moved += log.handle_moved_bytes[h];
    cr_assert_eq(log.media_bytes, log.host_bytes + moved);
    close_rig(&g);
}

/* ftl.hot_write_size: the FTL's own guess, with no handles from the host.
 * Tenant A writes 4 KiB, B 64 KiB, interleaved, on an empty drive and
 * before any GC: with the split no block holds both; without, they share. */
static uint32_t small_and_large(const char *split)
{
    rig g;
    open_rig_as(&g, (const char *const[]){split, NULL}, false);
    static ssdlab_request rs[8];
    for (uint64_t n = 0; n < g.cap / 2 / 65536; n += 4) {
        for (int k = 0; k < 8; k++) {
            int t = k % 2;
            uint64_t at = next_offset(&g, t);
            rs[k] = (ssdlab_request){.op = SSDLAB_WRITE, .offset = at, .bytes = t ? 65536 : 4096};
            cr_assert_eq(ssd_submit(g.d, &rs[k], noted, NULL), 0);
        }
        sim_run(g.s, SIM_TIME_MAX);
    }
    ssdlab_stats st;
    ssd_stats(g.d, &st);
    cr_assert_eq(st.gc_units_written, 0, "before any GC");
    uint32_t mixed = mixed_blocks(&g);
    close_rig(&g);
    return mixed;
}

Test(fdp, the_ftl_puts_small_writes_apart_when_asked)
{
    cr_assert_eq(small_and_large("ftl.hot_write_size=16KiB"), 0);
    cr_assert_gt(small_and_large("ftl.hot_write_size=0"), 0);
}

/* Reclaim Unit Handle Update: handle 1 has written 1 MiB, a part of a
 * block on each of the 4 dies; the update pads and closes those reclaim
 * units (4 Reclaim Unit Not Fully Written events) and the handle's next
 * write opens a fresh block. Handle 0's units are left alone. */
Test(fdp, a_handle_update_closes_its_reclaim_units)
{
    rig g;
    open_rig_as(&g, (const char *const[]){"fdp.handles=2", NULL}, false);
    static ssdlab_request w[16];
    for (int k = 0; k < 16; k++) {
        w[k] = (ssdlab_request){.op = SSDLAB_WRITE, .offset = (uint64_t)k * 65536, .bytes = 65536, .placement = 1};
        cr_assert_eq(ssd_submit(g.d, &w[k], noted, NULL), 0);
    }
    ssdlab_request zero = {.op = SSDLAB_WRITE, .offset = 100ull << 20, .bytes = 65536, .placement = 0};
    cr_assert_eq(ssd_submit(g.d, &zero, noted, NULL), 0);
    sim_run(g.s, SIM_TIME_MAX);
    ftl *f = ssd_ftl(g.d);
    uint32_t before[4], zero_block[4];
    for (uint32_t die = 0; die < 4; die++) {
        before[die] = f->dies[die].open[ftl_host_stream(1)];
        zero_block[die] = f->dies[die].open[STREAM_HOST];
        cr_assert_neq(before[die], FTL_NONE, "handle 1 has a block open on die %u", die);
    }
    ssdlab_request update = {.op = SSDLAB_FDP_UPDATE, .placement = 1};
    cr_assert_eq(ssd_submit(g.d, &update, noted, NULL), 0);
    sim_run(g.s, SIM_TIME_MAX);
    ssd_fdp_log log;
    ssd_fdp_log_get(g.d, &log);
    cr_assert_eq(log.ru_not_fully_written, 4);
    for (uint32_t die = 0; die < 4; die++) {
        cr_assert_eq(f->dies[die].open[ftl_host_stream(1)], FTL_NONE);
        cr_assert_eq(f->blocks[before[die]].state, BLOCK_CLOSED);
        cr_assert_eq(f->dies[die].open[STREAM_HOST], zero_block[die], "handle 0 keeps its units");
    }
    ssdlab_request again = {.op = SSDLAB_WRITE, .offset = 0, .bytes = 65536, .placement = 1};
    cr_assert_eq(ssd_submit(g.d, &again, noted, NULL), 0);
    sim_run(g.s, SIM_TIME_MAX);
    uint32_t ppa = ftl_lookup(f, 0);
    for (uint32_t die = 0; die < 4; die++) cr_assert_neq(ftl_block_of(f, ppa), before[die], "a fresh reclaim unit");
    ssdlab_request none = {.op = SSDLAB_FDP_UPDATE, .placement = 1};
    close_rig(&g);
    open_rig(&g, NULL);
    cr_assert_eq(ssd_submit(g.d, &none, noted, NULL), -1, "no FDP: no handle update");
    close_rig(&g);
}

/* A trace column names each write's handle (workload.placement=column,
 * the column mapped as the device): 3 writes of 8 KiB on handle 1 and 2
 * of 4 KiB on handle 0 (overlaid on one address space). */
Test(fdp, a_trace_column_names_the_handle)
{
    char path[] = "/tmp/ssdlab-fdp-XXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    const char *text = "0\tW\t0\t8192\t1\n10\tW\t65536\t4096\t0\n20\tW\t131072\t8192\t1\n"
                       "30\tW\t196608\t4096\t0\n40\tW\t262144\t8192\t1\n";
    cr_assert_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    char trace[96];
    snprintf(trace, sizeof trace, "workload.trace=%s", path);
    rig g;
    open_rig_as(&g, (const char *const[]){"fdp.handles=2", "workload.source=trace", trace,
                                          "workload.trace_columns=time=1:us,op=2:R/W,offset=3:B,size=4:B,device=5",
                                          "workload.placement=column", "workload.device_layout=overlay", "workload.replay=afap",
                                          NULL}, false);
    ssd_fdp_log before, after;
    ssd_fdp_log_get(g.d, &before);
    char err[512];
    workload *w = workload_create(g.s, g.d, g.c, err, sizeof err);
    cr_assert_not_null(w, "%s", err);
    workload_result r;
    cr_assert_eq(workload_run(w, &r, err, sizeof err), 0, "%s", err);
    workload_free(w);
    ssd_fdp_log_get(g.d, &after);
    cr_assert_eq(after.handle_host_bytes[1] - before.handle_host_bytes[1], 3 * 8192);
    cr_assert_eq(after.handle_host_bytes[0] - before.handle_host_bytes[0], 2 * 4096);
    close_rig(&g);
    unlink(path);
}

Test(fdp, a_handle_the_drive_does_not_have_is_refused)
{
    rig g;
    open_rig(&g, (const char *const[]){"fdp.handles=2", NULL});
    ssdlab_request r = {.op = SSDLAB_WRITE, .offset = 0, .bytes = 4096, .placement = 2};
    cr_assert_eq(ssd_submit(g.d, &r, noted, NULL), -1);
    close_rig(&g);
}

static void refused_config(const char *set, const char *set2, const char *want)
{
    drive_rig_refused(base, (const char *const[]){"fdp.handles=2", set, set2, NULL}, want);
}

Test(fdp, inconsistent_keys_are_refused)
{
    refused_config("host.interface=sata", NULL, "key 'fdp.handles' asks for flexible data placement on a SATA drive");
    refused_config("slc.cache=dynamic", "slc.share=0.02", "key 'fdp.handles' is set with an SLC cache ('slc.cache' dynamic)");
    refused_config("ftl.hot_write_size=16KiB", NULL, "keys 'ftl.hot_write_size' and 'fdp.handles' both place host writes");
}
