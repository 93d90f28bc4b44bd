/* Shared pieces of the command-line program. */
#ifndef SSDLAB_CLI_H
#define SSDLAB_CLI_H

#include <stdbool.h>

#include "config.h"

/* Exit statuses, documented in docs/cli.md. */
enum {
    EXIT_OK = 0,
    EXIT_FAILED = 1,        /* the run itself failed (I/O error, out of memory) */
    EXIT_BAD_INPUT = 2,     /* bad command line, config or input file */
    EXIT_INTERRUPTED = 130, /* SIGINT or SIGTERM stopped a run (its result is kept, marked interrupted) */
};

/* The configuration options every simulating command takes. */
typedef struct cli_config_args {
    const char *drive;
    const char **files;
    int file_count;
    const char **sets;
    int set_count;
    const char *seed;     /* --seed: applied after every --set */
    const char *max_memory; /* --max-memory: sim.max_memory, after every --set */
    const char *workload; /* -w: a workload file, possibly with phases */
} cli_config_args;

/* getopt_long option values of the shared options. */
enum { OPT_SET = 1000, OPT_SEED, OPT_MARKDOWN, OPT_ORIGIN, OPT_NO_ORIGIN, OPT_HOLDS, OPT_HISTOGRAM, OPT_CHECK, OPT_TIMESERIES,
       OPT_REQUESTS, OPT_NO_PROGRESS, OPT_ONLY, OPT_NO_PLOTS, OPT_TARGETS, OPT_REUSE, OPT_NO_RUN, OPT_TESTS, OPT_MAX_MEMORY,
       OPT_TIME_UNIT, OPT_COLUMNS, OPT_ALONE, OPT_CASES, OPT_ROUNDS, OPT_MIB, OPT_TOUCHES };

#define CLI_CONFIG_OPTIONS                                                                                            \
    {"drive", required_argument, NULL, 'd'}, {"config", required_argument, NULL, 'c'},                               \
        {"workload", required_argument, NULL, 'w'}, {"set", required_argument, NULL, OPT_SET},                       \
        {"seed", required_argument, NULL, OPT_SEED}, {"max-memory", required_argument, NULL, OPT_MAX_MEMORY}

#define CLI_CONFIG_HELP                                                                                               \
    "  -d, --drive FILE     drive file, or a preset's name (models/drives/NAME.yaml)\n"                              \
    "  -c, --config FILE    further config file; later files win (repeatable)\n"                                     \
    "  -w, --workload FILE  workload file (workload.* keys, and a list of phases)\n"                                  \
    "      --set KEY=VALUE  override one key, e.g. --set sim.seed=7 (repeatable; wins over files)\n"                  \
    "      --seed N         set sim.seed (applied after every --set)\n"                                               \
    "      --max-memory SIZE refuse a drive whose tables need more (default: the machine's memory)\n"

/* A drive file's path: DRIVE itself when it exists or names a folder,
 * else models/drives/DRIVE.yaml of the installed models (SSDLAB_MODELS
 * overrides the models folder), so '-d toshiba-tr200-480' works anywhere. */
const char *cli_drive_path(const char *drive, char *buf, size_t len);
/* The models folder: $SSDLAB_MODELS, else the installed one. */
const char *cli_models_dir(void);

/* Handles a shared option; returns false when opt is not one of them. */
bool cli_config_option(cli_config_args *a, int opt, const char *arg);
/* Loads defaults, drive, files, the workload file, then overrides. On
 * error prints every message to stderr and returns NULL. */
cfg *cli_load_config(const cli_config_args *a);
/* The same, and the workload's phases (copies of the configuration with
 * each phase's keys on top; --set applies to all, --set phases.N.key=v to
 * phase N). *phases is NULL when the workload has no phase list. */
cfg *cli_load_config_phases(const cli_config_args *a, cfg ***phases, size_t *count);
void cli_free_phases(cfg **phases, size_t count);
void cli_config_args_free(cli_config_args *a);

/* A drive and its built-in workload on a simulator, built from a config. */
typedef struct cli_model {
    struct sim *s;
    struct ssd *d;
    struct workload *w;
} cli_model;

/* Builds the model; on failure prints "ssdlab CMD: <why>" and returns -1
 * (with nothing left to free). */
int cli_model_open(cli_model *m, const cfg *c, const char *cmd);
void cli_model_close(cli_model *m);

/* Prints "ssdlab CMD: <msg>" to stderr and returns EXIT_BAD_INPUT. */
int cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Whether text is a whole number (digits only, no sign) that fits, into *out. */
bool cli_parse_count(const char *text, uint64_t *out);
/* Monotonic wall-clock seconds, for timing runs. */
double cli_wall_seconds(void);

int cmd_demo(int argc, char **argv);
int cmd_stress(int argc, char **argv);
/* ssdlab bench model (bench_model.c), called by cmd_bench. */
int bench_model(int argc, char **argv);
/* ssdlab bench machine (bench_machine.c), called by cmd_bench. */
int bench_machine(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_trace(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_plot(int argc, char **argv);
int cmd_experiment(int argc, char **argv);
int cmd_validate(int argc, char **argv);
/* Runs the tests of experiment NAME (a folder under experiments/, or a
 * path) selected by `only` (NULL: all; else "P7,P9") on config->drive,
 * into out_dir. Returns an exit status. */
int experiment_run(const char *name, const cli_config_args *config, const char *only, const char *out_dir, bool plots,
                   int jobs, int argc, char **argv);
/* The same for several drives at once, their tests sharing the `jobs`
 * processes (the long ones first), so one drive's long tests overlap
 * another's. */
typedef struct experiment_drive {
    cli_config_args config; /* config.drive names the drive */
    const char *only;       /* NULL: every test */
    const char *out_dir;
} experiment_drive;
int experiment_run_drives(const char *name, const experiment_drive *drives, int ndrives, bool plots, int jobs, int argc,
                          char **argv);
/* Creates a folder and its parents; on failure prints "ssdlab CMD: cannot
 * create ..." and returns -1. */
int cli_make_dirs(const char *path, const char *cmd);
/* Cores online (at least 1). */
int cli_cores(void);
/* Draws one plot of one result through the analysis package; returns its
 * exit status. */
int cli_plot(const char *kind, const char *result, const char *png);
int cmd_config(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
/* ssdlab trace gen (cmd_trace_gen.c); argv[0] is "gen". */
int trace_gen_cmd(int argc, char **argv);

#endif
