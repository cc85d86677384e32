#!/usr/bin/python3
"""merge and check on JSON summaries.

merge: a generated 6.1 trace is cut into pieces where no reclaim window is
open and every kswapd is asleep; the summaries of the pieces, merged, must
equal the summary of the whole trace in totals, latency histograms (with
their recomputed percentiles), process rows and kswapd rows, and in the
input counts.  Merging a summary with itself doubles every counter.
check: thresholds that hold pass (exit 0), one that does not fails (exit 8)
naming the measured value, a null field fails as "not measured", a bad
expression is a usage error (exit 2); thresholds also come from a file.
Reading: numbers that are not JSON (NaN, Infinity) or that no summary
holds (1e400, past 2^64 - 1) and a schema_version other than the integer 1
are refused by every reader; a merge past 2^64 - 1 fails.

usage: summaries.py TOOL SOURCE_DIR WORKDIR
"""
import json
import os
import re
import subprocess
import sys

from checks import check, exit_status


EV = re.compile(r"-(\d+)\s+\[\d+\].*?: (mm_vmscan_\w+):")


def quiescent_cuts(lines):
    """Line indexes before which nothing is open."""
    open_win, awake, cuts = {}, set(), []
    for i, l in enumerate(lines):
        if not open_win and not awake and i > 2:
            cuts.append(i)
        m = EV.search(l)
        if not m:
            continue
        pid, name = m.group(1), m.group(2)
        if name.endswith("_reclaim_begin"):
            open_win[pid] = open_win.get(pid, 0) + 1
        elif name.endswith("_reclaim_end"):
            if open_win.get(pid, 0) > 1:
                open_win[pid] -= 1
            else:
                open_win.pop(pid, None)
        elif name == "mm_vmscan_kswapd_wake":
            awake.add(pid)
        elif name == "mm_vmscan_kswapd_sleep":
            awake.discard(pid)
    return cuts


def analyze(tool, path):
    return json.loads(subprocess.run([tool, "-f", "json", "--quiet", path], capture_output=True,
                                     check=True).stdout)


def merge(tool, paths):
    p = subprocess.run([tool, "merge"] + paths, capture_output=True)
    return p.returncode, (json.loads(p.stdout) if p.returncode == 0 else None), p.stderr


def comparable(doc):
    d = dict(doc)
    d["input"] = {k: v for k, v in doc["input"].items() if k != "sources"}
    return {k: d[k] for k in ("input", "totals", "latency", "processes", "kswapd")}


# fixtures/handmade/README.md, reclaim-pages.txt: counted by hand
RP_TOTALS = {"events": 3, "pages_scanned": 832, "pages_reclaimed": 744, "nr_dirty_pages": 52,
             "nr_writeback_pages": 19, "nr_congested_pages": 0, "nr_immediate_pages": 3}
RP_ROWS = {("kdamond.0", 812): [2, 576, 544, 12, 3, 0, 1],
           ("madvise_test", 3300): [1, 256, 200, 40, 16, 0, 2]}


