#!/bin/sh
# Prints, for one trace, what the Linux 6.1 post-processing script reports
# and what vmscan-analyze reports.  The script is read from Debian's
# linux-source-6.1 package (installed if missing) and run through
# ../shared/oracle/run-oracle, which hides this machine's own tracefs formats.
# usage: scripts/compare-perl61.sh [TRACE]
set -eu
cd "$(dirname "$0")/.."
trace=${1:-fixtures/synthetic/6.1-perl-names.txt}
cache=${VMSA_CACHE:-/var/tmp/vmscan-analyze}
pl=$cache/trace-vmscan-postprocess-6.1.pl
if [ ! -s "$pl" ]; then
	dpkg-query -W linux-source-6.1 >/dev/null 2>&1 ||
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends linux-source-6.1 xz-utils
	mkdir -p "$cache"
	tar -xJOf /usr/src/linux-source-6.1.tar.xz \
		linux-source-6.1/Documentation/trace/postprocess/trace-vmscan-postprocess.pl > "$pl"
fi
[ -x build/vmscan-analyze ] || scripts/build.sh >/dev/null
echo "=== Linux 6.1 trace-vmscan-postprocess.pl ($(grep -c . "$trace") lines)"
../shared/oracle/run-oracle "$pl" < "$trace" 2>&1 |
	awk '/^WARNING: Failed to parse/ { bad++; getline; getline; next }
	     /^WARNING/ { next } { print } END { printf "(%d \"WARNING: Failed to parse\" messages)\n", bad }'
echo "=== vmscan-analyze"
build/vmscan-analyze "$trace"
