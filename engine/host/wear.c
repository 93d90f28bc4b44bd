#include "wear.h"

#include <stdio.h>

int wear_open(wear_phase *wp, const ssd *d, const cfg *c, double read_share, char *err, size_t errlen)
{
    const ssd_params *p = ssd_params_of(d);
    double wear = cfg_float(c, "workload.wear"), writes = cfg_float(c, "workload.drive_writes");
    uint64_t rated = cfg_uint(c, "drive.rated_tbw");
    *wp = (wear_phase){0};
    if ((wear > 0) == (writes > 0))
        return snprintf(err, errlen, "a wear phase needs one of 'workload.wear' (a share of the rated endurance) and "
                                     "'workload.drive_writes'; expected one, such as wear: 50%%"), -1;
    if (wear > 0 && !rated)
        return snprintf(err, errlen, "key 'workload.wear' is a share of the drive's rated endurance, and 'drive.rated_tbw' is "
                                     "not set; expected the maker's TBW rating (drive.rated_tbw: 120TB) or workload.drive_writes"), -1;
    if (read_share >= 1)
        return snprintf(err, errlen, "a wear phase writes, and 'workload.read_share' is 1; expected a share below 1"), -1;
    if (wear > 0) wp->rated_units = (uint64_t)(wear * (double)rated / p->unit);
    else wp->own_units = (uint64_t)(writes * (double)p->logical_units);
    return 0;
}

enum { BATCH = 4096 };

/* Fills lpns with the next write units, up to `room`: the rest of the
 * request drawn last (*next .. *last), then new draws. */
static size_t next_units(generator *g, gsl_rng *rng, uint32_t unit, uint64_t *next, uint64_t *last, uint32_t *lpns,
                         size_t room, uint64_t *requests)
{
    size_t n = 0;
    while (n < room) {
        if (*next > *last) {
            bool read;
            uint64_t offset;
            uint32_t bytes;
            generator_next(g, rng, &read, &offset, &bytes);
            if (read || !bytes) continue;
            (*requests)++;
            *next = offset / unit;
            *last = (offset + bytes - 1) / unit;
        }
        for (; *next <= *last && n < room; (*next)++) lpns[n++] = (uint32_t)*next;
    }
    return n;
}

int wear_run(wear_phase *wp, sim *s, ssd *d, generator *g, gsl_rng *rng, char *err, size_t errlen)
{
    uint32_t lpns[BATCH], unit = ssd_params_of(d)->unit;
    uint64_t next = 1, last = 0; /* no request under way */
    if (ssd_wear_prepare(d)) sim_run(s, SIM_TIME_MAX);
    /* the targets count from here: preconditioning and earlier phases have run */
    wp->start_units = ssd_host_units_ever(d);
    wp->target_units = wp->own_units ? wp->start_units + wp->own_units
                     : wp->rated_units > wp->start_units ? wp->rated_units : wp->start_units;
    if (ssd_wear_begin(d)) return snprintf(err, errlen, "out of memory for the wear phase's mapping write-backs"), -1;
    int rc = 0;
    for (uint64_t done; !rc && (done = ssd_host_units_ever(d)) < wp->target_units;) {
        uint64_t left = wp->target_units - done;
        size_t n = next_units(g, rng, unit, &next, &last, lpns, left < BATCH ? (size_t)left : BATCH, &wp->requests);
        if (ssd_wear(d, lpns, n) < n) {
            snprintf(err, errlen, "the drive took no more writes in the wear phase (no free block left on any die)");
            rc = -1;
        } else if (sim_poll(s)) {
            rc = 1;
        }
    }
    ssd_wear_end(d);
    return rc;
}

double wear_progress(const wear_phase *wp, const ssd *d)
{
    uint64_t whole = wp->target_units - wp->start_units;
    if (!whole) return wp->target_units ? 1 : 0; /* not started, or nothing to write */
    double f = (double)(ssd_host_units_ever(d) - wp->start_units) / (double)whole;
    return f > 1 ? 1 : f;
}
