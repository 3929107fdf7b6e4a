# common.sh -- what the scale-out recipes of this directory share; they
# source it, it is not run by itself.  It finds the sc tools and GNU
# parallel, makes a temporary directory, reads the knobs below, and
# defines blocks(), which runs a command on every block of a file
# through parallel and joins the outputs in block order.
#
# Environment:
#   SC_HOSTS    parallel's -S (default ':', this host standing in for a
#               cluster; 'node1,node2' spreads the jobs over hosts, which
#               then need sc on their PATH and TMPDIR on a file system
#               they all share)
#   SC_JOBS     parallel's -j: jobs at once on each host (default 2)
#   SC_THREADS  sc's -j: threads of each job (default 1)
#   SC_BLOCK    bytes per block, a multiple of 4, with an optional K, M or
#               G (powers of 1024, as parallel reads them; default 1M)
#   TMPDIR      where the files go (default /tmp); removed at exit
#
# Why --recend '': the input is raw uint32, not lines.  With an empty
# record end (and no --recstart) parallel --pipepart cuts the file at
# exact multiples of --block (checked with GNU parallel 20221122; the
# last block has what is left), so a block size that is a multiple of 4
# never cuts an element in two.

here=$(cd "$(dirname "$0")" && pwd)
# The tools of the build tree these recipes sit in, else those on PATH.
[ -x "$here/../../bin/sc-gen" ] && PATH="$here/../../bin:$PATH"
export PATH
me=$(basename "$0")
command -v sc-gen >/dev/null ||
    { echo "$me: sc-gen not found: put sc's bin/ on PATH" >&2; exit 1; }
command -v parallel >/dev/null ||
    { echo "$me: GNU parallel not found: install it (apt-get install parallel)" >&2; exit 1; }

hosts=${SC_HOSTS:-:}
jobs=${SC_JOBS:-2}
threads=${SC_THREADS:-1}
block=${SC_BLOCK:-1M}
case $block in
    *[0-9]) bytes=$block ;;
    *K) bytes=$(( ${block%K} * 1024 )) ;;
    *M) bytes=$(( ${block%M} * 1048576 )) ;;
    *G) bytes=$(( ${block%G} * 1073741824 )) ;;
    *) bytes=x ;;
esac
case $bytes in
    *[!0-9]*|'') echo "$me: SC_BLOCK '$block' is not a size" >&2; exit 1 ;;
esac
if [ $((bytes % 4)) -ne 0 ] || [ "$bytes" -eq 0 ]; then
    echo "$me: SC_BLOCK $block is not a multiple of 4 bytes: blocks would cut elements" >&2
    exit 1
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/sc-scaleout.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

# blocks FILE COMMAND: COMMAND on each block of FILE (its standard
# input), spread over the hosts; the outputs joined in block order (-k).
# In COMMAND, {#} is the block's number, from 1.
blocks() {
    parallel -S "$hosts" -j "$jobs" --pipepart --block "$block" --recend '' \
        -k "$2" :::: "$1"
}
