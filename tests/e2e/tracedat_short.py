#!/usr/bin/python3
"""A trace.dat whose records are not all read must say so (issue: fail
closed).  libtracecmd ends a CPU silently at a page it cannot read (a page
header's commit past the page), skips a zeroed page, and reads the data of
another CPU when the headers' offset or size point into it; trace-cmd report
is as silent.  The tool counts the pages each CPU's records were on against
the CPU's data size the headers give (and where the last record of each page
ends against its commit): such a file gets the note tracedat_short,
input.events_lost null, exit 4 under --strict and exit 9 from check.

The cases are made from the smallest committed capture converted by
trace-cmd to version 6 without compression (the pages are then where the
headers say, in the file), then:
  - reproductions: a commit past the page, a zeroed page, CPU 0's size
    grown over CPU 1's data, the last page's commit past it;
  - a seeded fuzz of page headers (commit), zeroed pages, and CPU offsets
    and sizes: each run either reads every record of the file (the count of
    the file unchanged, events_lost 0), says it is short, or is refused as
    corrupt (exit 6);
  - the reader out of memory (runs under ulimit -v, from the lowest limit
    that reads the file whole down 4 MB): status 1, never fewer records
    without a word;
  - CPU stats of a CPU past 63 (a fixture's "CPU: 1" made "CPU:70", its
    overrun 5): its lost events count.

usage: tracedat_short.py TOOL SOURCE_DIR WORKDIR [MUTATIONS]
"""
import json
import os
import random
import struct
import subprocess
import sys
import checks

PAGE = 4096


def analyze(tool, path, *extra):
    p = subprocess.run([tool, "-q", "-f", "json"] + list(extra) + [path], capture_output=True,
                       timeout=120)
    d = None
    if p.returncode == 0:
        try:
            d = json.loads(p.stdout)
        except ValueError:
            pass
    return p.returncode, d, p.stderr


def said_short(d):
    src = d["input"]["sources"][0]
    return (d["input"]["events_lost"] is None and src["traits"].get("tracedat_short", 0) > 0
            and any(n.startswith("tracedat_short:") for n in d.get("notes", [])))


def cpu_table(data, cpus):
    """The (offset, size) of each CPU of the last flyrecord (the instance's)."""
    at = data.rfind(b"flyrecord\0") + 10
    return at, [struct.unpack_from("<QQ", data, at + 16 * c) for c in range(cpus)]


