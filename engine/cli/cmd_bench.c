/* ssdlab bench engine: the classic "hold" benchmark of a pending-event set
 * (Vaucher and Duval 1975; Jones 1986): with N events pending, repeatedly
 * remove the earliest and insert one at its time plus a random increment.
 * Here each hold runs through the simulator's own loop: pop, dispatch to a
 * registered handler, which schedules its successor. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include <gsl/gsl_randist.h>

#include <sys/resource.h>

#include "cli.h"
#include "sim.h"
#include "sim_config.h"
#include "ssd.h"
#include "workload.h"

static const char help[] =
    "Usage: ssdlab bench engine [--holds N] [--seed N]\n\n"
    "Hold benchmark of the event core at 10^2, 10^4 and 10^6 pending events:\n"
    "prints ns per hold and holds per second for each size. Increments are\n"
    "exponential (mean 1 us), drawn with GSL before timing so that the figure\n"
    "measures the event core, not the random-number generator.\n\n"
    "  --holds N   holds timed per size (default 10000000)\n"
    "  --seed N    seed of the increments (default 1)\n";

enum { INCREMENTS = 1 << 20 };

typedef struct hold_state {
    const sim_time_t *increments;
    uint64_t next, remaining;
    sim_handler_id handler;
} hold_state;

static void on_hold(sim *s, void *ctx, void *obj, uint64_t arg)
{
    (void)obj, (void)arg;
    hold_state *h = ctx;
    sim_schedule_in(s, h->increments[h->next++ & (INCREMENTS - 1)], h->handler, NULL, 0);
    if (--h->remaining == 0) sim_request_stop(s);
}

static double run_holds(sim *s, hold_state *h, uint64_t holds)
{
    h->remaining = holds;
    double t0 = cli_wall_seconds();
    sim_run(s, SIM_TIME_MAX);
    return cli_wall_seconds() - t0;
}

static int bench_size(uint32_t pending, uint64_t holds, const sim_time_t *inc)
{
    sim_options so = {.seed = 1, .event_reserve = pending + 1};
    sim *s = sim_create(&so);
    if (!s) return -1;
    hold_state h = {.increments = inc};
    h.handler = sim_register_handler(s, "hold", on_hold, &h);
    for (uint32_t i = 0; i < pending; i++) sim_schedule_at(s, inc[h.next++ & (INCREMENTS - 1)], h.handler, NULL, 0);
    /* Warm up until the time distribution of pending events is stationary. */
    run_holds(s, &h, 4ull * pending > holds ? holds : 4ull * pending);
    double secs = run_holds(s, &h, holds);
    printf("%12u %14.1f %18.0f\n", pending, secs * 1e9 / (double)holds, (double)holds / secs);
    sim_free(s);
    return 0;
}

static int bench_engine(int argc, char **argv)
{
    static const struct option opts[] = {{"holds", required_argument, NULL, OPT_HOLDS},
                                         {"seed", required_argument, NULL, OPT_SEED},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    uint64_t holds = 10000000, seed = 1;
    int opt;
    char *end;
    while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (opt) {
        case OPT_HOLDS:
            holds = strtoull(optarg, &end, 10);
            if (*end || !optarg[0] || holds == 0) return cli_usage_error("bench engine", "--holds '%s': expected a positive integer", optarg);
            break;
        case OPT_SEED:
            seed = strtoull(optarg, &end, 10);
            if (*end || !optarg[0]) return cli_usage_error("bench engine", "--seed '%s': expected a non-negative integer", optarg);
            break;
        case 'h': fputs(help, stdout); return EXIT_OK;
        default: return cli_usage_error("bench engine", "bad option");
        }
    }
    if (optind < argc) return cli_usage_error("bench engine", "unexpected argument '%s'", argv[optind]);

    sim_time_t *inc = malloc(INCREMENTS * sizeof *inc);
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    if (!inc || !r) {
        free(inc);
        if (r) gsl_rng_free(r);
        return fprintf(stderr, "ssdlab bench: out of memory\n"), EXIT_FAILED;
    }
    gsl_rng_set(r, (unsigned long)seed);
    for (size_t i = 0; i < INCREMENTS; i++) inc[i] = sim_time_from_sec(gsl_ran_exponential(r, 1e-6));
    gsl_rng_free(r);

    printf("ssdlab bench engine: hold model, exponential increments (mean 1 us), %llu holds per size\n",
           (unsigned long long)holds);
    printf("%12s %14s %18s\n", "pending", "ns/hold", "holds/s");
    int rc = EXIT_OK;
    static const uint32_t sizes[] = {100, 10000, 1000000};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        if (bench_size(sizes[i], holds, inc)) {
            fprintf(stderr, "ssdlab bench: out of memory\n");
            rc = EXIT_FAILED;
            break;
        }
    free(inc);
    return rc;
}

static const char model_help[] =
    "Usage: ssdlab bench model [-d DRIVE] [--set KEY=VALUE]...\n\n"
    "Speed and memory of the SSD model on an 8-channel NVMe drive with 4 dies per\n"
    "channel (BiCS3-like TLC, 128 GiB of flash by default; any key can be changed):\n"
    "4 KiB random read at QD 32 on a filled drive; 4 KiB random write at QD 32 in\n"
    "GC steady state (fast-path preconditioning: fill, then one random overwrite\n"
    "of the capacity); 128 KiB sequential write on an empty drive. Prints simulated\n"
    "host I/Os per wall-clock second, preconditioning time, and peak memory per\n"
    "4 KiB of flash.\n";

