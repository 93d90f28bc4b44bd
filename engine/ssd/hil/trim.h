/* TRIM: deallocation, and the firmware's cost of it (controller.trim_mode):
 * free (only the command's firmware time); blocking (every core is held
 * until the work is done); throttled (the work takes a share of a core's
 * time, in chunks); deferred (the units read as trimmed at once, and are
 * deallocated in idle time). The work per unit is trim_cost per GiB when
 * given, else derived from where the mapping table lives (params.c). */
#ifndef SSDLAB_TRIM_H
#define SSDLAB_TRIM_H

#include "buffer.h"
#include "datapath.h"
#include "ftl.h"
#include "sim.h"
#include "trimmap.h"

typedef struct trim_work {
    sim *s;
    const ssd_params *p;
    ftl *f;
    buffer *buf;
    trimmap *tm;
    datapath *dp;          /* the firmware's cores */
    const bool *idle;      /* the host is idle (hil) */
    sim_time_t backlog;    /* throttled: work left */
    bool worker;           /* the work's event chain is running */
    sim_handler_id on_work;
} trim_work;

void trim_init(trim_work *t, sim *s, ftl *f, buffer *buf, trimmap *tm, datapath *dp, const bool *idle);
/* Trims units [lpn, lpn + n) at the current time, having first read
 * map_reads translation units (DRAM-less); returns when the command
 * completes. */
sim_time_t trim_command(trim_work *t, uint32_t lpn, uint32_t n, uint32_t map_reads);
/* Starts the work in the background, if any is due (throttled backlog, or
 * deferred units while idle). */
void trim_start_worker(trim_work *t);

#endif
