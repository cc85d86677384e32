#!/usr/bin/python3
"""Metrics output, checked with Prometheus' own tools.

For every fixture (the 6.1 trace.dat files, the hand-made and synthetic text
traces) and for a merged summary:
  * --format prometheus passes `promtool check metrics` (Prometheus' linter,
    which reads the text format 0.0.4) with nothing to say;
  * --format openmetrics is read by Prometheus' OpenMetrics parser (promtool
    tsdb create-blocks-from openmetrics, after a timestamp is appended to
    every sample, which backfilling wants) and by the strict OpenMetrics
    parser of python3-prometheus-client;
  * the values equal the JSON summary's: counters by path, null fields left
    out, the direct stall histogram bucket by bucket.
Then node_exporter's textfile collector serves a --openmetrics-file written
for a fixture, and the scraped direct-reclaim count, stall histogram (every
bucket and the count) and kswapd writes equal the summary's, typed as
counter and histogram.  Last, --interval on a stream rewrites the file with
cumulative counts before the input ends.

Exits 77 (skipped) when promtool, prometheus-node-exporter or
python3-prometheus-client is not installed (scripts/install-deps.sh).

usage: openmetrics.py TOOL SOURCE_DIR WORKDIR
       openmetrics.py --capture TOOL SOURCE_DIR WORKDIR RESULT_DIR...
The second form checks fresh kernel/run captures (the QEMU tier): the guest's
live --openmetrics-file --interval 1 (kernel/guest/init) against the guest's
/proc/vmstat deltas by fixtures_vmstat.py's rules (6.1, classic LRU), every
copy of the file taken while it was rewritten whole and never going down, the
per-cgroup series adding up to the host totals with the memcg hog's cgroup
named.  (--listen is checked here, on a stream: the guest has no network.)
"""
import glob
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

from checks import check, exit_status


# le bounds: 2^k - 1 ns for k = 10..40, then +Inf
BOUNDS = [(1 << k) - 1 for k in range(10, 41)]


