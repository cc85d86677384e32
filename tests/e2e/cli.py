#!/usr/bin/python3
"""The command line as a user meets it: exit statuses, messages, streaming
signals, --interval, --latencies, --json, stdin, hostile input.

usage: cli.py TOOL SOURCE_DIR WORKDIR
"""
import csv
import json
import lzma
import os
import re
import shutil
import signal
import subprocess
import sys
import textwrap
import time

from checks import check, exit_status

TOOL = SRC = WORK = None


def run(args, stdin=None, data=None):
    return subprocess.run([TOOL] + args, input=data, stdin=stdin, capture_output=True)


def fx(name):
    return os.path.join(SRC, "fixtures", "handmade", name)


def strip_input(out):
    """A JSON summary without its input block (the source's name and the
    like), or None."""
    try:
        doc = json.loads(out)
    except ValueError:
        return None
    doc.pop("input", None)
    return doc


def summary_value(text, label):
    for line in text.splitlines():
        if line.startswith(label + ":"):
            return line.split(":", 1)[1].split()[0]
    return None


LINE = "  dd-%d [000] %d.%06d: mm_vmscan_direct_reclaim_%s\n"


def reclaim_lines(pid, start_s, n):
    out = []
    for i in range(n):
        out.append(LINE % (pid, start_s, i * 10, "begin: order=0"))
        out.append(LINE % (pid, start_s, i * 10 + 5, "end: nr_reclaimed=1"))
    return "".join(out).encode()


def test_usage_and_statuses():
    r = run(["--help"])
    check("help exits 0", r.returncode == 0 and b"--strict" in r.stdout)
    r = run(["--no-such-option"])
    check("unknown option exits 2", r.returncode == 2)
    r = run(["-f", "xml", fx("names.txt")])
    check("unknown format exits 2", r.returncode == 2 and b"xml" in r.stderr)
    r = run(["--interval", "0", fx("names.txt")])
    check("bad interval exits 2", r.returncode == 2)
    missing = os.path.join(WORK, "does-not-exist.txt")
    r = run([missing])
    check("missing file exits 3 naming it", r.returncode == 3 and missing.encode() in r.stderr,
          r.stderr)
    r = run([WORK])
    check("directory exits 3", r.returncode == 3 and b"directory" in r.stderr, r.stderr)
    dat = os.path.join(WORK, "trace.dat")
    with open(dat, "wb") as f:
        f.write(b"\x17\x08\x44tracing6\0" + b"\0" * 100)
    r = run([dat])
    check("a corrupt trace.dat exits 6 naming the file",
          r.returncode == 6 and dat.encode() in r.stderr and b"corrupt" in r.stderr, r.stderr)
    r = run(["-"], data=open(dat, "rb").read())
    check("a corrupt trace.dat on stdin exits 6 naming it",
          r.returncode == 6 and b"-: " in r.stderr and b"corrupt" in r.stderr, r.stderr)
    good = os.path.join(SRC, "fixtures", "6.1", "highalloc", "upstream", "trace.dat")
    want = run(["-f", "json", good])
    got = run(["-f", "json", "-"], data=open(good, "rb").read())
    check("a trace.dat on stdin: the summary of its file",
          want.returncode == 0 and got.returncode == 0 and
          strip_input(want.stdout) == strip_input(got.stdout) and
          json.loads(got.stdout)["input"]["sources"][0]["format"] == "trace.dat",
          got.stderr)
    r = run([fx("names.txt"), "-"], data=open(good, "rb").read())
    check("a trace.dat on stdin among text files exits 5 with a message",
          r.returncode == 5 and b"-: " in r.stderr and b"file name" in r.stderr, r.stderr)
    perf = os.path.join(WORK, "perf.data")
    with open(perf, "wb") as f:
        f.write(b"PERFILE2" + b"\0" * 100)
    r = run([perf])
    check("perf.data exits 5", r.returncode == 5 and b"perf script" in r.stderr, r.stderr)
    r = run(["-V"])
    check("version", r.returncode == 0 and b"vmscan-analyze" in r.stdout)


def test_rejects_and_strict():
    bad = os.path.join(WORK, "bad.txt")
    with open(bad, "w") as f:
        f.write("  a-1 [000] 1.0: mm_vmscan_direct_reclaim_begin: order=0\n")
        f.write("  a-1 [000] 1.1: mm_vmscan_direct_reclaim_begin: order=banana\n")
        f.write("  a-1 [000] 1.2: mm_vmscan_direct_reclaim_end: nr_reclaimed=1\n")
    r = run([bad])
    check("rejects are not fatal", r.returncode == 0)
    check("reject message names file and line",
          (bad + ":2: rejected (bad_number").encode() in r.stderr, r.stderr)
    check("rejected count in report", summary_value(r.stdout.decode(), "Lines rejected") == "1")
    r = run(["--strict", bad])
    check("--strict exits 4", r.returncode == 4, r.returncode)
    r = run(["--strict", fx("names.txt")])
    check("--strict passes a clean file", r.returncode == 0)
    r = run(["--quiet", bad])
    check("--quiet silences messages", r.stderr == b"")
    many = b"".join(b"  a-1 [000] 1.0: mm_vmscan_direct_reclaim_begin: order=x\n"
                    for _ in range(50))
    r = run(["--max-messages", "3", "-"], data=many)
    check("--max-messages caps messages", r.stderr.count(b"rejected (") == 3, r.stderr)


def test_stdin_and_outputs():
    data = open(fx("names.txt"), "rb").read()
    a = run([], data=data)
    b = run(["-"], data=data)
    c = run([fx("names.txt")])
    check("stdin without arguments", a.returncode == 0 and a.stdout == c.stdout)
    check("stdin as -", b.stdout == c.stdout)
    jpath = os.path.join(WORK, "out.json")
    r = run(["--json", jpath, fx("names.txt")])
    doc = json.load(open(jpath))
    check("--json beside the classic report",
          r.returncode == 0 and b"Summary" in r.stdout and
          doc["totals"]["direct"]["reclaims"] == 3)
    lpath = os.path.join(WORK, "lat.csv")
    r = run(["--latencies", lpath, fx("lost-unmatched.txt")])
    rows = list(csv.DictReader(open(lpath)))
    # lost-unmatched.txt: one completed direct reclaim (cat-100, 2 ms, order 1) and
    # one kswapd0 awake period (10 ms, order 2 after the re-wake)
    # (the end events are on CPUs 1 and 0: the cpu column is the end event's)
    got = sorted((x["comm"], x["kind"], int(x["order"]), int(x["duration_ns"]),
                  int(x["start_ns"]), int(x["end_ns"]), int(x["pid"]), int(x["cpu"]))
                 for x in rows)
    check("--latencies CSV: start, end and duration in ns, pid and cpu", got == [
        ("cat", "direct", 1, 2000000, 20003000000, 20005000000, 100, 1),
        ("kswapd0", "kswapd", 2, 10000000, 20001000000, 20011000000, 45, 0)], got)
    check("--latencies header", open(lpath).readline().strip() ==
          "start_ns,end_ns,duration_ns,pid,cpu,comm,kind,order")


