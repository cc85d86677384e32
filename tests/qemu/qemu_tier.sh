#!/bin/sh
# QEMU tier: runs checkpatch.pl on the series, builds the patched kernel if
# the cache lacks it, boots it, and
#  1. checks the format contract: every field the analyzer relies on exists
#     in the patched kernel's tracepoints, and the series' sysctls exist and
#     default to upstream behaviour;
#  2. records the dirty-swap scenario under the upstream setting and checks
#     the capture as the committed fixtures of the same kernel and LRU are
#     checked, on every kernel and LRU (vmstat equality, each row by the
#     rules of that family in tests/e2e/fixtures_vmstat.py, which reads the
#     family from the run's metadata.json and holds it to the one asked
#     here; text vs trace.dat), counts of the same order as the
#     committed capture of the same kernel and LRU, plus the analyzer run
#     inside the guest agreeing with the host's analysis of the same text,
#     and live's --openmetrics-file --interval 1 in the guest checked by
#     tests/e2e/openmetrics.py --capture.
# usage: [VMSA_KERNEL=6.1|6.12] [VMSA_LRU_GEN=off|on] qemu_tier.sh TOOL SOURCE_DIR WORKDIR
#   (defaults 6.1 and off: what ctest runs)
set -eu
tool=$1 src=$2 work=$3
kver=${VMSA_KERNEL:-6.1} lru_gen=${VMSA_LRU_GEN:-off}
fixdir=$kver
[ "$lru_gen" = on ] && fixdir=$kver-mglru
echo "kernel $kver, lru_gen $lru_gen (committed capture: fixtures/$fixdir)"
rm -rf "$work" && mkdir -p "$work"
fail=0 pass=0
ok() { echo "ok   $*"; pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }

"$src/kernel/install-deps.sh" "$kver"   # linux-source-$kver, qemu, ... on a fresh machine
run() { "$src/kernel/run" --kernel "$kver" --lru-gen "$lru_gen" "$@"; }

# checkpatch.pl --strict from the same source package, on every patch of the
# series; BAD_SIGN_OFF is ignored for the Based-on-patch-by: trailers that
# credit the 2010 authors (checkpatch knows no tag for that)
mkdir -p "$work/cp"
pkg=linux-source-$kver
tar -xJf "/usr/src/$pkg.tar.xz" -C "$work/cp" --strip-components=1 \
	$pkg/scripts/checkpatch.pl $pkg/scripts/spelling.txt \
	$pkg/scripts/const_structs.checkpatch 2>/dev/null || true
while read -r p; do
	r=$(perl "$work/cp/scripts/checkpatch.pl" --no-tree --strict --ignore BAD_SIGN_OFF \
		"$src/kernel/$kver/$p" 2>&1 | grep '^total:')
	case $r in "total: 0 errors, 0 warnings, 0 checks"*) ok "checkpatch $p" ;; *) bad "checkpatch $p: $r" ;; esac
done < "$src/kernel/$kver/series"

run --scenario boot --out "$work/boot"
fmt=$work/boot
field() { grep -q "field:.*[ *]$2;" "$fmt/format.$1" && ok "$1 has field $2" || bad "$1 lacks field $2"; }
field mm_vmscan_write_folio nr_pages
field mm_vmscan_write_folio reclaim_flags
field mm_vmscan_wakeup_flusher nid
field mm_vmscan_wakeup_flusher nr_dirty
field mm_vmscan_wakeup_flusher nr_pages
field mm_vmscan_wakeup_flusher reason
field mm_vmscan_lru_isolate nr_scanned
field mm_vmscan_lru_isolate nr_taken
field mm_vmscan_lru_isolate lru
field mm_vmscan_direct_reclaim_begin order
field mm_vmscan_lru_shrink_inactive nr_reclaimed
field mm_vmscan_lru_shrink_inactive reclaim_flags
grep -q 'nr_pages=%u' "$fmt/format.mm_vmscan_write_folio" && ok "write_folio prints nr_pages=" || bad "write_folio print fmt"
sysctls="reclaim_writeback_policy reclaim_flush_forward writeback_background_oldest_first"
[ "$kver" = 6.12 ] && sysctls="reclaim_flush_forward writeback_background_oldest_first"
for s in $sysctls; do
	grep -qx "$s=0" "$fmt/sysctl.defaults" && ok "vm.$s exists and defaults to 0" || bad "vm.$s: $(grep "$s" "$fmt/sysctl.defaults")"
done
grep -qx "lru_gen=0x0000" "$fmt/sysctl.defaults" && ok "multi-gen LRU built in, off at boot" ||
	bad "lru_gen at boot: $(grep lru_gen "$fmt/sysctl.defaults")"

