/* The timed SSD model, in layers along a request's path: the host
 * interface (hil/), the buffer (buffer/), the FTL (ftl/) and the flash
 * (flash/), on the event core; docs/architecture.md walks through them.
 *
 * Resources that serve in arrival order (firmware cores, channel buses, the
 * host link) are timelines: a reservation starts when both the work and the
 * resource are ready, so they cost no events. Dies are queues with
 * priorities (reads, then programs, then erases), decided when the die
 * frees up. A 4 KiB read costs four events: firmware done, array read done,
 * data decoded, completion. */
#ifndef SSDLAB_SSD_H
#define SSDLAB_SSD_H

#include <stdbool.h>
#include <stddef.h>

#include <gsl/gsl_histogram.h>

#include "config.h"
#include "ftl.h"
#include "media.h"
#include "observe.h"
#include "powerloss.h"
#include "params.h"
#include "sim.h"
#include "ssdlab.h"

typedef struct ssd ssd;

/* Builds the drive on simulator s from configuration c. Returns NULL with a
 * message in err when the parameters are inconsistent or memory runs out. */
ssd *ssd_create(sim *s, const cfg *c, char *err, size_t errlen);
void ssd_free(ssd *d);

/* Submits at the current simulated time; done(r, ctx) runs at completion.
 * Returns -1 (and sets nothing) for a request outside the drive, without
 * bytes or on a queue the drive does not have. */
int ssd_submit(ssd *d, ssdlab_request *r, ssdlab_done_fn done, void *ctx);
/* A hint from a source that knows its next requests: the drive fetches the
 * table entries of these byte offsets now, together. Only the simulator's
 * speed depends on it, never a result. */
void ssd_warm(ssd *d, const uint64_t *offsets, uint32_t n);
/* A second hint, a batch later, for writes whose mapping entries ssd_warm
 * has loaded: the drive loads, together, what overwriting their units
 * changes at the old places (the valid bit's word, the block's record),
 * which the write's placement would otherwise wait for one by one. Speed
 * only, as ssd_warm. */
void ssd_warm_overwrites(ssd *d, const uint64_t *offsets, uint32_t n);
/* ssd_warm and ssd_warm_overwrites as prefetches, for a source that knows
 * its requests two batches ahead: nothing waits for their lines. Called
 * for the batch after next (ssd_fetch), then a batch later, once those
 * entries are in the cache, for its writes (ssd_fetch_overwrites): the
 * batch then drawn finds its tables in the cache. Speed only. */
void ssd_fetch(ssd *d, const uint64_t *offsets, uint32_t n);
void ssd_fetch_overwrites(ssd *d, const uint64_t *offsets, uint32_t n);
/* Whether the drive's tables are large enough for ssd_warm to pay. */
bool ssd_warm_pays(const ssd *d);
/* Units ssd_warm has loaded, or ssd_fetch fetched, since the drive was built. */
uint64_t ssd_warmed(const ssd *d);
/* Units whose old places ssd_warm_overwrites has loaded, or ssd_fetch_overwrites fetched. */
uint64_t ssd_warmed_overwrites(const ssd *d);
/* Writes whose mapping entries and old places the buffer loaded as it let
 * them in after a wait for room (when warming pays). Speed only. */
uint64_t ssd_admits_warmed(const ssd *d);
/* Write-backs of translation units owed now (pushed out dirty when their
 * die had no block, not yet written: mapio_place_writeback), and since the
 * drive was built, those asked of a unit owed already (*merged). */
uint64_t ssd_map_owed(const ssd *d, uint64_t *merged);
/* The reverse map's refills since the drive was built: each a pass over
 * the mapping tables, when GC picks a block outside its cover (ftl/cover.c).
 * Speed only: which blocks are covered never changes a result. */
uint64_t ssd_reverse_map_refills(const ssd *d);
/* The priority class (0 urgent, 1 high, 2 medium, 3 low) the wrr arbiter
 * gives a submission queue below host.queues, as a tenant creates it. */
void ssd_set_queue_class(ssd *d, uint32_t queue, int cls);

const ssd_params *ssd_params_of(const ssd *d);
ftl *ssd_ftl(ssd *d);
/* The drive's state checked whole: the FTL's (ftl_check) and, on a drive
 * whose mapping is written to flash, what its dies owe (mapio_check).
 * Returns 0, or -1 with what is wrong in err. */
int ssd_check(ssd *d, char *err, size_t errlen);
uint64_t ssd_capacity(const ssd *d);
/* The zoned namespace (NULL without one): its zones, where it starts
 * (bytes, right after the conventional namespace), resets and erases. */
const struct zoneio *ssd_zoned(const ssd *d);

/* Flexible data placement's statistics and events since the drive was
 * built, as its FDP log pages report them: host bytes written to the
 * conventional namespace (HBMW; preconditioning's too, on handle 0), media
 * bytes written (MBMW: host data, GC, mapping, padding), media bytes
 * erased (MBE); per placement handle the host's bytes and what GC moved;
 * and the events: Media Reallocated (reclaim units whose data GC moved)
 * and Reclaim Unit Not Fully Written (closed by a handle update first). */
