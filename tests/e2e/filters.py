#!/usr/bin/python3
"""Record filters (--pid, --comm, --cpu, --since, --until, --instance) and the order of
the task tables (--sort, --top), against counts made here from the trace's
text lines, not by the tool.

On real captures (fixtures/6.1 and 6.12, dirty-swap/upstream):
  * --pid of the busiest direct reclaimer: its begin lines are the direct
    reclaims, its vmscan lines the lines analyzed, the other vmscan lines
    the lines filtered; --pid of kswapd0: its wake lines are its wakeups
    plus re-wakeups, and no other task has a row;
  * --since/--until around the middle third of the trace: the begins inside
    are the reclaims; an end inside whose begin came before --since is an
    end without a begin, a begin inside whose end comes after --until is
    in progress at the end;
  * --cpu 0 and --comm 'kworker/*' (fnmatch, here): the begins they keep;
  * every line is counted once: read = analyzed + filtered + ignored +
    lost markers + rejected;
  * the same with 1 and 4 decoding threads, and text against trace.dat;
  * --instance: each buffer's events and markers, counted here from
    trace-cmd report's lines of a capture recorded in an instance, are the
    tool's; a real text doubled into two buffers gives, for each, the
    summary of the text alone;
  * --sort orders the rows largest first, --top N keeps N and adds the rest
    up in one "(M others)" row; an unknown field is a usage error naming
    the valid ones, and so are bad filter values.

usage: filters.py TOOL SOURCE_DIR WORKDIR
"""
import fnmatch
import json
import lzma
import os
import re
import shutil
import subprocess
import sys

from checks import check, exit_status


LINE = re.compile(r"^\s*(.*?)-(\d+)\s+(?:\(\s*[-\d]+\)\s+)?\[(\d+)\]\s+(?:\S+\s+)?"
                  r"(\d+\.\d+):\s+(mm_vmscan_\w+|mm_shrink_slab_\w+):")


def events(path):
    """(comm, pid, cpu, ts_ns, event) of every vmscan line, in order."""
    out = []
    with open(path, errors="replace") as f:
        for line in f:
            m = LINE.match(line)
            if m:
                sec, frac = m.group(4).split(".")
                ns = int(sec) * 10**9 + int(frac.ljust(9, "0"))
                out.append((m.group(1), int(m.group(2)), int(m.group(3)), ns, m.group(5)))
    return out


def run(tool, args, path, fmt="json"):
    p = subprocess.run([tool, "-q", "-f", fmt] + args + [path], capture_output=True, text=True)
    if p.returncode:
        return None, p
    return (json.loads(p.stdout) if fmt == "json" else p.stdout), p


