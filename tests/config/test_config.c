/* Configuration: every type, every error path, parts, precedence, overrides,
 * the resolved YAML round trip, and ssdlab's own schema. */
#define _GNU_SOURCE /* open_memstream */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"

static const cfg_key test_keys[] = {
    {"t.flag", CFG_BOOL, NULL, "false", NULL, NULL, NULL, "A flag."},
    {"t.offset", CFG_INT, NULL, "-5", "-100", "100", NULL, "A signed number."},
    {"t.count", CFG_UINT, NULL, "10", "1", "1000", NULL, "A count."},
    {"t.ratio", CFG_FLOAT, NULL, "1.5", NULL, NULL, NULL, "A real number."},
    {"t.share", CFG_FRACTION, NULL, "7%", "0", "1", NULL, "A fraction."},
    {"t.label", CFG_STRING, NULL, "x", NULL, NULL, NULL, "A string."},
    {"t.policy", CFG_ENUM, NULL, "greedy", NULL, NULL, "greedy|cost-benefit|fifo", "A choice."},
    {"t.trace", CFG_PATH, NULL, "none.csv", NULL, NULL, NULL, "A path."},
    {"t.size", CFG_SIZE, "KiB", "16KiB", "512B", "64KiB", NULL, "A size."},
    {"t.latency", CFG_TIME, "us", "50us", NULL, NULL, NULL, "A time."},
    {"t.clock", CFG_FREQUENCY, "MHz", "200MHz", NULL, NULL, NULL, "A frequency."},
    {"t.bus", CFG_TRANSFER_RATE, "MT/s", "533MT/s", NULL, NULL, NULL, "A bus rate."},
    {"t.link", CFG_BIT_RATE, "Gb/s", "6Gb/s", NULL, NULL, NULL, "A link rate."},
    {"t.bw", CFG_BYTE_RATE, "MB/s", "550MB/s", NULL, NULL, NULL, "A throughput."},
    {"nand.name", CFG_STRING, NULL, "none", NULL, NULL, NULL, "Part name."},
    {"nand.page_size", CFG_SIZE, "KiB", "8KiB", NULL, NULL, NULL, "Page size."},
    {"nand.t_read", CFG_TIME, "us", "50us", NULL, NULL, NULL, "Read time."},
    {"ctl.channels", CFG_UINT, NULL, "4", "1", "64", NULL, "Channels."},
    {NULL, 0, NULL, NULL, NULL, NULL, NULL, NULL},
};

static cfg_schema *schema;
static char dir[] = "/tmp/ssdlab-config-test-XXXXXX";

static void setup(void)
{
    const cfg_key *const tables[] = {test_keys};
    char err[512];
    schema = cfg_schema_create(tables, 1, err, sizeof err);
    cr_assert_not_null(schema, "%s", err);
    cr_assert_not_null(mkdtemp(dir));
}

static void teardown(void)
{
    cfg_schema_free(schema);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    cr_assert_eq(system(cmd), 0);
}

TestSuite(config, .init = setup, .fini = teardown);

/* Writes text to a file in the test folder and returns its path. */
static const char *file_with(const char *name, const char *text)
{
    static char path[8][256];
    static int next;
    char *p = path[next++ % 8];
    snprintf(p, 256, "%s/%s", dir, name);
    FILE *f = fopen(p, "w");
    cr_assert_not_null(f);
    fputs(text, f);
    fclose(f);
    return p;
}

/* Loads text and asserts exactly one error equal to "FILE:" + rest. */
static void expect_error(const char *text, const char *rest)
{
    cfg *c = cfg_create(schema);
    const char *f = file_with("bad.yaml", text);
    cr_assert_eq(cfg_load_file(c, f), 1, "errors: %s", cfg_errors(c));
    char want[1024];
    snprintf(want, sizeof want, "%s:%s\n", f, rest);
    cr_assert_str_eq(cfg_errors(c), want);
    cfg_free(c);
}

Test(config, defaults_parse_through_the_same_parser)
{
    cfg *c = cfg_create(schema);
    cr_assert_eq(cfg_uint(c, "t.size"), 16384);
    cr_assert_float_eq(cfg_float(c, "t.share"), 0.07, 1e-15);
    cr_assert_eq(cfg_int(c, "t.offset"), -5);
    char origin[64];
    cr_assert_str_eq(cfg_origin(c, "t.size", origin, sizeof origin), "default");
    cfg_free(c);
}

