/* Reading a trace file line by line, whatever it is compressed with:
 * gzip, bzip2, xz or zstd are recognised by their magic bytes and
 * decompressed as the lines are read (constant memory), plain files are
 * read as they are. Each line comes with its number for error messages. */
#ifndef SSDLAB_TRACE_INPUT_H
#define SSDLAB_TRACE_INPUT_H

#include <stddef.h>
#include <stdint.h>

typedef struct trace_input trace_input;

/* Returns NULL with a message in err when the file cannot be opened. */
trace_input *input_open(const char *path, char *err, size_t errlen);
void input_close(trace_input *in);

/* Reads raw bytes (binary traces): returns the count, 0 at the end, -1 on
 * a read or decompression error (message in input_error). */
long input_read(trace_input *in, void *buf, size_t n);
/* The next line without its end of line: 1, 0 at the end, -1 on error.
 * The line stays valid until the next input_line or input_read; the
 * caller may write into it (the field splitters do). */
int input_line(trace_input *in, char **line, size_t *len);
uint64_t input_line_number(const trace_input *in);
const char *input_error(const trace_input *in);
const char *input_compression(const trace_input *in); /* "none", "gzip", ... */

#endif
