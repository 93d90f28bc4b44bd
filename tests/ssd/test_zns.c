/* A zoned namespace on a drive (ZNS): writes at the write pointer fill
 * zones with no GC (write amplification exactly 1), refused commands
 * complete with the specification's status, Zone Append returns where it
 * wrote, a reset erases the zone's blocks (timed: dies in parallel) and
 * unmaps its data, and a conventional namespace works beside it. */
#include <criterion/criterion.h>

#include "drive_rig.h"
#include "ftl.h"
#include "workload.h"
#include "zoneio.h"

/* 4 dies (2 x 2) of 64 blocks; 8 zones, each 2 dies wide, 1 block per die. */
static const char *const base[] = {
    "host.interface=nvme", "controller.channels=2", "controller.dies_per_channel=2", "nand.planes_per_die=2",
    "nand.pages_per_block=96", "nand.blocks_per_plane=64", "drive.user_capacity=300MB", "zns.zones=8",
    "zns.zone_width=2", "zns.max_open=4", "zns.max_active=6", NULL};

typedef struct rig {
    cfg *c;
    sim *s;
    ssd *d;
    drive_rig drive;
    const ssd_params *p;
    const zoneio *z;
    uint64_t zoned_start; /* bytes */
} rig;

static void open_rig(rig *g, const char *const *more)
{
    memset(g, 0, sizeof *g);
    drive_rig_open(&g->drive, base, more);
    g->c = g->drive.c, g->s = g->drive.s, g->d = g->drive.d;
    g->p = ssd_params_of(g->d);
    g->z = ssd_zoned(g->d);
    cr_assert_not_null(g->z);
    g->zoned_start = ssd_capacity(g->d);
}

static void close_rig(rig *g)
{
    char err[256];
    cr_assert_eq(ftl_check(ssd_ftl(g->d), err, sizeof err), 0, "%s", err);
    drive_rig_close(&g->drive);
}

static void noted(ssdlab_request *r, void *ctx) { (void)r, (void)ctx; }

/* Submits one command and runs the drive until all is done; returns it. */
static ssdlab_request run_one(rig *g, ssdlab_op op, uint64_t offset, uint32_t bytes)
{
    ssdlab_request r = {.op = op, .offset = offset, .bytes = bytes};
    cr_assert_eq(ssd_submit(g->d, &r, noted, NULL), 0, "op %d at %llu, %u bytes", op, (unsigned long long)offset, bytes);
    sim_run(g->s, SIM_TIME_MAX);
    cr_assert_neq(r.finish, 0);
    return r;
}

static uint64_t zone_bytes(const rig *g) { return g->z->zs.size * g->p->unit; }
static uint64_t capacity_bytes(const rig *g) { return g->z->zs.capacity * g->p->unit; }

/* Two zones written to their capacity in 64 KiB writes: both full, the
 * flash programs exactly the host's units (WAF 1.000), nothing erased. */
Test(zns, sequential_writes_fill_zones_with_no_gc)
{
    rig g;
    open_rig(&g, NULL);
    cr_assert_eq(g.z->zs.capacity, 2ull * g.p->units_per_block, "two dies x one block");
    for (int zone = 0; zone < 2; zone++)
        for (uint64_t at = 0; at < capacity_bytes(&g); at += 65536)
            cr_assert_eq(run_one(&g, SSDLAB_WRITE, g.zoned_start + zone * zone_bytes(&g) + at, 65536).status, 0);
    cr_assert_eq(g.z->zs.z[0].state, ZONE_FULL);
    cr_assert_eq(g.z->zs.z[1].state, ZONE_FULL);
    cr_assert_eq(g.z->zs.open, 0);
    ssdlab_stats st;
    ssd_stats(g.d, &st);
    cr_assert_eq(st.host_units_written, 2 * g.z->zs.capacity);
    cr_assert_eq(st.gc_units_written, 0);
    cr_assert_eq(st.erases, 0);
    cr_assert_float_eq(st.write_amplification, 1.0, 1e-12);
    close_rig(&g);
}

/* Refusals complete with their status and are counted: a write off the
 * pointer, an append not naming a zone start, a write past the capacity. */