Test(config, every_type_loads_from_yaml)
{
    cfg *c = cfg_create(schema);
    const char *f = file_with("all.yaml",
                              "t:\n"
                              "  flag: yes\n"
                              "  offset: -42\n"
                              "  count: 0x20\n"
                              "  ratio: 2.5e-1\n"
                              "  share: 13%\n"
                              "  label: \"hello: world\"\n"
                              "  policy: cost-benefit\n"
                              "  trace: traces/a.csv\n"
                              "  size: 4\n"
                              "  latency: 2ms\n"
                              "  clock: 1GHz\n"
                              "  bus: 400\n"
                              "  link: 8Gbps\n"
                              "  bw: 1GiB/s\n");
    cr_assert_eq(cfg_load_file(c, f), 0, "%s", cfg_errors(c));
    cr_assert(cfg_bool(c, "t.flag"));
    cr_assert_eq(cfg_int(c, "t.offset"), -42);
    cr_assert_eq(cfg_uint(c, "t.count"), 32);
    cr_assert_float_eq(cfg_float(c, "t.ratio"), 0.25, 1e-15);
    cr_assert_float_eq(cfg_float(c, "t.share"), 0.13, 1e-15);
    cr_assert_str_eq(cfg_str(c, "t.label"), "hello: world");
    cr_assert_str_eq(cfg_str(c, "t.policy"), "cost-benefit");
    char want[512];
    snprintf(want, sizeof want, "%s/traces/a.csv", dir);
    cr_assert_str_eq(cfg_str(c, "t.trace"), want, "paths resolve relative to their file");
    cr_assert_eq(cfg_uint(c, "t.size"), 4096, "a bare size is in the key's unit (KiB)");
    cr_assert_eq(cfg_uint(c, "t.latency"), 2000000);
    cr_assert_eq(cfg_uint(c, "t.clock"), 1000000000);
    cr_assert_eq(cfg_uint(c, "t.bus"), 400000000);
    cr_assert_eq(cfg_uint(c, "t.link"), 8000000000);
    cr_assert_eq(cfg_uint(c, "t.bw"), UINT64_C(1) << 30);
    char origin[512], want_origin[512];
    snprintf(want_origin, sizeof want_origin, "%s:11:12", f);
    cr_assert_str_eq(cfg_origin(c, "t.latency", origin, sizeof origin), want_origin);
    cfg_free(c);
}

Test(config, flat_dotted_keys_are_accepted)
{
    cfg *c = cfg_create(schema);
    cr_assert_eq(cfg_load_file(c, file_with("flat.yaml", "t.count: 7\n")), 0, "%s", cfg_errors(c));
    cr_assert_eq(cfg_uint(c, "t.count"), 7);
    cfg_free(c);
}

Test(config, wrong_type)
{
    expect_error("t:\n  count: abc\n", "2:10: key 't.count': 'abc' is not a whole number; expected a non-negative integer between 1 and 1000");
    expect_error("t:\n  flag: maybe\n", "2:9: key 't.flag': 'maybe' is not a boolean; expected true or false");
    expect_error("t:\n  ratio: 1.5x\n", "2:10: key 't.ratio': '1.5x' is not a number; expected a number");
    expect_error("t:\n  policy: lru\n", "2:11: key 't.policy': 'lru' is not a valid choice; expected one of: greedy, cost-benefit, fifo");
}

Test(config, unknown_key_suggests_the_nearest)
{
    expect_error("t:\n  cuont: 5\n", "2:3: key 't.cuont': unknown key; expected a declared key (did you mean 't.count'?)");
    expect_error("x:\n  latency: 5\n", "2:3: key 'x.latency': unknown key; expected a declared key (did you mean 't.latency'?)");
    expect_error("zzz: 5\n", "1:1: key 'zzz': unknown key; expected a declared key (see 'ssdlab config keys')");
}

