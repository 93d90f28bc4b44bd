/* Zones of a zoned namespace on their own (engine/ssd/ftl/zones.h): the
 * state transitions and statuses of the NVMe ZNS command set 1.1, the
 * open and active limits, Zone Append's LBAs, and where a zone's units
 * lie on the dies. Every expected value is worked out by hand. */
#include <criterion/criterion.h>

#include "zones.h"

/* 4 zones of 96 units (size 128), at most 2 open and 3 active. */
static zones zs;
static void four_zones(void) { cr_assert_eq(zones_init(&zs, 4, 96, 2, 3), 0); }
static void done(void) { zones_free(&zs); }

#define STATE(i) ((zone_state)zs.z[i].state)

TestSuite(zones, .init = four_zones, .fini = done);

Test(zones, size_is_the_power_of_two_above_the_capacity)
{
    cr_assert_eq(zs.size, 128);
    cr_assert_eq(zones_start(&zs, 3), 384);
    cr_assert_eq(zones_of(&zs, 383), 2);
}

/* Empty -> implicitly opened by a write at the write pointer; the pointer
 * moves; the write that reaches the capacity makes it full, which frees
 * its open and active resources. */
Test(zones, writes_open_fill_and_finish_a_zone)
{
    cr_assert_eq(zones_write(&zs, 0, 32), ZONE_OK);
    cr_assert_eq(STATE(0), ZONE_IMPLICIT_OPEN);
    cr_assert_eq(zs.z[0].wp, 32);
    cr_assert_eq(zs.open, 1);
    cr_assert_eq(zs.active, 1);
    cr_assert_eq(zones_write(&zs, 32, 64), ZONE_OK);
    cr_assert_eq(STATE(0), ZONE_FULL);
    cr_assert_eq(zs.open, 0);
    cr_assert_eq(zs.active, 0);
    cr_assert_eq(zones_write(&zs, 96, 1), ZONE_IS_FULL, "a full zone refuses writes");
    cr_assert_eq(zs.failed[ZONE_IS_FULL], 1);
}

Test(zones, a_write_off_the_write_pointer_is_an_invalid_write)
{
    cr_assert_eq(zones_write(&zs, 128 + 8, 8), ZONE_INVALID_WRITE);
    cr_assert_eq(STATE(1), ZONE_EMPTY, "nothing changes");
    cr_assert_eq(zones_write(&zs, 128, 8), ZONE_OK);
    cr_assert_eq(zones_write(&zs, 128, 8), ZONE_INVALID_WRITE, "the pointer is at 8 now");
    cr_assert_eq(zs.failed[ZONE_INVALID_WRITE], 2);
}

/* Past the writable capacity (96) is a boundary error, though the zone's
 * address space (128) goes on; reads may go to the zone's end only. */
Test(zones, past_the_capacity_is_a_boundary_error)
{
    cr_assert_eq(zones_write(&zs, 0, 90), ZONE_OK);
    cr_assert_eq(zones_write(&zs, 90, 7), ZONE_BOUNDARY_ERROR);
    cr_assert_eq(zs.z[0].wp, 90);
    cr_assert_eq(zones_read(&zs, 100, 28), ZONE_OK, "reads below the zone size are allowed");
    cr_assert_eq(zones_read(&zs, 100, 29), ZONE_BOUNDARY_ERROR, "a read across zones is not");
    cr_assert_eq(zs.failed[ZONE_BOUNDARY_ERROR], 2);
}

/* Append writes at the pointer and says where: 0, then 10, in zone 2 at
 * 256 and 266. An append must name the zone's start. */
Test(zones, append_returns_the_lba_written)
{
    uint64_t at = 0;
    cr_assert_eq(zones_append(&zs, 256, 10, &at), ZONE_OK);
    cr_assert_eq(at, 256);
    cr_assert_eq(zones_append(&zs, 256, 5, &at), ZONE_OK);
    cr_assert_eq(at, 266);
    cr_assert_eq(zs.z[2].wp, 15);
    cr_assert_eq(zones_append(&zs, 257, 1, &at), ZONE_INVALID_FIELD);
    cr_assert_eq(zones_append(&zs, 256, 82, &at), ZONE_BOUNDARY_ERROR, "15 + 82 > 96");
    cr_assert_eq(at, 266, "a refused append writes nothing");
}

