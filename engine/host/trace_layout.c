#include "trace_layout.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int parse_devices(trace_layout *l, const char *list, char *err, size_t errlen)
{
    if (!strcmp(list, "all")) return 0;
    for (const char *c = list; *c;) {
        char *end;
        unsigned long v = strtoul(c, &end, 10);
        if (end == c || (*end && *end != ',') || l->device_count == TRACE_LAYOUT_DEVICES)
            return snprintf(err, errlen, "key 'workload.devices' ('%s'): expected 'all' or up to %d device numbers separated by commas",
                            list, TRACE_LAYOUT_DEVICES), -1;
        l->devices[l->device_count++] = (uint32_t)v;
        c = *end ? end + 1 : end;
    }
    return 0;
}

int trace_layout_init(trace_layout *l, const cfg *c, uint64_t capacity, uint32_t unit, char *err, size_t errlen)
{
    memset(l, 0, sizeof *l);
    l->capacity = capacity;
    l->unit = unit;
    const char *map = cfg_str(c, "workload.lba_map");
    l->map = !strcmp(map, "wrap") ? MAP_WRAP : !strcmp(map, "scale") ? MAP_SCALE : !strcmp(map, "compact") ? MAP_COMPACT : MAP_ERROR;
    l->layout = (device_layout)cfg_choice(c, "workload.device_layout");
    return parse_devices(l, cfg_str(c, "workload.devices"), err, errlen);
}

void trace_layout_free(trace_layout *l) { footprint_free(&l->fp); }

bool trace_layout_wants(const trace_layout *l, uint32_t device)
{
    if (!l->device_count) return true;
    for (int i = 0; i < l->device_count; i++)
        if (l->devices[i] == device) return true;
    return false;
}

/* --- the pass before the replay ------------------------------------------- */

/* A trace of several devices says how they share the drive
 * (workload.device_layout), or which of them to replay (workload.devices):
 * laid on one address space unasked, their requests would collide. */
static int lay_out_devices(trace_layout *l, const char *path, const trace_stats *st, char *err, size_t errlen)
{
    uint64_t extent = 0;
    const uint64_t mib = UINT64_C(1) << 20;
    l->place_count = 0;
    for (uint32_t i = 0; i < st->devices && i < STATS_DEVICES; i++)
        if (trace_layout_wants(l, st->device[i].id))
            l->places[l->place_count++] = (device_place){st->device[i].id, 0, st->device[i].max_end};
    bool described = st->devices <= STATS_DEVICES;
    if (described && l->place_count <= 1) return 0;
    if (l->layout == LAYOUT_NONE) {
        char list[300] = "";
        for (uint32_t i = 0, at = 0; i < st->devices && i < 8 && at < sizeof list; i++)
            at += (uint32_t)snprintf(list + at, sizeof list - at, "%s%u: %llu requests", i ? ", " : "", st->device[i].id,
                                     (unsigned long long)st->device[i].requests);
        return snprintf(err, errlen, "%.200s holds %u devices (%s%s); expected 'workload.devices' (those to replay) or "
                        "'workload.device_layout': overlay, concat or separate", path, st->devices, list,
                        st->devices > 8 ? ", ..." : ""), -1;
    }
    if (!described && l->layout != LAYOUT_OVERLAY)
        return snprintf(err, errlen, "%s holds %u devices, more than the %d that 'workload.device_layout' %s lays out; "
                        "expected overlay, or 'workload.devices' naming at most %d", path, st->devices, STATS_DEVICES,
                        l->layout == LAYOUT_CONCAT ? "concat" : "separate", STATS_DEVICES), -1;
    l->partition = l->capacity / l->place_count / mib * mib;
    for (uint32_t i = 0; i < l->place_count; i++) {
        l->places[i].base = l->layout == LAYOUT_SEPARATE ? i * l->partition : extent;
        extent += (l->places[i].max_end + mib - 1) / mib * mib;
    }
    if (l->layout == LAYOUT_CONCAT) l->max_end = extent;
    return 0;
}

/* compact: marks the pages a replayed record touches. */
static void mark_footprint(void *ctx, const trace_record *r)
{
    trace_layout *l = ctx;
    if (trace_layout_wants(l, r->device)) footprint_mark(&l->fp, r->offset, r->bytes);
}

/* compact: the pages marked must fit on the drive. */
static int check_footprint(trace_layout *l, const char *path, char *err, size_t errlen)
{
    if (l->fp.overflow || footprint_rank_prepare(&l->fp))
        return snprintf(err, errlen, "%.200s: the trace's addresses reach past 2 TiB, or its footprint does not fit in "
                        "memory; expected lba_map=scale or wrap", path), -1;
    if (l->fp.set * FOOTPRINT_PAGE > l->capacity)
        return snprintf(err, errlen, "%.200s: the trace touches %llu pages of 4 KiB, more than the drive's %llu bytes hold; "
                        "expected a larger drive, or lba_map=scale or wrap", path, (unsigned long long)l->fp.set,
                        (unsigned long long)l->capacity), -1;
    return 0;
}

