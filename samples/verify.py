#!/usr/bin/python3
"""Checks that the recorded samples show what samples/README.md says they show.

Reads each capture with tshark (and the strace logs as text) and prints the
numbers quoted in the README: 40 ms holds, EADDRNOTAVAIL pauses, challenge
ACKs, reused tuples, SYN retransmissions. Independent of tcpscope itself, so
it can be used to judge tcpscope's own findings on the same files.

usage: samples/verify.py [SCENARIO...]     (default: every recorded scenario)
"""
import glob
import gzip
import os
import re
import statistics
import subprocess
import sys
from dataclasses import dataclass

SAMPLES = os.path.dirname(os.path.abspath(__file__))
HOLD_THRESHOLD_S = 0.030
TIME_WAIT_S = 60.0

FIELDS = ["frame.number", "frame.time_epoch", "tcp.stream", "ip.src", "tcp.srcport", "ip.dst", "tcp.dstport",
          "tcp.len", "tcp.flags.syn", "tcp.flags.ack", "tcp.flags.fin", "tcp.flags.reset", "tcp.seq_raw",
          "tcp.ack_raw", "tcp.options.timestamp.tsval"]


@dataclass
class Segment:
    number: int
    time: float
    stream: int
    src: tuple
    dst: tuple
    length: int
    syn: bool
    ack: bool
    fin: bool
    rst: bool
    seq: int
    ack_number: int
    tsval: int | None

    @property
    def pure_ack(self) -> bool:
        return self.ack and not (self.syn or self.fin or self.rst) and self.length == 0

    @property
    def tuple(self) -> tuple:
        return self.src + self.dst


def read_segments(path: str) -> list[Segment]:
    command = ["tshark", "-r", path, "-Y", "tcp", "-T", "fields", "-E", "separator=\t"]
    for field in FIELDS:
        command += ["-e", field]
    output = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    segments = []
    for line in output.splitlines():
        v = line.split("\t")
        flag = lambda text: text in ("1", "True")
        segments.append(Segment(int(v[0]), float(v[1]), int(v[2]), (v[3], int(v[4])), (v[5], int(v[6])), int(v[7]),
                                flag(v[8]), flag(v[9]), flag(v[10]), flag(v[11]), int(v[12]), int(v[13] or 0),
                                int(v[14]) if v[14] else None))
    return segments


def ms(seconds: float) -> str:
    return f"{1000 * seconds:.1f} ms"


def capture_path(name: str) -> str:
    """NAME.pcap, NAME.pcapng or NAME.pcap.gz in samples/ (NAME may start with a folder, e.g. rtt/)."""
    for extension in (".pcap", ".pcapng", ".pcap.gz"):
        if os.path.exists(os.path.join(SAMPLES, name + extension)):
            return os.path.join(SAMPLES, name + extension)
    raise FileNotFoundError(name)


def describe_capture(name: str, segments: list[Segment]) -> None:
    path = capture_path(name)
    duration = segments[-1].time - segments[0].time
    print(f"{os.path.basename(path)}: {len(segments)} packets, {len({s.stream for s in segments})} connections, "
          f"{duration:.2f} s, {os.path.getsize(path)} bytes")


# --- proxy scenarios ----------------------------------------------------------

def check_proxy(name: str, strace: bool = True) -> None:
    segments = read_segments(capture_path(name))
    describe_capture(name, segments)
    proxy_holds(segments)
    if strace:
        check_strace_sendto(name)


def proxy_holds(segments: list[Segment]) -> list[tuple[int, int]]:
    """Prints, per direction of the proxy, how many bodies were held; returns [(held, bodies), ...]."""
    counts = []
    # direction name by the well-known port: 3307 = proxy's client side, 3306 = backend
    directions = {}
    for index, segment in enumerate(segments):
        if segment.length == 0 or segment.length > 128:
            continue
        key = (segment.stream, segment.src, segment.dst)
        directions.setdefault(key, []).append(index)
    for (stream, src, dst), indices in sorted(directions.items()):
        if src[1] == 3307:
            label = f"proxy -> client  (stream {stream})"
        elif dst[1] == 3306:
            label = f"proxy -> backend (stream {stream})"
        else:
            continue
        holds, quick, gaps = 0, 0, []
        for position in indices:
            body = segments[position]
            if body.length == 128:
                continue
            # the header this body belongs to: the previous 128-byte segment in the same direction
            header = next(segments[i] for i in reversed(range(position)) if segments[i].stream == stream
                          and segments[i].src == src and segments[i].length == 128)
            gap = body.time - header.time
            # the packet just before the body on the same connection (others may interleave)
            previous = next(segments[i] for i in reversed(range(position)) if segments[i].stream == stream)
            released_by_ack = previous.pure_ack and previous.src == dst
            if gap >= HOLD_THRESHOLD_S and released_by_ack:
                holds += 1
                gaps.append(gap)
            else:
                quick += 1
        bodies = holds + quick
        summary = f"{holds} of {bodies} bodies held until the peer's pure ACK"
        if gaps:
            summary += (f" (hold min {ms(min(gaps))}, median {ms(statistics.median(gaps))}, "
                        f"max {ms(max(gaps))})")
        print(f"  {label}: {summary}; {quick} sent without a hold")
        counts.append((holds, bodies))
    return counts


def check_strace_sendto(name: str) -> None:
    paths = sorted(glob.glob(os.path.join(SAMPLES, name + ".strace*")))
    for path in paths:
        lines = open(path, encoding="utf-8", errors="replace").read().splitlines()
        sends = [line for line in lines if re.search(r"\bsendto\(", line)]
        pairs = sum(1 for first, second in zip(sends, sends[1:])
                    if re.search(r"\) = 128 <", first) and re.search(r"\) = 35 <", second))
        nodelay = sum("TCP_NODELAY" in line for line in lines)
        waits = [float(m.group(1)) for line in lines if "epoll_wait(" in line
                 for m in [re.search(r"<([0-9.]+)>$", line)] if m]
        long_waits = sum(1 for wait in waits if wait >= HOLD_THRESHOLD_S)
        print(f"  {os.path.basename(path)}: {len(lines)} lines, {len(sends)} sendto ({pairs} pairs 128+35), "
              f"{long_waits} epoll_wait >= 30 ms, {nodelay} TCP_NODELAY setsockopt")


# --- churn-exhaustion ---------------------------------------------------------

