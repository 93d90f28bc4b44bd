#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "drive_model.h"
#include "sim_config.h"
#include "ssd.h"
#include "workload.h"

static bool append(const char ***list, int *count, const char *item)
{
    const char **l = realloc(*list, (size_t)(*count + 1) * sizeof *l);
    if (!l) return false;
    l[(*count)++] = item;
    *list = l;
    return true;
}

bool cli_config_option(cli_config_args *a, int opt, const char *arg)
{
    switch (opt) {
    case 'd': a->drive = arg; return true;
    case 'w': a->workload = arg; return true;
    case 'c': append(&a->files, &a->file_count, arg); return true;
    case OPT_SET: append(&a->sets, &a->set_count, arg); return true;
    case OPT_SEED: a->seed = arg; return true;
    case OPT_MAX_MEMORY: a->max_memory = arg; return true;
    default: return false;
    }
}

static void report_errors(const cfg *c, int total)
{
    fputs(cfg_errors(c), stderr);
    fprintf(stderr, "ssdlab: %d configuration error%s\n", total, total == 1 ? "" : "s");
}

/* "phases.N.key=value": applied to phase N as workload.key=value. Returns
 * false (with a message) when there is no phase N. */
static bool set_phase(cfg **phases, size_t count, const char *assignment)
{
    char *end;
    unsigned long n = strtoul(assignment + 7, &end, 10);
    if (end == assignment + 7 || *end != '.' || n == 0 || n > count) {
        fprintf(stderr, "--set '%s': key '(none)': the workload has %zu phases; expected phases.N.key=value with N from 1 to %zu\n",
                assignment, count, count);
        return false;
    }
    char set[600];
    snprintf(set, sizeof set, "workload.%s", end + 1);
    cfg_set_override(phases[n - 1], set);
    return true;
}

#ifndef SSDLAB_MODELS_DIR
#define SSDLAB_MODELS_DIR "models"
#endif

const char *cli_models_dir(void)
{
    const char *dir = getenv("SSDLAB_MODELS");
    return dir && *dir ? dir : SSDLAB_MODELS_DIR;
}

const char *cli_drive_path(const char *drive, char *buf, size_t len)
{
    if (access(drive, F_OK) == 0 || strchr(drive, '/')) return drive;
    size_t n = strlen(drive);
    bool has_ext = n > 5 && !strcmp(drive + n - 5, ".yaml");
    snprintf(buf, len, "%s/drives/%s%s", cli_models_dir(), drive, has_ext ? "" : ".yaml");
    return access(buf, F_OK) == 0 ? buf : drive;
}

cfg *cli_load_config_phases(const cli_config_args *a, cfg ***phases_out, size_t *count_out)
{
    cfg **phases = NULL;
    size_t count = 0;
    cfg *c = cfg_create(ssdlab_schema());
    if (!c) {
        fprintf(stderr, "ssdlab: out of memory\n");
        return NULL;
    }
    char drive[4096];
    if (a->drive) cfg_load_file(c, cli_drive_path(a->drive, drive, sizeof drive));
    for (int i = 0; i < a->file_count; i++) cfg_load_file(c, a->files[i]);
    if (a->workload) cfg_load_file_with_list(c, a->workload, "phases", "workload", &phases, &count);
    char last[2][256] = {"", ""};
    if (a->seed) snprintf(last[0], sizeof last[0], "sim.seed=%s", a->seed);
    if (a->max_memory) snprintf(last[1], sizeof last[1], "sim.max_memory=%s", a->max_memory);
    int bad_phase_sets = 0;
    for (int i = 0; i < a->set_count + 2; i++) {
        const char *set = i < a->set_count ? a->sets[i] : last[i - a->set_count];
        if (!set[0]) continue;
        if (!strncmp(set, "phases.", 7)) {
            bad_phase_sets += !set_phase(phases, count, set);
            continue;
        }
        cfg_set_override(c, set);
        for (size_t p = 0; p < count; p++) cfg_set_override(phases[p], set);
    }
    int errors = cfg_error_count(c) + bad_phase_sets;
    for (size_t p = 0; p < count; p++)
        if (cfg_error_count(phases[p])) {
            fputs(cfg_errors(phases[p]), stderr);
            errors += cfg_error_count(phases[p]);
        }
    if (errors) {
        report_errors(c, errors);
        cli_free_phases(phases, count);
        cfg_free(c);
        return NULL;
    }
    if (phases_out) {
        *phases_out = phases;
        *count_out = count;
    } else {
        cli_free_phases(phases, count);
    }
    return c;
}

cfg *cli_load_config(const cli_config_args *a) { return cli_load_config_phases(a, NULL, NULL); }

void cli_free_phases(cfg **phases, size_t count)
{
    for (size_t i = 0; i < count; i++) cfg_free(phases[i]);
    free(phases);
}

void cli_config_args_free(cli_config_args *a)
{
    free(a->files);
    free(a->sets);
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "ssdlab %s: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nTry 'ssdlab %s --help'.\n", cmd);
    return EXIT_BAD_INPUT;
}

bool cli_parse_count(const char *text, uint64_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno || *end || !*text || *text == '-') return false;
    *out = v;
    return true;
}

double cli_wall_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int cli_model_open(cli_model *m, const cfg *c, const char *cmd)
{
    char err[1024];
    drive_model dm;
    *m = (cli_model){0};
    if (drive_model_open(&dm, c, err, sizeof err) == 0) {
        m->s = dm.s;
        m->d = dm.d;
        m->w = workload_create(m->s, m->d, c, err, sizeof err);
    }
    if (m->w) return 0;
    fprintf(stderr, "ssdlab %s: %s\n", cmd, err);
    cli_model_close(m);
    return -1;
}

void cli_model_close(cli_model *m)
{
    workload_free(m->w);
    ssd_free(m->d);
    sim_free(m->s);
    *m = (cli_model){0};
}

int cli_cores(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

int cli_make_dirs(const char *path, const char *cmd)
{
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            mkdir(buf, 0777);
            *p = '/';
        }
    if (mkdir(buf, 0777) && errno != EEXIST) {
        fprintf(stderr, "ssdlab %s: cannot create '%s': %s\n", cmd, path, strerror(errno));
        return -1;
    }
    return 0;
}
