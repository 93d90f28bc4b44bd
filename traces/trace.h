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

#include "record.h"

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
