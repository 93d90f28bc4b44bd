/* Shared between the config_*.c files; not part of the public API. */
#ifndef SSDLAB_CONFIG_INTERNAL_H
#define SSDLAB_CONFIG_INTERNAL_H

#include "config.h"

typedef struct cfg_value {
    union {
        bool b;
        int64_t i;
        uint64_t u;
        double f;
    };
    char *s; /* owned text of strings, enums and paths */
} cfg_value;

struct cfg_schema {
    cfg_key *keys; /* sorted by name */
    size_t count;
    cfg_value *defaults;
    cfg_value *min, *max; /* meaningful where the key declares a bound */
};

typedef enum origin_kind { ORIGIN_DEFAULT, ORIGIN_FILE, ORIGIN_OVERRIDE } origin_kind;

typedef struct cfg_entry {
    cfg_value v;
    origin_kind kind;
    const char *file; /* interned in cfg.files */
    int line, col;
    int load_id;      /* which file load set it: catches a key set twice */
} cfg_entry;

struct cfg {
    const cfg_schema *schema;
    cfg_entry *entries; /* parallel to schema->keys */
    char **files;
    size_t file_count;
    char *errors;
    size_t errors_len, errors_cap;
    int error_count;
    int load_seq;
    int family_depth; /* drive files naming a family, being loaded */
};

#define CFG_MSG 512

/* Parses text as a value of key index i, checking its range. On failure
 * writes what is wrong and what was expected, and returns -1. base_dir
 * resolves relative paths (NULL: the current directory). */
int cfg_parse_value(const cfg_schema *s, size_t i, const char *text, const char *base_dir,
                    cfg_value *out, char *what, size_t wlen, char *expected, size_t elen);
/* The value as config-file text that parses back to the same value. */
void cfg_format_value(const cfg_key *k, const cfg_value *v, char *buf, size_t len);
/* "a size such as 16KiB ... between 512B and 64KiB" */
void cfg_expected(const cfg_schema *s, size_t i, char *buf, size_t len);
void cfg_value_free(cfg_value *v);
int cfg_value_copy(cfg_value *dst, const cfg_value *src);
/* Index of a key, or -1. */
long cfg_schema_index(const cfg_schema *s, const char *name);
/* True when some key lies under "prefix." */
bool cfg_schema_is_section(const cfg_schema *s, const char *prefix);

#endif
