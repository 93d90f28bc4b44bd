/* The blank-separated text formats: FIU SRCMap, DiskSim/MQSim ASCII,
 * blkparse output and fio iologs. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "reader.h"
#include <stdlib.h>

static int parse_fiu(trace_reader *t, char *line, trace_record *r)
{
    char *f[MAX_FIELDS];
    uint64_t stamp, lba, size, major, minor;
    if (split_fields(line, " \t", true, f) < 8) return reader_bad(t, "fewer than 8 fields", "ts_ns pid process lba size R/W major minor [md5]");
    if (!parse_u64(f[0], &stamp)) return reader_bad(t, "the timestamp is not a whole number", "nanoseconds");
    if (!parse_u64(f[3], &lba)) return reader_bad(t, "the LBA is not a whole number", "a 512-byte sector number");
    if (!parse_u64(f[4], &size)) return reader_bad(t, "the size is not a whole number", "a count of 512-byte sectors");
    if (!strcmp(f[5], "R") || !strcmp(f[5], "r")) r->op = TRACE_READ;
    else if (!strcmp(f[5], "W") || !strcmp(f[5], "w")) r->op = TRACE_WRITE;
    else return reader_bad(t, "the operation is neither R nor W", "R or W");
    if (!parse_u64(f[6], &major) || !parse_u64(f[7], &minor)) return reader_bad(t, "the device numbers are not whole numbers", "major minor");
    r->offset = lba * 512;
    r->device = (uint32_t)(major * 256 + minor);
    if (reader_sized(t, size * 512, r)) return -1;
    return reader_set_ticks(t, stamp, 1.0, r) < 0 ? -1 : 1;
}

static int parse_disksim(trace_reader *t, char *line, trace_record *r)
{
    char *f[MAX_FIELDS];
    uint64_t device, lba, size, type;
    double stamp;
    if (split_fields(line, " \t", true, f) != 5) return reader_bad(t, "not 5 fields", "time device lba size type");
    if (!parse_real(f[0], &stamp)) return reader_bad(t, "the time is not a number", "a time in the trace's unit");
    if (!parse_u64(f[1], &device) || !parse_u64(f[2], &lba) || !parse_u64(f[3], &size))
        return reader_bad(t, "device, lba or size is not a whole number", "time device lba size type");
    if (!parse_u64(f[4], &type)) return reader_bad(t, "the type is not a whole number", "flags: 1 read, 0 write");
    r->op = (type & 1) ? TRACE_READ : TRACE_WRITE;
    r->offset = lba * 512;
    r->device = (uint32_t)device;
    if (reader_sized(t, size * 512, r)) return -1;
    return reader_set_time(t, stamp, t->opt.disksim_time_unit_ns > 0 ? t->opt.disksim_time_unit_ns : 1e6, r) < 0 ? -1 : 1;
}

/* blkparse's RWBS letters: D discard, W write, R read; and the zone
 * commands of Linux 6.17's blk_fill_rwbs: ZA append, ZR reset (and reset
 * all), ZF finish, ZO open, ZC close. -1: none of them (no data moved). */
static int rwbs_op(const char *rwbs)
{
    static const char zone[] = "ARFOC";
    static const trace_op zone_ops[] = {TRACE_ZONE_APPEND, TRACE_ZONE_RESET, TRACE_ZONE_FINISH, TRACE_ZONE_OPEN, TRACE_ZONE_CLOSE};
    const char *z = strchr(rwbs, 'Z');
    if (z && z[1] && strchr(zone, z[1])) return (int)zone_ops[strchr(zone, z[1]) - zone];
    if (strchr(rwbs, 'D')) return TRACE_TRIM;
    if (strchr(rwbs, 'W')) return TRACE_WRITE;
    if (strchr(rwbs, 'R')) return TRACE_READ;
    return -1;
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
    int n = split_fields(line, " \t", true, f);
    if (n < 6 || !strchr(f[0], ',')) return reader_bad(t, "not a blkparse event line", "maj,min cpu seq time pid action rwbs [sector + count]");
    char event = t->opt.blkparse_event ? t->opt.blkparse_event : 'Q';
    if (f[5][0] != event || f[5][1]) return 0;
    int op = n > 6 ? rwbs_op(f[6]) : -1;
    bool manages = op >= 0 && trace_op_is_zone_management((trace_op)op);
    if (op < 0 || n < 8 || (!manages && (n < 10 || strcmp(f[8], "+")))) return 0; /* no sector range (a flush) */
    double stamp;
    uint64_t sector, count = 0, major = 0, minor = 0;
    if (!parse_real(f[3], &stamp)) return reader_bad(t, "the time is not a number", "seconds");
    if (!parse_u64(f[7], &sector) || (!manages && !parse_u64(f[9], &count)))
        return reader_bad(t, "the sector range is not whole numbers", "sector + count");
    sscanf(f[0], "%llu,%llu", (unsigned long long *)&major, (unsigned long long *)&minor);
    r->op = (trace_op)op;
    if (count == 0 && !manages) return 0;
    r->offset = sector * 512;
    r->device = (uint32_t)(major * 256 + minor);
    if (manages) r->bytes = 0; /* a zone command names its zone's start, no data */
    else if (reader_sized(t, count * 512, r)) return -1;
    return reader_set_time(t, stamp, 1e9, r) ? -1 : 1;
}

