#include "results_types.h"

static hid_t string_type(size_t n)
{
    hid_t t = H5Tcopy(H5T_C_S1);
    H5Tset_size(t, n);
    H5Tset_strpad(t, H5T_STR_NULLTERM);
    return t;
}

hid_t results_summary_type(void)
{
    hid_t name = string_type(sizeof ((phase_summary *)0)->name), kind = string_type(sizeof ((phase_summary *)0)->kind);
    hsize_t seven[1] = {7};
    hid_t lat = H5Tarray_create2(H5T_NATIVE_DOUBLE, 1, seven);
    hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(phase_summary));
    H5Tinsert(t, "phase", HOFFSET(phase_summary, name), name);
    H5Tinsert(t, "kind", HOFFSET(phase_summary, kind), kind);
#define F(field, type) H5Tinsert(t, #field, HOFFSET(phase_summary, field), type)
    F(requests, H5T_NATIVE_UINT64);
    F(reads, H5T_NATIVE_UINT64);
    F(writes, H5T_NATIVE_UINT64);
    F(trims, H5T_NATIVE_UINT64);
    F(bytes_read, H5T_NATIVE_UINT64);
    F(bytes_written, H5T_NATIVE_UINT64);
    F(iops, H5T_NATIVE_DOUBLE);
    F(mib_per_s, H5T_NATIVE_DOUBLE);
    F(read_lat_us, lat);
    F(write_lat_us, lat);
    F(write_amplification, H5T_NATIVE_DOUBLE);
    F(wa_rmw, H5T_NATIVE_DOUBLE);
    F(wa_fold, H5T_NATIVE_DOUBLE);
    F(wa_gc, H5T_NATIVE_DOUBLE);
    F(wa_map, H5T_NATIVE_DOUBLE);
    F(wa_pad, H5T_NATIVE_DOUBLE);
    F(slc_share, H5T_NATIVE_DOUBLE);
    F(gc_units, H5T_NATIVE_UINT64);
    F(erases, H5T_NATIVE_UINT64);
    F(slc_bytes_written, H5T_NATIVE_UINT64);
    F(slc_bytes_read, H5T_NATIVE_UINT64);
    F(busy_s, H5T_NATIVE_DOUBLE);
    F(busy_mib_s, H5T_NATIVE_DOUBLE);
    F(access_time_us, H5T_NATIVE_DOUBLE);
    F(start_s, H5T_NATIVE_DOUBLE);
    F(sim_time_s, H5T_NATIVE_DOUBLE);
    F(wall_time_s, H5T_NATIVE_DOUBLE);
#undef F
    /* H5Tinsert copies member types, so these can go now */
    H5Tclose(lat);
    H5Tclose(name);
    H5Tclose(kind);
    return t;
}

/* Rows go to the file byte for byte: a padding byte would carry whatever
 * the stack held, and the same run would not give the same file. */
_Static_assert(sizeof(ssd_interval) == 17 * 8, "ssd_interval must have no padding");
_Static_assert(sizeof(phase_summary) == 64 + 16 + 8 * (6 + 2 + 14 + 1 + 6 + 4 + 3 + 3), "phase_summary must have no padding");

hid_t results_interval_type(void)
{
    hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(ssd_interval));
#define F(field, type) H5Tinsert(t, #field, HOFFSET(ssd_interval, field), type)
    F(start_s, H5T_NATIVE_DOUBLE);
    F(end_s, H5T_NATIVE_DOUBLE);
    F(iops, H5T_NATIVE_DOUBLE);
    F(mib_per_s, H5T_NATIVE_DOUBLE);
    F(read_mib_per_s, H5T_NATIVE_DOUBLE);
    F(write_mib_per_s, H5T_NATIVE_DOUBLE);
    F(mean_latency_us, H5T_NATIVE_DOUBLE);
    F(p99_latency_us, H5T_NATIVE_DOUBLE);
    F(read_mean_latency_us, H5T_NATIVE_DOUBLE);
    F(write_mean_latency_us, H5T_NATIVE_DOUBLE);
    F(host_gib_written, H5T_NATIVE_DOUBLE);
    F(flash_gib_written, H5T_NATIVE_DOUBLE);
    F(free_blocks, H5T_NATIVE_UINT64);
    F(slc_gib, H5T_NATIVE_DOUBLE);
    F(erases, H5T_NATIVE_UINT64);
    F(gc_units, H5T_NATIVE_UINT64);
    F(temperature_c, H5T_NATIVE_DOUBLE);
#undef F
    return t;
}

