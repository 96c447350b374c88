#!/usr/bin/env bash
# The benchmark: tcpscope's full analysis against tshark's conversation statistics and
# against `cat` (the floor: reading the file from the page cache), side by side on the same
# generated captures, several runs each. Prints a Markdown table ready for the README.
#
#   tests/bench/run_benchmark.sh                  W1, W2, W3 at full size, 3 runs (tshark: 1 run)
#   tests/bench/run_benchmark.sh --runs 5 --workloads w1
#   tests/bench/run_benchmark.sh --workloads w1 --one-thread --stages   where the time goes
#   tests/bench/run_benchmark.sh --quick          CI: 300k packets each, 1 run, no tshark, and a
#                                                 collapse check (exit 1 if tcpscope is 10x slower
#                                                 than the baseline recorded below)
#   tests/bench/run_benchmark.sh --workloads w1 --scale   also the scale row: W1 at 100 M packets
#                                                 (10 M connections), analysed in memory and spilled
#
# Captures are generated on demand by `tcpscope-cli generate` (deterministic: same seed, same
# bytes) into $TCPSCOPE_BENCH_DIR (default /tmp/tcpscope-bench), outside the repository, and
# kept for the next run; --regenerate writes them again, --clean deletes them at the end.
# Full size needs about 5 GB of disk and, for tshark, several GB of memory.
#
# The scale row (--scale) is the capture of a long load test: W1 at 100 M packets, 15.8 GB on disk,
# written once (about 82 s on a 2-core machine) and kept like the others. It is analysed
# --scale-runs times (default 1: each takes 2-5 minutes) in memory (`--no-spill`, about 7.2 GB) and
# spilled to a file in the captures' directory (`--spill-dir`, about 9 GB of disk more while it
# runs), each report piped into md5sum so the table shows that both give the same answer. The
# spilled run has no address-space limit: its records are a file mapping as large as the file.
#
# Times are wall-clock medians with the page cache warm (each file is read once before the
# runs). Peak memory is the process's maximum resident set size from /usr/bin/time -v, the
# largest over the runs. "CPU s" is user + system time, which moves less than wall time when
# the machine is busy with something else. tshark runs once per workload by default (on the
# full W1 it takes a minute and ~6 GB; on the full W3 it is superlinear: 25 minutes and 11 GB);
# --tshark-runs N runs it more often, --tshark-max-packets N skips it on bigger files,
# --no-tshark skips it. Every measured command runs under an address-space limit (ulimit -v;
# default 80 % of the memory available at the start), so a tool that needs more fails with its
# row marked "failed" instead of pushing the machine into the OOM killer.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"

# Collapse check of --quick: tcpscope's rate on the 300k-packet captures, in packets per second,
# must stay above BASELINE_PPS / COLLAPSE_FACTOR. The rate is taken from the shorter of wall and
# CPU time, so a busy machine (wall time grows) or a second thread (CPU time grows) does not
# count as slowness. The baselines are the rates --quick measured with a Release build on the
# development machine (2-core AMD EPYC VM, Debian 12) on 2026-11-21 16:43 UTC, tree at 1bbb6b4
# (+ README), on the quiet machine (W1 1.26 M, W2 5.5 M, W3 1.12 M packets/s), rounded down to
# 1.0 M, 5.0 M and 0.8 M, so only a slowdown of about ten times or more trips the check; it is meant
# for Release builds (a Debug build at -O0 may be that much slower). (Earlier baselines: 0.6 M,
# 5 M and 0.4 M at f1c611c; before the issue 7 work a tenth of 0.34 M, 5-6 M and 0.107 M.) Raise
# them again as tcpscope gets faster.
declare -A BASELINE_PPS=([w1]=1000000 [w2]=5000000 [w3]=800000)
COLLAPSE_FACTOR=10

