/* The media's bit errors (the NAND part's) and the controller's ECC: the
 * parameters of flash/media.h, off unless controller.ecc_model = rber (and
 * then every part of the model must be given); the firmware's reactions
 * and retirement; power loss's (powerloss.h). */
#include "params.h"

#include <stdbool.h>
#include <stdio.h>

const cfg_key media_config_keys[] = {
    {"controller.ecc_model", CFG_ENUM, NULL, "probability", NULL, NULL, "probability|rber",
     "How reads fail ECC: probability (controller.read_retry, rising with wear), or rber (the part's raw bit "
     "error rate from wear, retention and read disturb, a hard decoder, a read-retry ladder, a soft decoder; "
     "docs/reliability.md)."},
    {"controller.ecc_codeword", CFG_SIZE, "B", "2KiB", "256B", "16KiB", NULL,
     "User data of one ECC codeword; its parity takes the page's share of the spare area (nand.spare_size)."},
    {"controller.ecc_hard_limit", CFG_UINT, NULL, "0", "0", "100000", NULL,
     "Bit errors per codeword the hard-decision decoder corrects (rber model)."},
    {"controller.ecc_soft_limit", CFG_UINT, NULL, "0", "0", "100000", NULL,
     "Bit errors per codeword the soft-decision decoder corrects, after the read-retry ladder (rber model); "
     "at least the hard limit; equal to it: no soft decoding (BCH)."},
    {"controller.read_retry_steps", CFG_UINT, NULL, "0", "0", "30", NULL,
     "Steps of the read-retry ladder: each reads the page again with shifted references (a full array read, "
     "its transfer and a hard decode) (rber model)."},
    {"controller.read_retry_gain", CFG_FRACTION, NULL, "0.8", "0.01", "1", NULL,
     "Factor each ladder step applies to the error rate the decoder sees (rber model)."},
    {"controller.soft_reads", CFG_UINT, NULL, "4", "1", "64", NULL,
     "Sensings of a soft-decision read (each an array read, each moving the read's data once more)."},
    {"controller.soft_decode", CFG_TIME, "us", "20us", "0ns", "10ms", NULL, "Latency of one soft-decision decode."},
    {"nand.rber_fresh", CFG_FLOAT, NULL, "0", "0", "0.5", NULL,
     "Raw bit error rate of a fresh page (e in e + a N^k + b N^m t^n + g N^p r^q; docs/reliability.md)."},
    {"nand.rber_wear", CFG_FLOAT, NULL, "0", "0", "1", NULL, "a: the wear term's coefficient (N: P/E cycles)."},
    {"nand.rber_wear_exponent", CFG_FLOAT, NULL, "2", "0", "10", NULL, "k: the wear term's exponent."},
    {"nand.rber_retention", CFG_FLOAT, NULL, "0", "0", "1", NULL,
     "b: the retention term's coefficient (t: hours since the block was programmed, at nand.rber_temperature)."},
    {"nand.rber_retention_wear_exponent", CFG_FLOAT, NULL, "0.5", "0", "10", NULL, "m: the retention term's P/E exponent."},
    {"nand.rber_retention_exponent", CFG_FLOAT, NULL, "0.5", "0.01", "10", NULL, "n: the retention term's time exponent."},
    {"nand.rber_disturb", CFG_FLOAT, NULL, "0", "0", "1", NULL,
     "g: the read-disturb term's coefficient (r: array reads of the block since its erase)."},
    {"nand.rber_disturb_wear_exponent", CFG_FLOAT, NULL, "0.5", "0", "10", NULL, "p: the read-disturb term's P/E exponent."},
    {"nand.rber_disturb_exponent", CFG_FLOAT, NULL, "1", "0.01", "10", NULL, "q: the read-disturb term's read exponent."},
    {"nand.rber_lsb", CFG_FLOAT, NULL, "1", "0", "100", NULL, "Factor of the error rate of LSB pages."},
    {"nand.rber_csb", CFG_FLOAT, NULL, "1", "0", "100", NULL, "Factor of the error rate of CSB pages."},
    {"nand.rber_msb", CFG_FLOAT, NULL, "1", "0", "100", NULL, "Factor of the error rate of MSB pages."},
    {"nand.rber_tsb", CFG_FLOAT, NULL, "1", "0", "100", NULL, "Factor of the error rate of TSB pages (QLC)."},
    {"nand.rber_slc", CFG_FLOAT, NULL, "0.1", "0", "100", NULL, "Factor of the error rate of blocks in SLC mode."},
    {"nand.rber_temperature", CFG_FLOAT, NULL, "25", "-40", "150", NULL,
     "Temperature (degrees C) at which the retention term's hours are counted; other temperatures "
     "accelerate it by the Arrhenius factor."},
    {"nand.retention_activation_energy", CFG_FLOAT, NULL, "1.1", "0.1", "3", NULL,
     "Activation energy of retention loss (eV): 1.1 in JEDEC JESD218's acceleration."},
    {"ftl.read_reclaim_reads", CFG_UINT, NULL, "0", "0", "4000000000", NULL,
     "Read reclaim: a block read this many times since its erase is moved (its data rewritten, it erased); "
     "0: off (rber model)."},
    {"ftl.read_reclaim_steps", CFG_UINT, NULL, "0", "0", "31", NULL,
     "Read reclaim: a block one of whose reads needed this many read-retry steps (the soft read counts one "
     "more) is moved; 0: off (rber model)."},
    {"ftl.refresh_age", CFG_TIME, "h", "0ns", "0ns", "100y", NULL,
     "Refresh: a block whose data a read finds older than this (at nand.rber_temperature) is moved; 0: off "
     "(rber model)."},
    {"nand.endurance", CFG_FLOAT, NULL, "0", "0", "100", NULL,
     "Mean P/E cycles at which a block fails its erase, as a share of nand.pe_cycles (makers rate below "
     "it); the block is retired. 0: blocks never fail."},
    {"nand.endurance_spread", CFG_FRACTION, NULL, "10%", "0", "1", NULL,
     "Spread of the blocks' endurance: its coefficient of variation (normal, drawn once per block)."},
    {"ftl.retire_at", CFG_FLOAT, NULL, "0", "0", "100", NULL,
     "The firmware retires a block at its first erase past this share of nand.pe_cycles; 0: only blocks "
     "that fail. Retired blocks leave the spare area (docs/reliability.md)."},
    {"ftl.retire_spare", CFG_FRACTION, NULL, "50%", "0", "1", NULL,
     "Share of each die's spare blocks (beyond what its user data, GC's threshold and burst, open blocks and a "
     "static SLC cache need) retirement may take; past it worn blocks stay in service (end of life)."},
    {NULL, 0, NULL, NULL, NULL, NULL, NULL, NULL},
};

