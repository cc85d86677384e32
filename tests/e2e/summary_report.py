#!/usr/bin/python3
"""A JSON summary given as input prints as the classic report of its trace.

For every fixture (every real capture under fixtures/6.1, 6.1-mglru, 6.12,
6.12-mglru as text and trace.dat, every hand-made and synthetic trace):

    vmscan-analyze -f classic TRACE  ==  vmscan-analyze -f json TRACE > s.json;
                                         vmscan-analyze -f classic s.json

byte for byte, also with --histogram, with --top 2 --sort pages_scanned,
and for an --ignore-pid summary against --ignore-pid.  What only a trace
can give is refused or said: --latency-list and the filters are usage
errors with a summary input, and its SVG draws the stall distribution (the
same as the trace's) but says that it has no timeline instead of drawing
an empty one.  Two summaries given together print as their merge.

usage: summary_report.py TOOL SOURCE_DIR WORKDIR
"""
import glob
import lzma
import os
import re
import shutil
import subprocess
import sys

from checks import check, exit_status


def out(tool, *args):
    p = subprocess.run([tool, "-q"] + list(args), capture_output=True)
    return p.returncode, p.stdout, p.stderr.decode(errors="replace")


def inputs(src, work):
    found = []
    for d in sorted(glob.glob(os.path.join(src, "fixtures", "*", "*", "*"))):
        if os.path.exists(os.path.join(d, "trace.txt.xz")):
            txt = os.path.join(work, os.path.relpath(d, src).replace(os.sep, "_") + ".txt")
            with lzma.open(os.path.join(d, "trace.txt.xz")) as f, open(txt, "wb") as g:
                shutil.copyfileobj(f, g)
            found.append(txt)
        if os.path.exists(os.path.join(d, "trace.dat")):
            found.append(os.path.join(d, "trace.dat"))
    for sub in ("handmade", "synthetic"):
        found += sorted(glob.glob(os.path.join(src, "fixtures", sub, "*.txt")))
    return found


def first_diff(a, b):
    for x, y in zip(a.splitlines(), b.splitlines()):
        if x != y:
            return (x, y)
    return (len(a), len(b))


def main():
    tool, src, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    paths = inputs(src, work)
    kernels = {k for k in ("6.1", "6.1-mglru", "6.12", "6.12-mglru")
               for p in paths if "fixtures_%s_" % k in p or "/fixtures/%s/" % k in p}
    check("every kernel's captures and the hand-made traces (%d inputs)" % len(paths),
          len(kernels) == 4 and len(paths) >= 30, (kernels, len(paths)))
    for n, path in enumerate(paths):
        label = os.path.basename(os.path.dirname(path)) + "/" + os.path.basename(path)
        s = os.path.join(work, "s%d.json" % n)
        si = os.path.join(work, "s%d-ignore-pid.json" % n)
        rc, doc, _ = out(tool, "-f", "json", path)
        open(s, "wb").write(doc)
        rc2, doc, _ = out(tool, "-f", "json", "--ignore-pid", path)
        open(si, "wb").write(doc)
        for opts, summary in (([], s), (["--histogram"], s),
                              (["--top", "2", "--sort", "pages_scanned"], s),
                              (["--ignore-pid"], si)):
            a = out(tool, *opts, path)
            b = out(tool, *[o for o in opts if o != "--ignore-pid"], summary)
            check("%s %s: the summary's classic report is the trace's" %
                  (label, " ".join(opts)),
                  rc == rc2 == a[0] == b[0] == 0 and a[1] == b[1] and a[1],
                  (b[0], b[2], first_diff(a[1].decode(errors="replace"),
                                          b[1].decode(errors="replace"))))

    txt = paths[0]
    s = os.path.join(work, "s0.json")
    for opts in (["--latency-list"], ["--pid", "1"], ["--since", "1"], ["--latencies",
                 os.path.join(work, "lat.csv")]):
        rc, o, err = out(tool, *opts, s)
        check("%s with a summary input: usage error" % opts[0],
              rc == 2 and not o and "JSON summary" in err, (rc, err))
    # the SVG: the histogram as the trace's, no empty timeline
    a_svg, b_svg = os.path.join(work, "a.svg"), os.path.join(work, "b.svg")
    out(tool, "--svg", a_svg, txt)
    rc, _, err = out(tool, "--svg", b_svg, s)
    a, b = open(a_svg).read(), open(b_svg).read()
    hist = re.compile(r'<g id="stall-histogram".*?</g>', re.S)
    check("summary SVG: the stall distribution is the trace's",
          rc == 0 and hist.search(a) and hist.search(a).group(0) == hist.search(b).group(0),
          err)
    check("summary SVG: says it has no timeline rather than drawing none",
          'id="no-timeline"' in b and 'id="no-timeline"' not in a and
          "Pages scanned per second" in b)
    # two summaries: their merge
    rc, merged, _ = out(tool, "merge", s, os.path.join(work, "s1.json"))
    m = os.path.join(work, "merged.json")
    open(m, "wb").write(merged)
    a = out(tool, m)
    b = out(tool, s, os.path.join(work, "s1.json"))
    check("two summaries print as their merge", a[0] == b[0] == 0 and a[1] == b[1],
          first_diff(a[1].decode(), b[1].decode()))
    a = out(tool, "-f", "json", s, os.path.join(work, "s1.json"))
    check("-f json of summaries is their merge", a[0] == 0 and a[1] == merged)
    return exit_status()


if __name__ == "__main__":
    sys.exit(main())
