/* The key schema: declaration checks, value parsing and formatting. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "config_internal.h"
#include "units.h"

static const char *const type_names[CFG_TYPE_COUNT] = {
    [CFG_BOOL] = "bool", [CFG_INT] = "int", [CFG_UINT] = "uint", [CFG_FLOAT] = "float",
    [CFG_FRACTION] = "fraction", [CFG_STRING] = "string", [CFG_ENUM] = "enum", [CFG_PATH] = "path",
    [CFG_SIZE] = "size", [CFG_TIME] = "time", [CFG_FREQUENCY] = "frequency",
    [CFG_TRANSFER_RATE] = "transfer rate", [CFG_BIT_RATE] = "bit rate", [CFG_BYTE_RATE] = "byte rate",
};

const char *cfg_type_name(cfg_type t) { return t < CFG_TYPE_COUNT ? type_names[t] : "?"; }

static int type_dim(cfg_type t)
{
    switch (t) {
    case CFG_SIZE: return DIM_SIZE;
    case CFG_TIME: return DIM_TIME;
    case CFG_FREQUENCY: return DIM_FREQUENCY;
    case CFG_TRANSFER_RATE: return DIM_TRANSFER_RATE;
    case CFG_BIT_RATE: return DIM_BIT_RATE;
    case CFG_BYTE_RATE: return DIM_BYTE_RATE;
    default: return -1;
    }
}

static bool uses_unsigned(cfg_type t) { return t == CFG_UINT || type_dim(t) >= 0; }
static bool uses_float(cfg_type t) { return t == CFG_FLOAT || t == CFG_FRACTION; }

void cfg_value_free(cfg_value *v)
{
    free(v->s);
    v->s = NULL;
}

int cfg_value_copy(cfg_value *dst, const cfg_value *src)
{
    *dst = *src;
    if (src->s && !(dst->s = strdup(src->s))) return -1;
    return 0;
}

/* The choice of an enum matching text, or NULL. */
static const char *match_choice(const char *choices, const char *text, size_t *len)
{
    size_t tl = strlen(text);
    for (const char *c = choices; *c;) {
        size_t cl = strcspn(c, "|");
        if (cl == tl && strncmp(c, text, tl) == 0) {
            *len = cl;
            return c;
        }
        c += cl + (c[cl] == '|');
    }
    return NULL;
}

static int parse_bool(const char *t, bool *out)
{
    static const char *const yes[] = {"true", "True", "TRUE", "yes", "Yes", "on", "On", NULL};
    static const char *const no[] = {"false", "False", "FALSE", "no", "No", "off", "Off", NULL};
    for (int i = 0; yes[i]; i++)
        if (strcmp(t, yes[i]) == 0) return *out = true, 0;
    for (int i = 0; no[i]; i++)
        if (strcmp(t, no[i]) == 0) return *out = false, 0;
    return -1;
}

/* Whole numbers: decimal (exact, "1e6" and "1_000" allowed) or 0x hex. */
static int parse_integer(const char *t, bool allow_negative, cfg_value *out, char *what, size_t wl)
{
    if (t[0] == '0' && (t[1] == 'x' || t[1] == 'X') && isxdigit((unsigned char)t[2])) {
        char *end;
        errno = 0;
        unsigned long long v = strtoull(t + 2, &end, 16);
        if (*end) return snprintf(what, wl, "'%s' is not a hexadecimal number", t), -1;
        if (errno || (allow_negative && v > INT64_MAX)) return snprintf(what, wl, "'%s' is too large", t), -1;
        if (allow_negative) out->i = (int64_t)v;
        else out->u = v;
        return 0;
    }
    decimal d;
    size_t used = decimal_scan(t, &d);
    if (!used || t[used]) return snprintf(what, wl, "'%s' is not a whole number", t), -1;
    uint64_t mag;
    decimal pos = d;
    pos.negative = 0;
    int rc = decimal_to_u64(&pos, 1, &mag);
    if (rc == -2) return snprintf(what, wl, "'%s' is not a whole number", t), -1;
    if (rc == -3) return snprintf(what, wl, "'%s' is too large", t), -1;
    if (d.negative && mag) {
        if (!allow_negative) return snprintf(what, wl, "'%s' is negative", t), -1;
        if (mag > (uint64_t)INT64_MAX + 1) return snprintf(what, wl, "'%s' is too large", t), -1;
        out->i = (int64_t)(0 - mag);
        return 0;
    }
    if (allow_negative) {
        if (mag > INT64_MAX) return snprintf(what, wl, "'%s' is too large", t), -1;
        out->i = (int64_t)mag;
    } else {
        out->u = mag;
    }
    return 0;
}

