/* merge.h — the k-way merge of sorted runs (runs.h) or of sorted inputs
 * (-m), the sink sorted output goes to, and reading inputs for -m and -C
 * with their order checked (order.h). */
#ifndef SC_MERGE_H
#define SC_MERGE_H

#include "jobs/jobs.h"
#include "jobs/order.h"
#include "jobs/runs.h"

/* Where sorted output goes: -u's filter, then the writer (or, between
 * merge passes, the last run of a runs file). */
typedef struct sc_sink {
    sc_ctx *ctx;
    const sc_elem_order *order;
    sc_writer *w;
    int unique;
    sc_uniq uniq;
    uint64_t out;           /* elements written */
    sc_runs *to_runs;       /* instead of w when set */
    struct sc_progress *progress;   /* -P: bytes put, or NULL */
    sc_phase_times *times;  /* -v: the writes' time, or NULL */
    /* -P: the input bytes an item stands for (0: the item's size). */
    unsigned input_size;
    /* --indices: items are keys with their positions (SC_KEYPOS_BYTES),
     * of which the positions are written, 4 or 8 bytes each (0: items
     * written whole). */
    unsigned positions;
    /* -m --indices: the positions, tagged with their input (above
     * SC_TAG_SHIFT), held here until sc_sink_release (NULL: none). */
    struct sc_spill *held;
} sc_sink;

/* Tagged positions (-m --indices): the input's number above this bit,
 * the position in that input below it. */
#define SC_TAG_SHIFT 48

/* The sink of job j's sorted output (sink.c): items of `item`'s order,
 * each standing for input_size bytes of input (-P), -u's filter, and the
 * writer opened in the job's format, for positions with --indices. */
sc_status sc_sink_open(sc_sink *s, sc_ctx *ctx, const sc_job *j,
                       const sc_elem_order *item, unsigned input_size,
                       sc_phase_times *times);
/* Writes the sorted v[0..n), dropping -u's duplicates in place (and
 * with positions, leaving v's items in pieces). */
sc_status sc_sink_put(sc_sink *s, void *v, size_t n);
/* Job j's --indices=32: SC_ERR_RANGE when n items have positions past
 * 2^32 - 1. */
sc_status sc_positions_fit(sc_ctx *ctx, const sc_job *j, uint64_t n);
/* -m --indices: positions are held (in memory up to mem_bytes, then in
 * tmpdir) until sc_sink_release writes them, as positions in the inputs
 * read as one stream, input i holding lengths[i] items. */
sc_status sc_sink_hold(sc_sink *s, const char *tmpdir, size_t mem_bytes);
sc_status sc_sink_release(sc_sink *s, const sc_job *j,
                          const uint64_t *lengths, size_t n);
void sc_sink_close_held(sc_sink *s);

/* Merges all runs into the sink, ties from the earlier run first, with
 * about mem_bytes of buffers (at least 17 of 1024 elements): more runs than that
 * holds are merged in passes through new runs files first. */
sc_status sc_merge_runs(sc_runs *rs, const sc_elem_order *o, sc_sink *sink,
                        size_t mem_bytes);

/* -P for -m and -C: elements read so far, and the line that shows them
 * (progress NULL: nothing shown); and -v's time of the reads (times NULL:
 * not measured). */
typedef struct sc_read_meter {
    struct sc_progress *progress;
    double total_bytes;         /* < 0 when unknown */
    uint64_t elems;
    sc_phase_times *times;
} sc_read_meter;

/* -m: merges inputs each sorted already (j: their format, type and
 * byte order), each read on its own (n == 0:
 * standard input), ties from the earlier input first. An unsorted input
 * stops the merge (SC_ERR_UNSORTED). A data fault in one input ends that
 * input and is noted in *fault; the others are merged to the end.
 * meter counts the elements read. */
sc_status sc_merge_inputs(sc_ctx *ctx, const sc_job *j,
                          const char *const *paths, size_t n,
                          const sc_elem_order *o, sc_sink *sink,
                          size_t mem_bytes, sc_fault *fault,
                          sc_read_meter *meter);

/* -C: checks that the inputs, one stream, are in order (strictly: -u),
 * reading chunk_elems at a time. SC_ERR_UNSORTED names the input (with
 * several, "(inputs as one stream)") and the element's position in the
 * stream. A data fault stops the check and is noted in
 * *fault. meter counts the elements read. */
sc_status sc_check_inputs(sc_ctx *ctx, const sc_job *j,
                          const char *const *paths, size_t n,
                          const sc_elem_order *o, int strict,
                          size_t chunk_elems, sc_fault *fault,
                          sc_read_meter *meter);

#endif
