/* Sweep files: parsing (libyaml's document API) and expansion into points. */
#include "sweep.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

typedef struct loader {
    sweep *s;
    yaml_document_t doc;
    char *err;
    size_t errlen, used;
    int problems;
} loader;

static void problem(loader *L, const yaml_node_t *at, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void problem(loader *L, const yaml_node_t *at, const char *key, const char *fmt, ...)
{
    L->problems++;
    if (L->used + 1 >= L->errlen) return;
    int n = snprintf(L->err + L->used, L->errlen - L->used, "%s:%zu: key '%s': ", L->s->path,
                     at ? at->start_mark.line + 1 : 0, key);
    if (n > 0) L->used += (size_t)n < L->errlen - L->used ? (size_t)n : L->errlen - L->used - 1;
    va_list ap;
    va_start(ap, fmt);
    n = vsnprintf(L->err + L->used, L->errlen - L->used, fmt, ap);
    va_end(ap);
    if (n > 0) L->used += (size_t)n < L->errlen - L->used ? (size_t)n : L->errlen - L->used - 1;
    if (L->used + 1 < L->errlen) {
        L->err[L->used++] = '\n';
        L->err[L->used] = 0;
    }
}

static yaml_node_t *node(loader *L, int id) { return yaml_document_get_node(&L->doc, id); }

static const char *scalar(const yaml_node_t *n) { return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL; }

static char *scalar_copy(loader *L, const yaml_node_t *n, const char *key, const char *expected)
{
    const char *v = scalar(n);
    if (!v || !*v) {
        problem(L, n, key, "expected %s", expected);
        return NULL;
    }
    return strdup(v);
}

/* A scalar or a list of scalars, as a list. */
static char **string_list(loader *L, const yaml_node_t *n, const char *key, size_t *count, const char *expected)
{
    *count = 0;
    if (scalar(n)) {
        char **one = malloc(sizeof *one);
        if (one) one[(*count)++] = strdup(scalar(n));
        return one;
    }
    if (!n || n->type != YAML_SEQUENCE_NODE || n->data.sequence.items.top == n->data.sequence.items.start) {
        problem(L, n, key, "expected %s", expected);
        return NULL;
    }
    size_t len = (size_t)(n->data.sequence.items.top - n->data.sequence.items.start);
    char **list = calloc(len, sizeof *list);
    for (size_t i = 0; list && i < len; i++) {
        const yaml_node_t *item = node(L, n->data.sequence.items.start[i]);
        if (!scalar(item) || !*scalar(item)) {
            problem(L, item, key, "item %zu: expected %s", i + 1, expected);
            continue;
        }
        list[(*count)++] = strdup(scalar(item));
    }
    return list;
}

static uint64_t number(loader *L, const yaml_node_t *n, const char *key, uint64_t lo, uint64_t hi)
{
    const char *v = scalar(n);
    char *end = NULL;
    errno = 0;
    bool digits = v && *v && *v != '-'; /* strtoull would take "-1" as a huge number */
    unsigned long long x = digits ? strtoull(v, &end, 10) : 0;
    if (!digits || *end || errno || x < lo || x > hi) {
        problem(L, n, key, "'%s': expected a whole number from %" PRIu64 " to %" PRIu64, v ? v : "(not a value)", lo, hi);
        return lo;
    }
    return x;
}

/* A setting given twice is a mistake; the first value stays. */
static bool once(loader *L, const yaml_node_t *key, const char *name, bool seen)
{
    if (!seen) return true;
    problem(L, key, name, "given twice; expected it once");
    return false;
}

static void load_settings(loader *L, const yaml_node_t *map)
{
    sweep *s = L->s;
    bool seen_reps = false;
    for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
        const char *k = scalar(node(L, p->key));
        const yaml_node_t *v = node(L, p->value), *kn = node(L, p->key);
        if (!k) k = "(not a name)";
        if (!strcmp(k, "name")) {
            if (once(L, kn, "sweep.name", s->name != NULL)) s->name = scalar_copy(L, v, "sweep.name", "a name");
        } else if (!strcmp(k, "drive")) {
            if (once(L, kn, "sweep.drive", s->drive != NULL)) s->drive = scalar_copy(L, v, "sweep.drive", "a drive file or a preset's name");
        } else if (!strcmp(k, "workload")) {
            if (once(L, kn, "sweep.workload", s->workload != NULL)) s->workload = scalar_copy(L, v, "sweep.workload", "a workload file");
        } else if (!strcmp(k, "output")) {
            if (once(L, kn, "sweep.output", s->output != NULL)) s->output = scalar_copy(L, v, "sweep.output", "a folder");
        } else if (!strcmp(k, "config")) {
            if (once(L, kn, "sweep.config", s->configs != NULL)) s->configs = string_list(L, v, "sweep.config", &s->config_count, "config files");
        } else if (!strcmp(k, "set")) {
            if (once(L, kn, "sweep.set", s->sets != NULL)) s->sets = string_list(L, v, "sweep.set", &s->set_count, "KEY=VALUE overrides");
        } else if (!strcmp(k, "repetitions")) {
            if (once(L, kn, "sweep.repetitions", seen_reps)) s->repetitions = (uint32_t)number(L, v, "sweep.repetitions", 1, 100000);
            seen_reps = true;
        } else if (!strcmp(k, "seed")) {
            if (once(L, kn, "sweep.seed", s->has_seed)) s->seed = number(L, v, "sweep.seed", 0, UINT64_MAX / 2);
            s->has_seed = true;
        } else
            problem(L, kn, k, "not a sweep setting; expected name, drive, workload, config, set, repetitions, seed or output");
    }
}

