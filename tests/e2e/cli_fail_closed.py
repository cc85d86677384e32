#!/usr/bin/python3
"""No damaged input or interrupted run may look like a clean result.

- check stopped by a signal (SIGTERM, SIGHUP, SIGINT; on a file and on a
  pipe) exits 11, writes its --junit file with an error and prints no pass
  (-f json: "status": "interrupted"); an analysis stopped by SIGTERM,
  SIGHUP or a second SIGINT while reading a pipe says stopped_before_end.
- An output that is the file on standard input (by device and inode) is
  refused, exit 2, the file byte for byte as it was.
- The same file given twice to the analysis is refused, exit 12.
- The outputs of a run are renamed into place together, only when every
  one was written whole (a file size limit makes one fail).
- A summary through a pipe's path (<(cat s.json), /dev/stdin) is read as a
  summary, not as an empty text trace.
- A summary is checked against the schema as it is read: a count of -1,
  1.5, "246", null where none may be, a required field deleted: exit 6
  (check: 9) naming the field; a UTF-8 byte order mark is skipped.
- merge keeps a null of writes.pages (or of a sync count) where it hides
  writes: a number beside it would pass a gate on what is unknown.
- Strings put into JSON are UTF-8 (a trace.dat's damaged uname included).

The signal tests wait on what can be seen, never on time: a signal sent
before the program starts (pending, blocked, across exec: delivered as
soon as the program's handler is in place), a FIFO the test holds open (the
program has opened it once the test's open returns), a report read back.

usage: cli_fail_closed.py TOOL SOURCE_DIR WORKDIR
"""
import hashlib
import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import xml.etree.ElementTree as ET

from checks import check, exit_status

TOOL = SRC = WORK = None


def run(args, data=b"", cwd=None, stdin=None, **kw):
    if stdin is None:
        return subprocess.run([TOOL] + args, input=data, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, cwd=cwd, timeout=120, **kw)
    return subprocess.run([TOOL] + args, stdin=stdin, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, cwd=cwd, timeout=120, **kw)


def digest(path):
    return hashlib.sha256(open(path, "rb").read()).hexdigest()


def fx(*parts):
    return os.path.join(SRC, "fixtures", *parts)


SIGS = (("SIGTERM", signal.SIGTERM), ("SIGHUP", signal.SIGHUP), ("SIGINT", signal.SIGINT))


def pending(sig):
    """A preexec_fn: sig blocked and sent to the child itself, so that it is
    pending when the program starts and is delivered once its handler is in
    place (a signal that came while the program was on its way)."""
    def pre():
        signal.pthread_sigmask(signal.SIG_BLOCK, [sig])
        os.kill(os.getpid(), sig)
    return pre


def junit_error(path):
    """(errors, failures, the error's message) of a --junit file, or None."""
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError):
        return None
    suite = root.find("testsuite")
    err = root.find(".//error")
    return (suite.get("errors"), suite.get("failures"),
            err.get("message") if err is not None else None)


def interrupted_ok(name, r, junit, fmt_json):
    out = r.stdout.decode(errors="replace")
    check("%s: exit 11, said on stderr" % name,
          r.returncode == 11 and b"interrupted by" in r.stderr, (r.returncode, r.stderr))
    if fmt_json:
        try:
            doc = json.loads(out)
        except ValueError:
            doc = {}
        check("%s: -f json says interrupted, not pass, no verdict" % name,
              doc.get("status") == "interrupted" and doc.get("exit_status") == 11 and
              doc.get("thresholds") == [] and "pass" not in out.replace('"pass":', ""),
              out)
    else:
        check("%s: no 'ok' line on standard output" % name, "ok" not in out, out)
    j = junit_error(junit)
    check("%s: the --junit file holds an error, no pass" % name,
          j is not None and j[0] == "1" and j[2] and "interrupted" in j[2], j)


