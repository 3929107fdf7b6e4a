/* libsc-example.c -- generate, compact, scan and sort with libsc.
 *
 * Build:  cc -std=c11 libsc-example.c $(pkg-config --cflags --libs sc)
 * Run:    ./a.out      (SC_DEVICE=cpu ./a.out to force the CPU)
 *
 * Exit status: 0 when every result matches a plain loop, 1 otherwise.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sc.h>

#define N 1000000

static int failed(sc_ctx *ctx, const char *what, sc_status st)
{
    fprintf(stderr, "libsc-example: %s: %s: %s\n", what, sc_strerror(st),
            ctx != NULL ? sc_ctx_message(ctx) : "no context");
    return 1;
}

static int mismatch(const char *what)
{
    fprintf(stderr, "libsc-example: mismatch: %s\n", what);
    return 1;
}

static int run(sc_ctx *ctx, uint32_t *data, uint32_t *kept,
               uint64_t *offsets, uint32_t *sorted)
{
    sc_gen_params g;
    sc_pred pred;
    sc_status st;
    uint64_t n_kept = 0, expect = 0, sum = 0, total = 0, acc = 0, i, j;

    /* 1,000,000 uniform elements, about half of them zero. */
    sc_gen_params_default(&g);
    g.dist = SC_DIST_UNIFORM;
    g.density = 0.5;
    g.seed = 42;
    st = sc_gen(ctx, &g, 0, data, N);
    if (st != SC_OK)
        return failed(ctx, "sc_gen", st);

    /* Keep the nonzero elements (the default predicate), in order. */
    sc_pred_default(&pred);
    st = sc_compact(ctx, data, N, &pred, kept, &n_kept);
    if (st != SC_OK)
        return failed(ctx, "sc_compact", st);
    for (i = 0, j = 0; i < N; i++) {
        if (data[i] == 0)
            continue;
        if (j >= n_kept || kept[j] != data[i])
            return mismatch("sc_compact kept the wrong elements");
        j++;
        sum += data[i];
    }
    expect = j;
    if (n_kept != expect)
        return mismatch("sc_compact count");
    printf("generated %d elements, kept %" PRIu64 " (loop: %" PRIu64 ")\n",
           N, n_kept, expect);

    /* Exclusive prefix sum with a 64-bit accumulator: the offsets. */
    st = sc_scan(ctx, kept, n_kept, SC_OP_SUM, 0, 1, offsets, &total);
    if (st != SC_OK)
        return failed(ctx, "sc_scan", st);
    for (i = 0; i < n_kept; i++) {
        if (offsets[i] != acc)
            return mismatch("sc_scan offsets");
        acc += kept[i];
    }
    if (total != sum || acc != sum)
        return mismatch("sc_scan total");
    printf("sum of kept elements %" PRIu64 " (loop: %" PRIu64 ")\n",
           total, sum);

    /* Sort a copy, ascending on all 32 bits. */
    memcpy(sorted, kept, n_kept * sizeof *sorted);
    st = sc_sort(ctx, sorted, n_kept, 0, 32, 0);
    if (st != SC_OK)
        return failed(ctx, "sc_sort", st);
    for (i = 1; i < n_kept; i++)
        if (sorted[i - 1] > sorted[i])
            return mismatch("sc_sort order");
    if (n_kept > 0)
        printf("sorted: min %" PRIu32 ", median %" PRIu32 ", max %" PRIu32
               "\n", sorted[0], sorted[n_kept / 2], sorted[n_kept - 1]);
    return 0;
}

int main(void)
{
    sc_ctx *ctx = NULL;
    sc_status st;
    uint32_t *data, *kept, *sorted;
    uint64_t *offsets;
    int rc = 1;

    printf("libsc %s (header %s)\n", sc_version(), SC_VERSION_STRING);
    st = sc_ctx_new(&ctx, NULL, 0);
    if (st != SC_OK) {
        failed(ctx, "sc_ctx_new", st);
        if (ctx != NULL)
            sc_ctx_free(ctx);
        return 1;
    }
    printf("device: %s\n", sc_ctx_device_name(ctx));

    data = malloc(N * sizeof *data);
    kept = malloc(N * sizeof *kept);
    sorted = malloc(N * sizeof *sorted);
    offsets = malloc(N * sizeof *offsets);
    if (data == NULL || kept == NULL || sorted == NULL || offsets == NULL)
        fprintf(stderr, "libsc-example: out of memory\n");
    else
        rc = run(ctx, data, kept, offsets, sorted);

    free(data);
    free(kept);
    free(sorted);
    free(offsets);
    sc_ctx_free(ctx);
    if (rc == 0)
        printf("all results match\n");
    return rc;
}
