#include "trace.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "input.h"

enum { MAX_FIELDS = 16, MAX_FILES = 256, HEADER = 16, RECORD = 24 };

static const char *const format_names[TRACE_FORMATS] = {
    [TRACE_AUTO] = "auto", [TRACE_MSR] = "msr", [TRACE_FIU] = "fiu", [TRACE_UMASS] = "umass",
    [TRACE_BLKPARSE] = "blkparse", [TRACE_DISKSIM] = "disksim", [TRACE_FIO] = "fio", [TRACE_BINARY] = "binary",
    [TRACE_ALIBABA] = "alibaba", [TRACE_TENCENT] = "tencent", [TRACE_VSCSI] = "vscsi"};

struct trace_reader {
    trace_input *in;
    char *path;
    trace_format format;
    trace_options opt;
    bool have_base;
    double base;      /* time of the first record, in the format's unit */
    int fio_version;
    int vscsi_version; /* 1: 32-byte records, 2: 40-byte ones */
    bool in_summary; /* blkparse: past the event lines */
    uint64_t records; /* binary and in memory: records read */
    trace_record *mem; /* a trace held in memory (trace_open_records), or NULL */
    size_t mem_count;
    char where[300];
    char guessed[220]; /* why the format was guessed, said with any error; "" when given */
    char *files[MAX_FILES]; /* fio: device numbers by file name */
    int file_count;
    char err[512];
};

const char *trace_format_name(trace_format f) { return f < TRACE_FORMATS ? format_names[f] : "?"; }

trace_format trace_format_parse(const char *name)
{
    for (int f = 0; f < TRACE_FORMATS; f++)
        if (strcmp(format_names[f], name) == 0) return (trace_format)f;
    return TRACE_FORMATS;
}

trace_format trace_format_of(const trace_reader *t) { return t->format; }

const char *trace_where(trace_reader *t)
{
    if (t->format == TRACE_BINARY || t->format == TRACE_VSCSI || t->mem)
        snprintf(t->where, sizeof t->where, "%s:record %llu", t->path, (unsigned long long)t->records);
    else
        snprintf(t->where, sizeof t->where, "%s:%llu", t->path, (unsigned long long)input_line_number(t->in));
    return t->where;
}
const char *trace_error(const trace_reader *t) { return t->err; }

static int bad(trace_reader *t, const char *what, const char *expected)
{
    snprintf(t->err, sizeof t->err, "%s:%llu: %s; expected %s%s", t->path, (unsigned long long)input_line_number(t->in), what,
             expected, t->guessed);
    return -1;
}

/* Splits a line into fields at any of `seps` (runs of them count once for
 * whitespace). Returns the field count. */
static int split(char *line, const char *seps, bool collapse, char **fields)
{
    int n = 0;
    char *p = line;
    while (n < MAX_FIELDS) {
        if (collapse)
            while (*p && strchr(seps, *p)) p++;
        if (!*p && (collapse || n > 0)) break;
        fields[n++] = p;
        p += strcspn(p, seps);
        if (!*p) break;
        *p++ = 0;
    }
    return n;
}

static bool parse_u64(const char *s, uint64_t *out)
{
    while (isspace((unsigned char)*s)) s++;
    if (!isdigit((unsigned char)*s)) return false;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    while (isspace((unsigned char)*end)) end++;
    if (*end || errno) return false;
    *out = v;
    return true;
}

static bool parse_real(const char *s, double *out)
{
    char *end;
    double v = strtod(s, &end);
    while (isspace((unsigned char)*end)) end++;
    if (end == s || *end || !isfinite(v) || v < 0) return false;
    *out = v;
    return true;
}

/* Time relative to the first record, from a timestamp in the format's unit. */
static int set_time(trace_reader *t, double stamp, double ns_per_unit, trace_record *r)
{
    if (!t->have_base) {
        t->base = stamp;
        t->have_base = true;
    }
    if (stamp < t->base) return bad(t, "the timestamp is earlier than the first record's", "records in time order");
    r->time = (sim_time_t)llround((stamp - t->base) * ns_per_unit);
    return 0;
}

static int sized(trace_reader *t, uint64_t bytes, trace_record *r)
{
    if (bytes == 0 || bytes > UINT32_MAX) return bad(t, "the request size is 0 or above 4 GiB", "a size of 1 B to 4 GiB");
    r->bytes = (uint32_t)bytes;
    return 0;
}

