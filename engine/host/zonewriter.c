/* The zone-aware host (zonewriter.h). */
#include "zonewriter.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fatal.h"
#include "zoneio.h"

#define NONE UINT32_MAX

const cfg_key zonewriter_config_keys[] = {
    {"workload.zone_streams", CFG_UINT, NULL, "2", "1", "16", NULL,
     "Zoned writer: zones it appends user objects to at once (its open zones; the reclaimer has one more)."},
    {"workload.zone_placement", CFG_ENUM, NULL, "separate", NULL, NULL, "separate|mixed",
     "Zoned writer: hot objects (workload.hot_fraction of a hot/cold pattern) to the first stream and cold ones to the "
     "others (separate), or every object to the streams in turn (mixed)."},
    {"workload.zone_live", CFG_FRACTION, NULL, "80%", "0.01", "0.95", NULL,
     "Zoned writer: its objects as a share of the zoned namespace's capacity (the rest is the room its reclaimer works with)."},
    {"workload.zone_first", CFG_UINT, NULL, "0", "0", "1048575", NULL,
     "Zoned writer: the first of the zones it owns (writers side by side own zones of their own)."},
    {"workload.zone_count", CFG_UINT, NULL, "0", "0", "1048576", NULL,
     "Zoned writer: how many zones it owns from workload.zone_first; 0: the rest of the namespace."},
    {NULL, 0, NULL, NULL, NULL, NULL, NULL, NULL},
};

typedef enum zw_zone_state { ZW_EMPTY, ZW_OPEN, ZW_FULL, ZW_RECLAIMING } zw_zone_state;

struct zw_zone {
    uint32_t valid;    /* live objects in it */
    uint32_t reserved; /* appends issued to it */
    uint32_t done;     /* appends completed */
    uint8_t state;
};

typedef enum zw_step { ZW_IDLE, ZW_USER_READ, ZW_USER_WRITE, ZW_COPY_READ, ZW_COPY_WRITE, ZW_RESET } zw_step;

struct zw_slot {
    uint8_t step;
    uint32_t object, from; /* the object written or copied; a copy's source slot */
    /* The generator's draw the slot has not used yet (it waited, or did
     * reclaim work first): a read or a write of draw_object. */
    bool has_draw, draw_read;
    uint32_t draw_object;
};

/* --- set-up ----------------------------------------------------------------- */

static int limits(zonewriter *zw, const zoneio *z, char *err, size_t errlen)
{
    if (!z)
        return snprintf(err, errlen, "key 'workload.source' is zoned, but the drive has no zoned namespace; expected "
                                     "zns.zones above 0"), -1;
    if (zw->object_bytes % z->p->unit || zw->object_bytes > z->zs.capacity * z->p->unit)
        return snprintf(err, errlen, "key 'workload.block_size' (%u B) is not a whole number of %u B units within a zone; "
                                     "expected a multiple of the zoned namespace's LBA size", zw->object_bytes, z->p->unit), -1;
    if (zw->zones < zw->streams + 3)
        return snprintf(err, errlen, "the zoned writer needs %u zones (its %u streams, the reclaimer's, and two to spare); "
                                     "it owns %u", zw->streams + 3, zw->streams, zw->zones), -1;
    return 0;
}

