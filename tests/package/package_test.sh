#!/usr/bin/env bash
# The Debian package, end to end, as a user gets it: cpack builds it from this build; lintian,
# desktop-file-validate and appstreamcli judge it; apt-get installs it; the installed programs
# analyse a sample, draw the GUI offscreen and match their man pages; apt-get removes it and
# nothing of it is left. It installs and removes packages, so it runs only as root, on a system
# with apt (else it skips, exit 77), and never over a tcpscope package installed otherwise.
#   package_test.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$(cd "$1" && pwd) source=$(cd "$2" && pwd)
work=$build/tests/package
app_id=org.tcpscope.tcpscope

skip() {
    echo "SKIP: $*"
    exit 77
}
fail() {
    echo "FAIL: $*"
    exit 1
}
started=$(date +%s)
step() {
    echo
    echo "== $* (at $(($(date +%s) - started)) s)"
}

if [[ $(id -u) -ne 0 ]]; then
    skip "installing the package needs root (CI runs as root; here: sudo ctest --test-dir $build -L package)"
fi
if ! command -v apt-get >/dev/null || ! command -v dpkg >/dev/null; then
    skip "apt-get and dpkg are needed: this test installs the package on a Debian system"
fi
if dpkg-query -W -f='${Status}' tcpscope 2>/dev/null | grep -q "ok installed"; then
    skip "a tcpscope package is installed already, and this test would replace and remove it" \
        "(if an interrupted run of this test left it: apt-get purge -y tcpscope)"
fi
missing=()
for tool in cpack lintian desktop-file-validate appstreamcli dpkg-shlibdeps help2man; do
    command -v "$tool" >/dev/null || missing+=("$tool")
