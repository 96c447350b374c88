#!/usr/bin/env python3
"""What the records of a live capture cost its analysis: `tcpscope-cli capture` with and without
`--to clickhouse://...`, runs alternated, on the same generated capture replayed at a steady pace.

    tests/bench/live_records_bench.py --cli build/release/app/tcpscope-cli [--runs 5]
        [--packets 300000] [--speed 2] [--to dir:/tmp/records | --to clickhouse]

The capture is W1 (`tcpscope-cli generate --workload w1`), streamed to the CLI as tcpscope-capture
would stream it (`--via-helper`: a pcap on stdout), at `speed` times its recorded pace, so that the
analysis keeps up and no packet is left unanalysed in either run. `--to clickhouse` (the default)
starts Debian's clickhouse-server on a free loopback port with a data folder of its own, as the
tests do, and stops it at the end.

Printed, as a Markdown table: the medians of the analysis thread's CPU time (`capture.live.
analysis_cpu_s`: reading the packets, the detectors, and what the records cost that thread), the
process's CPU time (user + system, the sink's own thread included) and the wall time, and the
ratios with / without. Issue 28's bound is on the analysis: its ratio at most 1.10.
"""
import argparse
import json
import os
import resource
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

PACED_REPLAY = r'''
import struct, sys, time
path, speed = sys.argv[1], float(sys.argv[2])
out = sys.stdout.buffer
with open(path, 'rb') as f:
    header = f.read(24)
    magic = struct.unpack('<I', header[:4])[0]
    endian = '<' if magic in (0xa1b2c3d4, 0xa1b23c4d) else '>'
    nano = magic in (0xa1b23c4d, 0x4d3cb2a1)
    out.write(header)
    start, first, chunk = time.monotonic(), None, []
    while True:
        record = f.read(16)
        if len(record) < 16:
            break
        seconds, fraction, included, _ = struct.unpack(endian + 'IIII', record)
        data = f.read(included)
        ts = seconds + fraction / (1e9 if nano else 1e6)
        first = ts if first is None else first
        due = start + (ts - first) / speed
        chunk.append(record + data)
        now = time.monotonic()
        if due > now + 0.005:
            out.write(b''.join(chunk)); out.flush(); chunk = []
            time.sleep(due - now)
    out.write(b''.join(chunk)); out.flush()
'''

CLICKHOUSE_CONFIG = '''<?xml version="1.0"?>
<yandex>
  <logger><level>warning</level><log>{d}/server.log</log><errorlog>{d}/server.err.log</errorlog></logger>
  <listen_host>127.0.0.1</listen_host>
  <http_port>{http}</http_port>
  <tcp_port>{tcp}</tcp_port>
  <path>{d}/data/</path>
  <tmp_path>{d}/tmp/</tmp_path>
  <user_files_path>{d}/user_files/</user_files_path>
  <format_schema_path>{d}/format_schemas/</format_schema_path>
  <users_config>{d}/users.xml</users_config>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
  <mark_cache_size>5368709</mark_cache_size>
</yandex>
'''
CLICKHOUSE_USERS = '''<?xml version="1.0"?>
<yandex>
  <profiles><default></default></profiles>
  <users><default><password></password><networks><ip>127.0.0.1</ip></networks><profile>default</profile>
    <quota>default</quota></default></users>
  <quotas><default></default></quotas>
</yandex>
'''


def free_port():
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


def start_clickhouse(folder):
    server = shutil.which('clickhouse-server') or '/usr/bin/clickhouse-server'
    http, tcp = free_port(), free_port()
    with open(os.path.join(folder, 'config.xml'), 'w') as f:
        f.write(CLICKHOUSE_CONFIG.format(d=folder, http=http, tcp=tcp))
    with open(os.path.join(folder, 'users.xml'), 'w') as f:
        f.write(CLICKHOUSE_USERS)
    log = open(os.path.join(folder, 'stdout.log'), 'w')
    process = subprocess.Popen([server, f'--config-file={folder}/config.xml'], stdout=log, stderr=log)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f'http://127.0.0.1:{http}/', data=b'SELECT 1', timeout=2).read()
            return process, http
        except OSError:
            if process.poll() is not None:
                sys.exit(f'clickhouse-server ended at start: see {folder}')
            time.sleep(0.1)
    process.kill()
    sys.exit('clickhouse-server did not answer within 60 s')


