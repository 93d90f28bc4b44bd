#include "fastpath.h"

/* The offsets of the first `written` units of a block that hold valid
 * data, in order, into out; returns how many. Read a word of the valid
 * bits at a time: a test per unit mispredicts about every other unit. */
static uint32_t valid_offsets(const ftl *f, uint32_t base, uint32_t written, uint32_t *out)
{
    uint32_t n = 0;
    for (uint32_t off = 0; off < written;) {
        uint32_t ppa = base + off, span = 64 - (ppa & 63);
        uint64_t word = f->rm.valid[ppa >> 6] >> (ppa & 63);
        if (written - off < span) {
            span = written - off;
            word &= (UINT64_C(1) << span) - 1;
        }
        for (; word; word &= word - 1) out[n++] = off + (uint32_t)__builtin_ctzll(word);
        off += span;
    }
    return n;
}

/* Where a victim's units go: the units left in its GC stream's open
 * block (ftl_gc_stream), handed out in order as ftl_alloc would, with the
 * block's capacity and reverse-map row looked up once per block rather
 * than per unit. Nothing else takes units of that stream while a victim
 * is moved (the wear's write-backs take the mapping stream's). */
typedef struct move_dest {
    uint32_t block, first, next, end; /* the block's units first..end, next..end not taken */
    uint32_t *row;                    /* its reverse-map row, or NULL */
} move_dest;

static inline uint32_t dest_take(ftl *f, uint32_t die, ftl_stream s, move_dest *d)
{
    if (d->next == d->end) {
        uint32_t to = ftl_alloc(f, die, s);
        if (to == FTL_NONE) return FTL_NONE;
        d->block = ftl_block_of(f, to);
        d->first = d->block * f->p->units_per_block;
        d->end = d->first + ftl_capacity(f, d->block);
        d->next = to + 1;
        d->row = revmap_row_or_null(&f->rm, d->block);
        return to;
    }
    f->blocks[d->block].write_ptr++;
    if (++d->next == d->end) ftl_close_block(f, die, s);
    return d->next - 1;
}

/* ftl_relocate of a logical unit from `from` to `to`, taken from d, with
 * what is known of the victim worked out once per victim: a valid unit's
 * mapping entry names it, so its old place is `from` and needs no lookup.
 * The old place stays valid until finish_moves: nothing reads it again.
 * All but the new place's valid bit, which a run sets a word at a time,
 * and the mapping entry, which store_entries stores after the victim. */
static inline void place_moved(ftl *f, uint32_t from, uint32_t lpn, uint32_t to, const move_dest *d)
{
    if (d->row) d->row[to - d->first] = lpn;
    if (f->version_of_physical) f->version_of_physical[to] = f->version_of_physical[from];
}
/* place_moved, with the valid bit and the destination block's counts; the
 * move starts a run in runs[*r]. */
static inline void move_data(ftl *f, uint32_t from, uint32_t lpn, uint32_t to, const move_dest *d, ftl_moved_run *runs,
                             uint32_t *r)
{
    runs[(*r)++] = (ftl_moved_run){lpn, to, 1};
    place_moved(f, from, lpn, to, d);
    revmap_set_valid(&f->rm, to);
    f->blocks[d->block].valid++;
    f->units_written[STREAM_GC]++;
}

/* ftl_map_unit of translation unit tu from `from` to `to`, as move_data
 * does for data: its old place is `from`, known valid, so the table's
 * entry is only stored, not read. */
static inline void move_map_unit(ftl *f, uint32_t tu, uint32_t to, const move_dest *d)
{
    f->map_loc[tu] = to;
    revmap_set_in(&f->rm, to, d->row, to - d->first, FTL_MAP_BIT | tu);
    f->blocks[d->block].valid++;
    f->units_written[STREAM_GC]++;
}

/* The victim's side of the moves of list[0..n), once for them all: their
 * valid bits (the whole block's when all of it moved), the victim's count,
 * the folds out of SLC. */
