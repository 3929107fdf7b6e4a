/* cpu_gen.c — sc-gen's elements or records on the thread pool: each is
 * a pure function of its position, so the parts are independent. */
#include "cpu/cpu.h"

typedef struct gen_task {
    const sc_gen_plan *plan;
    uint64_t first, n;
    void *out;              /* elements of the plan's type's width, or
                             * records */
    unsigned parts;
    const sc_record *rec;   /* NULL: elements */
    int big_endian;         /* records: their words written big-endian */
} gen_task;

/* Four bytes of x, in the byte order asked for. */
static void put32(unsigned char *at, uint32_t x, int big_endian)
{
    if (big_endian) x = __builtin_bswap32(x);
    memcpy(at, &x, 4);
}

/* Record `pos`: the key, the plan's element, at its offset; every other
 * 4-byte word, in order, the position's low word, then its high word,
 * then the low again..., so that a sort's or a split's stability can be
 * checked from any record. */
static void gen_record(const gen_task *t, uint64_t pos, unsigned char *out)
{
    const sc_record *r = t->rec;
    unsigned ksize = sc_type_size(r->key_type), k = 0;
    uint32_t words[2] = { (uint32_t)pos, (uint32_t)(pos >> 32) };
    for (unsigned at = 0; at < r->size; at += 4)
        if (at < r->key_off || at >= r->key_off + ksize)
            put32(out + at, words[k++ & 1], t->big_endian);
    uint64_t key = sc_gen_plan_element(t->plan, pos);
    if (ksize == 8) {
        if (t->big_endian) key = __builtin_bswap64(key);
        memcpy(out + r->key_off, &key, 8);
    } else {
        put32(out + r->key_off, (uint32_t)key, t->big_endian);
    }
}

static void gen_part(void *arg, unsigned i)
{
    gen_task *t = arg;
    uint64_t b = t->n * i / t->parts, e = t->n * (i + 1) / t->parts;
    if (t->rec) {
        unsigned char *out = t->out;
        for (uint64_t k = b; k < e; k++)
            gen_record(t, t->first + k, out + k * t->rec->size);
    } else if (sc_gen_width(t->plan->type) == 64) {
        uint64_t *out = t->out;
        for (uint64_t k = b; k < e; k++)
            out[k] = sc_gen_plan_element(t->plan, t->first + k);
    } else {
        uint32_t *out = t->out;
        for (uint64_t k = b; k < e; k++)
            out[k] = (uint32_t)sc_gen_plan_element(t->plan, t->first + k);
    }
}

sc_status sc_cpu_gen(sc_ctx *ctx, sc_phase_times *times,
                     const sc_gen_plan *plan, uint64_t first_index,
                     void *out, uint64_t n)
{
    return sc_cpu_gen_records(ctx, times, plan, NULL, 0, first_index, out, n);
}

sc_status sc_cpu_gen_records(sc_ctx *ctx, sc_phase_times *times,
                             const sc_gen_plan *plan, const sc_record *rec,
                             int big_endian, uint64_t first_index, void *out,
                             uint64_t n)
{
    gen_task t = { plan, first_index, n, out, 1,
                   rec && rec->size ? rec : NULL, big_endian };
    uint64_t parts = n >> 16;
    t.parts = parts == 0 || sc_pool_is_inline() ? 1
            : parts > ctx->threads ? ctx->threads : (unsigned)parts;
    double t0 = sc_now();
    sc_pool_run(ctx->pool, t.parts, gen_part, &t);
    sc_phase_add(times, SC_PH_MOVE, sc_now() - t0);
    return SC_OK;
}
