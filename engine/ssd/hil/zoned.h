/* The host interface's part of a zoned namespace: the checks the ZNS
 * command set makes when the firmware takes a command up (zone state,
 * write pointer, limits; a refused command completes with its status),
 * and the zone management commands. Reads, writes and appends that pass
 * go on down the ordinary path; a reset waits for its erases. */
#ifndef SSDLAB_HIL_ZONED_H
#define SSDLAB_HIL_ZONED_H

#include <stdbool.h>

#include "ssdlab.h"
#include "zoneio.h"

typedef enum zoned_verdict {
    ZONED_NOT,    /* a conventional command: the ordinary path */
    ZONED_GO_ON,  /* checked: go on down the path (r->offset is where an append writes) */
    ZONED_DONE,   /* done here (refused, or open, close, finish): complete it now */
    ZONED_WAITS,  /* a reset under way: it completes through zoneio's hook */
} zoned_verdict;

/* Whether r is a well-formed command for a drive whose zoned namespace
 * (zio, NULL: none) follows `conventional` bytes: inside one namespace,
 * whole units in the zoned one, zone management naming no bytes. */
bool zoned_valid(const zoneio *zio, const ssdlab_request *r, uint64_t conventional, uint32_t unit);
/* Checks and carries out r's zone work when the firmware takes it up. */
zoned_verdict zoned_command(zoneio *zio, ssdlab_request *r, uint32_t unit);

#endif