def check_churn(name: str) -> None:
    segments = read_segments(capture_path(name))
    describe_capture(name, segments)
    syns = [s for s in segments if s.syn and not s.ack]
    ports = [s.src[1] for s in syns]
    gaps = [(b.time - a.time, i + 1) for i, (a, b) in enumerate(zip(syns, syns[1:]))]
    longest, after = max(gaps)
    first_fin = {}
    for segment in segments:
        if segment.fin and segment.stream not in first_fin:
            first_fin[segment.stream] = segment.src[1]
    client_closed_first = sum(1 for port in first_fin.values() if port != 9000)
    reused = sum(1 for port in ports[after:] if port in set(ports[:after]))
    print(f"  {len(syns)} SYNs from {len(set(ports))} distinct ports ({min(ports)}-{max(ports)}); "
          f"{client_closed_first} of {len(first_fin)} connections closed first by the client")
    print(f"  pause of {longest:.2f} s after connection {after}; "
          f"{reused} of {len(syns) - after} later connections reuse a port from before the pause")
    strace = open(os.path.join(SAMPLES, name + ".strace"), encoding="utf-8").read()
    failures = re.findall(r"^\S+\s+(\S+) connect\(.*= -1 EADDRNOTAVAIL", strace, re.M)
    successes = len(re.findall(r" connect\(.*\) = 0 <", strace))
    if failures:
        print(f"  strace: {successes} connect() = 0, {len(failures)} connect() = -1 EADDRNOTAVAIL "
              f"from {failures[0]} to {failures[-1]}")


# --- hosts-churn --------------------------------------------------------------

def check_hosts_churn(name: str) -> None:
    segments = read_segments(capture_path(name))
    describe_capture(name, segments)
    syns = [s for s in segments if s.syn and not s.ack]
    first_fin = {}
    for segment in segments:
        if segment.fin and segment.stream not in first_fin:
            first_fin[segment.stream] = segment.src[1]
    client_closed_first = sum(1 for port in first_fin.values() if port != 9000)
    resets = sum(1 for s in segments if s.rst)
    print(f"  {len(syns)} SYNs, {client_closed_first} of {len(first_fin)} connections closed first by the client, "
          f"{resets} RSTs")
    for host in sorted({s.src[0] for s in syns}):
        ports = {s.src[1] for s in syns if s.src[0] == host}
        print(f"  {host}: {sum(1 for s in syns if s.src[0] == host)} SYNs from {len(ports)} distinct ports")


# --- port-reuse-collision -----------------------------------------------------

def check_collision(name: str) -> None:
    segments = read_segments(capture_path(name))
    describe_capture(name, segments)
    syns = [s for s in segments if s.syn and not s.ack]
    collisions = 0
    for index, syn in enumerate(segments):
        if not (syn.syn and not syn.ack):
            continue
        following = segments[index + 1:index + 4]
        if len(following) < 2:
            continue
        answer, reset = following[0], following[1]
        if not (answer.pure_ack and answer.src == syn.dst and reset.rst and reset.src == syn.src):
            continue
        retransmit = next((s for s in segments[index + 1:] if s.syn and not s.ack and s.src == syn.src
                           and s.seq == syn.seq), None)
        synack = next((s for s in segments[index + 1:] if s.syn and s.ack and s.dst == syn.src), None)
        collisions += 1
        below = (answer.ack_number - syn.seq) % (1 << 32)
        print(f"  SYN seq {syn.seq} -> ACK {answer.ack_number} (old rcv_nxt, {below} above the new ISN) "
              f"after {ms(answer.time - syn.time)} -> RST seq {reset.seq} -> SYN again after "
              f"{ms(retransmit.time - syn.time)} -> SYN-ACK after {ms(synack.time - syn.time)}")
    print(f"  {len(syns)} SYNs, {collisions} collisions (SYN -> bare ACK -> RST -> SYN retransmission)")


# --- http-tw-reuse and the nginx samples ---------------------------------------

def connections_of(segments: list[Segment]) -> dict:
    streams = {}
    for segment in segments:
        connection = streams.setdefault(segment.stream, {"syn": None, "synack": False, "first_fin_by": None,
                                                         "first_fin_time": None, "requests": 0})
        if segment.syn and not segment.ack and connection["syn"] is None:
            connection["syn"] = segment
        if segment.syn and segment.ack:
            connection["synack"] = True
        if segment.fin and connection["first_fin_by"] is None:
            connection["first_fin_by"] = segment.src
            connection["first_fin_time"] = segment.time
        if segment.length and segment.dst[1] == 8080:
            connection["requests"] += 1
    return streams


def check_http(name: str) -> None:
    segments = read_segments(capture_path(name))
    describe_capture(name, segments)
    streams = connections_of(segments)
    server_first = sum(1 for c in streams.values() if c["first_fin_by"] and c["first_fin_by"][1] == 8080)
    requests = sum(c["requests"] for c in streams.values())
    retransmissions = subprocess.run(["tshark", "-r", capture_path(name), "-Y", "tcp.analysis.retransmission"],
                                     capture_output=True, text=True).stdout.count("\n")
    resets = sum(1 for s in segments if s.rst)
    gaps = [b.time - a.time for a, b in zip(segments, segments[1:])]
    print(f"  {requests} request segments on {len(streams)} connections; server closed first on {server_first}; "
          f"{retransmissions} retransmissions, {resets} RSTs, largest gap between packets {ms(max(gaps))}")
    # SYNs on a tuple whose previous connection is still in the server's TIME_WAIT
    last_close = {}  # tuple -> (first FIN sender, its time)
    client_end = {}  # tuple -> (sequence after the client's last segment = server's rcv_nxt, its TSval)
    into_time_wait, accepted, seq_above, ts_newer, since_close = 0, 0, 0, 0, []
    by_stream = {}
    for segment in segments:
        by_stream.setdefault(segment.stream, []).append(segment)
    for stream in sorted(streams, key=lambda s: streams[s]["syn"].time if streams[s]["syn"] else 0):
        connection = streams[stream]
        syn = connection["syn"]
        if syn is None:
            continue
        previous = last_close.get(syn.tuple)
        if previous and previous[0][1] == 8080 and syn.time - previous[1] < TIME_WAIT_S:
            into_time_wait += 1
            accepted += connection["synack"]
            since_close.append(syn.time - previous[1])
            rcv_nxt, last_tsval = client_end[syn.tuple]
            seq_above += 0 < (syn.seq - rcv_nxt) % (1 << 32) < (1 << 31)
            if syn.tsval is not None and last_tsval is not None:
                ts_newer += 0 < (syn.tsval - last_tsval) % (1 << 32) < (1 << 31)
        if connection["first_fin_by"]:
            last_close[syn.tuple] = (connection["first_fin_by"], connection["first_fin_time"])
        client_segments = [s for s in by_stream[stream] if s.src == syn.src]
        final = client_segments[-1]
        client_end[syn.tuple] = ((final.seq + final.length + final.fin) % (1 << 32), final.tsval)
    if into_time_wait:
        print(f"  {into_time_wait} SYNs reuse a tuple the server still holds in TIME_WAIT "
              f"({ms(min(since_close))} to {ms(max(since_close))} after its FIN); "
              f"{accepted} of them answered with SYN-ACK; {seq_above} have an ISN above the old rcv_nxt, "
              f"{ts_newer} a TSval newer than the old connection's last one")


