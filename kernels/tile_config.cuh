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
 * look-back's first round before the tile's ranks.  Measured on an H200
 * (2026-11-24, 2^28, bench_compact, two or three rounds by turns, ms at
 * 10 / 50 / 90 % kept; CUB select 0.49 / 0.60 / 0.75, partition 0.82-0.83),
 * with the ranks by one warp scan and the partial tile inlined:
 * compaction on 384 x 3 blocks an SM 0.396-0.404 / 0.466-0.472 /
 * 0.563-0.576, on 512 x 2 0.408-0.413 / 0.481-0.487 / 0.581-0.585, 320 x 3
 * 0.446-0.450 / 0.512-0.517 / 0.594-0.600, 256 x 4 0.431-0.432 / 0.493-0.494
 * / 0.580-0.581, 480 x 2 with a look-back warp beside 0.420-0.424 /
 * 0.520-0.526 / 0.622-0.627; EARLY 0.397-0.416 / 0.466-0.486 / 0.561-0.573
 * (no gain).  Split on 512 x 2 with EARLY 0.616-0.620 / 0.623-0.625 /
 * 0.615-0.624, without 0.632-0.641 / 0.632-0.645 / 0.631-0.641, 384 x 3
 * 0.625-0.632 / 0.621-0.635 / 0.617-0.630, 480 x 2 with a look-back warp
 * (as before) 0.697-0.705 / 0.696-0.711 / 0.693-0.706.  On an H100 the
 * shapes tie (compaction 512 x 2 0.439 / 0.578-0.589 / 0.734-0.739 ms
 * against 384 x 3's 0.430-0.436 / 0.571-0.574 / 0.723-0.730; bench/
 * RESULTS.md, session 15).  Registers: 384 x 3
 * allows 56 a thread, 512 x 2 64; the shared memory is two ring slots and
 * a stage of one tile each. */
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
 * P_SLOTS of them, P_MINB blocks an SM.  Measured on an H100 (2026-11-23,
 * 2^28, exclusive sum; CUB 0.885 ms): 480 x 4 with 3 slots 0.795 ms; with
 * 2 slots 0.878, 4 slots (one block an SM) 0.886; 992 x 4 with 3 slots
 * 0.823, 992 x 2 with 4 slots 0.872.  Otherwise (64-bit sums, or arrays
 * off the 16-byte grid) one tile per block, THREADS x VECS uint4, the
 * wide one WIDE_THREADS x WIDE_VECS: 1024 x 8 0.834-0.842 ms, 512 x 16
 * 0.846, 512 x 8 0.851 (on an H200: 512 x 8 0.692, 256 x 4 0.79). */
struct scan {
    enum { P_THREADS = 480, P_VECS = 4, P_SLOTS = 3, P_MINB = 2,
           THREADS = 1024, VECS = 8, WIDE_THREADS = 512, WIDE_VECS = 8 };
};

/* Radix sort passes: THREADS threads x ITEMS keys a tile, ranked by
 * shared-memory match words (sort_rank.cuh), full tiles run by a body
 * with no bound checks, MINB blocks an SM asked of the register
 * allocator.  Measured (2026-11-24, 2^28 random keys, 4 passes, medians
 * of 20, two rounds each; bench_scan_sort -DSCG_TUNE) on an H100, CUB
 * 5.53-5.55 ms: 256 x 32 at 3 blocks an SM (80 registers, 156 bytes
 * spilled) 5.95 ms; 256 x 30 6.02 (at 2 blocks, no spills: 6.73); 288 x
 * 28 6.03; 256 x 36 6.08-6.10; 256 x 34 6.10-6.12; 256 x 28 6.12; 320 x
 * 24 6.11; 320 x 22 6.25; 256 x 26 6.29; 256 x 24 6.52 (one body for all
 * tiles 7.33); 256 x 32 at 2 blocks 6.57-6.58; 256 x 20 6.64-6.66; 256 x
 * 31 at 2 blocks 6.67; 384 x 16 6.68-6.71; 256 x 22 6.78; 384 x 20
 * 6.83-6.85.  Occupancy (three blocks, 24 warps an SM) counts for more
 * than the spills.  On an H200 (CUB 5.42-5.44): 256 x 24 6.29, 256 x 20
 * 6.33, 384 x 16 6.50, 384 x 20 6.74.  Output indices in 32 bits where n
 * allows lost on the H200 (384 x 16: 6.65 ms against 6.50).  Earlier:
 * ranked by a ballot per digit bit, 256 x 24 7.36 ms, 384 x 16 7.42; with
 * the digits counted first by shared atomics 8.19; with the look-back on
 * a warp of its own beside the ranking (lookback_warp.cuh's pattern, one
 * tile a block) 11.4-13.8 ms at every tile tried; on an H200
 * (2026-11-22) match_any 11.6-13 ms at any tile. */
/* Each digit's look-back reads LOOKBACK_BATCH predecessors at once
 * (tile_status.cuh).  On an H200 (2026-11-24, 2^28 keys, three rounds by
 * turns, CUB 5.42-5.45 ms): one at a time 5.46-5.47 ms (the walk passed
 * 14.6-14.8 aggregates a digit a tile, and found a predecessor with
 * nothing published 0.01 times), 2 at once 5.334-5.338, 3 5.293-5.308, 4
 * 5.285-5.301, 5 5.287-5.297, 6 5.309-5.319, 8 5.414-5.425, 16
 * 5.770-5.776. */
struct sort {
    enum { THREADS = 256, ITEMS = 32, MINB = 3, LOOKBACK_BATCH = 4 };
};
/* The same with 36 keys a thread, for sorts of 2^MIN_KEYS_LG keys or more
 * where the memory's peak rate (clock x bus width, from the driver)
 * reaches MIN_GBS.  On an H200 (HBM3e; 2026-11-24, bench_scan_sort
 * -DSCG_TUNE, the look-back reading 4 and 5 at once, a run each, ms, CUB in
 * brackets): 256 x 36 against 256 x 32 at 2^28 keys 5.288-5.302 /
 * 5.340-5.344 (5.44), 2^27 2.699-2.704 / 2.709-2.714 (2.74-2.76), 2^26
 * 1.400-1.401 / 1.392-1.394 (1.42), 2^25 0.748-0.753 / 0.735-0.739
 * (0.75), 2^24 0.412-0.414 / 0.405-0.407 (0.42-0.43), 2^20 0.075-0.079 /
 * 0.071-0.077 (0.085-0.088).  On an H100 (HBM3, 3.35 TB/s) 256 x 32 was
 * the faster at every size from 2^20 to 2^28 (session 13, one predecessor
 * at a time in the look-back: 5.93 against 6.08 ms at 2^28). */
struct sort_fast_memory {
    enum { THREADS = 256, ITEMS = 36, MINB = 3, MIN_GBS = 3800, MIN_KEYS_LG = 27 };
};

} /* namespace cfg */
} /* namespace te */

#endif /* SC_TILE_CONFIG_CUH */
