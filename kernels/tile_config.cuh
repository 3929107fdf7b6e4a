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

/* Compaction and split, the fused single pass (select_ops.cuh has the
 * figures): persistent blocks of BLOCK compute threads and one look-back
 * warp, tiles of BLOCK x VEC uint4, STAGES tiles in flight per block, MINB
 * blocks per SM asked of the register allocator.  480 + 32 threads keep
 * two blocks an SM within 64 registers a thread and the shared memory
 * (two 30 KiB ring slots and a 30 KiB stage each). */
struct select {
    enum { BLOCK = 480, VEC = 4, STAGES = 2, MINB = 2 };
};

/* The plain three phases (count, prefix, move). */
struct three_phase {
    enum { BLOCK = 256, VEC = 4, MINB = 4 };
};

/* Prefix scan: one tile per block, THREADS x VECS uint4; the wide scan
 * (64-bit outputs) holds twice the registers per value.  Measured on an
 * H100 (2026-11-23, 2^28, exclusive sum; CUB 0.885 ms): 1024 x 8 0.834 ms,
 * 512 x 16 0.846, 512 x 8 0.851; persistent with 2-3 tiles in flight
 * (cp.async) 1.00-1.04.  On an H200: 512 x 8 0.692 ms, 256 x 4 0.79. */
struct scan {
    enum { THREADS = 1024, VECS = 8, WIDE_THREADS = 512, WIDE_VECS = 8 };
};

/* Radix sort passes: THREADS threads x ITEMS keys a tile, ranked with
 * ballots (sort.cu lists the alternatives measured). */
struct sort {
    enum { THREADS = 256, ITEMS = 24 };
};

} /* namespace cfg */
} /* namespace te */

#endif /* SC_TILE_CONFIG_CUH */
