#!/usr/bin/env python3
"""The proof run: every public capture and every sample through every output format of tcpscope-cli.

usage: proof_run.py --cli PATH/tcpscope-cli [--root DIR]... [--set NAME]... [--samples DIR] [--jobs N]
                    [--keep DIR]

Each set of public captures (--set, default realworld and tcpdump-tests) is taken from the first
--root that holds it (the project's data/, then ../shared/captures). For each file of them, and
each capture of samples/ with its strace log, runs: analyze (text and JSON), flows (text and JSON), packets (text and JSON), mermaid of
flow 0 when the capture has a flow, report (Markdown and HTML, in builds with the GUI), and export
to a folder (zstd NDJSON records). Each run must exit 0 with nothing on stderr but warnings, or,
for a file that is no capture at all (or one a reader refuses from its header on), exit 3 with one
line on stderr and nothing on stdout. Every output (stdout, report.md, report.html, each record)
must decode as UTF-8 with errors='strict'; every JSON output and every record must parse with
Python's json module. Prints the counts; exits 1 on any failure, 77 when no public capture is found
(the caller reports the run skipped).
"""
import argparse
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

CAPTURE_SUFFIXES = (".pcap", ".pcapng", ".cap", ".pcap.gz", ".pcap.zst", ".pcapng.gz", ".pcapng.zst", ".gz", ".zst")
EXIT_UNREADABLE = 3
TIMEOUT_S = 600


def strict_text(data, what):
    try:
        return data.decode("utf-8", errors="strict")
    except UnicodeDecodeError as error:
        raise ProofFailure(f"{what}: not UTF-8: {error}")


class ProofFailure(Exception):
    pass


def run(argv, env=None):
    return subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=TIMEOUT_S, env=env)


def check_unreadable(result, what):
    """Exit 3 is allowed for a file that is no capture: one line on stderr, nothing on stdout."""
    stderr = strict_text(result.stderr, f"{what} stderr")
    if result.stdout or stderr.count("\n") != 1:
        raise ProofFailure(f"{what}: exit 3 with {len(result.stdout)} bytes of stdout and stderr {stderr!r}")


def check_stderr(result, what):
    stderr = strict_text(result.stderr, f"{what} stderr")
    for line in stderr.splitlines():
        # The analysis goes on after a warning or a problem later in a file (cli.md, Exit codes).
        if "warning:" not in line and "offset" not in line:
            raise ProofFailure(f"{what}: unexpected stderr line {line!r}")


def proof_of_file(cli, capture, strace, has_report, keep):
    """The outputs of one file; returns (outputs checked, 'analysed' or 'refused')."""
    base = [capture] + (["--strace", strace] if strace else [])
    name = os.path.basename(capture)
    checked = 0
    analyse = run([cli, "analyze", *base, "--format", "json"])
    if analyse.returncode == EXIT_UNREADABLE:
        check_unreadable(analyse, f"{name}: analyze --format json")
        for command in (["analyze"], ["flows"], ["packets", "--format", "json"]):
            result = run([cli, *command, *base])
            if result.returncode != EXIT_UNREADABLE:
                raise ProofFailure(f"{name}: {' '.join(command)} exit {result.returncode}, analyze gave 3")
            check_unreadable(result, f"{name}: {' '.join(command)}")
        return 4, "refused"
    outputs = [
        (["analyze", "--format", "json"], True, analyse),
        (["analyze"], False, None),
        (["flows", "--format", "json"], True, None),
        (["flows"], False, None),
        (["packets", "--format", "json"], True, None),
        (["packets"], False, None),
    ]
    flows = 0
    for command, is_json, result in outputs:
        what = f"{name}: {' '.join(command)}"
        if result is None:
            result = run([cli, command[0], *base, *command[1:]])
        if result.returncode != 0:
            raise ProofFailure(f"{what}: exit {result.returncode}: {result.stderr[-500:]!r}")
        check_stderr(result, what)
        text = strict_text(result.stdout, what)
        if is_json:
            try:
                document = json.loads(text)
            except ValueError as error:
                raise ProofFailure(f"{what}: not JSON: {error}")
            if command[0] == "analyze":
                flows = len(document.get("flows", []))
        checked += 1
    if flows > 0:
        result = run([cli, "mermaid", *base, "--flow", "0"])
        if result.returncode != 0:
            raise ProofFailure(f"{name}: mermaid --flow 0: exit {result.returncode}: {result.stderr[-500:]!r}")
        strict_text(result.stdout, f"{name}: mermaid")
        checked += 1
    work = tempfile.mkdtemp(prefix="tcpscope-proof-", dir=keep)
    try:
        if has_report:
            env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
            result = run([cli, "report", *base, "--out", os.path.join(work, "report")], env=env)
            if result.returncode != 0:
                raise ProofFailure(f"{name}: report: exit {result.returncode}: {result.stderr[-500:]!r}")
            for written in ("report.md", "report.html"):
                with open(os.path.join(work, "report", written), "rb") as file:
                    strict_text(file.read(), f"{name}: {written}")
                checked += 1
        result = run([cli, "export", *base, "--host", "proof-run", "--to", "dir:" + os.path.join(work, "records")])
        if result.returncode != 0:
            raise ProofFailure(f"{name}: export: exit {result.returncode}: {result.stderr[-500:]!r}")
        records = 0
        for folder, _, files in os.walk(os.path.join(work, "records")):
            for file in files:
                if not file.endswith(".zst"):
                    continue
                lines = subprocess.run(["zstd", "-dc", os.path.join(folder, file)], stdout=subprocess.PIPE,
                                       check=True).stdout
                for line in strict_text(lines, f"{name}: records {file}").splitlines():
                    try:
                        json.loads(line)
                    except ValueError as error:
                        raise ProofFailure(f"{name}: a record of {file} is not JSON: {error}")
                    records += 1
        checked += 1
    finally:
        if keep is None:
            shutil.rmtree(work, ignore_errors=True)
    return checked, "analysed"


