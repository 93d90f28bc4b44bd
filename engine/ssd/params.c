#include "params.h"

#include <stdbool.h>
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Defaults describe a plausible 4-channel SATA TLC drive (the example in
 * models/drives/example-sata-480.yaml); real drives set every key. */
const cfg_key ssd_config_keys[] = {
    {"drive.name", CFG_STRING, NULL, "unnamed", NULL, NULL, NULL, "Name of the drive model, shown in results."},
    {"drive.description", CFG_STRING, NULL, "", NULL, NULL, NULL, "One line on what the drive models and its sources."},
    {"drive.dies_from", CFG_ENUM, NULL, "controller", NULL, NULL, "controller|capacity",
     "Where the die count comes from: controller.channels x controller.dies_per_channel as set, or the capacity: the smallest power-of-two number of GiB that holds drive.user_capacity, in dies of nand.die_capacity, spread over the channels (a family's rule: one file, every capacity)."},
    {"drive.user_capacity", CFG_SIZE, "GB", "240GB", "1MiB", "1PB", NULL,
     "Capacity the host sees (retail capacities are decimal: 240GB); the rest of the flash is spare area."},
    {"drive.rated_tbw", CFG_SIZE, "TB", "0B", "0B", "1000PB", NULL,
     "The maker's endurance rating: terabytes the host may write over the warranty (TBW; 0: unknown). Wear phases count in shares of it (workload.wear)."},

    {"nand.name", CFG_STRING, NULL, "unnamed", NULL, NULL, NULL, "Name of the NAND part."},
    {"nand.die_capacity", CFG_SIZE, "GiB", "32GiB", "128MiB", "512GiB", NULL,
     "Nominal capacity of a die (a 256 Gbit die: 32GiB): the unit drive.dies_from = capacity counts in."},
    {"nand.interface_rate", CFG_TRANSFER_RATE, "MT/s", "1600MT/s", "1MT/s", "10GT/s", NULL,
     "Fastest bus rate the part supports; the channel runs at the lower of this and controller.bus_rate."},
    {"nand.bits_per_cell", CFG_UINT, NULL, "3", "1", "4", NULL, "Bits per cell: 1 SLC, 2 MLC, 3 TLC, 4 QLC."},
    {"nand.page_size", CFG_SIZE, "KiB", "16KiB", "512B", "64KiB", NULL, "User bytes per page."},
    {"nand.spare_size", CFG_SIZE, "B", "2KiB", "0B", "16KiB", NULL,
     "Spare (out-of-band) bytes per page; a page moves over the bus with its share of spare."},
    {"nand.pages_per_block", CFG_UINT, NULL, "768", "1", "65536", NULL, "Pages per erase block and plane, all page types."},
    {"nand.blocks_per_plane", CFG_UINT, NULL, "1400", "8", "1048576", NULL, "Erase blocks per plane, spares included."},
    {"nand.planes_per_die", CFG_UINT, NULL, "2", "1", "16", NULL,
     "Planes per die; the firmware programs, reads and erases all planes of a die together (multi-plane)."},
    {"nand.multi_plane", CFG_BOOL, NULL, "true", NULL, NULL, NULL,
     "The part runs multi-plane operations: one program or read covers all planes of a die; off, each operation covers one plane."},
    {"nand.program_style", CFG_ENUM, NULL, "one-shot", NULL, NULL, "one-shot|multi-pass",
     "one-shot: all pages of a word line in one operation taking t_prog (3D TLC); multi-pass: one page per operation, t_prog_<type> by page type (planar)."},
    {"nand.t_read_lsb", CFG_TIME, "us", "60us", "1us", "10ms", NULL, "Array read time (tR) of a lower page."},
    {"nand.t_read_csb", CFG_TIME, "us", "60us", "1us", "10ms", NULL, "Array read time of a centre page (TLC, QLC)."},
    {"nand.t_read_msb", CFG_TIME, "us", "60us", "1us", "10ms", NULL, "Array read time of an upper page (MLC and up)."},
    {"nand.t_read_tsb", CFG_TIME, "us", "60us", "1us", "10ms", NULL, "Array read time of a top page (QLC)."},
    {"nand.t_prog", CFG_TIME, "us", "2ms", "10us", "100ms", NULL, "One-shot: time to program a whole word line (all page types) on all planes."},
    {"nand.t_prog_lsb", CFG_TIME, "us", "500us", "10us", "100ms", NULL, "Multi-pass: program time of a lower page."},
    {"nand.t_prog_csb", CFG_TIME, "us", "2ms", "10us", "100ms", NULL, "Multi-pass: program time of a centre page."},
    {"nand.t_prog_msb", CFG_TIME, "us", "3ms", "10us", "100ms", NULL, "Multi-pass: program time of an upper page."},
    {"nand.t_prog_tsb", CFG_TIME, "us", "4ms", "10us", "100ms", NULL, "Multi-pass: program time of a top page."},
    {"nand.t_erase", CFG_TIME, "ms", "5ms", "100us", "1s", NULL, "Block erase time (tBERS)."},
    {"nand.t_read_slc", CFG_TIME, "us", "35us", "1us", "10ms", NULL, "Array read time of a page in a block run in SLC mode."},
    {"nand.t_prog_slc", CFG_TIME, "us", "250us", "10us", "100ms", NULL, "Program time of one page per plane in SLC mode."},
    {"nand.t_erase_slc", CFG_TIME, "ms", "5ms", "100us", "1s", NULL, "Erase time of a block run in SLC mode."},
    {"nand.cache_read", CFG_BOOL, NULL, "false", NULL, NULL, NULL,
     "Cache read: the die senses the next page while the last one moves out over the bus."},
    {"nand.cache_program", CFG_BOOL, NULL, "false", NULL, NULL, NULL,
     "Cache program: the next program's data moves in over the bus while the die still programs."},
    {"nand.suspend", CFG_BOOL, NULL, "false", NULL, NULL, NULL, "A read may suspend a program or erase in progress on its die."},
    {"nand.t_suspend", CFG_TIME, "us", "20us", "0ns", "10ms", NULL, "Time one suspend and resume adds to the suspended operation."},
    {"nand.pe_cycles", CFG_UINT, NULL, "3000", "1", "1000000", NULL, "Rated program/erase cycles of a block."},

    {"controller.name", CFG_STRING, NULL, "unnamed", NULL, NULL, NULL, "Name of the controller."},
    {"controller.channels", CFG_UINT, NULL, "4", "1", "64", NULL, "NAND channels."},
    {"controller.dies_per_channel", CFG_UINT, NULL, "4", "1", "128", NULL, "NAND dies on each channel."},
    {"controller.bus_rate", CFG_TRANSFER_RATE, "MT/s", "533MT/s", "1MT/s", "10GT/s", NULL, "NAND bus transfer rate per channel."},
    {"controller.bus_width", CFG_UINT, NULL, "8", "8", "16", NULL, "NAND bus width in bits."},
    {"controller.t_bus_command", CFG_TIME, "ns", "200ns", "0ns", "100us", NULL,
     "Command and address cycles of one bus transaction, before its data."},
    {"controller.cores", CFG_UINT, NULL, "1", "1", "64", NULL, "Firmware cores serving host commands."},
    {"controller.fw_read", CFG_TIME, "us", "5us", "0ns", "10ms", NULL, "Firmware time of one read command (one core)."},
    {"controller.fw_write", CFG_TIME, "us", "5us", "0ns", "10ms", NULL, "Firmware time of one write command (one core)."},
    {"controller.fw_trim", CFG_TIME, "us", "5us", "0ns", "10ms", NULL, "Firmware time of one trim command (one core)."},
    {"controller.fw_per_unit", CFG_TIME, "ns", "0ns", "0ns", "1ms", NULL,
     "Further firmware time per mapping unit of a command beyond the first."},
    {"controller.fw_move_unit", CFG_TIME, "ns", "0ns", "0ns", "1ms", NULL,
     "Firmware time per mapping unit that garbage collection or SLC folding moves (its mapping entry, the valid "
     "counts), on the cores that serve host commands: commands wait for it while the drive collects."},
    {"controller.ecc_decode", CFG_TIME, "us", "2us", "0ns", "1ms", NULL, "ECC decode latency of a page read (pipelined engine)."},
    {"controller.host_dma", CFG_BYTE_RATE, "MB/s", "0B/s", NULL, NULL, NULL,
     "Host DMA engine's rate in each direction, between host memory and the buffer; 0: no limit (the link sets it)."},
    {"controller.memory_bandwidth", CFG_BYTE_RATE, "MB/s", "0B/s", NULL, NULL, NULL,
     "Bandwidth of the buffer memory (SRAM or DRAM) for user data, both directions together: every byte "
     "crosses it twice (in from the host or a channel, out to a channel or the host); 0: no limit."},
    {"controller.ecc_encode_rate", CFG_BYTE_RATE, "MB/s", "0B/s", NULL, NULL, NULL,
     "ECC encoders' throughput, all engines together: every byte programmed passes them; 0: no limit."},
    {"controller.ecc_decode_rate", CFG_BYTE_RATE, "MB/s", "0B/s", NULL, NULL, NULL,
     "ECC decoders' throughput, all engines together: every byte read passes them (controller.ecc_decode is "
     "each page's latency through them); 0: no limit."},
    {"controller.flush", CFG_ENUM, NULL, "full", NULL, NULL, "full|idle",
     "When buffered writes are programmed: once a program unit is full; or also, padded, when the drive falls idle (data leaves the buffer sooner, at the cost of padding)."},
    {"controller.read_ahead", CFG_SIZE, "KiB", "0B", "0B", "64MiB", NULL,
     "Sequential read-ahead: a read that starts where the last one ended has this much data after it fetched into the read cache (at least twice this is kept); 0 means none."},
    {"controller.read_cache", CFG_SIZE, "MiB", "0B", "0B", "64GiB", NULL,
     "DRAM read cache of recently read mapping units (8-way set associative, LRU); 0 means none."},
    {"controller.scheduler", CFG_ENUM, NULL, "read-first", NULL, NULL, NULL /* from its plug-in table (run/config_keys.c) */,
     "Which queued operation a free die starts: reads first, then programs, then erases; in arrival order; or "
     "FLIN-like, fair between flows (submission queues)."},
    {"controller.read_retry", CFG_FRACTION, NULL, "0", "0", "0.99", NULL,
     "Probability that a page read fails ECC and is read again (fresh block)."},
    {"controller.read_retry_wear", CFG_FRACTION, NULL, "0", "0", "0.99", NULL,
     "Rise of the read-retry probability from a fresh block to one at nand.pe_cycles erases (linear)."},
    {"controller.write_buffer", CFG_SIZE, "MiB", "16MiB", "64KiB", "64GiB", NULL,
     "Write buffer (DRAM or SRAM): a write completes once its data is here; space frees when the flash program completes."},

    {"controller.trim_mode", CFG_ENUM, NULL, "throttled", NULL, NULL, "free|blocking|throttled|deferred",
     "How the firmware schedules TRIM's work (controller.trim_cost, else derived from the mapping structures it touches): "
     "throttled, the default (the work shares the firmware with commands); blocking (no command is served until it is done); "
     "deferred (done in idle time: until then the space is not reclaimed); free (none: only fw_trim, an idealisation)."},
    {"controller.trim_cost", CFG_TIME, "ms", "0ms", "0ns", "10s", NULL,
     "Firmware work per GiB trimmed, given outright (blocking, throttled, deferred); 0 derives it from the mapping "
     "table's memory (controller.dram_access, controller.sram_access) and, DRAM-less, the translation units read."},
    {"controller.dram_access", CFG_TIME, "ns", "90ns", "1ns", "10us", NULL,
     "Time of one random access of the firmware to the controller's DRAM (the mapping table, a DRAM drive's block table)."},
    {"controller.sram_access", CFG_TIME, "ns", "10ns", "1ns", "10us", NULL,
     "Time of one random access of the firmware to the controller's SRAM (a DRAM-less drive's cached mapping and block table)."},
    {"controller.trim_share", CFG_FRACTION, NULL, "50%", "0.01", "1", NULL,
     "Throttled TRIM: share of a core's time the trim work takes while it lasts."},
    {"controller.trim_chunk", CFG_TIME, "ms", "20ms", "1us", "10s", NULL,
     "Throttled TRIM: work done in one go; a command arriving meanwhile waits for it."},
    {"host.interface", CFG_ENUM, NULL, "sata", NULL, NULL, NULL /* from its table, host_protocols (hil/protocol.c) */,
     "Host interface protocol."},
    {"host.link_rate", CFG_BIT_RATE, "Gb/s", "6Gb/s", "1Mb/s", "1Tb/s", NULL, "Line rate of the host link per lane (SATA 6Gb/s; PCIe 3.0 8Gb/s)."},
    {"host.lanes", CFG_UINT, NULL, "1", "1", "32", NULL, "Lanes of the host link (NVMe: PCIe lanes)."},
    {"host.encoding", CFG_ENUM, NULL, "8b10b", NULL, NULL, "8b10b|128b130b|none", "Line coding of the link (SATA and PCIe 2: 8b10b; PCIe 3 and later: 128b130b)."},
    {"host.protocol_efficiency", CFG_FRACTION, NULL, "0.92", "0.1", "1", NULL,
     "NVMe: share of the coded link rate left for data after the PCIe packets' headers and framing "
     "(SATA counts its frames instead: host.fis_time)."},
    {"host.fis_time", CFG_TIME, "ns", "650ns", "0ns", "100us", NULL,
     "SATA: link time of one FIS besides its payload (framing, CRC, handshake, turnaround); an NCQ command exchanges "
     "the command, its acceptance, a DMA setup, a data FIS per 8 KiB and set device bits."},
    {"host.pcie_latency", CFG_TIME, "ns", "300ns", "0ns", "100us", NULL,
     "NVMe: one-way latency between host memory and the controller; a doorbell or a posted write takes one, "
     "a read of host memory (command fetch, write data) two."},
    {"host.max_queue_depth", CFG_UINT, NULL, "32", "1", "65536", NULL,
     "Commands each submission queue holds; more wait at the host (SATA NCQ: 32; NVMe: up to 65536)."},
    {"host.queues", CFG_UINT, NULL, "1", "1", "65535", NULL,
     "Submission queues (NVMe; SATA has one). A request names its queue; host.arbitration says which the controller fetches from next."},
    {"host.arbitration", CFG_ENUM, NULL, "fifo", NULL, NULL, "fifo|rr|wrr",
     "Which submission queue the controller fetches its next command from (NVMe base specification, command arbitration): "
     "fifo, the oldest command first; rr, round robin; wrr, weighted round robin with an urgent class (host.queue_classes, "
     "host.wrr_weight_*). It matters when commands wait: host.controller_commands or the firmware's cores full."},
    {"host.controller_commands", CFG_UINT, NULL, "0", "0", "65536", NULL,
     "Commands the controller holds at once, all queues together (fetched, not yet complete); more wait in their submission "
     "queues for the arbiter. 0: no limit beyond each queue's depth."},
    {"host.arbitration_burst", CFG_UINT, NULL, "1", "1", "65536", NULL,
     "rr and wrr: commands the controller may take from one queue in one turn (NVMe's arbitration burst)."},
    {"host.wrr_weight_high", CFG_UINT, NULL, "1", "1", "256", NULL, "wrr: commands per round from the high-priority queues."},
    {"host.wrr_weight_medium", CFG_UINT, NULL, "1", "1", "256", NULL, "wrr: commands per round from the medium-priority queues."},
    {"host.wrr_weight_low", CFG_UINT, NULL, "1", "1", "256", NULL, "wrr: commands per round from the low-priority queues."},
    {"host.queue_depths", CFG_STRING, NULL, "", NULL, NULL, NULL,
     "Commands each submission queue holds, from queue 0, separated by commas (at most 64; empty or 0: host.max_queue_depth): "
     "queues of different sizes, as tenants create them."},
    {"host.queue_classes", CFG_STRING, NULL, "", NULL, NULL, NULL,
     "wrr: priority class of each submission queue from queue 0, separated by commas: urgent, high, medium or low "
     "(at most 64; queues not named are medium). Urgent queues are served before all others."},

    {"ftl.mapping_unit", CFG_SIZE, "KiB", "4KiB", "512B", "64KiB", NULL, "Granularity of the page-level mapping table."},
    {"ftl.mapping", CFG_ENUM, NULL, "dram", NULL, NULL, "dram|cached",
     "dram: the whole mapping table is in DRAM; cached: a DRAM-less controller keeps the table in flash, in translation units of its own blocks, and caches ftl.map_cache of them (SRAM or host memory buffer), LRU."},
    {"ftl.map_cache", CFG_SIZE, "MiB", "32MiB", "4KiB", "64GiB", NULL,
     "Cached mapping: size of the cache of translation units (pieces of the mapping table, one mapping unit each)."},
    {"ftl.map_cache_policy", CFG_ENUM, NULL, "lru", NULL, NULL, NULL /* from its plug-in table (run/config_keys.c) */,
     "Cached mapping: which translation unit leaves a full cache: the least recently used, or the first cached."},
    {"ftl.map_entry_size", CFG_SIZE, "B", "4B", "1B", "64B", NULL, "Cached mapping: bytes of one mapping entry in a translation unit."},
    {"ftl.map_dirty_limit", CFG_SIZE, "MiB", "0B", "0B", "64GiB", NULL,
     "DRAM mapping: translation units (pieces of the table in DRAM) that may be changed and not yet written to flash; "
     "a change past the limit writes one out (the least recently changed: ftl.map_cache_policy), as a DRAM-less drive "
     "writes back what leaves its cache. Uniform random writes over S units with room for L write back 1 - L/S of a "
     "unit each; writes within L units, none. 0: the table's writes to flash are not modelled."},
    {"ftl.gc.policy", CFG_ENUM, NULL, "greedy", NULL, NULL, NULL /* from its plug-in table (run/config_keys.c) */,
     "Victim selection of garbage collection."},
    {"ftl.gc.d", CFG_UINT, NULL, "10", "2", "1000", NULL, "Blocks sampled by the d-choices victim policy."},
    {"ftl.gc.threshold", CFG_UINT, NULL, "4", "2", "1000", NULL, "Free blocks per die at or below which garbage collection runs."},
    {"ftl.gc.burst", CFG_UINT, NULL, "0", "0", "100000", NULL,
     "Foreground GC in bursts: once a die is down to ftl.gc.threshold, every die collects until it has this many free blocks more than the threshold, taking no host writes meanwhile (they go to dies done collecting, or wait); 0: a die collects one block at a time, alongside host writes."},
    {"ftl.gc.burst_host_share", CFG_FRACTION, NULL, "0", "0", "1", NULL,
     "In a GC burst, host writes a collecting die still takes, as a share of the units its GC moves (firmware that lets a trickle through); 0: none."},
    {"ftl.gc.burst_victims", CFG_UINT, NULL, "0", "0", "100000", NULL,
     "A GC burst's work quota: a die stops collecting after this many victim blocks even if short of ftl.gc.burst's free blocks (on a full drive, whose victims are mostly valid, bursts then end sooner and free less); 0: no quota."},
    {"ftl.gc.reserve", CFG_UINT, NULL, "1", "1", "100", NULL,
     "Free blocks per die kept for garbage collection: host writes go to other dies while a die is down to these."},
    {"ftl.alloc_order", CFG_ENUM, NULL, "channel-first", NULL, NULL, NULL /* from its plug-in table (run/config_keys.c) */,
     "Striping of consecutive program units: across channels first, or across the dies of a channel first."},
    {"ftl.gc.background_threshold", CFG_UINT, NULL, "8", "0", "100000", NULL,
     "Free blocks per die below which idle time is used for garbage collection; 0 turns background GC off."},
    {"ftl.wear_leveling_spread", CFG_UINT, NULL, "0", "0", "1000000", NULL,
     "Static wear levelling: when a die's block erase counts spread by more than this, its least-worn block's (cold) data is moved; 0 turns it off."},
    {"ftl.idle_time", CFG_TIME, "ms", "100ms", "0ns", "1h", NULL,
     "Time without host commands after which background work (GC, SLC folding) starts."},

    {"metrics.interval", CFG_TIME, "s", "1s", "0ns", "1h", NULL,
     "Length of one row of the time series (simulated time); 0 turns the time series off."},
    {"slc.cache", CFG_ENUM, NULL, "none", NULL, NULL, "none|static|dynamic",
     "SLC write cache: none; static (slc.size of user data in blocks kept in SLC mode); dynamic (SLC blocks taken from free blocks, up to slc.size and slc.dynamic_share of the free flash)."},
    {"slc.size", CFG_SIZE, "GiB", "0B", "0B", "1PB", NULL, "User data the SLC cache holds at most."},
    {"slc.share", CFG_FRACTION, NULL, "0", "0", "0.5", NULL,
     "SLC cache size as a share of drive.user_capacity (a family's rule, e.g. 3.5 GB per 240 GB); used instead of slc.size when above 0."},
    {"slc.dynamic_share", CFG_FRACTION, NULL, "25%", "0", "1", NULL,
     "Dynamic cache: share of the free flash (beyond the GC threshold) that may run in SLC mode, so the cache shrinks as the drive fills."},
    {"slc.when_full", CFG_ENUM, NULL, "direct", NULL, NULL, "direct|fold",
     "When the cache is full: write to native (TLC) blocks directly, or fold cached data into native blocks first and keep writing through the cache (foreground folding)."},
    {"slc.fold_jobs", CFG_UINT, NULL, "0", "0", "4096", NULL,
     "Foreground folding: at most this many dies fold at once, the dies taking turns (a firmware limit); 0 means every die."},
    {"slc.idle_fold_rate", CFG_BYTE_RATE, "MB/s", "0B/s", NULL, NULL, NULL,
     "Rate of background work in idle time, for the whole drive: data moved by SLC folding and by background garbage collection alike; 0 means as fast as the dies allow."},
    {NULL, 0, NULL, NULL, NULL, NULL, NULL, NULL},
};

