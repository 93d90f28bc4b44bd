/* The flash translation layer's state and its functional operations:
 * page-level mapping (logical unit -> physical unit and back), block
 * allocation per die and stream, garbage-collection victim selection,
 * and an integrity checker. Timing lives elsewhere (ssd.c): the FTL
 * answers where data goes, never when.
 *
 * Memory: 4 bytes per logical unit (L2P), a validity bit per physical
 * unit, the reverse map of a share of the blocks (revmap.h: 4 bytes per
 * unit covered, sim.reverse_map_share), and a few words per block: about
 * 5.8 bytes per 4 KiB of flash at the default share of a half. */
#ifndef SSDLAB_FTL_H
#define SSDLAB_FTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <gsl/gsl_rng.h>

#include "params.h"
#include "retire.h"
#include "revmap.h"

#define FTL_NONE UINT32_MAX

/* sim.warm_tables=auto: a source that knows its next requests has their
 * mapping entries loaded together once the table passes FTL_WARM_TABLE
 * (ftl_warm_pays; docs/ssd-model.md has the pairs that set it). */
#define FTL_WARM_TABLE (UINT64_C(64) << 20)

/* Host writes to native blocks, relocations (GC and SLC folding) to native
 * blocks, host writes to SLC-mode blocks, translation units (DRAM-less
 * mapping) written back to native blocks of their own, and those GC moves
 * to blocks of their own again (STREAM_MAP_GC, ftl_gc_stream). */
/* STREAM_ZONE: host data of a zoned namespace, in its zone's blocks
 * (zoneio.h). With flexible data placement (fdp.handles), host data of
 * placement handle h > 0 goes to STREAM_FDP + h - 1 (handle 0 to
 * STREAM_HOST), and with persistently isolated handles GC moves handle h's
 * data to STREAM_FDP_GC + h: each handle's reclaim units apart. */
enum { FDP_MAX_HANDLES = 8 };
typedef enum ftl_stream {
    STREAM_HOST,
    STREAM_GC,
    STREAM_SLC,
    STREAM_MAP,
    STREAM_MAP_GC,
    STREAM_ZONE,
    STREAM_FDP,
    STREAM_FDP_GC = STREAM_FDP + FDP_MAX_HANDLES - 1,
    STREAM_COUNT = STREAM_FDP_GC + FDP_MAX_HANDLES
} ftl_stream;
/* A block's handle when data of several handles share it (GC of initially
 * isolated handles, or no FDP). */
#define FTL_MIXED_HANDLE 0xff

/* In the reverse map, a physical unit holding a translation unit (a
 * mapping-unit-sized piece of the mapping table) is marked with this bit
 * over its number. */
#define FTL_MAP_BIT UINT32_C(0x80000000)
/* BLOCK_ZONE: a zoned namespace's block, never free, never collected. */
/* BLOCK_RETIRED: out of service (retire.h). */
typedef enum block_state { BLOCK_FREE, BLOCK_OPEN, BLOCK_CLOSED, BLOCK_VICTIM, BLOCK_ZONE, BLOCK_RETIRED } block_state;

typedef struct ftl_block {
    uint32_t valid;       /* valid units */
    uint32_t write_ptr;   /* next unit offset to hand out */
    uint32_t erase_count;
    uint8_t state;        /* block_state */
    uint8_t map_only;     /* opened for translation units alone (DRAM-less mapping: write-backs, or GC's moves of them) */
    uint8_t handle;       /* FDP: the placement handle whose reclaim unit it is, or FTL_MIXED_HANDLE */
    uint64_t closed_at;   /* units written drive-wide when it closed: FIFO order and age */
} ftl_block;

typedef struct ftl_die {
    uint32_t *free;       /* stack of free block ids */
    uint32_t free_count;
    uint32_t slc_blocks;  /* blocks in SLC mode (open or holding data) */
    uint32_t open[STREAM_COUNT]; /* open block per stream, or FTL_NONE */
    bool collecting;      /* in a GC burst (ftl.gc.burst) */
    uint64_t burst_host, burst_gc; /* units placed in the burst: host writes get ftl.gc.burst_host_share of GC's */
    uint32_t burst_victims; /* blocks collected in the burst (ftl.gc.burst_victims caps them) */
    uint32_t covered;     /* ftl_cover's count of the die's blocks it chose */
    uint32_t retired;     /* blocks out of service */
} ftl_die;

