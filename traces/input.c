#include "input.h"

#include <bzlib.h>
#include <errno.h>
#include <lzma.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>

enum { CHUNK = 1 << 16, MAX_LINE = 1 << 20 };

typedef enum codec { CODEC_NONE, CODEC_GZIP, CODEC_BZIP2, CODEC_XZ, CODEC_ZSTD } codec;
static const char *const codec_names[] = {"none", "gzip", "bzip2", "xz", "zstd"};

struct trace_input {
    FILE *file;
    codec kind;
    unsigned char raw[CHUNK]; /* compressed bytes from the file */
    size_t raw_len, raw_pos;
    bool file_done;
    unsigned char out[CHUNK]; /* decompressed bytes */
    size_t out_len, out_pos;
    bool stream_done;
    z_stream z;
    bz_stream bz;
    lzma_stream xz;
    ZSTD_DStream *zs;
    char *line;
    size_t line_cap;
    uint64_t line_number;
    char err[256];
};

static codec sniff(const unsigned char *b, size_t n)
{
    if (n >= 2 && b[0] == 0x1f && b[1] == 0x8b) return CODEC_GZIP;
    if (n >= 3 && memcmp(b, "BZh", 3) == 0) return CODEC_BZIP2;
    if (n >= 6 && memcmp(b, "\xfd" "7zXZ\0", 6) == 0) return CODEC_XZ;
    if (n >= 4 && b[0] == 0x28 && b[1] == 0xb5 && b[2] == 0x2f && b[3] == 0xfd) return CODEC_ZSTD;
    return CODEC_NONE;
}

static int start_codec(trace_input *in)
{
    switch (in->kind) {
    case CODEC_GZIP: return inflateInit2(&in->z, 15 + 32) == Z_OK ? 0 : -1; /* 32: gzip or zlib header */
    case CODEC_BZIP2: return BZ2_bzDecompressInit(&in->bz, 0, 0) == BZ_OK ? 0 : -1;
    case CODEC_XZ:
        in->xz = (lzma_stream)LZMA_STREAM_INIT;
        return lzma_stream_decoder(&in->xz, UINT64_MAX, LZMA_CONCATENATED) == LZMA_OK ? 0 : -1;
    case CODEC_ZSTD: return (in->zs = ZSTD_createDStream()) && !ZSTD_isError(ZSTD_initDStream(in->zs)) ? 0 : -1;
    default: return 0;
    }
}

/* A short read is the end of the file only when the file says no error:
 * an error read as the end would replay a trace cut short as if whole. */
static bool read_failed(trace_input *in)
{
    if (!ferror(in->file)) return false;
    snprintf(in->err, sizeof in->err, "read error: %s", strerror(errno));
    return true;
}

trace_input *input_open(const char *path, char *err, size_t errlen)
{
    trace_input *in = calloc(1, sizeof *in);
    if (!in) return snprintf(err, errlen, "out of memory"), NULL;
    if (!(in->file = fopen(path, "rb"))) {
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        free(in);
        return NULL;
    }
    setvbuf(in->file, NULL, _IONBF, 0); /* reads are whole chunks: stdio's buffer would only copy them once more */
    in->raw_len = fread(in->raw, 1, CHUNK, in->file);
    in->file_done = in->raw_len < CHUNK;
    if (read_failed(in)) { /* a directory, say: not a trace without records */
        snprintf(err, errlen, "%s: %s", path, in->err);
        input_close(in);
        return NULL;
    }
    in->kind = sniff(in->raw, in->raw_len);
    if (start_codec(in)) {
        snprintf(err, errlen, "%s: cannot start the %s decoder", path, codec_names[in->kind]);
        input_close(in);
        return NULL;
    }
    return in;
}

void input_close(trace_input *in)
{
    if (!in) return;
    if (in->kind == CODEC_GZIP) inflateEnd(&in->z);
    if (in->kind == CODEC_BZIP2) BZ2_bzDecompressEnd(&in->bz);
    if (in->kind == CODEC_XZ) lzma_end(&in->xz);
    if (in->zs) ZSTD_freeDStream(in->zs);
    if (in->file) fclose(in->file);
    free(in->line);
    free(in);
}

