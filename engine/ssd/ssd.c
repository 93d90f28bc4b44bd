/* The drive's assembly: builds each layer, wires what each owes the one
 * above it (callbacks), and answers the drive-wide questions (statistics,
 * erase counts) by asking the layers; ssd_untimed.c has the untimed
 * paths (preconditioning, wear phases). */
#include "ssd.h"
#include "ssd_parts.h"

#include <stdlib.h>
#include <string.h>

#include "memlimit.h"

/* --- wiring ----------------------------------------------------------------- */

static bool block_slc(void *ctx, uint32_t block) { return ftl_block_slc(ctx, block); }
static uint32_t block_erases(void *ctx, uint32_t block) { return ((const ftl *)ctx)->blocks[block].erase_count; }

static void reclaimed(void *ctx, bool fold)
{
    ssd *d = ctx;
    if (d->m.observe.reclaimed) d->m.observe.reclaimed(d->m.observe.ctx, fold);
}

static void relocated(void *ctx, uint32_t lpn) { mapio_dirty(&((ssd *)ctx)->map, lpn, 1); }
/* A block freed: first the write-backs the dies owe (firmware writes its
 * table before more host data), then the host writes that wait. */
static bool space_freed(void *ctx)
{
    ssd *d = ctx;
    if (d->has_map && d->map.owed) mapio_pay_owed(&d->map);
    return buffer_retry_stalled(&d->buf);
}

/* Each layer learns what it owes the one above through callbacks set here,
 * once: the flash layer hands finished transactions to their owners, the
 * reclaim jobs tell the write path about freed space, the buffer tells the
 * host interface what moves and what is done. */
static void wire(ssd *d)
{
    flash *fl = &d->fl;
    bool reacts = media_reacts(&d->p.media);
    flash_set_blocks(fl, &(flash_blocks){block_slc, block_erases, &d->f, reacts ? reclaim_due_block : NULL, &d->rc});
    flash_on_done(fl, TX_READ, buffer_read_done, &d->buf);
    flash_on_done(fl, TX_PREFETCH, buffer_read_done, &d->buf);
    flash_on_done(fl, TX_RMW_READ, buffer_merge_read_done, &d->buf);
    flash_on_done(fl, TX_PROGRAM, buffer_program_done, &d->buf);
    flash_on_done(fl, TX_GC_READ, reclaim_read_done, &d->rc);
    flash_on_done(fl, TX_ERASE, reclaim_erase_done, &d->rc);
    flash_on_done(fl, TX_MAP_READ, mapio_read_done, &d->map);
    if (d->m.interval) flash_set_watch(fl, metrics_catch_up, &d->m, &d->m.interval_end);
    reclaim_set_hooks(&d->rc, &(reclaim_hooks){space_freed, d->p.map_persisted ? relocated : NULL, reclaimed, d});
    d->map.resume = hil_resume;
    d->map.resume_ctx = &d->h;
    buffer_set_hooks(&d->buf, &(buffer_hooks){hil_move_in, hil_buffer_done, hil_resume, &d->h});
    hil_on_completed(&d->h, metrics_completed, &d->m);
    if (d->has_zio) {
        flash_on_done(fl, TX_ZONE_ERASE, zoneio_erase_done, &d->zio);
        zoneio_set_hooks(&d->zio, &(zoneio_hooks){hil_zone_reset_done, &d->h});
        buffer_set_zones(&d->buf, &d->zio);
        hil_set_zones(&d->h, &d->zio);
    }
}

/* --- set-up ----------------------------------------------------------------- */

/* Memory the drive's tables take, from its parameters: the mapping tables
 * dominate (4 bytes per logical unit, the reverse map's share). The rest (events,
 * requests, histograms, the result writer) is bounded; 16 MiB covers it. */