Test(zns, refused_commands_complete_with_their_status)
{
    rig g;
    open_rig(&g, NULL);
    ssdlab_request r = run_one(&g, SSDLAB_WRITE, g.zoned_start + 8192, 4096);
    cr_assert_eq(r.status, ZONE_INVALID_WRITE);
    cr_assert_str_eq(ssdlab_status_name(r.status), "Zone Invalid Write");
    r = run_one(&g, SSDLAB_ZONE_APPEND, g.zoned_start + 4096, 4096);
    cr_assert_eq(r.status, ZONE_INVALID_FIELD);
    cr_assert_eq(run_one(&g, SSDLAB_WRITE, g.zoned_start, 4096).status, 0);
    r = run_one(&g, SSDLAB_WRITE, g.zoned_start + 4096, (uint32_t)capacity_bytes(&g));
    cr_assert_eq(r.status, ZONE_BOUNDARY_ERROR, "1 + capacity units");
    cr_assert_eq(run_one(&g, SSDLAB_TRIM, g.zoned_start, 4096).status, ZONE_INVALID_FIELD, "no deallocation in zones");
    ssdlab_stats st;
    ssd_stats(g.d, &st);
    cr_assert_eq(st.refused, 4);
    cr_assert_eq(g.z->zs.failed[ZONE_INVALID_WRITE], 1);
    cr_assert_eq(g.z->zs.failed[ZONE_BOUNDARY_ERROR], 1);
    cr_assert_eq(g.z->zs.failed[ZONE_INVALID_FIELD], 2);
    /* Malformed commands never reach the drive: not whole units, a
     * management command with bytes, across the namespaces. */
    ssdlab_request bad = {.op = SSDLAB_WRITE, .offset = g.zoned_start, .bytes = 512};
    cr_assert_eq(ssd_submit(g.d, &bad, noted, NULL), -1);
    bad = (ssdlab_request){.op = SSDLAB_ZONE_RESET, .offset = g.zoned_start, .bytes = 4096};
    cr_assert_eq(ssd_submit(g.d, &bad, noted, NULL), -1);
    bad = (ssdlab_request){.op = SSDLAB_WRITE, .offset = g.zoned_start - 4096, .bytes = 8192};
    cr_assert_eq(ssd_submit(g.d, &bad, noted, NULL), -1);
    bad = (ssdlab_request){.op = SSDLAB_ZONE_OPEN, .offset = 0, .bytes = 0};
    cr_assert_eq(ssd_submit(g.d, &bad, noted, NULL), -1, "zone commands only in the zoned namespace");
    close_rig(&g);
}

/* Appends of 8, 8 and 16 KiB to zone 3 land at its start, +8 KiB and
 * +16 KiB; the zone's pointer ends at 32 KiB (8 units). */
Test(zns, append_returns_where_it_wrote)
{
    rig g;
    open_rig(&g, NULL);
    uint64_t zslba = g.zoned_start + 3 * zone_bytes(&g);
    uint32_t sizes[] = {8192, 8192, 16384};
    uint64_t want[] = {zslba, zslba + 8192, zslba + 16384};
    for (int i = 0; i < 3; i++) {
        ssdlab_request r = run_one(&g, SSDLAB_ZONE_APPEND, zslba, sizes[i]);
        cr_assert_eq(r.status, 0);
        cr_assert_eq(r.offset, want[i], "append %d at %llu", i, (unsigned long long)r.offset);
    }
    cr_assert_eq(g.z->zs.z[3].wp, 8);
    cr_assert_eq(g.z->zs.z[3].state, ZONE_IMPLICIT_OPEN);
    close_rig(&g);
}

/* Reset of a full zone 2 dies wide: its two blocks erase in parallel, so
 * it takes one t_erase (plus the command's few microseconds); its data is
 * unmapped, each block erased once, and the zone takes writes from its
 * start again. One die wide and two blocks deep, the erases queue on one
 * die: two t_erase. */