int zonewriter_init(zonewriter *zw, ssd *d, const cfg *c, uint32_t slot_count, char *err, size_t errlen)
{
    const zoneio *z = ssd_zoned(d);
    *zw = (zonewriter){.d = d, .victim = NONE, .slot_count = slot_count};
    zw->object_bytes = (uint32_t)cfg_uint(c, "workload.block_size");
    zw->streams = (uint32_t)cfg_uint(c, "workload.zone_streams");
    zw->separate = !strcmp(cfg_str(c, "workload.zone_placement"), "separate");
    uint32_t first = (uint32_t)cfg_uint(c, "workload.zone_first"), count = (uint32_t)cfg_uint(c, "workload.zone_count");
    uint32_t all = z ? z->zs.count : 0;
    if (z && (first >= all || (uint64_t)first + count > all))
        return snprintf(err, errlen, "keys 'workload.zone_first' (%u) and 'workload.zone_count' (%u) name zones past the "
                                     "namespace's %u; expected zones 0 to %u", first, count, all, all - 1), -1;
    zw->zones = count ? count : all - first;
    if (limits(zw, z, err, errlen)) return -1;
    zw->zone_bytes = z->zs.size * z->p->unit;
    zw->start = z->first_unit * z->p->unit + first * zw->zone_bytes; /* its zones are numbered from its first */
    zw->per_zone = (uint32_t)(z->zs.capacity * z->p->unit / zw->object_bytes);
    uint64_t room = (uint64_t)zw->per_zone * (zw->zones - zw->streams - 2); /* the reclaimer's slack kept apart */
    zw->objects = (uint32_t)(cfg_float(c, "workload.zone_live") * (double)zw->per_zone * zw->zones);
    if (zw->objects > room) zw->objects = (uint32_t)room;
    zw->loc = malloc((size_t)zw->objects * sizeof *zw->loc);
    zw->owner = malloc((size_t)zw->zones * zw->per_zone * sizeof *zw->owner);
    zw->zs = calloc(zw->zones, sizeof *zw->zs);
    zw->empty = malloc(zw->zones * sizeof *zw->empty);
    zw->slots = calloc(slot_count, sizeof *zw->slots);
    zw->parked = malloc(slot_count * sizeof *zw->parked);
    if (!zw->loc || !zw->owner || !zw->zs || !zw->empty || !zw->slots || !zw->parked) {
        zonewriter_free(zw);
        *zw = (zonewriter){0};
        return snprintf(err, errlen, "out of memory"), -1;
    }
    memset(zw->loc, 0xff, (size_t)zw->objects * sizeof *zw->loc);
    memset(zw->owner, 0xff, (size_t)zw->zones * zw->per_zone * sizeof *zw->owner);
    for (uint32_t i = zw->zones; i-- > 0;) zw->empty[zw->empty_count++] = i; /* zone 0 on top */
    for (uint32_t s = 0; s <= ZW_MAX_STREAMS; s++) zw->open[s] = NONE;
    return 0;
}

void zonewriter_free(zonewriter *zw)
{
    free(zw->loc);
    free(zw->owner);
    free(zw->zs);
    free(zw->empty);
    free(zw->slots);
    free(zw->parked);
}

/* --- where things are ------------------------------------------------------- */

static uint32_t slot_of(const zonewriter *zw, uint64_t offset)
{
    uint64_t in_ns = offset - zw->start;
    return (uint32_t)(in_ns / zw->zone_bytes) * zw->per_zone + (uint32_t)(in_ns % zw->zone_bytes / zw->object_bytes);
}

static uint64_t offset_of(const zonewriter *zw, uint32_t slot)
{
    return zw->start + slot / zw->per_zone * zw->zone_bytes + (uint64_t)(slot % zw->per_zone) * zw->object_bytes;
}

static uint64_t zone_start(const zonewriter *zw, uint32_t zone) { return zw->start + zone * zw->zone_bytes; }

/* The stream's zone with room for one more append, opening an empty zone
 * when it has none; NONE when no empty zone is left. */
static uint32_t stream_zone(zonewriter *zw, uint32_t stream)
{
    uint32_t z = zw->open[stream];
    if (z != NONE) return z;
    if (!zw->empty_count) return NONE;
    z = zw->empty[--zw->empty_count];
    zw->zs[z] = (zw_zone){.state = ZW_OPEN};
    return zw->open[stream] = z;
}

/* One more append to the stream's zone; a zone all spoken for leaves the
 * stream, which opens another for its next object. */
