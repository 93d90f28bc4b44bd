/* Which workload keys apply to which kind of phase, so that a key that
 * would be ignored is an error instead (issue 18: "any key that does not
 * apply to the phase is an error, never ignored"). */
#include "workload_keys.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

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
    {"workload.drive_writes", FOR_RUNS | FOR_WEAR}, {"workload.wear", FOR_WEAR},   {"workload.warmup", FOR_RUNS},            {"workload.duration", FOR_RUNS | FOR_IDLE},
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