static int fail(char *err, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, len, fmt, ap);
    va_end(ap);
    return -1;
}

/* A family's rule: raw flash is the smallest power-of-two number of GiB
 * that holds the user capacity (240 GB -> 256 GiB, 960 GB -> 1 TiB), in
 * dies of the part's nominal capacity, spread evenly over the channels
 * (or one per channel on as many channels as there are dies). */
static int dies_from_capacity(const cfg *c, ssd_params *p, char *err, size_t errlen)
{
    const uint64_t gib = UINT64_C(1) << 30;
    uint64_t user = cfg_uint(c, "drive.user_capacity"), die = cfg_uint(c, "nand.die_capacity"), raw = gib;
    while (raw < user) raw *= 2;
    /* fewer dies than channels: the extra channels stay empty */
    if (raw % die == 0 && raw / die < p->channels) p->channels = (uint32_t)(raw / die);
    if (raw % die || (raw / die) % p->channels)
        return fail(err, errlen,
                    "'drive.dies_from' is capacity: %llu GiB of raw flash is not a whole number of %llu GiB dies on each of %u channels; expected a capacity whose raw flash fills every channel alike",
                    (unsigned long long)(raw / gib), (unsigned long long)(die / gib), p->channels);
    p->dies_per_channel = (uint32_t)(raw / die / p->channels);
    return 0;
}

