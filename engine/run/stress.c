/* Stress testing: random episodes of host traffic on a drive, with the
 * integrity checker after every reclaim job and every episode. */
#include "stress.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drive_model.h"
#include "oom.h"
#include "sim_config.h"
#include "ssd.h"

const char *const stress_episode_names[EPISODE_COUNT] = {"mix", "sequential", "overwrite", "trim", "idle", "fill"};

/* One die per channel, and few, short blocks (48 pages: a whole number of
 * word lines for SLC to QLC): GC and folding start after a few hundred
 * MiB, and the checker's pass over the whole drive is short, so checking
 * after every erase stays affordable. */
const char *const stress_shrink_sets[] = {"drive.dies_from=controller", "controller.dies_per_channel=1",
                                          "nand.pages_per_block=48", "controller.write_buffer=1MiB"};
const size_t stress_shrink_set_count = sizeof stress_shrink_sets / sizeof stress_shrink_sets[0];

/* Chance of each episode, in stress_episode order. */
static const double episode_weights[EPISODE_COUNT] = {0.35, 0.15, 0.15, 0.10, 0.15, 0.10};

enum { STRESS_DEPTH_MAX = 32, SECTOR = 512 };

void stress_shrink(cfg *c, bool keep_blocks, bool keep_capacity)
{
    /* what params.c keeps free per die beyond user data, plus room for a
     * small static SLC cache */
    uint64_t reserve = cfg_uint(c, "ftl.gc.threshold") + cfg_uint(c, "ftl.gc.burst") + 5;
    char set[128];
    if (!keep_blocks) {
        uint64_t blocks = reserve + 24 > 32 ? reserve + 24 : 32;
        snprintf(set, sizeof set, "nand.blocks_per_plane=%llu", (unsigned long long)blocks);
        cfg_set_override(c, set);
    }
    if (keep_capacity) return;
    uint64_t dies = cfg_uint(c, "controller.channels") * cfg_uint(c, "controller.dies_per_channel");
    uint64_t block = cfg_uint(c, "nand.planes_per_die") * cfg_uint(c, "nand.pages_per_block") * cfg_uint(c, "nand.page_size");
    uint64_t blocks = cfg_uint(c, "nand.blocks_per_plane");
    uint64_t usable = blocks > reserve ? dies * (blocks - reserve) * block : 0;
    uint64_t user = usable / 10 * 8 / (1 << 20) * (1 << 20);
    snprintf(set, sizeof set, "drive.user_capacity=%lluB", (unsigned long long)(user > (1 << 20) ? user : (1 << 20)));
    cfg_set_override(c, set);
}

int stress_families(const char *models_dir, glob_t *g, char ***paths)
{
    char pattern[4096];
    *paths = NULL;
    snprintf(pattern, sizeof pattern, "%s/drives/*.yaml", models_dir);
    if (glob(pattern, 0, NULL, g) != 0) return 0;
    *paths = calloc(g->gl_pathc, sizeof **paths);
    if (!*paths) return 0;
    int n = 0;
    for (size_t i = 0; i < g->gl_pathc; i++) {
        FILE *f = fopen(g->gl_pathv[i], "r");
        bool member = false;
        char line[1024];
        /* a top-level key starts its line: no YAML parser needed to find it */
        while (f && !member && fgets(line, sizeof line, f)) member = !strncmp(line, "family:", 7);
        if (f) fclose(f);
        if (!member) (*paths)[n++] = g->gl_pathv[i];
    }
    return n;
}

typedef struct stresser {
    sim *s;
    ssd *d;
    gsl_rng *rng;
    stress_counts *n;
    char *err;
    size_t errlen;
    bool failed;
    ssdlab_request reqs[STRESS_DEPTH_MAX];
    uint64_t capacity; /* bytes the host sees */
    uint32_t queues;
    /* the episode under way */
    stress_episode kind;
    uint64_t to_issue, inflight;
    uint64_t cursor;            /* sequential and fill: next offset */
    uint32_t run_bytes;         /* sequential: request size */
    ssdlab_op run_op;           /* sequential: read or write */
    uint64_t hot_start, hot_len; /* overwrite: the hot set */
} stresser;

