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

/* Compaction and split, the fused single pass (agent_select.cuh):
 * persistent blocks of BLOCK threads, tiles of BLOCK x VEC uint4, STAGES
 * tiles in flight per block, MINB blocks per SM asked of the register
 * allocator; each tile written out one tile later, at the offset warp 0
 * found for it meanwhile, the block waiting.  EARLY: warp 0 reads its
 * look-back's first round before the tile's ranks.  Compaction on
 * 384 x 3 blocks an SM and split on 512 x 2 with EARLY: the fastest
 * shapes measured on an H200 (512 x 2, 320 x 3, 256 x 4 and 480 x 2 with
 * a look-back warp beside lost; EARLY gains compaction nothing); on an
 * H100 the shapes tie.  bench/RESULTS.md, "Figures behind the kernels'
 * comments", has the figures.  Registers: 384 x 3 allows 56 a thread,
 * 512 x 2 64; the shared memory is two ring slots and a stage of one tile
 * each. */
struct compact {
    enum { BLOCK = 384, VEC = 4, STAGES = 2, MINB = 3, EARLY = 0 };
};
struct split {
    enum { BLOCK = 512, VEC = 4, STAGES = 2, MINB = 2, EARLY = 1 };
};

/* The plain three phases (count, prefix, move). */
struct three_phase {
    enum { BLOCK = 256, VEC = 4, MINB = 4 };
};

/* Prefix scan.  32-bit accumulators over 16-byte aligned arrays: the
 * persistent pass of agent_scan.cuh, P_THREADS compute threads and a
 * look-back warp a block, P_THREADS x P_VECS uint4 tiles, a ring of
 * P_SLOTS of them, P_MINB blocks an SM: 480 x 4 with 3 slots the fastest
 * measured (2 or 4 slots, 992 x 4 and 992 x 2 lost).  Otherwise (64-bit
 * sums, or arrays off the 16-byte grid) one tile per block, THREADS x
 * VECS uint4, the wide one WIDE_THREADS x WIDE_VECS: 1024 x 8 the fastest
 * measured, 512 x 16 and 512 x 8 close behind.  The figures are in
 * bench/RESULTS.md, "Figures behind the kernels' comments".  8-byte
 * elements (two a uint4): one tile per block, E64_THREADS x E64_VECS,
 * the fastest measured (512 x 16 close; 256 x 8, 512 x 8, 1024 x 4 and
 * the persistent pass at three shapes slower: bench/RESULTS.md,
 * "Session 26"). */
struct scan {
    enum { P_THREADS = 480, P_VECS = 4, P_SLOTS = 3, P_MINB = 2,
           THREADS = 1024, VECS = 8, WIDE_THREADS = 512, WIDE_VECS = 8,
           E64_THREADS = 1024, E64_VECS = 8 };
};

/* Radix sort passes: THREADS threads x ITEMS keys a tile, ranked by
 * shared-memory match words (sort_rank.cuh), full tiles run by a body
 * with no bound checks, MINB blocks an SM asked of the register
 * allocator.  256 x 32 at 3 blocks an SM is the fastest tile measured
 * (H100), though it spills (156 bytes, 80 registers): occupancy (three
 * blocks, 24 warps an SM) counts for more than the spills.  Output
 * indices in 32 bits where n allows lost.  Each digit's look-back reads
 * LOOKBACK_BATCH predecessors at once (tile_status.cuh): the walk passes
 * some 15 aggregates a digit a tile; 4 at once is the fastest measured
 * (3 and 5 tie with it, 1 and 8 or more lose).  bench/RESULTS.md,
 * "Figures behind the kernels' comments", has the tiles, the rankings
 * and the batches measured. */
struct sort {
    enum { THREADS = 256, ITEMS = 32, MINB = 3, LOOKBACK_BATCH = 4 };
};
/* The same with 36 keys a thread, for sorts of 2^MIN_KEYS_LG keys or more
 * where the memory's peak rate (clock x bus width, from the driver)
 * reaches MIN_GBS: on an H200 (HBM3e) 256 x 36 is the faster from 2^27
 * keys and 256 x 32 below; on an H100 (HBM3, 3.35 TB/s, under MIN_GBS)
 * 256 x 32 is the faster at every size measured, 2^20 to 2^28.  The
 * figures are in bench/RESULTS.md, "Figures behind the kernels'
 * comments". */
struct sort_fast_memory {
    enum { THREADS = 256, ITEMS = 36, MINB = 3, MIN_GBS = 3800, MIN_KEYS_LG = 27 };
};

/* The passes of 8-byte keys: 256 x 20, 40 KiB of keys a tile, the
 * fastest measured on an H100 at 2^24 and 2^27 keys of u64, i64 and f64
 * (256 x 12 and 16, 384 x 12 and 512 x 8 lost; bench/RESULTS.md,
 * "Sort kernels against CUB"). */
struct sort64 {
    enum { THREADS = 256, ITEMS = 20, MINB = 3 };
};

/* The passes of keys with values (sort_pass.cuh's pairs), each the
 * fastest of sort.cu's SCG_TUNE table on an H200 (bench_sort_records):
 * u64 -> u64 (16-byte records) 512 x 8 at two blocks an SM (256 x 20 at
 * two and 256 x 16 tie with it; the tile that kept three blocks an SM
 * lost); u64 -> u32 (a key's rank and a record index) 384 x 12; u32 ->
 * u32 384 x 16 (256 x 24 ties).  bench/RESULTS.md, "Session 27", has the
 * tiles measured. */
struct sort_pairs64 {
    enum { THREADS = 512, ITEMS = 8, MINB = 2 };
};
struct sort_pairs64_32 {
    enum { THREADS = 384, ITEMS = 12, MINB = 2 };
};
struct sort_pairs32 {
    enum { THREADS = 384, ITEMS = 16, MINB = 3 };
};

} /* namespace cfg */
} /* namespace te */

#endif /* SC_TILE_CONFIG_CUH */
