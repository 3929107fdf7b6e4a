/* core.h — the bottom layer of libsc, which every other layer may use:
 * the context, statuses and messages, faults held back (fault.h), threads
 * and the thread pool, host memory, and what the CPU and the GPU share:
 * the backend table's type (backend.h), a chunk of a stream (chunk.h),
 * the scan's identities, sc-stat's running state and the host/device
 * functions of sc_hd.h.  It calls no other layer. */
#ifndef SC_CORE_H
#define SC_CORE_H

#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>
#include "core/sc.h"
#include "core/sc_hd.h"

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
    SC_PH_DOWNLOAD, SC_PH_WRITE, SC_N_PHASES
} sc_phase;

double sc_now(void);

/* What one run spent in each phase, for -v: owned by the run (its
 * result, stream.h's sc_pipeline_stats), handed down to each operation
 * it asks for, and added to by any of its threads.  Zeroed memory is an
 * empty one.  NULL where nothing measures: an operation asked for by the
 * library's user rather than by a run. */
typedef struct sc_phase_times {
    _Atomic double seconds[SC_N_PHASES];
} sc_phase_times;
/* Adds seconds to phase ph of t (thread-safe); nothing for a NULL t. */
void sc_phase_add(sc_phase_times *t, sc_phase ph, double seconds);
double sc_phase_seconds(const sc_phase_times *t, sc_phase ph);

typedef struct sc_pool sc_pool;
struct sc_cuda;

/* How many kinds of job there are (sc.h's sc_job_kind), for the tables
 * indexed by kind. */
#define SC_N_JOB_KINDS (SC_JOB_STAT + 1)

/* What -d asked for: never the GPU, the faster one, or the GPU only. */
typedef enum sc_policy { SC_POLICY_CPU, SC_POLICY_AUTO, SC_POLICY_CUDA } sc_policy;

struct sc_ctx {
    sc_device_kind kind;            /* the device that ran work last */
    sc_policy policy;
    int cuda_index;
    unsigned threads;
    /* Threads a CPU operation may use: all of them, or, while a stream
     * runs, one fewer, leaving a core to its reader and writer. */
    unsigned phase_threads;
    sc_pool *pool;
    struct sc_cuda *cuda;           /* NULL until the GPU is started */
    /* -d cuda:all: every visible GPU, started with the context; gpus[0]
     * is cuda.  n_gpus stays 0 for the other specs (one GPU). */
    int all_gpus;
    unsigned n_gpus;
    struct sc_cuda *gpus[SC_MAX_GPUS];
    char gpus_name[320];            /* "cuda:0,1 (2x NVIDIA H200)" */
    /* The reader, worker and writer threads may each record a message:
     * one lock keeps it whole. */
    pthread_mutex_t lock;
    char name[320];
    char cpu_name[64];
    /* Written by the device policy alone (ops/policy.c). */
    char fallback[1024];
    char choice[256];               /* why auto chose its device */
    char message[1024];
};
/* Records status and a formatted message on ctx; returns status.  On a
 * thread that holds its faults back (fault.h) the message goes there. */
sc_status sc_fail(sc_ctx *ctx, sc_status status, const char *fmt, ...)
    SC_PRINTF(3, 4);
sc_status sc_fail_errno(sc_ctx *ctx, sc_status status, int err,
                        const char *fmt, ...) SC_PRINTF(4, 5);
/* The context's threads with the device not yet chosen: parses -d's
 * spec into the policy; nothing is started (ops/context.c starts what
 * the policy asks for).  SC_ERR_USAGE for a spec that is not one. */
sc_status sc_ctx_init(sc_ctx *ctx, const char *spec, unsigned threads,
                      int *all_gpus);
/* Names the context's device: the CPU, or the GPU's name once known. */
void sc_ctx_name_cpu(sc_ctx *ctx);
void sc_ctx_name(sc_ctx *ctx, const char *name);

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
/* dst = src, in pieces of at least 1 MiB, at most parts of them at once
 * on the pool's threads: one thread copies at about a third of what the
 * memory takes. */
void sc_pool_copy(sc_pool *pool, unsigned parts, void *dst, const void *src,
                  size_t bytes);
