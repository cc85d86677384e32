#!/usr/bin/python3
"""The command line cannot lose data, and the check gate cannot pass by accident.

- Outputs never destroy inputs: an output that is an input, or an existing
  recorded trace (without --force), is refused and the file stays byte for
  byte; a failed run leaves an old output as it was and no temporary file;
  output paths are checked before any input is read; no FILE with a terminal
  on standard input is refused; a write error on any output, standard
  output included (/dev/full), exits 1 for every subcommand; a device or
  FIFO output is written as it is and stays, a symlink is followed; a
  closed pipe on standard output (| head) is status 1, quietly.
- check fails closed: exit 9 on an input without a trace (empty, random
  bytes, a truncated trace.dat, perf.data, --strict with rejected lines);
  unknown fields are usage errors; a --thresholds file that cannot be read
  whole (a directory, an I/O error) is exit 3 naming it, its lines are read
  whole (no length limit, CRLF too); a statistic of nothing holds vacuously
  only when nothing it counts happened (not when one began and never ended,
  or lines were rejected or events lost), a
  value the trace cannot tell fails unless --missing=pass; --format json and
  --junit FILE report the verdicts.
- No silent options: an option that does not apply is exit 2 naming it.

usage: cli_safety.py TOOL SOURCE_DIR WORKDIR
"""
import gzip
import hashlib
import json
import os
import pty
import random
import re
import shlex
import shutil
import stat
import subprocess
import sys
import threading
import xml.etree.ElementTree as ET

from checks import check, exit_status

TOOL = SRC = WORK = None


def run(args, data=b"", cwd=None, stdout=None):
    """stdin is data (never the caller's terminal); stdout captured unless given."""
    kw = {"stdout": stdout} if stdout is not None else {"stdout": subprocess.PIPE}
    return subprocess.run([TOOL] + args, input=data, stderr=subprocess.PIPE, cwd=cwd,
                          timeout=120, **kw)


def digest(path):
    return hashlib.sha256(open(path, "rb").read()).hexdigest()


def fx(*parts):
    return os.path.join(SRC, "fixtures", *parts)


def listing(d):
    return sorted(os.listdir(d))


def test_outputs_never_destroy_inputs(names):
    d = os.path.join(WORK, "victims")
    os.makedirs(d)
    victim = os.path.join(d, "victim.dat")
    shutil.copy(names, victim)
    before = digest(victim)
    stdin_trace = open(names, "rb").read()
    # the user meant "JSON of victim.dat": standard input is read, victim.dat is an output
    for opt in ("--json", "-j", "--svg", "--latencies", "--openmetrics-file"):
        r = run([opt, "victim.dat"], data=stdin_trace, cwd=d)
        check("%s victim.dat (a trace) is refused, exit 2" % opt,
              r.returncode == 2 and b"recorded trace" in r.stderr and b"--force" in r.stderr,
              (r.returncode, r.stderr))
        check("%s victim.dat: victim.dat byte-identical" % opt, digest(victim) == before)
    # merge writes the metrics file too: checked as the analysis checks it
    for args, why in ((["merge", "--openmetrics-file", "victim.dat", "victim.dat"],
                       "naming its input"),
                      (["merge", "--openmetrics-file", "victim.dat", names],
                       "onto a recorded trace")):
        r = run(args, cwd=d)
        check("merge --openmetrics-file %s is refused, exit 2" % why,
              r.returncode == 2 and (b"also an input" in r.stderr or
                                     b"recorded trace" in r.stderr), (r.returncode, r.stderr))
        check("merge --openmetrics-file %s: victim.dat byte-identical" % why,
              digest(victim) == before and listing(d) == ["victim.dat"], listing(d))
    # there is no -o: an unknown option, refused before anything is read or written
    r = run(["-o", "victim.dat"], data=stdin_trace, cwd=d)
    check("-o victim.dat: an unknown option, exit 2, victim.dat byte-identical",
          r.returncode == 2 and digest(victim) == before and listing(d) == ["victim.dat"],
          (r.returncode, r.stderr, listing(d)))
    for opt in ("--json", "--svg", "--latencies"):
        r = run([opt, "victim.dat", "victim.dat"], cwd=d)
        check("%s naming the input itself is refused, exit 2" % opt,
              r.returncode == 2 and b"also an input" in r.stderr, (r.returncode, r.stderr))
        check("%s naming the input: byte-identical" % opt, digest(victim) == before)
    # the same file by another name (a hard link, ./path) is still the input
    link = os.path.join(d, "link.dat")
    os.link(victim, link)
    r = run(["--json", "./link.dat", "--force", "victim.dat"], cwd=d)
    check("an output that is the input by another name (hard link) is refused even with "
          "--force", r.returncode == 2 and b"also an input" in r.stderr, r.stderr)
    check("hard link case: byte-identical", digest(victim) == before)
    os.unlink(link)
    # existing binary traces as outputs
    dat = os.path.join(d, "trace.dat")
    shutil.copy(fx("6.1", "dirty-swap", "upstream", "trace.dat"), dat)
    perf = os.path.join(d, "perf.data")
    with open(perf, "wb") as f:
        f.write(b"PERFILE2" + bytes(200))
    # and compressed ones, text (as the fixtures are kept) and trace.dat
    txz = os.path.join(d, "trace.txt.xz")
    shutil.copy(fx("6.1", "dirty-swap", "upstream", "trace.txt.xz"), txz)
    dgz = os.path.join(d, "trace.dat.gz")
    with open(dat, "rb") as s, gzip.open(dgz, "wb") as g:
        shutil.copyfileobj(s, g)
    # trace-cmd report of a big machine: a line for each empty CPU before the first event
    big = os.path.join(d, "bigmachine.txt")
    with open(big, "w") as f:
        f.write("version = 6\ncpus=4096\n")
        f.write("".join("CPU %d is empty\n" % i for i in range(1, 4096)))
        f.write(open(names).read())
    for target in (dat, perf, txz, dgz, big):
        h = digest(target)
        r = run(["-j", target, names])
        check("-j onto an existing %s is refused" % os.path.basename(target),
              r.returncode == 2 and b"recorded trace" in r.stderr, r.stderr)
        check("%s byte-identical" % os.path.basename(target), digest(target) == h)
    os.unlink(txz)
    os.unlink(dgz)
    os.unlink(big)
    check("no file left behind by refused runs",
          listing(d) == ["perf.data", "trace.dat", "victim.dat"], listing(d))
    # --force overwrites a trace that is not an input
    r = run(["--force", "-j", perf, names], stdout=subprocess.DEVNULL)
    check("--force lets -j replace an existing trace", r.returncode == 0 and
          json.load(open(perf))["totals"]["direct"]["reclaims"] == 3, r.stderr)
    check("no temporary file left after a successful run",
          listing(d) == ["perf.data", "trace.dat", "victim.dat"], listing(d))
    with open(perf, "wb") as f:
        f.write(b"PERFILE2" + bytes(200))
    # compare --svg: refused onto a trace, saying --force, which compare takes
    with open(perf, "wb") as f:
        f.write(b"PERFILE2" + bytes(200))
    r = run(["compare", "--svg", perf, names, names], stdout=subprocess.DEVNULL)
    check("compare --svg onto an existing trace is refused, saying --force",
          r.returncode == 2 and b"--force" in r.stderr and
          open(perf, "rb").read(8) == b"PERFILE2", r.stderr)
    r = run(["compare", "--force", "--svg", perf, names, names], stdout=subprocess.DEVNULL)
    check("compare --force lets --svg replace it", r.returncode == 0 and
          open(perf, "rb").read(1) == b"<", r.stderr)
    with open(perf, "wb") as f:
        f.write(b"PERFILE2" + bytes(200))
    r = run(["merge", "--force", "--openmetrics-file", perf, names], stdout=subprocess.DEVNULL)
    check("merge --force lets --openmetrics-file replace an existing trace",
          r.returncode == 0 and open(perf, "rb").read().startswith(b"# HELP"), r.stderr)


