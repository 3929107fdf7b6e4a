#!/usr/bin/env bats
# csr.bats -- examples/csr.sh and its two pipelines: the CSR form (row
# offsets and column indices) of an edge list of (u32 src, u32 dst)
# records, against a plain Python reference (a count of each src, their
# running sum, the dst in a stable order by src): random graphs of many
# shapes (empty, one edge, vertices with no edges, every edge from one
# vertex, src at V - 1), chunk sizes, threads,
# gzip and zstd input; and a real graph the test builds from this
# machine's files: the dependencies between the installed Debian
# packages (/var/lib/dpkg/status), or else the words of sc's own man
# pages, each word an edge to the next.

load test_helper

setup() {
    sc_setup
    require_tool sc-stat sc-scan sc-rsort sc-compact
    command -v python3 >/dev/null || skip "no python3 for the reference"
}

# ref_csr EDGES V: the reference's rowptr and col into ref.rowptr, ref.col.
ref_csr() {
    python3 - "$1" "$2" <<'EOF'
import struct, sys
data = open(sys.argv[1], 'rb').read()
v = int(sys.argv[2])
e = struct.unpack('<%dI' % (len(data) // 4), data)
src, dst = e[0::2], e[1::2]
deg = [0] * v
for s in src:
    deg[s] += 1
rowptr = [0]
for d in deg:
    rowptr.append(rowptr[-1] + d)
order = sorted(range(len(src)), key=lambda i: src[i])   # stable
open('ref.rowptr', 'wb').write(struct.pack('<%dQ' % len(rowptr), *rowptr))
open('ref.col', 'wb').write(struct.pack('<%dI' % len(order), *[dst[i] for i in order]))
EOF
}

# edges N V SEED SHAPE: N random edges below V into edges.bin; SHAPE
# "uniform", "one" (every src the same), "skewed" (most src small), "top"
# (src V - 1 often).
edges() {
    python3 - "$@" <<'EOF'
import random, struct, sys
n, v, seed, shape = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
r = random.Random(seed)
out = []
for i in range(n):
    if shape == 'one':
        s = v // 2
    elif shape == 'skewed':
        s = min(v - 1, int(r.expovariate(1.0) * 3))
    elif shape == 'top':
        s = v - 1 if r.random() < 0.3 else r.randrange(v)
    else:
        s = r.randrange(v)
    out += [s, r.randrange(1 << 32)]
open('edges.bin', 'wb').write(struct.pack('<%dI' % len(out), *out))
EOF
}

# csr_vs_ref V [TOOL OPTIONS...]: the two pipelines on edges.bin with the
# options against the reference.
csr_vs_ref() {
    local v=$1
    shift
    ref_csr edges.bin "$v" || return 1
    sc-stat "$@" --record 8 --key 0 --bincount="$v" edges.bin |
        sc-scan "$@" -e u64 --offsets > got.rowptr || return 1
    sc-rsort "$@" --record 8 --key 0 --field 4 edges.bin > got.col || return 1
    expect_same ref.rowptr got.rowptr || { echo "# rowptr, V=$v $*" >&2; return 1; }
    expect_same ref.col got.col || { echo "# col, V=$v $*" >&2; return 1; }
}

@test "csr: random graphs of every shape against the reference" {
    local n v shape
    for shape in uniform one skewed top; do
        for n in 0 1 2 31 1000 65537; do
            for v in 1 7 1000 100003; do
                edges "$n" "$v" "$((n + v))" "$shape"
                csr_vs_ref "$v" ||
                    { echo "# $shape, $n edges, V=$v" >&2; return 1; }
            done
        done
    done
}

@test "csr: chunk sizes and threads give the same bytes" {
    edges 200003 5000 11 skewed
    local opt
    for opt in "-j 1 -c 4K" "-j 3 -c 12K" "-j 4 -c 1M" "-j 2 -c 20K"; do
        # shellcheck disable=SC2086
        csr_vs_ref 5000 $opt || { echo "# $opt" >&2; return 1; }
    done
}

@test "csr: gzip and zstd edge lists" {
    edges 70001 300 5 uniform
    ref_csr edges.bin 300
    gzip -c edges.bin > edges.gz
    local f zst=
    if zstd_built; then zstd -q -c edges.bin > edges.zst; zst=edges.zst; fi
    for f in edges.gz $zst; do
        sc-stat --record 8 --key 0 --bincount=300 "$f" | sc-scan -e u64 --offsets > got.rowptr
        sc-rsort --record 8 --key 0 --field 4 "$f" > got.col
        expect_same ref.rowptr got.rowptr
        expect_same ref.col got.col
    done
}

@test "csr: examples/csr.sh writes the reference's CSR of a random graph and checks it" {
    edges 100000 4096 3 uniform
    run sh "$SC_SRCDIR/examples/csr.sh" edges.bin 4096 out
    [ "$status" -eq 0 ] || { echo "$output" >&2; return 1; }
    [[ "$output" == *"checked:"* ]]
    ref_csr edges.bin 4096
    expect_same ref.rowptr out.rowptr
    expect_same ref.col out.col
    # and its own random graph, as install.bats runs it
    run sh "$SC_SRCDIR/examples/csr.sh" 64K
    [ "$status" -eq 0 ] || { echo "$output" >&2; return 1; }
    [[ "$output" == *"edges:          65536"* ]]
}

@test "csr: examples/csr.sh fails, saying why, on a src past V" {
    edges 100 10 1 top
    run sh "$SC_SRCDIR/examples/csr.sh" edges.bin 5 out
    [ "$status" -ne 0 ]
    [[ "$output" == *"sc-stat"* ]]
    [ ! -e out.rowptr ] && [ ! -e out.col ]
}

# A real graph from this machine: installed Debian packages and the
# packages they depend on (the first of each set of alternatives), else
# the words of sc's man pages (each word to the next).  Writes edges.bin
# and prints V; real.names holds vertex v's name on line v + 1.
real_graph() {
    python3 - "$SC_SRCDIR/man" <<'EOF'
import glob, os, re, struct, sys
ids, edges = {}, []
def vid(name):
    return ids.setdefault(name, len(ids))
status = '/var/lib/dpkg/status'
if os.path.exists(status):
    for para in open(status, encoding='utf-8', errors='replace').read().split('\n\n'):
        f = dict(re.findall(r'^([A-Za-z-]+): (.*)$', para, re.M))
        if 'Package' not in f:
            continue
        s = vid(f['Package'])
        for dep in f.get('Depends', '').split(','):
            name = dep.split('|')[0].strip().split(' ')[0].split(':')[0]
            if name:
                edges.append((s, vid(name)))
if len(edges) < 100:
    words = []
    for p in sorted(glob.glob(os.path.join(sys.argv[1], '*.[137]'))):
        words += re.findall(r'[a-z]+', open(p).read())
    for a, b in zip(words, words[1:]):
        edges.append((vid(a), vid(b)))
open('edges.bin', 'wb').write(b''.join(struct.pack('<II', s, d) for s, d in edges))
names = sorted(ids, key=ids.get)
open('real.names', 'w').write('\n'.join(names) + '\n')
print(len(ids))
EOF
}

@test "csr: a real graph from this machine's files, against the reference" {
    local v
    v=$(real_graph)
    [ "$(stat -c %s edges.bin)" -ge 800 ]
    echo "# $(( $(stat -c %s edges.bin) / 8 )) edges on $v vertices" >&3
    csr_vs_ref "$v"
    csr_vs_ref "$v" -j 3 -c 4K
    run sh "$SC_SRCDIR/examples/csr.sh" edges.bin "$v" out
    [ "$status" -eq 0 ] || { echo "$output" >&2; return 1; }
    expect_same ref.rowptr out.rowptr
    expect_same ref.col out.col
}