static int parse_real(const char *t, bool percent_ok, double *out, char *what, size_t wl)
{
    char *end;
    errno = 0;
    double v = strtod(t, &end);
    if (end == t || isspace((unsigned char)*t)) return snprintf(what, wl, "'%s' is not a number", t), -1;
    while (*end == ' ') end++;
    if (percent_ok && *end == '%') {
        v /= 100.0;
        end++;
    }
    if (*end) return snprintf(what, wl, "'%s' is not a number", t), -1;
    if (!isfinite(v)) return snprintf(what, wl, "'%s' is not a finite number", t), -1;
    *out = v;
    return 0;
}

static char *resolve_path(const char *base_dir, const char *text)
{
    if (text[0] == '/' || !base_dir || !base_dir[0] || strcmp(base_dir, ".") == 0) return strdup(text);
    size_t n = strlen(base_dir) + strlen(text) + 2;
    char *p = malloc(n);
    if (p) snprintf(p, n, "%s/%s", base_dir, text);
    return p;
}

/* Parses without the range check. */
static int parse_raw(const cfg_key *k, const char *t, const char *base_dir, cfg_value *out,
                     char *what, size_t wl, char *expected, size_t el)
{
    memset(out, 0, sizeof *out);
    int dim = type_dim(k->type);
    if (dim >= 0) return unit_parse((unit_dim)dim, t, k->unit, &out->u, what, wl, expected, el);
    switch (k->type) {
    case CFG_BOOL:
        snprintf(expected, el, "true or false");
        if (parse_bool(t, &out->b)) return snprintf(what, wl, "'%s' is not a boolean", t), -1;
        return 0;
    case CFG_INT:
        snprintf(expected, el, "an integer");
        return parse_integer(t, true, out, what, wl);
    case CFG_UINT:
        snprintf(expected, el, "a non-negative integer");
        return parse_integer(t, false, out, what, wl);
    case CFG_FLOAT:
        snprintf(expected, el, "a number");
        return parse_real(t, false, &out->f, what, wl);
    case CFG_FRACTION:
        snprintf(expected, el, "a fraction such as 0.07 or 7%%");
        return parse_real(t, true, &out->f, what, wl);
    case CFG_STRING:
        snprintf(expected, el, "a string");
        out->s = strdup(t);
        return out->s ? 0 : (snprintf(what, wl, "out of memory"), -1);
    case CFG_ENUM: {
        snprintf(expected, el, "one of: ");
        size_t used = strlen(expected);
        for (const char *c = k->choices; *c && used + 1 < el;) {
            size_t cl = strcspn(c, "|");
            used += (size_t)snprintf(expected + used, el - used, "%s%.*s", c == k->choices ? "" : ", ", (int)cl, c);
            if (used >= el) break;
            c += cl + (c[cl] == '|');
        }
        size_t len;
        const char *choice = match_choice(k->choices, t, &len);
        if (!choice) return snprintf(what, wl, "'%s' is not a valid choice", t), -1;
        out->s = strndup(choice, len);
        return out->s ? 0 : (snprintf(what, wl, "out of memory"), -1);
    }
    case CFG_PATH:
        snprintf(expected, el, "a file path");
        if (!t[0]) return snprintf(what, wl, "the path is empty"), -1;
        out->s = resolve_path(base_dir, t);
        return out->s ? 0 : (snprintf(what, wl, "out of memory"), -1);
    default:
        snprintf(what, wl, "key has no parser for its type");
        return -1;
    }
}

static int compare_values(cfg_type t, const cfg_value *a, const cfg_value *b)
{
    if (uses_unsigned(t)) return (a->u > b->u) - (a->u < b->u);
    if (t == CFG_INT) return (a->i > b->i) - (a->i < b->i);
    if (uses_float(t)) return (a->f > b->f) - (a->f < b->f);
    return 0;
}

static void append_range(const cfg_key *k, char *buf, size_t len)
{
    size_t used = strlen(buf);
    if (used >= len) return;
    if (k->min && k->max)
        snprintf(buf + used, len - used, " between %s and %s", k->min, k->max);
    else if (k->min)
        snprintf(buf + used, len - used, " of at least %s", k->min);
    else if (k->max)
        snprintf(buf + used, len - used, " of at most %s", k->max);
}