static double encoding_efficiency(const char *name)
{
    if (strcmp(name, "8b10b") == 0) return 0.8;
    if (strcmp(name, "128b130b") == 0) return 128.0 / 130.0;
    return 1.0;
}

static void load_nand(ssd_params *p, const cfg *c)
{
    p->bits_per_cell = (uint32_t)cfg_uint(c, "nand.bits_per_cell");
    p->page_size = (uint32_t)cfg_uint(c, "nand.page_size");
    p->spare_size = (uint32_t)cfg_uint(c, "nand.spare_size");
    p->pages_per_block = (uint32_t)cfg_uint(c, "nand.pages_per_block");
    p->blocks_per_plane = (uint32_t)cfg_uint(c, "nand.blocks_per_plane");
    p->planes_per_die = (uint32_t)cfg_uint(c, "nand.planes_per_die");
    p->style = strcmp(cfg_str(c, "nand.program_style"), "one-shot") == 0 ? PROGRAM_ONE_SHOT : PROGRAM_MULTI_PASS;
    static const char *const types[MAX_BITS_PER_CELL] = {"lsb", "csb", "msb", "tsb"};
    /* With fewer bits per cell the upper page types fall away: MLC has
     * lower and upper (MSB) pages, SLC only lower ones. */
    static const int type_key[MAX_BITS_PER_CELL + 1][MAX_BITS_PER_CELL] = {
        {0}, {0}, {0, 2}, {0, 1, 2}, {0, 1, 2, 3}};
    for (uint32_t t = 0; t < p->bits_per_cell; t++) {
        char key[32];
        snprintf(key, sizeof key, "nand.t_read_%s", types[type_key[p->bits_per_cell][t]]);
        p->t_read[t] = cfg_uint(c, key);
        snprintf(key, sizeof key, "nand.t_prog_%s", types[type_key[p->bits_per_cell][t]]);
        p->t_prog[t] = cfg_uint(c, key);
    }
    if (p->style == PROGRAM_ONE_SHOT) p->t_prog[0] = cfg_uint(c, "nand.t_prog");
    p->t_erase = cfg_uint(c, "nand.t_erase");
    p->t_read_slc = cfg_uint(c, "nand.t_read_slc");
    p->t_prog_slc = cfg_uint(c, "nand.t_prog_slc");
    p->t_erase_slc = cfg_uint(c, "nand.t_erase_slc");
    p->pe_cycles = (uint32_t)cfg_uint(c, "nand.pe_cycles");
    p->cache_read = cfg_bool(c, "nand.cache_read");
    p->cache_program = cfg_bool(c, "nand.cache_program");
    p->suspend = cfg_bool(c, "nand.suspend");
    p->t_suspend = cfg_uint(c, "nand.t_suspend");
    p->read_retry = cfg_float(c, "controller.read_retry");
    p->read_retry_wear = cfg_float(c, "controller.read_retry_wear");
}

