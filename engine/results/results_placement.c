/* The placement designs' state at the end of a run, for the result file:
 * /fdp (flexible data placement's log) and /zns (a zoned namespace's
 * resets, refusals by status and every zone's state and write pointer).
 * Written only for drives that have them. */
#include "results_placement.h"

#include <stdlib.h>

#include "results_types.h"
#include "zoneio.h"

static herr_t write_fdp(hid_t file, const ssd *d)
{
    ssd_fdp_log log;
    ssd_fdp_log_get(d, &log);
    hsize_t handles[1] = {FDP_MAX_HANDLES};
    hid_t per_handle = H5Tarray_create2(H5T_NATIVE_UINT64, 1, handles);
    hid_t t = H5Tcreate(H5T_COMPOUND, sizeof log);
#define F(field, type) H5Tinsert(t, #field, HOFFSET(ssd_fdp_log, field), type)
    F(host_bytes, H5T_NATIVE_UINT64);
    F(media_bytes, H5T_NATIVE_UINT64);
    F(erased_bytes, H5T_NATIVE_UINT64);
    F(handle_host_bytes, per_handle);
    F(handle_moved_bytes, per_handle);
    F(media_reallocated, H5T_NATIVE_UINT64);
    F(ru_not_fully_written, H5T_NATIVE_UINT64);
#undef F
    herr_t rc = results_write_table(file, "fdp", t, 1, &log,
                                    "bytes, since the drive was built (its FDP log); handle arrays indexed by placement handle");
    H5Tclose(t);
    H5Tclose(per_handle);
    return rc;
}

/* One row: what the zoned namespace did over the run. */
typedef struct zns_row {
    uint64_t resets, erases, padded_units, auto_closed;
    uint64_t refused[ZONE_STATUSES]; /* by status: [0] unused, then as zone_status_names */
} zns_row;

/* One row per zone: its state (zone_state_names' order) and write pointer. */
typedef struct zone_row {
    uint32_t state;
    uint32_t pad;
    uint64_t write_pointer_units;
} zone_row;

static herr_t write_zones(hid_t file, const zoneio *z)
{
    hsize_t statuses[1] = {ZONE_STATUSES};
    hid_t by_status = H5Tarray_create2(H5T_NATIVE_UINT64, 1, statuses);
    zns_row row = {.resets = z->resets, .erases = z->erases, .padded_units = z->padded, .auto_closed = z->zs.auto_closed};
    for (int s = 0; s < ZONE_STATUSES; s++) row.refused[s] = z->zs.failed[s];
    hid_t t = H5Tcreate(H5T_COMPOUND, sizeof row);
    H5Tinsert(t, "resets", HOFFSET(zns_row, resets), H5T_NATIVE_UINT64);
    H5Tinsert(t, "erases", HOFFSET(zns_row, erases), H5T_NATIVE_UINT64);
    H5Tinsert(t, "padded_units", HOFFSET(zns_row, padded_units), H5T_NATIVE_UINT64);
    H5Tinsert(t, "auto_closed", HOFFSET(zns_row, auto_closed), H5T_NATIVE_UINT64);
    H5Tinsert(t, "refused", HOFFSET(zns_row, refused), by_status);
    herr_t rc = results_write_table(file, "zns", t, 1, &row,
                                    "since the drive was built; refused: commands by status, in the order of docs/zns.md");
    H5Tclose(t);
    H5Tclose(by_status);
    zone_row *zones = calloc(z->zs.count, sizeof *zones);
    if (!zones) return -1;
    for (uint32_t i = 0; i < z->zs.count; i++) zones[i] = (zone_row){.state = z->zs.z[i].state, .write_pointer_units = z->zs.z[i].wp};
    hid_t zt = H5Tcreate(H5T_COMPOUND, sizeof *zones);
    H5Tinsert(zt, "state", HOFFSET(zone_row, state), H5T_NATIVE_UINT32);
    H5Tinsert(zt, "write_pointer_units", HOFFSET(zone_row, write_pointer_units), H5T_NATIVE_UINT64);
    if (rc >= 0)
        rc = results_write_table(file, "zones", zt, z->zs.count, zones,
                                 "one row per zone: state 0 empty, 1 implicitly opened, 2 explicitly opened, 3 closed, 4 full, "
                                 "5 read-only, 6 offline; write pointer in mapping units from the zone's start");
    H5Tclose(zt);
    free(zones);
    return rc;
}

herr_t results_write_placement(hid_t file, const ssd *d)
{
    herr_t rc = 0;
    if (ssd_params_of(d)->fdp_handles) rc = write_fdp(file, d);
    const zoneio *z = ssd_zoned(d);
    if (rc >= 0 && z) rc = write_zones(file, z);
    return rc;
}
