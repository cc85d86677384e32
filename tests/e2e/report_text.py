#!/usr/bin/python3
"""The classic report says what the JSON says, in units a reader can use.

Small traces written here, each with its expected values counted by hand:
  * a 4.5 ms direct reclaim stall prints as 0.0045 seconds (the Perl
    layout's unit, with the digits a short time needs), 2.5 s as 2.50;
  * every note of the JSON summary has its sentence in the classic report
    (lost events with their count, timestamps that went backwards, folded
    tasks, sync I/O not applicable);
  * the row of tasks past --max-tasks is "(other tasks)" with no pid.

usage: report_text.py TOOL SOURCE_DIR WORKDIR
"""
import json
import os
import subprocess
import sys

results = []


def check(name, ok, detail=""):
    results.append(ok)
    print("%s %s%s" % ("ok  " if ok else "FAIL", name, "" if ok else "  " + str(detail)[:600]))


def line(comm, pid, cpu, ts, event, fields):
    return "%16s-%-7d [%03d] ..... %12.6f: %s: %s\n" % (comm, pid, cpu, ts, event, fields)


def run(tool, path, *args):
    p = subprocess.run([tool, "-q"] + list(args) + [path], capture_output=True, text=True)
    return p.returncode, p.stdout


def main():
    tool, src, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)

    # 1. short and long stalls
    short = os.path.join(work, "short.txt")
    with open(short, "w") as f:
        f.write(line("dd", 100, 0, 1.0, "mm_vmscan_direct_reclaim_begin",
                     "order=0 gfp_flags=GFP_KERNEL"))
        f.write(line("dd", 100, 0, 1.0045, "mm_vmscan_direct_reclaim_end", "nr_reclaimed=3"))
    rc, out = run(tool, short)
    check("4.5 ms stall prints as 0.0045 seconds",
          rc == 0 and "Time stalled direct reclaim: \t\t0.0045 seconds" in out, out)
    long_ = os.path.join(work, "long.txt")
    with open(long_, "w") as f:
        f.write(line("dd", 100, 0, 1.0, "mm_vmscan_direct_reclaim_begin",
                     "order=0 gfp_flags=GFP_KERNEL"))
        f.write(line("dd", 100, 0, 3.5, "mm_vmscan_direct_reclaim_end", "nr_reclaimed=3"))
    rc, out = run(tool, long_)
    check("2.5 s stall prints as 2.50 seconds",
          rc == 0 and "Time stalled direct reclaim: \t\t2.50 seconds" in out, out)

    # compare says unknown where the summary has null: begin/end only, no isolations
    p = subprocess.run([tool, "compare", short, long_], capture_output=True, text=True)
    scanned = [l for l in p.stdout.splitlines() if l.startswith("Direct reclaim pages scanned")]
    check("compare shows unknown pages scanned (null in the summary), never 0",
          p.returncode == 0 and bool(scanned) and
          scanned[0].split()[-2:] == ["unknown", "unknown"], p.stdout)

    # 2. every note of the JSON in the text report
    noted = os.path.join(work, "notes.txt")
    with open(noted, "w") as f:
        f.write(line("dd", 100, 0, 2.0, "mm_vmscan_direct_reclaim_begin",
                     "order=0 gfp_flags=GFP_KERNEL"))
        f.write("CPU:1 [LOST 7 EVENTS]\n")
        # the end before its begin: time went backwards
        f.write(line("dd", 100, 0, 1.5, "mm_vmscan_direct_reclaim_end", "nr_reclaimed=1"))
        for pid in (200, 201, 202):
            f.write(line("cat", pid, 1, 3.0, "mm_vmscan_direct_reclaim_begin",
                         "order=0 gfp_flags=GFP_KERNEL"))
            f.write(line("cat", pid, 1, 3.1, "mm_vmscan_direct_reclaim_end", "nr_reclaimed=2"))
        f.write(line("dd", 100, 0, 4.0, "mm_vmscan_write_folio",
                     "page=000000001 pfn=0x1 flags=RECLAIM_WB_ANON|RECLAIM_WB_ASYNC"))
    rc, js = run(tool, noted, "-f", "json", "--max-tasks", "2")
    notes = [n.split(":")[0] for n in json.loads(js)["notes"]]
    rc, out = run(tool, noted, "--max-tasks", "2")
    sentence = {
        "events_lost": "Note: the tracer dropped 7 events",
        "timestamps_went_backwards": "Note: timestamps went backwards 1 times",
        "tasks_folded": "Tasks in (other tasks), past --max-tasks:",
        "sync_io_not_applicable": "Note: this kernel's reclaim writes only asynchronously",
        "scans_missing": "pages scanned are unknown",
        "reclaims_missing": "pages reclaimed are unknown, not 0",
    }
    check("the constructed trace has the four notes",
          set(notes) >= {"events_lost", "timestamps_went_backwards", "tasks_folded",
                         "sync_io_not_applicable", "scans_missing", "reclaims_missing"}, notes)
    # no lru_isolate, no lru_shrink_inactive: unknown, never 0; the end events' sum apart
    check("pages scanned and reclaimed unknown in the Summary",
          "Direct reclaim pages scanned:\t\tunknown" in out
          and "Direct reclaim pages reclaimed:\t\tunknown" in out
          and "Direct reclaim pages reclaimed (from end events):\t7" in out, out)
    d = json.loads(js)["totals"]["direct"]
    check("pages scanned and reclaimed null in JSON, end events' sum given",
          d["pages_scanned"] is None and d["pages_scanned_anon"] is None
          and d["pages_reclaimed"] is None and d["end_nr_reclaimed_pages"] == 7, d)
    for n in notes:
        check("note %s in the classic report" % n, n in sentence and sentence[n] in out,
              out[-800:])

    # 3. the overflow row
    rows = [l for l in out.splitlines() if l.startswith("(other tasks)")]
    check("(other tasks) row has no pid", bool(rows) and all(not l.startswith("(other tasks)-")
                                                       for l in rows), rows)

    passed = sum(results)
    print("%d passed, %d failed" % (passed, len(results) - passed))
    return 0 if passed == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
