/* ssdlab: the command-line program. Each command lives in its own file;
 * this one only dispatches. */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "results.h"
#include "ssdlab_version.h"

typedef struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} command;

static const command commands[] = {
    {"demo", cmd_demo, "run the M/M/1 engine demo and compare it with its closed form"},
    {"config", cmd_config, "show a resolved configuration ('config show') or the key reference ('config keys')"},
    {"bench", cmd_bench, "benchmarks: 'bench engine' (event-queue hold benchmark)"},
    {"run", cmd_run, "run the built-in closed-loop workload on a drive"},
    {"trace", cmd_trace, "trace statistics ('trace stats') and conversion ('trace convert')"},
    {"report", cmd_report, "summarise and compare result files side by side"},
    {"plot", cmd_plot, "plot result files: degradation, fill, qd, bs, mix, latency, trim ('plot --help')"},
    {"experiment", cmd_experiment, "run an experiment's tests on a drive (e.g. 'review': the reviewers' protocol)"},
    {"validate", cmd_validate, "compare drive presets with reviewers' measurements, figure by figure"},
    {"stress", cmd_stress, "random traffic on small drives of every preset family, checking FTL integrity after every GC and fold"},
    {"sweep", cmd_sweep, "parameter sweeps: plan, run locally, run as a Slurm job array, collect ('sweep --help')"},
    {NULL, NULL, NULL},
};

static void print_version(void)
{
    printf("ssdlab %s (git %s)\n", SSDLAB_VERSION, SSDLAB_GIT_HASH);
}

static void print_help(FILE *out)
{
    fprintf(out,
            "ssdlab: a trace-driven discrete-event simulator of solid-state drives\n\n"
            "Usage: ssdlab <command> [options]\n"
            "       ssdlab <command> --help\n"
            "       ssdlab --version\n\n"
            "Commands:\n");
    for (const command *c = commands; c->name; c++)
        fprintf(out, "  %-11s %s%s\n", c->name, c->summary, c->run ? "" : " (not available yet)");
    fprintf(out, "\nExit status: 0 success, 1 run failed, 2 bad input, 3 command not available yet,\n"
                 "130 run interrupted (its result is kept, marked interrupted).\n"
                 "Documentation: docs/README.md\n");
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {
        {"help", no_argument, NULL, 'h'}, {"version", no_argument, NULL, 'V'}, {NULL, 0, NULL, 0}};
    int opt;
    opterr = 0;
    /* Past a file-size limit (ulimit -f), a write fails with EFBIG instead
     * of the signal killing the program: the writers then report it and
     * remove their temporary files. */
    signal(SIGXFSZ, SIG_IGN);
    results_library_init();
    /* '+': stop at the command name; its options are the command's own. */
    while ((opt = getopt_long(argc, argv, "+hV", opts, NULL)) != -1) {
        switch (opt) {
        case 'h': print_help(stdout); return EXIT_OK;
        case 'V': print_version(); return EXIT_OK;
        default:
            fprintf(stderr, "ssdlab: unknown option '%s'\nTry 'ssdlab --help'.\n", argv[optind - 1]);
            return EXIT_BAD_INPUT;
        }
    }
    if (optind >= argc) {
        print_help(stderr);
        return EXIT_BAD_INPUT;
    }
    const char *name = argv[optind];
    for (const command *c = commands; c->name; c++) {
        if (strcmp(c->name, name) != 0) continue;
        int at = optind;
        optind = 0; /* glibc: 0 re-initialises getopt for the command's own options */
        opterr = 1;
        return c->run(argc - at, argv + at);
    }
    fprintf(stderr, "ssdlab: unknown command '%s'\nTry 'ssdlab --help'.\n", name);
    return EXIT_BAD_INPUT;
}
