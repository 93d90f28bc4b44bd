/* ssdlab demo: the M/M/1 queue on the event core, with its closed form. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "mm1.h"
#include "outfile.h"
#include "sim_config.h"

static const char help[] =
    "Usage: ssdlab demo [-c FILE]... [--set KEY=VALUE]... [--histogram CSV]\n\n"
    "Runs an M/M/1 queue (Poisson arrivals, one exponential server) on the\n"
    "discrete-event core and compares the simulated mean waiting time with the\n"
    "closed form Wq = rho E[S] / (1 - rho). This is an engine-only demo: the SSD\n"
    "model arrives with issue 3. Keys: mm1.*, sim.* (see 'ssdlab config keys').\n\n"
    "Options:\n" CLI_CONFIG_HELP
    "      --histogram CSV  write the waiting-time distribution, simulated and\n"
    "                       closed form (plot: analysis/plot_mm1.py CSV PNG)\n"
    "  -h, --help           this help\n";

static int write_histogram(const mm1 *m, const char *path)
{
    outfile o;
    if (outfile_open(&o, path)) {
        fprintf(stderr, "ssdlab demo: cannot write '%s': %s\n", path, strerror(errno));
        return EXIT_FAILED;
    }
    if (mm1_write_histogram(m, o.fp)) {
        outfile_abort(&o);
        fprintf(stderr, "ssdlab demo: cannot write '%s'\n", path);
        return EXIT_FAILED;
    }
    if (outfile_commit(&o)) {
        fprintf(stderr, "ssdlab demo: cannot write '%s': %s\n", path, strerror(errno));
        return EXIT_FAILED;
    }
    return EXIT_OK;
}

static void print_result(const mm1_result *r, uint64_t seed, double wall)
{
    double err = (r->wait_mean_s - r->wait_theory_s) / r->wait_theory_s;
    printf("M/M/1 queue on the ssdlab event core (engine-only demo; the SSD model is not built yet)\n");
    printf("  seed                      %llu\n", (unsigned long long)seed);
    printf("  offered load rho          %.4f\n", r->rho);
    printf("  customers measured        %llu\n", (unsigned long long)r->customers);
    printf("  mean wait in queue        %.4f us  (95%% CI +/- %.4f us, batch means)\n", r->wait_mean_s * 1e6,
           r->wait_ci95_s * 1e6);
    printf("  closed form rho*E[S]/(1-rho) %.4f us\n", r->wait_theory_s * 1e6);
    printf("  relative error            %+.3f %%\n", 100 * err);
    printf("  server utilisation        %.4f  (closed form %.4f)\n", r->utilisation, r->rho);
    printf("  simulated time            %.3f s\n", r->sim_time_s);
    printf("  events                    %llu in %.3f s of wall time (%.1f million events/s)\n",
           (unsigned long long)r->events, wall, wall > 0 ? (double)r->events / wall / 1e6 : 0.0);
    printf("  verdict                   %s\n", fabs(err) <= 0.02 ? "PASS: within 2 % of the closed form"
                                                                 : "FAIL: more than 2 % from the closed form");
}

int cmd_demo(int argc, char **argv)
{
    static const struct option opts[] = {
        CLI_CONFIG_OPTIONS, {"histogram", required_argument, NULL, OPT_HISTOGRAM}, {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    cli_config_args args = {0};
    const char *histogram = NULL;
    int opt;
    while ((opt = getopt_long(argc, argv, "d:c:w:h", opts, NULL)) != -1) {
        if (cli_config_option(&args, opt, optarg)) continue;
        if (opt == OPT_HISTOGRAM) histogram = optarg;
        else if (opt == 'h') {
            cli_config_args_free(&args);
            return fputs(help, stdout), EXIT_OK;
        } else {
            cli_config_args_free(&args);
            return cli_usage_error("demo", "bad option");
        }
    }
    if (optind < argc) {
        cli_config_args_free(&args);
        return cli_usage_error("demo", "unexpected argument '%s'", argv[optind]);
    }
    cfg *c = cli_load_config(&args);
    cli_config_args_free(&args);
    if (!c) return EXIT_BAD_INPUT;
    if (cfg_uint(c, "mm1.mean_service") >= cfg_uint(c, "mm1.mean_interarrival")) {
        fprintf(stderr, "ssdlab demo: key 'mm1.mean_service' must be below 'mm1.mean_interarrival' "
                        "(a load of 1 or more never reaches a steady state); expected a load below 1\n");
        cfg_free(c);
        return EXIT_BAD_INPUT;
    }
    sim_options so = sim_options_from_config(c);
    sim *s = sim_create(&so);
    mm1 *m = s ? mm1_create(s, c) : NULL;
    if (!m) {
        fprintf(stderr, "ssdlab demo: out of memory\n");
        sim_free(s);
        cfg_free(c);
        return EXIT_FAILED;
    }
    mm1_result r;
    double t0 = cli_wall_seconds();
    mm1_run(m, cfg_uint(c, "sim.stop_time"), &r);
    print_result(&r, so.seed, cli_wall_seconds() - t0);
    int rc = histogram ? write_histogram(m, histogram) : EXIT_OK;
    mm1_free(m);
    sim_free(s);
    cfg_free(c);
    return rc;
}
