#include "revmap.h"

#include "bigmem.h"

#include <stdlib.h>
#include <string.h>

static uint64_t valid_words(uint32_t blocks, uint32_t units_per_block)
{
    return ((uint64_t)blocks * units_per_block + 63) / 64;
}

static uint64_t holds_bytes(const revmap *m) { return ((uint64_t)m->slots + 1) * m->units_per_block * sizeof *m->holds; }

uint64_t revmap_bytes(uint32_t blocks, uint32_t units_per_block, uint32_t slots)
{
    return 8 * valid_words(blocks, units_per_block) + 4 * ((uint64_t)slots + 1) * units_per_block +
           13 * (uint64_t)blocks + 4 * (uint64_t)slots;
}

int revmap_init(revmap *m, uint32_t blocks, uint32_t units_per_block, uint32_t slots)
{
    memset(m, 0, sizeof *m);
    m->blocks = blocks;
    m->units_per_block = units_per_block;
    m->slots = slots < 1 ? 1 : slots < blocks ? slots : blocks;
    uint64_t words = valid_words(blocks, units_per_block);
    m->valid = bigmem_alloc(words * sizeof *m->valid);
    m->holds = bigmem_alloc(holds_bytes(m));
    m->slot_of = malloc((size_t)blocks * sizeof *m->slot_of);
    m->free_slots = malloc((size_t)m->slots * sizeof *m->free_slots);
    m->wanted = calloc(blocks, 1);
    m->fill_row = malloc((size_t)blocks * sizeof *m->fill_row);
    m->seq = malloc((size_t)blocks * sizeof *m->seq);
    m->per_block = divider_of(units_per_block);
    m->seq_run = m->seq_stride = units_per_block;
    if (!m->valid || !m->holds || !m->slot_of || !m->free_slots || !m->wanted || !m->fill_row || !m->seq) {
        revmap_free(m);
        return -1;
    }
    memset(m->slot_of, 0xff, (size_t)blocks * sizeof *m->slot_of);
    memset(m->seq, 0xff, (size_t)blocks * sizeof *m->seq);
    /* Slots are handed out lowest first. */
    for (uint32_t s = m->slots; s-- > 0;) m->free_slots[m->free_count++] = s;
    return 0;
}

void revmap_free(revmap *m)
{
    bigmem_free(m->valid, valid_words(m->blocks, m->units_per_block) * sizeof *m->valid);
    bigmem_free(m->holds, holds_bytes(m));
    free(m->slot_of);
    free(m->free_slots);
    free(m->wanted);
    free(m->fill_row);
    free(m->seq);
    memset(m, 0, sizeof *m);
}

void revmap_clear_range(revmap *m, uint64_t first, uint64_t n)
{
    for (uint64_t end = first + n, span; first < end; first += span) m->valid[first >> 6] &= ~revmap_word_mask(first, end, &span);
}

void revmap_take(revmap *m, uint32_t block)
{
    if (m->slot_of[block] == REVMAP_NONE && m->free_count) m->slot_of[block] = m->free_slots[--m->free_count];
}

void revmap_take_opened(revmap *m, uint32_t block)
{
    if (m->free_count > (m->seq_blocks ? m->seq_reserve : 0)) revmap_take(m, block);
}

void revmap_drop(revmap *m, uint32_t block)
{
    uint32_t slot = m->slot_of[block];
    if (slot == REVMAP_NONE) return;
    m->slot_of[block] = REVMAP_NONE;
    m->free_slots[m->free_count++] = slot;
}

bool revmap_fill_block(revmap *m, uint32_t block, const uint32_t *where, uint64_t n, uint32_t mark)
{
    revmap_take(m, block);
    if (!revmap_covers(m, block)) return false;
    const uint32_t U = m->units_per_block, first = block * U;
    uint32_t *row = &m->holds[(uint64_t)m->slot_of[block] * U];
    for (uint64_t i = 0; i < n; i++)
        if (where[i] - first < U) row[where[i] - first] = (uint32_t)i | mark; /* REVMAP_NONE wraps past U */
    m->block_fills++;
    return true;
}

void revmap_seq_init(revmap *m, uint32_t run, uint32_t stride, uint32_t reserve)
{
    m->seq_run = run;
    m->seq_stride = stride;
    m->seq_reserve = reserve;
}

void revmap_seq_note(revmap *m, uint32_t block, uint32_t offset, uint32_t lpn, uint32_t n)
{
    if (offset == 0) {
        m->seq_blocks += m->seq[block] == REVMAP_NONE;
        m->seq[block] = lpn;
    }
    uint32_t first = m->seq[block];
    if (first == REVMAP_NONE) return;
    uint64_t want = (uint64_t)first + (uint64_t)(offset / m->seq_run) * m->seq_stride + offset % m->seq_run;
    if (lpn != want || offset % m->seq_run + n > m->seq_run) revmap_seq_forget(m, block);
}

void revmap_seq_forget(revmap *m, uint32_t block)
{
    if (m->seq[block] == REVMAP_NONE) return;
    m->seq[block] = REVMAP_NONE;
    m->seq_blocks--;
}

bool revmap_fill_seq(revmap *m, uint32_t block, uint32_t written)
{
    if (m->seq[block] == REVMAP_NONE) return false;
    revmap_take(m, block);
    if (!revmap_covers(m, block)) return false;
    uint32_t *row = &m->holds[(uint64_t)m->slot_of[block] * m->units_per_block], lpn = m->seq[block];
    for (uint32_t off = 0; off < written; lpn += m->seq_stride)
        for (uint32_t k = 0; k < m->seq_run && off < written; k++) row[off++] = lpn + k;
    m->seq_fills++;
    return true;
}

/* Records where[i] ^ flip (i | mark) in the rows of the units it points at: a
 * block's fill row is its own when it is being filled, else the sink row.
 * Branch-free, as whether an entry's block is being filled is a coin toss
 * the processor would mispredict. */
static void fill(revmap *m, const uint32_t *where, uint32_t flip, uint64_t n, uint32_t mark)
{
    const uint32_t U = m->units_per_block;
    for (uint64_t i = 0; i < n; i++) {
        uint32_t ppa = where[i] ^ flip;
        if (ppa == REVMAP_NONE) continue;
        uint32_t block = revmap_block_of(m, ppa);
        m->holds[(uint64_t)m->fill_row[block] * U + (ppa - block * U)] = (uint32_t)i | mark;
    }
}

void revmap_refill(revmap *m, const uint32_t *cover, uint32_t n, const revmap_tables *t)
{
    for (uint32_t i = 0; i < n; i++) m->wanted[cover[i]] = 1;
    for (uint32_t b = 0; b < m->blocks; b++) {
        if (!m->wanted[b]) revmap_drop(m, b);
        m->fill_row[b] = m->slots; /* the sink */
    }
    uint32_t fresh = 0;
    for (uint32_t i = 0; i < n && m->free_count; i++) {
        m->wanted[cover[i]] = 0;
        if (revmap_covers(m, cover[i])) continue;
        revmap_take(m, cover[i]);
        m->fill_row[cover[i]] = m->slot_of[cover[i]];
        fresh++;
    }
    if (fresh) {
        fill(m, t->l2p, t->l2p_flip, t->l2p_units, 0);
        if (t->map_units) fill(m, t->map_loc, 0, t->map_units, t->map_bit);
    }
    memset(m->wanted, 0, m->blocks);
    m->refills++;
}
