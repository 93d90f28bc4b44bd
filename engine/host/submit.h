/* Submitting a request a source made. The sources make only requests the
 * drive takes (inside the capacity, at least one byte, a queue it has), so
 * a refusal is a bug in the source: stop with what was refused rather than
 * wait for a completion that will never come. */
#ifndef SSDLAB_SUBMIT_H
#define SSDLAB_SUBMIT_H

#include "fatal.h"
#include "ssd.h"

static inline void host_submit(ssd *d, ssdlab_request *r, ssdlab_done_fn done, void *ctx)
{
    if (ssd_submit(d, r, done, ctx) != 0)
        ssdlab_internal_error("the drive refused request %llu (op %d, offset %llu, %u bytes)",
                              (unsigned long long)ssd_submitted(d), (int)r->op, (unsigned long long)r->offset, r->bytes);
}

#endif
