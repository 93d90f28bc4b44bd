/* Fidelity of the timed SSD model against closed forms. Each test states
 * its formula; the parameters make one resource the bottleneck. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "sim_config.h"
#include "ssd.h"
#include "workload.h"

/* A small drive: 2 channels x 2 dies, 2 planes, 96-page blocks (3 MiB of
 * user data per multi-plane block), 64 blocks per plane: 768 MiB of flash. */
static const char *const base[] = {
    "controller.channels=2", "controller.dies_per_channel=2", "nand.planes_per_die=2", "nand.pages_per_block=96",
    "nand.blocks_per_plane=64", "nand.page_size=16KiB", "nand.spare_size=2KiB", "nand.bits_per_cell=3",
    "drive.user_capacity=600MB", "nand.t_read_lsb=50us", "nand.t_read_csb=50us", "nand.t_read_msb=50us",
    "controller.fw_read=5us", "controller.fw_write=5us", "controller.ecc_decode=2us", "controller.t_bus_command=200ns",
    "controller.bus_rate=533MT/s", "controller.cores=1", "host.interface=sata", "host.link_rate=6Gb/s",
    "host.encoding=8b10b", "host.fis_time=650ns", "host.max_queue_depth=256",
    "controller.write_buffer=16MiB", "workload.precondition=fill", "workload.warmup=2000"};

typedef struct bench {
    cfg *c;
    sim *s;
    ssd *d;
    workload *w;
    workload_result r;
} bench;

/* Opens the base drive with further overrides (NULL-terminated lists). */
static void open_bench_lists(bench *b, const char *const *a, const char *const *more)
{
    b->c = cfg_create(ssdlab_schema());
    for (size_t i = 0; i < sizeof base / sizeof base[0]; i++) cfg_set_override(b->c, base[i]);
    for (; a && *a; a++) cfg_set_override(b->c, *a);
    for (; more && *more; more++) cfg_set_override(b->c, *more);
    cr_assert_eq(cfg_error_count(b->c), 0, "%s", cfg_errors(b->c));
    sim_options o = sim_options_from_config(b->c);
    b->s = sim_create(&o);
    char err[512];
    b->d = ssd_create(b->s, b->c, err, sizeof err);
    cr_assert_not_null(b->d, "%s", err);
    b->w = workload_create(b->s, b->d, b->c, err, sizeof err);
    cr_assert_not_null(b->w, "%s", err);
}

#define open_bench(b, ...) open_bench_lists((b), (const char *const[]){__VA_ARGS__, NULL}, NULL)

static void run_bench(bench *b)
{
    workload_precondition(b->w);
    char err[512];
    cr_assert_eq(workload_run(b->w, &b->r, err, sizeof err), 0, "%s", err);
}

static void close_bench(bench *b)
{
    workload_free(b->w);
    ssd_free(b->d);
    sim_free(b->s);
    cfg_free(b->c);
}

/* Bus time of 4 KiB with its spare share (4096 + 512 B) at 533 MB/s, plus
 * 200 ns of command cycles; SATA link time of a 4 KiB command: its data at
 * 6 Gb/s x 0.8 (8b10b) x 254/256 (ALIGNs) = 595.3 MB/s, 6,880 ns, and five
 * FISes of 650 ns besides (command, accepted, DMA setup, data, set device
 * bits). Rounded to the nanosecond as the model rounds. */
static const double bus_4k = 200 + 8645, link_4k = 5 * 650 + 6880;

static double mean_latency(const bench *b, ssdlab_op op)
{
    ssdlab_stats st;
    ssd_stats(b->d, &st);
    return st.latency_sum_ns[op] / (double)st.completed[op];
}

static void within(double got, double want, double tol, const char *what)
{
    cr_assert_lt(fabs(got / want - 1), tol, "%s: simulated %.1f, closed form %.1f (%.2f%%)", what, got, want,
                 100 * (got / want - 1));
}

/* QD 1: latency = firmware + tR + bus transfer + ECC + host link transfer. */
Test(timing, qd1_random_read_latency_is_the_sum_of_its_stages)
{
    bench b;
    open_bench(&b, "workload.queue_depth=1", "workload.requests=5000", "workload.pattern=random");
    run_bench(&b);
    within(mean_latency(&b, SSDLAB_READ), 5000 + 50000 + bus_4k + 2000 + link_4k, 0.01, "QD1 read latency");
    close_bench(&b);
}

/* The same with tR by page type: LSB 40 us, CSB 70 us, MSB 55 us. Random
 * reads hit the three types equally often, so the mean tR is 55 us. */
Test(timing, qd1_read_latency_follows_the_page_type)
{
    bench b;
    open_bench(&b, "workload.queue_depth=1", "workload.requests=30000", "nand.t_read_lsb=40us",
               "nand.t_read_csb=70us", "nand.t_read_msb=55us", "workload.warmup=0");
    run_bench(&b);
    within(mean_latency(&b, SSDLAB_READ), 5000 + 55000 + bus_4k + 2000 + link_4k, 0.01, "QD1 read latency, mixed types");
    /* The p99 latency is that of the slowest page type. */
    /* (quantiles come from log bins 2.3 % wide) */
    within(ssd_latency_quantile(b.d, SSDLAB_READ, 0.99), 5000 + 70000 + bus_4k + 2000 + link_4k, 0.03, "p99 (CSB)");
    close_bench(&b);
}

/* One quantile for the run and for an interval: with one interval that
 * holds every request, its p99 is the run's. */
Test(timing, an_interval_p99_is_the_run_p99_over_the_same_requests)
{
    bench b;
    open_bench(&b, "workload.queue_depth=1", "workload.requests=20000", "nand.t_read_lsb=40us", "nand.t_read_csb=70us",
               "nand.t_read_msb=55us", "workload.warmup=0", "metrics.interval=1h");
    run_bench(&b);
    ssd_close_interval(b.d);
    size_t rows;
    const ssd_interval *iv = ssd_intervals(b.d, &rows);
    cr_assert_eq(rows, 1);
    double run_p99 = ssd_latency_quantile(b.d, SSDLAB_READ, 0.99) / 1000.0;
    cr_assert_float_eq(iv[0].p99_latency_us, run_p99, 1e-9 * run_p99, "interval p99 %.4f us, run p99 %.4f us",
                       iv[0].p99_latency_us, run_p99);
    /* and both are the slowest page type's latency (to the 2.3 % bins) */
    within(run_p99 * 1000.0, 5000 + 70000 + bus_4k + 2000 + link_4k, 0.03, "p99 (CSB)");
    close_bench(&b);
}

