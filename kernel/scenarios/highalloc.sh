# Scenario (ii): high-order allocation pressure, like the seeds' "Stress
# HighAlloc": page cache from a file write, memory fragmented by an
# anonymous map with every other page given back, then order-4 kernel
# allocations (pipe buffer arrays) and order-9 huge pages, as the 2010
# HighAlloc asked for (nr_hugepages; see guest/highalloc.c).  Produces
# direct reclaim and compaction at orders 4 and 9; highalloc.out says what
# was asked, what was got and how long it took.  Sourced by /init (busybox sh).
ulimit -n 8192
dd if=/dev/zero of=/data/cache bs=1M count=60 2>/dev/null &
DD=$!
workload_task $DD dd
wait $DD
/bin/highalloc 120 3000 32 > /trace/highalloc.out 2>&1 &
HA=$!
workload_task $HA highalloc
workload_running
wait $HA
rm -f /data/cache