typedef struct ssd_fdp_log {
    uint64_t host_bytes, media_bytes, erased_bytes;
    uint64_t handle_host_bytes[FDP_MAX_HANDLES], handle_moved_bytes[FDP_MAX_HANDLES];
    uint64_t media_reallocated, ru_not_fully_written;
} ssd_fdp_log;
void ssd_fdp_log_get(const ssd *d, ssd_fdp_log *log);
uint32_t ssd_outstanding(const ssd *d);
/* Requests submitted since the drive was built. */
uint64_t ssd_submitted(const ssd *d);
void ssd_stats(const ssd *d, ssdlab_stats *s);
/* Latency histogram of one op (ns, log-spaced bins). */
const gsl_histogram *ssd_latency_histogram(const ssd *d, ssdlab_op op);
/* The latency below which a fraction q of completed requests of op fell. */
double ssd_latency_quantile(const ssd *d, ssdlab_op op, double q);
void ssd_reset_stats(ssd *d);
/* The time series so far (the interval under way is not included until
 * ssd_close_interval). */
const ssd_interval *ssd_intervals(ssd *d, size_t *count);
void ssd_close_interval(ssd *d);
void ssd_observe(ssd *d, const ssd_observers *o);
/* Closes the intervals that ended by now, as completions do, and says when
 * the current one ends: a run with no completions (an idle phase) steps
 * through its intervals with it, so the time series shows idle work. */
void ssd_metrics_tick(ssd *d, sim_time_t *next);
/* One die's busy time and operations since time 0. */
typedef struct ssd_die_counts {
    sim_time_t busy_ns;
    uint64_t reads, programs, erases;
} ssd_die_counts;
void ssd_die_stats(const ssd *d, uint32_t die, ssd_die_counts *out);
/* Erase counts over all blocks: summary, and the distribution (counts[i]
 * = blocks erased i times, the last bucket holding all from n - 1 on). */
void ssd_erase_counts(const ssd *d, double *min, double *mean, double *max);
void ssd_erase_histogram(const ssd *d, uint64_t *counts, size_t n);
/* Reads since the stats were reset, by what ECC made of them (flash.h's
 * ECC_OUTCOMES; controller.ecc_model = rber). */
void ssd_ecc_outcomes(const ssd *d, uint64_t *counts);
/* The media's error state per block (controller.ecc_model = rber). */
const media *ssd_media(const ssd *d);
/* The firmware's reactions to the media: blocks moved and the units they
 * held, by media_reason, and blocks retired, since the stats were reset;
 * and since new: blocks retired, erases of blocks kept past their limit,
 * and the fewest blocks any die may still retire. */
typedef struct ssd_media_events {
    uint64_t jobs[MEDIA_REASONS], moved[MEDIA_REASONS], retired;
    uint64_t retired_ever, worn_erases;
    uint32_t spare_left;
} ssd_media_events;
void ssd_media_events_get(const ssd *d, ssd_media_events *ev);
/* Retention: the data the drive holds has been kept `hours` more at
 * `celsius` (powered off, or idle), as aging does before a run. */
void ssd_age(ssd *d, double hours, double celsius);
/* The power fails now and returns (powerloss.h); -1 when memory runs out
 * for the list of lost units. */
int ssd_power_loss(ssd *d);
const powerloss_log *ssd_power_loss_log(const ssd *d);
/* Wear: every block has been erased `cycles` times more. */
void ssd_add_wear(ssd *d, uint32_t cycles);

/* Preconditioning fast path (no simulated time passes): writes every
 * logical unit once in order, then `overwrites` random single-unit writes
 * drawn from rng, with garbage collection inline; all data ends up
 * programmed. A sequential fill leaves the same mapping as a simulated one;
 * random overwrites leave the same distribution of valid units per block
 * (tests check both). */
void ssd_precondition(ssd *d, uint64_t overwrites, gsl_rng *rng);

/* The wear path: untimed writes through the fast path (no simulated time
 * passes), as preconditioning's, for a drive's life in writes. A DRAM-less
 * drive's mapping cache is kept as the timed path keeps it: each written
 * or moved unit dirties its translation unit, and one pushed out dirty is
 * written back (its die's GC runs after the write under way). Begin (-1: out of
 * memory), write each logical unit of lpns in turn, end (the drive is
 * left as after preconditioning: idle GC done, all programmed). */
/* The timed model first programs what it holds part-filled (padding, as
 * a flush does): true when it did, and the simulator must run until they
 * finish before ssd_wear_begin. */
bool ssd_wear_prepare(ssd *d);
int ssd_wear_begin(ssd *d);
/* Returns the units the drive took: fewer than n only when it has no room
 * left for them (a drive with no spare blocks). */
size_t ssd_wear(ssd *d, const uint32_t *lpns, size_t n);
void ssd_wear_end(ssd *d);
/* Host units (mapping units) written since the drive was new: the fast
 * path's and the timed path's. */
uint64_t ssd_host_units_ever(const ssd *d);

#endif
