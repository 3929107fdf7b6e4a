/* bench_timing.cuh — the kernel benchmarks' one timer: the median of
 * `runs` timed calls on the default stream, by CUDA events, after two
 * untimed ones; `prep` runs untimed before each (restoring a sort's
 * input). */
#ifndef SC_BENCH_TIMING_CUH
#define SC_BENCH_TIMING_CUH

#include <cuda_runtime.h>
#include <algorithm>
#include <functional>
#include <vector>
#include "cuda_check.cuh"

static float median_ms(int runs, const std::function<void()> &op,
                       const std::function<void()> &prep = [] {})
{
    cudaEvent_t a, b;
    SCG_CHECK_DIE(cudaEventCreate(&a));
    SCG_CHECK_DIE(cudaEventCreate(&b));
    std::vector<float> t;
    for (int r = -2; r < runs; r++) {
        prep();
        SCG_CHECK_DIE(cudaEventRecord(a));
        op();
        SCG_CHECK_DIE(cudaEventRecord(b));
        SCG_CHECK_DIE(cudaEventSynchronize(b));
        float ms;
        SCG_CHECK_DIE(cudaEventElapsedTime(&ms, a, b));
        if (r >= 0) t.push_back(ms);
    }
    SCG_CHECK_DIE(cudaEventDestroy(a));
    SCG_CHECK_DIE(cudaEventDestroy(b));
    std::sort(t.begin(), t.end());
    return runs % 2 ? t[runs / 2] : (t[runs / 2 - 1] + t[runs / 2]) / 2;
}

#endif /* SC_BENCH_TIMING_CUH */