static int parse_msr(trace_reader *t, char *line, trace_record *r)
{
    char *f[MAX_FIELDS];
    uint64_t stamp, disk, offset, size;
    if (split(line, ",", false, f) != 7) return bad(t, "not 7 comma-separated fields", "Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime");
    if (!parse_u64(f[0], &stamp)) return bad(t, "the Timestamp is not a whole number", "Windows FILETIME ticks");
    if (!parse_u64(f[2], &disk)) return bad(t, "the DiskNumber is not a whole number", "a disk number");
    if (strcasecmp(f[3], "Read") == 0) r->op = TRACE_READ;
    else if (strcasecmp(f[3], "Write") == 0) r->op = TRACE_WRITE;
    else return bad(t, "the Type is neither Read nor Write", "Read or Write");
    if (!parse_u64(f[4], &offset)) return bad(t, "the Offset is not a whole number", "a byte offset");
    if (!parse_u64(f[5], &size)) return bad(t, "the Size is not a whole number", "a size in bytes");
    r->offset = offset;
    r->device = (uint32_t)disk;
    if (sized(t, size, r)) return -1;
    return set_time(t, (double)stamp, 100.0, r); /* FILETIME ticks are 100 ns */
}

static int parse_fiu(trace_reader *t, char *line, trace_record *r)
{
    char *f[MAX_FIELDS];
    uint64_t stamp, lba, size, major, minor;
    if (split(line, " \t", true, f) < 8) return bad(t, "fewer than 8 fields", "ts_ns pid process lba size R/W major minor [md5]");
    if (!parse_u64(f[0], &stamp)) return bad(t, "the timestamp is not a whole number", "nanoseconds");
    if (!parse_u64(f[3], &lba)) return bad(t, "the LBA is not a whole number", "a 512-byte sector number");
    if (!parse_u64(f[4], &size)) return bad(t, "the size is not a whole number", "a count of 512-byte sectors");
    if (!strcmp(f[5], "R") || !strcmp(f[5], "r")) r->op = TRACE_READ;
    else if (!strcmp(f[5], "W") || !strcmp(f[5], "w")) r->op = TRACE_WRITE;
    else return bad(t, "the operation is neither R nor W", "R or W");
    if (!parse_u64(f[6], &major) || !parse_u64(f[7], &minor)) return bad(t, "the device numbers are not whole numbers", "major minor");
    r->offset = lba * 512;
    r->device = (uint32_t)(major * 256 + minor);
    if (sized(t, size * 512, r)) return -1;
    return set_time(t, (double)stamp, 1.0, r);
}

static int parse_umass(trace_reader *t, char *line, trace_record *r)
{
    char *f[MAX_FIELDS];
    uint64_t asu, lba, size;
    double stamp;
    if (split(line, ",", false, f) < 5) return bad(t, "fewer than 5 comma-separated fields", "ASU,LBA,size,opcode,timestamp");
    if (!parse_u64(f[0], &asu)) return bad(t, "the ASU is not a whole number", "an application storage unit number");
    if (!parse_u64(f[1], &lba)) return bad(t, "the LBA is not a whole number", "a 512-byte block number");
    if (!parse_u64(f[2], &size)) return bad(t, "the size is not a whole number", "a size in bytes");
    while (isspace((unsigned char)*f[3])) f[3]++;
    if (tolower((unsigned char)f[3][0]) == 'r' && !f[3][1]) r->op = TRACE_READ;
    else if (tolower((unsigned char)f[3][0]) == 'w' && !f[3][1]) r->op = TRACE_WRITE;
    else return bad(t, "the opcode is neither r nor w", "r or w");
    if (!parse_real(f[4], &stamp)) return bad(t, "the timestamp is not a number", "seconds");
    r->offset = lba * 512;
    r->device = (uint32_t)asu;
    if (sized(t, size, r)) return -1;
    return set_time(t, stamp, 1e9, r);
}

