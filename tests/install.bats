#!/usr/bin/env bats
# The library as users meet it: the installed header and pkg-config file,
# the libsc(3) example, and the example pipelines of examples/.

load test_helper

@test "install: libsc(3)'s example is examples/libsc-example.c, verbatim" {
    # The man page escapes backslashes as \e; undo that and compare.  It
    # is the section's first program (the second, on records, docs.bats
    # builds and runs).
    sed -n '/^\.SH EXAMPLES/,/^\.SH /p' "$SC_SRCDIR/man/libsc.3" |
        sed -n '/^\.nf$/,/^\.fi$/{p;/^\.fi$/q;}' | sed '1d;$d' |
        sed 's/\\e/\\/g' > from-man.c
    diff -u "$SC_SRCDIR/examples/libsc-example.c" from-man.c
}

@test "install: the example program built by make check runs and succeeds" {
    run "$SC_BUILDDIR/examples/libsc-example"
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" == *"match"* ]]
}

@test "install: a program linked through pkg-config against an installed libsc runs as it is" {
    make -s -C "$SC_BUILDDIR" install prefix="$T/prefix" >install.log 2>&1 ||
        { cat install.log; return 1; }
    [ -f "$T/prefix/include/sc.h" ]
    [ -f "$T/prefix/include/sc_dev.h" ]
    [ -f "$T/prefix/include/sc_stream.h" ]
    [ -f "$T/prefix/lib/pkgconfig/sc.pc" ]
    [ -f "$T/prefix/share/man/man3/libsc.3" ]
    export PKG_CONFIG_PATH="$T/prefix/lib/pkgconfig"
    unset LD_LIBRARY_PATH
    # sc.pc is written for the prefix make install was given.
    [ "$(pkg-config --variable=libdir sc)" = "$T/prefix/lib" ]
    cc -std=c11 -Wall -Wextra -Werror ${SC_CC_FLAGS:-} -o example \
        "$SC_SRCDIR/examples/libsc-example.c" $(pkg-config --cflags --libs sc)
    # No LD_LIBRARY_PATH: sc.pc's rpath finds libsc.so in a private prefix.
    ldd ./example | grep -q "$T/prefix/lib/libsc\.so"
    ./example
    # The installed tools run too (libtool linked them for the configured
    # libdir, not make install's prefix: the loader is told).
    export LD_LIBRARY_PATH="$T/prefix/lib"
    "$T/prefix/bin/sc-gen" -n 1000 --density 0.5 | "$T/prefix/bin/sc-compact" --count
}

@test "install: sc.pc carries an rpath only for a libdir the dynamic linker does not search" {
    make -s -C "$SC_BUILDDIR" sc.pc prefix=/usr
    grep -q '^Libs: -L${libdir} -lsc$' "$SC_BUILDDIR/sc.pc"
    make -s -C "$SC_BUILDDIR" sc.pc prefix="$T/elsewhere"
    grep -q '^Libs: -L${libdir} -Wl,-rpath,${libdir} -lsc$' "$SC_BUILDDIR/sc.pc"
    grep -q '^libdir=${prefix}/lib$' "$SC_BUILDDIR/sc.pc"
    make -s -C "$SC_BUILDDIR" sc.pc
}