static uint64_t memory_needed(const ssd_params *p)
{
    uint64_t nblocks = (uint64_t)p->dies * p->blocks_per_die;
    uint64_t bytes = 4 * p->l2p_units + revmap_bytes((uint32_t)nblocks, p->units_per_block, ftl_reverse_map_slots(p));
    /* block table, programmed, free stacks, the cover's scratch (blocks and their ranking) */
    bytes += nblocks * (sizeof(ftl_block) + 3 * sizeof(uint32_t) + sizeof(ftl_ranked));
    bytes += (uint64_t)p->dies * (sizeof(ftl_die) + flash_die_bytes() + sizeof(reclaim_die) + sizeof(progunit_die));
    if (p->map_persisted) bytes += 8 * (uint64_t)p->map_pages + 16 * (uint64_t)p->map_cache_pages;
    if (p->trim == TRIM_DEFERRED) bytes += p->l2p_units / 8;
    bytes += (uint64_t)p->zones * (sizeof(zone) + sizeof(zone_io));
    bytes += p->read_cache / p->unit * 12; /* tag and stamp per cached unit */
    if (p->media.model == ECC_RBER) bytes += nblocks * sizeof(media_block);
    if (media_retires(&p->media)) bytes += nblocks * sizeof(uint32_t); /* retirement limits */
    return bytes + (16u << 20);
}

/* Refuses a drive whose tables would not fit the memory limit, before
 * anything large is allocated. */
static int check_memory(const ssd_params *p, const cfg *c, char *err, size_t errlen)
{
    char source[64] = "'sim.max_memory' (--max-memory)", need_s[32], limit_s[32];
    uint64_t need = memory_needed(p), limit = cfg_uint(c, "sim.max_memory");
    if (!limit) limit = memlimit_default(source, sizeof source);
    if (need <= limit) return 0;
    memlimit_format(need, need_s, sizeof need_s);
    memlimit_format(limit, limit_s, sizeof limit_s);
    snprintf(err, errlen,
             "the drive needs about %s of memory (%llu mapping units of flash), more than the %s that %s allows; "
             "expected a smaller drive, a larger 'ftl.mapping_unit', or a higher limit (--max-memory SIZE)",
             need_s, (unsigned long long)p->physical_units, limit_s, source);
    return -1;
}

/* Builds the layers bottom up; false when memory runs out. */
static bool build(ssd *d, const cfg *c)
{
    const ssd_params *p = &d->p;
    d->has_flash = flash_init(&d->fl, d->s, p, &d->power, &d->dp, d->ecc_rng) == 0;
    if (!d->has_flash) return false;
    d->has_ftl = ftl_init(&d->f, p, d->rng) == 0;
    if (!d->has_ftl || ftl_draw_endurance(&d->f, sim_rng(d->s, "endurance"))) return false;
    if (!(d->has_pu = progunit_init(&d->pu, &d->f, &d->fl) == 0)) return false;
    if (!(d->has_rc = reclaim_init(&d->rc, d->s, &d->f, &d->fl, &d->pu, &d->dp) == 0)) return false;
    if (trimmap_init(&d->tm, p->trim == TRIM_DEFERRED ? p->l2p_units : 0)) return false;
    if (p->map_persisted && !(d->has_map = mapio_init(&d->map, &d->f, &d->fl, &d->pu, &d->rc) == 0)) return false;
    mapio *map = p->map_persisted ? &d->map : NULL;
    if (map) {
        d->f.move_touches = map->cache.slot_of_page;
        d->f.move_touch_of = p->map_page_of;
    }
    if (p->zones && !(d->has_zio = zoneio_init(&d->zio, &d->f, &d->fl) == 0)) return false;
    if (!(d->has_buf = buffer_init(&d->buf, &d->f, &d->fl, &d->pu, &d->rc, map, &d->tm) == 0)) return false;
    if (!(d->has_hil = hil_init(&d->h, d->s, &d->f, &d->buf, map, &d->pu, &d->rc, &d->tm, &d->power, &d->dp) == 0)) return false;
    d->has_metrics = true;
    return metrics_init(&d->m, d->s, &d->f, &d->power, cfg_uint(c, "metrics.interval")) == 0;
}