# --- backlog-overflow ---------------------------------------------------------

def check_backlog(name: str) -> None:
    segments = read_segments(capture_path(name))
    describe_capture(name, segments)
    first_syn, syn_count, synack_count, established = {}, {}, {}, {}
    delays = []
    for segment in segments:
        stream = segment.stream
        if segment.syn and not segment.ack:
            syn_count[stream] = syn_count.get(stream, 0) + 1
            if stream in first_syn:
                delays.append(round(segment.time - first_syn[stream], 1))
            else:
                first_syn[stream] = segment.time
        if segment.syn and segment.ack:
            synack_count[stream] = synack_count.get(stream, 0) + 1
        if segment.length and segment.dst[1] == 9200 and stream not in established:
            established[stream] = segment.time - first_syn[stream]
    retransmitted = sum(1 for count in syn_count.values() if count > 1)
    extra_synacks = sum(count - 1 for count in synack_count.values() if count > 1)
    histogram = {}
    for delay in delays:
        histogram[delay] = histogram.get(delay, 0) + 1
    print(f"  {len(first_syn)} connections, {sum(syn_count.values())} SYNs: {retransmitted} connections "
          f"retransmitted their SYN, {len(delays)} retransmissions at "
          + ", ".join(f"{count} x +{delay:g} s" for delay, count in sorted(histogram.items())))
    print(f"  {extra_synacks} SYN-ACK retransmissions; first request sent after: "
          + ", ".join(f"{established[s]:.1f}" for s in sorted(established, key=established.get)) + " s")


# --- rtt-*: recorded over delay lines (samples/rtt/) ---------------------------
#
# Their structure is fixed by record.sh (delays, counts, ports), so besides printing the numbers these
# checks say MISMATCH when a recording does not show what samples/README.md says it shows.

MISMATCHES = []


def expect(condition: bool, what: str) -> None:
    if not condition:
        MISMATCHES.append(what)
        print(f"  MISMATCH: {what}")


def near(value_s: float, expected_ms: float, slack_ms: float = 6.0) -> bool:
    """A delay line only adds time: a round trip is its delay, plus at most a few ms of scheduling."""
    return expected_ms - 0.5 <= 1000 * value_s <= expected_ms + slack_ms

def is_syn(segment: Segment) -> bool:
    return segment.syn and not segment.ack


def is_synack(segment: Segment) -> bool:
    return segment.syn and segment.ack


def spread(values: list[float]) -> str:
    if not values:
        return "none"
    return f"min {ms(min(values))}, median {ms(statistics.median(values))}, max {ms(max(values))}"


def handshake_rtts(segments: list[Segment]) -> list[tuple[str, float]]:
    """Per connection, the round trip its handshake shows from where the capture was taken: SYN -> SYN-ACK
    at the client's end, SYN-ACK -> ACK at the server's end (the other half leaves or arrives at once)."""
    rtts = []
    for stream in sorted({s.stream for s in segments}):
        own = [s for s in segments if s.stream == stream]
        syn = next((s for s in own if is_syn(s)), None)
        synacks = [s for s in own if is_synack(s)]
        if syn is None or not synacks:
            continue
        synack = synacks[0]
        final_ack = next((s for s in own if s.time > synack.time and s.src == syn.src and s.ack and not s.syn), None)
        if synack.time - syn.time > 0.002 or final_ack is None:  # the SYN-ACK came over the wire: client side
            rtts.append(("SYN -> SYN-ACK", synack.time - syn.time))
        else:
            rtts.append(("SYN-ACK -> ACK", final_ack.time - synack.time))
    return rtts


def print_handshakes(segments: list[Segment], expected_ms: float | None = None) -> None:
    if expected_ms is not None:
        for how, rtt in handshake_rtts(segments):
            expect(near(rtt, expected_ms), f"handshake round trip {ms(rtt)} ({how}), expected {expected_ms:g} ms")
    by_kind = {}
    for how, rtt in handshake_rtts(segments):
        by_kind.setdefault(how, []).append(rtt)
    for how, rtts in by_kind.items():
        if len(rtts) == 1:
            print(f"  handshake round trip ({how}): {ms(rtts[0])}")
        else:
            print(f"  handshake round trips ({how}) of {len(rtts)} connections: {spread(rtts)}")


def count_flagged(path: str, flag: str) -> int:
    output = subprocess.run(["tshark", "-r", path, "-Y", f"tcp.analysis.{flag}"], capture_output=True, text=True)
    return output.stdout.count("\n")


def turns(segments: list[Segment], server_port: int) -> list[tuple[str, float]]:
    """Each time the data changes direction: who spoke next and how long after the other side's last data."""
    data = [s for s in segments if s.length]
    result = []
    for previous, current in zip(data, data[1:]):
        if current.src != previous.src:
            who = "server" if current.src[1] == server_port else "client"
            result.append((who, current.time - previous.time))
    return result


