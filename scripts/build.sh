#!/bin/sh
# Builds vmscan-analyze into build/ (warnings are errors).
set -eu
cd "$(dirname "$0")/.."
cmake -S . -B build -DVMSA_WERROR=ON "$@" >/dev/null
cmake --build build -j"$(nproc)"
