/* Trace readers: every format on real and hand-made traces, compressed
 * inputs, the binary format's round trip, and every kind of bad line. */
#include <bzlib.h>
#include <criterion/criterion.h>
#include <lzma.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "stats.h"
#include "trace.h"

#define SAMPLES SOURCE_DIR "/tests/data/traces/"

static char dir[] = "/tmp/ssdlab-trace-test-XXXXXX";
static void setup(void) { cr_assert_not_null(mkdtemp(dir)); }
static void teardown(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    cr_assert_eq(system(cmd), 0);
}
TestSuite(traces, .init = setup, .fini = teardown);

static const char *file_with(const char *name, const char *text)
{
    static char path[4][256];
    static int next;
    char *p = path[next++ % 4];
    snprintf(p, 256, "%s/%s", dir, name);
    FILE *f = fopen(p, "w");
    fputs(text, f);
    fclose(f);
    return p;
}

static trace_reader *open_text_file(const char *path)
{
    char err[512];
    trace_reader *t = trace_open(path, &(trace_options){0}, err, sizeof err);
    cr_assert_not_null(t, "%s", err);
    return t;
}

static void stats_of(const char *path, trace_options o, trace_stats *s)
{
    char err[1024];
    cr_assert_eq(trace_stats_compute(path, &o, s, err, sizeof err), 0, "%s", err);
}

/* A sample's format, counts and bytes (tests/data/traces/README.md). */
static void expect_sample(const char *name, trace_format format, uint64_t reads, uint64_t writes, uint64_t read_bytes,
                          uint64_t written_bytes, trace_stats *s)
{
    char path[512];
    snprintf(path, sizeof path, "%s%s", SAMPLES, name);
    stats_of(path, (trace_options){0}, s);
    cr_assert_eq(s->format, format, "%s", name);
    cr_assert_eq(s->count[TRACE_READ], reads, "%s", name);
    cr_assert_eq(s->count[TRACE_WRITE], writes, "%s", name);
    cr_assert_eq(s->bytes[TRACE_READ], read_bytes, "%s", name);
    cr_assert_eq(s->bytes[TRACE_WRITE], written_bytes, "%s", name);
}

/* Figures from tests/data/traces/README.md. */
Test(traces, msr_cambridge_rsrch_1)
{
    trace_stats s;
    stats_of(SAMPLES "msr_rsrch_1.csv", (trace_options){0}, &s);
    cr_assert_eq(s.requests, 13780);
    cr_assert_eq(s.count[TRACE_WRITE], 13738);
    cr_assert_eq(s.count[TRACE_READ], 42);
    cr_assert_eq(s.bytes[TRACE_READ], 568320);
    cr_assert_eq(s.bytes[TRACE_WRITE], 171211264);
    /* about 6.7 days */
    cr_assert(s.duration_s > 6.6 * 86400 && s.duration_s < 6.8 * 86400, "duration %.0f s", s.duration_s);
}

Test(traces, msr_cambridge_wdev_1)
{
    trace_stats s;
    stats_of(SAMPLES "msr_wdev_1.csv", (trace_options){.format = TRACE_MSR}, &s);
    cr_assert_eq(s.requests, 1055);
    cr_assert_eq(s.count[TRACE_READ], 0);
    cr_assert_eq(s.bytes[TRACE_WRITE], 5537792);
}

/* MSR stamps are FILETIME ticks near 1.3e17, past what a double holds
 * exactly: one tick (100 ns) apart they must still be 100 ns apart, and
 * rsrch_1 spans exactly 5,765,576,443,791 ticks. */
Test(traces, msr_times_to_the_tick)
{
    const char *csv = file_with("ticks.csv", "128166410318060999,h,0,Write,0,4096,1\n128166410318061000,h,0,Write,4096,4096,1\n");
    trace_reader *t = open_text_file(csv);
    trace_record r;
    cr_assert_eq(trace_next(t, &r), 1);
    cr_assert_eq(trace_next(t, &r), 1);
    cr_assert_eq(r.time, 100);
    trace_close(t);
    trace_stats s;
    stats_of(SAMPLES "msr_rsrch_1.csv", (trace_options){0}, &s);
    cr_assert_float_eq(s.duration_s, 576557.6443791, 1e-8);
}

Test(traces, disksim_mqsim_wsrch)
{
    trace_stats s;
    stats_of(SAMPLES "disksim_wsrch-small.trace", (trace_options){.disksim_time_unit_ns = 1}, &s);
    cr_assert_eq(s.requests, 24783);
    cr_assert_eq(s.count[TRACE_READ], 24779);
    cr_assert_eq(s.count[TRACE_WRITE], 4);
    cr_assert_eq(s.bytes[TRACE_READ], 382085120);
    cr_assert_eq(s.bytes[TRACE_WRITE], 32768);
    cr_assert_eq(s.devices, 6);
    cr_assert(s.duration_s > 55 && s.duration_s < 61, "60 s of trace, got %.3f", s.duration_s);
    char doubt[400];
    cr_assert_not(trace_time_doubtful(s.format, 1, s.requests, s.duration_s, doubt, sizeof doubt), "%s", doubt);
}

/* MQSim's traces are in ns; read in DiskSim's ms the 60 s trace spans 1.9
 * years, which is said; the same span for an MSR trace (its unit stated)
 * is not doubted, and a plausible DiskSim span neither. */
