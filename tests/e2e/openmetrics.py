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
import urllib.request

results = []

# le bounds: 2^k - 1 ns for k = 10..40, then +Inf
BOUNDS = [(1 << k) - 1 for k in range(10, 41)]


def check(name, ok, detail=""):
    results.append(bool(ok))
    print("%s %s%s" % ("ok  " if ok else "FAIL", name, "" if ok else "  " + str(detail)[:600]))


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
    check("with --openmetrics-file, interval reports are not printed, the final one is",
          p.returncode == 0 and out.count('"schema"') == 1, out[:300])


def main():
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
    passed = sum(results)
    print("%d passed, %d failed" % (passed, len(results) - passed))
    return 0 if passed == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
