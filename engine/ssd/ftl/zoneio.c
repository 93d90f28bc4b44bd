/* A zoned namespace's placement, program units and resets (zoneio.h). */
#include "zoneio.h"

#include <stdlib.h>

int zoneio_init(zoneio *z, ftl *f, flash *fl)
{
    const ssd_params *p = f->p;
    *z = (zoneio){.p = p, .f = f, .fl = fl, .first_unit = p->logical_units};
    z->layout = (zone_layout){.width = p->zone_width, .blocks = p->zone_blocks, .groups = p->dies / p->zone_width,
                              .units_per_block = p->units_per_block, .units_per_program = p->units_per_program,
                              .blocks_per_die = p->blocks_per_die, .first_block = params_conventional_blocks(p)};
    z->z = calloc(p->zones, sizeof *z->z);
    if (!z->z || zones_init(&z->zs, p->zones, p->zone_capacity, p->zone_max_open, p->zone_max_active)) {
        free(z->z);
        return -1;
    }
    return 0;
}

void zoneio_free(zoneio *z)
{
    zones_free(&z->zs);
    free(z->z);
}

void zoneio_set_hooks(zoneio *z, const zoneio_hooks *h) { z->hooks = *h; }

uint32_t zoneio_alloc_run(zoneio *z, uint32_t lpn, uint32_t want, uint32_t *got, uint32_t *die)
{
    uint64_t u = lpn - z->first_unit;
    uint32_t zone = (uint32_t)(u / z->zs.size);
    uint64_t offset = u % z->zs.size;
    uint32_t upp = z->p->units_per_program, room = upp - (uint32_t)(offset % upp);
    *got = want < room ? want : room;
    zone_place at = zone_layout_place(&z->layout, zone, offset);
    *die = at.die;
    ftl_block *b = &z->f->blocks[at.block];
    if (b->write_ptr < at.offset + *got) b->write_ptr = at.offset + *got;
    return at.block * z->p->units_per_block + at.offset;
}

static void program(zoneio *z, uint32_t zone, uint32_t die, uint32_t padding)
{
    zone_io *zi = &z->z[zone];
    txn *t = flash_txn(z->fl, TX_PROGRAM, die, zi->first, zi->fill);
    t->stream = STREAM_ZONE;
    t->tu = zone;
    t->padding = padding;
    zi->fill = 0;
    zi->programs++;
    flash_submit(z->fl, t);
}

void zoneio_add(zoneio *z, uint32_t lpn, uint32_t die, uint32_t ppa, uint32_t count)
{
    uint32_t zone = zoneio_zone(z, lpn);
    zone_io *zi = &z->z[zone];
    if (zi->fill == 0) zi->first = ppa;
    zi->fill += count;
    if ((ppa % z->p->units_per_block + count) % z->p->units_per_program == 0) program(z, zone, die, 0);
}

/* Pads the zone's part-filled program unit to full and programs it. */
static void flush_zone(zoneio *z, uint32_t zone)
{
    zone_io *zi = &z->z[zone];
    if (!zi->fill) return;
    uint32_t pad = z->p->units_per_program - zi->fill;
    uint32_t block = zi->first / z->p->units_per_block;
    ftl_block *b = &z->f->blocks[block];
    b->write_ptr += pad;
    z->padded += pad;
    zi->fill += pad;
    program(z, zone, block / z->p->blocks_per_die, pad);
}

void zoneio_finish(zoneio *z, uint32_t zone) { flush_zone(z, zone); }

static void reset_done(zoneio *z, zone_io *zi)
{
    ssdlab_request *r = zi->reset;
    zi->reset = NULL;
    z->resets++;
    z->hooks.reset_done(z->hooks.ctx, r);
}

/* Erases every block of the zone that holds programmed units. */
static void erase_blocks(zoneio *z, uint32_t zone)
{
    zone_io *zi = &z->z[zone];
    uint32_t blocks = z->layout.width * z->layout.blocks;
    for (uint32_t j = 0; j < blocks; j++) {
        uint32_t b = zone_layout_block(&z->layout, zone, j);
        if (!z->f->blocks[b].write_ptr) continue;
        txn *t = flash_txn(z->fl, TX_ZONE_ERASE, b / z->p->blocks_per_die, b * z->p->units_per_block, 0);
        t->tu = zone;
        zi->erases++;
        flash_submit(z->fl, t);
    }
    if (!zi->erases) reset_done(z, zi);
}

void zoneio_reset(zoneio *z, uint32_t zone, uint64_t written, ssdlab_request *r)
{
    uint64_t start = z->first_unit + zones_start(&z->zs, zone);
    for (uint64_t k = 0; k < written; k++) ftl_trim(z->f, (uint32_t)(start + k));
    zone_io *zi = &z->z[zone];
    zi->reset = r;
    flush_zone(z, zone); /* its data is dropped, but the program unit must close */
    if (!zi->programs) erase_blocks(z, zone);
}

void zoneio_program_done(zoneio *z, const txn *t)
{
    zone_io *zi = &z->z[t->tu];
    if (--zi->programs == 0 && zi->reset && !zi->erases) erase_blocks(z, t->tu);
}

void zoneio_erase_done(void *ctx, txn *t)
{
    zoneio *z = ctx;
    ftl_block *b = &z->f->blocks[t->block];
    b->write_ptr = 0;
    b->erase_count++;
    z->f->erases++;
    z->erases++;
    zone_io *zi = &z->z[t->tu];
    flash_txn_free(z->fl, t);
    if (--zi->erases == 0) reset_done(z, zi);
}