void cfg_expected(const cfg_schema *s, size_t i, char *buf, size_t len)
{
    char what[CFG_MSG];
    cfg_value v;
    /* Parsing the empty text yields the type's "expected" phrase. */
    if (parse_raw(&s->keys[i], "", NULL, &v, what, sizeof what, buf, len) == 0) cfg_value_free(&v);
    append_range(&s->keys[i], buf, len);
}

int cfg_parse_value(const cfg_schema *s, size_t i, const char *text, const char *base_dir,
                    cfg_value *out, char *what, size_t wlen, char *expected, size_t elen)
{
    const cfg_key *k = &s->keys[i];
    if (parse_raw(k, text, base_dir, out, what, wlen, expected, elen)) {
        append_range(k, expected, elen);
        return -1;
    }
    if ((k->min && compare_values(k->type, out, &s->min[i]) < 0) ||
        (k->max && compare_values(k->type, out, &s->max[i]) > 0)) {
        snprintf(what, wlen, "'%s' is out of range", text);
        append_range(k, expected, elen);
        cfg_value_free(out);
        return -1;
    }
    return 0;
}

static void format_real(double f, char *buf, size_t len)
{
    /* The shortest of %.15g..%.17g that reads back exactly. */
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(buf, len, "%.*g", prec, f);
        if (strtod(buf, NULL) == f) break;
    }
    if (!strpbrk(buf, ".eEn")) strncat(buf, ".0", len - strlen(buf) - 1);
}

static void format_quoted(const char *s, char *buf, size_t len)
{
    size_t o = 0;
    if (len < 3) return;
    buf[o++] = '"';
    for (; *s && o + 3 < len; s++) {
        if (*s == '"' || *s == '\\') buf[o++] = '\\';
        buf[o++] = *s;
    }
    buf[o++] = '"';
    buf[o] = 0;
}

void cfg_format_value(const cfg_key *k, const cfg_value *v, char *buf, size_t len)
{
    int dim = type_dim(k->type);
    if (dim >= 0) {
        unit_format((unit_dim)dim, v->u, buf, len);
        return;
    }
    switch (k->type) {
    case CFG_BOOL: snprintf(buf, len, "%s", v->b ? "true" : "false"); break;
    case CFG_INT: snprintf(buf, len, "%lld", (long long)v->i); break;
    case CFG_UINT: snprintf(buf, len, "%llu", (unsigned long long)v->u); break;
    case CFG_FLOAT:
    case CFG_FRACTION: format_real(v->f, buf, len); break;
    case CFG_ENUM: snprintf(buf, len, "%s", v->s ? v->s : ""); break;
    default: format_quoted(v->s ? v->s : "", buf, len); break;
    }
}

static int compare_keys(const void *a, const void *b)
{
    return strcmp(((const cfg_key *)a)->name, ((const cfg_key *)b)->name);
}

long cfg_schema_index(const cfg_schema *s, const char *name)
{
    cfg_key probe = {.name = name};
    const cfg_key *k = bsearch(&probe, s->keys, s->count, sizeof *k, compare_keys);
    return k ? (long)(k - s->keys) : -1;
}

bool cfg_schema_is_section(const cfg_schema *s, const char *prefix)
{
    size_t n = strlen(prefix);
    for (size_t i = 0; i < s->count; i++)
        if (strncmp(s->keys[i].name, prefix, n) == 0 && s->keys[i].name[n] == '.') return true;
    return false;
}