/* A closed block and its cost to a victim policy (ftl_cover's ranking). */
typedef struct ftl_ranked {
    double cost;
    uint32_t block;
} ftl_ranked;

/* GC's data moves of one victim on the fast path: logical units lpn ..
 * lpn + n - 1 now at to .. to + n - 1 (fastpath.c). */
typedef struct ftl_moved_run {
    uint32_t lpn, to, n;
} ftl_moved_run;

typedef struct ftl {
    const ssd_params *p;
    uint32_t *l2p; /* logical unit -> physical unit, complemented (ftl_entry) */
    bool warm;     /* tables large enough for ftl_warm to pay (sim.warm_tables) */
    revmap rm;     /* physical unit -> valid, and what it holds (covered blocks) */
    ftl_block *blocks;
    /* A bit per block: programmed in SLC mode (it holds units_per_block /
     * bits_per_cell). Apart from the records because every read asks it:
     * at 2 TiB the records (87 K of 24 bytes, 2.1 MB) miss the cache, the
     * bits (11 KB) do not. */
    uint64_t *slc_bits;
    uint32_t *cover;       /* scratch of ftl_cover: blocks to cover */
    ftl_ranked *ranked; /* scratch of ftl_cover: closed blocks by cost */
    double cover_made_at, cover_horizon; /* units written at the last refill, and while the cover before it lasted */
    double units_per_victim;             /* units written per victim picked, while the cover before it lasted */
    uint64_t victims_picked, cover_victims; /* victims picked in all, and by the last refill */
    ftl_die *dies;
    gsl_rng *rng;
    uint32_t host_die_cursor; /* position in the striping order */
    uint32_t host_die;        /* the die at that position, kept: every host write asks */
    uint64_t units_written[STREAM_COUNT];
    uint64_t units_folded; /* of units_written[STREAM_GC]: moved out of SLC-mode blocks */
    uint64_t units_padded; /* programmed without data, to close a program unit */
    uint64_t erases;
    retire ret;
    uint64_t retired, worn_erases; /* blocks retired; erases of blocks past their limit kept in service */
    uint64_t mapped; /* logical units holding data */
    /* FDP: host units written and units GC moved, per placement handle;
     * reclaim units whose data GC moved (the "media reallocated" event). */
    uint64_t handle_host[FDP_MAX_HANDLES], handle_moved[FDP_MAX_HANDLES], reallocations;
    uint64_t ru_not_fully_written; /* reclaim units a handle update closed before they were full */
    uint32_t *map_loc; /* DRAM-less: translation unit -> physical unit, FTL_NONE if never written */
    uint32_t map_units;
    /* The fast path calls it with each logical unit its GC moves, when set
     * (the wear path's DRAM-less mapping: a move dirties the unit's
     * translation unit, as the timed path's relocation hook does). */
    void (*fast_relocated)(void *ctx, uint32_t lpn);
    void *fast_ctx;
    /* Logical units in the same fast_relocated_group (lpn divided by it)
     * need the hook's call once in a row of moves: a second call, with
     * nothing in between, changes nothing (for the mapping cache: one
     * translation unit). */
    divider fast_relocated_group;
    /* What a move of logical unit lpn reads next to its mapping entry, at
     * move_touches[lpn / move_touch_of] (the DRAM-less mapping cache's
     * slot of its translation unit; NULL: nothing): the fast path fetches
     * it ahead with the entry while fast_relocated (which reads it) is set.
     * Wired at assembly. (GC's timed reads fetch
     * the entry alone: fetching the slot too gained nothing on the timed
     * DRAM-less steady write, 0.50 - 0.51 M I/Os per second against 0.51 -
     * 0.59 without, in alternating runs.) */
    const uint32_t *move_touches;
    divider move_touch_of;
    uint32_t *move_list; /* the fast path's scratch: a victim's valid offsets (units_per_block) */
    ftl_moved_run *moved_runs; /* and its data moves, in runs (units_per_block) */
    /* The fast path's reference, for tests: GC moves and host writes one
     * unit at a time, the relocation hook called for each, without the
     * shorter ways for runs (which must leave the same state). */
    bool one_by_one;
    /* Inside ftl_write_now_range: the host writes note the blocks that
     * hold its runs (revmap_seq_note). */
    bool filling;
    /* Debug mode only (ftl_enable_versions): the write sequence number of
     * the data in each physical unit, and the latest one of each logical
     * unit, so the checker can tell a mapping points at the latest write. */
    uint64_t *version_of_physical, *latest_version, write_seq;
} ftl;