run --scenario dirty-swap --setting upstream --out "$work/dirty-swap"
# trace-cmd's recorder of one CPU can fail to read anything on a loaded TCG
# host (seen once: the trace.dat held CPU 1's records only, while the text of
# the same run had both CPUs'): a failed recording, not the analyzer's doing,
# told by trace-cmd report itself.  Recorded once more then.
cpus() { grep -ao '\[00[0-9]\]' | sort -u; }
cpus < "$work/dirty-swap/trace.txt" > "$work/text-cpus"
missing=$(trace-cmd report -i "$work/dirty-swap/trace.dat" 2>/dev/null | cpus | comm -13 - "$work/text-cpus")
if [ -n "$missing" ]; then
	echo "note: trace-cmd recorded nothing of CPU $(echo $missing) (the text has them): recording again"
	mv "$work/dirty-swap" "$work/dirty-swap.incomplete"
	run --scenario dirty-swap --setting upstream --out "$work/dirty-swap"
fi
want=n; [ "$lru_gen" = on ] && want=y
got=n; grep -q '"lru_gen_enabled": "0x000[1-7]"' "$work/dirty-swap/metadata.json" && got=y
if [ $got = $want ]; then
	ok "lru_gen/enabled during the workload: $(cat "$work/dirty-swap/lru_gen.enabled")"
else
	bad "lru_gen/enabled during the workload: $(cat "$work/dirty-swap/lru_gen.enabled"), asked $lru_gen"
fi
grep -q '"vm.dirty_ratio": "80"' "$work/dirty-swap/metadata.json" &&
	ok "metadata has the scenario's sysctls (dirty_ratio 80)" || bad "metadata sysctls"
# the family asked ($fixdir) must be the one the metadata says the guest ran
if /usr/bin/python3 "$src/tests/e2e/fixtures_vmstat.py" --family "$fixdir" \
	"$tool" "$src" "$work/check" "$work/dirty-swap"; then
	ok "fresh capture matches the kernel's counters ($fixdir rules)"
else
	bad "fresh capture ($fixdir rules)"
fi
# live in the guest also rewrote its metrics file every second: the final one
# against the kernel's counters (6.1, classic LRU), every copy taken while it
# was rewritten whole, the per-cgroup series adding up
if /usr/bin/python3 "$src/tests/e2e/openmetrics.py" --capture "$tool" "$src" "$work/metrics" "$work/dirty-swap"; then
	ok "live's metrics file: counters, whole copies, cgroups"
else
	bad "live's metrics file"
fi
"$tool" --format json "$work/dirty-swap/trace.txt" > "$work/host.json"
"$tool" --format json "$work/dirty-swap/trace.dat" > "$work/host-dat.json"
# the same scenario and setting, run again: counts of the same order as the
# committed fixture's. What the workload fixes (reclaims, pages reclaimed,
# the memcg phase) within 5x; pages scanned within 30x: how often dirty
# pages under writeback are scanned again depends on TCG and disk timing
# (reruns on a quiet host measured 1.2x-4.5x apart in scanning, up to 2.3x
# in reclaim; with the host's 2 cores busy, 16x and 20x). A count the trace
# of that kernel and LRU cannot tell (6.1's multi-gen LRU traces no
# isolation: pages scanned and reclaimed are null) is not compared when it
# is unknown in both; known in one and not the other is a failure.
"$tool" --format json --quiet "$src/fixtures/$fixdir/dirty-swap/upstream/trace.dat" > "$work/fixture.json"
/usr/bin/python3 - "$work/host.json" "$work/fixture.json" <<'PY' && ok "counts of the same order as the committed run" || bad "counts differ from the committed run beyond the bounds"
import json, sys
a, b = (json.load(open(p))["totals"] for p in sys.argv[1:3])
def both(t, key):
    x, y = t["direct"][key], t["kswapd"][key]
    return None if x is None or y is None else x + y
checks = [("direct reclaims", a["direct"]["reclaims"], b["direct"]["reclaims"], 5),
          ("pages reclaimed", both(a, "pages_reclaimed"), both(b, "pages_reclaimed"), 5),
          ("memcg pages scanned", a["memcg"]["pages_scanned"], b["memcg"]["pages_scanned"], 5),
          ("pages scanned", both(a, "pages_scanned"), both(b, "pages_scanned"), 30)]
good, compared = True, 0
for what, x, y, k in checks:
    if x is None and y is None:
        print("  %s: unknown in both (this trace cannot tell it)" % what)
        continue
    fine = x is not None and y is not None and x > 0 and y > 0 and max(x, y) <= k * min(x, y)
    good, compared = good and fine, compared + 1
    print("  %s: fresh %s, committed %s (bound %dx)%s" % (what, x, y, k, "" if fine else " FAIL"))
sys.exit(0 if good and compared else 1)
PY
/usr/bin/python3 - "$work/host-dat.json" "$work/dirty-swap/guest-analysis.json" <<'PY' && ok "the analyzer inside the guest agrees with the host" || bad "guest vs host analysis"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
sys.exit(0 if all(a[k] == b[k] for k in ("totals", "processes", "kswapd", "latency")) else 1)
PY
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