static sim_time_t reset_time(const char *const *more, uint32_t *erases_per_block)
{
    rig g;
    open_rig(&g, more);
    for (uint64_t at = 0; at < capacity_bytes(&g); at += 65536)
        cr_assert_eq(run_one(&g, SSDLAB_WRITE, g.zoned_start + at, 65536).status, 0);
    ftl *f = ssd_ftl(g.d);
    uint64_t mapped = f->mapped;
    ssdlab_request r = run_one(&g, SSDLAB_ZONE_RESET, g.zoned_start, 0);
    cr_assert_eq(r.status, 0);
    cr_assert_eq(f->mapped, mapped - g.z->zs.capacity, "the zone's units are unmapped");
    cr_assert_eq(g.z->zs.z[0].state, ZONE_EMPTY);
    uint32_t b = zone_layout_block(&g.z->layout, 0, 0);
    *erases_per_block = f->blocks[b].erase_count;
    cr_assert_eq(g.z->erases, g.p->zone_width * g.p->zone_blocks);
    cr_assert_eq(run_one(&g, SSDLAB_WRITE, g.zoned_start, 4096).status, 0, "written again from the start");
    sim_time_t t = r.finish - r.arrival;
    sim_time_t t_erase = g.p->t_erase;
    close_rig(&g);
    return t - t_erase;
}

Test(zns, reset_erases_the_zone_in_parallel_over_its_dies)
{
    uint32_t erases;
    sim_time_t over = reset_time(NULL, &erases);
    cr_assert_eq(erases, 1);
    cr_assert_lt(over, 20000, "one t_erase and %llu ns more", (unsigned long long)over);
    over = reset_time((const char *const[]){"zns.zone_width=1", "zns.zone_blocks=2", NULL}, &erases);
    rig g;
    open_rig(&g, NULL);
    sim_time_t t_erase = g.p->t_erase;
    close_rig(&g);
    cr_assert_geq(over, t_erase, "two erases on one die: %llu ns past one", (unsigned long long)over);
    cr_assert_lt(over, t_erase + 20000);
}

/* Explicit open and close through commands; the open limit (4) refuses a
 * fifth explicit open; finish makes a zone full. */
Test(zns, management_commands)
{
    rig g;
    open_rig(&g, NULL);
    for (int z = 0; z < 4; z++) cr_assert_eq(run_one(&g, SSDLAB_ZONE_OPEN, g.zoned_start + z * zone_bytes(&g), 0).status, 0);
    cr_assert_eq(run_one(&g, SSDLAB_ZONE_OPEN, g.zoned_start + 4 * zone_bytes(&g), 0).status, ZONE_TOO_MANY_OPEN);
    cr_assert_eq(run_one(&g, SSDLAB_ZONE_CLOSE, g.zoned_start, 0).status, 0);
    cr_assert_eq(g.z->zs.z[0].state, ZONE_CLOSED);
    cr_assert_eq(run_one(&g, SSDLAB_ZONE_FINISH, g.zoned_start + zone_bytes(&g), 0).status, 0);
    cr_assert_eq(g.z->zs.z[1].state, ZONE_FULL);
    cr_assert_eq(run_one(&g, SSDLAB_ZONE_RESET, g.zoned_start + 4096, 0).status, ZONE_INVALID_FIELD, "not a zone start");
    ssdlab_stats st;
    ssd_stats(g.d, &st);
    cr_assert_eq(st.completed[SSDLAB_CLASS_MANAGEMENT], 8);
    close_rig(&g);
}

/* Finish programs the zone's part-filled program unit (padded), so its
 * data is read from flash afterwards; reads beyond the pointer need none. */
Test(zns, finish_flushes_and_reads_find_the_data)
{
    rig g;
    open_rig(&g, NULL);
    cr_assert_eq(run_one(&g, SSDLAB_WRITE, g.zoned_start, 4096).status, 0);
    cr_assert_eq(run_one(&g, SSDLAB_ZONE_FINISH, g.zoned_start, 0).status, 0);
    cr_assert_eq(g.z->padded, g.p->units_per_program - 1);
    ssdlab_stats before, after;
    ssd_stats(g.d, &before);
    cr_assert_eq(run_one(&g, SSDLAB_READ, g.zoned_start, 4096).status, 0);
    ssd_stats(g.d, &after);
    cr_assert_eq(after.flash_reads - before.flash_reads, 1);
    cr_assert_eq(run_one(&g, SSDLAB_READ, g.zoned_start + 65536, 4096).status, 0);
    ssd_stats(g.d, &before);
    cr_assert_eq(before.flash_reads, after.flash_reads, "nothing written there");
    close_rig(&g);
}

/* The conventional namespace beside it: random overwrites of its whole
 * capacity twice cause GC there, and none of it touches zone blocks. */
