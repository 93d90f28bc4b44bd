/* ssdlab sweep slurm: an sbatch script running the sweep's missing points
 * as a Slurm job array, each task calling 'ssdlab sweep run-point' on its
 * chunk of points. Resubmitting writes an array over what is still
 * missing. */
#define _DEFAULT_SOURCE /* realpath */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sweep_points.h"

/* Slurm's default MaxArraySize: array indices must stay below it. */
enum { SLURM_DEFAULT_MAX_ARRAY = 1001 };

/* Writes text in single quotes for the shell. */
static void shell_quote(FILE *f, const char *text)
{
    fputc('\'', f);
    for (const char *p = text; *p; p++) {
        if (*p == '\'') fputs("'\\''", f);
        else fputc(*p, f);
    }
    fputc('\'', f);
}

/* The chunks holding a point not yet complete, as Slurm's --array list
 * ("0,3,5-9"); returns how many, or -1 when out of memory. */
static long missing_chunks(const sweep *s, size_t chunk, char **list, size_t *last_chunk)
{
    size_t n = sweep_point_count(s), chunks = (n + chunk - 1) / chunk, cap = 64, used = 0;
    long count = 0;
    char *out = malloc(cap);
    if (!out) return -1;
    out[0] = 0;
    long run_start = -1, prev = -2;
    for (size_t c = 0; c <= chunks; c++) {
        bool missing = false;
        for (size_t i = c * chunk; c < chunks && i < (c + 1) * chunk && i < n && !missing; i++) {
            sweep_point p;
            if (sweep_point_make(s, i, &p)) return free(out), -1;
            missing = sweep_point_state(s, &p) != POINT_COMPLETE;
            sweep_point_free(&p);
        }
        if (missing && (long)c == prev + 1 && run_start >= 0) {
            prev = (long)c;
        } else {
            if (run_start >= 0) { /* close the run [run_start, prev] */
                if (cap - used < 48 && !(out = realloc(out, cap *= 2))) return -1;
                used += (size_t)snprintf(out + used, cap - used, "%s%ld", used ? "," : "", run_start);
                if (prev > run_start) used += (size_t)snprintf(out + used, cap - used, "-%ld", prev);
                run_start = -1;
            }
            if (missing) run_start = prev = (long)c;
        }
        if (missing) {
            count++;
            *last_chunk = c;
        }
    }
    *list = out;
    return count;
}

static void write_script(FILE *f, const sweep *s, const slurm_options *o, const char *array, const char *exe,
                         const char *sweep_file, const char *cwd, size_t tasks)
{
    size_t n = sweep_point_count(s);
    time_t now = time(NULL);
    char when[64];
    strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S UTC", gmtime(&now));
    fprintf(f, "#!/bin/bash\n");
    fprintf(f, "# ssdlab sweep '%s': %zu points; this array runs the %zu task(s) of %zu point(s) each\n", s->name, n, tasks,
            o->chunk);
    fprintf(f, "# whose points were not complete at %s. Written by 'ssdlab sweep slurm';\n", when);
    fprintf(f, "# run that command again to resubmit only what is still missing.\n");
    fprintf(f, "#SBATCH --job-name=ssdlab-%s\n", s->name);
    fprintf(f, "#SBATCH --array=%s\n", array);
    fprintf(f, "#SBATCH --ntasks=1\n");
    fprintf(f, "#SBATCH --cpus-per-task=%s\n", o->cpus ? o->cpus : "1");
    fprintf(f, "#SBATCH --output=%s/%s/slurm/%%A_%%a.out\n", s->output[0] == '/' ? "" : cwd, s->output);
    if (o->partition) fprintf(f, "#SBATCH --partition=%s\n", o->partition);
    if (o->account) fprintf(f, "#SBATCH --account=%s\n", o->account);
    if (o->time) fprintf(f, "#SBATCH --time=%s\n", o->time);
    if (o->mem) fprintf(f, "#SBATCH --mem=%s\n", o->mem);
    fprintf(f, "set -eu\ncd ");
    shell_quote(f, cwd);
    fprintf(f, "\nfirst=$((SLURM_ARRAY_TASK_ID * %zu))\nlast=$((first + %zu - 1))\n", o->chunk, o->chunk);
    fprintf(f, "if [ \"$last\" -ge %zu ]; then last=%zu; fi\nexec ", n, n - 1);
    shell_quote(f, exe);
    fprintf(f, " sweep run-point ");
    shell_quote(f, sweep_file);
    fprintf(f, " --index \"$first-$last\"\n");
}