/* The mapping table holds each entry complemented, so that FTL_NONE (no
 * data) is stored as zero: a new table is the system's zero pages, which
 * nothing writes at open and which are backed only where data is written
 * (bigmem.h). Every access goes through these two. */
static inline uint32_t ftl_entry(const ftl *f, uint32_t lpn) { return ~f->l2p[lpn]; }
static inline void ftl_set_entry(ftl *f, uint32_t lpn, uint32_t ppa) { f->l2p[lpn] = ~ppa; }

int ftl_init(ftl *f, const ssd_params *p, gsl_rng *rng);
/* Blocks the reverse map covers at once (sim.reverse_map_share). */
uint32_t ftl_reverse_map_slots(const ssd_params *p);
void ftl_free(ftl *f);
int ftl_enable_versions(ftl *f);
/* Draws each block's endurance (retire.h); none when retirement is off. */
static inline int ftl_draw_endurance(ftl *f, gsl_rng *rng) { return retire_init(&f->ret, f->p, rng); }

/* Physical unit id <-> (block, offset) */
static inline uint32_t ftl_block_of(const ftl *f, uint32_t ppa) { return revmap_block_of(&f->rm, ppa); }
static inline uint32_t ftl_offset_of(const ftl *f, uint32_t ppa) { return ppa - ftl_block_of(f, ppa) * f->p->units_per_block; }
static inline uint32_t ftl_die_of_block(const ftl *f, uint32_t block) { return divide(f->p->die_of_block, block); }
static inline uint32_t ftl_die_of(const ftl *f, uint32_t ppa) { return ftl_die_of_block(f, ftl_block_of(f, ppa)); }

/* Whether the die takes host writes now: not while it collects in a burst,
 * beyond ftl.gc.burst_host_share of the units GC has moved in it. */
bool ftl_takes_host(const ftl *f, uint32_t die);
/* The die that receives the next host program unit of stream s (striping
 * order), skipping dies where s would need a block below the GC reserve
 * or that collect in a burst; FTL_NONE if every die is. */
uint32_t ftl_host_die(ftl *f, ftl_stream s);
/* Moves the striping cursor past the current die. */
void ftl_advance_host_die(ftl *f);

/* GC bursts (ftl.gc.burst): a die collecting takes host writes only up to
 * ftl.gc.burst_host_share of what its GC moved; the counts restart with
 * each burst. */
void ftl_burst_begin(ftl *f, uint32_t die);
static inline void ftl_burst_end(ftl *f, uint32_t die) { f->dies[die].collecting = false; }
static inline void ftl_burst_victim(ftl *f, uint32_t die) { f->dies[die].burst_victims++; }
static inline void ftl_burst_moved(ftl *f, uint32_t die, uint32_t units) { f->dies[die].burst_gc += units; }
static inline void ftl_burst_host(ftl *f, uint32_t die, uint32_t units) { f->dies[die].burst_host += units; }