Test(zns, a_conventional_namespace_beside_the_zones)
{
    rig g;
    open_rig(&g, NULL);
    for (uint64_t at = 0; at < capacity_bytes(&g); at += 65536)
        cr_assert_eq(run_one(&g, SSDLAB_WRITE, g.zoned_start + at, 65536).status, 0);
    uint64_t units = ssd_capacity(g.d) / 4096;
    unsigned seed = 7;
    static ssdlab_request rs[64];
    for (uint64_t i = 0; i < 3 * units; i += 64) {
        for (int k = 0; k < 64; k++) {
            seed = seed * 1103515245u + 12345u;
            rs[k] = (ssdlab_request){.op = SSDLAB_WRITE, .offset = (seed >> 4) % units * 4096, .bytes = 4096};
            cr_assert_eq(ssd_submit(g.d, &rs[k], noted, NULL), 0);
        }
        sim_run(g.s, SIM_TIME_MAX);
    }
    ssdlab_stats st;
    ssd_stats(g.d, &st);
    cr_assert_gt(st.gc_units_written, 0, "the conventional namespace collects");
    ftl *f = ssd_ftl(g.d);
    for (uint32_t j = 0; j < 2; j++) {
        uint32_t b = zone_layout_block(&g.z->layout, 0, j);
        cr_assert_eq(f->blocks[b].erase_count, 0, "zone block %u was never erased", b);
        cr_assert_eq(f->blocks[b].valid, g.p->units_per_block, "and holds the zone's data");
    }
    close_rig(&g);
}

static void refused_config(const char *set, const char *want) { drive_rig_refused(base, (const char *const[]){set, NULL}, want); }

Test(zns, inconsistent_zone_keys_are_refused)
{
    refused_config("zns.zone_width=3", "key 'zns.zone_width' is 3, but the drive has 4 dies; expected a divisor of 4");
    refused_config("host.interface=sata", "key 'zns.zones' asks for a zoned namespace on a SATA drive");
    refused_config("zns.max_open=7", "key 'zns.max_open' (7) is above 'zns.max_active' (6)");
    refused_config("zns.zones=200", "key 'zns.zones' (200 zones of 1 blocks on each of 2 dies) takes 100 blocks of every die, which has 64");
}

/* A zoned device's blkparse trace (tests/data/traces: the zone RWBS codes
 * of Linux 6.17), replayed onto the zones at QD 1: its ten commands run,
 * the write off the pointer is refused (Zone Invalid Write) and moves no
 * bytes, the append lands in zone 1, which finish makes full, zone 2 is
 * opened then closed, and zone 0's second reset leaves it empty. */
Test(zns, a_zoned_blkparse_trace_replays_onto_the_zones)
{
    rig g;
    open_rig(&g, (const char *const[]){"workload.source=trace",
                                       "workload.trace=" SOURCE_DIR "/tests/data/traces/blkparse_zoned_handmade.txt",
                                       "workload.trace_zones=zoned", "workload.replay=afap", "workload.queue_depth=1",
                                       "workload.precondition=none", NULL});
    char err[512];
    workload *w = workload_create(g.s, g.d, g.c, err, sizeof err);
    cr_assert_not_null(w, "%s", err);
    workload_result r;
    cr_assert_eq(workload_run(w, &r, err, sizeof err), 0, "%s", err);
    ssdlab_stats st;
    ssd_stats(g.d, &st);
    cr_assert_eq(st.completed[SSDLAB_READ], 1);
    cr_assert_eq(st.completed[SSDLAB_WRITE], 4, "three writes and the append");
    cr_assert_eq(st.completed[SSDLAB_CLASS_MANAGEMENT], 5);
    cr_assert_eq(st.refused, 1);
    cr_assert_eq(g.z->zs.failed[ZONE_INVALID_WRITE], 1);
    cr_assert_eq(st.bytes[SSDLAB_WRITE], 2 * 65536 + 8192, "the refused write moved nothing");
    cr_assert_eq(g.z->zs.z[0].state, ZONE_EMPTY);
    cr_assert_eq(g.z->zs.z[1].state, ZONE_FULL);
    cr_assert_eq(g.z->zs.z[2].state, ZONE_CLOSED);
    workload_free(w);
    close_rig(&g);
}
