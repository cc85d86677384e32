#!/usr/bin/python3
"""compare with columns of repeated runs: mean ± sd and Welch's t-test.

The runs are perturbed copies of real 6.1 summaries (the dirty-swap
fixtures' upstream and nodirect trace.dat): every number under totals and
latency, and the duration, times a factor within ±8% drawn from a seeded
generator; one run's p99 is null.  The columns come in each layout a
directory can have (runs/<N>/summary.json with vmstat files beside, a
directory of *.json, a run directory), a --group list and a single file.
--svg draws the same values (data-* attributes).
Each row's per-run values are computed here from the summaries (the rows
restated from src/summary_fields.c), the means and sds with Python's
statistics module and the test with SciPy's ttest_ind(equal_var=False):
the JSON cells must equal them, and the table must print the same mean,
sd, (k/n) and runs count, with '*' exactly where SciPy's p < 0.05.

usage: compare_runs.py TOOL SOURCE_DIR WORKDIR
"""
import json
import math
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import warnings
import xml.etree.ElementTree as ET

from scipy import stats

from checks import check, exit_status


D, K, T = "totals.direct.", "totals.kswapd.", "totals."
# (label, format, numerator paths, denominator paths): compare's rows
ROWS = [
    ("Direct reclaims", "count", [D + "reclaims"], []),
    ("Direct reclaim pages scanned", "count", [D + "pages_scanned"], []),
    ("Direct reclaim write file async I/O", "count", [D + "writes.file_async"], []),
    ("Direct reclaim write anon async I/O", "count", [D + "writes.anon_async"], []),
    ("Direct reclaim write file sync I/O", "count", [D + "writes.file_sync"], []),
    ("Direct reclaim write anon sync I/O", "count", [D + "writes.anon_sync"], []),
    ("Wake kswapd requests", "count", [T + "wakeup_kswapd_requests"], []),
    ("Kswapd wakeups", "count", [K + "wakeups"], []),
    ("Kswapd pages scanned", "count", [K + "pages_scanned"], []),
    ("Kswapd reclaim write file async I/O", "count", [K + "writes.file_async"], []),
    ("Kswapd reclaim write anon async I/O", "count", [K + "writes.anon_async"], []),
    ("Kswapd reclaim write file sync I/O", "count", [K + "writes.file_sync"], []),
    ("Kswapd reclaim write anon sync I/O", "count", [K + "writes.anon_sync"], []),
    ("Time stalled direct reclaim (seconds)", "seconds", [D + "latency_ns"], []),
    ("Time kswapd awake (seconds)", "seconds", [K + "awake_ns"], []),
    ("Direct reclaim pages reclaimed", "count", [D + "pages_reclaimed"], []),
    ("Kswapd pages reclaimed", "count", [K + "pages_reclaimed"], []),
    ("Flusher wake-ups from reclaim", "count", [T + "flusher_wakeups.all_dirty.count",
                                                T + "flusher_wakeups.flush_forward.count"], []),
    ("  pages requested (flush forward)", "count",
     [T + "flusher_wakeups.flush_forward.requested_pages"], []),
    ("Flusher pages written for reclaim", "count", [T + "flusher_writeback.vmscan.pages"], []),
    ("Throttled writeback (seconds)", "seconds", [T + "throttled.writeback.delayed_ns"], []),
    ("Throttled isolated (seconds)", "seconds", [T + "throttled.isolated.delayed_ns"], []),
    ("Throttled noprogress (seconds)", "seconds", [T + "throttled.noprogress.delayed_ns"], []),
    ("Throttled congested (seconds)", "seconds", [T + "throttled.congested.delayed_ns"], []),
    ("Memcg reclaims", "count", [T + "memcg.reclaims", T + "memcg_softlimit.reclaims"], []),
    ("Memcg reclaim pages scanned", "count", [T + "memcg.pages_scanned",
                                              T + "memcg_softlimit.pages_scanned"], []),
    ("Direct stall p50 (ms)", "msec", ["latency.direct_stall_ns.p50_ns"], []),
    ("Direct stall p99 (ms)", "msec", ["latency.direct_stall_ns.p99_ns"], []),
    ("Direct stall max (ms)", "msec", ["latency.direct_stall_ns.max_ns"], []),
    ("Direct reclaim efficiency (reclaimed/scanned)", "percent", [D + "pages_reclaimed"],
     [D + "pages_scanned"]),
    ("Kswapd reclaim efficiency (reclaimed/scanned)", "percent", [K + "pages_reclaimed"],
     [K + "pages_scanned"]),
    ("Scan velocity (pages scanned/s)", "rate", [D + "pages_scanned", K + "pages_scanned"],
     ["input.duration_ns"]),
    ("Direct share of pages scanned", "percent", [D + "pages_scanned"],
     [D + "pages_scanned", K + "pages_scanned"]),
    ("File pages written per page scanned", "percent",
     [D + "writes.file_async", K + "writes.file_async"], [D + "pages_scanned", K + "pages_scanned"]),
]