def reclaim_pages(tool, src, work, other):
    """mm_vmscan_reclaim_pages: its totals and rows, kept apart from the
    reclaim contexts, through a summary file read back and merged; absent
    from a summary of a trace without it (other)"""
    def run_check(args):
        return subprocess.run([tool, "check"] + args, capture_output=True)
    fx = os.path.join(src, "fixtures", "handmade", "reclaim-pages.txt")
    d = analyze(tool, fx)
    check("reclaim_pages: the totals are the hand counts",
          d["totals"].get("reclaim_pages") == RP_TOTALS, d["totals"].get("reclaim_pages"))
    rows = {(p["comm"], p["pid"]): list(p["reclaim_pages"].values())
            for p in d["processes"] if "reclaim_pages" in p}
    check("reclaim_pages: each task's row, and only theirs", rows == RP_ROWS, rows)
    check("reclaim_pages: not in the direct context (the dd window's 32 and 30 alone)",
          d["totals"]["direct"]["pages_scanned"] == 32 and
          d["totals"]["direct"]["pages_reclaimed"] == 30 and
          d["totals"]["outside_reclaim"]["pages_scanned"] == 0, d["totals"]["direct"])
    check("reclaim_pages: a line without nr_reclaimed is rejected as missing_field",
          d["input"]["lines_rejected"] == 1 and
          d["input"]["sources"][0]["rejected_by_reason"]["missing_field"] == 1)
    js = os.path.join(work, "reclaim-pages.json")
    with open(js, "w") as f:
        json.dump(d, f)
    rc, twice, err = merge(tool, [js, js])
    check("reclaim_pages: a summary merged with itself doubles totals and rows",
          rc == 0 and twice["totals"].get("reclaim_pages") == {k: 2 * v for k, v in RP_TOTALS.items()}
          and {(p["comm"], p["pid"]): list(p["reclaim_pages"].values())
               for p in twice["processes"] if "reclaim_pages" in p} ==
          {k: [2 * x for x in v] for k, v in RP_ROWS.items()}, err or twice["totals"].get("reclaim_pages"))
    rc, mixed, err = merge(tool, [other, js])
    check("reclaim_pages: merged with a summary without it, its own values",
          rc == 0 and mixed["totals"].get("reclaim_pages") == RP_TOTALS, err)
    check("reclaim_pages: absent from a summary of a trace without the event",
          "reclaim_pages" not in json.load(open(other))["totals"])
    classic = [subprocess.run([tool, x], capture_output=True).stdout for x in (fx, js)]
    part = [c[c.find(b"\nPage-list reclaim ("):c.find(b"\nInput\n")] for c in classic]
    check("reclaim_pages: the report of the summary read back says what the trace's says",
          part[0] == part[1] and b"Page-list reclaim pages reclaimed:\t744" in part[0] and
          classic[0][classic[0].rfind(b"\nPage-list "):] ==
          classic[1][classic[1].rfind(b"\nPage-list "):], part)
    def compare(args):
        return subprocess.run([tool, "compare"] + args, capture_output=True).stdout.decode()
    rows = [l.split() for l in compare([other, js]).splitlines() if l.startswith("Page-list")]
    check("compare: page-list rows, unknown for the input without the event, no '?'",
          rows == [["Page-list", "reclaim", "pages", w, "unknown", n]
                   for w, n in (("scanned", "832"), ("reclaimed", "744"))] and
          "?" not in compare([other, js]), rows)
    cj = json.loads(compare(["-f", "json", other, js]))
    check("compare --format json: their values (null where unknown), no field missing",
          [r["values"] for r in cj["rows"] if r["row"].startswith("Page-list")] ==
          [[None, 832], [None, 744]] and not cj.get("missing"), cj.get("missing"))
    check("compare: no page-list rows when no input has the event",
          "Page-list" not in compare([other, other]) and
          "Page-list" not in compare(["--group", "a=%s,%s" % (other, other),
                                      "--group", "b=%s" % other]))
    g = compare(["--group", "a=%s,%s" % (other, other), "--group", "b=%s,%s" % (js, js)])
    check("compare --group: page-list rows with the runs' mean",
          "744.0" in [l for l in g.splitlines() if l.startswith("Page-list reclaim pages recl")][0]
          if "Page-list" in g else False, g)
    # a task named as a kswapd thread has a kswapd row: its part is there too
    ksw = os.path.join(work, "reclaim-pages-kswapd.txt")
    with open(ksw, "w") as f:
        f.write("         kswapd0-50      [000] .....   119.000000: mm_vmscan_kswapd_wake: nid=0 order=0\n"
                "         kswapd0-50      [000] .....   119.500000: mm_vmscan_reclaim_pages: nid=0 "
                "nr_scanned=100 nr_reclaimed=90 nr_dirty=0 nr_writeback=0 nr_congested=0 "
                "nr_immediate=0 nr_activate_anon=0 nr_activate_file=0 nr_ref_keep=0 nr_unmap_fail=0\n"
                "         kswapd0-50      [000] .....   119.900000: mm_vmscan_kswapd_sleep: nid=0\n")
        f.write(open(fx).read())
    dk = analyze(tool, ksw)
    kj = os.path.join(work, "reclaim-pages-kswapd.json")
    with open(kj, "w") as f:
        json.dump(dk, f)
    rows_sum = lambda doc: sum(r.get("reclaim_pages", {}).get("pages_reclaimed", 0)
                               for r in doc["processes"] + doc["kswapd"])
    rc, twice, err = merge(tool, [kj, kj])
    check("reclaim_pages: the rows add up to the totals, a kswapd row's too, merged as well",
          dk["totals"]["reclaim_pages"]["pages_reclaimed"] == rows_sum(dk) == 834 and rc == 0 and
          twice["totals"]["reclaim_pages"]["pages_reclaimed"] == rows_sum(twice) == 2 * 834,
          (dk["totals"]["reclaim_pages"], rows_sum(dk), err))
    top = subprocess.run([tool, "--top", "1", ksw], capture_output=True).stdout.decode()
    tail = [l.split() for l in top[top.rfind("\nPage-list "):].splitlines()[3:]]
    check("reclaim_pages: --top 1 keeps the task of most pages reclaimed, the rest in one row",
          tail == [["kdamond.0-812", "2", "576", "544", "12", "3"],
                   ["(2", "others)", "2", "356", "290", "40", "16"]], tail)
    path = "totals.reclaim_pages.pages_reclaimed"
    r = run_check(["-t", path + " == 744", fx])
    check("reclaim_pages: check reads its fields", r.returncode == 0, r.stdout + r.stderr)
    r = run_check(["-t", path + " <= 1000", other])
    check("reclaim_pages: check of it on a summary without it fails as not measured",
          r.returncode == 8 and b"absent" in r.stdout, r.stdout)