static uint32_t reserve(zonewriter *zw, uint32_t stream)
{
    uint32_t z = zw->open[stream];
    if (++zw->zs[z].reserved == zw->per_zone) zw->open[stream] = NONE;
    return z;
}

static void place(zonewriter *zw, uint32_t object, uint32_t slot)
{
    uint32_t old = zw->loc[object];
    if (old != NONE) {
        zw->owner[old] = NONE;
        zw->zs[old / zw->per_zone].valid--;
    }
    zw->loc[object] = slot;
    zw->owner[slot] = object;
    zw->zs[slot / zw->per_zone].valid++;
}

/* --- reclaim ---------------------------------------------------------------- */

/* Reclaim starts when no more than the streams' worth of empty zones is
 * left (one each, and the reclaimer's), on the full zone with the fewest
 * live objects. */
static void maybe_start_reclaim(zonewriter *zw)
{
    if (zw->victim != NONE || zw->empty_count > zw->streams + 1) return;
    uint32_t best = NONE;
    for (uint32_t z = 0; z < zw->zones; z++)
        if (zw->zs[z].state == ZW_FULL && (best == NONE || zw->zs[z].valid < zw->zs[best].valid)) best = z;
    if (best == NONE) return;
    zw->victim = best;
    zw->zs[best].state = ZW_RECLAIMING;
    zw->cursor = 0;
    zw->reset_issued = false;
}

/* The reclaim's next command for a slot: a copy's read, or the reset once
 * every live object has moved. False when it has nothing for a slot now. */
static bool reclaim_next(zonewriter *zw, zw_slot *s, ssdlab_request *r)
{
    if (zw->victim == NONE || zw->reset_issued) return false;
    uint32_t base = zw->victim * zw->per_zone;
    while (zw->cursor < zw->per_zone && zw->owner[base + zw->cursor] == NONE) zw->cursor++;
    if (zw->cursor < zw->per_zone) {
        s->step = ZW_COPY_READ;
        s->from = base + zw->cursor++;
        s->object = zw->owner[s->from];
        zw->copies_in_flight++;
        *r = (ssdlab_request){.op = SSDLAB_READ, .offset = offset_of(zw, s->from), .bytes = zw->object_bytes};
        return true;
    }
    if (zw->copies_in_flight || zw->zs[zw->victim].valid) return false;
    s->step = ZW_RESET;
    zw->reset_issued = true;
    *r = (ssdlab_request){.op = SSDLAB_ZONE_RESET, .offset = zone_start(zw, zw->victim)};
    return true;
}

/* A copy's data is read: append it to the reclaimer's zone (which always
 * has one: it opens before the user streams can take the last). */
static void copy_write(zonewriter *zw, zw_slot *s, ssdlab_request *r)
{
    if (stream_zone(zw, zw->streams) == NONE) ssdlab_internal_error("the zoned writer's reclaimer found no empty zone");
    uint32_t z = reserve(zw, zw->streams);
    s->step = ZW_COPY_WRITE;
    *r = (ssdlab_request){.op = SSDLAB_ZONE_APPEND, .offset = zone_start(zw, z), .bytes = zw->object_bytes};
}

/* --- the loop --------------------------------------------------------------- */

static uint32_t user_stream(const zonewriter *zw, uint32_t object)
{
    if (!zw->separate || zw->streams == 1) return object % zw->streams;
    if (object < zw->hot_objects) return 0;
    return 1 + object % (zw->streams - 1);
}

/* Keeps the slot's draw for its next turn. */
static void keep_draw(zw_slot *s, bool read, uint32_t object)
{
    s->has_draw = true;
    s->draw_read = read;
    s->draw_object = object;
}

