#!/usr/bin/env bash
# Records the real captures in samples/: small programs from samples/scenarios/
# talking over loopback, each scenario inside a network namespace of its own
# (so its sysctls stay local), captured with tcpdump/dumpcap on that
# namespace's lo, some with strace of one of the programs.
#
# usage: sudo samples/record.sh all
#        sudo samples/record.sh SCENARIO [SCENARIO...]
#        samples/record.sh list
#
# Structure (counts, sizes, sysctls) is fixed; the timing is whatever the
# kernel really does. See samples/README.md for what each file shows.
set -euo pipefail

SAMPLES=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SCENARIOS=$SAMPLES/scenarios
PYTHON=/usr/bin/python3
SNAPLEN=128
NS_PREFIX=tcpscope-
export PYTHONDONTWRITEBYTECODE=1 # no __pycache__ in samples/scenarios

ALL_SCENARIOS=(proxy-nagle proxy-nodelay proxy-nagle-ttt proxy-nagle-ff churn-exhaustion
    port-reuse-collision http-tw-reuse http-keepalive http-close backlog-overflow
    proxy-nagle-noy proxy-nagle-late)

CURRENT=record
NAMESPACE=
CAPTURE_PID=
CREATED_NAMESPACES=()
TEMP_DIRS=()
TEMP_DIR=
CHILD_PIDS=()

log() { printf '[%s] %s\n' "$CURRENT" "$*" >&2; }
die() { log "error: $*"; exit 1; }

# --- setup and cleanup -------------------------------------------------------

ensure_tools() {
    local -A package_of=([tcpdump]=tcpdump [strace]=strace [ab]=apache2-utils [ip]=iproute2
        [ss]=iproute2 [sysctl]=procps [dumpcap]=wireshark-common [nginx]=nginx-light)
    local missing=() tool
    for tool in "${!package_of[@]}"; do
        command -v "$tool" >/dev/null || missing+=("${package_of[$tool]}")
    done
    [[ -x $PYTHON ]] || missing+=(python3)
    if ((${#missing[@]})); then
        log "installing: ${missing[*]}"
        DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}" >&2
    fi
}

# Ends everything still running inside our namespaces, then removes them.
cleanup() {
    local status=$? ns pid
    trap - EXIT
    for pid in "${CHILD_PIDS[@]}"; do
        kill -TERM "$pid" 2>/dev/null || true
    done
    for pid in "${CHILD_PIDS[@]}"; do
        wait "$pid" 2>/dev/null || true
    done
    for ns in "${CREATED_NAMESPACES[@]}"; do
        for pid in $(ip netns pids "$ns" 2>/dev/null); do
            kill -TERM "$pid" 2>/dev/null || true
        done
        sleep 0.2
        for pid in $(ip netns pids "$ns" 2>/dev/null); do
            kill -KILL "$pid" 2>/dev/null || true
        done
        ip netns del "$ns" 2>/dev/null || true
    done
    for dir in "${TEMP_DIRS[@]}"; do
        rm -rf "$dir"
    done
    exit "$status"
}

# make_namespace NAME [SYSCTL=VALUE...]: a fresh namespace with lo up.
make_namespace() {
    NAMESPACE=$NS_PREFIX$1
    shift
    if ip netns list | grep -qw "^$NAMESPACE"; then
        die "namespace $NAMESPACE already exists (another record.sh running?)"
    fi
    ip netns add "$NAMESPACE"
    CREATED_NAMESPACES+=("$NAMESPACE")
    in_ns ip link set lo up
    local setting
    for setting in "$@"; do
        log "sysctl -w $setting"
        in_ns sysctl -qw "$setting"
    done
}

in_ns() { ip netns exec "$NAMESPACE" "$@"; }

# wait_job PID: scenario programs run as background jobs waited for here,
# because bash runs a TERM/INT trap only after a FOREGROUND child has ended,
# but interrupts `wait` at once.
wait_job() { wait "$1"; }

# make_temp_dir: sets TEMP_DIR to a new directory removed at exit.
make_temp_dir() {
    TEMP_DIR=$(mktemp -d /tmp/tcpscope-record.XXXXXX)
    TEMP_DIRS+=("$TEMP_DIR")
}

# wait_port PORT: until something listens on 127.0.0.1:PORT in the namespace.
wait_port() {
    local tries
    for ((tries = 0; tries < 200; tries++)); do
        in_ns ss -Hltn "sport = :$1" | grep -q . && return 0
        sleep 0.05
    done
    die "nothing listens on port $1"
}

# start_capture FILE FORMAT: FORMAT is pcap (microseconds), pcap-nano or pcapng.
start_capture() {
    local file=$1 format=$2 errors
    make_temp_dir
    errors=$TEMP_DIR/capture.err
    rm -f "$file"
    case $format in
    pcap)
        log "tcpdump -i lo -s $SNAPLEN --immediate-mode -U -n -Z root -w ${file#"$SAMPLES"/} tcp"
        ip netns exec "$NAMESPACE" tcpdump -i lo -s "$SNAPLEN" --immediate-mode -U -n -Z root -w "$file" tcp 2>"$errors" &
        ;;
    pcap-nano)
        log "tcpdump -i lo -s $SNAPLEN --time-stamp-precision=nano --immediate-mode -U -n -Z root -w ${file#"$SAMPLES"/} tcp"
        ip netns exec "$NAMESPACE" tcpdump -i lo -s "$SNAPLEN" --time-stamp-precision=nano --immediate-mode -U -n -Z root -w "$file" tcp 2>"$errors" &
        ;;
    pcapng)
        log "dumpcap -i lo -s $SNAPLEN -f tcp -w ${file#"$SAMPLES"/}"
        ip netns exec "$NAMESPACE" dumpcap -i lo -s "$SNAPLEN" -f tcp -w "$file" 2>"$errors" &
        ;;
    *) die "unknown capture format $format" ;;
    esac
    CAPTURE_PID=$!
    local tries
    for ((tries = 0; tries < 200; tries++)); do
        grep -qE 'listening on|Capturing on' "$errors" && return 0
        kill -0 "$CAPTURE_PID" 2>/dev/null || { cat "$errors" >&2; die "capture did not start"; }
        sleep 0.05
    done
    die "capture did not start: $(cat "$errors")"
}

