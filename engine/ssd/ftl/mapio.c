#include "mapio.h"

#include "fastpath.h"

#include <stdio.h>
#include <stdlib.h>

int mapio_init(mapio *m, ftl *f, flash *fl, progunits *pu, reclaim *rc)
{
    *m = (mapio){.p = f->p, .f = f, .fl = fl, .pu = pu, .rc = rc};
    const ssd_params *p = f->p;
    if (mapcache_init(&m->cache, p->map_pages, p->map_cache_pages, p->map_cache_policy)) return -1;
    m->owed_cap = (p->map_pages + p->dies - 1) / p->dies; /* mapio_die_of deals the units round-robin */
    m->owed_ring = malloc((size_t)p->dies * m->owed_cap * sizeof *m->owed_ring);
    m->owed_first = calloc(p->dies, sizeof *m->owed_first);
    m->owed_count = calloc(p->dies, sizeof *m->owed_count);
    m->owed_bits = calloc(((size_t)p->map_pages + 63) / 64, sizeof *m->owed_bits);
    if (m->owed_ring && m->owed_first && m->owed_count && m->owed_bits && ftl_enable_map_units(f, p->map_pages) == 0)
        return 0;
    mapio_free(m);
    return -1;
}

void mapio_free(mapio *m)
{
    mapcache_free(&m->cache);
    free(m->owed_ring);
    free(m->owed_first);
    free(m->owed_count);
    free(m->owed_bits);
    m->owed_ring = m->owed_first = m->owed_count = NULL;
    m->owed_bits = NULL;
}

/* The slot of die's ring `ahead` places after its first owed unit. */
static uint32_t *owed_slot(const mapio *m, uint32_t die, uint32_t ahead)
{
    uint32_t at = m->owed_first[die] + ahead;
    return &m->owed_ring[(size_t)die * m->owed_cap + (at < m->owed_cap ? at : at - m->owed_cap)];
}

static void owe(mapio *m, uint32_t tu)
{
    uint64_t bit = 1ull << (tu & 63);
    if (m->owed_bits[tu >> 6] & bit) { /* owed already: that write-back writes it as it is now */
        m->owed_merged++;
        return;
    }
    m->owed_bits[tu >> 6] |= bit;
    uint32_t die = mapio_die_of(m, tu);
    *owed_slot(m, die, m->owed_count[die]++) = tu;
    m->owed++;
}

static uint32_t place(mapio *m, uint32_t tu, uint32_t die, uint32_t *ppa_out)
{
    uint32_t ppa = ftl_alloc(m->f, die, STREAM_MAP);
    if (ppa == FTL_NONE) return FTL_NONE;
    ftl_map_unit(m->f, tu, ppa, false);
    *ppa_out = ppa;
    return die;
}

uint32_t mapio_place_writeback(mapio *m, uint32_t tu, uint32_t *ppa_out)
{
    m->writebacks++;
    uint32_t die = mapio_die_of(m, tu);
    /* behind what the die owes already, in order */
    if (!m->owed_count[die] && place(m, tu, die, ppa_out) != FTL_NONE) return die;
    owe(m, tu);
    return FTL_NONE;
}

uint32_t mapio_place_owed(mapio *m, uint32_t die, uint32_t *ppa_out)
{
    uint32_t count = m->owed_count[die];
    if (!count) return MAPIO_NOT_OWED;
    /* the places the next ones leave: named two ahead, their valid bits and blocks one ahead */
    if (count > 2) ftl_prefetch_map_unit(m->f, *owed_slot(m, die, 2), 0);
    if (count > 1) ftl_prefetch_map_unit(m->f, *owed_slot(m, die, 1), 1);
    uint32_t tu = *owed_slot(m, die, 0);
    if (place(m, tu, die, ppa_out) == FTL_NONE) return MAPIO_NOT_OWED;
    m->owed_first[die] = m->owed_first[die] + 1 < m->owed_cap ? m->owed_first[die] + 1 : 0;
    m->owed_count[die]--;
    m->owed_bits[tu >> 6] &= ~(1ull << (tu & 63));
    m->owed--;
    return tu;
}

void mapio_pay_owed(mapio *m)
{
    for (uint32_t die = 0; m->owed && die < m->p->dies; die++) {
        uint32_t ppa;
        while (mapio_place_owed(m, die, &ppa) != MAPIO_NOT_OWED) {
            progunit_add(m->pu, die, STREAM_MAP, ppa, 1);
            reclaim_after_alloc(m->rc, die);
        }
    }
}