def test_check_interrupted(names, summary):
    d = os.path.join(WORK, "interrupted")
    os.makedirs(d)
    junit = os.path.join(d, "j.xml")
    trace = open(names, "rb").read()
    thr = ["-t", "totals.direct.reclaims >= 0"]
    # the gate passes when nothing stops it
    r = run(["check"] + thr + ["--junit", junit, names])
    check("check without a signal: exit 0", r.returncode == 0, (r.returncode, r.stderr))
    for sname, sig in SIGS:
        for fmt in ([], ["-f", "json"]):
            # a file, a summary, standard input (a pipe): the signal came
            # before the verdict
            for what, args, data in (("a trace file", [names], b""),
                                     ("a summary", [summary], b""),
                                     ("standard input", ["-"], trace)):
                if os.path.exists(junit):
                    os.unlink(junit)
                r = run(["check"] + fmt + thr + ["--junit", junit] + args, data=data,
                        preexec_fn=pending(sig))
                interrupted_ok("check %s, %s on %s" % (" ".join(fmt), sname, what), r, junit,
                               bool(fmt))
    # a FIFO the test holds open: the signal comes while the program waits
    # for the rest of the trace
    fifo = os.path.join(d, "fifo")
    os.mkfifo(fifo)
    lines = trace.splitlines(True)
    for sname, sig in SIGS + (("two SIGINTs", None),):
        if os.path.exists(junit):
            os.unlink(junit)
        p = subprocess.Popen([TOOL, "check", "-f", "json"] + thr + ["--junit", junit, fifo],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        w = open(fifo, "wb")  # returns once the program has opened it
        w.write(b"".join(lines[:len(lines) // 2]))
        w.flush()
        if sig is None:
            p.send_signal(signal.SIGINT)
            p.send_signal(signal.SIGINT)
        else:
            p.send_signal(sig)
        out, err = finish(p)
        try:
            w.close()
        except BrokenPipeError:
            pass
        interrupted_ok("check -f json, %s on a FIFO" % sname,
                       subprocess.CompletedProcess(p.args, p.returncode, out, err), junit, True)


def finish(p):
    """(stdout, stderr) of p once it exits; killed (-9) when it hangs."""
    try:
        return p.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        p.kill()
        return p.communicate()


def stopped_before_end(out):
    """Whether the JSON report says stopped_before_end (trait and note)."""
    try:
        doc = json.loads(out)
    except ValueError:
        return None
    trait = any(s.get("traits", {}).get("stopped_before_end")
                for s in doc["input"]["sources"])
    note = any(n.startswith("stopped_before_end") for n in doc.get("notes", []))
    return trait and note


def test_analysis_stopped_on_pipe(names):
    d = os.path.join(WORK, "stopped")
    os.makedirs(d)
    fifo = os.path.join(d, "fifo")
    os.mkfifo(fifo)
    lines = open(names, "rb").read().splitlines(True)
    for sname, sig in SIGS[:2] + (("two SIGINTs", signal.SIGINT),):
        p = subprocess.Popen([TOOL, "-f", "json", fifo], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE)
        w = open(fifo, "wb")  # returns once the program has opened it
        w.write(b"".join(lines[:len(lines) // 2]))
        w.flush()
        p.send_signal(sig)
        if sname == "two SIGINTs":
            # the first one's report, read back, then the second
            first = p.stdout.readline()
            p.send_signal(sig)
        else:
            first = b""
        out, err = finish(p)
        try:
            w.close()
        except BrokenPipeError:
            pass
        final = out.splitlines()[-1] if out.strip() else b""
        if sname == "two SIGINTs":
            # each report is a line {"interval": ..., "summary": ...}
            try:
                final = json.dumps(json.loads(final)["summary"]).encode()
            except (ValueError, KeyError):
                final = b""
            check("a FIFO's analysis, first SIGINT: a report, not stopped_before_end",
                  first.startswith(b"{\"interval\"") and
                  stopped_before_end(json.dumps(json.loads(first)["summary"])) is False, first)
        check("a FIFO's analysis stopped by %s: stopped_before_end (trait, note), exit 0" % sname,
              p.returncode == 0 and stopped_before_end(final), (p.returncode, err, final[:300]))
    # read to its end: not said
    r = run(["-f", "json", "-"], data=open(names, "rb").read())
    check("a pipe read to its end: no stopped_before_end",
          r.returncode == 0 and stopped_before_end(r.stdout) is False, r.stderr)


def test_outputs_not_stdin(names, summary):
    d = os.path.join(WORK, "stdin-outputs")
    os.makedirs(d)
    s = os.path.join(d, "s.json")
    t = os.path.join(d, "t.txt")
    o = os.path.join(d, "o.json")
    shutil.copy(summary, o)
    cases = (
        ("--svg s.json < s.json", s, summary, ["--svg", "s.json"]),
        ("--openmetrics-file s.json < s.json", s, summary, ["--openmetrics-file", "s.json"]),
        ("check --junit s.json - < s.json", s, summary,
         ["check", "-t", "totals.direct.reclaims >= 0", "--junit", "s.json", "-"]),
        ("compare --svg s.json - o.json < s.json", s, summary,
         ["compare", "--svg", "s.json", "-", "o.json"]),
        ("--force -j t.txt < t.txt", t, names, ["--force", "-j", "t.txt"]),
        ("--force --latencies t.txt - < t.txt", t, names, ["--force", "--latencies", "t.txt", "-"]),
        ("merge --openmetrics-file s.json - < s.json", s, summary,
         ["merge", "--openmetrics-file", "s.json", "-"]),
    )
    for name, victim, src, args in cases:
        shutil.copy(src, victim)
        before = digest(victim)
        with open(victim, "rb") as inp:
            r = run(args, stdin=inp, cwd=d)
        check("%s: refused, exit 2, the input byte-identical" % name,
              r.returncode == 2 and b"standard input" in r.stderr and digest(victim) == before,
              (r.returncode, r.stderr))
    # another file on standard input: written
    shutil.copy(summary, s)
    with open(s, "rb") as inp:
        r = run(["--svg", "other.svg"], stdin=inp, cwd=d)
    check("--svg other.svg < s.json: written, exit 0",
          r.returncode == 0 and os.path.getsize(os.path.join(d, "other.svg")) > 0, r.stderr)


def test_input_named_twice(names, summary):
    d = os.path.join(WORK, "twice")
    os.makedirs(d)
    t = os.path.join(d, "t.txt")
    shutil.copy(names, t)
    os.link(t, os.path.join(d, "hard.txt"))
    os.symlink("t.txt", os.path.join(d, "sym.txt"))
    shutil.copy(summary, os.path.join(d, "s.json"))
    for name, args, stdin_file in (
            ("t.txt t.txt", ["t.txt", "t.txt"], None),
            ("t.txt ./t.txt", ["t.txt", "./t.txt"], None),
            ("t.txt and a hard link to it", ["t.txt", "hard.txt"], None),
            ("t.txt and a symlink to it", ["t.txt", "sym.txt"], None),
            ("- t.txt < t.txt", ["-", "t.txt"], t),
            ("- - (standard input twice)", ["-", "-"], t),
            ("a summary twice", ["s.json", "s.json"], None),
            ("-f json --openmetrics-file m.prom s.json s.json",
             ["--openmetrics-file", "m.prom", "s.json", "s.json"], None)):
        if stdin_file:
            with open(stdin_file, "rb") as inp:
                r = run(args, stdin=inp, cwd=d)
        else:
            r = run(args, cwd=d)
        check("%s: refused, exit 12, told" % name,
              r.returncode == 12 and b"twice" in r.stderr and not r.stdout,
              (r.returncode, r.stderr))
    # two files alike but two files: read
    shutil.copy(t, os.path.join(d, "copy.txt"))
    r = run(["t.txt", "copy.txt"], cwd=d)
    check("two copies (two files): read, exit 0", r.returncode == 0, (r.returncode, r.stderr))


def stalls_trace(path, n):
    """A text trace of n direct reclaims of one task: a long --latencies file,
    a short summary."""
    with open(path, "w") as f:
        for i in range(n):
            t = 1 + i * 0.001
            f.write("   dd-700 [000] .....  %.6f: mm_vmscan_direct_reclaim_begin: order=0 "
                    "gfp_flags=GFP_KERNEL\n" % t)
            f.write("   dd-700 [000] .....  %.6f: mm_vmscan_direct_reclaim_end: "
                    "nr_reclaimed=1\n" % (t + 0.0005))


def file_limit(limit):
    """A preexec_fn: files written past limit bytes fail (EFBIG, SIGXFSZ ignored)."""
    def pre():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return pre


def test_outputs_all_or_nothing(names, summary):
    d = os.path.join(WORK, "all-or-nothing")
    os.makedirs(d)
    trace = os.path.join(d, "stalls.txt")
    stalls_trace(trace, 4000)
    outs = {"-j": "s.json", "--svg": "s.svg", "--openmetrics-file": "m.prom",
            "--latencies": "l.csv"}
    args = [a for k, v in outs.items() for a in (k, v)]
    # how long each is
    r = run(args + [trace], cwd=d)
    sizes = {v: os.path.getsize(os.path.join(d, v)) for v in outs.values()}
    small = max(sizes["s.json"], sizes["s.svg"], sizes["m.prom"])
    check("the --latencies file is the longest output (%s)" % sizes,
          r.returncode == 0 and sizes["l.csv"] > 2 * small, (r.returncode, r.stderr, sizes))
    for v in outs.values():
        with open(os.path.join(d, v), "w") as f:
            f.write("old %s\n" % v)
    # the --latencies file cannot be written whole: none is replaced
    limit = (small + sizes["l.csv"]) // 2
    r = run(args + [trace], cwd=d, preexec_fn=file_limit(limit))
    check("an output that cannot be written whole: exit 1, told",
          r.returncode == 1 and b"l.csv" in r.stderr, (r.returncode, r.stderr))
    for v in outs.values():
        check("... and %s is the old one" % v,
              open(os.path.join(d, v)).read() == "old %s\n" % v, open(os.path.join(d, v)).read()[:80])
    check("... and no temporary file is left",
          sorted(os.listdir(d)) == sorted(list(outs.values()) + ["stalls.txt"]),
          sorted(os.listdir(d)))
    # a summary given for a report with a trace: its --openmetrics-file is
    # written (it was left out)
    m = os.path.join(d, "both.prom")
    r = run(["--openmetrics-file", m, names, summary])
    check("a trace and a summary with --openmetrics-file: the file is written",
          r.returncode == 0 and os.path.exists(m) and
          b"vmscan_reclaims_total" in open(m, "rb").read(), (r.returncode, r.stderr))


def sh(cmd, **kw):
    """A bash command line (for <(...)), TOOL as $T."""
    return subprocess.run(["bash", "-c", cmd], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          env=dict(os.environ, T=TOOL), timeout=120, **kw)


def test_summary_through_a_pipe(names, summary):
    big = fx("synthetic", "6.1-mixed.txt")
    env = dict(S=summary, N=names, B=big)
    q = {k: "'%s'" % v for k, v in env.items()}
    want = run(["merge", summary]).stdout
    r = sh('"$T" merge <(cat %(S)s)' % q)
    check("merge <(cat s.json): the summary merged, as merge s.json",
          r.returncode == 0 and r.stdout == want, (r.returncode, r.stderr, r.stdout[:200]))
    with open(summary, "rb") as inp:
        r = sh('"$T" merge /dev/stdin', stdin=inp)
    check("merge /dev/stdin < s.json: the summary", r.returncode == 0 and r.stdout == want,
          (r.returncode, r.stderr))
    r = sh('cat %(S)s | "$T" merge /dev/stdin' % q)
    check("cat s.json | merge /dev/stdin: the summary", r.returncode == 0 and r.stdout == want,
          (r.returncode, r.stderr))
    r = sh('"$T" check -t "totals.direct.reclaims >= 3" <(cat %(S)s)' % q)
    check("check on <(cat s.json): the summary's numbers (exit 0)",
          r.returncode == 0 and b"= 3" in r.stdout, (r.returncode, r.stderr, r.stdout))
    r = sh('"$T" compare %(S)s <(cat %(S)s)' % q)
    rows = [l.split() for l in r.stdout.decode().splitlines() if l.startswith("Direct reclaims ")]
    check("compare s.json <(cat s.json): the same column twice",
          r.returncode == 0 and rows and rows[0][-1] == rows[0][-2] == "3", (r.stderr, rows))
    r = sh('"$T" -f json <(cat %(S)s)' % q)
    check("<(cat s.json) for a report: the summary's", r.returncode == 0 and
          json.loads(r.stdout)["totals"]["direct"]["reclaims"] == 3, (r.returncode, r.stderr))
    # a trace through a pipe's path is read whole, as the file is (its pipe
    # is held open while the path is read again)
    want = run(["-f", "json", big]).stdout
    r = sh('"$T" -f json <(cat %(B)s)' % q)
    a = json.loads(r.stdout) if r.returncode == 0 else {}
    b = json.loads(want)
    for doc in (a, b):
        for src in doc.get("input", {}).get("sources", []):
            src.pop("name", None)
    check("a trace through <(cat t.txt): as the file", r.returncode == 0 and
          a.get("totals") == b["totals"] and a["input"] == b["input"], (r.returncode, r.stderr))


def tampered(summary, d, name, path, value):
    """summary with the field at path (dots; list indexes as numbers) set to
    value, or deleted (value DELETE), written to d/name."""
    doc = json.load(open(summary))
    o = doc
    keys = path.split(".")
    for k in keys[:-1]:
        o = o[int(k)] if isinstance(o, list) else o[k]
    if value is DELETE:
        del o[keys[-1]]
    else:
        o[keys[-1]] = value
    out = os.path.join(d, name)
    with open(out, "w") as f:
        json.dump(doc, f)
    return out


DELETE = object()


def test_summaries_validated(names, summary):
    d = os.path.join(WORK, "tampered")
    os.makedirs(d)
    cases = (("totals.direct.reclaims", -1, "negative"),
             ("totals.direct.reclaims", 1.5, "not an integer"),
             ("totals.direct.reclaims", "246", "not a number"),
             ("totals.direct.reclaims", None, "null"),
             ("totals.direct.reclaims", DELETE, "missing"),
             ("input.lines_rejected", None, "null"),
             ("input.sources.0.lines_rejected", -1, "negative"),
             ("totals.direct.writes.file_sync", True, "not a number"),
             ("totals.sync_io_applicable", 1, "not true or false"),
             ("latency.direct_stall_ns.count", DELETE, "missing"))
    for i, (path, value, why) in enumerate(cases):
        shown = "deleted" if value is DELETE else json.dumps(value)
        t = tampered(summary, d, "t%d.json" % i, path, value)
        for sub, args, status in (("merge", ["merge", t], 6), ("a report", [t], 6),
                                  ("-f json", ["-f", "json", t], 6),
                                  ("compare", ["compare", summary, t], 6),
                                  ("check", ["check", "-t", "totals.direct.reclaims >= 0", t],
                                   9)):
            r = run(args)
            msg = ("%s: not a valid summary: %s: %s" % (t, path.replace(".0.", "[0]."), why)
                   ).encode()
            check("%s = %s, %s: exit %d naming the field" % (path, shown, sub, status),
                  r.returncode == status and msg in r.stderr and b"pass" not in r.stdout,
                  (r.returncode, r.stderr, r.stdout[:200]))
    # a task row: read a row at a time by merge
    t = tampered(summary, d, "row.json", "processes.0.pid", -3)
    r = run(["merge", t])
    check("processes[0].pid = -3, merge: exit 6 naming it", r.returncode == 6 and
          b"processes[0].pid: negative" in r.stderr, (r.returncode, r.stderr))
    t = tampered(summary, d, "row2.json", "processes.0.direct.reclaims", 2.5)
    r = run(["merge", t])
    check("processes[0].direct.reclaims = 2.5, merge: exit 6 naming it", r.returncode == 6 and
          b"processes[0].direct.reclaims: not an integer" in r.stderr, (r.returncode, r.stderr))
    # null where the schema allows it, and 2^64 - 1: read as they are
    for path, value in (("totals.direct.writes.pages", None), ("input.events_lost", None),
                        ("totals.direct.reclaims", 2 ** 64 - 1)):
        t = tampered(summary, d, "ok.json", path, value)
        r = run(["merge", t])
        got = json.loads(r.stdout) if r.returncode == 0 else {}
        o = got
        for k in path.split("."):
            o = o.get(k, "absent") if isinstance(o, dict) else "absent"
        check("%s = %s: merged as it is" % (path, json.dumps(value)),
              r.returncode == 0 and o == value, (r.returncode, r.stderr, o))
    # compare prints such a count as the integer it is (a double's %.0f
    # printed 2^64 - 1 as 18446744073709551616)
    t = tampered(summary, d, "max.json", "totals.direct.reclaims", 2 ** 64 - 1)
    r = run(["compare", summary, t])
    row = [l for l in r.stdout.decode().splitlines() if l.startswith("Direct reclaims ")]
    check("compare: a count of 2^64 - 1 printed as 18446744073709551615",
          r.returncode == 0 and len(row) == 1 and row[0].split()[-1] == str(2 ** 64 - 1) and
          row[0].split()[-2] == "3", (r.returncode, r.stderr, row))
    # a UTF-8 byte order mark (an editor's) is skipped
    bom = os.path.join(d, "bom.json")
    with open(bom, "wb") as f:
        f.write(b"\xef\xbb\xbf" + open(summary, "rb").read())
    want = run(["merge", summary]).stdout
    r = run(["merge", bom])
    check("a summary after a UTF-8 BOM: merged as without it",
          r.returncode == 0 and r.stdout == want, (r.returncode, r.stderr))
    r = run(["-f", "json", bom])
    check("a summary after a UTF-8 BOM: its report (not a text trace)",
          r.returncode == 0 and json.loads(r.stdout)["totals"]["direct"]["reclaims"] == 3,
          (r.returncode, r.stderr))
    r = run(["check", "-t", "totals.direct.reclaims == 3", bom])
    check("a summary after a UTF-8 BOM: check reads it", r.returncode == 0,
          (r.returncode, r.stderr))


def edited(summary, d, name, edit):
    doc = json.load(open(summary))
    edit(doc)
    out = os.path.join(d, name)
    with open(out, "w") as f:
        json.dump(doc, f)
    return out


def test_merge_keeps_hidden_nulls(names, summary):
    d = os.path.join(WORK, "merge-nulls")
    os.makedirs(d)
    doc = json.load(open(summary))
    w = doc["totals"]["direct"]["writes"]
    check("the summary's direct writes: one, its pages null (no nr_pages)",
          w["anon_async"] == 1 and w["pages"] is None, w)

    def complete(doc):
        doc["totals"]["direct"]["writes"]["pages"] = 1
        for r in doc["processes"]:
            r["direct"]["writes"]["pages"] = r["direct"]["writes"]["anon_async"]
    full = edited(summary, d, "full.json", complete)

    def no_writes(doc):
        doc["totals"]["direct"]["writes"]["anon_async"] = 0
        for r in doc["processes"]:
            r["direct"]["writes"]["anon_async"] = 0
    quiet = edited(summary, d, "quiet.json", no_writes)

    def unknown(doc):
        w = doc["totals"]["direct"]["writes"]
        w["file_async"] = w["anon_async"] = None
    unk = edited(summary, d, "unknown.json", unknown)

    def sync_known(doc):
        doc["totals"]["direct"]["writes"]["file_sync"] = 2
    sync = edited(summary, d, "sync.json", sync_known)

    def merged(*paths):
        r = run(["merge"] + list(paths))
        return json.loads(r.stdout) if r.returncode == 0 else None

    for order in ((summary, full), (full, summary)):
        m = merged(*order)
        rows = [r["direct"]["writes"]["pages"] for r in (m or {}).get("processes", [])
                if r["comm"] == "Web Content"]
        check("merge %s %s: writes.pages null (a write of unknown pages), totals and row" %
              tuple(os.path.basename(p) for p in order),
              m and m["totals"]["direct"]["writes"]["pages"] is None and rows == [None],
              (m and m["totals"]["direct"]["writes"], rows))
        r = run(["check", "-t", "totals.direct.writes.pages < 100", "-"],
                data=json.dumps(m).encode())
        check("... and a gate on it is not measured, exit 8",
              r.returncode == 8 and b"not measured" in r.stdout, (r.returncode, r.stdout))
    # a piece without writes: its null is no unknown (as before)
    m = merged(quiet, full)
    check("merge of a summary without writes (pages null) and one with: the number",
          m and m["totals"]["direct"]["writes"]["pages"] == 1,
          m and m["totals"]["direct"]["writes"])
    # sync counts: null when the kernel cannot write so (a number kept), null
    # when the writes are unknown (kept null)
    m = merged(summary, sync)
    check("file_sync null (not applicable) and 2: 2",
          m and m["totals"]["direct"]["writes"]["file_sync"] == 2,
          m and m["totals"]["direct"]["writes"])
    m = merged(unk, sync)
    check("file_sync null beside unknown write counts, and 2: null",
          m and m["totals"]["direct"]["writes"]["file_sync"] is None,
          m and m["totals"]["direct"]["writes"])


def test_strings_utf8(names, summary):
    d = os.path.join(WORK, "utf8")
    os.makedirs(d)
    # a trace.dat whose uname has a flipped bit (6.12 -> \xb6.12)
    data = bytearray(open(fx("6.12", "dirty-swap", "upstream", "trace.dat"), "rb").read())
    at = data.find(b"Linux (none) 6.12")
    check("the fixture's uname is where it was", at > 0)
    data[at + 13] ^= 0x80
    dat = os.path.join(d, "uname.dat")
    with open(dat, "wb") as f:
        f.write(data)
    r = run(["-f", "json", dat])
    try:
        doc = json.loads(r.stdout.decode("utf-8"))
        rec = doc["input"]["sources"][0]["recording"]
    except (UnicodeDecodeError, ValueError, KeyError) as e:
        rec = {"error": str(e)}
    check("a trace.dat's uname with a byte that is not UTF-8: JSON of valid UTF-8, the byte "
          "U+FFFD in uname and kernel_release",
          r.returncode == 0 and rec.get("kernel_release") == "\ufffd.12.118" and
          rec.get("uname", "").startswith("Linux (none) \ufffd.12"), (r.returncode, rec))
    # text: task names and lru names with bytes that are not UTF-8
    t = os.path.join(d, "bad.txt")
    with open(t, "wb") as f:
        f.write(b" a\xffb-12 [000] .....  1.000000: mm_vmscan_direct_reclaim_begin: order=0 "
                b"gfp_flags=GFP_KERNEL\n"
                b" a\xffb-12 [000] .....  1.000100: mm_vmscan_direct_reclaim_end: "
                b"nr_reclaimed=1\n")
    r = run(["-f", "json", t])
    try:
        doc = json.loads(r.stdout.decode("utf-8"))
        comms = [p["comm"] for p in doc["processes"]]
    except (UnicodeDecodeError, ValueError, KeyError) as e:
        comms = [str(e)]
    check("a text task name with a byte that is not UTF-8: valid UTF-8, U+FFFD",
          r.returncode == 0 and comms == ["a\ufffdb"], (r.returncode, comms))


def main():
    global TOOL, SRC, WORK
    TOOL, SRC, WORK = sys.argv[1:4]
    TOOL = os.path.abspath(TOOL)
    shutil.rmtree(WORK, ignore_errors=True)
    os.makedirs(WORK)
    names = fx("handmade", "names.txt")
    summary = os.path.join(WORK, "names.json")
    with open(summary, "wb") as f:
        f.write(run(["-f", "json", names]).stdout)
    tests = sys.argv[4:]
    for fn in (test_check_interrupted, test_analysis_stopped_on_pipe, test_outputs_not_stdin,
               test_input_named_twice, test_outputs_all_or_nothing,
               test_summary_through_a_pipe, test_summaries_validated,
               test_merge_keeps_hidden_nulls, test_strings_utf8):
        if not tests or fn.__name__ in tests:
            if fn is test_analysis_stopped_on_pipe:
                fn(fx("synthetic", "6.1-mixed.txt"))
            else:
                fn(names, summary)
    return exit_status()


if __name__ == "__main__":
    sys.exit(main())
