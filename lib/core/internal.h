/* internal.h — what libsc's own files share and users do not see. */
#ifndef SC_INTERNAL_H
#define SC_INTERNAL_H

#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "sc.h"
#include "sc_hd.h"

/* Default chunks: on the CPU small enough that a chunk is still in cache
 * when the worker reads what the reader wrote; on the GPU large enough
 * that each transfer runs at full PCIe speed. */
#define SC_DEFAULT_CHUNK_CPU ((size_t)4 << 20)
#define SC_DEFAULT_CHUNK_GPU ((size_t)16 << 20)
#define SC_MIN_CHUNK_BYTES ((size_t)4096)
/* -d cuda:all uses at most this many GPUs. */
#define SC_MAX_GPUS 16

#if defined(__GNUC__)
#define SC_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define SC_PRINTF(f, a)
#endif

/* Wall-clock time of each phase a user may ask about with -v. */
typedef enum sc_phase {
    SC_PH_READ, SC_PH_UPLOAD, SC_PH_COUNT, SC_PH_PREFIX, SC_PH_MOVE,
    SC_PH_DOWNLOAD, SC_PH_WRITE, SC_PH_COUNT_OF
} sc_phase;

double sc_now(void);

typedef struct sc_pool sc_pool;
struct sc_cuda;

/* What -d asked for: never the GPU, the faster one, or the GPU only. */
typedef enum sc_policy { SC_POLICY_CPU, SC_POLICY_AUTO, SC_POLICY_CUDA } sc_policy;

/* The kinds of work the cost model knows (ops/cost.c). */
typedef enum sc_work { SC_WORK_GEN, SC_WORK_COMPACT, SC_WORK_SPLIT,
                       SC_WORK_SCAN, SC_WORK_SORT, SC_WORK_STAT,
                       SC_WORK_COUNT_OF } sc_work;

struct sc_ctx {
    sc_device_kind kind;            /* the device that ran work last */
    sc_policy policy;
    int cuda_index;
    unsigned threads;
    unsigned phase_threads;         /* 0: threads; streaming leaves cores
                                     * to its reader and writer threads */
    sc_pool *pool;
    struct sc_cuda *cuda;           /* NULL until the GPU is started */
    /* -d cuda:all: every visible GPU, started with the context; gpus[0]
     * is cuda.  n_gpus stays 0 for the other specs (one GPU). */
    int all_gpus;
    unsigned n_gpus;
    struct sc_cuda *gpus[SC_MAX_GPUS];
    char gpus_name[320];            /* "cuda:0,1 (2x NVIDIA H200)" */
    /* The reader, worker and writer threads may each record a message or
     * a phase time: one lock keeps them whole. */
    pthread_mutex_t lock;
    char name[320];
    char cpu_name[64];
    char fallback[1024];
    char message[1024];
    char choice[256];               /* why auto chose its device */
    double phase_seconds[SC_PH_COUNT_OF];
    uint64_t chunks_cpu, chunks_gpu;    /* streaming chunks on each */
    /* Streaming on the CPU by whole chunks per thread (-v): how many
     * threads at once, and the chunk's bytes; 0 when one at a time. */
    unsigned chunk_workers;
    size_t worker_chunk_bytes;
};
/* Records status and a formatted message on ctx; returns status. */
sc_status sc_fail(sc_ctx *ctx, sc_status status, const char *fmt, ...)
    SC_PRINTF(3, 4);
sc_status sc_fail_errno(sc_ctx *ctx, sc_status status, int err,
                        const char *fmt, ...) SC_PRINTF(4, 5);
void sc_phase_add(sc_ctx *ctx, sc_phase ph, double seconds);

/* pthread_create with a test hook (thread.c): 0 or the error number.
 * SC_TEST_FAIL_THREAD=N fails the N-th call in the process with EAGAIN. */
int sc_thread_start(pthread_t *t, void *(*fn)(void *), void *arg);

/* The thread pool: run(task, arg, i) for i in [0, n) on up to the pool's
 * threads, returning when all are done.  Loops asked for by several
 * threads at once run one after another; a task must not start one. */
typedef void (*sc_task_fn)(void *arg, unsigned i);
/* A thread that cannot start fails the whole pool: SC_ERR_NOMEM with
 * errno set to why (a pool quietly smaller than asked would hide it). */
sc_status sc_pool_new(sc_pool **out, unsigned threads);
void sc_pool_free(sc_pool *pool);
void sc_pool_run(sc_pool *pool, unsigned n, sc_task_fn fn, void *arg);
/* For the calling thread only: whether its loops run inline, as one
 * sequence, because it is one of several threads that each take a whole
 * chunk (the pipeline's workers) and the other cores are busy. */
void sc_pool_set_inline(int on);
int sc_pool_is_inline(void);

