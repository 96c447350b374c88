#!/usr/bin/env python3
"""Precision and recall of tcpscope's findings on public captures, against labels.json.

usage: score.py --cli PATH/tcpscope-cli --captures DIR [--labels labels.json]
                [--min-precision 0.95] [--min-kind-precision 0.85] [--max-false-errors 0]
                [--require-recall KIND,...]
                [--details] [--markdown]

Runs `tcpscope-cli analyze FILE --format json` on every labelled capture and compares its warning
and error findings with the labels (README.md beside this file says how a finding matches a
label). Prints a table per kind; with --details, every false finding and every missed label.
Exits 1 when a goal given on the command line is not met, 2 when it cannot run.
"""
import argparse
import json
import os
import subprocess
import sys
from collections import defaultdict

SCORED = ("warning", "error")
# Kinds that speak of the capture file as a whole: a finding of them matches any label of its kind
# in the same file, whatever endpoints the label names.
WHOLE_FILE = ("capture_quality",)


def normalise(endpoint):
    """'[2001:db8::1]:80' -> ('2001:db8::1', '80'); '10.0.0.1:80' -> ('10.0.0.1', '80'); '10.0.0.1' -> (.., None)."""
    if endpoint is None:
        return None
    text = endpoint.strip()
    if text.startswith("["):
        address, _, rest = text[1:].partition("]")
        return address, rest[1:] if rest.startswith(":") else None
    if text.count(":") == 1:
        address, port = text.split(":")
        return address, port
    return text, None  # a bare IPv4 or IPv6 address


def endpoint_matches(wanted, actual):
    """`wanted` may leave the port out; `actual` is always address and port."""
    if wanted is None:
        return True
    address, port = wanted
    return address == actual[0] and (port is None or port == actual[1])


def connections_of(finding, flows):
    ids = []
    if finding.get("flow") is not None:
        ids.append(finding["flow"])
    evidence = finding.get("evidence") or {}
    if isinstance(evidence, dict) and isinstance(evidence.get("connections"), list):
        for entry in evidence["connections"]:
            if isinstance(entry, int):
                ids.append(entry)
            elif isinstance(entry, dict):
                flow_id = next((entry[key] for key in ("flow", "connection", "id") if isinstance(entry.get(key), int)), None)
                if flow_id is not None:
                    ids.append(flow_id)
    pairs = []
    for flow_id in ids:
        flow = flows.get(flow_id)
        if flow is not None:
            pairs.append((normalise(flow["client"]), normalise(flow["server"])))
    return pairs


def label_matches(label, finding, flows):
    if label["kind"] != finding["kind"]:
        return False
    server = normalise(label.get("server"))
    client = normalise(label.get("client"))
    if label["kind"] in WHOLE_FILE and label.get("part"):
        # A label of one part of a whole-file finding (a join, a share of unseen data, one direction):
        # the finding must say that part (its evidence field, written only with the part), not only
        # something about the file.
        return label["part"] in (finding.get("evidence") or {})
    if (server is None and client is None) or label["kind"] in WHOLE_FILE:
        return True  # a label of the whole capture
    for one, other in connections_of(finding, flows):
        for side_server, side_client in ((other, one), (one, other)):  # sides are compared unordered
            if endpoint_matches(server, side_server) and endpoint_matches(client, side_client):
                return True
    return False