def test_histogram():
    # lost-unmatched.txt: one 2 ms direct reclaim (cat-100), one 10 ms kswapd
    # awake period: 2e6 ns lies in 2^20..2^21-1, 1e7 ns in 2^23..2^24-1
    out = run(["--histogram", fx("lost-unmatched.txt")]).stdout.decode()
    sect = out.split("Direct reclaim stall, all tasks\n", 1)[-1].split("\n\n")[0]
    check("--histogram: direct stalls in their log2 bucket",
          re.search(r"1048576 -> 2097151 : 1 +\|\*{40}\|", sect) is not None, sect)
    sect = out.split("Kswapd awake, all kswapd threads\n", 1)[-1].split("\n\n")[0]
    check("--histogram: kswapd awake time in its log2 bucket",
          re.search(r"8388608 -> 16777215 : 1 +\|\*{40}\|", sect) is not None, sect)
    check("--histogram: per task", "Stall, cat-100" in out and "Awake, kswapd0-45" in out)
    check("no histogram without --histogram",
          "distribution" not in run([fx("lost-unmatched.txt")]).stdout.decode())


def test_progress_only_on_a_terminal():
    import pty
    import select
    big = os.path.join(WORK, "big.txt")
    if not os.path.exists(big):
        with open(big, "wb") as f:
            for i in range(400):  # about 40 MB
                f.write(reclaim_lines(i % 50 + 1, i + 1, 1000))
    master, slave = pty.openpty()
    env = dict(os.environ, VMSA_PROGRESS_INTERVAL="0")
    p = subprocess.Popen([TOOL, big], stdout=subprocess.DEVNULL, stderr=slave, env=env)
    os.close(slave)
    seen = b""
    while True:
        r, _, _ = select.select([master], [], [], 30)
        if not r:
            break
        try:
            chunk = os.read(master, 4096)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    p.wait()
    os.close(master)
    check("progress line on a terminal (bytes, percent, events/s, elapsed)",
          re.search(rb"big\.txt: \d+ / \d+ MB \(\d+%\), [\d.]+ M events/s, \d+:\d\d", seen)
          is not None, seen[:300])
    r = subprocess.run([TOOL, big], capture_output=True, env=env)
    check("no progress line when stderr is not a terminal", b"MB (" not in r.stderr, r.stderr)


def test_hostile_input():
    long_path = os.path.join(WORK, "long.txt")
    with open(long_path, "wb") as f:
        f.write(reclaim_lines(1, 1, 1))
        f.write(b"x" * (10 * 1024 * 1024) + b"\n")
        f.write(reclaim_lines(2, 2, 1))
    r = run(["-f", "json", "--quiet", long_path])
    doc = json.loads(r.stdout)
    src = doc["input"]["sources"][0]
    check("10 MB line: rejected once, the rest analyzed",
          r.returncode == 0 and src["rejected_by_reason"]["line_too_long"] == 1 and
          src["lines_analyzed"] == 4 and src["lines_read"] == 5, src)
    junk = os.urandom(1 << 20)
    r = run(["--quiet", "-"], data=junk)
    check("binary junk does not crash", r.returncode == 0)
    r = run(["-"], data=b"")
    check("empty input", r.returncode == 0 and summary_value(r.stdout.decode(),
                                                             "Direct reclaims") == "0")
    r = run(["-"], data=b"  bash-1 [000] 1.0: sched_switch: prev_comm=bash\n")
    check("input without vmscan events says so",
          r.returncode == 0 and b"no vmscan events in 1 lines" in r.stderr, r.stderr)


def test_context_info_off():
    # tracefs with options/context-info 0 prints the event's name first, with
    # no task-pid, [CPU] or timestamp: every line is rejected (bad_header), and
    # the end of the input says why instead of asking whether events were on
    headless = (b"mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=GFP_KERNEL\n"
                b"vmscan:mm_vmscan_direct_reclaim_end: nr_reclaimed=3\n")
    hint = b"options/context-info set to 0"
    r = run(["-"], data=headless)
    check("context-info off: rejected, the end names the option",
          r.returncode == 0 and r.stderr.count(b"rejected (bad_header") == 2 and
          b"no vmscan event could be read in 2 lines: 2 rejected" in r.stderr and
          hint in r.stderr and b"were the vmscan events enabled" not in r.stderr, r.stderr)
    r = run(["--strict", "-"], data=headless)
    check("context-info off, --strict: exit 4", r.returncode == 4 and hint in r.stderr, r.stderr)
    r = run(["--quiet", "-"], data=headless)
    check("context-info off, --quiet: no messages", r.returncode == 0 and r.stderr == b"",
          r.stderr)
    # a bad_header line of another shape among them: no hint (it would guess)
    r = run(["-"], data=headless + b"garbage mm_vmscan_direct_reclaim_begin\n")
    check("a rejected line of another shape: no context-info hint",
          r.returncode == 0 and hint not in r.stderr and b"3 rejected" in r.stderr, r.stderr)
    # among events read whole, such lines are something else (the pieces of
    # events broken by a mail's wrapping begin with the event's name too)
    good = b"  a-1 [000] 1.000100: mm_vmscan_direct_reclaim_begin: order=0\n"
    r = run(["-"], data=good + headless)
    check("headless lines among good lines: no hint, no end line",
          r.returncode == 0 and hint not in r.stderr and b"could be read" not in r.stderr and
          r.stderr.count(b"rejected (bad_header") == 2, r.stderr)
    # the tally is each input's own: the headless file gets the hint, the
    # one with events among such lines does not, in either order
    # (merged as one trace, each file still a source of its own)
    hl = [os.path.join(WORK, "headless%d.txt" % i) for i in (1, 2)]
    mixed = os.path.join(WORK, "mixed.txt")
    for p in hl:
        with open(p, "wb") as f:
            f.write(headless)
    with open(mixed, "wb") as f:
        f.write(good + headless)
    for order in ([hl[0], mixed, hl[1]], [mixed, hl[0]]):
        r = run(order)
        err = r.stderr.decode()
        told = sorted(l.split(": ")[1] for l in err.splitlines() if "options/context-info" in l)
        check("the context-info hint per input: %s" % ", ".join(map(os.path.basename, order)),
              r.returncode == 0 and told == sorted(p for p in order if p != mixed), err)
    # a wrapped mail: pieces of broken events begin with the event's name
    r = run([fx("wrapped-mail.txt")])
    check("a wrapped trace: no context-info hint",
          r.returncode == 0 and b"rejected (bad_header" in r.stderr and hint not in r.stderr and
          b"looks wrapped" in r.stderr, r.stderr[-600:])
    # decoded by two threads (a file of several batches), past --max-messages
    path = os.path.join(WORK, "context-info-off.txt")
    with open(path, "wb") as f:
        f.write(headless * 20000)
    r = run(["--threads", "2", "--max-messages", "3", path])
    check("context-info off, two threads: the hint after 40000 rejects",
          r.returncode == 0 and hint in r.stderr and b"40000 rejected" in r.stderr, r.stderr[-400:])
    # two inputs: only the one recorded so
    other = os.path.join(WORK, "context-info-on.txt")
    with open(other, "wb") as f:
        f.write(good + b"garbage mm_vmscan_direct_reclaim_begin\n")
    r = run([path, other])
    check("two inputs: the hint names the one recorded so",
          r.stderr.count(hint) == 1 and (path.encode() + b": its rejected lines") in r.stderr,
          r.stderr[-600:])


