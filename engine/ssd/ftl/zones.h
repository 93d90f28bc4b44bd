/* A zoned namespace's zones (NVMe Zoned Namespace Command Set 1.1): their
 * states, write pointers and the open and active limits, as the zone
 * management commands and writes change them; and where a zone's data
 * lies on the flash. No timing here: the drive times what this allows.
 *
 * Addresses are in logical units (the drive's mapping unit, its LBA
 * format), relative to the namespace. A zone is `size` units of address
 * space, of which the first `capacity` are writable (size is the power of
 * two at or above capacity, as drives report it). Active zones are the
 * opened and closed ones; open zones the implicitly and explicitly
 * opened ones. A limit of 0 means none. */
#ifndef SSDLAB_ZONES_H
#define SSDLAB_ZONES_H

#include <stdint.h>

typedef enum zone_state {
    ZONE_EMPTY,
    ZONE_IMPLICIT_OPEN,
    ZONE_EXPLICIT_OPEN,
    ZONE_CLOSED,
    ZONE_FULL,
    ZONE_READ_ONLY,
    ZONE_OFFLINE,
    ZONE_STATES
} zone_state;

/* A command's outcome: success, or the specification's status. */
typedef enum zone_status {
    ZONE_OK,
    ZONE_IS_FULL,            /* Zone Is Full */
    ZONE_IS_READ_ONLY,       /* Zone Is Read Only */
    ZONE_IS_OFFLINE,         /* Zone Is Offline */
    ZONE_INVALID_WRITE,      /* Zone Invalid Write: not at the write pointer */
    ZONE_BOUNDARY_ERROR,     /* Zone Boundary Error: past the capacity (writes) or the zone (reads) */
    ZONE_TOO_MANY_ACTIVE,    /* Too Many Active Zones */
    ZONE_TOO_MANY_OPEN,      /* Too Many Open Zones */
    ZONE_INVALID_TRANSITION, /* Invalid Zone State Transition */
    ZONE_INVALID_FIELD,      /* Invalid Field in Command: an append not at a zone's start, an LBA out of range */
    ZONE_STATUSES
} zone_status;

extern const char *const zone_state_names[ZONE_STATES];
extern const char *const zone_status_names[ZONE_STATUSES];

typedef struct zone {
    uint64_t wp;          /* write pointer, from the zone's start */
    uint64_t opened;      /* when it was implicitly opened (the oldest is closed first) */
    uint8_t state;        /* zone_state */
} zone;

typedef struct zones {
    zone *z;
    uint32_t count;
    uint64_t size, capacity; /* units */
    uint32_t max_open, max_active;
    uint32_t open, active;
    uint64_t opened_seq;
    uint64_t failed[ZONE_STATUSES]; /* commands refused, by status */
    uint64_t auto_closed;           /* implicitly open zones closed to open another */
} zones;

/* `count` zones of `capacity` units each. Returns -1 when out of memory. */
int zones_init(zones *zs, uint32_t count, uint64_t capacity, uint32_t max_open, uint32_t max_active);
void zones_free(zones *zs);

static inline uint32_t zones_of(const zones *zs, uint64_t unit) { return (uint32_t)(unit / zs->size); }
static inline uint64_t zones_start(const zones *zs, uint32_t zone) { return (uint64_t)zone * zs->size; }

/* A write of n units at `unit`: checks it, opens the zone implicitly if it
 * must, and moves the write pointer (the zone is full when it reaches the
 * capacity). */
zone_status zones_write(zones *zs, uint64_t unit, uint32_t n);
/* Zone Append of n units to the zone starting at zslba: written at the
 * write pointer, whose address goes to *written. */
zone_status zones_append(zones *zs, uint64_t zslba, uint32_t n, uint64_t *written);
/* A read of n units at `unit` (within one zone; an offline zone refuses it). */
zone_status zones_read(zones *zs, uint64_t unit, uint32_t n);

/* A refusal the zones did not make themselves (the host interface's
 * checks): counted with theirs; returns s. */
zone_status zones_refuse(zones *zs, zone_status s);

/* The Zone Management Send actions, on one zone. */
zone_status zones_open(zones *zs, uint32_t zone);
zone_status zones_close(zones *zs, uint32_t zone);
zone_status zones_finish(zones *zs, uint32_t zone);
zone_status zones_reset(zones *zs, uint32_t zone);
zone_status zones_offline(zones *zs, uint32_t zone);
/* The device's own verdict on a zone's media (read-only or offline). */
void zones_set_condition(zones *zs, uint32_t zone, zone_state state);

/* Where zone data lies: a zone stripes program units over `width` dies of
 * its group, `blocks` blocks on each, in the top blocks of every die. */
typedef struct zone_layout {
    uint32_t width, blocks, groups;
    uint32_t units_per_block, units_per_program, blocks_per_die, first_block;
} zone_layout;

typedef struct zone_place {
    uint32_t die, block; /* block: the drive-wide id */
    uint32_t offset;     /* unit in the block */
} zone_place;

/* Unit `unit` (from the zone's start) of zone `zone`. */
zone_place zone_layout_place(const zone_layout *l, uint32_t zone, uint64_t unit);
/* The drive-wide id of block j (0 .. width*blocks-1) of the zone. */
uint32_t zone_layout_block(const zone_layout *l, uint32_t zone, uint32_t j);

#endif