/* For the calling thread only: whether its loops run inline, as one
 * sequence, because it is one of several threads that each take a whole
 * chunk (the pipeline's workers) and the other cores are busy. */
void sc_pool_set_inline(int on);
int sc_pool_is_inline(void);

/* Generator plan from user parameters; SC_OK, or SC_ERR_USAGE with a
 * message for parameters out of range. */
void sc_gen_plan_make(sc_gen_plan *plan, const sc_gen_params *g);
sc_status sc_gen_params_check(sc_ctx *ctx, const sc_gen_params *g);

/* Takes sorted keys[0..n) as they become final: called in order, from one
 * thread, with pieces that together are the whole array; a piece is the
 * taker's from then on (-u drops duplicates in it in place).  keys are n
 * elements of the sort's type (4 or 8 bytes each). */
typedef sc_status (*sc_ready_fn)(void *arg, void *keys, uint64_t n);

/* Whether elements of t differ from their ranks (sc_key): the signed
 * and float types, which sort, merge and compare as their ranks. */
int sc_type_ranked(sc_type t);
/* v[0..n) to their ranks under key (sc_hd.h's sc_key), or back from
 * them (unrank), in parts on the pool's threads (types.c); pool NULL:
 * on the calling thread. */
void sc_keys_rank(sc_pool *pool, unsigned threads, sc_key key, uint32_t *v,
                  uint64_t n, int unrank);
/* The same for 64-bit elements (sc_key64). */
void sc_keys_rank64(sc_pool *pool, unsigned threads, sc_key64 key,
                    uint64_t *v, uint64_t n, int unrank);

/* Element i of v, elements of `size` bytes (4 or 8): its bits. */
static inline uint64_t sc_elem_bits(const void *v, size_t i, unsigned size)
{
    const unsigned char *p = (const unsigned char *)v + i * size;
    if (size == 8) {
        uint64_t x;
        memcpy(&x, p, 8);
        return x;
    }
    uint32_t x;
    memcpy(&x, p, 4);
    return x;
}

/* Why rec is no record layout (sc.h's sc_record: the size, the key's
 * type and place), or NULL when it is one or is none (size 0) (types.c). */
const char *sc_record_fault(const sc_record *rec);
/* Why an element of type t at byte off is no field of records of size
 * bytes (size 0: no records), or NULL when it is one (types.c). */
const char *sc_field_fault(uint32_t size, uint32_t off, sc_type t);

/* sc_stat's running state: mergeable, so chunks and threads may be
 * reduced in any order and give the same figures. The distinct estimate
 * is a HyperLogLog sketch of SC_HLL_REGS registers (sc_hd.h).  Elements
 * of either width: min and max hold 64 bits (the 32-bit elements' in the
 * low half), the sum 128. */
typedef struct sc_stat_acc {
    uint64_t count, zeros, sum, sum_hi;
    uint64_t min, max;
    uint8_t reg[SC_HLL_REGS];
} sc_stat_acc;
void sc_stat_acc_init(sc_stat_acc *a);
void sc_stat_acc_merge(sc_stat_acc *a, const sc_stat_acc *b);
/* The figures of a running state of 32-bit elements (stat_acc.c). */
void sc_stat_acc_result(const sc_stat_acc *a, sc_stats *out);
/* The distinct estimate of a running state, of elements of either
 * width: 0 for none. */
uint64_t sc_stat_acc_distinct(const sc_stat_acc *a);
/* The sum of the elements of type t whose ranks a running state added,
 * two's complement in 128 bits (stat_acc.c). */
unsigned __int128 sc_stat_acc_sum(const sc_stat_acc *a, sc_type t);
/* lo:hi += v_hi:v, the 128-bit sums of a running state. */
static inline void sc_add128(uint64_t *lo, uint64_t *hi, uint64_t v,
                             uint64_t v_hi)
{
    *lo += v;
    *hi += v_hi + (*lo < v);
}

/* The float sum scan in its fixed order (sc(7), ELEMENT TYPES): where a
 * stream's scan stands between calls.  Zeroed with the carry set, it
 * starts a stream. */
