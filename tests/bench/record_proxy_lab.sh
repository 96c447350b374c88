#!/usr/bin/env bash
# The lab proxy (samples/scenarios: client -> proxy -> backend, write-write-read) in a network
# namespace of its own, for `tcpscope-cli record`:
#   verdicts: the Nagle proxy recorded with `record --comm` while strace traces the same proxy;
#             the confirmed stalls from the recorded calls and from strace, side by side.
#   overhead: the proxy with TCP_NODELAY (no stall: its rate is its own), requests per second with
#             nothing attached, with `record`, with strace; RUNS rounds, the modes interleaved in
#             each, and the median of the rounds' ratios to nothing attached. Also
#             `record` taking the calls only (a capture filter no packet passes) and the packets
#             only (--pid of no process), to tell the two costs apart, and tcpdump writing the
#             same packets (what capturing them costs any tool).
#   calls:    what one system call costs (syscall_cost.c: a 100-byte write and its read on loopback
#             TCP, in C) with nothing attached, with tcpdump, with `record` of another process (its
#             tracepoints on, this one not traced), with `record` of this process, with strace;
#             nanoseconds per call, RUNS rounds interleaved, medians.
# usage: sudo tests/bench/record_proxy_lab.sh BUILD_DIR [verdicts|overhead|calls|all] [RUNS] [REQUESTS]
# Needs root, tracefs, strace and a build with the recorder. Prints its figures; writes nothing else.
set -euo pipefail

BUILD=${1:?usage: record_proxy_lab.sh BUILD_DIR [verdicts|overhead|calls|all] [RUNS] [REQUESTS]}
WHAT=${2:-all}
RUNS=${3:-3}
REQUESTS=${4:-3000}
CLI=$(realpath "$BUILD")/app/tcpscope-cli
SCENARIOS=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../samples/scenarios" && pwd)
export PYTHONDONTWRITEBYTECODE=1

if [[ -z ${RECORD_LAB_IN_NETNS:-} ]]; then
    exec env RECORD_LAB_IN_NETNS=1 unshare -n "$0" "$@"
fi
ip link set lo up
WORK=$(mktemp -d)
KEEP=${KEEP:-}  # KEEP=DIR: copy the verdicts run's files (pcapng, strace log, reports) there
# On any way out, the programs this script started end too (their pids, not their names).
STARTED=()
trap 'for pid in "${STARTED[@]}"; do kill "$pid" 2>/dev/null || true; done; rm -rf "$WORK"' EXIT
# The proxy runs as "labproxy" (its comm), so that `record --comm labproxy` takes it alone.
ln -s "$(python3 -c "import sys; print(sys.executable)")" "$WORK/labproxy"
# cpu.py OUT PROGRAM...: runs PROGRAM and writes the CPU seconds it and its children used to OUT.
cat >"$WORK/cpu.py" <<'PY'
import resource, subprocess, sys
status = subprocess.call(sys.argv[2:])
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
open(sys.argv[1], "w").write(f"{usage.ru_utime + usage.ru_stime:.3f}\n")
sys.exit(status)
PY

wait_port() {
    for _ in $(seq 200); do
        ss -Hltn "sport = :$1" | grep -q . && return 0
        sleep 0.02
    done
    echo "nothing listens on $1" >&2
    exit 1
}

# run_proxy MODE REQUESTS [PROXY_FLAGS...]: one client's REQUESTS through the proxy; MODE is
# none, record, record-calls, record-packets, tcpdump, strace or both. Prints the client's
# requests per second, the CPU milliseconds per request of the proxy (with strace: of the proxy
# and strace, which ptrace makes one cost) and of the recorder (0 without one).
run_proxy() {
    local mode=$1 requests=$2
    shift 2
    python3 "$SCENARIOS/backend.py" 127.0.0.1 3306 1 &
    local backend=$!
    STARTED+=("$backend")
    wait_port 3306
    local recorder=""
    local whose=(--comm labproxy) filter=tcp
    [[ $mode == record-calls ]] && filter="tcp port 9"
    [[ $mode == record-packets ]] && whose=(--pid 2147483647)
    if [[ $mode == tcpdump ]]; then
        tcpdump -i lo -w "$WORK/run.pcap" -s 0 tcp >"$WORK/record.out" 2>&1 &
        recorder=$!
        STARTED+=("$recorder")
        sleep 1.5
    fi
    if [[ $mode == record* || $mode == both ]]; then
        "$CLI" record -i lo -w "$WORK/run.pcapng" "${whose[@]}" $filter >"$WORK/record.out" 2>&1 &
        recorder=$!
        STARTED+=("$recorder")
        sleep 1.5
    fi
    if [[ $mode == strace || $mode == both ]]; then
        (cd "$SCENARIOS" && python3 "$WORK/cpu.py" "$WORK/proxy.cpu" \
            strace -f -tt -T -yy -o "$WORK/run.strace" "$WORK/labproxy" proxy.py 3307 3306 1 "$@") &
    else
        (cd "$SCENARIOS" && python3 "$WORK/cpu.py" "$WORK/proxy.cpu" "$WORK/labproxy" proxy.py 3307 3306 1 "$@") &
    fi
    local proxy=$!
    STARTED+=("$proxy")
    wait_port 3307
    local start end
    start=$(date +%s.%N)
    python3 "$SCENARIOS/client.py" 127.0.0.1 3307 "$requests" >/dev/null
    end=$(date +%s.%N)
    wait "$proxy" "$backend"
    local recorder_cpu=0
    if [[ -n $recorder ]]; then
        sleep 0.3
        # utime + stime (fields 14 and 15 of /proc/PID/stat, in clock ticks) before it stops.
        recorder_cpu=$(awk -v hz="$(getconf CLK_TCK)" '{ sub(/.*\) /, ""); print ($12 + $13) / hz }' "/proc/$recorder/stat")
        kill -INT "$recorder"
        wait "$recorder" || true
    fi
    python3 -c "print(f'{$requests / ($end - $start):.0f} {$(cat "$WORK/proxy.cpu") * 1e3 / $requests:.3f} {$recorder_cpu * 1e3 / $requests:.3f}')"
}

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

