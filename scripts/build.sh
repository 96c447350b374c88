#!/usr/bin/env bash
# Configures and builds one preset in build/PRESET (default: release, the folder run.sh and test.sh
# share), saying what it does and showing the build's progress.
# Usage: scripts/build.sh [PRESET]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
preset=${1:-release}
build="$root/build/$preset"
jobs=$(nproc)

started=$(date +%s)
if [[ ! -f "$build/build.ninja" ]]; then
    echo "build: first build of the $preset preset in build/$preset, $jobs jobs at a time."
    echo "build: it compiles the whole project and its tests: about 20-25 minutes on a 2-core machine,"
    echo "build: a few minutes on 8 cores or more. Later builds redo only what changed."
else
    echo "build: updating build/$preset ($jobs jobs at a time; only what changed is rebuilt)"
fi
echo "build: cmake --preset $preset"
cmake --preset "$preset" -S "$root" --log-level=WARNING
echo "build: cmake --build build/$preset --parallel $jobs   ([done/total] steps below)"
cmake --build "$build" --parallel "$jobs"
elapsed=$(($(date +%s) - started))
echo "build: build/$preset is up to date ($((elapsed / 60)) min $((elapsed % 60)) s)"
