/* The mapping cache of a DRAM-less controller (DFTL style): which
 * translation pages (each holding the mapping entries of a range of
 * logical units) are in SRAM or host memory, least recently used first out,
 * and which of them are dirty. Only bookkeeping: the flash reads of misses
 * and programs of dirty evictions are timed by mapio.c. */
#ifndef SSDLAB_MAPCACHE_H
#define SSDLAB_MAPCACHE_H

#include <stdbool.h>
#include <stdint.h>

#define MAPCACHE_NONE UINT32_MAX

/* Replacement policies (ftl.map_cache_policy), a table of named entries. */
typedef struct mapcache_policy {
    const char *name;
    const char *description;
    bool refresh_on_use; /* a hit moves the unit to the front (LRU) */
} mapcache_policy;
extern const mapcache_policy mapcache_policies[];

/* A slot's links, page and state side by side: an eviction at full size
 * finds the tail's slot out of cache, and in one record it costs one miss
 * rather than one per array. */
typedef struct mapcache_slot {
    uint32_t prev, next; /* LRU list over slots: head is the most recent */
    uint32_t page;
    uint32_t dirty;
} mapcache_slot;

typedef struct mapcache {
    uint32_t capacity, count;
    bool lru;
    /* A bit per translation page: cached or not. Most uses at full size
     * miss, and a miss asks only this (14 KB for a 480 GB drive, which
     * stays in the core's cache), not slot_of_page (456 KB, which does not). */
    uint64_t *cached;
    uint32_t *slot_of_page; /* translation page -> cache slot, where cached */
    mapcache_slot *slots;
    uint32_t head, tail;
} mapcache;

int mapcache_init(mapcache *m, uint32_t pages, uint32_t capacity, unsigned policy);
void mapcache_free(mapcache *m);

/* True when the page is cached; changes nothing. */
static inline bool mapcache_has(const mapcache *m, uint32_t page) { return m->cached[page >> 6] >> (page & 63) & 1; }
/* The LRU list's two steps, here for mapcache_touch to be inline. */
static inline void mapcache_unlink(mapcache *m, uint32_t s)
{
    uint32_t prev = m->slots[s].prev, next = m->slots[s].next;
    if (prev != MAPCACHE_NONE) m->slots[prev].next = next;
    else m->head = next;
    if (next != MAPCACHE_NONE) m->slots[next].prev = prev;
    else m->tail = prev;
}
static inline void mapcache_push_front(mapcache *m, uint32_t s)
{
    m->slots[s].prev = MAPCACHE_NONE;
    m->slots[s].next = m->head;
    if (m->head != MAPCACHE_NONE) m->slots[m->head].prev = s;
    m->head = s;
    if (m->tail == MAPCACHE_NONE) m->tail = s;
}
/* True when the page is cached (under lru it becomes the most recent).
 * Inline: a DRAM-less drive's wear calls it for every unit written or
 * moved, and out of line the call cost 2 % of the wear's instructions
 * (callgrind: 16.28 G against 15.93 G). */
static inline bool mapcache_touch(mapcache *m, uint32_t page, bool make_dirty)
{
    if (!mapcache_has(m, page)) return false;
    uint32_t s = m->slot_of_page[page];
    if (m->lru && m->head != s) {
        mapcache_unlink(m, s);
        mapcache_push_front(m, s);
    }
    m->slots[s].dirty |= make_dirty;
    return true;
}
/* The slot that leaves after s when nothing is used in between (the tail
 * first), or MAPCACHE_NONE. */
static inline uint32_t mapcache_after(const mapcache *m, uint32_t s) { return m->slots[s].prev; }
/* The page in slot s. */
static inline uint32_t mapcache_page(const mapcache *m, uint32_t s) { return m->slots[s].page; }
static inline void mapcache_prefetch_slot(const mapcache *m, uint32_t s) { __builtin_prefetch(&m->slots[s], 1); }
/* Caches a page that is not cached. When the cache was full, the least
 * recently used page leaves: returns it (MAPCACHE_NONE otherwise) and
 * whether it was dirty. */
uint32_t mapcache_insert(mapcache *m, uint32_t page, bool dirty, bool *evicted_dirty);

#endif