def not_json_numbers(tool, work, good):
    """Numbers json-c reads but a summary cannot hold (NaN, Infinity, 1e400,
    an integer past 2^64 - 1, 01) and a schema_version other than the integer
    1 are refused by every reader of summaries; a merge whose sum passes
    2^64 - 1 fails instead of wrapping."""
    doc = json.load(open(good))
    P99, REC, VER = "987654321987", "876543218765", "765432187654"  # placeholders
    doc["latency"]["direct_stall_ns"]["p99_ns"] = int(P99)
    doc["totals"]["direct"]["reclaims"] = int(REC)
    doc["schema_version"] = int(VER)
    pattern = json.dumps(doc)
    assert all(pattern.count(x) == 1 for x in (P99, REC, VER))

    def made(p99="1", rec="1", ver="1"):
        return pattern.replace(P99, p99).replace(REC, rec).replace(VER, ver)
    text = made()
    cases = [("NaN", made(p99="NaN")), ("Infinity", made(p99="Infinity")),
             ("-Infinity", made(p99="-Infinity")), ("1e400", made(p99="1e400")),
             ("2^64 + 5", made(rec="18446744073709551621")),
             ("-2^63 - 1", made(p99="-9223372036854775809")),
             ("a leading zero", made(rec="01"))]
    for v in ("1.9", '"1x"', "true", "01"):
        cases.append(("schema_version %s" % v, made(ver=v)))
    for what, t in cases:
        assert t != text, what
        path = os.path.join(work, "bad-number.json")
        with open(path, "w") as f:
            f.write(t)
        runs = {"analysis": [tool, path], "merge": [tool, "merge", good, path],
                "compare": [tool, "compare", good, path],
                "check": [tool, "check", "-t", "latency.direct_stall_ns.p99_ns != 5",
                          "-t", "totals.direct.reclaims > 0", path]}
        for name, argv in runs.items():
            r = subprocess.run(argv, capture_output=True)
            want = 9 if name == "check" else 6
            check("%s of a summary with %s: refused (exit %d) naming it" % (name, what, want),
                  r.returncode == want and path.encode() in r.stderr, (r.returncode, r.stderr))
    with open(os.path.join(work, "bad-number.json"), "w") as f:
        f.write(made(p99="NaN"))
    r = subprocess.run([tool, os.path.join(work, "bad-number.json")], capture_output=True)
    check("a NaN in a summary is told as not JSON, with its line and column",
          b"not valid JSON at line 1, column" in r.stderr and b"NaN" in r.stderr, r.stderr)
    top = os.path.join(work, "max-count.json")
    with open(top, "w") as f:
        f.write(made(rec="18446744073709551615"))
    r = subprocess.run([tool, "check", "-t", "totals.direct.reclaims > 0", top],
                       capture_output=True)
    check("2^64 - 1 is a count a summary holds", r.returncode == 0, r.stderr)
    for argv in ([tool, "merge", top, good], [tool, "merge", good, top], [tool, top, good]):
        r = subprocess.run(argv, capture_output=True)
        check("%s: a sum past 2^64 - 1 fails (exit 6), never wraps" % " ".join(argv[1:2]),
              r.returncode == 6 and b"past 2^64 - 1" in r.stderr and r.stdout == b"",
              (r.returncode, r.stderr, r.stdout[:100]))