def test_subcommands_tell_inputs_end():
    # merge, compare and check show no message per rejected line (they would
    # drown the result) but do say, at an input's end, that none of its lines
    # could be read and why; --quiet silences that too
    headless = (b"mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=GFP_KERNEL\n"
                b"vmscan:mm_vmscan_direct_reclaim_end: nr_reclaimed=3\n")
    path = os.path.join(WORK, "sub-context-info-off.txt")
    with open(path, "wb") as f:
        f.write(headless)
    good = fx("names.txt")
    end = path.encode() + b": no vmscan event could be read in 2 lines: 2 rejected"
    hint = path.encode() + b": its rejected lines begin with the event's name"
    for sub, args in (("merge", [path, good]), ("compare", [path, good]),
                      ("check", ["-t", "totals.direct.reclaims >= 0", "--allow-empty", path])):
        r = run([sub] + args)
        check("%s: the input's end told, once, no per-line message" % sub,
              r.returncode == 0 and r.stderr.count(end) == 1 and r.stderr.count(hint) == 1 and
              b"rejected (bad_header" not in r.stderr, (r.returncode, r.stderr))
        r = run([sub, "--quiet"] + args)
        check("%s --quiet: nothing on stderr" % sub, r.returncode == 0 and r.stderr == b"",
              (r.returncode, r.stderr))
    # an input with no vmscan line at all: the usual question, in merge too
    empty = os.path.join(WORK, "sub-no-vmscan.txt")
    with open(empty, "wb") as f:
        f.write(b"# tracer: nop\n")
    r = run(["merge", empty])
    check("merge: an input without vmscan events is told so",
          r.returncode == 0 and b"no vmscan events in 1 lines" in r.stderr, r.stderr)


def test_live_without_root():
    # live tracing is exercised inside the QEMU guest (tests/qemu); here only
    # its refusal, as an unprivileged user, which touches no tracing state
    # the clone's folder may not be open to others: run a copy from a 0755 dir
    import shutil
    import tempfile
    d = tempfile.mkdtemp()
    os.chmod(d, 0o755)
    tool = os.path.join(d, "vmscan-analyze")
    shutil.copy(TOOL, tool)
    os.chmod(tool, 0o755)
    # under ASan: libtracefs's own leaks on this path are suppressed (lsan.supp)
    supp = os.path.join(d, "lsan.supp")
    shutil.copy(os.path.join(os.path.dirname(os.path.abspath(__file__)), "lsan.supp"), supp)
    os.chmod(supp, 0o644)
    env = dict(os.environ, LSAN_OPTIONS="suppressions=%s:fast_unwind_on_malloc=0" % supp)
    r = subprocess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                        tool, "live", "--duration", "1"], capture_output=True, cwd="/", env=env)
    shutil.rmtree(d)
    check("live without root exits 7 saying why",
          r.returncode == 7 and b"root" in r.stderr, (r.returncode, r.stderr))
    r = run(["live", "somefile"])
    check("live takes no FILE", r.returncode == 2)
    r = run(["--duration", "3", fx("names.txt")])
    check("--duration is for live", r.returncode == 2)


def read_until(proc, marker, timeout=10):
    """Read stdout until marker appears; returns the text read."""
    buf = b""
    end = time.time() + timeout
    os.set_blocking(proc.stdout.fileno(), False)
    while time.time() < end:
        try:
            chunk = proc.stdout.read()
        except BlockingIOError:
            chunk = None
        if chunk:
            buf += chunk
            if marker in buf:
                return buf
        time.sleep(0.02)
    return buf


