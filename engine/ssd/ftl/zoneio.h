/* A zoned namespace below the host interface: its zones' state (zones.h),
 * where each unit written goes (its zone's blocks, by the layout), the
 * program unit each zone is filling, and zone resets: the zone's mapping
 * is dropped, its programs under way finish, then its written blocks are
 * erased (timed), and the reset completes. No GC ever moves zone data.
 *
 * Units here are the drive's mapping units; the zoned namespace's start
 * at first_unit, right after the conventional namespace's. */
#ifndef SSDLAB_ZONEIO_H
#define SSDLAB_ZONEIO_H

#include <stdbool.h>

#include "flash.h"
#include "ftl.h"
#include "zones.h"

/* What a zone reset owes above: its completion (wired at assembly). */
typedef struct zoneio_hooks {
    void (*reset_done)(void *ctx, ssdlab_request *r);
    void *ctx;
} zoneio_hooks;

typedef struct zone_io {
    uint32_t first, fill;  /* the program unit being filled: its first unit, units in it */
    uint32_t programs;     /* programs submitted, not yet done */
    uint32_t erases;       /* erases of a reset under way */
    ssdlab_request *reset; /* a reset waiting for programs or erases */
} zone_io;

typedef struct zoneio {
    const ssd_params *p;
    ftl *f;
    flash *fl;
    zones zs;
    zone_layout layout;
    zone_io *z;
    uint64_t first_unit;
    uint64_t resets, erases, padded; /* padded: units programmed without data (finish, reset) */
    zoneio_hooks hooks;
} zoneio;

int zoneio_init(zoneio *z, ftl *f, flash *fl);
void zoneio_free(zoneio *z);
void zoneio_set_hooks(zoneio *z, const zoneio_hooks *h);

/* Whether the drive unit lies in the zoned namespace. */
static inline bool zoneio_covers(const zoneio *z, uint64_t unit) { return z && unit >= z->first_unit; }
/* The zone of a drive unit in the namespace, and its offset in the zone. */
static inline uint32_t zoneio_zone(const zoneio *z, uint64_t unit) { return zones_of(&z->zs, unit - z->first_unit); }

/* Up to `want` units of a write from drive unit lpn on, within one program
 * unit: returns where the first goes (the rest follow it) and the count in
 * *got, the die in *die. The caller maps them, then hands them to
 * zoneio_add. */
uint32_t zoneio_alloc_run(zoneio *z, uint32_t lpn, uint32_t want, uint32_t *got, uint32_t *die);
/* Adds placed units to their zone's program unit; a full one is programmed. */
void zoneio_add(zoneio *z, uint32_t lpn, uint32_t die, uint32_t ppa, uint32_t count);
/* A program of zone data finished (the buffer tells, from its completion). */
void zoneio_program_done(zoneio *z, const txn *t);
/* After Zone Finish: the zone's part-filled program unit is padded and
 * programmed, so its data leaves the buffer. */
void zoneio_finish(zoneio *z, uint32_t zone);
/* After Zone Reset (zones_reset), for the `written` units the zone held:
 * drops their mapping and erases the zone's blocks; r completes through
 * the reset_done hook. */
void zoneio_reset(zoneio *z, uint32_t zone, uint64_t written, ssdlab_request *r);
/* The flash's completion of a zone's erase (wired at assembly). */
void zoneio_erase_done(void *ctx, txn *t);

#endif