static sweep_axis *load_axes(loader *L, const yaml_node_t *map, const char *section, size_t *count)
{
    size_t len = (size_t)(map->data.mapping.pairs.top - map->data.mapping.pairs.start);
    sweep_axis *axes = calloc(len ? len : 1, sizeof *axes);
    *count = 0;
    for (size_t i = 0; axes && i < len; i++) {
        yaml_node_pair_t *p = &map->data.mapping.pairs.start[i];
        const char *k = scalar(node(L, p->key));
        const yaml_node_t *v = node(L, p->value);
        char where[300];
        snprintf(where, sizeof where, "%s.%s", section, k ? k : "(not a name)");
        if (!k || !strchr(k, '.')) {
            problem(L, node(L, p->key), where, "expected a configuration key such as ftl.gc.policy");
            continue;
        }
        if (!v || v->type != YAML_SEQUENCE_NODE) {
            problem(L, v, where, "expected a list of values, e.g. [greedy, fifo]");
            continue;
        }
        sweep_axis *a = &axes[*count];
        a->values = string_list(L, v, where, &a->count, "a value");
        if (!a->count) {
            free(a->values);
            continue;
        }
        a->key = strdup(k);
        (*count)++;
    }
    return axes;
}

static void check_axes(loader *L, const yaml_node_t *zip_node)
{
    sweep *s = L->s;
    for (size_t i = 0; i < s->zip_count; i++) {
        if (i && s->zip[i].count != s->zip_length)
            problem(L, zip_node, s->zip[i].key, "%zu values, but '%s' has %zu; expected zipped lists of one length", s->zip[i].count,
                    s->zip[0].key, s->zip_length);
        if (!i) s->zip_length = s->zip[i].count;
        for (size_t j = 0; j < s->grid_count; j++)
            if (!strcmp(s->zip[i].key, s->grid[j].key)) problem(L, zip_node, s->zip[i].key, "in both grid and zip; expected it in one");
    }
}

static void load_root(loader *L, const yaml_node_t *root)
{
    sweep *s = L->s;
    const yaml_node_t *zip_node = NULL;
    bool has_settings = false;
    for (yaml_node_pair_t *p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top; p++) {
        const char *k = scalar(node(L, p->key));
        const yaml_node_t *v = node(L, p->value);
        bool is_map = v && v->type == YAML_MAPPING_NODE;
        if (!k) k = "(not a name)";
        if (strcmp(k, "sweep") && strcmp(k, "grid") && strcmp(k, "zip")) {
            problem(L, node(L, p->key), k, "not a section of a sweep file; expected sweep, grid or zip");
        } else if (!is_map) {
            problem(L, v, k, "expected a mapping");
        } else if (!strcmp(k, "sweep")) {
            if (once(L, node(L, p->key), k, has_settings)) load_settings(L, v);
            has_settings = true;
        } else if (!strcmp(k, "grid")) {
            if (once(L, node(L, p->key), k, s->grid != NULL)) s->grid = load_axes(L, v, "grid", &s->grid_count);
        } else if (once(L, node(L, p->key), k, s->zip != NULL)) {
            zip_node = v;
            s->zip = load_axes(L, v, "zip", &s->zip_count);
        }
    }
    if (!has_settings || !s->drive) problem(L, root, "sweep.drive", "missing; expected the base drive (a file or a preset's name)");
    check_axes(L, zip_node);
}

static char *default_name(const char *path)
{
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    size_t n = strlen(base);
    if (n > 5 && !strcmp(base + n - 5, ".yaml")) n -= 5;
    return strndup(base, n);
}