/* compact, when nothing else needs a pass: one of its own. */
static int measure_footprint(trace_layout *l, const char *path, const trace_options *opt, char *err, size_t errlen)
{
    trace_reader *t = trace_open(path, opt, err, errlen);
    if (!t) return -1;
    trace_record r;
    int rc;
    while ((rc = trace_next(t, &r)) == 1) mark_footprint(l, &r);
    if (rc < 0) snprintf(err, errlen, "%s", trace_error(t));
    trace_close(t);
    return rc < 0 ? -1 : check_footprint(l, path, err, errlen);
}

int trace_layout_measure(trace_layout *l, const char *path, const trace_options *opt, trace_stats *st, bool *counted,
                         char *err, size_t errlen)
{
    bool compact = l->map == MAP_COMPACT;
    *counted = false;
    if (compact && l->layout >= LAYOUT_CONCAT)
        return snprintf(err, errlen, "key 'workload.lba_map' is compact, which maps one address space; expected "
                                     "'workload.device_layout' overlay, or one device"), -1;
    /* scaling needs the trace's extent, a layout its devices: one
     * streaming pass, which marks the footprint too, unless one device is
     * picked and addresses are not scaled */
    if (l->map != MAP_SCALE && l->device_count == 1) return compact ? measure_footprint(l, path, opt, err, errlen) : 0;
    if (trace_stats_extent_each(path, opt, st, compact ? mark_footprint : NULL, l, err, errlen)) return -1;
    *counted = true;
    l->max_end = st->max_end ? st->max_end : 1;
    if (lay_out_devices(l, path, st, err, errlen)) return -1;
    return compact ? check_footprint(l, path, err, errlen) : 0;
}

/* --- a record's place ------------------------------------------------------ */

/* scale: the mapping unit a request starts in moves in proportion to the
 * drive's units over the trace's, its place inside the unit and its size
 * kept, so a request aligned in the trace stays aligned on the drive and
 * neighbours inside a unit stay apart (whole aligned extents move). */
static uint64_t scaled_offset(uint64_t offset, uint32_t bytes, uint64_t cap, uint64_t max_end, uint32_t unit)
{
    uint64_t first = offset / unit, last = (offset + bytes - 1) / unit;
    uint64_t cap_units = cap / unit, trace_units = (max_end + unit - 1) / unit, span = last - first + 1;
    if (span >= cap_units) return 0;
    uint64_t moved = (uint64_t)((double)first * (double)(cap_units - span) / (double)trace_units);
    return moved * unit + offset % unit;
}

/* Maps r onto [0, cap) (lba_map): scale maps the whole range up to
 * max_end, so that distances between requests shrink in proportion; wrap
 * wraps what lies past; error refuses it. False on error. */
static bool map_into(trace_layout *l, trace_record *r, uint64_t cap, uint64_t max_end, char *why, size_t len)
{
    if (l->map == MAP_COMPACT) { /* the footprint's pages in order, from 0: it fits (trace_layout_measure) */
        r->offset = footprint_rank(&l->fp, r->offset / FOOTPRINT_PAGE) * FOOTPRINT_PAGE + r->offset % FOOTPRINT_PAGE;
        l->remapped++;
        return true;
    }
    if (r->bytes > cap) r->bytes = (uint32_t)cap;
    if (l->map == MAP_SCALE && max_end > cap) {
        r->offset = scaled_offset(r->offset, r->bytes, cap, max_end, l->unit);
        if (r->offset + r->bytes > cap) r->offset = cap - r->bytes; /* a request larger than its units' room */
        l->remapped++;
        return true;
    }
    if (r->offset + r->bytes <= cap) return true;
    if (l->map == MAP_ERROR) {
        snprintf(why, len, "offset %llu + %u bytes lies past the %s's %llu bytes; expected workload.lba_map=wrap or scale, or a larger drive",
                 (unsigned long long)r->offset, r->bytes, cap == l->capacity ? "drive" : "device's partition",
                 (unsigned long long)cap);
        return false;
    }
    r->offset %= cap - r->bytes + 1; /* wrap */
    l->remapped++;
    return true;
}

static const device_place *place_of(const trace_layout *l, uint32_t id)
{
    for (uint32_t i = 0; i < l->place_count; i++)
        if (l->places[i].id == id) return &l->places[i];
    return NULL;
}

bool trace_layout_place(trace_layout *l, trace_record *r, char *why, size_t len)
{
    const device_place *d = l->layout >= LAYOUT_CONCAT ? place_of(l, r->device) : NULL;
    if (!d) return map_into(l, r, l->capacity, l->max_end, why, len); /* one device, or overlaid */
    if (l->layout == LAYOUT_CONCAT) {
        r->offset += d->base;
        return map_into(l, r, l->capacity, l->max_end, why, len);
    }
    if (!map_into(l, r, l->partition, d->max_end, why, len)) return false;
    r->offset += d->base;
    return true;
}
