/* The workload keys: what each means (the schema), and which kinds of
 * phase each applies to, so that a key that would be ignored is an error
 * instead (issue 18: "any key that does not apply to the phase is an
 * error, never ignored"). */
#include "workload_keys.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

const cfg_key workload_config_keys[] = {
    {"workload.pattern", CFG_ENUM, NULL, "random", NULL, NULL, "random|sequential|zipf|hotcold",
     "Access pattern inside the region: uniform random, sequential, Zipf (workload.zipf_theta), or hot/cold (workload.hot_*)."},
    {"workload.zipf_theta", CFG_FLOAT, NULL, "0.99", "0.01", "10", NULL, "Zipf pattern: skew (P(k) ~ k^-theta over aligned blocks)."},
    {"workload.hot_fraction", CFG_FRACTION, NULL, "20%", "0.0001", "1", NULL, "Hot/cold pattern: share of the region that is hot."},
    {"workload.hot_share", CFG_FRACTION, NULL, "80%", "0", "1", NULL, "Hot/cold pattern: share of the requests that go to the hot part."},
    {"workload.block_sizes", CFG_STRING, NULL, "", NULL, NULL, NULL,
     "Weighted mix of request sizes, e.g. '4KiB:55,64KiB:25,128KiB:20'; empty means workload.block_size alone."},
    {"workload.align", CFG_SIZE, "KiB", "0B", NULL, "64MiB", NULL, "Alignment of request offsets; 0 means the smallest request size."},
    {"workload.arrival", CFG_ENUM, NULL, "closed", NULL, NULL, "closed|poisson|fixed",
     "closed: keep workload.queue_depth requests outstanding; poisson or fixed: open loop at workload.rate."},
    {"workload.rate", CFG_FLOAT, NULL, "1000", "0.001", "1e9", NULL, "Open loop: requests per second of simulated time."},
    {"workload.bytes", CFG_SIZE, "GiB", "0B", NULL, NULL, NULL, "Stop after this many bytes of requests; 0 means no limit."},
    {"workload.drive_writes", CFG_FLOAT, NULL, "0", "0", "1000", NULL,
     "Stop after writing the drive's capacity this many times; 0 means no limit."},
    {"workload.read_share", CFG_FRACTION, NULL, "100%", "0", "1", NULL, "Share of requests that are reads; the rest are writes."},
    {"workload.block_size", CFG_SIZE, "KiB", "4KiB", "512B", "64MiB", NULL, "Bytes per request (unless workload.block_sizes)."},
    {"workload.queue_depth", CFG_UINT, NULL, "32", "1", "65536", NULL, "Requests kept outstanding (closed loop)."},
    {"workload.priority", CFG_ENUM, NULL, "queue", NULL, NULL, "queue|urgent|high|medium|low",
     "Priority class of the phase's own queue (workload.queue) under host.arbitration=wrr, as a tenant creates its "
     "queue; queue: the class host.queue_classes gives it."},
    {"workload.tenants", CFG_ENUM, NULL, "workers", NULL, NULL, "workers|devices",
     "Who the tenants are: workers (each phase marked with_previous and the one before it), or, on a trace replay, "
     "devices: each device (disk, volume, ASU) of the trace a tenant on submission queue (its order of appearance) "
     "modulo host.queues, reported side by side."},
    {"workload.queue", CFG_INT, NULL, "-1", "-1", "65534", NULL,
     "Submission queue of every request of the phase (below host.queues), as a tenant with a queue of its own; "
     "-1: closed-loop slots spread over the queues, one thread per queue (open loop: queue 0)."},
    {"workload.region_offset", CFG_SIZE, "GiB", "0B", NULL, NULL, NULL, "Start of the region accessed."},
    {"workload.region_size", CFG_SIZE, "GiB", "0B", NULL, NULL, NULL, "Size of the region accessed; 0 means up to the end of the drive."},
    {"workload.region_offset_share", CFG_FRACTION, NULL, "0", "0", "1", NULL,
     "Start of the region as a share of the capacity (rounded down to whole MiB); used instead of region_offset when above 0."},
    {"workload.region_share", CFG_FRACTION, NULL, "0", "0", "1", NULL,
     "Size of the region as a share of the capacity (rounded down to whole MiB); used instead of region_size when above 0."},
    {"workload.requests", CFG_UINT, NULL, "1000000", "0", NULL, NULL,
     "Requests to complete, after any warm-up; 0 means no limit. A trace replay counts it only when set (left to itself it replays the whole trace)."},
    {"workload.duration", CFG_TIME, "s", "0s", NULL, NULL, NULL, "Simulated time to run for after the warm-up; 0 means no limit."},
    {"workload.warmup", CFG_UINT, NULL, "0", "0", NULL, NULL, "Requests completed and not measured first."},
    {"workload.warmup_until", CFG_ENUM, NULL, "requests", NULL, NULL, "requests|steady",
     "What ends the warm-up: workload.warmup requests, or steady state: rounds of the phase's writes (four blocks' worth "
     "per die each) until their write amplification is steady by SNIA PTS 2.0.2's rule (five rounds: range within 20 % "
     "of the mean, best-fit line's range within 10 %)."},
    {"workload.warmup_rounds", CFG_UINT, NULL, "40", "5", "1000", NULL,
     "warmup_until=steady: the most rounds; a phase not steady by then is measured all the same, with a warning."},
    {"workload.name", CFG_STRING, NULL, "", NULL, NULL, NULL, "Name of the workload or phase, shown in reports."},
    {"workload.phase", CFG_ENUM, NULL, "io", NULL, NULL, "io|fill|trim|idle|wear|power_loss",
     "What a phase does: io (synthetic or trace, per workload.source); fill (write the region sequentially once, workload.block_size at workload.queue_depth); trim (deallocate the region, workload.trim_chunk per command); idle (no commands for workload.duration); wear (the phase's writes through the FTL's fast path, no simulated time passing, to workload.wear of the rated endurance or workload.drive_writes); power_loss (the power fails and returns: docs/reliability.md)."},
    {"workload.wear", CFG_FRACTION, NULL, "0", "0", "100", NULL,
     "Wear phase: the share of the drive's rated endurance (drive.rated_tbw) its host writes since new reach when the phase ends (50% or 0.5; above 100% past the rating)."},
    {"workload.with_previous", CFG_BOOL, NULL, "false", NULL, NULL, NULL,
     "Phases: run this phase at the same time as the previous one, as another worker (synthetic io phases only)."},
    {"workload.trim_chunk", CFG_SIZE, "MiB", "0B", NULL, "4GiB", NULL, "Trim phase: bytes per TRIM command; 0 means as few commands as possible."},
    {"workload.source", CFG_ENUM, NULL, "synthetic", NULL, NULL, "synthetic|trace|pcmark8|zoned",
     "Where requests come from: the synthetic generator (pattern, read share, ...), a trace file (workload.trace), a PCMark-like desktop trace generated in memory (workload.pcmark8_app; replayed like a trace), or a zoned writer: a log-structured store of workload.block_size objects over the zoned namespace, with its own reclaimer (docs/zns.md)."},
    {"workload.pcmark8_app", CFG_ENUM, NULL, "word", NULL, NULL,
     "photoshop-light|photoshop-heavy|illustrator|indesign|after-effects|word|excel|powerpoint|world-of-warcraft|battlefield-3",
     "PCMark-like source: the application whose trace is generated (docs/pcmark-like.md)."},
    {"workload.pcmark8_seed", CFG_UINT, NULL, "1", NULL, NULL, NULL,
     "PCMark-like source: the trace's own seed (as 'ssdlab trace gen pcmark8 --seed'), apart from sim.seed so that every drive replays the same trace."},
    {"workload.trace", CFG_PATH, NULL, "none", NULL, NULL, NULL, "Trace file to replay (plain or gzip/bzip2/xz/zstd), relative to the file that names it."},
    {"workload.trace_format", CFG_ENUM, NULL, "auto", NULL, NULL, "auto|msr|fiu|umass|blkparse|disksim|fio|binary|alibaba|tencent|vscsi|hpl|wpa|columns|xperf",
     "Format of workload.trace; auto guesses from its first bytes or line (columns when workload.trace_columns is set)."},
    {"workload.trace_columns", CFG_STRING, NULL, "", NULL, NULL, NULL,
     "Column map of a CSV/TSV trace in no known format (docs/traces.md), e.g. 'time=1:us,op=2:R/W,offset=3:sector,size=4:B,device=5'; "
     "sets workload.trace_format=columns."},
    {"workload.trace_time_unit", CFG_TIME, "ns", "1ms", "1ns", "1s", NULL, "Time unit of DiskSim/MQSim ASCII traces (DiskSim: ms; MQSim: ns)."},
    {"workload.blkparse_event", CFG_ENUM, NULL, "Q", NULL, NULL, "Q|D", "blkparse traces: replay queue (Q) or dispatch (D) events."},
    {"workload.replay", CFG_ENUM, NULL, "timed", NULL, NULL, "timed|afap",
     "timed: each record arrives at its recorded time (open loop); afap: as fast as possible at workload.queue_depth (closed loop)."},
    {"workload.time_scale", CFG_FLOAT, NULL, "1", "0", "1000000", NULL,
     "Timed replay: recorded times are multiplied by this (0.5 replays twice as fast)."},
    {"workload.devices", CFG_STRING, NULL, "all", NULL, NULL, NULL,
     "Devices (disks, volumes, ASUs) of a multi-device trace to replay: 'all' or numbers separated by commas."},
    {"workload.start_record", CFG_UINT, NULL, "0", "0", NULL, NULL, "Trace replay: skip the trace's first records, this many."},
    {"workload.start_time", CFG_TIME, "s", "0s", NULL, NULL, NULL,
     "Trace replay: skip the records recorded before this time (from the trace's first record); a timed replay's first record then arrives at once."},
    {"workload.loop", CFG_BOOL, NULL, "false", NULL, NULL, NULL,
     "Trace replay: at the trace's end, replay it again from its start (or start_record / start_time), each pass arriving after the last, until requests, duration, bytes or drive_writes stop it."},
    {"workload.device_layout", CFG_ENUM, NULL, "none", NULL, NULL, "none|overlay|concat|separate",
     "Trace replay: how a trace's devices share the drive: overlay (all on one address space), concat (each device's "
     "addresses after the ones before it), separate (each an equal partition of the drive, its addresses mapped into it); "
     "none: a trace of more than one device (after workload.devices) is refused, naming them."},
    {"workload.lba_map", CFG_ENUM, NULL, "error", NULL, NULL, "error|wrap|scale|compact",
     "Trace addresses on the drive: error at a record past the drive's capacity; wrap it around; scale the trace's address "
     "range onto the drive (whole mapping units, alignment kept); or compact the pages the trace touches onto the drive's "
     "lowest addresses, in order."},
    {NULL, 0, NULL, NULL, NULL, NULL, NULL, NULL},
};

