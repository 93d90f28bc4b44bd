/* ssdlab bench machine: what this machine charges for the random memory
 * accesses that bound the model at full size (docs/ssd-model.md, "The
 * machine's pages"). The same binary ran a wear phase up to a third
 * slower from one hour to the next, and from one machine of a class to
 * another; these figures, measured next to a timed run, tell whether the
 * machine or the code changed. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, madvise */
#include <getopt.h>
#include <stdbool.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "bigmem.h"
#include "cli.h"

static const char machine_help[] =
    "Usage: ssdlab bench machine [--mib N] [--touches N] [--seed N]\n\n"
    "What this machine charges for random memory accesses, over a table of N MiB\n"
    "(512 by default: a 480 GB drive's mapping table), first on transparent huge\n"
    "pages, then on 4 KiB pages, in ns per access:\n"
    "  dependent   a load whose address is read by the one before (a lone miss:\n"
    "              what a lookup costs when nothing overlaps it)\n"
    "  page        touches fetched in batches of 1024 and then written, as GC\n"
    "              stores a victim's mapping entries, each in a 4 KiB page of its own\n"
    "  same 2 MiB  the same, four touches to each 2 MiB (four 4 KiB pages)\n"
    "  same page   the same, four touches to each 4 KiB page, lines apart\n"
    "  huge MiB    the process's memory on huge pages while the row ran\n"
    "Where 'page' is well above 'same page' and about 'same 2 MiB', each new\n"
    "4 KiB page costs an address translation of its own, huge pages or not: on a\n"
    "virtual machine, the host maps its memory in 4 KiB pages. The wear and the\n"
    "full-size cases of bench model run slower as 'page' grows.\n\n"
    "  --mib N      the table's size in MiB, rounded up to whole 2 MiB (default 512)\n"
    "  --touches N  touches timed per figure (default 4194304)\n"
    "  --seed N     seed of the pages' order (default 1)\n";

enum { PAGE = 4096, LINE = 64, LINES_PER_PAGE = PAGE / LINE, BATCH = 1024, GROUP = 4 };

/* A table of `bytes` on huge pages (on 2 MiB boundaries, bigmem.c: so
 * that a group of SAME_REGION is one huge page) or on 4 KiB pages,
 * written once so that no page fault is timed; NULL when out of memory. */
static char *table_alloc(size_t bytes, bool huge)
{
    char *t;
    if (huge) {
        if (!(t = bigmem_alloc(bytes))) return NULL;
    } else {
        if ((t = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)) == MAP_FAILED) return NULL;
        madvise(t, bytes, MADV_NOHUGEPAGE); /* advice only */
    }
    memset(t, 1, bytes);
    return t;
}

static void table_free(char *t, size_t bytes, bool huge)
{
    if (huge) bigmem_free(t, bytes);
    else munmap(t, bytes);
}

/* The offset of the line the i-th page in the order is touched at. */
static size_t line_at(const uint32_t *order, const uint32_t *line_of, size_t i)
{
    return (size_t)order[i] * PAGE + line_of[i] * LINE;
}

/* ns per load of a chain through every page once, in the pages' order:
 * each visited line holds the offset of the next. */
static double dependent_ns(char *t, const uint32_t *order, const uint32_t *line_of, size_t pages)
{
    for (size_t i = 0; i < pages; i++) {
        size_t at = line_at(order, line_of, i), next = line_at(order, line_of, (i + 1) % pages);
        memcpy(t + at, &next, sizeof next);
    }
    size_t at = line_at(order, line_of, 0);
    double t0 = cli_wall_seconds();
    for (size_t i = 0; i < pages; i++) memcpy(&at, t + at, sizeof at);
    double secs = cli_wall_seconds() - t0;
    if (at == SIZE_MAX) puts(""); /* keeps the chain's loads */
    return secs * 1e9 / (double)pages;
}

/* Where touch k (of GROUP) of the group at page `page` goes: its own
 * page's line; another 4 KiB page of the same 2 MiB; or another line of
 * the same page. */
typedef enum { OWN_PAGE, SAME_REGION, SAME_PAGE } grouping;

static size_t touch_at(grouping g, uint32_t page, uint32_t line, int k)
{
    enum { PAGES_PER_REGION = (2 << 20) / PAGE };
    enum { IN_REGION = PAGES_PER_REGION - 1 };
    if (g == SAME_REGION) page = (page & ~(uint32_t)IN_REGION) | ((page + k * (PAGES_PER_REGION / GROUP)) & IN_REGION);
    if (g == SAME_PAGE) line = (line + k * (LINES_PER_PAGE / GROUP)) % LINES_PER_PAGE;
    return (size_t)page * PAGE + line * LINE;
}

/* ns per touch of `touches` touches over the pages in their order, in
 * groups of GROUP (one per page for OWN_PAGE), fetched a batch at a time
 * and then written, as GC stores a victim's mapping entries. */