def captures_under(folder):
    found = []
    for directory, _, files in os.walk(folder):
        for file in files:
            if file.endswith(".md") or file.endswith(".tsv") or ".strace" in file or file.endswith(".json"):
                continue
            found.append(os.path.join(directory, file))
    return sorted(found)


def sample_inputs(samples):
    """Each capture of samples/ (and samples/rtt/), with its strace log where it has one."""
    inputs = []
    for path in captures_under(samples):
        if not path.endswith(CAPTURE_SUFFIXES) or "/expected/" in path:
            continue
        stem = path.rsplit(".", 1)[0]
        strace = stem + ".strace"
        inputs.append((path, strace if os.path.exists(strace) else None))
    return inputs


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cli", required=True)
    parser.add_argument("--root", action="append", default=[], help="a folder holding sets of public captures")
    parser.add_argument("--set", action="append", default=[], help="a set of public captures (a folder name)")
    parser.add_argument("--samples", help="the project's samples/ folder")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--keep", help="keep the reports and records under this folder")
    args = parser.parse_args()
    folders = []
    for name in args.set or ["realworld", "tcpdump-tests"]:
        found = [os.path.join(root, name) for root in args.root
                 if os.path.isdir(os.path.join(root, name)) and captures_under(os.path.join(root, name))]
        folders += [os.path.realpath(found[0])] if found else []
    if not folders:
        print("skipped: no public captures found (scripts/fetch-public-captures.sh gets them)")
        return 77
    inputs = [(path, None) for folder in folders for path in captures_under(folder)]
    if args.samples:
        inputs += sample_inputs(args.samples)
    help_text = run([args.cli, "--help"]).stdout.decode("utf-8", errors="replace")
    has_report = "report" in help_text.split("SUBCOMMANDS:")[-1]
    started = time.monotonic()
    counts = {"analysed": 0, "refused": 0}
    outputs = 0
    failures = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = {pool.submit(proof_of_file, args.cli, path, strace, has_report, args.keep): path
                   for path, strace in inputs}
        for future in concurrent.futures.as_completed(futures):
            try:
                checked, outcome = future.result()
                outputs += checked
                counts[outcome] += 1
            except (ProofFailure, subprocess.TimeoutExpired, OSError) as error:
                failures.append(f"{futures[future]}: {error}")
    elapsed = time.monotonic() - started
    print(f"proof run: {len(inputs)} files ({', '.join(folders)}{', samples' if args.samples else ''}): "
          f"{counts['analysed']} analysed, {counts['refused']} refused as no capture (exit 3, one line); "
          f"{outputs} outputs checked (report {'included' if has_report else 'not built'}); "
          f"{len(failures)} failures; {elapsed:.0f} s")
    for failure in sorted(failures):
        print("FAIL " + failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