/* A key of the other source: the generator's on a trace replay, whose
 * records say what it would, or a trace's on a synthetic phase. */
static int refuse_key(const char *key, const char *origin, bool on_replay, char *err, size_t errlen)
{
    if (on_replay)
        return snprintf(err, errlen, "key '%s' (%s) shapes synthetic requests, and a trace replay's come from its records; "
                                     "expected no '%s' on this phase, or workload.source=synthetic", key, origin, key), -1;
    return snprintf(err, errlen, "key '%s' (%s) applies to trace replays only; expected workload.source=trace or pcmark8, or no '%s'",
                    key, origin, key), -1;
}

/* The kinds of phase a key shapes. Set in a phase of another kind, it
 * would be ignored: that is an error, and so is a key set for the whole
 * workload that no phase of it uses. */
enum { FOR_IO = 1, FOR_FILL = 2, FOR_TRIM = 4, FOR_IDLE = 8, FOR_TIMED = 16, FOR_AFAP = 32, FOR_ZONED = 128, FOR_WEAR = 256,
       FOR_POWER_LOSS = 512 /* no key: a power loss has no parameters of its own */ };
/* Refused on a phase of the other source (a replay, a synthetic phase)
 * wherever it is set, inherited from the workload's top included. */
enum { ANYWHERE = 64 };
enum { FOR_REPLAY = FOR_TIMED | FOR_AFAP, FOR_RUNS = FOR_IO | FOR_REPLAY | FOR_ZONED,
       FOR_REGION = FOR_IO | FOR_FILL | FOR_TRIM | FOR_WEAR, FOR_SYNTHETIC = FOR_IO | FOR_FILL | FOR_TRIM | FOR_IDLE | FOR_ZONED | FOR_WEAR | FOR_POWER_LOSS,
       FOR_OBJECTS = FOR_IO | FOR_ZONED | FOR_WEAR };
