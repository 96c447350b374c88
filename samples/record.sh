#!/usr/bin/env bash
# Records the real captures in samples/: small programs from samples/scenarios/
# talking over loopback, each scenario inside a network namespace of its own
# (so its sysctls stay local), captured with tcpdump/dumpcap on that
# namespace's lo, some with strace of one of the programs. The rtt-* scenarios
# run each program in a namespace of its own, joined through delay lines
# (real round-trip times), and write into samples/rtt/. The seed scenarios are
# incidents at the size users meet them (tens of thousands of connections),
# also over delay lines, captured with a short snap length and gzipped into
# samples/seeds/.
#
# usage: sudo samples/record.sh all
#        sudo samples/record.sh rtt          (the rtt-* scenarios only)
#        sudo samples/record.sh seeds        (the seed scenarios only, about 4 minutes)
#        sudo samples/record.sh SCENARIO [SCENARIO...]
#        samples/record.sh list
# Structure (counts, sizes, sysctls, delays) is fixed; the timing is whatever the
# kernel really does. See samples/README.md for what each file shows.
set -euo pipefail

SAMPLES=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SCENARIOS=$SAMPLES/scenarios
PYTHON=/usr/bin/python3
SNAPLEN=128
NS_PREFIX=tcpscope-
export PYTHONDONTWRITEBYTECODE=1 # no __pycache__ in samples/scenarios

ALL_SCENARIOS=(proxy-nagle proxy-nodelay proxy-nagle-ttt proxy-nagle-ff churn-exhaustion hosts-churn
    port-reuse-collision http-tw-reuse http-keepalive http-close backlog-overflow
    proxy-nagle-noy proxy-nagle-late)
# over delay lines between namespaces (real round-trip times), into samples/rtt/
RTT_SCENARIOS=(rtt-http-keepalive rtt-tls-like rtt-nagle-proxy rtt-bulk-cwnd rtt-defer-accept
    rtt-syn-dropped rtt-duplicated rtt-path-mtu)
ALL_SCENARIOS+=("${RTT_SCENARIOS[@]}")
# incidents at their real size, over delay lines, gzipped into samples/seeds/
SEED_SCENARIOS=(jobs-port-exhaustion ab-no-keepalive ab-keepalive httperf-port-exhaustion backlog-connrate)
ALL_SCENARIOS+=("${SEED_SCENARIOS[@]}")

CURRENT=record
NAMESPACE=
CAPTURE_PIDS=()
CAPTURE_FILES=()
CREATED_NAMESPACES=()
TEMP_DIRS=()
TEMP_DIR=
CHILD_PIDS=()

log() { printf '[%s] %s\n' "$CURRENT" "$*" >&2; }
die() { log "error: $*"; exit 1; }

# --- setup and cleanup -------------------------------------------------------

