/* Zoned traces onto the zoned namespace (trace_zones.h). */
#include "trace_zones.h"

#include <stdio.h>
#include <string.h>

#include "zoneio.h"

const cfg_key trace_zones_config_keys[] = {
    {"workload.trace_zones", CFG_ENUM, NULL, "conventional", NULL, NULL, "conventional|zoned",
     "Trace replay: where the trace's addresses go: the conventional namespace (a zone command in the trace is an error), "
     "or the drive's zoned namespace, zone by zone (a trace of a zoned device: docs/zns.md)."},
    {"workload.trace_zone_size", CFG_SIZE, "MiB", "0B", NULL, NULL, NULL,
     "Trace replay onto zones: the traced device's zone size; its zone i is the drive's zone i. 0: the drive's zone size."},
    {NULL, 0, NULL, NULL, NULL, NULL, NULL, NULL},
};

int trace_zones_init(trace_zones *z, ssd *d, const cfg *c, char *err, size_t errlen)
{
    *z = (trace_zones){.on = !strcmp(cfg_str(c, "workload.trace_zones"), "zoned")};
    if (!z->on) return 0;
    const zoneio *zio = ssd_zoned(d);
    if (!zio)
        return snprintf(err, errlen, "key 'workload.trace_zones' is zoned, but the drive has no zoned namespace; expected "
                                     "zns.zones above 0"), -1;
    z->start = ssd_capacity(d);
    z->drive_zone = zio->zs.size * zio->p->unit;
    z->zones = zio->zs.count;
    z->trace_zone = cfg_uint(c, "workload.trace_zone_size");
    if (!z->trace_zone) z->trace_zone = z->drive_zone;
    return 0;
}

bool trace_zones_map(const trace_zones *z, trace_record *r, char *what, size_t len)
{
    uint64_t zone = r->offset / z->trace_zone, within = r->offset % z->trace_zone;
    if (zone >= z->zones)
        return snprintf(what, len, "offset %llu is in the traced device's zone %llu, and the drive has %u zones; expected "
                                  "more zones (zns.zones) or a larger workload.trace_zone_size",
                        (unsigned long long)r->offset, (unsigned long long)zone, z->zones), false;
    if (within + r->bytes > z->drive_zone)
        return snprintf(what, len, "offset %llu + %u bytes lies past the end of the drive's zone (%llu bytes of address); "
                                  "expected a workload.trace_zone_size no larger than the drive's zones",
                        (unsigned long long)r->offset, r->bytes, (unsigned long long)z->drive_zone), false;
    r->offset = z->start + zone * z->drive_zone + within;
    return true;
}