ssd *ssd_create(sim *s, const cfg *c, char *err, size_t errlen)
{
    ssd *d = calloc(1, sizeof *d);
    if (!d) return snprintf(err, errlen, "out of memory"), NULL;
    d->s = s;
    if (ssd_params_load(&d->p, c, err, errlen) || check_memory(&d->p, c, err, errlen)) {
        free(d);
        return NULL;
    }
    d->rng = sim_rng(s, "ftl");
    d->ecc_rng = sim_rng(s, "ecc");
    power_init(&d->power, c, d->p.dies);
    if (datapath_init(&d->dp, &d->p) || !build(d, c)) {
        snprintf(err, errlen, "out of memory for a drive of %llu mapping units", (unsigned long long)d->p.physical_units);
        ssd_free(d);
        return NULL;
    }
    wire(d);
    return d;
}

void ssd_free(ssd *d)
{
    if (!d) return;
    if (d->has_metrics) metrics_free(&d->m);
    if (d->has_hil) hil_free(&d->h);
    if (d->has_buf) buffer_free(&d->buf);
    mapwear_free(&d->wear);
    if (d->has_map) mapio_free(&d->map);
    if (d->has_zio) zoneio_free(&d->zio);
    trimmap_free(&d->tm);
    if (d->has_rc) reclaim_free(&d->rc);
    if (d->has_pu) progunit_free(&d->pu);
    if (d->has_ftl) ftl_free(&d->f);
    if (d->has_flash) flash_free(&d->fl);
    datapath_free(&d->dp);
    powerloss_log_free(&d->pl);
    free(d);
}

/* --- the public face -------------------------------------------------------- */

int ssd_submit(ssd *d, ssdlab_request *r, ssdlab_done_fn done, void *ctx) { return hil_submit(&d->h, r, done, ctx); }
void ssd_warm(ssd *d, const uint64_t *offsets, uint32_t n) { hil_warm(&d->h, offsets, n); }
void ssd_warm_overwrites(ssd *d, const uint64_t *offsets, uint32_t n) { hil_warm_overwrites(&d->h, offsets, n); }
void ssd_fetch(ssd *d, const uint64_t *offsets, uint32_t n) { hil_fetch(&d->h, offsets, n); }
void ssd_fetch_overwrites(ssd *d, const uint64_t *offsets, uint32_t n) { hil_fetch_overwrites(&d->h, offsets, n); }
bool ssd_warm_pays(const ssd *d) { return ftl_warm_pays(&d->f); }
uint64_t ssd_warmed(const ssd *d) { return d->h.warmed; }
uint64_t ssd_warmed_overwrites(const ssd *d) { return d->h.overwrites_warmed; }
uint64_t ssd_admits_warmed(const ssd *d) { return d->buf.admits_warmed; }
uint64_t ssd_map_owed(const ssd *d, uint64_t *merged)
{
    *merged = d->has_map ? d->map.owed_merged : 0;
    return d->has_map ? d->map.owed : 0;
}
uint64_t ssd_reverse_map_refills(const ssd *d) { return d->f.rm.refills; }

void ssd_set_queue_class(ssd *d, uint32_t queue, int cls) { arbiter_set_class(&d->h.arb, queue, (queue_class)cls); }
const ssd_params *ssd_params_of(const ssd *d) { return &d->p; }
ftl *ssd_ftl(ssd *d) { return &d->f; }
int ssd_check(ssd *d, char *err, size_t errlen)
{
    if (ftl_check(&d->f, err, errlen)) return -1;
    return d->has_map ? mapio_check(&d->map, err, errlen) : 0;
}
uint64_t ssd_capacity(const ssd *d) { return d->p.logical_units * d->p.unit; }
const zoneio *ssd_zoned(const ssd *d) { return d->has_zio ? &d->zio : NULL; }