Test(config, bad_unit)
{
    expect_error("t:\n  size: 16Kb\n",
                 "2:9: key 't.size': unknown unit 'Kb' in '16Kb'; expected a size such as 16KiB (units: B, KiB, MiB, GiB, TiB, PiB, kB, MB, GB, TB, PB; a bare number is in KiB) between 512B and 64KiB");
    expect_error("t:\n  latency: 4KiB\n",
                 "2:12: key 't.latency': '4KiB' is a size, not a time; expected a time such as 50us (units: ns, us, ms, s, min, h; a bare number is in us)");
}

Test(config, out_of_range)
{
    expect_error("t:\n  size: 1MiB\n", "2:9: key 't.size': '1MiB' is out of range; expected a size such as 16KiB (units: B, KiB, MiB, GiB, TiB, PiB, kB, MB, GB, TB, PB; a bare number is in KiB) between 512B and 64KiB");
    expect_error("t:\n  offset: -101\n", "2:11: key 't.offset': '-101' is out of range; expected an integer between -100 and 100");
    expect_error("t:\n  share: 120%\n", "2:10: key 't.share': '120%' is out of range; expected a fraction such as 0.07 or 7% between 0 and 1");
}

Test(config, broken_yaml)
{
    expect_error("t:\n  count: [1, 2\n",
                 "3:1: key '(none)': YAML syntax error: did not find expected ',' or ']' while parsing a flow sequence; expected well-formed YAML");
    expect_error("t:\n  count: 1\n bad: 2\n",
                 "3:2: key '(none)': YAML syntax error: did not find expected key while parsing a block mapping; expected well-formed YAML");
}

Test(config, structural_errors)
{
    expect_error("t: 5\n", "1:4: key 't': is a section, not a single value; expected a mapping of the keys under 't.' (see 'ssdlab config keys')");
    expect_error("t:\n  count:\n    a: 1\n", "3:5: key 't.count': a mapping is not allowed here; expected a non-negative integer between 1 and 1000");
    expect_error("t:\n  count: [1, 2]\n", "2:10: key 't.count': a list is not allowed here; expected a non-negative integer between 1 and 1000");
    expect_error("t:\n  count:\n", "2:9: key 't.count': no value; expected a non-negative integer between 1 and 1000");
    expect_error("t:\n  count: 5\n  count: 6\n", "3:3: key 't.count': set twice in this file (first at line 2); expected each key once per file");
    expect_error("- 1\n- 2\n", "1:1: key '(top level)': the file is not a mapping of keys; expected 'section:' mappings such as 'sim:'");
}

Test(config, every_error_in_a_file_is_reported)
{
    cfg *c = cfg_create(schema);
    cr_assert_eq(cfg_load_file(c, file_with("many.yaml", "t:\n  count: 0\n  size: 1B\n  flag: 2\n  label: ok\n")), 3);
    cr_assert_str_eq(cfg_str(c, "t.label"), "ok", "good keys still load");
    cfg_free(c);
}

Test(config, missing_file)
{
    cfg *c = cfg_create(schema);
    char path[300];
    snprintf(path, sizeof path, "%s/absent.yaml", dir);
    cr_assert_eq(cfg_load_file(c, path), 1);
    char want[512];
    snprintf(want, sizeof want, "%s:0:0: key '(none)': cannot open the file: No such file or directory; expected a readable YAML file\n", path);
    cr_assert_str_eq(cfg_errors(c), want);
    cfg_free(c);
}

Test(config, parts_load_relative_to_the_drive_and_the_drive_wins)
{
    cfg *c = cfg_create(schema);
    cr_assert_eq(cfg_load_file(c, TEST_DATA_DIR "/config/drives/test-drive.yaml"), 0, "%s", cfg_errors(c));
    cr_assert_str_eq(cfg_str(c, "nand.name"), "test TLC", "value from the NAND part");
    cr_assert_eq(cfg_uint(c, "nand.page_size"), 16384);
    cr_assert_eq(cfg_uint(c, "ctl.channels"), 2, "value from the controller part");
    cr_assert_eq(cfg_uint(c, "nand.t_read"), 70000, "the drive file overrides its part");
    char origin[512];
    cr_assert_str_eq(cfg_origin(c, "nand.page_size", origin, sizeof origin),
                     TEST_DATA_DIR "/config/drives/../nand/test-tlc.yaml:4:14");
    cr_assert_str_eq(cfg_origin(c, "nand.t_read", origin, sizeof origin), TEST_DATA_DIR "/config/drives/test-drive.yaml:8:11");
    cfg_free(c);
}

