# Scenario (ii): high-order allocation pressure, like the seeds' "Stress
# HighAlloc": page cache from a file write, memory fragmented by an
# anonymous map with every other page given back, then order-4 kernel
# allocations (pipe buffer arrays, see guest/highalloc.c).  Produces direct
# reclaim and compaction at order 4.  Sourced by /init (busybox sh).
ulimit -n 8192
dd if=/dev/zero of=/data/cache bs=1M count=60 2>/dev/null
/bin/highalloc 120 3000 > /results/highalloc.out 2>&1 &
HA=$!
workload_running
wait $HA
rm -f /data/cache
