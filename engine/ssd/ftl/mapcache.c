#include "mapcache.h"

#include <stdlib.h>
#include <string.h>

const mapcache_policy mapcache_policies[] = {
    {"lru", "the least recently used unit leaves (a use moves a unit to the front)", true},
    {"fifo", "the first cached unit leaves (only insertion moves a unit)", false},
    {NULL, NULL, false},
};

int mapcache_init(mapcache *m, uint32_t pages, uint32_t capacity, unsigned policy)
{
    memset(m, 0, sizeof *m);
    m->capacity = capacity;
    m->lru = mapcache_policies[policy].refresh_on_use;
    m->slot_of_page = malloc((size_t)pages * sizeof *m->slot_of_page);
    m->page_of_slot = malloc((size_t)capacity * sizeof *m->page_of_slot);
    m->prev = malloc((size_t)capacity * sizeof *m->prev);
    m->next = malloc((size_t)capacity * sizeof *m->next);
    m->dirty = calloc(capacity, 1);
    if (!m->slot_of_page || !m->page_of_slot || !m->prev || !m->next || !m->dirty) {
        mapcache_free(m);
        return -1;
    }
    memset(m->slot_of_page, 0xff, (size_t)pages * sizeof *m->slot_of_page);
    m->head = m->tail = MAPCACHE_NONE;
    return 0;
}

void mapcache_free(mapcache *m)
{
    free(m->slot_of_page);
    free(m->page_of_slot);
    free(m->prev);
    free(m->next);
    free(m->dirty);
    memset(m, 0, sizeof *m);
}

uint32_t mapcache_insert(mapcache *m, uint32_t page, bool dirty, bool *evicted_dirty)
{
    uint32_t s, evicted = MAPCACHE_NONE;
    *evicted_dirty = false;
    if (m->count < m->capacity) {
        s = m->count++;
    } else {
        s = m->tail;
        mapcache_unlink(m, s);
        evicted = m->page_of_slot[s];
        *evicted_dirty = m->dirty[s];
        m->slot_of_page[evicted] = MAPCACHE_NONE;
    }
    m->page_of_slot[s] = page;
    m->slot_of_page[page] = s;
    m->dirty[s] = dirty;
    mapcache_push_front(m, s);
    return evicted;
}
