/* The FTL untimed: writes with garbage collection done inline, at once.
 * Preconditioning brings a drive to a state through it, and tests use it;
 * its placement, victims and wear are those of the timed path for the
 * same sequence of writes (tests/ssd/test_ssd_state.c). */
#ifndef SSDLAB_FASTPATH_H
#define SSDLAB_FASTPATH_H

#include "ftl.h"

/* Functional (untimed) write with inline garbage collection. Returns -1
 * when no die can take the write (over-provisioning exhausted). */
int ftl_write_now(ftl *f, uint32_t lpn);
/* ftl_write_now of lpn0, lpn0 + 1, ..., n of them, with the same result;
 * the units after the first of each program unit take a shorter way
 * (a sequential fill's). The blocks it fills keep their first logical
 * unit instead of a slot of the reverse map (revmap_seq_note): GC covers
 * each from that when it picks it, where others take a refill. Returns
 * the units written (fewer only when no die can take one). */
size_t ftl_write_now_range(ftl *f, uint32_t lpn0, size_t n);
/* ftl_write_now of lpn0, lpn0 + 1, ..., at most n of them, as far as each
 * goes where ftl_write_now would put it without a choice: into the rest
 * of the program unit under way on the die at the host cursor, while that
 * die takes host writes and stays above its GC threshold (so none of them
 * collects). The same result as those calls, by a shorter way. Returns
 * how many it wrote: 0 when the next write starts a program unit. */
size_t ftl_write_now_within(ftl *f, uint32_t lpn0, size_t n);
/* Warms the cache for a coming ftl_write_now(lpn): fetches its mapping
 * entry. What the entry points at (the old place's valid bits and block
 * record) is the write's second miss: once the entry is in, ftl_warm_old
 * loads a batch of those together. */
void ftl_prefetch_write(const ftl *f, uint32_t lpn);
/* Fetches, to write, the mapping entries of coming writes of lpns[0..n)
 * by the line: once for units in a row whose entries share one (a
 * request's units do), so that a pass over many requests puts many lines
 * under way at once. Units past the table are skipped. */
void ftl_prefetch_entries(const ftl *f, const uint32_t *lpns, size_t n);
/* For coming writes of lpns[0..n) whose entries are in the cache
 * (ftl_prefetch_entries, earlier): fetches, to write, what each changes at
 * its old place (the valid bits' line, the block's record) and the line of
 * move_touches it touches, each once for units in a row that share it. */
void ftl_prefetch_old_places(const ftl *f, const uint32_t *lpns, size_t n);
/* The same for a coming ftl_map_unit(tu): stage 0 fetches where the
 * translation unit is, stage 1 (later) the valid bits and block record of
 * that place, which the write-back invalidates. */
void ftl_prefetch_map_unit(const ftl *f, uint32_t tu, int stage);
/* Collects victims on a die until it has more than the GC threshold of
 * free blocks; returns units relocated. */
uint64_t ftl_collect_now(ftl *f, uint32_t die);
/* What idle time's background GC does, at once: collects victims on a die
 * until it has ftl.gc.background_threshold free blocks (or no victim frees
 * anything); returns units relocated. */
uint64_t ftl_collect_idle(ftl *f, uint32_t die);

#endif
