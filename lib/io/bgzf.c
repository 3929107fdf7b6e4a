/* bgzf.c — BGZF members' headers and trailers, written and read. */
#include <string.h>
#include <zlib.h>
#ifdef SC_HAVE_LIBDEFLATE
#include <libdeflate.h>
#endif
#include "io/bgzf.h"

const unsigned char sc_bgzf_eof[28] = {
    0x1f, 0x8b, 8, 4, 0, 0, 0, 0, 0, 0xff, 6, 0, 'B', 'C', 2, 0,
    0x1b, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0
};

static void put_le(unsigned char *p, uint32_t v, int bytes)
{
    for (int i = 0; i < bytes; i++) p[i] = (unsigned char)(v >> (8 * i));
}

static uint32_t get_le(const unsigned char *p, int bytes)
{
    uint32_t v = 0;
    for (int i = bytes - 1; i >= 0; i--) v = v << 8 | p[i];
    return v;
}

void sc_bgzf_header(unsigned char *out, size_t body_len)
{
    /* No name, no time: the same input gives the same bytes. */
    static const unsigned char fixed[16] = {
        0x1f, 0x8b, 8, 4, 0, 0, 0, 0, 0, 0xff, 6, 0, 'B', 'C', 2, 0
    };
    memcpy(out, fixed, sizeof fixed);
    put_le(out + 16, (uint32_t)(body_len + SC_BGZF_HEADER +
                                SC_BGZF_TRAILER - 1), 2);
}

void sc_bgzf_trailer(unsigned char *out, uint32_t crc, uint32_t isize)
{
    put_le(out, crc, 4);
    put_le(out + 4, isize, 4);
}

/* The BC subfield may sit among others in the extra field. */
long sc_bgzf_block_size(const unsigned char *p, size_t len)
{
    if (len < 12) return len && p[0] != 0x1f ? 0 : -1;
    if (p[0] != 0x1f || p[1] != 0x8b || p[2] != 8 || !(p[3] & 4)) return 0;
    size_t xlen = get_le(p + 10, 2);
    if (len < 12 + xlen) return -1;
    for (size_t at = 12; at + 4 <= 12 + xlen;) {
        size_t slen = get_le(p + at + 2, 2);
        if (p[at] == 'B' && p[at + 1] == 'C' && slen == 2 &&
            at + 6 <= 12 + xlen) {
            long size = (long)get_le(p + at + 4, 2) + 1;
            return size >= (long)(12 + xlen + SC_BGZF_TRAILER) ? size : 0;
        }
        at += 4 + slen;
    }
    return 0;
}

uint32_t sc_bgzf_isize(const unsigned char *block, size_t block_size)
{
    return get_le(block + block_size - 4, 4);
}

uint32_t sc_crc32(uint32_t crc, const void *p, size_t n)
{
#ifdef SC_HAVE_LIBDEFLATE
    return libdeflate_crc32(crc, p, n);
#else
    /* zlib takes at most 4 GiB a call. */
    const unsigned char *b = p;
    while (n) {
        uInt take = n > (1u << 30) ? 1u << 30 : (uInt)n;
        crc = (uint32_t)crc32(crc, b, take);
        b += take;
        n -= take;
    }
    return crc;
#endif
}