#define FAST_LINK "host.interface=nvme", "host.link_rate=8Gb/s", "host.lanes=4", "host.encoding=128b130b", \
                  "host.pcie_latency=0ns"

/* Deep queue: IOPS = the smallest of die-, channel-, link- and
 * controller-bound rates. */
static double deep_read_iops(const char *const *sets)
{
    static const char *const deep[] = {"workload.queue_depth=128", "workload.requests=60000", NULL};
    bench b;
    open_bench_lists(&b, deep, sets);
    run_bench(&b);
    double iops = b.r.iops;
    close_bench(&b);
    return iops;
}
#define DEEP_READ_IOPS(...) deep_read_iops((const char *const[]){__VA_ARGS__, NULL})

Test(timing, deep_queue_read_iops_controller_bound)
{
    /* 2 cores x 50 us: 40,000 IOPS; dies 4 / (20 us + 8.845 us) = 138,700; channels 2 / 8.845 us = 226,100 */
    double iops = DEEP_READ_IOPS("controller.fw_read=50us", "controller.cores=2", "nand.t_read_lsb=20us",
                                 "nand.t_read_csb=20us", "nand.t_read_msb=20us", FAST_LINK);
    within(iops, 2 / 50e-6, 0.03, "controller-bound IOPS");
}

Test(timing, deep_queue_read_iops_link_bound)
{
    /* SATA NCQ: 1 / (5 x 650 ns + 4096 B / 595.3 MB/s) = 98,717 IOPS, where SATA drives saturate (Samsung rates
     * the 850 EVO and 860 EVO at 98,000 QD32 4 KiB reads); firmware 4 x 1 us; dies 4 / 28.8 us = 138,700 */
    double iops = DEEP_READ_IOPS("controller.fw_read=1us", "controller.cores=4", "nand.t_read_lsb=20us",
                                 "nand.t_read_csb=20us", "nand.t_read_msb=20us");
    within(iops, 1e9 / link_4k, 0.03, "link-bound IOPS");
}

Test(timing, deep_queue_read_iops_channel_bound)
{
    /* One channel of 4 dies: 1 / 8.845 us = 113,060 IOPS; dies 4 / 28.8 us = 138,700 */
    double iops = DEEP_READ_IOPS("controller.channels=1", "controller.dies_per_channel=4", "controller.fw_read=1us",
                                 "nand.t_read_lsb=20us", "nand.t_read_csb=20us", "nand.t_read_msb=20us", FAST_LINK);
    within(iops, 1e9 / bus_4k, 0.03, "channel-bound IOPS");
}

Test(timing, deep_queue_read_iops_die_bound)
{
    /* 4 dies, each held for tR + its transfer: 4 / (100 us + 8.845 us) = 36,750 IOPS */
    double iops = DEEP_READ_IOPS("controller.fw_read=1us", "nand.t_read_lsb=100us", "nand.t_read_csb=100us",
                                 "nand.t_read_msb=100us", FAST_LINK);
    within(iops, 4e9 / (100000 + bus_4k), 0.03, "die-bound IOPS");
}

/* The controller's data path (datapath.h) caps a drive whose dies,
 * channels and link could go faster: here the dies give 138,700 IOPS, the
 * channels 226,100, the firmware 1,000,000 (1 us). */
#define FAST_ARRAY "controller.fw_read=1us", "nand.t_read_lsb=20us", "nand.t_read_csb=20us", "nand.t_read_msb=20us"

Test(timing, deep_queue_read_iops_decoder_bound)
{
    /* every 4 KiB read passes the decoders: 200 MB/s / 4096 B = 48,828 IOPS */
    double iops = DEEP_READ_IOPS("controller.ecc_decode_rate=200MB/s", FAST_ARRAY, FAST_LINK);
    within(iops, 200e6 / 4096, 0.03, "decoder-bound IOPS");
}

Test(timing, deep_queue_read_iops_host_dma_bound)
{
    /* the DMA engine moves each read's 4 KiB to the host: 300 MB/s / 4096 B = 73,242 IOPS (the link: 880,000) */
    double iops = DEEP_READ_IOPS("controller.host_dma=300MB/s", FAST_ARRAY, FAST_LINK);
    within(iops, 300e6 / 4096, 0.03, "host-DMA-bound IOPS");
}

Test(timing, deep_queue_read_iops_memory_bound)
{
    /* a read's data crosses the buffer memory twice (in from the channel,
     * out to the host): 400 MB/s / (2 x 4096 B) = 48,828 IOPS */
    double iops = DEEP_READ_IOPS("controller.memory_bandwidth=400MB/s", FAST_ARRAY, FAST_LINK);
    within(iops, 400e6 / (2 * 4096), 0.03, "memory-bound IOPS");
}

/* GC's bookkeeping takes the command cores' time: in GC steady state, with
 * 300 us per moved unit on the one core, the core is the bottleneck and
 * each host write costs fw_write + (units GC moves per host unit) x 300 us
 * (at 60 us the dies still bound it part of the time: 13 % below). */
Test(timing, gc_bookkeeping_takes_the_command_cores)
{
    bench b;
    open_bench(&b, "workload.queue_depth=32", "workload.requests=30000", "workload.read_share=0",
               "workload.pattern=random", "workload.precondition=steady", "controller.fw_move_unit=300us");
    run_bench(&b);
    ssdlab_stats st;
    ssd_stats(b.d, &st);
    cr_assert_gt(st.wa_gc, 0.5, "GC moves %.2f units per host unit", st.wa_gc);
    within(b.r.iops, 1e9 / (5000 + st.wa_gc * 300000), 0.03, "core-bound write IOPS under GC");
    close_bench(&b);
}

/* The write's path at QD 1, each stage once: NVMe: the doorbell (one way)
 * and the command's fetch (a round trip), firmware, the data read from
 * host memory (a round trip, then 4 KiB on four PCIe 3 lanes at 0.92:
 * 1,130 ns), placed in the buffer, the completion posted (one way). */
Test(timing, qd1_write_latency_nvme_is_its_path)
{
    bench b;
    open_bench(&b, "workload.queue_depth=1", "workload.requests=2000", "workload.read_share=0", "workload.precondition=none",
               "workload.warmup=0", "host.interface=nvme", "host.link_rate=8Gb/s", "host.lanes=4", "host.encoding=128b130b",
               "host.pcie_latency=300ns");
    run_bench(&b);
    within(mean_latency(&b, SSDLAB_WRITE), 3 * 300 + 5000 + 2 * 300 + 1130 + 300, 0.002, "NVMe QD1 write latency");
    close_bench(&b);
}

