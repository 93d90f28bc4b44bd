/* The parts library and the drive presets: every preset builds; a family's
 * capacities get their dies, SLC cache and spare area from the capacity
 * alone (the reviews state the die counts of the TR200 480, BX200 240 and
 * M9Pe 256); part files may set only what they own. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <string.h>

#include "sim_config.h"
#include "ssd.h"
#include "workload.h"
#include <math.h>

static ssd *build(const char *drive, sim **s, cfg **c, char *err, size_t len)
{
    char path[512];
    snprintf(path, sizeof path, "%s/models/drives/%s.yaml", SOURCE_DIR, drive);
    *c = cfg_create(ssdlab_schema());
    cfg_load_file(*c, path);
    cr_assert_eq(cfg_error_count(*c), 0, "%s: %s", drive, cfg_errors(*c));
    sim_options o = sim_options_from_config(*c);
    *s = sim_create(&o);
    return ssd_create(*s, *c, err, len);
}

static void expect(const char *drive, uint32_t channels, uint32_t per_channel, double slc_share)
{
    sim *s;
    cfg *c;
    char err[512];
    ssd *d = build(drive, &s, &c, err, sizeof err);
    cr_assert_not_null(d, "%s: %s", drive, err);
    const ssd_params *p = ssd_params_of(d);
    cr_assert(p->channels == channels && p->dies_per_channel == per_channel, "%s: %u x %u dies, expected %u x %u", drive,
              p->channels, p->dies_per_channel, channels, per_channel);
    /* raw flash: the smallest power-of-two GiB holding the capacity, in dies */
    double raw = (double)cfg_uint(c, "nand.die_capacity") * p->dies, user = (double)cfg_uint(c, "drive.user_capacity");
    double pow2 = 1073741824.0;
    while (pow2 < user) pow2 *= 2;
    cr_assert_float_eq(raw, pow2, 1, "%s: raw %g B", drive, raw);
    cr_assert_float_eq(cfg_float(c, "slc.share"), slc_share, 1e-12, "%s", drive);
    if (slc_share > 0) {
        /* the cache holds its share of the capacity, rounded up to whole SLC blocks per die */
        double cache = (double)p->slc_blocks_per_die * p->dies * p->slc_units_per_block * p->unit;
        cr_assert(cache >= slc_share * user && cache < slc_share * user + (double)p->dies * p->slc_units_per_block * p->unit,
                  "%s: SLC cache %g B for %g", drive, cache, slc_share * user);
    }
    ssd_free(d);
    sim_free(s);
    cfg_free(c);
}

Test(presets, families_follow_their_capacity)
{
    expect("toshiba-tr200-240", 2, 4, 0.01458);
    expect("toshiba-tr200-480", 2, 8, 0.01458); /* stated: 16 dies, 8 per channel */
    expect("toshiba-tr200-960", 2, 16, 0.01458);
    expect("crucial-bx200-240", 4, 4, 0.009); /* stated: 16 dies, 4 per channel */
    expect("crucial-bx200-480", 4, 8, 0.009);
    expect("crucial-bx200-960", 4, 16, 0.009);
    expect("plextor-m9pe-256", 8, 1, 0.015); /* stated: 8 dies */
    expect("plextor-m9pe-512", 8, 2, 0.015);
    expect("plextor-m9pe-1024", 8, 4, 0.015);
    expect("silicon-power-s55-240", 8, 4, 0);
    expect("ocz-tr150-480", 4, 8, 0.005);
    expect("samsung-850-evo-250", 8, 1, 0.012);
    expect("samsung-850-evo-500", 8, 2, 0.012);
    expect("crucial-bx100-250", 4, 4, 0);
}

/* Every drive file builds, and names itself. */
Test(presets, every_drive_file_builds)
{
    DIR *dir = opendir(SOURCE_DIR "/models/drives");
    cr_assert_not_null(dir);
    struct dirent *e;
    int n = 0;
    while ((e = readdir(dir))) {
        size_t len = strlen(e->d_name);
        if (len < 6 || strcmp(e->d_name + len - 5, ".yaml")) continue;
        char name[256];
        snprintf(name, sizeof name, "%.*s", (int)(len - 5), e->d_name);
        sim *s;
        cfg *c;
        char err[512];
        ssd *d = build(name, &s, &c, err, sizeof err);
        cr_assert_not_null(d, "%s: %s", name, err);
        cr_assert_str_neq(cfg_str(c, "drive.name"), "unnamed", "%s", name);
        ssd_free(d);
        sim_free(s);
        cfg_free(c);
        n++;
    }
    closedir(dir);
    cr_assert_geq(n, 22);
}

