#!/usr/bin/env bash
# Installs what is missing, builds, and runs the whole test suite. In CI (CI=true) warnings are
# errors (the ci preset, in build/ci); elsewhere it shares build/release with run.sh.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/setup-debian.sh" --tests

preset=release
if [[ "${CI:-}" == "true" ]]; then
    preset=ci
fi
# --asan: the whole suite under AddressSanitizer and UndefinedBehaviorSanitizer (the asan preset, in
# build/asan; a build of its own, at -O1 with line tables, about 1.7 times as long as the release
# build). --asan-core: the same without the GUI (the core, the CLI and their tests).
# Third-party leaks are suppressed by library in tests/sanitizers/lsan.supp.
# intercept_tls_get_addr=0: GCC 12's sanitizer runtime takes a dynamic TLS block (a Qt plugin's)
# whose address modulo 4096 happens to equal the size of glibc 2.19's TLS header for one that has
# such a header, reads a bogus range from the two words before it, and LeakSanitizer's tracer then
# faults at exit ("Tracer caught signal 11", "DTLS ... at 0x86e3-0x8000097e5"): 3 of 15 runs of the
# incident-report export test. Off, LeakSanitizer scans no dynamic TLS, which can only report more.
# Every report goes to a file of its own in build/PRESET/sanitizer-reports (log_path), so that a report
# in a process whose failure a test expects (a CLI run that must exit 3, say) still fails the run; the
# first lines of each report are printed at the end.
reports=""
if [[ "${1:-}" == "--asan" || "${1:-}" == "--asan-core" ]]; then
    preset=${1#--}
    reports="$root/build/$preset/sanitizer-reports"
    export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:intercept_tls_get_addr=0:log_path=$reports/asan"
    export LSAN_OPTIONS="suppressions=$root/tests/sanitizers/lsan.supp:print_suppressions=0"
    export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:log_path=$reports/ubsan"
fi
"$root/scripts/build.sh" "$preset"

# The system call recorder's tests need tracefs (without it they skip, saying why); root can mount it.
if [[ $(id -u) == 0 ]] && ! mountpoint -q /sys/kernel/tracing 2>/dev/null; then
    if mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null; then
        echo "test: mounted tracefs at /sys/kernel/tracing for the system call recorder's tests"
    else
        echo "test: tracefs cannot be mounted here: the system call recorder's tests will skip"
    fi
fi
echo "test: ctest in build/$preset, $(nproc) tests at a time; the Debian package test runs alone and only as root"
started=$(date +%s)
status=0
# Under the sanitizers the benchmark check is left out: it times the build against a release
# baseline, and its memory limit (ulimit -v) leaves no room for ASan's shadow memory. So is the
# proof run (every public capture through every output format, which the release suite runs): under
# ASan it takes longer than the rest of the suite together, and CI has to stay inside its 90 minutes.
skip=()
if [[ "$preset" == asan* ]]; then
    skip=(-LE 'benchmark|proof')
fi
if [[ -n "$reports" ]]; then
    rm -rf "$reports" && mkdir -p "$reports"
fi
ctest --test-dir "$root/build/$preset" --output-on-failure --parallel "$(nproc)" "${skip[@]}" || status=$?
elapsed=$(($(date +%s) - started))
echo "test: ctest took $((elapsed / 60)) min $((elapsed % 60)) s"
if [[ -n "$reports" ]] && compgen -G "$reports/*" >/dev/null; then
    count=$(find "$reports" -type f | wc -l)
    echo "test: $count sanitizer report(s) in $reports; the first lines of each (at most 5 reports):"
    find "$reports" -type f | sort | head -5 | while read -r report; do
        echo "---- $report"
        head -40 "$report"
    done
    status=1
fi
exit "$status"
