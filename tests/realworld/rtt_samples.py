#!/usr/bin/env python3
"""What tcpscope must say of the samples recorded over delay lines (samples/rtt/, samples/README.md).

usage: rtt_samples.py --cli PATH/tcpscope-cli --samples DIR

Each recording has a known cause (or none): request/response over 40-80 ms round trips is not
Nagle, a cwnd-limited bulk transfer is not Nagle though the receiver's delayed ACKs hold its full
segments (and the recording must show those holds), idle clients of a TCP_DEFER_ACCEPT listener
are no backlog overflow, SYNs a firewall drops are unanswered attempts, a file holding its packets
twice says so and finds what the clean capture finds, the proxy's Nagle stalls are found at
every capture point, and resends after a router's ICMP "fragmentation needed" are path MTU, not loss. Prints one line per check; exits 1 if any fails.
"""
import argparse
import json
import os
import subprocess
import sys


def analyse(cli, path):
    run = subprocess.run([cli, "analyze", path, "--format", "json"], capture_output=True, text=True, timeout=120)
    if not run.stdout.strip():
        raise RuntimeError(f"{path}: tcpscope-cli exited {run.returncode}: {run.stderr.strip()[:300]}")
    return json.loads(run.stdout)


def scored(report, kind=None):
    return [f for f in report["findings"] if f["severity"] in ("warning", "error") and (kind is None or f["kind"] == kind)]


def held_full_segments(cli, path, hold_s=0.030):
    """The receiver's pure ACKs that come hold_s or more after the full-sized data segment they
    acknowledge last, with no data in between: delayed ACKs, as (ACK frame, data frame, hold in ms)."""
    run = subprocess.run([cli, "packets", path, "--format", "json"], capture_output=True, text=True, timeout=120)
    if not run.stdout.strip():
        raise RuntimeError(f"{path}: tcpscope-cli packets exited {run.returncode}: {run.stderr.strip()[:300]}")
    packets = json.loads(run.stdout)["packets"]
    sender = next(p["dst"] for p in packets if p["flags"] == "S")  # the server sends the data
    full = max(p["len"] for p in packets if p["src"] == sender)
    held, last_data, acked = [], None, 0
    for p in packets:
        if p["src"] == sender and p["len"]:
            last_data = p
        elif p["src"] != sender and not p["len"] and p["flags"] == "." and p["ack"] > acked:
            acked = p["ack"]
            if (last_data and last_data["len"] == full and p["ack"] == last_data["seq"] + full
                    and p["ts"] - last_data["ts"] >= hold_s):
                held.append((p["frame"], last_data["frame"], round(1000 * (p["ts"] - last_data["ts"]), 1)))
    return held


def stalls(report):
    return sum(f["evidence"].get("stalls", 0) for f in scored(report, "delayed_ack_stall"))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cli", required=True)
    parser.add_argument("--samples", required=True)
    args = parser.parse_args()
    reports = {}

    def report(name):
        if name not in reports:
            reports[name] = analyse(args.cli, os.path.join(args.samples, name))
        return reports[name]

    checks = []

    def check(name, ok, what):
        checks.append(ok)
        print(f"{'ok  ' if ok else 'FAIL'} {name}: {what}")

    for name in ("rtt-http-keepalive.pcap", "rtt-tls-like.pcap", "rtt-bulk-cwnd.pcap"):
        found = scored(report(name))
        check(name, not found, "nothing to report" if not found else f"false findings: {[f['kind'] for f in found]}")
    # samples/README.md: 24 ACKs held 41 to 56 ms after a full segment, the sender's window (3) full.
    held = held_full_segments(args.cli, os.path.join(args.samples, "rtt-bulk-cwnd.pcap"))
    check("rtt-bulk-cwnd.pcap", len(held) >= 20, f"{len(held)} delayed ACKs of a full segment (recorded: 24), held "
          f"{min((h[2] for h in held), default=0)} to {max((h[2] for h in held), default=0)} ms")
    for name in ("rtt-defer-accept-client.pcap", "rtt-defer-accept-server.pcap"):
        found = scored(report(name), "syn_backlog_overflow")
        check(name, not found, "idle clients of a deferring listener are no backlog overflow")
    for name in ("rtt-syn-dropped-client.pcap", "rtt-syn-dropped-server.pcap"):
        found = scored(report(name), "syn_unanswered")
        servers = [f["evidence"].get("server", "") for f in found]
        check(name, len(found) == 1 and servers[0].endswith(":9302") and not scored(report(name), "syn_backlog_overflow"),
              f"syn_unanswered for the dropped port only: {servers}")
    clean = stalls(report("rtt-duplicated-client.pcap"))
    for name in ("rtt-duplicated.pcapng", "rtt-duplicated-any.pcap"):
        quality = scored(report(name), "capture_quality")
        dupes = quality[0]["evidence"].get("duplicate_packets", 0) if quality else 0
        others = [f["kind"] for f in scored(report(name)) if f["kind"] not in ("capture_quality", "delayed_ack_stall")]
        check(name, dupes > 0 and not others and stalls(report(name)) == clean,
              f"capture_quality with {dupes} copies left out, no retransmission from them, {stalls(report(name))} "
              f"Nagle stalls as in the clean capture ({clean})")
    for point in ("client", "proxy", "server"):
        name = f"rtt-nagle-proxy-{point}.pcap"
        found = stalls(report(name))
        # samples/README.md: 19 of the 20 second writes held in each direction the capture sees.
        wanted = 38 if point == "proxy" else 19
        check(name, found >= wanted - 2 and found <= wanted and len(scored(report(name))) ==
              len(scored(report(name), "delayed_ack_stall")), f"{found} Nagle stalls (recorded: {wanted})")
    server = report("rtt-path-mtu-server.pcap")
    pmtu = [f for f in server["findings"] if f["kind"] == "path_mtu"]
    evidence = pmtu[0]["evidence"] if len(pmtu) == 1 else {}
    # samples/README.md: 10 messages (mtu 1200), the data resent at once in 15 smaller segments.
    check("rtt-path-mtu-server.pcap", len(pmtu) == 1 and pmtu[0]["severity"] == "info" and not scored(server)
          and evidence.get("next_hop_mtu") == 1200 and evidence.get("messages") == 10
          and evidence.get("resends") == 15,
          f"path_mtu {[(f['severity'], f['evidence'].get('resends')) for f in pmtu]} (recorded: info, 15 resends "
          f"after 10 messages of mtu 1200), no warning: {not scored(server)}")
    client = report("rtt-path-mtu-client.pcap")
    check("rtt-path-mtu-client.pcap", not client["findings"],
          f"{len(client['findings'])} findings (the client sees no message and no resend)")
    failed = checks.count(False)
    print(f"{len(checks) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