def le_text(ns):
    s = "%d.%09d" % (ns // 10**9, ns % 10**9)
    return s.rstrip("0").rstrip(".")


def le_key(text):
    """le compared as a number: node_exporter writes 0.000001023 as 1.023e-06."""
    return repr(float(text))


def expected_buckets(hist, exact=True):
    """{le: cumulative count} from a summary histogram."""
    out = {}
    for b in BOUNDS:
        key = le_text(b) if exact else le_key(le_text(b))
        out[key] = sum(x["count"] for x in hist["buckets"] if x["hi_ns"] <= b)
    out["+Inf" if exact else le_key("+Inf")] = hist["count"]
    return out


def path(doc, dotted):
    for k in dotted.split("."):
        if not isinstance(doc, dict) or k not in doc:
            return "absent"
        doc = doc[k]
    return doc


# (sample name, labels, summary path): a selection over every family
def expected_samples(summary):
    rows = []
    for ctx in ("direct", "memcg", "memcg_softlimit", "node"):
        rows.append(("vmscan_reclaims_total", {"context": ctx}, "totals.%s.reclaims" % ctx))
        rows.append(("vmscan_reclaim_retries_total", {"context": ctx}, "totals.%s.retries" % ctx))
    for ctx in ("direct", "kswapd", "memcg", "outside_reclaim"):
        for t, key in (("file", "_file"), ("anon", "_anon"), ("unknown", "_unsplit")):
            rows.append(("vmscan_scanned_pages_total", {"context": ctx, "type": t},
                         "totals.%s.pages_scanned%s" % (ctx, key)))
            rows.append(("vmscan_reclaimed_pages_total", {"context": ctx, "type": t},
                         "totals.%s.pages_reclaimed%s" % (ctx, key)))
        for t in ("file", "anon"):
            for io in ("async", "sync"):
                rows.append(("vmscan_writes_total", {"context": ctx, "type": t, "io": io},
                             "totals.%s.writes.%s_%s" % (ctx, t, io)))
        rows.append(("vmscan_written_pages_total", {"context": ctx},
                     "totals.%s.writes.pages" % ctx))
    rows.append(("vmscan_kswapd_wakeups_total", {}, "totals.kswapd.wakeups"))
    rows.append(("vmscan_kswapd_wakeup_requests_total", {}, "totals.wakeup_kswapd_requests"))
    for r in ("writeback", "isolated", "noprogress", "congested"):
        rows.append(("vmscan_throttled_total", {"reason": r}, "totals.throttled.%s.count" % r))
    rows.append(("vmscan_flusher_wakeups_total", {"reason": "all_dirty"},
                 "totals.flusher_wakeups.all_dirty.count"))
    for r in ("background", "vmscan", "periodic", "other"):
        rows.append(("vmscan_flusher_writeback_passes_total", {"reason": r},
                     "totals.flusher_writeback.%s.passes" % r))
        rows.append(("vmscan_flusher_written_pages_total", {"reason": r},
                     "totals.flusher_writeback.%s.pages" % r))
    rows.append(("vmscan_lost_events_total", {}, "input.events_lost"))
    for s in ("analyzed", "ignored", "rejected"):
        rows.append(("vmscan_input_lines_total", {"state": s}, "input.lines_" + s))
    return [(n, l, path(summary, p)) for n, l, p in rows]


def samples_of(families):
    """{(name, frozenset(labels)): value} and {family name: type}."""
    vals, types = {}, {}
    for f in families:
        types[f.name] = f.type
        for s in f.samples:
            vals[(s.name, frozenset(s.labels.items()))] = s.value
    return vals, types


def compare_with_summary(what, families, summary):
    vals, types = samples_of(families)
    bad = []
    for name, labels, want in expected_samples(summary):
        got = vals.get((name, frozenset(labels.items())), "absent")
        if want is None:
            want = "absent"  # unknown: left out, never 0
        if got != want:
            bad.append((name, labels, "got", got, "want", want))
    hist = path(summary, "latency.direct_stall_ns")
    if isinstance(hist, dict):
        for le, want in expected_buckets(hist).items():
            got = vals.get(("vmscan_direct_stall_seconds_bucket", frozenset({("le", le)})))
            if got != want:
                bad.append(("bucket", le, "got", got, "want", want))
        if vals.get(("vmscan_direct_stall_seconds_count", frozenset())) != hist["count"]:
            bad.append(("count", vals.get(("vmscan_direct_stall_seconds_count", frozenset()))))
        s = vals.get(("vmscan_direct_stall_seconds_sum", frozenset()))
        if s is None or abs(s - hist["sum_ns"] / 1e9) > 1e-9 * max(1, s):
            bad.append(("sum", s, hist["sum_ns"]))
    check("%s: metrics equal the JSON summary (%d samples)" % (what, len(vals)), not bad, bad)
    return vals, types


def promtool_openmetrics(text, work):
    """Prometheus' OpenMetrics parser, through backfilling (wants timestamps)."""
    stamped = os.path.join(work, "stamped.om")
    with open(stamped, "w") as f:
        for line in text.splitlines():
            f.write(line + ("" if line.startswith("#") else " 1700000000") + "\n")
    blocks = os.path.join(work, "blocks")
    shutil.rmtree(blocks, ignore_errors=True)
    r = subprocess.run(["promtool", "tsdb", "create-blocks-from", "openmetrics", stamped, blocks],
                       capture_output=True, text=True, timeout=120)
    shutil.rmtree(blocks, ignore_errors=True)
    return r


def check_output(tool, what, args, summary, work):
    from prometheus_client.openmetrics.parser import text_string_to_metric_families
    prom = subprocess.run([tool, "-q", "-f", "prometheus"] + args, capture_output=True,
                          text=True, timeout=300)
    lint = subprocess.run(["promtool", "check", "metrics"], input=prom.stdout,
                          capture_output=True, text=True, timeout=60)
    check("%s: promtool check metrics accepts --format prometheus" % what,
          prom.returncode == 0 and lint.returncode == 0 and not lint.stdout + lint.stderr
          and "vmscan_reclaims_total" in prom.stdout,
          (prom.returncode, prom.stderr, lint.stdout, lint.stderr))
    om = subprocess.run([tool, "-q", "-f", "openmetrics"] + args, capture_output=True,
                        text=True, timeout=300)
    r = promtool_openmetrics(om.stdout, work)
    check("%s: Prometheus' OpenMetrics parser reads --format openmetrics" % what,
          om.returncode == 0 and r.returncode == 0, (om.stderr, r.stdout, r.stderr))
    try:
        fams = list(text_string_to_metric_families(om.stdout))
        err = None
    except Exception as e:  # the parser raises ValueError and others
        fams, err = [], e
    check("%s: strict OpenMetrics parser (prometheus_client) reads it" % what, err is None, err)
    if fams:
        compare_with_summary(what, fams, summary)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def scrape_node_exporter(textdir, work):
    """Start node_exporter on 127.0.0.1, scrape once, stop it; the text or None."""
    for _ in range(3):  # the free port may be taken in between: try another
        port = free_port()
        log = open(os.path.join(work, "node_exporter.log"), "w")
        p = subprocess.Popen(["prometheus-node-exporter", "--collector.disable-defaults",
                              "--collector.textfile",
                              "--collector.textfile.directory=" + textdir,
                              "--web.listen-address=127.0.0.1:%d" % port],
                             stdout=log, stderr=log)
        try:
            deadline = time.time() + 15
            while time.time() < deadline and p.poll() is None:
                try:
                    with urllib.request.urlopen("http://127.0.0.1:%d/metrics" % port,
                                                timeout=5) as u:
                        return u.read().decode()
                except OSError:
                    time.sleep(0.1)
        finally:
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
                try:
                    p.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait(timeout=5)
            log.close()
    return None


def node_exporter(tool, fixture, summary, work):
    from prometheus_client.parser import text_string_to_metric_families
    textdir = os.path.join(work, "textfile")
    os.makedirs(textdir)
    prom = os.path.join(textdir, "vmscan.prom")
    r = subprocess.run([tool, "-q", "-f", "json", "--openmetrics-file", prom, fixture],
                       capture_output=True, text=True, timeout=300)
    check("--openmetrics-file writes the file, the report still goes to stdout",
          r.returncode == 0 and os.path.exists(prom) and json.loads(r.stdout) == summary,
          r.stderr)
    check("--openmetrics-file leaves no temporary file", os.listdir(textdir) == ["vmscan.prom"],
          os.listdir(textdir))
    text = scrape_node_exporter(textdir, work)
    check("node_exporter serves the textfile collector's metrics", text is not None,
          open(os.path.join(work, "node_exporter.log")).read())
    if text is None:
        return
    check("node_exporter read the file without error",
          "node_textfile_scrape_error 0" in text, text[-2000:])
    fams = list(text_string_to_metric_families(text))
    vals, types = samples_of(fams)
    want_direct = summary["totals"]["direct"]["reclaims"]
    check("scraped direct reclaims equal the summary's (%d)" % want_direct,
          vals.get(("vmscan_reclaims_total", frozenset({("context", "direct")}))) == want_direct)
    kw = summary["totals"]["kswapd"]["writes"]
    bad = []
    for t in ("file", "anon"):
        for io in ("async", "sync"):
            got = vals.get(("vmscan_writes_total", frozenset(
                {("context", "kswapd"), ("type", t), ("io", io)})))
            want = kw["%s_%s" % (t, io)]
            if got != want:
                bad.append((t, io, got, want))
    check("scraped kswapd writes equal the summary's (null ones absent)", not bad, bad)
    hist = summary["latency"]["direct_stall_ns"]
    bad = []
    les = {le_key(dict(k[1])["le"]): v for k, v in vals.items()
           if k[0] == "vmscan_direct_stall_seconds_bucket"}
    if len(les) != len(BOUNDS) + 1:
        bad.append(("buckets", len(les)))
    for le, want in expected_buckets(hist, exact=False).items():
        if les.get(le) != want:
            bad.append((le, les.get(le), want))
    got = vals.get(("vmscan_direct_stall_seconds_count", frozenset()))
    if got != hist["count"]:
        bad.append(("count", got, hist["count"]))
    check("scraped stall histogram: every bucket and the count equal the summary's (%d)" %
          hist["count"], not bad, bad)
    check("node_exporter keeps the types (counter, histogram)",
          types.get("vmscan_reclaims") == "counter" and
          types.get("vmscan_direct_stall_seconds") == "histogram" and
          types.get("vmscan_scanned_pages") == "counter", types)


def interval_stream(tool, src, work):
    """--interval on a stream: the file is rewritten before the input ends."""
    trace = os.path.join(src, "fixtures", "synthetic", "6.1-mixed.txt")
    lines = open(trace).read().splitlines(True)
    half = len(lines) // 2
    prom = os.path.join(work, "stream.prom")
    p = subprocess.Popen([tool, "-q", "--interval", "0.2", "--openmetrics-file", prom, "-f",
                          "json", "-"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         text=True)
    first = None
    try:
        p.stdin.write("".join(lines[:half]))
        p.stdin.flush()
        deadline = time.time() + 20
        while time.time() < deadline and first is None:
            time.sleep(0.3)
            if os.path.exists(prom):
                first = open(prom).read()
        p.stdin.write("".join(lines[half:]))
        p.stdin.close()
        out = p.stdout.read()
        p.wait(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    final = open(prom).read()
    summary = json.loads(subprocess.run([tool, "-q", "-f", "json", trace], capture_output=True,
                                        text=True, check=True).stdout)

    def direct(text):
        for line in (text or "").splitlines():
            if line.startswith('vmscan_reclaims_total{context="direct"} '):
                return int(line.split()[1])
        return None

    whole = summary["totals"]["direct"]["reclaims"]
    check("--interval rewrites the file while the stream is read (%s of %d direct reclaims)" %
          (direct(first), whole), direct(first) is not None and 0 < direct(first) < whole,
          first and first[:300])
    check("after the stream the file has the whole trace's counts",
          direct(final) == whole, (direct(final), whole))
    try:
        plain = json.loads(out).get("schema") == "vmscan-analyze/summary"
    except ValueError:
        plain = False
    check("with --openmetrics-file, interval reports are not printed, the final one is, "
          "as a plain summary", p.returncode == 0 and out.count('"schema"') == 1 and plain,
          out[:300])


def fetch(url, accept=None):
    """(status, content type, body) of a GET."""
    req = urllib.request.Request(url, headers={"Accept": accept} if accept else {})
    try:
        with urllib.request.urlopen(req, timeout=10) as u:
            return u.status, u.headers.get("Content-Type"), u.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.headers.get("Content-Type"), e.read().decode()


def promtool_lint(text):
    r = subprocess.run(["promtool", "check", "metrics"], input=text, capture_output=True,
                       text=True, timeout=60)
    return r.returncode == 0 and not r.stdout + r.stderr, r.stdout + r.stderr


def direct_reclaims(text):
    for line in (text or "").splitlines():
        if line.startswith('vmscan_reclaims_total{context="direct"} '):
            return int(line.split()[1])
    return None


def listen_stream(tool, src, work):
    """--listen on a stream: GET /metrics serves each interval's metrics while it is read."""
    from prometheus_client.openmetrics.parser import text_string_to_metric_families
    r = subprocess.run([tool, "--interval", "1", "--listen", "127.0.0.1:0", "/dev/null"],
                       capture_output=True, text=True, timeout=60)
    if r.returncode == 2 and "built without libmicrohttpd" in r.stderr:
        check("--listen is refused, saying why, by a build without libmicrohttpd", True)
        return
    check("--listen on an input that ends at once exits 0", r.returncode == 0, r.stderr)
    r = subprocess.run([tool, "--listen", "127.0.0.1:0", "/dev/null"], capture_output=True,
                       text=True, timeout=60)
    check("--listen without --interval is a usage error", r.returncode == 2 and
          "--listen needs --interval" in r.stderr, (r.returncode, r.stderr))
    r = subprocess.run([tool, "--interval", "1", "--listen", "9101", "/dev/null"],
                       capture_output=True, text=True, timeout=60)
    check("--listen without ADDR:PORT is a usage error", r.returncode == 2, r.stderr)
    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen(1)
    r = subprocess.run([tool, "--interval", "1", "--listen", "127.0.0.1:%d" %
                        busy.getsockname()[1], "/dev/null"],
                       capture_output=True, text=True, timeout=60)
    busy.close()
    check("--listen on a port in use fails (status 1) saying so",
          r.returncode == 1 and "cannot listen there" in r.stderr, (r.returncode, r.stderr))

    trace = os.path.join(src, "fixtures", "synthetic", "6.1-mixed.txt")
    lines = open(trace).read().splitlines(True)
    half = len(lines) // 2
    whole = json.loads(subprocess.run([tool, "-q", "-f", "json", trace], capture_output=True,
                                      text=True, check=True).stdout)["totals"]["direct"]["reclaims"]
    # interval reports go to stdout (JSON Lines): a file, which never fills up
    out_path = os.path.join(work, "listen.out")
    out_file = open(out_path, "w")
    p = subprocess.Popen([tool, "--interval", "0.2", "--listen", "127.0.0.1:0", "-f", "json",
                          "-"], stdin=subprocess.PIPE, stdout=out_file,
                         stderr=subprocess.PIPE, text=True)
    out_file.close()
    try:
        said = p.stderr.readline()
        port = said.rsplit(":", 1)[-1].split("/")[0] if "/metrics" in said else None
        check("--listen says where it serves (%s)" % said.strip(), port and port.isdigit())
        if not port:
            return
        url = "http://127.0.0.1:%s" % port
        st, ctype, body = fetch(url + "/metrics")
        check("before any interval, /metrics serves the counts of nothing (200, %s)" % ctype,
              st == 200 and ctype.startswith("text/plain; version=0.0.4") and
              direct_reclaims(body) == 0, (st, body[:300]))
        p.stdin.write("".join(lines[:half]))
        p.stdin.flush()
        part, deadline = None, time.time() + 30
        while time.time() < deadline and not part:
            time.sleep(0.3)
            st, ctype, body = fetch(url + "/metrics")
            part = body if st == 200 and (direct_reclaims(body) or 0) > 0 else None
        check("while the stream is read, /metrics serves an interval's counts (%s of %d)" %
              (direct_reclaims(part), whole), part and direct_reclaims(part) < whole)
        ok, lint = promtool_lint(part or "")
        check("promtool check metrics accepts the served text", ok, lint)
        st, ctype, om = fetch(url + "/metrics", "application/openmetrics-text; version=1.0.0")
        try:
            list(text_string_to_metric_families(om))
            err = None
        except Exception as e:  # the parser raises ValueError and others
            err = e
        check("Accept: application/openmetrics-text gets OpenMetrics (%s)" % ctype,
              st == 200 and ctype.startswith("application/openmetrics-text") and err is None and
              om.endswith("# EOF\n"), (st, ctype, err))
        st, _, _ = fetch(url + "/other")
        check("another path is 404", st == 404, st)
        p.stdin.write("".join(lines[half:]))
        p.stdin.flush()
        full, deadline = None, time.time() + 30
        while time.time() < deadline and not full:
            time.sleep(0.3)
            st, ctype, body = fetch(url + "/metrics")
            full = body if direct_reclaims(body) == whole else None
        check("after the whole stream, /metrics serves the whole trace's counts (%d)" % whole,
              full is not None)
        p.stdin.close()
        p.wait(timeout=60)
        out = open(out_path).read().splitlines()
        last = json.loads(out[-1]) if out else {}
        check("--listen: the total is printed after the interval deltas, status 0",
              p.returncode == 0 and len(out) > 2 and
              last.get("interval", {}).get("kind") == "total" and
              last["summary"]["totals"]["direct"]["reclaims"] == whole,
              (p.returncode, len(out)))
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()


def prom_samples(text):
    """{(name, frozenset(labels)): value} of Prometheus text."""
    from prometheus_client.parser import text_string_to_metric_families
    return samples_of(text_string_to_metric_families(text))[0]


def totals_of(vals):
    """The metrics as the JSON summary's totals, for fixtures_vmstat.rows()."""
    def get(name, **labels):
        return vals.get((name, frozenset(labels.items())))

    def add(*v):
        return None if any(x is None for x in v) else int(sum(v))
    t = {}
    for ctx in ("direct", "kswapd", "memcg", "memcg_softlimit", "node", "outside_reclaim"):
        t[ctx] = {k: add(*(get("vmscan_%s_pages_total" % m, context=ctx, type=ty)
                           for ty in ("file", "anon", "unknown")))
                  for k, m in (("pages_scanned", "scanned"), ("pages_reclaimed", "reclaimed"))}
        t[ctx]["reclaims"] = get("vmscan_reclaims_total", context=ctx)
        t[ctx]["retries"] = get("vmscan_reclaim_retries_total", context=ctx)
        t[ctx]["writes"] = {"pages": get("vmscan_written_pages_total", context=ctx)}
    return t


def monotonic(series):
    """The first (earlier, later, sample) where a counter went down, else None."""
    for a, b in zip(series, series[1:]):
        for k, v in a[1].items():
            if k in b[1] and b[1][k] < v:
                return a[0], b[0], k, v, b[1][k]
    return None


def check_copies(label, paths):
    """Every copy is whole (promtool, the parser, the families), counters only grow."""
    bad, seen = [], []
    for path in paths:
        text = open(path).read()
        ok, lint = promtool_lint(text)
        try:
            vals = prom_samples(text)
        except Exception as e:  # a cut file fails to parse
            vals, lint = {}, "%s %s" % (lint, e)
        whole = ok and text.endswith("\n") and ("vmscan_input_lines_total", frozenset(
            {("state", "analyzed")})) in vals
        if not whole:
            bad.append((os.path.basename(path), lint[:200], text[-200:]))
        else:
            seen.append((os.path.basename(path), vals))
    check("%s: every one of %d is whole (promtool, parser, last family)" % (label, len(paths)),
          paths and not bad, bad[:3])
    down = monotonic(seen)
    check("%s: no counter ever goes down from one to the next" % label, down is None, down)
    return seen


def check_capture(tool, src, work, d, vmstat):
    """A QEMU capture whose guest ran live --openmetrics-file --interval 1 (kernel/guest/init)."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import fixtures_vmstat
    os.makedirs(work, exist_ok=True)
    final = open(os.path.join(d, "metrics.prom")).read()
    ok, lint = promtool_lint(final)
    check("live's final metrics file: promtool check metrics accepts it", ok, lint)
    vals = prom_samples(final)
    lv = json.load(open(os.path.join(d, "live.json")))
    from prometheus_client.parser import text_string_to_metric_families as prom_families
    compare_with_summary("live's final metrics file vs its final JSON summary",
                         list(prom_families(final)), lv)
    if vmstat:
        vm = fixtures_vmstat.delta(d, "vmstat.before", "vmstat.after")
        cg = fixtures_vmstat.delta(d, "memory.stat.before", "memory.stat.after")
        # records lost, and those read later than live's hold-back (they may
        # cut their periods: fixtures_vmstat.late_records())
        lost = fixtures_vmstat.said_lost(lv) + lv["input"]["lines_lost_markers"] + \
            fixtures_vmstat.late_records(lv)
        for name, ours, kernel in fixtures_vmstat.rows(totals_of(vals), vm, cg):
            check("live's metrics file: %s (%s vs %d, %d lost or late)" % (name, ours, kernel,
                                                                         lost),
                  ours is not None and abs(ours - kernel) <= lost * 32)
    copies = sorted(glob.glob(os.path.join(d, "metrics-copies", "*.prom")))
    seen = check_copies("copies of the metrics file taken every 0.2 s", copies)
    key = ("vmscan_input_lines_total", frozenset({("state", "analyzed")}))
    done = vals.get(key)
    during = [v[key] for _, v in seen if 0 < v[key] < done]
    check("the file was rewritten while the workload ran (%d copies, %d of them between the "
          "first event and the last)" % (len(seen), len(during)), len(during) >= 1)
    # per cgroup: the memcg hog ran in /hog; every family adds up to the host's
    hog = vals.get(("vmscan_cgroup_reclaims_total",
                    frozenset({("cgroup", "/hog"), ("context", "memcg")})))
    memcg = vals.get(("vmscan_reclaims_total", frozenset({("context", "memcg")})))
    # a cgroup is read when live first handles the task's events: a hog that
    # exited before that (live drains behind the workload on a slow TCG
    # guest) is "unknown", as documented; it is never another cgroup
    unknown = vals.get(("vmscan_cgroup_reclaims_total",
                        frozenset({("cgroup", "unknown"), ("context", "memcg")}))) or 0
    check("cgroup=\"/hog\" did every memcg reclaim whose task's cgroup was read "
          "(%s of %s; %s unknown)" % (hog, memcg, unknown),
          memcg and (hog or 0) + unknown == memcg)
    bad = []
    for fam, host, ctxs in (("vmscan_cgroup_reclaims_total", "vmscan_reclaims_total",
                             ("direct", "memcg")),
                            ("vmscan_cgroup_scanned_pages_total", "vmscan_scanned_pages_total",
                             ("direct", "memcg")),
                            ("vmscan_cgroup_reclaimed_pages_total",
                             "vmscan_reclaimed_pages_total", ("direct", "memcg"))):
        for ctx in ctxs:
            per = sum(v for (n, l), v in vals.items() if n == fam and ("context", ctx) in l)
            whole = sum(v for (n, l), v in vals.items() if n == host and ("context", ctx) in l)
            if per != whole:
                bad.append((fam, ctx, per, whole))
    per = sum(v for (n, l), v in vals.items() if n == "vmscan_cgroup_direct_stall_seconds_count")
    whole = vals.get(("vmscan_direct_stall_seconds_count", frozenset()))
    if per != whole:
        bad.append(("stall count", per, whole))
    cgroups = sorted({dict(l)["cgroup"] for (n, l) in vals if n.startswith("vmscan_cgroup_")})
    check("per-cgroup series add up to the host's totals (cgroups %s)" % cgroups,
          cgroups and not bad, bad)


def main():
    if sys.argv[1] == "--capture":
        tool, src, work = sys.argv[2:5]
        for d in sys.argv[5:]:
            meta = json.load(open(os.path.join(d, "metadata.json")))
            check_capture(tool, src, work, d, meta.get("lru_gen") == "off" and
                          meta["kernel_release"].startswith("6.1."))
        return exit_status()
    tool, src, work = sys.argv[1:4]
    missing = [t for t in ("promtool", "prometheus-node-exporter") if not shutil.which(t)]
    try:
        import prometheus_client.openmetrics.parser  # noqa: F401
    except ImportError:
        missing.append("python3-prometheus-client")
    if missing:
        print("SKIP: %s not installed (scripts/install-deps.sh installs them)" %
              ", ".join(missing))
        return 77
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    fixtures = sorted(glob.glob(os.path.join(src, "fixtures", "6.1", "*", "*", "trace.dat")))
    fixtures += sorted(glob.glob(os.path.join(src, "fixtures", "handmade", "*.txt")))
    fixtures += sorted(glob.glob(os.path.join(src, "fixtures", "synthetic", "*.txt")))
    check("fixtures found (%d)" % len(fixtures), len(fixtures) >= 10)
    summaries = []
    for fx in fixtures:
        what = os.path.relpath(fx, src)
        r = subprocess.run([tool, "-q", "-f", "json", fx], capture_output=True, text=True,
                           timeout=300)
        summary = json.loads(r.stdout)
        check_output(tool, what, [fx], summary, work)
        if "dirty-swap" in fx:
            js = os.path.join(work, "%d.json" % len(summaries))
            with open(js, "w") as f:
                f.write(r.stdout)
            summaries.append(js)
    # the metrics of a summary file are those of its trace; a merge's its sum
    merged = json.loads(subprocess.run([tool, "merge"] + summaries, capture_output=True,
                                       text=True, check=True).stdout)
    for args in (["merge"] + summaries, summaries):
        check_output(tool, ("merge of %d summaries" if args[0] == "merge" else
                            "%d summaries as input") % len(summaries), args, merged, work)
    up = os.path.join(src, "fixtures", "6.1", "dirty-swap", "upstream", "trace.dat")
    node_exporter(tool, up, json.loads(subprocess.run(
        [tool, "-q", "-f", "json", up], capture_output=True, text=True, check=True).stdout), work)
    interval_stream(tool, src, work)
    listen_stream(tool, src, work)
    return exit_status()


if __name__ == "__main__":
    sys.exit(main())
