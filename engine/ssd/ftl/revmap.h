/* The reverse map: which physical units hold valid data (a bit each), and,
 * for the blocks it covers, what each unit holds (a logical unit, or a
 * translation unit marked by the FTL's map bit).
 *
 * GC needs a block's logical units only when it moves them, so only a
 * share of the blocks is covered, each by a slot of units_per_block
 * entries: a block takes a free slot when it is opened and records its
 * units as they are written; when GC picks a block outside the map, the
 * FTL names the blocks to cover and revmap_refill finds their units in one
 * pass over the mapping tables. Memory per physical unit: 1/8 byte of
 * validity plus 4 bytes times the share covered, where a full reverse map
 * took 4. Which blocks are covered never changes a result, only how often
 * a refill runs.
 *
 * A block that a sequential fill wrote needs no pass: its units hold runs
 * of consecutive logical units, each run a stride on from the one before
 * (the fill stripes program units over the dies), so one number per block
 * gives its row (revmap_seq_note, revmap_fill_seq). */
#ifndef SSDLAB_REVMAP_H
#define SSDLAB_REVMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "divide.h"

#define REVMAP_NONE UINT32_MAX

typedef struct revmap {
    uint64_t *valid;      /* a bit per physical unit */
    uint32_t *slot_of;    /* per block: its slot, or REVMAP_NONE */
    uint32_t *holds;      /* per slot: what each of the block's units holds; and a sink row */
    uint32_t *free_slots; /* stack of free slots */
    uint8_t *wanted;      /* revmap_refill's scratch: per block */
    uint32_t *fill_row;   /* revmap_refill's scratch: per block, the row it fills (a sink row if none) */
    uint32_t free_count, slots, units_per_block, blocks;
    divider per_block;    /* revmap_block_of divides by units_per_block */
    uint64_t refills;     /* passes over the mapping tables */
    uint64_t block_fills; /* revmap_fill_block's passes over one small table */
    /* Per block: the logical unit at its offset 0 if a sequential fill
     * wrote it (its run k of seq_run units holds seq + k * seq_stride
     * onwards), else REVMAP_NONE. */
    uint32_t *seq;
    uint32_t seq_run, seq_stride;
    uint32_t seq_blocks;  /* blocks with a seq */
    uint32_t seq_reserve; /* free slots opened blocks leave, while any block has a seq, for GC's victims among them */
    uint64_t seq_fills;   /* rows written from a seq */
} revmap;

/* A map of `blocks` blocks of `units_per_block` units with `slots` slots
 * (at most `blocks`); -1 when memory runs out. */
int revmap_init(revmap *m, uint32_t blocks, uint32_t units_per_block, uint32_t slots);
void revmap_free(revmap *m);
/* Bytes revmap_init takes. */
uint64_t revmap_bytes(uint32_t blocks, uint32_t units_per_block, uint32_t slots);

/* ppa / units_per_block, by a multiplication (divide.h). */
static inline uint32_t revmap_block_of(const revmap *m, uint32_t ppa) { return divide(m->per_block, ppa); }

static inline bool revmap_valid(const revmap *m, uint32_t ppa) { return m->valid[ppa >> 6] >> (ppa & 63) & 1; }
static inline bool revmap_covers(const revmap *m, uint32_t block) { return m->slot_of[block] != REVMAP_NONE; }

/* Marks unit ppa valid, its row left as it is (a run's rows are written
 * in its loop and its valid bits after, a word at a time). */
static inline void revmap_set_valid(revmap *m, uint32_t ppa) { m->valid[ppa >> 6] |= UINT64_C(1) << (ppa & 63); }

/* A block's row of `units_per_block` entries, or NULL when it has no slot. */
static inline uint32_t *revmap_row_or_null(const revmap *m, uint32_t block)
{
    uint32_t slot = m->slot_of[block];
    return slot == REVMAP_NONE ? NULL : &m->holds[(uint64_t)slot * m->units_per_block];
}
/* Unit ppa, at `offset` in a block whose row (revmap_row_or_null) is `row`,
 * now holds `what`. */
static inline void revmap_set_in(revmap *m, uint32_t ppa, uint32_t *row, uint32_t offset, uint32_t what)
{
    revmap_set_valid(m, ppa);
    if (row) row[offset] = what;
}
/* Unit ppa, of block `block`, now holds `what`. The caller has the block
 * at hand: a division per write is worth saving. */
