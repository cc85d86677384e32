#!/usr/bin/python3
"""The classic tables add up to the Summary block, on every fixture.

For each fixture (every real capture under fixtures/6.1, 6.1-mglru, 6.12
and 6.12-mglru as text and trace.dat, every hand-made and synthetic text),
plain, with --ignore-pid and with --top 2 --sort pages_scanned, and the text
ones also with a time window (--since/--until around the middle third) and
with --pid of the busiest direct reclaimer: every column of the process
table sums to its Summary line (direct reclaims, wake-up requests, pages
scanned and reclaimed, sync and async writes, stall time to the rounding
of the printed figures), and every column of the kswapd table to the
kswapd lines; with --top the "(N others)" row carries the rest. The
tables after the Summary add up to the JSON totals of the same events: the
throttle and shrinker table's times per reason, shrinker calls and objects
freed, the page-list reclaim table's events and pages (each table there
only when the totals have something for it), with --top too. Without
--top, every task of the JSON summary with direct reclaim figures or
wake-up requests has a process row, and every kswapd thread a kswapd row.

usage: tables_add_up.py TOOL SOURCE_DIR WORKDIR
"""
import glob
import json
import lzma
import os
import shutil
import subprocess
import sys

from checks import check, exit_status


def num(t):
    """A number, or None for "unknown" (the trace cannot tell it)."""
    return None if t == "unknown" else float(t)


class NoRows:
    """An empty table's column: 0 or unknown, as the Summary says."""
    def __eq__(self, other):
        return other in (0, None)

    def __ne__(self, other):
        return not self == other

    def __repr__(self):
        return "no rows"


def column(rows, i):
    """The sum of column i; None when its cells are unknown (then all must be)."""
    if not rows:
        return NoRows()
    cells = [r[i] for r in rows]
    if any(c is None for c in cells):
        return None if all(c is None for c in cells) else "some unknown"
    return sum(cells)


def table(lines, start, ncols):
    """Rows of the table whose first heading line starts with `start`:
    the last ncols numbers of each row (order tags "x-N=M" dropped)."""
    rows = []
    for i, l in enumerate(lines):
        if l.startswith(start):
            for r in lines[i + 2:]:
                if not r.strip():
                    return rows
                toks = [t for t in r.split() if "=" not in t]
                rows.append([num(t) for t in toks[-ncols:]])
            return rows
    return None


def summary(lines):
    out = {}
    for l in lines:
        if ":" in l and "\t" in l:
            k, v = l.split(":", 1)
            v = v.strip().split()[0] if v.strip() else ""
            try:
                out[k.strip()] = num(v)
            except ValueError:
                pass
    return out


def cells(lines, start):
    """The rows (words) of the table after the report's Summary whose first
    heading line's first two words are `start`, or None."""
    for i, l in enumerate(lines):
        if l.split()[:2] == start.split():
            rows = []
            for r in lines[i + 2:]:
                if not r.strip():
                    break
                rows.append(r.split())
            return rows
    return None


THROTTLE = ("writeback", "isolated", "noprogress", "congested")
CONTEXTS = ("direct", "memcg", "memcg_softlimit", "node", "kswapd", "outside_reclaim")


def tail_tables(lines, j):
    """The throttle/shrinker and page-list tables' columns summed against the
    JSON totals j (a table is there only when the totals have something)."""
    t = j["totals"]
    bad = []
    thr = cells(lines, "Throttled and")
    want_calls = sum(t[c]["slab_shrinker_calls"] for c in CONTEXTS)
    want_times = [t["throttled"][r]["count"] for r in THROTTLE]
    if thr is None:
        if want_calls or any(want_times):
            bad.append(("no throttle table", want_times, want_calls))
    else:
        n = len(THROTTLE)
        times = [sum(int(r[-2 - n + b].split("/")[0]) for r in thr if r[-2 - n + b] != "-")
                 for b in range(n)]
        got = (times, sum(int(r[-2]) for r in thr), sum(int(r[-1]) for r in thr))
        want = (want_times, want_calls, sum(t[c]["slab_objects_freed"] for c in CONTEXTS))
        if got != want:
            bad.append(("throttle table", got, want))
    rp = cells(lines, "Page-list Events")
    want = t.get("reclaim_pages")
    if (rp is None) != (want is None):
        bad.append(("page-list table", rp is not None, want))
    elif rp is not None:
        got = [sum(int(r[-5 + k]) for r in rp) for k in range(5)]
        keys = ("events", "pages_scanned", "pages_reclaimed", "nr_dirty_pages",
                "nr_writeback_pages")
        if got != [want[k] for k in keys]:
            bad.append(("page-list table", got, want))
    return bad


def in_process_table(row):
    """A JSON row with direct reclaim figures or wake-up requests."""
    d = row.get("direct")
    if not d:
        return False
    w = d["writes"]
    return bool(d["reclaims"] or row.get("wakeup_kswapd_requests") or d["pages_scanned"] or
                d["pages_reclaimed"] or d["latency_ns"] or w["file_async"] or w["anon_async"] or
                w["file_sync"] or w["anon_sync"])


def variants(tool, path):
    """The option sets each input is reported with."""
    out = [[], ["--ignore-pid"], ["--top", "2", "--sort", "pages_scanned"],
           ["--ignore-pid", "--top", "1"]]
    if path.endswith(".dat"):
        return out
    j = json.loads(subprocess.run([tool, "-q", "-f", "json", path], capture_output=True,
                                  text=True).stdout)
    first, last = j["input"]["first_timestamp_ns"], j["input"]["last_timestamp_ns"]
    if first is not None and last > first:
        a, b = first + (last - first) // 3, first + 2 * (last - first) // 3
        out.append(["--since", "%d.%09d" % divmod(a, 10**9),
                    "--until", "%d.%09d" % divmod(b, 10**9)])
    busy = max(j["processes"], key=lambda r: (r["direct"]["reclaims"], r["comm"]), default=None)
    if busy and busy["pid"] is not None:
        out.append(["--pid", str(busy["pid"]), "--top", "1"])
    return out