/* The stream host data of placement handle h goes to. */
static inline ftl_stream ftl_host_stream(uint32_t handle) { return handle ? (ftl_stream)(STREAM_FDP + handle - 1) : STREAM_HOST; }
static inline bool ftl_stream_is_host(ftl_stream s)
{
    return s == STREAM_HOST || s == STREAM_SLC || s == STREAM_ZONE || (s >= STREAM_FDP && s < STREAM_FDP_GC);
}
static inline bool ftl_stream_is_gc(ftl_stream s) { return s == STREAM_GC || s == STREAM_MAP_GC || s >= STREAM_FDP_GC; }
/* Where GC moves the units of a victim block. A block of translation
 * units': blocks of translation units again, apart from both the data's
 * GC blocks and the write-backs' block. A translation unit is rewritten
 * within a few hundred thousand host writes: moved among the data, each
 * soon left a dead unit in a block of cold data (a quarter of the GC
 * blocks' units on the 1 TiB DRAM-less bench drive, whose GC then moved
 * half as much data again: 7.4 units a host write against 4.9); moved
 * among the write-backs, the few that outlive their block were mixed with
 * hot ones again and moved over and over (13 moves a host write there).
 * Kept apart, as a hot/cold split of the translation units
 * (docs/ssd-model.md). A block's data: its handle's own GC stream when
 * handles are persistently isolated, else the shared one. */
static inline ftl_stream ftl_gc_stream(const ftl *f, uint32_t victim)
{
    if (f->blocks[victim].map_only) return STREAM_MAP_GC;
    uint8_t h = f->blocks[victim].handle;
    return f->p->fdp_persistent && h < FDP_MAX_HANDLES ? (ftl_stream)(STREAM_FDP_GC + h) : STREAM_GC;
}

/* GC moved `units` of a victim: counted against its handle (FDP). */
static inline void ftl_count_moved(ftl *f, uint32_t victim, uint64_t units)
{
    uint8_t h = f->blocks[victim].handle;
    if (h < FDP_MAX_HANDLES) f->handle_moved[h] += units;
}

/* Whether the block is in SLC mode (ftl.slc_bits). */
static inline bool ftl_block_slc(const ftl *f, uint32_t block) { return f->slc_bits[block >> 6] >> (block & 63) & 1; }

/* Units a block holds in its mode, and units one program writes in it. */
static inline uint32_t ftl_capacity(const ftl *f, uint32_t block)
{
    return ftl_block_slc(f, block) ? f->p->slc_units_per_block : f->p->units_per_block;
}

/* The (die, stream) open block, opening one when it has none or the one it
 * has is full; FTL_NONE when the die has no free block it may use. */
uint32_t ftl_open_block(ftl *f, uint32_t die, ftl_stream s);
/* Closes the (die, stream) open block (it is full). */
void ftl_close_block(ftl *f, uint32_t die, ftl_stream s);

/* Counts units a program writes without data (padding a program unit). */
static inline void ftl_count_padding(ftl *f, uint32_t units) { f->units_padded += units; }

/* Next physical unit of the (die, stream) open block, opening a block when
 * needed; FTL_NONE when the die has no free block it may use. Inline: the
 * write path takes one per unit, and out of line across the layer boundary
 * the call cost 7 % more instructions in a steady-state preconditioning
 * (callgrind: 1,339 M against 1,250 M). */
static inline uint32_t ftl_alloc(ftl *f, uint32_t die, ftl_stream s)
{
    uint32_t b = f->dies[die].open[s];
    if (__builtin_expect(b == FTL_NONE || f->blocks[b].write_ptr >= ftl_capacity(f, b), 0)) {
        b = ftl_open_block(f, die, s);
        if (b == FTL_NONE) return FTL_NONE;
    }
    uint32_t ppa = b * f->p->units_per_block + f->blocks[b].write_ptr++;
    if (f->blocks[b].write_ptr >= ftl_capacity(f, b)) ftl_close_block(f, die, s);
    return ppa;
}
static inline uint32_t ftl_program_units(const ftl *f, uint32_t block)
{
    return ftl_block_slc(f, block) ? f->p->slc_units_per_program : f->p->units_per_program;
}

/* Free blocks of a die that native data may use: a static SLC cache's
 * blocks are spoken for even while empty. GC thresholds apply to these. */
