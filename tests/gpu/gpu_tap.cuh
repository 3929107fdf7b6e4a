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

/* Whether a CUDA GPU is here; if not, the line that skips the whole
 * test (exit 0 then). */
static bool tap_have_gpu()
{
    int ndev = 0;
    if (cudaGetDeviceCount(&ndev) == cudaSuccess && ndev > 0)
        return true;
    printf("1..0 # SKIP no CUDA GPU\n");
    return false;
}

/* The plan, a count of the failures, and the exit status. */
static int tap_done()
{
    printf("1..%d\n", n_tests);
    if (n_failed)
        printf("# %d of %d failed\n", n_failed, n_tests);
    return n_failed ? 1 : 0;
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