/* 1 when compressed bytes wait in raw, 0 at the end of the file, -1 on a
 * read error. */
static int refill_raw(trace_input *in)
{
    if (in->raw_pos < in->raw_len) return 1;
    if (in->file_done) return 0;
    in->raw_len = fread(in->raw, 1, CHUNK, in->file);
    in->raw_pos = 0;
    if (in->raw_len < CHUNK) in->file_done = true;
    if (read_failed(in)) return -1;
    return in->raw_len > 0;
}

/* An uncompressed file's next bytes, read straight into out once the
 * bytes read to sniff it are used. */
static long read_plain(trace_input *in)
{
    if (in->file_done) return 0;
    in->out_len = fread(in->out, 1, CHUNK, in->file);
    if (in->out_len < CHUNK) in->file_done = true;
    if (read_failed(in)) return -1;
    return (long)in->out_len;
}

/* Decompresses the next bytes into out. Returns the count, 0 at the end of
 * the data, -1 on a damaged stream or a read error. */
static long decode(trace_input *in)
{
    in->out_pos = in->out_len = 0;
    if (in->kind == CODEC_NONE && in->raw_pos == in->raw_len) return read_plain(in);
    while (in->out_len == 0) {
        int more = refill_raw(in);
        if (more < 0) return -1;
        unsigned char *src = in->raw + in->raw_pos;
        size_t avail = in->raw_len - in->raw_pos, used = 0, made = 0;
        switch (in->kind) {
        case CODEC_NONE:
            if (!more) return 0;
            memcpy(in->out, src, avail);
            used = made = avail;
            break;
        case CODEC_GZIP: {
            if (!more) return in->stream_done ? 0 : (snprintf(in->err, sizeof in->err, "gzip data ends early"), -1);
            in->z.next_in = src, in->z.avail_in = (uInt)avail;
            in->z.next_out = in->out, in->z.avail_out = CHUNK;
            int rc = inflate(&in->z, Z_NO_FLUSH);
            if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR)
                return snprintf(in->err, sizeof in->err, "damaged gzip data (%s)", in->z.msg ? in->z.msg : "?"), -1;
            used = avail - in->z.avail_in, made = CHUNK - in->z.avail_out;
            in->stream_done = rc == Z_STREAM_END;
            if (rc == Z_STREAM_END) inflateReset(&in->z); /* a further member may follow */
            break;
        }
        case CODEC_BZIP2: {
            if (!more) return in->stream_done ? 0 : (snprintf(in->err, sizeof in->err, "bzip2 data ends early"), -1);
            in->bz.next_in = (char *)src, in->bz.avail_in = (unsigned)avail;
            in->bz.next_out = (char *)in->out, in->bz.avail_out = CHUNK;
            int rc = BZ2_bzDecompress(&in->bz);
            if (rc != BZ_OK && rc != BZ_STREAM_END) return snprintf(in->err, sizeof in->err, "damaged bzip2 data"), -1;
            used = avail - in->bz.avail_in, made = CHUNK - in->bz.avail_out;
            in->stream_done = rc == BZ_STREAM_END;
            if (rc == BZ_STREAM_END) { /* a further stream may follow */
                BZ2_bzDecompressEnd(&in->bz);
                BZ2_bzDecompressInit(&in->bz, 0, 0);
            }
            break;
        }
        case CODEC_XZ: {
            in->xz.next_in = src, in->xz.avail_in = avail;
            in->xz.next_out = in->out, in->xz.avail_out = CHUNK;
            lzma_ret rc = lzma_code(&in->xz, more ? LZMA_RUN : LZMA_FINISH);
            if (rc == LZMA_STREAM_END && in->xz.avail_out == CHUNK) return 0;
            if (rc != LZMA_OK && rc != LZMA_STREAM_END) return snprintf(in->err, sizeof in->err, "damaged xz data"), -1;
            used = avail - in->xz.avail_in, made = CHUNK - in->xz.avail_out;
            if (!more && !made && rc == LZMA_OK) return snprintf(in->err, sizeof in->err, "xz data ends early"), -1;
            break;
        }
        case CODEC_ZSTD: {
            if (!more) return in->stream_done ? 0 : (snprintf(in->err, sizeof in->err, "zstd data ends early"), -1);
            ZSTD_inBuffer ib = {src, avail, 0};
            ZSTD_outBuffer ob = {in->out, CHUNK, 0};
            size_t rc = ZSTD_decompressStream(in->zs, &ob, &ib);
            if (ZSTD_isError(rc))
                return snprintf(in->err, sizeof in->err, "damaged zstd data (%s)", ZSTD_getErrorName(rc)), -1;
            used = ib.pos, made = ob.pos;
            in->stream_done = rc == 0; /* a frame ended */
            break;
        }
        }
        in->raw_pos += used;
        in->out_len = made;
    }
    return (long)in->out_len;
}

