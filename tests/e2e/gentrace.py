#!/usr/bin/python3
"""Deterministic generator of vmscan traces, for tests and benchmarks.

It simulates tasks doing direct reclaim and kswapd threads waking and
sleeping, and prints the events in timestamp order, either in the seeds'
2.6.35 text format (what the 2010 Perl script parses) or in Linux 6.1's
ftrace text format.  Well-formed by construction: every begin has its end,
every kswapd sleep follows a wake, and only tasks that enter direct reclaim
wake kswapd (the 2010 script counts wake-ups only for such tasks).

With --short-lived, every direct reclaim and every kswapd wake-up request
comes from a task of its own (a new pid each time, as on a busy server
with many short-lived tasks): --tasks N --reclaims R make about 2 N R
distinct pids.  --pid-base sets the first pid; --reclaim-us bounds how long
a direct reclaim lasts, and so how many events it has.

usage: gentrace.py [--format 2010|6.1] [--seed N] [--tasks N] [--reclaims N]
                   [--noise N] [--names perl|any] [--short-lived] [--pid-base N]
                   [--reclaim-us N]
"""
import argparse
import random
import sys

PERL_SAFE = ["dd", "cc1", "make", "kworker-u8", "java-7", "postgres", "X", "stress-ng-vm"]
ANY_NAMES = ["dd", "kworker/u8:2", "Web Content", "gnome-shell", "python3.11", "a-b-c-9",
             "pg: writer", "tmux: server"]