static void finish_moves(ftl *f, uint32_t victim, const uint32_t *list, uint32_t n, uint32_t moved, bool all)
{
    const uint32_t U = f->p->units_per_block;
    if (all) revmap_clear_range(&f->rm, (uint64_t)victim * U, U);
    else
        for (uint32_t i = 0; i < n; i++) revmap_clear(&f->rm, victim * U + list[i]);
    f->blocks[victim].valid -= moved;
    if (ftl_block_slc(f, victim)) f->units_folded += moved; /* out of the SLC cache: a fold */
}

/* The fetches for the move `AHEAD` places after move i of a victim's n:
 * what the hook reads for a data unit, a translation unit's place. (The
 * data units' mapping entries are stored after the loop, store_entries.) */
static inline void prefetch_move_ahead(const ftl *f, const uint32_t *holds, const uint32_t *list, uint32_t i, uint32_t n)
{
    enum { AHEAD = 16 };
    uint32_t ahead = i + AHEAD < n ? holds[list[i + AHEAD]] : FTL_NONE;
    if (ahead < FTL_MAP_BIT) {
        if (f->fast_relocated) ftl_prefetch_touch(f, ahead);
    } else if (ahead != FTL_NONE) {
        ftl_prefetch_map_unit(f, ahead & ~FTL_MAP_BIT, 0);
    }
}

/* Mapping entries in a cache line: the table starts on a 2 MiB boundary
 * (bigmem_alloc), so entry lpn is in line lpn / ENTRIES_PER_LINE. */
enum { ENTRIES_PER_LINE = 64 / sizeof(uint32_t) };

/* The mapping entries of a victim's data moves, runs[0..r), stored in a
 * loop of their own once its other work is done (nothing in between reads
 * them: the hook's write-backs move translation units). Each entry is a
 * random store into a table far larger than the cache. Among the moves'
 * other stores a few lines' misses filled the store queue. Stored alone,
 * a run's entries still filled it: they wait for one line, so the queue
 * held few lines at once. The lines are fetched first, each once, in a
 * pass with nothing else under way (about 750 lines a victim, which stay
 * in the core's cache until they are stored). */
static void store_entries(ftl *f, const ftl_moved_run *runs, uint32_t r)
{
    for (uint32_t k = 0; k < r; k++) {
        uint32_t line = runs[k].lpn / ENTRIES_PER_LINE, last = (runs[k].lpn + runs[k].n - 1) / ENTRIES_PER_LINE;
        for (; line <= last; line++) __builtin_prefetch(&f->l2p[(size_t)line * ENTRIES_PER_LINE], 1);
    }
    for (uint32_t k = 0; k < r; k++)
        for (uint32_t j = 0; j < runs[k].n; j++) ftl_set_entry(f, runs[k].lpn + j, runs[k].to + j);
}

/* How many of the victim's moves after move i (of data unit lpn, just
 * made) continue its run: the next offsets, holding the next logical
 * units, in the same group of the hook (fast_relocated_group), with room
 * for them in d short of its last unit. */
static uint32_t run_after(const ftl *f, const uint32_t *holds, const uint32_t *list, uint32_t i, uint32_t n, uint32_t lpn,
                          const move_dest *d)
{
    uint32_t most = n - i - 1, room = d->end - d->next;
    if (room <= most) most = room ? room - 1 : 0;
    uint32_t m = 0;
    while (m < most && list[i + 1 + m] == list[i] + 1 + m && holds[list[i] + 1 + m] == lpn + 1 + m) m++;
    if (m && f->fast_relocated) {
        uint32_t in_group = divide_left(f->fast_relocated_group, lpn) - 1; /* after lpn */
        if (in_group < m) m = in_group;
    }
    return m;
}

/* Moves i+1 .. i+m of a victim at base: the run after data unit lpn,
 * found by run_after. Each would take d's next unit as move_data does
 * (place_moved, the per-unit part, is shared),
 * and the hook's call for each would change nothing: the one for lpn,
 * just made, left their group's state as these would (the DRAM-less
 * mapping cache's translation unit most recent and dirty). So their
 * bookkeeping is done once, and the hook is not called. */
