#include "devices.h"

#include <stdlib.h>
#include <string.h>

static int by_id(const void *a, const void *b)
{
    uint32_t x = ((const device_number *)a)->id, y = ((const device_number *)b)->id;
    return (x > y) - (x < y);
}

/* Adds id, numbered count, at its place in the order. */
static int add(trace_devices *d, uint32_t id)
{
    if (d->count == d->cap) {
        uint32_t cap = d->cap ? 2 * d->cap : 64;
        device_number *p = realloc(d->by_id, cap * sizeof *p);
        if (!p) return -1;
        d->by_id = p;
        d->cap = cap;
    }
    uint32_t at = 0;
    while (at < d->count && d->by_id[at].id < id) at++; /* a new device is rare: a scan will do */
    memmove(d->by_id + at + 1, d->by_id + at, (d->count - at) * sizeof *d->by_id);
    d->by_id[at] = (device_number){id, d->count++};
    return 0;
}

int64_t trace_devices_number(trace_devices *d, uint32_t id, bool *first)
{
    *first = false;
    if (d->count && id == d->last_id) return d->last_number;
    device_number key = {id, 0};
    const device_number *hit = d->count ? bsearch(&key, d->by_id, d->count, sizeof key, by_id) : NULL;
    uint32_t number;
    if (hit) {
        number = hit->number;
    } else {
        if (add(d, id)) return -1;
        number = d->count - 1;
        *first = true;
    }
    d->last_id = id;
    d->last_number = number;
    return number;
}

void trace_devices_free(trace_devices *d)
{
    free(d->by_id);
    memset(d, 0, sizeof *d);
}
