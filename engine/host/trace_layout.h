/* Where a replayed trace's records land on the drive: which devices are
 * replayed (workload.devices), how several share the drive
 * (workload.device_layout: overlay, concat, separate), and what becomes
 * of an address past it (workload.lba_map: error, wrap, scale, compact).
 * Scaling, laying devices out and packing a footprint need to know the
 * trace before it is replayed: trace_layout_measure makes that pass. */
#ifndef SSDLAB_TRACE_LAYOUT_H
#define SSDLAB_TRACE_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "footprint.h"
#include "stats.h"
#include "trace.h"

enum { TRACE_LAYOUT_DEVICES = 64 }; /* workload.devices lists at most these */

typedef enum lba_map { MAP_ERROR, MAP_WRAP, MAP_SCALE, MAP_COMPACT } lba_map;
typedef enum device_layout { LAYOUT_NONE, LAYOUT_OVERLAY, LAYOUT_CONCAT, LAYOUT_SEPARATE } device_layout;

/* A replayed device's place on the drive: concat puts each device's
 * addresses after the ones before it; separate gives each an equal
 * partition of the drive, its addresses mapped into it. */
typedef struct device_place {
    uint32_t id;
    uint64_t base, max_end;
} device_place;

typedef struct trace_layout {
    lba_map map;
    device_layout layout;
    uint64_t capacity; /* the drive's bytes */
    uint64_t max_end;  /* the trace's highest end (scale; concat: the devices' whole extent) */
    uint32_t unit;     /* the drive's mapping unit: scale keeps requests aligned to it */
    footprint fp;      /* compact: the pages the replayed records touch, ranked */
    uint32_t devices[TRACE_LAYOUT_DEVICES];
    int device_count; /* 0: all */
    device_place places[STATS_DEVICES];
    uint32_t place_count;
    uint64_t partition; /* separate: each device's share of the drive */
    uint64_t remapped;  /* records whose address was moved */
} trace_layout;

/* From the config (the keys above); the drive's capacity and mapping unit. */
int trace_layout_init(trace_layout *l, const cfg *c, uint64_t capacity, uint32_t unit, char *err, size_t errlen);
void trace_layout_free(trace_layout *l);

/* Whether the device's records are replayed. */
bool trace_layout_wants(const trace_layout *l, uint32_t device);

/* The pass over the trace the layout needs, if any: the statistics' lighter
 * pass (trace_stats_extent) when addresses are scaled or several devices
 * are replayed, marking a compact footprint as it goes; else a compact
 * footprint's own pass. *counted tells whether *st was filled. Returns 0,
 * or -1 with a message naming the file in err. */
int trace_layout_measure(trace_layout *l, const char *path, const trace_options *opt, trace_stats *st, bool *counted,
                         char *err, size_t errlen);

/* Moves r onto the drive, by its device's place and lba_map. False, with
 * what is wrong in why, when it lies past the drive and lba_map is error. */
bool trace_layout_place(trace_layout *l, trace_record *r, char *why, size_t len);

#endif