/* Alibaba's block traces (2020): device_id,opcode,offset,length,timestamp. */
static int parse_alibaba(trace_reader *t, char *line, trace_record *r)
{
    char *f[MAX_FIELDS];
    uint64_t device, offset, length, stamp;
    if (split(line, ",", false, f) != 5) return bad(t, "not 5 comma-separated fields", "device_id,opcode,offset,length,timestamp");
    if (!parse_u64(f[0], &device)) return bad(t, "the device_id is not a whole number", "a device number");
    if (!strcmp(f[1], "R")) r->op = TRACE_READ;
    else if (!strcmp(f[1], "W")) r->op = TRACE_WRITE;
    else return bad(t, "the opcode is neither R nor W", "R or W");
    if (!parse_u64(f[2], &offset)) return bad(t, "the offset is not a whole number", "a byte offset");
    if (!parse_u64(f[3], &length)) return bad(t, "the length is not a whole number", "a size in bytes");
    if (!parse_u64(f[4], &stamp)) return bad(t, "the timestamp is not a whole number", "microseconds");
    r->offset = offset;
    r->device = (uint32_t)device;
    if (sized(t, length, r)) return -1;
    return set_time(t, (double)stamp, 1e3, r);
}

/* Tencent's CBS block traces (2018): timestamp,offset,size,type,volume. */
static int parse_tencent(trace_reader *t, char *line, trace_record *r)
{
    char *f[MAX_FIELDS];
    uint64_t stamp, offset, size, type, volume;
    if (split(line, ",", false, f) != 5) return bad(t, "not 5 comma-separated fields", "timestamp,offset,size,type,volume");
    if (!parse_u64(f[0], &stamp)) return bad(t, "the timestamp is not a whole number", "seconds");
    if (!parse_u64(f[1], &offset)) return bad(t, "the offset is not a whole number", "a 512-byte sector number");
    if (!parse_u64(f[2], &size)) return bad(t, "the size is not a whole number", "a count of 512-byte sectors");
    if (!parse_u64(f[3], &type) || type > 1) return bad(t, "the type is neither 0 nor 1", "0 (read) or 1 (write)");
    if (!parse_u64(f[4], &volume)) return bad(t, "the volume is not a whole number", "a volume number");
    r->op = type ? TRACE_WRITE : TRACE_READ;
    r->offset = offset * 512;
    r->device = (uint32_t)volume;
    if (sized(t, size * 512, r)) return -1;
    return set_time(t, (double)stamp, 1e9, r);
}

static int parse_disksim(trace_reader *t, char *line, trace_record *r)
{
    char *f[MAX_FIELDS];
    uint64_t device, lba, size, type;
    double stamp;
    if (split(line, " \t", true, f) != 5) return bad(t, "not 5 fields", "time device lba size type");
    if (!parse_real(f[0], &stamp)) return bad(t, "the time is not a number", "a time in the trace's unit");
    if (!parse_u64(f[1], &device) || !parse_u64(f[2], &lba) || !parse_u64(f[3], &size))
        return bad(t, "device, lba or size is not a whole number", "time device lba size type");
    if (!parse_u64(f[4], &type)) return bad(t, "the type is not a whole number", "flags: 1 read, 0 write");
    r->op = (type & 1) ? TRACE_READ : TRACE_WRITE;
    r->offset = lba * 512;
    r->device = (uint32_t)device;
    if (sized(t, size * 512, r)) return -1;
    return set_time(t, stamp, t->opt.disksim_time_unit_ns > 0 ? t->opt.disksim_time_unit_ns : 1e6, r);
}

