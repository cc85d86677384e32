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

from checks import check, exit_status


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

    # 4. a lost-event marker that says no number: how many were lost is unknown
    dropped = os.path.join(work, "dropped.txt")
    with open(dropped, "w") as f:
        f.write(line("dd", 100, 0, 2.0, "mm_vmscan_direct_reclaim_begin",
                     "order=0 gfp_flags=GFP_KERNEL"))
        f.write("CPU:1 [LOST 7 EVENTS]\n")
        f.write("CPU:0 [EVENTS DROPPED]\n")
        # (the kernel's trace file, a writer having overrun the reader)
        f.write("CPU:1 [LOST EVENTS]\n")
        f.write(line("dd", 100, 0, 2.5, "mm_vmscan_direct_reclaim_end", "nr_reclaimed=1"))
    rc, js = run(tool, dropped, "-f", "json")
    d = json.loads(js)
    src = d["input"]["sources"][0]
    check("a marker without a number: input.events_lost null, the markers' own counts kept",
          rc == 0 and d["input"]["events_lost"] is None and src["events_lost"] == 7 and
          src["lost_markers_without_count"] == 2 and d["input"]["lines_lost_markers"] == 3,
          d["input"])
    check("... its note, not the counted one's",
          [n.split(":")[0] for n in d["notes"] if n.startswith("events_lost")] ==
          ["events_lost_unknown"], d["notes"])
    rc, out = run(tool, dropped)
    check("... the classic report says unknown, and why",
          "Events lost by the tracer:\t\tunknown" in out and
          "Note: 2 lost-event markers say no number: the tracer dropped events, how many is "
          "unknown; every count above is a lower bound." in out, out[-600:])
    # read back, merged with a summary that lost nothing: still unknown
    jd = os.path.join(work, "dropped.json")
    with open(jd, "w") as f:
        f.write(js)
    rc, out = run(tool, jd)
    check("... the classic report of its JSON summary says unknown",
          "Events lost by the tracer:\t\tunknown" in out, out[-600:])
    rc, js2 = run(tool, noted, "-f", "json")
    jn = os.path.join(work, "noted.json")
    with open(jn, "w") as f:
        f.write(js2)
    m = subprocess.run([tool, "merge", jn, jd], capture_output=True, text=True)
    mi = json.loads(m.stdout)["input"] if m.returncode == 0 else {}
    check("... merged with a summary whose markers said 7: null, the sources' 7 and 7 kept",
          mi.get("events_lost", 0) is None and
          [x["events_lost"] for x in mi["sources"]] == [7, 7], m.stderr or mi)
    # a gate on it fails closed
    p = subprocess.run([tool, "check", "-t", "input.events_lost == 0", jd],
                       capture_output=True, text=True)
    check("... check 'input.events_lost == 0' fails on it", p.returncode != 0, p.stdout)

    # 5. a write event whose line is rejected: the write counts are unknown
    bare = os.path.join(work, "bare-write.txt")
    with open(bare, "w") as f:
        f.write(line("dd", 100, 0, 3.0, "mm_vmscan_direct_reclaim_begin",
                     "order=0 gfp_flags=GFP_KERNEL"))
        f.write(line("dd", 100, 0, 3.1, "mm_vmscan_write_folio",
                     "flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC"))
        f.write(line("dd", 100, 0, 3.2, "mm_vmscan_write_folio", ""))  # (no fields)
        f.write(line("dd", 100, 0, 3.5, "mm_vmscan_direct_reclaim_end", "nr_reclaimed=1"))
    rc, js = run(tool, bare, "-f", "json")
    d = json.loads(js)
    w = d["totals"]["direct"]["writes"]
    check("a write line rejected: the write counts null, the note and the trait say why",
          w["file_async"] is None and w["anon_async"] is None and
          d["processes"][0]["direct"]["writes"]["file_async"] is None and
          d["input"]["sources"][0]["traits"].get("writes_rejected") == 1 and
          any(n.startswith("writes_unknown:") for n in d["notes"]), (w, d["notes"]))
    rc, out = run(tool, bare)
    check("... the classic report says unknown",
          "Direct reclaim write file async I/O:\tunknown" in out and
          "Note: 1 lines of write events (writepage, write_folio) were rejected" in out,
          out[-700:])
    p = subprocess.run([tool, "check", "-t", "totals.direct.writes.file_async == 0", bare],
                       capture_output=True, text=True)
    check("... check 'totals.direct.writes.file_async == 0' fails on it", p.returncode == 8,
          p.stdout)
    jb = os.path.join(work, "bare-write.json")
    with open(jb, "w") as f:
        f.write(js)
    m = subprocess.run([tool, "merge", jb, jd], capture_output=True, text=True)
    mw = json.loads(m.stdout)["totals"]["direct"]["writes"] if m.returncode == 0 else {}
    check("... merged with a summary that knows its writes: still unknown",
          mw.get("file_async", 0) is None, m.stderr or mw)

    # 5b. merged pieces keep what analysing them together knows: a piece
    # without writes (pages null) and one with nr_pages; a kernel that can
    # write synchronously and one that cannot
    pieces = {
        "pages-a": [("kswapd0", 45, 1.0, "mm_vmscan_kswapd_wake", "nid=0 order=0"),
                    ("kswapd0", 45, 1.1, "mm_vmscan_write_folio",
                     "page=0 pfn=0x1 nr_pages=4 flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC"),
                    ("kswapd0", 45, 1.2, "mm_vmscan_kswapd_sleep", "nid=0")],
        "pages-b": [("kswapd0", 45, 2.0, "mm_vmscan_kswapd_wake", "nid=0 order=0"),
                    ("kswapd0", 45, 2.2, "mm_vmscan_kswapd_sleep", "nid=0")],
        "sync-c": [("kswapd0", 45, 3.0, "mm_vmscan_kswapd_wake", "nid=0 order=0"),
                   ("kswapd0", 45, 3.1, "mm_vmscan_writepage",
                    "page=0 pfn=1 flags=RECLAIM_WB_FILE|RECLAIM_WB_SYNC"),
                   ("kswapd0", 45, 3.2, "mm_vmscan_kswapd_sleep", "nid=0")],
        "sync-d": [("kswapd0", 45, 4.0, "mm_vmscan_kswapd_wake", "nid=0 order=0"),
                   ("kswapd0", 45, 4.1, "mm_vmscan_write_folio",
                    "page=0 pfn=0x1 flags=RECLAIM_WB_ANON|RECLAIM_WB_ASYNC"),
                   ("kswapd0", 45, 4.2, "mm_vmscan_kswapd_sleep", "nid=0")],
    }
    js = {}
    for name, lines in pieces.items():
        path = os.path.join(work, name + ".txt")
        with open(path, "w") as f:
            for comm, pid, ts, ev, fields in lines:
                f.write(line(comm, pid, 0, ts, ev, fields))
        jpath = os.path.join(work, name + ".json")
        with open(jpath, "w") as f:
            f.write(run(tool, path, "-f", "json")[1])
        js[name] = (path, jpath)
    for a, b, key in (("pages-a", "pages-b", "pages"), ("sync-c", "sync-d", "file_sync")):
        both = os.path.join(work, a + "+" + b + ".txt")
        with open(both, "w") as f:
            f.write(open(js[a][0]).read() + open(js[b][0]).read())
        whole = json.loads(run(tool, both, "-f", "json")[1])["totals"]["kswapd"]["writes"]
        m = subprocess.run([tool, "merge", js[a][1], js[b][1]], capture_output=True, text=True)
        mw = json.loads(m.stdout)["totals"]["kswapd"]["writes"] if m.returncode == 0 else {}
        check("merge of %s and %s: writes.%s as analysing them together gives (%s)" % (
              a, b, key, whole[key]), whole[key] is not None and mw.get(key) == whole[key],
              (whole, mw, m.stderr))

    # 5c. a summary whose trace had no lru_isolate merged with one that had:
    # pages scanned unknown everywhere, as its pages_scanned_known says
    scan = {"scan-a": [("dd", 100, 5.0, "mm_vmscan_direct_reclaim_begin", "order=0"),
                       ("dd", 100, 5.1, "mm_vmscan_lru_isolate",
                        "isolate_mode=0 classzone=1 order=0 nr_requested=32 nr_scanned=32 "
                        "nr_skipped=0 nr_taken=32 lru=inactive_file"),
                       ("dd", 100, 5.2, "mm_vmscan_direct_reclaim_end", "nr_reclaimed=3")],
            "scan-b": [("cc", 101, 6.0, "mm_vmscan_direct_reclaim_begin", "order=0"),
                       ("cc", 101, 6.2, "mm_vmscan_direct_reclaim_end", "nr_reclaimed=3")]}
    for name, lines in scan.items():
        path = os.path.join(work, name + ".txt")
        with open(path, "w") as f:
            for comm, pid, ts, ev, fields in lines:
                f.write(line(comm, pid, 0, ts, ev, fields))
        with open(os.path.join(work, name + ".json"), "w") as f:
            f.write(run(tool, path, "-f", "json")[1])
    m = subprocess.run([tool, "merge", os.path.join(work, "scan-a.json"),
                        os.path.join(work, "scan-b.json")], capture_output=True, text=True)
    md = json.loads(m.stdout) if m.returncode == 0 else {}
    t = md.get("totals", {})
    check("merged with a summary of no lru_isolate: pages scanned null in totals and rows",
          t.get("pages_scanned_known") is False and
          t["direct"]["pages_scanned"] is None and t["direct"]["pages_scanned_file"] is None and
          all(r["direct"]["pages_scanned"] is None for r in md["processes"]),
          m.stderr or t.get("direct"))

    # 6. integer timestamps (trace_clock counter, x86-tsc, uptime; trace-cmd
    # report --raw-ts): taken as ns, and said so
    ints = os.path.join(work, "integer-ts.txt")
    with open(ints, "w") as f:
        f.write(line("dd", 100, 0, 3.0, "mm_vmscan_direct_reclaim_begin",
                     "order=0 gfp_flags=GFP_KERNEL").replace("3.000000:", "101:"))
        f.write(line("dd", 100, 0, 3.5, "mm_vmscan_direct_reclaim_end",
                     "nr_reclaimed=1").replace("3.500000:", "104:"))
    rc, js = run(tool, ints, "-f", "json")
    d = json.loads(js)
    check("integer timestamps: taken as ns (a stall of 3), the trait and the note say so",
          d["totals"]["direct"]["latency_ns"] == 3 and
          d["input"]["sources"][0]["traits"].get("timestamps_integer") == 2 and
          any(n.startswith("timestamps_integer:") for n in d["notes"]), (d["notes"], js[:300]))
    rc, out = run(tool, ints)
    check("... the classic report's note", "Note: 2 lines have integer timestamps" in out,
          out[-500:])
    rc, js = run(tool, bare, "-f", "json")
    check("... not for timestamps with a fraction",
          not any(n.startswith("timestamps_integer:") for n in json.loads(js)["notes"]), js[:200])

    return exit_status()


if __name__ == "__main__":
    sys.exit(main())
