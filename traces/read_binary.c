/* The binary formats: ssdlab's own (which it also writes), VMware vscsi
 * and HP Labs SRT ("HPL"). */
#include <stdio.h>
#include <string.h>

#include "reader.h"
#include "trace.h"

enum { HEADER = 16, RECORD = 24 };

static int read_failed(trace_reader *t)
{
    snprintf(t->err, sizeof t->err, "%s: %s", t->path, input_error(t->in));
    return -1;
}

static int cut_short(trace_reader *t, long got, long n, const char *kind)
{
    char what[80], expected[80];
    snprintf(what, sizeof what, "cut short (%ld of %ld bytes)", got, n);
    snprintf(expected, sizeof expected, "whole %s records", kind);
    return reader_bad(t, what, expected);
}

/* Reads the first n bytes of the next record: 1, 0 at a clean end, -1
 * when the file ends inside them or cannot be read. */
static int read_record(trace_reader *t, unsigned char *b, long n, const char *kind)
{
    long got = input_read(t->in, b, (size_t)n);
    if (got < 0) return read_failed(t);
    if (got == 0) return 0;
    t->records++;
    return got < n ? cut_short(t, got, n, kind) : 1;
}

/* Reads the rest of a record whose first `had` bytes are in b. */
static int read_rest(trace_reader *t, unsigned char *b, long had, long n, const char *kind)
{
    long got = input_read(t->in, b + had, (size_t)(n - had));
    if (got < 0) return read_failed(t);
    return got < n - had ? cut_short(t, had + got, n, kind) : 1;
}

/* ssdlab's format: "SSDLABTR", version 1 (u32), 4 bytes reserved, then
 * 24-byte little-endian records {u64 time_ns, u64 offset, u32 bytes, u8
 * op, u8 0, u16 device}. */
static int start_binary(trace_reader *t, char *err, size_t errlen)
{
    unsigned char h[HEADER];
    if (input_read(t->in, h, HEADER) != HEADER || memcmp(h, "SSDLABTR", 8) || get_le(h + 8, 4) != 1)
        return snprintf(err, errlen, "%s: not an ssdlab binary trace of version 1; expected the header written by 'ssdlab trace convert'",
                        t->path), -1;
    return 0;
}

