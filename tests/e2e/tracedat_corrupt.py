#!/usr/bin/python3
"""A real trace.dat (the smallest committed), cut at every 4 KiB boundary
and at offsets inside its headers, and with bytes flipped in its headers: the tool never crashes or hangs, and says what is wrong.

Outcomes allowed: exit 0 (the cut fell in the event data: what precedes it
is analysed and the JSON is valid), or exit 6 with a message naming the file
("truncated or corrupt").  Anything else fails: a signal, a sanitizer report
(ASAN/UBSAN exit code 86 is set here), a timeout, or another status.

usage: tracedat_corrupt.py TOOL SOURCE_DIR WORKDIR
"""
import glob
import json
import os
import random
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
# allocator_may_return_null: a huge malloc() fails as it would in production
# (libtracecmd then reports an error) instead of ASan aborting; lsan.supp
# names a leak inside libtracecmd itself.
SAN = {"ASAN_OPTIONS": "exitcode=86:detect_leaks=1:allocator_may_return_null=1",
       "LSAN_OPTIONS": "suppressions=" + os.path.join(HERE, "lsan.supp"),
       "UBSAN_OPTIONS": "exitcode=86:halt_on_error=1:print_stacktrace=1"}


def run(tool, path):
    env = dict(os.environ, **SAN)
    try:
        p = subprocess.run([tool, "--format", "json", "--quiet", path], capture_output=True,
                           timeout=60, env=env)
    except subprocess.TimeoutExpired:
        return "timeout", b"", b""
    return p.returncode, p.stdout, p.stderr


def long_name(tool, src, work):
    """A task name longer than any kernel's in the saved cmdlines (a crafted
    file: the 6.12 capture made version 6 and uncompressed by trace-cmd
    convert, one task's cmdline line stretched over those after it): every
    vmscan record of that task is rejected as comm_too_long, as a text line
    with such a name is, and nothing else changes but the names the others
    lost.  Returns (passed, failed)."""
    dat = os.path.join(src, "fixtures", "6.12", "dirty-swap", "upstream", "trace.dat")
    v6 = os.path.join(work, "v6.dat")
    p = subprocess.run(["trace-cmd", "convert", "-i", dat, "--file-version", "6",
                        "--compression", "none", "-o", v6], capture_output=True)
    data = bytearray(open(v6, "rb").read()) if p.returncode == 0 else bytearray()
    start = data.find(b"\n31 kswapd0\n")
    if p.returncode or start < 0:
        print("FAIL long task name: no version 6 file with kswapd0's cmdline (%s)" %
              p.stderr[-200:])
        return 0, 1
    start += 1
    end = start
    while end - start < 300:  # whole lines, past 300 bytes
        end = data.index(b"\n", end) + 1
    name = b"k" * (end - start - 4)  # "31 " + name + "\n": the same bytes
    data[start:end] = b"31 " + name + b"\n"
    crafted = os.path.join(work, "long-name.dat")
    with open(crafted, "wb") as f:
        f.write(bytes(data))
    rep = subprocess.run(["trace-cmd", "report", "-i", crafted], capture_output=True)
    theirs = sum(1 for line in rep.stdout.split(b"\n")
                 if name + b"-31 " in line and (b": mm_vmscan_" in line or
                                               b": mm_shrink_slab_" in line))
    before = json.loads(run(tool, v6)[1] or b"{}").get("input", {})
    rc, out, err = run(tool, crafted)
    after = json.loads(out or b"{}").get("input", {})
    rej = after.get("sources", [{}])[0].get("rejected_by_reason", {}).get("comm_too_long")
    ok = (rc == 0 and theirs > 100 and rej == theirs and
          after["lines_rejected"] == theirs and
          after["lines_analyzed"] == before["lines_analyzed"] - theirs and
          after["lines_read"] == before["lines_read"])
    print("%s long task name (%d bytes): its %d vmscan records rejected as "
          "comm_too_long (%s), as trace-cmd report shows them" %
          ("ok  " if ok else "FAIL", len(name), theirs, rej))
    if not ok:
        print("  exit %s, before %s, after %s %s" % (rc, before, after, err[-300:]))
    return (1, 0) if ok else (0, 1)