def check_rtt_request_response(name: str, server_port: int, rtt_ms: float, flights: int) -> None:
    """rtt-http-keepalive (at the client), rtt-tls-like (at the server): FLIGHTS times each way, one side
    answering the other at once, the other after a round trip."""
    path = capture_path(name)
    segments = read_segments(path)
    describe_capture(name, segments)
    print_handshakes(segments, rtt_ms)
    to_server = [s for s in segments if s.length and s.dst[1] == server_port]
    to_client = [s for s in segments if s.length and s.src[1] == server_port]
    turns_seen = turns(segments, server_port)
    print(f"  {len(to_server)} data segments to the server, {len(to_client)} to the client; "
          f"the data changes direction {len(turns_seen)} times")
    # captured at the client, the server answers after a round trip; at the server, the client does
    far_side = "server" if handshake_rtts(segments)[0][0] == "SYN -> SYN-ACK" else "client"
    for who in ("server", "client"):
        gaps = [gap for speaker, gap in turns_seen if speaker == who]
        print(f"  the {who} speaks next after ({len(gaps)} times): {spread(gaps)}")
        if who == far_side:
            expect(all(near(gap, rtt_ms, 10) for gap in gaps), f"the {who} answers after a round trip")
        else:
            expect(all(gap < 0.010 for gap in gaps), f"the {who} answers at once")
    expect(len(turns_seen) == 2 * flights - 1, f"{2 * flights - 1} changes of direction")
    retransmissions = count_flagged(path, 'retransmission')
    pure_acks = sum(1 for s in segments if s.pure_ack)
    print(f"  {pure_acks} pure ACKs, {retransmissions} retransmissions, {sum(1 for s in segments if s.rst)} RSTs")
    expect(retransmissions == 0, "no retransmission")


def check_rtt_http_keepalive(name: str) -> None:
    check_rtt_request_response(name, 8080, 40, 25)


def check_rtt_tls_like(name: str) -> None:
    check_rtt_request_response(name, 8443, 80, 9)
    records = subprocess.run(["tshark", "-r", capture_path(name), "-Y", "tls.record", "-T", "fields",
                              "-e", "tcp.srcport", "-e", "tls.record.content_type"],
                             capture_output=True, text=True, check=True).stdout.split()
    print(f"  segments that tshark decodes as TLS records: {len(records) // 2} (one per flight)")


def segment_key(segment: Segment) -> tuple:
    return (segment.src, segment.dst, segment.seq, segment.ack_number, segment.length, segment.syn, segment.fin,
            segment.rst)


def one_way_delays(earlier: list[Segment], later: list[Segment], src_ip: str) -> list[float]:
    """For segments sent from src_ip, the time from their appearance in `earlier` to `later`."""
    seen = {}
    for segment in earlier:
        if segment.src[0] == src_ip:
            seen.setdefault(segment_key(segment), segment.time)
    return [segment.time - seen[segment_key(segment)] for segment in later if segment_key(segment) in seen]


def check_rtt_nagle_proxy(name: str) -> None:
    captures = {}
    for point in ("client", "proxy", "server"):
        capture = f"{name}-{point}"
        captures[point] = read_segments(capture_path(capture))
        describe_capture(capture, captures[point])
        print_handshakes(captures[point])
        for held, bodies in proxy_holds(captures[point]):
            expect(bodies == 20 and held >= 18, f"{capture}: most of the 20 bodies held")
    client, proxy, server = captures["client"], captures["proxy"], captures["server"]
    client_ip = next(s.src[0] for s in client if is_syn(s))
    proxy_front = next(s.dst[0] for s in client if is_syn(s))
    proxy_back = next(s.src[0] for s in server if is_syn(s))
    backend_ip = next(s.dst[0] for s in server if is_syn(s))
    for label, delays, delay_ms in [
        (f"client -> proxy ({client_ip} -> {proxy_front})", one_way_delays(client, proxy, client_ip), 3),
        (f"proxy -> client ({proxy_front} -> {client_ip})", one_way_delays(proxy, client, proxy_front), 3),
        (f"proxy -> backend ({proxy_back} -> {backend_ip})", one_way_delays(proxy, server, proxy_back), 12),
        (f"backend -> proxy ({backend_ip} -> {proxy_back})", one_way_delays(server, proxy, backend_ip), 12)]:
        print(f"  one-way delay {label}, the same segment in two captures ({len(delays)}): {spread(delays)}")
        expect(len(delays) >= 60 and near(statistics.median(delays), delay_ms, 1), f"one-way delay {label}")
    check_strace_sendto(f"{name}-proxy")


def check_rtt_bulk_cwnd(name: str) -> None:
    path = capture_path(name)
    segments = read_segments(path)
    describe_capture(name, segments)
    print_handshakes(segments, 60)
    rtt = handshake_rtts(segments)[0][1]
    server_port = next(s.dst[1] for s in segments if is_syn(s))
    data = [s for s in segments if s.length and s.src[1] == server_port]
    acks = [s for s in segments if s.pure_ack and s.dst[1] == server_port]
    full = max(s.length for s in data)
    print(f"  {len(data)} data segments ({sum(s.length for s in data)} bytes), {sum(s.length == full for s in data)} "
          f"of them full-sized ({full} bytes); {len(acks)} pure ACKs from the receiver; "
          f"{count_flagged(path, 'retransmission')} retransmissions")
    # rounds: data separated by a silence of more than a third of the round trip
    rounds, current = [], [data[0]]
    for previous, segment in zip(data, data[1:]):
        if segment.time - previous.time > rtt / 3:
            rounds.append(current)
            current = []
        current.append(segment)
    rounds.append(current)
    print(f"  segments per round (a silence > {ms(rtt / 3)} ends one): {[len(r) for r in rounds]}, "
          f"rounds start {', '.join(f'{(r[0].time - rounds[0][0].time) * 1000:.0f}' for r in rounds)} ms "
          f"after the first")
    expect(max(len(r) for r in rounds) == 3, "at most 3 segments a round: the congestion window locked at 3")
    expect(sum(s.length == full for s in data) == len(data) - 1 and full == 1448, "full-sized segments")
    # how much each ACK acknowledges, in full segments
    per_ack, acked = {}, None
    for ack in (s for s in segments if s.dst[1] == server_port and s.ack and not s.syn):
        if acked is not None and ack.ack_number > acked:
            count = round((ack.ack_number - acked) / full)
            per_ack[count] = per_ack.get(count, 0) + 1
        acked = ack.ack_number if acked is None else max(acked, ack.ack_number)
    print("  ACKs by the new data they acknowledge: "
          + ", ".join(f"{count} of {n} segments" for n, count in sorted(per_ack.items())))
    # the receive window the sender had seen (from ACKs sent at least one round trip before the data arrives)
    windows = [(s.time, s.ack_number + window) for s, window in read_windows(path, server_port)]
    headroom = []
    for segment in data:
        known = [edge for sent, edge in windows if sent <= segment.time - rtt * 0.95]
        if known:
            headroom.append(max(known) - (segment.seq + segment.length))
    if headroom:
        print(f"  the receive window left beyond each data segment (as advertised one round trip before): "
              f"min {min(headroom)} bytes ({min(headroom) / full:.1f} segments)")
        expect(min(headroom) > 0, "limited by the congestion window, not by the receive window")
    delayed = [b.time - a.time for a, b in zip(segments, segments[1:])
               if a.src[1] == server_port and a.length and b.pure_ack and b.dst[1] == server_port]
    print(f"  time from a data segment to an ACK that follows it directly: {spread(delayed)}")
    # delayed ACKs: a pure ACK that acknowledges a full segment last, HOLD_THRESHOLD_S or more after it
    # arrived, with no data in between (the sender, its window full, sent nothing meanwhile)
    held, last_data = [], None
    for segment in segments:
        if segment.src[1] == server_port and segment.length:
            last_data = segment
        elif (segment.pure_ack and segment.dst[1] == server_port and last_data and last_data.length == full
              and segment.ack_number == last_data.seq + full and segment.time - last_data.time >= HOLD_THRESHOLD_S):
            held.append((last_data, segment))
    print(f"  ACKs held {ms(HOLD_THRESHOLD_S)} or more after the full segment they acknowledge, no data between: "
          f"{len(held)}, {spread([ack.time - data.time for data, ack in held])}; first "
          f"{held[0][1].time - segments[0].time:.3f} s after the SYN" if held else "  no delayed ACKs")
    for data, ack in held[:3]:
        print(f"    frame {data.number} (data, {data.length} bytes) at {data.time - segments[0].time:.6f} s, "
              f"frame {ack.number} (its ACK) {ms(ack.time - data.time)} later")
    expect(len(held) >= 20, "delayed ACKs of full segments (24 recorded)")
    quick = [r for r in rounds if r[0].time < held[0][0].time] if held else rounds
    late = [r for r in rounds if r[0].time >= held[0][1].time] if held else []
    for label, part in (("before the first delayed ACK", quick), ("from the first delayed ACK on", late)):
        if len(part) > 1:
            span = part[-1][0].time - part[0][0].time
            count = sum(len(r) for r in part[:-1])
            print(f"  {label}: {count} segments in {ms(span)} ({count / span * rtt:.2f} segments a round trip)")