usage() {
    awk 'NR > 1 && !/^#/ {exit} NR > 1 {sub(/^# ?/, ""); print}' "${BASH_SOURCE[0]}"
    cat <<'EOF'

Options:
  --quick                 small captures (300k packets), 1 run, no tshark, collapse check
  --runs N                runs per tool and workload (default 3; --quick: 1)
  --workloads LIST        comma-separated, of w1,w2,w3 (default all)
  --packets N             packets per capture instead of each workload's full size
  --seed S                generator seed (default 1)
  --dir DIR               where captures go (default $TCPSCOPE_BENCH_DIR or /tmp/tcpscope-bench)
  --cli PATH              tcpscope-cli to measure (default $TCPSCOPE_CLI, else the newest
                          Release build under build*/)
  --tshark-runs N         tshark runs per workload (default 1)
  --tshark-max-packets N  skip tshark on captures with more packets (default: no limit)
  --no-tshark             do not run tshark
  --one-thread            also run tcpscope with TCPSCOPE_THREADS=1 (a row of its own), so the
                          table shows what the second core gains
  --stages                also run, on one thread, the captures only read and decoded, and also
                          tracked with no detector (tcpscope-bench-stage decode|track): two rows
                          that show where the time of the full analysis goes
  --stage-runner PATH     tcpscope-bench-stage for --stages (default: beside the tests of the
                          build of the tcpscope-cli measured, tests/tcpscope-bench-stage)
  --regenerate            write the captures again even if they exist
  --clean                 delete the captures at the end
  --memory-limit-gb N     address-space limit of each measured command (default: 80 % of
                          MemAvailable at the start; not on the scale row's spilled run)
  --scale                 also the scale row: W1 at 100 M packets, in memory and spilled
  --scale-packets N       packets of the scale row's capture (default 100000000)
  --scale-runs N          runs of each of the scale row's two analyses (default 1)
  --output FILE           also write the Markdown table to FILE
EOF
}

quick=false
runs=""
workloads="w1,w2,w3"
packets=""
seed=1
dir="${TCPSCOPE_BENCH_DIR:-/tmp/tcpscope-bench}"
cli="${TCPSCOPE_CLI:-}"
stage_runner=""
tshark_runs=1
tshark_max_packets=0
use_tshark=true
one_thread=false
stages=false
regenerate=false
clean=false
output=""
memory_limit_gb=""
scale=false
scale_packets=100000000
scale_runs=1

while [[ $# -gt 0 ]]; do
    case "$1" in
        --quick) quick=true ;;
        --runs) runs="$2"; shift ;;
        --workloads) workloads="$2"; shift ;;
        --packets) packets="$2"; shift ;;
        --seed) seed="$2"; shift ;;
        --dir) dir="$2"; shift ;;
        --cli) cli="$2"; shift ;;
        --tshark-runs) tshark_runs="$2"; shift ;;
        --tshark-max-packets) tshark_max_packets="$2"; shift ;;
        --no-tshark) use_tshark=false ;;
        --one-thread) one_thread=true ;;
        --stages) stages=true ;;
        --stage-runner) stage_runner="$2"; shift ;;
        --regenerate) regenerate=true ;;
        --clean) clean=true ;;
        --output) output="$2"; shift ;;
        --memory-limit-gb) memory_limit_gb="$2"; shift ;;
        --scale) scale=true ;;
        --scale-packets) scale_packets="$2"; shift ;;
        --scale-runs) scale_runs="$2"; shift ;;
        -h | --help) usage; exit 0 ;;
        *) echo "run_benchmark.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
    shift
done

if $quick; then
    runs="${runs:-1}"
    packets="${packets:-300000}"
    use_tshark=false
    dir="$dir/quick"
fi
runs="${runs:-3}"

die() { echo "run_benchmark.sh: $*" >&2; exit 2; }

if [[ -z "$memory_limit_gb" ]]; then
    memory_limit_gb=$(awk '/MemAvailable/ {printf "%d", $2 * 0.8 / 1048576}' /proc/meminfo)
fi
for number in "$runs" "$seed" "$tshark_runs" "$tshark_max_packets" "$memory_limit_gb" "$scale_packets" "$scale_runs" \
    ${packets:+"$packets"}; do
    [[ "$number" =~ ^[0-9]+$ ]] || die "not a number: $number"
done
[[ "$runs" -ge 1 ]] || die "--runs must be at least 1"
[[ "$scale_runs" -ge 1 ]] || die "--scale-runs must be at least 1"

