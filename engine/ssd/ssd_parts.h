/* The drive's parts, for the files that assemble and drive them (ssd.c,
 * ssd_untimed.c): the layers, bottom up, and what the statistics count
 * from. Private to engine/ssd/ssd*.c, which include ssd.h before it;
 * everyone else sees ssd.h. */
#ifndef SSDLAB_SSD_PARTS_H
#define SSDLAB_SSD_PARTS_H

#include <gsl/gsl_rng.h>

#include "buffer.h"
#include "datapath.h"
#include "flash.h"
#include "ftl.h"
#include "hil.h"
#include "mapio.h"
#include "mapwear.h"
#include "metrics.h"
#include "params.h"
#include "power.h"
#include "powerloss.h"
#include "progunit.h"
#include "reclaim.h"
#include "sim.h"
#include "trimmap.h"
#include "zoneio.h"

struct ssd {
    sim *s;
    ssd_params p;
    power_model power;
    datapath dp;
    gsl_rng *rng, *ecc_rng;
    /* the layers, bottom up */
    flash fl;
    ftl f;
    progunits pu;
    reclaim rc;
    trimmap tm;
    mapio map;
    zoneio zio;
    buffer buf;
    hil h;
    metrics m;
    bool has_flash, has_ftl, has_pu, has_rc, has_map, has_zio, has_buf, has_hil, has_metrics;
    uint64_t host_units0, gc_units0, map_units0, folded0, padded0, erases0; /* at the last reset */
    flash_counters flash0;
    uint64_t cache_hits0, slc_written0, map_misses0, map_writebacks0;
    uint64_t media_jobs0[MEDIA_REASONS], media_moved0[MEDIA_REASONS], retired0;
    powerloss_log pl; /* power losses so far */
    mapwear wear; /* the DRAM-less mapping during a wear phase */
};

#endif