def read_windows(path: str, server_port: int) -> list[tuple[Segment, int]]:
    """The receiver's ACKs with their advertised window in bytes (scaled, as tshark computes it)."""
    segments = read_segments(path)
    output = subprocess.run(["tshark", "-r", path, "-Y", "tcp", "-T", "fields", "-e", "tcp.window_size"],
                            capture_output=True, text=True, check=True).stdout.split("\n")
    return [(s, int(w)) for s, w in zip(segments, output) if s.dst[1] == server_port and s.ack and w]


def check_rtt_defer_accept(name: str) -> None:
    for point in ("server", "client"):
        capture = f"{name}-{point}"
        segments = read_segments(capture_path(capture))
        describe_capture(capture, segments)
        print_handshakes(segments, 20)
        for stream in sorted({s.stream for s in segments}):
            own = [s for s in segments if s.stream == stream]
            syn = next(s for s in own if is_syn(s))
            synacks = [s for s in own if is_synack(s)]
            first_data = next((s for s in own if s.length and s.src == syn.src), None)
            first_fin = next((s for s in own if s.fin), None)
            again = ", ".join(f"+{synack.time - synacks[0].time:.2f} s" for synack in synacks[1:])
            print(f"  port {syn.src[1]}: {len(synacks)} SYN-ACKs" + (f" (again at {again})" if again else "")
                  + (f", first data {first_data.time - syn.time:.2f} s after the SYN" if first_data else ", no data")
                  + (f", first FIN from {'client' if first_fin.src == syn.src else 'server'} "
                     f"{first_fin.time - syn.time:.2f} s after the SYN" if first_fin else ""))
            # silent past the 5 s deferral (the clients of 12 and 20 s): the SYN-ACK is sent again
            silent_s = (first_data or first_fin).time - syn.time
            expect(len(synacks) == (2 if silent_s > 7.5 else 1), f"port {syn.src[1]}: SYN-ACK sent again "
                   "only to a client silent past the deferral")


def check_rtt_syn_dropped(name: str) -> None:
    for point in ("client", "server"):
        capture = f"{name}-{point}"
        segments = read_segments(capture_path(capture))
        describe_capture(capture, segments)
        for stream in sorted({s.stream for s in segments}):
            own = [s for s in segments if s.stream == stream]
            syns = [s for s in own if is_syn(s)]
            answer = next((s for s in own if s.src == syns[0].dst), None)
            if answer is None:
                outcome = "never answered"
            elif answer.rst:
                outcome = f"RST after {ms(answer.time - syns[0].time)}"
            else:
                outcome = f"SYN-ACK after {ms(answer.time - syns[0].time)}"
            retries = ", ".join(f"+{s.time - syns[0].time:.2f}" for s in syns[1:])
            print(f"  {syns[0].src[1]} -> port {syns[0].dst[1]}: {len(syns)} SYNs"
                  + (f" (again at {retries} s)" if retries else "") + f", {outcome}")
            port = syns[0].dst[1]
            expect((port == 9302) == (answer is None), f"port {port}: answered unless filtered")
            expect(port == 9302 or len(syns) == 1, f"port {port}: one SYN")
        filtered = sorted(len([s for s in segments if s.stream == stream and is_syn(s)])
                          for stream in {s.stream for s in segments if is_syn(s) and s.dst[1] == 9302})
        expect(filtered == [3, 6], "port 9302: 3 and 6 SYNs (attempts of 3 and 7 s)")


def check_rtt_duplicated(name: str) -> None:
    # dumpcap: the interface is the pcapng interface block; tcpdump -i any: the Linux cooked header's ifindex
    for capture, interface_field in ((name, "frame.interface_id"), (f"{name}-any", "sll.ifindex"),
                                     (f"{name}-client", "frame.interface_id")):
        path = capture_path(capture)
        segments = read_segments(path)
        describe_capture(capture, segments)
        interfaces = subprocess.run(["tshark", "-r", path, "-Y", "tcp", "-T", "fields", "-e", interface_field],
                                    capture_output=True, text=True, check=True).stdout.split("\n")
        copies = {}
        for segment, interface in zip(segments, interfaces):
            copies.setdefault(segment_key(segment) + (segment.tsval,), []).append((segment.time, interface))
        twice = [c for c in copies.values() if len(c) == 2 and c[0][1] != c[1][1]]
        apart = [abs(c[1][0] - c[0][0]) for c in twice]
        backwards = sum(1 for a, b in zip(segments, segments[1:]) if b.time < a.time)
        expected_copies = 1 if capture.endswith("-client") else 2
        expect(all(len(c) == expected_copies for c in copies.values()), f"{capture}: every segment "
               f"{'once' if expected_copies == 1 else 'twice'}")
        expect(expected_copies == 1 or all(near(gap, 10, 10) for gap in apart), f"{capture}: copies 10 ms apart")
        print(f"  {len(copies)} distinct segments: {len(twice)} seen exactly twice, on two interfaces "
              f"({spread(apart)} apart), {sum(1 for c in copies.values() if len(c) == 1)} once; "
              f"{backwards} steps back in time between consecutive frames; "
              f"tshark: {count_flagged(path, 'retransmission')} retransmissions, "
              f"{count_flagged(path, 'duplicate_ack')} duplicate ACKs")
    print_handshakes(segments, 20)  # at the client; in the middle each copy of a handshake is half a round trip apart