Test(traces, an_implausible_time_unit_is_doubted)
{
    trace_stats s;
    stats_of(SAMPLES "disksim_wsrch-small.trace", (trace_options){0}, &s);
    cr_assert_eq(s.format, TRACE_DISKSIM);
    cr_assert(s.duration_s > 55e6 && s.duration_s < 61e6, "%.0f s", s.duration_s);
    char doubt[400];
    cr_assert(trace_time_doubtful(s.format, 0, s.requests, s.duration_s, doubt, sizeof doubt));
    cr_assert(strstr(doubt, "the trace spans 16682.0 h for 24783 requests") && strstr(doubt, "use --time-unit ns"), "%s", doubt);
    cr_assert_not(trace_time_doubtful(TRACE_MSR, 0, s.requests, s.duration_s, doubt, sizeof doubt));
    cr_assert_not(trace_time_doubtful(TRACE_DISKSIM, 0, 24783, 3000, doubt, sizeof doubt), "under an hour");
    cr_assert(trace_time_doubtful(TRACE_DISKSIM, 0, 16000, 38 * 3600, doubt, sizeof doubt), "38 h for 16,000 requests");
}

/* What trace stats adds for a trace's shape, on five requests in closed
 * form: 4 of 5 aligned to 4 KiB (offset and size); one gap over 1 s (2.4
 * s); the busiest second holds 3 requests, from 0 s; sizes 4, 4, 4, 8, 16
 * KiB: p50 4 KiB, p90 and p99 16 KiB; the address range and one device. */
Test(traces, stats_of_a_trace_shape)
{
    const char *path = file_with("shape.csv", "100000000,h,0,Write,0,4096,1\n"
                                              "105000000,h,0,Write,512,4096,1\n"
                                              "106000000,h,0,Write,8192,8192,1\n"
                                              "130000000,h,0,Read,12288,16384,1\n"
                                              "131000000,h,0,Read,1048576,4096,1\n");
    trace_stats s;
    stats_of(path, (trace_options){.format = TRACE_MSR}, &s);
    cr_assert_eq(s.requests, 5);
    cr_assert_eq(s.aligned, 4);
    cr_assert_eq(s.idle_gaps, 1);
    cr_assert_float_eq(s.idle_s, 2.4, 1e-9);
    cr_assert_eq(s.busiest_requests, 3);
    cr_assert_float_eq(s.busiest_at_s, 0, 1e-12);
    cr_assert_float_eq(s.size_pct[0], 4096, 0);
    cr_assert_float_eq(s.size_pct[1], 16384, 0);
    cr_assert_float_eq(s.size_pct[2], 16384, 0);
    cr_assert_eq(s.min_offset, 0);
    cr_assert_eq(s.max_end, 1048576 + 4096);
    cr_assert_eq(s.devices, 1);
    cr_assert_eq(s.device[0].requests, 5);
    cr_assert_eq(s.device[0].count[TRACE_READ], 2);
}

/* Alibaba's and Tencent's layouts, on hand-made samples written from the
 * published field lists (tests/data/traces/README.md): opcodes, units
 * (Alibaba: bytes and microseconds; Tencent: 512 B sectors and seconds),
 * devices; both guessed from their first line. */
Test(traces, alibaba_and_tencent)
{
    trace_stats s;
    stats_of(SAMPLES "alibaba_handmade.csv", (trace_options){0}, &s);
    cr_assert_eq(s.format, TRACE_ALIBABA);
    cr_assert_eq(s.count[TRACE_READ], 2);
    cr_assert_eq(s.bytes[TRACE_READ], 4096 + 512);
    cr_assert_eq(s.bytes[TRACE_WRITE], 8192);
    cr_assert_eq(s.devices, 2);
    cr_assert_eq(s.device[0].id, 3);
    cr_assert_float_eq(s.duration_s, 0.001, 1e-12);
    stats_of(SAMPLES "tencent_handmade.csv", (trace_options){0}, &s);
    cr_assert_eq(s.format, TRACE_TENCENT);
    cr_assert_eq(s.count[TRACE_READ], 1);
    cr_assert_eq(s.bytes[TRACE_READ], 4096);
    cr_assert_eq(s.bytes[TRACE_WRITE], 8192 + 512);
    cr_assert_eq(s.min_offset, 0);
    cr_assert_eq(s.max_end, 16384);
    cr_assert_eq(s.device[0].id, 1283);
    cr_assert_float_eq(s.duration_s, 1, 1e-12);
}

/* A guessed format's error says what it guessed and why; a line that fits
 * two formats is refused, naming them. */
Test(traces, a_guess_is_said)
{
    char err[600];
    trace_options o = {0};
    trace_stats s;
    const char *csv = file_with("guessed.csv", "0,303567,3584,w,0.0\nx,1,2,w,3\n");
    cr_assert_eq(trace_stats_compute(csv, &o, &s, err, sizeof err), -1);
    cr_assert(strstr(err, ":2: the ASU is not a whole number; expected an application storage unit number (read as umass, "
                          "guessed from line 1: 5 comma-separated fields, r or w the fourth"), "%s", err);
    const char *both = file_with("both.csv", "1,R,2,r,3\n");
    cr_assert_null(trace_open(both, &o, err, sizeof err));
    cr_assert(strstr(err, ":1: it fits more than one of umass, alibaba and tencent; expected --format to say which"), "%s", err);
    o.format = TRACE_UMASS;
    cr_assert_eq(trace_stats_compute(csv, &o, &s, err, sizeof err), -1);
    cr_assert_null(strstr(err, "read as"), "a format given is not a guess: %s", err);
}

/* VMware vscsi, version 1 (the CloudPhysics part of libCacheSim's sample:
 * counts and bytes from tests/data/traces/README.md), and version 2 on two
 * hand-made 40-byte records: a 4 KiB read at sector 8 and, 250 us later,
 * an 8 KiB write at sector 16; a SYNCHRONIZE CACHE (0x35) between them is
 * no I/O and is skipped. */
static void put_le(unsigned char *p, uint64_t v, int n)
{
    for (int i = 0; i < n; i++, v >>= 8) p[i] = (unsigned char)v;
}

static void vscsi2(FILE *f, unsigned cmd, uint32_t len, uint64_t lbn, uint64_t ts)
{
    unsigned char b[40] = {0};
    put_le(b, cmd, 2);
    put_le(b + 2, 0x0200, 2);
    put_le(b + 8, len, 4);
    put_le(b + 16, lbn, 8);
    put_le(b + 24, ts, 8);
    fwrite(b, 1, sizeof b, f);
}

