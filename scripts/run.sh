#!/usr/bin/env bash
# Quick start: installs what is missing, builds (release), and analyses FILE... or, without a
# file, the bundled sample (a proxy whose two small writes meet Nagle and delayed ACKs).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/setup-debian.sh"
cmake --preset release -S "$root" >/dev/null
cmake --build "$root/build/release" --parallel "$(nproc)" >/dev/null

if (($# == 0)); then
    set -- "$root/samples/proxy-nagle.pcap"
fi
exec "$root/build/release/app/tcpscope-cli" analyze "$@"