static inline uint32_t ftl_free_blocks(const ftl *f, uint32_t die)
{
    const ftl_die *d = &f->dies[die];
    uint32_t held = f->p->slc == SLC_STATIC ? f->p->slc_blocks_per_die - d->slc_blocks : 0;
    return d->free_count > held ? d->free_count - held : 0;
}

/* True when host data may go to the die's SLC cache now: its open SLC
 * block has room, or the cache may take another block. */
bool ftl_slc_room(const ftl *f, uint32_t die);
/* The die for the next SLC program unit (striping order), or FTL_NONE. */
uint32_t ftl_slc_die(ftl *f);
/* The oldest closed SLC block of the die, marked as victim, or FTL_NONE. */
uint32_t ftl_pick_fold_victim(ftl *f, uint32_t die);
/* Makes a closed block the next victim of its die (read reclaim, refresh). */
uint32_t ftl_claim_victim(ftl *f, uint32_t block);
/* Closed SLC blocks of the die (data that folding can move). */
uint32_t ftl_slc_closed(const ftl *f, uint32_t die);

/* Up to `want` consecutive units of the (die, stream) open block, never
 * crossing a program-unit boundary; returns the first (FTL_NONE as
 * ftl_alloc) and the count in *got. */
uint32_t ftl_alloc_run(ftl *f, uint32_t die, ftl_stream s, uint32_t want, uint32_t *got);
/* Free blocks a stream may take: host writes leave the GC reserve alone. */
bool ftl_can_alloc(const ftl *f, uint32_t die, ftl_stream s);

static inline void ftl_invalidate(ftl *f, uint32_t ppa)
{
    revmap_clear(&f->rm, ppa);
    f->blocks[ftl_block_of(f, ppa)].valid--;
}
static inline bool ftl_closed_slc(const ftl *f, uint32_t b) { return ftl_block_slc(f, b) && f->blocks[b].state == BLOCK_CLOSED; }
static inline bool ftl_closed_native(const ftl *f, uint32_t b) { return f->blocks[b].state == BLOCK_CLOSED && !ftl_block_slc(f, b); }
static inline bool ftl_valid(const ftl *f, uint32_t ppa) { return revmap_valid(&f->rm, ppa); }
/* What a valid unit holds (a logical unit, or FTL_MAP_BIT | a translation
 * unit); FTL_NONE if it is invalid. Its block must be covered: a victim,
 * or ftl_cover'ed. */
static inline uint32_t ftl_holds(const ftl *f, uint32_t ppa) { return revmap_holds(&f->rm, ppa); }
/* Brings in the mapping entries (a translation unit's: its place) of what
 * the valid units ppa .. ppa + n - 1 hold: their moves come soon (GC reads
 * their page), and each entry is a random access into a table far larger
 * than the cache. Prefetched, not loaded: a load holds the core until its
 * address translation and line are in, a prefetch does not. Loads paid
 * over a 1 GiB table until the thirty-fifth session, when prefetches took
 * 0.39 s off the 2 TiB steady write's 5.0 (six pairs, each faster;
 * docs/ssd-model.md). */
static inline void ftl_fetch_holders(const ftl *f, uint32_t ppa, uint32_t n)
{
    uint32_t fetched = 0;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t what = ftl_holds(f, ppa + k);
        if (what == FTL_NONE) continue;
        /* A translation unit's place: its table (1 MB at 1 TiB) misses the
         * cache too, beside the mapping table. */
        if (what & FTL_MAP_BIT) __builtin_prefetch(&f->map_loc[what & ~FTL_MAP_BIT], 1);
        else __builtin_prefetch(&f->l2p[what], 1);
        fetched++;
    }
    /* Keeps the loop: with nothing else using it, GCC deleted it, its
     * prefetches with it (the 128 GiB steady write ran 0.2 s slower of
     * 1.1; docs/ssd-model.md). */
    __asm__ volatile("" : : "r"(fetched));
}
/* Asks the cache, to write, for what overwriting logical unit lpn changes
 * at its old place (its valid bit and its block's record), once lpn's
 * mapping entry is in: the write's data transfer hides the misses. */