def stats_lost(tool, src, work):
    """Events the CPU stats say were lost (overrun, dropped) on a CPU whose
    records said none were missed are lost events: a fixture whose stats
    say 0, changed in place to say 5 overwritten and 7 dropped."""
    dat = os.path.join(src, "fixtures", "6.12", "highalloc", "upstream", "trace.dat")
    data = open(dat, "rb").read()
    passed = failed = 0
    base = json.loads(subprocess.run([tool, "-q", "-f", "json", dat], capture_output=True,
                                     text=True).stdout)["input"]["events_lost"]
    for old, new, n in ((b"overrun: 0\n", b"overrun: 5\n", 5),
                        (b"dropped events: 0\n", b"dropped events: 7\n", 7)):
        i = data.find(old)
        path = os.path.join(work, "stats.dat")
        with open(path, "wb") as f:
            f.write(data[:i] + new + data[i + len(old):])
        r = subprocess.run([tool, "-q", "-f", "json", path], capture_output=True, text=True)
        d = json.loads(r.stdout) if r.returncode == 0 else {}
        lost = d.get("input", {}).get("events_lost")
        ok = i >= 0 and base == 0 and lost == n and any(
            x.startswith("events_lost:") for x in d.get("notes", []))
        passed, failed = passed + ok, failed + (not ok)
        if not ok:
            print("FAIL the CPU stats say %s: events_lost %s (without: %s), notes %s" % (
                new.strip().decode(), lost, base, d.get("notes")))
    return passed, failed


def main():
    tool, src, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    dats = sorted(glob.glob(os.path.join(src, "fixtures", "6.1", "*", "*", "trace.dat")))
    if not dats:
        print("FAIL: no trace.dat fixture")
        return 1
    dats.sort(key=os.path.getsize)
    data = open(dats[0], "rb").read()
    rnd = random.Random(42)
    size = len(data)
    # every offset in the first 64 KiB headers region is too many; take a spread
    # every 4 KiB boundary of the file, plus offsets inside the headers
    cuts = sorted(set([0, 1, 9, 10, 11, 12, 16, 32, 48, 64, 100, 200, 512, 1024] +
                      list(range(4096, size, 4096)) +
                      [rnd.randrange(0, min(size, 65536)) for _ in range(40)] + [size - 1]))
    cases = [("cut at %d" % c, data[:c]) for c in cuts]
    for i in range(40):
        b = bytearray(data)
        off = rnd.randrange(10, min(size, 16384))
        b[off] ^= 1 << rnd.randrange(8)
        cases.append(("bit flip at %d" % off, bytes(b)))
    for i in range(10):
        b = bytearray(data)
        off = rnd.randrange(10, min(size, 16384))
        b[off:off + 8] = b"\xff" * 8
        cases.append(("0xff x 8 at %d" % off, bytes(b)))
    for reg in sorted(glob.glob(os.path.join(src, "tests", "regress", "*.dat"))):
        cases.append(("regression " + os.path.basename(reg), open(reg, "rb").read()))
    passed, failed = long_name(tool, src, work)
    p2, f2 = stats_lost(tool, src, work)
    passed, failed = passed + p2, failed + f2
    path = os.path.join(work, "case.dat")
    for name, blob in cases:
        with open(path, "wb") as f:
            f.write(blob)
        rc, out, err = run(tool, path)
        ok = False
        if rc == 0:
            try:
                json.loads(out)
                ok = True
            except ValueError:
                pass
        elif rc == 6:
            ok = path.encode() in err and b"corrupt" in err
        elif rc == 3 and len(blob) < 10:
            ok = True  # too short to be recognised: read as (empty) text
        if ok:
            passed += 1
        else:
            failed += 1
            print("FAIL %s: exit %s %s" % (name, rc, err[-300:]))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
