/* libsc-stream.cu -- libsc's stream-ordered calls between your own kernels.
 *
 * Build:  nvcc -O3 -o libsc-stream libsc-stream.cu \
 *             $(pkg-config --cflags --libs sc | sed 's/-Wl,/-Xlinker /g')
 *         (nvcc passes options to the linker by -Xlinker; it refuses -Wl,)
 * Run:    ./libsc-stream      (on a machine with a CUDA GPU)
 *
 * On one CUDA stream, with nothing waited for until the end:
 *   1. our kernel fills an array on the device;
 *   2. sc_dev_compact_async keeps the elements >= 500, the count going
 *      to device memory;
 *   3. our kernel reads that count on the device and zeroes the output
 *      past it, so that the next calls can take the whole array without
 *      the count coming back to the host;
 *   4. sc_dev_scan_async: the exclusive 64-bit prefix sum of the kept
 *      elements (their offsets), the total to device memory;
 *   5. sc_dev_sort_async sorts them, descending (the zeros go last).
 * One cudaStreamSynchronize, then the results are checked against plain
 * loops on the host.  The scratch the calls need is ours: one buffer,
 * as large as the largest sc_dev_temp_bytes, serves all three because
 * they run one after another on the stream.
 *
 * Exit status: 0 when every result matches, 1 otherwise.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

#include <sc.h>

#define N (1u << 20)
#define THRESHOLD 500u

/* Stops the program at the first CUDA or libsc failure. */
#define CUDA_CHECK(call)                                                    \
    do {                                                                    \
        cudaError_t e_ = (call);                                            \
        if (e_ != cudaSuccess) {                                            \
            fprintf(stderr, "libsc-stream: %s: %s\n", #call,                \
                    cudaGetErrorString(e_));                                \
            exit(1);                                                        \
        }                                                                   \
    } while (0)
#define SC_CHECK(ctx, call)                                                 \
    do {                                                                    \
        sc_status s_ = (call);                                              \
        if (s_ != SC_OK) {                                                  \
            fprintf(stderr, "libsc-stream: %s: %s: %s\n", #call,            \
                    sc_strerror(s_), (ctx) ? sc_ctx_message(ctx) : "");     \
            exit(1);                                                        \
        }                                                                   \
    } while (0)

/* Element i: a hash of i in [0, 1000), so that about half pass. */
static __host__ __device__ uint32_t element(uint32_t i)
{
    uint32_t x = i * 2654435761u;
    x ^= x >> 15;
    x *= 0x2c1b3c6du;
    x ^= x >> 12;
    return x % 1000u;
}

static __global__ void fill(uint32_t *x, uint32_t n)
{
    for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += gridDim.x * blockDim.x)
        x[i] = element(i);
}

/* Zeroes x[*count, n): the count is read where libsc wrote it. */
static __global__ void zero_tail(uint32_t *x, uint32_t n, const uint64_t *count)
{
    for (uint64_t i = *count + blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += gridDim.x * blockDim.x)
        x[i] = 0;
}

static size_t max_size(size_t a, size_t b) { return a > b ? a : b; }

static int cmp_desc(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x < y) - (x > y);
}

/* The host's version of the whole: kept[0, k) sorted descending, the
 * offsets of the unsorted kept elements, their total.  1 on a mismatch. */
static int check(const uint32_t *sorted, const uint64_t *offsets,
                 uint64_t count, uint64_t total)
{
    uint32_t *kept = (uint32_t *)malloc(N * sizeof *kept);
    uint64_t k = 0, sum = 0;
    int bad = 0;
    if (!kept) {
        fprintf(stderr, "libsc-stream: out of memory\n");
        return 1;
    }
    for (uint32_t i = 0; i < N; i++) {
        uint32_t x = element(i);
        if (x < THRESHOLD)
            continue;
        if (offsets[k] != sum)
            bad = 1;
        sum += x;
        kept[k++] = x;
    }
    qsort(kept, k, sizeof *kept, cmp_desc);
    for (uint64_t j = 0; j < N && !bad; j++)
        bad = sorted[j] != (j < k ? kept[j] : 0u) || (j >= k && offsets[j] != sum);
    if (count != k || total != sum)
        bad = 1;
    printf("kept %" PRIu64 " of %u (host: %" PRIu64 "), total %" PRIu64
           " (host: %" PRIu64 ")\n", count, N, k, total, sum);
    free(kept);
    return bad;
}