void ssd_fdp_log_get(const ssd *d, ssd_fdp_log *log)
{
    const ftl *f = &d->f;
    uint64_t unit = d->p.unit;
    *log = (ssd_fdp_log){.erased_bytes = f->erases * d->p.units_per_block * unit, .media_reallocated = f->reallocations,
                         .ru_not_fully_written = f->ru_not_fully_written};
    uint64_t media = f->units_padded;
    for (int s = 0; s < STREAM_COUNT; s++) media += f->units_written[s];
    log->media_bytes = media * unit;
    for (int h = 0; h < FDP_MAX_HANDLES; h++) {
        log->handle_host_bytes[h] = f->handle_host[h] * unit;
        log->handle_moved_bytes[h] = f->handle_moved[h] * unit;
        log->host_bytes += log->handle_host_bytes[h];
    }
}
uint64_t ssd_submitted(const ssd *d) { return d->h.submitted; }
uint32_t ssd_outstanding(const ssd *d) { return d->h.arb.in_controller; }
const gsl_histogram *ssd_latency_histogram(const ssd *d, ssdlab_op op) { return d->m.ops.latency[op]; }
double ssd_latency_quantile(const ssd *d, ssdlab_op op, double q) { return metrics_quantile(&d->m, op, q); }

/* Bytes, not units: a write that covers part of a mapping unit programs
 * the whole unit, and that is amplification too (rmw). */
static void write_amplification(ssdlab_stats *s, uint32_t unit)
{
    double host = (double)s->bytes[SSDLAB_WRITE], u = unit;
    if (host <= 0) {
        s->write_amplification = s->wa_rmw = s->wa_fold = s->wa_gc = s->wa_map = s->wa_pad = s->slc_share = NAN;
        return;
    }
    s->wa_rmw = ((double)s->host_units_written * u - host) / host;
    s->wa_fold = (double)s->fold_units_written * u / host;
    s->wa_gc = (double)(s->gc_units_written - s->fold_units_written) * u / host;
    s->wa_map = (double)s->map_units_written * u / host;
    s->wa_pad = (double)s->pad_units_written * u / host;
    s->slc_share = s->host_units_written ? (double)s->slc_units_written / (double)s->host_units_written : 0;
    s->write_amplification = 1 + s->wa_rmw + s->wa_fold + s->wa_gc + s->wa_map + s->wa_pad;
}

void ssd_stats(const ssd *d, ssdlab_stats *s)
{
    memset(s, 0, sizeof *s);
    s->refused = d->m.ops.refused;
    for (int op = 0; op < SSDLAB_CLASSES; op++) {
        s->completed[op] = d->m.ops.completed[op];
        s->bytes[op] = d->m.ops.bytes[op];
        s->latency_sum_ns[op] = d->m.ops.latency_sum[op];
    }
    s->host_units_written = d->f.units_written[STREAM_HOST] - d->host_units0;
    s->gc_units_written = d->f.units_written[STREAM_GC] - d->gc_units0;
    s->map_units_written = d->f.units_written[STREAM_MAP] - d->map_units0;
    s->erases = d->f.erases - d->erases0;
    s->flash_reads = d->fl.n.reads - d->flash0.reads;
    s->map_misses = d->map.misses - d->map_misses0;
    power_model *pw = (power_model *)&d->power; /* bringing the temperature up to date changes no result */
    sim_time_t now = sim_now(d->s);
    s->energy_j = power_energy(pw, now);
    s->average_power_w = now ? s->energy_j / sim_time_to_sec(now) : 0;
    s->temperature_c = power_temperature(pw, now);
    s->max_temperature_c = pw->max_temperature_c;
    s->throttled_s = sim_time_to_sec(pw->throttled_ns + (pw->throttling ? now - pw->throttle_began : 0));
    s->map_writebacks = d->map.writebacks - d->map_writebacks0;
    s->busy_s = sim_time_to_sec(hil_busy_ns(&d->h));
    s->flash_programs = d->fl.n.programs - d->flash0.programs;
    s->read_retries = d->fl.n.read_retries - d->flash0.read_retries;
    s->soft_reads = d->fl.n.soft_reads - d->flash0.soft_reads;
    s->uncorrectable_reads = d->fl.n.uncorrectable - d->flash0.uncorrectable;
    ssd_media_events ev;
    ssd_media_events_get(d, &ev);
    s->reclaimed_blocks = ev.jobs[MEDIA_DISTURBED] + ev.jobs[MEDIA_ERRORS];
    s->refreshed_blocks = ev.jobs[MEDIA_STALE];
    s->retired_blocks = ev.retired;
    s->read_cache_hits = d->buf.cache_hits - d->cache_hits0;
    s->suspends = d->fl.n.suspends - d->flash0.suspends;
    s->slc_units_written = d->buf.slc_units_written - d->slc_written0;
    s->slc_units_read = d->fl.n.slc_units_read - d->flash0.slc_units_read;
    s->fold_units_written = d->f.units_folded - d->folded0;
    s->pad_units_written = d->f.units_padded - d->padded0;
    write_amplification(s, d->p.unit);
    s->now = now;
}

