#!/usr/bin/env bash
# Per-stage time of the analysis on one thread, measured side by side in one run with `perf stat`
# (software counters: task-clock, page-faults, context switches; hardware counters are printed
# too when the machine has them, "<not supported>" in most VMs): the capture read and decoded
# only, then also tracked with no detector (tcpscope-bench-stage decode|track), the whole
# `analyze --format json` on one thread and on two, and tshark's conversation statistics.
# Rounds are interleaved (each round runs every command once), so a slow minute of a shared
# machine falls on every command alike; prints the median of each figure and ns per packet.
#
#   tests/bench/stage_perf.sh BUILD_DIR CAPTURE [ROUNDS] [--no-tshark]
#   e.g. tests/bench/stage_perf.sh build/release /work/bench-data/w1-1000000-seed1.pcap 3
#
# The packet count is read from CAPTURE.info (the summary of `tcpscope-cli generate`). The stage
# differences: tracking = track - decode; detectors, incidents and report = analyze (one thread) -
# track. `decode` also runs the duplicate check (DuplicateFrames), and every row includes starting
# the process; stage_profile.sh splits one run by function instead. STAGE_PERF_RAW=FILE keeps
# every run's figures.
set -euo pipefail

build=${1:?usage: stage_perf.sh BUILD_DIR CAPTURE [ROUNDS] [--no-tshark]}
capture=${2:?usage: stage_perf.sh BUILD_DIR CAPTURE [ROUNDS] [--no-tshark]}
rounds=${3:-3}
use_tshark=true
[[ "${4:-}" == --no-tshark ]] && use_tshark=false
cli="$build/app/tcpscope-cli"
stage="$build/tests/tcpscope-bench-stage"
packets=$(awk '$1 == "packets" {print $2}' "$capture.info")
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
events=task-clock,page-faults,context-switches,cycles,instructions,cache-misses

cat "$capture" >/dev/null  # page cache warm
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"

# measure NAME COMMAND...: one run under perf stat (CSV); appends "NAME wall_s task_ms faults" to results.
measure() {
    local name="$1"
    shift
    local started ended
    started=$(date +%s%N)
    perf stat -x, -e "$events" -o "$scratch/perf.csv" -- "$@" >/dev/null 2>"$scratch/stderr" ||
        { echo "$name failed:" >&2; cat "$scratch/stderr" >&2; return 1; }
    ended=$(date +%s%N)
    awk -F, -v name="$name" -v wall="$(( (ended - started) / 1000000 ))" '
        {gsub(/ /, "_", $1)}  # "<not supported>" stays one field
        $3 == "task-clock" {task = $1} $3 == "page-faults" {faults = $1}
        $3 == "cycles" {cycles = $1} $3 == "instructions" {instr = $1} $3 == "cache-misses" {misses = $1}
        END {print name, wall / 1000, task, faults, cycles, instr, misses}' "$scratch/perf.csv" >>"$scratch/results"
}

for ((round = 1; round <= rounds; round++)); do
    measure decode env TCPSCOPE_THREADS=1 "$stage" decode "$capture"
    measure track env TCPSCOPE_THREADS=1 "$stage" track "$capture"
    measure analyze-1t env TCPSCOPE_THREADS=1 "$cli" analyze --format json "$capture"
    measure analyze-2t "$cli" analyze --format json "$capture"
    if $use_tshark; then
        measure tshark tshark -n -q -z conv,tcp -r "$capture"
    fi
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

echo "capture: $capture, $packets packets, $rounds rounds; medians (every run in brackets)"
cp "$scratch/results" "${STAGE_PERF_RAW:-/dev/null}"  # every run, if asked for
median() { tr ' ' '\n' | grep . | sort -g | awk '{v[NR] = $1} END {print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
printf '%-11s %9s %10s %9s %11s %11s  %s\n' command wall_s cpu_ms faults ns/pkt_wall ns/pkt_cpu "wall of each run"
for name in decode track analyze-1t analyze-2t tshark; do
    grep -q "^$name " "$scratch/results" || continue
    walls=$(awk -v name="$name" '$1 == name {printf " %s", $2}' "$scratch/results")
    wall=$(median <<<"$walls")
    cpu=$(awk -v name="$name" '$1 == name {printf " %s", $3}' "$scratch/results" | median)
    faults=$(awk -v name="$name" '$1 == name {printf " %s", $4}' "$scratch/results" | median)
    awk -v name="$name" -v wall="$wall" -v cpu="$cpu" -v faults="$faults" -v packets="$packets" -v walls="$walls" \
        'BEGIN {printf "%-11s %9.3f %10.1f %9d %11.1f %11.1f  [%s ]\n", name, wall, cpu, faults,
                wall * 1e9 / packets, cpu * 1e6 / packets, walls}'
done
# Hardware counters, if the machine has them (in a VM usually "<not supported>").
awk '!seen[$1]++ {print "hardware counters of one run of " $1 " (cycles instructions cache-misses):", $5, $6, $7}' \
    "$scratch/results"
