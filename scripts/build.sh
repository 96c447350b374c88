#!/usr/bin/env bash
# Configures and builds one preset in build/PRESET (default: release, the folder run.sh and test.sh
# share), saying what it does and showing the build's progress. With TARGETs, only those (and what
# they need) are built: run.sh builds the programs alone, test.sh everything.
# Usage: scripts/build.sh [PRESET] [TARGET...]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
preset=${1:-release}
shift || true
targets=("$@")
build="$root/build/$preset"
jobs=$(nproc)

started=$(date +%s)
what="the whole project and its tests"
if ((${#targets[@]} > 0)); then
    what="${targets[*]}"
fi
if [[ ! -f "$build/build.ninja" ]]; then
    echo "build: first build of the $preset preset in build/$preset ($what), $jobs jobs at a time."
    if ((${#targets[@]} > 0)); then
        echo "build: the programs alone: about 12 minutes on a 2-core machine; scripts/test.sh builds the rest."
    else
        echo "build: about 20-25 minutes on a 2-core machine, a few minutes on 8 cores or more."
    fi
    echo "build: later builds redo only what changed."
else
    echo "build: updating build/$preset: $what ($jobs jobs at a time; only what changed is rebuilt)"
fi
echo "build: cmake --preset $preset"
cmake --preset "$preset" -S "$root" --log-level=WARNING
target_arguments=()
if ((${#targets[@]} > 0)); then
    target_arguments=(--target "${targets[@]}")
fi
echo "build: cmake --build build/$preset ${target_arguments[*]} --parallel $jobs   ([done/total] steps below)"
cmake --build "$build" "${target_arguments[@]}" --parallel "$jobs"
elapsed=$(($(date +%s) - started))
echo "build: build/$preset is up to date: $what ($((elapsed / 60)) min $((elapsed % 60)) s)"