def build(args):
    rnd = random.Random(args.seed)
    names = PERL_SAFE if args.names == "perl" else ANY_NAMES
    events = []  # (ts_us, cpu, comm, pid, name, fields)
    fmt61 = args.format == "6.1"

    def isolate(ts, cpu, comm, pid, nr, lru):
        if fmt61:
            f = ("isolate_mode=0 classzone=2 order=0 nr_requested=32 nr_scanned=%d "
                 "nr_skipped=0 nr_taken=%d lru=%s" % (nr, nr, lru))
        else:
            f = ("isolate_mode=0 order=0 nr_requested=32 nr_scanned=%d nr_taken=%d "
                 "contig_taken=0 contig_dirty=0 contig_failed=0" % (nr, nr))
        events.append((ts, cpu, comm, pid, "mm_vmscan_lru_isolate", f))

    def write(ts, cpu, comm, pid, file, sync):
        if fmt61:
            f = "page=00000000deadbeef pfn=0x%x flags=RECLAIM_WB_%s|RECLAIM_WB_ASYNC" % (
                rnd.randrange(1 << 20), "FILE" if file else "ANON")
            events.append((ts, cpu, comm, pid, "mm_vmscan_write_folio", f))
        else:
            f = "page=ffffea0000%06x pfn=%d file=%d sync_io=%d" % (
                rnd.randrange(1 << 24), rnd.randrange(1 << 20), file, sync)
            events.append((ts, cpu, comm, pid, "mm_vmscan_writepage", f))

    def shrink(ts, cpu, comm, pid, nr, rec, file):
        if not fmt61:
            return
        fl = "RECLAIM_WB_%s|RECLAIM_WB_ASYNC" % ("FILE" if file else "ANON")
        f = ("nid=0 nr_scanned=%d nr_reclaimed=%d nr_dirty=0 nr_writeback=0 nr_congested=0 "
             "nr_immediate=0 nr_activate_anon=0 nr_activate_file=0 nr_ref_keep=0 "
             "nr_unmap_fail=0 priority=12 flags=%s" % (nr, rec, fl))
        events.append((ts, cpu, comm, pid, "mm_vmscan_lru_shrink_inactive", f))

    def reclaim_body(ts, cpu, comm, pid, end):
        while ts + 40 < end:
            ts += rnd.randrange(5, 40)
            nr = rnd.choice([32, 32, 32, 17, 64])
            file = rnd.random() < 0.6
            lru = "inactive_file" if file else "inactive_anon"
            isolate(ts, cpu, comm, pid, nr, lru)
            if fmt61 and rnd.random() < 0.3:
                ts += 1
                isolate(ts, cpu, comm, pid, nr, "active_file" if file else "active_anon")
            for _ in range(rnd.choice([0, 0, 1, 2])):
                ts += 1
                write(ts, cpu, comm, pid, int(file), int(rnd.random() < 0.2))
            ts += 1
            shrink(ts, cpu, comm, pid, nr, rnd.randrange(0, nr + 1), file)

    # direct reclaimers
    pid = args.pid_base
    fresh = [args.pid_base]  # the next new pid (--short-lived)

    def new_pid():
        fresh[0] += 1
        return fresh[0]

    for t in range(args.tasks):
        comm = names[t % len(names)]
        pid += rnd.randrange(1, 50)
        cpu = rnd.randrange(4)
        ts = 1000000 + rnd.randrange(100000)
        for _ in range(rnd.randrange(1, args.reclaims + 1)):
            ts += rnd.randrange(50, 5000)
            if args.short_lived:
                pid = new_pid()
            for _ in range(rnd.randrange(0, 3)):
                ts += 1
                wpid = new_pid() if args.short_lived else pid
                zid = "" if fmt61 else "zid=%d " % rnd.randrange(3)
                f = "nid=0 %sorder=%d" % (zid, rnd.choice([0, 0, 0, 1, 3]))
                if fmt61:
                    f += " gfp_flags=GFP_HIGHUSER_MOVABLE"
                events.append((ts, cpu, comm, wpid, "mm_vmscan_wakeup_kswapd", f))
            order = rnd.choice([0, 0, 0, 0, 1, 2, 3, 9])
            ts += 1
            if fmt61:
                f = "order=%d gfp_flags=GFP_HIGHUSER_MOVABLE|__GFP_ZERO" % order
            else:
                f = "order=%d may_writepage=1 gfp_flags=GFP_HIGHUSER_MOVABLE" % order
            events.append((ts, cpu, comm, pid, "mm_vmscan_direct_reclaim_begin", f))
            end = ts + rnd.randrange(min(100, args.reclaim_us - 1), args.reclaim_us)
            reclaim_body(ts, cpu, comm, pid, end)
            events.append((end, cpu, comm, pid, "mm_vmscan_direct_reclaim_end",
                           "nr_reclaimed=%d" % rnd.randrange(0, 64)))
            ts = end

    # kswapd threads
    for nid, kpid in ((0, 45), (1, 46)):
        comm = "kswapd%d" % nid
        ts = 1000000 + rnd.randrange(1000)
        for _ in range(args.reclaims * 2):
            ts += rnd.randrange(100, 3000)
            events.append((ts, nid, comm, kpid, "mm_vmscan_kswapd_wake",
                           "nid=%d order=%d" % (nid, rnd.choice([0, 0, 1, 2]))))
            end = ts + rnd.randrange(300, 6000)
            if rnd.random() < 0.3:
                events.append((ts + 50, nid, comm, kpid, "mm_vmscan_kswapd_wake",
                               "nid=%d order=%d" % (nid, rnd.choice([0, 3]))))
                ts += 60
            reclaim_body(ts, nid, comm, kpid, end)
            events.append((end, nid, comm, kpid, "mm_vmscan_kswapd_sleep", "nid=%d" % nid))
            ts = end

    # unrelated events, to be ignored
    for i in range(args.noise):
        ts = 1000000 + rnd.randrange(200000)
        events.append((ts, rnd.randrange(4), "bash", 999, "sched_switch",
                       "prev_comm=bash prev_pid=999 prev_prio=120 prev_state=S ==> "
                       "next_comm=swapper/0 next_pid=0 next_prio=120"))
    events.sort(key=lambda e: (e[0], e[1]))
    return events


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--format", choices=["2010", "6.1"], default="2010")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--tasks", type=int, default=12)
    ap.add_argument("--reclaims", type=int, default=6)
    ap.add_argument("--noise", type=int, default=20)
    ap.add_argument("--names", choices=["perl", "any"], default="perl")
    ap.add_argument("--short-lived", action="store_true",
                    help="a new pid for every direct reclaim and wake-up request")
    ap.add_argument("--pid-base", type=int, default=1000)
    ap.add_argument("--reclaim-us", type=int, default=3000,
                    help="longest direct reclaim (its length in events)")
    args = ap.parse_args()
    out = sys.stdout
    out.write("# tracer: nop\n#\n")
    for ts, cpu, comm, pid, name, fields in build(args):
        task = "%s-%d" % (comm, pid)
        stamp = "%d.%06d" % (ts // 1000000, ts % 1000000)
        if args.format == "6.1":
            out.write("%22s [%03d] ..... %12s: %s: %s\n" % (task, cpu, stamp, name, fields))
        else:
            out.write("%22s [%03d] %12s: %s: %s\n" % (task, cpu, stamp, name, fields))


if __name__ == "__main__":
    main()
