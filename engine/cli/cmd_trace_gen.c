/* ssdlab trace gen pcmark8: PCMark-like desktop traces (traces/pcmark8.c)
 * written as MSR Cambridge CSV, which every trace tool reads, or as
 * ssdlab's binary format when the name ends in .bin. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "outfile.h"
#include "pcmark8.h"

static const char help[] =
    "Usage: ssdlab trace gen pcmark8 --app NAME|all [--seed N] -o FILE|DIR\n\n"
    "Writes a PCMark-like desktop trace: one of the ten applications of PCMark 8's\n"
    "storage test, with its published counts of sequential and random reads and\n"
    "writes and its bytes read and written (docs/pcmark-like.md). The same seed\n"
    "gives the same trace. FILE ending in .bin gets ssdlab's binary format, else\n"
    "MSR Cambridge CSV. With --app all, -o names a folder: NAME.csv for each.\n\n"
    "Options:\n"
    "      --app NAME       photoshop-light, photoshop-heavy, illustrator, indesign,\n"
    "                       after-effects, word, excel, powerpoint, world-of-warcraft,\n"
    "                       battlefield-3, or all\n"
    "      --seed N         the trace's seed (default 1)\n"
    "  -o, --output PATH    the trace file (a folder with --app all)\n"
    "  -h, --help           this help\n";

/* MSR timestamps are Windows FILETIME ticks (100 ns); the traces start at
 * the same instant as MSR Cambridge's first volume. */
static const uint64_t MSR_EPOCH_TICKS = 128166372000000000ull;

static int write_records(FILE *fp, const trace_record *recs, size_t n, bool binary)
{
    if (binary && trace_write_header(fp)) return -1;
    for (size_t i = 0; i < n; i++) {
        const trace_record *r = &recs[i];
        if (binary ? trace_write(fp, r) != 0
                   : fprintf(fp, "%" PRIu64 ",pcmark8,0,%s,%" PRIu64 ",%u,0\n", MSR_EPOCH_TICKS + (uint64_t)r->time / 100,
                             r->op == TRACE_READ ? "Read" : "Write", r->offset, r->bytes) < 0)
            return -1;
    }
    return 0;
}

static int generate_one(const pcmark8_app *app, uint64_t seed, const char *path)
{
    trace_record *recs;
    size_t n;
    char err[512];
    if (pcmark8_generate(app, seed, &recs, &n, err, sizeof err)) {
        fprintf(stderr, "ssdlab trace gen: %s\n", err);
        return EXIT_FAILED;
    }
    size_t len = strlen(path);
    bool binary = len > 4 && !strcmp(path + len - 4, ".bin");
    outfile f;
    int rc = EXIT_OK;
    if (outfile_open(&f, path)) rc = EXIT_FAILED;
    else if (write_records(f.fp, recs, n, binary)) {
        outfile_abort(&f);
        rc = EXIT_FAILED;
    } else if (outfile_commit(&f)) rc = EXIT_FAILED;
    if (rc) fprintf(stderr, "ssdlab trace gen: cannot write '%s': %s\n", path, strerror(errno));
    else printf("%s: %s, %zu requests, %.1f s\n", path, app->title, n, n ? (double)recs[n - 1].time * 1e-9 : 0.0);
    free(recs);
    return rc;
}

int trace_gen_cmd(int argc, char **argv)
{
    static const struct option opts[] = {{"app", required_argument, NULL, 'a'}, {"seed", required_argument, NULL, 's'},
                                         {"output", required_argument, NULL, 'o'}, {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    const char *app = NULL, *out = NULL;
    uint64_t seed = 1;
    int opt;
    while ((opt = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
        if (opt == 'a') app = optarg;
        else if (opt == 'o') out = optarg;
        else if (opt == 's') {
            if (!cli_parse_count(optarg, &seed)) return cli_usage_error("trace gen", "--seed '%s': expected a whole number", optarg);
        } else if (opt == 'h') return fputs(help, stdout), EXIT_OK;
        else return cli_usage_error("trace gen", "bad option");
    }
    if (optind + 1 != argc || strcmp(argv[optind], "pcmark8") != 0)
        return cli_usage_error("trace gen", "expected the generator 'pcmark8'");
    if (!app || !out) return cli_usage_error("trace gen", "--app NAME and -o FILE are required");
    size_t count;
    const pcmark8_app *all = pcmark8_apps(&count);
    if (strcmp(app, "all") != 0) {
        const pcmark8_app *a = pcmark8_find(app);
        if (!a) return cli_usage_error("trace gen", "--app '%s': not a PCMark 8 application; expected one such as 'word', or 'all'", app);
        return generate_one(a, seed, out);
    }
    if (cli_make_dirs(out, "trace gen")) return EXIT_FAILED;
    for (size_t i = 0; i < count; i++) {
        char path[4200];
        snprintf(path, sizeof path, "%s/%s.csv", out, all[i].name);
        int rc = generate_one(&all[i], seed, path);
        if (rc) return rc;
    }
    return EXIT_OK;
}
