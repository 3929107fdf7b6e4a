#!/usr/bin/env bats
# Where the output goes and what is refused before anything is written:
# standard output onto an input, -r against -o, symbolic links and modes,
# closed standard streams, missing inputs, file boundaries, and figures
# (-v, -P) that must say what really happened.

load test_helper

STREAMING="sc-compact sc-split sc-scan"

setup() {
    sc_setup
    require_tool sc-gen sc-compact sc-split sc-scan sc-rsort
    gen_file in.bin 20000 5 0.6
}

# ------------------------------------------------------ refused outputs

@test "outputs: standard output appended to an input is refused, nothing written" {
    for t in $STREAMING; do
        cp in.bin a.bin
        run -1 bash -c 'exec timeout 20 "$0" -c 4K a.bin >> a.bin' "$t"
        [[ "$output" == "$t: (standard output): output file is also an input" ]] ||
            { echo "# $t: $output" >&2; return 1; }
        expect_same in.bin a.bin
    done
}

@test "outputs: standard output onto standard input's file is refused" {
    cp in.bin a.bin
    run -1 bash -c 'exec timeout 20 sc-compact -c 4K < a.bin >> a.bin'
    [[ "$output" == *"output file is also an input"* ]]
    expect_same in.bin a.bin
}

@test "outputs: sc-rsort may still write its input through standard output" {
    cp in.bin a.bin
    sc-rsort a.bin > sorted.bin
    run -0 sc-rsort a.bin -o a.bin
    expect_same sorted.bin a.bin
}

@test "outputs: sc-split -r onto the -o file is refused, both left alone" {
    echo old > same.bin
    run -1 sc-split --gt 100 -r same.bin -o same.bin in.bin
    [[ "$output" == "sc-split: same.bin: rejects file is also the output" ]]
    [ "$(cat same.bin)" = old ]
    # Not there yet: the same name still clashes, however it is spelt.
    run -1 sc-split --gt 100 -r new.bin -o new.bin in.bin
    [ ! -e new.bin ]
    mkdir sub
    run -1 sc-split --gt 100 -r ./sub/../new.bin -o new.bin in.bin
    [ ! -e new.bin ]
}

@test "outputs: sc-split -r onto standard output's file is refused" {
    echo old > r.bin
    run -1 bash -c 'exec sc-split --gt 100 -r r.bin in.bin >> r.bin'
    [[ "$output" == *"rejects file is also the output"* ]]
    [ "$(cat r.bin)" = old ]
}

@test "outputs: sc-split -r - is a usage error (the groups would interleave)" {
    run sc-split --gt 100 -r - in.bin
    expect_usage sc-split
}

@test "outputs: an empty -o, -r or -T name is a usage error, nothing written" {
    for t in sc-gen $STREAMING sc-rsort; do
        if [ "$t" = sc-gen ]; then run "$t" -n 10 -o ''; else run "$t" -o '' in.bin; fi
        expect_usage "$t"
        [[ "$output" != *[0-9][0-9][0-9]* ]] || { echo "# $t wrote data: $output" >&2; return 1; }
    done
    run sc-split -r '' in.bin
    expect_usage sc-split
    # -T '' names no directory: not quietly $TMPDIR's
    for t in sc-split sc-rsort; do
        run "$t" -T '' -S 4K -o out in.bin
        expect_usage "$t"
        [[ "$output" == "$t: -T's directory name is empty"* ]] ||
            { echo "# $t: $output" >&2; return 1; }
        [ ! -e out ]
    done
}

# ------------------------------------------------- links, modes, streams

@test "outputs: -o through a symbolic link replaces its target, keeps the link and the mode" {
    for t in sc-compact sc-rsort; do
        printf 'old' > target.bin
        chmod 600 target.bin
        ln -sf target.bin link.bin
        run -0 "$t" -o link.bin in.bin
        [ -L link.bin ] || { echo "# $t replaced the link" >&2; return 1; }
        "$t" in.bin > want.bin
        expect_same want.bin target.bin
        [ "$(stat -c %a target.bin)" = 600 ] ||
            { echo "# $t: mode $(stat -c %a target.bin), expected 600" >&2; return 1; }
    done
}

