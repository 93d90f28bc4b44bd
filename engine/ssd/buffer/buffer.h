/* The controller's buffer: the write buffer (a write completes once its
 * data is in; the space frees when its program completes), the placement
 * of buffered writes on the flash through the FTL, read-modify-write of
 * partial units, host reads through the read cache, and sequential
 * read-ahead.
 *
 * What it owes the host interface above comes through callbacks wired at
 * assembly: move a write's data in, a request is done here, a merged
 * write may go on. */
#ifndef SSDLAB_BUFFER_H
#define SSDLAB_BUFFER_H

#include "flash.h"
#include "ftl.h"
#include "mapio.h"
#include "progunit.h"
#include "readcache.h"
#include "reclaim.h"
#include "request_units.h"
#include "trimmap.h"
#include "zoneio.h"

typedef struct buffer_hooks {
    /* Buffer space is reserved for write r: move its data in, then call
     * buffer_data_in. */
    void (*move_in)(void *ctx, ssdlab_request *r);
    /* The buffer's part of r is done: a write placed, or a read's data in
     * the controller, ready to move out. */
    void (*done)(void *ctx, ssdlab_request *r);
    /* A partial write's old data is in: r goes on (buffer_write again). */
    void (*merged)(void *ctx, ssdlab_request *r);
    void *ctx;
} buffer_hooks;

typedef struct buffer {
    const ssd_params *p;
    ftl *f;
    flash *fl;
    progunits *pu;
    reclaim *rc;
    mapio *map;   /* NULL with the mapping table in DRAM */
    trimmap *tm;
    zoneio *zio;  /* NULL without a zoned namespace */
    readcache cache;
    uint64_t units, used; /* write buffer, in mapping units */
    req_queue waiting;    /* writes waiting for buffer space */
    req_queue stalled;    /* writes in the buffer that no die can take yet */
    uint32_t read_end;      /* the unit after the last host read: a read starting there is sequential */
    uint32_t prefetched_to; /* read-ahead has asked the flash for units below this */
    uint32_t reads_at_flash; /* host reads waiting for the flash */
    uint64_t cache_hits, slc_units_written;
    uint64_t admits_warmed; /* writes whose tables were loaded as they left `waiting` */
    buffer_hooks hooks;
} buffer;

int buffer_init(buffer *b, ftl *f, flash *fl, progunits *pu, reclaim *rc, mapio *map, trimmap *tm);
void buffer_free(buffer *b);
void buffer_set_hooks(buffer *b, const buffer_hooks *h);
static inline void buffer_set_zones(buffer *b, zoneio *zio) { b->zio = zio; }

void buffer_write(buffer *b, ssdlab_request *r);
void buffer_data_in(buffer *b, ssdlab_request *r);
void buffer_read(buffer *b, ssdlab_request *r);
/* Unit lpn was trimmed: a cached copy is stale. */
static inline void buffer_forget(buffer *b, uint32_t lpn) { readcache_invalidate(&b->cache, lpn); }
/* Space was freed: places stalled writes; true if some still wait. */
bool buffer_retry_stalled(void *ctx);

/* Completions of its flash transactions (wired at assembly). */
void buffer_read_done(void *ctx, txn *t);
void buffer_merge_read_done(void *ctx, txn *t);
void buffer_program_done(void *ctx, txn *t);

#endif
