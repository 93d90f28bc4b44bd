/* ssdlab's schema: the key tables of every module, joined once. */

#include "config.h"
#include "fatal.h"
#include "mm1.h"
#include "sim_config.h"
#include "ssd/params.h"
#include "ssd/power.h"
#include "ssd/workload.h"

static const cfg_key *const tables[] = {sim_config_keys, ssd_config_keys, power_config_keys, workload_config_keys,
                                        mm1_config_keys};

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
