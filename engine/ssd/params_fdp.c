/* Flexible data placement's parameters (NVMe TP4146): how many placement
 * handles the conventional namespace offers, and whether GC keeps each
 * handle's data apart (persistently isolated) or may mix them (initially
 * isolated). A reclaim unit is one erase block, a reclaim group one die. */
#include "params.h"

#include <stdio.h>
#include <string.h>

const cfg_key fdp_config_keys[] = {
    {"fdp.handles", CFG_UINT, NULL, "0", "0", "8", NULL,
     "Flexible data placement: placement handles (reclaim unit handles) of the conventional namespace; a write's handle "
     "(workload.placement) picks the reclaim units its data goes to. 0: no FDP."},
    {"fdp.isolation", CFG_ENUM, NULL, "initially", NULL, NULL, "initially|persistently",
     "Flexible data placement: initially isolated handles keep host writes apart, but GC may put their data together; "
     "persistently isolated ones keep it apart through GC too."},
    {"ftl.hot_write_size", CFG_SIZE, "KiB", "0B", "0B", "64MiB", NULL,
     "Hot/cold separation in the FTL, with no word from the host: host writes smaller than this go to blocks of their "
     "own, apart from larger ones (small writes are the hot data of most workloads: metadata, logs, key-value updates); "
     "0: off."},
    {NULL, 0, NULL, NULL, NULL, NULL, NULL, NULL},
};

int params_load_fdp(ssd_params *p, const cfg *c, char *err, size_t errlen)
{
    p->fdp_handles = (uint32_t)cfg_uint(c, "fdp.handles");
    p->fdp_persistent = !strcmp(cfg_str(c, "fdp.isolation"), "persistently");
    p->hot_write_size = (uint32_t)cfg_uint(c, "ftl.hot_write_size");
    if (p->hot_write_size && p->fdp_handles)
        return snprintf(err, errlen, "keys 'ftl.hot_write_size' and 'fdp.handles' both place host writes; expected one of them "
                                     "(the FTL's own guess, or the host's handles)"), -1;
    if (!p->fdp_handles) return 0;
    if (p->host != HOST_NVME)
        return snprintf(err, errlen, "key 'fdp.handles' asks for flexible data placement on a SATA drive; expected "
                                     "host.interface=nvme (FDP is an NVMe feature)"), -1;
    if (p->slc != SLC_NONE)
        return snprintf(err, errlen, "key 'fdp.handles' is set with an SLC cache ('slc.cache' %s); expected slc.cache=none "
                                     "(data of every handle would share the cache's blocks)", cfg_str(c, "slc.cache")), -1;
    return 0;
}
