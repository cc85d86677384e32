#!/bin/sh
# The committed experiment table is what the tool makes of the committed
# fixtures: regenerate it and fail on any difference.
# usage: experiment.sh TOOL SOURCE_DIR
set -eu
tool=$1 src=$2
out=$(mktemp)
"$src/scripts/experiment-table.sh" "$tool" > "$out"
# docs/experiment.md shows the same table between its first two ``` lines
embedded=$(mktemp)
awk '/^```/ { n++; next } n == 1' "$src/docs/experiment.md" > "$embedded"
if diff -u "$src/docs/experiment-dirty-swap.txt" "$out" &&
   diff -u "$src/docs/experiment-dirty-swap.txt" "$embedded"; then
	echo "1 passed, 0 failed"
	rm -f "$out" "$embedded"
else
	echo "0 passed, 1 failed"
	rm -f "$out" "$embedded"
	exit 1
fi
