#include "powerloss.h"

#include <stdio.h>
#include <stdlib.h>

void powerloss_log_free(powerloss_log *log)
{
    free(log->lost_lpns);
    *log = (powerloss_log){0};
}

static int remember(powerloss_log *log, uint32_t lpn)
{
    if (log->lost_count == log->lost_room) {
        size_t room = log->lost_room ? 2 * log->lost_room : 1024;
        uint32_t *more = realloc(log->lost_lpns, room * sizeof *more);
        if (!more) return -1;
        log->lost_lpns = more;
        log->lost_room = room;
    }
    log->lost_lpns[log->lost_count++] = lpn;
    return 0;
}

/* Whether the unit's open block is one that GC or folding writes. */
static int relocation_block(const ftl *f, uint32_t block)
{
    const ftl_die *d = &f->dies[ftl_die_of_block(f, block)];
    if (d->open[STREAM_GC] == block) return 1;
    for (int h = 0; h < FDP_MAX_HANDLES; h++)
        if (d->open[STREAM_FDP_GC + h] == block) return 1;
    return 0;
}

int powerloss_drop_buffered(ftl *f, const flash *fl, powerloss_log *log)
{
    int rc = 0;
    for (uint64_t lpn = 0; lpn < f->p->l2p_units; lpn++) {
        uint32_t ppa = ftl_entry(f, (uint32_t)lpn);
        if (ppa == FTL_NONE || flash_programmed(fl, ppa)) continue;
        if (relocation_block(f, ftl_block_of(f, ppa))) log->lost_relocated++;
        else log->lost_units++;
        if (remember(log, (uint32_t)lpn)) rc = -1;
        ftl_trim(f, (uint32_t)lpn);
    }
    return rc;
}

/* The mean array read of a page of the block's mode. */
static double mean_read_ns(const ssd_params *p, int slc)
{
    if (slc) return (double)p->t_read_slc;
    double sum = 0;
    for (uint32_t i = 0; i < p->bits_per_cell; i++) sum += (double)p->t_read[i];
    return sum / p->bits_per_cell;
}

sim_time_t powerloss_rebuild_time(const ftl *f, const flash *fl)
{
    const ssd_params *p = f->p;
    uint32_t planes = p->multi_plane ? p->planes_per_die : 1, per_read = p->units_per_page * planes;
    double spare_ns = (double)params_bus_time(p, p->spare_size);
    double worst_die = 0, *channel = calloc(p->channels, sizeof *channel);
    if (!channel) return 0;
    /* a checkpoint of the whole table (4 bytes an entry), in SLC mode, striped over the dies */
    double ckpt_pages = p->rebuild_checkpoint ? (4.0 * (double)p->l2p_units / p->page_size) / p->dies : 0;
    for (uint32_t die = 0; die < p->dies; die++) {
        double array = ckpt_pages / planes * (double)p->t_read_slc, pages = ckpt_pages;
        for (uint32_t b = die * p->blocks_per_die; b < (die + 1) * p->blocks_per_die; b++) {
            const ftl_block *blk = &f->blocks[b];
            if (p->rebuild_checkpoint && blk->state != BLOCK_OPEN) continue;
            uint32_t units = fl->programmed[b];
            uint32_t reads = (units + per_read - 1) / per_read;
            array += reads * mean_read_ns(p, ftl_block_slc(f, b));
            pages += (double)((units + p->units_per_page - 1) / p->units_per_page);
        }
        if (array > worst_die) worst_die = array;
        channel[die / p->dies_per_channel] += pages * spare_ns;
    }
    double worst = worst_die;
    for (uint32_t c = 0; c < p->channels; c++)
        if (channel[c] > worst) worst = channel[c];
    free(channel);
    return (sim_time_t)(worst + 0.5);
}
