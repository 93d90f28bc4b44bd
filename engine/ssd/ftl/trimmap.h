/* Deferred TRIM's bookkeeping: logical units the host has trimmed whose
 * deallocation the firmware has not done yet (one bit per unit). They read
 * as trimmed, but their flash stays valid, so GC still moves it. */
#ifndef SSDLAB_TRIMMAP_H
#define SSDLAB_TRIMMAP_H

#include <stdbool.h>
#include <stdint.h>

#include "ftl.h"

typedef struct trimmap {
    uint64_t *bits;
    uint64_t words, pending, cursor;
} trimmap;

/* logical_units == 0: no map (every call below is then a cheap no-op). */
int trimmap_init(trimmap *m, uint64_t logical_units);
void trimmap_free(trimmap *m);
static inline bool trimmap_has(const trimmap *m, uint32_t lpn)
{
    return m->pending && (m->bits[lpn >> 6] >> (lpn & 63) & 1);
}
void trimmap_mark(trimmap *m, uint32_t lpn);
void trimmap_clear(trimmap *m, uint32_t lpn);
/* Deallocates up to n pending units in the FTL, in address order from
 * where the last call stopped. */
void trimmap_apply(trimmap *m, ftl *f, uint64_t n);

#endif
