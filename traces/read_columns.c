/* Column-mapped text traces: the generic CSV/TSV reader, whose layout is
 * given as a column map (--columns "time=1:us,op=2:R/W,offset=3:sector,
 * size=4:B,device=5"), and Windows Performance Analyzer "Disk Usage"
 * exports, whose map comes from their header line. Both take either
 * separator, decimal commas, thousands separators and hex numbers. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "reader.h"

enum { OP_READ, OP_WRITE, OP_TRIM, OP_SKIP };

static const char *const column_names[COLS] = {"time", "op", "offset", "size", "device", "count"};

/* "ns", "us", "µs", "ms", "s", optionally after a count ("100ns"). */
static bool time_unit(const char *s, double *ns)
{
    char *end;
    double n = isdigit((unsigned char)*s) ? strtod(s, &end) : 1;
    if (isdigit((unsigned char)*s)) s = end;
    static const struct { const char *name; double ns; } units[] = {{"ns", 1}, {"us", 1e3}, {"\xC2\xB5s", 1e3}, {"ms", 1e6}, {"s", 1e9}};
    for (size_t i = 0; i < sizeof units / sizeof *units; i++)
        if (!strcmp(s, units[i].name) && n > 0) return *ns = n * units[i].ns, true;
    return false;
}

/* "B", "sector" (512 B), "KiB", or a count of bytes ("4096B"). */
static bool size_unit(const char *s, uint64_t *bytes)
{
    if (!strcmp(s, "sector") || !strcmp(s, "sectors")) return *bytes = 512, true;
    if (!strcmp(s, "KiB") || !strcmp(s, "KB")) return *bytes = 1024, true;
    char *end;
    unsigned long long n = isdigit((unsigned char)*s) ? strtoull(s, &end, 10) : 1;
    if (isdigit((unsigned char)*s)) s = end;
    if (strcmp(s, "B") || n == 0) return false;
    return *bytes = n, true;
}

static bool separator(const char *s, char *sep)
{
    static const struct { const char *name; char sep; } seps[] = {
        {"comma", ','}, {"semicolon", ';'}, {"tab", '\t'}, {"space", ' '}, {"pipe", '|'}, {";", ';'}, {"|", '|'}};
    for (size_t i = 0; i < sizeof seps / sizeof *seps; i++)
        if (!strcmp(s, seps[i].name)) return *sep = seps[i].sep, true;
    return false;
}

static int spec_error(char *err, size_t errlen, const char *item, const char *expected)
{
    snprintf(err, errlen, "'%s': %s", item, expected);
    return -1;
}

/* op=N[:READ/WRITE[/TRIM]]: the words that mean each operation. */
static int op_words(column_map *m, char *words, const char *item, char *err, size_t errlen)
{
    char *f[OP_WORDS + 1];
    int n = split_fields(words, "/", false, f);
    if (n < 2 || n > 3) return spec_error(err, errlen, item, "expected op=COLUMN:READ/WRITE or op=COLUMN:READ/WRITE/TRIM (the words the column holds)");
    for (int i = 0; i < n; i++) {
        if (!*f[i] || strlen(f[i]) >= sizeof m->op_word[i]) return spec_error(err, errlen, item, "expected words of 1 to 23 characters between the slashes");
        snprintf(m->op_word[i], sizeof m->op_word[i], "%s", f[i]);
    }
    return 0;
}

