#!/usr/bin/env bats
# Shell completion (completions/): bash's from the tools' own --help, the
# values of the options that take a word from a list, files and
# directories where an option takes one; and where make install puts it.

load test_helper

# comp WORD...: what bash completion offers for the last WORD of the
# command line WORD..., one a line, sorted.  Runs in a bash of its own
# that sourced completions/sc.bash, as bash-completion does.
comp() {
    bash -c '
        source "$SC_SRCDIR/completions/sc.bash" || exit 1
        COMP_WORDS=("$@")
        COMP_CWORD=$(( $# - 1 ))
        COMP_LINE="$*"
        COMP_POINT=${#COMP_LINE}
        _sc_tool "$1" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
        [ "${#COMPREPLY[@]}" -eq 0 ] || printf "%s\n" "${COMPREPLY[@]}"
    ' comp "$@" | sort
}

@test "completion: the six tools are registered" {
    run bash -c 'source "$SC_SRCDIR/completions/sc.bash" && complete -p'
    for t in sc-gen sc-compact sc-split sc-scan sc-rsort sc-stat; do
        grep -qx -- "complete -o filenames -F _sc_tool $t" <<< "$output"
    done
}

@test "completion: a tool's options are those of its --help" {
    local t
    for t in sc-gen sc-compact sc-split sc-scan sc-rsort sc-stat; do
        comp "$t" - > got
        "$t" --help | grep -E '^ +-' | grep -oE -- '(^|[ ,])--?[a-zA-Z][a-z-]*' |
            tr -d ' ,' | sort -u > want
        diff -u want got
    done
    [ "$(comp sc-stat --h | tr '\n' ' ')" = "--head --help --hist " ]
    # sc-stat's report is text: no format options to offer.
    ! comp sc-stat -- | grep -qE -- '--gzip|--zstd|--level|--force'
    comp sc-rsort --u | grep -qx -- --unique
}

@test "completion: the values of --in, --device, --dist, --op and --type, each one the tool takes" {
    [ "$(comp sc-compact --in '' | tr '\n' ' ')" = "auto gz raw text zst " ]
    [ "$(comp sc-compact --in = g)" = gz ]
    [ "$(comp sc-split -d cu | tr '\n' ' ')" = "cuda cuda:all " ]
    [ "$(comp sc-scan --op m | tr '\n' ' ')" = "max min " ]
    local v
    for v in $(comp sc-compact --in ''); do
        [ "$v" = zst ] && ! sc-gen -n 0 --zstd >/dev/null 2>&1 && continue
        sc-gen -n 0 | sc-compact --in "$v" > /dev/null
    done
    for v in $(comp sc-gen --dist ''); do sc-gen --dist "$v" -n 4 > /dev/null; done
    for v in $(comp sc-scan --op ''); do sc-gen -n 4 | sc-scan --op "$v" > /dev/null; done
    local t
    for t in sc-gen sc-compact sc-split sc-scan sc-rsort sc-stat; do
        [ "$(comp $t -e '' | LC_ALL=C sort | tr '\n' ' ')" = "f32 f64 i32 i64 u32 u64 " ]
    done
    # every type completed is one each tool takes
    for v in $(comp sc-compact --type ''); do
        for t in sc-compact sc-split sc-scan sc-rsort sc-stat; do
            sc-gen -n 4 -e "$v" | $t --type "$v" -o /dev/null ||
                { echo "# $t --type $v" >&2; return 1; }
        done
    done
    for v in $(comp sc-gen --device ''); do
        # no GPU here is exit 1; a value it does not know would be 2
        run sc-gen --device "$v" -n 4 -o /dev/null
        [ "$status" -ne 2 ]
    done
}

@test "completion: files for FILE, directories for DIR, nothing for a number" {
    mkdir adir
    touch afile
    [ "$(comp sc-compact -o a | tr '\n' ' ')" = "adir afile " ]
    [ "$(comp sc-split --rejects a | tr '\n' ' ')" = "adir afile " ]
    [ "$(comp sc-rsort -T a)" = adir ]
    [ -z "$(comp sc-stat --hist a)" ]
    # sc-rsort's -r is --reverse, which takes nothing: the next word is a file
    [ "$(comp sc-rsort -r a | tr '\n' ' ')" = "adir afile " ]
    [ "$(comp sc-stat a | tr '\n' ' ')" = "adir afile " ]
}

@test "completion: make install puts bash's under each tool's name, and zsh's" {
    make -s -C "$SC_BUILDDIR" install DESTDIR="$T/dest" prefix=/opt/sc \
        >install.log 2>&1 || { cat install.log; return 1; }
    dir=$(sed -n 's/^bashcompdir = //p' "$SC_BUILDDIR/Makefile" |
          sed 's|${datadir}|/opt/sc/share|; s|${prefix}|/opt/sc|')
    for t in sc-gen sc-compact sc-split sc-scan sc-rsort sc-stat; do
        cmp "$SC_SRCDIR/completions/sc.bash" "$T/dest$dir/$t"
    done
    cmp "$SC_SRCDIR/completions/_sc" "$T/dest/opt/sc/share/zsh/site-functions/_sc"
    make -s -C "$SC_BUILDDIR" uninstall DESTDIR="$T/dest" prefix=/opt/sc \
        >uninstall.log 2>&1 || { cat uninstall.log; return 1; }
    [ -z "$(find "$T/dest" -type f)" ]
}

@test "completion: zsh's file loads and completes a tool's options" {
    command -v zsh >/dev/null || skip "zsh is not installed"
    run zsh -fc 'fpath=("$SC_SRCDIR/completions" $fpath); autoload -Uz compinit &&
                 compinit -u -D && print -r -- ${_comps[sc-stat]}'
    [ "$status" -eq 0 ] && [ "$output" = _sc ]
}