#define SC_FSUM_BLOCK 1024
typedef struct sc_fsum_state {
    double carry;           /* the sum of the blocks before the current */
    double partial;         /* the current block's, so far */
    uint64_t in_block;      /* elements added to partial */
} sc_fsum_state;
/* The accumulator: the last inclusive output's value (a NaN as +nan),
 * or the carry itself before any element. */
static inline double sc_fsum_total(const sc_fsum_state *s)
{
    double t = s->in_block ? s->carry + s->partial : s->carry;
    return t != t ? __builtin_nan("") : t;
}

/* Scan identities and combination, shared by both backends and the
 * streaming jobs (scan_ops.c).  The identity is the accumulator's, as
 * the backends keep it; `wide` in combine: a 64-bit accumulator (a
 * 32-bit type's `wide`, or an 8-byte type). */
uint64_t sc_scan_identity(sc_type type, sc_scan_op op);
uint64_t sc_scan_combine(sc_scan_op op, int wide, uint64_t a, uint64_t b);
/* in[0..n) combined from the identity, on the calling thread. */
uint64_t sc_scan_reduce(const uint32_t *in, uint64_t n, sc_scan_op op,
                        int wide);
/* The same for elements of any type (in: 4- or 8-byte ones), the
 * accumulator as the backends keep it (sc_scan_ranks: max and min of
 * ranks); `wide` is for 32-bit types. */
uint64_t sc_scan_reduce_type(const void *in, uint64_t n, sc_type type,
                             sc_scan_op op, int wide);
/* A carry as sc_scan_type's *carry holds it to the rank the backends
 * keep (sc_scan_ranks), or back (unrank); other carries are their own. */
uint64_t sc_scan_carry_rank(sc_type type, sc_scan_op op, uint64_t carry,
                            int unrank);

/* Sorted parts merged on the pool's threads (merge_parts.c): what the
 * GPUs of -d cuda:all sorted, each a part.  Merges the k (1 ≤ k ≤ SC_MAX_GPUS) parts src[bounds[i] .. bounds[i+1]),
 * each sorted stably by bits [lo_bit, hi_bit) (descending: in reverse),
 * into dst[0 .. bounds[k]) in the same order; ties keep part order, so
 * parts cut from one array in order merge into that array's stable sort.
 * src and dst must not overlap. */
void sc_merge_parts(sc_ctx *ctx, const uint32_t *src, const uint64_t *bounds,
                    unsigned k, unsigned lo_bit, unsigned hi_bit,
                    int descending, uint32_t *dst);

/* Plain host memory, on huge pages when large (hostmem.c); free() it.
 * Nothing pins memory in proportion to the input: the GPU's transfers go
 * through buffers pinned once (cuda/). */
void *sc_big_alloc(size_t bytes);
/* A mapping of its own (huge pages where allowed), never reused by malloc:
 * what a pipe took by reference from it (sc_splice_full) stays as it was
 * after sc_pages_free.  NULL when out of memory. */
void *sc_pages_alloc(size_t bytes);
void sc_pages_free(void *p, size_t bytes);

/* Whether a status is a fault in the input data, after which what was
 * decoded is still written (fault.c). */
int sc_is_data_fault(sc_status st);

/* The memory this process may take (memlimit.c): the least of physical
 * memory, its cgroup's memory limit (v1 or v2) and RLIMIT_AS and
 * RLIMIT_DATA; *what names which, for -v. */
uint64_t sc_memory_limit(const char **what);
/* The least memory limit of the cgroups that proc_cgroup (a
 * /proc/PID/cgroup) names, their ancestors' included, under root (where
 * cgroups are mounted, /sys/fs/cgroup); UINT64_MAX where none is set. */
uint64_t sc_cgroup_memory_limit(const char *proc_cgroup, const char *root);
/* -S's default: a quarter of sc_memory_limit(), at least 64 MiB, as
 * memory is taken only as the data needs it. */
#define SC_LEAST_BUFFER_BYTES ((size_t)64 << 20)
size_t sc_default_buffer_bytes(void);

#include "core/fault.h"
#include "core/chunk.h"
#include "core/elem_order.h"
#include "core/backend.h"

#endif /* SC_CORE_H */