static void move_run(ftl *f, uint32_t base, const uint32_t *holds, const uint32_t *list, uint32_t i, uint32_t n,
                     uint32_t lpn, uint32_t m, move_dest *d, ftl_moved_run *run)
{
    run->n += m;
    for (uint32_t k = 1; k <= m; k++) {
        prefetch_move_ahead(f, holds, list, i + k, n);
        place_moved(f, base + list[i] + k, lpn + k, d->next + k - 1, d);
    }
    revmap_set_range(&f->rm, d->next, m);
    f->blocks[d->block].write_ptr += m;
    f->blocks[d->block].valid += m;
    f->units_written[STREAM_GC] += m;
    d->next += m;
}

/* Moves every valid unit of a victim to the die's GC stream and erases it.
 * Returns the units moved, or -1 if the GC stream ran out of blocks. */
static int64_t relocate_and_erase(ftl *f, uint32_t die, uint32_t victim)
{
    const uint32_t base = victim * f->p->units_per_block, *holds = revmap_row(&f->rm, victim);
    const uint32_t *list = f->move_list, n = valid_offsets(f, base, f->blocks[victim].write_ptr, f->move_list);
    uint32_t moved = 0;
    ftl_stream to_stream = ftl_gc_stream(f, victim);
    move_dest dest = {0};
    ftl_moved_run *runs = f->moved_runs;
    uint32_t r = 0;
    for (uint32_t i = 0; i < n; i++) {
        prefetch_move_ahead(f, holds, list, i, n);
        /* A write-back from an earlier move may have taken a translation
         * unit away. One that this loop moved keeps its bit here until
         * finish_moves, but is not in the list again. */
        if (!ftl_valid(f, base + list[i])) continue;
        uint32_t to = dest_take(f, die, to_stream, &dest);
        if (to == FTL_NONE) { /* cannot happen while threshold >= 2 */
            store_entries(f, runs, r);
            finish_moves(f, victim, list, i, moved, false);
            return -1;
        }
        uint32_t what = holds[list[i]];
        moved++;
        if (what & FTL_MAP_BIT) {
            move_map_unit(f, what & ~FTL_MAP_BIT, to, &dest);
            continue;
        }
        move_data(f, base + list[i], what, to, &dest, runs, &r);
        if (f->fast_relocated) f->fast_relocated(f->fast_ctx, what);
        /* Data units stay valid while the victim is moved (write-backs
         * take translation units only), so the run needs no test. */
        uint32_t m = f->one_by_one ? 0 : run_after(f, holds, list, i, n, what, &dest);
        if (!m) continue;
        move_run(f, base, holds, list, i, n, what, m, &dest, &runs[r - 1]);
        moved += m;
        i += m;
    }
    store_entries(f, runs, r);
    finish_moves(f, victim, list, n, moved, true);
    ftl_count_moved(f, victim, (uint64_t)moved);
    f->reallocations += moved > 0;
    ftl_erase(f, victim);
    return moved;
}

/* Collects victims on a die while it has fewer than `free_blocks` free
 * ones and a victim frees anything, adding the units moved to *moved;
 * false when the GC stream ran out of blocks. */
static bool collect_until(ftl *f, uint32_t die, uint32_t free_blocks, uint64_t *moved)
{
    while (ftl_free_blocks(f, die) < free_blocks) {
        uint32_t victim = ftl_pick_victim(f, die);
        if (victim == FTL_NONE) break;
        int64_t n = relocate_and_erase(f, die, victim);
        if (n < 0) return false;
        *moved += (uint64_t)n;
    }
    return true;
}

uint64_t ftl_collect_idle(ftl *f, uint32_t die)
{
    uint64_t moved = 0;
    collect_until(f, die, f->p->gc_background_threshold, &moved);
    return moved;
}

