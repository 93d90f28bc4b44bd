/* ssdlab's public C API: everything a program needs to drive the SSD model.
 *
 *     ssdlab_drive *d = ssdlab_open("models/drives/example-sata-480.yaml", sets, nsets, err, sizeof err);
 *     ssdlab_request r = {.op = SSDLAB_READ, .offset = 0, .bytes = 4096};
 *     ssdlab_submit(d, &r, on_done, ctx);      // on_done runs at completion
 *     ssdlab_run_until_idle(d);
 *     ssdlab_close(d);
 *
 * The caller owns request memory; a request must stay valid until its
 * callback has run. Times are simulated nanoseconds. See docs/api.md. */
#ifndef SSDLAB_H
#define SSDLAB_H

#include <stddef.h>
#include <stdint.h>

/* The library is built with hidden visibility: only what is marked here is
 * exported when it is built as a shared object. */
#if defined(__GNUC__)
#define SSDLAB_API __attribute__((visibility("default")))
#else
#define SSDLAB_API
#endif

typedef uint64_t ssdlab_time;

typedef enum ssdlab_op {
    SSDLAB_READ,
    SSDLAB_WRITE,
    SSDLAB_TRIM,
    /* Zoned namespace commands (docs/zns.md): offset names the zone's
     * start; an append's data goes to the zone's write pointer, and on
     * completion offset holds where it went. The others move no data
     * (bytes is 0). */
    SSDLAB_ZONE_APPEND,
    SSDLAB_ZONE_RESET,
    SSDLAB_ZONE_FINISH,
    SSDLAB_ZONE_OPEN,
    SSDLAB_ZONE_CLOSE,
    /* Flexible data placement's Reclaim Unit Handle Update (docs/fdp.md):
     * the handle in `placement` moves on to fresh reclaim units. No bytes. */
    SSDLAB_FDP_UPDATE,
    SSDLAB_OPS
} ssdlab_op;

/* Statistics count commands by class: reads, writes (Zone Append among
 * them), TRIMs, and management (zone reset, finish, open, close; FDP's
 * reclaim unit handle update). */
enum { SSDLAB_CLASS_MANAGEMENT = 3, SSDLAB_CLASSES = 4 };
static inline int ssdlab_op_class(ssdlab_op op)
{
    return op == SSDLAB_ZONE_APPEND ? (int)SSDLAB_WRITE : op > SSDLAB_ZONE_APPEND ? SSDLAB_CLASS_MANAGEMENT : (int)op;
}

typedef struct ssdlab_request ssdlab_request;
typedef struct ssdlab_drive ssdlab_drive;
typedef void (*ssdlab_done_fn)(ssdlab_request *r, void *ctx);

struct ssdlab_request {
    /* set by the caller */
    ssdlab_op op;
    uint64_t offset; /* bytes; reads and writes are widened to whole mapping units */
    uint32_t bytes;
    uint32_t queue; /* submission queue (NVMe), below host.queues */
    uint8_t placement; /* FDP placement handle of a write, below fdp.handles (docs/fdp.md); 0 otherwise */
    void *user;
    /* set by the model */
    uint64_t id;         /* submission order on this drive, from 0 */
    ssdlab_time arrival; /* submitted */
    ssdlab_time start;   /* a firmware core took it up */
    ssdlab_time finish;  /* completed */
    uint16_t status;     /* 0, or why the drive refused the command (ssdlab_status_name) */
    /* The model's bookkeeping while the request is in flight, so that a
     * request costs the model no allocation. Not for callers: its layout
     * is the model's own (engine/ssd/request_units.h). */
    union {
        void *align;
        unsigned char bytes[40];
    } model_private;
};