bool zonewriter_next(zonewriter *zw, uint32_t slot, bool read, uint64_t object_offset, ssdlab_request *r)
{
    zw_slot *s = &zw->slots[slot];
    uint32_t object = (uint32_t)(object_offset / zw->object_bytes);
    if (reclaim_next(zw, s, r)) return keep_draw(s, read, object), true;
    if (read && zw->loc[object] != NONE) {
        s->step = ZW_USER_READ;
        *r = (ssdlab_request){.op = SSDLAB_READ, .offset = offset_of(zw, zw->loc[object]), .bytes = zw->object_bytes};
        return true;
    }
    /* user streams leave the reclaimer the last empty zone */
    uint32_t stream = user_stream(zw, object);
    if (zw->open[stream] == NONE && zw->empty_count <= 1) {
        keep_draw(s, read, object);
        zw->n.stalls++;
        return false;
    }
    stream_zone(zw, stream);
    uint32_t z = reserve(zw, stream);
    s->step = ZW_USER_WRITE;
    s->object = object;
    *r = (ssdlab_request){.op = SSDLAB_ZONE_APPEND, .offset = zone_start(zw, z), .bytes = zw->object_bytes};
    return true;
}

/* An append completed at r->offset: its zone fills towards full. */
static uint32_t appended(zonewriter *zw, const ssdlab_request *r)
{
    uint32_t slot = slot_of(zw, r->offset);
    zw_zone *z = &zw->zs[slot / zw->per_zone];
    if (++z->done == zw->per_zone) z->state = ZW_FULL;
    return slot;
}

static void reset_done(zonewriter *zw)
{
    zw->zs[zw->victim] = (zw_zone){.state = ZW_EMPTY};
    zw->empty[zw->empty_count++] = zw->victim;
    zw->victim = NONE;
    zw->n.resets++;
    maybe_start_reclaim(zw);
}

bool zonewriter_done(zonewriter *zw, uint32_t slot, const ssdlab_request *r)
{
    zw_slot *s = &zw->slots[slot];
    bool copied = s->step == ZW_COPY_WRITE;
    if (r->status) ssdlab_internal_error("the zoned writer's command (op %d at %llu) was refused: %s", (int)r->op,
                                         (unsigned long long)r->offset, ssdlab_status_name(r->status));
    switch ((zw_step)s->step) {
    case ZW_USER_READ: zw->n.user_reads++; break;
    case ZW_USER_WRITE: place(zw, s->object, appended(zw, r)); zw->n.user_writes++; break;
    case ZW_COPY_READ: return false; /* the slot goes on with the copy's append: zonewriter_copy */
    case ZW_COPY_WRITE: {
        uint32_t to = appended(zw, r);
        if (zw->loc[s->object] == s->from) place(zw, s->object, to); /* else overwritten meanwhile: stale */
        zw->copies_in_flight--;
        zw->n.copies++;
        break;
    }
    case ZW_RESET: reset_done(zw); break;
    case ZW_IDLE: break;
    }
    s->step = ZW_IDLE;
    maybe_start_reclaim(zw);
    return copied;
}

bool zonewriter_copying(const zonewriter *zw, uint32_t slot) { return zw->slots[slot].step == ZW_COPY_READ; }

void zonewriter_copy(zonewriter *zw, uint32_t slot, ssdlab_request *r) { copy_write(zw, &zw->slots[slot], r); }

void zonewriter_park(zonewriter *zw, uint32_t slot)
{
    zw->parked[(zw->parked_head + zw->parked_count++) % zw->slot_count] = slot;
}

bool zonewriter_kept_draw(zonewriter *zw, uint32_t slot, bool *read, uint64_t *object_offset)
{
    zw_slot *s = &zw->slots[slot];
    if (!s->has_draw) return false;
    s->has_draw = false;
    *read = s->draw_read;
    *object_offset = (uint64_t)s->draw_object * zw->object_bytes;
    return true;
}

uint32_t zonewriter_unpark(zonewriter *zw)
{
    uint32_t slot = zw->parked[zw->parked_head];
    zw->parked_head = (zw->parked_head + 1) % zw->slot_count;
    zw->parked_count--;
    return slot;
}
