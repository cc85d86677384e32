#!/usr/bin/python3
"""trace-cmd report's other layouts give the same summary as its default one.

For every real trace.dat under fixtures/{6.1,6.1-mglru,6.12,6.12-mglru}/*/*,
the text of `trace-cmd report -i trace.dat` (the default layout) is
analyzed, then the text of each of these options, which users paste into
bug reports as they are:

  -t          full nanosecond timestamps
  -R          raw: every event's record fields as "k=v" (mm_shrink_slab_*,
              whose print format has labels, too), numbers for names
  -l          latency format: no "[CPU]" column, the CPU and the irq/preempt
              flags one word ("1d..2."), task names cut to 8 bytes
  --ts-diff   "(+delta)" between the timestamp and the event name
  -R -l       the flags as a number ("1-0x24")
  -N          no plugins
  -l -t --ts-diff

and the JSON summaries must be equal, all but:
  * the "input" block (names, sizes; the traits are compared, all but the
    timestamp resolution);
  * with -t, what is computed from timestamps (microseconds against
    nanoseconds: text_vs_dat.py's untimed());
  * with -l, the task names, cut to 8 bytes in both before comparing;
  * with -R, the flushers' passes by reason: a raw reason is a number of
    the recording kernel's enum wb_reason, whose order changed between
    kernels and which the text does not say, so they are counted as
    "other"; their sums over the reasons must still be equal;
  * a task that trace-cmd itself printed as "<...>" in one layout (-N and
    -R do, for some pids of a trace that lost events) takes the default
    layout's name of that pid (text_vs_dat.py's named()).
Every line of every layout must be analyzed or ignored, none rejected, and
the lost-events markers (which trace-cmd prints after the instance's name
too: "dat: CPU:1 [6805 EVENTS DROPPED]") must count the events the
trace.dat itself says were lost.

And the report of two of them at once (`-i a.dat -i b.dat`, whose events
trace-cmd interleaves by time, each file's recorded in the same instance
"dat" here, so its lines do not say the file): its lines analyzed are the
two files' own, traits.report_files is 2 (the "FILE: cpus=N" lines) and a
note says the files were analyzed as one trace; one file's report has
neither.  And the same two files as trace-cmd reports them when they were
recorded in the top buffer, each file's name before its lines (made from
the two reports, "dat:" taken for the file's name): the same note, and
not the note of several buffers (the names are the files').

usage: report_options.py TOOL SOURCE_DIR WORKDIR
"""
import glob
import json
import os
import shutil
import subprocess
import sys

from summary_diff import differences, named, summary, untimed

OPTIONS = [["-t"], ["-R"], ["-l"], ["--ts-diff"], ["-R", "-l"], ["-N"],
           ["-l", "-t", "--ts-diff"]]


def cut_names(doc):
    """task names as trace-cmd report -l prints them (8 bytes), rows re-sorted"""
    for key in ("processes", "kswapd"):
        rows = doc.get(key, [])
        for r in rows:
            r["comm"] = r["comm"].encode()[:8].decode(errors="replace")
        rows.sort(key=lambda r: (r["comm"], r["pid"]))
    return doc


def reasons_summed(doc):
    """the flushers' passes and pages by reason, added up over the reasons"""
    t = doc.get("totals", {})
    wb = t.get("flusher_writeback")
    if isinstance(wb, dict):
        out = {}
        for k in ("passes", "pages"):
            vals = [v[k] for r, v in wb.items() if isinstance(v, dict) and v.get(k) is not None]
            out[k] = sum(vals) if vals else None
        out["unpaired"] = wb.get("unpaired")
        t["flusher_writeback"] = out
    return doc


LOST = ("lines_lost_markers", "events_lost", "lost_markers_without_count")


def report(dat, opts, out):
    with open(out, "wb") as f:
        subprocess.run(["trace-cmd", "report"] + opts + ["-i", dat], stdout=f,
                       stderr=subprocess.DEVNULL, check=True)


