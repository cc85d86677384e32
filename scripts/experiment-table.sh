#!/bin/sh
# The cover letter's comparison on the 6.1 scenarios: the four 2010
# kernels' rules as settings of the kernel/ series, plus upstream 6.1.
#   scripts/experiment-table.sh [TOOL]         one committed capture per
#       setting (fixtures/6.1/dirty-swap/<setting>/trace.dat):
#       docs/experiment-dirty-swap.txt is this output
#   scripts/experiment-table.sh --runs FAMILY SCENARIO [TOOL]  the repeated
#       runs (kernel/experiment: fixtures/FAMILY/SCENARIO/<setting>/runs/,
#       FAMILY 6.1, 6.1-mglru, 6.12 or 6.12-mglru), mean +- sd per setting
#       and Welch's test against the first column, for the settings that
#       have runs: docs/experiment-runs-FAMILY-SCENARIO.txt is this output
set -eu
cd "$(dirname "$0")/.."
runs=0 f=fixtures/6.1/dirty-swap
if [ "${1:-}" = --runs ]; then
	[ $# -ge 3 ] || { echo "usage: experiment-table.sh --runs FAMILY SCENARIO [TOOL]" >&2; exit 2; }
	runs=1 f=fixtures/$2/$3
	shift 3
fi
tool=${1:-build/vmscan-analyze}
if [ $runs = 1 ]; then
	set --
	for s in traceonly nodirect flusholdest flushforward upstream; do
		[ -d "$f/$s/runs" ] && set -- "$@" --name "$s" "$f/$s"
	done
	[ $# -gt 0 ] || { echo "experiment-table: no runs under $f/*/runs" >&2; exit 1; }
	# --name NAME DIR pairs: the names first, then the directories
	names="" dirs=""
	while [ $# -gt 0 ]; do names="$names --name $2"; dirs="$dirs $3"; shift 3; done
	# shellcheck disable=SC2086
	"$tool" compare $names $dirs
	# and the workload's own result (kernel/run's metadata.json), mean +- sd
	echo
	printf '%-40s' "Workload (metadata.json), mean +- sd"
	for d in $dirs; do printf '%20s' "${d##*/}"; done
	echo
	# every key of workload_result the runs have, in their order
	# shellcheck disable=SC2086
	keys=$(for d in $dirs; do cat "$d"/runs/*/metadata.json; done | sed -n 's/.*"workload_result": {\(.*\)}.*/\1/p' |
		tr ',' '\n' | sed -n 's/^ *"\([a-z0-9_]*\)":.*/\1/p' | awk '!seen[$0]++')
	for k in $keys; do
		printf '%-40s' "$k"
		for d in $dirs; do
			sed -n "s/.*\"$k\": \([0-9.-]*\).*/\1/p" "$d"/runs/*/metadata.json |
				awk '{ n++; s += $1; q += $1 * $1 }
				     END { if (n < 2) { printf "%20s", n ? sprintf("%.2f (n=1)", s) : "-"; exit }
					   v = (q - s * s / n) / (n - 1); sd = v > 0 ? sqrt(v) : 0; printf "%20s", sprintf("%.2f +- %.2f", s / n, sd) }'
		done
		echo
	done
	exit 0
fi
exec "$tool" compare --name traceonly --name nodirect --name flusholdest \
	--name flushforward --name upstream-6.1 \
	$f/traceonly/trace.dat $f/nodirect/trace.dat $f/flusholdest/trace.dat \
	$f/flushforward/trace.dat $f/upstream/trace.dat
