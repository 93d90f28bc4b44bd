/* Which FDP placement handle a workload's writes carry
 * (workload.placement): one handle for the whole phase (a tenant's own),
 * the hot part of a hot/cold pattern apart from the cold, handles by
 * region of the phase's addresses, or (a trace) by device, or from a
 * column that names the handle (a column map's device=N). */
#ifndef SSDLAB_PLACEMENT_H
#define SSDLAB_PLACEMENT_H

#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "generator.h"

extern const cfg_key placement_config_keys[];

typedef enum placement_kind { PLACE_FIXED, PLACE_HOTCOLD, PLACE_REGION, PLACE_DEVICE, PLACE_COLUMN } placement_kind;

typedef struct placement {
    placement_kind kind;
    uint32_t handle;  /* fixed */
    uint32_t handles; /* the drive's (fdp.handles; 1 without FDP) */
    uint64_t hot_end; /* hot/cold: offsets below are hot */
    uint64_t region_start, region_bytes;
} placement;

/* From workload.placement for a drive of `handles` handles; g is the
 * phase's generator (NULL for a trace replay). -1 with a message. */
int placement_init(placement *pl, const cfg *c, uint32_t handles, const generator *g, bool replay, char *err, size_t errlen);
/* The handle of a write at `offset` of trace device `device`, the
 * `device_place`-th the trace named (0 and 0 for synthetic requests). */
uint8_t placement_of(const placement *pl, uint64_t offset, uint32_t device, uint32_t device_place);

#endif
