/* The parameters of one simulated drive, read once from the configuration
 * (drive, NAND part, controller, host link, firmware policy) and checked
 * for consistency across keys. Everything the model needs per event is a
 * plain field here: nothing is looked up by name after set-up. */
#ifndef SSDLAB_SSD_PARAMS_H
#define SSDLAB_SSD_PARAMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "divide.h"
#include "simtime.h"

extern const cfg_key ssd_config_keys[];
extern const cfg_key zns_config_keys[]; /* params_zns.c */
extern const cfg_key fdp_config_keys[]; /* params_fdp.c */
extern const cfg_key media_config_keys[]; /* params_media.c */
extern const cfg_key powerloss_config_keys[]; /* params_media.c */

enum { MAX_BITS_PER_CELL = 4 };
/* Logical units are numbered below 2^31: P2L marks translation units with the top bit. */
#define FTL_LOGICAL_LIMIT (UINT64_C(1) << 31)

typedef enum program_style { PROGRAM_ONE_SHOT, PROGRAM_MULTI_PASS } program_style;
/* The order of host.interface's table, host_protocols (hil/protocol.c). */
typedef enum host_kind { HOST_SATA, HOST_NVME } host_kind;
typedef enum slc_kind { SLC_NONE, SLC_STATIC, SLC_DYNAMIC } slc_kind;
typedef enum trim_mode { TRIM_FREE, TRIM_BLOCKING, TRIM_THROTTLED, TRIM_DEFERRED } trim_mode;
/* controller.ecc_model: a retry probability, or bit errors from the media (flash/media.h). */
typedef enum ecc_model { ECC_PROBABILITY, ECC_RBER } ecc_model;
enum { MEDIA_MAX_RETRY_STEPS = 30 };

/* The media's error model and the controller's ECC (params_media.c). */
typedef struct media_params {
    uint32_t model; /* ecc_model */
    double fresh, wear, wear_exponent;                          /* e, a, k */
    double retention, retention_wear_exponent, retention_exponent; /* b, m, n (hours) */
    double disturb, disturb_wear_exponent, disturb_exponent;    /* g, p, q */
    double page_factor[MAX_BITS_PER_CELL], slc_factor;
    double activation_ev, reference_c; /* retention's Arrhenius acceleration */
    uint32_t codeword_bytes;           /* user data per codeword */
    uint32_t codeword_bits;            /* stored bits per codeword: its data and its share of the spare area */
    uint32_t hard_limit, soft_limit;   /* bits per codeword each decoder corrects */
    uint32_t retry_steps, soft_reads;
    double retry_gain;
    sim_time_t soft_decode;
    /* the firmware's reactions (rber model): 0 = off */
    uint32_t reclaim_reads;  /* move a block read this often since its erase */
    uint32_t reclaim_steps;  /* move a block one of whose reads took this many ladder steps */
    double refresh_hours;    /* move a block whose data is older (at the reference temperature) */
    /* retirement (either model): a block leaves service at the first erase
     * past its endurance (drawn per block) or the firmware's limit */
    double endurance, endurance_spread, retire_at; /* shares of pe_cycles; spread: coefficient of variation */
    double retire_spare; /* share of a die's spare blocks retirement may take */
} media_params;
/* Whether the firmware moves blocks for the media (read reclaim, refresh), and retires them. */
static inline bool media_reacts(const media_params *m) { return m->reclaim_reads || m->reclaim_steps || m->refresh_hours > 0; }
static inline bool media_retires(const media_params *m) { return m->endurance > 0 || m->retire_at > 0; }

/* log2(unit) when the mapping unit is a power of two, else 0: requests
 * are cut into units by shifts then (request_units.h). */
static inline uint32_t params_unit_shift(uint32_t unit) { return unit && !(unit & (unit - 1)) ? (uint32_t)__builtin_ctz(unit) : 0; }

/* sim.warm_tables's choices, in the key's order. */
typedef enum warm_tables_mode { WARM_AUTO, WARM_ON, WARM_OFF } warm_tables_mode;

