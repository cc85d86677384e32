#!/bin/sh
# The committed experiment tables are what the tool makes of the committed
# fixtures: regenerate them and fail on any difference.
#  - docs/experiment-dirty-swap.txt: one capture per setting
#  - docs/experiment-runs-FAMILY-SCENARIO.txt: the repeated runs
#    (fixtures/FAMILY/SCENARIO/<setting>/runs/), one table for each family
#    and scenario that has runs; a family and scenario with runs but no
#    committed table fails
#  - docs/experiment-batchN.txt: batch N of docs/experiment-plan.md
#    (fixtures/batchN/), once it has runs
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
for fam in 6.1 6.1-mglru 6.12 6.12-mglru; do
	for sc in dirty-swap highalloc; do
		ls -d "$src/fixtures/$fam/$sc"/*/runs > /dev/null 2>&1 || continue
		(cd "$src" && scripts/experiment-table.sh --runs "$fam" "$sc" "$tool") > "$tmp/runs"
		same "docs/experiment-runs-$fam-$sc.txt" "$tmp/runs"
	done
done
# the batches of docs/experiment-plan.md: each batch with runs has its table,
# docs/experiment-batchN.txt (scripts/experiment-stats.py --plan N: runs
# planned, done and failed, then the planned tests once the batch is done)
for order in "$src"/docs/experiment-plan/batch*.order; do
	[ -f "$order" ] || continue
	b=${order##*/batch}; b=${b%.order}
	[ -d "$src/fixtures/batch$b" ] || continue
	(cd "$src" && python3 scripts/experiment-stats.py --plan "$b") > "$tmp/batch" ||
		{ echo "FAIL experiment-stats.py --plan $b"; fail=$((fail + 1)); continue; }
	same "docs/experiment-batch$b.txt" "$tmp/batch"
done
# the numbers docs/experiment.md's claims quote from scripts/experiment-stats.py
# (a few of them: the script runs, and its tests give what the text says)
stats() { # FAMILY SCENARIO (or GROUP GROUP), the line after LABEL's block that starts with WHAT, want
	(cd "$src" && python3 scripts/experiment-stats.py "$1" "$2") > "$tmp/stats" || return 1
	awk -v label="$3" -v what="$4" '
		$0 == label { on = 1; next }
		on && /^[^ ]/ { exit }
		on && index($0, what) == 3 { print; exit }' "$tmp/stats"
}
quoted() { # FAMILY SCENARIO LABEL WHAT WANT: the line holds WANT
	got=$(stats "$1" "$2" "$3" "$4")
	case $got in
	*"$5"*) echo "ok   experiment-stats $1 $2, $3: $got"; pass=$((pass + 1)) ;;
	*) echo "FAIL experiment-stats $1 $2, $3: '$got', not '$5'"; fail=$((fail + 1)) ;;
	esac
}
if [ -d "$src/fixtures/6.1/dirty-swap/traceonly/runs" ]; then
	quoted 6.1 dirty-swap "direct stall, longest (s)" "nodirect vs traceonly" "U p < 0.001"
	quoted 6.1 dirty-swap "direct stall, total (s)" "nodirect vs traceonly" "U p 0.029"
	quoted 6.1 dirty-swap "flusher pages written for reclaim" "nodirect  " "4189 +- 1360"
	quoted 6.1 dirty-swap "kswapd file writes" "flushforward vs nodirect" "Welch p 0.042, U p 0.118"
fi
if [ -d "$src/fixtures/6.12/highalloc/upstream/runs" ]; then
	quoted 6.12 dirty-swap "flusher pages written for reclaim" "upstream  " "11780 +- 2188"
	quoted 6.1/highalloc/upstream 6.12/highalloc/upstream "direct stall, total (s)" \
		"6.12/highalloc/upstream vs 6.1/highalloc/upstream" "U p 0.004"
fi
if [ -d "$src/fixtures/6.12-mglru/highalloc/upstream/runs" ]; then
	quoted 6.12-mglru dirty-swap "flusher pages written for reclaim" "upstream  " "11781 +- 0.35"
	quoted 6.12/dirty-swap/upstream 6.12-mglru/dirty-swap/upstream "direct stall, total (s)" \
		"6.12-mglru/dirty-swap/upstream vs 6.12/dirty-swap/upstream" "U p 0.105"
	quoted 6.12/highalloc/upstream 6.12-mglru/highalloc/upstream "order4_got" \
		"6.12-mglru/highalloc/upstream vs 6.12/highalloc/upstream" "U p < 0.001"
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