static int fail(char *err, size_t errlen, const char *what) { return snprintf(err, errlen, "%s", what), -1; }

static void load_rates(media_params *m, const cfg *c)
{
    m->fresh = cfg_float(c, "nand.rber_fresh");
    m->wear = cfg_float(c, "nand.rber_wear");
    m->wear_exponent = cfg_float(c, "nand.rber_wear_exponent");
    m->retention = cfg_float(c, "nand.rber_retention");
    m->retention_wear_exponent = cfg_float(c, "nand.rber_retention_wear_exponent");
    m->retention_exponent = cfg_float(c, "nand.rber_retention_exponent");
    m->disturb = cfg_float(c, "nand.rber_disturb");
    m->disturb_wear_exponent = cfg_float(c, "nand.rber_disturb_wear_exponent");
    m->disturb_exponent = cfg_float(c, "nand.rber_disturb_exponent");
    const char *pages[MAX_BITS_PER_CELL] = {"nand.rber_lsb", "nand.rber_csb", "nand.rber_msb", "nand.rber_tsb"};
    for (int i = 0; i < MAX_BITS_PER_CELL; i++) m->page_factor[i] = cfg_float(c, pages[i]);
    m->slc_factor = cfg_float(c, "nand.rber_slc");
    m->reference_c = cfg_float(c, "nand.rber_temperature");
    m->activation_ev = cfg_float(c, "nand.retention_activation_energy");
}

static void load_ecc(media_params *m, const ssd_params *p, const cfg *c)
{
    m->codeword_bytes = (uint32_t)cfg_uint(c, "controller.ecc_codeword");
    /* The parity lives in the spare area, in the same share on every codeword. */
    m->codeword_bits = (uint32_t)(8.0 * m->codeword_bytes * (1.0 + (double)p->spare_size / p->page_size) + 0.5);
    m->hard_limit = (uint32_t)cfg_uint(c, "controller.ecc_hard_limit");
    m->soft_limit = (uint32_t)cfg_uint(c, "controller.ecc_soft_limit");
    m->retry_steps = (uint32_t)cfg_uint(c, "controller.read_retry_steps");
    m->retry_gain = cfg_float(c, "controller.read_retry_gain");
    m->soft_reads = (uint32_t)cfg_uint(c, "controller.soft_reads");
    m->soft_decode = cfg_uint(c, "controller.soft_decode");
}