static int column_item(column_map *m, char *item, char *err, size_t errlen)
{
    char whole[128];
    snprintf(whole, sizeof whole, "%s", item);
    char *value = strchr(item, '=');
    if (!value) return spec_error(err, errlen, whole, "expected NAME=VALUE");
    *value++ = 0;
    if (!strcmp(item, "sep")) return separator(value, &m->sep) ? 0 : spec_error(err, errlen, whole, "expected sep=comma, semicolon, tab, space or pipe");
    if (!strcmp(item, "decimal")) {
        if (!strcmp(value, "point")) m->decimal = '.';
        else if (!strcmp(value, "comma")) m->decimal = ',';
        else return spec_error(err, errlen, whole, "expected decimal=point or decimal=comma");
        return 0;
    }
    if (!strcmp(item, "header")) {
        uint64_t n;
        if (!parse_u64(value, &n) || n > 1000) return spec_error(err, errlen, whole, "expected header=N, the lines before the first record (0-1000)");
        m->header_lines = (int)n;
        return 0;
    }
    if (!strcmp(item, "skip")) {
        if (!*value || strlen(value) >= sizeof m->op_word[OP_SKIP]) return spec_error(err, errlen, whole, "expected skip=WORD, an operation to count and skip (such as Flush)");
        snprintf(m->op_word[OP_SKIP], sizeof m->op_word[OP_SKIP], "%s", value);
        return 0;
    }
    int c = 0;
    while (c < COLS && strcmp(item, column_names[c])) c++;
    if (c == COLS) return spec_error(err, errlen, whole, "unknown name; expected time, op, offset, size, device, count, sep, decimal, header or skip");
    char *unit = strchr(value, ':');
    if (unit) *unit++ = 0;
    uint64_t at;
    if (!parse_u64(value, &at) || at < 1 || at > MAX_FIELDS) return spec_error(err, errlen, whole, "expected a column number from 1 to 32");
    m->at[c] = (int)at - 1;
    if (!unit) return c == COL_TIME ? spec_error(err, errlen, whole, "expected the time column's unit: time=N:ns, us, ms or s") : 0;
    switch (c) {
    case COL_TIME: return time_unit(unit, &m->time_ns) ? 0 : spec_error(err, errlen, whole, "expected a time unit: ns, us, ms, s or a count of one (100ns)");
    case COL_OP: return op_words(m, unit, whole, err, errlen);
    case COL_OFFSET: return size_unit(unit, &m->offset_unit) ? 0 : spec_error(err, errlen, whole, "expected an address unit: B, sector (512 B), KiB or a count of bytes (4096B)");
    case COL_SIZE: return size_unit(unit, &m->size_unit) ? 0 : spec_error(err, errlen, whole, "expected a size unit: B, sector (512 B), KiB or a count of bytes (4096B)");
    default: return spec_error(err, errlen, whole, "this column takes no unit");
    }
}

static void column_defaults(column_map *m)
{
    *m = (column_map){.time_ns = 1e9, .offset_unit = 1, .size_unit = 1, .header_lines = -1};
    for (int c = 0; c < COLS; c++) m->at[c] = -1;
}

int columns_parse(const char *spec, column_map *m, char *err, size_t errlen)
{
    column_defaults(m);
    char copy[512], *items[MAX_FIELDS];
    if (strlen(spec) >= sizeof copy) return snprintf(err, errlen, "the column map is longer than 511 characters"), -1;
    snprintf(copy, sizeof copy, "%s", spec);
    int n = split_fields(copy, ",", false, items);
    for (int i = 0; i < n; i++)
        if (column_item(m, items[i], err, errlen)) return -1;
    if (m->at[COL_OP] < 0 || m->at[COL_OFFSET] < 0 || m->at[COL_SIZE] < 0)
        return snprintf(err, errlen, "the column map names no %s column; expected at least op, offset and size (time and device when the trace has them)",
                        m->at[COL_OP] < 0 ? "op" : m->at[COL_OFFSET] < 0 ? "offset" : "size"), -1;
    return 0;
}

/* Splits at sep (runs of blanks count once when sep is ' '), taking a
 * quoted field whole and trimming blanks around each field. */