static inline void ftl_prefetch_old_of(const ftl *f, uint32_t lpn)
{
    uint32_t ppa = ftl_entry(f, lpn);
    if (ppa == FTL_NONE) return;
    revmap_prefetch_valid(&f->rm, ppa);
    __builtin_prefetch(&f->blocks[ftl_block_of(f, ppa)], 1);
}
/* Loads, together, what overwriting lpns[0..n) changes at their old
 * places (the valid bit's word, the block's record), for a batch whose
 * entries are in the cache (ftl_warm loaded them a batch before, or the
 * fast path fetched them ahead): read from the cache, they give the
 * addresses at once. Fetched after the firmware stage alone
 * (ftl_prefetch_old_of), or at admission, the clear of the valid bit
 * still waited (perf, binary replay); loaded a batch ahead it does not
 * (docs/ssd-model.md). Changes nothing. */
void ftl_warm_old(const ftl *f, const uint32_t *lpns, uint32_t n);
/* The most units ftl_warm takes at once. */
enum { FTL_WARM_MAX = 32 };
/* Loads the mapping entries of logical units lpns[0..n) (n at most
 * FTL_WARM_MAX; units past the table are skipped) in one go. (A read's
 * other question, whether its block is SLC, is a bit of ftl.slc_bits,
 * which stays in the cache.) A source that knows its next
 * requests calls it: at full size each entry costs an address translation
 * that a prefetch issued alone waits for, and a batch lets those overlap
 * (docs/ssd-model.md, full size, fourth pass). Changes nothing. */
void ftl_warm(const ftl *f, const uint32_t *lpns, uint32_t n);
/* ftl_warm as prefetches, for units whose requests come two batches
 * later: nothing waits for the lines, and they are in by then. (A
 * prefetch still waits while its address is translated, a nested page
 * walk on this project's machines: docs/ssd-model.md.) */
void ftl_fetch_entries(const ftl *f, const uint32_t *lpns, uint32_t n);
/* ftl_warm_old as prefetches: the entries are in the cache (fetched a
 * batch before), so only the old places' misses are left, and nothing
 * waits for their lines. Changes nothing. */
void ftl_fetch_old(const ftl *f, const uint32_t *lpns, uint32_t n);
/* Whether warming pays (sim.warm_tables). Left to itself, for a mapping
 * table over FTL_WARM_TABLE: on the bench's drives it gained a tenth to a
 * fifth at 128 and 512 GiB of flash (tables of 112 and 466 MiB) and about a
 * third at 2 TiB; at 60 GB (56 MiB) nothing measurable. */
static inline bool ftl_warm_pays(const ftl *f) { return f->warm; }
/* Asks the cache for what a move of logical unit lpn touches beside its
 * mapping entry (move_touches), if anything. */
static inline void ftl_prefetch_touch(const ftl *f, uint32_t lpn)
{
    if (f->move_touches) __builtin_prefetch(&f->move_touches[divide(f->move_touch_of, lpn)]);
}
/* Makes the reverse map cover `block` (refilling it if it does not). */
void ftl_cover(ftl *f, uint32_t block);

/* The new half of a mapping change: lpn's data is at ppa, of `block`,
 * written by stream s. The caller has invalidated its old copy. */
static inline void ftl_place_in(ftl *f, uint32_t lpn, uint32_t ppa, uint32_t block, ftl_stream s)
{
    ftl_set_entry(f, lpn, ppa);
    revmap_set(&f->rm, ppa, block, lpn);
    f->blocks[block].valid++;
    f->units_written[s]++;
}
static inline void ftl_place(ftl *f, uint32_t lpn, uint32_t ppa, ftl_stream s)
{
    ftl_place_in(f, lpn, ppa, ftl_block_of(f, ppa), s);
}
/* The old half of a mapping change: lpn's old copy invalid (or lpn newly
 * mapped); returns the old place (FTL_NONE if none). */
