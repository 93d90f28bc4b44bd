/* Placement handles of a workload's writes (placement.h). */
#include "placement.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const cfg_key placement_config_keys[] = {
    {"workload.placement", CFG_STRING, NULL, "0", NULL, NULL, NULL,
     "FDP placement handle of the phase's writes (fdp.handles): a number (the phase's own handle, as a tenant's); "
     "hotcold (the hot part of a hot/cold pattern on handle 0, the rest on 1); region (the phase's region split "
     "evenly over the handles); device (a trace replay: each device on its own handle, in order of appearance); column "
     "(a trace replay: the handle is the value of the trace's device column modulo fdp.handles, as a column map's "
     "device=N names a stream or handle column)."},
    {NULL, 0, NULL, NULL, NULL, NULL, NULL, NULL},
};

static int fixed(placement *pl, const char *v, char *err, size_t errlen)
{
    char *end;
    unsigned long h = strtoul(v, &end, 10);
    if (!v[0] || *end)
        return snprintf(err, errlen, "key 'workload.placement' is '%s'; expected a handle number, hotcold, region, device or column", v), -1;
    if (h >= pl->handles)
        return snprintf(err, errlen, "key 'workload.placement' is %lu, but the drive has %u placement handle%s (fdp.handles); "
                                     "expected 0 to %u", h, pl->handles, pl->handles == 1 ? "" : "s", pl->handles - 1), -1;
    pl->handle = (uint32_t)h;
    return 0;
}

int placement_init(placement *pl, const cfg *c, uint32_t handles, const generator *g, bool replay, char *err, size_t errlen)
{
    const char *v = cfg_str(c, "workload.placement");
    *pl = (placement){.kind = PLACE_FIXED, .handles = handles ? handles : 1};
    if (!strcmp(v, "device") || !strcmp(v, "column")) {
        if (!replay) return snprintf(err, errlen, "key 'workload.placement' is %s, which only a trace replay has; expected a "
                                                  "handle number, hotcold or region", v), -1;
        return pl->kind = !strcmp(v, "device") ? PLACE_DEVICE : PLACE_COLUMN, 0;
    }
    if (strcmp(v, "hotcold") && strcmp(v, "region")) return fixed(pl, v, err, errlen);
    if (replay || pl->handles < 2)
        return snprintf(err, errlen, "key 'workload.placement' is %s, which needs a synthetic phase and at least 2 placement "
                                     "handles (fdp.handles); expected a handle number%s", v, replay ? " or device" : ""), -1;
    if (!strcmp(v, "region")) {
        pl->kind = PLACE_REGION;
        pl->region_start = g->region_start, pl->region_bytes = g->region_bytes;
        return 0;
    }
    if (g->pattern != GEN_HOTCOLD)
        return snprintf(err, errlen, "key 'workload.placement' is hotcold, but the pattern is not; expected workload.pattern=hotcold"), -1;
    uint64_t hot = (uint64_t)(g->hot_fraction * (double)g->slots);
    pl->kind = PLACE_HOTCOLD;
    pl->hot_end = g->region_start + (hot ? hot : 1) * g->align;
    return 0;
}

uint8_t placement_of(const placement *pl, uint64_t offset, uint32_t device, uint32_t device_place)
{
    switch (pl->kind) {
    case PLACE_HOTCOLD: return offset < pl->hot_end ? 0 : 1;
    case PLACE_REGION: return (uint8_t)((offset - pl->region_start) * pl->handles / pl->region_bytes);
    case PLACE_DEVICE: return (uint8_t)(device_place % pl->handles);
    case PLACE_COLUMN: return (uint8_t)(device % pl->handles);
    case PLACE_FIXED: break;
    }
    return (uint8_t)pl->handle;
}