@test "install: cc -static links a static program through pkg-config --static" {
    # gcc refuses -static with the sanitizers' runtimes.
    [ -z "${ASAN_OPTIONS:-}${TSAN_OPTIONS:-}" ] ||
        skip "sanitizer build: the sanitizers do not link statically"
    make -s -C "$SC_BUILDDIR" install prefix="$T/prefix" >install.log 2>&1 ||
        { cat install.log; return 1; }
    export PKG_CONFIG_PATH="$T/prefix/lib/pkgconfig"
    ! pkg-config --static --libs sc | grep -q cudart ||
        skip "a CUDA build: CUDA's runtime loads the driver, no static program"
    echo 'int main(void) { return 0; }' > t.c
    cc -static -o t t.c 2>/dev/null || skip "no static C library here"
    # Debian ships some of libsc's libraries (ISA-L) without an archive.
    for lib in $(pkg-config --static --libs-only-l sc); do
        a=lib${lib#-l}.a
        [ "$(cc -print-file-name="$a")" != "$a" ] ||
            skip "no static $a here (libsc(3), Linking)"
    done
    # libsc.so sits beside libsc.a: -static makes the linker take the archive
    # (libsc(3), "Linking").
    cc -static -std=c11 ${SC_CC_FLAGS:-} -o example \
        "$SC_SRCDIR/examples/libsc-example.c" $(pkg-config --static --cflags --libs sc)
    run ldd ./example
    [[ "$output" == *"not a dynamic executable"* ]]
    ./example
}

@test "install: libsc.a alone (configure --disable-shared): pkg-config --static links it" {
    make -s -C "$SC_BUILDDIR" install prefix="$T/prefix" >install.log 2>&1 ||
        { cat install.log; return 1; }
    [ -f "$T/prefix/lib/libsc.a" ]
    # Only the archive left, as --disable-shared installs, so -lsc must
    # take it and Libs.private must bring all it needs (zlib, zstd, libm,
    # threads; CUDA's static runtime).
    rm -f "$T/prefix/lib"/libsc.so*
    export PKG_CONFIG_PATH="$T/prefix/lib/pkgconfig"
    flags=$(pkg-config --static --cflags --libs sc)
    cc -std=c11 ${SC_CC_FLAGS:-} -o example \
        "$SC_SRCDIR/examples/libsc-example.c" $flags
    ! ldd ./example | grep -q 'libsc\.so'
    ./example
}

@test "install: every example pipeline runs and succeeds on a small size" {
    for s in "$SC_SRCDIR"/examples/*.sh; do
        run sh "$s" 64K
        echo "# $(basename "$s"): status $status" >&2
        [ "$status" -eq 0 ] || { echo "$output" >&2; return 1; }
    done
}

@test "install: the examples find the tools of their build tree without PATH" {
    mkdir tree
    cp -R "$SC_SRCDIR/examples" tree/examples
    ln -s "$SC_BUILDDIR/bin" tree/bin
    for s in tree/examples/*.sh; do
        run env PATH=/usr/bin:/bin sh "$s" 4K
        [ "$status" -eq 0 ] || { echo "# $s: $output" >&2; return 1; }
    done
}

@test "install: the examples are installed in \$(docdir)/examples and run there" {
    make -s -C "$SC_BUILDDIR" install DESTDIR="$T/dest" prefix=/opt/sc \
        >install.log 2>&1 || { cat install.log; return 1; }
    ex=$T/dest/opt/sc/share/doc/sc/examples
    [ -f "$ex/README.md" ] && [ -f "$ex/libsc-example.c" ]
    [ -f "$ex/scaleout/common.sh" ] && [ -x "$ex/scaleout/sort.sh" ]
    # Every script of the tree is installed, executable.
    for s in "$SC_SRCDIR"/examples/*.sh "$SC_SRCDIR"/examples/scaleout/*.sh; do
        rel=${s#"$SC_SRCDIR"/examples/}
        [ -f "$ex/$rel" ] || { echo "# $rel not installed" >&2; return 1; }
        [ "$rel" = scaleout/common.sh ] || [ -x "$ex/$rel" ] ||
            { echo "# $rel not executable" >&2; return 1; }
    done
    # There they take the tools on PATH: the installed ones.
    for s in "$ex"/*.sh; do
        run env PATH="$T/dest/opt/sc/bin:/usr/bin:/bin" \
            LD_LIBRARY_PATH="$T/dest/opt/sc/lib" "$s" 4K
        [ "$status" -eq 0 ] || { echo "# $s: $output" >&2; return 1; }
    done
}

@test "install: a quiet build: silent rules by default, ar without 'u'" {
    grep -q '^AM_DEFAULT_VERBOSITY = 0$' "$SC_BUILDDIR/Makefile"
    grep -q '^ARFLAGS = cr$' "$SC_BUILDDIR/Makefile"
    grep -q '^lt_ar_flags=cr$' "$SC_BUILDDIR/libtool"
    # What the archiver now gets says nothing.
    echo 'int f(void) { return 1; }' > f.c
    cc -c f.c -o f.o
    run ar cr libf.a f.o
    [ "$status" -eq 0 ] && [ -z "$output" ]
}

@test "install: README's first pipeline prints what README says" {
    want=$(sed -n 's/^It prints `\([0-9]*\)`.*/\1/p' "$SC_SRCDIR/README.md")
    [ -n "$want" ]
    [ "$(sc-gen -n 64M --density 0.3 | sc-compact --count)" = "$want" ]
}

@test "install: the version is the same in the tools, the header and pkg-config" {
    v=$(sed -n 's/^#define SC_VERSION_STRING "\(.*\)"/\1/p' "$SC_SRCDIR/lib/core/sc.h")
    [ -n "$v" ]
    for t in sc-gen sc-compact sc-split sc-scan sc-rsort sc-stat; do
        run "$t" --version
        [ "$status" -eq 0 ]
        [[ "$output" == *"$v"* ]]
    done
    grep -q "^Version: $v\$" "$SC_BUILDDIR/sc.pc"
}

@test "install: libsc exports the functions of sc.h, sc_dev.h and sc_stream.h and nothing else" {
    so=$(ls "$SC_BUILDDIR"/lib/.libs/libsc.so.[0-9]* 2>/dev/null | head -n 1)
    [ -n "$so" ] || skip "no shared libsc in this build"
    sed -n 's/^[A-Za-z0-9_ ]*[ *]\(sc_[a-z0-9_]*\)(.*/\1/p' \
        "$SC_SRCDIR/lib/core/sc.h" "$SC_SRCDIR/lib/core/sc_dev.h" \
        "$SC_SRCDIR/lib/core/sc_stream.h" | sort > api.txt
    [ "$(wc -l < api.txt)" -gt 30 ]
    nm -D --defined-only "$so" | awk '$2 ~ /^[TDBRW]$/ { print $3 }' |
        grep -v '^_' | sort > exported.txt
    diff -u api.txt exported.txt
}
