/* The drive's state before a run (workload.precondition), made by the
 * FTL's fast path with no simulated time passing: empty; every logical
 * unit written once in order (fill); that, then random single-unit
 * overwrites (steady); or steady, then aged (age).
 *
 * Aging: the blocks carry workload.age_wear of their rated P/E cycles
 * more, and the data the drive holds has been kept workload.age_retention
 * at workload.age_temperature. A run then starts from a drive in mid-life
 * or at its end, with the error rates that follow (controller.ecc_model =
 * rber; docs/reliability.md). The cycles are added to every block alike,
 * the ideal wear levelling works toward: the spread between blocks is
 * what the preconditioning's own writes (with the drive's wear levelling)
 * left. Writing the whole rated life through the fast path would take
 * hours at real sizes; wear phases do that where the history matters. */
#ifndef SSDLAB_PRECONDITION_H
#define SSDLAB_PRECONDITION_H

#include <stddef.h>

#include <gsl/gsl_rng.h>

#include "config.h"
#include "ssd.h"

extern const cfg_key precondition_config_keys[];

typedef enum precondition_kind { PRECONDITION_NONE, PRECONDITION_FILL, PRECONDITION_STEADY, PRECONDITION_AGE } precondition_kind;

typedef struct precondition_spec {
    precondition_kind kind;
    double overwrites;      /* steady, age: random overwrites, in multiples of the capacity */
    double wear;            /* age: share of nand.pe_cycles */
    double retention_hours; /* age: data kept that long ... */
    double celsius;         /* ... at this temperature */
} precondition_spec;

/* Reads what is asked for; -1 with what is wrong in err. */
int precondition_load(precondition_spec *pre, const cfg *c, const ssd *d, char *err, size_t errlen);
void precondition_apply(const precondition_spec *pre, ssd *d, gsl_rng *rng);

#endif
