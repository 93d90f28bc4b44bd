/* A request as the drive's layers see it: its state in flight (kept in the
 * public request's model_private bytes, so that the caller's memory holds
 * it and the model allocates nothing per request), the mapping units it
 * covers, and a FIFO of requests linked through that state. */
#ifndef SSDLAB_REQUEST_UNITS_H
#define SSDLAB_REQUEST_UNITS_H

#include "params.h"
#include "ssdlab.h"

typedef struct req_state {
    ssdlab_done_fn done; /* the submitter's completion */
    void *done_ctx;
    ssdlab_request *next; /* in a req_queue */
    uint32_t pending;     /* flash reads (or merge reads) still out */
    uint32_t placed;      /* units of a write placed in the flash so far */
    uint32_t merged;      /* partial write: its edge units were read for merging */
} req_state;

_Static_assert(sizeof(req_state) <= sizeof(((ssdlab_request *)0)->model_private),
               "a request's state must fit in ssdlab_request.model_private");

/* Only ever read and written as a req_state: the bytes are its storage. */
static inline req_state *req_priv(ssdlab_request *r) { return (req_state *)(void *)&r->model_private; }

/* Every command asks for these: a shift where the mapping unit is a power
 * of two (as it nearly always is), since a 64-bit division was most of the
 * time a command's fetch took. */
static inline uint32_t unit_at(const ssd_params *p, uint64_t offset)
{
    return (uint32_t)(p->unit_shift ? offset >> p->unit_shift : offset / p->unit);
}

static inline uint32_t req_first_unit(const ssd_params *p, const ssdlab_request *r) { return unit_at(p, r->offset); }

static inline uint32_t req_units(const ssd_params *p, const ssdlab_request *r)
{
    uint64_t end = r->offset + r->bytes + p->unit - 1;
    return p->unit_shift ? (uint32_t)((end >> p->unit_shift) - (r->offset >> p->unit_shift))
                         : (uint32_t)((r->offset % p->unit + r->bytes + p->unit - 1) / p->unit);
}

typedef struct req_queue {
    ssdlab_request *head, *tail;
} req_queue;

static inline void req_push(req_queue *q, ssdlab_request *r)
{
    req_priv(r)->next = NULL;
    if (q->tail) req_priv(q->tail)->next = r;
    else q->head = r;
    q->tail = r;
}

static inline ssdlab_request *req_pop(req_queue *q)
{
    ssdlab_request *r = q->head;
    if (r && !(q->head = req_priv(r)->next)) q->tail = NULL;
    return r;
}

#endif
