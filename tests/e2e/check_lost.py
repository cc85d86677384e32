#!/usr/bin/python3
"""Lost events reach every verdict of check (issue: fail closed).

With lost events (a count, or unknown), a latency statistic may be other
than measured (the lost events may have been begins or ends of its periods)
and a count is a lower bound: such a threshold is "not measured" (fails
unless --missing=pass), where main let `latency.direct_stall_ns.p99_ns < 1e9`
hold on a capture whose markers counted 102,569 lost events and 19 without
a count.  A count above a number holds still (more events cannot undo it).
A period open at the trace's end is never a fractional-ns stall: the mean of
the open periods' time so far (the longest lasted at least that) is rounded
up to a whole ns (main: max_ns 6.5 on the trace below).

usage: check_lost.py TOOL SOURCE_DIR WORKDIR
"""
import json
import os
import subprocess
import sys
import checks

OPEN = """\
             cat-10      [000] .....     0.900000000: mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=GFP_KERNEL
             cat-10      [000] .....     0.900000005: mm_vmscan_direct_reclaim_end: nr_reclaimed=1
             cat-11      [000] .....     1.000000000: mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=GFP_KERNEL
             cat-12      [001] .....     1.000000001: mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=GFP_KERNEL
             cat-13      [000] .....     1.000000003: mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=GFP_KERNEL
             cat-10      [001] .....     1.000000010: mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=GFP_KERNEL
"""

# a stall of 5 ms, then a marker of 7 lost events (a text trace)
LOST = """\
             cat-10      [000] .....     1.000000: mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=GFP_KERNEL
             cat-10      [000] .....     1.005000: mm_vmscan_direct_reclaim_end: nr_reclaimed=1
CPU:0 [LOST 7 EVENTS]
             cat-10      [000] .....     1.010000: mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=GFP_KERNEL
             cat-10      [000] .....     1.012000: mm_vmscan_direct_reclaim_end: nr_reclaimed=1
"""


def check(tool, path, *args):
    p = subprocess.run([tool, "check", "-f", "json"] + list(args) + [path],
                       capture_output=True, text=True)
    try:
        d = json.loads(p.stdout)
    except ValueError:
        d = {"thresholds": []}
    return p.returncode, d


def main():
    tool, src, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    expect = checks.check

    def verdicts(d):
        return [(t["threshold"], t["verdict"], t["pass"]) for t in d["thresholds"]]

    dat8k = os.path.join(src, "fixtures", "6.1", "dirty-swap", "upstream-dat8k", "trace.dat")
    lost = os.path.join(work, "lost.txt")
    with open(lost, "w") as f:
        f.write(LOST)
    for path in (dat8k, lost):
        name = os.path.basename(path)
        for expr in ("latency.direct_stall_ns.p99_ns < 1e9", "latency.direct_stall_ns.max_ns < 1e12",
                     "latency.direct_stall_ns.count >= 1", "totals.direct.reclaims < 1e9"):
            rc, d = check(tool, path, "-t", expr)
            v = verdicts(d)
            expect("%s: %s" % (name, expr),
                   rc == 8 and v == [(expr, "not measured", False)] and
                   "lost" in d["thresholds"][0]["message"], "exit %s %s" % (rc, v))
            rc, d = check(tool, path, "--missing", "pass", "-t", expr)
            expect("%s: %s --missing pass" % (name, expr),
                   rc == 0 and verdicts(d) == [(expr, "not measured", True)],
                   "exit %s %s" % (rc, verdicts(d)))
        # a count above a number: more events cannot undo it
        expr = "totals.direct.reclaims >= 1"
        rc, d = check(tool, path, "-t", expr)
        expect("%s: %s" % (name, expr), rc == 0 and verdicts(d) == [(expr, "holds", True)],
               "exit %s %s" % (rc, verdicts(d)))

    # no lost events: as before
    cap = os.path.join(src, "fixtures", "6.1", "dirty-swap", "upstream", "trace.dat")
    expr = "latency.direct_stall_ns.p99_ns < 1e9"
    rc, d = check(tool, cap, "-t", expr, "-t", "totals.direct.reclaims < 1e9")
    expect("no lost events", rc == 0 and [x[1] for x in verdicts(d)] == ["holds", "holds"],
           "exit %s %s" % (rc, verdicts(d)))

    # the open periods at the end: 10, 9, 7 and 0 ns so far, a mean of 6.5
    path = os.path.join(work, "open.txt")
    with open(path, "w") as f:
        f.write(OPEN)
    rc, d = check(tool, path, "-t", "latency.direct_stall_ns.max_ns == 7")
    t = d["thresholds"][0] if d["thresholds"] else {}
    expect("open at the end: max_ns a whole ns", rc == 0 and t.get("measured") == 7 and
           "taken as 7" in t.get("message", ""), "exit %s %s" % (rc, t))
    return checks.exit_status()


if __name__ == "__main__":
    sys.exit(main())