uint64_t ftl_collect_now(ftl *f, uint32_t die)
{
    uint64_t moved = 0;
    if (!collect_until(f, die, f->p->gc_threshold + 1, &moved)) return moved;
    /* A wear-levelling move frees no space, so it is made only when GC has
     * just left the die with more than it needs. */
    if (ftl_free_blocks(f, die) > f->p->gc_threshold) {
        uint32_t cold = ftl_wear_victim(f, die);
        if (cold != FTL_NONE) {
            int64_t n = relocate_and_erase(f, die, cold);
            if (n > 0) moved += (uint64_t)n;
        }
    }
    return moved;
}

/* Stage 0 fetches table[i] (a place in flash, XORed with flip: the mapping
 * table's entries are complemented); stage 1, later, the valid bits and
 * block record of the place it names, which a change of the entry
 * invalidates. */
static inline void prefetch_entry(const ftl *f, const uint32_t *table, uint32_t flip, uint32_t i, int stage)
{
    if (stage == 0) {
        __builtin_prefetch(&table[i], 1);
        return;
    }
    uint32_t old = table[i] ^ flip;
    if (old != FTL_NONE) {
        __builtin_prefetch(&f->rm.valid[old >> 6], 1);
        __builtin_prefetch(&f->blocks[ftl_block_of(f, old)], 1);
    }
}

void ftl_prefetch_entries(const ftl *f, const uint32_t *lpns, size_t n)
{
    uint32_t last = UINT32_MAX;
    for (size_t k = 0; k < n; k++) {
        uint32_t line = lpns[k] / ENTRIES_PER_LINE;
        if (line == last || lpns[k] >= f->p->l2p_units) continue;
        __builtin_prefetch(&f->l2p[lpns[k]], 1);
        last = line;
    }
}

void ftl_prefetch_old_places(const ftl *f, const uint32_t *lpns, size_t n)
{
    uint32_t last_line = UINT32_MAX, last_word = UINT32_MAX, last_block = UINT32_MAX;
    for (size_t k = 0; k < n; k++) {
        if (lpns[k] >= f->p->l2p_units) continue;
        uint32_t line = lpns[k] / ENTRIES_PER_LINE;
        /* once a line rather than once a translation unit: the test needs
         * no division, and a unit's later lines fetch a slot in the cache */
        if (line != last_line) ftl_prefetch_touch(f, lpns[k]);
        last_line = line;
        uint32_t ppa = ftl_entry(f, lpns[k]);
        if (ppa == FTL_NONE) continue;
        if (ppa >> 9 != last_word) revmap_prefetch_valid(&f->rm, ppa); /* 512 valid bits a line */
        last_word = ppa >> 9;
        uint32_t b = ftl_block_of(f, ppa);
        if (b != last_block) __builtin_prefetch(&f->blocks[b], 1);
        last_block = b;
    }
}

void ftl_prefetch_map_unit(const ftl *f, uint32_t tu, int stage) { prefetch_entry(f, f->map_loc, 0, tu, stage); }
void ftl_prefetch_write(const ftl *f, uint32_t lpn) { prefetch_entry(f, f->l2p, UINT32_MAX, lpn, 0); }

int ftl_write_now(ftl *f, uint32_t lpn)
{
    uint32_t die = ftl_host_die(f, STREAM_HOST);
    if (die == FTL_NONE) return -1;
    uint32_t ppa = ftl_alloc(f, die, STREAM_HOST);
    ftl_map(f, lpn, ppa, false);
    if (f->filling) revmap_seq_note(&f->rm, ftl_block_of(f, ppa), ftl_offset_of(f, ppa), lpn, 1);
    f->handle_host[0]++;
    if ((ftl_offset_of(f, ppa) + 1) % f->p->units_per_program == 0) ftl_advance_host_die(f);
    if (ftl_free_blocks(f, die) <= f->p->gc_threshold) ftl_collect_now(f, die);
    return 0;
}