done
((${#missing[@]} == 0)) || fail "missing ${missing[*]}: scripts/setup-debian.sh --tests installs them"

rm -rf "$work"
mkdir -p "$work"
installed=false
group_existed=false
getent group tcpscope >/dev/null && group_existed=true
test_user=""
cleanup() {
    if [[ -n $test_user ]]; then
        userdel "$test_user" 2>/dev/null || true
    fi
    if $installed; then
        echo "cleanup: purging the tcpscope package this test installed"
        DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq tcpscope >/dev/null 2>&1 || true
    fi
    $group_existed || groupdel tcpscope 2>/dev/null || true
}
trap cleanup EXIT

step "cpack: building the package"
(cd "$work" && cpack --config "$build/CPackConfig.cmake" -G DEB -B "$work")
debs=("$work"/tcpscope_*.deb)
[[ -f ${debs[0]} ]] || fail "cpack wrote no tcpscope_*.deb in $work"
deb=${debs[0]}
echo "package: $deb ($(du -k "$deb" | cut -f1) KB)"
dpkg-deb --field "$deb" Package Version Architecture Depends

step "contents: what cmake --install installs, and the Debian files"
dpkg-deb --fsys-tarfile "$deb" | tar -t | sed -n 's|^\./\(.*[^/]\)$|/\1|p' | sort >"$work/deb-files"
DESTDIR="$work/cmake-install" cmake --install "$build" --prefix /usr >/dev/null
(cd "$work/cmake-install" && find . ! -type d | sed 's|^\.||' | sort) >"$work/cmake-install-files"
# The changelog is the package's own; everything else must be the same set.
if ! diff <(grep -v '/changelog.Debian.gz$' "$work/deb-files") "$work/cmake-install-files"; then
    fail "the package and cmake --install install different files (< package, > cmake --install)"
fi
for path in /usr/bin/tcpscope /usr/bin/tcpscope-cli /usr/bin/tcpscope-capture \
    "/usr/share/applications/$app_id.desktop" "/usr/share/metainfo/$app_id.metainfo.xml" \
    "/usr/share/icons/hicolor/scalable/apps/$app_id.svg" "/usr/share/mime/packages/$app_id.xml" \
    /usr/share/man/man1/tcpscope.1.gz /usr/share/man/man1/tcpscope-cli.1.gz \
    /usr/share/man/man1/tcpscope-cli-analyze.1.gz /usr/share/man/man1/tcpscope-capture.1.gz \
    /usr/share/bash-completion/completions/tcpscope-cli /usr/share/tcpscope/samples/proxy-nagle.pcap \
    /usr/share/tcpscope/docs/gui.md /usr/share/tcpscope/docs/cli.md \
    /usr/share/doc/tcpscope/copyright /usr/share/doc/tcpscope/changelog.Debian.gz; do
    grep -qx -- "$path" "$work/deb-files" || fail "the package lacks $path"
done
echo "$(wc -l <"$work/deb-files") files, the same as cmake --install's (plus changelog.Debian.gz)"

step "lintian"
lintian --tag-display-limit 0 "$deb" >"$work/lintian.txt" 2>&1 || true
cat "$work/lintian.txt"
errors=$(grep -c '^E:' "$work/lintian.txt" || true)
warnings=$(grep -c '^W:' "$work/lintian.txt" || true)
echo "lintian: $errors errors, $warnings warnings"
((errors == 0)) || fail "lintian found errors"

step "apt-get install"
installed=true
DEBIAN_FRONTEND=noninteractive apt-get install -y "$deb" 2>&1 | grep -v '^\(Reading\|Building\|Selecting\|(Reading\)' || true
dpkg-query -W -f='${Status}' tcpscope | grep -q "ok installed" || fail "apt-get did not install tcpscope"

step "desktop entry, AppStream metainfo, MIME types"
desktop-file-validate "/usr/share/applications/$app_id.desktop" || fail "desktop-file-validate found errors"
echo "desktop-file-validate: no errors"
appstreamcli validate --no-net "/usr/share/metainfo/$app_id.metainfo.xml" || fail "appstreamcli validate found errors"
if [[ -f /usr/share/mime/globs2 ]]; then
    for glob in "application/x-pcapng:\*.pcapng" "application/vnd.tcpdump.pcap+gzip:\*.pcap.gz" \
        "application/x-pcapng+gzip:\*.pcapng.gz"; do
        grep -q ":$glob$" /usr/share/mime/globs2 || fail "the MIME database lacks $glob after install"
    done
    echo "MIME database: pcapng and the compressed captures are known"
fi

step "the capture helper: root and the tcpscope group only, with its capabilities"
getent group tcpscope >/dev/null || fail "the postinst created no tcpscope group"
ownership=$(stat -c '%U:%G %a' /usr/bin/tcpscope-capture)
[[ $ownership == "root:tcpscope 750" ]] || fail "tcpscope-capture is $ownership, not root:tcpscope 750"
capabilities=$(getcap /usr/bin/tcpscope-capture)
# Packets need cap_net_raw and cap_net_admin; recording system calls (--syscalls) cap_bpf, cap_perfmon
# and cap_dac_read_search (tracefs is root's). getcap lists them in its own order, before "=eip".
[[ $capabilities == *=eip ]] || fail "tcpscope-capture's capabilities are not effective and permitted: '$capabilities'"
for capability in cap_net_raw cap_net_admin cap_bpf cap_perfmon cap_dac_read_search; do
    [[ $capabilities =~ [\ ,]$capability[,=] ]] || fail "tcpscope-capture lacks $capability: '$capabilities'"
done
echo "$ownership, $capabilities"
# A member of the group captures without root, if this machine lets file capabilities work
# (a container may keep them out of its bounding set: then it is said, not failed).
test_user=tcpscope-pkgtest
userdel "$test_user" 2>/dev/null || true # left by an interrupted run
useradd --system --no-create-home --shell /usr/sbin/nologin -G tcpscope "$test_user"
if capture=$(runuser -u "$test_user" -- timeout 30 /usr/bin/tcpscope-cli capture -i lo --duration 1 2>&1); then
    echo "a member of the tcpscope group captured on lo without root: $(grep -m1 -i 'tcpscope-capture' <<<"$capture" || echo ok)"
else
    echo "NOTE: a member of the tcpscope group could not capture here; the machine's reason:"
    sed 's/^/  /' <<<"$capture" | head -5
fi
userdel "$test_user"
test_user=""

step "the installed tcpscope-cli"
/usr/bin/tcpscope-cli --version
/usr/bin/tcpscope-cli --version | grep -qE '^tcpscope [0-9.]+ \(commit ([0-9a-f]{12}(-dirty)?|unknown)\)$' ||
    fail "--version names no version and commit"
/usr/bin/tcpscope-cli analyze "$source/samples/proxy-nagle.pcap" >"$work/analyze.txt"
grep -m1 delayed_ack_stall "$work/analyze.txt" || fail "the installed tcpscope-cli found no delayed_ack_stall in proxy-nagle.pcap"

step "the installed GUI, offscreen"
mkdir -p "$work/runtime"
chmod 700 "$work/runtime"
# gui HOME ARGS...: a user of that home (no settings, no last session) runs the installed GUI.
gui() {
    mkdir -p "$1"
    env -i PATH=/usr/bin:/bin HOME="$1" XDG_RUNTIME_DIR="$work/runtime" QT_QPA_PLATFORM=offscreen \
        timeout 120 /usr/bin/tcpscope "${@:2}"
}
gui "$work/home" --screenshot "$work/installed-gui.png" "$source/samples/proxy-nagle.pcap" ||
    fail "the installed GUI failed"
# With nothing to open, a first run shows the sample it installs, with its strace log.
gui "$work/home-first-run" --screenshot "$work/installed-gui-first-run.png" ||
    fail "the installed GUI failed on its first run"
grep -q '^captures=/usr/share/tcpscope/samples/proxy-nagle.pcap$' "$work/home-first-run/.config/tcpscope/tcpscope.conf" ||
    fail "the GUI's first run did not open the installed sample /usr/share/tcpscope/samples/proxy-nagle.pcap"
for png in "$work/installed-gui.png" "$work/installed-gui-first-run.png"; do
    [[ $(head -c 8 "$png" | od -An -tx1 | tr -d ' \n') == 89504e470d0a1a0a ]] || fail "$png is not a PNG"
    (($(stat -c %s "$png") > 20000)) || fail "$png is too small to show the analysis"
    echo "screenshot: $png ($(stat -c %s "$png") bytes)"
done

step "man pages against --help"
man_dir=/usr/share/man/man1
if [[ ! -f $man_dir/tcpscope-cli.1.gz ]]; then
    # dpkg may be told to leave out man pages (path-exclude in minimal images): check the package's.
    dpkg-deb -x "$deb" "$work/extracted"
    man_dir=$work/extracted/usr/share/man/man1
    echo "(dpkg left the man pages out here: checking those in the package)"
fi
"$source/tests/package/check_man_pages.sh" "$man_dir" /usr/bin || fail "man pages and --help differ"

step "bash completion"
if [[ -f /usr/share/bash-completion/bash_completion ]]; then
    complete_words() {
        bash -c 'source /usr/share/bash-completion/bash_completion
                 source /usr/share/bash-completion/completions/tcpscope-cli
                 COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
                 _tcpscope_cli; echo "${COMPREPLY[*]}"' _ "$@"
    }
    [[ $(complete_words tcpscope-cli ana) == analyze ]] || fail "completion of 'tcpscope-cli ana' is '$(complete_words tcpscope-cli ana)'"
    [[ $(complete_words tcpscope-cli analyze --form) == --format ]] || fail "completion of 'analyze --form' is wrong"
    [[ $(complete_words tcpscope-cli analyze --format "") == "text json" ]] || fail "completion of 'analyze --format' is wrong"
    echo "tcpscope-cli ana -> analyze; analyze --form -> --format; --format -> text json"
else
    echo "bash-completion is not installed: completion not tried"
fi

step "apt-get remove"
dpkg -L tcpscope >"$work/installed-files"
DEBIAN_FRONTEND=noninteractive apt-get remove -y tcpscope 2>&1 | grep -v '^\(Reading\|Building\|(Reading\)' || true
if dpkg-query -W -f='${Status}' tcpscope 2>/dev/null | grep -q "ok installed"; then
    fail "apt-get remove left tcpscope installed"
fi
left=$(find /usr/bin -name 'tcpscope*')
[[ -z $left ]] || fail "apt-get remove left in /usr/bin: $left"
while read -r path; do
    if [[ -f $path ]]; then
        fail "apt-get remove left $path"
    fi
done <"$work/installed-files"
DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq tcpscope >/dev/null
installed=false
if dpkg-statoverride --list /usr/bin/tcpscope-capture >/dev/null; then
    fail "apt-get purge left the helper's dpkg-statoverride"
fi
echo "nothing of tcpscope is left in /usr/bin, nor any file it installed; purge removed its statoverride"

echo
echo "package test passed in $(($(date +%s) - started)) s; lintian: $errors errors, $warnings warnings" \
    "(listed above); screenshots in $work"
