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
"$root/scripts/build.sh" "$preset"

echo "test: ctest in build/$preset, $(nproc) tests at a time; the Debian package test runs alone and only as root"
started=$(date +%s)
status=0
ctest --test-dir "$root/build/$preset" --output-on-failure --parallel "$(nproc)" || status=$?
elapsed=$(($(date +%s) - started))
echo "test: ctest took $((elapsed / 60)) min $((elapsed % 60)) s"
exit "$status"
