/* tile_config.cuh — the tiling of every kernel, in one place.
 *
 * Tuned for sm_90 (H100, H200); other architectures use the same shapes
 * until someone measures them.  Each figure is chosen by measurement with
 * the bench programs (bench/RESULTS.md says which run).
 */
#ifndef SC_TILE_CONFIG_CUH
#define SC_TILE_CONFIG_CUH

namespace te {
namespace cfg {

/* Compaction and split.  THREE_PHASE: the default runs the plain three
 * phases (measured fastest, select_ops.cuh).  Else the fused single pass:
 * persistent blocks of BLOCK threads, tiles of BLOCK x VEC uint4, STAGES
 * tiles in flight per block, MINB blocks per SM asked of the register
 * allocator. */
struct select {
    enum { THREE_PHASE = 1, BLOCK = 256, VEC = 4, STAGES = 3, MINB = 3 };
};

/* The plain three phases (count, prefix, move). */
struct three_phase {
    enum { BLOCK = 256, VEC = 4, MINB = 4 };
};

} /* namespace cfg */
} /* namespace te */

#endif /* SC_TILE_CONFIG_CUH */
