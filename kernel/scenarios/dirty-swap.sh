# Scenario (i): dirty file writes larger than guest RAM together with
# anonymous hogs that swap, then a hog confined to a small memcg.
# Produces kswapd and direct reclaim with file and anon writeback, and
# memcg reclaim.  Sourced by /init (busybox sh).
sysctl -w vm.dirty_ratio=80 vm.dirty_background_ratio=50 >/dev/null 2>&1 ||
	{ echo 80 > /proc/sys/vm/dirty_ratio; echo 50 > /proc/sys/vm/dirty_background_ratio; }
# dirty the page cache first, then push it out with anonymous memory
dd if=/dev/zero of=/data/big bs=1M count=150 2>/dev/null &
DD=$!
sleep 4
/bin/hog 160 2 > /dev/null &
H1=$!
/bin/hog 160 2 > /dev/null &
H2=$!
wait $DD $H1 $H2
echo 24M > /sys/fs/cgroup/hog/memory.max
sh -c 'echo $$ > /sys/fs/cgroup/hog/cgroup.procs && exec /bin/hog 48 2' > /dev/null
rm -f /data/big
