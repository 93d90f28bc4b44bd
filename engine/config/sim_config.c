#include "sim_config.h"

/* The choices are GSL generator names; a test checks GSL knows each one. */
const cfg_key sim_config_keys[] = {
    {"sim.seed", CFG_UINT, NULL, "1", NULL, NULL, NULL,
     "Master seed; every component's random stream is derived from it and the component's name."},
    {"sim.rng", CFG_ENUM, NULL, "mt19937", NULL, NULL, "mt19937|ranlxd2|ranlxs2|taus2|gfsr4|mrg",
     "GSL random-number generator behind every stream."},
    {"sim.stop_time", CFG_TIME, "s", "0", NULL, NULL, NULL,
     "Simulated time at which a run stops even if work remains; 0 means no limit."},
    {"sim.max_memory", CFG_SIZE, "GiB", "0B", "0B", "1PB", NULL,
     "Memory a run may use; a drive whose tables need more is refused before anything is allocated. 0 means what the process may have: the machine's memory, or less under a cgroup limit (Slurm's --mem) or ulimit -v. Does not change results."},
    {"sim.reverse_map_share", CFG_FRACTION, NULL, "50%", "0", "1", NULL,
     "Share of the flash blocks whose reverse map (what each unit holds) the simulator keeps, 4 bytes per 4 KiB of flash at 100%: blocks take it when opened while there is room, and when GC picks a block without one, the blocks it will likely pick next get it in one pass over the mapping table. Does not change results; lower saves memory and costs passes (a run prints how many it made). The random victim policies keep the whole map; a DRAM-less drive's blocks of translation units are covered when picked, from their own table, and the blocks of a sequential fill from their first logical unit."},
    {"sim.warm_tables", CFG_ENUM, NULL, "auto", NULL, NULL, "auto|on|off",
     "Whether a source that knows its next requests (a closed-loop random workload, guessing 16 on a copy of its random stream; a trace replay, reading 16 records ahead) has the drive load their mapping entries together, so that their cache and address-translation misses overlap. auto does it for mapping tables over 64 MiB, where it paid on the bench. Does not change results."},
    {"sim.event_reserve", CFG_UINT, NULL, "1024", "64", "16777216", NULL,
     "Pending events to make room for at start; the pool grows beyond it when needed."},
    {NULL, 0, NULL, NULL, NULL, NULL, NULL, NULL},
};

sim_options sim_options_from_config(const cfg *c)
{
    return (sim_options){
        .seed = cfg_uint(c, "sim.seed"),
        .rng_type = cfg_str(c, "sim.rng"),
        .event_reserve = (uint32_t)cfg_uint(c, "sim.event_reserve"),
    };
}
