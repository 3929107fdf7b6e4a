/* select_records.cuh — the dispatch of compaction's and split's entries
 * on elements and on records (select_ops.cuh's rec_t): which record
 * layouts the kernels take, and the kernels of each.
 *
 * A record of 8 or 16 bytes is one or two a 16-byte vector, so the agent
 * reads records as it reads elements; its key, of the predicate's type,
 * is found by word (key_place), so one kernel serves every key offset of
 * a width.  The input must be aligned to the record's size (else
 * cudaErrorMisalignedAddress, as 8-byte elements off their grid): the
 * virtual index space that makes every load a whole aligned vector
 * (tile_io.cuh) needs the 16-byte grid to fall between records.
 */
#ifndef SC_SELECT_RECORDS_CUH
#define SC_SELECT_RECORDS_CUH

#include <stdint.h>
#include <cuda_runtime.h>
#include "sc_kernels.h"
#include "cuda_check.cuh"
#include "select_ops.cuh"

namespace te {

/* 0 when the kernels take records of rec_size bytes at d_in with a key of
 * `type` at byte key_off; else the error to return. */
static inline int records_refused(const void *d_in, uint32_t rec_size, uint32_t key_off,
                                  uint32_t type)
{
    uint32_t ks = sc_type_is_64bit(type) ? 8 : 4;
    if ((rec_size != 8 && rec_size != 16) || key_off % ks || key_off + ks > rec_size)
        return (int)cudaErrorInvalidValue;
    if ((uintptr_t)d_in % rec_size)
        return (int)cudaErrorMisalignedAddress;
    return 0;
}

template <class CALL, typename KEY, int RW>
static int run_records(const CALL &c, const input &in, uint32_t key_off, const sc_pred &pred,
                       uint64_t n)
{
    key_place<rec_t<KEY, RW> > at = { key_off / 4 };
    return c.template run<rec_t<KEY, RW> >(in, at, pred, n);
}

/* c.run<ELEM>(input, key place, pred, n) on the layout records_refused
 * took: three kernels, as an 8-byte record keyed by all of it is an
 * 8-byte element. */
template <class CALL>
static int on_records(const CALL &c, const void *d_in, uint64_t n, uint32_t rec_size,
                      uint32_t key_off, const sc_pred &pred)
{
    input in = make_input_of(d_in, n, rec_size);
    bool wide = sc_type_is_64bit(pred.type) != 0;
    if (rec_size == 8 && wide)          /* the key is the record: an element */
        return c.run(in, key_place<uint64_t>(), pred, n);
    if (rec_size == 8)
        return run_records<CALL, uint32_t, 2>(c, in, key_off, pred, n);
    return wide ? run_records<CALL, uint64_t, 4>(c, in, key_off, pred, n)
                : run_records<CALL, uint32_t, 4>(c, in, key_off, pred, n);
}

/* What the entries of compaction and split share once their arguments
 * are checked: n elements of pred's type (rec_size 0) or records at
 * d_in, refused where the kernels do not take their layout or
 * alignment; none (n 0) is a count of 0; else c.run on them. */
template <class CALL>
static int select_on(const CALL &c, const void *d_in, uint64_t n, uint32_t rec_size,
                     uint32_t key_off, const sc_pred &pred, uint64_t *d_count, cudaStream_t s)
{
    bool wide = sc_type_is_64bit(pred.type) != 0;
    int bad = rec_size ? records_refused(d_in, rec_size, key_off, pred.type)
            : (uintptr_t)d_in % (wide ? 8 : 4) ? (int)cudaErrorMisalignedAddress : 0;
    if (bad)
        return bad;
    if (n == 0) {
        SCG_CHECK(cudaMemsetAsync(d_count, 0, sizeof(uint64_t), s));
        return 0;
    }
    if (rec_size)
        return on_records(c, d_in, n, rec_size, key_off, pred);
    return wide ? c.run(make_input((const uint64_t *)d_in, n), key_place<uint64_t>(), pred, n)
                : c.run(make_input((const uint32_t *)d_in, n), key_place<uint32_t>(), pred, n);
}

} /* namespace te */

#endif /* SC_SELECT_RECORDS_CUH */