Test(traces, vscsi_both_versions)
{
    trace_stats s;
    expect_sample("vscsi_cloudphysics_part.vscsi", TRACE_VSCSI, 174, 226, 11403264, 11504640, &s);
    char path[300];
    snprintf(path, sizeof path, "%s/v2.vscsi", dir);
    FILE *f = fopen(path, "wb");
    vscsi2(f, 0x28, 4096, 8, 1000000);
    vscsi2(f, 0x35, 0, 0, 1000100);
    vscsi2(f, 0x2a, 8192, 16, 1000250);
    fclose(f);
    stats_of(path, (trace_options){0}, &s);
    cr_assert_eq(s.format, TRACE_VSCSI);
    cr_assert_eq(s.requests, 2);
    cr_assert_eq(s.bytes[TRACE_READ], 4096);
    cr_assert_eq(s.bytes[TRACE_WRITE], 8192);
    cr_assert_eq(s.min_offset, 4096);
    cr_assert_eq(s.max_end, 16 * 512 + 8192);
    cr_assert_float_eq(s.duration_s, 250e-6, 1e-12);
    char err[400];
    trace_options o = {.format = TRACE_VSCSI};
    cr_assert_null(trace_open(SAMPLES "msr_wdev_1.csv", &o, err, sizeof err));
    cr_assert(strstr(err, "not a vscsi trace: its first two records carry no version 1 or 2"), "%s", err);
}

Test(traces, fiu_cheetah)
{
    trace_stats s;
    stats_of(SAMPLES "fiu_cheetah_sample.blkparse", (trace_options){0}, &s);
    cr_assert_eq(s.requests, 9998);
    cr_assert_eq(s.count[TRACE_READ], 8896);
    cr_assert_eq(s.count[TRACE_WRITE], 1102);
    cr_assert_eq(s.bytes[TRACE_READ], 36438016);
    cr_assert_eq(s.bytes[TRACE_WRITE], 4513792);
    cr_assert(s.duration_s > 23 && s.duration_s < 24, "23.6 s, got %.3f", s.duration_s);
}

static trace_reader *open_text(const char *name, const char *text, trace_format f)
{
    char err[512];
    trace_options o = {.format = f};
    trace_reader *t = trace_open(file_with(name, text), &o, err, sizeof err);
    cr_assert_not_null(t, "%s", err);
    return t;
}

static void expect_record(trace_reader *t, sim_time_t time, trace_op op, uint64_t offset, uint32_t bytes, uint32_t dev)
{
    trace_record r;
    cr_assert_eq(trace_next(t, &r), 1, "%s", trace_error(t));
    cr_assert_eq(r.time, time);
    cr_assert_eq(r.op, op);
    cr_assert_eq(r.offset, offset);
    cr_assert_eq(r.bytes, bytes);
    cr_assert_eq(r.device, dev);
}

Test(traces, msr_times_are_filetime_ticks)
{
    trace_reader *t = open_text("m.csv", "1000,h,2,Read,4096,512,9\n1015,h,2,write,8192,4096,9\n", TRACE_AUTO);
    cr_assert_eq(trace_format_of(t), TRACE_MSR);
    expect_record(t, 0, TRACE_READ, 4096, 512, 2);
    expect_record(t, 1500, TRACE_WRITE, 8192, 4096, 2);
    trace_record r;
    cr_assert_eq(trace_next(t, &r), 0);
    trace_close(t);
}

Test(traces, umass_spc)
{
    trace_reader *t = open_text("u.spc", "0,100,4096,r,0.5\n1,8,512,W,0.75\n", TRACE_AUTO);
    cr_assert_eq(trace_format_of(t), TRACE_UMASS);
    expect_record(t, 0, TRACE_READ, 51200, 4096, 0);
    expect_record(t, 250000000, TRACE_WRITE, 4096, 512, 1);
    trace_close(t);
}

Test(traces, blkparse_queue_events_reads_writes_discards)
{
    const char *text = "  8,0    3        1     0.000000000   697  Q   W 223490 + 8 [kjournald]\n"
                       "  8,0    3        2     0.000002000   697  G   W 223490 + 8 [kjournald]\n"
                       "  8,0    3        3     0.000010000   697  Q   R 1000 + 16 [cat]\n"
                       "  8,0    3        4     0.000020000   697  Q  FWS [kworker]\n"
                       "  8,16   0        5     0.001000000   697  Q   D 2048 + 2048 [fstrim]\n"
                       "  8,0    3        6     0.002000000   697  D   R 1000 + 16 [cat]\n"
                       "\nCPU3 (8,0):\n Reads Queued:           1,        8KiB\n";
    trace_reader *t = open_text("b.txt", text, TRACE_AUTO);
    cr_assert_eq(trace_format_of(t), TRACE_BLKPARSE);
    expect_record(t, 0, TRACE_WRITE, 223490ull * 512, 4096, 2048);
    expect_record(t, 10000, TRACE_READ, 512000, 8192, 2048);
    expect_record(t, 1000000, TRACE_TRIM, 2048ull * 512, 1048576, 2064);
    trace_record r;
    cr_assert_eq(trace_next(t, &r), 0, "%s", trace_error(t));
    trace_close(t);
}

/* A zoned device's events (Linux 6.17's RWBS: ZA append, ZR reset, ZF
 * finish, ZO open, ZC close): management commands name a zone start and
 * carry no bytes; an append carries its data; a flag letter may follow. */