def main():
    tool, src, work = sys.argv[1:4]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    if not shutil.which("trace-cmd"):
        print("FAIL trace-cmd is not installed (scripts/install-deps.sh installs it)")
        return 1
    failed = checked = 0
    dats = sorted(m for k in ("6.1", "6.1-mglru", "6.12", "6.12-mglru")
                  for m in glob.glob(os.path.join(src, "fixtures", k, "*", "*", "trace.dat")))
    text = os.path.join(work, "report.txt")
    for dat in dats:
        label = os.path.relpath(os.path.dirname(dat), os.path.join(src, "fixtures"))
        report(dat, [], text)
        want, wsrc = summary(tool, text)
        _, dsrc = summary(tool, dat)
        lost = {k: (wsrc[k], dsrc[k]) for k in LOST if wsrc[k] != dsrc[k]}
        # the buffers the events were recorded in, by the instance names
        # trace-cmd report prints before the lines and by the file's own
        buffers = [s["traits"].get("events_by_buffer") for s in (wsrc, dsrc)]
        if (wsrc["lines_rejected"] or not wsrc["lines_analyzed"] or lost or
                buffers[0] != buffers[1]):
            print("FAIL %s: the default layout: %d lines analyzed, %d rejected; lost "
                  "events (text, trace.dat) %r; events by buffer %r" %
                  (label, wsrc["lines_analyzed"], wsrc["lines_rejected"], lost, buffers))
            failed += 1
            continue
        checked += 1
        print("ok   %s: trace-cmd report: no line rejected, events lost %d and events by "
              "buffer %r as the trace.dat's" % (label, wsrc["events_lost"], buffers[1]))
        for opts in OPTIONS:
            report(dat, opts, text)
            got, gsrc = summary(tool, text)
            a, b = want, got
            named(b, a)
            if "-t" in opts:
                a, b = untimed(a), untimed(b)
            if "-l" in opts:
                a, b = cut_names(json.loads(json.dumps(a))), cut_names(b)
            if "-R" in opts:
                a, b = reasons_summed(json.loads(json.dumps(a))), reasons_summed(b)
            diffs = list(differences(a, b, ("default", "option's")))
            if (gsrc["lines_rejected"] or gsrc["lines_analyzed"] != wsrc["lines_analyzed"] or
                    any(gsrc[k] != wsrc[k] for k in LOST)):
                diffs.insert(0, "lines analyzed %d (default %d), rejected %d, lost %r (default "
                             "%r)" % (gsrc["lines_analyzed"], wsrc["lines_analyzed"],
                                      gsrc["lines_rejected"], [gsrc[k] for k in LOST],
                                      [wsrc[k] for k in LOST]))
            checked += 1
            name = "trace-cmd report %s" % " ".join(opts)
            print("%s %s: %s%s" % ("ok  " if not diffs else "FAIL", label, name,
                                   "" if not diffs else " differs from the default layout:"))
            for line in diffs[:12]:
                print("     " + line)
            failed += bool(diffs)
    # two files in one report
    pair = [d for d in dats if "/highalloc/upstream/" in d][:2]
    if len(pair) == 2:
        with open(text, "wb") as f:
            subprocess.run(["trace-cmd", "report", "-i", pair[0], "-i", pair[1]], stdout=f,
                           stderr=subprocess.DEVNULL, check=True)
        doc = json.loads(subprocess.run([tool, "-f", "json", "-q", text], capture_output=True,
                                        check=True).stdout)
        (src2,) = doc["input"]["sources"]
        each = []
        for d in pair:
            report(d, [], text)
            each.append(summary(tool, text)[1])
        notes = [n for n in doc.get("notes", []) if n.startswith("several_report_files:")]
        ok = (src2["lines_analyzed"] == sum(s["lines_analyzed"] for s in each) and
              src2["lines_rejected"] == 0 and src2["traits"].get("report_files") == 2 and
              len(notes) == 1 and all("report_files" not in s["traits"] for s in each))
        checked += 1
        failed += not ok
        print("%s trace-cmd report -i %s -i %s: %d lines analyzed (the files' own: %r), "
              "report_files %r, the note %s" % (
                  "ok  " if ok else "FAIL",
                  *(os.path.relpath(os.path.dirname(d), os.path.join(src, "fixtures")) for d in pair),
                  src2["lines_analyzed"], [s["lines_analyzed"] for s in each],
                  src2["traits"].get("report_files"), "given" if notes else "missing"))
        # the top buffer's form: "  a.dat: " before every line of a file
        names = ["a-run.dat", "b-run.dat"]
        with open(text, "w", errors="surrogateescape") as out:
            for n in names:
                out.write("%9s: cpus=2\n" % n)
            for n, d in zip(names, pair):
                rep = subprocess.run(["trace-cmd", "report", "-i", d], capture_output=True,
                                     check=True).stdout.decode(errors="surrogateescape")
                for line in rep.splitlines():
                    if line.lstrip().startswith("dat:"):
                        out.write("%9s:%s\n" % (n, line.lstrip()[4:]))
        doc = json.loads(subprocess.run([tool, "-f", "json", "-q", text], capture_output=True,
                                        check=True).stdout)
        keys = [n.split(":")[0] for n in doc.get("notes", [])]
        bufs = doc["input"]["sources"][0]["traits"].get("events_by_buffer")
        ok = ("several_report_files" in keys and "several_buffers" not in keys and
              sorted(bufs or {}) == sorted(names + ["top"]))
        checked += 1
        failed += not ok
        print("%s two top-buffer files in one report: notes %r, events by buffer %r" % (
            "ok  " if ok else "FAIL", keys, bufs))
    os.unlink(text)
    if checked == 0:
        print("FAIL no trace.dat under fixtures/")
        return 1
    print("%d of %d layouts agree" % (checked - failed, checked))
    return 1 if failed else 0


sys.exit(main())
