/* source.c — an sc_reader as a pipeline's source. */
#include "stream/source.h"

static sc_status reader_fill(void *self, void *buf, size_t max,
                             size_t *got)
{
    return sc_reader_fill(self, buf, max, got);
}

static int64_t reader_size(const void *self)
{
    return sc_reader_size_hint(self);
}

static uint64_t reader_bytes(const void *self)
{
    return sc_reader_bytes_read(self);
}

static sc_status reader_raise(void *self) { return sc_reader_raise(self); }

static int reader_claim(void *self, size_t max, sc_claim *cl)
{
    return sc_reader_claim(self, max, cl);
}

static sc_status reader_claim_read(void *self, const sc_claim *cl,
                                   void *buf, size_t *n)
{
    return sc_reader_claim_read(self, cl, buf, n);
}

static int64_t reader_claim_hint(const void *self)
{
    return sc_reader_claim_hint(self);
}

static size_t reader_claim_unit(const void *self)
{
    return sc_reader_claim_unit(self);
}

sc_source sc_reader_source(sc_reader *r)
{
    sc_source s = { reader_fill, reader_size, reader_bytes, reader_raise,
                    reader_claim, reader_claim_read, reader_claim_hint,
                    reader_claim_unit, r, "read", 1 };
    return s;
}
