/* A trace of a zoned device, replayed onto the drive's zoned namespace:
 * the traced device's zone i (of workload.trace_zone_size) becomes the
 * drive's zone i, offsets within the zone kept, so its writes still land
 * on the write pointers and its zone commands on zone starts. */
#ifndef SSDLAB_TRACE_ZONES_H
#define SSDLAB_TRACE_ZONES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "record.h"
#include "ssd.h"

extern const cfg_key trace_zones_config_keys[];

typedef struct trace_zones {
    bool on;                  /* workload.trace_zones = zoned */
    uint64_t start;           /* the drive's zoned namespace, bytes */
    uint64_t drive_zone;      /* bytes of address per drive zone */
    uint64_t trace_zone;      /* bytes per traced zone */
    uint32_t zones;           /* the drive's */
} trace_zones;

int trace_zones_init(trace_zones *z, ssd *d, const cfg *c, char *err, size_t errlen);
/* Maps r onto the zoned namespace; false with why in `what`. */
bool trace_zones_map(const trace_zones *z, trace_record *r, char *what, size_t len);

#endif
