#!/bin/sh
# Lets the members of one group capture with tcpscope without being root, the way Wireshark's
# dumpcap is set up: the capture helper belongs to root and GROUP, only they may run it (0750),
# and it carries CAP_NET_RAW and CAP_NET_ADMIN as file capabilities.
#
#   sudo app/capture/setup-capture-helper.sh [PATH-TO-tcpscope-capture] [GROUP]
#
# PATH defaults to the tcpscope-capture next to this script's build or on PATH; GROUP to tcpscope.
# Afterwards: sudo usermod -aG GROUP USER, and log in again.
set -eu

helper=${1:-$(command -v tcpscope-capture || true)}
group=${2:-tcpscope}

if [ -z "$helper" ] || [ ! -f "$helper" ]; then
    echo "setup-capture-helper: no tcpscope-capture found; give its path: $0 /usr/local/bin/tcpscope-capture" >&2
    exit 2
fi
if [ "$(id -u)" -ne 0 ]; then
    echo "setup-capture-helper: must run as root: sudo $0 $helper $group" >&2
    exit 2
fi
if ! command -v setcap >/dev/null 2>&1; then
    echo "setup-capture-helper: setcap is missing: apt-get install libcap2-bin" >&2
    exit 2
fi

getent group "$group" >/dev/null || groupadd --system "$group"
chown root:"$group" "$helper"
chmod 0750 "$helper"
# CAP_BPF, CAP_PERFMON and CAP_DAC_READ_SEARCH (tracefs is root's) for --syscalls; all are given up
# once the device is open (and the recorder attached).
setcap cap_net_raw,cap_net_admin,cap_bpf,cap_perfmon,cap_dac_read_search+eip "$helper"
echo "setup-capture-helper: $helper may now capture for the members of group $group ($(getcap "$helper"))"
echo "setup-capture-helper: add a user with: usermod -aG $group USER (then log in again)"