def test_stdout_is_an_input(names, summary):
    # the shell opens standard output before the program runs: '>>' onto an
    # input would write the report into the trace, '>' has emptied it; both
    # are refused (as cat refuses "input file is output file")
    d = os.path.join(WORK, "stdout-victims")
    os.makedirs(d)
    victim = os.path.join(d, "victim.txt")
    for args, how, sub in ((["victim.txt"], "by name", "analyze"),
                           ([], "as standard input (no FILE)", "analyze"),
                           (["-"], "as standard input ('-')", "analyze"),
                           (["merge", "victim.txt"], "by name", "merge"),
                           (["compare", "victim.txt", names], "by name", "compare"),
                           (["check", "-t", "totals.direct.reclaims >= 0", "victim.txt"],
                            "by name", "check")):
        shutil.copy(names, victim)
        before = digest(victim)
        with open(victim, "ab") as out, open(victim, "rb") as inp:
            r = subprocess.run([TOOL] + args, stdin=inp, stdout=out, stderr=subprocess.PIPE,
                               cwd=d, timeout=60)
        check("%s >> its input (%s): refused, exit 2, the input byte-identical" % (sub, how),
              r.returncode == 2 and b"standard output is this input" in r.stderr and
              digest(victim) == before, (r.returncode, r.stderr))
    # compare: the runs of a --group or of a run directory are inputs too
    runs = os.path.join(d, "runs")
    for k in ("1", "2"):
        os.makedirs(os.path.join(runs, "runs", k))
        shutil.copy(summary, os.path.join(runs, "runs", k, "summary.json"))
    g1 = os.path.join(runs, "runs", "1", "summary.json")
    for args, how in ((["compare", "--group", "a=runs/runs/1/summary.json,runs/runs/2",
                        names], "in a --group"),
                      (["compare", "runs", names], "in a run directory")):
        before = digest(g1)
        with open(g1, "ab") as out:
            r = subprocess.run([TOOL] + args, stdin=subprocess.DEVNULL, stdout=out,
                               stderr=subprocess.PIPE, cwd=d, timeout=60)
        check("compare >> a run %s: refused, exit 2, the run byte-identical" % how,
              r.returncode == 2 and b"standard output is this input" in r.stderr and
              digest(g1) == before, (r.returncode, r.stderr))
    # '>': already empty when the program starts; told, and nothing written
    with open(victim, "wb") as out:
        r = subprocess.run([TOOL, "victim.txt"], stdin=subprocess.DEVNULL, stdout=out,
                           stderr=subprocess.PIPE, cwd=d, timeout=60)
    check("> its input: refused, exit 2, nothing written into it",
          r.returncode == 2 and b"it is empty now" in r.stderr and os.path.getsize(victim) == 0,
          (r.returncode, r.stderr))
    # a summary printed as a report into itself
    s = os.path.join(d, "s.json")
    shutil.copy(summary, s)
    before = digest(s)
    with open(s, "ab") as out:
        r = subprocess.run([TOOL, "s.json"], stdin=subprocess.DEVNULL, stdout=out,
                           stderr=subprocess.PIPE, cwd=d, timeout=60)
    check("a summary's report >> the summary: refused, byte-identical",
          r.returncode == 2 and digest(s) == before, (r.returncode, r.stderr))
    # another file, /dev/null: as before
    with open(os.path.join(d, "report.txt"), "wb") as out:
        r = subprocess.run([TOOL, names], stdin=subprocess.DEVNULL, stdout=out,
                           stderr=subprocess.PIPE, timeout=60)
    check("standard output another file: written, exit 0",
          r.returncode == 0 and os.path.getsize(os.path.join(d, "report.txt")) > 0,
          (r.returncode, r.stderr))