static void check_now(stresser *t, const char *when)
{
    char why[400];
    if (t->failed || ssd_check(t->d, why, sizeof why) == 0) return;
    t->failed = true;
    snprintf(t->err, t->errlen, "integrity violation after %s (%llu requests, %.6f s simulated): %s", when,
             (unsigned long long)t->n->requests, (double)sim_now(t->s) / 1e9, why);
    sim_request_stop(t->s);
}

static void on_reclaimed(void *ctx, bool fold)
{
    stresser *t = ctx;
    if (fold) t->n->fold_checks++;
    else t->n->gc_checks++;
    check_now(t, fold ? "an SLC fold" : "a GC erase");
}

static uint64_t below(stresser *t, uint64_t n) { return n > 1 ? gsl_rng_uniform_int(t->rng, n) : 0; }

/* 512 B to 256 KiB, small sizes likelier: sub-unit writes make the drive
 * merge, large ones span dies and program units. */
static uint32_t random_size(stresser *t) { return SECTOR << below(t, 10); }

static uint64_t random_offset(stresser *t, uint64_t bytes, uint64_t align)
{
    return below(t, (t->capacity - bytes) / align + 1) * align;
}

static void fill_request(stresser *t, ssdlab_request *r)
{
    switch (t->kind) {
    case EPISODE_MIX: {
        double u = gsl_rng_uniform(t->rng);
        r->op = u < 0.4 ? SSDLAB_READ : u < 0.9 ? SSDLAB_WRITE : SSDLAB_TRIM;
        r->bytes = random_size(t);
        r->offset = random_offset(t, r->bytes, SECTOR);
        break;
    }
    case EPISODE_SEQUENTIAL:
    case EPISODE_FILL:
        r->op = t->run_op;
        r->bytes = t->run_bytes;
        if (t->cursor + r->bytes > t->capacity) t->cursor = 0;
        r->offset = t->cursor;
        t->cursor += r->bytes;
        break;
    case EPISODE_OVERWRITE:
        r->op = SSDLAB_WRITE;
        r->bytes = 4096u << below(t, 3);
        r->offset = t->hot_start + below(t, (t->hot_len - r->bytes) / 4096 + 1) * 4096;
        break;
    case EPISODE_TRIM:
        r->op = SSDLAB_TRIM;
        r->bytes = (uint32_t)((1u << 20) << below(t, 7));
        if (r->bytes > t->capacity) r->bytes = (uint32_t)t->capacity;
        r->offset = random_offset(t, r->bytes, 4096);
        break;
    default: break;
    }
}

static void issue(stresser *t, ssdlab_request *r);

static void on_done(ssdlab_request *r, void *ctx)
{
    stresser *t = ctx;
    t->inflight--;
    t->n->reads += r->op == SSDLAB_READ;
    t->n->writes += r->op == SSDLAB_WRITE;
    t->n->trims += r->op == SSDLAB_TRIM;
    if (t->to_issue && !t->failed) issue(t, r);
    else if (!t->inflight) sim_request_stop(t->s);
}

static void issue(stresser *t, ssdlab_request *r)
{
    t->to_issue--;
    t->n->requests++;
    t->inflight++;
    fill_request(t, r);
    r->queue = (uint32_t)below(t, t->queues);
    if (ssd_submit(t->d, r, on_done, t) != 0) {
        snprintf(t->err, t->errlen, "the drive refused request %llu (op %d, offset %llu, %u bytes)",
                 (unsigned long long)t->n->requests, (int)r->op, (unsigned long long)r->offset, r->bytes);
        t->failed = true;
        t->inflight--;
        sim_request_stop(t->s);
    }
}

static stress_episode pick_episode(stresser *t)
{
    double u = gsl_rng_uniform(t->rng), sum = 0;
    for (int k = 0; k < EPISODE_COUNT - 1; k++)
        if (u < (sum += episode_weights[k])) return (stress_episode)k;
    return EPISODE_COUNT - 1;
}

