/* fuzz_job.c — libFuzzer harness: a whole job from bytes to output.
 *
 * The first byte picks the job and its options (compact, split or sort;
 * input format; sort's -S small enough to spill runs and merge them);
 * the rest is the input, read with format auto or the one picked (auto
 * and text reach zstd by its magic, in a libsc built with it). The
 * output goes to /dev/null: what is checked is that nothing crashes,
 * leaks or trips a sanitizer, whatever the input. */
#include <string.h>
#include "fuzz_common.h"

static void set_job(sc_job *j, uint8_t opt)
{
    static const sc_job_kind kinds[4] = { SC_JOB_COMPACT, SC_JOB_SPLIT,
                                          SC_JOB_SORT, SC_JOB_SORT };
    static const sc_format fmts[4] = { SC_FMT_AUTO, SC_FMT_RAW, SC_FMT_GZ,
                                       SC_FMT_TEXT };
    sc_job_init(j, kinds[opt & 3]);
    j->in_fmt = fmts[(opt >> 2) & 3];
    j->chunk_bytes = 4096;
    j->prog = "fuzz";
    if (opt & 0x10) j->out.fmt = SC_FMT_TEXT;
    if (j->kind == SC_JOB_SORT) {
        /* 4 KiB: inputs past 1024 elements go through runs and a merge. */
        j->buffer_bytes = opt & 0x20 ? 4096 : 0;
        j->unique = (opt >> 6) & 1;
        j->reverse = opt >> 7;
        j->check = (opt & 3) == 3 && (opt & 0x40);
        if (j->check) j->unique = 0;
    } else if (opt & 0x20) {
        sc_pred_add_range(&j->pred, 16, 0x7fffffff);
        j->pred.invert = opt >> 7;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    fuzz_file f;
    if (fuzz_file_make(&f, data + 1, size - 1) != 0) return 0;
    const char *paths[1] = { f.path };
    sc_job j;
    set_job(&j, data[0]);
    j.inputs = paths;
    j.n_inputs = 1;
    j.output = "/dev/null";
    j.tmpdir = getenv("TMPDIR");
    sc_run(fuzz_ctx(), &j);
    fuzz_file_drop(&f);
    return 0;
}
