#!/usr/bin/python3
"""Real QEMU captures: the analyzer's totals equal the kernel's own counters.

For every fixtures/{6.1,6.1-mglru,6.12,6.12-mglru}/<scenario>/<setting>/ with a
metadata.json (the rows and what each kernel cannot tell: docs/attribution.md):
  * the text capture's totals equal the /proc/vmstat and memory.stat deltas
    of the same run where the kernel counts the same thing (mm/vmscan.c,
    Linux 6.1):
      direct pages scanned    == pgscan_direct   (shrink_inactive_list, !cgroup_reclaim)
      kswapd pages scanned    == pgscan_kswapd
      direct pages reclaimed  == pgsteal_direct
      kswapd pages reclaimed  == pgsteal_kswapd
      direct reclaims         == sum of allocstall_*  (do_try_to_free_pages, once per call)
      memcg(+softlimit) scans == the cgroup's pgscan, reclaimed == its pgsteal
                                 (memory.stat also counts global reclaim that
                                 scans the cgroup's pages, which a trace cannot
                                 tell apart: the scenario quiesces global reclaim
                                 before its memcg phase, and the test checks the
                                 cgroup saw no kswapd scanning)
      pages written           == nr_vmscan_write (pageout(), in pages; needs the
                                 series' nr_pages= on mm_vmscan_write_folio)
    Unavoidable differences would come from events the tracer lost; the
    captures record none (text-buffer-stats), and the test checks so rather
    than tolerating any.  Node reclaim would add to pgscan_direct; these
    single-node guests have none, and the test includes it anyway.
  * the trace.dat of the same run gives identical counts (every count of the
    JSON totals, process and kswapd rows) over the scenario's window, between
    the guest's start and end markers (--since/--until): the two instances
    start recording at different moments, and trace-cmd starting up can wake
    kswapd before its own buffer records.  Times cannot be identical: each
    tracefs instance stamps its own copy of an event, and a vCPU of the TCG
    guest can be preempted between the two copies (most are a few us apart,
    some milliseconds when the host is busy); the text clock also prints
    microseconds.  So, period by period (--latencies of both, matched by
    task, kind and rank), the median difference is at most 20 us and none
    exceeds 100 ms (a sanity bound; the median carries the agreement; one
    6.1-mglru period was 57 ms apart).
  * a capture whose text instance printed the kernel's latency format
    (kernel/run --text-options, metadata.json's text_options; fixtures
    <setting>-lat and <setting>-verbose) is checked as the others, every
    line of its text in that format, except where the format cannot hold:
      latency-format,verbose: the "[hex]" time is the trace clock in
        microseconds, as the default format's is: every check applies (the
        window from its markers' hex times).
      latency-format: its times are microseconds since the buffer's start,
        not the trace clock: its markers cannot window the trace.dat, and its
        period times cannot be compared with the trace.dat's.  The counts
        are compared over the whole recordings instead (they must still be
        identical, task by task, period by period); the period times are not
        compared (skipped, said in the output).
  * vmscan-analyze live, run in the guest over the same period from a third
    tracefs instance, reports the same counts as the text capture, within
    the events either side lost, and removed its instance when stopped.
  * the settings differ as designed: in dirty-swap under traceonly (the
    2010 baseline policy) direct reclaim writes file pages; under upstream,
    nodirect, flusholdest and flushforward it writes none.
  * highalloc (scenario ii) reclaims at high order.

usage: fixtures_vmstat.py [--family FAMILY] TOOL SOURCE_DIR WORKDIR [RESULT_DIR...]
With RESULT_DIRs (fresh kernel/run outputs), those are checked instead of the
committed fixtures, by the rules of their kernel family (6.1, 6.1-mglru, 6.12,
6.12-mglru): the family their metadata.json says the guest ran (the major and
minor of kernel_release, the guest's uname, and lru_gen_enabled, what the guest
read from /sys/kernel/mm/lru_gen/enabled while the workload ran: multi-gen LRU
when non-zero, and that must be what was asked, lru_gen).  --family names the
family the caller asked for: it must equal the metadata's (a FAIL otherwise),
and is the family of a result whose metadata predates those keys.  Without
either, a RESULT_DIR under fixtures/<family>/ takes that family; any other
fails.  The committed fixtures take the family of their directory (and
fail if their metadata says another).
"""
import glob
import json
import lzma
import os
import re
import subprocess
import sys

from checks import check, exit_status


def said_lost(doc):
    """Events lost as a summary's lost-event markers said them (input.events_lost
    is null when a marker said no number)."""
    return sum(s["events_lost"] for s in doc["input"]["sources"])