int split_quoted(char *line, char sep, char **f)
{
    int n = 0;
    char *p = line;
    while (n < MAX_FIELDS) {
        while (*p == ' ' || *p == '\t') {
            if (*p == sep) break;
            p++;
        }
        if (!*p && (sep == ' ' || n > 0)) break;
        char *end;
        if (*p == '"') {
            f[n++] = ++p;
            p += strcspn(p, "\"");
            end = p;
            if (*p) p++;
            p += strcspn(p, (char[]){sep, 0});
        } else {
            f[n++] = p;
            p += sep == ' ' ? strcspn(p, " \t") : strcspn(p, (char[]){sep, 0});
            end = p;
        }
        while (end > f[n - 1] && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r')) end--;
        bool more = *p != 0;
        *end = 0;
        if (!more) break;
        p++;
    }
    return n;
}

/* A number as the file writes it: hex (0x...), or decimal with the map's
 * decimal mark and thousands separator. */
bool column_number(const column_map *m, const char *s, double *value, uint64_t *whole)
{
    char *end;
    errno = 0;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        if (!isxdigit((unsigned char)s[2])) return false;
        *whole = strtoull(s + 2, &end, 16);
        *value = (double)*whole;
        return !*end && !errno;
    }
    char plain[64];
    size_t k = 0;
    bool fraction = false;
    for (; *s && k + 1 < sizeof plain; s++) {
        if (m->thousands && *s == m->thousands) continue;
        if (*s == m->decimal) fraction = true;
        plain[k++] = *s == m->decimal ? '.' : *s;
    }
    plain[k] = 0;
    if (*s || !k || !(isdigit((unsigned char)plain[0]) || plain[0] == '.')) return false;
    if (!fraction && !strpbrk(plain, "eE")) {
        *whole = strtoull(plain, &end, 10);
        *value = (double)*whole;
    } else {
        *value = strtod(plain, &end);
        *whole = *value < 1.8e19 ? (uint64_t)*value : UINT64_MAX;
    }
    return !*end && !errno && isfinite(*value);
}

static int op_of(trace_reader *t, const char *word, trace_record *r)
{
    const column_map *m = &t->cols;
    if (!m->op_word[OP_READ][0]) { /* no words given: read..., write..., trim... or discard... */
        int c = tolower((unsigned char)word[0]);
        if (c == 'r') return r->op = TRACE_READ, 1;
        if (c == 'w') return r->op = TRACE_WRITE, 1;
        if (c == 't' || c == 'd') return r->op = TRACE_TRIM, 1;
    }
    static const trace_op ops[3] = {TRACE_READ, TRACE_WRITE, TRACE_TRIM};
    for (int i = 0; i < 3; i++)
        if (m->op_word[i][0] && !strcasecmp(word, m->op_word[i])) return r->op = ops[i], 1;
    if (m->op_word[OP_SKIP][0] && !strcasecmp(word, m->op_word[OP_SKIP])) return 0;
    char expected[120];
    if (m->op_word[OP_READ][0])
        snprintf(expected, sizeof expected, "%s, %s%s%s%s%s", m->op_word[OP_READ], m->op_word[OP_WRITE], m->op_word[OP_TRIM][0] ? ", " : "",
                 m->op_word[OP_TRIM], m->op_word[OP_SKIP][0] ? " or " : "", m->op_word[OP_SKIP]);
    else snprintf(expected, sizeof expected, "a word starting with r (read), w (write), t or d (trim)");
    return reader_bad(t, "the operation is not one the column map names", expected);
}

static char separator_of(const char *line)
{
    return strchr(line, ';') ? ';' : strchr(line, '\t') ? '\t' : strchr(line, ',') ? ',' : ' ';
}

/* Before the first record: the decimal mark, unless the map gives it,
 * from the first data line's time: the later of '.' and ',' when it has
 * both ("1.234,5"), ',' when it has only that, or '.'. The other mark
 * separates thousands (inside quotes when it is also the separator). */
static void settle_decimal(column_map *m, char **f, int n)
{
    int at = m->at[COL_TIME];
    const char *time = at >= 0 && at < n ? f[at] : "";
    const char *comma = strrchr(time, ','), *point = strrchr(time, '.');
    m->decimal = comma && (!point || comma > point) ? ',' : '.';
}

