/* gpu_tap.cuh — what the GPU kernel tests share: TAP lines, a
 * deterministic random stream, device buffers that grow.  Each test is one
 * .cu file (static definitions here are its own). */
#ifndef SC_GPU_TAP_CUH
#define SC_GPU_TAP_CUH

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <algorithm>
#include <cuda_runtime.h>
#include "core/sc_hd.h"
#include "cuda_check.cuh"

static int n_tests, n_failed;

static void tap(bool ok, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("%s %d - ", ok ? "ok" : "not ok", ++n_tests);
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    if (!ok) n_failed++;
    fflush(stdout);
}

/* (a test may use none of it) */
[[maybe_unused]] static uint64_t rng_state = 0x1234567887654321ull;
[[maybe_unused]] static uint64_t rnd64()
{
    return sc_mix64(rng_state += 0x9e3779b97f4a7c15ull);
}

/* Device buffers that grow as needed and are freed at exit. */
struct DevBuf {
    void *p = nullptr;
    size_t size = 0;
    void *get(size_t bytes)
    {
        if (bytes > size) {
            if (p) SCG_CHECK_DIE(cudaFree(p));
            size = std::max(bytes, (size_t)256);
            SCG_CHECK_DIE(cudaMalloc(&p, size));
        }
        return p;
    }
    ~DevBuf() { if (p) cudaFree(p); }
};

#endif /* SC_GPU_TAP_CUH */
