/* elem_order.h — sc-rsort's order over items of any size: plain
 * elements, records, or a record's key carried with its position
 * (SC_KEYPOS_BYTES), ranked by their key under sc_hd.h's sc_order or
 * sc_order64 (--bits, -r).  The one comparison every part of the sort
 * shares: the record sort's ranks (lib/cpu), its runs' merge, -m, -C
 * and -u (lib/jobs). */
#ifndef SC_ELEM_ORDER_H
#define SC_ELEM_ORDER_H

/* Items of `size` bytes whose key, of `type` (key_size bytes, 4 or 8),
 * lies at byte key_off, big-endian where swap (records are bytes: their
 * key is read where it is used; plain elements were put in the host's
 * order when read). */
typedef struct sc_elem_order {
    unsigned size;
    unsigned key_off, key_size;
    int swap;
    int records;            /* items are records: messages say so */
    sc_type type;
    sc_order o32;
    sc_order64 o64;
} sc_elem_order;

/* Bits [lo, hi) of the key's rank (hi: at most the key's width),
 * inverted when reverse. */
void sc_elem_order_make(sc_elem_order *o, unsigned size, unsigned key_off,
                        sc_type type, int swap, unsigned lo, unsigned hi,
                        int reverse);

/* An item that is a key and the zero-based input position of its record
 * or element (argsort, sc-rsort --indices): the key's bytes as they were
 * stored, at 0, and the position, a uint64_t, at SC_KEYPOS_AT. */
#define SC_KEYPOS_BYTES 16u
#define SC_KEYPOS_AT 8u
/* What a record sort gathers (cpu/cpu.h's sc_cpu_sort_records): the
 * items whole, each key with its position (such an item), or the
 * positions alone, as uint64_t (an argsort into an array). */
enum { SC_GATHER_ITEMS = 0, SC_GATHER_KEYPOS = 1, SC_GATHER_POSITIONS = 2 };
/* Bytes of each item a gather of kind keypos writes, of items of o. */
static inline size_t sc_gather_bytes(const sc_elem_order *o, int keypos)
{
    return keypos == SC_GATHER_KEYPOS ? SC_KEYPOS_BYTES
         : keypos == SC_GATHER_POSITIONS ? sizeof (uint64_t) : o->size;
}
/* The order of such items made from items of o. */
void sc_elem_order_keypos(const sc_elem_order *o, sc_elem_order *kp);

/* The key of `item`, of o, and pos, as such an item at `to`, which may
 * overlap item. */
static inline void sc_keypos_make(unsigned char *to, const sc_elem_order *o,
                                  const unsigned char *item, uint64_t pos)
{
    unsigned char key[SC_KEYPOS_AT] = { 0 };
    memcpy(key, item + o->key_off, o->key_size);
    memcpy(to, key, SC_KEYPOS_AT);
    memcpy(to + SC_KEYPOS_AT, &pos, sizeof pos);
}

/* The key of item i of v: its bits, in the host's order. */
static inline uint64_t sc_elem_key(const sc_elem_order *o, const void *v,
                                   size_t i)
{
    const unsigned char *p = (const unsigned char *)v + i * o->size;
    uint64_t x = sc_elem_bits(p + o->key_off, 0, o->key_size);
    if (!o->swap) return x;
    return o->key_size == 8 ? __builtin_bswap64(x)
                            : __builtin_bswap32((uint32_t)x);
}

/* The rank of a key whose bits are x: items sort by it, ties kept in
 * order. */
static inline uint64_t sc_elem_rank_of(const sc_elem_order *o, uint64_t x)
{
    return o->key_size == 8 ? sc_order64_rank(&o->o64, x)
                            : sc_order_rank(&o->o32, (uint32_t)x);
}

static inline uint64_t sc_elem_rank(const sc_elem_order *o, const void *v,
                                    size_t i)
{
    return sc_elem_rank_of(o, sc_elem_key(o, v, i));
}

#endif