/* The channel runs at the lower of the controller's and the part's rates. */
Test(presets, bus_runs_at_the_slower_of_controller_and_part)
{
    sim *s;
    cfg *c;
    char err[512];
    ssd *d = build("crucial-bx200-240", &s, &c, err, sizeof err); /* SM2256 400 MT/s, Micron part 333 MT/s */
    cr_assert_not_null(d, "%s", err);
    cr_assert_float_eq(ssd_params_of(d)->bus_bytes_per_ns, 0.333, 1e-9);
    ssd_free(d);
    sim_free(s);
    cfg_free(c);
}

/* Writes DIR/NAME with `text`; returns the path in buf. */
static const char *write_file(const char *dir, const char *name, const char *text, char *buf, size_t len)
{
    snprintf(buf, len, "%s/%s", dir, name);
    FILE *f = fopen(buf, "w");
    cr_assert_not_null(f, "%s", buf);
    fputs(text, f);
    fclose(f);
    return buf;
}

static void remove_dir(const char *dir)
{
    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    cr_assert_eq(system(cmd), 0);
}

/* A NAND part may not set controller keys; a controller may set host, ftl
 * and power keys but not nand ones. */
Test(presets, parts_set_only_what_they_own)
{
    char dir[] = "/tmp/ssdlab-parts-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char path[600];
    write_file(dir, "nand.yaml", "nand:\n  t_prog: 2ms\ncontroller:\n  cores: 2\n", path, sizeof path);
    write_file(dir, "ctrl.yaml", "controller:\n  cores: 2\nhost:\n  interface: nvme\nftl:\n  mapping: cached\nnand:\n  t_prog: 2ms\n",
               path, sizeof path);
    cfg *c = cfg_create(ssdlab_schema());
    cfg_load_file(c, write_file(dir, "drive.yaml", "parts:\n  nand: nand.yaml\n  controller: ctrl.yaml\n", path, sizeof path));
    cr_assert_eq(cfg_error_count(c), 2, "%s", cfg_errors(c));
    cr_assert(strstr(cfg_errors(c), "nand.yaml:3:1: key 'controller': outside this part's section; expected only keys under 'nand.'"),
              "%s", cfg_errors(c));
    cr_assert(strstr(cfg_errors(c), "ctrl.yaml:7:1: key 'nand': outside this part's section; expected only keys under 'controller.', 'host.', 'ftl.' or 'power.'"),
              "%s", cfg_errors(c));
    cr_assert_str_eq(cfg_str(c, "host.interface"), "nvme");
    cr_assert_str_eq(cfg_str(c, "ftl.mapping"), "cached");
    cfg_free(c);
    remove_dir(dir);
}

/* A capacity file overrides its family; a family that names itself is a
 * clear error, not an endless load. */
Test(presets, family_files)
{
    char dir[] = "/tmp/ssdlab-family-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char path[600];
    write_file(dir, "fam.yaml", "drive:\n  name: family\n  user_capacity: 240GB\nslc:\n  share: 1%\n", path, sizeof path);
    cfg *c = cfg_create(ssdlab_schema());
    cfg_load_file(c, write_file(dir, "cap.yaml", "family: fam.yaml\ndrive:\n  user_capacity: 480GB\n", path, sizeof path));
    cr_assert_eq(cfg_error_count(c), 0, "%s", cfg_errors(c));
    cr_assert_eq(cfg_uint(c, "drive.user_capacity"), 480000000000ull);
    cr_assert_str_eq(cfg_str(c, "drive.name"), "family");
    cr_assert_float_eq(cfg_float(c, "slc.share"), 0.01, 1e-12);
    cfg_free(c);
    c = cfg_create(ssdlab_schema());
    cfg_load_file(c, write_file(dir, "loop.yaml", "family: loop.yaml\n", path, sizeof path));
    cr_assert_geq(cfg_error_count(c), 1);
    cr_assert(strstr(cfg_errors(c), "key 'family': families nest more than 4 deep (a loop?)"), "%s", cfg_errors(c));
    cfg_free(c);
    remove_dir(dir);
}

/* A drive built from the parts library alone (the DRAM-less 4-channel SATA
 * controller and 64-layer TLC, 1 TB), with no TRIM setting of its own,
 * throttles TRIM at the work its mapping structures take: two SRAM
 * accesses per unit and, first, each translation unit its 16 MiB cache
 * lacks read from the flash. A 64 GiB TRIM with none cached is 16 Mi units
 * and 16 Ki translation units: more than a second of firmware work (it
 * was free: 0.5 s of dip where such drives stall for seconds). */
