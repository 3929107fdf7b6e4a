# tools-env.sh — sourced by the bench scripts that run the tools of a
# build: the C locale, and for an uninstalled build's real programs
# (BIN ending in .libs) the library's path.  Expects BIN set.
LC_ALL=C
export LC_ALL
case $BIN in
*/.libs) LD_LIBRARY_PATH="$BIN/../../lib/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
         export LD_LIBRARY_PATH ;;
esac

# best CMD: the best wall time of 3 runs (1 when one takes over 3 s), or
# "FAIL"; CMD's output files are $D/out or $D/copy (D: the script's
# scratch directory).
best() {
    b=
    for i in 1 2 3; do
        # A fresh output file each time: overwriting the last run's pays
        # for freeing its pages, and made the third device's sort look
        # slow (0.78-1.15 s for one cat <F >out of 1 GiB).
        rm -f "$D/out" "$D/copy"
        t0=$(date +%s.%N)
        sh -c "$1" >/dev/null 2>"$D/err" || { echo FAIL; return; }
        t1=$(date +%s.%N)
        t=$(awk "BEGIN { printf \"%.4f\", $t1 - $t0 }")
        if [ -z "$b" ] || awk "BEGIN { exit !($t < $b) }"; then b=$t; fi
        awk "BEGIN { exit !($t > 3) }" && break
    done
    echo "$b"
}