def test_failed_run_keeps_old_output(names):
    d = os.path.join(WORK, "old")
    os.makedirs(d)
    outs = {"out.json": "--json", "out.svg": "--svg", "lat.csv": "--latencies",
            "m.prom": "--openmetrics-file"}
    for name in outs:
        with open(os.path.join(d, name), "w") as f:
            f.write("old %s\n" % name)
    args = []
    for name, opt in outs.items():
        args += [opt, name]
    rej = os.path.join(d, "rejects.txt")
    with open(rej, "w") as f:
        f.write(open(names).read())
        f.write("  a-1 [000] 9.0: mm_vmscan_direct_reclaim_begin: order=banana\n")
    for why, extra, status in (("a missing input", ["missing.txt"], 3),
                               ("--strict and a rejected line", ["--strict", "rejects.txt"], 4)):
        r = run(args + extra, cwd=d)
        check("a failed run (%s) exits %d" % (why, status), r.returncode == status,
              (r.returncode, r.stderr))
        for name in outs:
            check("a failed run (%s) leaves %s as it was" % (why, name),
                  open(os.path.join(d, name)).read() == "old %s\n" % name)
        check("a failed run (%s) leaves no temporary file" % why,
              listing(d) == sorted(list(outs) + ["rejects.txt"]), listing(d))
    r = run(args + [names], cwd=d)
    check("a successful run replaces every output", r.returncode == 0 and
          json.load(open(os.path.join(d, "out.json")))["totals"]["direct"]["reclaims"] == 3 and
          open(os.path.join(d, "lat.csv")).read() != "old lat.csv\n" and
          open(os.path.join(d, "m.prom")).read().startswith("# HELP") and
          open(os.path.join(d, "out.svg")).read().startswith("<"), r.stderr)
    check("and leaves no temporary file", listing(d) == sorted(list(outs) + ["rejects.txt"]),
          listing(d))
    mode = os.stat(os.path.join(d, "out.json")).st_mode & 0o777
    check("a new output gets the mode of a file created as usual (not 0600)", mode != 0o600,
          oct(mode))


def test_outputs_checked_first(names):
    # standard input stays open: a check made only after the analysis would hang
    for args, what in ((["-j", "/nonexistent-dir/x.json"], "a missing directory"),
                       (["--svg", WORK], "a directory as output"),
                       (["--latencies", "/proc/self/x.csv"], "a directory that cannot be "
                        "written")):
        p = subprocess.Popen([TOOL] + args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE)
        try:
            out, err = p.communicate(timeout=10)
            rc = p.returncode
        except subprocess.TimeoutExpired:
            p.kill()
            out, err = p.communicate()
            rc = None
        check("%s is refused before standard input is read" % what,
              rc in (1, 2) and err.startswith(b"vmscan-analyze: "), (rc, err))
    # "-" is standard input everywhere else: no output file of that name
    d = os.path.join(WORK, "dash")
    os.makedirs(d, exist_ok=True)
    for opt in ("-j", "--svg", "--latencies", "--openmetrics-file"):
        r = run([opt, "-", names], cwd=d)
        check("%s - is a usage error (exit 2), no file named '-' made" % opt,
              r.returncode == 2 and not os.path.exists(os.path.join(d, "-")),
              (r.returncode, r.stderr))
    r = run(["-j", "./-", names], cwd=d)
    check("  ./- names such a file", r.returncode == 0 and os.path.exists(os.path.join(d, "-")),
          (r.returncode, r.stderr))


def test_terminal_stdin():
    master, slave = pty.openpty()
    try:
        r = subprocess.run([TOOL], stdin=slave, capture_output=True, timeout=10)
    except subprocess.TimeoutExpired:
        r = None
    os.close(slave)
    os.close(master)
    check("no FILE and a terminal on standard input: refused, exit 2",
          r is not None and r.returncode == 2 and b"terminal" in r.stderr,
          r and (r.returncode, r.stderr))


def full_device():
    """A device that fails every write with ENOSPC, as /dev/full does: a
    node of our own (c 1 7) in WORK, so that no test can replace the
    system's; /dev/full where nodes cannot be made (not root: then it
    cannot be replaced either)."""
    path = os.path.join(WORK, "full")
    if not os.path.exists(path):
        try:
            os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(1, 7))
        except PermissionError:
            return "/dev/full"
    return path