Test(config, later_files_then_overrides_win)
{
    cfg *c = cfg_create(schema);
    cfg_load_file(c, TEST_DATA_DIR "/config/drives/test-drive.yaml");
    cfg_load_file(c, TEST_DATA_DIR "/config/override.yaml");
    cr_assert_str_eq(cfg_str(c, "t.label"), "later file");
    cr_assert_eq(cfg_set_override(c, "t.label=command line"), 0);
    cr_assert_eq(cfg_set_override(c, "nand.t_read=1.5us"), 0);
    cr_assert_eq(cfg_error_count(c), 0, "%s", cfg_errors(c));
    cr_assert_str_eq(cfg_str(c, "t.label"), "command line");
    cr_assert_eq(cfg_uint(c, "t.count"), 20);
    cr_assert_eq(cfg_uint(c, "nand.t_read"), 1500);
    char origin[64];
    cr_assert_str_eq(cfg_origin(c, "nand.t_read", origin, sizeof origin), "--set");
    cfg_free(c);
}

Test(config, part_files_are_confined_to_their_section)
{
    file_with("part.yaml", "nand:\n  page_size: 4KiB\nt:\n  count: 3\n");
    const char *drive = file_with("drive.yaml", "parts:\n  nand: part.yaml\n");
    cfg *c = cfg_create(schema);
    cr_assert_eq(cfg_load_file(c, drive), 1);
    char want[600];
    snprintf(want, sizeof want,
             "%s/./part.yaml:3:1: key 't': outside this part's section; expected only keys under 'nand.' in a part file loaded as 'nand'\n",
             dir);
    /* the part's path is joined to the drive's folder as written */
    char alt[600];
    snprintf(alt, sizeof alt,
             "%s/part.yaml:3:1: key 't': outside this part's section; expected only keys under 'nand.' in a part file loaded as 'nand'\n",
             dir);
    cr_assert(strcmp(cfg_errors(c), want) == 0 || strcmp(cfg_errors(c), alt) == 0, "%s", cfg_errors(c));
    cr_assert_eq(cfg_uint(c, "nand.page_size"), 4096);
    cfg_free(c);
    expect_error("parts:\n  disk: x.yaml\n",
                 "2:3: key 'parts.disk': not a section that a part can fill; expected a top-level section such as 'nand' or 'controller'");
}

Test(config, override_errors)
{
    cfg *c = cfg_create(schema);
    cr_assert_eq(cfg_set_override(c, "t.cont=5"), 1);
    cr_assert_eq(cfg_set_override(c, "t.count=5000"), 1);
    cr_assert_eq(cfg_set_override(c, "t.count"), 1);
    cr_assert_str_eq(cfg_errors(c),
                     "--set 't.cont=5': key 't.cont': unknown key; expected a declared key (did you mean 't.count'?)\n"
                     "--set 't.count=5000': key 't.count': '5000' is out of range; expected a non-negative integer between 1 and 1000\n"
                     "--set 't.count': key '(none)': not an assignment; expected key.path=value\n");
    cfg_free(c);
}

Test(config, resolved_yaml_loads_back_to_the_same_values)
{
    cfg *c = cfg_create(schema);
    cfg_load_file(c, TEST_DATA_DIR "/config/drives/test-drive.yaml");
    cfg_set_override(c, "t.ratio=0.1");
    cfg_set_override(c, "t.label=quote \" and \\ backslash");
    cfg_set_override(c, "t.latency=1.5us");
    cr_assert_eq(cfg_error_count(c), 0, "%s", cfg_errors(c));
    char *text;
    size_t len;
    FILE *mem = open_memstream(&text, &len);
    cfg_write_yaml(c, mem, true);
    fclose(mem);
    cr_assert(strstr(text, "  latency: 1500ns  # --set\n"), "%s", text);
    cr_assert(strstr(text, "nand:\n  name: \"test TLC\"  # "), "%s", text);
    cfg *back = cfg_create(schema);
    cr_assert_eq(cfg_load_file(back, file_with("shown.yaml", text)), 0, "%s", cfg_errors(back));
    char *a = NULL, *b = NULL;
    size_t la, lb;
    FILE *fa = open_memstream(&a, &la), *fb = open_memstream(&b, &lb);
    cfg_write_yaml(c, fa, false);
    cfg_write_yaml(back, fb, false);
    fclose(fa);
    fclose(fb);
    /* Paths differ by design: the reloaded one is relative to shown.yaml. */
    char *pa = strstr(a, "  trace:"), *pb = strstr(b, "  trace:");
    cr_assert(pa && pb);
    memmove(pa, strchr(pa, '\n') + 1, strlen(strchr(pa, '\n') + 1) + 1);
    memmove(pb, strchr(pb, '\n') + 1, strlen(strchr(pb, '\n') + 1) + 1);
    cr_assert_str_eq(a, b);
    free(a);
    free(b);
    cr_assert_str_eq(cfg_str(back, "t.label"), "quote \" and \\ backslash");
    cr_assert_float_eq(cfg_float(back, "t.ratio"), 0.1, 0);
    free(text);
    cfg_free(c);
    cfg_free(back);
}