# stop_capture FILE: stops the capture tool and checks that FILE got packets.
stop_capture() {
    local file=$1 packets
    sleep 1.5 # let the last FIN/ACKs in, and let dumpcap drain its ring buffer
    # TERM, not INT: a background job of a non-interactive shell ignores SIGINT
    kill -TERM "$CAPTURE_PID"
    wait "$CAPTURE_PID" || true
    CAPTURE_PID=
    chmod 644 "$file"
    packets=$(tcpdump -r "$file" 2>/dev/null | wc -l)
    ((packets > 0)) || die "${file#"$SAMPLES"/} captured no packets"
    log "${file#"$SAMPLES"/}: $packets packets, $(stat -c %s "$file") bytes"
}

# --- scenarios ---------------------------------------------------------------

# record_proxy NAME REQUESTS CLIENTS CAPTURE_FORMAT STRACE_FLAGS [PROXY_FLAGS...]
# client -> proxy (127.0.0.1:3307, under strace) -> backend (127.0.0.1:3306).
record_proxy() {
    local name=$1 requests=$2 clients=$3 format=$4 strace_flags=$5
    shift 5
    local capture_file=$SAMPLES/$name.pcap
    [[ $format == pcapng ]] && capture_file=$SAMPLES/$name.pcapng
    rm -f "$SAMPLES/$name".pcap "$SAMPLES/$name".pcapng "$SAMPLES/$name".strace "$SAMPLES/$name".strace.*

    make_namespace "$name"
    start_capture "$capture_file" "$format"
    in_ns "$PYTHON" "$SCENARIOS/backend.py" 127.0.0.1 3306 "$clients" &
    local backend_pid=$!
    wait_port 3306
    # shellcheck disable=SC2086 # strace_flags is a list of flags
    log "strace $strace_flags -o ${name}.strace python3 scenarios/proxy.py 3307 3306 $clients $*"
    # shellcheck disable=SC2086
    in_ns strace $strace_flags -o "$SAMPLES/$name.strace" "$PYTHON" "$SCENARIOS/proxy.py" 3307 3306 "$clients" "$@" &
    local proxy_pid=$!
    wait_port 3307
    local client_pids=() client
    for ((client = 0; client < clients; client++)); do
        in_ns "$PYTHON" "$SCENARIOS/client.py" 127.0.0.1 3307 "$requests" | sed "s/^/client $client: /" &
        client_pids+=($!)
    done
    wait "${client_pids[@]}" "$proxy_pid" "$backend_pid"
    stop_capture "$capture_file"
}

