"""What two JSON summaries of one recording differ in (text_vs_dat.py,
report_options.py): a summary without its "input" block, the fields
computed from timestamps set aside, rows renamed where a trace printed
"<...>", and the differences as paths."""
import json
import subprocess

TIMED = {"latency_ns", "in_progress_ns", "awake_ns", "awake_in_progress_ns"}
HISTOGRAMS = {"direct_stall_ns", "kswapd_awake_ns", "memcg_reclaim_ns", "awake_ns_histogram"}
HIST_KEEP = {"count", "sub_buckets_log2"}


def summary(tool, path, drop=()):
    """path's JSON summary without "input", its one source's traits (all but
    the timestamp resolution and those named in drop) under "traits"; and
    that source"""
    out = subprocess.run([tool, "--format", "json", "--quiet", "--threads", "1", path],
                         capture_output=True, check=True)
    doc = json.loads(out.stdout)
    (source,) = doc.pop("input")["sources"]
    doc["traits"] = {k: v for k, v in source["traits"].items()
                     if k != "timestamp_resolution" and k not in drop}
    return doc, source


def untimed(x):
    """x without what is computed from timestamps (histograms keep their counts)"""
    if isinstance(x, dict):
        return {k: ({h: w for h, w in v.items() if h in HIST_KEEP} if k in HISTOGRAMS else untimed(v))
                for k, v in x.items() if k not in TIMED}
    if isinstance(x, list):
        return [untimed(v) for v in x]
    return x


def named(rows_of, names_of):
    """rows_of's "<...>" rows take names_of's name for the pid (when it has
    exactly one); both row lists re-sorted by name, then pid"""
    names = {}
    for key in ("processes", "kswapd"):
        for r in names_of.get(key, []):
            names.setdefault(r["pid"], set()).add(r["comm"])
    for key in ("processes", "kswapd"):
        rows = rows_of.get(key, [])
        for r in rows:
            if r["comm"] == "<...>" and len(names.get(r["pid"], ())) == 1:
                r["comm"] = next(iter(names[r["pid"]]))
        rows.sort(key=lambda r: (r["comm"], r["pid"]))
        names_of.get(key, []).sort(key=lambda r: (r["comm"], r["pid"]))


def differences(a, b, names=("a", "b"), path=""):
    """the paths where a and b differ, each with both values"""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                yield "%s.%s only in %s" % (path, k, names[0] if k in a else names[1])
            else:
                yield from differences(a[k], b[k], names, "%s.%s" % (path, k))
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            yield from differences(x, y, names, "%s[%d]" % (path, i))
    elif a != b:
        yield "%s: %s %r, %s %r" % (path, names[0], a, names[1], b)
