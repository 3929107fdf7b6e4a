/* cuda_check.cuh — error checking for the kernel side of libsc.
 *
 * Every scg_* entry point returns a cudaError_t as int, so instead of
 * aborting we propagate the first failure to the caller: the host library
 * decides what to print.  Launch errors (bad config, too many resources)
 * only surface through cudaGetLastError, which is why every <<<>>> is
 * followed by SCG_CHECK_LAUNCH().
 *
 *   SCG_CHECK(cudaMemsetAsync(...));       // returns the error from the
 *   kern<<<g, b, 0, s>>>(...);              // enclosing function (int or
 *   SCG_CHECK_LAUNCH();                     // cudaError_t return type)
 *
 * SCG_CHECK_DIE is for test and bench programs, where printing and exiting
 * is the right reaction.
 */
#ifndef SC_CUDA_CHECK_CUH
#define SC_CUDA_CHECK_CUH

#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define SCG_CHECK(call)                                                     \
    do {                                                                    \
        cudaError_t scg_err_ = (call);                                      \
        if (scg_err_ != cudaSuccess)                                        \
            return (int)scg_err_;                                           \
    } while (0)

/* After a launch: configuration errors are reported here (asynchronous
 * faults show up later, at the next synchronising call). */
#define SCG_CHECK_LAUNCH() SCG_CHECK(cudaGetLastError())

#define SCG_CHECK_DIE(call)                                                 \
    do {                                                                    \
        cudaError_t scg_err_ = (call);                                      \
        if (scg_err_ != cudaSuccess) {                                      \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,   \
                    cudaGetErrorString(scg_err_));                          \
            exit(2);                                                        \
        }                                                                   \
    } while (0)

#endif /* SC_CUDA_CHECK_CUH */