/* SATA: the command and its acceptance, firmware, DMA setup and the data
 * FIS, set device bits. */
Test(timing, qd1_write_latency_sata_is_its_path)
{
    bench b;
    open_bench(&b, "workload.queue_depth=1", "workload.requests=2000", "workload.read_share=0", "workload.precondition=none",
               "workload.warmup=0");
    run_bench(&b);
    within(mean_latency(&b, SSDLAB_WRITE), 2 * 650 + 5000 + 2 * 650 + 6880 + 650, 0.002, "SATA QD1 write latency");
    close_bench(&b);
}

/* Write amplification counts bytes: 4 KiB writes at a 2 KiB offset each
 * program two 4 KiB mapping units, so 1 + rmw = 2 and nothing else adds
 * (a fresh drive: no GC, no SLC cache, no padding); aligned, it is 1. */
static void write_amplification_of(const char *region_offset, double want_rmw)
{
    bench b;
    open_bench(&b, "workload.queue_depth=4", "workload.requests=2000", "workload.read_share=0", "workload.precondition=none",
               "workload.warmup=0", "workload.pattern=sequential", "workload.align=2KiB", region_offset);
    run_bench(&b);
    ssdlab_stats st;
    ssd_stats(b.d, &st);
    cr_assert_eq(st.bytes[SSDLAB_WRITE], 2000 * 4096);
    cr_assert_float_eq(st.wa_rmw, want_rmw, 1e-12, "rmw %.6f", st.wa_rmw);
    cr_assert_float_eq(st.write_amplification, 1 + want_rmw, 1e-12, "WA %.6f", st.write_amplification);
    cr_assert_eq(st.wa_fold + st.wa_gc + st.wa_map + st.wa_pad, 0);
    cr_assert_eq(st.slc_share, 0);
    close_bench(&b);
}

Test(timing, misaligned_writes_show_their_cost_in_write_amplification)
{
    write_amplification_of("workload.region_offset=2KiB", 1.0);
    write_amplification_of("workload.region_offset=0", 0.0);
}

/* Reads under GC: on a DRAM-less drive in GC steady state, with GC in
 * bursts, mixed reads and writes at QD 8, a read waits for what its die
 * has under way (suspended: t_suspend; or a read, tR + its transfer), the
 * reads ahead of it in its die's read class (at most the other 7 commands'
 * and a GC job's window of 8), a program's data on the channel, and that
 * twice (its translation unit, then its data); then ECC, the firmware of
 * the 8 commands and the link. Never the GC burst's programs and erases. */
static double read_p99_under_gc_us(const char *scheduler, double *bound_us)
{
    bench b;
    open_bench(&b, "ftl.mapping=cached", "ftl.map_cache=64KiB", "ftl.gc.burst=8", "ftl.gc.burst_host_share=5%",
               "nand.suspend=true", "nand.t_suspend=20us", "nand.t_prog=2ms", "nand.t_erase=5ms",
               "workload.precondition=steady", "workload.read_share=0.5", "workload.queue_depth=8",
               "workload.requests=60000", "workload.warmup=2000", scheduler);
    run_bench(&b);
    ssdlab_stats st;
    ssd_stats(b.d, &st);
    cr_assert_gt(st.gc_units_written, st.host_units_written / 2, "GC steady state: GC moved %llu units for %llu host units",
                 (unsigned long long)st.gc_units_written, (unsigned long long)st.host_units_written);
    const ssd_params *p = ssd_params_of(b.d);
    double tr = 50000, page = params_bus_time(p, p->page_size + p->spare_size), ahead = 7 + 8;
    double program_data = params_bus_time(p, (uint64_t)p->pages_per_program * p->planes_per_die * (p->page_size + p->spare_size));
    double at_die = (double)p->t_suspend + tr + page + program_data + ahead * (tr + page);
    *bound_us = (2 * at_die + 2 * 2000 + 8 * 5000 + 8 * link_4k) / 1000;
    double p99 = ssd_latency_quantile(b.d, SSDLAB_READ, 0.99) / 1000;
    close_bench(&b);
    return p99;
}

/* Measured: p99 1.1 ms against a bound of 3.3 ms; in submission order
 * (fifo) 12.6 ms, behind the burst's programs and erases. */
Test(timing, reads_under_gc_wait_for_the_die_not_for_the_burst)
{
    double bound, p99 = read_p99_under_gc_us("controller.scheduler=read-first", &bound);
    cr_assert_lt(p99, bound, "read p99 %.0f us under GC, bound %.0f us", p99, bound);
    /* without the read class's priority they do wait for the burst */
    double fifo = read_p99_under_gc_us("controller.scheduler=fifo", &bound);
    cr_assert_gt(fifo, bound, "fifo: read p99 %.0f us, bound %.0f us", fifo, bound);
}

static double seq_write_mib_s(const char *const *sets)
{
    static const char *const seq[] = {"workload.pattern=sequential", "workload.read_share=0", "workload.block_size=128KiB",
                                      "workload.queue_depth=32", "workload.requests=3000", "workload.warmup=300",
                                      "workload.precondition=none", "controller.write_buffer=1MiB", FAST_LINK, NULL};
    bench b;
    open_bench_lists(&b, seq, sets);
    run_bench(&b);
    double mib = b.r.mib_per_s;
    close_bench(&b);
    return mib;
}
#define SEQ_WRITE_MIB_S(...) seq_write_mib_s((const char *const[]){__VA_ARGS__, NULL})

/* One-shot TLC: a program writes a word line (3 pages) on both planes,
 * 96 KiB, after moving it and its spare (108 KiB) over the bus:
 * rate = 4 dies x 98,304 B / (200 ns + 110,592 B / 533 MB/s + 2 ms). */
Test(timing, sequential_write_one_shot_program_bound)
{
    double mib = SEQ_WRITE_MIB_S("nand.t_prog=2ms");
    double per_pu = 200 + 207490 + 2000000;
    within(mib, 4 * 98304 / (per_pu * 1e-9) / 1048576, 0.03, "one-shot sequential write MiB/s");
}

/* With fast programs (4 dies x 96 KiB / 407 us = 230 MiB/s) a sequential
 * write runs at the encoders' rate, 100 MB/s = 95.4 MiB/s; and at half the
 * buffer memory's, as each byte crosses it in from the host and out to a
 * channel: 200 MB/s / 2. */