ensure_tools() {
    local -A package_of=([tcpdump]=tcpdump [strace]=strace [ab]=apache2-utils [ip]=iproute2
        [ss]=iproute2 [sysctl]=procps [dumpcap]=wireshark-common [nginx]=nginx-light
        [gcc]=gcc [ethtool]=ethtool [nft]=nftables [httperf]=httperf [nstat]=iproute2 [gzip]=gzip)
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

# capture_in NAMESPACE FILE FORMAT INTERFACE...: starts a capture of TCP in NAMESPACE.
# FORMAT is pcap (tcpdump, microseconds), pcap-nano (tcpdump, nanoseconds) or
# pcapng (dumpcap, which alone takes several interfaces into one file).
# stop_capture stops every capture started since the last stop.
capture_in() {
    local namespace=$1 file=$2 format=$3 errors
    shift 3
    local interfaces=("$@") command=()
    make_temp_dir
    errors=$TEMP_DIR/capture.err
    : >"$errors" # polled below, maybe before the capture tool's redirection has made it
    rm -f "$file"
    case $format in
    pcap | pcap-nano)
        ((${#interfaces[@]} == 1)) || die "tcpdump takes one interface (any for all)"
        command=(tcpdump -i "${interfaces[0]}" -s "$SNAPLEN")
        [[ $format == pcap-nano ]] && command+=(--time-stamp-precision=nano)
        command+=(--immediate-mode -U -n -Z root -w "$file" "${CAPTURE_FILTER:-tcp}")
        ;;
    pcapng)
        # before the first -i, -s and -f hold for every interface; after one, for that one alone
        command=(dumpcap -s "$SNAPLEN" -f "${CAPTURE_FILTER:-tcp}")
        local interface
        for interface in "${interfaces[@]}"; do
            command+=(-i "$interface")
        done
        command+=(-w "$file")
        ;;
    *) die "unknown capture format $format" ;;
    esac
    log "${command[*]/#"$SAMPLES"\//}"
    ip netns exec "$namespace" "${command[@]}" 2>"$errors" &
    local pid=$!
    CAPTURE_PIDS+=("$pid")
    CAPTURE_FILES+=("$file")
    local tries
    for ((tries = 0; tries < 200; tries++)); do
        grep -qE 'listening on|Capturing on' "$errors" && return 0
        kill -0 "$pid" 2>/dev/null || { cat "$errors" >&2; die "capture did not start"; }
        sleep 0.05
    done
    die "capture did not start: $(cat "$errors")"
}

# start_capture FILE FORMAT: a capture on lo of the scenario's namespace.
start_capture() { capture_in "$NAMESPACE" "$1" "$2" lo; }

# stop_capture: stops the running captures and checks that each file got packets.
stop_capture() {
    local file pid packets
    sleep 1.5 # let the last FIN/ACKs in, and let dumpcap drain its ring buffer
    # TERM, not INT: a background job of a non-interactive shell ignores SIGINT
    for pid in "${CAPTURE_PIDS[@]}"; do
        kill -TERM "$pid"
    done
    for pid in "${CAPTURE_PIDS[@]}"; do
        wait "$pid" || true
    done
    CAPTURE_PIDS=()
    for file in "${CAPTURE_FILES[@]}"; do
        chmod 644 "$file"
        packets=$(tcpdump -r "$file" 2>/dev/null | wc -l) || die "tcpdump cannot read ${file#"$SAMPLES"/}"
        ((packets > 0)) || die "${file#"$SAMPLES"/} captured no packets"
        log "${file#"$SAMPLES"/}: $packets packets, $(stat -c %s "$file") bytes"
    done
    CAPTURE_FILES=()
}

# --- lab paths: namespaces joined through a delay line ------------------------
#
# Loopback has no round-trip time. The rtt-* scenarios put each program in a
# namespace of its own (ROLE: client, proxy, server, ...) and join two of them
# through a third, wireN, where scenarios/delayline.c bridges two veth pairs at
# layer 2 and holds every frame DELAY_MS in each direction:
#
#   CLIENT [to-SERVER] <-veth-> [to-CLIENT] wireN [to-SERVER] <-veth-> [to-CLIENT] SERVER
#
# Every address stays in 127.0.0.0/8: path N gives the client end 127.1.N.1/24
# and the server end 127.1.N.2/24. For the kernel to route such addresses over a
# veth, each namespace drops `local 127.0.0.0/8` from its local table (keeping
# 127.0.0.1 on lo) and sets route_localnet=1 and rp_filter=0. Checksum and
# segmentation offloads are off on every veth (frames the delay line forwards
# with an unfinished checksum would be dropped, and the captures show the
# segments as they travel). Neighbours are static, so no ARP exchange delays a
# first SYN. IPv6 is off, so nothing but the scenario's traffic crosses a wire.

LAB_DIR=$SAMPLES/rtt
DELAYLINE=
DELAYLINE_LOG= # what each delay line prints when it stops: frames forwarded and lost
PATH_COUNT=0
declare -A LAB_ROLES=()
declare -A LAB_ADDRESS=() # [FROM>TO] = TO's address on the path between them

lab_namespace() { printf '%s%s-%s' "$NS_PREFIX" "$CURRENT" "$1"; }
in_role() {
    local role=$1
    shift
    ip netns exec "$(lab_namespace "$role")" "$@"
}

# address_of FROM TO: the address FROM reaches TO at.
address_of() {
    [[ -n ${LAB_ADDRESS["$1>$2"]:-} ]] || die "no path from $1 to $2"
    printf '%s' "${LAB_ADDRESS["$1>$2"]}"
}

build_delayline() {
    [[ -n $DELAYLINE ]] && return
    make_temp_dir
    log "gcc -O2 -Wall -Wextra -o DELAYLINE scenarios/delayline.c"
    gcc -O2 -Wall -Wextra -o "$TEMP_DIR/delayline" "$SCENARIOS/delayline.c"
    DELAYLINE=$TEMP_DIR/delayline
    DELAYLINE_LOG=$TEMP_DIR/delayline.log
}

# make_role ROLE: a namespace for ROLE whose 127.0.0.0/8 addresses can leave over a veth.
make_role() {
    local role=$1
    [[ -n ${LAB_ROLES[$role]:-} ]] && return
    make_namespace "$CURRENT-$role"
    local setting
    for setting in net.ipv4.conf.{all,default}.route_localnet=1 net.ipv4.conf.{all,default}.rp_filter=0 \
        net.ipv6.conf.{all,default}.disable_ipv6=1; do
        in_role "$role" sysctl -qw "$setting"
    done
    in_role "$role" ip route del local 127.0.0.0/8 dev lo table local
    log "namespace $(lab_namespace "$role"): route_localnet=1, rp_filter=0, no IPv6, no local 127.0.0.0/8 route"
    LAB_ROLES[$role]=1
}

# lab_link ROLE IFACE: offloads off, then up.
lab_link() {
    in_role "$1" ethtool -K "$2" tx off rx off tso off gso off gro off >/dev/null
    in_role "$1" ip link set "$2" up
}

# make_path CLIENT SERVER DELAY_MS: joins the namespaces of roles CLIENT and
# SERVER (made if new) through a new namespace wireN that delays every frame
# DELAY_MS each way (round trip 2 x DELAY_MS). In CLIENT the interface is
# to-SERVER, in SERVER to-CLIENT; wireN has both names.
make_path() {
    local client=$1 server=$2 delay_ms=$3
    local path=$((++PATH_COUNT))
    local wire=wire$path client_address=127.1.$path.1 server_address=127.1.$path.2
    build_delayline
    make_role "$client"
    make_role "$server"
    make_role "$wire"
    log "path $path: $client $client_address <-> $wire ($delay_ms ms each way) <-> $server $server_address"
    ip link add "to-$server" netns "$(lab_namespace "$client")" type veth peer name "to-$client" netns "$(lab_namespace "$wire")"
    ip link add "to-$server" netns "$(lab_namespace "$wire")" type veth peer name "to-$client" netns "$(lab_namespace "$server")"
    lab_link "$client" "to-$server"
    lab_link "$wire" "to-$client"
    lab_link "$wire" "to-$server"
    lab_link "$server" "to-$client"
    in_role "$client" ip addr add "$client_address/24" dev "to-$server"
    in_role "$server" ip addr add "$server_address/24" dev "to-$client"
    local client_mac server_mac
    client_mac=$(in_role "$client" cat "/sys/class/net/to-$server/address")
    server_mac=$(in_role "$server" cat "/sys/class/net/to-$client/address")
    in_role "$client" ip neigh replace "$server_address" lladdr "$server_mac" nud permanent dev "to-$server"
    in_role "$server" ip neigh replace "$client_address" lladdr "$client_mac" nud permanent dev "to-$client"
    LAB_ADDRESS["$client>$server"]=$server_address
    LAB_ADDRESS["$server>$client"]=$client_address

    # not through a function: its subshell would print "Terminated" when cleanup ends the delay line
    ip netns exec "$(lab_namespace "$wire")" "$DELAYLINE" "to-$client" "to-$server" "$delay_ms" 2>>"$DELAYLINE_LOG" &
    disown $!
    local tries
    for ((tries = 0; tries < 100; tries++)); do
        # the delay line's two AF_PACKET sockets (below the header line)
        (($(in_role "$wire" cat /proc/net/packet | wc -l) >= 3)) && return 0
        sleep 0.02
    done
    die "the delay line of $wire did not start"
}

# wait_listen ROLE PORT: until something listens on PORT in ROLE's namespace.
wait_listen() {
    local tries
    for ((tries = 0; tries < 200; tries++)); do
        in_role "$1" ss -Hltn "sport = :$2" | grep -q . && return 0
        sleep 0.05
    done
    die "nothing listens on port $2 in $1"
}

# capture_at ROLE NAME INTERFACE... [pcapng]: captures TCP in ROLE's namespace into rtt/NAME.pcap
# (tcpdump, one interface or any) or, given the format pcapng last, rtt/NAME.pcapng (dumpcap).
capture_at() {
    local role=$1 name=$2
    shift 2
    local format=pcap extension=pcap
    if [[ ${*: -1} == pcapng ]]; then
        format=pcapng extension=pcapng
        set -- "${@:1:$#-1}"
    fi
    mkdir -p "$LAB_DIR"
    capture_in "$(lab_namespace "$role")" "$LAB_DIR/$name.$extension" "$format" "$@"
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
    stop_capture
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
    stop_capture
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
    stop_capture
}

scenario_hosts-churn() {
    local hosts=(127.0.0.2:60 127.0.0.3:40 127.0.0.4:30 127.0.0.5:20 127.0.0.6:12)
    make_namespace hosts-churn net.ipv4.tcp_tw_reuse=0
    start_capture "$SAMPLES/hosts-churn.pcap" pcap
    in_ns "$PYTHON" "$SCENARIOS/churn_server.py" 9000 162 &
    local server_pid=$!
    wait_port 9000
    log "python3 scenarios/hosts_churn_client.py 9000 20 ${hosts[*]}"
    in_ns "$PYTHON" "$SCENARIOS/hosts_churn_client.py" 9000 20 "${hosts[@]}" &
    wait_job $!
    wait "$server_pid"
    stop_capture
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
    stop_capture
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
    stop_capture
}

# make_nginx_prefix ADDRESS [WORKER_CONNECTIONS]: sets NGINX_PREFIX to a new nginx prefix
# (scenarios/nginx.conf listening on ADDRESS:8080, a fixed 1 KiB index.html) removed at exit.
NGINX_PREFIX=
make_nginx_prefix() {
    make_temp_dir
    NGINX_PREFIX=$TEMP_DIR
    mkdir -p "$NGINX_PREFIX/html" "$NGINX_PREFIX/tmp" "$NGINX_PREFIX/logs"
    sed -e "s/listen 127.0.0.1:8080;/listen $1:8080;/" -e "s/worker_connections 64;/worker_connections ${2:-64};/" \
        "$SCENARIOS/nginx.conf" >"$NGINX_PREFIX/nginx.conf"
    local line
    for ((line = 0; line < 16; line++)); do printf '%063d\n' "$line"; done >"$NGINX_PREFIX/html/index.html"
}

# record_nginx NAME CAPTURE_FORMAT AB_FLAGS...
record_nginx() {
    local name=$1 format=$2
    shift 2
    local prefix capture_file=$SAMPLES/$name.pcap
    make_nginx_prefix 127.0.0.1
    prefix=$NGINX_PREFIX

    make_namespace "$name"
    log "nginx -p PREFIX/ -c PREFIX/nginx.conf (scenarios/nginx.conf)"
    ip netns exec "$NAMESPACE" nginx -p "$prefix/" -c "$prefix/nginx.conf" -e "$prefix/logs/error.log" &
    local nginx_pid=$!
    wait_port 8080
    start_capture "$capture_file" "$format"
    log "ab $* http://127.0.0.1:8080/index.html"
    in_ns ab "$@" http://127.0.0.1:8080/index.html | grep -E '^(Complete|Failed|Keep-Alive|Time taken|Requests per)' &
    wait_job $!
    stop_capture
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
    stop_capture
}

# --- rtt scenarios: programs in namespaces of their own, joined by delay lines --

# rtt-http-keepalive: 25 GETs on one HTTP/1.1 connection over a 40 ms round trip.
scenario_rtt-http-keepalive() {
    local requests=25 server
    make_path client server 20
    server=$(address_of client server)
    in_role server "$PYTHON" "$SCENARIOS/http11_server.py" "$server" 8080 &
    local server_pid=$!
    wait_listen server 8080
    capture_at client rtt-http-keepalive to-server
    log "python3 scenarios/http11_client.py $server 8080 $requests"
    in_role client "$PYTHON" "$SCENARIOS/http11_client.py" "$server" 8080 "$requests" | tail -n 3 &
    wait_job $!
    wait "$server_pid"
    stop_capture
}

# rtt-tls-like: a TLS 1.2-shaped handshake and 6 request/response records over 80 ms.
scenario_rtt-tls-like() {
    local server
    make_path client server 40
    server=$(address_of client server)
    in_role server "$PYTHON" "$SCENARIOS/tls_like.py" server "$server" 8443 | tail -n 2 &
    local server_pid=$!
    wait_listen server 8443
    capture_at server rtt-tls-like to-client
    log "python3 scenarios/tls_like.py client $server 8443"
    in_role client "$PYTHON" "$SCENARIOS/tls_like.py" client "$server" 8443 | tail -n 2 &
    wait_job $!
    wait "$server_pid"
    stop_capture
}

# rtt-nagle-proxy: proxy-nagle with each program in its own namespace, 3 ms
# each way between client and proxy, 12 ms between proxy and backend, captured
# at all three and the proxy under strace.
scenario_rtt-nagle-proxy() {
    local requests=20 name=rtt-nagle-proxy proxy backend
    rm -f "$LAB_DIR/$name"-*.strace
    make_path client proxy 3
    make_path proxy server 12
    proxy=$(address_of client proxy)
    backend=$(address_of proxy server)
    in_role server "$PYTHON" "$SCENARIOS/backend.py" "$backend" 3306 1 &
    local backend_pid=$!
    wait_listen server 3306
    capture_at client "$name-client" to-proxy
    capture_at proxy "$name-proxy" any
    capture_at server "$name-server" to-proxy
    log "strace -f -tt -T -yy -o rtt/$name-proxy.strace python3 scenarios/proxy.py 3307 3306 1 --listen-host=$proxy --backend-host=$backend"
    mkdir -p "$LAB_DIR"
    in_role proxy strace -f -tt -T -yy -o "$LAB_DIR/$name-proxy.strace" \
        "$PYTHON" "$SCENARIOS/proxy.py" 3307 3306 1 "--listen-host=$proxy" "--backend-host=$backend" &
    local proxy_pid=$!
    wait_listen proxy 3307
    log "python3 scenarios/client.py $proxy 3307 $requests"
    in_role client "$PYTHON" "$SCENARIOS/client.py" "$proxy" 3307 "$requests" | tail -n 3 &
    wait_job $!
    wait "$proxy_pid" "$backend_pid"
    chmod 644 "$LAB_DIR/$name-proxy.strace"
    stop_capture
}

# rtt-bulk-cwnd: 200 KiB downloaded over a 60 ms round trip by a sender whose congestion window
# is locked at 3 segments, captured at the receiver. Once the receiver has left quick-ACK mode it
# ACKs every second segment at once and holds the third, odd one for its delayed-ACK timer, while
# the sender, its window full, waits.
scenario_rtt-bulk-cwnd() {
    local bytes=204800 cwnd=3 server
    make_path client server 30
    server=$(address_of client server)
    log "ip route replace 127.1.1.0/24 dev to-client ... cwnd lock $cwnd (in the server's namespace)"
    in_role server ip route replace 127.1.1.0/24 dev to-client proto kernel scope link src "$server" cwnd lock "$cwnd"
    # cubic on the server's socket: a namespace gets the machine's default congestion control
    # (bbr here, which paces) and may set as its default only one of tcp_allowed_congestion_control
    log "python3 scenarios/bulk.py server $server 8000 cubic 2"
    in_role server "$PYTHON" "$SCENARIOS/bulk.py" server "$server" 8000 cubic 2 &
    local server_pid=$!
    wait_listen server 8000
    # A connection takes a locked cwnd from its TCP metrics entry for the peer, which the route's
    # metrics fill only when a first connection to that peer closes: one small download, before
    # the capture, makes the entry.
    log "python3 scenarios/bulk.py client $server 8000 1448 (before the capture: the server's TCP metrics entry)"
    in_role client "$PYTHON" "$SCENARIOS/bulk.py" client "$server" 8000 1448 >/dev/null &
    wait_job $!
    sleep 0.2
    log "server's ip tcp_metrics: $(in_role server ip tcp_metrics show "$(address_of server client)")"
    in_role server ip tcp_metrics show "$(address_of server client)" | grep -q "cwnd $cwnd " ||
        die "the server's TCP metrics entry has no cwnd $cwnd"
    capture_at client rtt-bulk-cwnd to-server
    log "python3 scenarios/bulk.py client $server 8000 $bytes"
    in_role client "$PYTHON" "$SCENARIOS/bulk.py" client "$server" 8000 "$bytes" &
    wait_job $!
    wait "$server_pid"
    stop_capture
}

# rtt-defer-accept: TCP_DEFER_ACCEPT 5 s and four clients that stay silent
# (1 to 20 s) over a 20 ms round trip, captured at both ends.
scenario_rtt-defer-accept() {
    local server
    make_path client server 10
    server=$(address_of client server)
    capture_at client rtt-defer-accept-client to-server
    capture_at server rtt-defer-accept-server to-client
    log "python3 scenarios/defer_accept.py server $server 9400 5 4"
    in_role server "$PYTHON" "$SCENARIOS/defer_accept.py" server "$server" 9400 5 4 &
    local server_pid=$!
    wait_listen server 9400
    log "python3 scenarios/defer_accept.py clients $server 9400"
    in_role client "$PYTHON" "$SCENARIOS/defer_accept.py" clients "$server" 9400 &
    wait_job $!
    wait "$server_pid"
    stop_capture
}

# rtt-syn-dropped: the server's firewall drops SYNs to port 9302; 9303 has no
# listener, 9301 answers. Two attempts at 9302 give up after 3 and 7 s.
scenario_rtt-syn-dropped() {
    local server
    make_path client server 10
    server=$(address_of client server)
    log "nft (in the server's namespace): drop tcp dport 9302 with flags syn and not ack"
    in_role server nft -f - <<'RULES'
table inet tcpscope {
    chain input {
        type filter hook input priority filter; policy accept;
        tcp dport 9302 tcp flags & (syn | ack) == syn counter drop
    }
}
RULES
    in_role server "$PYTHON" "$SCENARIOS/syn_probe.py" server "$server" 9301 &
    local server_pid=$!
    wait_listen server 9301
    capture_at client rtt-syn-dropped-client to-server
    capture_at server rtt-syn-dropped-server to-client
    log "python3 scenarios/syn_probe.py client $server 9301 9303 9302 3 7"
    in_role client "$PYTHON" "$SCENARIOS/syn_probe.py" client "$server" 9301 9303 9302 3 7 &
    wait_job $!
    wait "$server_pid"
    log "nft counter: $(in_role server nft list ruleset | grep -o 'packets [0-9]*')"
    stop_capture
}

# rtt-duplicated: 8 GETs over a 20 ms round trip, captured in the wire's
# namespace on both of its interfaces into one file (every frame twice, once
# on each side of the delay), by dumpcap (pcapng, one interface block each)
# and by tcpdump -i any (Linux cooked), and once at the client for comparison.
scenario_rtt-duplicated() {
    local requests=8 server
    make_path client server 10
    server=$(address_of client server)
    in_role server "$PYTHON" "$SCENARIOS/http11_server.py" "$server" 8080 &
    local server_pid=$!
    wait_listen server 8080
    capture_at wire1 rtt-duplicated to-client to-server pcapng
    capture_at wire1 rtt-duplicated-any any
    capture_at client rtt-duplicated-client to-server
    log "python3 scenarios/http11_client.py $server 8080 $requests"
    in_role client "$PYTHON" "$SCENARIOS/http11_client.py" "$server" 8080 "$requests" | tail -n 2 &
    wait_job $!
    wait "$server_pid"
    stop_capture
}

# rtt-path-mtu: a 64 KiB download through a router whose link toward the
# client takes packets of 1200 bytes, while both ends have 1500: the server's
# full-sized segments are refused, the router answers each with an ICMP
# "fragmentation needed" (next hop MTU 1200), and the server sends the data
# again in smaller segments (path-MTU discovery). 10 ms each way on both
# paths; captured at the server (segments, messages, resends: path_mtu) and at
# the client (the data only comes later).
scenario_rtt-path-mtu() {
    local bytes=65536 server
    local CAPTURE_FILTER='tcp or icmp' # read by capture_in: the messages are ICMP
    make_path client router 10
    make_path router server 10
    server=$(address_of router server)
    in_role router sysctl -qw net.ipv4.ip_forward=1
    local client
    client=$(address_of router client)
    # with a source address: a 127.0.0.0/8 address has host scope, which the kernel does not pick
    # for a route through a gateway
    log "ip route add (client) $server via $(address_of client router) src $client; (server) $client via $(address_of server router) src $server"
    in_role client ip route add "$server/32" via "$(address_of client router)" src "$client"
    in_role server ip route add "$client/32" via "$(address_of server router)" src "$server"
    log "ip link set to-client mtu 1200 (in the router's namespace)"
    in_role router ip link set to-client mtu 1200
    in_role server "$PYTHON" "$SCENARIOS/bulk.py" server "$server" 8000 cubic 1 &
    local server_pid=$!
    wait_listen server 8000
    capture_at server rtt-path-mtu-server to-router
    capture_at client rtt-path-mtu-client to-router
    log "python3 scenarios/bulk.py client $server 8000 $bytes"
    in_role client "$PYTHON" "$SCENARIOS/bulk.py" client "$server" 8000 "$bytes" &
    wait_job $!
    wait "$server_pid"
    stop_capture
}

# --- seed scenarios: incidents at the size users meet them ------------------------
#
# Client and server in namespaces of their own, joined by a delay line of SEED_DELAY_MS each way:
# fast enough for the rates these incidents need, slow enough that every exchange has a real
# round trip. Captured with snap length 96 (headers and the first bytes of data) and gzipped into
# samples/seeds/, each file under SEED_MAX_BYTES. The delay lines must lose no frame.

SEED_DIR=$SAMPLES/seeds
SEED_SNAPLEN=96
SEED_DELAY_MS=1
SEED_MAX_BYTES=10000000

# seed_capture ROLE NAME INTERFACE: a capture in ROLE's namespace into seeds/NAME.pcap.
seed_capture() {
    local LAB_DIR=$SEED_DIR SNAPLEN=$SEED_SNAPLEN # read by capture_at and capture_in
    rm -f "$SEED_DIR/$2.pcap.gz"
    capture_at "$@"
}

# stop_paths: stops the delay lines of the current scenario; fails if one lost a frame.
stop_paths() {
    local path pid
    for ((path = 1; path <= PATH_COUNT; path++)); do
        for pid in $(ip netns pids "$(lab_namespace "wire$path")"); do
            kill -TERM "$pid"
        done
    done
    sleep 0.5 # each prints its counts as it exits
    local counts
    counts=$(cat "$DELAYLINE_LOG")
    : >"$DELAYLINE_LOG"
    log "$counts"
    grep -q ' 0 lost' <<<"$counts" && ! grep -qv ' 0 lost' <<<"$counts" || die "a delay line lost frames"
}

# finish_seed FILE...: stops the captures and delay lines, then gzips each FILE (a capture or a
# log in seeds/) and checks its size.
finish_seed() {
    stop_capture
    stop_paths
    local file size
    for file in "$@"; do
        gzip -9nf "$file"
        chmod 644 "$file.gz"
        size=$(stat -c %s "$file.gz")
        log "${file#"$SAMPLES"/}.gz: $size bytes"
        ((size < SEED_MAX_BYTES)) || die "${file#"$SAMPLES"/}.gz is $size bytes, over $SEED_MAX_BYTES"
    done
}

# seed_output NAME.EXT: a text file in seeds/ for what a program printed (the user's symptom).
seed_output() {
    mkdir -p "$SEED_DIR"
    printf '%s' "$SEED_DIR/$1"
}

# make_seed_path "LOW HIGH": the client's and the server's namespaces joined by a delay line, the
# client's ip_local_port_range LOW-HIGH and tcp_tw_reuse 0. Its default, 2, lets connect() take a
# TIME_WAIT port towards a loopback address, and the lab's addresses are 127.1.x.x: a client that
# talks to a real address gets no such reuse.
make_seed_path() {
    make_path client server "$SEED_DELAY_MS"
    log "sysctl -w net.ipv4.ip_local_port_range='$1' net.ipv4.tcp_tw_reuse=0 (client)"
    in_role client sysctl -qw "net.ipv4.ip_local_port_range=$1" net.ipv4.tcp_tw_reuse=0
}

# jobs-port-exhaustion: a job client (16 worker threads) makes one connection per job to one job
# server and closes first, with Linux's default port range (28,232 ports) and TIME_WAIT (60 s).
# 32,000 jobs: the range runs out after about 28,232, connect() fails with EADDRNOTAVAIL until the
# first TIME_WAITs expire 60 s after they began, and the last jobs run on the ports that come back.
# The client runs under strace, connect() calls only.
scenario_jobs-port-exhaustion() {
    local name=jobs-port-exhaustion jobs=32000 workers=16 server
    make_seed_path "32768 60999" # Linux's default range, said explicitly
    server=$(address_of client server)
    log "python3 scenarios/job_server.py $server 9000 $jobs (server)"
    in_role server "$PYTHON" "$SCENARIOS/job_server.py" "$server" 9000 "$jobs" &
    local server_pid=$!
    wait_listen server 9000
    seed_capture client "$name" to-server
    local strace_file output
    strace_file=$(seed_output "$name.strace")
    output=$(seed_output "$name.client.txt")
    rm -f "$strace_file.gz"
    log "strace -f -tt -T --seccomp-bpf -e trace=connect -o seeds/$name.strace python3 scenarios/job_client.py $server 9000 $jobs $workers > seeds/$name.client.txt"
    in_role client strace -f -tt -T --seccomp-bpf -e trace=connect -o "$strace_file" \
        "$PYTHON" "$SCENARIOS/job_client.py" "$server" 9000 "$jobs" "$workers" >"$output" &
    wait_job $!
    wait "$server_pid"
    chmod 644 "$output"
    cat "$output" >&2
    finish_seed "$SEED_DIR/$name.pcap" "$strace_file"
}

# start_seed_nginx ADDRESS: nginx (scenarios/nginx.conf, 4096 worker connections: never so few that
# nginx closes idle connections first to make room) on ADDRESS:8080 in the server's namespace;
# stop_seed_nginx stops it.
SEED_NGINX_PID=
start_seed_nginx() {
    make_nginx_prefix "$1" 4096
    log "nginx -p PREFIX/ -c PREFIX/nginx.conf (scenarios/nginx.conf, listen $1:8080, worker_connections 4096) (server)"
    # not through in_role: its subshell would take the signal that stops nginx
    ip netns exec "$(lab_namespace server)" nginx -p "$NGINX_PREFIX/" -c "$NGINX_PREFIX/nginx.conf" \
        -e "$NGINX_PREFIX/logs/error.log" &
    SEED_NGINX_PID=$!
    wait_listen server 8080
}
stop_seed_nginx() {
    kill -QUIT "$SEED_NGINX_PID"
    wait "$SEED_NGINX_PID" || true
}

# record_http_benchmark NAME EXTENSION SUMMARY COMMAND...: an HTTP benchmark against nginx over a
# delay line, the client's port range 49152-65535 (16,384 ports, macOS's range), captured at the
# client. COMMAND's "{server}" becomes the server's address; its whole output goes into
# seeds/NAME.EXTENSION, and the lines that match the regular expression SUMMARY into the log.
record_http_benchmark() {
    local name=$1 extension=$2 summary=$3 server
    shift 3
    make_seed_path "49152 65535"
    server=$(address_of client server)
    start_seed_nginx "$server"
    seed_capture client "$name" to-server
    local output command=("${@//\{server\}/$server}")
    output=$(seed_output "$name.$extension")
    log "${command[*]} > seeds/$name.$extension 2>&1"
    # the benchmark's status is not the scenario's: one that gives up is what the sample may show
    in_role client "${command[@]}" >"$output" 2>&1 &
    wait_job $! || log "$1 exited with status $?"
    chmod 644 "$output"
    grep -E "$summary" "$output" >&2 || true
    stop_seed_nginx
    finish_seed "$SEED_DIR/$name.pcap"
}

AB_SUMMARY='^(Complete|Failed|Keep-Alive|Time taken|Requests per|Total of|apr_)'
# ab without keep-alive: ab asks HTTP/1.0 and reads each response to the end of the connection, so
# nginx closes first and the TIME_WAITs are the server's; 30,000 requests pass 16,384 ports.
scenario_ab-no-keepalive() {
    record_http_benchmark ab-no-keepalive ab.txt "$AB_SUMMARY" ab -n 30000 -c 10 'http://{server}:8080/index.html'
}
# the same with keep-alive: 10 connections at a time, each closed by nginx after 1000 requests
scenario_ab-keepalive() {
    record_http_benchmark ab-keepalive ab.txt "$AB_SUMMARY" ab -n 30000 -c 10 -k 'http://{server}:8080/index.html'
}

# httperf-port-exhaustion: httperf opens 500 connections a second, 20,000 in all, one request each,
# against nginx; nginx keeps each connection open (HTTP/1.1), httperf closes it after the reply,
# so the client's own TIME_WAITs fill its 16,384-port range after about 33 s and every later
# connect() fails with EADDRNOTAVAIL (httperf: "connection failed with unexpected error 99").
scenario_httperf-port-exhaustion() {
    record_http_benchmark httperf-port-exhaustion httperf.txt '^(Total|Connection rate|Errors)' \
        httperf --server '{server}' --port 8080 --uri /index.html --num-conns 20000 --rate 500
}

# backlog-connrate: a connection-rate benchmark offers 2000 new connections a second for 5 s to a
# listener (listen backlog 128) that accepts 1000 a second. Default sysctls (syncookies 1,
# somaxconn 4096). Captured at both ends; the server's TCP counters (nstat) before the capture
# stops into seeds/backlog-connrate.nstat, the client's report into seeds/backlog-connrate.client.txt.
scenario_backlog-connrate() {
    local name=backlog-connrate rate=2000 seconds=5 backlog=128 accepts=1000 server
    make_path client server "$SEED_DELAY_MS"
    server=$(address_of client server)
    log "python3 scenarios/paced_server.py $server 9200 $backlog $accepts $((rate * seconds)) 5 (server)"
    in_role server "$PYTHON" "$SCENARIOS/paced_server.py" "$server" 9200 "$backlog" "$accepts" $((rate * seconds)) 5 &
    local server_pid=$!
    wait_listen server 9200
    seed_capture client "$name-client" to-server
    seed_capture server "$name-server" to-client
    local output counters
    output=$(seed_output "$name.client.txt")
    counters=$(seed_output "$name.nstat")
    log "python3 scenarios/connrate_client.py $server 9200 $rate $seconds 30 > seeds/$name.client.txt"
    in_role client "$PYTHON" "$SCENARIOS/connrate_client.py" "$server" 9200 "$rate" "$seconds" 30 >"$output" &
    wait_job $!
    wait "$server_pid"
    {
        echo "# nstat -az in the server's namespace (counters since it was made)"
        in_role server nstat -az | grep -E 'TcpPassiveOpens|TcpExtListen|TcpExtSyncookies|TcpExtTCPReqQFull|TcpExtTCPSynRetrans|TcpRetransSegs'
        echo "# nstat -az in the client's namespace"
        in_role client nstat -az | grep -E 'TcpActiveOpens|TcpExtTCPSynRetrans|TcpExtTCPTimeouts|TcpRetransSegs'
    } >"$counters"
    chmod 644 "$output" "$counters"
    cat "$output" "$counters" >&2
    finish_seed "$SEED_DIR/$name-client.pcap" "$SEED_DIR/$name-server.pcap"
}

# --- main --------------------------------------------------------------------

run_one() {
    CURRENT=$1
    declare -F "scenario_$1" >/dev/null || die "unknown scenario '$1' (try: $0 list)"
    local started=$SECONDS
    PATH_COUNT=0 LAB_ROLES=() LAB_ADDRESS=() # each scenario has namespaces and paths of its own
    log "recording"
    "scenario_$1"
    log "done in $((SECONDS - started)) s: $(cd "$SAMPLES" && shopt -s nullglob && echo "$1".* rtt/"$1".* rtt/"$1"-* seeds/"$1".* seeds/"$1"-*)"
}

main() {
    (($# > 0)) || { sed -n '2,19p' "$0"; exit 2; }
    if [[ $1 == list ]]; then
        printf '%s\n' "${ALL_SCENARIOS[@]}"
        exit 0
    fi
    ((EUID == 0)) || die "run as root (network namespaces, tcpdump, sysctl)"
    trap cleanup EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
    ensure_tools

    if [[ $1 == rtt ]]; then
        set -- "${RTT_SCENARIOS[@]}"
    elif [[ $1 == seeds ]]; then
        set -- "${SEED_SCENARIOS[@]}"
    fi
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
        (cd "$SAMPLES" && ls -l -- *.pcap *.pcapng *.strace *.strace.* rtt/* seeds/* >&2)
        return
    fi
    local name
    for name in "$@"; do
        run_one "$name"
    done
}

main "$@"
