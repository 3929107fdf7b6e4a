/* bgzf.h — the BGZF framing of gzip (SAMtools' SAM/BAM specification,
 * section 4.1): independent gzip members of at most 64 KiB, each with
 * an extra subfield "BC" that holds its own size, ended by an empty
 * member.  Any gzip reader reads it as one stream; a reader that knows
 * it finds every member's start and decoded size without inflating. */
#ifndef SC_BGZF_H
#define SC_BGZF_H

#include <stddef.h>
#include <stdint.h>

/* Input bytes a member holds at most: its deflate output then fits the
 * 64 KiB a member may take even where the data does not compress
 * (bgzip's figure; a multiple of 4, so no element straddles members). */
#define SC_BGZF_MAX_INPUT 65280u
/* A member's size at most, header and trailer included. */
#define SC_BGZF_MAX_BLOCK 65536u
#define SC_BGZF_HEADER 18u          /* gzip header with the BC subfield */
#define SC_BGZF_TRAILER 8u          /* CRC-32 and ISIZE */

/* The end-of-file member: an empty member that says the stream is whole. */
extern const unsigned char sc_bgzf_eof[28];

/* Writes a member's header for a deflate body of body_len bytes into
 * out[0, SC_BGZF_HEADER); the caller puts the body after it and the
 * trailer (sc_bgzf_trailer) after that. */
void sc_bgzf_header(unsigned char *out, size_t body_len);
void sc_bgzf_trailer(unsigned char *out, uint32_t crc, uint32_t isize);

/* The whole size of the BGZF member that starts at p (len bytes in
 * hand): > 0; 0 when p does not start a BGZF member (another gzip member,
 * or not gzip); -1 when more than len bytes are needed to tell. */
long sc_bgzf_block_size(const unsigned char *p, size_t len);

/* CRC-32 of gzip, through the fastest engine in the build. */
uint32_t sc_crc32(uint32_t crc, const void *p, size_t n);

/* The decoded size of a whole member of block_size bytes (its ISIZE). */
uint32_t sc_bgzf_isize(const unsigned char *block, size_t block_size);

#endif