static int submit(const char *script)
{
    char command[4400];
    snprintf(command, sizeof command, "sbatch --parsable '%s' 2>&1", script);
    FILE *p = popen(command, "r");
    if (!p) {
        fprintf(stderr, "ssdlab sweep slurm: cannot run sbatch: %s\n", strerror(errno));
        return EXIT_FAILED;
    }
    char line[512] = "";
    if (!fgets(line, sizeof line, p)) line[0] = 0;
    int status = pclose(p);
    line[strcspn(line, ";\n")] = 0; /* "JOBID" or "JOBID;CLUSTER" */
    if (status != 0 || !line[0] || strspn(line, "0123456789") != strlen(line)) {
        fprintf(stderr, "ssdlab sweep slurm: sbatch failed (%s); the script is kept: %s\n", line[0] ? line : "no output", script);
        return EXIT_FAILED;
    }
    printf("submitted job %s\n", line);
    return EXIT_OK;
}

int sweep_slurm(const sweep *s, const slurm_options *o)
{
    char *array = NULL;
    size_t last_chunk = 0;
    long tasks = missing_chunks(s, o->chunk, &array, &last_chunk);
    if (tasks < 0) return EXIT_FAILED;
    if (tasks == 0) {
        printf("sweep %s: all %zu points are complete; nothing to submit\n", s->name, sweep_point_count(s));
        free(array);
        return EXIT_OK;
    }
    if (last_chunk >= SLURM_DEFAULT_MAX_ARRAY)
        fprintf(stderr, "ssdlab sweep slurm: note: array index %zu exceeds Slurm's default MaxArraySize (%d); use --chunk to put more points in a task\n",
                last_chunk, SLURM_DEFAULT_MAX_ARRAY);
    char exe[PATH_MAX], cwd[PATH_MAX], file[PATH_MAX], dir[PATH_MAX + 16], script[PATH_MAX + 64], tmp[PATH_MAX + 96];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len <= 0 || !getcwd(cwd, sizeof cwd) || !realpath(s->path, file)) {
        fprintf(stderr, "ssdlab sweep slurm: cannot resolve the program, folder or sweep file: %s\n", strerror(errno));
        free(array);
        return EXIT_FAILED;
    }
    exe[len] = 0;
    snprintf(dir, sizeof dir, "%s/slurm", s->output);
    snprintf(script, sizeof script, "%s/%s.sbatch", dir, s->name);
    snprintf(tmp, sizeof tmp, "%s.tmp.%d", script, (int)getpid());
    if (cli_make_dirs(dir, "sweep")) return free(array), EXIT_FAILED;
    FILE *f = fopen(tmp, "w");
    if (!f) {
        fprintf(stderr, "ssdlab sweep slurm: cannot write '%s': %s\n", tmp, strerror(errno));
        free(array);
        return EXIT_FAILED;
    }
    write_script(f, s, o, array, exe, file, cwd, (size_t)tasks);
    free(array);
    if (fclose(f) || rename(tmp, script)) {
        fprintf(stderr, "ssdlab sweep slurm: cannot write '%s': %s\n", script, strerror(errno));
        unlink(tmp);
        return EXIT_FAILED;
    }
    printf("%s: a job array of %ld task(s) over the points not yet complete\n", script, tasks);
    return o->submit ? submit(script) : EXIT_OK;
}
