/* Values of one run: loading YAML files (with libyaml's document API, which
 * keeps the line and column of every node), --set overrides, typed reads. */
#include <errno.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include "config_internal.h"
#include "fatal.h"

static _Noreturn void api_misuse(const char *what, const char *key)
{
    ssdlab_internal_error("%s '%s'", what, key);
}

cfg *cfg_create(const cfg_schema *s)
{
    cfg *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->schema = s;
    c->entries = calloc(s->count ? s->count : 1, sizeof *c->entries);
    if (!c->entries) {
        free(c);
        return NULL;
    }
    for (size_t i = 0; i < s->count; i++) {
        if (cfg_value_copy(&c->entries[i].v, &s->defaults[i])) {
            cfg_free(c);
            return NULL;
        }
    }
    return c;
}

void cfg_free(cfg *c)
{
    if (!c) return;
    for (size_t i = 0; i < c->schema->count; i++) cfg_value_free(&c->entries[i].v);
    for (size_t i = 0; i < c->file_count; i++) free(c->files[i]);
    free(c->files);
    free(c->entries);
    free(c->errors);
    free(c);
}

int cfg_error_count(const cfg *c) { return c->error_count; }
const char *cfg_errors(const cfg *c) { return c->errors ? c->errors : ""; }

static void add_error(cfg *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add_error(cfg *c, const char *fmt, ...)
{
    char line[4 * CFG_MSG];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line - 1, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    if ((size_t)n > sizeof line - 2) n = (int)sizeof line - 2;
    line[n++] = '\n';
    line[n] = 0;
    c->error_count++;
    if (c->errors_len + (size_t)n + 1 > c->errors_cap) {
        size_t cap = (c->errors_cap + (size_t)n + 1) * 2;
        char *e = realloc(c->errors, cap);
        if (!e) return;
        c->errors = e;
        c->errors_cap = cap;
    }
    memcpy(c->errors + c->errors_len, line, (size_t)n + 1);
    c->errors_len += (size_t)n;
}

static const char *intern_file(cfg *c, const char *path)
{
    for (size_t i = 0; i < c->file_count; i++)
        if (strcmp(c->files[i], path) == 0) return c->files[i];
    char **f = realloc(c->files, (c->file_count + 1) * sizeof *f);
    if (!f) return "?";
    c->files = f;
    if (!(f[c->file_count] = strdup(path))) return "?";
    return f[c->file_count++];
}

/* --- one file ---------------------------------------------------------- */

typedef struct loader {
    cfg *c;
    yaml_document_t doc;
    const char *file;    /* interned */
    char *dir;           /* for relative paths */
    const char *section; /* a part file may only set keys under this */
    int load_id;
    const char *list_key; /* top-level key holding a list of items, or NULL */
    yaml_node_t *list;    /* ...and the list found under it */
    yaml_node_t *list_key_node;
} loader;

static void where_error(loader *L, const yaml_node_t *n, const char *key, const char *what, const char *expected)
{
    add_error(L->c, "%s:%zu:%zu: key '%s': %s; expected %s", L->file, n->start_mark.line + 1,
              n->start_mark.column + 1, key, what, expected);
}

static void unknown_key(loader *L, const yaml_node_t *n, const char *key)
{
    const cfg_key *near = cfg_schema_nearest(L->c->schema, key);
    char hint[CFG_MSG];
    if (near) snprintf(hint, sizeof hint, "a declared key (did you mean '%s'?)", near->name);
    else snprintf(hint, sizeof hint, "a declared key (see 'ssdlab config keys')");
    where_error(L, n, key, "unknown key", hint);
}

static void set_scalar(loader *L, const yaml_node_t *kn, const yaml_node_t *vn, const char *key)
{
    cfg *c = L->c;
    long i = cfg_schema_index(c->schema, key);
    if (i < 0) {
        unknown_key(L, kn, key);
        return;
    }
    char what[CFG_MSG], expected[CFG_MSG];
    const char *text = (const char *)vn->data.scalar.value;
    bool plain = vn->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
    if (plain && (!text[0] || strcmp(text, "~") == 0 || strcmp(text, "null") == 0)) {
        cfg_expected(c->schema, (size_t)i, expected, sizeof expected);
        where_error(L, vn, key, "no value", expected);
        return;
    }
    cfg_entry *e = &c->entries[i];
    if (e->load_id == L->load_id && e->kind == ORIGIN_FILE) {
        snprintf(what, sizeof what, "set twice in this file (first at line %d)", e->line);
        where_error(L, kn, key, what, "each key once per file");
        return;
    }
    cfg_value v;
    if (cfg_parse_value(c->schema, (size_t)i, text, L->dir, &v, what, sizeof what, expected, sizeof expected)) {
        where_error(L, vn, key, what, expected);
        return;
    }
    cfg_value_free(&e->v);
    e->v = v;
    e->kind = ORIGIN_FILE;
    e->file = L->file;
    e->line = (int)vn->start_mark.line + 1;
    e->col = (int)vn->start_mark.column + 1;
    e->load_id = L->load_id;
}

static int load_file(cfg *c, const char *path, const char *section);

static void walk_mapping(loader *L, yaml_node_t *map, const char *prefix, int depth);

static bool under(const char *key, const char *section)
{
    size_t sl = strlen(section);
    return strncmp(key, section, sl) == 0 && (key[sl] == '.' || key[sl] == 0);
}

/* A part sets the keys of its own section. A controller also decides the
 * host interface, where the mapping table lives (DRAM or SRAM) and what
 * its DRAM draws, so its file may set host.*, ftl.* and power.* too. */
static bool part_may_set(const char *section, const char *key)
{
    if (under(key, section)) return true;
    return !strcmp(section, "controller") && (under(key, "host") || under(key, "ftl") || under(key, "power"));
}

static void walk_value(loader *L, yaml_node_t *kn, yaml_node_t *vn, const char *key, int depth)
{
    const cfg_schema *s = L->c->schema;
    char expected[2 * CFG_MSG];
    long i = cfg_schema_index(s, key);
    if (L->section && !part_may_set(L->section, key)) {
        snprintf(expected, sizeof expected, "only keys under '%s.'%s in a part file loaded as '%s'", L->section,
                 strcmp(L->section, "controller") ? "" : ", 'host.', 'ftl.' or 'power.'", L->section);
        where_error(L, kn, key, "outside this part's section", expected);
        return;
    }
    switch (vn->type) {
    case YAML_SCALAR_NODE:
        if (i < 0 && cfg_schema_is_section(s, key)) {
            snprintf(expected, sizeof expected, "a mapping of the keys under '%s.' (see 'ssdlab config keys')", key);
            where_error(L, vn, key, "is a section, not a single value", expected);
            return;
        }
        set_scalar(L, kn, vn, key);
        return;
    case YAML_MAPPING_NODE:
        if (i >= 0) {
            cfg_expected(s, (size_t)i, expected, sizeof expected);
            where_error(L, vn, key, "a mapping is not allowed here", expected);
            return;
        }
        walk_mapping(L, vn, key, depth + 1);
        return;
    default:
        if (i >= 0) cfg_expected(s, (size_t)i, expected, sizeof expected);
        else snprintf(expected, sizeof expected, "a single value or a mapping");
        where_error(L, vn, key, "a list is not allowed here", expected);
        return;
    }
}

static const char *scalar_text(const yaml_node_t *n)
{
    return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

/* Loads the file at `rel`, a path relative to the file being loaded. */
static void load_relative(loader *L, const char *rel, const char *section)
{
    size_t n = strlen(L->dir) + strlen(rel) + 2;
    char *path = malloc(n);
    if (!path) return;
    if (rel[0] == '/') snprintf(path, n, "%s", rel);
    else snprintf(path, n, "%s/%s", L->dir, rel);
    load_file(L->c, path, section);
    free(path);
}

static void load_parts(loader *L, yaml_node_t *kn, yaml_node_t *parts)
{
    if (parts->type != YAML_MAPPING_NODE) {
        where_error(L, parts, "parts", "is not a mapping", "a mapping of section name to part file, e.g. 'nand: ../nand/x.yaml'");
        return;
    }
    if (L->section) {
        where_error(L, kn, "parts", "a part file cannot name parts of its own", "the part's own keys only");
        return;
    }
    for (yaml_node_pair_t *p = parts->data.mapping.pairs.start; p < parts->data.mapping.pairs.top; p++) {
        yaml_node_t *k = yaml_document_get_node(&L->doc, p->key);
        yaml_node_t *v = yaml_document_get_node(&L->doc, p->value);
        const char *section = scalar_text(k), *rel = scalar_text(v);
        char key[CFG_MSG];
        snprintf(key, sizeof key, "parts.%s", section ? section : "?");
        if (!section || !cfg_schema_is_section(L->c->schema, section) || strchr(section, '.')) {
            where_error(L, k, key, "not a section that a part can fill", "a top-level section such as 'nand' or 'controller'");
            continue;
        }
        if (!rel || !rel[0]) {
            where_error(L, v ? v : k, key, "no file named", "a path relative to this file");
            continue;
        }
        load_relative(L, rel, section);
    }
}

/* family: FILE names the drive file this one varies (a capacity of a
 * family): it loads first, so this file's keys win. */
static void load_family(loader *L, yaml_node_t *kn, yaml_node_t *vn)
{
    const char *rel = scalar_text(vn);
    if (L->section) {
        where_error(L, kn, "family", "a part file cannot name a family", "the part's own keys only");
        return;
    }
    if (!rel || !rel[0]) {
        where_error(L, vn ? vn : kn, "family", "no file named", "the family's drive file, as a path relative to this file");
        return;
    }
    if (L->c->family_depth >= 4) {
        where_error(L, vn, "family", "families nest more than 4 deep (a loop?)", "a family file that names no family of its own");
        return;
    }
    L->c->family_depth++;
    load_relative(L, rel, NULL);
    L->c->family_depth--;
}

static void walk_mapping(loader *L, yaml_node_t *map, const char *prefix, int depth)
{
    /* The family first, then the parts, whatever their place in the file:
     * the file's own keys override what its family and parts set. */
    for (int pass = 0; pass < 3; pass++) {
        for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
            yaml_node_t *kn = yaml_document_get_node(&L->doc, p->key);
            yaml_node_t *vn = yaml_document_get_node(&L->doc, p->value);
            const char *name = scalar_text(kn);
            bool is_parts = depth == 0 && name && strcmp(name, "parts") == 0;
            bool is_family = depth == 0 && name && strcmp(name, "family") == 0;
            bool is_list = depth == 0 && name && L->list_key && strcmp(name, L->list_key) == 0;
            if (pass < 2) {
                if (pass == 0 && is_family) load_family(L, kn, vn);
                if (pass == 1 && is_parts) load_parts(L, kn, vn);
                continue;
            }
            if (is_parts || is_family) continue;
            if (is_list) {
                L->list = vn;
                L->list_key_node = kn;
                continue;
            }
            if (!name || !name[0]) {
                where_error(L, kn, prefix[0] ? prefix : "(top level)", "a key must be a plain name", "a name such as 'seed'");
                continue;
            }
            char key[CFG_MSG];
            snprintf(key, sizeof key, "%s%s%s", prefix, prefix[0] ? "." : "", name);
            walk_value(L, kn, vn, key, depth);
        }
    }
}

static void yaml_syntax_error(cfg *c, const char *file, const yaml_parser_t *p)
{
    const yaml_mark_t *m = &p->problem_mark;
    if (p->error == YAML_READER_ERROR)
        add_error(c, "%s:%zu:%zu: key '(none)': %s; expected UTF-8 text", file, m->line + 1, m->column + 1,
                  p->problem ? p->problem : "unreadable");
    else
        add_error(c, "%s:%zu:%zu: key '(none)': YAML syntax error: %s%s%s; expected well-formed YAML", file,
                  m->line + 1, m->column + 1, p->problem ? p->problem : "unknown problem",
                  p->context ? " " : "", p->context ? p->context : "");
}

static void load_items(loader *L, const char *item_prefix, cfg ***items, size_t *count);

static int load_file_ex(cfg *c, const char *path, const char *section, const char *list_key, const char *item_prefix,
                        cfg ***items, size_t *count)
{
    int before = c->error_count;
    FILE *f = fopen(path, "rb");
    if (!f) {
        add_error(c, "%s:0:0: key '(none)': cannot open the file: %s; expected a readable YAML file", path,
                  strerror(errno));
        return c->error_count - before;
    }
    loader L = {.c = c, .file = intern_file(c, path), .section = section, .load_id = ++c->load_seq, .list_key = list_key};
    char *copy = strdup(path);
    L.dir = copy ? strdup(dirname(copy)) : NULL;
    free(copy);
    yaml_parser_t parser;
    yaml_parser_initialize(&parser);
    yaml_parser_set_input_file(&parser, f);
    if (!yaml_parser_load(&parser, &L.doc)) {
        yaml_syntax_error(c, L.file, &parser);
    } else {
        yaml_node_t *root = yaml_document_get_root_node(&L.doc);
        if (root && root->type != YAML_MAPPING_NODE) {
            where_error(&L, root, "(top level)", "the file is not a mapping of keys", "'section:' mappings such as 'sim:'");
        } else if (root && L.dir) {
            walk_mapping(&L, root, "", 0);
            if (items) load_items(&L, item_prefix, items, count);
        }
        yaml_document_delete(&L.doc);
    }
    yaml_parser_delete(&parser);
    fclose(f);
    free(L.dir);
    return c->error_count - before;
}

static int load_file(cfg *c, const char *path, const char *section)
{
    return load_file_ex(c, path, section, NULL, NULL, NULL, NULL);
}

int cfg_load_file(cfg *c, const char *path) { return load_file(c, path, NULL); }

int cfg_load_file_with_list(cfg *c, const char *path, const char *list_key, const char *item_prefix, cfg ***items,
                            size_t *count)
{
    *items = NULL;
    *count = 0;
    return load_file_ex(c, path, NULL, list_key, item_prefix, items, count);
}

/* Each item of the list: a copy of the configuration so far with the
 * item's keys on top. Its errors are reported through the parent. */
static void load_items(loader *L, const char *item_prefix, cfg ***items, size_t *count)
{
    if (!L->list) return;
    if (L->list->type != YAML_SEQUENCE_NODE) {
        char expected[CFG_MSG];
        snprintf(expected, sizeof expected, "a list of mappings of '%s.' keys", item_prefix);
        where_error(L, L->list, L->list_key, "is not a list", expected);
        return;
    }
    size_t n = (size_t)(L->list->data.sequence.items.top - L->list->data.sequence.items.start);
    *items = calloc(n ? n : 1, sizeof **items);
    if (!*items) return;
    for (size_t i = 0; i < n; i++) {
        yaml_node_t *item = yaml_document_get_node(&L->doc, L->list->data.sequence.items.start[i]);
        char where[CFG_MSG];
        snprintf(where, sizeof where, "%s[%zu]", L->list_key, i + 1);
        if (!item || item->type != YAML_MAPPING_NODE) {
            char expected[CFG_MSG];
            snprintf(expected, sizeof expected, "a mapping of '%s.' keys", item_prefix);
            where_error(L, item ? item : L->list, where, "is not a mapping", expected);
            continue;
        }
        cfg *copy = cfg_clone(L->c);
        if (!copy) continue;
        loader IL = *L;
        IL.c = copy;
        IL.file = intern_file(copy, L->file);
        IL.load_id = ++copy->load_seq;
        IL.list_key = NULL;
        walk_mapping(&IL, item, item_prefix, 1);
        if (copy->error_count) {
            /* report the item's errors through the parent */
            const char *e = cfg_errors(copy);
            while (*e) {
                size_t len = strcspn(e, "\n");
                add_error(L->c, "%.*s", (int)len, e);
                e += len + (e[len] == '\n');
            }
            /* reported once, through the parent */
            copy->error_count = 0;
            copy->errors_len = 0;
            if (copy->errors) copy->errors[0] = 0;
        }
        (*items)[(*count)++] = copy;
    }
}

cfg *cfg_clone(const cfg *c)
{
    cfg *k = cfg_create(c->schema);
    if (!k) return NULL;
    for (size_t i = 0; i < c->schema->count; i++) {
        cfg_value_free(&k->entries[i].v);
        k->entries[i] = c->entries[i];
        if (cfg_value_copy(&k->entries[i].v, &c->entries[i].v)) k->entries[i].v.s = NULL;
        if (c->entries[i].file) k->entries[i].file = intern_file(k, c->entries[i].file);
    }
    k->load_seq = c->load_seq;
    return k;
}

/* --- overrides ----------------------------------------------------------- */

int cfg_set_override(cfg *c, const char *assignment)
{
    const char *eq = strchr(assignment, '=');
    char key[CFG_MSG], what[CFG_MSG], expected[CFG_MSG];
    if (!eq || eq == assignment) {
        add_error(c, "--set '%s': key '(none)': not an assignment; expected key.path=value", assignment);
        return 1;
    }
    snprintf(key, sizeof key, "%.*s", (int)(eq - assignment), assignment);
    long i = cfg_schema_index(c->schema, key);
    if (i < 0) {
        const cfg_key *near = cfg_schema_nearest(c->schema, key);
        if (near)
            add_error(c, "--set '%s': key '%s': unknown key; expected a declared key (did you mean '%s'?)", assignment,
                      key, near->name);
        else
            add_error(c, "--set '%s': key '%s': unknown key; expected a declared key (see 'ssdlab config keys')",
                      assignment, key);
        return 1;
    }
    cfg_value v;
    if (cfg_parse_value(c->schema, (size_t)i, eq + 1, NULL, &v, what, sizeof what, expected, sizeof expected)) {
        add_error(c, "--set '%s': key '%s': %s; expected %s", assignment, key, what, expected);
        return 1;
    }
    cfg_entry *e = &c->entries[i];
    cfg_value_free(&e->v);
    e->v = v;
    e->kind = ORIGIN_OVERRIDE;
    e->file = NULL;
    return 0;
}

/* --- reads --------------------------------------------------------------- */

static const cfg_entry *entry_of(const cfg *c, const char *key, int want_class)
{
    long i = cfg_schema_index(c->schema, key);
    if (i < 0) api_misuse("read of an undeclared key", key);
    cfg_type t = c->schema->keys[i].type;
    int cls = t == CFG_BOOL ? 0 : t == CFG_INT ? 1 : (t == CFG_FLOAT || t == CFG_FRACTION) ? 3
            : (t == CFG_STRING || t == CFG_ENUM || t == CFG_PATH) ? 4 : 2;
    if (cls != want_class) api_misuse("read with the wrong type of key", key);
    return &c->entries[i];
}

bool cfg_bool(const cfg *c, const char *key) { return entry_of(c, key, 0)->v.b; }
int64_t cfg_int(const cfg *c, const char *key) { return entry_of(c, key, 1)->v.i; }
uint64_t cfg_uint(const cfg *c, const char *key) { return entry_of(c, key, 2)->v.u; }
double cfg_float(const cfg *c, const char *key) { return entry_of(c, key, 3)->v.f; }
const char *cfg_str(const cfg *c, const char *key) { return entry_of(c, key, 4)->v.s; }

unsigned cfg_choice(const cfg *c, const char *key)
{
    long i = cfg_schema_index(c->schema, key);
    if (i < 0 || c->schema->keys[i].type != CFG_ENUM) api_misuse("choice of a key that is not an enum", key);
    const char *value = c->entries[i].v.s, *at = c->schema->keys[i].choices;
    size_t len = strlen(value);
    for (unsigned n = 0;; n++) {
        const char *bar = strchr(at, '|');
        size_t here = bar ? (size_t)(bar - at) : strlen(at);
        if (here == len && strncmp(at, value, len) == 0) return n;
        if (!bar) api_misuse("enum value outside its choices", key);
        at = bar + 1;
    }
}

const char *cfg_origin(const cfg *c, const char *key, char *buf, size_t len)
{
    long i = cfg_schema_index(c->schema, key);
    if (i < 0) api_misuse("origin of an undeclared key", key);
    const cfg_entry *e = &c->entries[i];
    switch (e->kind) {
    case ORIGIN_FILE: snprintf(buf, len, "%s:%d:%d", e->file, e->line, e->col); break;
    case ORIGIN_OVERRIDE: snprintf(buf, len, "--set"); break;
    default: snprintf(buf, len, "default"); break;
    }
    return buf;
}