def main():
    tool, src, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    inputs = []
    for d in sorted(glob.glob(os.path.join(src, "fixtures", "*", "*", "*"))):
        if os.path.exists(os.path.join(d, "trace.txt.xz")):
            txt = os.path.join(work, d.replace(os.sep, "_") + ".txt")
            with lzma.open(os.path.join(d, "trace.txt.xz")) as f, open(txt, "wb") as g:
                shutil.copyfileobj(f, g)
            inputs.append(txt)
        if os.path.exists(os.path.join(d, "trace.dat")):
            inputs.append(os.path.join(d, "trace.dat"))
    for sub in ("handmade", "synthetic"):
        inputs += sorted(glob.glob(os.path.join(src, "fixtures", sub, "*.txt")))
    check("fixtures found", len(inputs) >= 12, inputs)
    # every fixture directory is read: a capture not found is a test not run
    for kernel in ("6.1", "6.1-mglru", "6.12", "6.12-mglru"):
        dirs = glob.glob(os.path.join(src, "fixtures", kernel, "*", "*"))
        for kind, name in (("text", "trace.txt.xz"), ("trace.dat", "trace.dat")):
            want = sum(1 for d in dirs if os.path.exists(os.path.join(d, name)))
            if kind == "text":
                got = [i for i in inputs if "_fixtures_%s_" % kernel in os.path.basename(i)]
            else:
                got = [i for i in inputs if os.sep + os.path.join("fixtures", kernel, "") in i]
            check("fixtures/%s: its %d %s captures" % (kernel, want, kind),
                  want > 0 and len(got) == want, got)
    for sub, n in (("handmade", 4), ("synthetic", 2)):
        got = [i for i in inputs if os.sep + sub + os.sep in i]
        check("fixtures/%s: %d traces" % (sub, len(got)), len(got) >= n, got)
    for path in inputs:
        for extra in variants(tool, path):
            label = os.path.relpath(path, src if path.startswith(src) else work) + \
                (" " + " ".join(extra) if extra else "")
            p = subprocess.run([tool, "-q"] + extra + [path], capture_output=True, text=True)
            lines = p.stdout.splitlines()
            s = summary(lines)
            proc = table(lines, "Process", 7)
            ksw = table(lines, "Kswapd", 6)
            if p.returncode or proc is None or ksw is None:
                check("%s: report with both tables" % label, False, p.stderr[-300:])
                continue
            col = column

            def both(a, b):
                """a + b, unknown (None) when both are"""
                return None if a is None and b is None else a + b
            want = [
                ("direct reclaims", col(proc, 0), s["Direct reclaims"]),
                ("wake kswapd requests", col(proc, 1), s["Wake kswapd requests"]),
                ("direct pages scanned", col(proc, 2), s["Direct reclaim pages scanned"]),
                ("direct pages reclaimed", col(proc, 3), s["Direct reclaim pages reclaimed"]),
                ("direct sync writes", col(proc, 4), both(s["Direct reclaim write file sync I/O"],
                      s["Direct reclaim write anon sync I/O"])),
                ("direct async writes", col(proc, 5), both(s["Direct reclaim write file async I/O"],
                      s["Direct reclaim write anon async I/O"])),
                ("kswapd wakeups", col(ksw, 0), s["Kswapd wakeups"]),
                ("kswapd pages scanned", col(ksw, 2), s["Kswapd pages scanned"]),
                ("kswapd pages reclaimed", col(ksw, 3), s["Kswapd pages reclaimed"]),
                ("kswapd sync writes", col(ksw, 4), both(s["Kswapd reclaim write file sync I/O"],
                      s["Kswapd reclaim write anon sync I/O"])),
                ("kswapd async writes", col(ksw, 5), both(s["Kswapd reclaim write file async I/O"],
                      s["Kswapd reclaim write anon async I/O"])),
            ]
            bad = [(n, a, b) for n, a, b in want if a != b]
            # stall seconds: rows print 3 decimals, the Summary 2 or more
            stall, total = col(proc, 6) if proc else 0, s["Time stalled direct reclaim"]
            if abs(stall - total) > 0.0005 * len(proc) + 0.005:
                bad.append(("time stalled", stall, total))
            check("%s: %d process and %d kswapd rows add up" % (label, len(proc), len(ksw)),
                  not bad, bad)
            # (the JSON of the same events: --top and --sort are the tables')
            plain = [a for i, a in enumerate(extra) if a not in ("--top", "--sort") and
                     (i == 0 or extra[i - 1] not in ("--top", "--sort"))]
            j = json.loads(subprocess.run([tool, "-q", "-f", "json"] + plain + [path],
                                          capture_output=True, text=True).stdout)
            bad = tail_tables(lines, j)
            check("%s: the throttle, shrinker and page-list tables add up" % label, not bad, bad)
            if "--top" in extra:
                continue
            tasks = [r for r in j["processes"] + j["kswapd"] if in_process_table(r)]
            check("%s: a process row for each of the %d tasks with direct reclaim figures "
                  "or wake-up requests, a kswapd row for each of the %d kswapd threads" %
                  (label, len(tasks), len(j["kswapd"])),
                  len(proc) == len(tasks) and len(ksw) == len(j["kswapd"]),
                  (len(proc), len(tasks), len(ksw), len(j["kswapd"])))
    return exit_status()


if __name__ == "__main__":
    sys.exit(main())