static int load_controller(ssd_params *p, const cfg *c, char *err, size_t errlen)
{
    p->channels = (uint32_t)cfg_uint(c, "controller.channels");
    p->dies_per_channel = (uint32_t)cfg_uint(c, "controller.dies_per_channel");
    if (!strcmp(cfg_str(c, "drive.dies_from"), "capacity") && dies_from_capacity(c, p, err, errlen)) return -1;
    p->dies = p->channels * p->dies_per_channel;
    double bytes_per_transfer = (double)cfg_uint(c, "controller.bus_width") / 8.0;
    uint64_t bus_rate = cfg_uint(c, "controller.bus_rate"), part_rate = cfg_uint(c, "nand.interface_rate");
    p->bus_bytes_per_ns = (double)(bus_rate < part_rate ? bus_rate : part_rate) * bytes_per_transfer * 1e-9;
    p->t_bus_command = cfg_uint(c, "controller.t_bus_command");
    p->cores = (uint32_t)cfg_uint(c, "controller.cores");
    p->fw_read = cfg_uint(c, "controller.fw_read");
    p->fw_write = cfg_uint(c, "controller.fw_write");
    p->fw_trim = cfg_uint(c, "controller.fw_trim");
    p->fw_per_unit = cfg_uint(c, "controller.fw_per_unit");
    p->fw_move_unit = cfg_uint(c, "controller.fw_move_unit");
    p->ecc_decode = cfg_uint(c, "controller.ecc_decode");
    p->host_dma_rate = cfg_uint(c, "controller.host_dma");
    p->memory_bandwidth = cfg_uint(c, "controller.memory_bandwidth");
    p->ecc_encode_rate = cfg_uint(c, "controller.ecc_encode_rate");
    p->ecc_decode_rate = cfg_uint(c, "controller.ecc_decode_rate");
    p->write_buffer = cfg_uint(c, "controller.write_buffer");
    p->read_cache = cfg_uint(c, "controller.read_cache");
    p->read_ahead_units = (uint32_t)(cfg_uint(c, "controller.read_ahead") / cfg_uint(c, "ftl.mapping_unit"));
    if (p->read_ahead_units && p->read_cache < 2 * cfg_uint(c, "controller.read_ahead"))
        p->read_cache = 2 * cfg_uint(c, "controller.read_ahead"); /* room for what is read ahead */
    p->flush_on_idle = strcmp(cfg_str(c, "controller.flush"), "idle") == 0;
    p->scheduler = cfg_choice(c, "controller.scheduler");
    const char *trim = cfg_str(c, "controller.trim_mode");
    p->trim = strcmp(trim, "blocking") == 0    ? TRIM_BLOCKING
            : strcmp(trim, "throttled") == 0 ? TRIM_THROTTLED
            : strcmp(trim, "deferred") == 0  ? TRIM_DEFERRED
                                             : TRIM_FREE;
    p->trim_ns_per_byte = (double)cfg_uint(c, "controller.trim_cost") / (double)(UINT64_C(1) << 30);
    p->trim_share = cfg_float(c, "controller.trim_share");
    p->trim_chunk = cfg_uint(c, "controller.trim_chunk");
    return 0;
}