int mapio_check(const mapio *m, char *err, size_t errlen)
{
    uint64_t queued = 0, marked = 0;
    for (uint32_t die = 0; die < m->p->dies; die++) {
        for (uint32_t i = 0; i < m->owed_count[die]; i++) {
            uint32_t tu = *owed_slot(m, die, i);
            if (tu >= m->p->map_pages || mapio_die_of(m, tu) != die) {
                snprintf(err, errlen, "die %u owes translation unit %u, which is not one of its own", die, tu);
                return -1;
            }
            if (!(m->owed_bits[tu >> 6] >> (tu & 63) & 1)) {
                snprintf(err, errlen, "die %u owes translation unit %u, which is not marked owed", die, tu);
                return -1;
            }
        }
        queued += m->owed_count[die];
    }
    for (uint64_t w = 0; w < ((uint64_t)m->p->map_pages + 63) / 64; w++) marked += (uint64_t)__builtin_popcountll(m->owed_bits[w]);
    if (queued == marked && marked == m->owed) return 0;
    snprintf(err, errlen, "%llu translation units are marked owed, %llu queued, and the count says %llu",
             (unsigned long long)marked, (unsigned long long)queued, (unsigned long long)m->owed);
    return -1;
}

/* What the next evictions will touch, fetched one eviction ahead, a step
 * further for each that is nearer the tail: the second next's slot, the
 * next but one's translation unit's place, and the next's old place's
 * valid bits and block record. At full size each of them is a cache miss,
 * and they follow from each other, so that an eviction not fetched ahead
 * waits for them in turn. Changes nothing. (The wear path and the timed
 * path both.) */
void mapio_prefetch_evictions(const mapio *map)
{
    const mapcache *m = &map->cache;
    uint32_t next = m->tail;
    if (next == MAPCACHE_NONE) return;
    ftl_prefetch_map_unit(map->f, mapcache_page(m, next), 1);
    uint32_t second = mapcache_after(m, next);
    if (second == MAPCACHE_NONE) return;
    ftl_prefetch_map_unit(map->f, mapcache_page(m, second), 0);
    uint32_t third = mapcache_after(m, second);
    if (third != MAPCACHE_NONE) mapcache_prefetch_slot(m, third);
}

/* Caches a translation unit; a dirty one pushed out is written back. */
static void insert(mapio *m, uint32_t page, bool dirty)
{
    bool evicted_dirty;
    uint32_t out = mapcache_insert(&m->cache, page, dirty, &evicted_dirty);
    mapio_prefetch_evictions(m);
    if (out == MAPCACHE_NONE || !evicted_dirty) return;
    uint32_t ppa, die = mapio_place_writeback(m, out, &ppa);
    if (die == FTL_NONE) return;
    progunit_add(m->pu, die, STREAM_MAP, ppa, 1);
    reclaim_after_alloc(m->rc, die);
}

void mapio_dirty(mapio *m, uint32_t lpn, uint32_t n)
{
    for (uint32_t p = mapio_page_of(m, lpn); p <= mapio_page_of(m, lpn + n - 1); p++)
        if (!mapcache_touch(&m->cache, p, true)) insert(m, p, true);
}

/* A translation unit the flash holds (written, programmed) and the cache
 * does not: a read to bring it in. */
static bool must_read(const mapio *m, uint32_t page)
{
    uint32_t at = m->f->map_loc[page];
    return !mapcache_has(&m->cache, page) && at != FTL_NONE && flash_programmed(m->fl, at);
}

uint32_t mapio_uncached(const mapio *m, uint32_t lpn, uint32_t n)
{
    if (!m->p->map_cached) return 0; /* the whole table is in DRAM */
    uint32_t reads = 0;
    for (uint32_t p = mapio_page_of(m, lpn); p <= mapio_page_of(m, lpn + n - 1); p++) reads += must_read(m, p);
    return reads;
}

bool mapio_ready(mapio *m, ssdlab_request *r, uint32_t lpn, uint32_t n)
{
    if (!m->p->map_cached) return true; /* the whole table is in DRAM; the cache holds only its dirty units */
    for (uint32_t p = mapio_page_of(m, lpn); p <= mapio_page_of(m, lpn + n - 1); p++) {
        if (mapcache_touch(&m->cache, p, false)) continue;
        uint32_t at = m->f->map_loc[p];
        /* never written (nothing mapped in its range yet), or still in the
         * buffer: no flash read */
        if (at == FTL_NONE || !flash_programmed(m->fl, at)) {
            insert(m, p, false);
            continue;
        }
        m->misses++;
        txn *t = flash_txn(m->fl, TX_MAP_READ, ftl_die_of(m->f, at), at, 1);
        t->tu = p;
        t->req = r;
        flash_submit(m->fl, t);
        return false;
    }
    return true;
}

void mapio_read_done(void *ctx, txn *t)
{
    mapio *m = ctx;
    ssdlab_request *waiting = t->req;
    if (!mapcache_touch(&m->cache, t->tu, false)) insert(m, t->tu, false);
    flash_txn_free(m->fl, t);
    m->resume(m->resume_ctx, waiting);
}
