#include "progunit.h"

#include <stdlib.h>

int progunit_init(progunits *pu, ftl *f, flash *fl)
{
    *pu = (progunits){.f = f, .fl = fl};
    pu->dies = calloc(f->p->dies, sizeof *pu->dies);
    return pu->dies ? 0 : -1;
}

void progunit_free(progunits *pu) { free(pu->dies); }

void progunit_add(progunits *pu, uint32_t die, ftl_stream s, uint32_t ppa, uint32_t count)
{
    progunit_die *pd = &pu->dies[die];
    if (pd->fill[s] == 0) pd->first[s] = ppa;
    pd->fill[s] += count;
    if ((ftl_offset_of(pu->f, ppa) + count) % ftl_program_units(pu->f, ftl_block_of(pu->f, ppa))) return;
    txn *t = flash_txn(pu->fl, TX_PROGRAM, die, pd->first[s], pd->fill[s]);
    t->stream = (uint8_t)s;
    t->padding = pu->pending_padding;
    pu->pending_padding = 0;
    pd->fill[s] = 0;
    flash_submit(pu->fl, t);
}

/* Pads the die's part-filled program unit of stream s and programs it. */
static void pad_unit(progunits *pu, uint32_t die, ftl_stream s)
{
    progunit_die *pd = &pu->dies[die];
    if (!pd->fill[s]) return;
    uint32_t units = ftl_program_units(pu->f, ftl_block_of(pu->f, pd->first[s]));
    uint32_t got, pad = units - pd->fill[s];
    uint32_t ppa = ftl_alloc_run(pu->f, die, s, pad, &got);
    if (ppa == FTL_NONE || got != pad) return; /* cannot happen: a unit never crosses a block */
    pu->pending_padding = pad;
    ftl_count_padding(pu->f, pad);
    progunit_add(pu, die, s, ppa, got);
}

void progunit_flush(progunits *pu)
{
    for (uint32_t die = 0; die < pu->f->p->dies; die++)
        for (int i = 0; i < STREAM_COUNT; i++)
            if (ftl_stream_is_host((ftl_stream)i) && i != STREAM_ZONE) pad_unit(pu, die, (ftl_stream)i);
}

void progunit_close_stream(progunits *pu, ftl_stream s)
{
    ftl *f = pu->f;
    for (uint32_t die = 0; die < f->p->dies; die++) {
        pad_unit(pu, die, s);
        uint32_t b = f->dies[die].open[s];
        if (b == FTL_NONE) continue;
        f->ru_not_fully_written += f->blocks[b].write_ptr < ftl_capacity(f, b);
        ftl_close_block(f, die, s);
    }
}

uint32_t progunit_pad_all(progunits *pu)
{
    uint32_t padded = 0;
    for (uint32_t die = 0; die < pu->f->p->dies; die++)
        for (int i = 0; i < STREAM_COUNT; i++)
            if (i != STREAM_ZONE && pu->dies[die].fill[i]) {
                pad_unit(pu, die, (ftl_stream)i);
                padded++;
            }
    return padded;
}
