#!/usr/bin/env python3
"""zstd-seek.py FILE RAWSIZE FRAME: checks that FILE is zstd frames, each
with its content size and checksum, followed by the seek table of zstd's
seekable format whose entries match them; RAWSIZE is the decompressed
size, FRAME the input bytes of every frame but the last. Prints the
number of frames."""
import struct
import sys


def frame(data, at):
    """Compressed size, content size and checksum of the frame at `at`."""
    magic, fhd = struct.unpack_from("<IB", data, at)
    assert magic == 0xFD2FB528, "not a zstd frame at %d" % at
    fcs_flag, single, check, dict_flag = fhd >> 6, fhd >> 5 & 1, fhd >> 2 & 1, fhd & 3
    assert check, "frame at %d has no checksum" % at
    assert fcs_flag or single, "frame at %d has no content size" % at
    p = at + 5 + (0 if single else 1) + (0, 1, 2, 4)[dict_flag]
    n = (1 if single else 0, 2, 4, 8)[fcs_flag]
    size = int.from_bytes(data[p:p + n], "little") + (256 if n == 2 else 0)
    p += n
    while True:
        head = int.from_bytes(data[p:p + 3], "little")
        last, kind, bsize = head & 1, head >> 1 & 3, head >> 3
        p += 3 + (1 if kind == 1 else bsize)
        if last:
            break
    return p + 4 - at, size, data[p:p + 4]


def main():
    data = open(sys.argv[1], "rb").read()
    raw, step = int(sys.argv[2]), int(sys.argv[3])
    nframes, desc, magic = struct.unpack_from("<IBI", data, len(data) - 9)
    assert magic == 0x8F92EAB1, "no seek table footer"
    assert desc == 0x80, "descriptor %#x, not checksums only" % desc
    table = 8 + 12 * nframes + 9
    smagic, ssize = struct.unpack_from("<II", data, len(data) - table)
    assert smagic == 0x184D2A5E and ssize == table - 8, "bad skippable header"
    at, total, k = 0, 0, 0
    entries = len(data) - table + 8
    while at < len(data) - table:
        csize, size, check = frame(data, at)
        ec, ed = struct.unpack_from("<II", data, entries + 12 * k)
        assert (ec, ed) == (csize, size), "entry %d: %s, frame %s" % (k, (ec, ed), (csize, size))
        assert data[entries + 12 * k + 8:entries + 12 * k + 12] == check, "entry %d checksum" % k
        assert size == step or at + csize == len(data) - table, "frame %d holds %d" % (k, size)
        at, total, k = at + csize, total + size, k + 1
    assert at == len(data) - table and k == nframes, "%d frames, table says %d" % (k, nframes)
    assert total == raw, "frames hold %d bytes, not %d" % (total, raw)
    print(k)


main()