@test "outputs: -o, -r or a part onto symbolic links in a loop is refused, as cp refuses it; the links stay" {
    ln -s loop.bin loop.bin
    ln -s b.bin a.bin
    ln -s a.bin b.bin
    local args
    for args in "sc-compact -o loop.bin" "sc-rsort -o loop.bin" "sc-scan -o a.bin" \
                "sc-split -r loop.bin -o sel.bin" "sc-split --ranges 5 -o loop.%d"; do
        [ "${args#*%d}" = "$args" ] || ln -sf loop.1 loop.1
        run_to got.out err.txt $args in.bin
        [ "$status" -eq 1 ] || { echo "# $args: status $status" >&2; return 1; }
        grep -q 'Too many levels of symbolic links' err.txt
        [ -L loop.bin ] && [ -L a.bin ] && [ -L b.bin ] ||
            { echo "# $args replaced a link" >&2; return 1; }
        [ ! -e sel.bin ] && [ ! -e loop.0 ]
    done
}

# as_user CMD...: CMD as a user other than root, in the current directory
# (made writable for it): directly when the tests are not run as root,
# else through setpriv as nobody; status 99 when neither can be.
as_user() {
    if [ "$(id -u)" -ne 0 ]; then
        "$@"
    elif command -v setpriv > /dev/null && id nobody > /dev/null 2>&1; then
        setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups "$@"
    else
        return 99
    fi
}

teardown() {
    [ -z "${U:-}" ] || rm -rf "$U"
}

# user_dir: a working directory that as_user's user may reach and write
# (the suite's own may sit under directories only root may enter).
user_dir() {
    U=$(mktemp -d /tmp/sc-user.XXXXXX)
    chmod 0777 "$U"
    cp in.bin "$U/in.bin" && chmod 0644 "$U/in.bin"
    cd "$U"
    if ! as_user true; then
        skip "running as root without setpriv or a user nobody: cannot test as a user"
    fi
    if ! as_user test -r in.bin; then
        skip "user nobody cannot reach $U"
    fi
}

@test "outputs: -o onto a file the user may not write is refused, as sort -o refuses it" {
    user_dir
    local t
    for t in sc-gen sc-compact sc-split sc-scan sc-rsort sc-stat; do
        as_user sh -c 'echo old > ro && chmod 0444 ro'
        if [ "$t" = sc-gen ]; then
            run -1 --separate-stderr as_user "$t" -n 5 -o ro
        else
            run -1 --separate-stderr as_user "$t" -o ro in.bin
        fi
        [ "$stderr" = "$t: ro: Permission denied" ] ||
            { echo "# $t: $stderr" >&2; return 1; }
        [ "$(cat ro)" = old ] && [ "$(stat -c %a ro)" = 444 ]
        rm -f ro
    done
    # The rejects file and the parts of a split by ranges too, with
    # nothing else written.
    as_user sh -c 'echo old > ro && chmod 0444 ro && echo old > p1 && chmod 0444 p1'
    run -1 --separate-stderr as_user sc-split --gt 5 -r ro -o out in.bin
    [ "$stderr" = "sc-split: ro: Permission denied" ]
    run -1 --separate-stderr as_user sc-split --ranges 9,99 -o 'p%d' in.bin
    [ "$stderr" = "sc-split: p1: Permission denied" ]
    [ ! -e out ] && [ ! -e p0 ] && [ ! -e p2 ] && [ "$(cat p1)" = old ]
    # A file the user may write is replaced as ever.
    as_user chmod 0644 ro
    run -0 as_user sc-gen -n 5 -o ro
    [ "$(nelems ro)" -eq 5 ]
    [ -z "$(ls -A | grep '^\.')" ]
}

@test "outputs: as root -o replaces a file of mode 0444, as sort -o does" {
    [ "$(id -u)" -eq 0 ] || skip "not root: the refusal is tested as a user"
    echo old > ro && chmod 0444 ro
    run -0 sc-gen -n 5 -o ro
    [ "$(nelems ro)" -eq 5 ] && [ "$(stat -c %a ro)" = 444 ]
}

