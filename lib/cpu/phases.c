/* phases.c — runs count / prefix / move over the thread pool. */
#include <stdlib.h>
#include "cpu/phases.h"

/* Below this many elements per thread, waking threads costs more than the
 * work; one sequence then reads the input once. */
#define SC_MIN_SEQ_ELEMS ((uint64_t)1 << 16)

unsigned sc_phases_seqs(const sc_ctx *ctx, uint64_t n)
{
    if (sc_pool_is_inline()) return 1;
    uint64_t seqs = n / SC_MIN_SEQ_ELEMS;
    unsigned threads = ctx->phase_threads ? ctx->phase_threads : ctx->threads;
    if (seqs > threads) seqs = threads;
    if (seqs > SC_MAX_SEQS) seqs = SC_MAX_SEQS;
    return seqs ? (unsigned)seqs : 1u;
}

typedef struct run_state {
    const sc_phases *ph;
    unsigned seqs;
    uint64_t *res;
} run_state;

static uint64_t seq_begin(const run_state *rs, unsigned i)
{
    /* Even split, 64-bit safe; sequences start on 16-element boundaries so
     * that each thread writes whole cache lines of a shared output. */
    uint64_t b = (uint64_t)((unsigned __int128)rs->ph->n * i / rs->seqs);
    return i == 0 ? 0 : (i == rs->seqs ? rs->ph->n : b & ~(uint64_t)15);
}

static void count_task(void *arg, unsigned i)
{
    run_state *rs = arg;
    rs->ph->count(rs->ph->op, seq_begin(rs, i), seq_begin(rs, i + 1),
                  rs->res + (size_t)i * rs->ph->width);
}

static void move_task(void *arg, unsigned i)
{
    run_state *rs = arg;
    rs->ph->move(rs->ph->op, i, seq_begin(rs, i), seq_begin(rs, i + 1),
                 rs->res + (size_t)i * rs->ph->width);
}

sc_status sc_phases_run(sc_ctx *ctx, sc_phase_times *times,
                        const sc_phases *ph)
{
    run_state rs = { ph, sc_phases_seqs(ctx, ph->n), NULL };
    rs.res = calloc((size_t)rs.seqs * ph->width, sizeof *rs.res);
    if (!rs.res) return sc_fail(ctx, SC_ERR_NOMEM, "out of memory");
    double t0 = sc_now();
    if (!(rs.seqs == 1 && ph->skip_count_when_single))
        sc_pool_run(ctx->pool, rs.seqs, count_task, &rs);
    double t1 = sc_now();
    int skip = ph->prefix(ph->op, rs.res, rs.seqs);
    double t2 = sc_now();
    if (!skip) sc_pool_run(ctx->pool, rs.seqs, move_task, &rs);
    double t3 = sc_now();
    sc_phase_add(times, SC_PH_COUNT, t1 - t0);
    sc_phase_add(times, SC_PH_PREFIX, t2 - t1);
    sc_phase_add(times, SC_PH_MOVE, t3 - t2);
    free(rs.res);
    return SC_OK;
}
