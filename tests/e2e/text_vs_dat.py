#!/usr/bin/python3
"""The text decoder and the trace.dat decoder agree: for every real capture
under fixtures/{6.1,6.1-mglru,6.12,6.12-mglru}/*/* (trace.txt.xz and trace.dat of the same run), the two
JSON summaries are identical once what cannot be identical is set aside:

  * the "input" block (file names, sizes, line or record counts, the
    trace.dat recording metadata), except what each decoder tells of the
    kernel from its events: the source's "traits" are compared too, all but
    timestamp_resolution (us for the text clock, ns for trace.dat).  They
    decide the notes and sync_io_applicable: a decoder that does not see
    mm_vmscan_write_folio for what it is makes a 6.1 capture look like an
    older kernel's;
  * fields computed from event timestamps: every period length and its
    histograms (latency_ns, in_progress_ns, awake_ns, awake_in_progress_ns,
    and of the histograms direct_stall_ns, kswapd_awake_ns,
    memcg_reclaim_ns and awake_ns_histogram all but count and
    sub_buckets_log2).  The text clock prints microseconds where trace.dat
    keeps nanoseconds, and each tracefs instance stamps its own copy of an
    event, so the periods differ by a few us (fixtures_vmstat.py bounds
    them).  throttled.*.delayed_ns stays: it is the event's usec_delayed
    field, not a timestamp;
  * a task that trace_pipe printed as "<...>" (it had no name for the pid;
    trace.dat's saved cmdlines may) takes the trace.dat name of that pid.

Everything else, every count, the notes, sync_io_applicable and null vs 0,
must be equal: the two decoders read one event catalogue.

usage: text_vs_dat.py TOOL SOURCE_DIR WORKDIR
"""
import glob
import json
import lzma
import os
import shutil
import subprocess
import sys

from summary_diff import differences, named, summary, untimed


# captures whose text cannot agree, and why
KNOWN = {
    "6.12-mglru/dirty-swap/upstream":
        "trace_pipe names pid 113 'exe', then 'cat', inside one direct reclaim: the text "
        "has two rows for the task where trace.dat has one (the totals agree: "
        "fixtures_vmstat.py compares them)",
}


def main():
    tool, src, work = sys.argv[1:4]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    failed = checked = 0
    for d in sorted(m for k in ("6.1", "6.1-mglru", "6.12", "6.12-mglru")
                    for m in glob.glob(os.path.join(src, "fixtures", k, "*", "*"))):
        dat = os.path.join(d, "trace.dat")
        xz = os.path.join(d, "trace.txt.xz")
        if not (os.path.exists(dat) and os.path.exists(xz)):
            continue
        label = os.path.relpath(d, os.path.join(src, "fixtures"))
        meta = json.load(open(os.path.join(d, "metadata.json")))
        if meta.get("trace_dat_buffer_kb", 16384) != 16384:
            # its trace.dat lost events by design: fixtures_vmstat.py holds it
            # to trace-cmd report and to the kernel's counters instead
            print("skip %s: trace.dat recorded with a %d KiB buffer (events lost)" %
                  (label, meta["trace_dat_buffer_kb"]))
            continue
        if meta.get("text_options"):
            # the kernel's latency formats (kernel/run --text-options): the
            # non-verbose one cuts names to 8 bytes, and trace_pipe names an
            # exec'ing task by each of its names; fixtures_vmstat.py compares
            # such a text with its trace.dat pid by pid, names cut alike
            print("skip %s: text in the kernel's %s format (names differ by design)" %
                  (label, meta["text_options"]))
            continue
        if label in KNOWN:
            print("skip %s: %s" % (label, KNOWN[label]))
            continue
        text = os.path.join(work, "trace.txt")
        with lzma.open(xz) as f, open(text, "wb") as g:
            shutil.copyfileobj(f, g)
        # (the harness records trace.dat in a buffer instance of its own,
        # the text from the top buffer's trace_pipe: their buffers differ)
        drop = ("events_by_buffer",)
        a, b = untimed(summary(tool, text, drop)[0]), untimed(summary(tool, dat, drop)[0])
        os.unlink(text)
        named(a, b)
        diffs = list(differences(a, b, ("text", "trace.dat")))
        checked += 1
        print("%s %s: text and trace.dat summaries%s" % ("ok  " if not diffs else "FAIL", label,
                                                        "" if not diffs else " differ:"))
        for line in diffs[:20]:
            print("     " + line)
        failed += bool(diffs)
    if checked == 0:
        print("FAIL no capture with trace.txt.xz and trace.dat under fixtures/6.1")
        return 1
    print("%d of %d captures agree" % (checked - failed, checked))
    return 1 if failed else 0


sys.exit(main())
