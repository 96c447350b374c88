#!/usr/bin/env bash
# Soak check of live capture (not part of the normal test run): steady write-write-read traffic on
# loopback for a long time while `tcpscope-cli capture` writes a ring of pcapng files, sampling the
# capture's memory (RSS) every few seconds; at the end it stops the capture with SIGINT and prints
# what it captured, what the kernel dropped, what the analysis left out, and the memory over time.
#
#   tests/live/soak.sh [--cli PATH] [--duration SECONDS] [--rate REQUESTS_PER_S] [--clients N]
#                      [--port P] [--dir DIR] [--via-helper]
#
# Defaults: an hour at 200 requests/s over 20 clients (about 1300 packets/s), ring of 5 x 100 MB.
# Needs CAP_NET_RAW (root) or an installed capture helper. Run as root on an otherwise quiet machine.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
cli=${TCPSCOPE_CLI:-$here/../../build/release/app/tcpscope-cli}
duration=3600
rate=200
clients=20
port=29555
dir=$(mktemp -d /tmp/tcpscope-soak.XXXXXX)
helper=()
sample_s=5

while [[ $# -gt 0 ]]; do
    case $1 in
    --cli) cli=$2; shift 2 ;;
    --duration) duration=$2; shift 2 ;;
    --rate) rate=$2; shift 2 ;;
    --clients) clients=$2; shift 2 ;;
    --port) port=$2; shift 2 ;;
    --dir) dir=$2; mkdir -p "$dir"; shift 2 ;;
    --via-helper) helper=(--via-helper); shift ;;
    -h | --help) sed -n '2,12p' "$0"; exit 0 ;;
    *) echo "soak: unknown option $1" >&2; exit 2 ;;
    esac
done
[[ -x $cli ]] || { echo "soak: no tcpscope-cli at $cli (give --cli PATH)" >&2; exit 2; }

report=$dir/report.json
memory=$dir/memory.csv
echo "soak: ${duration}s at ${rate} requests/s over ${clients} clients on lo port ${port}; files in ${dir}"

"$cli" capture -i lo --filter "tcp port $port" --write "$dir/soak.pcapng" --ring 100M,5 --format json \
    "${helper[@]}" >"$dir/capture.out" 2>"$dir/capture.err" &
capture_pid=$!
trap 'kill -INT $capture_pid 2>/dev/null || true' EXIT
for _ in $(seq 50); do
    grep -q "Ctrl-C to stop" "$dir/capture.err" 2>/dev/null && break
    sleep 0.1
done

python3 "$here/write_write_read.py" "$port" 0 --rate "$rate" --clients "$clients" --duration "$duration" \
    >"$dir/traffic.out" &
traffic_pid=$!

echo "seconds,rss_kb" >"$memory"
start=$(date +%s)
while kill -0 "$traffic_pid" 2>/dev/null; do
    rss=$(awk '/^VmRSS:/ {print $2}' "/proc/$capture_pid/status" 2>/dev/null || echo 0)
    echo "$(($(date +%s) - start)),$rss" >>"$memory"
    sleep "$sample_s"
done
wait "$traffic_pid"
sleep 1
kill -INT "$capture_pid"
wait "$capture_pid" || { echo "soak: the capture ended with status $?" >&2; cat "$dir/capture.err" >&2; exit 1; }
trap - EXIT
tail -n 1 "$dir/capture.out" >"$report"

python3 - "$report" "$memory" "$dir/traffic.out" <<'PY'
import csv, json, sys
report = json.load(open(sys.argv[1]))
live = report["capture"]["live"]
rows = [(int(r["seconds"]), int(r["rss_kb"])) for r in csv.DictReader(open(sys.argv[2])) if int(r["rss_kb"]) > 0]
seconds = live["ended"] - live["started"]
print(open(sys.argv[3]).read().strip())
print(f"captured {live['packets_captured']} packets in {seconds:.0f} s ({live['packets_captured'] / max(seconds, 1):.0f}/s); "
      f"dropped by the kernel {live['dropped_by_kernel']}, by the interface {live['dropped_by_interface']}, "
      f"not analysed {live['not_analysed']} (queue high water {live['analysis_queue_high_water']})")
print(f"files kept {len(live['files'])}, deleted {live['files_deleted']}; flows {len(report['flows'])}, findings {len(report['findings'])}")
if rows:
    first, last = rows[0], rows[-1]
    peak = max(kb for _, kb in rows)
    span = max(last[0] - first[0], 1)
    print(f"RSS: {first[1] / 1024:.1f} MiB at {first[0]} s, {last[1] / 1024:.1f} MiB at {last[0]} s, peak {peak / 1024:.1f} MiB; "
          f"growth {(last[1] - first[1]) / 1024 / span * 3600:.0f} MiB/hour")
PY