def counters(path):
    out = {}
    with open(path) as f:
        for line in f:
            k, v = line.split()[:2]
            out[k] = int(v)
    return out


def delta(d, before, after):
    a, b = counters(os.path.join(d, before)), counters(os.path.join(d, after))
    return {k: b[k] - a.get(k, 0) for k in b}


def analyze(tool, path, work, window=None):
    if path.endswith(".txt.xz"):
        plain = os.path.join(work, "trace.txt")
        with lzma.open(path) as src, open(plain, "wb") as dst:
            while True:
                chunk = src.read(1 << 20)
                if not chunk:
                    break
                dst.write(chunk)
        path = plain
    out = subprocess.run([tool, "--format", "json", "--quiet"] + span(window) + [path],
                         capture_output=True, check=True)
    return json.loads(out.stdout)


# The text's formats (metadata.json's text_options, kernel/run --text-options)
# and a whole line of each as the kernel prints it (kernel/trace/trace_output.c):
#   "": trace_print_context(), "%16s-%-7d [%03d] <flags> %5lu.%06lu: "
#   latency-format: lat_print_generic() and lat_print_timestamp(),
#       "%8.8s-%-7d %3d<flags> %4lldus%c: ", microseconds since the buffer's start
#   latency-format,verbose: "%16s %7d %3d %d %08x %08lx [%08llx]
#       %ld.%03ldms (+%ld.%03ldms): ", the [hex] the trace clock in microseconds
FORMATS = {
    "": re.compile(r"^ *\S.* *-\d+ +(\(.{7}\) +)?\[\d{3}\] \S{4,5} +(\d+\.\d{6}): "),
    "latency-format": re.compile(r"^.{8}-\d+ *\d+\S{4,5} +(\d+)us.: "),
    "latency-format,verbose": re.compile(
        r"^ *.+ +\d+ +\d+ \d+ [0-9a-f]{8} [0-9a-f]{8,} \[([0-9a-f]{8,16})\] "
        r"\d+\.\d{3}ms \(\+\d+\.\d{3}ms\): "),
}


def text_format(meta):
    """The text's format as metadata.json's text_options names it ("" the
    default: none set, or a capture from before the option)"""
    opts = [o for o in meta.get("text_options", "").split(",") if o]
    return ",".join(o for o in ("latency-format", "verbose") if o in opts) \
        if set(opts) <= {"latency-format", "verbose"} else meta["text_options"]


