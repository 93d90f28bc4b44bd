/* ssdlab trace stats | convert */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "outfile.h"
#include "stats.h"
#include "trace.h"
#include "units.h"

static const char help[] =
    "Usage: ssdlab trace stats FILE [options]\n"
    "       ssdlab trace convert IN OUT [options]\n"
    "       ssdlab trace gen pcmark8 --app NAME|all [--seed N] -o FILE ('trace gen --help')\n\n"
    "stats prints request count, reads/writes/trims, bytes, size histogram,\n"
    "sequential share (and sequential reads and writes: each starting where the\n"
    "previous request of its kind ended), footprint (distinct 4 KiB pages), inter-arrival times and\n"
    "duration. convert writes ssdlab's binary trace format, which replays fastest.\n"
    "Inputs may be compressed with gzip, bzip2, xz or zstd.\n\n"
    "Options:\n"
    "  -f, --format F        msr, fiu, umass, blkparse, disksim, fio, binary, alibaba, tencent, vscsi,\n"
    "                        hpl, wpa, xperf, columns (default: guess from the first bytes or line)\n"
    "      --columns MAP     any CSV/TSV, laid out by a column map, e.g.\n"
    "                        time=1:us,op=2:R/W,offset=3:sector,size=4:B,device=5 (docs/traces.md)\n"
    "      --time-unit U     disksim/MQSim timestamps' unit: ns, us, ms or any time such as 100ns\n"
    "                        (default ms, DiskSim's; MQSim's traces are in ns)\n"
    "      --event E         blkparse: Q (queue, default) or D (dispatch)\n"
    "      --json            stats: the statistics as one JSON object, for scripts\n"
    "  -h, --help            this help\n";

enum { OPT_EVENT = 2000, OPT_JSON };

/* The options of stats and convert; json is NULL for convert, which takes
 * no --json. */