void ssd_reset_stats(ssd *d)
{
    metrics_reset(&d->m);
    d->flash0 = d->fl.n;
    memcpy(d->media_jobs0, d->rc.media_jobs, sizeof d->media_jobs0);
    memcpy(d->media_moved0, d->rc.media_moved, sizeof d->media_moved0);
    d->retired0 = d->f.retired;
    d->cache_hits0 = d->buf.cache_hits;
    d->slc_written0 = d->buf.slc_units_written;
    d->map_misses0 = d->map.misses;
    d->map_writebacks0 = d->map.writebacks;
    d->host_units0 = d->f.units_written[STREAM_HOST];
    d->gc_units0 = d->f.units_written[STREAM_GC];
    d->map_units0 = d->f.units_written[STREAM_MAP];
    d->folded0 = d->f.units_folded;
    d->padded0 = d->f.units_padded;
    d->erases0 = d->f.erases;
    hil_reset_busy(&d->h);
}

void ssd_die_stats(const ssd *d, uint32_t die, ssd_die_counts *out)
{
    const flash_die *ds = &d->fl.dies[die];
    /* busy time is counted when an operation starts, to its end: what lies
     * past now has not happened yet */
    sim_time_t now = sim_now(d->s), ahead = ds->busy_mark > now ? ds->busy_mark - now : 0;
    *out = (ssd_die_counts){ds->busy_ns - (ahead < ds->busy_ns ? ahead : ds->busy_ns), ds->reads, ds->programs, ds->erases};
}

void ssd_metrics_tick(ssd *d, sim_time_t *next)
{
    if (!d->m.interval) {
        *next = SIM_TIME_MAX;
        return;
    }
    metrics_catch_up(&d->m);
    *next = d->m.interval_end;
}

void ssd_close_interval(ssd *d)
{
    metrics *m = &d->m;
    if (!m->interval) return;
    sim_time_t now = sim_now(d->s), start = m->interval_end - m->interval;
    if (now > start) metrics_close_interval(m, now, now - start);
    metrics_flush(m);
    m->interval_end = now + m->interval;
}

void ssd_observe(ssd *d, const ssd_observers *o) { d->m.observe = *o; }

const ssd_interval *ssd_intervals(ssd *d, size_t *count)
{
    metrics_flush(&d->m);
    *count = d->m.row_count;
    return d->m.rows;
}

void ssd_erase_counts(const ssd *d, double *min, double *mean, double *max)
{
    size_t n = (size_t)d->p.dies * d->p.blocks_per_die;
    *min = *max = d->f.blocks[0].erase_count;
    double sum = 0;
    for (size_t b = 0; b < n; b++) {
        double e = d->f.blocks[b].erase_count;
        sum += e;
        if (e < *min) *min = e;
        if (e > *max) *max = e;
    }
    *mean = sum / (double)n;
}

void ssd_ecc_outcomes(const ssd *d, uint64_t *counts)
{
    for (int i = 0; i < ECC_OUTCOMES; i++) counts[i] = d->fl.n.ecc_outcomes[i] - d->flash0.ecc_outcomes[i];
}