Test(timing, sequential_write_encoder_and_memory_bound)
{
    within(SEQ_WRITE_MIB_S("nand.t_prog=200us", "controller.ecc_encode_rate=100MB/s"), 100e6 / 1048576, 0.03,
           "encoder-bound sequential write MiB/s");
    within(SEQ_WRITE_MIB_S("nand.t_prog=200us", "controller.memory_bandwidth=200MB/s"), 100e6 / 1048576, 0.03,
           "memory-bound sequential write MiB/s");
    /* and the encoder limits writes only: reads pass the decoder */
    cr_assert_gt(DEEP_READ_IOPS("controller.ecc_encode_rate=100MB/s", FAST_ARRAY, FAST_LINK), 130000);
}

/* Multi-pass MLC: one page per plane per program, LSB 500 us and MSB 2 ms
 * alternating: rate = 4 dies x 32 KiB / (200 ns + 36,864 B / 533 MB/s +
 * (0.5 + 2) / 2 ms). */
Test(timing, sequential_write_multi_pass_alternates_page_types)
{
    double mib = SEQ_WRITE_MIB_S("nand.bits_per_cell=2", "nand.program_style=multi-pass", "nand.t_prog_lsb=500us",
                                 "nand.t_prog_msb=2ms");
    double per_pu = 200 + 69163 + 1250000;
    within(mib, 4 * 32768 / (per_pu * 1e-9) / 1048576, 0.03, "multi-pass sequential write MiB/s");
}

/* Reads of never-written LBAs are answered without the flash: latency is
 * firmware plus the host transfer. */
Test(timing, unwritten_reads_touch_no_flash)
{
    bench b;
    open_bench(&b, "workload.queue_depth=1", "workload.requests=1000", "workload.precondition=none");
    run_bench(&b);
    ssdlab_stats st;
    ssd_stats(b.d, &st);
    cr_assert_eq(st.flash_reads, 0);
    within(mean_latency(&b, SSDLAB_READ), 5000 + link_4k, 0.001, "unwritten read latency");
    close_bench(&b);
}

/* DRAM-less: the table is 2,289 translation units of 64 entries (64 B
 * each, 4 KiB per unit) and the cache holds 256. Uniform random reads over
 * the drive hit the LRU cache with probability 256 / 2289, and each miss
 * costs one extra flash read of 4 KiB where the unit lives: tR + bus + ECC. */
Test(timing, cached_mapping_costs_one_flash_read_per_miss)
{
    bench b;
    open_bench(&b, "ftl.mapping=cached", "ftl.map_entry_size=64B", "ftl.map_cache=1MiB", "workload.queue_depth=1",
               "workload.requests=40000", "nand.t_read_slc=35us");
    run_bench(&b);
    const ssd_params *p = ssd_params_of(b.d);
    cr_assert_eq(p->map_pages, 2289);
    cr_assert_eq(p->map_cache_pages, 256);
    ssdlab_stats st;
    ssd_stats(b.d, &st);
    double miss = (double)st.map_misses / (double)st.completed[SSDLAB_READ];
    within(miss, 1 - 256.0 / 2289.0, 0.02, "mapping-cache miss rate");
    cr_assert_eq(st.flash_reads, st.completed[SSDLAB_READ] + st.map_misses, "one extra flash read per miss");
    within(mean_latency(&b, SSDLAB_READ), 5000 + 50000 + bus_4k + 2000 + link_4k + miss * (50000 + bus_4k + 2000), 0.01,
           "QD1 read latency with misses");
    close_bench(&b);
}

/* Writes dirty translation units; evicting a dirty one writes it to a new
 * place in its own blocks (GC relocations dirty units too, without a
 * miss). */
Test(timing, cached_mapping_writes_back_dirty_pages)
{
    bench b;
    open_bench(&b, "ftl.mapping=cached", "ftl.map_entry_size=64B", "ftl.map_cache=1MiB", "workload.queue_depth=4",
               "workload.requests=20000", "workload.read_share=0");
    run_bench(&b);
    ssdlab_stats st;
    ssd_stats(b.d, &st);
    /* nearly every write misses and, in steady state, evicts a dirty unit */
    cr_assert_geq(st.map_writebacks, st.map_misses * 98 / 100, "%llu write-backs, %llu misses",
                  (unsigned long long)st.map_writebacks, (unsigned long long)st.map_misses);
    cr_assert_leq(st.map_writebacks, st.map_misses * 11 / 10);
    cr_assert_eq(st.map_units_written, st.map_writebacks, "each write-back writes one translation unit");
    char err[256];
    cr_assert_eq(ftl_check(ssd_ftl(b.d), err, sizeof err), 0, "%s", err);
    close_bench(&b);
}

/* Energy: the idle floor (controller 0.3 W + link 0.05 W + DRAM 0.2 W +
 * 4 dies x 0.3 mW) over the simulated time, plus per QD1 4 KiB read:
 * tR 50 us x 50 mW, 4,608 bus bytes x 100 pJ, 5 us of firmware x (1.2 -
 * 0.3) W, 10,140 ns of link (four FISes and the data) x (0.5 - 0.05) W. */
Test(timing, energy_is_the_floor_plus_each_operation)
{
    bench b;
    open_bench(&b, "workload.queue_depth=1", "workload.requests=10000", "workload.warmup=0");
    run_bench(&b);
    ssdlab_stats st;
    ssd_stats(b.d, &st);
    double floor_w = 0.3 + 0.05 + 0.2 + 4 * 0.0003;
    double per_read = 50e-6 * 0.05 + 4608 * 100e-12 + 5e-6 * 0.9 + link_4k * 1e-9 * 0.45;
    double want = floor_w * (double)st.now * 1e-9 + (double)st.completed[SSDLAB_READ] * per_read;
    within(st.energy_j, want, 0.001, "energy (J)");
    close_bench(&b);
}

/* Lumped thermal model: under a steady load the temperature settles at
 * ambient + average power x R (time constant R C = 20 K/W x 0.05 J/K = 1 s,
 * run for 10 s). */