/* The next entry of a comma-separated list (at *entry, *len long), moving
 * *at past it; false at the list's end. */
static bool next_entry(const char **at, const char **entry, size_t *len)
{
    if (!**at) return false;
    *entry = *at;
    *len = strcspn(*at, ",");
    *at += *len;
    if (**at == ',') ++*at;
    return true;
}

/* "urgent,high,,low": the class of each queue from 0 (empty: medium). */
static int load_queue_classes(ssd_params *p, const char *list, char *err, size_t errlen)
{
    static const char *const names[4] = {"urgent", "high", "medium", "low"};
    memset(p->queue_class, 2, sizeof p->queue_class);
    const char *entry;
    size_t len;
    for (uint32_t q = 0; next_entry(&list, &entry, &len); q++) {
        int cls = len ? -1 : 2;
        for (int i = 0; i < 4 && len; i++)
            if (strlen(names[i]) == len && !strncmp(entry, names[i], len)) cls = i;
        if (cls < 0 || q >= 64 || q >= p->host_queues)
            return fail(err, errlen, "key 'host.queue_classes': entry %u ('%.*s') %s; expected urgent, high, medium or low for each "
                        "of the first host.queues queues (at most 64)", q + 1, (int)(len < 20 ? len : 20), entry,
                        cls < 0 ? "is not a class" : "is past the last queue");
        p->queue_class[q] = (uint8_t)cls;
    }
    return 0;
}

