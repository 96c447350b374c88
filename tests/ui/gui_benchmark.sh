#!/usr/bin/env bash
# Responsiveness of the GUI on a capture of a million packets: time to first results, to the
# complete results and the timeline's lanes, the event loop's worst wait while loading, and the
# time per redraw of the timeline widget at three zooms, and the peak resident memory (when the
# lanes are in, and at the end). Runs the hidden [gui-benchmark] case of
# ui_tests RUNS times (offscreen platform) and prints the median of each figure.
#
#   tests/ui/gui_benchmark.sh BUILD_DIR [RUNS] [PACKETS]      e.g. tests/ui/gui_benchmark.sh build/release 5
set -euo pipefail

build=${1:?usage: gui_benchmark.sh BUILD_DIR [RUNS] [PACKETS]}
runs=${2:-5}
packets=${3:-1000000}
capture=${TCPSCOPE_GUI_BENCH_CAPTURE:-${TMPDIR:-/tmp}/tcpscope-gui-bench-w1-${packets}.pcap}

if [[ ! -s "$capture" ]]; then
    "$build/app/tcpscope-cli" generate --workload w1 --packets "$packets" --out "$capture"
fi
log=$(mktemp)
trap 'rm -f "$log"' EXIT
for ((run = 1; run <= runs; run++)); do
    TCPSCOPE_GUI_BENCH_CAPTURE=$capture QT_QPA_PLATFORM=offscreen \
        "$build/tests/ui/ui_tests" "[gui-benchmark]" >>"$log" 2>&1
done
grep -m1 '^gui benchmark:' "$log"
echo "capture: $capture ($(stat -c %s "$capture") bytes), $runs runs, medians:"
# Each figure is "name value ..." on its own line; the median of the values per name.
awk '/_(ms|mb) / { values[$1] = values[$1] " " $2 }
     END { for (name in values) print name values[name] }' "$log" | sort |
    while read -r name rest; do
        median=$(tr ' ' '\n' <<<"$rest" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
        printf '  %-28s %10s %s   (runs: %s)\n' "${name%_*}" "$median" "${name##*_}" "$rest"
    done
