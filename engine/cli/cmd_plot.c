/* ssdlab plot KIND RESULT.h5... -o OUT.png: hands over to the analysis
 * package (analysis/ssdlab-plot) under Debian's Python, which has h5py and
 * matplotlib. SSDLAB_PYTHON and SSDLAB_ANALYSIS override where they are. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

#ifndef SSDLAB_ANALYSIS_DIR
#define SSDLAB_ANALYSIS_DIR "analysis"
#endif

int cmd_plot(int argc, char **argv)
{
    const char *python = getenv("SSDLAB_PYTHON"), *dir = getenv("SSDLAB_ANALYSIS");
    if (!python || !*python) python = "/usr/bin/python3";
    if (!dir || !*dir) dir = SSDLAB_ANALYSIS_DIR;
    char script[4096];
    snprintf(script, sizeof script, "%s/ssdlab-plot", dir);
    if (access(script, R_OK) != 0) {
        fprintf(stderr, "ssdlab plot: cannot find the analysis package at '%s': %s; expected SSDLAB_ANALYSIS to name the project's analysis/ folder\n",
                script, strerror(errno));
        return EXIT_FAILED;
    }
    char **args = calloc((size_t)argc + 2, sizeof *args);
    if (!args) return fputs("ssdlab plot: out of memory\n", stderr), EXIT_FAILED;
    args[0] = (char *)python;
    args[1] = script;
    for (int i = 1; i < argc; i++) args[i + 1] = argv[i];
    fflush(NULL);
    execv(python, args);
    fprintf(stderr, "ssdlab plot: cannot run '%s': %s; expected Debian's python3 with python3-h5py and python3-matplotlib (scripts/setup installs them)\n",
            python, strerror(errno));
    free(args);
    return EXIT_FAILED;
}