/* With two zones implicitly open, writing a third closes the one opened
 * first (zone 0), so open stays 2 and active becomes 3; a fourth needs a
 * fourth active zone: Too Many Active Zones. */
Test(zones, the_open_limit_closes_the_oldest_implicit_zone_and_the_active_limit_refuses)
{
    cr_assert_eq(zones_write(&zs, 0, 1), ZONE_OK);
    cr_assert_eq(zones_write(&zs, 128, 1), ZONE_OK);
    cr_assert_eq(zones_write(&zs, 256, 1), ZONE_OK);
    cr_assert_eq(STATE(0), ZONE_CLOSED);
    cr_assert_eq(STATE(1), ZONE_IMPLICIT_OPEN);
    cr_assert_eq(STATE(2), ZONE_IMPLICIT_OPEN);
    cr_assert_eq(zs.open, 2);
    cr_assert_eq(zs.active, 3);
    cr_assert_eq(zs.auto_closed, 1);
    cr_assert_eq(zones_write(&zs, 384, 1), ZONE_TOO_MANY_ACTIVE);
    cr_assert_eq(STATE(3), ZONE_EMPTY);
    cr_assert_eq(STATE(1), ZONE_IMPLICIT_OPEN, "a refused open closes nothing");
    /* Writing the closed zone 0 again reopens it, closing zone 1 (now the oldest). */
    cr_assert_eq(zones_write(&zs, 1, 1), ZONE_OK);
    cr_assert_eq(STATE(0), ZONE_IMPLICIT_OPEN);
    cr_assert_eq(STATE(1), ZONE_CLOSED);
}

/* Explicitly opened zones are never closed for room: with both open slots
 * held explicitly, a write to a third zone gets Too Many Open Zones. */
Test(zones, explicitly_opened_zones_hold_their_slots)
{
    cr_assert_eq(zones_open(&zs, 0), ZONE_OK);
    cr_assert_eq(zones_open(&zs, 1), ZONE_OK);
    cr_assert_eq(STATE(0), ZONE_EXPLICIT_OPEN);
    cr_assert_eq(zones_write(&zs, 256, 1), ZONE_TOO_MANY_OPEN);
    cr_assert_eq(zones_open(&zs, 2), ZONE_TOO_MANY_OPEN);
    cr_assert_eq(zones_write(&zs, 0, 4), ZONE_OK, "writing an explicitly open zone keeps it so");
    cr_assert_eq(STATE(0), ZONE_EXPLICIT_OPEN);
    cr_assert_eq(zones_close(&zs, 0), ZONE_OK);
    cr_assert_eq(STATE(0), ZONE_CLOSED);
    cr_assert_eq(zs.open, 1);
    cr_assert_eq(zs.active, 2);
    cr_assert_eq(zones_write(&zs, 256, 1), ZONE_OK, "a slot is free again");
}

/* Close, finish and reset from each state, per the state diagram. */
Test(zones, management_actions_follow_the_state_diagram)
{
    cr_assert_eq(zones_close(&zs, 0), ZONE_INVALID_TRANSITION, "an empty zone cannot close");
    cr_assert_eq(zones_write(&zs, 0, 8), ZONE_OK);
    cr_assert_eq(zones_close(&zs, 0), ZONE_OK);
    cr_assert_eq(zones_close(&zs, 0), ZONE_OK, "closing a closed zone changes nothing");
    cr_assert_eq(zones_finish(&zs, 0), ZONE_OK);
    cr_assert_eq(STATE(0), ZONE_FULL);
    cr_assert_eq(zs.z[0].wp, 96, "finish moves the pointer to the capacity");
    cr_assert_eq(zs.active, 0);
    cr_assert_eq(zones_close(&zs, 0), ZONE_INVALID_TRANSITION, "a full zone cannot close");
    cr_assert_eq(zones_open(&zs, 0), ZONE_INVALID_TRANSITION, "nor open");
    cr_assert_eq(zones_reset(&zs, 0), ZONE_OK);
    cr_assert_eq(STATE(0), ZONE_EMPTY);
    cr_assert_eq(zs.z[0].wp, 0);
    cr_assert_eq(zones_finish(&zs, 1), ZONE_OK, "an empty zone may be finished");
    cr_assert_eq(STATE(1), ZONE_FULL);
    cr_assert_eq(zones_reset(&zs, 9), ZONE_INVALID_FIELD, "no zone 9");
    cr_assert_eq(zs.failed[ZONE_INVALID_TRANSITION], 3);
}