Test(config, bad_declarations_are_refused)
{
    static const cfg_key dup[] = {{"a.b", CFG_UINT, NULL, "1", NULL, NULL, NULL, "x"},
                                  {"a.b", CFG_UINT, NULL, "1", NULL, NULL, NULL, "x"},
                                  {NULL, 0, NULL, NULL, NULL, NULL, NULL, NULL}};
    static const cfg_key bad_default[] = {{"a.b", CFG_SIZE, "KiB", "16Kb", NULL, NULL, NULL, "x"},
                                          {NULL, 0, NULL, NULL, NULL, NULL, NULL, NULL}};
    static const cfg_key out_of_range[] = {{"a.b", CFG_UINT, NULL, "0", "1", "2", NULL, "x"},
                                           {NULL, 0, NULL, NULL, NULL, NULL, NULL, NULL}};
    static const cfg_key clash[] = {{"a", CFG_UINT, NULL, "0", NULL, NULL, NULL, "x"},
                                    {"a.b", CFG_UINT, NULL, "0", NULL, NULL, NULL, "x"},
                                    {NULL, 0, NULL, NULL, NULL, NULL, NULL, NULL}};
    static const cfg_key no_doc[] = {{"a.b", CFG_UINT, NULL, "0", NULL, NULL, NULL, ""},
                                     {NULL, 0, NULL, NULL, NULL, NULL, NULL, NULL}};
    struct { const cfg_key *t; const char *msg; } cases[] = {
        {dup, "key 'a.b' is declared twice"},
        {bad_default, "key 'a.b': default unknown unit 'Kb' in '16Kb'"},
        {out_of_range, "key 'a.b': default '0' is out of range"},
        {clash, "key 'a' is both a value and a section"},
        {no_doc, "key 'a.b' has no documentation"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char err[512] = "";
        const cfg_key *const tables[] = {cases[i].t};
        cr_assert_null(cfg_schema_create(tables, 1, err, sizeof err));
        cr_assert(strncmp(err, cases[i].msg, strlen(cases[i].msg)) == 0, "got '%s', wanted '%s'", err, cases[i].msg);
    }
}

Test(config, ssdlab_schema_is_valid_and_documented)
{
    const cfg_schema *s = ssdlab_schema(); /* aborts on a bad declaration */
    cr_assert_gt(cfg_schema_size(s), 10);
    cr_assert_not_null(cfg_schema_find(s, "sim.seed"));
    cr_assert_not_null(cfg_schema_find(s, "mm1.mean_service"));
}

Test(config, config_reference_doc_is_up_to_date)
{
    char *text;
    size_t len;
    FILE *mem = open_memstream(&text, &len);
    cfg_write_reference(ssdlab_schema(), mem, true);
    fclose(mem);
    FILE *f = fopen(SOURCE_DIR "/docs/config-reference.md", "r");
    cr_assert_not_null(f, "docs/config-reference.md is missing");
    char *doc = calloc(1, len + 2);
    size_t got = fread(doc, 1, len + 1, f);
    fclose(f);
    cr_assert(got == len && memcmp(doc, text, len) == 0,
              "docs/config-reference.md is stale: run 'cmake --build build --target config-reference'");
    free(doc);
    free(text);
}