def line_time(fmt, m):
    """A line's time as --since/--until take it: seconds, as the default format
    prints them (the verbose format's hex microseconds converted; the latency
    format's microseconds since the buffer's start, on its own clock)"""
    if fmt == "":
        return m.group(2)
    us = int(m.group(1), 16 if fmt == "latency-format,verbose" else 10)
    return "%d.%06d" % (us // 1000000, us % 1000000)


def format_lines(text, fmt):
    """(lines, lines not in the format fmt: the first few)"""
    n, bad = 0, []
    with open(text, errors="replace") as f:
        for line in f:
            n += 1
            if not FORMATS[fmt].match(line) and len(bad) < 3:
                bad.append(line.rstrip("\n")[:160])
    return n, bad


def scenario_window(text, fmt=""):
    """(start, end) of the guest's scenario markers in the text capture, as
    the trace prints them (in seconds, the clock of the text's format), or
    None.  The text, trace.dat and live instances
    start recording at different moments (trace-cmd starting up can wake
    kswapd before its own buffer records), so they are compared over the
    window all of them recorded: the scenario's own."""
    marks = {}
    with open(text, errors="replace") as f:
        for line in f:
            if "tracing_mark_write: vmsa: scenario" in line:
                line = line.rstrip("\n")
                m = re.search(r": tracing_mark_write: vmsa: scenario \S+ (start|end)$", line)
                t = FORMATS[fmt].match(line)
                if m and t:
                    marks[m.group(1)] = line_time(fmt, t)
    return (marks["start"], marks["end"]) if len(marks) == 2 else None


def span(window):
    return ["--since", window[0], "--until", window[1]] if window else []


def common(a, b):
    """a, keeping only the keys that b has too (recursively)."""
    if isinstance(a, dict) and isinstance(b, dict):
        return {k: common(v, b[k]) for k, v in a.items() if k in b}
    return a


def known_only(x):
    """x without its null (unknown) members."""
    if isinstance(x, dict):
        return {k: known_only(v) for k, v in x.items() if v is not None}
    return x


def by_task(rows, other):
    """Rows keyed by (pid, name), counts only.  A "<...>" name (trace_pipe had
    no name for the pid; trace.dat's saved cmdlines may) takes the other
    capture's name for that pid when it has exactly one."""
    names = {}
    for r in other:
        names.setdefault(r["pid"], set()).add(r["comm"])
    out = {}
    for r in rows:
        comm = r["comm"]
        if comm == "<...>" and len(names.get(r["pid"], ())) == 1:
            comm = next(iter(names[r["pid"]]))
        row = {k: v for k, v in r.items() if k != "comm"}
        out[(r["pid"], comm)] = counts_only(row)
    return out


def names_by_pid(doc):
    """{pid: the names its process and kswapd rows have (other than "<...>")}"""
    names = {}
    for k in ("processes", "kswapd"):
        for r in doc[k]:
            if r["comm"] != "<...>":
                names.setdefault(r["pid"], set()).add(r["comm"])
    return names


def renamed_pids(doc):
    """Pids the analysis has under several names (other than "<...>")."""
    return {p for p, n in names_by_pid(doc).items() if len(n) > 1}


def named_otherwise(a, b):
    """Pids that a and b both name, each with one name (other than "<...>"),
    but not the same one."""
    na, nb = names_by_pid(a), names_by_pid(b)
    return {p for p in set(na) & set(nb) if len(na[p]) == 1 and len(nb[p]) == 1 and
            na[p] != nb[p]}


def by_pid(rows):
    """Rows' counts added up per pid (numbers summed, nulls kept as null)."""
    def plus(a, b):
        if isinstance(a, dict) and isinstance(b, dict):
            return {k: plus(a.get(k), b.get(k)) for k in set(a) | set(b)}
        if a is None or b is None:
            return a if b is None else b
        if isinstance(a, bool) or not isinstance(a, (int, float)):
            return a
        return a + b
    out = {}
    for r in rows:
        row = counts_only({k: v for k, v in r.items() if k not in ("comm", "pid")})
        out[r["pid"]] = plus(out[r["pid"]], row) if r["pid"] in out else row
    return out


def paths_differing(a, b, at="", names=("text", "trace.dat")):
    """Dotted paths at which two JSON values differ."""
    if isinstance(a, dict) and isinstance(b, dict):
        out = []
        for k in sorted(set(a) | set(b)):
            out += paths_differing(a.get(k), b.get(k), at + "." + k if at else k, names)
        return out
    return [] if a == b else ["%s (%s %s, %s %s)" % (at, names[0], a, names[1], b)]


def differences(jt, bt):
    """What a failed text vs trace.dat comparison differs in: totals, then pids."""
    out = paths_differing(counts_only(jt["totals"]), counts_only(bt["totals"]))[:8]
    for k in ("processes", "kswapd"):
        pj, pb = by_pid(jt[k]), by_pid(bt[k])
        out += ["%s pid %s: %s" % (k, p, "; ".join(paths_differing(pj.get(p), pb.get(p))[:3]))
                for p in sorted(set(pj) | set(pb)) if pj.get(p) != pb.get(p)][:8]
    return " | ".join(out) or "only in rows' names"


def latencies(tool, path, work, tag, window):
    """Completed periods per (pid, kind), in order, from --latencies."""
    csv_path = os.path.join(work, "lat-%s.csv" % tag)
    subprocess.run([tool, "--quiet", "--latencies", csv_path] + span(window) + [path],
                   check=True,
                   stdout=subprocess.DEVNULL)
    out = {}
    with open(csv_path) as f:
        next(f)
        for line in f:
            # start_ns,end_ns,duration_ns,pid,"comm",kind,order (comm may hold commas)
            _, _, lat, pid, rest = line.split(",", 4)
            kind, order = rest.rsplit(",", 2)[1:]
            out.setdefault((pid, kind), []).append(int(lat))
    return out


# flusher_writeback: the flushers write whenever they like (periodic writeback
# of the results disk, say), and the text, trace.dat and live recordings start
# seconds apart, so each sees passes the others may not: not compared between
# them (a check below asks only that each knows them)
COUNT_KEYS_SKIP = {"latency_ns", "in_progress_ns", "awake_ns", "awake_in_progress_ns",
                   "direct_stall_ns", "awake_ns_histogram", "flusher_writeback"}


def wb_events(doc):
    """writeback_start/_written events of a summary's complete or unpaired passes"""
    wb = doc["totals"].get("flusher_writeback") or {}
    if wb.get("unpaired") is None:
        return 0
    return wb["unpaired"] + 2 * sum(v["passes"] for v in wb.values() if isinstance(v, dict))


def counts_only(x):
    if isinstance(x, dict):
        return {k: counts_only(v) for k, v in x.items() if k not in COUNT_KEYS_SKIP}
    if isinstance(x, list):
        return [counts_only(v) for v in x]
    return x


# The kernel directories checked; docs/attribution.md's table says, per
# kernel family and LRU, which row equals which counter, and which the trace
# cannot tell (those must be null, never a number).
KERNELS = ("6.1", "6.1-mglru", "6.12", "6.12-mglru")
UNKNOWN = {
    # the multi-gen LRU of 6.1 traces neither lru_isolate nor lru_shrink_inactive
    "6.1-mglru": ("direct pages scanned", "kswapd pages scanned", "direct pages reclaimed",
                  "kswapd pages reclaimed", "memcg pages scanned", "memcg pages reclaimed"),
}
# captures whose text names a task twice, and why: the totals still equal the
# kernel's counters, only the text's rows split a task in two
KNOWN = {
    ("6.12-mglru/dirty-swap/upstream", "text"):
        "trace_pipe names pid 113 'exe', then 'cat', inside one direct reclaim (the "
        "saved cmdline changed while its events were buffered): the text has an exe-113 "
        "and a cat-113 row where trace.dat has one cat-113 row",
}


def add(*v):
    """The sum; None when any part is unknown."""
    return None if any(x is None for x in v) else sum(v)


def rows(t, vm, cg):
    """(row, analyzer total, kernel counter) as in docs/attribution.md."""
    return [
        ("direct pages scanned",
         add(t["direct"]["pages_scanned"], t["node"]["pages_scanned"]), vm["pgscan_direct"]),
        ("kswapd pages scanned", t["kswapd"]["pages_scanned"], vm["pgscan_kswapd"]),
        ("direct pages reclaimed",
         add(t["direct"]["pages_reclaimed"], t["node"]["pages_reclaimed"]),
         vm["pgsteal_direct"]),
        ("kswapd pages reclaimed", t["kswapd"]["pages_reclaimed"], vm["pgsteal_kswapd"]),
        ("direct reclaims + retries", t["direct"]["reclaims"] + t["direct"]["retries"],
         sum(v for k, v in vm.items() if k.startswith("allocstall_"))),
        ("memcg pages scanned",
         add(t["memcg"]["pages_scanned"], t["memcg_softlimit"]["pages_scanned"]), cg["pgscan"]),
        ("memcg pages reclaimed",
         add(t["memcg"]["pages_reclaimed"], t["memcg_softlimit"]["pages_reclaimed"]),
         cg["pgsteal"]),
        ("pages written",
         sum((t[c]["writes"]["pages"] or 0) for c in
             ("direct", "memcg", "memcg_softlimit", "node", "kswapd", "outside_reclaim")),
         vm["nr_vmscan_write"]),
    ]


def metadata_family(meta):
    """(family, None) as a kernel/run metadata.json says the guest ran it,
    (None, None) when it predates kernel_release + lru_gen + lru_gen_enabled
    (the first committed 6.1 captures), (None, why) when it says something
    no family fits."""
    rel, asked, read = (meta.get(k) for k in ("kernel_release", "lru_gen", "lru_gen_enabled"))
    if rel is None or asked is None or read is None:
        return None, None
    m = re.match(r"(\d+\.\d+)\.", rel)
    if not m or not re.fullmatch(r"0x[0-9a-fA-F]+", read):
        return None, "kernel_release %r, lru_gen_enabled %r" % (rel, read)
    mglru = int(read, 16) != 0
    if asked != ("on" if mglru else "off"):
        return None, "lru_gen %s asked, lru_gen_enabled %s read" % (asked, read)
    family = m.group(1) + ("-mglru" if mglru else "")
    if family not in KERNELS:
        return None, "kernel_release %s, lru_gen_enabled %s: no family %s" % (rel, read, family)
    return family, None


def late_records(doc):
    """Records a live analysis read after a later one was handed out."""
    return sum(src.get("traits", {}).get("late_events", 0) for src in doc["input"]["sources"])


def lossy_dat(tool, label, dat, b, meta):
    """A trace.dat recorded with a small buffer (kernel/run --dat-buffer-kb) and
    events that are not vmscan (--dat-events): what the analyzer counts of it is
    what trace-cmd report prints, record by record: the events dropped (each
    "[N EVENTS DROPPED]" marker, and those that say no number), the records of
    other events (ignored) and the vmscan and flusher records (analyzed)."""
    rep = subprocess.run(["trace-cmd", "report", "-i", dat], capture_output=True, text=True)
    markers = counted = lost = other = ours = 0
    names = {}
    for line in rep.stdout.splitlines():
        m = re.search(r"CPU:\d+ \[(?:(\d+) )?EVENTS DROPPED\]", line)
        if m:
            markers += 1
            if m.group(1):
                counted += 1
                lost += int(m.group(1))
            continue
        m = re.search(r"\]\s+\d+\.\d+: ([a-z_0-9]+):", line)
        if not m:
            continue
        ev = m.group(1)
        names[ev] = names.get(ev, 0) + 1
        if ev.startswith(("mm_vmscan_", "mm_shrink_slab_")) or ev in (
                "writeback_start", "writeback_written"):
            ours += 1
        else:
            other += 1
    i = b["input"]
    check("%s trace.dat: trace-cmd report reads it (%d markers, %d records)" % (
        label, markers, ours + other), rep.returncode == 0 and markers > 0 and other > 0)
    check("%s trace.dat: the lost-event markers and events lost, as trace-cmd report "
          "(%d markers, %d lost, %d without a number)" % (label, markers, lost, markers - counted),
          i["lines_lost_markers"] == markers and said_lost(b) == lost and
          i["sources"][0]["lost_markers_without_count"] == markers - counted,
          {k: i[k] for k in ("lines_lost_markers", "events_lost")})
    # a marker that says no number: how many were lost is unknown, never a count
    check("%s trace.dat: events lost null (%d markers say no number), the note says so" % (
        label, markers - counted),
          (i["events_lost"] is None) == (markers > counted) and
          any(n.startswith("events_lost_unknown:") for n in b["notes"]) == (markers > counted),
          (i["events_lost"], b["notes"]))
    check("%s trace.dat: records not vmscan ignored, vmscan ones analyzed, as trace-cmd "
          "report (%d, %d)" % (label, other, ours),
          i["lines_ignored"] == other and i["lines_analyzed"] == ours and
          i["lines_rejected"] == 0 and i["lines_read"] == markers + other + ours,
          ({k: i[k] for k in ("lines_read", "lines_analyzed", "lines_ignored")}, names))
    rec = i["sources"][0]["recording"]
    check("%s trace.dat: the per-CPU overruns the file saved (%s)" % (
        label, rec["events_lost_per_cpu"]),
          len(rec["events_lost_per_cpu"]) == meta["guest_cpus"] and
          all(x > 0 for x in rec["events_lost_per_cpu"]))


def main():
    args = sys.argv[1:]
    given = None
    if "--family" in args:
        i = args.index("--family")
        given = args[i + 1] if i + 1 < len(args) else None
        del args[i:i + 2]
        if given not in KERNELS or len(args) < 4:
            print("usage: fixtures_vmstat.py [--family %s] TOOL SOURCE_DIR WORKDIR "
                  "[RESULT_DIR...] (--family with RESULT_DIRs only)" % "|".join(KERNELS))
            return 2
    tool, src, work = args[:3]
    fresh = args[3:]
    os.makedirs(work, exist_ok=True)
    # the single captures, and each setting's repeated run kept whole
    # (kernel/experiment --keep: runs/<i>/ with trace.txt.xz and trace.dat.xz)
    dirs = fresh or sorted(os.path.dirname(m) for k in KERNELS for pattern in (
        ("*", "*", "metadata.json"), ("*", "*", "runs", "*", "trace.txt.xz"))
        for m in glob.glob(os.path.join(src, "fixtures", k, *pattern)))
    if not dirs:
        print("FAIL: no real fixtures found")
        return 1
    for d in dirs:
        meta = json.load(open(os.path.join(d, "metadata.json")))
        up = os.path.abspath(d)
        run = ""
        if os.path.basename(os.path.dirname(up)) == "runs":
            run = " run " + os.path.basename(up)
            up = os.path.dirname(os.path.dirname(up))
        family = os.path.basename(os.path.dirname(os.path.dirname(up)))
        # (the directory: <setting>, or <setting>-dat<KB>k for a trace.dat
        # recorded with a small buffer)
        label = "%s/%s/%s%s" % (family, meta["scenario"], os.path.basename(up), run)
        said, why = metadata_family(meta)
        under_fixtures = family in KERNELS and os.path.samefile(
            os.path.dirname(os.path.dirname(os.path.dirname(up))), os.path.join(src, "fixtures"))
        if not fresh:
            # a committed fixture: the family of its directory, as always
            # (a check only when its metadata says otherwise)
            if why or (said and said != family):
                check("%s: metadata.json says the family of its directory" % label, False,
                      why or said)
        else:
            path_family = family if under_fixtures else None
            family = said or given or path_family
            if not under_fixtures:
                label = "%s/%s/%s (%s)" % (family, meta["scenario"], meta["setting"], d)
            how = "from metadata.json (kernel_release %s, lru_gen_enabled %s)" % (
                meta.get("kernel_release"), meta.get("lru_gen_enabled")) if said else \
                "from --family" if given else "from its directory" if path_family else ""
            known = not why and family is not None and \
                all(f in (None, family) for f in (given, path_family))
            check("%s: kernel family %s%s" % (label, family, " " + how if how else ""), known,
                  why or "--family %s, directory %s, metadata %s" % (given, path_family, said))
            if not known:
                continue
        lossy = meta.get("trace_dat_buffer_kb", 16384) != 16384
        dat = os.path.join(d, "trace.dat")
        dat = dat if os.path.exists(dat) else dat + ".xz"
        w = os.path.join(work, label.replace("/", "-"))
        os.makedirs(w, exist_ok=True)
        text = os.path.join(d, "trace.txt")
        j = analyze(tool, text if os.path.exists(text) else text + ".xz", w)
        text_plain = text if os.path.exists(text) else os.path.join(w, "trace.txt")
        # the text's format (kernel/run --text-options): every line in it
        fmt = text_format(meta)
        if fmt not in FORMATS:
            check("%s: text_options %r is a format this test knows" % (label, fmt), False)
            continue
        nlines, bad = format_lines(text_plain, fmt)
        check("%s: every line of the text (%d) in the %s format" % (
            label, nlines, fmt or "default"), nlines > 0 and not bad, bad)
        # the latency format's times are microseconds since the text buffer's
        # start, not the trace clock: nothing in them can window the trace.dat
        own_clock = fmt == "latency-format"
        t = j["totals"]
        vm = delta(d, "vmstat.before", "vmstat.after")
        cg = delta(d, "memory.stat.before", "memory.stat.after")
        check("%s: nothing lost by the tracer" % label,
              j["input"]["events_lost"] == 0 and j["input"]["lines_rejected"] == 0,
              j["input"])
        b = analyze(tool, dat, w)
        for tag, doc in (("text", j), ("trace.dat", b)):
            short = []
            for name, ours, kernel in rows(doc["totals"], vm, cg):
                unknown = name in UNKNOWN.get(family, ())
                if tag == "trace.dat" and lossy and not unknown and ours is not None:
                    # the tracer lost events: a count can only fall short
                    check("%s %s: %s (%s <= %d, events lost)" % (label, tag, name, ours, kernel),
                          ours <= kernel)
                    short += [name] if ours < kernel else []
                    continue
                check("%s %s: %s (%s vs %d)" % (label, tag, name,
                                               "unknown" if ours is None else ours, kernel),
                      ours is None if unknown else ours == kernel)
            if tag == "trace.dat" and lossy:
                check("%s trace.dat: the lost events show in the totals (%d short)" %
                      (label, len(short)), len(short) > 0, short)
        if lossy:
            lossy_dat(tool, label, dat, b, meta)
            continue
        check("%s: global reclaim left the cgroup alone (pgscan_kswapd %d)" % (
            label, cg.get("pgscan_kswapd", 0)), cg.get("pgscan_kswapd", 0) == 0)
        if meta["scenario"] == "dirty-swap":
            check("%s: the run reclaimed (direct, kswapd and memcg all active)" % label,
                  t["direct"]["reclaims"] > 0 and t["kswapd"]["wakeups"] > 0 and
                  t["memcg"]["reclaims"] > 0, t["direct"]["reclaims"])
        if meta["scenario"] == "highalloc":
            hi = sum(v for o, v in t["direct"]["reclaims_by_order"].items() if int(o) >= 3)
            check("%s: high-order direct reclaim (%d at order >= 3)" % (label, hi), hi > 100)

        # a capture with the flushers' passes has them in every recording
        wb = [x["totals"]["flusher_writeback"]["unpaired"] for x in (j, b)
              if "flusher_writeback" in x["totals"]]
        if any(v is not None for v in wb):
            check("%s: text and trace.dat both know the flushers' passes" % label,
                  len(wb) == 2 and None not in wb, wb)

        # the trace.dat of the same run, over the scenario's window
        win = scenario_window(text_plain, fmt)
        check("%s: the text has the scenario's start and end markers" % label, win is not None)
        whole = ""
        if own_clock:
            print("skipped for %s: the scenario's window (text %s..%s s since its buffer's "
                  "start, options/latency-format without verbose, not the trace clock: it "
                  "cannot window the trace.dat); text and trace.dat counts and periods are "
                  "compared over the whole recordings, their period times not at all" % (
                      label, win[0] if win else "?", win[1] if win else "?"))
            win, whole = None, " (whole recordings)"
        jw = analyze(tool, text_plain, w, win)
        bw = analyze(tool, dat, w, win)
        if fmt == "latency-format":
            # the latency format cuts the name to 8 bytes (%8.8s): the
            # trace.dat's names, cut so, are the ones it can print
            bw = dict(bw, **{k: [dict(r, comm=r["comm"][:8]) for r in bw[k]]
                             for k in ("processes", "kswapd")})
            print("names compared cut to 8 bytes for %s: the latency format prints "
                  "no more (%%8.8s)" % label)
        same = counts_only(jw["totals"]) == counts_only(bw["totals"]) and all(
            by_task(jw[k], bw[k]) == by_task(bw[k], jw[k]) for k in ("processes", "kswapd"))
        renamed = renamed_pids(jw)
        other_name = named_otherwise(jw, bw)
        if (renamed or other_name) and (label, "text") not in KNOWN:
            # trace_pipe prints a task's name as of when the line is read
            # (an exec while its events were buffered gives one pid two
            # names), trace.dat by the pid's last saved name: as KNOWN
            # explains, compare the rows pid by pid
            print("rows compared pid by pid for %s: the text names pid %s twice, pid %s "
                  "otherwise than trace.dat (trace_pipe's saved cmdline changed while its "
                  "events were buffered)" %
                  (label, ", ".join(str(p) for p in sorted(renamed)) or "none",
                   ", ".join(str(p) for p in sorted(other_name)) or "none"))
            same = ({k: v for k, v in counts_only(jw["totals"]).items() if k != "tasks"} ==
                    {k: v for k, v in counts_only(bw["totals"]).items() if k != "tasks"} and
                    all(by_pid(jw[k]) == by_pid(bw[k]) for k in ("processes", "kswapd")))
        if (label, "text") in KNOWN:
            same = ({k: v for k, v in counts_only(jw["totals"]).items() if k != "tasks"} ==
                    {k: v for k, v in counts_only(bw["totals"]).items() if k != "tasks"})
            print("rows not compared for %s: %s" % (label, KNOWN[(label, "text")]))
        check("%s: trace.dat counts == text counts%s%s" % (
            label, "" if (label, "text") in KNOWN else ", task by task", whole), same,
              differences(jw, bw))
        lt, lb = latencies(tool, text_plain, w, "t", win), latencies(
            tool, dat, w, "b", win)
        diffs = []
        for k in lt:
            diffs += [abs(x - y) for x, y in zip(lt[k], lb.get(k, []))]
        diffs.sort()
        nt = {k: len(v) for k, v in lt.items()}
        nb = {k: len(v) for k, v in lb.items()}
        check("%s: the same %d periods in text and trace.dat%s" % (label, len(diffs), whole),
              (label, "text") in KNOWN or nt == nb,
              ["%s/%s: text %s, trace.dat %s" % (k[0], k[1], nt.get(k), nb.get(k))
               for k in sorted(set(nt) | set(nb)) if nt.get(k) != nb.get(k)][:10])
        med = diffs[len(diffs) // 2] if diffs else 0
        if own_clock:
            print("skipped for %s: period times, text vs trace.dat (the text's are "
                  "microseconds since its buffer's start, the trace.dat's the trace clock)" %
                  label)
        else:
            check("%s: period times, text vs trace.dat: median %d ns <= 20 us, "
                  "max %d ns <= 100 ms" % (label, med, diffs[-1] if diffs else 0),
                  diffs and med <= 20000 and diffs[-1] <= 100000000)
        rec = b["input"]["sources"][0]["recording"]
        check("%s: trace.dat metadata" % label,
              rec["tracedat_version"] in (6, 7) and rec["cpus"] == meta["guest_cpus"] and
              rec["kernel_release"] == meta["kernel_release"] and
              rec["events_lost_per_cpu"] == [0] * meta["guest_cpus"], rec)

        # the analyzer, live, in the guest
        live_path = os.path.join(d, "live.json")
        if os.path.exists(live_path):
            lv = json.load(open(live_path))
            # records live read later than its hold-back (traits.late_events:
            # a vCPU's records more than 1 s of trace time behind, seen under
            # TCG on a loaded host) may cut the periods they belong to, as a
            # lost record does: the two are held to each other within both
            lost = said_lost(lv) + said_lost(j) + \
                lv["input"]["lines_lost_markers"] + late_records(lv)
            keys = [("direct", "reclaims"), ("direct", "pages_scanned"),
                    ("direct", "pages_reclaimed"), ("kswapd", "pages_scanned"),
                    ("kswapd", "pages_reclaimed"), ("kswapd", "wakeups"),
                    ("memcg", "reclaims"), ("memcg", "pages_scanned")]
            # live.json may come from an older analyzer, which wrote 0 for what
            # the trace cannot tell: compare only what this one knows
            keys = [(a, b) for a, b in keys if t[a][b] is not None]
            worst = max(abs(lv["totals"][a][b] - t[a][b]) for a, b in keys)
            older_mglru = family.endswith("-mglru") and \
                "mglru_isolated_pages" not in lv["totals"]["direct"]
            if lost == 0 and older_mglru:
                # written by an analyzer that counted the multi-gen LRU's
                # isolations (and unknowns) the old way: the windows must agree
                wk = [(a, b) for a, b in keys if not b.startswith("pages_")]
                check("%s: live == text on reclaims and wake-ups (older live analyzer)" % label,
                      all(lv["totals"][a][b] == t[a][b] for a, b in wk), wk)
            elif lost == 0:
                # live.json was written by the analyzer in the guest, possibly
                # an older version: compare the fields both have
                known = known_only(counts_only(t))
                if renamed or renamed_pids(j):  # the text's rows, not the tasks, are more
                    known.pop("tasks", None)
                # the lines analyzed differ by the flushers' passes each saw
                # (2 events a pass, 1 an unpaired one, and the starts still open
                # at the end: one a writeback device at most, 3 here)
                dl = lv["input"]["lines_analyzed"] - j["input"]["lines_analyzed"]
                dw = wb_events(lv) - wb_events(j)
                late = late_records(lv)
                check("%s: live == text on every count" % label,
                      common(counts_only(lv["totals"]), known) ==
                      common(known, counts_only(lv["totals"])) and abs(dl - dw) <= 6,
                      ("lines", lv["input"]["lines_analyzed"], j["input"]["lines_analyzed"],
                       "wb", dw, "late records", late,
                       paths_differing(common(counts_only(lv["totals"]), known),
                                       common(known, counts_only(lv["totals"])),
                                       names=("live", "text"))[:8]))
            else:
                # a lost event can hide at most one page batch (nr_scanned <= 32
                # per isolation in these runs, SWAP_CLUSTER_MAX) or one window
                check("%s: live vs text within what was lost (%d lost, worst %d)" % (
                    label, lost, worst), worst <= lost * 32)
            inst = open(os.path.join(d, "instances.after")).read().split()
            check("%s: live removed its tracefs instance (%s)" % (label, inst),
                  not any(i.startswith("vmscan-analyze-") for i in inst))
            check("%s: live exited 0" % label,
                  "live exit 0" in open(os.path.join(d, "live.err")).read())

        # the policy's signature; under the multi-gen LRU the policies are
        # near no-ops (sort_folio() diverts dirty folios before pageout():
        # kernel/README.md): no setting writes file pages from reclaim or
        # asks the flushers ahead
        dfile = t["direct"]["writes"]["file_async"]
        mglru = family.endswith("-mglru")
        if mglru:
            files = sum(t[c]["writes"]["file_async"] for c in ("direct", "kswapd", "memcg"))
            check("%s: under the multi-gen LRU reclaim writes no file pages (%d)" %
                  (label, files), files == 0)
        elif meta["scenario"] != "dirty-swap":
            pass
        elif meta["setting"] == "traceonly":
            check("%s: direct reclaim writes file pages (%d)" % (label, dfile), dfile > 0)
        else:
            check("%s: direct reclaim writes no file pages" % label, dfile == 0, dfile)
        if meta["setting"] == "flushforward" and not mglru:
            fw = t["flusher_wakeups"]["flush_forward"]["count"]
            check("%s: reclaim asks the flushers ahead (%d)" % (label, fw), fw > 0)
        else:
            check("%s: no flush-forward requests" % label,
                  t["flusher_wakeups"]["flush_forward"]["count"] == 0)
    return exit_status()


if __name__ == "__main__":
    sys.exit(main())