/* Generator plan from user parameters. */
void sc_gen_plan_make(sc_gen_plan *plan, const sc_gen_params *g);

/* CPU backend (cpu/): the entries of sc_cpu_backend (ops/backend.h). */
sc_status sc_cpu_compact(sc_ctx *ctx, const uint32_t *in, uint64_t n,
                         const sc_pred *pred, int out_kind,
                         uint64_t first_index, void *out, uint64_t *kept);
sc_status sc_cpu_split(sc_ctx *ctx, const uint32_t *in, uint64_t n,
                       const sc_pred *pred, uint32_t *sel, uint32_t *rej,
                       uint64_t *selected);
sc_status sc_cpu_scan(sc_ctx *ctx, const uint32_t *in, uint64_t n,
                      sc_scan_op op, int inclusive, int wide, void *out,
                      uint64_t *carry);
sc_status sc_cpu_sort(sc_ctx *ctx, uint32_t *keys, uint64_t n,
                      unsigned lo_bit, unsigned hi_bit, int descending);
/* Takes sorted keys[0..n) as they become final: called in order, from one
 * thread, with pieces that together are the whole array; a piece is the
 * taker's from then on (-u drops duplicates in it in place). */
typedef sc_status (*sc_ready_fn)(void *arg, uint32_t *keys, uint64_t n);
sc_status sc_cpu_sort_ready(sc_ctx *ctx, uint32_t *keys, uint64_t n,
                            unsigned lo_bit, unsigned hi_bit, int descending,
                            sc_ready_fn ready, void *arg);
/* sc_sort(), with ready() (if not NULL) given the sorted keys: piece by
 * piece while the rest is still sorting where the device can (the CPU),
 * else at the end (ops.c). */
sc_status sc_sort_ready(sc_ctx *ctx, uint32_t *keys, uint64_t n,
                        unsigned lo_bit, unsigned hi_bit, int descending,
                        sc_ready_fn ready, void *arg);
sc_status sc_cpu_gen(sc_ctx *ctx, const sc_gen_plan *plan,
                     uint64_t first_index, uint32_t *out, uint64_t n);

/* sc_stat's running state: mergeable, so chunks and threads may be
 * reduced in any order and give the same figures. The distinct estimate
 * is a HyperLogLog sketch of SC_HLL_REGS registers (sc_hd.h). */
typedef struct sc_stat_acc {
    uint64_t count, zeros, sum, sum_hi;
    uint32_t min, max;
    uint8_t reg[SC_HLL_REGS];
} sc_stat_acc;
void sc_stat_acc_init(sc_stat_acc *a);
void sc_stat_acc_merge(sc_stat_acc *a, const sc_stat_acc *b);
/* Adds in[0..n) to acc on the thread pool. */
sc_status sc_cpu_stat(sc_ctx *ctx, const uint32_t *in, uint64_t n,
                      sc_stat_acc *acc);
/* The array layer's dispatch of the same (ops.c), and the figures
 * (ops_stat.c). */
sc_status sc_stat_add(sc_ctx *ctx, const uint32_t *in, uint64_t n,
                      sc_stat_acc *acc);
void sc_stat_acc_result(const sc_stat_acc *a, sc_stats *out);

/* Scan identities and combination, shared by the CPU backend and the
 * stream layer. */
uint64_t sc_scan_identity(sc_scan_op op, int wide);
uint64_t sc_scan_combine(sc_scan_op op, int wide, uint64_t a, uint64_t b);
/* in[0..n) combined from the identity, on the calling thread. */
uint64_t sc_scan_reduce(const uint32_t *in, uint64_t n, sc_scan_op op,
                        int wide);

/* Plain host memory, on huge pages when large (hostmem.c); free() it.
 * Nothing pins memory in proportion to the input: the GPU's transfers go
 * through buffers pinned once (cuda/). */
void *sc_big_alloc(size_t bytes);
/* A mapping of its own (huge pages where allowed), never reused by malloc:
 * what a pipe took by reference from it (sc_splice_full) stays as it was
 * after sc_pages_free.  NULL when out of memory. */
void *sc_pages_alloc(size_t bytes);
void sc_pages_free(void *p, size_t bytes);

/* Split into separate selected and rejected buffers (the stream layer). */
sc_status sc_split_parts(sc_ctx *ctx, const uint32_t *in, uint64_t n,
                         const sc_pred *pred, uint32_t *sel, uint32_t *rej,
                         uint64_t *selected);

/* Temporary files removed on failure and on signals (tempfiles.c). */
int sc_temp_register(const char *path);
void sc_temp_unregister(const char *path);
void sc_temp_remove_all(void);   /* async-signal-safe */

/* Compact out_kind values, shared by the array API and the stream layer. */
enum { SC_KIND_VALUES = 0, SC_KIND_IDX32 = 1, SC_KIND_IDX64 = 2 };

