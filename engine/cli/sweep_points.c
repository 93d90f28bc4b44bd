/* A sweep point's configuration, files and state, and its run. */
#include "sweep_points.h"

#include <errno.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "results.h"
#include "runner.h"

int sweep_open(sweep *s, const char *path, const char *cmd)
{
    char err[8192];
    if (sweep_load(s, path, err, sizeof err) == 0) return 0;
    fprintf(stderr, "ssdlab %s: the sweep file has problems:\n%s", cmd, err);
    sweep_free(s);
    return -1;
}

void sweep_point_file(const sweep *s, const sweep_point *p, const char *ext, char *out, size_t len)
{
    snprintf(out, len, "%s/%s.%s", s->output, p->name, ext);
}

static cfg *load(const sweep *s, const sweep_point *p, const char *seed, cfg ***phases, size_t *count)
{
    const char **sets = calloc(s->set_count + p->set_count + 1, sizeof *sets);
    if (!sets) return NULL;
    int n = 0;
    for (size_t i = 0; i < s->set_count; i++) sets[n++] = s->sets[i];
    for (size_t i = 0; i < p->set_count; i++) sets[n++] = p->sets[i];
    cli_config_args a = {.drive = s->drive, .files = (const char **)s->configs, .file_count = (int)s->config_count,
                         .sets = sets, .set_count = n, .seed = seed, .workload = s->workload};
    cfg *c = phases ? cli_load_config_phases(&a, phases, count) : cli_load_config(&a);
    free(sets);
    return c;
}

cfg *sweep_point_config(const sweep *s, const sweep_point *p, cfg ***phases, size_t *count, unsigned long long *seed)
{
    unsigned long long base = s->seed;
    if (!s->has_seed) { /* the configuration's own seed is the base */
        cfg *c = load(s, p, NULL, NULL, NULL);
        if (!c) return NULL;
        base = cfg_uint(c, "sim.seed");
        cfg_free(c);
    }
    *seed = sweep_seed(base, p->repetition);
    char text[32];
    snprintf(text, sizeof text, "%llu", *seed);
    return load(s, p, text, phases, count);
}

point_state sweep_point_state(const sweep *s, const sweep_point *p)
{
    char result[4200], log[4200];
    sweep_point_file(s, p, "h5", result, sizeof result);
    sweep_point_file(s, p, "log", log, sizeof log);
    if (access(result, F_OK) != 0) return access(log, F_OK) == 0 ? POINT_FAILED : POINT_MISSING;
    phase_summary *rows = NULL;
    size_t n = 0;
    char status[64];
    int rc = results_read_summary(result, &rows, &n, status, sizeof status);
    free(rows);
    if (rc) return POINT_FAILED;
    if (!strcmp(status, "complete")) return POINT_COMPLETE;
    return !strcmp(status, "interrupted") ? POINT_INTERRUPTED : POINT_FAILED;
}

const char *sweep_point_state_name(point_state st)
{
    static const char *const names[] = {"missing", "complete", "failed", "interrupted"};
    return names[st];
}

/* An interrupted or unreadable result, and the temporary files of runs
 * killed before they could clean up (their names end in .tmp.PID). */
static void remove_leftovers(const char *result)
{
    unlink(result);
    char pattern[4300];
    snprintf(pattern, sizeof pattern, "%s.tmp.*", result);
    glob_t g;
    if (glob(pattern, GLOB_NOSORT, NULL, &g) == 0)
        for (size_t i = 0; i < g.gl_pathc; i++) unlink(g.gl_pathv[i]);
    globfree(&g);
}

int sweep_run_point(const sweep *s, size_t index, int argc, char **argv)
{
    sweep_point p;
    if (sweep_point_make(s, index, &p)) return EXIT_FAILED;
    int rc = EXIT_OK;
    if (sweep_point_state(s, &p) == POINT_COMPLETE) goto done;
    char result[4200], logpath[4200];
    sweep_point_file(s, &p, "h5", result, sizeof result);
    sweep_point_file(s, &p, "log", logpath, sizeof logpath);
    remove_leftovers(result);
    cfg **phases = NULL;
    size_t count = 0;
    unsigned long long seed;
    cfg *c = sweep_point_config(s, &p, &phases, &count, &seed);
    if (!c) {
        rc = EXIT_BAD_INPUT;
        goto done;
    }
    FILE *log = cli_make_dirs(s->output, "sweep") ? NULL : fopen(logpath, "w");
    if (!log) {
        fprintf(stderr, "ssdlab sweep: cannot write '%s': %s\n", logpath, strerror(errno));
        rc = EXIT_FAILED;
    } else {
        setvbuf(log, NULL, _IOLBF, 0);
        fprintf(log, "sweep %s, point %zu (%s), repetition %u, seed %llu\n", s->path, index, p.name, p.repetition, seed);
        for (size_t i = 0; i < p.set_count; i++) fprintf(log, "  --set %s\n", p.sets[i]);
        run_request rq = {.config = c, .phases = phases, .phase_count = count, .drive_label = s->drive, .output = result,
                          .argc = argc, .argv = argv, .log = log};
        /* the point's errors go to its log too, which outlives the run */
        fflush(stderr);
        int saved = dup(2);
        if (saved >= 0) dup2(fileno(log), 2);
        rc = runner_run(&rq);
        fflush(stderr);
        if (saved >= 0) dup2(saved, 2), close(saved);
        fclose(log);
    }
    cli_free_phases(phases, count);
    cfg_free(c);
done:
    sweep_point_free(&p);
    return rc;
}
