#include "reqpool.h"

#include <stdlib.h>

#include "oom.h"

enum { CHUNK = 256 };

typedef struct pooled {
    ssdlab_request r; /* first: a request's address is its record's */
    struct pooled *next_free;
} pooled;

ssdlab_request *reqpool_take(reqpool *p)
{
    if (!p->free) {
        pooled *chunk = calloc(CHUNK, sizeof *chunk);
        pooled **chunks = realloc(p->chunks, (p->chunk_count + 1) * sizeof *chunks);
        if (chunks) p->chunks = chunks;
        if (!chunk || !chunks) {
            free(chunk);
            oom_raise("requests");
        }
        p->chunks[p->chunk_count++] = chunk;
        for (int i = 0; i < CHUNK; i++) {
            chunk[i].next_free = p->free;
            p->free = &chunk[i];
        }
    }
    pooled *q = p->free;
    p->free = q->next_free;
    return &q->r;
}

void reqpool_give(reqpool *p, ssdlab_request *r)
{
    pooled *q = (pooled *)r;
    q->next_free = p->free;
    p->free = q;
}

void reqpool_free(reqpool *p)
{
    for (size_t i = 0; i < p->chunk_count; i++) free(p->chunks[i]);
    free(p->chunks);
    *p = (reqpool){0};
}
