/* select_scratch.cuh — the scratch of compaction and split, which serves
 * either variant (select_ops.cuh): [0, 256) spare, then one status word
 * per tile (the fused pass's look-back, zeroed by one memset), then the
 * three phases' sequence counts and offsets.
 */
#ifndef SC_SELECT_SCRATCH_CUH
#define SC_SELECT_SCRATCH_CUH

#include <stddef.h>
#include <stdint.h>
#include "launch_util.cuh"

namespace te {

/* The three phases run at most MAX_SEQ sequences (three_phase.cuh). */
static const int MAX_SEQ = 4096;

/* min_tile: the smallest tile of any variant the caller may run. */
static inline size_t scratch_bytes(uint64_t n, uint64_t min_tile)
{
    uint64_t tiles = (n + 3 + min_tile - 1) / min_tile;   /* +3: misalignment */
    return 256 + round256(tiles * 8) + 2 * round256(MAX_SEQ * 8);
}

struct scratch_map {
    uint64_t *status, *seq_count, *seq_off;
    size_t zero_bytes;   /* what the fused pass needs zeroed */
};

static inline scratch_map map_scratch(void *scratch, uint64_t tiles)
{
    char *p = (char *)scratch;
    scratch_map m;
    m.status = (uint64_t *)(p + 256);
    m.zero_bytes = 256 + tiles * 8;
    m.seq_count = (uint64_t *)(p + 256 + round256(tiles * 8));
    m.seq_off = (uint64_t *)((char *)m.seq_count + round256(MAX_SEQ * 8));
    return m;
}

} /* namespace te */

#endif /* SC_SELECT_SCRATCH_CUH */