static int field_value(trace_reader *t, char **f, int n, int c, double *value, uint64_t *whole)
{
    int at = t->cols.at[c];
    if (at >= n) {
        char what[80];
        snprintf(what, sizeof what, "no column %d (the %s) in a line of %d fields", at + 1, column_names[c], n);
        return reader_bad(t, what, "the columns the map names");
    }
    if (!column_number(&t->cols, f[at], value, whole)) {
        char what[120];
        snprintf(what, sizeof what, "the %s (column %d, '%.40s') is not a number", column_names[c], at + 1, f[at]);
        return reader_bad(t, what, "a decimal or 0x hex number, with the map's decimal mark");
    }
    return 0;
}

/* Whether a line's offset is a number (a first line that is not is a header). */
static bool is_data(const column_map *m, char **f, int n)
{
    int at = m->at[COL_OFFSET];
    double v;
    uint64_t u;
    return at < n && column_number(m, f[at], &v, &u);
}

static int parse_columns(trace_reader *t, char *line, trace_record *r)
{
    column_map *m = &t->cols;
    if (!m->sep) m->sep = separator_of(line);
    char *f[MAX_FIELDS];
    int n = split_quoted(line, m->sep, f);
    uint64_t number = input_line_number(t->in);
    if (m->header_lines >= 0 ? number <= (uint64_t)m->header_lines : number == 1 && !is_data(m, f, n)) return 0;
    if (!m->decimal) settle_decimal(m, f, n);
    if (!m->thousands) m->thousands = m->decimal == ',' ? '.' : ',';
    if (m->at[COL_OP] >= n) return field_value(t, f, n, COL_OP, NULL, NULL);
    int rc = op_of(t, f[m->at[COL_OP]], r);
    if (rc <= 0) {
        if (rc == 0) {
            t->skipped++;
            t->skipped_kind = m->op_word[OP_SKIP];
        }
        return rc;
    }
    double v;
    uint64_t offset, size, device = 0, count = 1, stamp_whole;
    double offset_v, size_v, stamp = 0;
    if (field_value(t, f, n, COL_OFFSET, &offset_v, &offset) || field_value(t, f, n, COL_SIZE, &size_v, &size)) return -1;
    if (m->at[COL_DEVICE] >= 0 && field_value(t, f, n, COL_DEVICE, &v, &device)) return -1;
    if (m->at[COL_TIME] >= 0 && field_value(t, f, n, COL_TIME, &stamp, &stamp_whole)) return -1;
    if (m->at[COL_COUNT] >= 0 && field_value(t, f, n, COL_COUNT, &v, &count)) return -1;
    if (count != 1) return reader_bad(t, "the row stands for more than one I/O (its Count is not 1)", "one row per I/O (group the table by I/O, not by process or type)");
    r->offset = offset * m->offset_unit;
    r->device = (uint32_t)device;
    if (reader_sized(t, size * m->size_unit, r) < 0) return -1;
    /* stamps a double cannot hold exactly (MSR's FILETIME ticks) are
     * taken as whole numbers, decided on the first record */
    if (!t->have_base) m->whole_time = stamp >= 9007199254740992.0;
    if (m->whole_time) return reader_set_ticks(t, stamp_whole, m->time_ns, r) < 0 ? -1 : 1;
    return reader_set_time(t, stamp, m->time_ns, r) < 0 ? -1 : 1;
}

static int start_columns(trace_reader *t, char *err, size_t errlen)
{
    if (!t->opt.columns || !*t->opt.columns)
        return snprintf(err, errlen, "%s: the columns format needs a column map; expected --columns (workload.trace_columns) such as "
                                     "time=1:us,op=2:R/W,offset=3:sector,size=4:B,device=5", t->path), -1;
    char why[200];
    if (columns_parse(t->opt.columns, &t->cols, why, sizeof why))
        return snprintf(err, errlen, "column map %s", why), -1;
    return 0;
}

