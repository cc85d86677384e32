#!/bin/sh
# The committed experiment tables are what the tool makes of the committed
# fixtures: regenerate them and fail on any difference.
#  - docs/experiment-dirty-swap.txt: one capture per setting; docs/experiment.md
#    shows it in its first ``` block
#  - docs/experiment-runs-dirty-swap.txt: the repeated runs (runs/ of each
#    setting), when there are any; docs/experiment.md shows it in its second
# usage: experiment.sh TOOL SOURCE_DIR
set -eu
tool=$1 src=$2
pass=0 fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
block() { awk -v want="$1" '/^```/ { n++; next } n == 2 * want - 1' "$src/docs/experiment.md"; }
same() { # what, committed file, fresh output, docs block
	if diff -u "$2" "$3" && diff -u "$2" "$4"; then
		echo "ok   $1"; pass=$((pass + 1))
	else
		echo "FAIL $1"; fail=$((fail + 1))
	fi
}
"$src/scripts/experiment-table.sh" "$tool" > "$tmp/one"
block 1 > "$tmp/one.md"
same "one capture per setting" "$src/docs/experiment-dirty-swap.txt" "$tmp/one" "$tmp/one.md"
if ls -d "$src"/fixtures/6.1/dirty-swap/*/runs > /dev/null 2>&1; then
	"$src/scripts/experiment-table.sh" --runs "$tool" > "$tmp/runs"
	block 2 > "$tmp/runs.md"
	same "repeated runs" "$src/docs/experiment-runs-dirty-swap.txt" "$tmp/runs" "$tmp/runs.md"
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