static uint32_t fio_file(trace_reader *t, const char *name)
{
    for (int i = 0; i < t->file_count; i++)
        if (!strcmp(t->files[i], name)) return (uint32_t)i;
    if (t->file_count == MAX_FILES) return MAX_FILES - 1;
    t->files[t->file_count] = strdup(name);
    return (uint32_t)t->file_count++;
}

/* The header line says the iolog's version: 2 (no times) or 3 (each line
 * starts with a time in ms). */
static int start_fio(trace_reader *t, char *err, size_t errlen)
{
    char *line = "";
    size_t len;
    if (input_line(t->in, &line, &len) == 1 && !strncmp(line, "fio version", 11))
        t->fio_version = strstr(line, "version 3") ? 3 : strstr(line, "version 2") ? 2 : 0;
    if (!t->fio_version)
        return snprintf(err, errlen, "%s:1: not a fio iolog header; expected 'fio version 2 iolog' or 'fio version 3 iolog'", t->path), -1;
    return 0;
}

/* 1: a record; 0: a file action (add, open, close, sync, wait), skipped. */
static int parse_fio(trace_reader *t, char *line, trace_record *r)
{
    char *f[MAX_FIELDS];
    int n = split_fields(line, " \t", true, f);
    if (!n) return 0;
    int at = t->fio_version == 3 ? 1 : 0; /* v3 lines start with a time in ms */
    if (n < at + 2) return reader_bad(t, "too few fields", t->fio_version == 3 ? "time file action [offset length]" : "file action [offset length]");
    const char *action = f[at + 1];
    if (!strcmp(action, "read")) r->op = TRACE_READ;
    else if (!strcmp(action, "write")) r->op = TRACE_WRITE;
    else if (!strcmp(action, "trim")) r->op = TRACE_TRIM;
    else if (!strcmp(action, "add") || !strcmp(action, "open") || !strcmp(action, "close") || !strcmp(action, "sync") ||
             !strcmp(action, "datasync") || !strcmp(action, "wait"))
        return 0;
    else return reader_bad(t, "unknown action", "read, write, trim, add, open, close, sync, datasync or wait");
    uint64_t offset, length, ms = 0;
    if (n < at + 4 || !parse_u64(f[at + 2], &offset) || !parse_u64(f[at + 3], &length))
        return reader_bad(t, "offset or length missing or not whole numbers", "offset and length in bytes");
    if (at && !parse_u64(f[0], &ms)) return reader_bad(t, "the time is not a whole number", "milliseconds");
    r->offset = offset;
    r->device = fio_file(t, f[at]);
    if (reader_sized(t, length, r) || reader_set_ticks(t, ms, 1e6, r)) return -1;
    return 1;
}

const trace_kind trace_kind_fiu = {.name = "fiu", .line = parse_fiu};
const trace_kind trace_kind_disksim = {.name = "disksim", .line = parse_disksim};
const trace_kind trace_kind_blkparse = {.name = "blkparse", .line = parse_blkparse};
const trace_kind trace_kind_fio = {.name = "fio", .start = start_fio, .line = parse_fio};
