#!/usr/bin/python3
"""The classic tables add up to the Summary block, on every fixture.

For each fixture (real captures as text and trace.dat, hand-made and
synthetic text) and with --ignore-pid: every column of the process table
sums to its Summary line (direct reclaims, wake-up requests, pages scanned
and reclaimed, sync and async writes, stall time to the rounding of the
printed figures), and every column of the kswapd table to the kswapd lines.
A task or kswapd thread left out of a table would make its column short.

usage: tables_add_up.py TOOL SOURCE_DIR WORKDIR
"""
import glob
import lzma
import os
import shutil
import subprocess
import sys

results = []


def check(name, ok, detail=""):
    results.append(ok)
    print("%s %s%s" % ("ok  " if ok else "FAIL", name, "" if ok else "  " + str(detail)[:600]))


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
    for path in inputs:
        for extra in ([], ["--ignore-pid"]):
            label = os.path.relpath(path, src if path.startswith(src) else work) + \
                (" " + extra[0] if extra else "")
            p = subprocess.run([tool, "-q"] + extra + [path], capture_output=True, text=True)
            lines = p.stdout.splitlines()
            s = summary(lines)
            proc = table(lines, "Process", 7)
            ksw = table(lines, "Kswapd", 6)
            if p.returncode or proc is None or ksw is None:
                check("%s: report with both tables" % label, False, p.stderr[-300:])
                continue
            col = column
            want = [
                ("direct reclaims", col(proc, 0), s["Direct reclaims"]),
                ("wake kswapd requests", col(proc, 1), s["Wake kswapd requests"]),
                ("direct pages scanned", col(proc, 2), s["Direct reclaim pages scanned"]),
                ("direct pages reclaimed", col(proc, 3), s["Direct reclaim pages reclaimed"]),
                ("direct sync writes", col(proc, 4), s["Direct reclaim write file sync I/O"] +
                 s["Direct reclaim write anon sync I/O"]),
                ("direct async writes", col(proc, 5), s["Direct reclaim write file async I/O"] +
                 s["Direct reclaim write anon async I/O"]),
                ("kswapd wakeups", col(ksw, 0), s["Kswapd wakeups"]),
                ("kswapd pages scanned", col(ksw, 2), s["Kswapd pages scanned"]),
                ("kswapd pages reclaimed", col(ksw, 3), s["Kswapd pages reclaimed"]),
                ("kswapd sync writes", col(ksw, 4), s["Kswapd reclaim write file sync I/O"] +
                 s["Kswapd reclaim write anon sync I/O"]),
                ("kswapd async writes", col(ksw, 5), s["Kswapd reclaim write file async I/O"] +
                 s["Kswapd reclaim write anon async I/O"]),
            ]
            bad = [(n, a, b) for n, a, b in want if a != b]
            # stall seconds: rows print 3 decimals, the Summary 2 or more
            stall, total = col(proc, 6) if proc else 0, s["Time stalled direct reclaim"]
            if abs(stall - total) > 0.0005 * len(proc) + 0.005:
                bad.append(("time stalled", stall, total))
            check("%s: %d process and %d kswapd rows add up" % (label, len(proc), len(ksw)),
                  not bad, bad)
    passed = sum(results)
    print("%d passed, %d failed" % (passed, len(results) - passed))
    return 0 if passed == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
