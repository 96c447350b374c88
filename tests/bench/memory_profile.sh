#!/usr/bin/env bash
# Where the memory of `tcpscope-cli analyze --format json` goes: runs the analysis under heaptrack
# (one thread, so the owners do not depend on the hand-off between threads) and prints the heap
# held at the moment of the peak, grouped by the innermost tcpscope function that allocated it
# (a detector's class, ConnectionTable, FindingLog, a report writer ...), in MB, bytes per packet
# and bytes per connection. Also prints the peak RSS of a run without heaptrack (/usr/bin/time -v).
#
#   tests/bench/memory_profile.sh CLI CAPTURE [OUT_DIR [ANALYZE_OPTION...]]
#   e.g. tests/bench/memory_profile.sh build/release/app/tcpscope-cli /work/bench-data/w1-1000000-seed1.pcap
#        tests/bench/memory_profile.sh CLI CAPTURE /tmp/heap --spill-dir /tmp   the heap left beside the spill
#
# The packet and connection counts are read from CAPTURE.info, the summary `tcpscope-cli generate`
# prints (run_benchmark.sh keeps it beside each capture); without it only MB are printed.
# heaptrack's "peak" cost is the heap each call stack holds when the whole heap is at its largest;
# a reservation the program never touches (a vector's reserve) counts in full there but not in RSS.
# Needs heaptrack and heaptrack_print (Debian: heaptrack). W1 1 M takes about 11 s under heaptrack,
# 10 M about 2 minutes. The heaptrack data (OUT_DIR, default a temporary directory) is kept for
# heaptrack_gui.
set -euo pipefail

usage="usage: memory_profile.sh CLI CAPTURE [OUT_DIR [ANALYZE_OPTION...]]"
cli=${1:?$usage}
capture=${2:?$usage}
out=${3:-$(mktemp -d)}
shift $(($# < 3 ? $# : 3))
options=("$@")  # passed to analyze after --format json (--spill-dir DIR: the heap beside the spill)
mkdir -p "$out"
name=$(basename "$capture" .pcap)

packets=0
connections=0
if [[ -s "$capture.info" ]]; then
    packets=$(awk '$1 == "packets" {print $2}' "$capture.info")
    connections=$(awk '$1 == "connections" {print $2}' "$capture.info")
fi

# Peak RSS without heaptrack: the figure the goals are about.
TCPSCOPE_THREADS=1 /usr/bin/time -v "$cli" analyze --format json "${options[@]}" "$capture" >/dev/null 2>"$out/$name.time"
rss_kb=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$out/$name.time")
TCPSCOPE_THREADS=1 heaptrack -o "$out/$name" "$cli" analyze --format json "${options[@]}" "$capture" >/dev/null 2>"$out/$name.log"
data=""
for candidate in "$out/$name".zst "$out/$name".gz "$out/$name".*.zst "$out/$name".*.gz; do
    [[ -s "$candidate" ]] && { data=$candidate; break; }
done
[[ -n "$data" ]] || { echo "memory_profile.sh: heaptrack wrote no data (see $out/$name.log)" >&2; exit 1; }
heaptrack_print -f "$data" --print-peaks 0 --print-allocators 0 --print-temporary 0 --print-leaks 0 \
    --flamegraph-cost-type peak -F "$out/$name.peak.stacks" >"$out/$name.summary" 2>&1 || true
heaptrack_print -f "$data" --print-peaks 0 --print-allocators 0 --print-temporary 0 --print-leaks 0 \
    2>/dev/null | grep -E 'peak heap|peak RSS' || true

echo "capture: $capture ($packets packets, $connections connections)"
echo "peak RSS without heaptrack, one thread: $rss_kb KB${options[*]:+ (analyze ${options[*]})}"
# Each stack line is "outer;...;inner COST". The owner is the innermost frame in tcpscope's
# namespace, cut to Class::function (template arguments and parameters dropped); a stack with no
# such frame (the C++ runtime, Qt, CLI11 at start-up) counts as "other".
sorted=$(mktemp)
awk -v packets="$packets" -v connections="$connections" -v sorted="$sorted" '
function row(label, bytes) {
    printf "%-64s %9.2f %8.1f %8.1f\n", label, bytes / 1e6, packets ? bytes / packets : 0,
           connections ? bytes / connections : 0
}
{
    cost = $NF
    sub(/ [0-9]+$/, "")
    n = split($0, frames, ";")
    owner = "other(no-tcpscope-frame)"
    for (i = n; i >= 1; --i) {
        if (frames[i] ~ /^tcpscope::/) {
            owner = frames[i]
            sub(/\(.*$/, "", owner)
            gsub(/<[^>]*>/, "", owner)
            gsub(/ /, "", owner)
            break
        }
    }
    held[owner] += cost
    total += cost
}
END {
    printf "%-64s %9s %8s %8s\n", "owner (innermost tcpscope function)", "MB", "B/pkt", "B/conn"
    for (owner in held) {
        if (held[owner] >= 0.002 * total) {
            print held[owner], owner | ("sort -g -r > " sorted)
        } else {
            rest += held[owner]
        }
    }
    close(("sort -g -r > " sorted))
    while ((getline line < sorted) > 0) {
        split(line, part, " ")
        row(part[2], part[1])
    }
    row("(owners under 0.2 % each)", rest)
    row("heap at its peak", total)
}' "$out/$name.peak.stacks"
rm -f "$sorted"
echo "heaptrack data: $data (heaptrack_gui for the call trees)"