/* "32,8,,4": the size of each queue from 0 (empty or 0: max_queue_depth). */
static int load_queue_depths(ssd_params *p, const char *list, char *err, size_t errlen)
{
    memset(p->queue_depth, 0, sizeof p->queue_depth);
    const char *entry;
    size_t len;
    for (uint32_t q = 0; next_entry(&list, &entry, &len); q++) {
        unsigned long v = 0;
        size_t digits = 0;
        while (digits < len && digits < 7 && isdigit((unsigned char)entry[digits])) v = v * 10 + (unsigned long)(entry[digits++] - '0');
        if (digits != len || v > 65536 || q >= 64 || q >= p->host_queues)
            return fail(err, errlen, "key 'host.queue_depths': entry %u is not a depth of 0 to 65536 for one of the first "
                        "host.queues queues; expected numbers separated by commas (at most 64)", q + 1);
        p->queue_depth[q] = (uint32_t)v;
    }
    return 0;
}

static int load_host(ssd_params *p, const cfg *c, char *err, size_t errlen)
{
    p->host = (host_kind)cfg_choice(c, "host.interface");
    double line_bits_per_ns = (double)cfg_uint(c, "host.link_rate") * (double)cfg_uint(c, "host.lanes") * 1e-9;
    /* SATA's frames are counted one by one (hil/protocol.c); what is left
     * of the coded rate is the two ALIGN primitives the link layer sends
     * in every 256 dwords (SATA 3.x, 7.4.3). PCIe's packets are not
     * counted: their headers are host.protocol_efficiency. */
    double framing = p->host == HOST_SATA ? 254.0 / 256.0 : cfg_float(c, "host.protocol_efficiency");
    p->link_bytes_per_ns = line_bits_per_ns * encoding_efficiency(cfg_str(c, "host.encoding")) * framing / 8.0;
    p->fis_time = cfg_uint(c, "host.fis_time");
    p->pcie_latency = cfg_uint(c, "host.pcie_latency");
    p->max_queue_depth = (uint32_t)cfg_uint(c, "host.max_queue_depth");
    p->host_queues = (uint32_t)cfg_uint(c, "host.queues");
    if (p->host == HOST_SATA && p->host_queues > 1)
        return fail(err, errlen, "key 'host.queues' is %u, but SATA has one command queue; expected 1 or host.interface=nvme",
                    p->host_queues);
    p->arbitration = cfg_choice(c, "host.arbitration");
    p->controller_commands = (uint32_t)cfg_uint(c, "host.controller_commands");
    p->arbitration_burst = (uint32_t)cfg_uint(c, "host.arbitration_burst");
    p->wrr_weight[1] = (uint32_t)cfg_uint(c, "host.wrr_weight_high");
    p->wrr_weight[2] = (uint32_t)cfg_uint(c, "host.wrr_weight_medium");
    p->wrr_weight[3] = (uint32_t)cfg_uint(c, "host.wrr_weight_low");
    if (load_queue_classes(p, cfg_str(c, "host.queue_classes"), err, errlen)) return -1;
    return load_queue_depths(p, cfg_str(c, "host.queue_depths"), err, errlen);
}

