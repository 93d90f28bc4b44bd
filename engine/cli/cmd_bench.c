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

#include "cli.h"
#include "sim.h"
#include "sim_config.h"

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
    while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (opt) {
        case OPT_HOLDS:
            if (!cli_parse_count(optarg, &holds) || holds == 0)
                return cli_usage_error("bench engine", "--holds '%s': expected a positive integer", optarg);
            break;
        case OPT_SEED:
            if (!cli_parse_count(optarg, &seed))
                return cli_usage_error("bench engine", "--seed '%s': expected a non-negative integer", optarg);
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

int cmd_bench(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        fputs("Usage: ssdlab bench engine [options]\n       ssdlab bench model [options]\n       ssdlab bench machine "
              "[options]\n\n",
              argc < 2 ? stderr : stdout);
        if (argc >= 2) fputs(help, stdout);
        return argc < 2 ? EXIT_BAD_INPUT : EXIT_OK;
    }
    if (strcmp(argv[1], "engine") == 0) return bench_engine(argc - 1, argv + 1);
    if (strcmp(argv[1], "model") == 0) return bench_model(argc - 1, argv + 1);
    if (strcmp(argv[1], "machine") == 0) return bench_machine(argc - 1, argv + 1);
    return cli_usage_error("bench", "unknown benchmark '%s'; expected 'engine', 'model' or 'machine'", argv[1]);
}
