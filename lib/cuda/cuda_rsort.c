/* cuda_rsort.c — the CUDA table's sort of records and argsort
 * (sort_records, core/backend.h): upload, the kernels of
 * kernels/sort_records.cu, download.
 *
 * The whole array goes to the first GPU at once, as a sort of elements
 * does (cuda_sort.c): the records, a buffer as large for the result (the
 * direct and pairs variants' other buffer), and two 8-byte words and
 * two 4-byte indices a record in the scratch; SC_ERR_NOMEM, before anything is handed on, sends the sort to
 * the CPU (ops.c).  The result comes back a piece at a time into one host
 * buffer, each piece handed to `ready` as it lands, as the CPU's gather
 * hands on its pieces; with no `ready` it lands in the caller's array.
 */
#include <stdlib.h>
#include "cuda/cuda_internal.h"

/* Bytes of the host buffer that pieces of the result pass through. */
#define PIECE_BYTES ((size_t)16 << 20)

_Static_assert((int)SCG_GATHER_ITEMS == (int)SC_GATHER_ITEMS &&
               (int)SCG_GATHER_KEYPOS == (int)SC_GATHER_KEYPOS &&
               (int)SCG_GATHER_POSITIONS == (int)SC_GATHER_POSITIONS,
               "the kernels' gathers are elem_order.h's");

/* The order's bit range and direction (sc_elem_order_make's). */
static void order_bits(const sc_elem_order *o, unsigned *lo, unsigned *hi,
                       int *descending)
{
    uint64_t mask = o->key_size == 8 ? o->o64.mask : o->o32.mask;
    *lo = o->key_size == 8 ? o->o64.shift : o->o32.shift;
    *hi = *lo + (unsigned)__builtin_popcountll(mask);
    *descending = o->key_size == 8 ? o->o64.flip != 0 : o->o32.flip != 0;
}

/* The result, n items of `size` bytes at d_res, to ready piece by piece
 * (through buf), or to the array arg. */
static sc_status hand_on(sc_ctx *ctx, sc_phase_times *times,
                         const unsigned char *d_res, uint64_t n, size_t size,
                         unsigned char *buf, sc_ready_fn ready, void *arg)
{
    if (!ready)
        return sc_cuda_download(ctx, times, arg, d_res, n * size);
    uint64_t piece = PIECE_BYTES / size ? PIECE_BYTES / size : 1;
    sc_status st = SC_OK;
    for (uint64_t at = 0; st == SC_OK && at < n; at += piece) {
        uint64_t len = n - at < piece ? n - at : piece;
        st = sc_cuda_download(ctx, times, buf, d_res + at * size, len * size);
        if (st == SC_OK) st = ready(arg, buf, len);
    }
    return st;
}

sc_status sc_cuda_sort_records(sc_ctx *ctx, sc_phase_times *times,
                               const void *in, uint64_t n,
                               const sc_elem_order *o, int keypos,
                               uint64_t base, sc_ready_fn ready, void *arg)
{
    struct sc_cuda *c = ctx->cuda;
    size_t size = sc_gather_bytes(o, keypos), in_bytes = n * o->size;
    if (n == 0) return SC_OK;
    size_t out_bytes = n * size > in_bytes ? n * size : in_bytes;
    unsigned char *buf = NULL;
    if (ready) {
        size_t piece = PIECE_BYTES / size ? PIECE_BYTES / size : 1;
        buf = malloc((n < piece ? n : piece) * size);
        if (!buf) return sc_fail(ctx, SC_ERR_NOMEM, "out of memory");
    }
    sc_status st;
    if ((st = sc_cuda_bind(ctx)) ||
        (st = sc_cuda_ensure(ctx, c, BUF_IN, in_bytes)) ||
        (st = sc_cuda_ensure(ctx, c, BUF_OUT, out_bytes)) ||
        (st = sc_cuda_ensure(ctx, c, BUF_SCRATCH,
                             scg_sort_records_scratch(n))) ||
        (st = sc_cuda_upload(ctx, times, c->buf[BUF_IN], in, in_bytes))) {
        free(buf);
        return st;
    }
    unsigned lo, hi;
    int descending, in_input = 0;
    order_bits(o, &lo, &hi, &descending);
    double t0 = sc_now();
    int err = scg_sort_records(c->buf[BUF_IN], n, o->size, o->key_off,
                               (uint32_t)o->type, o->swap, lo, hi, descending,
                               keypos, base, c->buf[BUF_OUT], &in_input,
                               c->buf[BUF_SCRATCH], SCG_RSORT_AUTO, c->stream);
    if (err) {
        free(buf);
        return sc_cuda_fail(ctx, (cudaError_t)err, "sort");
    }
    sc_phase_add(times, SC_PH_MOVE, sc_now() - t0);
    st = hand_on(ctx, times, c->buf[in_input ? BUF_IN : BUF_OUT], n, size,
                 buf, ready, arg);
    free(buf);
    return st;
}