def main():
    tool, src, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    whole = os.path.join(work, "whole.txt")
    with open(whole, "w") as f:
        subprocess.run([sys.executable, os.path.join(src, "tests", "e2e", "gentrace.py"),
                        "--format", "6.1", "--names", "any", "--seed", "21", "--tasks", "6",
                        "--reclaims", "4"], stdout=f, check=True)
    lines = open(whole).read().splitlines(True)
    cuts = quiescent_cuts(lines)
    mid = [c for c in cuts if len(lines) // 4 < c < 3 * len(lines) // 4]
    check("the trace has quiescent points to cut at (%d)" % len(mid), len(mid) >= 2)
    pieces = [0, mid[0], mid[-1], len(lines)] if len(mid) >= 2 else [0, len(lines)]
    paths = []
    for i in range(len(pieces) - 1):
        p = os.path.join(work, "piece%d.txt" % i)
        with open(p, "w") as f:
            f.writelines(lines[pieces[i]:pieces[i + 1]])
        paths.append(p)
    jw = analyze(tool, whole)
    jsons = []
    for p in paths:
        jp = p + ".json"
        with open(jp, "w") as f:
            json.dump(analyze(tool, p), f)
        jsons.append(jp)
    rc, merged, err = merge(tool, jsons)
    check("merge of %d pieces exits 0" % len(jsons), rc == 0, err)
    if merged:
        a, b = comparable(merged), comparable(jw)
        for k in a:
            check("merged pieces == whole trace: %s" % k, a[k] == b[k],
                  [x for x in (a[k] if isinstance(a[k], dict) else {})
                   if a[k].get(x) != b[k].get(x)])
        check("merged input lists every source", len(merged["input"]["sources"]) == len(jsons))
    # traces are accepted as inputs too
    rc, merged2, err = merge(tool, paths)
    check("merge of the traces themselves == merge of their summaries",
          rc == 0 and merged and comparable(merged2) == comparable(merged), err)
    rc, twice, _ = merge(tool, [jsons[0], jsons[0]])
    one = json.load(open(jsons[0]))
    check("a summary merged with itself doubles its counters",
          rc == 0 and twice["totals"]["direct"]["pages_scanned"] ==
          2 * one["totals"]["direct"]["pages_scanned"] and
          twice["latency"]["direct_stall_ns"]["count"] ==
          2 * one["latency"]["direct_stall_ns"]["count"] and
          twice["latency"]["direct_stall_ns"]["max_ns"] == one["latency"]["direct_stall_ns"]["max_ns"])
    reclaim_pages(tool, src, work, jsons[0])

    bad = os.path.join(work, "bad.json")
    with open(bad, "w") as f:
        f.write('{"schema": "something-else"}')
    rc, _, err = merge(tool, [jsons[0], bad])
    check("merge refuses a JSON that is not a summary", rc == 6 and b"bad.json" in err, err)

    not_json_numbers(tool, work, jsons[0])
    wrong = os.path.join(work, "wrong-layout.json")
    doc = json.load(open(jsons[0]))
    doc["processes"] = "oops"
    with open(wrong, "w") as f:
        json.dump(doc, f)
    for argv in ([tool, wrong], [tool, "-f", "json", wrong], [tool, jsons[0], wrong]):
        r = subprocess.run(argv, capture_output=True)
        check("%s: a summary of another layout is refused (exit 6) naming it" %
              " ".join(os.path.basename(a) for a in argv[1:]),
              r.returncode == 6 and wrong.encode() in r.stderr, (r.returncode, r.stderr))

    # compare: each cell is its summary's value; names; relative changes
    r = subprocess.run([tool, "compare", "--format", "json", "--name", "first", "--name",
                        "second", jsons[0], jsons[1]], capture_output=True)
    cmp = json.loads(r.stdout) if r.returncode == 0 else {"rows": [], "columns": []}
    rows = {x["row"]: x["values"] for x in cmp["rows"]}
    docs = [json.load(open(p)) for p in jsons[:2]]
    expect = {
        "Direct reclaims": [d["totals"]["direct"]["reclaims"] for d in docs],
        "Kswapd pages scanned": [d["totals"]["kswapd"]["pages_scanned"] for d in docs],
        "Wake kswapd requests": [d["totals"]["wakeup_kswapd_requests"] for d in docs],
        "Time stalled direct reclaim (seconds)":
            [d["totals"]["direct"]["latency_ns"] / 1e9 for d in docs],
        "Direct reclaim efficiency (reclaimed/scanned)":
            [100.0 * d["totals"]["direct"]["pages_reclaimed"] /
             d["totals"]["direct"]["pages_scanned"] for d in docs],
        "Direct share of pages scanned":
            [100.0 * d["totals"]["direct"]["pages_scanned"] /
             (d["totals"]["direct"]["pages_scanned"] + d["totals"]["kswapd"]["pages_scanned"])
             for d in docs],
        "Direct reclaim write file sync I/O": [None, None],  # 6.1: not applicable
    }
    ok = cmp["columns"] == ["first", "second"] and all(
        k in rows and all((a is None and b is None) or (a is not None and b is not None and
                                                         abs(a - b) <= 1e-9 * max(1, abs(b)))
                          for a, b in zip(rows[k], v)) for k, v in expect.items())
    check("compare --format json: every cell is its summary's value", ok,
          {k: (rows.get(k), v) for k, v in expect.items()})
    r = subprocess.run([tool, "compare", "--relative", jsons[0], jsons[1]], capture_output=True,
                       text=True)
    d0, d1 = (d["totals"]["direct"]["reclaims"] for d in docs)
    line = [l for l in r.stdout.splitlines() if l.startswith("Direct reclaims")]
    want = "%d(%+.0f%%)" % (d1, 100.0 * (d1 - d0) / d0)
    check("compare --relative shows the change against the first column (%s)" % want,
          r.returncode == 0 and line and line[0].split()[-1] == want, line)
    check("compare names columns by file name by default",
          os.path.basename(jsons[0]) in r.stdout.splitlines()[0])

    # columns named by the shortest path suffix that tells them apart
    runs = [os.path.join(src, "fixtures", "6.1", "dirty-swap", s, "trace.dat")
            for s in ("upstream", "nodirect")]
    r = subprocess.run([tool, "compare"] + runs, capture_output=True, text=True)
    head = r.stdout.splitlines()[0].split() if r.returncode == 0 else []
    check("compare names run directories' trace.dat by their directory",
          head == ["upstream/trace.dat", "nodirect/trace.dat"], head)
    r = subprocess.run([tool, "compare", "--relative"] + runs, capture_output=True, text=True)
    lines = r.stdout.splitlines()
    ends = set(len(l) for l in lines if l and not l.startswith(("?", "  ")))
    check("compare --relative keeps the columns aligned (every row as wide as the header)",
          r.returncode == 0 and len(ends) == 1, ends)
    # traceonly's direct reclaim wrote 415 file pages, upstream's none
    traceonly = runs[0].replace("upstream", "traceonly")
    r = subprocess.run([tool, "compare", "--relative", runs[0], traceonly], capture_output=True,
                       text=True)
    row = [l for l in r.stdout.splitlines()
           if l.startswith("Direct reclaim write file async I/O")]
    check("compare --relative shows a change from 0 as new",
          row and row[0].split()[-2:] == ["0", "415(new)"], row)

    # check
    def run_check(args):
        return subprocess.run([tool, "check"] + args, capture_output=True)
    r = run_check(["-t", "totals.direct.reclaims > 0", "-t",
                   "totals.direct.writes.anon_async >= 0", whole])
    check("check: thresholds that hold exit 0", r.returncode == 0, r.stdout + r.stderr)
    n = jw["totals"]["direct"]["reclaims"]
    r = run_check(["-t", "totals.direct.reclaims < %d" % n, jsons[0] if False else whole])
    check("check: a violated threshold exits 8 naming the value",
          r.returncode == 8 and ("measured totals.direct.reclaims = %d, bound %d: violated" %
                                 (n, n)).encode() in r.stdout,
          r.stdout)
    r = run_check(["-t", "totals.direct.writes.file_sync == 0", whole])
    check("check: a null field (sync writes on a 6.1 trace) fails as not measured",
          r.returncode == 8 and b"not measured" in r.stdout, r.stdout)
    r = run_check(["-t", "totals.direct.reclaims ~ 3", whole])
    check("check: a bad operator is a usage error", r.returncode == 2, r.stderr)
    r = run_check(["-t", "totals.no.such.field < 3", whole])
    check("check: an unknown field is a usage error naming it", r.returncode == 2 and
          b"totals.no.such.field is not a field of the summary schema" in r.stderr, r.stderr)
    tf = os.path.join(work, "thresholds")
    with open(tf, "w") as f:
        f.write("# CI gate\ntotals.direct.writes.file_async == 0  # no file writes\n"
                "totals.kswapd.writes.file_async <= 0.5 * totals.kswapd.pages_scanned\n\n")
    r = run_check(["--thresholds", tf, jsons[0]])
    check("check: thresholds from a file, on a JSON summary",
          r.returncode in (0, 8) and r.stdout.count(b"\n") == 2, r.stdout)
    return exit_status()


if __name__ == "__main__":
    sys.exit(main())
