#!/usr/bin/env bash
# Runs a test that needs a set of public captures from outside the project, or skips it (exit 77,
# ctest's SKIP_RETURN_CODE) with the reason when the set is absent. The set is looked for in the
# project's data/SET (scripts/fetch-public-captures.sh puts it there), then in ../shared/captures/SET
# beside the project. The folder found replaces @CAPTURES@ in the command's arguments and is in
# $TCPSCOPE_PUBLIC_CAPTURES.
# Usage: tests/with_public_captures.sh SET COMMAND [ARGUMENT...]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
set="${1:?usage: with_public_captures.sh SET COMMAND [ARGUMENT...]}"
shift

folder=""
for candidate in "$root/data/$set" "$root/../shared/captures/$set"; do
    if [[ -d "$candidate" ]] && [[ -n "$(find "$candidate" -maxdepth 1 -type f -name '*.pcap*' -print -quit)" ]]; then
        folder="$(cd "$candidate" && pwd)"
        break
    fi
done
if [[ -z "$folder" ]]; then
    echo "skipped: the public captures '$set' are not here (looked in data/$set and ../shared/captures/$set);" \
        "scripts/fetch-public-captures.sh gets them"
    exit 77
fi
echo "public captures: $folder"
export TCPSCOPE_PUBLIC_CAPTURES="$folder"
arguments=()
for argument in "$@"; do
    arguments+=("${argument//@CAPTURES@/$folder}")
done
exec "${arguments[@]}"
