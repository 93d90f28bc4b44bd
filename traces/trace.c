/* Opening a trace: the table of formats, guessing a file's format, and
 * handing out its records. The formats themselves are in read_*.c. */
#include "trace.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader.h"

static const trace_kind *const kinds[TRACE_FORMATS] = {
    [TRACE_MSR] = &trace_kind_msr,         [TRACE_FIU] = &trace_kind_fiu,       [TRACE_UMASS] = &trace_kind_umass,
    [TRACE_BLKPARSE] = &trace_kind_blkparse, [TRACE_DISKSIM] = &trace_kind_disksim, [TRACE_FIO] = &trace_kind_fio,
    [TRACE_BINARY] = &trace_kind_binary,   [TRACE_ALIBABA] = &trace_kind_alibaba, [TRACE_TENCENT] = &trace_kind_tencent,
    [TRACE_VSCSI] = &trace_kind_vscsi,     [TRACE_HPL] = &trace_kind_hpl,       [TRACE_WPA] = &trace_kind_wpa,
    [TRACE_COLUMNS] = &trace_kind_columns, [TRACE_XPERF] = &trace_kind_xperf};

const char *trace_format_name(trace_format f)
{
    if (f == TRACE_AUTO) return "auto";
    return f < TRACE_FORMATS ? kinds[f]->name : "?";
}

trace_format trace_format_parse(const char *name)
{
    for (int f = 0; f < TRACE_FORMATS; f++)
        if (strcmp(trace_format_name((trace_format)f), name) == 0) return (trace_format)f;
    return TRACE_FORMATS;
}

trace_format trace_format_of(const trace_reader *t) { return t->format; }

uint64_t trace_skipped(const trace_reader *t, const char **what)
{
    *what = t->skipped ? t->skipped_kind : "";
    return t->skipped;
}

const char *trace_where(trace_reader *t) { return reader_where(t); }

const char *trace_error(const trace_reader *t) { return t->err; }

int trace_next(trace_reader *t, trace_record *r)
{
    if (t->mem) {
        if (t->records == t->mem_count) return 0;
        *r = t->mem[t->records++];
        return 1;
    }
    if (t->kind->next) return t->kind->next(t, r);
    char *line;
    size_t len;
    for (;;) {
        int rc = input_line(t->in, &line, &len);
        if (rc < 0) return snprintf(t->err, sizeof t->err, "%s: %s", t->path, input_error(t->in)), -1;
        if (rc == 0) return 0;
        if (len == 0 || line[0] == '#') continue;
        memset(r, 0, sizeof *r);
        int got = t->kind->line(t, line, r);
        if (got != 0) return got;
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

/* Guesses a text format from the first line with content; *why says how. */
static trace_format guess_text(const char *line, const char **why)
{
    *why = "";
    if (!strncmp(line, "fio version", 11)) return *why = "its 'fio version' header", TRACE_FIO;
    if (wpa_header(line)) return *why = "its header names IO Type, Init Time and Offset (a WPA Disk Usage export)", TRACE_WPA;
    if (xperf_header(line)) return *why = "its BeginHeader line (xperf dumper output)", TRACE_XPERF;
    char copy[512], *f[MAX_FIELDS];
    snprintf(copy, sizeof copy, "%s", line);
    if (strchr(line, ',') && !strchr(line, ' ')) {
        int n = split_fields(copy, ",", false, f);
        if (n == 7) return *why = "7 comma-separated fields (Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime)", TRACE_MSR;
        return n == 5 ? guess_five(f, why) : TRACE_AUTO;
    }
    int n = split_fields(copy, " \t", true, f);
    if (n >= 6 && strchr(f[0], ',')) return *why = "blkparse's major,minor first", TRACE_BLKPARSE;
    if (n >= 8 && (!strcmp(f[5], "R") || !strcmp(f[5], "W"))) return *why = "8 or more fields, R or W the sixth", TRACE_FIU;
    if (n == 5) return *why = "5 fields separated by spaces (time device lba size type)", TRACE_DISKSIM;
    return TRACE_AUTO;
}

/* Binary formats are told by their first bytes: ssdlab's header, the
 * vscsi version byte of two records, or the HPL header's "$$TR". */
static trace_format guess_binary(trace_reader *t, const char **why)
{
    unsigned char b[80];
    long n = input_read(t->in, b, sizeof b);
    if (n >= 8 && !memcmp(b, "SSDLABTR", 8)) return *why = "its SSDLABTR header", TRACE_BINARY;
    if (n >= 4 && !memcmp(b, "$$TR", 4)) return *why = "its $$TR header (HP Labs SRT)", TRACE_HPL;
    if (n > 0 && vscsi_version_of(b, n)) return *why = "its records' version byte (VMware vscsi)", TRACE_VSCSI;
    return TRACE_AUTO;
}

/* The format of a file asked for as auto: TRACE_AUTO with a message in err
 * when none fits, or more than one. */
static trace_format guess(trace_reader *t, char *err, size_t errlen)
{
    const char *why = "";
    if (t->opt.columns && *t->opt.columns) return TRACE_COLUMNS;
    trace_format f = guess_binary(t, &why);
    if (reader_rewind(t, err, errlen)) return TRACE_AUTO;
    char *line = "";
    size_t len;
    int rc = 0;
    char from[40] = "its first bytes";
    unsigned long long at = 1;
    if (f == TRACE_AUTO) {
        while ((rc = input_line(t->in, &line, &len)) == 1 && (len == 0 || line[0] == '#')) {}
        f = rc == 1 ? guess_text(line, &why) : TRACE_AUTO;
        at = input_line_number(t->in);
        snprintf(from, sizeof from, "line %llu", at);
        if (reader_rewind(t, err, errlen)) return TRACE_AUTO;
    }
    if (f == TRACE_FORMATS) return snprintf(err, errlen, "%s:%llu: %s; expected --format to say which", t->path, at, why), TRACE_AUTO;
    if (f == TRACE_AUTO)
        return snprintf(err, errlen, "%s:%llu: cannot tell the trace format from %s; expected one of msr, fiu, umass, blkparse, disksim, fio, "
                                     "binary, alibaba, tencent, vscsi, hpl, wpa, xperf (use --format), or a column map (--columns)",
                        t->path, at, rc == 1 ? "this line" : "its first bytes"), TRACE_AUTO;
    snprintf(t->guessed, sizeof t->guessed, " (read as %s, guessed from %s: %.120s; use --format)", kinds[f]->name, from, why);
    return f;
}

static trace_reader *failed(trace_reader *t)
{
    trace_close(t);
    return NULL;
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
    if (opt->columns && *opt->columns && t->format != TRACE_AUTO && t->format != TRACE_COLUMNS)
        return snprintf(err, errlen, "%s: a column map is given, and the format is %s; expected the columns format (or auto) with a column map",
                        path, kinds[t->format]->name), failed(t);
    if (!(t->in = input_open(path, err, errlen))) return failed(t);
    if (t->format == TRACE_AUTO && (t->format = guess(t, err, errlen)) == TRACE_AUTO) return failed(t);
    t->kind = kinds[t->format];
    if (t->kind->start && t->kind->start(t, err, errlen)) return failed(t);
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
    t->kind = kinds[TRACE_BINARY];
    t->mem = records;
    t->mem_count = count;
    return t;
}