static void load_ftl(ssd_params *p, const cfg *c)
{
    p->unit = (uint32_t)cfg_uint(c, "ftl.mapping_unit");
    p->unit_shift = params_unit_shift(p->unit);
    p->gc_threshold = (uint32_t)cfg_uint(c, "ftl.gc.threshold");
    p->gc_reserve = (uint32_t)cfg_uint(c, "ftl.gc.reserve");
    p->gc_burst = (uint32_t)cfg_uint(c, "ftl.gc.burst");
    p->gc_burst_host_share = cfg_float(c, "ftl.gc.burst_host_share");
    p->gc_burst_victims = (uint32_t)cfg_uint(c, "ftl.gc.burst_victims");
    p->gc_policy = cfg_choice(c, "ftl.gc.policy");
    p->gc_d = (uint32_t)cfg_uint(c, "ftl.gc.d");
    p->reverse_map_share = cfg_float(c, "sim.reverse_map_share");
    p->warm_tables = (uint32_t)cfg_choice(c, "sim.warm_tables");
    p->order = cfg_choice(c, "ftl.alloc_order");
    p->gc_background_threshold = (uint32_t)cfg_uint(c, "ftl.gc.background_threshold");
    p->map_cached = strcmp(cfg_str(c, "ftl.mapping"), "cached") == 0;
    p->map_cache_policy = cfg_choice(c, "ftl.map_cache_policy");
    p->idle_time = cfg_uint(c, "ftl.idle_time");
    p->wear_leveling_spread = (uint32_t)cfg_uint(c, "ftl.wear_leveling_spread");
    const char *slc = cfg_str(c, "slc.cache");
    p->slc = strcmp(slc, "static") == 0 ? SLC_STATIC : strcmp(slc, "dynamic") == 0 ? SLC_DYNAMIC : SLC_NONE;
    p->slc_dynamic_share = cfg_float(c, "slc.dynamic_share");
    p->slc_fold_when_full = strcmp(cfg_str(c, "slc.when_full"), "fold") == 0;
    p->slc_fold_jobs = (uint32_t)cfg_uint(c, "slc.fold_jobs");
    p->slc_idle_fold_bytes_per_ns = (double)cfg_uint(c, "slc.idle_fold_rate") * 1e-9;
}

/* Units, program units, blocks and the mapping table's pieces, from the
 * keys; the limits of the mapping tables. */
static int derive_geometry(ssd_params *p, const cfg *c, char *err, size_t errlen)
{
    if (p->page_size % p->unit)
        return fail(err, errlen, "key 'nand.page_size' (%llu B) is not a multiple of 'ftl.mapping_unit' (%llu B)", (unsigned long long)(p->page_size), (unsigned long long)(p->unit));
    p->units_per_page = p->page_size / p->unit;
    p->pages_per_program = p->style == PROGRAM_ONE_SHOT ? p->bits_per_cell : 1;
    if (p->pages_per_block % p->pages_per_program)
        return fail(err, errlen, "key 'nand.pages_per_block' (%llu) is not a multiple of the pages of a one-shot word line (%llu)", (unsigned long long)(p->pages_per_block), (unsigned long long)(p->pages_per_program));
    p->multi_plane = cfg_bool(c, "nand.multi_plane");
    uint32_t planes_per_op = p->multi_plane ? p->planes_per_die : 1;
    p->units_per_program = p->pages_per_program * planes_per_op * p->units_per_page;
    uint64_t units_per_block = (uint64_t)p->pages_per_block * p->planes_per_die * p->units_per_page;
    if (units_per_block > UINT32_MAX / 2)
        return fail(err, errlen, "a block of %llu mapping units is too large (at most %llu)", (unsigned long long)(units_per_block), (unsigned long long)(UINT32_MAX / 2));
    p->units_per_block = (uint32_t)units_per_block;
    p->block_of_unit = divider_of(p->units_per_block);
    p->blocks_per_die = p->blocks_per_plane;
    p->die_of_block = divider_of(p->blocks_per_die);
    p->physical_units = (uint64_t)p->dies * p->blocks_per_die * p->units_per_block;
    if (p->physical_units >= UINT32_MAX)
        return fail(err, errlen, "the flash holds %llu mapping units; at most %llu fit the mapping table (raise 'ftl.mapping_unit')", (unsigned long long)(p->physical_units), (unsigned long long)(UINT32_MAX - 1));
    p->logical_units = cfg_uint(c, "drive.user_capacity") / p->unit;
    p->slc_units_per_block = p->units_per_block / p->bits_per_cell;
    /* The mapping table is stored in flash in pieces of one mapping unit. */
    uint64_t entry = cfg_uint(c, "ftl.map_entry_size");
    if (entry > p->unit)
        return fail(err, errlen, "key 'ftl.map_entry_size' (%llu B) is larger than a mapping unit (%llu B)",
                    (unsigned long long)entry, (unsigned long long)p->unit);
    if (p->logical_units >= FTL_LOGICAL_LIMIT)
        return fail(err, errlen, "'drive.user_capacity' holds %llu mapping units; at most %llu fit (raise 'ftl.mapping_unit')",
                    (unsigned long long)p->logical_units, (unsigned long long)FTL_LOGICAL_LIMIT - 1);
    p->map_entries_per_page = (uint32_t)(p->unit / entry);
    p->map_page_of = divider_of(p->map_entries_per_page);
    p->map_pages = (uint32_t)((p->logical_units + p->map_entries_per_page - 1) / p->map_entries_per_page);
    uint64_t dirty_limit = cfg_uint(c, "ftl.map_dirty_limit");
    if (p->map_cached && dirty_limit)
        return fail(err, errlen, "key 'ftl.map_dirty_limit' applies to 'ftl.mapping: dram'; a cached mapping writes back "
                                 "the dirty units that leave its cache ('ftl.map_cache'); expected 0 or 'ftl.mapping: dram'");
    uint64_t cache_pages = cfg_uint(c, "ftl.map_cache") / p->unit;
    if (p->map_cached && cache_pages == 0)
        return fail(err, errlen, "key 'ftl.map_cache' (%llu B) holds no translation unit of %llu B",
                    (unsigned long long)cfg_uint(c, "ftl.map_cache"), (unsigned long long)p->unit);
    /* A DRAM table with a dirty limit writes its units out through the
     * DRAM-less drive's cache, which then holds only the dirty units. */
    if (dirty_limit) {
        cache_pages = dirty_limit / p->unit;
        if (cache_pages == 0)
            return fail(err, errlen, "key 'ftl.map_dirty_limit' (%llu B) holds no translation unit of %llu B; expected "
                                     "0 (not modelled) or at least one unit",
                        (unsigned long long)dirty_limit, (unsigned long long)p->unit);
    }
    p->map_persisted = p->map_cached || dirty_limit;
    p->map_cache_pages = (uint32_t)(cache_pages < p->map_pages ? cache_pages : p->map_pages);
    return 0;
}