@test "outputs: -o makes a new file: other hard links keep the old contents" {
    echo old > out
    ln out other
    run -0 sc-compact -o out in.bin
    sc-compact in.bin > want
    expect_same want out
    [ "$(cat other)" = old ]
    [ "$(stat -c %h out)" -eq 1 ] && [ "$(stat -c %h other)" -eq 1 ]
}

@test "outputs: a new -o file gets the umask's mode" {
    (umask 027 && sc-compact -o fresh.bin in.bin)
    [ "$(stat -c %a fresh.bin)" = 640 ]
}

@test "outputs: closed standard input with -o fails, no file is made" {
    # In a shell of its own: closed inside run, fd 0 could be taken by
    # bats' own pipes.
    run -1 bash -c 'exec sc-compact -o x.bin <&-'
    [[ "$output" == *"(standard input): read error"* ]]
    [ ! -e x.bin ]
}

@test "outputs: closed standard output is a write error, exit 1" {
    run -1 bash -c 'sc-gen -n 100 >&-'
    [[ "$output" == *"write error"* ]]
}

# ---------------------------------------------------------------- inputs

@test "outputs: a missing input anywhere in the list: nothing written, exit 1" {
    for t in $STREAMING sc-rsort; do
        run_to out.bin err.txt "$t" in.bin missing.bin
        [ "$status" -eq 1 ] && [ ! -s out.bin ] ||
            { echo "# $t: status $status, $(stat -c %s out.bin) bytes" >&2; return 1; }
        grep -q 'missing.bin: No such file' err.txt
    done
    run_to out.bin err.txt sc-rsort -m in.bin missing.bin
    [ "$status" -eq 1 ] && [ ! -s out.bin ]
}

@test "outputs: a directory as input is refused up front" {
    mkdir d
    run_to out.bin err.txt sc-compact in.bin d
    [ "$status" -eq 1 ] && [ ! -s out.bin ]
    grep -q 'd: Is a directory' err.txt
}

@test "outputs: text files are joined as by cat, lines counted per file" {
    printf '1 2' > a.txt
    printf '3 4' > b.txt
    run -0 sc-compact --in text -t a.txt b.txt
    [ "$output" = "$(cat a.txt b.txt | sc-compact --in text -t)" ]
    [ "$output" = "$(printf '1\n23\n4')" ]
    printf '1 2\n3\n' > f1.txt
    printf '4\n5\nbad\n' > f2.txt
    run_to out.txt err.txt sc-compact --in text -t f1.txt f2.txt
    [ "$status" -eq 1 ]
    [ "$(cat out.txt)" = "$(printf '1\n2\n3\n4\n5')" ]
    grep -qx "sc-compact: f2.txt: line 3: malformed number 'bad'" err.txt
}

@test "outputs: stray bytes at the end of joined files: the message says where" {
    sc-gen -n 1000 --dist iota --min 1 > good.bin
    { head -c 4000 good.bin; printf 'xyz'; } > odd.bin
    run_to out.bin err.txt sc-compact --ge 0 good.bin odd.bin
    [ "$status" -eq 1 ]
    cat good.bin good.bin > want.bin
    expect_same want.bin out.bin
    grep -qF 'odd.bin: the input ends with 3 stray bytes after 2000 whole elements (byte offset 8000 of the joined input files)' err.txt
    # A compressed input's offset counts its decompressed bytes, and says so
    gzip -c odd.bin > odd.gz
    run_to out.bin err.txt sc-compact --ge 0 odd.gz
    [ "$status" -eq 1 ]
    grep -qxF 'sc-compact: odd.gz: the input ends with 3 stray bytes after 1000 whole elements (byte offset 4000 of the decompressed data)' err.txt
    run_to out.bin err.txt sc-compact --ge 0 good.bin odd.gz
    grep -qxF 'sc-compact: odd.gz: the input ends with 3 stray bytes after 2000 whole elements (byte offset 8000 of the joined input files, decompressed)' err.txt
    # a compressed file before a raw one counts decompressed too
    gzip -c good.bin > good.gz
    run_to out.bin err.txt sc-compact --ge 0 good.gz odd.bin
    grep -qxF 'sc-compact: odd.bin: the input ends with 3 stray bytes after 2000 whole elements (byte offset 8000 of the joined input files, decompressed)' err.txt
}