# --- seeds/: incidents at the size users meet them ------------------------------
#
# Recorded over a delay line of 1 ms each way (samples/record.sh seeds), gzipped. Besides printing the
# figures a user's question needs, these checks say MISMATCH when a file does not show its incident.

SEED_DELAY_MS = 1
# a listener answers a SYN it keeps within microseconds; a SYN-ACK sent again comes a second or more later
ANSWERED_AT_ONCE_S = 0.1


def first_syns(segments: list[Segment]) -> list[Segment]:
    """The first SYN of each connection, in time order."""
    seen, result = set(), []
    for segment in segments:
        if is_syn(segment) and segment.stream not in seen:
            seen.add(segment.stream)
            result.append(segment)
    return result


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def first_fin_ports(segments: list[Segment]) -> dict[int, int]:
    """Per connection (stream), the source port of its first FIN."""
    first_fin = {}
    for segment in segments:
        if segment.fin and segment.stream not in first_fin:
            first_fin[segment.stream] = segment.src[1]
    return first_fin


def closed_first_by_client(segments: list[Segment], server_port: int) -> tuple[int, int]:
    """(connections whose first FIN came from the client, connections with a FIN)."""
    first_fin = first_fin_ports(segments)
    return sum(port != server_port for port in first_fin.values()), len(first_fin)


def port_reuse_after(segments: list[Segment], syns: list[Segment]) -> dict[int, float]:
    """For each connection (stream) whose client port an earlier connection used, the time from that
    connection's first FIN (the client's, when it closed first: the start of its TIME_WAIT) to the SYN."""
    fin_of = {}
    for segment in segments:
        if segment.fin and segment.stream not in fin_of:
            fin_of[segment.stream] = segment.time
    last_stream_of_port, since = {}, {}
    for syn in syns:
        previous = last_stream_of_port.get(syn.src[1])
        if previous is not None and previous in fin_of:
            since[syn.stream] = syn.time - fin_of[previous]
        last_stream_of_port[syn.src[1]] = syn.stream
    return since


def strace_connects(path: str) -> list[tuple[float, str, float]]:
    """The connect() calls of an `strace -f -tt -T` log, gzipped or not: (start as seconds of the day,
    result ('0' or the errno name), duration in seconds). Joins `<unfinished ...>` and `resumed`."""
    opener = gzip.open if path.endswith(".gz") else open
    started, calls = {}, []
    with opener(path, "rt", encoding="utf-8") as log:
        for line in log:
            fields = line.split(" ", 2)
            if len(fields) < 3:
                continue
            pid, clock, rest = fields
            hours, minutes, seconds = clock.split(":")
            when = int(hours) * 3600 + int(minutes) * 60 + float(seconds)
            if rest.startswith("connect(") and rest.rstrip().endswith("<unfinished ...>"):
                started[pid] = when
                continue
            if rest.startswith("<... connect resumed>"):
                when = started.pop(pid)
            elif not rest.startswith("connect("):
                continue
            match = re.search(r"= (-?\d+)(?: (E[A-Z]+))?.*<([0-9.]+)>$", rest.rstrip())
            if match:
                calls.append((when, match.group(2) or match.group(1), float(match.group(3))))
    return sorted(calls)


def expect_near(value: float, target: float, fraction: float, what: str) -> None:
    expect(abs(value - target) <= fraction * target, f"{what}: {value:g}, expected {target:g} within "
                                                      f"{fraction:.0%}")


