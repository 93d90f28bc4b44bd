/* What a trace is made of: a record, the formats, the options of a reader.
 * trace.h opens and reads traces; the readers (reader.h) fill records. */
#ifndef SSDLAB_TRACE_RECORD_H
#define SSDLAB_TRACE_RECORD_H

#include <stddef.h>
#include <stdint.h>

#include "simtime.h"

/* Zone commands come from traces of zoned devices (blkparse's ZA, ZR, ZF,
 * ZO, ZC since Linux 6.17); the management ones carry no bytes. */
typedef enum trace_op {
    TRACE_READ,
    TRACE_WRITE,
    TRACE_TRIM,
    TRACE_ZONE_APPEND,
    TRACE_ZONE_RESET,
    TRACE_ZONE_FINISH,
    TRACE_ZONE_OPEN,
    TRACE_ZONE_CLOSE,
    TRACE_OPS
} trace_op;

static inline int trace_op_is_zone_management(trace_op op) { return op >= TRACE_ZONE_RESET && op < TRACE_OPS; }

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
    TRACE_XPERF,    /* Windows xperf dumper output (the Microsoft production server traces) */
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

#endif
