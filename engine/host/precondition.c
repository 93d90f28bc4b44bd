#include "precondition.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

const cfg_key precondition_config_keys[] = {
    {"workload.precondition", CFG_ENUM, NULL, "fill", NULL, NULL, "none|fill|steady|age",
     "State before the run: empty; every LBA written once in order; or filled, then randomly overwritten "
     "(steady_overwrites times the capacity); or that, then aged (workload.age_*)."},
    {"workload.steady_overwrites", CFG_FLOAT, NULL, "2", "0", "100", NULL,
     "Random overwrites for 'steady' and 'age', in multiples of the capacity."},
    {"workload.age_wear", CFG_FRACTION, NULL, "0", "0", "2", NULL,
     "precondition=age: P/E cycles every block has been through more, as a share of nand.pe_cycles (80% or 0.8)."},
    {"workload.age_retention", CFG_TIME, "h", "0ns", "0ns", "100y", NULL,
     "precondition=age: how long the data has been kept since it was written (1y, 30d, 500h)."},
    {"workload.age_temperature", CFG_FLOAT, NULL, "30", "-40", "150", NULL,
     "precondition=age: the temperature (degrees C) it was kept at; retention accelerates with it (Arrhenius)."},
    {NULL, 0, NULL, NULL, NULL, NULL, NULL, NULL},
};

static int load_age(precondition_spec *pre, const cfg *c, const ssd *d, char *err, size_t errlen)
{
    pre->wear = cfg_float(c, "workload.age_wear");
    pre->retention_hours = (double)cfg_uint(c, "workload.age_retention") / 3.6e12;
    pre->celsius = cfg_float(c, "workload.age_temperature");
    char where[256];
    bool wear_set = strcmp(cfg_origin(c, "workload.age_wear", where, sizeof where), "default") != 0;
    bool retention_set = strcmp(cfg_origin(c, "workload.age_retention", where, sizeof where), "default") != 0;
    if (!wear_set && !retention_set) /* both may be 0 when given: the new drive's point of a sweep */
        return snprintf(err, errlen, "key 'workload.precondition' is age, and neither 'workload.age_wear' nor "
                                     "'workload.age_retention' is set; expected one, such as age_wear: 80%%"), -1;
    if (pre->retention_hours > 0 && ssd_params_of(d)->media.model != ECC_RBER)
        return snprintf(err, errlen, "key 'workload.age_retention' ages the data, and only bit errors see it; expected "
                                     "controller.ecc_model=rber (with the part's nand.rber_* model)"), -1;
    return 0;
}

/* An aging key on a drive that is not aged would be ignored: refused. */
static int refuse_unused(const cfg *c, char *err, size_t errlen)
{
    const char *keys[] = {"workload.age_wear", "workload.age_retention", "workload.age_temperature"};
    char where[256];
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
        if (strcmp(cfg_origin(c, keys[i], where, sizeof where), "default"))
            return snprintf(err, errlen, "key '%s' (%s) ages the drive, and 'workload.precondition' is %s; expected "
                                         "precondition: age, or no '%s'", keys[i], where, cfg_str(c, "workload.precondition"),
                            keys[i]), -1;
    return 0;
}

int precondition_load(precondition_spec *pre, const cfg *c, const ssd *d, char *err, size_t errlen)
{
    *pre = (precondition_spec){.kind = (precondition_kind)cfg_choice(c, "workload.precondition"),
                               .overwrites = cfg_float(c, "workload.steady_overwrites")};
    return pre->kind == PRECONDITION_AGE ? load_age(pre, c, d, err, errlen) : refuse_unused(c, err, errlen);
}

void precondition_apply(const precondition_spec *pre, ssd *d, gsl_rng *rng)
{
    if (pre->kind == PRECONDITION_NONE) return;
    uint64_t units = ssd_params_of(d)->logical_units;
    uint64_t over = pre->kind == PRECONDITION_FILL ? 0 : (uint64_t)(pre->overwrites * (double)units);
    ssd_precondition(d, over, rng);
    if (pre->kind != PRECONDITION_AGE) return;
    uint32_t cycles = (uint32_t)lround(pre->wear * ssd_params_of(d)->pe_cycles);
    if (cycles) ssd_add_wear(d, cycles);
    if (pre->retention_hours > 0) ssd_age(d, pre->retention_hours, pre->celsius);
}