Test(traces, blkparse_zone_commands)
{
    const char *text = "259,0  0  1  0.000000000  42  Q  ZR 0 [fio]\n"
                       "259,0  0  2  0.000001000  42  Q  ZAS 16384 + 16 [fio]\n"
                       "259,0  0  3  0.000002000  42  Q  ZF 16384 [fio]\n"
                       "259,0  0  4  0.000003000  42  Q  ZO 32768 [fio]\n"
                       "259,0  0  5  0.000004000  42  Q  ZC 32768 [fio]\n"
                       "259,0  0  6  0.000005000  42  Q  WS 0 + 8 [fio]\n";
    trace_reader *t = open_text("z.txt", text, TRACE_BLKPARSE);
    expect_record(t, 0, TRACE_ZONE_RESET, 0, 0, 259 * 256);
    expect_record(t, 1000, TRACE_ZONE_APPEND, 16384ull * 512, 8192, 259 * 256);
    expect_record(t, 2000, TRACE_ZONE_FINISH, 16384ull * 512, 0, 259 * 256);
    expect_record(t, 3000, TRACE_ZONE_OPEN, 32768ull * 512, 0, 259 * 256);
    expect_record(t, 4000, TRACE_ZONE_CLOSE, 32768ull * 512, 0, 259 * 256);
    expect_record(t, 5000, TRACE_WRITE, 0, 4096, 259 * 256);
    trace_close(t);
}

Test(traces, fio_iolog_v2_and_v3)
{
    trace_reader *t = open_text("v2.log", "fio version 2 iolog\n/dev/sdb add\n/dev/sdb open\n/dev/sdb write 0 4096\n"
                                          "/dev/sdb read 8192 512\n/dev/sdb trim 0 1048576\n/dev/sdb close\n",
                                TRACE_AUTO);
    cr_assert_eq(trace_format_of(t), TRACE_FIO);
    expect_record(t, 0, TRACE_WRITE, 0, 4096, 0);
    expect_record(t, 0, TRACE_READ, 8192, 512, 0);
    expect_record(t, 0, TRACE_TRIM, 0, 1048576, 0);
    trace_close(t);
    t = open_text("v3.log", "fio version 3 iolog\n0 /dev/a add\n5 /dev/a open\n7 /dev/a read 4096 4096\n"
                            "9 /dev/b write 0 8192\n12 /dev/a close\n",
                  TRACE_FIO);
    expect_record(t, 0, TRACE_READ, 4096, 4096, 0);
    expect_record(t, 2000000, TRACE_WRITE, 0, 8192, 1);
    trace_close(t);
}

/* Each bad line stops the reader with FILE:LINE: what; expected what. */
static void expect_error(const char *text, trace_format f, const char *rest)
{
    char err[512];
    trace_options o = {.format = f};
    const char *path = file_with("bad.trace", text);
    trace_reader *t = trace_open(path, &o, err, sizeof err);
    cr_assert_not_null(t, "%s", err);
    trace_record r;
    int rc;
    while ((rc = trace_next(t, &r)) == 1) {}
    cr_assert_eq(rc, -1, "the bad line must be refused");
    char want[600];
    snprintf(want, sizeof want, "%s:%s", path, rest);
    cr_assert_str_eq(trace_error(t), want);
    trace_close(t);
}

Test(traces, malformed_lines_name_file_and_line)
{
    expect_error("10,h,0,Read,0,4096,1\n11,h,0,Erase,0,4096,1\n", TRACE_MSR,
                 "2: the Type is neither Read nor Write; expected Read or Write");
    expect_error("10,h,0,Read,0,4096\n", TRACE_MSR,
                 "1: not 7 comma-separated fields; expected Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime");
    expect_error("10,h,0,Read,zero,4096,1\n", TRACE_MSR, "1: the Offset is not a whole number; expected a byte offset");
    expect_error("20,h,0,Read,0,4096,1\n10,h,0,Read,0,4096,1\n", TRACE_MSR,
                 "2: the timestamp is earlier than the first record's; expected records in time order");
    expect_error("10,h,0,Read,0,0,1\n", TRACE_MSR, "1: the request size is 0 or above 4 GiB; expected a size of 1 B to 4 GiB");
    expect_error("100 1 proc 8 8 X 8 0 md5\n", TRACE_FIU, "1: the operation is neither R nor W; expected R or W");
    expect_error("0,1,4096,x,0.1\n", TRACE_UMASS, "1: the opcode is neither r nor w; expected r or w");
    expect_error("0.5 0 100 8 1\n0.7 0 100 8\n", TRACE_DISKSIM, "2: not 5 fields; expected time device lba size type");
    expect_error("  8,0 3 1 0.1 697 Q W abc + 8 [x]\n", TRACE_BLKPARSE,
                 "1: the sector range is not whole numbers; expected sector + count");
    expect_error("hello world\n", TRACE_BLKPARSE,
                 "1: not a blkparse event line; expected maj,min cpu seq time pid action rwbs [sector + count]");
    expect_error("fio version 2 iolog\n/dev/a frobnicate 0 1\n", TRACE_FIO,
                 "2: unknown action; expected read, write, trim, add, open, close, sync, datasync or wait");
}

Test(traces, unknown_format_is_refused)
{
    char err[512];
    trace_options o = {0};
    const char *path = file_with("x.trace", "what is this\n");
    cr_assert_null(trace_open(path, &o, err, sizeof err));
    cr_assert(strstr(err, ":1: cannot tell the trace format from this line"), "%s", err);
}