/* The SLC cache's blocks, and whether the spare area leaves GC its room. */
static int derive_slc_and_spare(ssd_params *p, const cfg *c, char *err, size_t errlen)
{
    uint32_t planes_per_op = p->multi_plane ? p->planes_per_die : 1;
    p->slc_units_per_program = planes_per_op * p->units_per_page;
    double slc_share = cfg_float(c, "slc.share");
    if (slc_share > 0 && cfg_uint(c, "slc.size") > 0)
        return fail(err, errlen, "keys 'slc.size' and 'slc.share' both give the SLC cache's size; expected one of them (set the other to 0)");
    uint64_t slc_units = slc_share > 0 ? (uint64_t)(slc_share * (double)p->logical_units) : cfg_uint(c, "slc.size") / p->unit;
    if (p->slc != SLC_NONE && slc_units == 0)
        return fail(err, errlen, "keys 'slc.size' and 'slc.share' give an empty cache while 'slc.cache' is on; expected the cache's size");
    if (p->slc != SLC_NONE && p->bits_per_cell == 1)
        return fail(err, errlen, "key 'slc.cache' is on for an SLC part ('nand.bits_per_cell' = 1)");
    uint64_t per_die_units = (slc_units + p->dies - 1) / p->dies;
    p->slc_blocks_per_die = p->slc == SLC_NONE ? 0
                          : (uint32_t)((per_die_units + p->slc_units_per_block - 1) / p->slc_units_per_block);
    /* A static cache keeps its blocks; a dynamic one takes free blocks only
     * while slc.dynamic_share of the free flash allows, so it may ask for more. */
    if (p->slc_blocks_per_die >= (p->slc == SLC_STATIC ? p->blocks_per_die / 2 : p->blocks_per_die))
        return fail(err, errlen, "key 'slc.size' asks for %llu SLC blocks per die, more than the die's %llu blocks allow (half of them for a static cache)", (unsigned long long)(p->slc_blocks_per_die), (unsigned long long)(p->blocks_per_die));
    if (p->gc_reserve >= p->gc_threshold)
        return fail(err, errlen, "key 'ftl.gc.reserve' (%llu) must be below 'ftl.gc.threshold' (%llu)", (unsigned long long)(p->gc_reserve), (unsigned long long)(p->gc_threshold));
    /* GC needs, on every die, the threshold's free blocks (and a burst's)
     * plus two open blocks (host and GC) beyond the user data. */
    /* A static SLC cache takes its blocks out of the spare area. */
    uint32_t static_slc = p->slc == SLC_STATIC ? p->slc_blocks_per_die : 0;
    uint64_t need = p->logical_units + (uint64_t)p->dies * (p->gc_threshold + p->gc_burst + 3 + static_slc) * p->units_per_block;
    p->min_blocks_per_die = (uint32_t)((need + (uint64_t)p->dies * p->units_per_block - 1) / ((uint64_t)p->dies * p->units_per_block));
    uint64_t conventional = (uint64_t)p->dies * params_conventional_blocks(p) * p->units_per_block; /* zones take the rest */
    if (need > conventional)
        return fail(err, errlen,
                    "'drive.user_capacity' leaves too little spare area: the flash holds %llu mapping units, the user "
                    "capacity and garbage collection need %llu", (unsigned long long)(conventional), (unsigned long long)(need));
    if (p->write_buffer < (uint64_t)p->units_per_program * p->unit)
        return fail(err, errlen, "key 'controller.write_buffer' (%llu B) must hold at least one program unit (%llu B)", (unsigned long long)(p->write_buffer), (unsigned long long)p->units_per_program * p->unit);
    return 0;
}

/* TRIM's firmware work, unless given per GiB (controller.trim_cost): each
 * unit trimmed costs two accesses to where the table lives (its mapping
 * entry, and its block's valid count), and on a DRAM-less drive each
 * translation unit of the range that is not cached is read from the flash
 * first (an array read of the mean page type, its transfer, its decode),
 * one after the other: the firmware walks the range in order. */
static void derive_trim(ssd_params *p, const cfg *c)
{
    if (p->trim_ns_per_byte > 0) return;
    sim_time_t access = cfg_uint(c, p->map_cached ? "controller.sram_access" : "controller.dram_access");
    p->trim_unit_ns = 2 * access;
    if (!p->map_cached) return;
    sim_time_t t_read = 0;
    for (uint32_t i = 0; i < p->bits_per_cell; i++) t_read += p->t_read[i];
    /* a translation unit is one mapping unit */
    p->trim_map_read_ns = t_read / p->bits_per_cell + params_bus_time(p, params_bus_bytes(p, 1)) + p->ecc_decode;
}

int ssd_params_load(ssd_params *p, const cfg *c, char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    load_nand(p, c);
    if (load_controller(p, c, err, errlen) || load_host(p, c, err, errlen)) return -1;
    load_ftl(p, c);
    if (derive_geometry(p, c, err, errlen) || params_load_zns(p, c, err, errlen)) return -1;
    if (derive_slc_and_spare(p, c, err, errlen) || params_load_fdp(p, c, err, errlen)) return -1;
    if (params_load_media(p, c, err, errlen) || params_load_powerloss(p, c, err, errlen)) return -1;
    derive_trim(p, c);
    return 0;
}