static int check_key(cfg_schema *s, size_t i, char *err, size_t errlen)
{
    const cfg_key *k = &s->keys[i];
    char what[CFG_MSG], expected[CFG_MSG];
    int dim = type_dim(k->type);
    if (!k->doc || !k->doc[0]) return snprintf(err, errlen, "key '%s' has no documentation", k->name), -1;
    if (dim >= 0 && (!k->unit || !unit_known((unit_dim)dim, k->unit)))
        return snprintf(err, errlen, "key '%s': default unit '%s' is not %s", k->name, k->unit ? k->unit : "(none)",
                        unit_dim_noun((unit_dim)dim)), -1;
    if (k->type == CFG_ENUM && (!k->choices || !k->choices[0]))
        return snprintf(err, errlen, "key '%s': enum without choices", k->name), -1;
    if (i > 0) {
        const char *prev = s->keys[i - 1].name;
        size_t pl = strlen(prev);
        if (strcmp(prev, k->name) == 0) return snprintf(err, errlen, "key '%s' is declared twice", k->name), -1;
        if (strncmp(prev, k->name, pl) == 0 && k->name[pl] == '.')
            return snprintf(err, errlen, "key '%s' is both a value and a section", prev), -1;
    }
    const char *texts[3] = {k->min, k->max, k->def};
    cfg_value *slots[3] = {&s->min[i], &s->max[i], &s->defaults[i]};
    for (int j = 0; j < 3; j++) {
        if (!texts[j]) continue;
        int rc = j < 2 ? parse_raw(k, texts[j], NULL, slots[j], what, sizeof what, expected, sizeof expected)
                       : cfg_parse_value(s, i, texts[j], NULL, slots[j], what, sizeof what, expected, sizeof expected);
        if (rc) return snprintf(err, errlen, "key '%s': %s %s; expected %s", k->name,
                                j == 2 ? "default" : "bound", what, expected), -1;
    }
    if (!k->def) return snprintf(err, errlen, "key '%s' has no default", k->name), -1;
    return 0;
}

cfg_schema *cfg_schema_create(const cfg_key *const *tables, size_t ntables, char *err, size_t errlen)
{
    size_t n = 0;
    for (size_t t = 0; t < ntables; t++)
        for (const cfg_key *k = tables[t]; k->name; k++) n++;
    cfg_schema *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->keys = calloc(n ? n : 1, sizeof *s->keys);
    s->defaults = calloc(n ? n : 1, sizeof *s->defaults);
    s->min = calloc(n ? n : 1, sizeof *s->min);
    s->max = calloc(n ? n : 1, sizeof *s->max);
    if (!s->keys || !s->defaults || !s->min || !s->max) {
        snprintf(err, errlen, "out of memory");
        cfg_schema_free(s);
        return NULL;
    }
    for (size_t t = 0; t < ntables; t++)
        for (const cfg_key *k = tables[t]; k->name; k++) s->keys[s->count++] = *k;
    qsort(s->keys, s->count, sizeof *s->keys, compare_keys);
    for (size_t i = 0; i < s->count; i++) {
        if (check_key(s, i, err, errlen)) {
            cfg_schema_free(s);
            return NULL;
        }
    }
    return s;
}

void cfg_schema_free(cfg_schema *s)
{
    if (!s) return;
    for (size_t i = 0; i < s->count; i++) {
        cfg_value_free(&s->defaults[i]);
        cfg_value_free(&s->min[i]);
        cfg_value_free(&s->max[i]);
    }
    free(s->keys);
    free(s->defaults);
    free(s->min);
    free(s->max);
    free(s);
}

size_t cfg_schema_size(const cfg_schema *s) { return s->count; }
const cfg_key *cfg_schema_key(const cfg_schema *s, size_t i) { return i < s->count ? &s->keys[i] : NULL; }

const cfg_key *cfg_schema_find(const cfg_schema *s, const char *name)
{
    long i = cfg_schema_index(s, name);
    return i < 0 ? NULL : &s->keys[i];
}

/* Levenshtein distance, capped: names longer than the buffer compare as far. */
static size_t edit_distance(const char *a, const char *b)
{
    enum { MAXLEN = 127 };
    size_t la = strlen(a), lb = strlen(b);
    if (la > MAXLEN || lb > MAXLEN) return SIZE_MAX / 2;
    size_t row[MAXLEN + 1];
    for (size_t j = 0; j <= lb; j++) row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j];
            size_t best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best) best = up + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

static const char *last_part(const char *name)
{
    const char *dot = strrchr(name, '.');
    return dot ? dot + 1 : name;
}

const cfg_key *cfg_schema_nearest(const cfg_schema *s, const char *name)
{
    const cfg_key *best = NULL;
    size_t best_d = SIZE_MAX;
    for (size_t i = 0; i < s->count; i++) {
        size_t d = edit_distance(name, s->keys[i].name);
        /* The right leaf name under the wrong section is a near miss too. */
        size_t leaf_d = edit_distance(last_part(name), last_part(s->keys[i].name)) + 1;
        if (leaf_d < d) d = leaf_d;
        if (d < best_d) {
            best_d = d;
            best = &s->keys[i];
        }
    }
    size_t limit = strlen(last_part(name)) / 3 + 2;
    return best && best_d <= limit ? best : NULL;
}
