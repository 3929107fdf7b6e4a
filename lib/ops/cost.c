/* cost.c — the cost model of "-d auto", with constants measured on the
 * GPU machine (sc(7) has the table and how it was measured).
 *
 * Work runs at a rate per CPU thread up to a ceiling the memory system
 * sets, or on the GPU at a rate its transfers set, after its start.  The
 * rates count input bytes (output bytes for sc-gen), end to end on host
 * arrays: the GPU's include the copies both ways. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cpu/cpu.h"
#include "cuda/cuda.h"
#include "ops/ops.h"

typedef struct rate {
    double cpu_thread;          /* bytes/s per thread */
    double cpu_ceiling;         /* bytes/s, all threads */
    double gpu;                 /* bytes/s, transfers included */
} rate;

/* As the 16-thread GPU machines ran each end to end from a cached file
 * (the sort without its read and write, the same on either device), a CPU
 * thread's rate about a fourteenth of the ceiling so that machines with
 * fewer cores scale down.  The runs behind the figures: bench/RESULTS.md,
 * "-d auto's cost constants". */
static const rate rates[SC_N_COST_KINDS] = {
    [SC_JOB_GEN]     = { 1.0e9, 11e9, 30e9 },
    [SC_JOB_COMPACT] = { 1.8e9, 26e9, 18e9 },
    [SC_JOB_SPLIT]   = { 1.3e9, 19e9, 16e9 },
    [SC_JOB_SCAN]    = { 1.5e9, 17e9, 18e9 },
    [SC_JOB_SORT]    = { 0.2e9, 3.1e9, 16e9 },
    /* An estimate, not yet measured: sc-stat's chunks only go up (no
     * output comes back), so its GPU rate is put a little above
     * sc-compact's measured 18 GB/s; its CPU rates are sc-compact's. */
    [SC_JOB_STAT]    = { 1.5e9, 12e9, 20e9 },
    /* Not the sort alone, as above: what the CPU's whole sort adds to a
     * run end to end, since it hands its output on piece by piece as
     * the pieces become final, and the write of the first ones hides the
     * sort of the last, where the GPU's output is written after it.
     * Float keys (whose top bits crowd into few buckets) and records
     * sorted through ranks and a gather are slower on the CPU and keep
     * SC_JOB_SORT's rate. */
    [SC_COST_SORT_WHOLE] = { 0.32e9, 4.5e9, 16e9 },
};

sc_job_kind sc_sort_cost_kind(sc_type t, const sc_elem_order *o, int keypos)
{
    if (sc_type_is_float(t)) return SC_JOB_SORT;
    int elements = !o || (!o->records && keypos == SC_GATHER_ITEMS);
    return elements || sc_cpu_sorts_whole(o, keypos) ? SC_COST_SORT_WHOLE
                                                     : SC_JOB_SORT;
}

/* A process that started CUDA waits at its exit while the driver tears
 * the context down: 0.06-0.07 s on the H200 machine (bench/cudastart.cu:
 * the whole process took 0.22-0.24 s against 0.16 s of start, whether it
 * freed what it took or not, left by _exit or reset the device).  A
 * GPU not yet started costs that too; once started, it is paid anyway.
 * Left out, auto sorted a pipe's 0.5 GiB on the GPU, 4-8 % slower than
 * the CPU end to end. */
#define TEARDOWN_SECONDS 0.07

/* -v's sizes and rates are in binary units, as -P's and the SIZE
 * suffixes are; the rates above are bytes per second. */
#define MIB 1048576.0
#define GIB (1024.0 * MIB)

static double cpu_rate(const sc_ctx *ctx, sc_job_kind w)
{
    double r = rates[w].cpu_thread * ctx->threads;
    return r < rates[w].cpu_ceiling ? r : rates[w].cpu_ceiling;
}

int sc_cost_gpu_pays(const sc_ctx *ctx, sc_job_kind w, int64_t bytes, double eta,
                     int streaming, char *why, size_t why_len)
{
    double cpu = cpu_rate(ctx, w), gpu = rates[w].gpu;
    double teardown = ctx->cuda ? 0 : TEARDOWN_SECONDS;
    int pays;
    double t_cpu = 0, t_gpu = 0;
    if (bytes < 0) {
        /* Unknown size (a pipe): measured, the pipe is the bottleneck and
         * starting the GPU only costs (cat | sc-compact | cat went from
         * 1.00 to 0.79 of cat | cat), so the CPU keeps it. */
        pays = 0;
    } else {
        t_cpu = (double)bytes / cpu;
        /* Streaming, the CPU does what arrives before the GPU is up. */
        double left = streaming ? (double)bytes - eta * cpu : (double)bytes;
        t_gpu = left > 0 ? eta + teardown + left / gpu : t_cpu;
        pays = left > 0 && t_gpu < t_cpu * 0.95;
    }
    /* SC_TEST_COST=gpu|cpu overrides the answer, so that tests can make
     * auto hand chunks from the CPU to the GPU on any machine. */
    const char *force = getenv("SC_TEST_COST");
    if (force && strcmp(force, "gpu") == 0) pays = 1;
    if (force && strcmp(force, "cpu") == 0) pays = 0;
    if (why && why_len) {
        if (ctx->cuda && *sc_device_failure(ctx))
            /* Estimates for a GPU that failed to start would be of none. */
            snprintf(why, why_len, "%s", sc_device_failure(ctx));
        else if (bytes < 0)
            snprintf(why, why_len, "size unknown; per chunk cpu %.1f GiB/s, "
                     "gpu %.1f GiB/s", cpu / GIB, gpu / GIB);
        else
            snprintf(why, why_len, "%.3g MiB: estimated cpu %.3f s, gpu %.3f "
                     "s (start %.2f s), with %.2f s of teardown at exit",
                     (double)bytes / MIB, t_cpu, t_gpu, eta, teardown);
    }
    return pays;
}
