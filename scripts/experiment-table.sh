#!/bin/sh
# The cover letter's comparison, on the committed 6.1 fixtures of the
# dirty-swap scenario: the four 2010 kernels as settings of the kernel/
# series, plus upstream 6.1.  docs/experiment-dirty-swap.txt is this output.
# usage: scripts/experiment-table.sh [TOOL]
set -eu
cd "$(dirname "$0")/.."
tool=${1:-build/vmscan-analyze}
f=fixtures/6.1/dirty-swap
exec "$tool" compare --name traceonly --name nodirect --name flusholdest \
	--name flushforward --name upstream-6.1 \
	$f/traceonly/trace.dat $f/nodirect/trace.dat $f/flusholdest/trace.dat \
	$f/flushforward/trace.dat $f/upstream/trace.dat