def check_seed_exhaustion(name: str, server_port: int, range_ports: int, time_wait_s: float = TIME_WAIT_S) -> dict:
    """A client that closes first until its port range is full: connections before the stop, the stop
    (a pause, or the end of the capture), and what came after. Returns the figures."""
    path = capture_path(name)
    segments = read_segments(path)
    describe_capture(name, segments)
    syns = first_syns(segments)
    all_syns = sum(1 for s in segments if is_syn(s))
    ports = {s.src[1] for s in syns}
    by_client, with_fin = closed_first_by_client(segments, server_port)
    resets = sum(1 for s in segments if s.rst)
    print(f"  {len(syns)} connections ({all_syns} SYNs, so {all_syns - len(syns)} retransmitted) from "
          f"{len(ports)} distinct client ports ({min(ports)}-{max(ports)}); the client closed first on {by_client} "
          f"of {with_fin}; {resets} RSTs; {count_flagged(path, 'retransmission')} retransmissions")
    gaps = [(b.time - a.time, index + 1) for index, (a, b) in enumerate(zip(syns, syns[1:]))]
    # the stop: the first connection on a port an earlier one used (its TIME_WAIT over) ends it
    used, before = set(), len(syns)
    for index, syn in enumerate(syns):
        if syn.src[1] in used:
            before = index
            break
        used.add(syn.src[1])
    start = syns[0].time
    figures = {"connections": len(syns), "range_ports": range_ports}
    if before == len(syns):  # no connection after the stop
        print(f"  connections before the stop: {before} ({before / range_ports:.1%} of the {range_ports} ports), "
              f"in {syns[-1].time - start:.2f} s ({(before - 1) / (syns[-1].time - start):.0f}/s); no port used "
              f"twice, and no SYN after the last connection (the capture has no packet after "
              f"{segments[-1].time - start:.2f} s)")
    else:
        longest = syns[before].time - syns[before - 1].time
        resumed = syns[before]
        print(f"  connections before the pause: {before} ({before / range_ports:.1%} of the {range_ports} ports), in "
              f"{syns[before - 1].time - start:.2f} s ({(before - 1) / (syns[before - 1].time - start):.0f}/s)")
        print(f"  the pause: {longest:.2f} s without a new connection, from {syns[before - 1].time - start:.2f} s "
              f"to {resumed.time - start:.2f} s after the first SYN")
        after = syns[before:]
        earlier_ports = {s.src[1] for s in syns[:before]}
        reused = sum(1 for s in after if s.src[1] in earlier_ports)
        reuse = port_reuse_after(segments, syns)
        since = [reuse[s.stream] for s in after if s.stream in reuse]
        print(f"  after the pause: {len(after)} connections in {after[-1].time - resumed.time:.2f} s "
              f"({len(after) / max(after[-1].time - resumed.time, 1e-9):.0f}/s), {reused} of them on a port "
              f"used before the pause, {min(since):.2f} to {max(since):.2f} s (median "
              f"{statistics.median(since):.2f} s) after that port's first FIN")
        pauses = [(gap, index) for gap, index in gaps[before:] if gap >= 0.5]
        if pauses:
            print("  later pauses of 0.5 s or more: " + ", ".join(
                f"{gap:.2f} s after {syns[index - 1].time - start:.2f} s" for gap, index in pauses))
        in_window = sum(1 for s in syns if s.time - start < time_wait_s)
        cycle = resumed.time - start
        print(f"  connections in the first {time_wait_s:g} s: {in_window}; first SYN to the first after the pause: "
              f"{cycle:.2f} s, so {before} connections per {cycle:.2f} s = {before / cycle:.0f}/s sustained at most; "
              f"range / TIME_WAIT = {range_ports} / {time_wait_s:g} s = {range_ports / time_wait_s:.1f}/s")
        figures.update(pause_s=longest, cycle_s=cycle, after=len(after), reused=reused)
        expect(reused == len(after), "every connection after the pause on a port used before it")
        expect(min(since) >= time_wait_s, f"no port used again within {time_wait_s:g} s of its first FIN")
        expect(longest >= 5, "a pause of 5 s or more")
    figures["before"] = before
    expect(by_client == with_fin, "the client closed first on every connection")
    expect_near(before, range_ports, 0.01, "connections before the stop")
    return figures


def check_seed_jobs(name: str) -> None:
    figures = check_seed_exhaustion(name, 9000, 60999 - 32768 + 1)
    expect(figures.get("after", 0) > 0, "connections after the pause")
    calls = strace_connects(os.path.join(SAMPLES, name + ".strace.gz"))
    failed = [c for c in calls if c[1] == "EADDRNOTAVAIL"]
    succeeded = [c for c in calls if c[1] == "0"]
    print(f"  strace: {len(calls)} connect() calls, {len(succeeded)} = 0, {len(failed)} = -1 EADDRNOTAVAIL, "
          f"{len(calls) - len(succeeded) - len(failed)} other")
    if failed:
        first, last = failed[0][0] - calls[0][0], failed[-1][0] - calls[0][0]
        print(f"  EADDRNOTAVAIL from {first:.2f} s to {last:.2f} s after the first connect(); each failed call took "
              f"{spread([c[2] for c in failed])}")
    durations = [c[2] for c in succeeded]
    print(f"  connect() = 0 took {spread(durations)}, p99 {ms(percentile(durations, 0.99))}; "
          f"{sum(1 for d in durations if d >= 0.1)} took 100 ms or more")
    expect(len(succeeded) == figures["connections"], "one connect() = 0 per connection in the capture")
    expect(len(failed) > 0, "connect() failed with EADDRNOTAVAIL")


def seed_text(name: str) -> str:
    return open(os.path.join(SAMPLES, name), encoding="utf-8").read()


def check_seed_ab(name: str, keepalive: bool) -> None:
    check_http(name)
    segments = read_segments(capture_path(name))
    syns = first_syns(segments)
    by_client, with_fin = closed_first_by_client(segments, 8080)
    ports = {s.src[1] for s in syns}
    duration = segments[-1].time - segments[0].time
    requests = sum(1 for s in segments if s.length and s.dst[1] == 8080)
    print(f"  {len(syns)} connections from {len(ports)} distinct client ports; the client closed first on "
          f"{by_client} of {with_fin}; {requests} requests in {duration:.2f} s ({requests / duration:.0f}/s)")
    output = seed_text(name + ".ab.txt")
    summary = {key: value for key, value in re.findall(r"^(Complete requests|Failed requests|Keep-Alive requests|"
                                                       r"Time taken for tests|Requests per second):\s+(\S+)", output,
                                                       re.M)}
    aborted = re.findall(r"^(Total of \d+ requests completed|apr_\S+.*)$", output, re.M)
    print(f"  ab: {summary}" + (f"; {aborted}" if aborted else ""))
    expect(not aborted and summary.get("Complete requests") == "30000", "ab completed its 30,000 requests")
    if keepalive:
        expect(len(syns) <= 60, "keep-alive: a few dozen connections")
    else:
        # ab also opens a few connections at the end that it closes without a request
        with_request = {s.stream for s in segments if s.length and s.dst[1] == 8080}
        first_fin = first_fin_ports(segments)
        server_first = sum(1 for stream in with_request if first_fin.get(stream) == 8080)
        expect(len(with_request) == 30000 and server_first == 30000,
               "one connection per request, each closed first by nginx")


def check_seed_httperf(name: str) -> None:
    figures = check_seed_exhaustion(name, 8080, 65535 - 49152 + 1)
    output = seed_text(name + ".httperf.txt")
    totals = re.search(r"^Total: connections (\d+) requests (\d+) replies (\d+) test-duration (\S+) s", output, re.M)
    errors = re.search(r"^Errors: fd-unavail (\d+) addrunavail (\d+) ftab-full (\d+) other (\d+)", output, re.M)
    # httperf counts EADDRNOTAVAIL from connect() as "other" (its addrunavail is for bind() with --hog)
    print(f"  httperf: {totals.group(0)}; {errors.group(0)}; "
          f"{output.count('connection failed with unexpected error 99')} 'connection failed with unexpected error 99'")
    expect(int(errors.group(4)) > 0 and "unexpected error 99" in output, "httperf's connect() failed with error 99")
    expect(int(totals.group(3)) == figures["connections"], "httperf's replies = connections in the capture")


