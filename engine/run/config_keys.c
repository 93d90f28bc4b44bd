/* ssdlab's schema: the key tables of every module, joined once. */

#include <stdio.h>
#include <string.h>

#include "config.h"
#include "fatal.h"
#include "flash.h"
#include "ftl.h"
#include "mapcache.h"
#include "mm1.h"
#include "params.h"
#include "power.h"
#include "protocol.h"
#include "sim_config.h"
#include "workload.h"
#include "workload_keys.h"
#include "precondition.h"
#include "zonewriter.h"
#include "trace_zones.h"
#include "placement.h"

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

/* The drive's keys, with the choices of each plug-in point's key taken
 * from its table: adding an entry to a table is all it takes. */
enum { DRIVE_KEYS_MAX = 256, CHOICES_MAX = 512 };
static cfg_key drive_keys[DRIVE_KEYS_MAX];

/* Joins the names of a table of named entries (each entry starting with
 * its name; `stride` bytes apart; ended by a NULL name). */
static void choices_from(const char *key, const void *table, size_t stride, char *out)
{
    size_t used = 0;
    out[0] = 0;
    for (const char *at = table; *(const char *const *)at; at += stride) {
        const char *name = *(const char *const *)at;
        int n = snprintf(out + used, CHOICES_MAX - used, "%s%s", used ? "|" : "", name);
        if (n < 0 || (size_t)n >= CHOICES_MAX - used) ssdlab_internal_error("the choices of '%s' are too long", key);
        used += (size_t)n;
    }
    for (cfg_key *k = drive_keys; k->name; k++)
        if (!strcmp(k->name, key)) {
            k->choices = out;
            return;
        }
    ssdlab_internal_error("plug-in key '%s' is not declared", key);
}

#define CHOICES_FROM(key, table)                                   \
    do {                                                           \
        static char joined[CHOICES_MAX];                           \
        choices_from(key, &(table)[0].name, sizeof (table)[0], joined); \
    } while (0)

static const cfg_key *drive_schema(void)
{
    size_t n = 0;
    while (ssd_config_keys[n].name) n++;
    if (n >= DRIVE_KEYS_MAX) ssdlab_internal_error("more than %d drive keys", DRIVE_KEYS_MAX - 1);
    memcpy(drive_keys, ssd_config_keys, (n + 1) * sizeof *drive_keys);
    CHOICES_FROM("controller.scheduler", flash_schedulers);
    CHOICES_FROM("ftl.gc.policy", ftl_gc_policies);
    CHOICES_FROM("ftl.alloc_order", ftl_alloc_orders);
    CHOICES_FROM("ftl.map_cache_policy", mapcache_policies);
    CHOICES_FROM("host.interface", host_protocols);
    return drive_keys;
}

const cfg_schema *ssdlab_schema(void)
{
    static cfg_schema *schema;
    if (!schema) {
        char err[1024];
        const cfg_key *const tables[] = {sim_config_keys,      drive_schema(),  zns_config_keys, fdp_config_keys, media_config_keys, powerloss_config_keys, precondition_config_keys, power_config_keys,
                                         workload_config_keys, zonewriter_config_keys, trace_zones_config_keys, placement_config_keys, mm1_config_keys, experiment_config_keys};
        schema = cfg_schema_create(tables, sizeof tables / sizeof tables[0], err, sizeof err);
        if (!schema) {
            /* A declaration bug: the schema test catches it before release. */
            ssdlab_internal_error("invalid key declarations: %s", err);
        }
    }
    return schema;
}
