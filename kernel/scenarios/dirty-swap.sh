# Scenario (i): dirty file writes larger than what the page cache can keep,
# together with anonymous hogs that must swap, then a hog confined to a
# small memcg.  Produces kswapd and direct reclaim with file and anon
# writeback, and memcg reclaim.  Sized so that a 256 MB guest records
# about 10^5 events (a few MB of fixtures).  Sourced by /init (busybox sh).
echo 80 > /proc/sys/vm/dirty_ratio
echo 50 > /proc/sys/vm/dirty_background_ratio
# dirty the page cache first (the data disk is throttled to 4 MB/s), then
# push it out with anonymous memory
w0=$(cut -d' ' -f1 /proc/uptime)
dd if=/dev/zero of=/data/big bs=1M count=110 2>/dev/null &
DD=$!
workload_task $DD dd
sleep 4
/bin/hog 96 1 > /dev/null &
H1=$!
workload_task $H1 hog
/bin/hog 96 1 > /dev/null &
H2=$!
workload_task $H2 hog
workload_running
wait $DD
# dd_seconds: from dd's start until dd exits (its 110 MB are in the page
# cache, written back or dirty within dirty_ratio); write_phase_seconds:
# until dd and both hogs are done
dd_end=$(cut -d' ' -f1 /proc/uptime)
wait $H1 $H2
# the result: 110 MB written by dd, and the time the phase took
echo "file_mb_written=110 dd_seconds=$(echo "$dd_end $w0" | awk '{ printf "%.2f", $1 - $2 }') write_phase_seconds=$(echo "$(cut -d' ' -f1 /proc/uptime) $w0" |
	awk '{ printf "%.2f", $1 - $2 }')" > /trace/workload.out
# quiesce before the memcg phase: the cgroup's memory.stat pgscan also
# counts global reclaim scanning the cgroup's pages, which a trace cannot
# attribute to a memcg; with global reclaim idle, all of them are memcg reclaim
rm -f /data/big
sync
echo 3 > /proc/sys/vm/drop_caches
sleep 3
echo 16M > /sys/fs/cgroup/hog/memory.max
sh -c 'echo $$ > /sys/fs/cgroup/hog/cgroup.procs && echo "$$ hog" >> /trace/workload.pids && exec /bin/hog 32 1' > /dev/null