@test "outputs: a malformed token with a NUL byte is shown escaped" {
    run_to out.bin err.txt sc-compact --in text < <(printf '1 2\0003')
    [ "$status" -eq 1 ]
    grep -qF "malformed number '2\\x003'" err.txt
}

@test "outputs: --in gz on empty input is empty output, exit 0" {
    run -0 sc-compact --in gz --count < /dev/null
    [ "$output" = 0 ]
    : > empty.gz
    run -0 sc-rsort --in gz empty.gz
    [ -z "$output" ]
}

# --------------------------------------------------------------- figures

@test "outputs: -v counts what went out: split's rejects, compact's --count" {
    sc-split --gt 1000000000 in.bin > /dev/null 2> err.txt -v
    grep -qx 'sc-split: elements: in 20000, out 20000' err.txt
    n=$(sc-compact --count in.bin)
    sc-compact --count -v in.bin 2> err.txt > /dev/null
    grep -qx "sc-compact: elements: in 20000, out $n" err.txt
}

@test "outputs: -v and -P give sizes and rates in binary units (MiB, as -S and -c count), never MB" {
    sc-gen -n 1M --dist iota -z > iota.gz
    local t
    for t in sc-compact sc-split sc-scan sc-stat sc-rsort; do
        $t -v -P iota.gz 2> err.txt > /dev/null
        tr '\r' '\n' < err.txt > lines.txt
        # 4 MiB decoded: said as 4.0 MiB, not as 4.2 MB
        grep -qE "^$t: input iota.gz: .*, 4\.0 MiB decoded at [0-9]+ MiB/s$" lines.txt ||
            { echo "# $t: $(cat lines.txt)" >&2; return 1; }
        grep -qE "^$t: [0-9.]+ MiB read, [0-9.]+ MiB/s" lines.txt
        if grep -E '[0-9] [KMGT]B\b|[KMGT]B/s' lines.txt; then
            echo "# $t printed a decimal unit" >&2; return 1
        fi
    done
}

@test "outputs: -P shows no percent for a gzip input found by auto-detection" {
    sc-gen -n 1M --dist iota -z > iota.gz
    sc-rsort -P iota.gz 2> err.txt > /dev/null
    # The read phase only: sorting and writing know their size.
    if grep 'MiB read' err.txt | grep -q '%'; then echo "# $(grep 'MiB read' err.txt | tail -n 1)" >&2; return 1; fi
    sc-compact -P in.bin 2> err.txt > /dev/null
    tr '\r' '\n' < err.txt | grep -q '100%'
}

@test "outputs: sc-rsort -C -P knows the input's size" {
    sc-rsort in.bin > s.bin
    sc-rsort -C -P s.bin 2> err.txt
    tr '\r' '\n' < err.txt | grep -q '100%'
}

# ---------------------------------------------------------- option values

@test "outputs: -t with -z is a usage error, in either order" {
    run sc-gen -n 3 -t -z
    expect_usage sc-gen
    run sc-compact -z -t in.bin
    expect_usage sc-compact
}

@test "outputs: numbers with blanks, signs or a doubled 0x are usage errors" {
    for v in ' 5' $'\t5' $'\n5' '+5' '0x0x10' '0x' '5 '; do
        run sc-gen -n "$v"
        expect_usage sc-gen
    done
    run -0 sc-gen -n 0x10
    [ "${#output}" -eq 64 ]
}

@test "outputs: -d '' is a usage error; an empty SC_DEVICE means auto" {
    run sc-compact -d '' in.bin
    expect_usage sc-compact
    SC_DEVICE= sc-compact --count in.bin
}

