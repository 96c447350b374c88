#!/usr/bin/env bash
# Generates random TCP captures (gen_stress.py) and checks that tcpscope's analysis flags agree
# with tshark 4.0's on every frame. Usage: stress_compare.sh CLI_TESTS_BINARY [FILES_PER_SET]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cli_tests="$1"
count="${2:-100}"
if ! command -v tshark >/dev/null || ! command -v python3 >/dev/null; then
    echo "stress_compare: tshark or python3 missing, comparison skipped"
    exit 0
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/a" "$work/b"
# Set a without the window-full pattern, set b with it (as the stress sets the rules were fitted on).
python3 "$here/gen_stress.py" 0 "$count" "$work/a" --no-window-full
python3 "$here/gen_stress.py" 1000 $((1000 + count)) "$work/b"
for set in a b; do
    TCPSCOPE_TSHARK_FLAGS_SAMPLES="$work/$set" "$cli_tests" "[tshark]"
done