/* Sets up the episode's parameters and how many requests it issues. */
static uint64_t plan_episode(stresser *t, uint64_t left)
{
    uint64_t want = 1 + below(t, 2048);
    switch (t->kind) {
    case EPISODE_SEQUENTIAL:
        t->run_op = gsl_rng_uniform(t->rng) < 0.5 ? SSDLAB_READ : SSDLAB_WRITE;
        t->run_bytes = 4096u << below(t, 6);
        t->cursor = random_offset(t, t->run_bytes, t->run_bytes);
        break;
    case EPISODE_FILL:
        t->run_op = SSDLAB_WRITE;
        t->run_bytes = 128u << 10;
        t->cursor = 0;
        want = (t->capacity + t->run_bytes - 1) / t->run_bytes;
        break;
    case EPISODE_OVERWRITE:
        t->hot_len = (1 + below(t, 64)) << 20; /* 1-64 MiB */
        if (t->hot_len > t->capacity) t->hot_len = t->capacity / 4096 * 4096;
        t->hot_start = random_offset(t, t->hot_len, 4096);
        break;
    case EPISODE_TRIM: want = 1 + below(t, 16); break;
    default: break;
    }
    return want < left ? want : left;
}

/* Memory that ran out stops the stress run like a broken invariant. */
static void note_sim_failure(stresser *t)
{
    if (sim_failed(t->s) && !t->failed)
        snprintf(t->err, t->errlen, "out of memory for %s", oom_what()), t->failed = true;
}

static void run_episode(stresser *t, uint64_t left)
{
    t->kind = pick_episode(t);
    t->n->episodes[t->kind]++;
    if (t->kind == EPISODE_IDLE) {
        /* 1 ms to 2 min, log-uniform: short gaps, and idle long enough
         * for background GC and folding to finish */
        double seconds = exp(log(1e-3) + gsl_rng_uniform(t->rng) * (log(120.0) - log(1e-3)));
        sim_time_t until = sim_now(t->s) + (sim_time_t)(seconds * 1e9);
        sim_run(t->s, until);
        note_sim_failure(t);
        if (!t->failed) sim_advance_to(t->s, until);
    } else {
        t->to_issue = plan_episode(t, left);
        uint64_t depth = 1 + below(t, STRESS_DEPTH_MAX);
        for (uint64_t i = 0; i < depth && t->to_issue && !t->failed; i++) issue(t, &t->reqs[i]);
        while (t->inflight && !t->failed) {
            sim_run(t->s, SIM_TIME_MAX);
            note_sim_failure(t);
        }
    }
    if (!t->failed && ssd_outstanding(t->d))
        snprintf(t->err, t->errlen, "%u requests still outstanding after a %s episode", ssd_outstanding(t->d),
                 stress_episode_names[t->kind]),
            t->failed = true;
    t->n->episode_checks++;
    check_now(t, stress_episode_names[t->kind]);
}

static int open_drive(stresser *t, const cfg *c, char *err, size_t errlen)
{
    drive_model m;
    if (drive_model_open(&m, c, err, errlen)) return -1;
    t->s = m.s;
    t->d = m.d;
    if (ftl_enable_versions(ssd_ftl(t->d))) return snprintf(err, errlen, "out of memory for the version check"), -1;
    t->capacity = t->n->capacity = ssd_capacity(t->d);
    t->queues = (uint32_t)cfg_uint(c, "host.queues");
    ssd_observers obs = {.reclaimed = on_reclaimed, .ctx = t};
    ssd_observe(t->d, &obs);
    return 0;
}

int stress_run(const cfg *c, uint64_t requests, uint64_t seed, stress_counts *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    stresser t = {.n = out, .err = err, .errlen = errlen, .rng = gsl_rng_alloc(gsl_rng_mt19937)};
    if (!t.rng) return snprintf(err, errlen, "out of memory"), -1;
    gsl_rng_set(t.rng, seed);
    int rc = open_drive(&t, c, err, errlen);
    while (!rc && !t.failed && out->requests < requests) run_episode(&t, requests - out->requests);
    if (!rc && !t.failed) {
        sim_run(t.s, SIM_TIME_MAX); /* background work left over */
        note_sim_failure(&t);
        if (!t.failed) check_now(&t, "the last background work");
    }
    if (t.s) out->simulated_s = (double)sim_now(t.s) / 1e9;
    if (t.d) ssd_free(t.d);
    if (t.s) sim_free(t.s);
    gsl_rng_free(t.rng);
    return rc || t.failed ? -1 : 0;
}