# The binary to measure: the newest Release tcpscope-cli of the source tree, unless given.
if [[ -z "$cli" ]]; then
    newest=0
    for candidate in "$root"/build*/app/tcpscope-cli "$root"/build/*/app/tcpscope-cli; do
        [[ -x "$candidate" ]] || continue
        cache="$(dirname "$(dirname "$candidate")")/CMakeCache.txt"
        grep -q '^CMAKE_BUILD_TYPE:STRING=Release' "$cache" 2>/dev/null || continue
        stamp=$(stat -c %Y "$candidate")
        if [[ "$stamp" -gt "$newest" ]]; then
            newest=$stamp
            cli="$candidate"
        fi
    done
    [[ -n "$cli" ]] || die "no Release tcpscope-cli found; build one (cmake --preset release) or pass --cli"
fi
[[ -x "$cli" ]] || die "$cli is not an executable"
if $stages; then
    stage_runner="${stage_runner:-$(dirname "$(dirname "$cli")")/tests/tcpscope-bench-stage}"
    [[ -x "$stage_runner" ]] || die "$stage_runner is not an executable (--stage-runner)"
fi

if [[ ! -x /usr/bin/time ]]; then
    echo "run_benchmark.sh: installing GNU time for /usr/bin/time -v" >&2
    apt-get install -y time >/dev/null || die "/usr/bin/time is missing (apt-get install time)"
fi
if $use_tshark && ! command -v tshark >/dev/null; then
    echo "run_benchmark.sh: tshark is not installed; its rows are left out" >&2
    use_tshark=false
fi

mkdir -p "$dir"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT

# --- generation ---------------------------------------------------------------------------

# Writes the capture of workload $1 (of $2 packets, default --packets or the workload's full size)
# if missing; prints its path. The generator's summary is kept beside it (FILE.info), with the
# packet count the rates are computed from, and how long writing it took (FILE.generated).
ensure_capture() {
    local workload="$1" count="${2:-$packets}"
    local file="$dir/$workload-${count:-full}-seed$seed.pcap"
    if $regenerate || [[ ! -s "$file" || ! -s "$file.info" ]]; then
        local args=(generate --workload "$workload" --seed "$seed" --out "$file")
        [[ -n "$count" ]] && args+=(--packets "$count")
        echo "generating $file ..." >&2
        local started
        started=$(date +%s%N)
        "$cli" "${args[@]}" >"$file.info.tmp" || die "generating $workload failed"
        mv "$file.info.tmp" "$file.info"
        echo "$(( ($(date +%s%N) - started) / 1000000 )) ms on $(date -u '+%Y-%m-%d %H:%M UTC')" >"$file.generated"
        echo "  $(awk '/packets/ {p=$2} /bytes/ {b=$2} END {printf "%d packets, %.2f GB", p, b/1e9}' "$file.info")" \
            "in $(cut -d' ' -f1-2 "$file.generated")" >&2
    fi
    echo "$file"
}

# --- measurement --------------------------------------------------------------------------

# measure NAME RUN COMMAND...: runs COMMAND with stdout to /dev/null under /usr/bin/time -v and
# appends "NAME wall_s cpu_s rss_kb" to $scratch/results. Called with digest_file=FILE, it pipes
# stdout into md5sum and writes the digest to FILE instead; with address_limit=off, it runs the
# command without the address-space limit.
measure() {
    local name="$1" run="$2"
    shift 2
    local log="$scratch/time.log" errors="$scratch/stderr.log"
    local started ended status=0
    started=$(date +%s%N)
    (
        if [[ "${address_limit:-on}" != off ]]; then
            ulimit -v $(( memory_limit_gb * 1048576 ))
        fi
        if [[ -n "${digest_file:-}" ]]; then
            /usr/bin/time -v -o "$log" "$@" 2>"$errors" | md5sum | cut -d' ' -f1 >"$digest_file"
        else
            exec /usr/bin/time -v -o "$log" "$@" >/dev/null 2>"$errors"
        fi
    ) || status=$?
    ended=$(date +%s%N)
    if [[ $status -ne 0 ]]; then
        echo "run_benchmark.sh: $name failed (exit $status, memory limit $memory_limit_gb GB): $*" >&2
        grep -v '^Running as user' "$errors" | head -5 >&2 || true
        awk -v name="$name" -v status="$status" -v wall="$(( ended - started ))" '
            /Maximum resident set size/ { rss = $NF }
            END { printf "%s failed exit %d after %.1f s, peak RSS %.0f MB\n", name, status, wall / 1e9, rss / 1024 }' \
            "$log" >>"$scratch/results" 2>/dev/null || echo "$name failed exit $status" >>"$scratch/results"
        tail -1 "$scratch/results" >>"$dir/runs.log"
        return 0
    fi
    awk -v name="$name" -v wall="$(( ended - started ))" '
        /User time \(seconds\)/ { user = $NF }
        /System time \(seconds\)/ { sys = $NF }
        /Maximum resident set size/ { rss = $NF }
        END { printf "%s %.6f %.3f %d\n", name, wall / 1e9, user + sys, rss }' "$log" >>"$scratch/results"
    tail -1 "$scratch/results" >>"$dir/runs.log"
    printf '  run %d %-8s %6.2f s\n' "$run" "$name" "$(( ended - started ))e-9" >&2
}

# summary NAME: "median_wall median_cpu max_rss_kb runs", or "failed ..." / "skipped".
summary() {
    local name="$1"
    if grep -q "^$name failed" "$scratch/results" 2>/dev/null; then
        grep -m1 "^$name failed" "$scratch/results" | cut -d' ' -f2-
        return
    fi
    { grep "^$name " "$scratch/results" 2>/dev/null || true; } | awk '
        function median(values, n,    i, j, t) {
            for (i = 2; i <= n; i++) for (j = i; j > 1 && values[j - 1] > values[j]; j--) {
                t = values[j]; values[j] = values[j - 1]; values[j - 1] = t
            }
            return n % 2 ? values[(n + 1) / 2] : (values[n / 2] + values[n / 2 + 1]) / 2
        }
        { n++; wall[n] = $2; cpu[n] = $3; if ($4 > rss) rss = $4 }
        END { if (n == 0) print "skipped"; else printf "%.6f %.3f %d %d\n", median(wall, n), median(cpu, n), rss, n }'
}

machine_line() {
    local cpu kernel memory
    cpu="$(awk -F': ' '/^model name/ {print $2; exit}' /proc/cpuinfo)"
    kernel="$(uname -sr)"
    memory="$(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo)"
    # shellcheck source=/dev/null
    echo "$(nproc) cores ($cpu), $memory RAM, $kernel, $(. /etc/os-release && echo "$PRETTY_NAME")"
}

revision="$(git -C "$root" describe --always --dirty 2>/dev/null || echo unknown)"
tshark_version=""
if $use_tshark; then
    tshark_version="$(tshark --version 2>/dev/null | head -1 || true)"
fi
load_before="$(cut -d' ' -f1-3 /proc/loadavg)"

table="$scratch/table.md"
{
    echo "Benchmark of $(date -u '+%Y-%m-%d %H:%M UTC'), tcpscope $revision ($cli), ${tshark_version:-no tshark}"
    echo "Machine: $(machine_line); load average before: $load_before"
    echo "Page cache warm; $runs run(s) per tool$($use_tshark && echo ", tshark $tshark_runs"); wall-clock medians; peak RSS from /usr/bin/time -v; limit $memory_limit_gb GB of address space per command."
    echo
    echo "| workload | tool | packets | file | median s | CPU s | packets/s | GB/s | peak RSS MB | RSS bytes/packet | speed vs tshark | time vs floor |"
    echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
} >"$table"

collapsed=()
IFS=',' read -r -a workload_list <<<"$workloads"
for workload in "${workload_list[@]}"; do
    [[ "$workload" =~ ^w[123]$ ]] || die "unknown workload $workload (w1, w2 or w3)"
    file="$(ensure_capture "$workload")"
    file_packets="$(awk '/^  packets/ {print $2}' "$file.info")"
    file_bytes="$(stat -L -c %s "$file")"
    if command -v capinfos >/dev/null && ! $quick && [[ ! -s "$file.capinfos" ]]; then
        capinfos -c -M "$file" 2>/dev/null | awk '/Number of packets/ {print $NF}' >"$file.capinfos" || true
    fi
    if [[ -s "$file.capinfos" && "$(cat "$file.capinfos")" != "$file_packets" ]]; then
        die "$file: capinfos counts $(cat "$file.capinfos") packets, the generator $file_packets"
    fi

    echo "$workload: $file ($file_packets packets, $file_bytes bytes); warming the page cache" >&2
    cat "$file" >/dev/null
    run_tshark=$use_tshark
    if [[ "$tshark_max_packets" -gt 0 && "$file_packets" -gt "$tshark_max_packets" ]]; then
        run_tshark=false
    fi
    : >"$scratch/results"
    # Each run is also appended to $dir/runs.log, so a long benchmark that is interrupted keeps
    # what it measured.
    echo "# $(date -u '+%Y-%m-%dT%H:%M:%SZ') $workload $file packets=$file_packets tcpscope=$revision" >>"$dir/runs.log"
    for run in $(seq 1 "$runs"); do
        measure tcpscope "$run" "$cli" analyze "$file" --format json
        if $one_thread; then
            measure tcpscope1 "$run" env TCPSCOPE_THREADS=1 "$cli" analyze "$file" --format json
        fi
        if $stages; then
            for stage in decode track; do
                measure "$stage" "$run" env TCPSCOPE_THREADS=1 "$stage_runner" "$stage" "$file"
            done
        fi
        if $run_tshark && [[ "$run" -le "$tshark_runs" ]]; then
            measure tshark "$run" tshark -n -q -z conv,tcp -r "$file"
        fi
        measure cat "$run" cat "$file"
    done

    read -r tshark_wall _ <<<"$(summary tshark)"
    read -r floor_wall _ <<<"$(summary cat)"
    for tool in tcpscope tcpscope1 decode track tshark cat; do
        outcome="$(summary "$tool")"
        read -r wall cpu rss count <<<"$outcome"
        if [[ "$wall" == skipped && "$tool" == tshark && "$use_tshark" == false ]]; then
            continue
        fi
        if [[ "$tool" == tcpscope1 ]] && ! $one_thread; then
            continue
        fi
        if [[ "$tool" == decode || "$tool" == track ]] && ! $stages; then
            continue
        fi
        if [[ "$wall" == failed || "$wall" == skipped ]]; then
            printf '| %s | %s | %d | %.2f GB | %s | | | | | | | |\n' "$workload" "$tool" "$file_packets" \
                "$(awk -v b="$file_bytes" 'BEGIN {print b / 1e9}')" "$outcome" >>"$table"
            continue
        fi
        label="$tool"
        [[ "$tool" == tcpscope ]] && label="tcpscope analyze --format json"
        [[ "$tool" == tcpscope1 ]] && label="tcpscope, one thread (TCPSCOPE_THREADS=1)"
        [[ "$tool" == decode ]] && label="stage: read and decode only, one thread"
        [[ "$tool" == track ]] && label="stage: + connections, no detectors, one thread"
        [[ "$tool" == tshark ]] && label="tshark -z conv,tcp"
        [[ "$tool" == cat ]] && label="cat (floor)"
        if [[ "$count" -ne "$runs" ]]; then
            plural=""
            [[ "$count" -gt 1 ]] && plural=s
            label="$label ($count run$plural)"
        fi
        awk -v workload="$workload" -v label="$label" -v packets="$file_packets" -v bytes="$file_bytes" \
            -v wall="$wall" -v cpu="$cpu" -v rss="$rss" -v tshark="${tshark_wall:-}" -v floor="${floor_wall:-}" '
            function ratio(reference, value) {
                if (reference !~ /^[0-9.]+$/ || value <= 0) return "-"
                return sprintf("%.2fx", reference / value)
            }
            BEGIN {
                printf "| %s | %s | %d | %.2f GB | %.3f | %.2f | %.2f M | %.2f | %.0f | %.0f | %s | %s |\n",
                    workload, label, packets, bytes / 1e9, wall, cpu, packets / wall / 1e6, bytes / wall / 1e9,
                    rss / 1024, rss * 1024 / packets, ratio(tshark, wall),
                    (floor ~ /^[0-9.]+$/ && floor > 0) ? sprintf("%.1fx", wall / floor) : "-"
            }' >>"$table"
        if $quick && [[ "$tool" == tcpscope ]]; then
            rate=$(awk -v p="$file_packets" -v w="$wall" -v c="$cpu" 'BEGIN {t = (c > 0 && c < w) ? c : w; printf "%d", p / t}')
            floor_rate=$(( BASELINE_PPS[$workload] / COLLAPSE_FACTOR ))
            if [[ "$rate" -lt "$floor_rate" ]]; then
                collapsed+=("$workload: $rate packets/s, below $floor_rate (baseline ${BASELINE_PPS[$workload]} / $COLLAPSE_FACTOR)")
            else
                echo "$workload: $rate packets/s, collapse threshold $floor_rate: ok" >&2
            fi
        fi
    done
    if $quick && [[ "$(summary tcpscope)" == failed* ]]; then
        collapsed+=("$workload: tcpscope-cli analyze failed")
    fi
done

# --- the scale row ------------------------------------------------------------------------

if $scale; then
    file="$(ensure_capture w1 "$scale_packets")"
    file_packets="$(awk '/^  packets/ {print $2}' "$file.info")"
    file_bytes="$(stat -L -c %s "$file")"
    echo "scale: $file ($file_packets packets, $file_bytes bytes); warming the page cache" >&2
    cat "$file" >/dev/null
    : >"$scratch/results"
    echo "# $(date -u '+%Y-%m-%dT%H:%M:%SZ') scale $file packets=$file_packets tcpscope=$revision" >>"$dir/runs.log"
    for run in $(seq 1 "$scale_runs"); do
        digest_file="$scratch/memory.$run.md5" \
            measure memory "$run" "$cli" analyze "$file" --format json --no-spill
        digest_file="$scratch/spilled.$run.md5" address_limit=off \
            measure spilled "$run" "$cli" analyze "$file" --format json --spill-dir "$dir"
    done

    digests=()
    {
        echo
        awk -v packets="$file_packets" -v bytes="$file_bytes" -v generated="$(cat "$file.generated" 2>/dev/null)" '
            /^  connections/ { connections = $2 }
            /^  peak open/ { open = $3 }
            END {
                printf "Scale row: W1 at %d packets (%.2f GB, %d connections, at most %d open at once)", packets,
                    bytes / 1e9, connections, open
                if (generated != "") { split(generated, g, " "); printf ", written in %.1f s", g[1] / 1000 }
                print "."
            }' "$file.info"
        echo "$scale_runs run(s) of each analysis, wall-clock medians; the in-memory one under the address-space limit, the spilled one without; each report piped into md5sum."
        echo
        echo "| analysis | median s | CPU s | packets/s | peak RSS MB | RSS bytes/packet | report MD5 |"
        echo "|---|---:|---:|---:|---:|---:|---|"
    } >>"$table"
    for name in memory spilled; do
        read -r wall cpu rss count <<<"$(summary "$name")"
        label="analyze --format json, in memory (--no-spill)"
        [[ "$name" == spilled ]] && label="analyze --format json, spilled (--spill-dir $dir)"
        if [[ "$wall" == failed || "$wall" == skipped ]]; then
            echo "| $label | $(summary "$name") | | | | | |" >>"$table"
            continue
        fi
        digest="$(cat "$scratch/$name".*.md5 | sort -u | paste -sd' ')"
        digests+=("$digest")
        awk -v label="$label" -v packets="$file_packets" -v wall="$wall" -v cpu="$cpu" -v rss="$rss" -v digest="$digest" '
            BEGIN {
                printf "| %s | %.1f | %.1f | %.2f M | %.0f | %.0f | %s |\n", label, wall, cpu, packets / wall / 1e6,
                    rss / 1024, rss * 1024 / packets, digest
            }' >>"$table"
    done
    if [[ ${#digests[@]} -eq 2 && "${digests[0]}" == "${digests[1]}" && "${digests[0]}" != *" "* ]]; then
        printf '\nThe two analyses gave the same report.\n' >>"$table"
    elif [[ ${#digests[@]} -eq 2 ]]; then
        printf '\nTHE REPORTS DIFFER between the runs: %s\n' "${digests[*]}" >>"$table"
    fi
fi

{
    echo
    echo "speed vs tshark: tshark's median time / this tool's (above 1: faster than tshark)."
    echo "time vs floor: this tool's median time / cat's (1.0x would be reading speed)."
    if $stages; then
        echo "stage rows (tcpscope-bench-stage): the frames read and decoded only, and also tracked (tuple numbering,"
        echo "connection state, sequence analysis) with no detector and no report; the one-thread row minus the"
        echo "track row is what the detectors and the JSON report cost."
    fi
    echo "Load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
} >>"$table"

echo
cat "$table"
if [[ -n "$output" ]]; then
    cp "$table" "$output"
fi
if $clean; then
    for workload in "${workload_list[@]}"; do
        rm -f "$dir/$workload-${packets:-full}-seed$seed.pcap"{,.info,.capinfos,.generated}
    done
    if $scale; then
        rm -f "$dir/w1-$scale_packets-seed$seed.pcap"{,.info,.generated}
    fi
fi

if [[ ${#collapsed[@]} -gt 0 ]]; then
    echo
    echo "COLLAPSE: tcpscope is more than ${COLLAPSE_FACTOR}x slower than its recorded baseline:"
    printf '  %s\n' "${collapsed[@]}"
    exit 1
fi