static inline void revmap_set(revmap *m, uint32_t ppa, uint32_t block, uint32_t what)
{
    revmap_set_in(m, ppa, revmap_row_or_null(m, block), ppa - block * m->units_per_block, what);
}
static inline void revmap_prefetch_valid(const revmap *m, uint32_t ppa) { __builtin_prefetch(&m->valid[ppa >> 6], 1); }
static inline void revmap_clear(revmap *m, uint32_t ppa) { m->valid[ppa >> 6] &= ~(UINT64_C(1) << (ppa & 63)); }
/* The bits of units first..end-1 in first's word of the valid bits;
 * *span is how many that is. */
static inline uint64_t revmap_word_mask(uint64_t first, uint64_t end, uint64_t *span)
{
    uint64_t bit = first & 63;
    *span = 64 - bit < end - first ? 64 - bit : end - first;
    return (*span == 64 ? UINT64_MAX : ((UINT64_C(1) << *span) - 1)) << bit;
}
/* Clears the valid bits of units first..first+n-1. */
void revmap_clear_range(revmap *m, uint64_t first, uint64_t n);
/* Sets the valid bits of units first..first+n-1, a word at a time. */
static inline void revmap_set_range(revmap *m, uint64_t first, uint64_t n)
{
    for (uint64_t end = first + n, span; first < end; first += span) m->valid[first >> 6] |= revmap_word_mask(first, end, &span);
}

/* What a valid unit of a covered block holds; REVMAP_NONE if it is invalid. */
static inline uint32_t revmap_holds(const revmap *m, uint32_t ppa)
{
    if (!revmap_valid(m, ppa)) return REVMAP_NONE;
    uint32_t block = revmap_block_of(m, ppa);
    return m->holds[(uint64_t)m->slot_of[block] * m->units_per_block + (ppa - block * m->units_per_block)];
}
/* A covered block's row of `units_per_block` entries (valid ones only mean anything). */
static inline const uint32_t *revmap_row(const revmap *m, uint32_t block)
{
    return &m->holds[(uint64_t)m->slot_of[block] * m->units_per_block];
}

/* `block` takes a slot if one is free. */
void revmap_take(revmap *m, uint32_t block);
/* A block opened for writing takes a slot if one is free, beyond
 * seq_reserve while blocks of a fill are left: those need a slot only
 * when GC picks them, and one picked with none free would cost a refill. */
void revmap_take_opened(revmap *m, uint32_t block);
/* An erased block gives its slot back. */
void revmap_drop(revmap *m, uint32_t block);
/* Covers `block` from one table alone (where[i] is the place of entry i,
 * recorded as i | mark): a block that holds that table's entries and no
 * other. False, changing nothing, when no slot is free. */
bool revmap_fill_block(revmap *m, uint32_t block, const uint32_t *where, uint64_t n, uint32_t mark);

/* Runs of `run` units, each `stride` logical units on from the one before
 * (a fill's program units striped over the dies); `reserve` slots kept
 * for the fill's blocks that GC picks (one a die). */
void revmap_seq_init(revmap *m, uint32_t run, uint32_t stride, uint32_t reserve);
static inline bool revmap_is_seq(const revmap *m, uint32_t block) { return m->seq[block] != REVMAP_NONE; }
/* A fill wrote logical units lpn .. lpn + n - 1 (within one run) at
 * `offset` of `block`: the block keeps its seq while it goes on as the
 * first run began it, and loses it otherwise. */
void revmap_seq_note(revmap *m, uint32_t block, uint32_t offset, uint32_t lpn, uint32_t n);
/* The block is written otherwise, or erased. */
void revmap_seq_forget(revmap *m, uint32_t block);
/* Covers a block with a seq, its first `written` units, from that alone.
 * False, changing nothing, when it has none or no slot is free. */
bool revmap_fill_seq(revmap *m, uint32_t block, uint32_t written);

/* The tables revmap_refill reads: logical unit -> physical unit (each
 * entry XORed with l2p_flip: the FTL stores them complemented), and the
 * DRAM-less mapping's translation unit -> physical unit (map_units 0 when
 * there is none), whose entries are recorded with map_bit set. */
typedef struct revmap_tables {
    const uint32_t *l2p;
    uint64_t l2p_units;
    const uint32_t *map_loc;
    uint32_t map_units, map_bit;
    uint32_t l2p_flip;
} revmap_tables;

/* Covers exactly cover[0..n) (n at most the slots, no block twice): blocks
 * already covered keep their rows, the others' rows are filled from the
 * tables in one pass. */
void revmap_refill(revmap *m, const uint32_t *cover, uint32_t n, const revmap_tables *t);

#endif
