/* source.c — an sc_reader as a pipeline's source. */
#include "source.h"

static sc_status reader_fill(void *self, uint32_t *buf, size_t max,
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

sc_source sc_reader_source(sc_reader *r)
{
    sc_source s = { reader_fill, reader_size, reader_bytes, reader_raise, r,
                    "read", 1 };
    return s;
}
