/* Zones (zones.h): the state machine of the ZNS command set, after its
 * zone state diagram and the resource rules for open and active zones,
 * and the arithmetic of where a zone's units lie. */
#include "zones.h"

#include <stdbool.h>
#include <stdlib.h>

#include "params.h"

const char *const zone_state_names[ZONE_STATES] = {
    "empty", "implicitly opened", "explicitly opened", "closed", "full", "read-only", "offline",
};

const char *const zone_status_names[ZONE_STATUSES] = {
    "success", "Zone Is Full", "Zone Is Read Only", "Zone Is Offline", "Zone Invalid Write", "Zone Boundary Error",
    "Too Many Active Zones", "Too Many Open Zones", "Invalid Zone State Transition", "Invalid Field in Command",
};

int zones_init(zones *zs, uint32_t count, uint64_t capacity, uint32_t max_open, uint32_t max_active)
{
    *zs = (zones){.count = count, .capacity = capacity, .size = params_power_of_two_at_least(capacity),
                  .max_open = max_open, .max_active = max_active};
    zs->z = calloc(count ? count : 1, sizeof *zs->z);
    return zs->z ? 0 : -1;
}

void zones_free(zones *zs) { free(zs->z); }

zone_status zones_refuse(zones *zs, zone_status s)
{
    zs->failed[s]++;
    return s;
}

static bool is_open(const zone *z) { return z->state == ZONE_IMPLICIT_OPEN || z->state == ZONE_EXPLICIT_OPEN; }

static void set_state(zones *zs, zone *z, zone_state to)
{
    bool was_active = is_open(z) || z->state == ZONE_CLOSED, was_open = is_open(z);
    z->state = (uint8_t)to;
    bool active = is_open(z) || z->state == ZONE_CLOSED;
    zs->open += is_open(z) - was_open;
    zs->active += active - was_active;
}

/* With the open zones at the limit, the implicitly opened zone opened
 * first is closed to make room (as controllers do, and QEMU's model). */
static void close_oldest_implicit(zones *zs)
{
    zone *oldest = NULL;
    for (uint32_t i = 0; i < zs->count; i++)
        if (zs->z[i].state == ZONE_IMPLICIT_OPEN && (!oldest || zs->z[i].opened < oldest->opened)) oldest = &zs->z[i];
    if (!oldest) return;
    set_state(zs, oldest, ZONE_CLOSED);
    zs->auto_closed++;
}

/* Opens an empty or closed zone (implicitly for a write, explicitly for
 * Open Zone), within the limits. */
static zone_status open_zone(zones *zs, zone *z, zone_state to)
{
    if (z->state == ZONE_EXPLICIT_OPEN || (z->state == ZONE_IMPLICIT_OPEN && to == ZONE_IMPLICIT_OPEN)) return ZONE_OK;
    if (z->state == ZONE_IMPLICIT_OPEN) return set_state(zs, z, to), ZONE_OK;
    if (z->state != ZONE_EMPTY && z->state != ZONE_CLOSED) return zones_refuse(zs, ZONE_INVALID_TRANSITION);
    uint32_t more_active = z->state == ZONE_EMPTY;
    /* The active limit first, so that a refused open closes nothing. */
    if (zs->max_active && zs->active + more_active > zs->max_active) return zones_refuse(zs, ZONE_TOO_MANY_ACTIVE);
    if (zs->max_open && zs->open >= zs->max_open) close_oldest_implicit(zs);
    if (zs->max_open && zs->open + 1 > zs->max_open) return zones_refuse(zs, ZONE_TOO_MANY_OPEN);
    set_state(zs, z, to);
    if (to == ZONE_IMPLICIT_OPEN) z->opened = ++zs->opened_seq;
    return ZONE_OK;
}

static zone_status writable(zones *zs, const zone *z)
{
    switch (z->state) {
    case ZONE_FULL: return zones_refuse(zs, ZONE_IS_FULL);
    case ZONE_READ_ONLY: return zones_refuse(zs, ZONE_IS_READ_ONLY);
    case ZONE_OFFLINE: return zones_refuse(zs, ZONE_IS_OFFLINE);
    default: return ZONE_OK;
    }
}

/* Writes n units at the zone's write pointer, which the caller checked. */
static zone_status write_at_wp(zones *zs, zone *z, uint32_t n)
{
    if (z->wp + n > zs->capacity) return zones_refuse(zs, ZONE_BOUNDARY_ERROR);
    zone_status s = open_zone(zs, z, ZONE_IMPLICIT_OPEN);
    if (s != ZONE_OK) return s;
    z->wp += n;
    if (z->wp == zs->capacity) set_state(zs, z, ZONE_FULL);
    return ZONE_OK;
}

zone_status zones_write(zones *zs, uint64_t unit, uint32_t n)
{
    uint32_t i = zones_of(zs, unit);
    if (i >= zs->count || n == 0) return zones_refuse(zs, ZONE_INVALID_FIELD);
    zone *z = &zs->z[i];
    zone_status s = writable(zs, z);
    if (s != ZONE_OK) return s;
    if (unit - zones_start(zs, i) != z->wp) return zones_refuse(zs, ZONE_INVALID_WRITE);
    return write_at_wp(zs, z, n);
}