def get(doc, path):
    for k in path.split("."):
        doc = doc[k]
    return doc


def total(doc, paths):
    """The sum, None if a field is null; and whether a null is one the trace cannot tell."""
    vals = [get(doc, p) for p in paths]
    unknown = any(v is None and not p.endswith("_sync") for v, p in zip(vals, paths))
    return (None if any(v is None for v in vals) else float(sum(vals))), unknown


def row_value(doc, fmt, num, den):
    """(value in the printed unit or None, unknown)"""
    n, unknown = total(doc, num)
    if fmt in ("percent", "rate"):
        d, u2 = total(doc, den)
        unknown = unknown or u2
        if fmt == "rate":
            d = d / 1e9 if d is not None else None
        if n is None or d is None or d <= 0:
            return None, unknown
        return (100.0 * n / d if fmt == "percent" else n / d), unknown
    if n is None:
        return None, unknown
    return n / {"seconds": 1e9, "msec": 1e6}.get(fmt, 1), unknown


def welch(a, b):
    """t, df, p of b's mean against a's (None when not tested), as documented."""
    if len(a) < 2 or len(b) < 2:
        return None, None, None
    va, vb = statistics.variance(a) / len(a), statistics.variance(b) / len(b)
    if va + vb == 0:
        diff = statistics.fmean(b) - statistics.fmean(a)
        return (0.0 if diff == 0 else math.copysign(math.inf, diff)), None, \
            (1.0 if diff == 0 else 0.0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = stats.ttest_ind(b, a, equal_var=False)
    df = (va + vb) ** 2 / (va ** 2 / (len(a) - 1) + vb ** 2 / (len(b) - 1))
    return float(r.statistic), df, float(r.pvalue)


def perturb(doc, seed):
    """A copy with every number under totals and latency, and the duration, times 1 ± 8%."""
    rng = random.Random(seed)
    out = json.loads(json.dumps(doc))

    def walk(o):
        for k, v in list(o.items()) if isinstance(o, dict) else enumerate(o):
            if isinstance(v, bool) or v is None:
                continue
            if isinstance(v, (int, float)):
                f = 1 + rng.uniform(-0.08, 0.08)
                o[k] = int(round(v * f)) if isinstance(v, int) else v * f
            elif isinstance(v, (dict, list)):
                walk(v)
    walk(out["totals"])
    walk(out["latency"])
    out["input"]["duration_ns"] = int(out["input"]["duration_ns"] * (1 + rng.uniform(-0.08, 0.08)))
    return out


def fmt_num(fmt, v):
    if fmt == "percent":
        return "%.2f%%" % v
    return ("%.1f" if fmt in ("count", "rate") else "%.2f") % v


def parse_row(rest):
    """A table row's cells after the label: (mean, sd, marked, tail) or (word, None, False, None)."""
    toks, cells, i = rest.split(), [], 0
    while i < len(toks):
        if i + 2 < len(toks) and toks[i + 1] == "±":
            mean = toks[i]
            m = re.match(r"^([^*(]+)(\*?)(\(\d+/\d+\))?$", toks[i + 2])
            tail = m.group(3)
            i += 3
            if not tail and i < len(toks) and re.match(r"^\(\d+/\d+\)$", toks[i]):
                tail = toks[i]
                i += 1
            cells.append((mean, m.group(1), m.group(2) == "*", tail))
        else:
            cells.append((toks[i], None, False, None))
            i += 1
    return cells


def run(tool, args):
    return subprocess.run([tool, "compare"] + args, capture_output=True, text=True)


def main():
    tool, src, wd = sys.argv[1:4]
    shutil.rmtree(wd, ignore_errors=True)
    os.makedirs(wd)
    base = {}
    for s in ("upstream", "nodirect"):
        p = subprocess.run([tool, "-q", "-f", "json", os.path.join(
            src, "fixtures", "6.1", "dirty-swap", s, "trace.dat")], capture_output=True, check=True)
        base[s] = json.loads(p.stdout)
        with open(os.path.join(wd, s + ".json"), "w") as f:
            json.dump(base[s], f)

    def write(path, doc):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            json.dump(doc, f)
        return path

    # column 1: runs/<N>/summary.json, N = 1, 2, 3, 10 (natural order), vmstat files beside
    up = [perturb(base["upstream"], seed) for seed in (1, 2, 3, 4)]
    updir = os.path.join(wd, "upstream")
    for n, doc in zip((1, 2, 3, 10), up):
        write(os.path.join(updir, "runs", str(n), "summary.json"), doc)
        with open(os.path.join(updir, "runs", str(n), "vmstat.delta"), "w") as f:
            f.write("pgscan_direct 1\n")
    with open(os.path.join(updir, "runs", "README"), "w") as f:
        f.write("not a run\n")
    # column 2: a directory of *.json summaries; one run's p99 is null (3/4)
    nd = [perturb(base["nodirect"], seed) for seed in (5, 6, 7, 8)]
    nd[2]["latency"]["direct_stall_ns"]["p99_ns"] = None
    nddir = os.path.join(wd, "nodirect")
    for i, doc in enumerate(nd):
        write(os.path.join(nddir, "run-%d.json" % (i + 1)), doc)
    # column 3: --group, upstream again (mostly no difference), one a run directory
    again = [perturb(base["upstream"], seed) for seed in (9, 10, 11)]
    gpaths = [write(os.path.join(wd, "again", "a%d.json" % i), d) for i, d in enumerate(again[:2])]
    gpaths.append(os.path.dirname(write(os.path.join(wd, "again", "rundir", "summary.json"),
                                        again[2])))
    # column 4: one file (n = 1)
    single = os.path.join(wd, "upstream.json")
    cols = [("upstream", up), ("nodirect", nd), ("upstream.json", [base["upstream"]]),
            ("again", again)]
    args = [updir, nddir, single, "--group", "again=" + ",".join(gpaths)]

    # what each cell must be
    expect = {}
    for label, fmt, num, den in ROWS:
        vals = [[row_value(d, fmt, num, den) for d in docs] for _, docs in cols]
        have = [[v for v, _ in c if v is not None] for c in vals]
        cells = []
        for ci, (c, h) in enumerate(zip(vals, have)):
            t, df, p = welch(have[0], h) if ci else (None, None, None)
            cells.append({"values": [v for v, _ in c], "have": h, "unknown": any(u for _, u in c),
                          "t": t, "df": df, "p": p, "sig": p is not None and p < 0.05})
        expect[label] = (fmt, cells)

    # JSON
    r = run(tool, ["-f", "json"] + args)
    check("compare -f json with columns of runs exits 0", r.returncode == 0, r.stderr)
    doc = json.loads(r.stdout) if r.returncode == 0 else {"rows": [], "columns": []}
    check("JSON columns: names and runs",
          doc.get("columns") == [{"name": n, "runs": len(d)} for n, d in cols], doc.get("columns"))
    check("JSON names the test", doc.get("test") == {"name": "welch", "sides": 2, "alpha": 0.05,
                                                    "against": "upstream"}, doc.get("test"))

    def near(a, b, rel=1e-9, ab=0.0):
        if a is None or b is None:
            return a is None and b is None
        return abs(a - b) <= max(rel * abs(b), ab)

    bad = []
    for row in doc["rows"]:
        fmt, cells = expect[row["row"]]
        for ci, (got, want) in enumerate(zip(row["columns"], cells)):
            h = want["have"]
            ok = (got["n"] == len(h) and got["values"] == want["values"] and
                  near(got["mean"], statistics.fmean(h) if h else None) and
                  near(got["sd"], statistics.stdev(h) if len(h) > 1 else None, 1e-9, 1e-9) and
                  near(got["min"], min(h) if h else None) and
                  near(got["max"], max(h) if h else None) and
                  near(got["t"], want["t"] if want["t"] is None or math.isfinite(want["t"])
                       else None, 1e-7) and
                  near(got["df"], want["df"], 1e-7) and
                  near(got["p"], want["p"], 1e-6, 1e-12) and
                  got["significant"] == want["sig"])
            if not ok:
                bad.append((row["row"], ci, got, want))
    check("JSON: every cell's n, mean, sd, min, max, values, t, df, p and significance as "
          "computed here (statistics, SciPy)", not bad and len(doc["rows"]) == len(ROWS), bad[:2])
    sig = sum(c["sig"] for _, cs in expect.values() for c in cs)
    tested = sum(c["p"] is not None for _, cs in expect.values() for c in cs)
    check("the data has significant and insignificant differences (%d of %d tested)" % (sig, tested),
          0 < sig < tested)
    p99 = next(r for r in doc["rows"] if r["row"] == "Direct stall p99 (ms)")["columns"][1]
    check("a null in one run is left out, not taken as 0 (p99: n 3 of 4, values has null)",
          p99["n"] == 3 and p99["values"][2] is None and p99["min"] > 0, p99)

    # the table
    r = run(tool, args)
    check("compare with columns of runs exits 0", r.returncode == 0, r.stderr)
    lines = r.stdout.splitlines()
    check("header: the column names", lines and lines[0].split() == [n for n, _ in cols], lines[:1])
    check("a runs row: each column's number of runs",
          len(lines) > 1 and lines[1].split() == ["runs"] + [str(len(d)) for _, d in cols],
          lines[1:2])
    bad, marks = [], 0
    seen = set()
    for line in lines[2:]:
        label = line[:46].rstrip()
        if label not in expect:
            continue
        seen.add(label)
        fmt, cells = expect[label]
        got = parse_row(line[46:])
        want = []
        for c, (_, docs) in zip(cells, cols):
            h = c["have"]
            if not h:
                want.append(("unknown" if c["unknown"] else "-", None, False, None))
                continue
            mean = sum(h) / len(h)
            sd = math.sqrt(sum((x - mean) ** 2 for x in h) / (len(h) - 1)) if len(h) > 1 else None
            want.append((fmt_num(fmt, mean), fmt_num(fmt, sd) if sd is not None else "n/a",
                         c["sig"], "(%d/%d)" % (len(h), len(docs)) if len(h) < len(docs) else None))
        marks += sum(g[2] for g in got)
        if got != want:
            bad.append((label, got, want))
    check("table: every cell's mean ± sd and (k/n), and '*' exactly where SciPy's p < 0.05 "
          "(%d marked)" % marks, not bad and seen == set(expect) and marks == sig, bad[:2])
    pos = set()
    for line in lines:
        if line[:46].rstrip() in expect:
            pos.update(m.start() for m in re.finditer("±", line))
    check("the ± signs are aligned down each column", len(pos) == len(cols), sorted(pos))
    check("the legend names the test", "Welch's t-test, two-sided, p < 0.05" in r.stdout)

    # --svg: each run a dot with its value, each mean a bar, '*' where significant
    svg = os.path.join(wd, "runs.svg")
    r = run(tool, ["--svg", svg] + args)
    root = ET.parse(svg).getroot() if r.returncode == 0 else ET.Element("svg")
    ns = "{http://www.w3.org/2000/svg}"
    bad, drawn = [], 0
    for row in doc["rows"]:
        g = root.find("%sg[@data-row='%s']" % (ns, row["row"]))
        if all(c["n"] == 0 for c in row["columns"]):
            if g is not None:
                bad.append((row["row"], "drawn without a value"))
            continue
        if g is None:
            bad.append((row["row"], "not drawn"))
            continue
        for ci, c in enumerate(row["columns"]):
            dots = sorted(float(e.get("data-value")) for e in g.findall(ns + "circle")
                          if e.get("data-col") == str(ci))
            means = [float(e.get("data-mean")) for e in g.findall(ns + "line")
                     if e.get("data-col") == str(ci)]
            stars = [e for e in g.findall(ns + "text") if e.get("data-col") == str(ci)
                     and e.text == "*"]
            want = sorted(v for v in c["values"] if v is not None)
            drawn += len(dots)
            if (len(dots) != len(want) or any(abs(a - b) > 1e-9 * max(1, abs(b))
                                               for a, b in zip(dots, want)) or
                    len(means) != (1 if c["n"] else 0) or
                    (means and abs(means[0] - c["mean"]) > 1e-9 * max(1, abs(c["mean"]))) or
                    len(stars) != (1 if c["significant"] else 0)):
                bad.append((row["row"], ci, dots, want, means, c["mean"], len(stars)))
    check("--svg: every run's value a dot, every mean a bar, '*' where significant (%d dots)"
          % drawn, r.returncode == 0 and not bad and drawn > 0, bad[:2])
    r = run(tool, ["--svg", single] + args)
    check("--svg onto an input is refused", r.returncode == 2 and "also an input" in r.stderr,
          r.stderr)

    # --relative: each mean's change against the first column's
    r = run(tool, ["--relative"] + args)
    row = [l for l in r.stdout.splitlines() if l.startswith("Direct reclaims")]
    h0, h1 = expect["Direct reclaims"][1][0]["have"], expect["Direct reclaims"][1][1]["have"]
    m0, m1 = sum(h0) / len(h0), sum(h1) / len(h1)
    want = "%.1f(%+.0f%%)" % (m1, 100.0 * (m1 - m0) / m0)
    check("--relative: the change of the means (%s)" % want,
          row and parse_row(row[0][46:])[1][0] == want, row)

    # a run directory without runs/ (a capture directory): one run each, no
    # sd, no test
    fx = os.path.join(src, "fixtures", "6.1", "dirty-swap")
    for s in ("upstream", "nodirect"):
        os.makedirs(os.path.join(wd, "one", s), exist_ok=True)
        link = os.path.join(wd, "one", s, "trace.dat")
        if not os.path.lexists(link):
            os.symlink(os.path.abspath(os.path.join(fx, s, "trace.dat")), link)
    r = run(tool, [os.path.join(wd, "one", "upstream"), os.path.join(wd, "one", "nodirect") + "/"])
    lines = r.stdout.splitlines()
    check("a run directory is a column of one run named by the directory",
          r.returncode == 0 and lines[0].split() == ["upstream", "nodirect"] and
          lines[1].split() == ["runs", "1", "1"], lines[:2])
    check("one run: n/a for the deviation, no test, no mark",
          "1000.0 ± n/a" in r.stdout and "*" not in r.stdout.split("\n\n")[0] and
          all("±" not in l or "n/a" in l for l in lines), lines[2:4])

    # the committed repeated runs (kernel/experiment): a capture directory
    # with runs/ is the column of its runs, the capture beside them ignored
    if os.path.isdir(os.path.join(fx, "upstream", "runs")):
        n = len(os.listdir(os.path.join(fx, "upstream", "runs")))
        r = run(tool, [os.path.join(fx, "upstream"), os.path.join(fx, "nodirect")])
        lines = r.stdout.splitlines()
        check("a capture directory with runs/ is the column of its %d runs" % n,
              r.returncode == 0 and lines[1].split()[1:2] == [str(n)] and
              "1000.0 ± n/a" not in r.stdout, lines[:2])

    # errors
    os.makedirs(os.path.join(wd, "bad", "runs", "1"))
    r = run(tool, [updir, os.path.join(wd, "bad")])
    check("a runs/ subdirectory without summary.json or trace.dat: exit 3, named",
          r.returncode == 3 and "runs/1: not a run" in r.stderr, (r.returncode, r.stderr))
    os.makedirs(os.path.join(wd, "empty"))
    r = run(tool, [updir, os.path.join(wd, "empty")])
    check("a directory without runs: exit 3", r.returncode == 3 and "no runs" in r.stderr,
          (r.returncode, r.stderr))
    for g in ("again", "=a.json", "x=", "x=a.json,,b.json"):
        r = run(tool, [updir, "--group", g])
        check("--group %s is a usage error" % g, r.returncode == 2, (r.returncode, r.stderr))
    r = subprocess.run([tool, "merge", "--group", "x=" + single, single], capture_output=True)
    check("--group does not apply to merge", r.returncode == 2)
    r = run(tool, ["--group", "only=" + ",".join(gpaths)])
    check("--group alone makes a table", r.returncode == 0 and r.stdout.split()[0] == "only")

    sys.exit(exit_status())


if __name__ == "__main__":
    main()
