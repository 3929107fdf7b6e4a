/* cpu_backend.c — the CPU's table: the three-phase instances on the
 * context's thread pool, working on host memory. */
#include "cpu/cpu.h"

const sc_backend sc_cpu_backend = {
    .name = "cpu",
    .emits_idx32 = 1,
    .counts_alone = 1,
    .compact = sc_cpu_compact,
    .split = sc_cpu_split,
    .compact_records = sc_cpu_compact_records,
    .split_records = sc_cpu_split_records,
    .scan = sc_cpu_scan,
    .sort = sc_cpu_sort,
    .sort_ready = sc_cpu_sort_ready,
    .sort_records = sc_cpu_sort_records,
    .gen = sc_cpu_gen,
    .stat = sc_cpu_stat,
};