zone_status zones_append(zones *zs, uint64_t zslba, uint32_t n, uint64_t *written)
{
    uint32_t i = zones_of(zs, zslba);
    if (i >= zs->count || n == 0 || zslba != zones_start(zs, i)) return zones_refuse(zs, ZONE_INVALID_FIELD);
    zone *z = &zs->z[i];
    zone_status s = writable(zs, z);
    if (s != ZONE_OK) return s;
    uint64_t at = zslba + z->wp;
    s = write_at_wp(zs, z, n);
    if (s == ZONE_OK) *written = at;
    return s;
}

zone_status zones_read(zones *zs, uint64_t unit, uint32_t n)
{
    uint32_t i = zones_of(zs, unit);
    if (i >= zs->count || n == 0) return zones_refuse(zs, ZONE_INVALID_FIELD);
    if (zs->z[i].state == ZONE_OFFLINE) return zones_refuse(zs, ZONE_IS_OFFLINE);
    if (unit + n > zones_start(zs, i) + zs->size) return zones_refuse(zs, ZONE_BOUNDARY_ERROR);
    return ZONE_OK;
}

static zone *zone_at(zones *zs, uint32_t zone_index) { return zone_index < zs->count ? &zs->z[zone_index] : NULL; }

zone_status zones_open(zones *zs, uint32_t i)
{
    zone *z = zone_at(zs, i);
    return z ? open_zone(zs, z, ZONE_EXPLICIT_OPEN) : zones_refuse(zs, ZONE_INVALID_FIELD);
}

zone_status zones_close(zones *zs, uint32_t i)
{
    zone *z = zone_at(zs, i);
    if (!z) return zones_refuse(zs, ZONE_INVALID_FIELD);
    if (is_open(z)) set_state(zs, z, ZONE_CLOSED);
    else if (z->state != ZONE_CLOSED) return zones_refuse(zs, ZONE_INVALID_TRANSITION);
    return ZONE_OK;
}

zone_status zones_finish(zones *zs, uint32_t i)
{
    zone *z = zone_at(zs, i);
    if (!z) return zones_refuse(zs, ZONE_INVALID_FIELD);
    if (z->state == ZONE_READ_ONLY || z->state == ZONE_OFFLINE) return zones_refuse(zs, ZONE_INVALID_TRANSITION);
    set_state(zs, z, ZONE_FULL);
    z->wp = zs->capacity;
    return ZONE_OK;
}

zone_status zones_reset(zones *zs, uint32_t i)
{
    zone *z = zone_at(zs, i);
    if (!z) return zones_refuse(zs, ZONE_INVALID_FIELD);
    if (z->state == ZONE_READ_ONLY || z->state == ZONE_OFFLINE) return zones_refuse(zs, ZONE_INVALID_TRANSITION);
    set_state(zs, z, ZONE_EMPTY);
    z->wp = 0;
    return ZONE_OK;
}

zone_status zones_offline(zones *zs, uint32_t i)
{
    zone *z = zone_at(zs, i);
    if (!z) return zones_refuse(zs, ZONE_INVALID_FIELD);
    if (z->state == ZONE_READ_ONLY) set_state(zs, z, ZONE_OFFLINE);
    else if (z->state != ZONE_OFFLINE) return zones_refuse(zs, ZONE_INVALID_TRANSITION);
    return ZONE_OK;
}

void zones_set_condition(zones *zs, uint32_t i, zone_state state)
{
    zone *z = zone_at(zs, i);
    if (z && (state == ZONE_READ_ONLY || state == ZONE_OFFLINE)) set_state(zs, z, state);
}

/* --- layout ----------------------------------------------------------------- */

uint32_t zone_layout_block(const zone_layout *l, uint32_t zone, uint32_t j)
{
    uint32_t group = zone % l->groups, slot = zone / l->groups; /* zones before it on its dies */
    uint32_t die = group * l->width + j % l->width;
    return die * l->blocks_per_die + l->first_block + slot * l->blocks + j / l->width;
}

zone_place zone_layout_place(const zone_layout *l, uint32_t zone, uint64_t unit)
{
    uint32_t upp = l->units_per_program, programs_per_block = l->units_per_block / upp;
    uint64_t q = unit / upp;                 /* program unit in the zone */
    uint32_t stripe = (uint32_t)(q % l->width); /* die in the zone's group */
    uint64_t row = q / l->width;             /* program units before it on that die */
    uint32_t j = (uint32_t)(row / programs_per_block) * l->width + stripe;
    uint32_t block = zone_layout_block(l, zone, j);
    return (zone_place){.die = block / l->blocks_per_die, .block = block,
                        .offset = (uint32_t)(row % programs_per_block) * upp + (uint32_t)(unit % upp)};
}
