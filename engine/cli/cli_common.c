#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
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
    case 'c': append(&a->files, &a->file_count, arg); return true;
    case OPT_SET: append(&a->sets, &a->set_count, arg); return true;
    case OPT_SEED: a->seed = arg; return true;
    default: return false;
    }
}

cfg *cli_load_config(const cli_config_args *a)
{
    cfg *c = cfg_create(ssdlab_schema());
    if (!c) {
        fprintf(stderr, "ssdlab: out of memory\n");
        return NULL;
    }
    if (a->drive) cfg_load_file(c, a->drive);
    for (int i = 0; i < a->file_count; i++) cfg_load_file(c, a->files[i]);
    for (int i = 0; i < a->set_count; i++) cfg_set_override(c, a->sets[i]);
    if (a->seed) {
        char set[256];
        snprintf(set, sizeof set, "sim.seed=%s", a->seed);
        cfg_set_override(c, set);
    }
    if (cfg_error_count(c)) {
        fputs(cfg_errors(c), stderr);
        fprintf(stderr, "ssdlab: %d configuration error%s\n", cfg_error_count(c), cfg_error_count(c) == 1 ? "" : "s");
        cfg_free(c);
        return NULL;
    }
    return c;
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

double cli_wall_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int cli_model_open(cli_model *m, const cfg *c, const char *cmd)
{
    char err[1024];
    sim_options so = sim_options_from_config(c);
    m->s = sim_create(&so);
    m->d = m->s ? ssd_create(m->s, c, err, sizeof err) : NULL;
    m->w = m->d ? workload_create(m->s, m->d, c, err, sizeof err) : NULL;
    if (m->w) return 0;
    fprintf(stderr, "ssdlab %s: %s\n", cmd, m->s ? err : "out of memory");
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
