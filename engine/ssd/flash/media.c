/* The media's bit errors and the ECC's outcome (media.h). */
#include "media.h"

#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_cdf.h>

static const double boltzmann_ev_per_k = 8.617333262e-5;
static const double ns_per_hour = 3.6e12;

int media_init(media *m, const ssd_params *p, double ambient_c)
{
    *m = (media){.mp = &p->media};
    if (p->media.model != ECC_RBER) return 0;
    m->run_acceleration = media_acceleration(&p->media, ambient_c);
    size_t nblocks = (size_t)p->dies * p->blocks_per_die;
    m->blocks = malloc(nblocks * sizeof *m->blocks);
    if (!m->blocks) return -1;
    for (size_t b = 0; b < nblocks; b++) m->blocks[b] = (media_block){.unwritten = 1}; /* a new drive holds nothing */
    return 0;
}

void media_free(media *m)
{
    free(m->blocks);
    m->blocks = NULL;
}

/* Arrhenius: exp(Ea/k (1/T_ref - 1/T)). */
double media_acceleration(const media_params *mp, double celsius)
{
    double t_ref = mp->reference_c + 273.15, t = celsius + 273.15;
    return exp(mp->activation_ev / boltzmann_ev_per_k * (1.0 / t_ref - 1.0 / t));
}

double media_rber(const media_params *mp, double pe, double hours, double reads, double page_factor)
{
    double r = mp->fresh + mp->wear * pow(pe, mp->wear_exponent);
    if (hours > 0) r += mp->retention * pow(pe, mp->retention_wear_exponent) * pow(hours, mp->retention_exponent);
    if (reads > 0) r += mp->disturb * pow(pe, mp->disturb_wear_exponent) * pow(reads, mp->disturb_exponent);
    r *= page_factor;
    return r < 0.5 ? r : 0.5;
}

double media_decode_probability(const media_params *mp, double rber, uint32_t limit, uint32_t codewords)
{
    double mean = rber * mp->codeword_bits;
    /* More than ten standard deviations (and ten bits) of margin: a
     * codeword's failure is below 1e-20, taken as none. */
    if ((double)limit >= mean + 10.0 * sqrt(mean) + 10.0) return 1.0;
    double one = gsl_cdf_binomial_P(limit, rber, mp->codeword_bits);
    return codewords == 1 ? one : pow(one, codewords);
}

media_outcome media_decide(const media_params *mp, double rber, uint32_t codewords, double u)
{
    double r = rber;
    for (uint32_t step = 0; step <= mp->retry_steps; step++) {
        if (u <= media_decode_probability(mp, r, mp->hard_limit, codewords)) return (media_outcome){.retries = (uint8_t)step};
        if (step < mp->retry_steps) r *= mp->retry_gain;
    }
    /* The soft read senses around the ladder's last references; a decoder
     * without soft decisions (soft limit = hard limit) has none to try. */
    if (mp->soft_limit <= mp->hard_limit) return (media_outcome){.retries = (uint8_t)mp->retry_steps, .failed = 1};
    media_outcome o = {.retries = (uint8_t)mp->retry_steps, .soft = 1};
    o.failed = u > media_decode_probability(mp, r, mp->soft_limit, codewords);
    return o;
}

double media_retention_hours(const media *m, uint32_t block, sim_time_t now)
{
    const media_block *b = &m->blocks[block];
    double hours = b->aged_hours;
    if (now > b->written_at) hours += (double)(now - b->written_at) / ns_per_hour * m->run_acceleration;
    return hours;
}

media_reason media_reaction(const media *m, uint32_t block, uint32_t steps, sim_time_t now)
{
    const media_params *mp = m->mp;
    const media_block *b = &m->blocks[block];
    if (b->flagged) return MEDIA_FINE;
    if (mp->reclaim_steps && steps >= mp->reclaim_steps) return MEDIA_ERRORS;
    if (mp->reclaim_reads && b->reads >= mp->reclaim_reads) return MEDIA_DISTURBED;
    if (mp->refresh_hours > 0 && media_retention_hours(m, block, now) >= mp->refresh_hours) return MEDIA_STALE;
    return MEDIA_FINE;
}

double media_block_rber(const media *m, const ssd_params *p, uint32_t block, uint32_t off, uint32_t erases, int slc,
                        sim_time_t now)
{
    const media_params *mp = m->mp;
    const media_block *b = &m->blocks[block];
    double hours = media_retention_hours(m, block, now);
    double factor = slc ? mp->slc_factor : mp->page_factor[params_page_type(p, off)];
    return media_rber(mp, erases, hours, b->reads, factor);
}

void media_erased(media *m, uint32_t block)
{
    if (!m->blocks) return;
    media_block *b = &m->blocks[block];
    *b = (media_block){.erases_seen = b->erases_seen + 1, .unwritten = 1};
}

void media_programmed(media *m, uint32_t block, sim_time_t now)
{
    if (!m->blocks || !m->blocks[block].unwritten) return;
    m->blocks[block].unwritten = 0;
    m->blocks[block].written_at = now;
}

void media_sync(media *m, uint32_t block, uint32_t erases, int holds_data, sim_time_t now)
{
    if (!m->blocks) return;
    media_block *b = &m->blocks[block];
    if (b->erases_seen != erases) *b = (media_block){.erases_seen = erases, .unwritten = 1};
    if (holds_data) media_programmed(m, block, now);
}

void media_age(media *m, uint32_t block, double hours, double celsius)
{
    if (m->blocks && !m->blocks[block].unwritten) m->blocks[block].aged_hours += hours * media_acceleration(m->mp, celsius);
}