static int parse_options(int argc, char **argv, trace_options *o, bool *json)
{
    static const struct option opts[] = {{"format", required_argument, NULL, 'f'},
                                         {"json", no_argument, NULL, OPT_JSON},
                                         {"time-unit", required_argument, NULL, OPT_TIME_UNIT},
                                         {"event", required_argument, NULL, OPT_EVENT},
                                         {"columns", required_argument, NULL, OPT_COLUMNS},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    *o = (trace_options){.format = TRACE_AUTO};
    int opt;
    while ((opt = getopt_long(argc, argv, "f:h", opts, NULL)) != -1) {
        switch (opt) {
        case 'f':
            o->format = trace_format_parse(optarg);
            if (o->format == TRACE_FORMATS)
                return cli_usage_error("trace", "--format '%s': unknown; expected msr, fiu, umass, blkparse, disksim, fio, binary, alibaba, tencent, vscsi, hpl, wpa, xperf or columns", optarg);
            break;
        case OPT_COLUMNS: o->columns = optarg; break;
        case OPT_TIME_UNIT: {
            uint64_t ns;
            char why[160], expected[200];
            if (unit_parse(DIM_TIME, optarg, "ns", &ns, why, sizeof why, expected, sizeof expected) || !ns)
                return cli_usage_error("trace", "--time-unit '%s': expected a time unit such as ns, us, ms or 100ns", optarg);
            o->disksim_time_unit_ns = (double)ns;
            break;
        }
        case OPT_EVENT:
            if ((optarg[0] != 'Q' && optarg[0] != 'D') || optarg[1])
                return cli_usage_error("trace", "--event '%s': expected Q or D", optarg);
            o->blkparse_event = optarg[0];
            break;
        case OPT_JSON:
            if (!json) return cli_usage_error("trace convert", "--json: only trace stats writes JSON");
            *json = true;
            break;
        case 'h': fputs(help, stdout); return -1;
        default: return cli_usage_error("trace", "bad option");
        }
    }
    return 0;
}

static const char *const ops[3] = {"reads", "writes", "trims"};

static void print_devices(const trace_stats *s)
{
    for (uint32_t i = 0; i < s->devices && i < STATS_DEVICES && s->devices > 1; i++) {
        const trace_device *d = &s->device[i];
        printf("    device %-10u %llu requests (%llu reads, %llu writes, %llu trims), %.2f MiB read, %.2f MiB written, "
               "addresses %llu .. %llu B, ",
               d->id, (unsigned long long)d->requests, (unsigned long long)d->count[TRACE_READ],
               (unsigned long long)d->count[TRACE_WRITE], (unsigned long long)d->count[TRACE_TRIM],
               (double)d->bytes[TRACE_READ] / 1048576.0, (double)d->bytes[TRACE_WRITE] / 1048576.0,
               (unsigned long long)d->min_offset, (unsigned long long)d->max_end);
        if (d->footprint_pages == UINT64_MAX) printf("footprint not counted\n");
        else printf("footprint %llu pages of 4 KiB\n", (unsigned long long)d->footprint_pages);
    }
    if (s->devices > STATS_DEVICES) printf("    (and %u devices more)\n", s->devices - STATS_DEVICES);
}

static double share(uint64_t part, uint64_t whole) { return whole ? 100.0 * (double)part / (double)whole : 0.0; }

static void print_text(const char *path, const trace_stats *s)
{
    printf("trace %s\n", path);
    printf("  requests            %llu\n", (unsigned long long)s->requests);
    for (int i = 0; i < 3; i++)
        printf("  %-19s %llu (%llu bytes, %.2f MiB)\n", ops[i], (unsigned long long)s->count[i], (unsigned long long)s->bytes[i],
               (double)s->bytes[i] / 1048576.0);
    uint64_t zone_commands = 0;
    for (int i = TRACE_ZONE_APPEND; i < TRACE_OPS; i++) zone_commands += s->count[i];
    if (zone_commands) /* a zoned device's trace */
        printf("  zone commands       %llu: %llu appends (%llu bytes), %llu resets, %llu finishes, %llu opens, %llu closes\n",
               (unsigned long long)zone_commands, (unsigned long long)s->count[TRACE_ZONE_APPEND],
               (unsigned long long)s->bytes[TRACE_ZONE_APPEND], (unsigned long long)s->count[TRACE_ZONE_RESET],
               (unsigned long long)s->count[TRACE_ZONE_FINISH], (unsigned long long)s->count[TRACE_ZONE_OPEN],
               (unsigned long long)s->count[TRACE_ZONE_CLOSE]);
    /* a request is sequential when it starts where the device's previous
     * request of its kind ended (PCMark's published split) */
    for (int i = 0; i < 2; i++) {
        printf("  sequential %-8s %llu\n", ops[i], (unsigned long long)s->sequential_op[i]);
        printf("  random %-12s %llu\n", ops[i], (unsigned long long)(s->count[i] - s->sequential_op[i]));
    }
    printf("  address range       %llu .. %llu B\n", (unsigned long long)s->min_offset, (unsigned long long)s->max_end);
    printf("  devices             %u\n", s->devices);
    print_devices(s);
    printf("  sequential share    %.2f %%\n", share(s->sequential, s->requests));
    printf("  aligned to 4 KiB    %.2f %% of requests (offset and size)\n", share(s->aligned, s->requests));
    if (s->footprint_pages == UINT64_MAX) printf("  footprint           (address range above 2 TiB: not counted)\n");
    else printf("  footprint           %llu pages of 4 KiB (%.3f GiB)\n", (unsigned long long)s->footprint_pages,
                (double)s->footprint_pages * 4096 / 1073741824.0);
    if (s->skipped) printf("  skipped             %llu records (%s)\n", (unsigned long long)s->skipped, s->skipped_kind);
    printf("  duration            %.6f s\n", s->duration_s);
    printf("  inter-arrival       mean %.6g s, sd %.6g s; p50 %.3g s, p90 %.3g s, p99 %.3g s\n", s->interarrival_mean_s,
           s->interarrival_sd_s, s->gap_pct[0], s->gap_pct[1], s->gap_pct[2]);
    printf("  idle gaps over 1 s  %llu, %.3f s in all\n", (unsigned long long)s->idle_gaps, s->idle_s);
    printf("  busiest second      %llu requests, from %.0f s\n", (unsigned long long)s->busiest_requests, s->busiest_at_s);
    printf("  request size        p50 %.0f B, p90 %.0f B, p99 %.0f B\n", s->size_pct[0], s->size_pct[1], s->size_pct[2]);
    printf("  request sizes:\n");
    const char *labels[SIZE_BUCKETS] = {"<=512B", "1KiB", "2KiB", "4KiB", "8KiB", "16KiB", "32KiB",
                                        "64KiB", "128KiB", "256KiB", "512KiB", "1MiB", ">1MiB"};
    for (int i = 0; i < SIZE_BUCKETS; i++)
        if (s->size_hist[i]) printf("    %-8s %llu\n", labels[i], (unsigned long long)s->size_hist[i]);
}

/* A JSON string of text: quotes, backslashes and control characters escaped. */
static void json_string(const char *text)
{
    putchar('"');
    for (const unsigned char *c = (const unsigned char *)text; *c; c++) {
        if (*c == '"' || *c == '\\') printf("\\%c", *c);
        else if (*c < 0x20) printf("\\u%04x", *c);
        else putchar(*c);
    }
    putchar('"');
}

static void print_json(const char *path, const trace_stats *s)
{
    printf("{\"trace\": ");
    json_string(path);
    printf(", \"format\": \"%s\", \"requests\": %llu", trace_format_name(s->format), (unsigned long long)s->requests);
    for (int i = 0; i < 3; i++)
        printf(", \"%s\": {\"count\": %llu, \"bytes\": %llu, \"sequential\": %llu}", ops[i], (unsigned long long)s->count[i],
               (unsigned long long)s->bytes[i], (unsigned long long)(i < 2 ? s->sequential_op[i] : 0));
    printf(", \"min_offset\": %llu, \"max_end\": %llu, \"sequential\": %llu, \"aligned_4k\": %llu",
           (unsigned long long)s->min_offset, (unsigned long long)s->max_end, (unsigned long long)s->sequential,
           (unsigned long long)s->aligned);
    if (s->footprint_pages == UINT64_MAX) printf(", \"footprint_pages\": null");
    else printf(", \"footprint_pages\": %llu", (unsigned long long)s->footprint_pages);
    printf(", \"duration_s\": %.9g, \"interarrival_s\": {\"mean\": %.6g, \"sd\": %.6g, \"p50\": %.6g, \"p90\": %.6g, \"p99\": %.6g}",
           s->duration_s, s->interarrival_mean_s, s->interarrival_sd_s, s->gap_pct[0], s->gap_pct[1], s->gap_pct[2]);
    printf(", \"size_bytes\": {\"p50\": %.0f, \"p90\": %.0f, \"p99\": %.0f}", s->size_pct[0], s->size_pct[1], s->size_pct[2]);
    printf(", \"idle_gaps_over_1s\": %llu, \"idle_s\": %.6g, \"busiest_second\": {\"requests\": %llu, \"at_s\": %.0f}",
           (unsigned long long)s->idle_gaps, s->idle_s, (unsigned long long)s->busiest_requests, s->busiest_at_s);
    printf(", \"devices\": [");
    for (uint32_t i = 0; i < s->devices && i < STATS_DEVICES; i++) {
        const trace_device *d = &s->device[i];
        printf("%s{\"id\": %u, \"requests\": %llu, \"reads\": %llu, \"writes\": %llu, \"trims\": %llu, \"bytes_read\": %llu, "
               "\"bytes_written\": %llu, \"min_offset\": %llu, \"max_end\": %llu, \"footprint_pages\": ",
               i ? ", " : "", d->id, (unsigned long long)d->requests, (unsigned long long)d->count[TRACE_READ],
               (unsigned long long)d->count[TRACE_WRITE], (unsigned long long)d->count[TRACE_TRIM],
               (unsigned long long)d->bytes[TRACE_READ], (unsigned long long)d->bytes[TRACE_WRITE],
               (unsigned long long)d->min_offset, (unsigned long long)d->max_end);
        if (d->footprint_pages == UINT64_MAX) printf("null}");
        else printf("%llu}", (unsigned long long)d->footprint_pages);
    }
    printf("], \"device_count\": %u, \"skipped\": {\"records\": %llu, \"what\": ", s->devices, (unsigned long long)s->skipped);
    json_string(s->skipped_kind);
    printf("}}\n");
}

static int trace_stats_cmd(int argc, char **argv)
{
    trace_options o;
    bool json = false;
    int rc = parse_options(argc, argv, &o, &json);
    if (rc) return rc < 0 ? EXIT_OK : rc;
    if (optind + 1 != argc) return cli_usage_error("trace stats", "expected one trace file");
    const char *path = argv[optind];
    trace_stats s;
    char err[1024];
    if (trace_stats_compute(path, &o, &s, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return EXIT_BAD_INPUT;
    }
    if (json) print_json(path, &s);
    else print_text(path, &s);
    char doubt[400];
    if (trace_time_doubtful(s.format, o.disksim_time_unit_ns, s.requests, s.duration_s, doubt, sizeof doubt))
        fprintf(stderr, "ssdlab trace stats: warning: %s: %s\n", path, doubt);
    return EXIT_OK;
}

static int trace_convert_cmd(int argc, char **argv)
{
    trace_options o;
    int rc = parse_options(argc, argv, &o, NULL);
    if (rc) return rc < 0 ? EXIT_OK : rc;
    if (optind + 2 != argc) return cli_usage_error("trace convert", "expected an input and an output file");
    const char *in = argv[optind], *out = argv[optind + 1];
    char err[1024];
    trace_reader *t = trace_open(in, &o, err, sizeof err);
    if (!t) {
        fprintf(stderr, "%s\n", err);
        return EXIT_BAD_INPUT;
    }
    outfile f;
    if (outfile_open(&f, out)) {
        fprintf(stderr, "ssdlab trace convert: cannot write '%s': %s\n", out, strerror(errno));
        trace_close(t);
        return EXIT_FAILED;
    }
    trace_record r;
    uint64_t n = 0;
    int got;
    bool ok = trace_write_header(f.fp) == 0;
    while (ok && (got = trace_next(t, &r)) == 1) {
        ok = trace_write(f.fp, &r) == 0;
        n++;
    }
    if (ok && got < 0) {
        fprintf(stderr, "%s\n", trace_error(t));
        outfile_abort(&f);
        trace_close(t);
        return EXIT_BAD_INPUT;
    }
    trace_close(t);
    if (!ok || outfile_commit(&f)) {
        if (!ok) outfile_abort(&f);
        fprintf(stderr, "ssdlab trace convert: cannot write '%s': %s\n", out, strerror(errno));
        return EXIT_FAILED;
    }
    printf("%llu records written to %s\n", (unsigned long long)n, out);
    return EXIT_OK;
}

int cmd_trace(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        fputs(help, argc < 2 ? stderr : stdout);
        return argc < 2 ? EXIT_BAD_INPUT : EXIT_OK;
    }
    if (!strcmp(argv[1], "stats")) return trace_stats_cmd(argc - 1, argv + 1);
    if (!strcmp(argv[1], "convert")) return trace_convert_cmd(argc - 1, argv + 1);
    if (!strcmp(argv[1], "gen")) return trace_gen_cmd(argc - 1, argv + 1);
    return cli_usage_error("trace", "unknown subcommand '%s'; expected stats, convert or gen", argv[1]);
}