/* Reclaim and refresh read the media's state: they need the rber model. */
static int load_reactions(media_params *m, const cfg *c, char *err, size_t errlen)
{
    m->reclaim_reads = (uint32_t)cfg_uint(c, "ftl.read_reclaim_reads");
    m->reclaim_steps = (uint32_t)cfg_uint(c, "ftl.read_reclaim_steps");
    m->refresh_hours = (double)cfg_uint(c, "ftl.refresh_age") / 3.6e12;
    m->endurance = cfg_float(c, "nand.endurance");
    m->endurance_spread = cfg_float(c, "nand.endurance_spread");
    m->retire_at = cfg_float(c, "ftl.retire_at");
    m->retire_spare = cfg_float(c, "ftl.retire_spare");
    if (media_reacts(m) && m->model != ECC_RBER)
        return fail(err, errlen, "keys 'ftl.read_reclaim_reads', 'ftl.read_reclaim_steps' and 'ftl.refresh_age' react to "
                                 "the media's errors, and 'controller.ecc_model' is probability; expected ecc_model=rber, "
                                 "or them 0");
    return 0;
}

int params_load_media(ssd_params *p, const cfg *c, char *err, size_t errlen)
{
    media_params *m = &p->media;
    m->model = cfg_choice(c, "controller.ecc_model");
    if (load_reactions(m, c, err, errlen)) return -1;
    if (m->model != ECC_RBER) return 0;
    load_rates(m, c);
    load_ecc(m, p, c);
    if (m->fresh <= 0)
        return fail(err, errlen, "key 'controller.ecc_model' is rber but 'nand.rber_fresh' is 0; expected the NAND part's "
                                 "error model (nand.rber_*, docs/reliability.md)");
    if (m->hard_limit == 0)
        return fail(err, errlen, "key 'controller.ecc_model' is rber but 'controller.ecc_hard_limit' is 0; expected the bit "
                                 "errors per codeword the hard decoder corrects");
    if (m->soft_limit < m->hard_limit)
        return snprintf(err, errlen, "key 'controller.ecc_soft_limit' (%u) is below 'controller.ecc_hard_limit' (%u); "
                        "expected at least the hard limit", m->soft_limit, m->hard_limit), -1;
    if (p->read_retry > 0 || p->read_retry_wear > 0)
        return fail(err, errlen, "key 'controller.read_retry' (or read_retry_wear) is set but 'controller.ecc_model' is rber, "
                                 "whose retries follow from the error rate; expected 0, or ecc_model=probability");
    if (p->unit % m->codeword_bytes)
        return snprintf(err, errlen, "key 'controller.ecc_codeword' (%u B) does not divide the mapping unit (%u B); expected "
                        "a divisor of ftl.mapping_unit", m->codeword_bytes, p->unit), -1;
    return 0;
}

/* Power loss (powerloss.h): protection, hold-up energy, how the mapping is rebuilt. */
const cfg_key powerloss_config_keys[] = {
    {"drive.power_loss_protection", CFG_ENUM, NULL, "none", NULL, NULL, "none|capacitors",
     "On power loss: none (acknowledged data still in the buffer is lost), or capacitors (the firmware programs it "
     "first, on their energy)."},
    {"drive.holdup_energy", CFG_FLOAT, NULL, "0", "0", "1000", NULL,
     "Energy the capacitors hold for that flush (J): the flush stops when it is spent, and what is not programmed "
     "by then is lost; 0: enough for any flush."},
    {"ftl.rebuild", CFG_ENUM, NULL, "checkpoint", NULL, NULL, "scan|checkpoint",
     "How the mapping is rebuilt after power returns: scan (read the spare area of every programmed page), or "
     "checkpoint (read the mapping table's copy on the flash, then scan the blocks still open)."},
    {NULL, 0, NULL, NULL, NULL, NULL, NULL, NULL},
};

int params_load_powerloss(ssd_params *p, const cfg *c, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    p->plp = cfg_choice(c, "drive.power_loss_protection") == 1;
    p->holdup_j = cfg_float(c, "drive.holdup_energy");
    p->rebuild_checkpoint = cfg_choice(c, "ftl.rebuild") == 1;
    return 0;
}