/* 1: a record; 0: a line that is not an I/O of the chosen event (skipped). */
static int parse_blkparse(trace_reader *t, char *line, trace_record *r)
{
    char *f[MAX_FIELDS];
    while (isspace((unsigned char)*line)) line++;
    /* blkparse ends its output with a summary ("CPU0 (8,0):", "Total
     * (8,0):", counters): everything from there on is skipped. */
    if (t->in_summary || !line[0]) return 0;
    if ((!strncmp(line, "CPU", 3) && isdigit((unsigned char)line[3])) || !strncmp(line, "Total (", 7)) {
        t->in_summary = true;
        return 0;
    }
    int n = split(line, " \t", true, f);
    if (n < 6 || !strchr(f[0], ',')) return bad(t, "not a blkparse event line", "maj,min cpu seq time pid action rwbs [sector + count]");
    char event = t->opt.blkparse_event ? t->opt.blkparse_event : 'Q';
    if (f[5][0] != event || f[5][1]) return 0;
    if (n < 10 || strcmp(f[8], "+")) return 0; /* an event without a sector range (a flush) */
    double stamp;
    uint64_t sector, count, major = 0, minor = 0;
    if (!parse_real(f[3], &stamp)) return bad(t, "the time is not a number", "seconds");
    if (!parse_u64(f[7], &sector) || !parse_u64(f[9], &count))
        return bad(t, "the sector range is not whole numbers", "sector + count");
    sscanf(f[0], "%llu,%llu", (unsigned long long *)&major, (unsigned long long *)&minor);
    const char *rwbs = f[6];
    if (strchr(rwbs, 'D')) r->op = TRACE_TRIM;
    else if (strchr(rwbs, 'W')) r->op = TRACE_WRITE;
    else if (strchr(rwbs, 'R')) r->op = TRACE_READ;
    else return 0; /* neither data nor discard */
    if (count == 0) return 0;
    r->offset = sector * 512;
    r->device = (uint32_t)(major * 256 + minor);
    if (sized(t, count * 512, r) || set_time(t, stamp, 1e9, r)) return -1;
    return 1;
}

static uint32_t fio_file(trace_reader *t, const char *name)
{
    for (int i = 0; i < t->file_count; i++)
        if (!strcmp(t->files[i], name)) return (uint32_t)i;
    if (t->file_count == MAX_FILES) return MAX_FILES - 1;
    t->files[t->file_count] = strdup(name);
    return (uint32_t)t->file_count++;
}

/* 1: a record; 0: a file action (add, open, close, sync, wait), skipped. */
static int parse_fio(trace_reader *t, char *line, trace_record *r)
{
    char *f[MAX_FIELDS];
    int n = split(line, " \t", true, f);
    if (!n) return 0;
    int at = t->fio_version == 3 ? 1 : 0; /* v3 lines start with a time in ms */
    if (n < at + 2) return bad(t, "too few fields", t->fio_version == 3 ? "time file action [offset length]" : "file action [offset length]");
    const char *action = f[at + 1];
    if (!strcmp(action, "read")) r->op = TRACE_READ;
    else if (!strcmp(action, "write")) r->op = TRACE_WRITE;
    else if (!strcmp(action, "trim")) r->op = TRACE_TRIM;
    else if (!strcmp(action, "add") || !strcmp(action, "open") || !strcmp(action, "close") || !strcmp(action, "sync") ||
             !strcmp(action, "datasync") || !strcmp(action, "wait"))
        return 0;
    else return bad(t, "unknown action", "read, write, trim, add, open, close, sync, datasync or wait");
    uint64_t offset, length, ms = 0;
    if (n < at + 4 || !parse_u64(f[at + 2], &offset) || !parse_u64(f[at + 3], &length))
        return bad(t, "offset or length missing or not whole numbers", "offset and length in bytes");
    if (at && !parse_u64(f[0], &ms)) return bad(t, "the time is not a whole number", "milliseconds");
    r->offset = offset;
    r->device = fio_file(t, f[at]);
    if (sized(t, length, r) || set_time(t, (double)ms, 1e6, r)) return -1;
    return 1;
}

static uint64_t get_le(const unsigned char *p, int n)
{
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; i--) v = v << 8 | p[i];
    return v;
}

static int next_binary(trace_reader *t, trace_record *r)
{
    unsigned char b[RECORD];
    long got = input_read(t->in, b, RECORD);
    if (got < 0) return snprintf(t->err, sizeof t->err, "%s: %s", t->path, input_error(t->in)), -1;
    if (got == 0) return 0;
    t->records++;
    if (got < RECORD) return snprintf(t->err, sizeof t->err, "%s: the last record is cut short (%ld of %d bytes); expected whole records", t->path, got, RECORD), -1;
    r->time = get_le(b, 8);
    r->offset = get_le(b + 8, 8);
    r->bytes = (uint32_t)get_le(b + 16, 4);
    r->op = (trace_op)b[20];
    r->device = (uint32_t)get_le(b + 22, 2);
    if (r->op > TRACE_TRIM || r->bytes == 0)
        return snprintf(t->err, sizeof t->err, "%s: a record has operation %u and size %u; expected 0-2 and a size above 0", t->path, b[20], r->bytes), -1;
    return 1;
}

