/* Configuration: a schema of declared keys, and the values of one run.
 *
 * Every key is declared once, in the module that reads it, with its type,
 * default unit, default, range and one line of documentation. Values come
 * from, in rising precedence: the defaults, a drive's part files, the drive
 * file, further config files in the order given, and --set overrides. Each
 * value remembers where it came from.
 *
 * Errors name the place and the key: "FILE:LINE:COL: key 'x.y': <what is
 * wrong>; expected <what>". Loading goes on after a bad value so that one run
 * reports every mistake in a file; cfg_errors() returns them all. */
#ifndef SSDLAB_CONFIG_H
#define SSDLAB_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef enum cfg_type {
    CFG_BOOL,
    CFG_INT,
    CFG_UINT,
    CFG_FLOAT,
    CFG_FRACTION, /* 0.07 or 7% */
    CFG_STRING,
    CFG_ENUM,     /* one of the '|'-separated choices */
    CFG_PATH,     /* resolved relative to the file that sets it */
    CFG_SIZE,     /* bytes */
    CFG_TIME,     /* nanoseconds */
    CFG_FREQUENCY,
    CFG_TRANSFER_RATE,
    CFG_BIT_RATE,
    CFG_BYTE_RATE,
    CFG_TYPE_COUNT
} cfg_type;

typedef struct cfg_key {
    const char *name;    /* dotted path: "nand.t_read_lsb" */
    cfg_type type;
    const char *unit;    /* unit of a bare number (dimensioned types only) */
    const char *def;     /* default, written as in a config file */
    const char *min;     /* bounds in the same syntax; NULL = none */
    const char *max;
    const char *choices; /* CFG_ENUM: "greedy|cost-benefit|fifo" */
    const char *doc;
} cfg_key;

typedef struct cfg_schema cfg_schema;
typedef struct cfg cfg;

/* Builds a schema from NULL-name-terminated key tables. Fails (returning
 * NULL and a message in err) on a duplicate name, a default or bound that
 * does not parse, or a default out of its own range. */
cfg_schema *cfg_schema_create(const cfg_key *const *tables, size_t ntables, char *err, size_t errlen);
void cfg_schema_free(cfg_schema *s);
size_t cfg_schema_size(const cfg_schema *s);
const cfg_key *cfg_schema_key(const cfg_schema *s, size_t i); /* sorted by name */
const cfg_key *cfg_schema_find(const cfg_schema *s, const char *name);
/* The declared key closest to a misspelt name, or NULL if none is close. */
const cfg_key *cfg_schema_nearest(const cfg_schema *s, const char *name);
const char *cfg_type_name(cfg_type t);

/* ssdlab's own schema: the key tables of every module (config_keys.c). */
const cfg_schema *ssdlab_schema(void);

cfg *cfg_create(const cfg_schema *s); /* every key at its default */
void cfg_free(cfg *c);

/* Each returns the number of errors it added (0 on success). */
int cfg_load_file(cfg *c, const char *path);
/* Loads a file whose top-level key `list_key` is a list of mappings (the
 * phases of a workload): the file's other keys go into c; each list item
 * becomes a copy of c with the item's keys (read under `item_prefix.`)
 * on top, returned in *items (free each with cfg_free, then the array).
 * Returns the errors added to c (items' errors included). */
int cfg_load_file_with_list(cfg *c, const char *path, const char *list_key, const char *item_prefix, cfg ***items,
                            size_t *count);
/* A deep copy. */
cfg *cfg_clone(const cfg *c);
int cfg_set_override(cfg *c, const char *assignment); /* "key.path=value" */

int cfg_error_count(const cfg *c);
const char *cfg_errors(const cfg *c); /* one message per line */

/* Typed reads. Asking for an undeclared key or the wrong type is a
 * programming error and aborts. */
bool cfg_bool(const cfg *c, const char *key);
int64_t cfg_int(const cfg *c, const char *key);
uint64_t cfg_uint(const cfg *c, const char *key); /* also sizes, times, rates */
double cfg_float(const cfg *c, const char *key);  /* also fractions */
const char *cfg_str(const cfg *c, const char *key); /* strings, enums, paths */
/* An enum's value as its place among the key's choices, from 0: plug-in
 * tables list their entries in the order of their key's choices. */
unsigned cfg_choice(const cfg *c, const char *key);

/* Where a value came from: "default", "FILE:LINE:COL" or "--set". */
const char *cfg_origin(const cfg *c, const char *key, char *buf, size_t len);

/* The resolved configuration as YAML that loads back to the same values;
 * with_origin adds a comment after each value saying where it came from. */
void cfg_write_yaml(const cfg *c, FILE *out, bool with_origin);
/* Key i (0 .. cfg_key_count - 1, in name order): returns its name, writes
 * its value as a config file would spell it, and as a number in the key's
 * base unit (bytes, ns, 1/s; fractions as 0..1; NaN for text). */
size_t cfg_key_count(const cfg *c);
const char *cfg_entry_value(const cfg *c, size_t i, char *text, size_t len, double *number);
/* The key reference: plain text, or the Markdown of docs/config-reference.md. */
void cfg_write_reference(const cfg_schema *s, FILE *out, bool markdown);

#endif
