#!/usr/bin/env bash
# Gets the public captures the accuracy and robustness tests read, for a clone without the team's
# shared folder beside it. Each set is listed in the project with every file's repository, commit,
# path and SHA-256: tests/realworld/sources.tsv (126 captures of real traffic, for precision and
# recall and the tshark comparison) and tests/tcpdump-tests/sources.tsv (406 captures of tcpdump's
# test suite, for the readers' robustness).
#
# Usage: scripts/fetch-public-captures.sh [--from DIR] [--to DIR] [--set realworld|tcpdump-tests]
#   --from DIR  copy the files from DIR (a folder holding the files of a set, or a folder holding
#               realworld/ and tcpdump-tests/) instead of downloading them from GitHub
#   --to DIR    where each set goes: DIR/SET (default: data/ in the project, where the tests look
#               first; they look in ../shared/captures/ next)
#   --set SET   only this set (default: both)
# Every file is checked against its listed SHA-256; a file that does not match is refused (not
# copied) and the script exits 1. Files already in place with the right hash are kept.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"

from=""
to="$root/data"
sets=(realworld tcpdump-tests)
while (($# > 0)); do
    case "$1" in
        --from) from="${2:?--from needs a folder}"; shift 2 ;;
        --to) to="${2:?--to needs a folder}"; shift 2 ;;
        --set) sets=("${2:?--set needs realworld or tcpdump-tests}"); shift 2 ;;
        -h | --help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "fetch: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
done
for set in "${sets[@]}"; do
    if [[ ! -f "$root/tests/$set/sources.tsv" ]]; then
        echo "fetch: no set '$set' (realworld or tcpdump-tests)" >&2
        exit 2
    fi
done
if [[ -n "$from" && ! -d "$from" ]]; then
    echo "fetch: --from $from: no such folder" >&2
    exit 2
fi
if [[ -z "$from" ]] && ! command -v curl >/dev/null; then
    echo "fetch: curl is needed to download the captures (or give --from DIR)" >&2
    exit 2
fi

sha256Of() { sha256sum "$1" | cut -d' ' -f1; }

refused=0
unavailable=0
for set in "${sets[@]}"; do
    list="$root/tests/$set/sources.tsv"
    target="$to/$set"
    # With --from, the set's files are in DIR/SET or in DIR itself.
    source=""
    if [[ -n "$from" ]]; then
        first=$(awk -F'\t' 'NR == 2 { print $1 }' "$list")
        if [[ -f "$from/$set/$first" ]]; then
            source="$from/$set"
        elif [[ -f "$from/$first" ]]; then
            source="$from"
        else
            echo "fetch: $set: not in $from (no $first there, nor in $from/$set); skipped"
            continue
        fi
    fi
    mkdir -p "$target"
    kept=0
    got=0
    missing=0
    started=$(date +%s)
    while IFS=$'\t' read -r file repository commit path sha256; do
        [[ "$file" == "file" ]] && continue  # the header
        if [[ "$file" == */* || "$file" == .* ]]; then
            echo "fetch: $list: '$file' is not a plain file name; skipped" >&2
            refused=$((refused + 1))
            continue
        fi
        destination="$target/$file"
        if [[ -f "$destination" && "$(sha256Of "$destination")" == "$sha256" ]]; then
            kept=$((kept + 1))
            continue
        fi
        partial="$destination.part"
        if [[ -n "$source" ]]; then
            if [[ ! -f "$source/$file" ]]; then
                echo "fetch: $set/$file: not in $source" >&2
                missing=$((missing + 1))
                continue
            fi
            cp "$source/$file" "$partial"
        else
            url="https://raw.githubusercontent.com/$repository/$commit/$path"
            if ! curl -fsSL --retry 2 -o "$partial" "$url"; then
                rm -f "$partial"
                echo "fetch: $set/$file: cannot download $url" >&2
                missing=$((missing + 1))
                continue
            fi
        fi
        actual=$(sha256Of "$partial")
        if [[ "$actual" != "$sha256" ]]; then
            rm -f "$partial"
            echo "fetch: $set/$file: refused: its SHA-256 is $actual, the list says $sha256 (a corrupt or different copy)" >&2
            refused=$((refused + 1))
            continue
        fi
        mv "$partial" "$destination"
        got=$((got + 1))
    done <"$list"
    total=$(($(wc -l <"$list") - 1))
    how="copied from $source"
    [[ -z "$source" ]] && how="downloaded"
    echo "fetch: $set: $got $how, $kept already there, $missing missing, of $total listed, into $target" \
        "($(($(date +%s) - started)) s)"
    unavailable=$((unavailable + missing))
done
if ((refused > 0)); then
    echo "fetch: $refused file(s) refused: they do not match their listed hash" >&2
fi
if ((refused > 0 || unavailable > 0)); then
    exit 1
fi