def analyse(cli, path):
    run = subprocess.run([cli, "analyze", path, "--format", "json"], capture_output=True, text=True, timeout=300)
    if run.returncode not in (0, 1) or not run.stdout.strip():
        raise RuntimeError(f"{path}: tcpscope-cli exited {run.returncode}: {run.stderr.strip()[:300]}")
    return json.loads(run.stdout)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    here = os.path.dirname(os.path.abspath(__file__))
    parser.add_argument("--cli", required=True)
    parser.add_argument("--captures", required=True)
    parser.add_argument("--labels", default=os.path.join(here, "labels.json"))
    parser.add_argument("--min-precision", type=float, default=None, help="overall")
    parser.add_argument("--min-kind-precision", type=float, default=None, help="for each kind")
    parser.add_argument("--max-false-errors", type=int, default=None)
    parser.add_argument("--require-recall", default="", help="kinds whose every label must be found")
    parser.add_argument("--details", action="store_true")
    parser.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    args = parser.parse_args()

    with open(args.labels) as handle:
        labels = json.load(handle)
    missing = [name for name in labels if not os.path.exists(os.path.join(args.captures, name))]
    if missing:
        print(f"score.py: {len(missing)} labelled captures not found in {args.captures}: {missing[:5]}", file=sys.stderr)
        return 2

    findings_of = defaultdict(int)
    true_of = defaultdict(int)
    labels_of = defaultdict(int)
    found_of = defaultdict(int)
    false_errors = []
    false_findings = []
    missed = []
    for name in sorted(labels):
        report = analyse(args.cli, os.path.join(args.captures, name))
        flows = {flow["id"]: flow for flow in report.get("flows", [])}
        wanted = labels[name].get("findings", [])
        found = [False] * len(wanted)
        for finding in report.get("findings", []):
            if finding["severity"] not in SCORED:
                continue
            findings_of[finding["kind"]] += 1
            matched = [index for index, label in enumerate(wanted) if label_matches(label, finding, flows)]
            if matched:
                true_of[finding["kind"]] += 1
                for index in matched:
                    found[index] = True
            else:
                false_findings.append((name, finding))
                if finding["severity"] == "error":
                    false_errors.append((name, finding))
        for label, was_found in zip(wanted, found):
            labels_of[label["kind"]] += 1
            found_of[label["kind"]] += 1 if was_found else 0
            if not was_found:
                missed.append((name, label))

    kinds = sorted(set(findings_of) | set(labels_of))
    rows = []
    for kind in kinds:
        count, true = findings_of[kind], true_of[kind]
        rows.append((kind, count, true, f"{100 * true / count:.1f} %" if count else "-", labels_of[kind],
                     found_of[kind], f"{100 * found_of[kind] / labels_of[kind]:.1f} %" if labels_of[kind] else "-"))
    total, true_total = sum(findings_of.values()), sum(true_of.values())
    label_total, found_total = sum(labels_of.values()), sum(found_of.values())
    precision = true_total / total if total else 1.0
    rows.append(("all", total, true_total, f"{100 * precision:.1f} %" if total else "-", label_total, found_total,
                 f"{100 * found_total / label_total:.1f} %" if label_total else "-"))
    header = ("kind", "findings", "true", "precision", "labels", "found", "recall")
    print(f"realworld: {len(labels)} public captures, warning and error findings against labels.json")
    if args.markdown:
        print("| " + " | ".join(header) + " |")
        print("|" + "---|" * len(header))
        for row in rows:
            print("| " + " | ".join(str(cell) for cell in row) + " |")
    else:
        widths = [max(len(str(row[i])) for row in rows + [header]) for i in range(len(header))]
        for row in [header] + rows:
            print("  ".join(str(cell).rjust(widths[i]) if i else str(cell).ljust(widths[i]) for i, cell in enumerate(row)))
    print(f"false errors: {len(false_errors)}")
    if args.details or false_findings:
        for name, finding in false_findings:
            print(f"  false {finding['severity']} {finding['kind']} in {name}: {finding['summary'][:160]}")
    if args.details or missed:
        for name, label in missed:
            print(f"  missed {label['kind']} in {name}: {label.get('server')} {label.get('client', '')}: "
                  f"{label.get('reason', '')[:120]}")

    failed = []
    if args.min_kind_precision is not None:
        for kind in kinds:
            if findings_of[kind] and true_of[kind] / findings_of[kind] < args.min_kind_precision:
                failed.append(f"precision of {kind} below {args.min_kind_precision:.0%}")
    if args.min_precision is not None:
        if precision < args.min_precision:
            failed.append(f"overall precision {precision:.1%} below {args.min_precision:.0%}")
    if args.max_false_errors is not None and len(false_errors) > args.max_false_errors:
        failed.append(f"{len(false_errors)} false errors (at most {args.max_false_errors})")
    for kind in filter(None, args.require_recall.split(",")):
        if found_of[kind] < labels_of[kind]:
            failed.append(f"{labels_of[kind] - found_of[kind]} {kind} labels missed")
    for reason in failed:
        print(f"FAILED: {reason}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