def is_char_device(path):
    return stat.S_ISCHR(os.lstat(path).st_mode)


def test_dev_full(names, summary):
    full = full_device()
    for what, args in (("analyze", [names]),
                       ("analyze -f json", ["-f", "json", names]),
                       ("merge", ["merge", summary, summary]),
                       ("compare", ["compare", summary, names]),
                       ("check", ["check", "-t", "totals.direct.reclaims > 0", summary]),
                       ("check -f json", ["check", "-f", "json", "-t",
                                          "totals.direct.reclaims > 0", summary])):
        with open(full, "wb") as f:
            r = run(args, stdout=f)
        check("%s > /dev/full exits 1 with a message" % what,
              r.returncode == 1 and b"No space left on device" in r.stderr,
              (r.returncode, r.stderr))
    for what, args in (("-j", ["-j", full, names]),
                       ("--svg", ["--svg", full, names]),
                       ("--openmetrics-file", ["--openmetrics-file", full, names]),
                       ("merge --openmetrics-file", ["merge", "--openmetrics-file", full,
                                                     summary]),
                       ("compare --svg", ["compare", "--svg", full, summary, names])):
        r = run(args, stdout=subprocess.DEVNULL)
        check("%s /dev/full exits 1 with a message naming it, and the device stays" % what,
              r.returncode == 1 and full.encode() in r.stderr and
              b"No space left on device" in r.stderr and is_char_device(full),
              (r.returncode, r.stderr))
    # a report that cannot be written: the --openmetrics-file stays as it was
    old = os.path.join(WORK, "old.prom")
    for what, args in (("analyze", ["--openmetrics-file", old, names]),
                       ("merge", ["merge", "--openmetrics-file", old, summary])):
        with open(old, "w") as f:
            f.write("OLD\n")
        with open(full, "wb") as f:
            r = run(args, stdout=f)
        check("%s > /dev/full: exit 1, its --openmetrics-file left as it was" % what,
              r.returncode == 1 and open(old).read() == "OLD\n", (r.returncode, r.stderr))


def test_closed_pipe(names, summary):
    """| head: standard output a pipe whose reader is gone.  A write error,
    status 1 without a message (the reader had what it wanted), not death by
    SIGPIPE (141) that leaves the outputs' temporary files behind."""
    d = os.path.join(WORK, "closedpipe")
    os.makedirs(d)
    with open(os.path.join(d, "out.json"), "w") as f:
        f.write("old\n")
    for what, args in (("analyze -j --svg", ["-f", "json", "-j", "out.json", "--svg", "out.svg",
                                             names]),
                       ("analyze -f openmetrics", ["-f", "openmetrics", names]),
                       ("a summary's report", [summary]),
                       ("merge", ["merge", summary, summary]),
                       ("compare --svg", ["compare", "--svg", "c.svg", summary, names]),
                       ("check", ["check", "-t", "totals.direct.reclaims > 0", summary]),
                       ("--help", ["--help"])):
        rd, wr = os.pipe()
        os.close(rd)
        r = subprocess.run([TOOL] + args, stdin=subprocess.DEVNULL, stdout=wr,
                           stderr=subprocess.PIPE, cwd=d, timeout=60)
        os.close(wr)
        check("%s into a closed pipe: status 1, no message" % what,
              r.returncode == 1 and r.stderr == b"", (r.returncode, r.stderr))
    check("closed pipe: the old output kept, no temporary file left",
          listing(d) == ["out.json"] and open(os.path.join(d, "out.json")).read() == "old\n",
          listing(d))


def test_outputs_not_regular(names, summary):
    """A FIFO is written as it is, never replaced; a symlink is followed: the
    file it leads to is replaced, the link stays (for every output)."""
    d = os.path.join(WORK, "notregular")
    os.makedirs(d)
    fifo = os.path.join(d, "fifo")
    os.mkfifo(fifo)
    for what, args in (("--openmetrics-file", ["--openmetrics-file", fifo, names]),
                       ("merge --openmetrics-file", ["merge", "--openmetrics-file", fifo,
                                                     summary]),
                       ("-j", ["-j", fifo, names])):
        got = []
        reader = threading.Thread(target=lambda: got.append(open(fifo, "rb").read()),
                                  daemon=True)
        reader.start()
        r = run(args, stdout=subprocess.DEVNULL)
        reader.join(10)
        check("%s onto a FIFO: written into it, exit 0, the FIFO stays" % what,
              r.returncode == 0 and stat.S_ISFIFO(os.lstat(fifo).st_mode) and got and
              len(got[0]) > 100, (r.returncode, r.stderr, got and got[0][:40]))
    os.makedirs(os.path.join(d, "real"))
    for opt, head in (("--openmetrics-file", b"# HELP"), ("-j", b"{"), ("--svg", b"<")):
        name = opt.strip("-")
        link = os.path.join(d, name + ".link")
        target = os.path.join(d, "real", name)
        with open(target, "w") as f:
            f.write("old\n")
        os.symlink(os.path.join("real", name), link)
        dangling = os.path.join(d, name + ".dangling")
        os.symlink(os.path.join("real", name + ".new"), dangling)
        r = run([opt, link, names], stdout=subprocess.DEVNULL)
        check("%s onto a symlink: the file it leads to is replaced, the link stays" % opt,
              r.returncode == 0 and os.path.islink(link) and
              open(target, "rb").read().startswith(head), (r.returncode, r.stderr))
        r = run([opt, dangling, names], stdout=subprocess.DEVNULL)
        check("%s onto a symlink to a file not made yet: made there, the link stays" % opt,
              r.returncode == 0 and os.path.islink(dangling) and
              open(target + ".new", "rb").read().startswith(head), (r.returncode, r.stderr))
    check("no temporary file left beside the links or their targets",
          not [n for n in os.listdir(d) + os.listdir(os.path.join(d, "real"))
               if n.startswith(".")], (os.listdir(d), os.listdir(os.path.join(d, "real"))))