Test(presets, a_drive_from_parts_alone_pays_for_trim)
{
    char dir[] = "/tmp/ssdlab-parts-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char path[600], text[1024];
    snprintf(text, sizeof text,
             "drive:\n  user_capacity: 1000GB\n  dies_from: capacity\nparts:\n  nand: %s/models/nand/toshiba-bics3-256gb-tlc.yaml\n"
             "  controller: %s/models/controllers/sm2258xt.yaml\n",
             SOURCE_DIR, SOURCE_DIR);
    cfg *c = cfg_create(ssdlab_schema());
    cfg_load_file(c, write_file(dir, "drive.yaml", text, path, sizeof path));
    cr_assert_eq(cfg_error_count(c), 0, "%s", cfg_errors(c));
    ssd_params p;
    char err[512];
    cr_assert_eq(ssd_params_load(&p, c, err, sizeof err), 0, "%s", err);
    cr_assert_eq(p.trim, TRIM_THROTTLED);
    cr_assert_eq(p.trim_ns_per_byte, 0, "derived, not given");
    cr_assert_eq(p.trim_unit_ns, 2 * cfg_uint(c, "controller.sram_access"));
    double units = 64.0 * (1 << 30) / p.unit, map_units = units / p.map_entries_per_page;
    double work_s = (units * (double)p.trim_unit_ns + map_units * (double)p.trim_map_read_ns) * 1e-9;
    cr_assert(work_s > 1.0 && work_s < 10.0, "64 GiB TRIM: %.2f s of work", work_s);
    cfg_free(c);
    remove_dir(dir);
}

/* The QLC preset (Intel 660p 1 TB, 8 dies of 1 Tbit QLC on 4 channels): a
 * sequential write of an empty drive runs at the SLC rate until its
 * dynamic cache is full (14 % of the capacity, or half the free flash:
 * 137 GB), then at the QLC rate:
 * 8 dies x 4 planes x 16 KiB = 512 KiB per 280 us in SLC mode (1.87 GB/s,
 * the rated 1,800 MB/s), and 8 dies x 256 KiB per 21 ms after (99.9 MB/s,
 * "about 100 MB/s" in the reviews). 220 GB take the closed form's time. */
Test(presets, qlc_writes_its_slc_cache_then_at_the_qlc_rate)
{
    sim *s;
    cfg *c;
    char err[512];
    char path[512];
    snprintf(path, sizeof path, "%s/models/drives/intel-660p-1024.yaml", SOURCE_DIR);
    c = cfg_create(ssdlab_schema());
    cfg_load_file(c, path);
    const char *sets[] = {"workload.pattern=sequential", "workload.block_size=1MiB", "workload.read_share=0",
                          "workload.precondition=none", "workload.bytes=220GB", "workload.requests=0"};
    for (size_t i = 0; i < sizeof sets / sizeof *sets; i++) cfg_set_override(c, sets[i]);
    cr_assert_eq(cfg_error_count(c), 0, "%s", cfg_errors(c));
    sim_options o = sim_options_from_config(c);
    s = sim_create(&o);
    ssd *d = ssd_create(s, c, err, sizeof err);
    cr_assert_not_null(d, "%s", err);
    workload *w = workload_create(s, d, c, err, sizeof err);
    cr_assert_not_null(w, "%s", err);
    workload_result r;
    cr_assert_eq(workload_run(w, &r, err, sizeof err), 0, "%s", err);
    const ssd_params *p = ssd_params_of(d);
    cr_assert_eq(p->bits_per_cell, 4);
    /* the dynamic cache: at most half the die's free blocks beyond the GC threshold, and its size's share */
    uint32_t half = (uint32_t)(p->slc_dynamic_share * (params_conventional_blocks(p) - p->gc_threshold));
    uint32_t blocks = half < p->slc_blocks_per_die ? half : p->slc_blocks_per_die;
    double cache = (double)blocks * p->dies * p->slc_units_per_block * p->unit;
    double slc_rate = 8 * 4 * 16384 / 280e-6, qlc_rate = 8 * 262144 / 21e-3;
    double want = cache / slc_rate + (220e9 - cache) / qlc_rate;
    cr_assert(cache > 0.13 * 1024e9 && cache < 0.15 * 1024e9, "cache %g B", cache);
    cr_assert_lt(fabs(r.seconds / want - 1), 0.02, "220 GB in %.1f s, closed form %.1f s", r.seconds, want);
    workload_free(w);
    ssd_free(d);
    sim_free(s);
    cfg_free(c);
}