Test(timing, temperature_settles_at_ambient_plus_power_times_resistance)
{
    bench b;
    open_bench(&b, "thermal.model=lumped", "thermal.heat_capacity=0.05", "thermal.resistance=20",
               "workload.read_share=0", "workload.duration=10s", "workload.requests=0", "workload.warmup=0",
               "thermal.throttle_at=200", "thermal.resume_at=190");
    run_bench(&b);
    ssdlab_stats st;
    ssd_stats(b.d, &st);
    within(st.temperature_c, 25 + st.average_power_w * 20, 0.03, "temperature (C)");
    cr_assert_eq(st.throttled_s, 0);
    close_bench(&b);
}

/* Throttled for the whole run (throttle_at below the idle temperature),
 * every array operation takes twice as long: die-bound reads fall from
 * 4 / (100 us + 8.845 us) to 4 / (200 us + 8.845 us). */
Test(timing, thermal_throttling_slows_the_nand)
{
    double normal = DEEP_READ_IOPS("controller.fw_read=1us", "nand.t_read_lsb=100us", "nand.t_read_csb=100us",
                                   "nand.t_read_msb=100us", FAST_LINK);
    double hot = DEEP_READ_IOPS("controller.fw_read=1us", "nand.t_read_lsb=100us", "nand.t_read_csb=100us",
                                "nand.t_read_msb=100us", FAST_LINK, "thermal.model=lumped", "thermal.throttle_at=0",
                                "thermal.resume_at=-10", "thermal.throttle_slowdown=2");
    within(normal, 4e9 / (100000 + bus_4k), 0.03, "die-bound IOPS");
    within(hot, 4e9 / (200000 + bus_4k), 0.03, "die-bound IOPS while throttled");
}

/* Read retry with probability p: reads per page are geometric, mean
 * 1 / (1 - p); each retry costs another tR + bus + ECC. */
Test(timing, read_retry_costs_another_read_per_retry)
{
    bench b;
    open_bench(&b, "controller.read_retry=0.2", "workload.queue_depth=1", "workload.requests=40000");
    run_bench(&b);
    ssdlab_stats st;
    ssd_stats(b.d, &st);
    within((double)st.flash_reads / (double)st.completed[SSDLAB_READ], 1 / 0.8, 0.02, "flash reads per host read");
    within(mean_latency(&b, SSDLAB_READ), 5000 + 50000 + bus_4k + 2000 + link_4k + 0.25 * (50000 + bus_4k + 2000), 0.02,
           "QD1 latency with retries");
    close_bench(&b);
}

/* Cache read: a die senses its next page while the last one moves out, so
 * die-bound reads run at dies / tR instead of dies / (tR + bus). */
Test(timing, cache_read_overlaps_sensing_and_transfer)
{
    double iops = DEEP_READ_IOPS("controller.fw_read=1us", "nand.t_read_lsb=100us", "nand.t_read_csb=100us",
                                 "nand.t_read_msb=100us", "nand.cache_read=true", FAST_LINK);
    within(iops, 4e9 / 100000, 0.03, "die-bound IOPS with cache read");
}

/* Cache program: the next word line's data moves in during the current
 * program, so a die writes a program unit every tPROG. */
Test(timing, cache_program_overlaps_transfer_and_programming)
{
    double mib = SEQ_WRITE_MIB_S("nand.t_prog=2ms", "nand.cache_program=true");
    within(mib, 4 * 98304 / 2e-3 / 1048576, 0.03, "one-shot sequential write MiB/s with cache program");
}

static void nothing(ssdlab_request *q, void *ctx)
{
    (void)q, (void)ctx;
}

/* Suspend: a read arriving while its die programs (2 ms, from about 390 us
 * on: data-in of 96 KiB over SATA, then over the bus) waits for the whole
 * program without suspension; with it, the read goes at once and the
 * program pays t_suspend on top of the read's time. */
static sim_time_t read_behind_program(const char *suspend)
{
    bench b;
    open_bench(&b, "controller.channels=1", "controller.dies_per_channel=1", "drive.user_capacity=100MB",
               "nand.t_prog=2ms", "nand.t_suspend=20us", suspend, "controller.write_buffer=1MiB");
    workload_precondition(b.w);
    ssdlab_request w = {.op = SSDLAB_WRITE, .offset = 0, .bytes = 98304};
    ssdlab_request r = {.op = SSDLAB_READ, .offset = 50 << 20, .bytes = 4096};
    cr_assert_eq(ssd_submit(b.d, &w, nothing, NULL), 0);
    sim_run(b.s, SIM_US(600)); /* the program unit is full: its program runs */
    cr_assert_eq(ssd_submit(b.d, &r, nothing, NULL), 0);
    sim_run(b.s, SIM_TIME_MAX);
    close_bench(&b);
    return r.finish - r.arrival;
}

Test(timing, suspend_lets_reads_past_programs)
{
    sim_time_t plain = read_behind_program("nand.suspend=false");
    sim_time_t suspended = read_behind_program("nand.suspend=true");
    double normal = 5000 + 50000 + bus_4k + 2000 + link_4k;
    cr_assert_gt((double)plain, normal + 1.5e6, "without suspend the read waits for the program: %llu ns",
                 (unsigned long long)plain);
    within((double)suspended, normal, 0.01, "read latency with suspend");
}

/* Transaction scheduling: with reads first, a read waits for at most the
 * operation under way on its die; in arrival order it also waits for the
 * programs queued before it, so its tail latency is longer. */
Test(timing, reads_first_scheduling_shortens_read_tails)
{
    double p99[2];
    const char *names[] = {"controller.scheduler=read-first", "controller.scheduler=fifo"};
    for (int i = 0; i < 2; i++) {
        bench b;
        open_bench(&b, names[i], "workload.read_share=20%", "workload.queue_depth=32", "workload.requests=40000",
                   "controller.write_buffer=16MiB", FAST_LINK);
        run_bench(&b);
        p99[i] = ssd_latency_quantile(b.d, SSDLAB_READ, 0.99);
        close_bench(&b);
    }
    cr_assert_lt(p99[0] * 1.5, p99[1], "read p99: reads first %.0f ns, arrival order %.0f ns", p99[0], p99[1]);
}

/* DRAM read cache: a region that fits is read from flash once; a region
 * four times the cache hits about a quarter of the time (uniform access). */
static double read_cache_hit_rate(const char *region)
{
    bench b;
    open_bench(&b, "controller.read_cache=16MiB", "workload.region_size=16MiB", region, "workload.queue_depth=4",
               "workload.requests=100000", "workload.warmup=20000");
    run_bench(&b);
    ssdlab_stats st;
    ssd_stats(b.d, &st);
    double rate = (double)st.read_cache_hits / (double)st.completed[SSDLAB_READ];
    /* each read is a hit or a flash read (up to the 4 in flight at the reset) */
    double diff = (double)(st.flash_reads + st.read_cache_hits) - (double)st.completed[SSDLAB_READ];
    cr_assert(fabs(diff) <= 4, "hits + flash reads - reads = %.0f", diff);
    close_bench(&b);
    return rate;
}

