#!/usr/bin/env bash
# Quick start: installs what is missing, builds (release), and opens the GUI on FILE... or,
# without a file, on the bundled sample (a proxy whose two small writes meet Nagle and delayed
# ACKs) with the proxy's strace log. Without a display it prints the same analysis with
# tcpscope-cli instead.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/setup-debian.sh"
# Only the programs: the tests are scripts/test.sh's to build.
"$root/scripts/build.sh" release tcpscope tcpscope-cli tcpscope-capture

if [[ -n "${DISPLAY:-}" || -n "${WAYLAND_DISPLAY:-}" || -n "${QT_QPA_PLATFORM:-}" ]]; then
    echo "run: build/release/app/tcpscope $*"
    exec "$root/build/release/app/tcpscope" "$@"
fi
echo "run: no display found; printing the analysis with tcpscope-cli (the GUI needs X11 or Wayland)" >&2
if (($# == 0)); then
    set -- "$root/samples/proxy-nagle.pcap" --strace "$root/samples/proxy-nagle.strace"
fi
echo "run: build/release/app/tcpscope-cli analyze $*" >&2
exec "$root/build/release/app/tcpscope-cli" analyze "$@"