/* Read-only and offline come from the device; a read-only zone reads but
 * refuses writes, management actions but Offline Zone, which takes it
 * offline; an offline zone refuses reads too. */
Test(zones, read_only_and_offline_zones)
{
    cr_assert_eq(zones_write(&zs, 0, 8), ZONE_OK);
    zones_set_condition(&zs, 0, ZONE_READ_ONLY);
    cr_assert_eq(zs.open, 0, "it no longer holds an open slot");
    cr_assert_eq(zs.active, 0);
    cr_assert_eq(zones_write(&zs, 8, 1), ZONE_IS_READ_ONLY);
    cr_assert_eq(zones_read(&zs, 0, 8), ZONE_OK);
    cr_assert_eq(zones_reset(&zs, 0), ZONE_INVALID_TRANSITION);
    cr_assert_eq(zones_offline(&zs, 1), ZONE_INVALID_TRANSITION, "only a read-only zone goes offline");
    cr_assert_eq(zones_offline(&zs, 0), ZONE_OK);
    cr_assert_eq(STATE(0), ZONE_OFFLINE);
    cr_assert_eq(zones_read(&zs, 0, 8), ZONE_IS_OFFLINE);
    cr_assert_eq(zones_write(&zs, 8, 1), ZONE_IS_OFFLINE);
}

Test(zones, limits_of_zero_mean_none)
{
    zones open_ended;
    cr_assert_eq(zones_init(&open_ended, 8, 16, 0, 0), 0);
    for (uint32_t i = 0; i < 8; i++) cr_assert_eq(zones_write(&open_ended, zones_start(&open_ended, i), 1), ZONE_OK);
    cr_assert_eq(open_ended.open, 8);
    cr_assert_eq(open_ended.auto_closed, 0);
    zones_free(&open_ended);
}

/* 8 dies of 100 blocks; zones 2 dies wide, 2 blocks per die, from block
 * 90 up; blocks of 12 units, programs of 4. Zone 5 is in group 1 (dies 2
 * and 3), its second on those dies (slot 1: blocks 92, 93). Its units
 * stripe by program unit: units 0-3 on die 2, 4-7 on die 3, 8-11 on die
 * 2 again at offset 4, ...; unit 24 (program unit 6, row 3) is in the
 * zone's second block on die 2 (block 93) at offset 0. */
Test(zone_layout, program_units_stripe_over_the_zones_dies)
{
    zone_layout l = {.width = 2, .blocks = 2, .groups = 4, .units_per_block = 12, .units_per_program = 4,
                     .blocks_per_die = 100, .first_block = 90};
    zone_place p = zone_layout_place(&l, 5, 0);
    cr_assert_eq(p.die, 2);
    cr_assert_eq(p.block, 292);
    cr_assert_eq(p.offset, 0);
    p = zone_layout_place(&l, 5, 5);
    cr_assert_eq(p.die, 3);
    cr_assert_eq(p.block, 392);
    cr_assert_eq(p.offset, 1);
    p = zone_layout_place(&l, 5, 10);
    cr_assert_eq(p.die, 2);
    cr_assert_eq(p.block, 292);
    cr_assert_eq(p.offset, 6);
    p = zone_layout_place(&l, 5, 24);
    cr_assert_eq(p.block, 293);
    cr_assert_eq(p.offset, 0);
    p = zone_layout_place(&l, 5, 47);
    cr_assert_eq(p.block, 393, "the last unit: the second block on die 3");
    cr_assert_eq(p.offset, 11);
    cr_assert_eq(zone_layout_block(&l, 0, 3), 191, "zone 0: dies 0 and 1, blocks 90 and 91");
}