typedef struct ssd_params {
    /* NAND part */
    uint32_t bits_per_cell;
    uint32_t page_size, spare_size; /* bytes */
    uint32_t pages_per_block, blocks_per_plane, planes_per_die;
    program_style style;
    bool multi_plane;
    sim_time_t t_read[MAX_BITS_PER_CELL]; /* by page type: LSB, CSB, MSB, TSB */
    sim_time_t t_prog[MAX_BITS_PER_CELL]; /* multi-pass: per page type; one-shot: [0] for the word line */
    sim_time_t t_erase;
    sim_time_t t_read_slc, t_prog_slc, t_erase_slc;
    uint32_t pe_cycles;
    bool cache_read, cache_program; /* a second register lets I/O overlap the array */
    bool suspend;                   /* reads may suspend a program or erase */
    sim_time_t t_suspend;           /* cost of one suspend and resume */
    double read_retry, read_retry_wear; /* retry probability, fresh and its rise at the rated P/E */
    media_params media;
    /* power loss (powerloss.h) */
    bool plp;                /* drive.power_loss_protection = capacitors */
    double holdup_j;         /* drive.holdup_energy */
    bool rebuild_checkpoint; /* ftl.rebuild = checkpoint (else scan) */

    /* controller */
    uint32_t channels, dies_per_channel, dies;
    double bus_bytes_per_ns;
    sim_time_t t_bus_command; /* command and address cycles of one bus transaction */
    uint32_t cores;
    sim_time_t fw_read, fw_write, fw_trim, fw_per_unit, fw_move_unit;
    sim_time_t ecc_decode;
    /* the data path's engines, bytes per second (0: no limit): datapath.h */
    uint64_t host_dma_rate, memory_bandwidth, ecc_encode_rate, ecc_decode_rate;
    uint64_t write_buffer; /* bytes */
    uint32_t scheduler;    /* index into flash_schedulers (flash/flash.c) */
    uint64_t read_cache;   /* bytes of DRAM read cache; 0 = none */
    uint32_t read_ahead_units; /* sequential read-ahead, in mapping units; 0 = none */
    uint32_t slc_fold_jobs;    /* dies that fold at once in foreground folding; 0 = all */
    bool flush_on_idle;    /* program part-filled program units, padded, in idle time */
    trim_mode trim;
    double trim_ns_per_byte;  /* firmware work of trimming, given per GiB (0: derived) */
    sim_time_t trim_unit_ns;     /* derived: work per unit trimmed */
    sim_time_t trim_map_read_ns; /* derived, DRAM-less: per translation unit read first */
    double trim_share;        /* throttled: share of a core the work takes */
    sim_time_t trim_chunk;    /* throttled: work done in one go */

    /* host link */
    host_kind host;
    double link_bytes_per_ns; /* payload rate after line coding and protocol overhead */
    sim_time_t fis_time;      /* SATA: link time of a FIS besides data */
    sim_time_t pcie_latency;  /* NVMe: one-way host memory to controller */
    uint32_t max_queue_depth; /* per submission queue */
    uint32_t host_queues;
    uint32_t arbitration;         /* index into arbiter_policies (host.arbitration) */
    uint32_t controller_commands; /* commands the controller holds at once, all queues; 0: no limit */
    uint32_t arbitration_burst;   /* commands taken from a queue in one turn */
    uint32_t wrr_weight[4];       /* commands per round: [1] high, [2] medium, [3] low ([0], urgent, is strict) */
    uint8_t queue_class[64];      /* class of the first 64 queues (0 urgent .. 3 low); the others are medium */
    uint32_t queue_depth[64];     /* commands each of the first 64 queues holds; 0: max_queue_depth */

    /* firmware policy */
    uint32_t unit;           /* mapping unit, bytes */
    uint32_t unit_shift;     /* log2(unit) when unit is a power of two, else 0 (request_units.h) */
    uint32_t units_per_page; /* page_size / unit */
    uint32_t pages_per_program; /* flash pages (per plane) programmed by one operation */
    uint32_t units_per_program; /* units one program operation writes on a die (all planes) */
    uint32_t units_per_block;   /* units in one multi-plane block */
    divider block_of_unit;   /* physical unit -> its block: divides by units_per_block */
    uint32_t blocks_per_die;    /* multi-plane blocks */
    divider die_of_block;       /* block -> its die: divides by blocks_per_die (every read asks) */
    uint32_t min_blocks_per_die; /* the user data's share, GC's threshold and burst, open blocks, a static SLC cache */
    uint64_t logical_units, physical_units;
    uint32_t gc_threshold, gc_reserve, gc_burst, gc_burst_victims;
    double gc_burst_host_share;
    uint32_t gc_policy; /* index into gc_policies (ftl.c) */
    uint32_t gc_d;
    uint32_t gc_background_threshold;
    uint32_t wear_leveling_spread; /* 0: static wear levelling off */
    double reverse_map_share; /* sim.reverse_map_share: blocks whose reverse map is kept (revmap.h) */
    uint32_t warm_tables;     /* sim.warm_tables, a warm_tables_mode (ftl_warm_pays) */
    sim_time_t idle_time;
    uint32_t order; /* index into alloc_order_names (ftl.c) */

    /* mapping table: all in DRAM, or translation pages cached (DFTL) */
    bool map_cached;
    bool map_persisted;            /* translation units are written to flash (mapio.h): cached, or a DRAM table with a dirty limit */
    uint32_t map_entries_per_page; /* mapping entries in one translation unit */
    divider map_page_of;           /* logical unit -> its translation unit: divides by map_entries_per_page */
    uint32_t map_pages;            /* translation units of the whole table */
    uint32_t map_cache_pages;      /* translation units the cache holds; DRAM: the dirty ones it may hold */
    uint32_t map_cache_policy;     /* index into mapcache_policy_names (mapcache.c) */

    /* SLC cache */
    slc_kind slc;
    uint32_t slc_units_per_block;   /* a block in SLC mode holds 1/bits of its units */
    uint32_t slc_units_per_program; /* one page per plane */
    uint32_t slc_blocks_per_die;    /* most blocks per die in SLC mode (slc.size) */
    double slc_dynamic_share;
    bool slc_fold_when_full;
    double slc_idle_fold_bytes_per_ns; /* 0: as fast as the dies allow */

    /* zoned namespace (params_zns.c): after the conventional one, in the
     * top blocks of every die; zones == 0: none */
    uint32_t zones, zone_width, zone_blocks; /* zone_blocks: per die of the zone */
    uint32_t zone_max_open, zone_max_active;
    uint32_t zone_blocks_per_die;            /* blocks of each die the zones take */
    uint64_t zone_capacity, zone_size;       /* units: writable, and address space per zone */
    uint64_t l2p_units; /* mapping entries: logical_units (conventional) + zones x zone_size */

    /* flexible data placement (params_fdp.c): 0 handles: none */
    uint32_t fdp_handles;
    bool fdp_persistent;
    uint32_t hot_write_size; /* bytes: smaller host writes go to a stream of their own; 0: off */
} ssd_params;