static inline uint32_t ftl_drop_old(ftl *f, uint32_t lpn)
{
    uint32_t old = ftl_entry(f, lpn);
    if (old != FTL_NONE) ftl_invalidate(f, old);
    else f->mapped++;
    return old;
}
/* Records that logical unit lpn now lives at ppa, of `block` (a host
 * write, or a relocation when relocated is true), invalidating its old
 * copy. Inline: it is the innermost step of every write, and its cost is
 * the cache misses on the tables, which the caller's neighbouring work
 * overlaps. ftl_map works the block out. */
static inline void ftl_map_in(ftl *f, uint32_t lpn, uint32_t ppa, uint32_t block, bool relocated)
{
    uint32_t old = ftl_drop_old(f, lpn);
    ftl_place_in(f, lpn, ppa, block, relocated ? STREAM_GC : STREAM_HOST);
    if (f->version_of_physical) {
        if (!relocated) f->latest_version[lpn] = ++f->write_seq;
        f->version_of_physical[ppa] = relocated && old != FTL_NONE ? f->version_of_physical[old] : f->latest_version[lpn];
    }
}
static inline void ftl_map(ftl *f, uint32_t lpn, uint32_t ppa, bool relocated)
{
    ftl_map_in(f, lpn, ppa, ftl_block_of(f, ppa), relocated);
}
void ftl_trim(ftl *f, uint32_t lpn);
/* DRAM-less mapping: keep a location for each of `n` translation units. */
int ftl_enable_map_units(ftl *f, uint32_t n);
/* Translation unit tu now lives at ppa (written back, or relocated). */
void ftl_map_unit(ftl *f, uint32_t tu, uint32_t ppa, bool relocated);
/* Moves what physical unit `from` holds (`what`: ftl_holds(from), data or
 * translation) to `to`. */
void ftl_relocate(ftl *f, uint32_t from, uint32_t what, uint32_t to);
static inline uint32_t ftl_lookup(const ftl *f, uint32_t lpn) { return ftl_entry(f, lpn); }

/* GC: picks a closed block of the die with the configured policy and marks
 * it as the victim (FTL_NONE if no closed block would free space). */
uint32_t ftl_pick_victim(ftl *f, uint32_t die);
/* Static wear levelling: the die's least-worn closed block, marked as a
 * victim, when erase counts spread past ftl.wear_leveling_spread. */
uint32_t ftl_wear_victim(ftl *f, uint32_t die);
/* A victim a job could not empty goes back among the closed blocks. */
static inline void ftl_release_victim(ftl *f, uint32_t block) { f->blocks[block].state = BLOCK_CLOSED; }
/* Erases a victim with no valid unit left and returns it to the free list. */
void ftl_erase(ftl *f, uint32_t block);

/* After the fast path: the open blocks' write pointers move to the next
 * program-unit boundary (the part-filled units count as programmed), so
 * the timed model starts on fresh program units. Calls back with each
 * block's new write pointer. */
void ftl_close_partial_units(ftl *f, void (*written)(void *ctx, uint32_t block, uint32_t units), void *ctx);

/* Checks every invariant; returns 0 or -1 with the first violation in err. */
int ftl_check(const ftl *f, char *err, size_t errlen);

/* Plug-in points: tables of named entries, ended by a NULL name, in the
 * order of their key's choices (the schema takes the choices from them). */
typedef struct ftl_gc_policy {
    const char *name;
    const char *description;
    uint32_t (*pick)(ftl *f, uint32_t die); /* a collectable block of the die, or FTL_NONE */
    /* The order it picks in, lowest first, at `now` (units written), so
     * the reverse map covers the blocks it will pick next; NULL for a
     * policy that may pick any block (random draws), which keeps the
     * whole reverse map. */
    double (*cost)(const ftl *f, uint32_t block, double now);
} ftl_gc_policy;
extern const ftl_gc_policy ftl_gc_policies[]; /* ftl.gc.policy */

typedef struct ftl_alloc_order {
    const char *name;
    const char *description;
    uint32_t (*die_at)(const ssd_params *p, uint32_t k); /* the die of a stripe's k-th program unit */
} ftl_alloc_order;
extern const ftl_alloc_order ftl_alloc_orders[]; /* ftl.alloc_order */

#endif