Test(timing, read_cache_hits)
{
    within(read_cache_hit_rate("workload.region_size=8MiB"), 1.0, 0.001, "hit rate, region half the cache");
    within(read_cache_hit_rate("workload.region_size=64MiB"), 0.25, 0.05, "hit rate, region 4 x the cache");
}

/* Read-modify-write: a 512 B write into a 4 KiB unit held in flash first
 * reads the unit (tR + bus + ECC), then goes on as a write; an aligned
 * 4 KiB write does not read. One write on a filled drive each. */
static sim_time_t one_write_latency(uint64_t offset, uint32_t bytes, uint64_t *flash_reads)
{
    bench b;
    open_bench(&b, FAST_LINK);
    workload_precondition(b.w);
    ssdlab_request w = {.op = SSDLAB_WRITE, .offset = offset, .bytes = bytes};
    cr_assert_eq(ssd_submit(b.d, &w, nothing, NULL), 0);
    sim_run(b.s, SIM_TIME_MAX);
    ssdlab_stats st;
    ssd_stats(b.d, &st);
    *flash_reads = st.flash_reads;
    close_bench(&b);
    return w.finish - w.arrival;
}

Test(timing, partial_writes_read_modify_write)
{
    uint64_t reads_whole, reads_part, reads_spanning;
    double whole = (double)one_write_latency(1 << 20, 4096, &reads_whole);
    double part = (double)one_write_latency((1 << 20) + 1024, 512, &reads_part);
    cr_assert_eq(reads_whole, 0);
    cr_assert_eq(reads_part, 1);
    /* the 512 B write also moves 3.5 KiB less over the link */
    double link_saved = (4096.0 - 512) / (8 * 4 * 128.0 / 130 * 0.92 / 8);
    within(part - whole, 50000 + bus_4k + 2000 - link_saved, 0.01, "extra latency of a partial write");
    /* 5 KiB from the middle of a unit to the middle of the next: both edge
     * units are merged */
    one_write_latency((1 << 20) + 2048, 5120, &reads_spanning);
    cr_assert_eq(reads_spanning, 2);
}

/* Per-die counters: at QD1 with 4 dies, each die serves about a quarter of
 * the reads and is busy tR + bus per read. */
Test(timing, per_die_counters)
{
    bench b;
    open_bench(&b, "workload.queue_depth=1", "workload.requests=20000", "workload.warmup=0");
    run_bench(&b);
    uint64_t reads = 0;
    for (uint32_t die = 0; die < 4; die++) {
        ssd_die_counts dc;
        ssd_die_stats(b.d, die, &dc);
        within((double)dc.reads, 5000, 0.05, "reads of one die");
        within((double)dc.busy_ns, (double)dc.reads * (50000 + bus_4k), 0.001, "busy time of one die");
        reads += dc.reads;
    }
    cr_assert_eq(reads, 20000);
    close_bench(&b);
}

/* Busy time is time that has passed: a write run ends when its last write
 * is acknowledged from the buffer, with programs still under way, and no
 * die may then count more busy time than the run's length. */
Test(timing, die_busy_time_ends_now)
{
    bench b;
    open_bench(&b, "workload.queue_depth=4", "workload.requests=300", "workload.read_share=0", "workload.warmup=0",
               "workload.precondition=none");
    run_bench(&b);
    sim_time_t now = sim_now(b.s), busiest = 0;
    for (uint32_t die = 0; die < 4; die++) {
        ssd_die_counts dc;
        ssd_die_stats(b.d, die, &dc);
        if (dc.busy_ns > busiest) busiest = dc.busy_ns;
    }
    cr_assert_gt(busiest, 0);
    cr_assert_leq(busiest, now, "a die busy %llu ns of %llu", (unsigned long long)busiest, (unsigned long long)now);
    close_bench(&b);
}

/* NVMe submission queues: each holds host.max_queue_depth commands; more
 * wait at the host, queue by queue. */
Test(timing, submission_queues_limit_outstanding_commands)
{
    bench b;
    open_bench(&b, FAST_LINK, "host.queues=4", "host.max_queue_depth=8");
    static ssdlab_request reqs[40];
    for (int i = 0; i < 40; i++) {
        reqs[i] = (ssdlab_request){.op = SSDLAB_READ, .offset = (uint64_t)i * 4096, .bytes = 4096,
                                   .queue = i < 20 ? 0 : 1 + i % 3};
        cr_assert_eq(ssd_submit(b.d, &reqs[i], nothing, NULL), 0);
    }
    /* queue 0: 8 of 20 admitted; queues 1-3: 20 commands spread 7/7/6, all fit */
    cr_assert_eq(ssd_outstanding(b.d), 8 + 20);
    ssdlab_request bad = {.op = SSDLAB_READ, .offset = 0, .bytes = 4096, .queue = 4};
    cr_assert_eq(ssd_submit(b.d, &bad, nothing, NULL), -1, "queue 4 does not exist");
    sim_run(b.s, SIM_TIME_MAX);
    cr_assert_eq(ssd_outstanding(b.d), 0);
    for (int i = 0; i < 40; i++) cr_assert_gt(reqs[i].finish, 0);
    close_bench(&b);
    cfg *c = cfg_create(ssdlab_schema());
    cfg_set_override(c, "host.queues=2");
    ssd_params p;
    char err[256];
    cr_assert_eq(ssd_params_load(&p, c, err, sizeof err), -1);
    cr_assert(strstr(err, "SATA has one command queue"), "%s", err);
    cfg_free(c);
}

/* Buffer flush: ten 4 KiB writes fill less than a program unit. With
 * controller.flush=full they wait in the buffer (a read of them touches no
 * flash); with idle, the unit is padded and programmed once the drive idles,
 * and the same read goes to the flash. */
