/* A zoned namespace's parameters (NVMe ZNS): how many zones, how wide, and
 * the open and active limits. The zones take whole blocks at the top of
 * every die; the conventional namespace and its GC keep the rest. */
#include "params.h"

#include <stdio.h>

const cfg_key zns_config_keys[] = {
    {"zns.zones", CFG_UINT, NULL, "0", "0", "1048576", NULL,
     "Zones of a zoned namespace (NVMe ZNS) beside the conventional one (drive.user_capacity); 0: none. Its "
     "addresses follow the conventional namespace's (docs/zns.md)."},
    {"zns.zone_width", CFG_UINT, NULL, "0", "0", "4096", NULL,
     "Dies a zone's program units stripe over (a superblock across them); 0: every die. Must divide the die count."},
    {"zns.zone_blocks", CFG_UINT, NULL, "1", "1", "4096", NULL,
     "Erase blocks a zone takes on each of its dies: its capacity is zone_width x zone_blocks blocks."},
    {"zns.max_open", CFG_UINT, NULL, "0", "0", "1048576", NULL,
     "Most zones open at once (implicitly or explicitly); 0: no limit."},
    {"zns.max_active", CFG_UINT, NULL, "0", "0", "1048576", NULL,
     "Most zones active at once (open or closed); 0: no limit."},
    {NULL, 0, NULL, NULL, NULL, NULL, NULL, NULL},
};

static int zns_limits(ssd_params *p, const cfg *c, char *err, size_t errlen)
{
    p->zone_max_open = (uint32_t)cfg_uint(c, "zns.max_open");
    p->zone_max_active = (uint32_t)cfg_uint(c, "zns.max_active");
    if (p->zone_max_active && p->zone_max_open > p->zone_max_active)
        return snprintf(err, errlen, "key 'zns.max_open' (%u) is above 'zns.max_active' (%u); expected at most the active limit",
                        p->zone_max_open, p->zone_max_active), -1;
    if (p->host != HOST_NVME)
        return snprintf(err, errlen, "key 'zns.zones' asks for a zoned namespace on a SATA drive; expected host.interface=nvme "
                        "(zones are an NVMe command set)"), -1;
    return 0;
}

int params_load_zns(ssd_params *p, const cfg *c, char *err, size_t errlen)
{
    p->l2p_units = p->logical_units;
    p->zones = (uint32_t)cfg_uint(c, "zns.zones");
    if (!p->zones) return 0;
    uint32_t width = (uint32_t)cfg_uint(c, "zns.zone_width");
    p->zone_width = width ? width : p->dies;
    p->zone_blocks = (uint32_t)cfg_uint(c, "zns.zone_blocks");
    if (p->zone_width > p->dies || p->dies % p->zone_width)
        return snprintf(err, errlen, "key 'zns.zone_width' is %u, but the drive has %u dies; expected a divisor of %u",
                        p->zone_width, p->dies, p->dies), -1;
    uint32_t groups = p->dies / p->zone_width;
    uint64_t per_die = (uint64_t)(p->zones + groups - 1) / groups * p->zone_blocks;
    if (per_die >= p->blocks_per_die)
        return snprintf(err, errlen, "key 'zns.zones' (%u zones of %u blocks on each of %u dies) takes %llu blocks of every die, "
                        "which has %u; expected fewer zones, narrower or smaller ones", p->zones, p->zone_blocks, p->zone_width,
                        (unsigned long long)per_die, p->blocks_per_die), -1;
    p->zone_blocks_per_die = (uint32_t)per_die;
    p->zone_capacity = (uint64_t)p->zone_width * p->zone_blocks * p->units_per_block;
    p->zone_size = params_power_of_two_at_least(p->zone_capacity);
    p->l2p_units = p->logical_units + (uint64_t)p->zones * p->zone_size;
    if (p->l2p_units >= FTL_LOGICAL_LIMIT)
        return snprintf(err, errlen, "the zoned namespace's %u zones of %llu units take the mapping past %llu units; expected "
                        "fewer zones (or raise 'ftl.mapping_unit')", p->zones, (unsigned long long)p->zone_size,
                        (unsigned long long)FTL_LOGICAL_LIMIT - 1), -1;
    return zns_limits(p, c, err, errlen);
}