scenario_proxy-nagle() { record_proxy proxy-nagle 40 1 pcap "-f -tt -T -yy"; }
scenario_proxy-nodelay() { record_proxy proxy-nodelay 40 1 pcap "-f -tt -T -yy" --nodelay; }
scenario_proxy-nagle-ttt() { record_proxy proxy-nagle-ttt 15 1 pcapng "-f -ttt -T -yy"; }
# Two clients at once against a proxy that forks per connection: -ff writes
# one strace file per process (the parent and two children).
scenario_proxy-nagle-ff() { record_proxy proxy-nagle-ff 15 2 pcap "-ff -tt -T -yy" --fork; }

# Two clients at once against one epoll proxy traced without -y/-yy: only the
# connect() and accept() calls say which fd is which connection.
scenario_proxy-nagle-noy() { record_proxy proxy-nagle-noy 15 2 pcap "-f -tt -T"; }

# The proxy runs untraced; strace attaches to it (-p) once both clients are in
# the middle of their requests, without -y/-yy: no fd has a history in the log.
# `ss -tnp` names each of the proxy's fds with its endpoints at that moment
# (NAME.ss), which the tests take as the truth to compare the mapping with.
scenario_proxy-nagle-late() {
    local name=proxy-nagle-late requests=30 clients=2
    local capture_file=$SAMPLES/$name.pcap
    rm -f "$capture_file" "$SAMPLES/$name".strace "$SAMPLES/$name".ss
    make_namespace "$name"
    start_capture "$capture_file" pcap
    in_ns "$PYTHON" "$SCENARIOS/backend.py" 127.0.0.1 3306 "$clients" &
    local backend_pid=$!
    wait_port 3306
    log "python3 scenarios/proxy.py 3307 3306 $clients (not traced yet)"
    in_ns "$PYTHON" "$SCENARIOS/proxy.py" 3307 3306 "$clients" &
    local proxy_pid=$! traced_pid= pid
    wait_port 3307
    for pid in $(ip netns pids "$NAMESPACE"); do
        grep -q proxy.py "/proc/$pid/cmdline" 2>/dev/null && traced_pid=$pid
    done
    [[ -n $traced_pid ]] || die "the proxy's python3 process was not found"
    local client_pids=() client
    for ((client = 0; client < clients; client++)); do
        # the second client half a round trip later, so the two are not in step
        sleep 0.045
        in_ns "$PYTHON" "$SCENARIOS/client.py" 127.0.0.1 3307 "$requests" | sed "s/^/client $client: /" &
        client_pids+=($!)
    done
    sleep 1
    log "strace -f -tt -T -o ${name}.strace -p $traced_pid (attached late, no -y)"
    strace -f -tt -T -o "$SAMPLES/$name.strace" -p "$traced_pid" &
    local strace_pid=$!
    sleep 0.3
    log "ss -tnpH (the proxy's fds and their endpoints) > ${name}.ss"
    in_ns ss -tnpH | grep "pid=$traced_pid," >"$SAMPLES/$name.ss"
    wait "${client_pids[@]}" "$proxy_pid" "$backend_pid"
    wait "$strace_pid" || true
    chmod 644 "$SAMPLES/$name.strace" "$SAMPLES/$name.ss"
    stop_capture "$capture_file"
}

scenario_churn-exhaustion() {
    local connections=150
    make_namespace churn-exhaustion "net.ipv4.ip_local_port_range=40000 40099" net.ipv4.tcp_tw_reuse=0
    start_capture "$SAMPLES/churn-exhaustion.pcap" pcap
    in_ns "$PYTHON" "$SCENARIOS/churn_server.py" 9000 "$connections" &
    local server_pid=$!
    wait_port 9000
    log "strace -f -tt -T -yy -o churn-exhaustion.strace python3 scenarios/churn_client.py 9000 $connections"
    in_ns strace -f -tt -T -yy -o "$SAMPLES/churn-exhaustion.strace" \
        "$PYTHON" "$SCENARIOS/churn_client.py" 9000 "$connections" | grep -v 'local port' &
    wait_job $!
    wait "$server_pid"
    stop_capture "$SAMPLES/churn-exhaustion.pcap"
}

scenario_port-reuse-collision() {
    local connections=6 payload_mb=8
    make_namespace port-reuse-collision net.ipv4.tcp_timestamps=0
    start_capture "$SAMPLES/port-reuse-collision.pcap" pcap
    in_ns "$PYTHON" "$SCENARIOS/collision_server.py" 9100 "$connections" &
    local server_pid=$!
    wait_port 9100
    log "python3 scenarios/collision_client.py 9100 40404 $connections $payload_mb"
    in_ns "$PYTHON" "$SCENARIOS/collision_client.py" 9100 40404 "$connections" "$payload_mb" &
    wait_job $!
    wait "$server_pid"
    stop_capture "$SAMPLES/port-reuse-collision.pcap"
}