/* VMware vscsi (CloudPhysics' traces; libCacheSim's vscsi reader):
 * little-endian records, version 1 {u32 sn, len, nSG; u16 cmd, ver; u64
 * lbn, ts} or version 2 {u16 cmd, ver; u32 sn, len, nSG; u64 lbn, ts, rt};
 * len in bytes, lbn in 512 B sectors, ts in microseconds; the version is
 * the high byte of ver. SCSI reads and writes (6, 10, 12 and 16-byte
 * commands) are replayed; other commands are skipped. */
enum { VSCSI_V1 = 32, VSCSI_V2 = 40 };

static int vscsi_version_of(const unsigned char *b, long n)
{
    if (n >= 2 * VSCSI_V2 && b[3] == 2 && b[VSCSI_V2 + 3] == 2) return 2;
    if (n >= 2 * VSCSI_V1 && b[15] == 1 && b[VSCSI_V1 + 15] == 1) return 1;
    return 0;
}

static trace_op vscsi_op(unsigned cmd, bool *io)
{
    *io = true;
    switch (cmd) {
    case 0x08: case 0x28: case 0xa8: case 0x88: return TRACE_READ;
    case 0x0a: case 0x2a: case 0xaa: case 0x8a: return TRACE_WRITE;
    default: *io = false; return TRACE_READ;
    }
}

static int next_vscsi(trace_reader *t, trace_record *r)
{
    unsigned char b[VSCSI_V2];
    int size = t->vscsi_version == 2 ? VSCSI_V2 : VSCSI_V1;
    for (;;) {
        long got = input_read(t->in, b, (size_t)size);
        if (got < 0) return snprintf(t->err, sizeof t->err, "%s: %s", t->path, input_error(t->in)), -1;
        if (got == 0) return 0;
        t->records++;
        if (got < size)
            return snprintf(t->err, sizeof t->err, "%s:record %llu: cut short (%ld of %d bytes); expected whole vscsi records",
                            t->path, (unsigned long long)t->records, got, size), -1;
        bool v2 = size == VSCSI_V2, io;
        unsigned cmd = (unsigned)get_le(v2 ? b : b + 12, 2);
        uint64_t len = get_le(v2 ? b + 8 : b + 4, 4), lbn = get_le(b + 16, 8), ts = get_le(b + 24, 8);
        r->op = vscsi_op(cmd, &io);
        if (!io || len == 0) continue; /* not a read or write, or no data */
        r->offset = lbn * 512;
        r->bytes = (uint32_t)len;
        r->device = 0;
        if (set_time(t, (double)ts, 1e3, r)) {
            snprintf(t->err, sizeof t->err, "%s:record %llu: the timestamp is earlier than the first record's; expected records in time order",
                     t->path, (unsigned long long)t->records);
            return -1;
        }
        return 1;
    }
}

int trace_next(trace_reader *t, trace_record *r)
{
    if (t->mem) {
        if (t->records == t->mem_count) return 0;
        *r = t->mem[t->records++];
        return 1;
    }
    if (t->format == TRACE_BINARY) return next_binary(t, r);
    if (t->format == TRACE_VSCSI) return next_vscsi(t, r);
    char *line;
    size_t len;
    for (;;) {
        int rc = input_line(t->in, &line, &len);
        if (rc < 0) return snprintf(t->err, sizeof t->err, "%s: %s", t->path, input_error(t->in)), -1;
        if (rc == 0) return 0;
        if (len == 0 || line[0] == '#') continue;
        memset(r, 0, sizeof *r);
        switch (t->format) {
        case TRACE_MSR: return parse_msr(t, line, r) ? -1 : 1;
        case TRACE_FIU: return parse_fiu(t, line, r) ? -1 : 1;
        case TRACE_UMASS: return parse_umass(t, line, r) ? -1 : 1;
        case TRACE_DISKSIM: return parse_disksim(t, line, r) ? -1 : 1;
        case TRACE_ALIBABA: return parse_alibaba(t, line, r) ? -1 : 1;
        case TRACE_TENCENT: return parse_tencent(t, line, r) ? -1 : 1;
        case TRACE_BLKPARSE:
        case TRACE_FIO: {
            int got = t->format == TRACE_FIO ? parse_fio(t, line, r) : parse_blkparse(t, line, r);
            if (got != 0) return got;
            continue;
        }
        default: return bad(t, "internal: no parser", "a known format");
        }
    }
}