/* sc_reader_read() for a thread other than the job's (the pipeline's
 * reader): a fault ends the input and its status comes back, but its
 * message stays held for sc_reader_raise(), which the job calls once
 * every thread is done, so that no thread's message takes another's
 * place. */
sc_status sc_reader_fill(sc_reader *r, uint32_t *buf, size_t max,
                         size_t *got);
sc_status sc_reader_raise(sc_reader *r);
/* A whole chunk of a regular file that any thread may read, so that the
 * pipeline's workers read at once (source.h's claim() and claim_read()). */
typedef struct sc_claim {
    int fd;
    off_t at;
    size_t len;
} sc_claim;
int sc_reader_claim(sc_reader *r, size_t max, sc_claim *cl);
sc_status sc_reader_claim_read(sc_reader *r, const sc_claim *cl,
                               uint32_t *buf);

/* An input's name in messages: "-" is "(standard input)" (inputs.c). */
const char *sc_input_name(const char *path);
/* The decoded bytes of the inputs when known without reading them (raw
 * regular files), else -1. */
int64_t sc_inputs_size(const char *const *paths, size_t n, sc_format fmt);
/* Bytes per chunk: the one asked for, or the device's default, but never
 * more than a known input needs (rounded up to 4 KiB). */
size_t sc_chunk_bytes(const sc_ctx *ctx, size_t asked, int64_t known,
                      sc_work w);
/* Refuses, before anything is written, outputs that are inputs, a rejects
 * file that is the output, and empty names (outputs.c). */
sc_status sc_check_outputs(sc_ctx *ctx, const sc_job *j);
/* SC_OK, or SC_ERR_USAGE with a message for parameters out of range. */
sc_status sc_gen_params_check(sc_ctx *ctx, const sc_gen_params *g);

/* Commits two writers so that both files are replaced or neither
 * (sc-split -r); either one on standard output or a device is committed
 * as it comes. Both writers are gone afterwards. */
sc_status sc_writer_commit_pair(sc_writer *a, sc_writer *b);
/* The same for n writers (sc-split --ranges' parts): all the files are
 * replaced or none. */
sc_status sc_writer_commit_all(sc_writer **w, size_t n);
/* A writer open beside writers - 1 others (sc-split --ranges' parts),
 * called before anything is written: it keeps less in memory.  Gzip
 * compresses once 64 / writers MiB are staged rather than 64, on `pool`
 * (when not NULL; shared by the writers, which must be written from one
 * thread, and freed by the caller after them): the same bytes.  Zstd
 * compresses in jobs of 1 MiB: about 12 MiB of memory per writer rather
 * than 55, and other bytes than a writer alone would give. */
void sc_writer_share(sc_writer *w, unsigned writers, sc_pool *pool);

/* Raw bytes whatever the output format: --count's one-line figures. */
sc_status sc_writer_write_bytes(sc_writer *w, const void *buf, size_t len);
/* sc_writer_write of elements in sc_pages_alloc memory that is never
 * written again: into a pipe, by reference instead of by copy. */
sc_status sc_writer_write_pages(sc_writer *w, const void *elems, size_t n);

/* Whether a status is a fault in the input data, after which what was
 * decoded is still written (fault.c). */
int sc_is_data_fault(sc_status st);

/* What every job shares (job.c): the -v report on stderr; ending an
 * output (a file is replaced only on success, standard output keeps what
 * came before a data fault). */
void sc_job_report(sc_ctx *ctx, const sc_job *j, uint64_t in, uint64_t out,
                   double seconds);
sc_status sc_job_close_output(sc_writer *w, const char *path, sc_status st);

/* st, or when st is SC_OK and the context asked for "cuda", whether its
 * GPU started: a job calls it before it commits its outputs, so that a
 * context started in the background (sc_ctx_new_background) fails a job
 * that never needed the GPU, such as one of empty input, as sc_ctx_new
 * would have failed it (ctx.c). */
sc_status sc_ctx_settle(sc_ctx *ctx, sc_status st);

/* -S's default: a quarter of physical memory, at least 64 MiB. */
size_t sc_default_buffer_bytes(void);

/* sc-stat's job (stat.c). */
sc_status sc_run_stat(sc_ctx *ctx, const sc_job *job);

/* sc-split --ranges' job (ranges_job.c), and what sc_job_check asks of
 * it: the bounds and the part files' names, nothing opened. */
sc_status sc_run_ranges(sc_ctx *ctx, const sc_job *job);
sc_status sc_ranges_check(sc_ctx *ctx, const sc_job *job);

/* sc-rsort's job: reads everything, sorts (in runs past -S), writes. */
sc_status sc_run_sort(sc_ctx *ctx, const sc_job *job);

#endif /* SC_INTERNAL_H */