if [[ $WHAT == verdicts || $WHAT == all ]]; then
    run_proxy both 40 >/dev/null
    echo "== record: $(tail -1 "$WORK/record.out")"
    echo "== analyze (recorded calls)"
    "$CLI" analyze "$WORK/run.pcapng" --format json >"$WORK/recorded.json" || true
    "$CLI" analyze "$WORK/run.pcapng" --strace "$WORK/run.strace" --format json >"$WORK/strace.json" || true
    for source in recorded strace; do
        python3 - "$WORK/$source.json" "$source" <<'PY'
import collections, json, sys
report = json.load(open(sys.argv[1]))
verdicts = collections.Counter()
for finding in report.get("findings", []):
    for instance in finding.get("evidence", {}).get("instances", []):
        if "verdict" in instance:
            verdicts[(finding["kind"], instance["verdict"])] += 1
print(f"{sys.argv[2]:>9}: " + (", ".join(f"{kind} {verdict}: {n}" for (kind, verdict), n in sorted(verdicts.items())) or "no verdict"))
PY
    done
    [[ -n $KEEP ]] && mkdir -p "$KEEP" && cp "$WORK"/run.pcapng "$WORK"/run.strace "$WORK"/*.json "$KEEP"/
fi

if [[ $WHAT == overhead || $WHAT == all ]]; then
    # Interleaved: each round runs every mode once, starting one mode later than the round before,
    # so that a slow minute of a shared machine falls on all modes alike. Each round's rate of a
    # mode over its rate with nothing attached is that round's cost; the median of the rounds'
    # ratios is the figure to quote.
    modes=(none record record-calls record-packets tcpdump strace)
    declare -A rates ratios proxy_cpus recorder_cpus
    for round in $(seq "$RUNS"); do
        declare -A this
        for i in "${!modes[@]}"; do
            mode=${modes[$(((i + round) % ${#modes[@]}))]}
            read -r rate proxy_cpu recorder_cpu < <(run_proxy "$mode" "$REQUESTS" --nodelay)
            this[$mode]=$rate
            proxy_cpus[$mode]+="$proxy_cpu "
            recorder_cpus[$mode]+="$recorder_cpu "
            if [[ $mode == record* || $mode == tcpdump ]]; then
                echo "round $round: $mode: $(tail -1 "$WORK/record.out")"
            fi
        done
        for mode in "${modes[@]}"; do
            rates[$mode]+="${this[$mode]} "
            ratios[$mode]+="$(python3 -c "print(f'{${this[$mode]} / ${this[none]}:.3f}')") "
        done
        unset this
    done
    for mode in "${modes[@]}"; do
        # shellcheck disable=SC2086
        echo "overhead: $mode: requests/s ${rates[$mode]}(median $(printf '%s\n' ${rates[$mode]} | median));" \
            "against none ${ratios[$mode]}(median $(printf '%s\n' ${ratios[$mode]} | median))"
        # shellcheck disable=SC2086
        echo "          CPU ms per request: proxy ${proxy_cpus[$mode]}(median $(printf '%s\n' ${proxy_cpus[$mode]} | median))," \
            "recorder ${recorder_cpus[$mode]}(median $(printf '%s\n' ${recorder_cpus[$mode]} | median))"
    done
fi

if [[ $WHAT == calls || $WHAT == all ]]; then
    cc -O2 -o "$WORK/syscost" "$(dirname "${BASH_SOURCE[0]}")/syscall_cost.c"
    ROUNDS=200000
    # call_cost MODE: nanoseconds per call of syscost under MODE.
    call_cost() {
        local watcher=""
        case $1 in
        tcpdump) tcpdump -i lo -w "$WORK/calls.pcap" "tcp port 9" >/dev/null 2>&1 & watcher=$! ;;
        record-other) "$CLI" record -i lo -w "$WORK/calls.pcapng" --comm nobody-at-all "tcp port 9" >/dev/null 2>&1 &
            watcher=$! ;;
        record) "$CLI" record -i lo -w "$WORK/calls.pcapng" --comm syscost "tcp port 9" >"$WORK/calls.out" 2>&1 &
            watcher=$! ;;
        esac
        if [[ -n $watcher ]]; then
            STARTED+=("$watcher")
            sleep 1.5
        fi
        if [[ $1 == strace ]]; then
            strace -f -o "$WORK/calls.strace" "$WORK/syscost" $((ROUNDS / 4))
        else
            "$WORK/syscost" "$ROUNDS"
        fi
        if [[ -n $watcher ]]; then
            kill -INT "$watcher"
            wait "$watcher" || true
        fi
    }
    modes=(none tcpdump record-other record strace)
    declare -A costs
    for round in $(seq "$RUNS"); do
        for i in "${!modes[@]}"; do
            mode=${modes[$(((i + round) % ${#modes[@]}))]}
            costs[$mode]+="$(call_cost "$mode") "
        done
        echo "round $round: record: $(tail -1 "$WORK/calls.out")"
    done
    for mode in "${modes[@]}"; do
        # shellcheck disable=SC2086
        echo "calls: $mode: ns per call ${costs[$mode]}(median $(printf '%s\n' ${costs[$mode]} | median))"
    done
fi