static const struct {
    const char *key;
    unsigned kinds;
} phase_keys[] = {
    {"workload.pattern", FOR_OBJECTS | ANYWHERE},      {"workload.read_share", FOR_OBJECTS | ANYWHERE},
    {"workload.zipf_theta", FOR_OBJECTS | ANYWHERE},   {"workload.hot_fraction", FOR_OBJECTS | ANYWHERE},
    {"workload.hot_share", FOR_OBJECTS | ANYWHERE},    {"workload.arrival", FOR_IO | ANYWHERE},
    {"workload.rate", FOR_IO | ANYWHERE},         {"workload.block_size", FOR_OBJECTS | FOR_FILL | ANYWHERE},
    {"workload.block_sizes", FOR_IO | FOR_FILL | FOR_WEAR | ANYWHERE}, {"workload.align", FOR_IO | FOR_FILL | FOR_WEAR | ANYWHERE},
    {"workload.queue_depth", FOR_IO | FOR_ZONED | FOR_FILL | FOR_AFAP}, {"workload.queue", FOR_IO | FOR_ZONED | FOR_FILL},
    {"workload.priority", FOR_IO | FOR_ZONED | FOR_FILL}, {"workload.zone_streams", FOR_ZONED | ANYWHERE},
    {"workload.zone_placement", FOR_ZONED | ANYWHERE}, {"workload.zone_live", FOR_ZONED | ANYWHERE},
    {"workload.zone_first", FOR_ZONED | ANYWHERE}, {"workload.zone_count", FOR_ZONED | ANYWHERE},
    {"workload.region_offset", FOR_REGION | ANYWHERE},
    {"workload.region_size", FOR_REGION | ANYWHERE}, {"workload.region_offset_share", FOR_REGION | ANYWHERE},
    {"workload.region_share", FOR_REGION | ANYWHERE}, {"workload.requests", FOR_RUNS},      {"workload.bytes", FOR_RUNS},
    {"workload.drive_writes", FOR_RUNS | FOR_WEAR}, {"workload.wear", FOR_WEAR},   {"workload.warmup", FOR_RUNS}, {"workload.warmup_until", FOR_IO}, {"workload.warmup_rounds", FOR_IO},            {"workload.duration", FOR_RUNS | FOR_IDLE},
    {"workload.trim_chunk", FOR_TRIM},     {"workload.time_scale", FOR_TIMED},       {"workload.trace", FOR_REPLAY},
    {"workload.trace_format", FOR_REPLAY}, {"workload.trace_columns", FOR_REPLAY | ANYWHERE}, {"workload.trace_time_unit", FOR_REPLAY},
    {"workload.blkparse_event", FOR_REPLAY}, {"workload.replay", FOR_REPLAY},        {"workload.devices", FOR_REPLAY},
    {"workload.device_layout", FOR_REPLAY}, {"workload.lba_map", FOR_REPLAY},        {"workload.start_record", FOR_REPLAY | ANYWHERE},
    {"workload.start_time", FOR_REPLAY | ANYWHERE}, {"workload.loop", FOR_REPLAY | ANYWHERE}, {"workload.pcmark8_app", FOR_REPLAY},
    {"workload.pcmark8_seed", FOR_REPLAY}, {"workload.tenants", FOR_REPLAY},
    {"workload.trace_zones", FOR_REPLAY | ANYWHERE}, {"workload.trace_zone_size", FOR_REPLAY | ANYWHERE},
    {"workload.placement", FOR_IO | FOR_FILL | FOR_REPLAY},
};

