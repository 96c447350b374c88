#!/usr/bin/env bash
# Soak check of live capture (not part of the normal test run): steady write-write-read traffic on
# loopback for a long time while `tcpscope-cli capture` writes a ring of pcapng files, sampling the
# capture's memory every minute (VmRSS, and its anonymous and file-backed parts: the spilled packet
# index and the kernel's capture ring are file or shared mappings); at the end it stops the capture
# with SIGINT and prints what it captured, what the kernel dropped, what the analysis left out, the
# memory at 1, 5, 30 and 60 minutes, and what the anonymous memory grew by per connection.
#
#   tests/live/soak.sh [--cli PATH] [--duration SECONDS] [--rate REQUESTS_PER_S] [--clients N]
#                      [--long-clients L] [--reconnect-every R] [--sample-seconds S]
#                      [--port P] [--dir DIR] [--via-helper]
#
# Defaults: an hour at 200 requests/s over 20 clients (about 1300 packets/s); 4 of the clients keep
# one connection for the hour, the others open a new one every 50 requests (about 3 a second in
# all); ring of 5 x 100 MB. Needs CAP_NET_RAW (root) or an installed capture helper.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
cli=${TCPSCOPE_CLI:-$here/../../build/release/app/tcpscope-cli}
duration=3600
rate=200
clients=20
long_clients=4
reconnect_every=50
port=29555
dir=$(mktemp -d /tmp/tcpscope-soak.XXXXXX)
helper=()
sample_s=60

while [[ $# -gt 0 ]]; do
    case $1 in
    --cli) cli=$2; shift 2 ;;
    --duration) duration=$2; shift 2 ;;
    --rate) rate=$2; shift 2 ;;
    --clients) clients=$2; shift 2 ;;
    --long-clients) long_clients=$2; shift 2 ;;
    --reconnect-every) reconnect_every=$2; shift 2 ;;
    --sample-seconds) sample_s=$2; shift 2 ;;
    --port) port=$2; shift 2 ;;
    --dir) dir=$2; mkdir -p "$dir"; shift 2 ;;
    --via-helper) helper=(--via-helper); shift ;;
    -h | --help) sed -n '2,16p' "$0"; exit 0 ;;
    *) echo "soak: unknown option $1" >&2; exit 2 ;;
    esac
done
[[ -x $cli ]] || { echo "soak: no tcpscope-cli at $cli (give --cli PATH)" >&2; exit 2; }

report=$dir/report.json
memory=$dir/memory.csv
echo "soak: ${duration}s at ${rate} requests/s over ${clients} clients (${long_clients} long, the others" \
    "reconnecting every ${reconnect_every} requests) on lo port ${port}; files in ${dir}"

"$cli" capture -i lo --filter "tcp port $port" --write "$dir/soak.pcapng" --ring 100M,5 --format json \
    "${helper[@]}" >"$dir/capture.out" 2>"$dir/capture.err" &
capture_pid=$!
trap 'kill -INT $capture_pid 2>/dev/null || true' EXIT
for _ in $(seq 50); do
    grep -q "Ctrl-C to stop" "$dir/capture.err" 2>/dev/null && break
    sleep 0.1
done

python3 "$here/write_write_read.py" "$port" 0 --rate "$rate" --clients "$clients" --duration "$duration" \
    --long-clients "$long_clients" --reconnect-every "$reconnect_every" >"$dir/traffic.out" &
traffic_pid=$!

# One line per sample: VmRSS and its anonymous, file-backed and shared parts, in kB.
sample() {
    awk -v seconds="$1" '/^VmRSS:/ {rss = $2} /^RssAnon:/ {anon = $2} /^RssFile:/ {file = $2} /^RssShmem:/ {shmem = $2}
        END {if (rss != "") print seconds "," rss "," anon "," file "," shmem}' "/proc/$capture_pid/status" 2>/dev/null || true
}
echo "seconds,rss_kb,anon_kb,file_kb,shmem_kb" >"$memory"
start=$(date +%s)
next=0
while kill -0 "$traffic_pid" 2>/dev/null; do
    now=$(($(date +%s) - start))
    if ((now >= next)); then
        sample "$now" >>"$memory"
        # Densely at first (the capture ring and the first chunks settle), then every sample_s.
        next=$((now < 60 ? now + 10 : now + sample_s))
    fi
    sleep 1
done
sample "$(($(date +%s) - start))" >>"$memory"
wait "$traffic_pid"
sleep 1
kill -INT "$capture_pid"
wait "$capture_pid" || { echo "soak: the capture ended with status $?" >&2; cat "$dir/capture.err" >&2; exit 1; }
trap - EXIT
tail -n 1 "$dir/capture.out" >"$report"

python3 - "$report" "$memory" "$dir/traffic.out" <<'PY'
import csv, json, re, sys
report = json.load(open(sys.argv[1]))
live = report["capture"]["live"]
rows = [{k: int(v) for k, v in r.items()} for r in csv.DictReader(open(sys.argv[2])) if int(r["rss_kb"]) > 0]
traffic = open(sys.argv[3]).read().strip()
seconds = live["ended"] - live["started"]
flows = len(report["flows"])
print(traffic)
print(f"captured {live['packets_captured']} packets in {seconds:.0f} s ({live['packets_captured'] / max(seconds, 1):.0f}/s); "
      f"dropped by the kernel {live['dropped_by_kernel']}, by the interface {live['dropped_by_interface']}, "
      f"not analysed {live['not_analysed']} (queue high water {live['analysis_queue_high_water']})")
print(f"files kept {len(live['files'])}, deleted {live['files_deleted']}; connections {flows}, findings {len(report['findings'])}")
print(f"packet index: {live.get('packet_index_bytes_in_memory', 0) / 1e6:.1f} MB in memory, "
      f"{live.get('packet_index_bytes_on_disk', 0) / 1e6:.1f} MB on disk; problem: {live.get('packet_index_problem')}")
def at(minute):
    """The last sample at or before `minute` minutes."""
    before = [r for r in rows if r["seconds"] <= minute * 60 + 5]
    return before[-1] if before else None
for minute in (1, 5, 30, 60):
    r = at(minute)
    if r and r["seconds"] >= minute * 60 - 65:
        print(f"at {r['seconds'] / 60:4.1f} min: RSS {r['rss_kb'] / 1024:6.1f} MiB (anonymous {r['anon_kb'] / 1024:6.1f}, "
              f"file {r['file_kb'] / 1024:5.1f}, shared {r['shmem_kb'] / 1024:5.1f})")
if rows:
    peak = max(r["rss_kb"] for r in rows)
    print(f"peak RSS {peak / 1024:.1f} MiB")
    first = at(5) if rows[-1]["seconds"] > 600 else rows[0]
    last = rows[-1]
    span = last["seconds"] - first["seconds"]
    if span > 0 and seconds > 0:
        # Connections are opened at a steady rate: those of the span are its share of all of them.
        connections_in_span = flows * span / seconds
        grown = (last["anon_kb"] - first["anon_kb"]) * 1024
        print(f"anonymous memory from {first['seconds']} s to {last['seconds']} s: {grown / 1e6:+.1f} MB, "
              f"{grown / span * 3600 / 1e6:+.1f} MB/hour, {grown / max(connections_in_span, 1):.0f} bytes per connection "
              f"({connections_in_span:.0f} connections opened in that time)")
PY