int main(void)
{
    sc_ctx *ctx = NULL;
    sc_status st = sc_ctx_new(&ctx, "cuda", 0);
    if (st != SC_OK) {
        fprintf(stderr, "libsc-stream: no GPU context: %s: %s\n",
                sc_strerror(st), ctx ? sc_ctx_message(ctx) : "");
        if (ctx)
            sc_ctx_free(ctx);
        return 1;
    }
    printf("device: %s\n", sc_ctx_device_name(ctx));

    /* The data, the outputs and two words for the count and the total. */
    uint32_t *d_data, *d_kept;
    uint64_t *d_offsets, *d_words;
    CUDA_CHECK(cudaMalloc(&d_data, N * sizeof *d_data));
    CUDA_CHECK(cudaMalloc(&d_kept, N * sizeof *d_kept));
    CUDA_CHECK(cudaMalloc(&d_offsets, N * sizeof *d_offsets));
    CUDA_CHECK(cudaMalloc(&d_words, 2 * sizeof *d_words));
    uint64_t *d_count = &d_words[0], *d_total = &d_words[1];

    /* Our scratch for libsc: enough for the hungriest of the three. */
    size_t temp_bytes = max_size(sc_dev_temp_bytes(SC_DEV_COMPACT, N),
                                 max_size(sc_dev_temp_bytes(SC_DEV_SCAN, N),
                                          sc_dev_temp_bytes(SC_DEV_SORT, N)));
    void *d_temp;
    CUDA_CHECK(cudaMalloc(&d_temp, temp_bytes));

    cudaStream_t stream;
    CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    sc_dev_queue q = { stream, d_temp, temp_bytes };

    sc_pred keep;
    sc_pred_all(&keep);
    SC_CHECK(ctx, sc_pred_add_cmp(&keep, SC_GE, THRESHOLD));

    /* Everything queued; each call returns at once. */
    fill<<<256, 256, 0, stream>>>(d_data, N);
    CUDA_CHECK(cudaGetLastError());
    SC_CHECK(ctx, sc_dev_compact_async(ctx, d_data, N, &keep, d_kept, d_count, &q));
    zero_tail<<<256, 256, 0, stream>>>(d_kept, N, d_count);
    CUDA_CHECK(cudaGetLastError());
    /* d_carry_in NULL: from the sum's identity, 0 */
    SC_CHECK(ctx, sc_dev_scan_async(ctx, d_kept, N, SC_OP_SUM, 0, 1, NULL,
                                    d_offsets, d_total, &q));
    SC_CHECK(ctx, sc_dev_sort_async(ctx, d_kept, N, 0, 32, 1, &q));

    /* The one wait.  A fault only the GPU could see would show here (or
     * through sc_dev_sync, which also says which of libsc's it was). */
    CUDA_CHECK(cudaStreamSynchronize(stream));

    uint64_t words[2];
    uint32_t *sorted = (uint32_t *)malloc(N * sizeof *sorted);
    uint64_t *offsets = (uint64_t *)malloc(N * sizeof *offsets);
    if (!sorted || !offsets) {
        fprintf(stderr, "libsc-stream: out of memory\n");
        return 1;
    }
    CUDA_CHECK(cudaMemcpy(words, d_words, sizeof words, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(sorted, d_kept, N * sizeof *sorted, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(offsets, d_offsets, N * sizeof *offsets,
                          cudaMemcpyDeviceToHost));
    printf("largest kept: %u %u %u, offsets of the first kept: %" PRIu64
           " %" PRIu64 " %" PRIu64 "\n", sorted[0], sorted[1], sorted[2],
           offsets[0], offsets[1], offsets[2]);
    int rc = check(sorted, offsets, words[0], words[1]);
    printf(rc ? "MISMATCH\n" : "all results match\n");

    free(sorted);
    free(offsets);
    CUDA_CHECK(cudaStreamDestroy(stream));
    CUDA_CHECK(cudaFree(d_temp));
    CUDA_CHECK(cudaFree(d_data));
    CUDA_CHECK(cudaFree(d_kept));
    CUDA_CHECK(cudaFree(d_offsets));
    CUDA_CHECK(cudaFree(d_words));
    sc_ctx_free(ctx);
    return rc;
}
