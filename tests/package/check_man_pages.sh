#!/usr/bin/env bash
# Every option a program's --help prints must be in its man page, and every tcpscope-cli
# subcommand must have a page (tcpscope-cli-SUBCOMMAND), so the pages cannot drift from the code.
#   check_man_pages.sh MAN_DIR BIN_DIR
# MAN_DIR holds NAME.1 or NAME.1.gz; BIN_DIR holds tcpscope-cli, tcpscope-capture and, in builds
# with the GUI, tcpscope (run with the offscreen platform).
set -euo pipefail
man_dir=$1 bin_dir=$2
export QT_QPA_PLATFORM=offscreen

failures=0 pages=0 options=0

# The page as text: troff's font changes and escapes taken out ("\fB\-\-flow\fR" -> "--flow").
page_text() {
    local page
    for page in "$man_dir/$1.1.gz" "$man_dir/$1.1"; do
        if [[ -f $page ]]; then
            if [[ $page == *.gz ]]; then gzip -dc "$page"; else cat "$page"; fi |
                sed -e 's/\\f[BIRP]//g' -e 's/\\f(..//g' -e 's/\\-/-/g' -e 's/\\&//g' -e 's/\\(..//g'
            return 0
        fi
    done
    return 1
}

# check PAGE COMMAND...: every option COMMAND --help prints is in PAGE.
check() {
    local name=$1 help text option missing=()
    shift
    help=$("$@" --help 2>/dev/null)
    if ! text=$(page_text "$name"); then
        echo "MISSING PAGE: $name(1) for \`${*##*/} --help\` (looked in $man_dir)"
        failures=$((failures + 1))
        return
    fi
    pages=$((pages + 1))
    while read -r option; do
        options=$((options + 1))
        grep -qF -- "$option" <<<"$text" || missing+=("$option")
    done < <(grep -oE -- '(^|[[:space:],[(])--?[A-Za-z][A-Za-z0-9-]*' <<<"$help" | sed 's/^[[:space:],[(]//' | sort -u)
    if ((${#missing[@]} > 0)); then
        echo "DRIFT: $name(1) lacks ${missing[*]}, which --help prints"
        failures=$((failures + 1))
    fi
}

cli=$bin_dir/tcpscope-cli
check tcpscope-cli "$cli"
subcommands=$("$cli" --help | sed -n '/^Subcommands:/,$ s/^  \([a-z][a-z-]*\) .*/\1/p')
if [[ -z $subcommands ]]; then
    echo "no subcommands found in \`tcpscope-cli --help\`"
    failures=$((failures + 1))
fi
for subcommand in $subcommands; do
    check "tcpscope-cli-$subcommand" "$cli" "$subcommand"
done
# A page for a subcommand that is gone.
for page in "$man_dir"/tcpscope-cli-*.1*; do
    [[ -e $page ]] || continue
    subcommand=${page##*/tcpscope-cli-}
    subcommand=${subcommand%%.1*}
    if ! grep -qx -- "$subcommand" <<<"$subcommands"; then
        echo "STALE PAGE: $page, and tcpscope-cli has no subcommand $subcommand"
        failures=$((failures + 1))
    fi
done
check tcpscope-capture "$bin_dir/tcpscope-capture"
if [[ -x $bin_dir/tcpscope ]]; then
    check tcpscope "$bin_dir/tcpscope"
fi

echo "man pages: $pages pages, $options options from --help checked, $failures problems"
((failures == 0))