long input_read(trace_input *in, void *buf, size_t n)
{
    size_t got = 0;
    while (got < n) {
        if (in->out_pos == in->out_len) {
            long rc = decode(in);
            if (rc < 0) return -1;
            if (rc == 0) break;
        }
        size_t take = in->out_len - in->out_pos;
        if (take > n - got) take = n - got;
        memcpy((char *)buf + got, in->out + in->out_pos, take);
        in->out_pos += take;
        got += take;
    }
    return (long)got;
}

/* input_line for a line that crosses decoded chunks: gathered in in->line. */
static int gather_line(trace_input *in, char **line, size_t *len)
{
    size_t n = 0;
    bool any = false;
    for (;;) {
        if (in->out_pos == in->out_len) {
            long rc = decode(in);
            if (rc < 0) return -1;
            if (rc == 0) break;
        }
        any = true;
        unsigned char *start = in->out + in->out_pos, *end = in->out + in->out_len;
        unsigned char *nl = memchr(start, '\n', (size_t)(end - start));
        size_t take = (size_t)((nl ? nl : end) - start);
        if (n + take + 1 > in->line_cap) {
            if (n + take + 1 > MAX_LINE)
                return snprintf(in->err, sizeof in->err, "line %llu is longer than %d bytes",
                                (unsigned long long)in->line_number + 1, MAX_LINE), -1;
            size_t cap = in->line_cap ? in->line_cap : 256;
            while (cap < n + take + 1) cap *= 2;
            char *p = realloc(in->line, cap);
            if (!p) return snprintf(in->err, sizeof in->err, "out of memory"), -1;
            in->line = p;
            in->line_cap = cap;
        }
        memcpy(in->line + n, start, take);
        n += take;
        in->out_pos += take + (nl != NULL);
        if (nl) break;
    }
    if (!any && n == 0) return 0;
    if (n && in->line[n - 1] == '\r') n--;
    in->line[n] = 0;
    in->line_number++;
    *line = in->line;
    *len = n;
    return 1;
}

/* A line wholly in the decoded chunk is handed out where it lies, its
 * newline made its end: copying each line cost a twentieth of a CSV
 * replay (perf). */
int input_line(trace_input *in, char **line, size_t *len)
{
    unsigned char *start = in->out + in->out_pos;
    unsigned char *nl = in->out_pos < in->out_len ? memchr(start, '\n', in->out_len - in->out_pos) : NULL;
    if (!nl) return gather_line(in, line, len);
    size_t n = (size_t)(nl - start);
    in->out_pos += n + 1;
    if (n && start[n - 1] == '\r') n--;
    start[n] = 0;
    in->line_number++;
    *line = (char *)start;
    *len = n;
    return 1;
}

uint64_t input_line_number(const trace_input *in) { return in->line_number; }
const char *input_error(const trace_input *in) { return in->err; }
const char *input_compression(const trace_input *in) { return codec_names[in->kind]; }
