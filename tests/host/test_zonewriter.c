/* The zoned writer (engine/host/zonewriter.h) on a small zoned drive: its
 * reclaimer's bookkeeping, closed forms (objects overwritten in order
 * leave the oldest zone empty: no copies at all), and the direction the
 * ZNS papers report (hot and cold apart copy less than mixed). */
#include <criterion/criterion.h>

#include "drive_rig.h"
#include "ftl.h"
#include "workload.h"
#include "zonewriter.h"

/* 4 dies; 16 zones of 2 blocks (6 MiB: 96 objects of 64 KiB). */
static const char *const base[] = {
    "host.interface=nvme", "controller.channels=2", "controller.dies_per_channel=2", "nand.planes_per_die=2",
    "nand.pages_per_block=96", "nand.blocks_per_plane=64", "drive.user_capacity=200MB", "zns.zones=16",
    "zns.zone_width=2", "workload.source=zoned", "workload.block_size=64KiB", "workload.read_share=0",
    "workload.queue_depth=4", "workload.precondition=none", "workload.requests=0", NULL};

typedef struct outcome {
    zonewriter_counts n;
    uint32_t objects;
    ssdlab_stats st;
} outcome;

/* Every object written has one location whose owner is that object, and
 * each zone's live count is the objects whose location is in it. */
static void check_bookkeeping(const zonewriter *zw)
{
    uint32_t *valid = calloc(zw->zones, sizeof *valid);
    for (uint32_t o = 0; o < zw->objects; o++) {
        uint32_t at = zw->loc[o];
        if (at == UINT32_MAX) continue;
        cr_assert_eq(zw->owner[at], o, "object %u at %u, which names %u", o, at, zw->owner[at]);
        valid[at / zw->per_zone]++;
    }
    uint32_t owned = 0;
    for (uint64_t s = 0; s < (uint64_t)zw->zones * zw->per_zone; s++) owned += zw->owner[s] != UINT32_MAX;
    uint32_t live = 0;
    for (uint32_t z = 0; z < zw->zones; z++) live += valid[z];
    cr_assert_eq(owned, live, "slots owned %u, objects placed %u", owned, live);
    free(valid);
}

static outcome run(const char *const *more)
{
    drive_rig g;
    drive_rig_open(&g, base, more);
    sim *s = g.s;
    ssd *d = g.d;
    char err[512];
    workload *w = workload_create(s, d, g.c, err, sizeof err);
    cr_assert_not_null(w, "%s", err);
    workload_result r;
    cr_assert_eq(workload_run(w, &r, err, sizeof err), 0, "%s", err);
    const zonewriter *zw = workload_zonewriter(w);
    outcome out = {.n = zw->n, .objects = zw->objects};
    check_bookkeeping(zw);
    ssd_stats(d, &out.st);
    cr_assert_eq(r.zone_copies, zw->n.copies);
    cr_assert_eq(ftl_check(ssd_ftl(d), err, sizeof err), 0, "%s", err);
    workload_free(w);
    drive_rig_close(&g);
    return out;
}

/* Half of 16 zones of 96 objects: 768 objects, 8 zones' worth. Written in
 * order three times over, the zone reclaimed when the empty ones run
 * short (5 zones past the live data) is always one whose objects were all
 * written again since: no copies, a host write amplification of exactly
 * 1, and every reset erases the zone's two blocks (at QD 1, so that no
 * write in flight overshoots the budget). A draw the writer could
 * not use at once (reclaim work first, or no empty zone yet) is kept, or
 * an object would be skipped and its old copy stay live. */
Test(zonewriter, objects_overwritten_in_order_need_no_copies)
{
    outcome o = run((const char *const[]){"workload.pattern=sequential", "workload.zone_streams=1", "workload.zone_live=0.5", "workload.queue_depth=1",
                                          "workload.drive_writes=3", NULL});
    cr_assert_eq(o.objects, 768);
    cr_assert_eq(o.n.user_writes, 3 * 768, "%llu writes", (unsigned long long)o.n.user_writes);
    cr_assert_eq(o.n.copies, 0);
    cr_assert_gt(o.n.resets, 10);
    cr_assert_eq(o.st.erases, 2 * o.n.resets);
    cr_assert_float_eq(o.st.write_amplification, 1.0, 1e-12, "the drive's: no GC in zones");
}

/* Hot/cold, 90 % of writes to 10 % of the objects: hot and cold in zones
 * of their own leave the reclaimer zones of mostly dead hot objects; mixed,
 * every zone keeps cold objects alive, and the reclaimer copies more. */
Test(zonewriter, hot_and_cold_apart_copy_less_than_mixed)
{
    const char *hc[] = {"workload.pattern=hotcold", "workload.hot_fraction=0.1", "workload.hot_share=0.9",
                        "workload.zone_streams=2", "workload.drive_writes=4", NULL, NULL};
    hc[5] = "workload.zone_placement=separate";
    outcome apart = run(hc);
    hc[5] = "workload.zone_placement=mixed";
    outcome mixed = run(hc);
    double wa_apart = (double)(apart.n.user_writes + apart.n.copies) / (double)apart.n.user_writes;
    double wa_mixed = (double)(mixed.n.user_writes + mixed.n.copies) / (double)mixed.n.user_writes;
    cr_assert_lt(wa_apart, wa_mixed, "host write amplification: %.3f apart, %.3f mixed", wa_apart, wa_mixed);
    cr_assert_gt(mixed.n.copies, 0);
}

/* Reads among writes, several streams and a deep queue: the bookkeeping
 * holds (checked in run) and reads go to placed objects only. */
Test(zonewriter, reads_and_writes_keep_the_books)
{
    outcome o = run((const char *const[]){"workload.pattern=random", "workload.read_share=0.3", "workload.zone_streams=3",
                                          "workload.queue_depth=16", "workload.drive_writes=3", NULL});
    cr_assert_gt(o.n.user_reads, 0);
    cr_assert_gt(o.n.copies, 0);
    cr_assert_eq(o.st.completed[SSDLAB_READ], o.n.user_reads + o.n.copies, "each copy reads its object once");
}

/* The drive is built, and the zoned writer refused with `want`. */
static void refused(const char *set, const char *want)
{
    drive_rig g;
    drive_rig_open(&g, base, (const char *const[]){set, NULL});
    char err[512] = "";
    cr_assert_null(workload_create(g.s, g.d, g.c, err, sizeof err));
    cr_assert(strstr(err, want), "%s", err);
    drive_rig_close(&g);
}

Test(zonewriter, refuses_what_it_cannot_do)
{
    refused("zns.zones=0", "key 'workload.source' is zoned, but the drive has no zoned namespace");
    refused("workload.block_size=6KiB", "key 'workload.block_size' (6144 B) is not a whole number of 4096 B units within a zone");
    refused("workload.zone_streams=14", "the zoned writer needs 17 zones (its 14 streams, the reclaimer's, and two to spare); it owns 16");
    refused("workload.zone_first=12", "the zoned writer needs 5 zones (its 2 streams, the reclaimer's, and two to spare); it owns 4");
    refused("workload.zone_count=17", "keys 'workload.zone_first' (0) and 'workload.zone_count' (17) name zones past the namespace's 16");
}