def secs(ns):
    return "%d.%09d" % (ns // 10**9, ns % 10**9)


def accounted(j):
    i = j["input"]
    return i["lines_read"] == i["lines_analyzed"] + i["lines_filtered"] + i["lines_ignored"] + \
        i["lines_lost_markers"] + i["lines_rejected"]


def direct_windows(evs, since, until):
    """By hand: begins inside [since, until], ends inside whose begin was
    before since, begins inside whose end is after until (or never)."""
    begun = {}
    begins = cut_ends = open_at_end = 0
    for comm, pid, cpu, ts, ev in evs:
        if ev == "mm_vmscan_direct_reclaim_begin":
            if since <= ts <= until:
                begins += 1
            begun[pid] = ts
        elif ev == "mm_vmscan_direct_reclaim_end":
            b = begun.pop(pid, None)
            if since <= ts <= until and (b is None or b < since):
                cut_ends += 1
            if b is not None and since <= b <= until and ts > until:
                open_at_end += 1
    open_at_end += sum(1 for b in begun.values() if since <= b <= until)
    return begins, cut_ends, open_at_end


def fixture(tool, src, work, kernel):
    d = os.path.join(src, "fixtures", kernel, "dirty-swap", "upstream")
    txt = os.path.join(work, kernel + ".txt")
    with lzma.open(os.path.join(d, "trace.txt.xz")) as f, open(txt, "wb") as g:
        shutil.copyfileobj(f, g)
    evs = events(txt)
    dat = os.path.join(d, "trace.dat")
    full, _ = run(tool, [], txt)
    check("%s: %d vmscan lines read here, as the tool analyses" % (kernel, len(evs)),
          full and full["input"]["lines_analyzed"] == len(evs) and
          full["input"]["lines_filtered"] == 0, full and full["input"])

    # --pid: the busiest direct reclaimer
    begins = {}
    for comm, pid, cpu, ts, ev in evs:
        if ev == "mm_vmscan_direct_reclaim_begin":
            begins[pid] = begins.get(pid, 0) + 1
    pid = max(begins, key=lambda p: (begins[p], -p))
    mine = sum(1 for e in evs if e[1] == pid)
    j, p = run(tool, ["--pid", str(pid)], txt)
    check("%s --pid %d: %d direct reclaims, %d lines analyzed, %d filtered" %
          (kernel, pid, begins[pid], mine, len(evs) - mine),
          j and j["totals"]["direct"]["reclaims"] == begins[pid] and
          j["input"]["lines_analyzed"] == mine and
          j["input"]["lines_filtered"] == len(evs) - mine and accounted(j) and
          {r["pid"] for r in j["processes"] + j["kswapd"]} == {pid},
          j["input"] if j else p.stderr)
    # the other pids add up to the rest
    others = ",".join(str(q) for q in sorted({e[1] for e in evs}) if q != pid)
    k, p = run(tool, ["--pid", others], txt)
    check("%s: --pid of all the others has the other %d reclaims" %
          (kernel, full["totals"]["direct"]["reclaims"] - begins[pid]),
          k and k["totals"]["direct"]["reclaims"] + j["totals"]["direct"]["reclaims"] ==
          full["totals"]["direct"]["reclaims"] and k["input"]["lines_analyzed"] == len(evs) - mine,
          p.stderr)

    # --pid of kswapd0: its row only, wakeups + re-wakeups = its wake lines
    kpid = next(e[1] for e in evs if e[4] == "mm_vmscan_kswapd_wake")
    wakes = sum(1 for e in evs if e[1] == kpid and e[4] == "mm_vmscan_kswapd_wake")
    j, p = run(tool, ["--pid", str(kpid)], txt)
    check("%s --pid %d (kswapd): %d wake lines" % (kernel, kpid, wakes),
          j and len(j["kswapd"]) == 1 and j["kswapd"][0]["pid"] == kpid and
          j["kswapd"][0]["wakeups"] + j["kswapd"][0]["rewakeups"] == wakes and
          not j["processes"] and j["totals"]["direct"]["reclaims"] == 0,
          j and j["kswapd"] or p.stderr)

    # --since/--until: the middle third
    first, last = evs[0][3], max(e[3] for e in evs)
    since = first + (last - first) // 3
    until = first + 2 * (last - first) // 3
    since -= since % 1000  # at the text clock's microseconds
    until -= until % 1000
    nb, cut, still = direct_windows(evs, since, until)
    inside = sum(1 for e in evs if since <= e[3] <= until)
    window = ["--since", secs(since), "--until", secs(until)]
    j, p = run(tool, window, txt)
    t = j and j["totals"]
    check("%s %s: %d reclaims, %d ends without a begin, %d in progress, %d lines" %
          (kernel, " ".join(window), nb, cut, still, inside),
          j and t["direct"]["reclaims"] == nb and t["unmatched_ends"] == cut and
          t["direct"]["in_progress"] == still and j["input"]["lines_analyzed"] == inside and
          accounted(j) and j["input"]["first_timestamp_ns"] >= since and
          j["input"]["last_timestamp_ns"] <= until,
          (t and (t["direct"]["reclaims"], t["unmatched_ends"], t["direct"]["in_progress"]),
           j and j["input"]["lines_analyzed"], p.stderr))
    check("%s: the window cuts some reclaims (the test means something)" % kernel,
          cut + still > 0 and nb > 0, (nb, cut, still))
    # the same with one thread and with four, and from trace.dat
    for threads in ("1", "4"):
        k, _ = run(tool, window + ["--pid", str(pid), "--threads", threads], txt)
        if threads == "1":
            one = k
        else:
            check("%s: the filtered summary with 4 threads equals 1 thread's" % kernel,
                  k is not None and k == one)
    k, _ = run(tool, window + ["--pid", str(pid)], dat)
    check("%s: trace.dat and text give the same filtered totals" % kernel,
          k is not None and one is not None and
          k["totals"]["direct"]["reclaims"] == one["totals"]["direct"]["reclaims"] and
          k["totals"]["direct"]["pages_scanned"] == one["totals"]["direct"]["pages_scanned"] and
          k["totals"]["unmatched_ends"] == one["totals"]["unmatched_ends"] and
          k["input"]["lines_analyzed"] == one["input"]["lines_analyzed"],
          (k and k["totals"]["direct"], one and one["totals"]["direct"]))

    # --cpu 0 and --comm
    on0 = sum(1 for e in evs if e[2] == 0 and e[4] == "mm_vmscan_direct_reclaim_begin")
    j, p = run(tool, ["--cpu", "0"], txt)
    check("%s --cpu 0: %d begins on CPU 0" % (kernel, on0),
          j and j["totals"]["direct"]["reclaims"] == on0 and accounted(j), p.stderr)
    for glob in ("kworker/*", "*-*", "hog*"):
        n = sum(1 for e in evs if fnmatch.fnmatchcase(e[0], glob) and
                e[4] == "mm_vmscan_direct_reclaim_begin")
        lines = sum(1 for e in evs if fnmatch.fnmatchcase(e[0], glob))
        j, p = run(tool, ["--comm", glob], txt)
        check("%s --comm '%s': %d begins, %d lines" % (kernel, glob, n, lines),
              j and j["totals"]["direct"]["reclaims"] == n and
              j["input"]["lines_analyzed"] == lines and accounted(j), p.stderr)
    return txt


def classic_rows(text, heading):
    """(label, numbers) of the table under the heading line."""
    lines = text.splitlines()
    i = next(n for n, l in enumerate(lines) if l.startswith(heading))
    rows = []
    for l in lines[i + 2:]:
        if not l.strip():
            break
        toks = [t for t in l.split() if "=" not in t]
        rows.append((l[:l.index(toks[-7 if heading == "Process" else -6])].strip(),
                     toks[-7 if heading == "Process" else -6:]))
    return rows


def sort_top(tool, txt):
    out, p = run(tool, ["--sort", "pages_scanned"], txt, "classic")
    rows = classic_rows(out, "Process")
    scanned = [int(r[1][2]) for r in rows]
    check("--sort pages_scanned: %d rows, largest first" % len(rows),
          len(rows) > 3 and scanned == sorted(scanned, reverse=True) and
          scanned != sorted(scanned), scanned)
    plain, _ = run(tool, [], txt, "classic")
    check("--sort keeps the rows, only their order changes",
          sorted(rows) == sorted(classic_rows(plain, "Process")))
    out, p = run(tool, ["--top", "2", "--sort", "reclaims"], txt, "classic")
    top = classic_rows(out, "Process")
    want = sorted(rows, key=lambda r: -int(r[1][0]))
    check("--top 2: two rows and '(%d others)'" % (len(rows) - 2),
          len(top) == 3 and top[2][0] == "(%d others)" % (len(rows) - 2) and
          [int(r[1][0]) for r in top[:2]] == [int(r[1][0]) for r in want[:2]] and
          int(top[2][1][0]) == sum(int(r[1][0]) for r in want[2:]), top)


MARKER = re.compile(r"^\s*(?:(\S+): )?CPU:\d+ \[")
PREFIX = re.compile(r"^\s*(\S+): ")
# the events the tool reads: vmscan's, and the flushers' passes
ANALYZED = re.compile(r"^\s*(.*?)-(\d+)\s+(?:\(\s*[-\d]+\)\s+)?\[(\d+)\]\s+(?:\S+\s+)?"
                      r"(\d+\.\d+):\s+(mm_vmscan_\w+|mm_shrink_slab_\w+|writeback_start|"
                      r"writeback_written):")


def by_buffer(path):
    """the vmscan lines and lost-event markers of each buffer, counted here:
    an instance's lines begin "NAME: "; the line right after an instance's
    marker is its record, printed without the name (trace-cmd report)"""
    counts = {}
    after = None
    with open(path, errors="replace") as f:
        for line in f:
            m = MARKER.match(line)
            if m:
                name = m.group(1) or "top"
                counts[name] = counts.get(name, 0) + 1
                after = m.group(1)
                continue
            body = line
            p = PREFIX.match(line)
            name = "top"
            if p and ANALYZED.match(line[p.end():]):
                name, body = p.group(1), line[p.end():]
            elif after:
                name = after
            after = None
            if ANALYZED.match(body):
                counts[name] = counts.get(name, 0) + 1
    return counts


def instances(tool, src, work):
    """--instance on real captures: a trace.dat recorded in instance "dat",
    its trace-cmd report; and a real text doubled into two buffers, each of
    which must give the summary of the text alone."""
    dat = os.path.join(src, "fixtures", "6.1", "dirty-swap", "upstream-dat8k", "trace.dat")
    rep = os.path.join(work, "dat8k-report.txt")
    with open(rep, "w") as f:
        r = subprocess.run(["trace-cmd", "report", "-i", dat], stdout=f, stderr=subprocess.DEVNULL)
    check("trace-cmd report of the dat8k capture", r.returncode == 0, r.returncode)
    want = by_buffer(rep)
    for path, what in ((rep, "its trace-cmd report"), (dat, "trace.dat")):
        j, p = run(tool, [], path)
        got = j and j["input"]["sources"][0]["traits"].get("events_by_buffer")
        check("events by buffer of %s: %r, as counted from the report's lines" % (what, want),
              got == dict(want, top=want.get("top", 0)), got)
        j, p = run(tool, ["--instance", "dat"], path)
        check("--instance dat, %s: everything analyzed, nothing filtered" % what,
              j and j["input"]["lines_filtered"] == 0 and
              j["input"]["lines_analyzed"] + j["input"]["lines_lost_markers"] == want["dat"] and
              accounted(j), j and j["input"])
        j, p = run(tool, ["--instance", "top"], path)
        check("--instance top, %s: every event and marker filtered, none lost" % what,
              j and j["input"]["lines_filtered"] == want["dat"] and
              j["input"]["lines_analyzed"] == 0 and j["input"]["events_lost"] == 0 and
              accounted(j), j and j["input"])
    # every line of a real text twice: in the top buffer and in "mm"
    one = os.path.join(work, "one-buffer.txt")
    two = os.path.join(work, "two-buffers.txt")
    with lzma.open(os.path.join(src, "fixtures", "6.1", "dirty-swap", "upstream",
                                "trace.txt.xz"), "rt", errors="replace") as f, \
            open(one, "w") as g, open(two, "w") as h:
        for line in f:
            g.write(line)
            h.write("    " + line)
            h.write("mm: " + line)
    alone, _ = run(tool, [], one)
    n = alone["input"]["lines_read"]
    for name in ("top", "mm"):
        j, p = run(tool, ["--instance", name], two)
        same = j and all(j[k] == alone[k] for k in ("totals", "latency", "processes", "kswapd"))
        check("--instance %s of the doubled text: the summary of the text alone" % name,
              same and j["input"]["lines_read"] == 2 * n and
              j["input"]["lines_filtered"] == alone["input"]["lines_analyzed"] and
              accounted(j), j and j["input"])
    j, p = run(tool, [], two)
    check("the doubled text read whole: a note says 2 buffers were added together",
          j and any(x.startswith("several_buffers:") for x in j["notes"]) and
          j["input"]["lines_analyzed"] == 2 * alone["input"]["lines_analyzed"], j and j["notes"])
    for path in (rep, one, two):
        os.unlink(path)


def usage(tool, txt):
    bad = [["--pid", "x"], ["--pid", "1,"], ["--cpu", "3-1"], ["--since", "-1"],
           ["--instance", ""], ["--instance", "a/b"],
           ["--since", "5", "--until", "4"], ["--until", "1.0000000001"], ["--top", "0"],
           ["-f", "json", "--sort", "reclaims"], ["-f", "json", "--top", "3"]]
    for args in bad:
        p = subprocess.run([tool] + args + [txt], capture_output=True, text=True)
        check("usage error: %s" % " ".join(args), p.returncode == 2 and not p.stdout,
              (p.returncode, p.stderr))
    p = subprocess.run([tool, "--sort", "stall", txt], capture_output=True, text=True)
    check("--sort stall: status 2, naming the fields",
          p.returncode == 2 and "pages_scanned" in p.stderr and "latency_ns" in p.stderr,
          p.stderr)
    p = subprocess.run([tool, "merge", "--pid", "1", txt], capture_output=True, text=True)
    check("merge --pid: does not apply", p.returncode == 2, p.stderr)
    p = subprocess.run([tool, "live", "--instance", "x"], capture_output=True, text=True)
    check("live --instance: does not apply (live reads its own instance)",
          p.returncode == 2 and "--instance" in p.stderr, p.stderr)


def main():
    tool, src, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    txt = fixture(tool, src, work, "6.1")
    fixture(tool, src, work, "6.12")
    sort_top(tool, txt)
    instances(tool, src, work)
    usage(tool, txt)
    return exit_status()


if __name__ == "__main__":
    sys.exit(main())
