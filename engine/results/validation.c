#include "validation.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "figures.h"

/* One measured figure of a real drive, in a targets file of 'ssdlab
 * validate' (experiments/validation/targets.yaml): the items of its list. */
static const cfg_key target_config_keys[] = {
    {"target.drive", CFG_STRING, NULL, "", NULL, NULL, NULL, "The drive preset measured (models/drives/NAME.yaml)."},
    {"target.label", CFG_STRING, NULL, "", NULL, NULL, NULL, "The figure as the source names it."},
    {"target.test", CFG_STRING, NULL, "", NULL, NULL, NULL, "The test of experiments/review that measures it (P1 .. P11)."},
    {"target.phase", CFG_STRING, NULL, "", NULL, NULL, NULL, "The phase of that test the figure is computed over (its name)."},
    {"target.figure", CFG_ENUM, NULL, "mib_s", NULL, NULL,
     "mib_s|read_mib_s|write_mib_s|iops|read_lat_us|full_speed_gib|cache_mib_s|after_cliff_mib_s|after_cliff_60s_mib_s|cliff_drop|written_gib|floor_mib_s|stall_s|max_read_latency_ms|read_dip|fold_s|min_iops|max_iops",
     "What is computed from the result (docs/validation.md lists each)."},
    {"target.check", CFG_ENUM, NULL, "relative", NULL, NULL, "relative|below|above|range|rating",
     "relative: within target.tolerance of target.measured; below / above: under / over target.measured; range: between target.low and target.high; "
     "rating: target.measured is a maker's rating, a maximum: from 25 % below it to 10 % above."},
    {"target.measured", CFG_FLOAT, NULL, "0", NULL, NULL, NULL, "The measured value (relative, below, above)."},
    {"target.low", CFG_FLOAT, NULL, "0", NULL, NULL, NULL, "Range: the lowest value that passes."},
    {"target.high", CFG_FLOAT, NULL, "0", NULL, NULL, NULL, "Range: the highest value that passes."},
    {"target.tolerance", CFG_FRACTION, NULL, "0", "0", "10", NULL, "Relative: the error allowed, as a share of the measured value."},
    {"target.unit", CFG_STRING, NULL, "", NULL, NULL, NULL, "Unit of the values, for the table."},
    {"target.source", CFG_STRING, NULL, "", NULL, NULL, NULL, "Where the measurement comes from."},
    {NULL, 0, NULL, NULL, NULL, NULL, NULL, NULL},
};

static const cfg_schema *targets_schema(void)
{
    static cfg_schema *schema;
    static const cfg_key *const tables[] = {target_config_keys};
    if (!schema) {
        char err[512];
        schema = cfg_schema_create(tables, 1, err, sizeof err);
        if (!schema) fprintf(stderr, "ssdlab: internal error: target keys: %s\n", err), abort();
    }
    return schema;
}

static void fill_target(target *t, const cfg *c)
{
    static const char *const checks[] = {"relative", "below", "above", "range", "rating"};
    t->drive = cfg_str(c, "target.drive");
    t->label = cfg_str(c, "target.label");
    t->test = cfg_str(c, "target.test");
    t->phase = cfg_str(c, "target.phase");
    t->figure = cfg_str(c, "target.figure");
    t->unit = cfg_str(c, "target.unit");
    t->source = cfg_str(c, "target.source");
    for (size_t i = 0; i < sizeof checks / sizeof checks[0]; i++)
        if (!strcmp(cfg_str(c, "target.check"), checks[i])) t->check = (target_check)i;
    t->measured = cfg_float(c, "target.measured");
    t->low = cfg_float(c, "target.low");
    t->high = cfg_float(c, "target.high");
    t->tolerance = cfg_float(c, "target.tolerance");
}

int targets_load(target_list *t, const char *path)
{
    memset(t, 0, sizeof *t);
    t->file = cfg_create(targets_schema());
    if (!t->file) return -1;
    cfg_load_file_with_list(t->file, path, "targets", "target", &t->items, &t->count);
    t->item_count = t->count;
    int errors = cfg_error_count(t->file);
    for (size_t i = 0; i < t->count; i++) errors += cfg_error_count(t->items[i]);
    for (size_t i = 0; i < t->count && !errors; i++)
        if (!cfg_str(t->items[i], "target.drive")[0] || !cfg_str(t->items[i], "target.test")[0] ||
            !cfg_str(t->items[i], "target.phase")[0]) {
            fprintf(stderr, "%s: target %zu: keys 'target.drive', 'target.test' and 'target.phase' are required; expected a drive, a test and a phase\n",
                    path, i + 1);
            errors++;
        }
    if (errors) {
        fputs(cfg_errors(t->file), stderr);
        for (size_t i = 0; i < t->count; i++) fputs(cfg_errors(t->items[i]), stderr);
        targets_free(t);
        return -1;
    }
    t->targets = calloc(t->count ? t->count : 1, sizeof *t->targets);
    if (!t->targets) return targets_free(t), -1;
    for (size_t i = 0; i < t->count; i++) fill_target(&t->targets[i], t->items[i]);
    return 0;
}

void targets_free(target_list *t)
{
    for (size_t i = 0; i < t->item_count; i++) cfg_free(t->items[i]);
    free(t->items);
    free(t->targets);
    cfg_free(t->file);
    memset(t, 0, sizeof *t);
}

bool target_passes(const target *t, double value, double *error)
{
    *error = NAN;
    if (isnan(value)) return false;
    switch (t->check) {
    case CHECK_BELOW: return value < t->measured;
    case CHECK_ABOVE: return value > t->measured;
    case CHECK_RANGE: return value >= t->low && value <= t->high;
    case CHECK_RATING:
        *error = (value - t->measured) / t->measured;
        return *error <= RATING_ABOVE + 1e-12 && *error >= -RATING_BELOW - 1e-12;
    default:
        *error = (value - t->measured) / t->measured;
        return fabs(*error) <= t->tolerance + 1e-12;
    }
}

void target_requirement(const target *t, char *buf, size_t len)
{
    switch (t->check) {
    case CHECK_BELOW: snprintf(buf, len, "< %g", t->measured); break;
    case CHECK_ABOVE: snprintf(buf, len, "> %g", t->measured); break;
    case CHECK_RANGE: snprintf(buf, len, "%g .. %g", t->low, t->high); break;
    case CHECK_RATING: snprintf(buf, len, "-%g %% .. +%g %%", 100 * RATING_BELOW, 100 * RATING_ABOVE); break;
    default: snprintf(buf, len, "+-%g %%", 100 * t->tolerance); break;
    }
}
