/* Zoned commands at the host interface (zoned.h). */
#include "zoned.h"

static bool is_management(ssdlab_op op) { return op > SSDLAB_ZONE_APPEND && op <= SSDLAB_ZONE_CLOSE; }

bool zoned_valid(const zoneio *zio, const ssdlab_request *r, uint64_t conventional, uint32_t unit)
{
    uint64_t zoned = zio ? (uint64_t)zio->zs.count * zio->zs.size * unit : 0;
    if ((unsigned)r->op >= SSDLAB_OPS || r->offset >= conventional + zoned) return false;
    bool in_zones = r->offset >= conventional;
    if (r->op == SSDLAB_FDP_UPDATE) return !in_zones && r->bytes == 0;
    if (r->op >= SSDLAB_ZONE_APPEND && !in_zones) return false;
    if (is_management(r->op)) return r->bytes == 0;
    if (r->bytes == 0) return false;
    if (!in_zones) return r->bytes <= conventional - r->offset;
    return r->bytes <= conventional + zoned - r->offset && r->offset % unit == 0 && r->bytes % unit == 0;
}

static zoned_verdict refuse(ssdlab_request *r, zone_status s)
{
    r->status = (uint16_t)s;
    return ZONED_DONE;
}

/* Zone management: offset must name a zone's start. */
static zoned_verdict manage(zoneio *zio, ssdlab_request *r, uint64_t unit_in_ns)
{
    zones *zs = &zio->zs;
    uint32_t zone = zones_of(zs, unit_in_ns);
    if (unit_in_ns != zones_start(zs, zone)) return refuse(r, zones_refuse(zs, ZONE_INVALID_FIELD));
    if (r->op == SSDLAB_ZONE_RESET && zio->z[zone].reset) /* its last reset is still erasing */
        return refuse(r, zones_refuse(zs, ZONE_INVALID_TRANSITION));
    uint64_t written = zs->z[zone].wp;
    zone_status s = r->op == SSDLAB_ZONE_RESET    ? zones_reset(zs, zone)
                  : r->op == SSDLAB_ZONE_FINISH   ? zones_finish(zs, zone)
                  : r->op == SSDLAB_ZONE_OPEN     ? zones_open(zs, zone)
                                                  : zones_close(zs, zone);
    if (s != ZONE_OK) return refuse(r, s);
    if (r->op == SSDLAB_ZONE_FINISH) zoneio_finish(zio, zone);
    if (r->op != SSDLAB_ZONE_RESET) return ZONED_DONE;
    zoneio_reset(zio, zone, written, r);
    return ZONED_WAITS;
}

zoned_verdict zoned_command(zoneio *zio, ssdlab_request *r, uint32_t unit)
{
    uint64_t u = r->offset / unit;
    if (!zoneio_covers(zio, u)) return ZONED_NOT;
    uint64_t in_ns = u - zio->first_unit;
    uint32_t n = r->bytes / unit;
    zones *zs = &zio->zs;
    if (is_management(r->op)) return manage(zio, r, in_ns);
    if (r->op == SSDLAB_TRIM) return refuse(r, zones_refuse(zs, ZONE_INVALID_FIELD));
    if (r->op == SSDLAB_READ) {
        zone_status s = zones_read(zs, in_ns, n);
        return s == ZONE_OK ? ZONED_GO_ON : refuse(r, s);
    }
    if (zio->z[zones_of(zs, in_ns)].reset) /* the zone's blocks are being erased */
        return refuse(r, zones_refuse(zs, ZONE_INVALID_WRITE));
    zone_status s;
    if (r->op == SSDLAB_ZONE_APPEND) {
        uint64_t at = 0;
        s = zones_append(zs, in_ns, n, &at);
        if (s == ZONE_OK) r->offset = (zio->first_unit + at) * unit;
    } else {
        s = zones_write(zs, in_ns, n);
    }
    return s == ZONE_OK ? ZONED_GO_ON : refuse(r, s);
}