def test_sigint_streaming():
    p = subprocess.Popen([TOOL], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    p.stdin.write(reclaim_lines(1, 1, 3))
    p.stdin.flush()
    time.sleep(0.3)
    p.send_signal(signal.SIGINT)
    first = read_until(p, b"Kswapd awake at end")
    check("first SIGINT prints a report", b"Summary" in first and
          summary_value(first.decode(), "Direct reclaims") == "3", first[-300:])
    check("and the tool keeps reading", p.poll() is None)
    time.sleep(2.5)  # the next SIGINT must count as a first one again
    p.stdin.write(reclaim_lines(2, 2, 2))
    p.stdin.flush()
    time.sleep(0.3)
    p.send_signal(signal.SIGINT)
    second = read_until(p, b"Kswapd awake at end")
    check("a later SIGINT reports again with new lines",
          summary_value(second.decode(), "Direct reclaims") == "5", second[-300:])
    p.send_signal(signal.SIGINT)
    time.sleep(0.2)
    p.send_signal(signal.SIGINT)
    try:
        p.wait(timeout=5)
    except subprocess.TimeoutExpired:
        p.kill()
    # the final report may already sit in what the previous read returned
    everything = second + read_until(p, b"\0", timeout=1)
    reports = everything.count(b"\nSummary\n")
    last = everything.decode().rsplit("\nSummary\n", 1)[-1]
    check("two SIGINTs within 2 s exit 0 with a final report",
          p.returncode == 0 and reports == 2 and
          summary_value(last, "Direct reclaims") == "5", (p.returncode, reports))
    heads = re.findall(rb"^=== vmscan-analyze total: ", everything, re.M)
    check("... headed as the SIGINT's report was (a script splits at '=== vmscan-analyze')",
          len(heads) == 2, everything[:200])
    p.stdin.close()


def test_sigint_json():
    """-f json: a SIGINT's report and the final one, each a JSON line
    wrapped as --interval's totals; without a SIGINT, one bare document."""
    p = subprocess.Popen([TOOL, "-f", "json", "--pretty"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    p.stdin.write(reclaim_lines(1, 1, 3))
    p.stdin.flush()
    time.sleep(0.3)
    p.send_signal(signal.SIGINT)
    first = read_until(p, b"\n")
    p.stdin.write(reclaim_lines(2, 2, 2))
    p.stdin.close()
    try:
        p.wait(timeout=10)
    except subprocess.TimeoutExpired:
        p.kill()
    out = first + read_until(p, b"\0", timeout=1)
    try:
        lines = [json.loads(line) for line in out.splitlines()]
    except ValueError:
        lines = []
    check("-f json, a SIGINT: its report and the final one, one JSON line each",
          p.returncode == 0 and len(lines) == 2 and
          all(x["interval"]["kind"] == "total" for x in lines) and
          [x["interval"]["final"] for x in lines] == [False, True] and
          [x["summary"]["totals"]["direct"]["reclaims"] for x in lines] == [3, 5],
          out[:300])
    r = subprocess.run([TOOL, "-f", "json"], input=reclaim_lines(1, 1, 3),
                       capture_output=True)
    doc = json.loads(r.stdout) if r.returncode == 0 else {}
    check("... without one: the bare summary", doc.get("schema") == "vmscan-analyze/summary",
          r.stdout[:200])


SEP = re.compile(rb"^=== vmscan-analyze (interval (\d+)|total): trace (\S+)\.\.(\S+) s, "
                 rb"wall (\S+)\.\.(\S+) ===$", re.M)


def interval_blocks(out):
    """The reports of an --interval run: (index or None for the total, trace
    start, end (None: no event), wall start, end, text), in order."""
    heads = list(SEP.finditer(out))
    blocks = []
    for i, m in enumerate(heads):
        end = heads[i + 1].start() if i + 1 < len(heads) else len(out)
        t = [None if x == b"-" else float(x) for x in (m.group(3), m.group(4))]
        blocks.append((int(m.group(2)) if m.group(2) else None, t[0], t[1],
                       m.group(5).decode(), m.group(6).decode(), out[m.end():end].decode()))
    return blocks


def test_interval():
    p = subprocess.Popen([TOOL, "--interval", "0.3"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    for i in range(5):
        p.stdin.write(reclaim_lines(10 + i, 3 + i, 1))
        p.stdin.flush()
        time.sleep(0.25)
    time.sleep(0.3)
    p.stdin.close()
    out = p.stdout.read()
    p.wait(timeout=10)
    blocks = interval_blocks(out)
    deltas = [b for b in blocks if b[0] is not None]
    total = [b for b in blocks if b[0] is None]
    check("--interval: numbered interval reports, then the total", p.returncode == 0 and
          len(deltas) >= 3 and [b[0] for b in deltas] == list(range(1, len(deltas) + 1)) and
          len(total) == 1 and blocks[-1] is total[0] and
          out.count(b"\nSummary\n") == len(blocks), [b[:5] for b in blocks])
    counts = [int(summary_value(b[5], "Direct reclaims")) for b in deltas]
    check("--interval reports deltas: their direct reclaims add up to the total's",
          sum(counts) == 5 and summary_value(total[0][5], "Direct reclaims") == "5", counts)
    spans = [(b[1], b[2]) for b in deltas if b[1] is not None]
    check("each interval names the trace time of its first and last event, in order",
          spans and spans[0][0] == 3.0 and spans[-1][1] == 7.000005 and
          all(a <= b for a, b in spans) and
          all(spans[i][1] < spans[i + 1][0] for i in range(len(spans) - 1)) and
          (total[0][1], total[0][2]) == (3.0, 7.000005), spans)
    check("the intervals' wall-clock times follow one another",
          all(deltas[i][4] == deltas[i + 1][3] for i in range(len(deltas) - 1)) and
          all(b[3] <= b[4] for b in blocks) and total[0][3] <= deltas[0][3] and
          total[0][4] >= deltas[-1][4] and re.match(r"^\d{4}-\d\d-\d\dT[\d:]{8}\.\d{3}Z$",
                                                  total[0][3]),
          [b[3:5] for b in blocks])

    # a reclaim open across a boundary: begun in one interval, ended in a later one
    iso = " [000] %d.%06d: mm_vmscan_lru_isolate: isolate_mode=0 classzone=1 order=0 " \
          "nr_requested=32 nr_scanned=%d nr_skipped=0 nr_taken=%d lru=inactive_file\n"
    p = subprocess.Popen([TOOL, "-f", "json", "--interval", "0.3"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    p.stdin.write(b"  dd-20" + (" [000] 3.000000: mm_vmscan_direct_reclaim_begin: order=0\n" +
                                "  dd-20" + iso % (3, 100, 8, 8)).encode())
    p.stdin.flush()
    time.sleep(1.0)
    p.stdin.write(("  dd-20" + iso % (4, 0, 16, 16) + "  dd-20 [000] 4.002000: "
                   "mm_vmscan_direct_reclaim_end: nr_reclaimed=1\n").encode() +
                  reclaim_lines(21, 5, 2))
    p.stdin.flush()
    time.sleep(0.5)
    p.stdin.close()
    out = p.stdout.read()
    p.wait(timeout=10)
    try:
        lines = [json.loads(line) for line in out.splitlines()]
    except ValueError:
        lines = []
    deltas = [x for x in lines if x["interval"]["kind"] == "delta"]
    totals = [x for x in lines if x["interval"]["kind"] == "total"]
    check("--format json --interval: one JSON line a report, each with its interval",
          p.returncode == 0 and len(deltas) >= 3 and len(totals) == 1 and
          lines[-1] is totals[0] and deltas[-1]["interval"]["final"] and
          [x["interval"]["index"] for x in deltas] == list(range(1, len(deltas) + 1)),
          out[:300])
    if not deltas:
        return
    def direct(x, key):
        return x["summary"]["totals"]["direct"][key]
    first = deltas[0]["summary"]
    late = [x for x in deltas if direct(x, "reclaims_completed")]
    check("an open reclaim is begun in its first interval, in progress at its end",
          direct(deltas[0], "reclaims") == 1 and direct(deltas[0], "in_progress") == 1 and
          direct(deltas[0], "pages_scanned") == 8 and
          deltas[0]["interval"]["first_event_ns"] == 3000000000 and
          deltas[0]["interval"]["last_event_ns"] == 3000100000 and
          first["latency"]["direct_stall_ns"]["count"] == 0, first["totals"]["direct"])
    end = late[0] if late else None
    stall = end and end["summary"]["latency"]["direct_stall_ns"]
    check("...and completed in the interval its end falls in (no unmatched end; the stall "
          "statistics of that interval only)", end is not None and
          direct(end, "reclaims_completed") == 3 and direct(end, "reclaims") == 2 and
          direct(end, "pages_scanned") == 16 and end["summary"]["totals"]["unmatched_ends"] == 0
          and stall["count"] == 3 and stall["max_ns"] == 1002000000 and stall["min_ns"] == 5000
          and end["interval"]["first_event_ns"] == 4000000000, end and end["summary"]["totals"])
    tot = totals[0]["summary"]
    keys = ("reclaims", "reclaims_completed", "latency_ns", "pages_scanned")
    sums = {k: sum(direct(x, k) or 0 for x in deltas) for k in keys}
    buckets = {}
    for x in deltas:
        for bk in x["summary"]["latency"]["direct_stall_ns"]["buckets"]:
            buckets[bk["lo_ns"]] = buckets.get(bk["lo_ns"], 0) + bk["count"]
    check("the deltas add up to the total: counters and histogram buckets",
          sums == {k: tot["totals"]["direct"][k] for k in keys} and
          buckets == {bk["lo_ns"]: bk["count"]
                      for bk in tot["latency"]["direct_stall_ns"]["buckets"]} and
          sums["reclaims"] == 3, (sums, tot["totals"]["direct"]))


def test_interval_tracedat():
    """--interval over a trace.dat: its records are read and decoded by a child process
    that sends the counts with the events, so every interval's counts are those of its
    own events, and they add up to the total's."""
    dat = os.path.join(SRC, "fixtures", "6.1", "dirty-swap", "upstream", "trace.dat")
    r = run(["-f", "json", "--interval", "0.001", dat])
    try:
        lines = [json.loads(line) for line in r.stdout.splitlines()]
    except ValueError:
        lines = []
    deltas = [x["summary"]["input"] for x in lines if x["interval"]["kind"] == "delta"]
    totals = [x["summary"]["input"] for x in lines if x["interval"]["kind"] == "total"]
    check("--interval on a trace.dat: several intervals, then the total",
          r.returncode == 0 and len(deltas) >= 2 and len(totals) == 1, r.stderr[-300:])
    if len(deltas) < 2 or not totals:
        return
    keys = ("lines_read", "lines_analyzed", "lines_ignored", "lines_rejected", "lines_lost_markers")
    bad = [d for d in deltas if d["events_analyzed"] != d["lines_analyzed"] or
           d["lines_read"] != sum(d[k] for k in keys[1:])]
    check("...each interval counts the records of its own events (the counts come with them)",
          not bad and all(d["lines_read"] > 0 for d in deltas), bad[:2])
    check("...and the intervals' counts add up to the total's",
          all(sum(d[k] for d in deltas) == totals[0][k] for k in keys) and
          totals[0]["events_analyzed"] == totals[0]["lines_analyzed"] > 0, totals[0])


def test_tracedat_reader():
    """A trace.dat is read by this program run again as the reader (a fresh process:
    posix_spawn of /proc/self/exe with the reader argument), not by a forked copy; the
    argument typed by hand is refused."""
    dat = os.path.join(SRC, "fixtures", "6.12", "dirty-swap", "upstream", "trace.dat")
    log = os.path.join(WORK, "reader-strace.log")
    # (LeakSanitizer cannot run under ptrace: an ASan build's leak check is off here)
    env = dict(os.environ, ASAN_OPTIONS=os.environ.get("ASAN_OPTIONS", "") + ":detect_leaks=0")
    r = subprocess.run(["strace", "-f", "-qq", "-s", "4096", "-e", "trace=execve,openat", "-o", log,
                        TOOL, "-f", "json", dat], capture_output=True, env=env)
    with open(log) as f:
        lines = f.read().splitlines()
    execs = [line for line in lines if "execve(" in line]
    ours = [line for line in execs if '"--vmsa-tracedat-reader"' in line and dat in line]
    check("a trace.dat: the reader program runs it (execve with the reader argument)",
          r.returncode == 0 and len(ours) == 1 and len(execs) == 2, execs)
    # (strace -o names each line's pid first; the analyzer's is the first execve's)
    analyzer = execs[0].split()[0] if execs else None
    libs = [line for line in lines if "openat(" in line and "/libtrace" in line and "= -1" not in line]
    # (a sanitizer build links them at build time: every process has them)
    linked = b"libtracecmd" in subprocess.run(["readelf", "-d", TOOL], capture_output=True).stdout
    if linked:
        print("skip ...only the reader loads libtracecmd: this build links it")
    else:
        check("...and only the reader loads libtracecmd and libtraceevent",
              libs and all(line.split()[0] != analyzer for line in libs), libs)
    r = run(["--vmsa-tracedat-reader", dat], stdin=subprocess.DEVNULL)
    check("...and the reader argument alone, without the library on the other end: exit 2",
          r.returncode == 2 and b"library" in r.stderr and not r.stdout, r.stderr)


def test_max_tasks_row():
    """--max-tasks: the overflow row is pid null, other_tasks true, in JSON; merge keeps
    the overflow rows of two hosts together and apart from real tasks."""
    paths = []
    for host, pids in (("a", (10, 11, 12, 13)), ("b", (11, 20, 21))):
        path = os.path.join(WORK, "many-%s.txt" % host)
        with open(path, "wb") as f:
            for i, pid in enumerate(pids):
                f.write(reclaim_lines(pid, 3 + i, 1))
        paths.append(path)
    js = []
    for path in paths:
        r = run(["-q", "-f", "json", "--max-tasks", "2", path])
        js.append(os.path.join(WORK, os.path.basename(path) + ".json"))
        with open(js[-1], "wb") as f:
            f.write(r.stdout)
    doc = json.load(open(js[0]))
    rows = {(p["comm"], p["pid"]): p for p in doc["processes"]}
    other = rows.get(("(other tasks)", None))
    check("--max-tasks: the overflow row has pid null and other_tasks true",
          other is not None and other.get("other_tasks") is True and
          other["direct"]["reclaims"] == 2 and
          all("other_tasks" not in p for p in doc["processes"] if p is not other) and
          all(p["pid"] is not None for p in doc["processes"] if p is not other), rows.keys())
    # kswapd threads past --max-tasks keep their rows; the overflow row (a
    # wake-up request and a reclaim folded) stays a process row, and its
    # summary reads back as the trace's classic report, pids and all
    ksw = os.path.join(WORK, "late-kswapd.txt")
    with open(ksw, "wb") as f:
        f.write(reclaim_lines(10, 3, 1) + reclaim_lines(11, 4, 1) + reclaim_lines(12, 5, 1))
        f.write(b"           cat-13 [001] 6.000000: mm_vmscan_wakeup_kswapd: nid=0 zid=1 "
                b"order=2 gfp_flags=GFP_KERNEL\n"
                b"       kswapd0-35 [001] 6.000010: mm_vmscan_kswapd_wake: nid=0 zid=1 order=2\n"
                b"       kswapd0-35 [001] 6.000900: mm_vmscan_kswapd_sleep: nid=0\n")
    r = run(["-q", "-f", "json", "--max-tasks", "2", ksw])
    kdoc = json.loads(r.stdout) if r.returncode == 0 else {"processes": [], "kswapd": []}
    kother = [p for p in kdoc["processes"] if p.get("other_tasks")]
    check("--max-tasks: a kswapd thread past it keeps its row; the overflow row is a process "
          "row with the folded tasks' reclaim and wake-up request",
          [(k["comm"], k["pid"], k["wakeups"]) for k in kdoc["kswapd"]] == [("kswapd0", 35, 1)]
          and len(kother) == 1 and kother[0]["direct"]["reclaims"] == 1 and
          kother[0]["wakeup_kswapd_requests"] == 1, (kdoc["processes"], kdoc["kswapd"]))
    ksj = os.path.join(WORK, "late-kswapd.json")
    with open(ksj, "wb") as f:
        f.write(r.stdout)
    a = run(["-q", "--max-tasks", "2", ksw])
    b = run(["-q", ksj])
    check("--max-tasks: the summary's classic report is the trace's (the pids kept, the "
          "overflow row whole)", a.returncode == 0 and b.returncode == 0 and
          b"dd-10" in b.stdout and
          a.stdout.split(b"Process ")[1] == b.stdout.split(b"Process ")[1],
          (a.stdout[-900:], b.stdout[-900:]))
    r = run(["merge", js[0], js[1]])
    try:
        merged = json.loads(r.stdout)["processes"]
    except ValueError:
        merged = []
    got = sorted(((p["comm"], p["pid"], p.get("other_tasks", False),
                   p["direct"]["reclaims"]) for p in merged), key=str)
    check("merge: the hosts' overflow rows add up into one, pid null; real tasks stay apart",
          r.returncode == 0 and got == sorted([("(other tasks)", None, True, 3), ("dd", 10, False, 1),
                                               ("dd", 11, False, 2), ("dd", 20, False, 1)],
                                              key=str), got)
    # a summary by name (--ignore-pid, pid null) merged with one that has an overflow row
    r = run(["-q", "-f", "json", "--ignore-pid", paths[1]])
    byname = os.path.join(WORK, "byname.json")
    with open(byname, "wb") as f:
        f.write(r.stdout)
    r = run(["merge", js[0], byname])
    try:
        merged = json.loads(r.stdout)["processes"]
    except ValueError:
        merged = []
    got = sorted(((p["comm"], p["pid"], p.get("other_tasks", False),
                   p["direct"]["reclaims"]) for p in merged), key=str)
    r2 = run(["-q", js[0], byname])
    labels = [l.split()[0] for l in r2.stdout.decode(errors="replace").splitlines()
              if l.startswith(("dd", "(other"))]
    check("a summary by name and one by pid read together: the rows without a pid are "
          "labelled by name alone, not '-1'",
          r2.returncode == 0 and "dd" in labels and "dd-10" in labels and
          not any(l.endswith("--1") for l in labels), labels)
    check("merge: a row without pid is not taken for the overflow row",
          r.returncode == 0 and got == sorted([("(other tasks)", None, True, 2), ("dd", None, False, 3),
                                               ("dd", 10, False, 1), ("dd", 11, False, 1)],
                                              key=str), got)
    # a real task named "(other tasks)", by name (pid null), is not the overflow row
    named = os.path.join(WORK, "named-other.txt")
    with open(named, "w") as f:
        f.write("  (other tasks)-30 [000] 3.000000: mm_vmscan_direct_reclaim_begin: order=0\n"
                "  (other tasks)-30 [000] 3.000005: mm_vmscan_direct_reclaim_end: "
                "nr_reclaimed=1\n")
    r = run(["-q", "-f", "json", "--ignore-pid", named])
    with open(byname, "wb") as f:
        f.write(r.stdout)
    r = run(["merge", js[0], byname])
    try:
        merged = json.loads(r.stdout)["processes"]
    except ValueError:
        merged = []
    got = sorted(((p["comm"], p["pid"], p.get("other_tasks", False),
                   p["direct"]["reclaims"]) for p in merged), key=str)
    check("merge: a task named (other tasks) stays apart from the overflow row",
          r.returncode == 0 and got == sorted([("(other tasks)", None, True, 2),
                                               ("(other tasks)", None, False, 1),
                                               ("dd", 10, False, 1), ("dd", 11, False, 1)],
                                              key=str), got)
    r = run(["compare", js[0], js[1]])
    c = run(["check", "-t", "totals.tasks_folded <= 2", js[0]])
    check("compare and check read summaries with the overflow row",
          r.returncode == 0 and b"Direct reclaims" in r.stdout and c.returncode == 0,
          (r.returncode, c.returncode, r.stderr[-200:], c.stdout[-200:]))


def test_sigterm():
    p = subprocess.Popen([TOOL], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    p.stdin.write(reclaim_lines(1, 1, 2))
    p.stdin.flush()
    time.sleep(1.0)  # the handlers are in place (a sanitizer build starts slowly)
    p.send_signal(signal.SIGTERM)
    out, _ = p.communicate(timeout=5)
    check("SIGTERM prints the final report", p.returncode == 0 and
          summary_value(out.decode(), "Direct reclaims") == "2", out[-200:])


def test_unwrap():
    """--unwrap: the wrapped sample reads as its lines did whole, also from a pipe whose
    next line comes later than a broken first line (the decoder waits for it)."""
    wrapped = fx("wrapped-mail.txt")
    text = open(wrapped, "rb").read()
    r = run(["-f", "json", wrapped])
    d = json.loads(r.stdout)
    check("a wrapped trace is said so on stderr, with the count",
          b"the trace looks wrapped: 7 events are broken over several lines; try --unwrap"
          in r.stderr, r.stderr)
    check("... and in a JSON note",
          any(n.startswith("wrapped:") for n in d["notes"]), d["notes"])
    whole = []
    for line in text.decode().split("\n"):
        if line.startswith("#") or not line:
            continue
        if line.lstrip().split(" ")[0].rsplit("-", 1)[-1].isdigit() and "[" in line:
            whole.append(line)
        else:
            whole[-1] += " " + line
    w = run(["-f", "json", "-"], data=("\n".join(whole) + "\n").encode())
    u = run(["-f", "json", "--unwrap", wrapped])
    du, dw = json.loads(u.stdout), json.loads(w.stdout)
    check("--unwrap: the totals of the lines whole", du["totals"] == dw["totals"],
          (du["totals"], dw["totals"]))
    tr = du["input"]["sources"][0]["traits"]
    check("--unwrap counts what it joined", tr.get("unwrapped_events") == 7 and
          tr.get("unwrapped_lines") == 10 and "wrapped_events" not in tr, tr)
    check("--unwrap says so on stderr", b"--unwrap joined 7 events" in u.stderr, u.stderr)
    # from a pipe: the first line of an event comes alone, its rest later
    cut = text.index(b"mm_vmscan_lru_isolate:\n") + len(b"mm_vmscan_lru_isolate:\n")
    p = subprocess.Popen([TOOL, "-f", "json", "--unwrap", "-"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    p.stdin.write(text[:cut])
    p.stdin.flush()
    time.sleep(0.3)
    p.stdin.write(text[cut:])
    p.stdin.close()
    out = p.stdout.read()
    p.wait()
    dp = json.loads(out)
    check("--unwrap from a pipe, a line's rest coming later",
          dp["totals"] == dw["totals"] and
          dp["input"]["sources"][0]["traits"].get("unwrapped_events") == 7,
          dp["input"]["sources"][0]["traits"])
    # quoted in a reply ("> ", ">> ", "> > "): the same, whole or wrapped
    strip = lambda d: {k: v for k, v in d.items() if k != "input"}
    for q in ("> ", ">> ", "> > "):
        quoted = b"".join(q.encode() + l for l in text.splitlines(True))
        qu = run(["-q", "-f", "json", "--unwrap", "-"], data=quoted)
        dq = json.loads(qu.stdout)
        check("--unwrap of the wrapped sample quoted with %r: its summary" % q,
              strip(dq) == strip(du) and
              dq["input"]["sources"][0]["traits"].get("unwrapped_events") == 7,
              dq["input"]["sources"][0]["traits"])
        qw = run(["-q", "-f", "json", "-"],
                 data=b"".join(q.encode() + l.encode() + b"\n" for l in whole))
        dqw = json.loads(qw.stdout)
        check("the sample's lines whole quoted with %r: their summary" % q,
              strip(dqw) == strip(dw) and not dqw["input"]["lines_rejected"],
              (dqw["totals"]["direct"], dqw["input"]["lines_rejected"]))


def test_corrupt_summary_where():
    """A JSON summary that is not JSON: exit 6 and where it stops being JSON
    (line, column, json-c's words); two summaries in one file are refused,
    not read as the first."""
    trace = os.path.join(WORK, "where.txt")
    with open(trace, "wb") as f:
        f.write(reclaim_lines(10, 3, 2))
    r = run(["-q", "-f", "json", "--pretty", trace])
    text = r.stdout
    cases = []
    # a value broken on its 3rd line ("schema_version":x,): json-c's column
    # is where its tokener stopped, at or just before the x
    lines = text.split(b"\n")
    broken = b"\n".join(lines[:2] + [lines[2].replace(b":1,", b":x,")] + lines[3:])
    cases.append(("broken", broken, re.compile(rb"line 3, column (19|20): \w")))
    cases.append(("cut", text[:len(lines[0]) + 1 + 10], re.compile(rb"line 2, column 11: the JSON "
                                                                   rb"ends before it is whole")))
    cases.append(("twice", text + text, re.compile(rb"line %d, column 1: more after the "
                                                   rb"document's end" % (len(lines)))))
    for name, data, want in cases:
        path = os.path.join(WORK, "where-%s.json" % name)
        with open(path, "wb") as f:
            f.write(data)
        for args in (["-q", path], ["merge", path, path]):
            r = run(args)
            check("a summary that is not JSON (%s, %s): exit 6, where and why" % (name, args[0]),
                  r.returncode == 6 and not r.stdout and want.search(r.stderr) is not None and
                  path.encode() in r.stderr, (r.returncode, r.stderr))


def trace_and_summary(name, lines):
    """WORK/name.txt holding lines, and WORK/name.json its JSON summary"""
    trace, spath = (os.path.join(WORK, name + ext) for ext in (".txt", ".json"))
    with open(trace, "wb") as f:
        f.write(lines)
    with open(spath, "wb") as f:
        f.write(run(["-q", "-f", "json", trace]).stdout)
    return trace, spath


def test_summary_on_stdin():
    """A JSON summary on standard input is read as a summary, as the same
    file named is, whether stdin is the file, a pipe, or a pipe whose first
    bytes come late; a trace on a pipe stays a trace, and nothing of either
    is lost to the look at its first bytes."""
    trace, spath = trace_and_summary("stdin-summary", reclaim_lines(12, 4, 3))
    summary = open(spath, "rb").read()
    want = run(["-q", spath])
    check("summary on stdin: the file's own report is a report of tasks",
          want.returncode == 0 and b"Direct reclaims:" in want.stdout and
          summary_value(want.stdout.decode(), "Direct reclaims") != "0")
    with open(spath, "rb") as f:
        redirected = run(["-q", "-"], stdin=f)
    with open(spath, "rb") as f:
        no_arg = run(["-q"], stdin=f)
    piped = run(["-q", "-"], data=summary)
    check("summary on stdin: redirected file, no FILE argument, pipe",
          (redirected.returncode, no_arg.returncode, piped.returncode) == (0, 0, 0) and
          redirected.stdout == want.stdout == no_arg.stdout == piped.stdout,
          (redirected.returncode, no_arg.returncode, piped.returncode, piped.stderr[-200:]))
    # the writer sends blanks, waits, then the summary: the look waits for it
    late = subprocess.Popen(["sh", "-c", "printf '   '; sleep 0.3; cat \"$0\"", spath],
                            stdout=subprocess.PIPE)
    r = subprocess.run([TOOL, "-q", "-"], stdin=late.stdout, capture_output=True)
    late.wait()
    check("summary on stdin: its first bytes late", r.returncode == 0 and r.stdout == want.stdout,
          (r.returncode, r.stderr[-200:]))
    m = run(["merge", "-", spath], data=summary)
    m2 = run(["merge", spath, spath])
    check("summary on stdin: merge - FILE", m.returncode == 0 and m.stdout == m2.stdout)
    c = run(["check", "-t", "totals.direct.reclaims >= 1", "-"], data=summary)
    check("summary on stdin: check", c.returncode == 0, c.stderr[-200:])
    # a trace on a pipe (lines begin with spaces) is still a trace, whole
    text = open(trace, "rb").read()
    t = run(["-q", "-"], data=text)
    check("trace on a pipe after the look", t.returncode == 0 and
          t.stdout == run(["-q", trace]).stdout)
    bad = run(["-q", "-"], data=b'{"schema": "vmscan-analyze/summary", "cut')
    check("a broken summary on stdin: exit 6", bad.returncode == 6 and not bad.stdout,
          bad.returncode)


def test_compressed_summary():
    """A JSON summary kept compressed (gzip, xz, zstd: s.json.gz) is read as
    the summary it holds, named or as a redirected standard input, by
    analyze, merge, check and compare; a truncated one is a broken summary
    (exit 6, the file named).  (It was read as a compressed trace of no
    vmscan event: merge left its tasks out and exited 0.)"""
    import gzip, lzma
    _, spath = trace_and_summary("compressed-summary", reclaim_lines(9, 3, 2))
    raw = open(spath, "rb").read()
    packed = {".gz": gzip.compress(raw), ".xz": lzma.compress(raw)}
    if shutil.which("zstd"):
        packed[".zst"] = subprocess.run(["zstd", "-q", "-c", spath], capture_output=True,
                                        check=True).stdout
    want = run(["-q", spath])
    want_json = run(["-q", "-f", "json", spath])
    want_merge = run(["merge", spath, spath])
    check("compressed summary: the plain file's report has tasks",
          want.returncode == 0 and summary_value(want.stdout.decode(), "Direct reclaims") != "0")
    for ext, data in sorted(packed.items()):
        path = spath + ext
        with open(path, "wb") as f:
            f.write(data)
        r, j = run(["-q", path]), run(["-q", "-f", "json", path])
        check("compressed summary %s: report and JSON as the plain file's" % ext,
              r.returncode == 0 and r.stdout == want.stdout and j.stdout == want_json.stdout,
              (r.returncode, r.stderr[-200:]))
        with open(path, "rb") as f:
            s = run(["-q", "-"], stdin=f)
        check("compressed summary %s: redirected to stdin" % ext,
              s.returncode == 0 and s.stdout == want.stdout, (s.returncode, s.stderr[-200:]))
        m = run(["merge", path, spath])
        check("compressed summary %s: merge" % ext,
              m.returncode == 0 and m.stdout == want_merge.stdout, (m.returncode, m.stderr[-200:]))
        c = run(["check", "-t", "totals.direct.reclaims == %s" %
                 summary_value(want.stdout.decode(), "Direct reclaims"), path])
        check("compressed summary %s: check" % ext, c.returncode == 0, c.stdout[-200:])
        cmp = run(["compare", spath, path])
        check("compressed summary %s: compare" % ext, cmp.returncode == 0 and
              b"Direct reclaims" in cmp.stdout, cmp.stderr[-200:])
    cut = spath + ".cut.gz"
    with open(cut, "wb") as f:
        f.write(packed[".gz"][:len(packed[".gz"]) // 2])
    b = run(["-q", cut])
    check("a truncated compressed summary: exit 6, named", b.returncode == 6 and
          cut.encode() in b.stderr and not b.stdout, (b.returncode, b.stderr[-200:]))


def test_compressed_summary_on_a_pipe():
    """A compressed JSON summary on a pipe is read as a summary (it was read
    as a compressed trace of no vmscan event: an empty report, exit 0),
    also when its first bytes come alone and the rest late, and when it is
    large enough that its first compressed block is not in the first
    bytes; a truncated one is a broken summary (exit 6); a compressed trace
    on a pipe stays a trace."""
    import gzip, lzma
    # 3000 tasks: a summary of megabytes, whose zstd blocks are long
    lines = b"".join(reclaim_lines(100 + i, 1 + i % 7, 1) for i in range(3000))
    trace, spath = trace_and_summary("pipe-compressed-summary", lines)
    raw = open(spath, "rb").read()
    packed = {"gzip": gzip.compress(raw), "xz": lzma.compress(raw)}
    if shutil.which("zstd"):
        packed["zstd"] = subprocess.run(["zstd", "-q", "-c", spath], capture_output=True,
                                        check=True).stdout
    want = run(["-q", spath])
    check("compressed summary on a pipe: the plain file's report has 3000 tasks",
          want.returncode == 0 and summary_value(want.stdout.decode(), "Direct reclaims") == "3000")
    for kind, data in sorted(packed.items()):
        r = run(["-q"], data=data)
        check("compressed summary on a pipe (%s): the file's report" % kind,
              r.returncode == 0 and r.stdout == want.stdout, (r.returncode, r.stderr[-200:]))
        path = os.path.join(WORK, "pipe-compressed-summary." + kind)
        with open(path, "wb") as f:
            f.write(data)
        # the first 7 bytes alone (the magic, no block yet), the rest 0.3 s later
        late = subprocess.run(["sh", "-c", '(head -c 7 "$1"; sleep 0.3; tail -c +8 "$1") | "$2" -q',
                               "sh", path, TOOL], capture_output=True)
        check("compressed summary on a pipe (%s), its first bytes alone: the file's report" % kind,
              late.returncode == 0 and late.stdout == want.stdout,
              (late.returncode, late.stderr[-200:]))
        m = run(["merge", "-", spath], data=data)
        m_want = run(["merge", spath, spath])
        check("compressed summary on a pipe (%s): merge -" % kind,
              m.returncode == 0 and m.stdout == m_want.stdout, (m.returncode, m.stderr[-200:]))
        cut = run(["-q"], data=data[:len(data) // 2])
        check("a truncated compressed summary on a pipe (%s): exit 6, no report" % kind,
              cut.returncode == 6 and not cut.stdout, (cut.returncode, cut.stderr[-200:]))
    t_want = run(["-q", trace])
    for kind, data in (("gzip", gzip.compress(lines)), ("xz", lzma.compress(lines))):
        t = run(["-q"], data=data)
        check("a compressed trace on a pipe (%s) stays a trace" % kind,
              t.returncode == 0 and t.stdout == t_want.stdout, (t.returncode, t.stderr[-200:]))


def test_unwrap_widths():
    """--unwrap of a real capture broken as a mail breaks it, at 60 to 80
    columns (at a space, the space dropped), also quoted with CRLF: the
    summary of the capture whole, and without --unwrap the count of events
    broken is the count --unwrap joins. A quarter of its lines are mm_shrink_slab_*
    events, printed with labels ("nid: 0 objects to shrink 0 gfp_flags ...
    priority 12"), not k=v: their pieces hold no '=' and mostly no ':'."""
    src = os.path.join(SRC, "fixtures", "6.1", "highalloc", "upstream", "trace.txt.xz")
    lines = lzma.open(src, "rt").read().split("\n")[:20000]
    whole = run(["-q", "-f", "json", "-"], data=("\n".join(lines) + "\n").encode())
    dw = json.loads(whole.stdout)
    sw = dw["input"]["sources"][0]
    slab = sum(1 for l in lines if ": mm_shrink_slab_" in l)
    check("the capture's part has slab events to break", slab > 3000, slab)
    keys = ("totals", "processes", "kswapd", "latency")
    for width, quote, eol in ((60, "", "\n"), (72, "", "\n"), (76, "", "\n"), (80, "", "\n"),
                              (72, "> ", "\r\n")):
        out = []
        for l in lines:
            out += [quote + p for p in textwrap.wrap(l, width, break_long_words=False,
                                                     break_on_hyphens=False)] or [quote]
        data = (eol.join(out) + eol).encode()
        u = run(["-q", "-f", "json", "--unwrap", "-"], data=data)
        du = json.loads(u.stdout)
        su = du["input"]["sources"][0]
        what = "--unwrap of the capture wrapped at %d columns%s" % (
            width, ", quoted, CRLF" if quote else "")
        check(what + ": the summary of the capture whole",
              all(du[k] == dw[k] for k in keys),
              [(k, du[k] == dw[k]) for k in keys])
        joined = su["traits"].get("unwrapped_lines", 0)
        check(what + ": every event read, none rejected",
              su["lines_rejected"] == 0 and
              su["lines_analyzed"] - joined == sw["lines_analyzed"] and
              su["traits"].get("unwrapped_events", 0) > slab,
              {k: su[k] for k in ("lines_read", "lines_analyzed", "lines_ignored",
                                  "lines_rejected", "traits")})
        n = run(["-q", "-f", "json", "-"], data=data)
        sn = json.loads(n.stdout)["input"]["sources"][0]
        # (the capture's tracing_mark_write lines, broken at 60 and 72
        # columns, are no vmscan events: neither counted nor joined)
        check(what + ": no note that it looks wrapped", du["notes"] == dw["notes"],
              du["notes"])
        check(what + ": without --unwrap, the events broken are counted",
              sn["traits"].get("wrapped_events") == su["traits"].get("unwrapped_events"),
              (sn["traits"].get("wrapped_events"), su["traits"].get("unwrapped_events")))


def main():
    global TOOL, SRC, WORK
    TOOL, SRC, WORK = sys.argv[1:4]
    os.makedirs(WORK, exist_ok=True)
    for t in (test_usage_and_statuses, test_rejects_and_strict, test_stdin_and_outputs,
              test_histogram, test_progress_only_on_a_terminal,
              test_hostile_input, test_context_info_off, test_subcommands_tell_inputs_end,
              test_sigint_streaming, test_sigint_json, test_interval,
              test_interval_tracedat,
              test_tracedat_reader, test_max_tasks_row, test_sigterm,
              test_live_without_root, test_unwrap, test_unwrap_widths,
              test_corrupt_summary_where,
              test_summary_on_stdin, test_compressed_summary,
              test_compressed_summary_on_a_pipe):
        t()
    return exit_status()


if __name__ == "__main__":
    sys.exit(main())
