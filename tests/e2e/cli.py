#!/usr/bin/python3
"""The command line as a user meets it: exit statuses, messages, streaming
signals, --interval, --latencies, --json, stdin, hostile input.

usage: cli.py TOOL SOURCE_DIR WORKDIR
"""
import csv
import json
import os
import re
import signal
import subprocess
import sys
import time

TOOL = SRC = WORK = None
results = []


def check(name, cond, detail=""):
    results.append((name, bool(cond)))
    if not cond:
        print("FAIL %s %s" % (name, detail))


def run(args, stdin=None, data=None):
    return subprocess.run([TOOL] + args, input=data, stdin=stdin, capture_output=True)


def fx(name):
    return os.path.join(SRC, "fixtures", "handmade", name)


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
    check("trace.dat on stdin exits 5 with a message",
          r.returncode == 5 and b"file name" in r.stderr, r.stderr)
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
    got = sorted((x["comm"], x["kind"], int(x["order"]), int(x["duration_ns"]),
                  int(x["start_ns"]), int(x["end_ns"])) for x in rows)
    check("--latencies CSV: start, end and duration in ns", got == [
        ("cat", "direct", 1, 2000000, 20003000000, 20005000000),
        ("kswapd0", "kswapd", 2, 10000000, 20001000000, 20011000000)], got)
    check("--latencies header", open(lpath).readline().strip() ==
          "start_ns,end_ns,duration_ns,pid,comm,kind,order")


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
    p.stdin.close()


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
    reports = out.count(b"\nSummary\n")
    check("--interval prints periodic reports and a final one", p.returncode == 0 and
          reports >= 3, reports)
    last = out.decode().rsplit("\nSummary\n", 1)[1]
    check("the final report has every line", summary_value(last, "Direct reclaims") == "5")
    seps = re.findall(rb"^=== vmscan-analyze interval (\d+\.\d+)\.\.(\d+\.\d+) s ===$", out,
                      re.M)
    spans = [(float(a), float(b)) for a, b in seps]
    check("each interim report starts with a separator naming its trace time",
          len(seps) == reports - 1 and spans and spans[0][0] == 3.0 and
          all(a <= b for a, b in spans) and
          all(spans[i][1] == spans[i + 1][0] for i in range(len(spans) - 1)), (reports, seps))
    p = subprocess.Popen([TOOL, "-f", "json", "--interval", "0.3"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    for i in range(3):
        p.stdin.write(reclaim_lines(10 + i, 3 + i, 1))
        p.stdin.flush()
        time.sleep(0.4)
    p.stdin.close()
    out = p.stdout.read()
    p.wait(timeout=10)
    try:
        docs = [json.loads(line) for line in out.splitlines()]
    except ValueError:
        docs = []
    check("--format json --interval: one JSON document a line", p.returncode == 0 and
          len(docs) >= 2 and docs[-1]["totals"]["direct"]["reclaims"] == 3, out[:300])


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


def main():
    global TOOL, SRC, WORK
    TOOL, SRC, WORK = sys.argv[1:4]
    os.makedirs(WORK, exist_ok=True)
    for t in (test_usage_and_statuses, test_rejects_and_strict, test_stdin_and_outputs,
              test_histogram, test_progress_only_on_a_terminal,
              test_hostile_input, test_sigint_streaming, test_interval, test_sigterm,
              test_live_without_root):
        t()
    passed = sum(1 for _, ok in results if ok)
    failed = len(results) - passed
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
