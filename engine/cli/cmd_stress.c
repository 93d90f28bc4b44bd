/* ssdlab stress: random traffic on small drives of every preset family,
 * with the FTL integrity checker after every GC erase and SLC fold
 * (engine/stress.c does the work). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "stress.h"

static const char help[] =
    "Usage: ssdlab stress [--ops N] [--seed N] [--full-size] [--set KEY=VALUE]... [--max-memory SIZE] [DRIVE]...\n\n"
    "Runs random episodes of host traffic (random mixes, sequential runs, overwrites\n"
    "of a hot set, TRIMs, idle periods, full-drive fills) on each drive, and checks\n"
    "the FTL after every garbage-collection erase, every SLC fold and every episode:\n"
    "every logical block maps to its latest write, and every count matches.\n"
    "Without DRIVE, every preset family in models/drives (the files that name no\n"
    "family of their own). Drives are shrunk to one die per channel, 48 pages per\n"
    "block and 24 blocks per plane beyond GC's reserves, the user capacity 80 %\n"
    "of those, so GC and folding start early.\n\n"
    "Options:\n"
    "      --ops N          host requests in all, shared out among the drives (default 100000)\n"
    "      --seed N         seed of the episodes and of the drive (default 1)\n"
    "      --full-size      do not shrink the drives\n"
    "      --set KEY=VALUE  override one key on every drive (after the shrinking)\n"
    "      --max-memory SIZE refuse a drive whose tables need more (default: the machine's memory)\n"
    "  -h, --help           this help\n\n"
    "Exit status: 0 when every check held, 1 at the first violation (the message\n"
    "names the drive, the point in the run and what broke), 2 on bad input.\n";

typedef struct stress_options {
    uint64_t ops;
    bool full_size;
    cli_config_args config; /* --set, --seed, --max-memory */
} stress_options;

static cfg *load_drive(const char *drive, const stress_options *o)
{
    /* the shrinking first, so that the user's --set overrides it */
    cli_config_args a = o->config;
    a.drive = drive;
    size_t n = (o->full_size ? 0 : stress_shrink_set_count) + (size_t)o->config.set_count;
    a.sets = calloc(n ? n : 1, sizeof *a.sets);
    if (!a.sets) return fprintf(stderr, "ssdlab stress: out of memory\n"), NULL;
    a.set_count = 0;
    for (size_t i = 0; !o->full_size && i < stress_shrink_set_count; i++) a.sets[a.set_count++] = stress_shrink_sets[i];
    bool capacity_set = false, blocks_set = false;
    for (int i = 0; i < o->config.set_count; i++) {
        const char *set = o->config.sets[i];
        a.sets[a.set_count++] = set;
        capacity_set |= !strncmp(set, "drive.user_capacity=", 20);
        blocks_set |= !strncmp(set, "nand.blocks_per_plane=", 22);
    }
    cfg *c = cli_load_config(&a);
    free(a.sets);
    if (c && !o->full_size) stress_shrink(c, blocks_set, capacity_set);
    return c;
}

static int stress_drive(const char *drive, uint64_t ops, const stress_options *o)
{
    cfg *c = load_drive(drive, o);
    if (!c) return EXIT_BAD_INPUT;
    stress_counts n;
    char err[1024];
    double t0 = cli_wall_seconds();
    int rc = stress_run(c, ops, cfg_uint(c, "sim.seed"), &n, err, sizeof err);
    cfg_free(c);
    if (rc) {
        fprintf(stderr, "ssdlab stress: %s: %s\n", drive, err);
        return EXIT_FAILED;
    }
    const char *base = strrchr(drive, '/');
    printf("%s (%.0f MiB): %llu requests (%llu reads, %llu writes, %llu trims) in", base ? base + 1 : drive,
           (double)n.capacity / (1 << 20), (unsigned long long)n.requests,
           (unsigned long long)n.reads, (unsigned long long)n.writes, (unsigned long long)n.trims);
    for (int k = 0; k < EPISODE_COUNT; k++)
        printf(" %llu %s%s", (unsigned long long)n.episodes[k], stress_episode_names[k], k + 1 < EPISODE_COUNT ? "," : "");
    printf(" episodes; %.0f s simulated; integrity held at %llu GC erases, %llu folds, %llu episode ends; %.1f s\n",
           n.simulated_s, (unsigned long long)n.gc_checks, (unsigned long long)n.fold_checks,
           (unsigned long long)n.episode_checks, cli_wall_seconds() - t0);
    fflush(stdout);
    return EXIT_OK;
}

static int parse_stress_options(int argc, char **argv, stress_options *o)
{
    enum { OPT_OPS = 2000, OPT_FULL_SIZE };
    static const struct option opts[] = {{"ops", required_argument, NULL, OPT_OPS}, {"seed", required_argument, NULL, OPT_SEED},
                                         {"full-size", no_argument, NULL, OPT_FULL_SIZE}, {"set", required_argument, NULL, OPT_SET},
                                         {"max-memory", required_argument, NULL, OPT_MAX_MEMORY},
                                         {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
    int opt;
    while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        if (cli_config_option(&o->config, opt, optarg)) continue;
        if (opt == OPT_OPS) {
            if (!cli_parse_count(optarg, &o->ops)) return cli_usage_error("stress", "--ops '%s': expected a whole number", optarg);
        } else if (opt == OPT_FULL_SIZE) o->full_size = true;
        else if (opt == 'h') return fputs(help, stdout), EXIT_OK;
        else return cli_usage_error("stress", "bad option");
    }
    return -1;
}

int cmd_stress(int argc, char **argv)
{
    stress_options o = {.ops = 100000};
    int rc = parse_stress_options(argc, argv, &o);
    glob_t g = {0};
    char **drives = argv + optind, **families = NULL;
    int count = argc - optind;
    if (rc < 0 && count == 0) {
        count = stress_families(cli_models_dir(), &g, &families);
        drives = families;
        if (count <= 0) rc = cli_usage_error("stress", "no drive file in %s/drives; expected preset families there, or DRIVE arguments", cli_models_dir());
    }
    for (int i = 0; rc < 0 && i < count; i++) {
        uint64_t share = o.ops / (uint64_t)count + ((uint64_t)i < o.ops % (uint64_t)count);
        int r = stress_drive(drives[i], share, &o);
        if (r != EXIT_OK) rc = r;
    }
    free(families);
    if (g.gl_pathc) globfree(&g);
    cli_config_args_free(&o.config);
    return rc < 0 ? EXIT_OK : rc;
}