def run_capture(cli, helper, sink):
    """One capture; returns (analysis thread CPU s, process CPU s, wall s, packets not analysed)."""
    command = [cli, 'capture', '-i', 'lo', '--via-helper', '--helper', helper, '--format', 'json']
    if sink:
        command += ['--to', sink, '--host', 'bench']
    started = time.monotonic()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    output, _ = process.communicate()
    wall = time.monotonic() - started
    # The CLI's own CPU: its rusage from wait, less nothing (the helper is a grandchild: the
    # replay's python runs under `exec` of the helper script, which the CLI waits for).
    status = process.returncode
    if status not in (0, 4):
        sys.exit(f'{" ".join(command)}: exit {status}')
    last = json.loads(output.splitlines()[-1])
    live = last['capture']['live']
    return live['analysis_cpu_s'], wall, live['not_analysed'], live.get('records')


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--cli', required=True)
    parser.add_argument('--runs', type=int, default=5)
    parser.add_argument('--packets', type=int, default=300000)
    parser.add_argument('--speed', type=float, default=2.0)
    parser.add_argument('--to', default='clickhouse', help="'clickhouse' (a server started here) or a sink")
    parser.add_argument('--dir', default=os.environ.get('TCPSCOPE_BENCH_DIR', '/tmp/tcpscope-bench'))
    args = parser.parse_args()

    os.makedirs(args.dir, exist_ok=True)
    capture = os.path.join(args.dir, f'w1-{args.packets}.pcap')
    if not os.path.exists(capture):
        subprocess.run([args.cli, 'generate', '--workload', 'w1', '--packets', str(args.packets), '--out', capture],
                       check=True, stdout=subprocess.DEVNULL)
    work = tempfile.mkdtemp(prefix='tcpscope-live-bench-')
    replay = os.path.join(work, 'paced_replay.py')
    with open(replay, 'w') as f:
        f.write(PACED_REPLAY)
    helper = os.path.join(work, 'helper.sh')
    with open(helper, 'w') as f:
        f.write(f'#!/bin/sh\nexec {sys.executable} {replay} {capture} {args.speed}\n')
    os.chmod(helper, 0o755)

    server = None
    sink = args.to
    if args.to == 'clickhouse':
        server, port = start_clickhouse(work)
        sink = f'clickhouse://127.0.0.1:{port}/bench'
    rows = {'without': [], 'with': []}
    try:
        for run in range(args.runs):
            for name in ('without', 'with'):
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                analysis, wall, unanalysed, records = run_capture(args.cli, helper, sink if name == 'with' else None)
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                # Children's CPU: the CLI and the replay; the replay's share is the same in both runs.
                cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
                rows[name].append((analysis, cpu, wall, unanalysed))
                sent = f", records sent {records['sent']}, dropped {records['dropped']}" if records else ''
                print(f'run {run + 1} {name:7} sink: analysis thread {analysis:.3f} s, CPU {cpu:.2f} s, '
                      f'wall {wall:.1f} s, not analysed {unanalysed}{sent}', file=sys.stderr)
    finally:
        if server:
            server.terminate()
            server.wait()
        shutil.rmtree(work, ignore_errors=True)

    def median(name, column):
        return statistics.median(row[column] for row in rows[name])

    print(f'W1 {args.packets} packets at {args.speed:g}x its pace, {args.runs} runs each, alternated; sink {sink}\n')
    print('| | analysis thread CPU (median) | CPU, CLI and replay | wall | not analysed (max) |')
    print('|---|---|---|---|---|')
    for name in ('without', 'with'):
        print(f'| {name} `--to` | {median(name, 0):.3f} s | {median(name, 1):.2f} s | {median(name, 2):.1f} s '
              f'| {max(row[3] for row in rows[name])} |')
    print(f'| ratio | {median("with", 0) / median("without", 0):.3f} | {median("with", 1) / median("without", 1):.2f} '
          f'| {median("with", 2) / median("without", 2):.2f} | |')


if __name__ == '__main__':
    main()