enum { PHASE_KEYS = sizeof phase_keys / sizeof *phase_keys };

/* The first key marked ANYWHERE of the other source set on c, inherited
 * or not: the generator's on a replay, a trace's on a synthetic phase. */
static int refuse_other_source(const cfg *c, bool on_replay, char *err, size_t errlen)
{
    for (size_t j = 0; j < PHASE_KEYS; j++) {
        unsigned kinds = phase_keys[j].kinds;
        char origin[64];
        if (!(kinds & ANYWHERE) || (kinds & (on_replay ? FOR_REPLAY : FOR_SYNTHETIC))) continue;
        if (strcmp(cfg_origin(c, phase_keys[j].key, origin, sizeof origin), "default"))
            return refuse_key(phase_keys[j].key, origin, on_replay, err, errlen);
    }
    return 0;
}

int workload_refuse_trace_keys(const cfg *c, char *err, size_t errlen) { return refuse_other_source(c, false, err, errlen); }
int workload_refuse_generator_keys(const cfg *c, char *err, size_t errlen) { return refuse_other_source(c, true, err, errlen); }

static unsigned kind_of(const cfg *c, const char **name)
{
    const char *source = cfg_str(c, "workload.source"), *phase = cfg_str(c, "workload.phase");
    if (!strcmp(source, "zoned")) return *name = "zoned writer", FOR_ZONED;
    if (strcmp(source, "synthetic")) {
        bool timed = !strcmp(cfg_str(c, "workload.replay"), "timed");
        return *name = timed ? "timed replay" : "replay as fast as possible", timed ? FOR_TIMED : FOR_AFAP;
    }
    if (!strcmp(phase, "fill")) return *name = "fill", FOR_FILL;
    if (!strcmp(phase, "trim")) return *name = "trim", FOR_TRIM;
    if (!strcmp(phase, "idle")) return *name = "idle", FOR_IDLE;
    if (!strcmp(phase, "wear")) return *name = "wear", FOR_WEAR;
    if (!strcmp(phase, "power_loss")) return *name = "power_loss", FOR_POWER_LOSS;
    return *name = "io", FOR_IO;
}

