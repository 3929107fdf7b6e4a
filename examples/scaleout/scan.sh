#!/bin/sh
# scan.sh -- a prefix scan of a large file in two passes through GNU
# parallel, joined into the scan of the whole:
#   1. each block's --total (its reduction), on the hosts;
#   2. the exclusive prefix of those totals: each block's carry-in;
#   3. each block scanned from its --carry-in, on the hosts, in order.
# Checked against sc-scan of the whole on one host, for the sum, the
# inclusive max (-i --op max), and the 64-bit sum (-w).
#
# Usage: scan.sh [COUNT]   (default 4M elements; K, M, G suffixes)
# Knobs: SC_HOSTS, SC_JOBS, SC_THREADS, SC_BLOCK, TMPDIR (see common.sh).
set -eu
. "$(dirname "$0")/common.sh"

n=${1:-4M}
all=$tmp/all.u32
sc-gen -n "$n" -s 5 -o "$all"
echo "input:   $(( $(wc -c < "$all") / 4 )) elements, blocks of $block," \
     "hosts '$hosts', $jobs jobs x $threads threads"

for opts in "" "-i --op max" "-w"; do
    # 1. One total per block, in block order.
    blocks "$all" "sc-scan -j $threads $opts --total" > "$tmp/totals"
    # 2. The carries: an exclusive scan of the totals with the same
    # operator (also for -i: a block starts from all that came before).
    # 32-bit totals are scanned by sc-scan itself; -w's are 64-bit, past
    # what text input holds, so the shell adds them (below 2^63).
    case $opts in
        -w) c=0
            while read -r t; do echo "$c"; c=$((c + t)); done \
                < "$tmp/totals" > "$tmp/carries" ;;
        *)  # shellcheck disable=SC2086  # $opts is a list of options
            sc-scan ${opts#-i} --in text -t "$tmp/totals" > "$tmp/carries" ;;
    esac
    # 3. Block {#} reads its carry from line {#} of the carries (on other
    # hosts the file must be there too: TMPDIR shared, or --basefile).
    blocks "$all" \
        "sc-scan -j $threads $opts --carry-in \$(sed -n {#}p $tmp/carries)" \
        > "$tmp/joined"
    # shellcheck disable=SC2086
    sc-scan $opts "$all" | cmp - "$tmp/joined"
    printf 'scan %-12s %s blocks, joined = sc-scan of the whole\n' \
        "$opts" "$(wc -l < "$tmp/totals")"
done
echo "ok"