static bool is_one_of(const char *s, const char *const *words)
{
    for (; *words; words++)
        if (!strcmp(s, *words)) return true;
    return false;
}

/* Five comma-separated fields: UMass/SPC (r or w fourth), Alibaba (R or W
 * second) or Tencent (0 or 1 fourth, all whole numbers). *why says what
 * decided; TRACE_FORMATS when more than one fits. */
static trace_format guess_five(char **f, const char **why)
{
    static const char *const rw[] = {"r", "w", "R", "W", NULL}, *const RW[] = {"R", "W", NULL}, *const bits[] = {"0", "1", NULL};
    uint64_t v;
    bool umass = is_one_of(f[3], rw), alibaba = is_one_of(f[1], RW);
    bool tencent = is_one_of(f[3], bits) && parse_u64(f[0], &v) && parse_u64(f[1], &v) && parse_u64(f[2], &v) && parse_u64(f[4], &v);
    if (umass + alibaba + tencent > 1) return *why = "it fits more than one of umass, alibaba and tencent", TRACE_FORMATS;
    if (umass) return *why = "5 comma-separated fields, r or w the fourth (ASU,LBA,size,opcode,timestamp)", TRACE_UMASS;
    if (alibaba) return *why = "5 comma-separated fields, R or W the second (device_id,opcode,offset,length,timestamp)", TRACE_ALIBABA;
    if (tencent) return *why = "5 comma-separated whole numbers, 0 or 1 the fourth (timestamp,offset,size,type,volume)", TRACE_TENCENT;
    return TRACE_AUTO;
}

/* Guesses the format from the first line with content; *why says how. */
static trace_format guess(const char *line, const char **why)
{
    *why = "";
    if (!strncmp(line, "SSDLABTR", 8)) return TRACE_BINARY;
    if (!strncmp(line, "fio version", 11)) return TRACE_FIO;
    char copy[512], *f[MAX_FIELDS];
    snprintf(copy, sizeof copy, "%s", line);
    if (strchr(line, ',') && !strchr(line, ' ')) {
        int n = split(copy, ",", false, f);
        if (n == 7) return *why = "7 comma-separated fields (Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime)", TRACE_MSR;
        return n == 5 ? guess_five(f, why) : TRACE_AUTO;
    }
    int n = split(copy, " \t", true, f);
    if (n >= 6 && strchr(f[0], ',')) return *why = "blkparse's major,minor first", TRACE_BLKPARSE;
    if (n >= 8 && (!strcmp(f[5], "R") || !strcmp(f[5], "W"))) return *why = "8 or more fields, R or W the sixth", TRACE_FIU;
    if (n == 5) return *why = "5 fields separated by spaces (time device lba size type)", TRACE_DISKSIM;
    return TRACE_AUTO;
}

/* A vscsi trace is told by the version byte of its first two records;
 * the file is then read again from its start. -1 when it was asked for by
 * name and is not one, or cannot be opened again. */
static int open_vscsi(trace_reader *t, char *err, size_t errlen)
{
    unsigned char b[2 * VSCSI_V2];
    long n = input_read(t->in, b, sizeof b);
    t->vscsi_version = n > 0 ? vscsi_version_of(b, n) : 0;
    if (!t->vscsi_version && t->format == TRACE_VSCSI)
        return snprintf(err, errlen, "%s: not a vscsi trace: its first two records carry no version 1 or 2; expected "
                                     "VMware vscsi records as libCacheSim reads them", t->path), -1;
    if (t->vscsi_version && t->format == TRACE_AUTO)
        snprintf(t->guessed, sizeof t->guessed, " (read as vscsi version %d, from its records' version byte; use --format)",
                 t->vscsi_version);
    if (t->vscsi_version) t->format = TRACE_VSCSI;
    input_close(t->in);
    return (t->in = input_open(t->path, err, errlen)) ? 0 : -1;
}

