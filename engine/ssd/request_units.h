/* A request as the drive's layers see it: the mapping units it covers,
 * and a FIFO of requests (linked through the request's own `next`). */
#ifndef SSDLAB_REQUEST_UNITS_H
#define SSDLAB_REQUEST_UNITS_H

#include "params.h"
#include "ssdlab.h"

static inline uint32_t req_first_unit(const ssd_params *p, const ssdlab_request *r)
{
    return (uint32_t)(r->offset / p->unit);
}

static inline uint32_t req_units(const ssd_params *p, const ssdlab_request *r)
{
    return (uint32_t)((r->offset % p->unit + r->bytes + p->unit - 1) / p->unit);
}

typedef struct req_queue {
    ssdlab_request *head, *tail;
} req_queue;

static inline void req_push(req_queue *q, ssdlab_request *r)
{
    r->next = NULL;
    if (q->tail) q->tail->next = r;
    else q->head = r;
    q->tail = r;
}

static inline ssdlab_request *req_pop(req_queue *q)
{
    ssdlab_request *r = q->head;
    if (r && !(q->head = r->next)) q->tail = NULL;
    return r;
}

#endif