static double touch_ns(char *t, const uint32_t *order, const uint32_t *line_of, size_t pages, uint64_t touches,
                       grouping g)
{
    size_t batch[BATCH], next = 0;
    int per = g == OWN_PAGE ? 1 : GROUP;
    uint64_t done = 0;
    double t0 = cli_wall_seconds();
    while (done < touches) {
        size_t n = 0;
        for (; n + per <= BATCH && done + n < touches; next = (next + 1) % pages)
            for (int k = 0; k < per; k++) batch[n++] = touch_at(g, order[next], line_of[next], k);
        for (size_t i = 0; i < n; i++) __builtin_prefetch(t + batch[i], 1);
        for (size_t i = 0; i < n; i++) t[batch[i]]++;
        done += n;
    }
    return (cli_wall_seconds() - t0) * 1e9 / (double)done;
}

/* The process's memory on huge pages, in MiB (from /proc/self/smaps_rollup),
 * or -1 where the system does not say. */
static long huge_mib(void)
{
    FILE *f = fopen("/proc/self/smaps_rollup", "r");
    if (!f) return -1;
    char line[256];
    long kib = -1;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "AnonHugePages: %ld kB", &kib) == 1) break;
    fclose(f);
    return kib < 0 ? -1 : kib / 1024;
}

/* Prints one row: the four figures on a table of one kind of page. */
static int measure(const char *name, bool huge, size_t bytes, const uint32_t *order, const uint32_t *line_of,
                   uint64_t touches)
{
    size_t pages = bytes / PAGE;
    char *t = table_alloc(bytes, huge);
    if (!t) return -1;
    long on_huge = huge_mib();
    double dep = dependent_ns(t, order, line_of, pages);
    double own = touch_ns(t, order, line_of, pages, touches, OWN_PAGE);
    double region = touch_ns(t, order, line_of, pages, touches, SAME_REGION);
    double same = touch_ns(t, order, line_of, pages, touches, SAME_PAGE);
    printf("%-8s %10.1f %10.1f %12.1f %10.1f %10ld\n", name, dep, own, region, same, on_huge);
    table_free(t, bytes, huge);
    return 0;
}

/* Whether text is an integer from `least` to `most`, into *out. */
static bool parse_count(const char *text, uint64_t least, uint64_t most, uint64_t *out)
{
    return cli_parse_count(text, out) && *out >= least && *out <= most;
}

int bench_machine(int argc, char **argv)
{
    static const struct option opts[] = {{"mib", required_argument, NULL, OPT_MIB},
                                         {"touches", required_argument, NULL, OPT_TOUCHES},
                                         {"seed", required_argument, NULL, OPT_SEED},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    uint64_t mib = 512, touches = 4194304, seed = 1;
    int opt;
    while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (opt) {
        case OPT_MIB:
            if (!parse_count(optarg, 1, 1u << 20, &mib))
                return cli_usage_error("bench machine", "--mib '%s': expected an integer from 1 to 1048576", optarg);
            break;
        case OPT_TOUCHES:
            if (!parse_count(optarg, 1, UINT64_C(1) << 40, &touches))
                return cli_usage_error("bench machine", "--touches '%s': expected an integer from 1 to 1099511627776",
                                       optarg);
            break;
        case OPT_SEED:
            if (!parse_count(optarg, 0, UINT32_MAX, &seed))
                return cli_usage_error("bench machine", "--seed '%s': expected an integer from 0 to 4294967295",
                                       optarg);
            break;
        case 'h': fputs(machine_help, stdout); return EXIT_OK;
        default: return cli_usage_error("bench machine", "bad option");
        }
    }
    if (optind < argc) return cli_usage_error("bench machine", "unexpected argument '%s'", argv[optind]);

    /* whole 2 MiB pages, so that each group of SAME_REGION stays in the table */
    mib = (mib + 1) / 2 * 2;
    size_t bytes = (size_t)mib << 20, pages = bytes / PAGE;
    uint32_t *order = malloc(pages * sizeof *order), *line_of = malloc(pages * sizeof *line_of);
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    int rc = EXIT_OK;
    if (order && line_of && r) {
        gsl_rng_set(r, (unsigned long)seed);
        for (size_t i = 0; i < pages; i++) {
            order[i] = (uint32_t)i;
            line_of[i] = (uint32_t)gsl_rng_uniform_int(r, LINES_PER_PAGE);
        }
        gsl_ran_shuffle(r, order, pages, sizeof *order);
        printf("ssdlab bench machine: %llu MiB table, %llu touches per figure, ns per access\n",
               (unsigned long long)mib, (unsigned long long)touches);
        printf("%-8s %10s %10s %12s %10s %10s\n", "pages", "dependent", "page", "same 2 MiB", "same page", "huge MiB");
        bool failed = measure("huge", true, bytes, order, line_of, touches) ||
                      measure("4KiB", false, bytes, order, line_of, touches);
        rc = failed ? EXIT_FAILED : EXIT_OK;
    } else {
        rc = EXIT_FAILED;
    }
    if (rc) fprintf(stderr, "ssdlab bench machine: out of memory for a %llu MiB table\n", (unsigned long long)mib);
    free(order);
    free(line_of);
    if (r) gsl_rng_free(r);
    return rc;
}
