#!/usr/bin/python3
"""Hostile and unusual inputs, each with its expected outcome.

  * valgrind memcheck on real captures (text and trace.dat): no invalid
    access, no definite or indirect leak (exit 0 under --error-exitcode);
  * a FIFO given as input: read as a stream, same result as the file;
  * a million distinct pids: memory stays bounded (--max-tasks rows, the
    rest folded into one "(other tasks)" row, counted in the JSON) and the
    totals stay exact.
(Other hostile inputs -- a 10 MB line, NUL bytes, invalid UTF-8, 64-bit
overflow, negative counts, timestamps going backwards, pid 0 and pid
reuse, unmatched begin/end, an empty file, a directory, binary junk,
corrupt and truncated trace.dat -- are in cli.py, schema.py,
tracedat_corrupt.py and the unit tests.)

usage: hostile.py TOOL SOURCE_DIR WORKDIR
"""
import json
import lzma
import os
import shutil
import subprocess
import sys
import threading

from checks import check, exit_status


def main():
    tool, src, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    fix = os.path.join(src, "fixtures", "6.1", "dirty-swap", "traceonly")
    text = os.path.join(work, "real.txt")
    with lzma.open(os.path.join(fix, "trace.txt.xz")) as s, open(text, "wb") as d:
        shutil.copyfileobj(s, d)
    if shutil.which("valgrind"):
        for path in (text, os.path.join(fix, "trace.dat")):
            r = subprocess.run(["valgrind", "--error-exitcode=99", "--leak-check=full",
                                "--errors-for-leak-kinds=definite,indirect", "--quiet",
                                "--suppressions=" + os.path.join(src, "tests", "e2e",
                                                                 "valgrind.supp"),
                                tool, "--quiet", "--histogram", path],
                               capture_output=True)
            check("valgrind memcheck clean on %s" % os.path.basename(path),
                  r.returncode == 0, r.stderr)
    else:
        check("valgrind is installed", False)

    fifo = os.path.join(work, "fifo")
    if os.path.exists(fifo):
        os.unlink(fifo)
    os.mkfifo(fifo)
    small = os.path.join(src, "fixtures", "handmade", "names.txt")

    def feed():
        with open(fifo, "wb") as f, open(small, "rb") as s:
            f.write(s.read())
    t = threading.Thread(target=feed)
    t.start()
    r = subprocess.run([tool, "-f", "json", fifo], capture_output=True, timeout=30)
    t.join()
    a = json.loads(r.stdout)
    b = json.loads(subprocess.run([tool, "-f", "json", small], capture_output=True).stdout)
    check("a FIFO is read as a stream, like the file",
          r.returncode == 0 and a["totals"] == b["totals"] and a["processes"] == b["processes"])

    # the same FIFO beside a file: what the inputs are is looked at before
    # any is read (merged text or trace.dat), and that look must not open
    # the FIFO (its writer's data would be thrown away, the read hang)
    t = threading.Thread(target=feed)
    t.start()
    r = subprocess.run([tool, "-f", "json", fifo, small], capture_output=True, timeout=30)
    t.join()
    a = json.loads(r.stdout)
    check("a FIFO beside a file is read as a stream too",
          r.returncode == 0 and a["totals"]["direct"]["reclaims"] ==
          2 * b["totals"]["direct"]["reclaims"], r.stderr[-300:])
    # whether the data is lost is a race; that the FIFO is opened once is not
    t = threading.Thread(target=feed)
    t.start()
    trace_log = os.path.join(work, "fifo.strace")
    r = subprocess.run(["strace", "-f", "-e", "trace=open,openat", "-o", trace_log, tool,
                        "-q", "-f", "json", fifo, small], capture_output=True, timeout=60)
    t.join()
    opens = [line for line in open(trace_log) if fifo in line]
    check("the FIFO is opened once, by the read itself (%d opens)" % len(opens),
          r.returncode == 0 and len(opens) == 1, opens)

    # a million distinct pids, each waking kswapd once and reclaiming once
    many = os.path.join(work, "many.txt")
    n = 1000000
    with open(many, "w") as f:
        for pid in range(1, n + 1):
            f.write("  t%d-%d [000] %d.%06d: mm_vmscan_direct_reclaim_begin: order=0\n"
                    "  t%d-%d [000] %d.%06d: mm_vmscan_lru_isolate: nr_scanned=2 nr_taken=2 "
                    "lru=inactive_anon\n"
                    "  t%d-%d [000] %d.%06d: mm_vmscan_direct_reclaim_end: nr_reclaimed=1\n" % (
                        pid, pid, pid // 100000, (pid * 7) % 1000000,
                        pid, pid, pid // 100000, (pid * 7) % 1000000,
                        pid, pid, pid // 100000, (pid * 7) % 1000000))
    r = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", os.path.join(work, "rss"), tool,
                        "--quiet", "-f", "json", "--max-tasks", "50000", many],
                       capture_output=True)
    rss_kib = int(open(os.path.join(work, "rss")).read().split()[-1])
    j = json.loads(r.stdout) if r.returncode == 0 else None
    check("a million pids: exit 0", r.returncode == 0, r.stderr)
    if j:
        t = j["totals"]
        check("a million pids: totals exact (%d reclaims, %d pages)" % (
            t["direct"]["reclaims"], t["direct"]["pages_scanned"]),
            t["direct"]["reclaims"] == n and t["direct"]["pages_scanned"] == 2 * n and
            t["direct"]["reclaims_completed"] == n)
        check("a million pids: 50000 task rows plus one for the rest, which the JSON counts",
              len(j["processes"]) == 50001 and t["tasks_folded"] == n - 50000 and
              any(p["comm"] == "(other tasks)" and p["direct"]["reclaims"] == n - 50000
                  for p in j["processes"]), (len(j["processes"]), t.get("tasks_folded")))
    check("a million pids: peak memory %d MiB, bounded (< 600 MiB)" % (rss_kib // 1024),
          rss_kib < 600 * 1024)
    return exit_status()


if __name__ == "__main__":
    sys.exit(main())