static uint64_t flash_reads_after_idle(const char *flush)
{
    bench b;
    open_bench(&b, flush, "ftl.idle_time=1ms", "workload.precondition=none");
    static ssdlab_request w[10];
    for (int i = 0; i < 10; i++) {
        w[i] = (ssdlab_request){.op = SSDLAB_WRITE, .offset = (uint64_t)i * 4096, .bytes = 4096};
        cr_assert_eq(ssd_submit(b.d, &w[i], nothing, NULL), 0);
    }
    sim_run(b.s, SIM_TIME_MAX); /* writes complete, the drive idles, any flush runs */
    ssd_reset_stats(b.d);
    ssdlab_request r = {.op = SSDLAB_READ, .offset = 4096, .bytes = 4096};
    cr_assert_eq(ssd_submit(b.d, &r, nothing, NULL), 0);
    sim_run(b.s, SIM_TIME_MAX);
    ssdlab_stats st;
    ssd_stats(b.d, &st);
    char err[256];
    cr_assert_eq(ftl_check(ssd_ftl(b.d), err, sizeof err), 0, "%s", err);
    close_bench(&b);
    return st.flash_reads;
}

Test(timing, idle_flush_programs_part_filled_units)
{
    cr_assert_eq(flash_reads_after_idle("controller.flush=full"), 0);
    cr_assert_eq(flash_reads_after_idle("controller.flush=idle"), 1);
}

/* Without multi-plane operations a program covers one plane: a die writes
 * a 48 KiB word line (+6 KiB spare over the bus) per tPROG. */
Test(timing, single_plane_programs_halve_the_program_unit)
{
    double mib = SEQ_WRITE_MIB_S("nand.t_prog=2ms", "nand.multi_plane=false");
    within(mib, 4 * 49152 / ((200 + 103745 + 2000000) * 1e-9) / 1048576, 0.03, "single-plane sequential write MiB/s");
}

/* With a mapping unit coarser than the writes, the time series reports what
 * the host sent (4 KiB a request), while the flash programs a whole 16 KiB
 * unit for each: four times as much before any GC. */
Test(timing, time_series_counts_host_bytes_not_units)
{
    bench b;
    open_bench(&b, "ftl.mapping_unit=16KiB", "workload.pattern=random", "workload.read_share=0",
               "workload.block_size=4KiB", "workload.queue_depth=8", "workload.requests=4000", "workload.warmup=0",
               "workload.precondition=none", "metrics.interval=1ms");
    run_bench(&b);
    ssd_close_interval(b.d);
    size_t n;
    const ssd_interval *rows = ssd_intervals(b.d, &n);
    cr_assert_gt(n, 1);
    double gib = (double)(UINT64_C(1) << 30);
    cr_assert_eq(rows[n - 1].host_gib_written * gib, 4000.0 * 4096, "host bytes %.0f",
                 rows[n - 1].host_gib_written * gib);
    cr_assert_geq(rows[n - 1].flash_gib_written, 4 * rows[n - 1].host_gib_written * 0.99,
                  "flash %.6f GiB for %.6f GiB of host writes", rows[n - 1].flash_gib_written,
                  rows[n - 1].host_gib_written);
    close_bench(&b);
}

/* Busy time is time with something under way, counted once: with cache
 * read, a die senses the next page while the last one moves out, and a
 * die-bound deep queue keeps every die busy nearly all the time, never
 * more (summing the sensing and the transfers gave 109 %). */
Test(timing, busy_time_counts_overlaps_once)
{
    static const char *const deep[] = {"workload.queue_depth=128", "workload.requests=60000", NULL};
    bench b;
    open_bench_lists(&b, deep,
                     (const char *const[]){"controller.fw_read=1us", "nand.t_read_lsb=100us", "nand.t_read_csb=100us",
                                           "nand.t_read_msb=100us", "nand.cache_read=true", FAST_LINK, NULL});
    run_bench(&b);
    double elapsed = (double)sim_now(b.s);
    for (uint32_t die = 0; die < 4; die++) {
        ssd_die_counts dc;
        ssd_die_stats(b.d, die, &dc);
        cr_assert_leq((double)dc.busy_ns, elapsed, "die %u busy %.0f of %.0f ns", die, (double)dc.busy_ns, elapsed);
        cr_assert_geq((double)dc.busy_ns, 0.9 * elapsed, "die %u busy %.0f of %.0f ns", die, (double)dc.busy_ns, elapsed);
    }
    close_bench(&b);
}

/* How much of the reverse map the simulator keeps changes no result: the
 * timed path's GC (greedy, and cost-benefit with wear levelling), SLC
 * folding and read cache run the same with the whole map and with the
 * fewest blocks covered (refilled from the mapping table again and again);
 * so does a DRAM-less drive, whose blocks of translation units alone,
 * when a refill has dropped them, are covered one at a time from their
 * own table. */
/* Two runs that must not differ: the same end, flash work and latencies. */
static void assert_same_run(const ssdlab_stats *a, const ssdlab_stats *b, sim_time_t end_a, sim_time_t end_b, int setup)
{
    cr_assert_eq(end_a, end_b, "setup %d", setup);
    cr_assert_eq(a->gc_units_written, b->gc_units_written, "setup %d", setup);
    cr_assert_eq(a->erases, b->erases, "setup %d", setup);
    cr_assert_eq(a->flash_reads, b->flash_reads, "setup %d", setup);
    cr_assert_eq(a->read_cache_hits, b->read_cache_hits, "setup %d", setup);
    cr_assert_eq(a->map_units_written, b->map_units_written, "setup %d", setup);
    cr_assert_eq(a->fold_units_written, b->fold_units_written, "setup %d", setup);
    for (int c = 0; c < SSDLAB_CLASSES; c++)
        cr_assert_eq(a->latency_sum_ns[c], b->latency_sum_ns[c], "setup %d class %d", setup, c);
}

static void run_with_share(const char *share, const char *const *setup, ssdlab_stats *st, sim_time_t *end, uint64_t *refills,
                           uint64_t *block_fills)
{
    bench b;
    const char *more[] = {share, NULL};
    open_bench_lists(&b, setup, more);
    run_bench(&b);
    ssd_stats(b.d, st);
    *end = sim_now(b.s);
    *refills = ssd_ftl(b.d)->rm.refills;
    *block_fills = ssd_ftl(b.d)->rm.block_fills;
    char err[256];
    cr_assert_eq(ftl_check(ssd_ftl(b.d), err, sizeof err), 0, "%s", err);
    close_bench(&b);
}

