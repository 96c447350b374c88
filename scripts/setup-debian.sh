#!/usr/bin/env bash
# Installs the Debian 12 packages tcpscope needs, skipping the ones already there.
# Usage: scripts/setup-debian.sh [--tests]   (--tests adds what the test suite runs: tshark, Xvfb, lintian, ...)
set -euo pipefail

packages=(
    build-essential cmake ninja-build pkg-config
    qt6-base-dev qt6-charts-dev qt6-svg-dev libgl-dev
    libqt6opengl6-dev  # Qt6Charts's CMake package needs Qt6OpenGL; qt6-charts-dev does not pull it in
    libpcap-dev libfmt-dev catch2 zlib1g-dev libzstd-dev nlohmann-json3-dev libcli11-dev libabsl-dev
    libcurl4-openssl-dev libssl-dev  # export: ClickHouse over HTTP (libcurl), the Community ID's SHA-1 (libcrypto)
    help2man  # the man pages are made from each program's --help
    clang bpftool libbpf-dev  # record: the eBPF system call recorder (left out of the build without them)
)
if [[ "${1:-}" == "--tests" ]]; then
    # tshark: the analysis flags are compared with Wireshark's frame by frame.
    packages+=(tshark tcpdump xvfb xauth poppler-utils python3)
    # The Debian package test: cpack's dpkg-shlibdeps, the package's judges, setcap/getcap, completion.
    packages+=(dpkg-dev lintian desktop-file-utils appstream libcap2-bin adduser bash-completion)
    # The export tests start their own ClickHouse on loopback (a folder and ports of their own).
    # One of them over https, with a certificate openssl makes for it.
    packages+=(clickhouse-server openssl)
fi

missing=()
for package in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$package")
    fi
done
if ((${#missing[@]} == 0)); then
    echo "setup: the ${#packages[@]} Debian packages needed are installed"
    exit 0
fi

sudo=""
if [[ $(id -u) -ne 0 ]]; then
    sudo="sudo"
fi
echo "setup: installing ${#missing[@]} Debian packages: ${missing[*]}"
echo "setup: (with what they pull in, a few hundred MB on a fresh system; apt's progress follows)"
# wireshark-common asks whether non-root users may capture; answer for it.
echo "wireshark-common wireshark-common/install-setuid boolean false" | $sudo debconf-set-selections
# A machine whose last dpkg run was cut off refuses every install until it is finished; finish it.
if $sudo dpkg --audit 2>/dev/null | grep -q . || ! $sudo apt-get check -qq >/dev/null 2>&1; then
    echo "setup: finishing an interrupted dpkg run first (dpkg --configure -a)"
    $sudo env DEBIAN_FRONTEND=noninteractive dpkg --configure -a
fi
$sudo apt-get update -qq
$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
    -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold "${missing[@]}" |
    { grep -E '^(Need to get|After this operation|Setting up)' || true; }
# The tests never use the system's ClickHouse service: one the package just started is stopped.
if [[ " ${missing[*]} " == *" clickhouse-server "* ]] && command -v systemctl >/dev/null &&
    systemctl is-active --quiet clickhouse-server 2>/dev/null; then
    echo "setup: stopping and disabling the clickhouse-server service the package started (the tests run their own)"
    $sudo systemctl disable --now clickhouse-server >/dev/null 2>&1 || true
fi
echo "setup: done"