/* Compressed copies read as the original does. */
static void compress_with(const char *codec, const char *from, const char *to)
{
    FILE *in = fopen(from, "rb");
    cr_assert_not_null(in);
    static char data[1 << 20];
    size_t n = fread(data, 1, sizeof data, in);
    fclose(in);
    FILE *out = fopen(to, "wb");
    if (!strcmp(codec, "gzip")) {
        fclose(out);
        gzFile g = gzopen(to, "wb");
        gzwrite(g, data, (unsigned)n);
        gzclose(g);
        return;
    }
    static char packed[1 << 21];
    size_t m = 0;
    if (!strcmp(codec, "bzip2")) {
        unsigned len = sizeof packed;
        cr_assert_eq(BZ2_bzBuffToBuffCompress(packed, &len, data, (unsigned)n, 9, 0, 0), BZ_OK);
        m = len;
    } else if (!strcmp(codec, "xz")) {
        cr_assert_eq(lzma_easy_buffer_encode(6, LZMA_CHECK_CRC64, NULL, (uint8_t *)data, n, (uint8_t *)packed, &m, sizeof packed),
                     LZMA_OK);
    } else {
        m = ZSTD_compress(packed, sizeof packed, data, n, 3);
        cr_assert(!ZSTD_isError(m));
    }
    fwrite(packed, 1, m, out);
    fclose(out);
}

Test(traces, compressed_inputs_read_like_the_original)
{
    const char *src = SAMPLES "msr_rsrch_1.csv";
    const char *codecs[] = {"gzip", "bzip2", "xz", "zstd"};
    for (int i = 0; i < 4; i++) {
        char path[300];
        snprintf(path, sizeof path, "%s/rsrch.%s", dir, codecs[i]);
        compress_with(codecs[i], src, path);
        trace_stats s;
        stats_of(path, (trace_options){0}, &s);
        cr_assert_eq(s.requests, 13780, "%s", codecs[i]);
        cr_assert_eq(s.bytes[TRACE_WRITE], 171211264, "%s", codecs[i]);
    }
}

/* The binary format carries every field through. */
Test(traces, binary_round_trip)
{
    char path[300];
    snprintf(path, sizeof path, "%s/t.bin", dir);
    FILE *f = fopen(path, "wb");
    trace_write_header(f);
    trace_record in[3] = {{0, 4096, 512, 3, TRACE_READ}, {1234567, UINT64_C(1) << 40, 1048576, 0, TRACE_WRITE},
                          {99999999999ull, 0, 4096, 65535, TRACE_TRIM}};
    for (int i = 0; i < 3; i++) trace_write(f, &in[i]);
    fclose(f);
    char err[256];
    trace_reader *t = trace_open(path, &(trace_options){0}, err, sizeof err);
    cr_assert_not_null(t, "%s", err);
    cr_assert_eq(trace_format_of(t), TRACE_BINARY);
    for (int i = 0; i < 3; i++) expect_record(t, in[i].time, in[i].op, in[i].offset, in[i].bytes, in[i].device);
    trace_record r;
    cr_assert_eq(trace_next(t, &r), 0);
    trace_close(t);
    /* a cut record is an error */
    f = fopen(path, "ab");
    fwrite("abc", 1, 3, f);
    fclose(f);
    t = trace_open(path, &(trace_options){0}, err, sizeof err);
    for (int i = 0; i < 3; i++) cr_assert_eq(trace_next(t, &r), 1);
    cr_assert_eq(trace_next(t, &r), -1);
    cr_assert(strstr(trace_error(t), "t.bin:record 4: cut short (3 of 24 bytes); expected whole ssdlab binary records"), "%s", trace_error(t));
    trace_close(t);
}

/* HP Labs SRT: the ajw part (counts and bytes from tests/data/traces/
 * README.md; its 400 records span one day of a mostly idle workstation,
 * on disks 0 and 1), then hand-made header-less records of every size the
 * format defines: a version-4 short I/O (a read, 14 words), a version-1
 * short I/O (a write, 13 words), a version-4 suspect I/O (15 words) and a
 * long I/O (type 2), which are counted and skipped. */
static void put_be(unsigned char *p, uint64_t v, int n)
{
    for (int i = n - 1; i >= 0; i--, v >>= 8) p[i] = (unsigned char)v;
}

static void hpl_record(FILE *f, unsigned version, unsigned type, int words, uint32_t sec, uint32_t usec, uint32_t bytes,
                       uint32_t sector, uint32_t devno, uint32_t flags)
{
    unsigned char b[64] = {0};
    uint32_t w[16] = {(uint32_t)words * 4, version << 16 | type, sec, usec, 10, 500, bytes, sector, devno, 4, 1, flags, 0, 1, 0, 0};
    for (int i = 0; i < words; i++) put_be(b + 4 * i, w[i], 4);
    fwrite(b, 4, (size_t)words, f);
}

Test(traces, hpl_srt)
{
    trace_stats s;
    expect_sample("hpl_ajw_head.srt", TRACE_HPL, 242, 158, 696320, 1198080, &s);
    cr_assert_eq(s.devices, 2);
    cr_assert_float_eq(s.duration_s, 86401.058999, 1e-6);
    char path[300];
    snprintf(path, sizeof path, "%s/plain.srt", dir);
    FILE *f = fopen(path, "wb");
    hpl_record(f, 4, 1, 14, 5, 0, 4096, 100, 0x0100, 0x1b);
    hpl_record(f, 1, 1, 13, 5, 250, 8192, 200, 0x0200, 0x100);
    hpl_record(f, 4, 4, 15, 5, 300, 512, 300, 0x0100, 0x1);
    hpl_record(f, 4, 2, 16, 5, 400, 512, 300, 0x0100, 0x1);
    fclose(f);
    stats_of(path, (trace_options){.format = TRACE_HPL}, &s);
    cr_assert_eq(s.requests, 2);
    cr_assert_eq(s.bytes[TRACE_READ], 4096);
    cr_assert_eq(s.bytes[TRACE_WRITE], 8192);
    cr_assert_eq(s.min_offset, 100 * 512);
    cr_assert_eq(s.device[0].id, 1);
    cr_assert_eq(s.device[1].id, 2);
    cr_assert_float_eq(s.duration_s, 250e-6, 1e-12);
    cr_assert_eq(s.skipped, 2);
    f = fopen(path, "wb");
    hpl_record(f, 4, 1, 14, 0, 0, 4096, 100, 0x0100, 1);
    hpl_record(f, 4, 1, 13, 0, 0, 4096, 100, 0x0100, 1); /* a version-4 short I/O one word short */
    fclose(f);
    char err[600];
    cr_assert_eq(trace_stats_compute(path, &(trace_options){.format = TRACE_HPL}, &s, err, sizeof err), -1);
    cr_assert(strstr(err, "plain.srt:record 2: the record size does not match its version and type"), "%s", err);
}