def check_seed_backlog(name: str) -> None:
    client = read_segments(capture_path(f"{name}-client"))
    describe_capture(f"{name}-client", client)
    syns = first_syns(client)
    start = syns[0].time
    offered_s = syns[-1].time - start
    print(f"  {len(syns)} connections started in {offered_s:.2f} s ({len(syns) / offered_s:.0f}/s)")
    per_stream = {}
    for segment in client:
        per_stream.setdefault(segment.stream, []).append(segment)
    retries, handshake_waits, answer_times, request_resent, synack_counts = {}, [], [], 0, []
    for stream, own in per_stream.items():
        own_syns = [s for s in own if is_syn(s)]
        if not own_syns:
            continue
        for syn in own_syns[1:]:
            offset = round(syn.time - own_syns[0].time, 1)
            retries[offset] = retries.get(offset, 0) + 1
        synacks = [s for s in own if is_synack(s)]
        synack_counts.append(len(synacks))
        if synacks:
            handshake_waits.append(synacks[0].time - own_syns[0].time)
        requests = [s for s in own if s.length and s.dst[1] == 9200]
        request_resent += len({(s.seq, s.length) for s in requests}) < len(requests)
        answer = next((s for s in own if s.length and s.src[1] == 9200), None)
        if answer:
            answer_times.append((own_syns[0].time, answer.time - own_syns[0].time))
    retransmitted = sum(retries.values())
    waited = sum(1 for w in handshake_waits if w >= 0.5)
    print(f"  {retransmitted} SYN retransmissions; by time after the connection's first SYN: "
          + ", ".join(f"{count} at +{offset:g} s" for offset, count in sorted(retries.items()) if count >= 10)
          + f" (and {sum(c for o, c in retries.items() if c < 10)} at other times)")
    print(f"  handshakes (first SYN -> SYN-ACK): {len(handshake_waits)}; {waited} waited 0.5 s or more; "
          f"{spread(handshake_waits)}, p99 {ms(percentile(handshake_waits, 0.99))}")
    print(f"  {sum(1 for c in synack_counts if c > 1)} connections got their SYN-ACK more than once; the request was "
          f"sent more than once on {request_resent} connections")
    waits = [wait for _, wait in answer_times]
    reset = {s.stream for s in client if s.rst and s.src[1] == 9200}
    reset_after = [s.time - per_stream[s.stream][0].time for s in client if s.rst and s.src[1] == 9200]
    print(f"  answered: {len(waits)} of {len(syns)}, first SYN -> answer {spread(waits)}, "
          f"p99 {ms(percentile(waits, 0.99))}; {len(reset)} reset by the server without an answer "
          f"({spread(reset_after)} after their first SYN)")
    # the answers' times from the first SYN of the capture (answer_times are per connection)
    answered_at = sorted(syn_time + wait for syn_time, wait in answer_times)
    last_s = answered_at[-1] - start
    rate_line = [0] * (int(last_s) + 1)
    for when in answered_at:
        rate_line[int(when - start)] += 1
    print(f"  answers in each second from the first SYN: {rate_line}; all {len(answered_at)} in {last_s:.2f} s: "
          f"{len(answered_at) / last_s:.0f}/s achieved, against {len(syns) / offered_s:.0f}/s offered")
    server = read_segments(capture_path(f"{name}-server"))
    describe_capture(f"{name}-server", server)
    answered_syns, dropped = 0, 0
    synack_after = {}
    for segment in server:
        if is_synack(segment):
            synack_after.setdefault(segment.stream, []).append(segment.time)
    for segment in server:
        if is_syn(segment):
            if any(0 <= t - segment.time < ANSWERED_AT_ONCE_S for t in synack_after.get(segment.stream, [])):
                answered_syns += 1
            else:
                dropped += 1
    print(f"  at the server: {answered_syns + dropped} SYNs arrived, {answered_syns} answered at once with a "
          f"SYN-ACK, {dropped} not answered (dropped by the listener: nothing else is between the capture and it)")
    counters = seed_text(name + ".nstat")
    print("  nstat: " + "; ".join(" ".join(line.split()[:2]) for line in counters.splitlines()
                                  if line and not line.startswith("#")))
    expect(retransmitted > 1000, "SYNs retransmitted")
    expect(dropped > 1000, "SYNs the listener dropped")
    expect(len(answer_times) + len(reset) == len(syns), "every connection answered or reset in the end")
    expect(retries.get(1.0, 0) > 0, "SYN retransmissions one second after the first SYN")


CHECKS = {
    "proxy-nagle": check_proxy, "proxy-nodelay": check_proxy, "proxy-nagle-ttt": check_proxy,
    "proxy-nagle-ff": check_proxy, "churn-exhaustion": check_churn, "hosts-churn": check_hosts_churn,
    "port-reuse-collision": check_collision,
    "http-tw-reuse": check_http, "http-keepalive": check_http, "http-close": check_http,
    "backlog-overflow": check_backlog,
    "rtt-http-keepalive": check_rtt_http_keepalive, "rtt-tls-like": check_rtt_tls_like,
    "rtt-nagle-proxy": check_rtt_nagle_proxy, "rtt-bulk-cwnd": check_rtt_bulk_cwnd,
    "rtt-defer-accept": check_rtt_defer_accept, "rtt-syn-dropped": check_rtt_syn_dropped,
    "rtt-duplicated": check_rtt_duplicated,
    "jobs-port-exhaustion": check_seed_jobs,
    "ab-no-keepalive": lambda name: check_seed_ab(name, keepalive=False),
    "ab-keepalive": lambda name: check_seed_ab(name, keepalive=True),
    "httperf-port-exhaustion": check_seed_httperf, "backlog-connrate": check_seed_backlog,
}
# the rtt-* captures live in samples/rtt/
RTT_FOLDER = {"rtt-http-keepalive", "rtt-tls-like", "rtt-nagle-proxy", "rtt-bulk-cwnd", "rtt-defer-accept",
              "rtt-syn-dropped", "rtt-duplicated"}
# the seed captures, gzipped, in samples/seeds/
SEED_FOLDER = {"jobs-port-exhaustion", "ab-no-keepalive", "ab-keepalive", "httperf-port-exhaustion",
               "backlog-connrate"}


def main() -> None:
    names = sys.argv[1:] or list(CHECKS)
    for name in names:
        print(f"== {name}")
        folder = "rtt/" if name in RTT_FOLDER else "seeds/" if name in SEED_FOLDER else ""
        CHECKS[name](folder + name)
    if MISMATCHES:
        print(f"{len(MISMATCHES)} mismatches")
        sys.exit(1)


if __name__ == "__main__":
    main()
