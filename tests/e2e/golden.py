#!/usr/bin/python3
"""Byte-identical outputs: every report format of every fixture.

The outputs in tests/golden/ were recorded from the tool whose numbers the
other tests hold against independent sources (fixtures_vmstat.py: the
kernel's /proc/vmstat and memory.stat deltas; oracle2010.py: the 2010 Perl
script; hand counts in the unit tests).  This test keeps restructuring
honest: a change that means to leave the outputs alone must leave them
byte-identical.  A change that means to change an output regenerates the
golden files with --update and says why in its commit.

usage: golden.py TOOL SOURCE_DIR WORKDIR [--update]
"""
import glob
import re
import lzma
import os
import shutil
import subprocess
import sys

tool, src, work = sys.argv[1:4]
update = "--update" in sys.argv[4:]
tool = os.path.abspath(tool)
golden = os.path.join(src, "tests", "golden")
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)

results = []


def case_inputs():
    """(case name, directory to run in, input file name), inputs copied into WORKDIR
    so that the names the reports print do not depend on the checkout's path."""
    out = []
    for d in sorted(glob.glob(os.path.join(src, "fixtures", "6.1", "*", "*"))):
        if not os.path.exists(os.path.join(d, "trace.dat")):
            continue
        name = "6.1-%s-%s" % (os.path.basename(os.path.dirname(d)), os.path.basename(d))
        wd = os.path.join(work, name)
        os.makedirs(wd)
        with lzma.open(os.path.join(d, "trace.txt.xz")) as f, open(os.path.join(wd, "trace.txt"), "wb") as g:
            shutil.copyfileobj(f, g)
        shutil.copy(os.path.join(d, "trace.dat"), os.path.join(wd, "trace.dat"))
        out.append((name + "-text", wd, "trace.txt"))
        out.append((name + "-dat", wd, "trace.dat"))
    for sub in ("handmade", "synthetic"):
        for p in sorted(glob.glob(os.path.join(src, "fixtures", sub, "*.txt"))):
            base = os.path.basename(p)
            name = "%s-%s" % (sub, base[:-4])
            wd = os.path.join(work, name)
            os.makedirs(wd)
            shutil.copy(p, os.path.join(wd, base))
            out.append((name, wd, base))
    return out


def run(args, cwd, stdin=None):
    p = subprocess.run([tool] + args, cwd=cwd, capture_output=True, stdin=stdin)
    return p.returncode, p.stdout, p.stderr


def compare(name, data):
    path = os.path.join(golden, name)
    if update:
        os.makedirs(golden, exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
        results.append(True)
        return
    try:
        with open(path, "rb") as f:
            want = f.read()
    except FileNotFoundError:
        want = None
    ok = want == data
    results.append(ok)
    if not ok:
        mine = os.path.join(work, "got-" + name)
        with open(mine, "wb") as f:
            f.write(data)
        print("FAIL %s differs from tests/golden/%s (got: %s)" % (name, name, mine))
        if want is not None:
            subprocess.run(["diff", "-u", path, mine])
    else:
        print("ok   %s" % name)


def record(name, args, cwd, outfile=None):
    """Runs the tool; the golden file holds the exit status, stderr and stdout
    (or the file the run wrote)."""
    rc, out, err = run(args, cwd)
    if outfile:
        with open(os.path.join(cwd, outfile), "rb") as f:
            out = f.read()
    compare(name, b"exit %d\n--- stderr\n%s--- output\n%s" % (rc, err, out))


inputs = case_inputs()
for name, wd, f in inputs:
    record(name + ".classic", [f], wd)
    record(name + ".json", ["-f", "json", "--pretty", f], wd)
    record(name + ".svg", ["-q", "-f", "json", "--svg", "out.svg", f], wd, outfile="out.svg")
    record(name + ".latencies", ["-q", "--latencies", "lat.csv", f], wd, outfile="lat.csv")
    record(name + ".detail", ["-q", "--latency-list", "--histogram", f], wd)
    record(name + ".ignore-pid", ["-q", "--ignore-pid", "-f", "json", f], wd)

# several inputs as one trace, and what compare, merge and check make of summaries
wd = os.path.join(work, "docs")
os.makedirs(wd)
settings = []
for name, d, f in inputs:
    # the settings' captures (not a trace.dat recorded with a small buffer
    # beside one: <setting>-dat<KB>k, nor the run of a capture whose text is
    # in the latency format: <setting>-lat, <setting>-verbose; kernel/save-fixture)
    if name.startswith("6.1-dirty-swap-") and name.endswith("-dat") and \
            not re.search(r"-(dat\d+k|lat|verbose)-dat$", name):
        setting = name[len("6.1-dirty-swap-"):-len("-dat")]
        rc, out, err = run(["-f", "json", f], d)
        with open(os.path.join(wd, setting + ".json"), "wb") as g:
            g.write(out)
        settings.append(setting + ".json")
record("compare", ["compare"] + settings, wd)
record("compare-relative", ["compare", "--relative"] + settings, wd)
record("compare-json", ["compare", "-f", "json", "--pretty"] + settings, wd)
record("merge", ["merge", "--pretty"] + settings, wd)
record("check-pass", ["check", "-t", "totals.direct.writes.file_async == 0",
                      "-t", "totals.kswapd.pages_scanned > 0", settings[0]], wd)
record("check-fail", ["check", "-t", "totals.kswapd.pages_scanned < 1",
                      "-t", "latency.direct_stall_ns.p99_ns < 1", settings[-1]], wd)
record("check-missing", ["check", "-t", "totals.no.such.field < 1", settings[0]], wd)
hm = [(n, d, f) for n, d, f in inputs if n.startswith("handmade-")]
record("several-inputs", ["-f", "json", "--pretty"] + [os.path.relpath(os.path.join(d, f), work) for n, d, f in hm], work)

print("%d passed, %d failed" % (sum(results), len(results) - sum(results)))
sys.exit(0 if all(results) else 1)