/* WPA "Disk Usage" exports: the Windows 11 boot part (';', decimal commas,
 * '.' thousands, hex offsets; its 6 Flush rows counted and skipped), and a
 * hand-made ','-separated export with quoted numbers and times in ms. */
Test(traces, wpa_disk_usage)
{
    trace_stats s;
    expect_sample("wpa_win11_boot_head.csv", TRACE_WPA, 376, 18, 29451264, 151552, &s);
    cr_assert_eq(s.skipped, 6);
    cr_assert_str_eq(s.skipped_kind, "Flush");
    cr_assert_eq(s.devices, 1);
    cr_assert_eq(s.size_pct[2], 1048576); /* a row of "1.048.576" */
    const char *csv = file_with("wpa.csv", "\xEF\xBB\xBFIO Type,Init Time (ms),Size (B),Offset,Disk,Count\n"
                                           "Read,\"1,000.5\",\"16,384\",0x2000,0,1\n"
                                           "Flush,1002.0,0,0xFFFFFFFFFFFFFFFF,0,1\n"
                                           "Write,1003.5,512,8192,1,1\n");
    stats_of(csv, (trace_options){0}, &s);
    cr_assert_eq(s.format, TRACE_WPA);
    cr_assert_eq(s.requests, 2);
    cr_assert_eq(s.bytes[TRACE_READ], 16384);
    cr_assert_eq(s.min_offset, 8192);
    cr_assert_float_eq(s.duration_s, 3e-3, 1e-12);
    cr_assert_eq(s.skipped, 1);
    char err[600];
    const char *grouped = file_with("grouped.csv", "IO Type;Init Time (s);Size (B);Min Offset;Count\nRead;1,5;4.096;0x0;3\n");
    cr_assert_eq(trace_stats_compute(grouped, &(trace_options){0}, &s, err, sizeof err), -1);
    cr_assert(strstr(err, "grouped.csv:2: the row stands for more than one I/O (its Count is not 1)"), "%s", err);
    const char *no_size = file_with("nosize.csv", "IO Type;Init Time (s);Min Offset\nRead;1,5;0x0\n");
    cr_assert_eq(trace_stats_compute(no_size, &(trace_options){0}, &s, err, sizeof err), -1);
    cr_assert(strstr(err, "nosize.csv:1: the header has no Size column"), "%s", err);
}

/* Any other layout through a column map: 1-based columns, units, the
 * words of each operation, a header line skipped, either separator. */
Test(traces, column_map)
{
    const char *csv = file_with("any.tsv", "ts\tkind\tlba\tblocks\tvol\n100\tRD\t8\t8\t7\n250\tWR\t16\t16\t9\n900\tRD\t0\t1\t7\n");
    trace_options o = {.columns = "time=1:us,op=2:RD/WR,offset=3:sector,size=4:sector,device=5"};
    trace_stats s;
    stats_of(csv, o, &s);
    cr_assert_eq(s.format, TRACE_COLUMNS);
    cr_assert_eq(s.count[TRACE_READ], 2);
    cr_assert_eq(s.bytes[TRACE_READ], 4608);
    cr_assert_eq(s.bytes[TRACE_WRITE], 8192);
    cr_assert_eq(s.max_end, 16 * 512 + 8192);
    cr_assert_float_eq(s.duration_s, 800e-6, 1e-12);
    cr_assert_eq(s.devices, 2);
    cr_assert_eq(s.device[0].footprint_pages, 2);
    const char *semi = file_with("semi.csv", "0,5;Read;4096;4.096\n1,25;Write;8192;8.192\n");
    stats_of(semi, (trace_options){.columns = "time=1:s,op=2,offset=3,size=4"}, &s);
    cr_assert_eq(s.bytes[TRACE_WRITE], 8192);
    cr_assert_float_eq(s.duration_s, 0.75, 1e-12);
    char err[600];
    static const struct { const char *spec, *says; } bad[] = {
        {"time=1,op=2,offset=3,size=4", "'time=1': expected the time column's unit"},
        {"op=2,offset=3", "names no size column"},
        {"op=0,offset=3,size=4", "'op=0': expected a column number from 1 to 32"},
        {"op=2:R,offset=3,size=4", "expected op=COLUMN:READ/WRITE"},
        {"op=2,offset=3:4000B,size=4,colour=5", "'colour=5': unknown name"},
        {"op=2,offset=3:page,size=4", "'offset=3:page': expected an address unit"}};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        cr_assert_null(trace_open(csv, &(trace_options){.columns = bad[i].spec}, err, sizeof err));
        cr_assert(strstr(err, bad[i].says), "%s: %s", bad[i].spec, err);
    }
    trace_reader *t = trace_open(csv, &(trace_options){.columns = "time=1:us,op=2:RD/WR,offset=3,size=4:sector"}, err, sizeof err);
    cr_assert_not_null(t, "%s", err);
    const char *bad_line = file_with("badline.csv", "100,RD,8,8\n200,XX,8,8\n");
    trace_close(t);
    t = trace_open(bad_line, &(trace_options){.columns = "time=1:us,op=2:RD/WR,offset=3,size=4:sector"}, err, sizeof err);
    trace_record r;
    cr_assert_eq(trace_next(t, &r), 1);
    cr_assert_eq(trace_next(t, &r), -1);
    cr_assert(strstr(trace_error(t), "badline.csv:2: the operation is not one the column map names; expected RD, WR"), "%s", trace_error(t));
    trace_close(t);
    /* CloudPhysics' CSV as libCacheSim ships it (its header, seconds, hex
     * SCSI opcodes, sectors), hand-made in that layout */
    const char *cp = file_with("cloudphysics.csv", "version,time,op,size,lbn\n1,100,2a,4096,8\n1,101,28,512,0\n1,103,2A,8192,64\n");
    stats_of(cp, (trace_options){.columns = "time=2:s,op=3:28/2a,size=4:B,offset=5:sector"}, &s);
    cr_assert_eq(s.count[TRACE_WRITE], 2);
    cr_assert_eq(s.bytes[TRACE_READ], 512);
    cr_assert_eq(s.max_end, 64 * 512 + 8192);
    cr_assert_float_eq(s.duration_s, 3, 1e-12);
    /* a real trace read through a map gives what its own reader gives */
    trace_stats msr;
    stats_of(SAMPLES "msr_rsrch_1.csv", (trace_options){0}, &msr);
    stats_of(SAMPLES "msr_rsrch_1.csv", (trace_options){.columns = "time=1:100ns,device=3,op=4:Read/Write,offset=5,size=6"}, &s);
    cr_assert_eq(s.format, TRACE_COLUMNS);
    cr_assert_eq(s.requests, msr.requests);
    cr_assert_eq(s.bytes[TRACE_WRITE], msr.bytes[TRACE_WRITE]);
    cr_assert_eq(s.footprint_pages, msr.footprint_pages);
    cr_assert_eq(s.device[0].id, msr.device[0].id);
    cr_assert_float_eq(s.duration_s, msr.duration_s, 1e-9);
    cr_assert_null(trace_open(csv, &(trace_options){.format = TRACE_MSR, .columns = "op=2,offset=3,size=4"}, err, sizeof err));
    cr_assert(strstr(err, "a column map is given, and the format is msr"), "%s", err);
}

