# bash completion for sc's tools: sc-gen, sc-compact, sc-split, sc-scan,
# sc-rsort and sc-stat.  The options, and what value each takes, are read
# from the tool's own --help, so they are always those of the sc at hand;
# only the values of the options that take a word from a fixed list are
# named here.

# _sc_options TOOL: its options, one "OPTION METAVAR" a line ("-" for
# none, and for an optional value), from --help: "-o, --output FILE",
# "--eq V --ne V ...", "--indices[=W]".
_sc_options()
{
    "$1" --help 2>/dev/null | awk '/^ +-/ {
        n = 0
        for (i = 1; i <= NF; i++) {
            f = $i
            if (f ~ /^--?[a-zA-Z]/) {
                alias = f ~ /,$/
                sub(/,$/, "", f)
                sub(/\[=[A-Z]+\]$/, "", f)    # an optional value: --indices[=W]
                names[++n] = f
                if (alias) continue
                meta = (i < NF && $(i + 1) ~ /^[A-Z]/) ? $(i + 1) : "-"
                for (k = 1; k <= n; k++) print names[k], meta
                n = 0
            } else if (f !~ /^[A-Z]/) break
        }
    }'
}

_sc_tool()
{
    local tool=$1 cword=$COMP_CWORD cur prev opts meta
    cur=${COMP_WORDS[cword]}
    prev=${COMP_WORDS[cword - 1]}
    # bash splits --in=gz at the '=': the value follows "--in" "=".
    if [[ $cur == = ]]; then
        cur=
    elif [[ $prev == = ]]; then
        prev=${COMP_WORDS[cword - 2]}
    fi
    COMPREPLY=()
    opts=$(_sc_options "$tool")
    if [[ $prev == -* ]]; then
        meta=$(printf '%s\n' "$opts" | awk -v o="$prev" '$1 == o { print $2 }')
        case $prev in
            --in) COMPREPLY=($(compgen -W 'auto raw gz zst text' -- "$cur")); return ;;
            -d|--device) COMPREPLY=($(compgen -W 'auto cpu cuda cuda:all' -- "$cur")); return ;;
            --dist) COMPREPLY=($(compgen -W 'uniform structured iota constant' -- "$cur")); return ;;
            --op) COMPREPLY=($(compgen -W 'sum max min xor' -- "$cur")); return ;;
            -e|--type)
                COMPREPLY=($(compgen -W 'u32 i32 f32 u64 i64 f64' -- "$cur")); return ;;
        esac
        case $meta in
            FILE|PATTERN) COMPREPLY=($(compgen -f -- "$cur")); return ;;
            DIR) COMPREPLY=($(compgen -d -- "$cur")); return ;;
            -|'') ;;
            *) return ;;    # a number, a size, bounds: nothing to offer
        esac
    fi
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$(printf '%s\n' "$opts" | awk '{ print $1 }')" -- "$cur"))
    elif [[ $tool != sc-gen ]]; then
        COMPREPLY=($(compgen -f -- "$cur"))
    fi
}

complete -o filenames -F _sc_tool sc-gen sc-compact sc-split sc-scan sc-rsort sc-stat