/* Reads and cross-checks the parameters. Returns 0, or -1 with a message
 * naming the keys in err. */
int ssd_params_load(ssd_params *p, const cfg *c, char *err, size_t errlen);
/* The zoned namespace's parameters, once the geometry is known. */
int params_load_zns(ssd_params *p, const cfg *c, char *err, size_t errlen);
int params_load_fdp(ssd_params *p, const cfg *c, char *err, size_t errlen);
int params_load_media(ssd_params *p, const cfg *c, char *err, size_t errlen);
int params_load_powerloss(ssd_params *p, const cfg *c, char *err, size_t errlen);
/* The power of two at or above n: a zone's address space for its capacity. */
static inline uint64_t params_power_of_two_at_least(uint64_t n)
{
    uint64_t v = 1;
    while (v < n) v <<= 1;
    return v;
}
/* Blocks of a die the conventional namespace (and GC) may use. */
static inline uint32_t params_conventional_blocks(const ssd_params *p) { return p->blocks_per_die - p->zone_blocks_per_die; }

/* Page type (0 = LSB .. bits-1) and page index within its plane of the
 * unit at offset `off` of a block, in write order. */
static inline uint32_t params_page_type(const ssd_params *p, uint32_t off)
{
    uint32_t page = off / p->units_per_page;
    uint32_t per_wl = p->pages_per_program * p->planes_per_die;
    return p->style == PROGRAM_ONE_SHOT ? (page % per_wl) % p->bits_per_cell
                                        : (page / p->planes_per_die) % p->bits_per_cell;
}

/* Bus time of moving `bytes` over one channel, command cycles included. */
static inline sim_time_t params_bus_time(const ssd_params *p, uint64_t bytes)
{
    return p->t_bus_command + (sim_time_t)((double)bytes / p->bus_bytes_per_ns + 0.5);
}

/* Bytes that move over a channel with `units` mapping units: they take
 * their share of the page's spare area (ECC parity) with them. */
static inline uint64_t params_bus_bytes(const ssd_params *p, uint32_t units)
{
    uint64_t user = (uint64_t)units * p->unit;
    return user + user * p->spare_size / p->page_size;
}

static inline sim_time_t params_link_time(const ssd_params *p, uint64_t bytes)
{
    return (sim_time_t)((double)bytes / p->link_bytes_per_ns + 0.5);
}

#endif
