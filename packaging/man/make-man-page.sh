#!/bin/sh
# Writes one man page from a program's --help with help2man, gzipped as Debian wants them.
#   make-man-page.sh HELP2MAN PROGRAM VERSION OUT.1 [SEE-ALSO-PAGE...]
# PROGRAM is run as `PROGRAM --help`; its name is the page's. The page's one-line description is
# the first line of --help that is not a usage line, without a leading "NAME: ".
set -eu
help2man=$1 program=$2 version=$3 out=$4
shift 4
name=$(basename "$program")

description=$("$program" --help 2>/dev/null | grep -v -e '^Usage:' -e '^[[:space:]]*$' | head -n 1 | sed "s/^$name: //")
include=$out.include
{
    echo "[SEE ALSO]"
    # ".BR tcpscope\-cli (1)," one line per page: the name bold, the section and comma roman.
    count=$#
    for page in "$@"; do
        count=$((count - 1))
        separator=","
        [ "$count" -eq 0 ] && separator=""
        echo ".BR $(echo "${page%(1)}" | sed 's/-/\\-/g') (1)$separator"
    done
} > "$include"

# The programs' stderr (Qt's notes on a missing XDG_RUNTIME_DIR, ...) only when help2man fails.
if ! "$help2man" --no-info --version-string="$version" --source="tcpscope $version" --name="$description" \
    --include="$include" --output="$out" "$program" 2>"$out.stderr"; then
    cat "$out.stderr" >&2
    exit 1
fi
rm -f "$include" "$out.stderr"
gzip -9nf "$out"
