/* cpu_ranges.c — sc-split --ranges on a chunk (of elements or of
 * records, cut by their key): a stable split into many parts as the
 * three phases.  Each sequence counts its elements per
 * part; the prefix gives each sequence its place in every part (parts
 * one after another, sequences in input order within a part); the move
 * writes each element there.  So every part keeps input order.  The
 * count and the move are cpu_ranges_impl.h's, once per element width. */
#include <string.h>
#include "cpu/cpu.h"
#include "cpu/phases.h"

typedef struct ranges_op {
    const void *in;
    void *out;
    /* The bounds' ranks, in the elements' width. */
    uint32_t bounds32[SC_MAX_PARTS];
    const uint64_t *bounds64;
    sc_key key;
    sc_key64 key64;
    unsigned nb;
    uint64_t *counts;
    /* Records: stride bytes each, the key at key_off, big-endian when
     * swap; stride 0: elements. */
    size_t stride, key_off;
    int swap;
} ranges_op;

/* Record `from` of the input, whole, to record `to` of the output. */
static inline void copy_record(const ranges_op *op, uint64_t to,
                               uint64_t from)
{
    memcpy((unsigned char *)op->out + to * op->stride,
           (const unsigned char *)op->in + from * op->stride, op->stride);
}

#define ELEM_T uint32_t
#define W(name) name##32
#define BOUNDS(op) ((op)->bounds32)
#define RANK(op, x) sc_key_rank((op)->key, (x))
#define BSWAP(x) __builtin_bswap32(x)
#include "cpu/cpu_ranges_impl.h"
#undef ELEM_T
#undef W
#undef BOUNDS
#undef RANK
#undef BSWAP

#define ELEM_T uint64_t
#define W(name) name##64
#define BOUNDS(op) ((op)->bounds64)
#define RANK(op, x) sc_key64_rank((op)->key64, (x))
#define BSWAP(x) __builtin_bswap64(x)
#include "cpu/cpu_ranges_impl.h"
#undef ELEM_T
#undef W
#undef BOUNDS
#undef RANK
#undef BSWAP

/* res[q * parts + p]: sequence q's count in part p, then its offset. */
static int ranges_prefix(void *arg, uint64_t *res, unsigned seqs)
{
    ranges_op *op = arg;
    unsigned parts = op->nb + 1;
    uint64_t at = 0;
    for (unsigned p = 0; p < parts; p++) {
        uint64_t start = at;
        for (unsigned q = 0; q < seqs; q++) {
            uint64_t c = res[(size_t)q * parts + p];
            res[(size_t)q * parts + p] = at;
            at += c;
        }
        op->counts[p] = at - start;
    }
    return 0;
}

sc_status sc_cpu_ranges(sc_ctx *ctx, sc_phase_times *times, const void *in,
                        uint64_t n, const uint64_t *bounds, sc_type type,
                        const sc_record *rec, int big_endian, unsigned nb,
                        void *out, uint64_t *counts)
{
    if (nb >= SC_MAX_PARTS)
        return sc_fail(ctx, SC_ERR_USAGE, "too many bounds");
    memset(counts, 0, (nb + 1) * sizeof *counts);
    if (n == 0) return SC_OK;
    ranges_op op = { .in = in, .out = out, .bounds64 = bounds,
                     .key = sc_key_of((uint32_t)type),
                     .key64 = sc_key64_of((uint32_t)type), .nb = nb,
                     .counts = counts };
    /* A record that is its key alone, in the host's order, is an
     * element. */
    if (rec && rec->size &&
        !(rec->size == sc_type_size(type) && !big_endian)) {
        op.stride = rec->size;
        op.key_off = rec->key_off;
        op.swap = big_endian != 0;
    }
    int wide = sc_type_is_64bit((uint32_t)type);
    for (unsigned k = 0; !wide && k < nb; k++)
        op.bounds32[k] = (uint32_t)bounds[k];
    sc_phases ph = { n, nb + 1, 0, wide ? ranges_count64 : ranges_count32,
                     ranges_prefix, wide ? ranges_move64 : ranges_move32,
                     &op };
    return sc_phases_run(ctx, times, &ph);
}
