#!/usr/bin/python3
"""What a capture's trace can tell, set against the kernel's own counters.

For each fixture directory (fixtures/<kernel>/<scenario>/<setting>/), prints
one JSON object with
  * "analyzer_text" / "analyzer_dat": the analyzer's totals (vmscan-analyze
    -f json) for the text capture and the trace.dat: direct, kswapd and
    memcg pages scanned and reclaimed, pages written, direct reclaims, and
    the input accounting (rejected lines, unknown events);
  * "kernel": the /proc/vmstat and the cgroup's memory.stat deltas of the
    same run (pgscan_*, pgsteal_*, allocstall_*, nr_vmscan_write, pgscan,
    pgsteal);
  * "trace": counts read from the text capture directly, independent of the
    analyzer: events by name, mm_vmscan_lru_isolate sums (nr_scanned,
    nr_skipped, nr_taken) by reclaim context (direct, kswapd, memcg) and
    list (inactive, active) and by nr_requested, mm_vmscan_write_folio events and their nr_pages, and the
    "goto retry" windows of do_try_to_free_pages(): a direct reclaim
    begin/end window of one task in which the priority of
    mm_vmscan_lru_shrink_inactive/active goes back up (retry restarts at
    the initial priority).  A pass that shrinks no list leaves no trace, so
    this is a lower bound.

usage: kernel/findings.py TOOL FIXTURE_DIR...
"""
import json
import lzma
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict

HEAD = re.compile(r"^\s*(.*)-(\d+)\s+\[\d+\]\s+\S*\s*[\d.]+: (mm_vmscan_\w+): (.*)$")
FIELD = re.compile(r"(\w+)=(\S+)")


def counters(path):
    out = {}
    with open(path) as f:
        for line in f:
            k, v = line.split()[:2]
            out[k] = int(v)
    return out


def delta(d, name):
    a = counters(os.path.join(d, name + ".before"))
    b = counters(os.path.join(d, name + ".after"))
    return {k: b[k] - a.get(k, 0) for k in b}


def analyze(tool, path):
    out = subprocess.run([tool, "--format", "json", "--quiet", path], capture_output=True,
                         check=True)
    j = json.loads(out.stdout)
    t = j["totals"]

    def cls(c):
        w = t[c]["writes"]
        return {"pages_scanned": t[c]["pages_scanned"],
                "pages_reclaimed": t[c]["pages_reclaimed"],
                "end_nr_reclaimed_pages": t[c]["end_nr_reclaimed_pages"],
                "pages_written": w["pages"]}
    return {"direct": dict(cls("direct"), reclaims=t["direct"]["reclaims"]),
            "kswapd": cls("kswapd"),
            "memcg": dict(cls("memcg"), reclaims=t["memcg"]["reclaims"]),
            "flusher_wakeups": t["flusher_wakeups"],
            "lines_rejected": j["input"]["lines_rejected"],
            "unknown_vmscan_events": sum(s["unknown_vmscan_events"]
                                         for s in j["input"]["sources"]),
            "events_lost": j["input"]["events_lost"]}


def trace_counts(text):
    events = Counter()
    iso = defaultdict(Counter)
    requested = Counter()
    writes = Counter()
    window = {}      # pid -> ["direct"|"memcg", last priority, retried]
    retries = Counter()
    for line in text:
        m = HEAD.match(line)
        if not m:
            continue
        comm, pid, ev, rest = m.group(1), m.group(2), m.group(3), m.group(4)
        events[ev] += 1
        f = dict(FIELD.findall(rest))
        if ev == "mm_vmscan_direct_reclaim_begin":
            window[pid] = ["direct", None, False]
        elif ev in ("mm_vmscan_memcg_reclaim_begin", "mm_vmscan_memcg_softlimit_reclaim_begin"):
            window[pid] = ["memcg", None, False]
        elif ev.endswith("_reclaim_end"):
            w = window.pop(pid, None)
            if w and w[2]:
                retries[w[0]] += 1
        elif ev in ("mm_vmscan_lru_shrink_inactive", "mm_vmscan_lru_shrink_active") and \
                pid in window:
            w = window[pid]
            p = int(f["priority"])
            if w[1] is not None and p > w[1]:
                w[2] = True
            w[1] = p
        elif ev == "mm_vmscan_lru_isolate":
            ctx = window[pid][0] if pid in window else (
                "kswapd" if comm.startswith("kswapd") else "other")
            ctx += "/" + ("active" if f["lru"].startswith("active") else "inactive")
            for k in ("nr_scanned", "nr_skipped", "nr_taken"):
                iso[ctx][k] += int(f[k])
            iso[ctx]["events"] += 1
            requested[f["nr_requested"]] += 1
        elif ev == "mm_vmscan_write_folio":
            writes["events"] += 1
            if "nr_pages" in f:
                writes["pages"] += int(f["nr_pages"])
            writes["file" if "RECLAIM_WB_FILE" in f.get("flags", "") else "anon"] += 1
    return {"events": dict(events), "lru_isolate": {k: dict(v) for k, v in iso.items()},
            "lru_isolate_nr_requested": dict(requested.most_common(6)),
            "write_folio": dict(writes), "goto_retry_windows": dict(retries)}


def main():
    tool = sys.argv[1]
    for d in sys.argv[2:]:
        vm = delta(d, "vmstat")
        cg = delta(d, "memory.stat")
        kernel = {k: vm[k] for k in ("pgscan_direct", "pgscan_kswapd", "pgsteal_direct",
                                     "pgsteal_kswapd", "nr_vmscan_write", "pgscan_anon",
                                     "pgscan_file", "pgrefill") if k in vm}
        kernel["allocstall"] = sum(v for k, v in vm.items() if k.startswith("allocstall_"))
        kernel["memcg_pgscan"] = cg.get("pgscan")
        kernel["memcg_pgsteal"] = cg.get("pgsteal")
        with tempfile.TemporaryDirectory() as tmp:
            plain = os.path.join(tmp, "trace.txt")
            with lzma.open(os.path.join(d, "trace.txt.xz"), "rt", errors="replace") as src, \
                    open(plain, "w") as dst:
                for line in src:
                    dst.write(line)
            at = analyze(tool, plain)
            with open(plain) as f:
                tc = trace_counts(f)
        ad = analyze(tool, os.path.join(d, "trace.dat"))
        meta = json.load(open(os.path.join(d, "metadata.json")))
        print(json.dumps({"fixture": d, "kernel_release": meta["kernel_release"],
                          "lru_gen_enabled": meta.get("lru_gen_enabled"),
                          "analyzer_text": at, "analyzer_dat_equal": ad == at,
                          "kernel": kernel, "trace": tc}, indent=1))


if __name__ == "__main__":
    main()