trace_reader *trace_open(const char *path, const trace_options *opt, char *err, size_t errlen)
{
    trace_reader *t = calloc(1, sizeof *t);
    if (!t || !(t->path = strdup(path))) {
        free(t);
        return snprintf(err, errlen, "out of memory"), NULL;
    }
    t->opt = *opt;
    t->format = opt->format;
    if (!(t->in = input_open(path, err, errlen))) {
        trace_close(t);
        return NULL;
    }
    if ((t->format == TRACE_AUTO || t->format == TRACE_VSCSI) && open_vscsi(t, err, errlen)) {
        trace_close(t);
        return NULL;
    }
    if (t->format == TRACE_VSCSI) return t;
    char *line;
    size_t len;
    if (t->format == TRACE_AUTO || t->format == TRACE_FIO || t->format == TRACE_BINARY) {
        /* Read the first line to guess the format (or read the header),
         * then start again from the top. */
        int rc;
        while ((rc = input_line(t->in, &line, &len)) == 1 && (len == 0 || line[0] == '#')) {}
        const char *why = "";
        trace_format seen = rc == 1 ? guess(line, &why) : TRACE_AUTO;
        if (t->format == TRACE_AUTO && seen == TRACE_FORMATS) {
            snprintf(err, errlen, "%s:%llu: %s; expected --format to say which", path, (unsigned long long)input_line_number(t->in), why);
            trace_close(t);
            return NULL;
        }
        if (t->format == TRACE_AUTO && seen != TRACE_AUTO)
            snprintf(t->guessed, sizeof t->guessed, " (read as %s, guessed from line %llu: %.100s; use --format)",
                     format_names[seen], (unsigned long long)input_line_number(t->in), why);
        if (seen == TRACE_FIO) t->fio_version = strstr(line, "version 3") ? 3 : strstr(line, "version 2") ? 2 : 0;
        if (t->format == TRACE_AUTO) t->format = seen;
        if (t->format == TRACE_AUTO) {
            snprintf(err, errlen, "%s:%llu: cannot tell the trace format from this line; expected one of msr, fiu, umass, blkparse, disksim, fio, binary, alibaba, tencent (use --format)",
                     path, (unsigned long long)input_line_number(t->in));
            trace_close(t);
            return NULL;
        }
        if (t->format == TRACE_FIO && !t->fio_version) {
            snprintf(err, errlen, "%s:1: not a fio iolog header; expected 'fio version 2 iolog' or 'fio version 3 iolog'", path);
            trace_close(t);
            return NULL;
        }
        input_close(t->in);
        if (!(t->in = input_open(path, err, errlen))) {
            trace_close(t);
            return NULL;
        }
        if (t->format == TRACE_FIO) input_line(t->in, &line, &len); /* past the header */
        if (t->format == TRACE_BINARY) {
            unsigned char h[HEADER];
            if (input_read(t->in, h, HEADER) != HEADER || memcmp(h, "SSDLABTR", 8) || get_le(h + 8, 4) != 1) {
                snprintf(err, errlen, "%s: not an ssdlab binary trace of version 1; expected the header written by 'ssdlab trace convert'", path);
                trace_close(t);
                return NULL;
            }
        }
    }
    return t;
}

void trace_close(trace_reader *t)
{
    if (!t) return;
    input_close(t->in);
    for (int i = 0; i < t->file_count; i++) free(t->files[i]);
    free(t->path);
    free(t->mem);
    free(t);
}

trace_reader *trace_open_records(trace_record *records, size_t count, const char *name, char *err, size_t errlen)
{
    trace_reader *t = calloc(1, sizeof *t);
    if (!t || !(t->path = strdup(name))) {
        free(t);
        free(records);
        return snprintf(err, errlen, "out of memory"), NULL;
    }
    t->format = TRACE_BINARY;
    t->mem = records;
    t->mem_count = count;
    return t;
}

static void put_le(unsigned char *p, uint64_t v, int n)
{
    for (int i = 0; i < n; i++, v >>= 8) p[i] = (unsigned char)v;
}

int trace_write_header(void *file)
{
    unsigned char h[HEADER] = "SSDLABTR";
    put_le(h + 8, 1, 4);
    put_le(h + 12, 0, 4);
    return fwrite(h, 1, HEADER, file) == HEADER ? 0 : -1;
}

int trace_write(void *file, const trace_record *r)
{
    unsigned char b[RECORD] = {0};
    put_le(b, r->time, 8);
    put_le(b + 8, r->offset, 8);
    put_le(b + 16, r->bytes, 4);
    b[20] = (unsigned char)r->op;
    put_le(b + 22, r->device, 2);
    return fwrite(b, 1, RECORD, file) == RECORD ? 0 : -1;
}