const media *ssd_media(const ssd *d) { return &d->fl.med; }

void ssd_media_events_get(const ssd *d, ssd_media_events *ev)
{
    for (int i = 0; i < MEDIA_REASONS; i++) {
        ev->jobs[i] = d->rc.media_jobs[i] - d->media_jobs0[i];
        ev->moved[i] = d->rc.media_moved[i] - d->media_moved0[i];
    }
    ev->retired = d->f.retired - d->retired0;
    ev->retired_ever = d->f.retired;
    ev->worn_erases = d->f.worn_erases;
    ev->spare_left = d->f.ret.spare_blocks;
    for (uint32_t die = 0; die < d->p.dies; die++) {
        uint32_t left = d->f.ret.spare_blocks - d->f.dies[die].retired;
        if (left < ev->spare_left) ev->spare_left = left;
    }
}

void ssd_age(ssd *d, double hours, double celsius)
{
    size_t nblocks = (size_t)d->p.dies * d->p.blocks_per_die;
    for (size_t b = 0; b < nblocks; b++) media_age(&d->fl.med, (uint32_t)b, hours, celsius);
}

/* Capacitors: the firmware pads and programs what its buffer holds, until
 * the last program ends or the capacitors' energy (drive.holdup_energy,
 * each operation's energy counted when it starts) is spent; what is not
 * programmed by then is lost. Steps of a microsecond: the flush's time is
 * its last program's, not that of work the firmware would start later. */
static int flush_on_capacitors(ssd *d)
{
    sim_time_t t0 = sim_now(d->s);
    double e0 = power_energy(&d->power, t0), budget = d->p.holdup_j;
    progunit_pad_all(&d->pu);
    while (d->fl.programs_pending) {
        if (budget > 0 && power_energy(&d->power, sim_now(d->s)) - e0 > budget) break;
        if (sim_run(d->s, sim_now(d->s) + 1000) != SIM_STOP_TIME) break;
    }
    d->pl.flush_s += sim_time_to_sec(sim_now(d->s) - t0);
    d->pl.flush_energy_j += power_energy(&d->power, sim_now(d->s)) - e0;
    if (!d->fl.programs_pending) return 0;
    d->pl.holdup_short++;
    return powerloss_drop_buffered(&d->f, &d->fl, &d->pl);
}

/* The power fails now (powerloss.h): protected, the buffered data is
 * programmed first; unprotected, it is lost. Then the mapping's rebuild
 * takes its time, and the firmware closes the program units it had begun. */
int ssd_power_loss(ssd *d)
{
    d->pl.events++;
    if (d->p.plp ? flush_on_capacitors(d) : powerloss_drop_buffered(&d->f, &d->fl, &d->pl)) return -1;
    sim_time_t rebuild = powerloss_rebuild_time(&d->f, &d->fl);
    d->pl.rebuild_s += sim_time_to_sec(rebuild);
    sim_time_t back = sim_now(d->s) + rebuild;
    sim_run(d->s, back);
    sim_advance_to(d->s, back);
    if (progunit_pad_all(&d->pu)) sim_run(d->s, SIM_TIME_MAX);
    return 0;
}

const powerloss_log *ssd_power_loss_log(const ssd *d) { return &d->pl; }

void ssd_add_wear(ssd *d, uint32_t cycles)
{
    size_t nblocks = (size_t)d->p.dies * d->p.blocks_per_die;
    for (size_t b = 0; b < nblocks; b++) {
        d->f.blocks[b].erase_count += cycles;
        media_add_cycles(&d->fl.med, (uint32_t)b, cycles);
    }
}

void ssd_erase_histogram(const ssd *d, uint64_t *counts, size_t n)
{
    memset(counts, 0, n * sizeof *counts);
    size_t blocks = (size_t)d->p.dies * d->p.blocks_per_die;
    for (size_t b = 0; b < blocks; b++) {
        size_t e = d->f.blocks[b].erase_count;
        counts[e < n ? e : n - 1]++;
    }
}