static int next_binary(trace_reader *t, trace_record *r)
{
    unsigned char b[RECORD];
    int rc = read_record(t, b, RECORD, "ssdlab binary");
    if (rc <= 0) return rc;
    r->time = get_le(b, 8);
    r->offset = get_le(b + 8, 8);
    r->bytes = (uint32_t)get_le(b + 16, 4);
    r->op = (trace_op)b[20];
    r->device = (uint32_t)get_le(b + 22, 2);
    /* ops 3-7 are zone commands (record.h); only management ones have no bytes */
    if (r->op >= TRACE_OPS || (r->bytes == 0) != trace_op_is_zone_management(r->op))
        return reader_bad(t, "an operation above 7, or a size that does not fit it", "operation 0-7 with a size above 0 (0 for zone management, 4-7)");
    return 1;
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

/* VMware vscsi (CloudPhysics' traces; libCacheSim's vscsi reader):
 * little-endian records, version 1 {u32 sn, len, nSG; u16 cmd, ver; u64
 * lbn, ts} or version 2 {u16 cmd, ver; u32 sn, len, nSG; u64 lbn, ts, rt};
 * len in bytes, lbn in 512 B sectors, ts in microseconds; the version is
 * the high byte of ver. SCSI reads and writes (6, 10, 12 and 16-byte
 * commands) are replayed; other commands are counted and skipped. */
enum { VSCSI_V1 = 32, VSCSI_V2 = 40 };

int vscsi_version_of(const unsigned char *b, long n)
{
    if (n >= 2 * VSCSI_V2 && b[3] == 2 && b[VSCSI_V2 + 3] == 2) return 2;
    if (n >= 2 * VSCSI_V1 && b[15] == 1 && b[VSCSI_V1 + 15] == 1) return 1;
    return 0;
}

static int start_vscsi(trace_reader *t, char *err, size_t errlen)
{
    unsigned char b[2 * VSCSI_V2];
    long n = input_read(t->in, b, sizeof b);
    t->vscsi_version = n > 0 ? vscsi_version_of(b, n) : 0;
    if (!t->vscsi_version)
        return snprintf(err, errlen, "%s: not a vscsi trace: its first two records carry no version 1 or 2; expected "
                                     "VMware vscsi records as libCacheSim reads them", t->path), -1;
    return reader_rewind(t, err, errlen);
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
    bool v2 = t->vscsi_version == 2;
    for (;;) {
        int rc = read_record(t, b, v2 ? VSCSI_V2 : VSCSI_V1, "vscsi");
        if (rc <= 0) return rc;
        bool io;
        unsigned cmd = (unsigned)get_le(v2 ? b : b + 12, 2);
        uint64_t len = get_le(v2 ? b + 8 : b + 4, 4), lbn = get_le(b + 16, 8), ts = get_le(b + 24, 8);
        r->op = vscsi_op(cmd, &io);
        if (!io || len == 0) { /* not a read or write, or no data */
            t->skipped++;
            t->skipped_kind = "SCSI commands other than reads and writes";
            continue;
        }
        r->offset = lbn * 512;
        r->bytes = (uint32_t)len;
        r->device = 0;
        return reader_set_ticks(t, ts, 1e3, r) < 0 ? -1 : 1;
    }
}

/* HP Labs SRT ("HPL"), as DiskSim's iotrace_hpl reader reads it: a text
 * header from "$$TR" to a form feed (absent in files merged by hplcomb),
 * then big-endian records of 32-bit words {size, id, sec, usec, start,
 * stop, bytes, sector, devno, drivertype, cylno, flags, info[, queuelen
 * when the record version is 4][, susflags for suspect I/Os]}. id holds
 * the record version (1-4) in its high half and the record type in its
 * low half: short I/Os (1) are replayed, suspect I/Os (4) and the other
 * types are counted and skipped (each record gives its own size). Sectors
 * are 512 B, as DiskSim takes them; flag bit 0 means a read; sec/usec
 * count from the trace's start; devno's second byte is the disk. */
enum { HPL_SHORTIO = 1, HPL_SUSPECTIO = 4, HPL_TYPES = 10, HPL_WORDS = 16, HPL_READ = 1 };

static int start_hpl(trace_reader *t, char *err, size_t errlen)
{
    unsigned char c[4];
    long got = input_read(t->in, c, 4);
    if (got == 4 && !memcmp(c, "$$TR", 4)) {
        for (;;) {
            if (input_read(t->in, c, 1) != 1)
                return snprintf(err, errlen, "%s: the HPL header never ends; expected a form feed (0x0C) after it", t->path), -1;
            if (c[0] == 0x0C) return 0;
        }
    }
    /* no header: records from the first byte */
    return reader_rewind(t, err, errlen);
}

static int next_hpl(trace_reader *t, trace_record *r)
{
    unsigned char b[4 * HPL_WORDS];
    for (;;) {
        int rc = read_record(t, b, 8, "HPL");
        if (rc <= 0) return rc;
        uint64_t size = get_be(b, 4), id = get_be(b + 4, 4), version = id >> 16, type = id & 0xFFFF;
        if (version < 1 || version > 4 || type < 1 || type > HPL_TYPES)
            return reader_bad(t, "the record id is not an HPL one", "a record version 1-4 and type 1-10");
        if (size < 8 || size % 4 || size > sizeof b)
            return reader_bad(t, "the record size is not a whole number of words up to 64 bytes", "an HPL record size");
        if (read_rest(t, b, 8, (long)size, "HPL") < 0) return -1;
        long words = 13 + (version == 4) + (type == HPL_SUSPECTIO);
        if (type == HPL_SHORTIO || type == HPL_SUSPECTIO) {
            if ((long)size != 4 * words) return reader_bad(t, "the record size does not match its version and type", "13 words, one more for version 4, one more for a suspect I/O");
        }
        if (type != HPL_SHORTIO) {
            t->skipped++;
            t->skipped_kind = "HPL records other than short I/Os";
            continue;
        }
        uint64_t sec = get_be(b + 8, 4), usec = get_be(b + 12, 4), bytes = get_be(b + 24, 4), sector = get_be(b + 28, 4);
        uint64_t devno = get_be(b + 32, 4), flags = get_be(b + 44, 4);
        if (bytes % 512) return reader_bad(t, "the size is not a multiple of 512 B", "whole 512 B sectors");
        r->op = flags & HPL_READ ? TRACE_READ : TRACE_WRITE;
        r->offset = sector * 512;
        r->device = (uint32_t)(devno >> 8 & 0xFF);
        if (reader_sized(t, bytes, r) < 0) return -1;
        return reader_set_ticks(t, sec * 1000000 + usec, 1e3, r) < 0 ? -1 : 1;
    }
}

const trace_kind trace_kind_binary = {.name = "binary", .start = start_binary, .next = next_binary};
const trace_kind trace_kind_vscsi = {.name = "vscsi", .start = start_vscsi, .next = next_vscsi};
const trace_kind trace_kind_hpl = {.name = "hpl", .start = start_hpl, .next = next_hpl};