/* The bench drive, before any -d file or --set. */
static const char *const model_drive[] = {
    "controller.channels=8", "controller.dies_per_channel=4", "nand.blocks_per_plane=175", "nand.planes_per_die=2",
    "nand.pages_per_block=768", "nand.page_size=16KiB", "drive.user_capacity=120GB", "controller.cores=4",
    "controller.fw_read=2us", "controller.fw_write=2us", "controller.write_buffer=64MiB", "host.interface=nvme",
    "host.link_rate=8Gb/s", "host.lanes=4", "host.encoding=128b130b", "host.protocol_efficiency=0.9",
    "host.max_queue_depth=1024"};

static long peak_rss_kib(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

typedef struct model_case {
    const char *name;
    const char *sets[8];
} model_case;

static int bench_model_case(const cli_config_args *args, const model_case *mc)
{
    cli_config_args a = *args;
    const char **sets = malloc((sizeof model_drive / sizeof model_drive[0] + 8 + (size_t)a.set_count) * sizeof *sets);
    int n = 0;
    for (size_t i = 0; i < sizeof model_drive / sizeof model_drive[0]; i++) sets[n++] = model_drive[i];
    for (int i = 0; i < 8 && mc->sets[i]; i++) sets[n++] = mc->sets[i];
    for (int i = 0; i < a.set_count; i++) sets[n++] = a.sets[i];
    a.sets = sets;
    a.set_count = n;
    cfg *c = cli_load_config(&a);
    free(sets);
    if (!c) return EXIT_BAD_INPUT;
    cli_model m;
    int rc = EXIT_OK;
    if (cli_model_open(&m, c, "bench model")) {
        rc = EXIT_BAD_INPUT;
    } else {
        ssd *d = m.d;
        workload *w = m.w;
        char err[512];
        double t0 = cli_wall_seconds();
        workload_precondition(w);
        double t1 = cli_wall_seconds();
        workload_result r;
        workload_run(w, &r, err, sizeof err);
        double t2 = cli_wall_seconds();
        ssdlab_stats st;
        ssd_stats(d, &st);
        const ssd_params *p = ssd_params_of(d);
        printf("%-26s %9.3f %12.0f %10llu %9.2f %12.0f %8.3f %10.2f %8.2f\n", mc->name, t1 - t0, r.iops,
               (unsigned long long)r.requests, t2 - t1, (double)r.requests / (t2 - t1),
               isnan(st.write_amplification) ? 0.0 : st.write_amplification, peak_rss_kib() / 1048576.0,
               (double)peak_rss_kib() * 1024.0 / (double)p->physical_units);
    }
    cli_model_close(&m);
    cfg_free(c);
    return rc;
}

static int bench_model(int argc, char **argv)
{
    static const struct option opts[] = {CLI_CONFIG_OPTIONS, {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
    cli_config_args args = {0};
    int opt;
    while ((opt = getopt_long(argc, argv, "d:c:w:h", opts, NULL)) != -1) {
        if (cli_config_option(&args, opt, optarg)) continue;
        cli_config_args_free(&args);
        if (opt == 'h') return fputs(model_help, stdout), EXIT_OK;
        return cli_usage_error("bench model", "bad option");
    }
    if (optind < argc) {
        cli_config_args_free(&args);
        return cli_usage_error("bench model", "unexpected argument '%s'", argv[optind]);
    }
    static const model_case cases[] = {
        {"4KiB random read QD32", {"workload.pattern=random", "workload.read_share=1", "workload.block_size=4KiB",
                                   "workload.queue_depth=32", "workload.precondition=fill", "workload.requests=4000000"}},
        {"4KiB random write, steady", {"workload.pattern=random", "workload.read_share=0", "workload.block_size=4KiB",
                                       "workload.queue_depth=32", "workload.precondition=steady",
                                       "workload.steady_overwrites=1", "workload.requests=2000000"}},
        {"128KiB sequential write", {"workload.pattern=sequential", "workload.read_share=0", "workload.block_size=128KiB",
                                     "workload.queue_depth=32", "workload.precondition=none", "workload.requests=500000"}},
    };
    printf("ssdlab bench model: 8 channels x 4 dies; peak memory is the process's (resident), per 4 KiB of flash\n");
    printf("%-26s %9s %12s %10s %9s %12s %8s %10s %8s\n", "case", "precond s", "sim IOPS", "requests", "run s",
           "sim IO/s wall", "WA", "peak GiB", "B/4KiB");
    int rc = EXIT_OK;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0] && rc == EXIT_OK; i++) rc = bench_model_case(&args, &cases[i]);
    cli_config_args_free(&args);
    return rc;
}

int cmd_bench(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        fputs("Usage: ssdlab bench engine [options]\n       ssdlab bench model [options]\n\n",
              argc < 2 ? stderr : stdout);
        if (argc >= 2) fputs(help, stdout);
        return argc < 2 ? EXIT_BAD_INPUT : EXIT_OK;
    }
    if (strcmp(argv[1], "engine") == 0) return bench_engine(argc - 1, argv + 1);
    if (strcmp(argv[1], "model") == 0) return bench_model(argc - 1, argv + 1);
    return cli_usage_error("bench", "unknown benchmark '%s'; expected 'engine'", argv[1]);
}