def gate(args, data=b""):
    return run(["check"] + args, data=data)


def test_check_fails_closed(names):
    d = os.path.join(WORK, "gate")
    os.makedirs(d)
    empty = os.path.join(d, "empty.txt")
    open(empty, "w").close()
    rnd = os.path.join(d, "random.bin")
    with open(rnd, "wb") as f:
        f.write(bytes(random.Random(9).getrandbits(8) for _ in range(5000)))
    half = os.path.join(d, "half.dat")
    whole = open(fx("6.1", "dirty-swap", "upstream", "trace.dat"), "rb").read()
    with open(half, "wb") as f:
        f.write(whole[:len(whole) // 2])
    perf = os.path.join(d, "perf.data")
    with open(perf, "wb") as f:
        f.write(b"PERFILE2" + bytes(4096))
    ok = "totals.direct.reclaims >= 0"
    for name, path in (("an empty file", empty), ("5 kB of random bytes", rnd),
                       ("a truncated trace.dat", half), ("perf.data", perf)):
        for strict in ([], ["--strict"]):
            r = gate(strict + ["-t", ok, path])
            check("check %s on %s: exit 9" % (" ".join(strict), name),
                  r.returncode == 9 and b"check: " in r.stderr and r.stdout == b"",
                  (r.returncode, r.stdout, r.stderr))
    r = gate(["--allow-empty", "-t", ok, empty])
    check("check --allow-empty on an empty input: exit 0", r.returncode == 0, r.stderr)
    rej = os.path.join(d, "rejects.txt")
    with open(rej, "w") as f:
        f.write(open(names).read())
        f.write("  a-1 [000] 9.0: mm_vmscan_direct_reclaim_begin: order=banana\n")
    r = gate(["-t", ok, rej])
    check("check on a trace with a rejected line: exit 0", r.returncode == 0, r.stderr)
    r = gate(["--strict", "-t", ok, rej])
    check("check --strict on a trace with a rejected line: exit 9",
          r.returncode == 9 and b"rejected" in r.stderr, (r.returncode, r.stderr))
    # a run in which nothing stalled: kswapd worked, no task entered direct reclaim
    calm = os.path.join(d, "calm.txt")
    with open(calm, "w") as f:
        f.write("  kswapd0-50 [000] 1.000000: mm_vmscan_kswapd_wake: nid=0 order=0\n"
                "  kswapd0-50 [000] 1.005000: mm_vmscan_kswapd_sleep: nid=0\n")
    stall = "latency.direct_stall_ns.p99_ns < 5e6"
    r = gate(["-t", stall, calm])
    check("a p99 of no stalls holds vacuously, exit 0, saying so",
          r.returncode == 0 and b"vacuous: no direct reclaim stalls" in r.stdout and
          b"latency.direct_stall_ns.p99_ns = null, bound 5000000" in r.stdout,
          (r.returncode, r.stdout, r.stderr))
    # a statistic of nothing is vacuous only when nothing it counts happened
    open_end = os.path.join(d, "in-progress.txt")
    with open(open_end, "w") as f:
        f.write("  dd-100 [001] 20.000000: mm_vmscan_direct_reclaim_begin: order=0\n"
                "  kswapd0-45 [000] 30.000000: mm_vmscan_kswapd_wake: nid=0 order=0\n")
    for expr in ("latency.direct_stall_ns.max_ns < 1e6", "latency.direct_stall_ns.p99_ns < 1e6",
                 "latency.kswapd_awake_ns.p99_ns < 1"):
        r = gate(["-t", expr, open_end])
        check("'%s' of a trace whose one period never ended: not measured, exit 8" % expr,
              r.returncode == 8 and b"not measured" in r.stdout and b"began and none "
              b"completed" in r.stdout and b"vacuous" not in r.stdout, (r.returncode, r.stdout))
        r = gate(["--missing=pass", "-t", expr, open_end])
        check("  --missing=pass lets it pass", r.returncode == 0 and b"not measured" in r.stdout,
              (r.returncode, r.stdout))
    # a max beside a period still open: at least what that one had lasted
    beside = os.path.join(d, "open-beside-completed.txt")
    with open(beside, "w") as f:
        f.write("  dd-100 [000] 20.000000: mm_vmscan_direct_reclaim_begin: order=0\n"
                "  dd-100 [000] 20.001000: mm_vmscan_direct_reclaim_end: nr_reclaimed=1\n"
                "  cc-101 [001] 21.000000: mm_vmscan_direct_reclaim_begin: order=0\n"
                "  kswapd0-45 [001] 31.000000: mm_vmscan_kswapd_wake: nid=0 order=0\n")
    r = gate(["-t", "latency.direct_stall_ns.max_ns < 5e6", beside])
    check("a max of 1 ms completed beside a stall open for 10 s at the end: violated, exit 8",
          r.returncode == 8 and b"violated" in r.stdout and
          b"max_ns = 10000000000" in r.stdout and b"open at the end" in r.stdout,
          (r.returncode, r.stdout))
    r = gate(["-t", "latency.direct_stall_ns.max_ns < 20e9", beside])
    check("  and holds under a bound above it", r.returncode == 0 and b"holds" in r.stdout,
          (r.returncode, r.stdout))
    wrapped = fx("handmade", "wrapped-mail.txt")  # its reclaim lines broken, rejected
    r = gate(["-t", "latency.direct_stall_ns.p99_ns < 1", wrapped])
    check("a p99 of no stalls with rejected lines (a wrapped mail): not measured, exit 8",
          r.returncode == 8 and b"were rejected" in r.stdout, (r.returncode, r.stdout))
    doubt = os.path.join(d, "doubt.txt")
    with open(doubt, "w") as f:
        f.write("CPU:0 [LOST 3 EVENTS]\n" + open(calm).read())
    r = gate(["-t", stall, doubt])
    check("a p99 of no stalls with events lost: not measured, exit 8",
          r.returncode == 8 and b"not measured" in r.stdout, (r.returncode, r.stdout))
    with open(doubt, "w") as f:
        f.write("  kswapd0-50 [000] 0.900000: mm_vmscan_kswapd_sleep: nid=0\n" +
                open(calm).read())
    r = gate(["-t", stall, doubt])
    check("a p99 of no stalls in a trace begun in a kswapd wake-up (a sleep without its "
          "wake): still vacuous", r.returncode == 0 and b"vacuous" in r.stdout,
          (r.returncode, r.stdout))
    r = gate(["-t", "latency.kswapd_awake_ns.p99_ns < 1e6", calm])
    check("a measured p99 is still compared (kswapd awake 5 ms >= 1 ms: exit 8)",
          r.returncode == 8 and b"violated" in r.stdout, (r.returncode, r.stdout))
    notmeasured = "totals.direct.writes.file_sync == 0"  # a 6.1 trace cannot tell sync I/O
    r = gate(["-t", notmeasured, names])
    check("a value the trace cannot tell fails by default (exit 8, not measured)",
          r.returncode == 8 and b"not measured" in r.stdout, (r.returncode, r.stdout))
    r = gate(["--missing=pass", "-t", notmeasured, names])
    check("--missing=pass lets it pass", r.returncode == 0 and b"not measured" in r.stdout,
          (r.returncode, r.stdout))
    r = gate(["--missing=fail", "-t", notmeasured, names])
    check("--missing=fail: exit 8", r.returncode == 8)
    r = gate(["--missing=maybe", "-t", notmeasured, names])
    check("--missing=maybe: usage error", r.returncode == 2)
    for expr, field in (("totals.direct.no_such < 3", "totals.direct.no_such"),
                        ("3 > latency.p99", "latency.p99"),
                        ("input.sources == 1", "input.sources")):
        r = gate(["-t", expr, names])
        check("threshold '%s': usage error naming the field" % expr,
              r.returncode == 2 and (field is None or field.encode() in r.stderr), r.stderr)
    r = gate(["-t", "1 < 2", names])
    check("a threshold naming no field: usage error", r.returncode == 2, r.stderr)
    r = gate(["-t", "totals.direct.reclaims > 100", "-t", ok, empty])
    check("a violated threshold on an empty input: exit 9 (no trace), not 8", r.returncode == 9)
    r = gate(["-t", "totals.direct.reclaims > 100", "-t", "totals.direct.nope > 1", empty])
    check("  (an unknown field wins over an empty input: exit 2)", r.returncode == 2)

    # a bound is a finite number: NaN would pass with !=, and neither is JSON
    for expr in ("totals.direct.reclaims != +nan", "+nan * totals.direct.reclaims != 3",
                 "totals.direct.reclaims < +inf", "totals.direct.reclaims > -Infinity",
                 "totals.direct.reclaims != nan"):
        for fmt in ([], ["-f", "json"]):
            r = gate(fmt + ["-t", expr, names])
            check("threshold '%s' %s: usage error (not a finite number)" % (expr, " ".join(fmt)),
                  r.returncode == 2 and r.stdout == b"" and
                  (b"not a finite number" in r.stderr or b"not a field of the summary" in
                   r.stderr), (r.returncode, r.stdout, r.stderr))
    for missing in ([], ["--missing=pass"]):
        r = gate(missing + ["-f", "json", "-t", "1e308 * totals.direct.reclaims > 3", names])
        try:
            doc = json.loads(r.stdout)
        except ValueError:
            doc = None
        check("a product past a double's range fails %s, its -f json document is JSON" %
              " ".join(missing), r.returncode == 8 and doc is not None and
              doc["thresholds"][0]["measured"] is None and b"overflows" in r.stdout,
              (r.returncode, r.stdout))

    # a thresholds file is read whole, or the gate fails naming it
    r = gate(["-t", ok, "--thresholds", d, names])
    check("--thresholds naming a directory: exit 3 naming it, not a pass on -t alone",
          r.returncode == 3 and d.encode() in r.stderr and r.stdout == b"",
          (r.returncode, r.stdout, r.stderr))
    r = gate(["--thresholds", d, names])
    check("--thresholds naming a directory, no -t: exit 3 naming it",
          r.returncode == 3 and d.encode() in r.stderr and b"wants thresholds" not in r.stderr,
          (r.returncode, r.stderr))
    if os.path.exists("/proc/self/mem"):
        r = gate(["-t", ok, "--thresholds", "/proc/self/mem", names])
        check("--thresholds of a file that fails to read: exit 3 naming it",
              r.returncode == 3 and b"/proc/self/mem" in r.stderr, (r.returncode, r.stderr))
    longc = os.path.join(d, "long-comment.thr")
    with open(longc, "w") as f:
        f.write("# " + "x" * 1100 + " totals.direct.reclaims > 1e18\n")
        f.write("totals.direct.reclaims " + " " * 1100 + "== 3\n")
    r = gate(["--thresholds", longc, names])
    check("--thresholds: a line over 1024 bytes is one line (a long comment stays a comment)",
          r.returncode == 0 and r.stdout.count(b"\n") == 1 and b"holds" in r.stdout,
          (r.returncode, r.stdout, r.stderr))
    crlf = os.path.join(d, "crlf.thr")
    with open(crlf, "wb") as f:
        f.write(b"# a gate\r\ntotals.direct.reclaims == 3\r\n\r\ntotals.direct.reclaims > 5\r\n")
    r = gate(["--thresholds", crlf, names])
    check("--thresholds: a CRLF file is read (each threshold judged)",
          r.returncode == 8 and r.stdout.count(b"\n") == 2 and b"violated" in r.stdout,
          (r.returncode, r.stdout, r.stderr))
    nul = os.path.join(d, "nul.thr")
    with open(nul, "wb") as f:
        f.write(b"totals.direct.reclaims == 3\0 && totals.direct.reclaims > 5\n")
    r = gate(["--thresholds", nul, names])
    check("--thresholds: a NUL byte in a line is a usage error naming the file and line",
          r.returncode == 2 and (nul + ":1").encode() in r.stderr, (r.returncode, r.stderr))
    empty_thr = os.path.join(d, "comments.thr")
    with open(empty_thr, "w") as f:
        f.write("# nothing yet\n\n")
    r = gate(["--thresholds", empty_thr, names])
    check("--thresholds of comments only, no -t: exit 2 naming the file",
          r.returncode == 2 and empty_thr.encode() in r.stderr, (r.returncode, r.stderr))

    # verdicts for machines
    exprs = ["totals.direct.reclaims == 3", "totals.direct.reclaims > 3", stall, notmeasured]
    args = []
    for e in exprs:
        args += ["-t", e]
    junit = os.path.join(d, "report.xml")
    r = gate(["-f", "json", "--junit", junit] + args + [names])
    try:
        doc = json.loads(r.stdout)
    except ValueError:
        doc = {}
    got = [(t["threshold"], t["field"], t["verdict"], t["pass"], t["measured"], t["bound"])
           for t in doc.get("thresholds", [])]
    want = [(exprs[0], "totals.direct.reclaims", "holds", True, 3, 3),
            (exprs[1], "totals.direct.reclaims", "violated", False, 3, 3),
            (stall, "latency.direct_stall_ns.p99_ns", "holds", True, 3000000, 5000000),
            (notmeasured, "totals.direct.writes.file_sync", "not measured", False, None, 0)]
    check("check --format json: one verdict per threshold", r.returncode == 8 and
          doc.get("status") == "fail" and got == want, (r.returncode, got))
    try:
        root = ET.parse(junit).getroot()
    except (ET.ParseError, OSError) as e:
        root = None
        print(e)
    cases = root.findall("./testsuite/testcase") if root is not None else []
    check("--junit: a JUnit report, one testcase per threshold",
          root is not None and root.tag == "testsuites" and
          [c.get("name") for c in cases] == exprs, cases)
    fails = [c.get("name") for c in cases if c.find("failure") is not None]
    check("--junit: failure elements for the violations", fails == [exprs[1], exprs[3]] and
          root.get("failures") == "2" and root.get("tests") == "4", fails)
    r = gate(["--junit", junit, "-t", ok, empty])
    root = ET.parse(junit).getroot()
    check("--junit on an input without a trace: one failing testcase, exit 9",
          r.returncode == 9 and len(root.findall("./testsuite/testcase/failure")) == 1)
    r = gate(["--junit", names, "-t", ok, names])
    check("--junit naming the input is refused", r.returncode == 2)
    shutil.copy(names, os.path.join(d, "old-trace.txt"))
    h = digest(os.path.join(d, "old-trace.txt"))
    r = gate(["--junit", os.path.join(d, "old-trace.txt"), "-t", ok, empty])
    check("--junit onto a recorded trace is refused", r.returncode == 2 and
          digest(os.path.join(d, "old-trace.txt")) == h, r.stderr)


def test_no_silent_options(names, summary):
    d = os.path.join(WORK, "silent")
    os.makedirs(d)
    cases = [
        (["-t", "totals.direct.reclaims > 0", names], "--threshold"),
        (["--thresholds", names, names], "--thresholds"),
        (["--ignore-pid", "--latency-list", names], "--ignore-pid"),
        (["merge", "-f", "classic", summary], "--format"),
        (["merge", "--svg", "x.svg", summary], "--svg"),
        (["merge", "--strict", summary], "--strict"),
        (["compare", "--latencies", "x.csv", summary, summary], "--latencies"),
        (["compare", "-f", "json", "--relative", summary, summary], "--relative"),
        (["compare", "--pretty", summary, summary], "--pretty"),
        (["--name", "x", names], "--name"),
        (["--relative", names], "--relative"),
        (["check", "--name", "x", "-t", "totals.direct.reclaims > 0", names], "--name"),
        (["check", "-j", "x.json", "-t", "totals.direct.reclaims > 0", names], "--json"),
        (["--junit", "x.xml", names], "--junit"),
        (["--missing=pass", names], "--missing"),
        (["--allow-empty", names], "--allow-empty"),
        (["-f", "json", "--histogram", names], "--histogram"),
        (["-f", "json", "--latency-list", names], "--latency-list"),
        (["-f", "prometheus", "--histogram", names], "--histogram"),
        (["-f", "openmetrics", "--histogram", names], "--histogram"),
        (["-f", "openmetrics", "--latency-list", names], "--latency-list"),
        (["-f", "prometheus", "--latency-list", names], "--latency-list"),
        (["-f", "prometheus", "--histogram", summary], "--histogram"),
        (["--pretty", names], "--pretty"),
        (["--duration", "1", names], "--duration"),
        (["-f", "json", "--pretty", "--interval", "1", names], "--pretty"),
    ]
    for args, opt in cases:
        r = run(args, cwd=d)
        check("%s: exit 2 naming %s" % (" ".join(args[:4]), opt),
              r.returncode == 2 and opt.encode() in r.stderr, (r.returncode, r.stderr))
    check("refused options wrote no file", listing(d) == [], listing(d))
    for args in (["-f", "json", "--pretty", names], ["--pretty", "-j", "p.json", names],
                 ["merge", "-f", "json", summary], ["compare", "-f", "json", "--pretty",
                                                     summary, summary]):
        r = run(args, cwd=d)
        check("%s still works" % " ".join(args[:4]), r.returncode == 0, r.stderr)


def readme_ci_steps():
    """The check commands of the README's CI section: (CI name, argv, report path)."""
    text = open(os.path.join(SRC, "README.md")).read()
    section = text.split("\n### CI\n", 1)[1].split("\n#", 1)[0]
    steps = []
    for block in section.split("```yaml\n")[1:]:
        block = block.split("```", 1)[0]
        ci = "GitHub Actions" if "uses:" in block else "GitLab CI"
        lines = block.splitlines()
        start = next(i for i, l in enumerate(lines) if "vmscan-analyze check" in l)
        cmd = []
        for l in lines[start:]:
            l = l.strip()
            l = (l[2:] if l.startswith("- ") else l).rstrip("\\").strip()
            if cmd and (l.endswith(":") or ": " in l and not l.startswith("-t")):
                break
            cmd.append(l)
        argv = shlex.split(" ".join(cmd))
        report = re.search(r"(?:report_paths|junit): (\S+)", block)
        steps.append((ci, argv, report and report.group(1)))
    return steps


def test_readme_ci():
    steps = readme_ci_steps()
    check("the README's CI section has a GitHub Actions and a GitLab CI step",
          sorted(ci for ci, _, _ in steps) == ["GitHub Actions", "GitLab CI"], steps)
    for ci, argv, report in steps:
        d = os.path.join(WORK, "ci-" + ci.split()[0])
        os.makedirs(d)
        shutil.copy(fx("6.1", "dirty-swap", "upstream", "trace.dat"), os.path.join(d, "trace.dat"))
        r = run([a for a in argv[1:]], cwd=d)
        junit = argv[argv.index("--junit") + 1] if "--junit" in argv else None
        try:
            root = ET.parse(os.path.join(d, junit)).getroot()
            cases = [c.get("name") for c in root.iter("testcase")]
        except (OSError, ET.ParseError, TypeError):
            cases = None
        thresholds = [argv[i + 1] for i, a in enumerate(argv) if a == "-t"]
        check("README %s: the step runs check, which writes the JUnit report it publishes "
              "(one testcase per threshold)" % ci,
              argv[:2] == ["vmscan-analyze", "check"] and r.returncode in (0, 8) and
              junit is not None and junit == report and cases == thresholds and thresholds,
              (argv, r.returncode, r.stderr, report, cases))


def main():
    global TOOL, SRC, WORK
    TOOL, SRC, WORK = sys.argv[1:4]
    shutil.rmtree(WORK, ignore_errors=True)
    os.makedirs(WORK)
    names = fx("handmade", "names.txt")
    summary = os.path.join(WORK, "names.json")
    with open(summary, "wb") as f:
        f.write(run(["-f", "json", names]).stdout)
    test_outputs_never_destroy_inputs(names)
    test_stdout_is_an_input(names, summary)
    test_failed_run_keeps_old_output(names)
    test_outputs_checked_first(names)
    test_terminal_stdin()
    test_dev_full(names, summary)
    test_outputs_not_regular(names, summary)
    test_closed_pipe(names, summary)
    test_check_fails_closed(names)
    test_no_silent_options(names, summary)
    test_readme_ci()
    return exit_status()


if __name__ == "__main__":
    sys.exit(main())
