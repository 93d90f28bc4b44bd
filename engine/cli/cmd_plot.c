/* ssdlab plot KIND RESULT.h5... -o OUT.png: hands over to the analysis
 * package (analysis/ssdlab-plot) under Debian's Python, which has h5py and
 * matplotlib. SSDLAB_PYTHON and SSDLAB_ANALYSIS override where they are. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"

#ifndef SSDLAB_ANALYSIS_DIR
#define SSDLAB_ANALYSIS_DIR "analysis"
#endif

/* argv for the plot script: python, script, then args (NULL-terminated);
 * NULL with a message when the package cannot be found. */
static char **plot_argv(char *script, size_t len, int argc, char **args)
{
    const char *python = getenv("SSDLAB_PYTHON"), *dir = getenv("SSDLAB_ANALYSIS");
    if (!python || !*python) python = "/usr/bin/python3";
    if (!dir || !*dir) dir = SSDLAB_ANALYSIS_DIR;
    snprintf(script, len, "%s/ssdlab-plot", dir);
    if (access(script, R_OK) != 0) {
        fprintf(stderr, "ssdlab plot: cannot find the analysis package at '%s': %s; expected SSDLAB_ANALYSIS to name the project's analysis/ folder\n",
                script, strerror(errno));
        return NULL;
    }
    char **v = calloc((size_t)argc + 3, sizeof *v);
    if (!v) return fputs("ssdlab plot: out of memory\n", stderr), NULL;
    v[0] = (char *)python;
    v[1] = script;
    for (int i = 0; i < argc; i++) v[i + 2] = args[i];
    return v;
}

static void exec_failed(const char *python)
{
    fprintf(stderr, "ssdlab plot: cannot run '%s': %s; expected Debian's python3 with python3-h5py and python3-matplotlib (scripts/setup installs them)\n",
            python, strerror(errno));
}

int cmd_plot(int argc, char **argv)
{
    char script[4096];
    char **v = plot_argv(script, sizeof script, argc - 1, argv + 1);
    if (!v) return EXIT_FAILED;
    fflush(NULL);
    execv(v[0], v);
    exec_failed(v[0]);
    free(v);
    return EXIT_FAILED;
}

int cli_plot(const char *kind, const char *result, const char *png)
{
    char *args[] = {(char *)kind, (char *)result, "-o", (char *)png};
    char script[4096];
    char **v = plot_argv(script, sizeof script, 4, args);
    if (!v) return EXIT_FAILED;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        execv(v[0], v);
        exec_failed(v[0]);
        _exit(EXIT_FAILED);
    }
    free(v);
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) < 0) return EXIT_FAILED;
    return WIFEXITED(status) ? WEXITSTATUS(status) : EXIT_FAILED;
}
