/* The media's bit errors and what the controller's ECC makes of them
 * (controller.ecc_model = rber; docs/reliability.md).
 *
 * The raw bit error rate of a page follows the power-law form of Liu,
 * Yang and Wu (FAST 2012, "Optimizing NAND flash-based SSDs via retention
 * relaxation") with a read-disturb term of the same form (Cai et al., DSN
 * 2015, "Read disturb errors in MLC NAND flash memory"):
 *
 *   RBER = f_page x (e + a N^k + b N^m t^n + g N^p r^q)
 *
 * N: the block's P/E cycles; t: hours since the block was first
 * programmed, at the part's reference temperature (Arrhenius acceleration,
 * JEDEC JESD218's form); r: array reads of the block since its erase;
 * f_page: the page type's factor (SLC-mode blocks have their own).
 *
 * A read's codewords each hold n bits, of which Binomial(n, RBER) are in
 * error; the hard decoder corrects up to its limit. Beyond it the
 * controller reads again with shifted references, each step of the ladder
 * multiplying the RBER by the retry gain; after the last step one
 * soft-decision read (more sensings, a longer decode) corrects up to the
 * soft limit; beyond that the read is uncorrectable. One uniform draw per
 * read decides all steps together, so a read that needs step i would have
 * needed it at any lower error rate's step too (the steps are coupled, as
 * the same cells are read again). */
#ifndef SSDLAB_MEDIA_H
#define SSDLAB_MEDIA_H

#include <stdint.h>

#include <gsl/gsl_rng.h>

#include "params.h"

/* Per block, what its errors depend on besides its erase count. */
/* Why the firmware should move a block's data (its reactions, media.h's
 * thresholds in media_params): none, read disturb, a read that needed too
 * many ladder steps, data older than the refresh age. */
typedef enum media_reason { MEDIA_FINE, MEDIA_DISTURBED, MEDIA_ERRORS, MEDIA_STALE, MEDIA_REASONS } media_reason;

typedef struct media_block {
    uint32_t reads;        /* array reads since its erase */
    uint32_t erases_seen;  /* its erase count when this state was last reset */
    sim_time_t written_at; /* its first program since the erase */
    double aged_hours;     /* retention before written_at's clock (aging), at the reference temperature */
    uint8_t unwritten;     /* erased, not programmed since */
    uint8_t flagged;       /* the firmware was told to move it (once per erase) */
} media_block;

typedef struct media {
    const media_params *mp;
    media_block *blocks; /* NULL when the model is off */
    double run_acceleration; /* retention hours per hour at the drive's ambient temperature */
} media;

/* What a read costs beyond its first sensing and decode. */
typedef struct media_outcome {
    uint8_t retries; /* ladder steps read again, hard-decoded */
    uint8_t soft;    /* 1: a soft-decision read after the ladder */
    uint8_t failed;  /* 1: uncorrectable even then */
} media_outcome;

int media_init(media *m, const ssd_params *p, double ambient_c);
void media_free(media *m);
static inline int media_on(const media *m) { return m->blocks != NULL; }

/* Retention hours at the reference temperature per hour at `celsius`. */
double media_acceleration(const media_params *mp, double celsius);
/* The model's raw bit error rate (clamped to 0.5). */
double media_rber(const media_params *mp, double pe_cycles, double retention_hours, double reads, double page_factor);
/* The probability that every codeword of a read of `codewords` decodes at
 * error rate `rber` with `limit` correctable bits each. */
double media_decode_probability(const media_params *mp, double rber, uint32_t limit, uint32_t codewords);
/* The outcome of a read at error rate `rber`, from the uniform draw u. */
media_outcome media_decide(const media_params *mp, double rber, uint32_t codewords, double u);

/* The error rate a read of `block` at unit offset `off` sees now. */
double media_block_rber(const media *m, const ssd_params *p, uint32_t block, uint32_t off, uint32_t erases, int slc,
                        sim_time_t now);

/* Hours of retention at the reference temperature of the block's data. */
double media_retention_hours(const media *m, uint32_t block, sim_time_t now);
/* Whether a read that took `steps` (ladder steps, the soft read one more)
 * finds the block due for reclaim or refresh; MEDIA_FINE if it is, but
 * the firmware was told already. */
media_reason media_reaction(const media *m, uint32_t block, uint32_t steps, sim_time_t now);
static inline void media_flag(media *m, uint32_t block) { m->blocks[block].flagged = 1; }

static inline void media_count_read(media *m, uint32_t block, uint32_t sensings)
{
    if (m->blocks) m->blocks[block].reads += sensings;
}
/* The block was erased; its first program after that starts retention. */
void media_erased(media *m, uint32_t block);
void media_programmed(media *m, uint32_t block, sim_time_t now);
/* After the fast path (which erases and writes without the flash layer):
 * blocks erased since they were last seen start afresh, written `now`. */
void media_sync(media *m, uint32_t block, uint32_t erases, int holds_data, sim_time_t now);
/* Aging: the block has been erased `cycles` times more (its state stays). */
static inline void media_add_cycles(media *m, uint32_t block, uint32_t cycles)
{
    if (m->blocks) m->blocks[block].erases_seen += cycles;
}
/* Aging: the block's data has been kept `hours` at `celsius` more. */
void media_age(media *m, uint32_t block, double hours, double celsius);

#endif
