/* Block I/O traces: one streaming reader for each format researchers
 * bring (MSR Cambridge, FIU, UMass/SPC, blkparse, DiskSim/MQSim ASCII, fio
 * iolog v2 and v3, Alibaba, Tencent CBS, VMware vscsi, HP Labs SRT, WPA
 * Disk Usage exports, any CSV through a column map) and ssdlab's own
 * binary format. Records come one at a
 * time in constant memory; a bad line stops the reader with
 * "FILE:LINE: <problem>; expected <what>". */
#ifndef SSDLAB_TRACE_H
#define SSDLAB_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "simtime.h"

typedef enum trace_op { TRACE_READ, TRACE_WRITE, TRACE_TRIM } trace_op;

typedef struct trace_record {
    sim_time_t time;  /* since the trace's first record (ns) */
    uint64_t offset;  /* bytes */
    uint32_t bytes;
    uint32_t device;  /* disk, volume or ASU number; 0 when the format has none */
    trace_op op;
} trace_record;

typedef enum trace_format {
    TRACE_AUTO,
    TRACE_MSR,      /* Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime (FILETIME ticks, bytes) */
    TRACE_FIU,      /* ts_ns pid process lba size R/W major minor md5 (512 B sectors) */
    TRACE_UMASS,    /* ASU,LBA,size,opcode,timestamp (512 B blocks, bytes, seconds) */
    TRACE_BLKPARSE, /* blkparse default text output: Q (or D) events */
    TRACE_DISKSIM,  /* time device lba size type (512 B sectors; type bit 0 = read) */
    TRACE_FIO,      /* fio iolog version 2 or 3 */
    TRACE_BINARY,   /* ssdlab's own */
    TRACE_ALIBABA,  /* device_id,opcode,offset,length,timestamp (R/W, bytes, microseconds) */
    TRACE_TENCENT,  /* timestamp,offset,size,type,volume (seconds, 512 B sectors, 0 read / 1 write) */
    TRACE_VSCSI,    /* VMware vscsi binary, record version 1 (32 B) or 2 (40 B), as libCacheSim reads it */
    TRACE_HPL,      /* HP Labs SRT binary, as DiskSim's HPL reader reads it */
    TRACE_WPA,      /* Windows Performance Analyzer "Disk Usage" table exported as CSV */
    TRACE_COLUMNS,  /* any CSV/TSV, laid out by a column map (trace_options.columns) */
    TRACE_FORMATS
} trace_format;

typedef struct trace_options {
    trace_format format;
    double disksim_time_unit_ns; /* DiskSim/MQSim time unit; 0 means 1 ms (DiskSim's) */
    char blkparse_event;         /* 'Q' (default) or 'D' */
    const char *columns;         /* the column map of the columns format ("time=1:us,op=2:R/W,..."), or NULL;
                                  * read when the reader opens */
} trace_options;

typedef struct trace_reader trace_reader;

/* Returns NULL with a message in err when the file cannot be opened or its
 * format not recognised. */
trace_reader *trace_open(const char *path, const trace_options *opt, char *err, size_t errlen);
void trace_close(trace_reader *t);
/* A reader over records already in memory (a generated trace), which it
 * takes over and frees; `name` stands for the file in messages. */
trace_reader *trace_open_records(trace_record *records, size_t count, const char *name, char *err, size_t errlen);
/* 1: a record; 0: the end; -1: bad input (message in trace_error). */
int trace_next(trace_reader *t, trace_record *r);
const char *trace_error(const trace_reader *t);
/* Where the last record came from: "FILE:LINE" (text) or "FILE:record N" (binary). */
const char *trace_where(trace_reader *t);
trace_format trace_format_of(const trace_reader *t);
/* Records read but not replayed (flushes, suspect or non-data commands),
 * and what they were ("" when none). */
uint64_t trace_skipped(const trace_reader *t, const char **what);
const char *trace_format_name(trace_format f);
/* TRACE_FORMATS when the name is unknown. */
trace_format trace_format_parse(const char *name);

/* ssdlab's binary format: a 16-byte header ("SSDLABTR", version 1) and
 * 24-byte little-endian records. trace_write writes one record. */
int trace_write_header(void *file);
int trace_write(void *file, const trace_record *r);

#endif