Test(timing, reverse_map_share_changes_no_result)
{
    const char *const dram[] = {"workload.precondition=steady", "workload.requests=40000", "workload.read_share=0.3",
                                "slc.cache=dynamic", "slc.share=10%", "controller.read_cache=1MiB", NULL};
    const char *const levelled[] = {"ftl.gc.policy=cost-benefit", "ftl.wear_leveling_spread=4", "workload.precondition=steady",
                                    "workload.requests=40000", "workload.read_share=0", NULL};
    const char *const dramless[] = {"ftl.mapping=cached", "ftl.map_cache=64KiB", "workload.precondition=steady",
                                    "workload.requests=40000", "workload.read_share=0", NULL};
    const char *const *setups[] = {dram, levelled, dramless};
    for (int i = 0; i < 3; i++) {
        ssdlab_stats whole, least;
        sim_time_t end_whole, end_least;
        uint64_t refills_whole, refills_least, fills_whole, fills_least;
        run_with_share("sim.reverse_map_share=1", setups[i], &whole, &end_whole, &refills_whole, &fills_whole);
        run_with_share("sim.reverse_map_share=0", setups[i], &least, &end_least, &refills_least, &fills_least);
        cr_assert_eq(refills_whole, 0);
        cr_assert_gt(refills_least, 10, "setup %d: %llu refills", i, (unsigned long long)refills_least);
        if (i == 2) {
            /* with the whole map, translation units' blocks took their slots
             * when opened; with the fewest slots, those GC picked were
             * covered one at a time from their own table */
            cr_assert_eq(fills_whole, 0, "%llu blocks of translation units covered when picked", (unsigned long long)fills_whole);
            cr_assert_gt(fills_least, 10, "%llu blocks of translation units covered when picked", (unsigned long long)fills_least);
        }
        cr_assert_gt(whole.gc_units_written, 10000, "setup %d: GC moves data (%llu units)", i, (unsigned long long)whole.gc_units_written);
        assert_same_run(&whole, &least, end_whole, end_least, i);
    }
}

typedef struct warm_counts {
    uint64_t units;      /* units whose entries were loaded or fetched (ssd_warmed) */
    uint64_t old_places; /* write units whose old places were loaded or fetched (ssd_warmed_overwrites) */
    uint64_t admits;     /* writes warmed as the buffer let them in */
} warm_counts;

static void run_warmed(const char *warm, const char *const *setup, ssdlab_stats *st, sim_time_t *end, warm_counts *n)
{
    bench b;
    const char *more[] = {warm, NULL};
    open_bench_lists(&b, setup, more);
    run_bench(&b);
    ssd_stats(b.d, st);
    *end = sim_now(b.s);
    n->units = ssd_warmed(b.d);
    n->old_places = ssd_warmed_overwrites(b.d);
    n->admits = ssd_admits_warmed(b.d);
    close_bench(&b);
}

/* The lookahead guesses from a copy of the workload's stream and the drive
 * only loads table entries for the guesses: every result is the same with
 * it and without it, on a DRAM map and on a mapping cache. */
Test(timing, warm_tables_changes_no_result)
{
    const char *const dram[] = {"workload.precondition=steady", "workload.requests=30000", "workload.read_share=0.5",
                                "workload.pattern=hotcold", "controller.write_buffer=1MiB", NULL};
    const char *const dramless[] = {"ftl.mapping=cached", "ftl.map_cache=64KiB", "workload.precondition=steady",
                                    "workload.requests=40000", "workload.read_share=0.2", NULL};
    const char *const *setups[] = {dram, dramless};
    for (int i = 0; i < 2; i++) {
        ssdlab_stats on, off;
        sim_time_t end_on, end_off;
        warm_counts won, woff;
        run_warmed("sim.warm_tables=on", setups[i], &on, &end_on, &won);
        run_warmed("sim.warm_tables=off", setups[i], &off, &end_off, &woff);
        /* every request of the warm-up and the run, guessed in whole batches */
        cr_assert_geq(won.units, 32000, "setup %d: %llu units warmed", i, (unsigned long long)won.units);
        /* and every write's old place, fetched a batch after its entry: the
         * measured writes alone are a lower bound */
        cr_assert_geq(won.old_places, on.host_units_written, "setup %d: %llu old places warmed, %llu writes measured", i,
                      (unsigned long long)won.old_places, (unsigned long long)on.host_units_written);
        cr_assert_eq(woff.units + woff.old_places, 0);
        /* GC holds the writes back: the buffer fills, and the writes let in
         * after a wait had their tables loaded as they came in */
        cr_assert_gt(won.admits, 1000, "setup %d: %llu writes warmed as admitted", i, (unsigned long long)won.admits);
        cr_assert_eq(woff.admits, 0);
        cr_assert_gt(on.gc_units_written, 1000, "setup %d: GC moves data (%llu units)", i, (unsigned long long)on.gc_units_written);
        assert_same_run(&on, &off, end_on, end_off, i);
    }
}

/* A translation unit pushed out dirty is written back, whatever the GC
 * reserve: when its die has no block it may take, it is owed and written
 * once GC frees one, never dropped. GC holds this drive's dies at the
 * reserve, where 87 % of the write-backs asked for were dropped before
 * (105,406). Every one asked for in the run is written, still owed, or
 * merged into one owed already; and some were owed. */
Test(timing, dramless_write_backs_are_never_dropped)
{
    bench b;
    open_bench(&b, "ftl.mapping=cached", "ftl.map_cache=64KiB", "workload.precondition=steady", "workload.requests=40000",
               "workload.read_share=0", "drive.user_capacity=700MB");
    workload_precondition(b.w);
    uint64_t merged0, owed0 = ssd_map_owed(b.d, &merged0), merged, owed;
    char err[512];
    cr_assert_eq(workload_run(b.w, &b.r, err, sizeof err), 0, "%s", err);
    ssdlab_stats st;
    ssd_stats(b.d, &st);
    owed = ssd_map_owed(b.d, &merged);
    cr_assert_gt(st.map_writebacks, 40000, "%llu write-backs asked for", (unsigned long long)st.map_writebacks);
    cr_assert_gt(merged - merged0, 1000, "%llu merged into owed ones", (unsigned long long)(merged - merged0));
    cr_assert_eq(st.map_units_written + owed + (merged - merged0), st.map_writebacks + owed0,
                 "asked %llu, written %llu, owed %llu then %llu, merged %llu", (unsigned long long)st.map_writebacks,
                 (unsigned long long)st.map_units_written, (unsigned long long)owed0, (unsigned long long)owed,
                 (unsigned long long)(merged - merged0));
    cr_assert_eq(ssd_check(b.d, err, sizeof err), 0, "%s", err);
    close_bench(&b);
}