scenario_http-tw-reuse() {
    local requests=300
    make_namespace http-tw-reuse "net.ipv4.ip_local_port_range=41000 41049"
    in_ns "$PYTHON" "$SCENARIOS/http10_server.py" 8080 "$requests" &
    local server_pid=$!
    wait_port 8080
    start_capture "$SAMPLES/http-tw-reuse.pcap" pcap
    log "ab -n $requests -c 1 http://127.0.0.1:8080/"
    in_ns ab -n "$requests" -c 1 http://127.0.0.1:8080/ | grep -E '^(Complete|Failed|Time taken|Requests per)' &
    wait_job $!
    wait "$server_pid"
    stop_capture "$SAMPLES/http-tw-reuse.pcap"
}

# record_nginx NAME CAPTURE_FORMAT AB_FLAGS...
record_nginx() {
    local name=$1 format=$2
    shift 2
    local prefix capture_file=$SAMPLES/$name.pcap
    make_temp_dir
    prefix=$TEMP_DIR
    mkdir -p "$prefix/html" "$prefix/tmp" "$prefix/logs"
    cp "$SCENARIOS/nginx.conf" "$prefix/nginx.conf"
    # a fixed 1 KiB page
    for ((line = 0; line < 16; line++)); do printf '%063d\n' "$line"; done >"$prefix/html/index.html"

    make_namespace "$name"
    log "nginx -p PREFIX/ -c PREFIX/nginx.conf (scenarios/nginx.conf)"
    ip netns exec "$NAMESPACE" nginx -p "$prefix/" -c "$prefix/nginx.conf" -e "$prefix/logs/error.log" &
    local nginx_pid=$!
    wait_port 8080
    start_capture "$capture_file" "$format"
    log "ab $* http://127.0.0.1:8080/index.html"
    in_ns ab "$@" http://127.0.0.1:8080/index.html | grep -E '^(Complete|Failed|Keep-Alive|Time taken|Requests per)' &
    wait_job $!
    stop_capture "$capture_file"
    kill -QUIT "$nginx_pid"
    wait "$nginx_pid" || true
}

scenario_http-keepalive() { record_nginx http-keepalive pcap -n 300 -c 4 -k; }
scenario_http-close() { record_nginx http-close pcap-nano -n 300 -c 4; }

scenario_backlog-overflow() {
    local connections=20
    make_namespace backlog-overflow net.ipv4.tcp_syncookies=0
    in_ns "$PYTHON" "$SCENARIOS/backlog_server.py" 9200 "$connections" &
    local server_pid=$!
    wait_port 9200
    start_capture "$SAMPLES/backlog-overflow.pcap" pcap
    log "python3 scenarios/backlog_client.py 9200 $connections"
    in_ns "$PYTHON" "$SCENARIOS/backlog_client.py" 9200 "$connections" &
    wait_job $!
    wait "$server_pid"
    stop_capture "$SAMPLES/backlog-overflow.pcap"
}

# --- main --------------------------------------------------------------------

run_one() {
    CURRENT=$1
    declare -F "scenario_$1" >/dev/null || die "unknown scenario '$1' (try: $0 list)"
    local started=$SECONDS
    log "recording"
    "scenario_$1"
    log "done in $((SECONDS - started)) s: $(cd "$SAMPLES" && echo "$1".*)"
}

main() {
    (($# > 0)) || { sed -n '2,13p' "$0"; exit 2; }
    if [[ $1 == list ]]; then
        printf '%s\n' "${ALL_SCENARIOS[@]}"
        exit 0
    fi
    ((EUID == 0)) || die "run as root (network namespaces, tcpdump, sysctl)"
    trap cleanup EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
    ensure_tools

    if [[ $1 == all ]]; then
        # churn-exhaustion mostly waits 60 s for TIME_WAIT: run it beside the others
        "$0" churn-exhaustion &
        CHILD_PIDS+=($!)
        local name
        for name in "${ALL_SCENARIOS[@]}"; do
            [[ $name == churn-exhaustion ]] || "$0" "$name"
        done
        wait "${CHILD_PIDS[@]}"
        CHILD_PIDS=()
        (cd "$SAMPLES" && ls -l -- *.pcap *.pcapng *.strace *.strace.* >&2)
        return
    fi
    local name
    for name in "$@"; do
        run_one "$name"
    done
}

main "$@"