typedef struct ssdlab_stats {
    uint64_t completed[SSDLAB_CLASSES]; /* by op class (ssdlab_op_class) */
    uint64_t bytes[SSDLAB_CLASSES];
    double latency_sum_ns[SSDLAB_CLASSES];
    uint64_t refused;                   /* commands completed with a status other than 0 */
    uint64_t host_units_written, gc_units_written, erases;
    uint64_t map_units_written; /* translation units written back (DRAM-less, or a DRAM table with a dirty limit) */
    uint64_t flash_reads, flash_programs, read_retries, suspends, read_cache_hits;
    /* controller.ecc_model = rber: soft-decision reads, and reads that not
     * even they corrected (their host reads end with Unrecovered Read Error) */
    uint64_t soft_reads, uncorrectable_reads;
    /* the firmware's reactions: blocks moved by read reclaim (read disturb,
     * errors), by refresh (old data), and blocks retired (docs/reliability.md) */
    uint64_t reclaimed_blocks, refreshed_blocks, retired_blocks;
    uint64_t map_misses, map_writebacks; /* cached mapping: translation pages read, written back */
    uint64_t slc_units_written, slc_units_read; /* SLC-cache hits: host units written into, read from SLC-mode blocks */
    uint64_t fold_units_written, pad_units_written; /* moved out of the SLC cache (part of GC's); padding */
    /* Flash bytes programmed over host bytes written (docs/ssd-model.md):
     * host data as whole mapping units, SLC folds, GC, translation units
     * and padding. NAN without host writes (and so are its parts). */
    double write_amplification;
    /* Its parts, each over host bytes written: 1 (the host's own) + rmw
     * (the rest of the mapping units a write covers in part) + fold + gc
     * (GC without folds) + map + pad = write_amplification. slc_share is
     * the share of the host's units programmed into the SLC cache (not a
     * part: those are in 1 + rmw, and their second write is fold). */
    double wa_rmw, wa_fold, wa_gc, wa_map, wa_pad, slc_share;
    double busy_s;              /* time with at least one read or write outstanding (submitted, not complete) */
    double energy_j, average_power_w;   /* since time 0 */
    double temperature_c, max_temperature_c, throttled_s; /* thermal.model = lumped */
    ssdlab_time now;
} ssdlab_stats;

/* Opens a drive from a drive file (NULL: the defaults) and --set style
 * overrides. Returns NULL with a message in err on bad input. */
SSDLAB_API ssdlab_drive *ssdlab_open(const char *drive_file, const char *const *sets, int nsets, char *err, size_t errlen);
SSDLAB_API void ssdlab_close(ssdlab_drive *d);

/* Submits at the current simulated time; returns -1 (and sets nothing) if
 * the request lies outside the drive or has no bytes, or after an error
 * (ssdlab_error). */
SSDLAB_API int ssdlab_submit(ssdlab_drive *d, ssdlab_request *r, ssdlab_done_fn done, void *ctx);
SSDLAB_API void ssdlab_run_until(ssdlab_drive *d, ssdlab_time t);
SSDLAB_API void ssdlab_run_until_idle(ssdlab_drive *d);
SSDLAB_API ssdlab_time ssdlab_now(const ssdlab_drive *d);
SSDLAB_API uint64_t ssdlab_capacity(const ssdlab_drive *d); /* user bytes */
SSDLAB_API void ssdlab_stats_get(const ssdlab_drive *d, ssdlab_stats *s);

/* NULL while the drive works; once memory has run out in the middle of its
 * work, a message ("out of memory for flash transactions"): the drive then
 * takes no more requests (submit returns -1, runs return at once), and its
 * statistics hold what ran. */
SSDLAB_API const char *ssdlab_error(const ssdlab_drive *d);

/* A read whose data ECC could not correct (NVMe's Unrecovered Read Error,
 * SATA's UNC), beside the zone statuses. */
#define SSDLAB_STATUS_UNRECOVERED_READ 0x281
/* The name of a request's status ("success", "Zone Invalid Write", ...). */
SSDLAB_API const char *ssdlab_status_name(uint16_t status);

#endif
