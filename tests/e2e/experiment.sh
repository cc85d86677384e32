#!/bin/sh
# The committed experiment tables are what the tool makes of the committed
# fixtures: regenerate them and fail on any difference.
#  - docs/experiment-dirty-swap.txt: one capture per setting
#  - docs/experiment-runs-FAMILY-SCENARIO.txt: the repeated runs
#    (fixtures/FAMILY/SCENARIO/<setting>/runs/), one table for each family
#    and scenario that has runs; a family and scenario with runs but no
#    committed table fails
# docs/experiment.md shows each table in the ``` block that follows the
# line "<!-- table: docs/NAME.txt -->"; a table missing there fails too.
# usage: experiment.sh TOOL SOURCE_DIR
set -eu
tool=$1 src=$2
pass=0 fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# the ``` block after the comment naming $1 in docs/experiment.md
block() {
	awk -v want="<!-- table: $1 -->" '
		$0 == want { found = 1; next }
		found == 1 && /^```/ { found = 2; next }
		found == 2 && /^```/ { exit }
		found == 2' "$src/docs/experiment.md"
}
same() { # name of the table (docs/NAME.txt), fresh output
	block "$1" > "$tmp/md"
	if [ ! -f "$src/$1" ]; then
		echo "FAIL $1: not committed"; fail=$((fail + 1))
	elif [ ! -s "$tmp/md" ]; then
		echo "FAIL $1: no block after <!-- table: $1 --> in docs/experiment.md"; fail=$((fail + 1))
	elif diff -u "$src/$1" "$2" && diff -u "$src/$1" "$tmp/md"; then
		echo "ok   $1"; pass=$((pass + 1))
	else
		echo "FAIL $1"; fail=$((fail + 1))
	fi
}
"$src/scripts/experiment-table.sh" "$tool" > "$tmp/one"
same docs/experiment-dirty-swap.txt "$tmp/one"
for fam in 6.1 6.1-mglru; do
	for sc in dirty-swap highalloc; do
		ls -d "$src/fixtures/$fam/$sc"/*/runs > /dev/null 2>&1 || continue
		(cd "$src" && scripts/experiment-table.sh --runs "$fam" "$sc" "$tool") > "$tmp/runs"
		same "docs/experiment-runs-$fam-$sc.txt" "$tmp/runs"
	done
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
