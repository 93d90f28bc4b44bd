/* Inside the trace readers: the reader's state, the helpers every format
 * shares, and the table of formats (trace_kinds). Each format lives in a
 * file of its own and fills one entry of that table; trace.c opens a file,
 * guesses its format and hands the records out. Not for use outside
 * traces/. */
#ifndef SSDLAB_TRACE_READER_H
#define SSDLAB_TRACE_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "input.h"
#include "record.h"

enum { MAX_FIELDS = 32, MAX_FILES = 256 };

/* A column-mapped text format (the generic reader and WPA exports). */
enum { COL_TIME, COL_OP, COL_OFFSET, COL_SIZE, COL_DEVICE, COL_COUNT, COLS };
enum { OP_WORDS = 4 }; /* read, write, trim, and one kind counted and skipped */
typedef struct column_map {
    int at[COLS];           /* 0-based field of each column; -1 when absent */
    double time_ns;         /* one unit of the time column */
    uint64_t offset_unit, size_unit; /* bytes in one unit */
    char op_word[OP_WORDS][24]; /* "" when the kind has no word */
    char sep;               /* field separator; ' ' for runs of blanks, 0 to guess from the first data line */
    char decimal;           /* '.' or ',' */
    char thousands;         /* the other one, or 0 */
    int header_lines;       /* lines to skip before the first record; -1: skip one if it is not data */
    bool whole_time;        /* times read as whole numbers (above 2^53) */
} column_map;

struct trace_kind;

struct trace_reader {
    const struct trace_kind *kind;
    trace_input *in;
    char *path;
    trace_format format;
    trace_options opt;
    bool have_base;
    double base;        /* time of the first record, in the format's unit */
    uint64_t base_ticks; /* the same, for whole-number stamps (a double would round an MSR stamp to 16 ticks) */
    uint64_t records;   /* binary and in memory: records read */
    uint64_t skipped;   /* records of a kind that is not replayed (flushes, suspect I/Os) */
    const char *skipped_kind;
    trace_record *mem;  /* a trace held in memory (trace_open_records), or NULL */
    size_t mem_count;
    char where[300];
    char guessed[220];  /* why the format was guessed, said with any error; "" when given */
    char err[512];
    /* what one format keeps between records */
    int fio_version;
    char *files[MAX_FILES]; /* fio: device numbers by file name */
    int file_count;
    bool in_summary;    /* blkparse: past the event lines */
    int vscsi_version;  /* 1: 32-byte records, 2: 40-byte ones */
    column_map cols;
    int xperf_at[2][4];  /* xperf: TimeStamp, ElapsedTime, ByteOffset, IOSize fields of DiskRead and DiskWrite; DiskNum below */
    int xperf_disk[2];
};

/* One format: its name, and either `line` (text: 1 a record, 0 a line
 * skipped, -1 bad input) or `next` (binary: 1, 0 at the end, -1). `start`,
 * when set, runs once the file is open (headers, layouts): 0 or -1 with a
 * message in err. */
typedef struct trace_kind {
    const char *name;
    int (*start)(trace_reader *t, char *err, size_t errlen);
    int (*line)(trace_reader *t, char *line, trace_record *r);
    int (*next)(trace_reader *t, trace_record *r);
} trace_kind;

extern const trace_kind trace_kind_msr, trace_kind_umass, trace_kind_alibaba, trace_kind_tencent;
extern const trace_kind trace_kind_fiu, trace_kind_disksim, trace_kind_blkparse, trace_kind_fio;
extern const trace_kind trace_kind_binary, trace_kind_vscsi, trace_kind_hpl;
extern const trace_kind trace_kind_wpa, trace_kind_columns, trace_kind_xperf;

/* Where the last record came from: "FILE:LINE", or "FILE:record N" in
 * a binary format or in memory. */
const char *reader_where(trace_reader *t);
/* "FILE:LINE: what; expected what (read as X, guessed ...)", or
 * "FILE:record N: ..." in a binary format; returns -1. */
int reader_bad(trace_reader *t, const char *what, const char *expected);
/* Splits a line at any of `seps` (runs count once when `collapse`);
 * returns the field count. */
int split_fields(char *line, const char *seps, bool collapse, char **fields);
bool parse_u64(const char *s, uint64_t *out);
bool parse_real(const char *s, double *out);
/* Sets r->time from a stamp in the format's unit, relative to the first. */
int reader_set_time(trace_reader *t, double stamp, double ns_per_unit, trace_record *r);
/* The same from a whole-number stamp, exact however large (MSR's FILETIME
 * stamps are above 2^53). A format uses one of the two throughout. */
int reader_set_ticks(trace_reader *t, uint64_t stamp, double ns_per_unit, trace_record *r);
/* Sets r->bytes, refusing 0 and sizes above 4 GiB. */
int reader_sized(trace_reader *t, uint64_t bytes, trace_record *r);
uint64_t get_le(const unsigned char *p, int n);
uint64_t get_be(const unsigned char *p, int n);
/* Starts the file again from its first byte. */
int reader_rewind(trace_reader *t, char *err, size_t errlen);

/* The column map of a --columns spec ("time=1:us,op=2:R/W,..."); 0, or
 * -1 with what is wrong in err. */
int columns_parse(const char *spec, column_map *m, char *err, size_t errlen);
/* The vscsi record version (1 or 2) that the first n bytes of a file
 * show, or 0 when they are not vscsi records. */
int vscsi_version_of(const unsigned char *b, long n);
/* Whether a first line is the header of a WPA "Disk Usage" export. */
bool wpa_header(const char *line);
/* Whether a line opens the header of xperf dumper output. */
bool xperf_header(const char *line);
/* Splits at sep (runs of blanks count once when sep is ' '), taking a
 * quoted field whole and trimming blanks around each field. */
int split_quoted(char *line, char sep, char **f);
/* A number as a column-mapped file writes it: hex (0x...), or decimal
 * with the map's decimal mark and thousands separator. */
bool column_number(const column_map *m, const char *s, double *value, uint64_t *whole);

#endif