/* WPA "Disk Usage" exports: the header names the columns. */
static const struct { const char *name; int column; } wpa_columns[] = {
    {"IO Type", COL_OP}, {"Init Time", COL_TIME}, {"Size", COL_SIZE}, {"Min Offset", COL_OFFSET},
    {"Offset", COL_OFFSET}, {"Disk", COL_DEVICE}, {"Count", COL_COUNT}};

static const char *without_bom(const char *line) { return strncmp(line, "\xEF\xBB\xBF", 3) ? line : line + 3; }

bool wpa_header(const char *line)
{
    line = without_bom(line);
    return strstr(line, "IO Type") && strstr(line, "Init Time") && strstr(line, "Offset");
}

/* The column a header name stands for ("Init Time (s)" -> time in s). */
static int wpa_column(column_map *m, const char *name)
{
    for (size_t i = 0; i < sizeof wpa_columns / sizeof *wpa_columns; i++) {
        size_t len = strlen(wpa_columns[i].name);
        if (strncmp(name, wpa_columns[i].name, len) || (name[len] && strncmp(name + len, " (", 2))) continue; /* not "Disk Service Time" */
        const char *unit = strchr(name, '(');
        char inside[16] = "";
        if (unit) sscanf(unit + 1, "%15[^)]", inside);
        if (wpa_columns[i].column == COL_TIME && *inside && !time_unit(inside, &m->time_ns)) return -2;
        if (wpa_columns[i].column == COL_SIZE && *inside && !size_unit(inside, &m->size_unit)) return -2;
        return wpa_columns[i].column;
    }
    return -1;
}

static int start_wpa(trace_reader *t, char *err, size_t errlen)
{
    column_map *m = &t->cols;
    column_defaults(m);
    m->header_lines = 1;
    snprintf(m->op_word[OP_READ], sizeof m->op_word[OP_READ], "Read");
    snprintf(m->op_word[OP_WRITE], sizeof m->op_word[OP_WRITE], "Write");
    snprintf(m->op_word[OP_TRIM], sizeof m->op_word[OP_TRIM], "Trim");
    snprintf(m->op_word[OP_SKIP], sizeof m->op_word[OP_SKIP], "Flush");
    char *line, *f[MAX_FIELDS];
    size_t len;
    if (input_line(t->in, &line, &len) != 1 || !wpa_header(line))
        return snprintf(err, errlen, "%s:1: not a WPA Disk Usage header; expected column names including IO Type, Init Time and Min Offset", t->path), -1;
    line = (char *)without_bom(line);
    m->sep = separator_of(line);
    int n = split_quoted(line, m->sep, f);
    for (int i = 0; i < n; i++) {
        int c = wpa_column(m, f[i]);
        if (c == -2)
            return snprintf(err, errlen, "%s:1: the unit of column '%s' is not one ssdlab reads; expected s, ms, us or ns for times, B or KB for sizes",
                            t->path, f[i]), -1;
        if (c >= 0 && m->at[c] < 0) m->at[c] = i;
    }
    for (int c = 0; c < COLS; c++)
        if (m->at[c] < 0 && c != COL_DEVICE && c != COL_COUNT)
            return snprintf(err, errlen, "%s:1: the header has no %s column; expected IO Type, Init Time, Size and Min Offset "
                                         "(export the Disk Usage table with them)", t->path,
                            c == COL_OP ? "IO Type" : c == COL_TIME ? "Init Time" : c == COL_SIZE ? "Size" : "Min Offset"), -1;
    return reader_rewind(t, err, errlen);
}

const trace_kind trace_kind_columns = {.name = "columns", .start = start_columns, .line = parse_columns};
const trace_kind trace_kind_wpa = {.name = "wpa", .start = start_wpa, .line = parse_columns};
