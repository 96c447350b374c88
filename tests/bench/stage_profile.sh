#!/usr/bin/env bash
# Where the CPU time of one `analyze --format json` goes, by stage, from one sampled run on one
# thread (perf record on the cpu-clock software event, which works in VMs without hardware
# counters): each sample's function is put in a stage by its name, and the stage's share of the
# samples times the run's CPU time gives its ns per packet. Complements stage_perf.sh (whole
# commands, side by side): this one splits the end of the analysis (incidents, JSON) from the
# detectors, which no stage command can.
#
#   tests/bench/stage_profile.sh CLI CAPTURE [PERF_DATA]
#   e.g. tests/bench/stage_profile.sh build/release/app/tcpscope-cli /work/bench-data/w1-10000000-seed1.pcap
#
# The packet count is read from CAPTURE.info (the summary of `tcpscope-cli generate`). The stages
# go by function name (inlined code counts where it was inlined): see the patterns below. malloc,
# free and the kernel (page faults, reads) are a stage of their own, "allocator and kernel".
set -euo pipefail

cli=${1:?usage: stage_profile.sh CLI CAPTURE [PERF_DATA]}
capture=${2:?usage: stage_profile.sh CLI CAPTURE [PERF_DATA]}
data=${3:-$(mktemp)}
packets=$(awk '$1 == "packets" {print $2}' "$capture.info")

if [[ ! -s "$data" ]]; then  # an existing PERF_DATA is summarised again, not recorded anew
    TCPSCOPE_THREADS=1 perf record -q -e cpu-clock -F 499 -o "$data" -- "$cli" analyze --format json "$capture" \
        >/dev/null 2>"$data.stderr"
fi
# The cpu-clock event counts nanoseconds of CPU time.
cpu_s=$(perf report -i "$data" --stdio --sort comm 2>/dev/null | awk '/^# Event count/ {print $NF / 1e9}')

perf report -i "$data" --no-children --sort symbol --stdio 2>/dev/null | grep -v '^#' | grep . |
    awk -v packets="$packets" -v cpu_s="$cpu_s" '
    {
        share = $1; sub(/%/, "", share)
        symbol = $0; sub(/^ *[0-9.]+% +\[[.k]\] +/, "", symbol); sub(/[ \t]+-[ \t]+-[ \t]*$/, "", symbol)
        if ($2 == "[k]") stage = "allocator and kernel (page faults, reads)"
        else if (symbol ~ /malloc|free|_int_|unlink_chunk|operator new|operator delete|memmove|memcpy|memset/)
            stage = "allocator and kernel (page faults, reads)"
        else if (symbol ~ /churnTarget|measureListener|measureServerHeld|measurePortPool|linkFindings|[Ii]ncident|chainOf|stallCost|describe(Listener|ClientPool|Capture)|Parties|sameHost|SameHost/)
            stage = "incidents (end)"
        else if (symbol ~ /Json|json|writeFlow|nlohmann|fmt::|format|writeFinding|Report|report/)
            stage = "JSON report and findings described (end)"
        else if (symbol ~ /PopulationSeries|WaitTally/) stage = "detectors"
        else if (symbol ~ /PcapReader|Pcapng|parseTcpOptions|decode|Decode|MergedInputs|ByteSource|FrameSource|readFrames|driveFrames/)
            stage = "read and decode"
        else if (symbol ~ /DuplicateFrames/) stage = "duplicate check (DuplicateFrames)"
        else if (symbol ~ /TupleNumber|V4Tuple|ConnectionTable|TcpTracker|analyzeSequence|trackRun|countFrame|SequenceState|AnalysisEngine/)
            stage = "tracking (tuples, connections, sequence flags)"
        else if (symbol ~ /Detector|TimestampClocks|UnseenBytes|CaptureJoins|PathMtu|PopulationSeries|WaitTally|FindingLog|FindingAuthors|DetectorSet|SynUnanswered|Tally/)
            stage = "detectors"
        else stage = "other: " symbol
        held[stage] += share
    }
    END {
        printf "%-60s %7s %9s %9s\n", "stage", "share", "CPU s", "ns/pkt"
        order = "read and decode|duplicate check (DuplicateFrames)|tracking (tuples, connections, sequence flags)|detectors|" \
                "JSON report and findings described (end)|incidents (end)|allocator and kernel (page faults, reads)"
        n = split(order, stages, "|")
        for (i = 1; i <= n; ++i) {
            stage = stages[i]
            printf "%-60s %6.1f%% %9.2f %9.0f\n", stage, held[stage], held[stage] / 100 * cpu_s,
                   held[stage] / 100 * cpu_s * 1e9 / packets
        }
        for (stage in held) {
            if (stage !~ /^other: /) continue
            if (held[stage] < 0.5) { other += held[stage]; continue }
            printf "%-60s %6.1f%% %9.2f %9.0f\n", stage, held[stage], held[stage] / 100 * cpu_s,
                   held[stage] / 100 * cpu_s * 1e9 / packets
        }
        printf "%-60s %6.1f%% %9.2f %9.0f\n", "other (functions under 0.5 % each)", other, other / 100 * cpu_s,
               other / 100 * cpu_s * 1e9 / packets
        printf "%-60s %7s %9.2f %9.0f\n", "sampled CPU time, one thread", "", cpu_s, cpu_s * 1e9 / packets
    }'
echo "perf data: $data (perf report -i $data)"
