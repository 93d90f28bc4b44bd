/* The controller's DRAM read cache: recently read mapping units, 8-way set
 * associative with LRU inside a set, so it needs no table per logical unit
 * (12 bytes per cached unit). Writes and trims invalidate what they touch. */
#ifndef SSDLAB_READCACHE_H
#define SSDLAB_READCACHE_H

#include <stdbool.h>
#include <stdint.h>

enum { READCACHE_WAYS = 8 };

typedef struct readcache {
    uint32_t sets;
    uint32_t *tag;   /* logical unit + 1; 0 = empty */
    uint64_t *stamp; /* last use, for LRU inside a set */
    uint64_t clock;
} readcache;

/* units: capacity in mapping units (0: no cache). */
int readcache_init(readcache *c, uint64_t units);
void readcache_free(readcache *c);
/* True on a hit (the entry becomes the most recent). */
bool readcache_lookup(readcache *c, uint32_t lpn);
void readcache_insert(readcache *c, uint32_t lpn);
void readcache_invalidate(readcache *c, uint32_t lpn);

#endif
