/* A zone-aware host: a log-structured store of fixed-size objects over a
 * drive's zoned namespace, as a key-value store or a log-structured file
 * system keeps its data there (ZenFS, F2FS). Object writes are Zone
 * Appends to one of `streams` open zones (hot and cold apart, or mixed);
 * when empty zones run short a reclaimer copies the live objects of the
 * full zone with the fewest (greedy) into a zone of its own and resets
 * it. The host's copies are its write amplification: the drive's is 1.
 *
 * It drives the closed loop's slots: for each free slot the workload asks
 * for the next command (reclaim work first), and hands back completions. */
#ifndef SSDLAB_ZONEWRITER_H
#define SSDLAB_ZONEWRITER_H

#include <stdbool.h>
#include <stdint.h>

#include "config.h"
#include "ssd.h"

extern const cfg_key zonewriter_config_keys[];

enum { ZW_MAX_STREAMS = 16 };

typedef struct zw_slot zw_slot;
typedef struct zw_zone zw_zone;

typedef struct zonewriter_counts {
    uint64_t user_writes, user_reads, copies, resets, stalls; /* stalls: a write waited for an empty zone */
} zonewriter_counts;

typedef struct zonewriter {
    ssd *d;
    uint64_t start, zone_bytes;    /* the namespace's first byte; bytes of address per zone */
    uint32_t zones, per_zone;      /* zones; objects a zone holds */
    uint32_t object_bytes, objects;
    uint32_t streams;              /* user streams; the reclaimer's is one more */
    bool separate;                 /* hot objects to stream 0, cold ones to the others */
    uint64_t hot_objects;          /* objects below this are hot (hot/cold pattern), else 0 */
    uint32_t *loc, *owner;         /* object -> slot of the namespace, and back; UINT32_MAX: none */
    zw_zone *zs;
    uint32_t *empty, empty_count;  /* stack of empty zones */
    uint32_t open[ZW_MAX_STREAMS + 1]; /* each stream's zone, UINT32_MAX: none */
    uint32_t victim, cursor;       /* the zone being reclaimed (UINT32_MAX: none), next slot to look at */
    uint32_t copies_in_flight;
    bool reset_issued;
    zw_slot *slots;
    uint32_t slot_count;
    uint32_t *parked, parked_head, parked_count; /* slots waiting for an empty zone, oldest first */
    zonewriter_counts n;
} zonewriter;

/* For a drive with a zoned namespace; slot_count slots of the closed
 * loop; hot_objects from the pattern (0: no hot part). -1 with a message. */
int zonewriter_init(zonewriter *zw, ssd *d, const cfg *c, uint32_t slot_count, char *err, size_t errlen);
void zonewriter_free(zonewriter *zw);
/* The object space the generator draws from: objects x object_bytes. */
static inline uint64_t zonewriter_space(const zonewriter *zw) { return (uint64_t)zw->objects * zw->object_bytes; }
/* The next command of slot `slot` into r: reclaim work if any, else the
 * user's (a read or a write of the object at byte `object_offset` of the
 * object space). False when the slot must wait (no empty zone yet). */
bool zonewriter_next(zonewriter *zw, uint32_t slot, bool read, uint64_t object_offset, ssdlab_request *r);
/* Slot `slot`'s command r completed; true when it was a reclaim copy's append. */
bool zonewriter_done(zonewriter *zw, uint32_t slot, const ssdlab_request *r);
/* After a copy's read completed, the slot's next command is its append:
 * zonewriter_copying says so, zonewriter_copy fills it in. */
bool zonewriter_copying(const zonewriter *zw, uint32_t slot);
void zonewriter_copy(zonewriter *zw, uint32_t slot, ssdlab_request *r);
/* A slot that got nothing waits; each completion wakes the waiting ones,
 * oldest first (one that still gets nothing waits again). A draw of the
 * generator that a slot could not use (it waited, or did reclaim work
 * instead) is kept for its next turn, so a sequential writer skips no
 * object: zonewriter_kept_draw hands it back (false: draw anew). */
void zonewriter_park(zonewriter *zw, uint32_t slot);
bool zonewriter_kept_draw(zonewriter *zw, uint32_t slot, bool *read, uint64_t *object_offset);
static inline uint32_t zonewriter_parked(const zonewriter *zw) { return zw->parked_count; }
uint32_t zonewriter_unpark(zonewriter *zw);

#endif