/* Whether the writes after one on `die` that leaves its program unit
 * unfilled go where ftl_write_now would put them without a choice: the
 * striping order stays on the die until the program unit is full, the
 * block cannot fill before it does, and no allocation inside it changes
 * the die's free blocks, so GC's test gives what it gave for that write.
 * Not while the die is collecting in a burst, nor when GC left it at its
 * threshold (each write would try again). */
static bool program_unit_continues(const ftl *f, uint32_t die)
{
    return ftl_takes_host(f, die) && ftl_free_blocks(f, die) > f->p->gc_threshold;
}

/* ftl_map_in of lpn0 .. lpn0 + n - 1 to the next n units of the die's
 * open host block b, which has them (they end a program unit at most):
 * the block's row, counts and write pointer worked out once, and the new
 * places' valid bits set a word at a time. Not in debug mode, whose
 * versions go unit by unit. */
static void place_host_run(ftl *f, uint32_t die, uint32_t b, uint32_t lpn0, uint32_t n)
{
    ftl_block *blk = &f->blocks[b];
    uint32_t *row = revmap_row_or_null(&f->rm, b), off = blk->write_ptr, first = b * f->p->units_per_block + off;
    for (uint32_t k = 0; k < n; k++) {
        ftl_drop_old(f, lpn0 + k);
        ftl_set_entry(f, lpn0 + k, first + k);
        if (row) row[off + k] = lpn0 + k;
    }
    revmap_set_range(&f->rm, first, n);
    blk->write_ptr += n;
    blk->valid += n;
    /* A block that fills closes as its last unit is taken, before that
     * unit is counted (ftl_alloc, then ftl_map_in): its closing time. */
    f->units_written[STREAM_HOST] += n - 1;
    if (blk->write_ptr >= ftl_capacity(f, b)) ftl_close_block(f, die, STREAM_HOST);
    f->units_written[STREAM_HOST]++;
}

size_t ftl_write_now_within(ftl *f, uint32_t lpn0, size_t n)
{
    uint32_t die = f->host_die, b = f->dies[die].open[STREAM_HOST], upp = f->p->units_per_program;
    if (f->one_by_one || b == FTL_NONE || !program_unit_continues(f, die)) return 0;
    uint32_t filled = f->blocks[b].write_ptr % upp;
    if (!filled) return 0; /* a new program unit: ftl_write_now picks its die */
    uint32_t left = upp - filled, rest = left < n ? left : (uint32_t)n;
    if (f->filling) revmap_seq_note(&f->rm, b, f->blocks[b].write_ptr, lpn0, rest);
    if (f->version_of_physical)
        for (uint32_t k = 0; k < rest; k++) ftl_map_in(f, lpn0 + k, ftl_alloc(f, die, STREAM_HOST), b, false);
    else
        place_host_run(f, die, b, lpn0, rest);
    f->handle_host[0] += rest;
    if (rest == left) ftl_advance_host_die(f);
    return rest;
}

/* The end of a fill: the blocks still open take other writes next, and
 * the closed ones give their slots back, as their rows can be written
 * again from their seq when GC picks them (ftl_cover). */
static void end_fill(ftl *f)
{
    f->filling = false;
    for (uint32_t die = 0; die < f->p->dies; die++)
        if (f->dies[die].open[STREAM_HOST] != FTL_NONE) revmap_seq_forget(&f->rm, f->dies[die].open[STREAM_HOST]);
    for (uint32_t b = 0; b < f->rm.blocks; b++)
        if (revmap_is_seq(&f->rm, b) && f->blocks[b].state == BLOCK_CLOSED) revmap_drop(&f->rm, b);
}

size_t ftl_write_now_range(ftl *f, uint32_t lpn0, size_t n)
{
    f->filling = true;
    size_t i = 0;
    while (i < n) {
        size_t k = ftl_write_now_within(f, lpn0 + (uint32_t)i, n - i);
        if (k) {
            i += k;
            continue;
        }
        if (ftl_write_now(f, lpn0 + (uint32_t)i)) break;
        i++;
    }
    end_fill(f);
    return i;
}