def main():
    tool, src, work = sys.argv[1:4]
    mutations = int(sys.argv[4]) if len(sys.argv) > 4 else 80
    os.makedirs(work, exist_ok=True)
    dat = os.path.join(src, "fixtures", "6.1-mglru", "dirty-swap", "upstream", "trace.dat")
    v6 = os.path.join(work, "v6.dat")
    p = subprocess.run(["trace-cmd", "convert", "-i", dat, "--file-version", "6",
                        "--compression", "none", "-o", v6], capture_output=True)
    if p.returncode:
        print("FAIL trace-cmd convert: %s" % p.stderr[-300:])
        return 1
    data = open(v6, "rb").read()
    rc, base, _ = analyze(tool, v6)
    if rc or base is None:
        print("FAIL the clean version 6 file: exit %s" % rc)
        return 1
    lines = base["input"]["lines_read"]
    cpus = base["input"]["sources"][0]["recording"]["cpus"]
    table_at, cpu = cpu_table(data, cpus)
    expect = checks.check

    # no false alarm on the files as recorded
    for path in (dat, v6):
        rc, d, err = analyze(tool, path)
        expect("clean %s" % os.path.basename(os.path.dirname(path) if path == dat else path),
               rc == 0 and d["input"]["events_lost"] == 0 and
               "tracedat_short" not in d["input"]["sources"][0]["traits"],
               "exit %s" % rc)
    expect("the CPU table", len(cpu) == cpus and all(s > 4 * PAGE for o, s in cpu) and
           cpu[0][0] + cpu[0][1] <= cpu[1][0], str(cpu))

    def mutate(fn):
        b = bytearray(data)
        fn(b)
        return bytes(b)

    def commit(page_off, v):
        return lambda b: struct.pack_into("<Q", b, page_off + 8, v)

    def zero(page_off):
        def f(b):
            b[page_off:page_off + PAGE] = bytes(PAGE)
        return f

    def table(c, off=None, size=None):
        def f(b):
            o, s = cpu[c]
            struct.pack_into("<QQ", b, table_at + 16 * c, o if off is None else off,
                             s if size is None else size)
        return f

    (o0, s0), (o1, s1) = cpu[0], cpu[1]
    last0 = o0 + (s0 + PAGE - 1) // PAGE * PAGE - PAGE
    repro = [("a commit past the page", mutate(commit(o0 + 10 * PAGE, 0xffff))),
             ("a zeroed page", mutate(zero(o0 + 20 * PAGE))),
             ("CPU 0's size over CPU 1's data", mutate(table(0, size=o1 + s1 - o0))),
             ("the last page's commit past it", mutate(commit(last0, 0xffff)))]
    path = os.path.join(work, "case.dat")
    for name, blob in repro:
        with open(path, "wb") as f:
            f.write(blob)
        rc, d, err = analyze(tool, path)
        expect(name, rc == 0 and said_short(d),
               "exit %s, events_lost %s, lines_read %s of %s" % (
                   rc, d and d["input"]["events_lost"], d and d["input"]["lines_read"], lines))
        r = subprocess.run([tool, "-q", "--strict", path], capture_output=True)
        expect(name + " --strict", r.returncode == 4, "exit %s" % r.returncode)
        r = subprocess.run([tool, "check", "-t", "input.lines_analyzed > 0", path],
                           capture_output=True, text=True)
        expect(name + ": check", r.returncode == 9 and "not read whole" in r.stderr,
               "exit %s %s" % (r.returncode, r.stderr[-200:]))

    # the fuzz: records read == records in the file, or the run says it is short
    rnd = random.Random(43)
    npages = [(s + PAGE - 1) // PAGE for o, s in cpu]
    for i in range(mutations):
        kind = i % 4
        c = rnd.randrange(cpus)
        pg = cpu[c][0] + rnd.randrange(npages[c]) * PAGE
        if kind == 0:
            v = rnd.choice([PAGE - 15, PAGE, 1 << 16, rnd.randrange(PAGE, 1 << 32)])
            name, blob = "commit %#x at %#x" % (v, pg), mutate(commit(pg, v))
        elif kind == 1:
            name, blob = "zeroed page at %#x" % pg, mutate(zero(pg))
        elif kind == 2:
            k = rnd.randrange(1, 8)
            name = "CPU %d's size %+d pages" % (c, k)
            blob = mutate(table(c, size=cpu[c][1] + k * PAGE))
        else:
            k = rnd.choice([-3, -2, -1, 1, 2, 3])
            name = "CPU %d's offset %+d pages" % (c, k)
            blob = mutate(table(c, off=cpu[c][0] + k * PAGE))
        with open(path, "wb") as f:
            f.write(blob)
        rc, d, err = analyze(tool, path)
        if rc == 6:
            expect(name, path.encode() in err and b"corrupt" in err, err[-200:])
            continue
        whole = d is not None and d["input"]["lines_read"] == lines and \
            d["input"]["events_lost"] == 0
        expect(name, rc == 0 and d is not None and (whole or said_short(d)),
               "exit %s, lines_read %s of %s, events_lost %s" % (
                   rc, d and d["input"]["lines_read"], lines, d and d["input"]["events_lost"]))

    # the reader out of memory (ulimit -v): from the lowest limit under which
    # the file is read whole, down 4 MB: each run reads the file whole, says
    # it is short, or is status 1 (out of memory) or 5 (a library cannot be
    # loaded), never fewer records with no word (main: 1286 of 25359)
    def limited(kb):
        p = subprocess.run(["sh", "-c", 'ulimit -v %d && exec "$0" "$@"' % kb, tool, "-q",
                            "--threads", "1", "-f", "json", v6], capture_output=True, timeout=120)
        d = None
        if p.returncode == 0:
            try:
                d = json.loads(p.stdout)
            except ValueError:
                pass
        return p.returncode, d, p.stderr

    def whole_at(kb):
        rc, d, _ = limited(kb)
        return rc == 0 and d is not None and d["input"]["lines_read"] == lines

    lo, hi = 100 << 10, 4 << 20
    if whole_at(hi):
        while hi - lo > 250:
            mid = (lo + hi) // 2
            lo, hi = (lo, mid) if whole_at(mid) else (mid, hi)
        for kb in range(hi - 250, hi - 4096, -250):
            rc, d, err = limited(kb)
            ok = (rc == 0 and d is not None and
                  ((d["input"]["lines_read"] == lines and d["input"]["events_lost"] == 0)
                   or said_short(d))) or (rc == 1 and b"out of memory" in err) or rc == 5
            expect("ulimit -v %d" % kb, ok, "exit %s, lines_read %s of %s, events_lost %s %s" % (
                rc, d and d["input"]["lines_read"], lines, d and d["input"]["events_lost"],
                err[-150:]))
    else:
        print("(skipped the runs under ulimit -v: the tool does not run under 4 GB of "
              "address space, a sanitizer build)")

    # CPU stats past CPU 63 count (a fixture's stats, changed in place)
    dat12 = os.path.join(src, "fixtures", "6.12", "highalloc", "upstream", "trace.dat")
    b = open(dat12, "rb").read()
    i = b.rfind(b"CPU: 1\n")
    j = b.find(b"overrun: 0\n", i)
    ok = i >= 0 and j > i
    if ok:
        b = b[:i] + b"CPU:70\n" + b[i + 7:j] + b"overrun: 5\n" + b[j + 11:]
        with open(path, "wb") as f:
            f.write(b)
        rc, d, err = analyze(tool, path)
        ok = rc == 0 and d["input"]["events_lost"] == 5
        why = "exit %s, events_lost %s" % (rc, d and d["input"]["events_lost"])
    expect("the stats of CPU 70 say 5 overwritten", ok, "" if ok else why)
    return checks.exit_status()


if __name__ == "__main__":
    sys.exit(main())
