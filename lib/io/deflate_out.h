/* deflate_out.h — one block compressed as a raw deflate body, by the
 * engine chosen for its level (deflate_out.c): libdeflate, ISA-L or zlib. */
#ifndef SC_DEFLATE_OUT_H
#define SC_DEFLATE_OUT_H
#include <stddef.h>

typedef enum sc_deflate_engine {
    SC_ENGINE_ZLIB, SC_ENGINE_LIBDEFLATE, SC_ENGINE_ISAL
} sc_deflate_engine;

/* The engine that compresses gzip level 1..9 in this build: the table in
 * deflate_out.c, or the one $SC_GZIP_ENGINE names (a testing knob; a name
 * this build lacks, or isal above level 3, leaves the table's choice). */
sc_deflate_engine sc_deflate_engine_for(int level);
const char *sc_deflate_engine_name(sc_deflate_engine e);

/* Compresses in[0, n) at level 1..9 into out[0, cap) as one raw deflate
 * body: its length, 0 when it does not fit in cap, -1 when memory for the
 * engine ran out.  Each thread keeps its own engines (freed when the
 * thread ends), so any thread may call it at once. */
long sc_deflate_block(sc_deflate_engine e, int level, const void *in,
                      size_t n, void *out, size_t cap);

#endif
