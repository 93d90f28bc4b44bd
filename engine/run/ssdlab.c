/* The public API (ssdlab.h) over the simulator, the configuration and the
 * SSD model. */
#include "ssdlab.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "drive_model.h"
#include "oom.h"
#include "ssd.h"
#include "zones.h"

struct ssdlab_drive {
    cfg *c;
    sim *s;
    ssd *d;
    char error[160]; /* "" while the drive works */
};

ssdlab_drive *ssdlab_open(const char *drive_file, const char *const *sets, int nsets, char *err, size_t errlen)
{
    ssdlab_drive *h = calloc(1, sizeof *h);
    if (!h || !(h->c = cfg_create(ssdlab_schema()))) {
        free(h);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    if (drive_file) cfg_load_file(h->c, drive_file);
    for (int i = 0; i < nsets; i++) cfg_set_override(h->c, sets[i]);
    if (cfg_error_count(h->c)) {
        snprintf(err, errlen, "%s", cfg_errors(h->c));
        ssdlab_close(h);
        return NULL;
    }
    drive_model m;
    if (drive_model_open(&m, h->c, err, errlen)) {
        ssdlab_close(h);
        return NULL;
    }
    h->s = m.s;
    h->d = m.d;
    return h;
}

void ssdlab_close(ssdlab_drive *h)
{
    if (!h) return;
    ssd_free(h->d);
    sim_free(h->s);
    cfg_free(h->c);
    free(h);
}

static void note_failure(ssdlab_drive *h)
{
    if (!h->error[0]) snprintf(h->error, sizeof h->error, "out of memory for %s", oom_what());
}

/* A submission runs model code outside the simulator's loop, so it keeps
 * a frame of its own for memory that runs out (oom.h). */
int ssdlab_submit(ssdlab_drive *h, ssdlab_request *r, ssdlab_done_fn done, void *ctx)
{
    if (h->error[0]) return -1;
    oom_frame f;
    oom_enter(&f);
    if (setjmp(f.at)) {
        note_failure(h);
        return -1;
    }
    int rc = ssd_submit(h->d, r, done, ctx);
    oom_leave(&f);
    return rc;
}

static void run_to(ssdlab_drive *h, ssdlab_time t)
{
    if (h->error[0]) return;
    if (sim_run(h->s, t) == SIM_STOP_FAILED) note_failure(h);
}

void ssdlab_run_until(ssdlab_drive *h, ssdlab_time t) { run_to(h, t); }
void ssdlab_run_until_idle(ssdlab_drive *h) { run_to(h, SIM_TIME_MAX); }
const char *ssdlab_error(const ssdlab_drive *h) { return h->error[0] ? h->error : NULL; }
ssdlab_time ssdlab_now(const ssdlab_drive *h) { return sim_now(h->s); }
uint64_t ssdlab_capacity(const ssdlab_drive *h) { return ssd_capacity(h->d); }

const char *ssdlab_status_name(uint16_t status)
{
    if (status == SSDLAB_STATUS_UNRECOVERED_READ) return "Unrecovered Read Error";
    return status < ZONE_STATUSES ? zone_status_names[status] : "unknown status";
}
void ssdlab_stats_get(const ssdlab_drive *h, ssdlab_stats *s) { ssd_stats(h->d, s); }
