#!/usr/bin/env bash
# Installs what is missing, builds, and runs the whole test suite. In CI (CI=true) warnings are errors.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/setup-debian.sh" --tests

preset=release
if [[ "${CI:-}" == "true" ]]; then
    preset=ci
fi
cmake --preset "$preset" -S "$root"
cmake --build "$root/build/$preset" --parallel "$(nproc)"
ctest --test-dir "$root/build/$preset" --output-on-failure --parallel "$(nproc)"