int sweep_load(sweep *s, const char *path, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    s->path = strdup(path);
    s->repetitions = 1;
    loader L = {.s = s, .err = err, .errlen = errlen};
    if (errlen) err[0] = 0;
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: cannot open the sweep file: %s\n", path, strerror(errno));
        return -1;
    }
    yaml_parser_t parser;
    yaml_parser_initialize(&parser);
    yaml_parser_set_input_file(&parser, f);
    if (!yaml_parser_load(&parser, &L.doc)) {
        snprintf(err, errlen, "%s:%zu: not valid YAML: %s\n", path, parser.problem_mark.line + 1,
                 parser.problem ? parser.problem : "syntax error");
        L.problems++;
    } else {
        yaml_node_t *root = yaml_document_get_root_node(&L.doc);
        if (!root || root->type != YAML_MAPPING_NODE) problem(&L, root, "(top level)", "expected the sections sweep, grid and zip");
        else load_root(&L, root);
        yaml_document_delete(&L.doc);
    }
    yaml_parser_delete(&parser);
    fclose(f);
    if (!s->name) s->name = default_name(path);
    if (!s->output) {
        size_t n = strlen(s->name) + 32;
        s->output = malloc(n);
        if (s->output) snprintf(s->output, n, "results/sweeps/%s", s->name);
    }
    return L.problems ? -1 : 0;
}

static void free_list(char **list, size_t count)
{
    for (size_t i = 0; list && i < count; i++) free(list[i]);
    free(list);
}

static void free_axes(sweep_axis *axes, size_t count)
{
    for (size_t i = 0; axes && i < count; i++) {
        free(axes[i].key);
        free_list(axes[i].values, axes[i].count);
    }
    free(axes);
}

void sweep_free(sweep *s)
{
    free(s->path);
    free(s->name);
    free(s->drive);
    free(s->workload);
    free(s->output);
    free_list(s->configs, s->config_count);
    free_list(s->sets, s->set_count);
    free_axes(s->grid, s->grid_count);
    free_axes(s->zip, s->zip_count);
    memset(s, 0, sizeof *s);
}

size_t sweep_point_count(const sweep *s)
{
    size_t n = s->repetitions;
    for (size_t i = 0; i < s->grid_count; i++) n *= s->grid[i].count;
    return s->zip_count ? n * s->zip_length : n;
}

uint64_t sweep_seed(uint64_t base, uint32_t repetition) { return base + repetition; }

/* FNV-1a, so that a point's file name changes when its overrides do (an
 * edited sweep then re-runs the points it changed instead of keeping
 * results of other parameters). */
static uint32_t fnv1a(uint32_t h, const char *text)
{
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) h = (h ^ *p) * 16777619u;
    return h;
}

static char *assignment(const char *key, const char *value)
{
    size_t n = strlen(key) + strlen(value) + 2;
    char *a = malloc(n);
    if (a) snprintf(a, n, "%s=%s", key, value);
    return a;
}

int sweep_point_make(const sweep *s, size_t index, sweep_point *p)
{
    memset(p, 0, sizeof *p);
    p->index = index;
    p->repetition = (uint32_t)(index % s->repetitions);
    size_t rest = index / s->repetitions;
    p->sets = calloc(s->grid_count + s->zip_count + 1, sizeof *p->sets);
    if (!p->sets) return -1;
    size_t zip_choice = s->zip_count ? rest % s->zip_length : 0;
    if (s->zip_count) rest /= s->zip_length;
    /* the grid as an odometer whose last key turns fastest */
    size_t *digit = calloc(s->grid_count + 1, sizeof *digit);
    if (!digit) return -1;
    for (size_t i = s->grid_count; i-- > 0;) {
        digit[i] = rest % s->grid[i].count;
        rest /= s->grid[i].count;
    }
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < s->grid_count; i++) p->sets[p->set_count++] = assignment(s->grid[i].key, s->grid[i].values[digit[i]]);
    for (size_t i = 0; i < s->zip_count; i++) p->sets[p->set_count++] = assignment(s->zip[i].key, s->zip[i].values[zip_choice]);
    free(digit);
    for (size_t i = 0; i < p->set_count; i++) {
        if (!p->sets[i]) return -1;
        h = fnv1a(fnv1a(h, p->sets[i]), "\n");
    }
    char rep[32];
    snprintf(rep, sizeof rep, "repetition=%u", p->repetition);
    h = fnv1a(h, rep);
    snprintf(p->name, sizeof p->name, "p%04zu-%08x", index, h);
    return 0;
}

void sweep_point_free(sweep_point *p)
{
    free_list(p->sets, p->set_count);
    memset(p, 0, sizeof *p);
}
