/* ssdlab's schema: the key tables of every module, joined once. */

#include "config.h"
#include "fatal.h"
#include "mm1.h"
#include "sim_config.h"
#include "params.h"
#include "power.h"
#include "workload.h"

/* Keys a workload file sets when it is a test of an experiment
 * (experiments/review/): they change nothing in the simulation. */
static const cfg_key experiment_config_keys[] = {
    {"experiment.plot", CFG_ENUM, NULL, "none", NULL, NULL, "none|degradation|fill|qd|bs|mix|latency|trim|pcmark",
     "The plot 'ssdlab experiment' draws of this test's result (analysis/README.md)."},
    {"experiment.description", CFG_STRING, NULL, "", NULL, NULL, NULL, "What the test measures, for the experiment's log."},
    {"experiment.long", CFG_BOOL, NULL, "false", NULL, NULL, NULL,
     "A long test: 'ssdlab experiment' starts it first, so long tests overlap when tests run side by side."},
    {NULL, 0, NULL, NULL, NULL, NULL, NULL, NULL},
};

static const cfg_key *const tables[] = {sim_config_keys,      ssd_config_keys, power_config_keys,
                                        workload_config_keys, mm1_config_keys, experiment_config_keys};

const cfg_schema *ssdlab_schema(void)
{
    static cfg_schema *schema;
    if (!schema) {
        char err[1024];
        schema = cfg_schema_create(tables, sizeof tables / sizeof tables[0], err, sizeof err);
        if (!schema) {
            /* A declaration bug: the schema test catches it before release. */
            ssdlab_internal_error("invalid key declarations: %s", err);
        }
    }
    return schema;
}