/* Set in this phase's own entry, not inherited from the workload's top. */
static bool set_here(const cfg *phase, const cfg *base, const char *key)
{
    char here[256], top[256];
    cfg_origin(phase, key, here, sizeof here);
    if (!strcmp(here, "default")) return false;
    return phase == base || strcmp(here, cfg_origin(base, key, top, sizeof top)) != 0;
}

/* Why key j does not apply to a phase of kind k: of the other source (as
 * workload_create says it), or not used by this kind. */
static int not_applying(size_t j, unsigned k, const char *kind, const char *origin, char *err, size_t errlen)
{
    const char *key = phase_keys[j].key;
    if ((k & FOR_REPLAY) && !(phase_keys[j].kinds & FOR_REPLAY)) return refuse_key(key, origin, true, err, errlen);
    if ((k & FOR_SYNTHETIC) && !(phase_keys[j].kinds & FOR_SYNTHETIC)) return refuse_key(key, origin, false, err, errlen);
    return snprintf(err, errlen, "key '%s' (%s) does not apply to a phase of kind %s, which would ignore it; expected no '%s' on this phase",
                    key, origin, kind, key), -1;
}

int workload_check_keys(const cfg *base, cfg *const *phases, size_t count, size_t *phase, char *err, size_t errlen)
{
    unsigned used = 0;
    for (size_t i = 0; i < (count ? count : 1); i++) {
        const cfg *c = count ? phases[i] : base;
        const char *kind;
        unsigned k = kind_of(c, &kind);
        used |= k;
        *phase = count ? i + 1 : 0;
        for (size_t j = 0; j < PHASE_KEYS; j++) {
            char origin[256];
            if ((phase_keys[j].kinds & k) || !set_here(c, base, phase_keys[j].key)) continue;
            return not_applying(j, k, kind, cfg_origin(c, phase_keys[j].key, origin, sizeof origin), err, errlen);
        }
    }
    *phase = 0;
    for (size_t j = 0; count && j < PHASE_KEYS; j++) {
        char origin[256];
        if ((phase_keys[j].kinds & used) || !strcmp(cfg_origin(base, phase_keys[j].key, origin, sizeof origin), "default")) continue;
        return snprintf(err, errlen, "key '%s' (%s) is set for the whole workload, and none of its phases uses it; expected it "
                                     "only with phases it applies to", phase_keys[j].key, origin), -1;
    }
    return 0;
}