/* xperf dumper output (the Microsoft production server traces): fields
 * found by the header's names, hex offsets and sizes, arrival at
 * TimeStamp - ElapsedTime, a quoted file name with a comma, DiskFlush
 * counted and skipped, other events passed over; hand-made in the layout
 * xperf writes. */
Test(traces, xperf_dumper)
{
    const char *dump = file_with("x.csv",
        "  BeginHeader\n"
        "     DiskRead,  TimeStamp,  Process Name ( PID),  ThreadID,  IrpPtr,  ByteOffset,  IOSize, ElapsedTime,  DiskNum, IrpFlags\n"
        "    DiskWrite,  TimeStamp,  Process Name ( PID),  ThreadID,  CPU,  IrpPtr,  ByteOffset,  IOSize, ElapsedTime,  DiskNum, IrpFlags\n"
        "    DiskFlush,  TimeStamp,  Process Name ( PID),  ThreadID,  IrpPtr,  ElapsedTime,  DiskNum, IrpFlags\n"
        "  EndHeader\n"
        "     DiskRead,  1500,  app.exe (1200),  4400, 0xffffe28800000010, 0x0000002000, 0x00001000,  500,  0, 0x060043\n"
        "    DiskFlush,  1700,  app.exe (1200),  4400, 0xffffe28800000020,  90,  0, 0x000000\n"
        "  ProcessStart,  1800, \"a, b\"\n"
        "    DiskWrite,  2600,  app.exe (1200),  4400, 3, 0xffffe28800000030, 0x0000008000, 0x00002000,  300,  1, 0x060043\n");
    trace_stats s;
    stats_of(dump, (trace_options){0}, &s);
    cr_assert_eq(s.format, TRACE_XPERF);
    cr_assert_eq(s.requests, 2);
    cr_assert_eq(s.bytes[TRACE_READ], 4096);
    cr_assert_eq(s.bytes[TRACE_WRITE], 8192);
    cr_assert_eq(s.min_offset, 0x2000);
    cr_assert_eq(s.max_end, 0x8000 + 0x2000);
    cr_assert_eq(s.devices, 2);
    cr_assert_float_eq(s.duration_s, 1300e-6, 1e-12, "arrivals at 1000 and 2300 us");
    cr_assert_eq(s.skipped, 1);
    char err[600];
    const char *bad = file_with("bad.csv", "BeginHeader\nDiskRead, TimeStamp, IOSize\nEndHeader\n");
    cr_assert_null(trace_open(bad, &(trace_options){0}, err, sizeof err));
    cr_assert(strstr(err, "bad.csv:3: the header lays out no ElapsedTime field of DiskRead"), "%s", err);
}

/* The replay's lighter first pass gives what the full statistics give for
 * the counts, extents, span and devices, on traces of several devices
 * (MSR Cambridge's wdev: one; Alibaba's and Tencent's samples: two each),
 * and says that it counted no footprint. */
Test(traces, extent_pass_equals_the_statistics)
{
    const char *names[] = {"msr_wdev_1.csv", "alibaba_handmade.csv", "tencent_handmade.csv"};
    for (size_t n = 0; n < sizeof names / sizeof *names; n++) {
        char path[512], err[512];
        snprintf(path, sizeof path, "%s%s", SAMPLES, names[n]);
        trace_stats full, lean;
        stats_of(path, (trace_options){0}, &full);
        cr_assert_eq(trace_stats_extent(path, &(trace_options){0}, &lean, err, sizeof err), 0, "%s", err);
        cr_assert_eq(lean.requests, full.requests, "%s", names[n]);
        cr_assert(lean.requests > 0);
        cr_assert_eq(memcmp(lean.count, full.count, sizeof full.count), 0, "%s", names[n]);
        cr_assert_eq(memcmp(lean.bytes, full.bytes, sizeof full.bytes), 0, "%s", names[n]);
        cr_assert_eq(lean.min_offset, full.min_offset, "%s", names[n]);
        cr_assert_eq(lean.max_end, full.max_end, "%s", names[n]);
        cr_assert_eq(lean.duration_s, full.duration_s, "%s", names[n]);
        cr_assert_eq(lean.format, full.format, "%s", names[n]);
        cr_assert_eq(lean.devices, full.devices, "%s", names[n]);
        cr_assert_eq(lean.footprint_pages, UINT64_MAX);
        for (uint32_t i = 0; i < full.devices; i++) {
            cr_assert_eq(lean.device[i].id, full.device[i].id, "%s", names[n]);
            cr_assert_eq(lean.device[i].requests, full.device[i].requests, "%s", names[n]);
            cr_assert_eq(lean.device[i].min_offset, full.device[i].min_offset, "%s", names[n]);
            cr_assert_eq(lean.device[i].max_end, full.device[i].max_end, "%s", names[n]);
            cr_assert_eq(lean.device[i].footprint_pages, UINT64_MAX);
        }
    }
}

