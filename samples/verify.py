#!/usr/bin/python3
"""Checks that the recorded samples show what samples/README.md says they show.

Reads each capture with tshark (and the strace logs as text) and prints the
numbers quoted in the README: 40 ms holds, EADDRNOTAVAIL pauses, challenge
ACKs, reused tuples, SYN retransmissions. Independent of tcpscope itself, so
it can be used to judge tcpscope's own findings on the same files.

usage: samples/verify.py [SCENARIO...]     (default: every recorded scenario)
"""
import glob
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
    for extension in (".pcap", ".pcapng"):
        if os.path.exists(os.path.join(SAMPLES, name + extension)):
            return os.path.join(SAMPLES, name + extension)
    raise FileNotFoundError(name)


def describe_capture(name: str, segments: list[Segment]) -> None:
    path = capture_path(name)
    duration = segments[-1].time - segments[0].time
    print(f"{os.path.basename(path)}: {len(segments)} packets, {len({s.stream for s in segments})} connections, "
          f"{duration:.2f} s, {os.path.getsize(path)} bytes")


# --- proxy scenarios ----------------------------------------------------------

def check_proxy(name: str) -> None:
    segments = read_segments(capture_path(name))
    describe_capture(name, segments)
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
    check_strace_sendto(name)


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


CHECKS = {
    "proxy-nagle": check_proxy, "proxy-nodelay": check_proxy, "proxy-nagle-ttt": check_proxy,
    "proxy-nagle-ff": check_proxy, "churn-exhaustion": check_churn, "port-reuse-collision": check_collision,
    "http-tw-reuse": check_http, "http-keepalive": check_http, "http-close": check_http,
    "backlog-overflow": check_backlog,
}


def main() -> None:
    names = sys.argv[1:] or list(CHECKS)
    for name in names:
        print(f"== {name}")
        CHECKS[name](name)


if __name__ == "__main__":
    main()