hid_t results_request_type(void)
{
    hid_t op = H5Tenum_create(H5T_NATIVE_UINT8);
    uint8_t v = 0;
    H5Tenum_insert(op, "read", &v);
    v = 1;
    H5Tenum_insert(op, "write", &v);
    v = 2;
    H5Tenum_insert(op, "trim", &v);
    hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(request_record));
#define F(field, type) H5Tinsert(t, #field, HOFFSET(request_record, field), type)
    F(id, H5T_NATIVE_UINT64);
    F(arrival_ns, H5T_NATIVE_UINT64);
    F(start_ns, H5T_NATIVE_UINT64);
    F(finish_ns, H5T_NATIVE_UINT64);
    F(op, op);
    F(lba, H5T_NATIVE_UINT64);
    F(bytes, H5T_NATIVE_UINT32);
    F(latency_ns, H5T_NATIVE_UINT64);
#undef F
    H5Tclose(op);
    return t;
}

hid_t results_die_type(void)
{
    hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(ssd_die_counts));
    H5Tinsert(t, "busy_ns", HOFFSET(ssd_die_counts, busy_ns), H5T_NATIVE_UINT64);
    H5Tinsert(t, "reads", HOFFSET(ssd_die_counts, reads), H5T_NATIVE_UINT64);
    H5Tinsert(t, "programs", HOFFSET(ssd_die_counts, programs), H5T_NATIVE_UINT64);
    H5Tinsert(t, "erases", HOFFSET(ssd_die_counts, erases), H5T_NATIVE_UINT64);
    return t;
}

hid_t results_parameter_type(bool with_phase)
{
    hid_t key = string_type(sizeof ((parameter_row *)0)->key), value = string_type(CFG_TEXT_MAX);
    hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(parameter_row));
    H5Tinsert(t, "key", HOFFSET(parameter_row, key), key);
    H5Tinsert(t, "value", HOFFSET(parameter_row, value), value);
    H5Tinsert(t, "number", HOFFSET(parameter_row, number), H5T_NATIVE_DOUBLE);
    if (with_phase) H5Tinsert(t, "phase", HOFFSET(parameter_row, phase), H5T_NATIVE_UINT32);
    H5Tclose(key);
    H5Tclose(value);
    return t;
}

hid_t results_score_type(void)
{
    hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(trace_score));
#define F(field, type) H5Tinsert(t, #field, HOFFSET(trace_score, field), type)
    F(phases, H5T_NATIVE_UINT32);
    F(requests, H5T_NATIVE_UINT64);
    F(bytes, H5T_NATIVE_UINT64);
    F(busy_s, H5T_NATIVE_DOUBLE);
    F(bandwidth_mib_s, H5T_NATIVE_DOUBLE);
    F(access_time_us, H5T_NATIVE_DOUBLE);
    F(score, H5T_NATIVE_DOUBLE);
#undef F
    return t;
}

_Static_assert(sizeof(tenant_row) == 64 + 4 + 4 + 8 * (5 + 3 + 2 * LAT_FIELDS + 3 + 1), "tenant_row must have no padding");

hid_t results_tenant_type(void)
{
    hid_t name = string_type(sizeof ((tenant_row *)0)->tenant);
    hsize_t seven[1] = {LAT_FIELDS};
    hid_t lat = H5Tarray_create2(H5T_NATIVE_DOUBLE, 1, seven);
    hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(tenant_row));
    H5Tinsert(t, "tenant", HOFFSET(tenant_row, tenant), name);
#define F(field, type) H5Tinsert(t, #field, HOFFSET(tenant_row, field), type)
    F(summary_row, H5T_NATIVE_UINT32);
    F(queue, H5T_NATIVE_INT32);
    F(reads, H5T_NATIVE_UINT64);
    F(writes, H5T_NATIVE_UINT64);
    F(trims, H5T_NATIVE_UINT64);
    F(bytes_read, H5T_NATIVE_UINT64);
    F(bytes_written, H5T_NATIVE_UINT64);
    F(seconds, H5T_NATIVE_DOUBLE);
    F(iops, H5T_NATIVE_DOUBLE);
    F(mib_per_s, H5T_NATIVE_DOUBLE);
    F(read_lat_us, lat);
    F(write_lat_us, lat);
    F(alone_mean_us, H5T_NATIVE_DOUBLE);
    F(slowdown, H5T_NATIVE_DOUBLE);
    F(fairness, H5T_NATIVE_DOUBLE);
    F(host_copies, H5T_NATIVE_UINT64);
#undef F
    H5Tclose(name);
    H5Tclose(lat);
    return t;
}
