/* The comma-separated formats of fixed layout: MSR Cambridge, UMass/SPC,
 * Alibaba and Tencent CBS block traces. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "reader.h"

static int parse_msr(trace_reader *t, char *line, trace_record *r)
{
    char *f[MAX_FIELDS];
    uint64_t stamp, disk, offset, size;
    if (split_fields(line, ",", false, f) != 7) return reader_bad(t, "not 7 comma-separated fields", "Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime");
    if (!parse_u64(f[0], &stamp)) return reader_bad(t, "the Timestamp is not a whole number", "Windows FILETIME ticks");
    if (!parse_u64(f[2], &disk)) return reader_bad(t, "the DiskNumber is not a whole number", "a disk number");
    if (strcasecmp(f[3], "Read") == 0) r->op = TRACE_READ;
    else if (strcasecmp(f[3], "Write") == 0) r->op = TRACE_WRITE;
    else return reader_bad(t, "the Type is neither Read nor Write", "Read or Write");
    if (!parse_u64(f[4], &offset)) return reader_bad(t, "the Offset is not a whole number", "a byte offset");
    if (!parse_u64(f[5], &size)) return reader_bad(t, "the Size is not a whole number", "a size in bytes");
    r->offset = offset;
    r->device = (uint32_t)disk;
    if (reader_sized(t, size, r)) return -1;
    return reader_set_ticks(t, stamp, 100.0, r) < 0 ? -1 : 1; /* FILETIME ticks are 100 ns */
}

static int parse_umass(trace_reader *t, char *line, trace_record *r)
{
    char *f[MAX_FIELDS];
    uint64_t asu, lba, size;
    double stamp;
    if (split_fields(line, ",", false, f) < 5) return reader_bad(t, "fewer than 5 comma-separated fields", "ASU,LBA,size,opcode,timestamp");
    if (!parse_u64(f[0], &asu)) return reader_bad(t, "the ASU is not a whole number", "an application storage unit number");
    if (!parse_u64(f[1], &lba)) return reader_bad(t, "the LBA is not a whole number", "a 512-byte block number");
    if (!parse_u64(f[2], &size)) return reader_bad(t, "the size is not a whole number", "a size in bytes");
    while (isspace((unsigned char)*f[3])) f[3]++;
    if (tolower((unsigned char)f[3][0]) == 'r' && !f[3][1]) r->op = TRACE_READ;
    else if (tolower((unsigned char)f[3][0]) == 'w' && !f[3][1]) r->op = TRACE_WRITE;
    else return reader_bad(t, "the opcode is neither r nor w", "r or w");
    if (!parse_real(f[4], &stamp)) return reader_bad(t, "the timestamp is not a number", "seconds");
    r->offset = lba * 512;
    r->device = (uint32_t)asu;
    if (reader_sized(t, size, r)) return -1;
    return reader_set_time(t, stamp, 1e9, r) < 0 ? -1 : 1;
}

/* Alibaba's block traces (2020): device_id,opcode,offset,length,timestamp. */
static int parse_alibaba(trace_reader *t, char *line, trace_record *r)
{
    char *f[MAX_FIELDS];
    uint64_t device, offset, length, stamp;
    if (split_fields(line, ",", false, f) != 5) return reader_bad(t, "not 5 comma-separated fields", "device_id,opcode,offset,length,timestamp");
    if (!parse_u64(f[0], &device)) return reader_bad(t, "the device_id is not a whole number", "a device number");
    if (!strcmp(f[1], "R")) r->op = TRACE_READ;
    else if (!strcmp(f[1], "W")) r->op = TRACE_WRITE;
    else return reader_bad(t, "the opcode is neither R nor W", "R or W");
    if (!parse_u64(f[2], &offset)) return reader_bad(t, "the offset is not a whole number", "a byte offset");
    if (!parse_u64(f[3], &length)) return reader_bad(t, "the length is not a whole number", "a size in bytes");
    if (!parse_u64(f[4], &stamp)) return reader_bad(t, "the timestamp is not a whole number", "microseconds");
    r->offset = offset;
    r->device = (uint32_t)device;
    if (reader_sized(t, length, r)) return -1;
    return reader_set_ticks(t, stamp, 1e3, r) < 0 ? -1 : 1;
}

/* Tencent's CBS block traces (2018): timestamp,offset,size,type,volume. */
static int parse_tencent(trace_reader *t, char *line, trace_record *r)
{
    char *f[MAX_FIELDS];
    uint64_t stamp, offset, size, type, volume;
    if (split_fields(line, ",", false, f) != 5) return reader_bad(t, "not 5 comma-separated fields", "timestamp,offset,size,type,volume");
    if (!parse_u64(f[0], &stamp)) return reader_bad(t, "the timestamp is not a whole number", "seconds");
    if (!parse_u64(f[1], &offset)) return reader_bad(t, "the offset is not a whole number", "a 512-byte sector number");
    if (!parse_u64(f[2], &size)) return reader_bad(t, "the size is not a whole number", "a count of 512-byte sectors");
    if (!parse_u64(f[3], &type) || type > 1) return reader_bad(t, "the type is neither 0 nor 1", "0 (read) or 1 (write)");
    if (!parse_u64(f[4], &volume)) return reader_bad(t, "the volume is not a whole number", "a volume number");
    r->op = type ? TRACE_WRITE : TRACE_READ;
    r->offset = offset * 512;
    r->device = (uint32_t)volume;
    if (reader_sized(t, size * 512, r)) return -1;
    return reader_set_ticks(t, stamp, 1e9, r) < 0 ? -1 : 1;
}

const trace_kind trace_kind_msr = {.name = "msr", .line = parse_msr};
const trace_kind trace_kind_umass = {.name = "umass", .line = parse_umass};
const trace_kind trace_kind_alibaba = {.name = "alibaba", .line = parse_alibaba};
const trace_kind trace_kind_tencent = {.name = "tencent", .line = parse_tencent};
