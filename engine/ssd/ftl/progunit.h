/* Program units: the FTL gathers the units it places on a die, stream by
 * stream, until they fill one program operation (all planes, every page
 * of a word line in one-shot parts), then submits that as one flash
 * program. Idle flush pads a part-filled host unit so its data leaves
 * the buffer. */
#ifndef SSDLAB_PROGUNIT_H
#define SSDLAB_PROGUNIT_H

#include "flash.h"
#include "ftl.h"

typedef struct progunit_die {
    uint32_t first[STREAM_COUNT], fill[STREAM_COUNT];
} progunit_die;

typedef struct progunits {
    ftl *f;
    flash *fl;
    progunit_die *dies;
    uint32_t pending_padding; /* padding units of the program unit being closed */
} progunits;

int progunit_init(progunits *pu, ftl *f, flash *fl);
void progunit_free(progunits *pu);
/* Adds `count` just-allocated units (from ppa on, inside one program unit)
 * to the die's open program unit of stream s; a full one is programmed. */
void progunit_add(progunits *pu, uint32_t die, ftl_stream s, uint32_t ppa, uint32_t count);
/* Pads the part-filled host program units to full and programs them. */
void progunit_flush(progunits *pu);
/* Pads every part-filled program unit (zones' aside) and programs it;
 * returns how many. */
uint32_t progunit_pad_all(progunits *pu);
/* FDP's Reclaim Unit Handle Update: stream s's part-filled program units
 * are padded and programmed, and its open block on every die closed, so
 * the handle's next writes start fresh reclaim units. */
void progunit_close_stream(progunits *pu, ftl_stream s);

#endif
