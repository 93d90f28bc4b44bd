/* Request records for open-loop sources (trace replay, Poisson arrivals),
 * whose number outstanding is not bounded in advance: a free list that
 * grows in chunks with the most outstanding at once, so steady state
 * allocates nothing. */
#ifndef SSDLAB_REQPOOL_H
#define SSDLAB_REQPOOL_H

#include <stddef.h>

#include "ssdlab.h"

typedef struct reqpool {
    struct pooled *free;
    struct pooled **chunks;
    size_t chunk_count;
} reqpool;

/* A free record; out of memory, it raises (oom.h). */
ssdlab_request *reqpool_take(reqpool *p);
void reqpool_give(reqpool *p, ssdlab_request *r);
void reqpool_free(reqpool *p);

#endif