/* Lines are read in chunks of 64 KiB: 6,000 lines of 40 to 50 bytes
 * (about 270 KB, so some lines straddle each chunk's end), with CR LF
 * endings and the last line without one, read as written. */
Test(traces, lines_across_chunks)
{
    enum { LINES = 6000 };
    char path[300];
    snprintf(path, sizeof path, "%s/long.csv", dir);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    for (int i = 0; i < LINES; i++)
        fprintf(f, "%d,host,%d,%s,%d,4096,7%s", 1000 + i, i % 3, i % 2 ? "Write" : "Read", i * 4096 * (i % 7),
                i + 1 < LINES ? "\r\n" : "");
    cr_assert_eq(fclose(f), 0);
    trace_reader *t = open_text_file(path);
    for (int i = 0; i < LINES; i++)
        expect_record(t, (sim_time_t)i * 100, i % 2 ? TRACE_WRITE : TRACE_READ, (uint64_t)i * 4096 * (i % 7), 4096,
                      (uint32_t)(i % 3));
    trace_record r;
    cr_assert_eq(trace_next(t, &r), 0, "%s", trace_error(t));
    trace_close(t);
}

/* Whole numbers are what strtoull takes in base 10 and no more: spaces
 * around and leading zeros, up to 2^64 - 1; 2^64 is refused. */
Test(traces, whole_numbers_up_to_2_to_the_64)
{
    trace_reader *t = open_text("n.csv", "10,h, 3 ,Read,000000000000000000000004096,512,1\n", TRACE_MSR);
    expect_record(t, 0, TRACE_READ, 4096, 512, 3);
    trace_close(t);
    t = open_text("n2.csv", "10,h,0,Read,18446744073709551615,512,1\n", TRACE_MSR);
    trace_record r;
    cr_assert_eq(trace_next(t, &r), 1, "%s", trace_error(t));
    cr_assert_eq(r.offset, UINT64_MAX);
    trace_close(t);
    expect_error("10,h,0,Read,18446744073709551616,512,1\n", TRACE_MSR,
                 "1: the Offset is not a whole number; expected a byte offset");
    expect_error("10,h,0,Read,+4096,512,1\n", TRACE_MSR, "1: the Offset is not a whole number; expected a byte offset");
    expect_error("10,h,0,Read,40 96,512,1\n", TRACE_MSR, "1: the Offset is not a whole number; expected a byte offset");
}


/* Devices are told apart by their whole id: Tencent's volumes 77 and
 * 1101 (77 + 1024) are two devices, in both passes; the third request, on
 * volume 77 where its first ended (sector 8), is sequential, though one of
 * volume 1101 came between. */
Test(traces, devices_told_apart_whole)
{
    const char *path = file_with("volumes.csv", "1538323200,0,8,0,77\n"
                                                "1538323200,100,8,1,1101\n"
                                                "1538323201,8,16,1,77\n");
    trace_stats full, lean;
    char err[512];
    stats_of(path, (trace_options){0}, &full);
    cr_assert_eq(trace_stats_extent(path, &(trace_options){0}, &lean, err, sizeof err), 0, "%s", err);
    cr_assert_eq(full.devices, 2);
    cr_assert_eq(lean.devices, 2);
    cr_assert_eq(full.device[1].id, 1101);
    cr_assert_eq(lean.device[1].max_end, 108 * 512);
    cr_assert_eq(full.device[0].requests, 2);
    cr_assert_eq(full.device[0].max_end, 24 * 512);
    cr_assert_eq(full.sequential, 1);
}

/* Past a thousand devices: 3,000 volumes, each seen twice, the second
 * request where the first ended; the first 64 are described one by one
 * (STATS_DEVICES), every one is counted. */
Test(traces, thousands_of_devices)
{
    char path[300];
    snprintf(path, sizeof path, "%s/many.csv", dir);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    for (int pass = 0; pass < 2; pass++)
        for (int v = 0; v < 3000; v++) fprintf(f, "%d,%d,8,1,%d\n", 1538323200 + pass, pass * 8, v * 7);
    cr_assert_eq(fclose(f), 0);
    trace_stats s;
    stats_of(path, (trace_options){0}, &s);
    cr_assert_eq(s.devices, 3000);
    cr_assert_eq(s.sequential, 3000);
    cr_assert_eq(s.device[63].id, 63 * 7);
    cr_assert_eq(s.device[63].requests, 2);
}

/* A file that opens but cannot be read is an error, not an empty trace:
 * a read error taken for the end would replay a trace cut short. */
Test(traces, a_read_error_is_not_the_end)
{
    char err[400];
    for (int format = 0; format < 2; format++) {
        trace_options o = {.format = format ? TRACE_MSR : TRACE_AUTO};
        cr_assert_null(trace_open(dir, &o, err, sizeof err));
        cr_assert(strstr(err, "read error: Is a directory"), "%s", err);
    }
    trace_stats s;
    cr_assert_eq(trace_stats_compute(dir, &(trace_options){0}, &s, err, sizeof err), -1);
    cr_assert(strstr(err, "read error"), "%s", err);
}