@test "outputs: a bad SC_DEVICE is named as SC_DEVICE's, since no -d was given" {
    SC_DEVICE=foo run sc-rsort in.bin
    expect_usage sc-rsort
    [[ "$output" == "sc-rsort: invalid SC_DEVICE 'foo' ("* ]]
    run sc-rsort -d foo in.bin
    expect_usage sc-rsort
    [[ "$output" == "sc-rsort: invalid device 'foo' ("* ]]
    SC_DEVICE=foo sc-compact -d cpu --count in.bin > /dev/null
}

@test "outputs: cuda:N of a GPU that is not there is a device failure, exit 1" {
    run -1 sc-compact -d cuda:5000 --count in.bin
    [[ "$output" != *"--help"* ]]
}

@test "outputs: a -c far above a known input's size costs no more than the input" {
    run -0 sc-gen -n 1000 -c 2T
    [ "${#output}" -gt 0 ]
    sc-gen -n 1000 -c 2T | cmp - <(sc-gen -n 1000)
    sc-rsort in.bin > s.bin
    run -0 sc-rsort -C -c 1T s.bin
    run -0 sc-compact -c 1T --count in.bin
}

@test "outputs: sc-gen --help lists no --in, sc-compact's does" {
    run -0 sc-gen --help
    [[ "$output" != *"--in FMT"* ]]
    run -0 sc-compact --help
    [[ "$output" == *"--in FMT"* ]]
}

@test "outputs: sc-rsort -m with more inputs than open files allows: refused, nothing written" {
    # Limits well above the 30 to 40 descriptors a CUDA context takes, so
    # that with SC_DEVICE=cuda the GPU starts and the merge is what fails.
    for i in $(seq 1 120); do sc-gen -n 10 -s "$i" | sc-rsort > "f$i"; done
    run_to out.bin err.txt bash -c 'ulimit -Sn 100 && ulimit -Hn 100 && exec sc-rsort -m f*'
    [ "$status" -eq 1 ] && [ ! -s out.bin ]
    grep -q 'with 120 inputs needs more open files than the limit of 100' err.txt
    # Within the limit it merges, lifting the soft limit to the hard one.
    run_to out.bin err.txt bash -c 'ulimit -Sn 100 && ulimit -Hn 400 && exec sc-rsort -m f*'
    [ "$status" -eq 0 ]
    cat f* | sc-rsort | cmp - out.bin
}

@test "outputs: zeros padding the end of a gzip file are taken as gzip -d takes them" {
    sc-gen -n 1000 -s 3 -z > a.gz
    { cat a.gz; head -c 10000 /dev/zero; } > padded.gz
    gzip -dc a.gz > want.bin
    run_to got.bin err.txt sc-compact --ge 0 padded.gz
    [ "$status" -eq 0 ] && [ ! -s err.txt ]
    expect_same want.bin got.bin
    # Padding with something after it is still garbage, also a member
    # after padding longer than the reader's 1 MiB buffer.
    { cat a.gz; head -c 100 /dev/zero; printf x; } > bad.gz
    { cat a.gz; head -c 2000000 /dev/zero; cat a.gz; } > bad2.gz
    for f in bad.gz bad2.gz; do
        run_to got.bin err.txt sc-compact --ge 0 "$f"
        [ "$status" -eq 1 ]
        grep -q 'trailing garbage' err.txt
        expect_same want.bin got.bin
    done
}

@test "outputs: a slow live stream flows through: output before the input ends" {
    for fmt in "--in text -t" "--ge 0"; do
        rm -f out done
        # The producer sends one element, waits, then ends; "done" marks
        # that it has gone on.
        {
            if [ "$fmt" = "--ge 0" ]; then u32le 7; else echo 7; fi
            sleep 6; : > done
        } | sc-compact $fmt > out &
        local pid=$! waited=0
        while [ ! -s out ] && [ "$waited" -lt 50 ]; do sleep 0.1; waited=$((waited + 1)); done
        [ -s out ] && [ ! -e done ] ||
            { echo "# $fmt: nothing came out while the producer waited" >&2; kill $pid; return 1; }
        wait $pid
    done
}
