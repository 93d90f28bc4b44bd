/* Keys that describe a drive: its identity, its NAND part, its controller
 * and its host link. They are what drive, part and controller files in
 * models/ set; the SSD model reads them. */
#include "config.h"

const cfg_key drive_config_keys[] = {
    {"drive.name", CFG_STRING, NULL, "unnamed", NULL, NULL, NULL, "Name of the drive model, shown in results."},
    {"drive.description", CFG_STRING, NULL, "", NULL, NULL, NULL, "One line on what the drive models and its sources."},
    {"drive.user_capacity", CFG_SIZE, "GB", "240GB", "1MiB", "1PB", NULL,
     "Capacity the host sees (retail capacities are decimal: 240GB)."},

    {"nand.name", CFG_STRING, NULL, "unnamed", NULL, NULL, NULL, "Name of the NAND part."},
    {"nand.bits_per_cell", CFG_UINT, NULL, "3", "1", "4", NULL, "Bits per cell: 1 SLC, 2 MLC, 3 TLC, 4 QLC."},
    {"nand.page_size", CFG_SIZE, "KiB", "16KiB", "512B", "64KiB", NULL, "User bytes per page."},
    {"nand.spare_size", CFG_SIZE, "B", "2KiB", "0B", "16KiB", NULL, "Spare (out-of-band) bytes per page, moved over the bus with the page."},
    {"nand.pages_per_block", CFG_UINT, NULL, "768", "1", "65536", NULL, "Pages per erase block (all page types)."},
    {"nand.blocks_per_plane", CFG_UINT, NULL, "1400", "1", "1048576", NULL, "Erase blocks per plane, spares included."},
    {"nand.planes_per_die", CFG_UINT, NULL, "2", "1", "16", NULL, "Planes per die."},
    {"nand.t_read", CFG_TIME, "us", "60us", "1us", "10ms", NULL, "Array read time of a page (tR), native mode."},
    {"nand.t_prog", CFG_TIME, "us", "2ms", "10us", "100ms", NULL, "Program time of one program operation (tPROG), native mode."},
    {"nand.t_erase", CFG_TIME, "ms", "5ms", "100us", "1s", NULL, "Block erase time (tBERS)."},

    {"controller.name", CFG_STRING, NULL, "unnamed", NULL, NULL, NULL, "Name of the controller."},
    {"controller.channels", CFG_UINT, NULL, "4", "1", "64", NULL, "NAND channels."},
    {"controller.dies_per_channel", CFG_UINT, NULL, "4", "1", "128", NULL, "NAND dies on each channel."},
    {"controller.bus_rate", CFG_TRANSFER_RATE, "MT/s", "533MT/s", "1MT/s", "10GT/s", NULL, "NAND bus transfer rate per channel."},
    {"controller.bus_width", CFG_UINT, NULL, "8", "8", "16", NULL, "NAND bus width in bits."},
    {"controller.core_clock", CFG_FREQUENCY, "MHz", "200MHz", "1MHz", "10GHz", NULL, "Clock of the firmware cores."},

    {"host.interface", CFG_ENUM, NULL, "sata", NULL, NULL, "sata|nvme", "Host interface protocol."},
    {"host.link_rate", CFG_BIT_RATE, "Gb/s", "6Gb/s", "1Mb/s", "1Tb/s", NULL, "Raw line rate of the host link, per lane."},
    {"host.max_bandwidth", CFG_BYTE_RATE, "MB/s", "0B/s", NULL, NULL, NULL,
     "Cap on host data throughput after protocol overhead; 0 derives it from the link."},
    {NULL, 0, NULL, NULL, NULL, NULL, NULL, NULL},
};
