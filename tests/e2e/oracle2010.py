#!/usr/bin/python3
"""End-to-end: the 2010 Perl script (the oracle) and vmscan-analyze must agree.

For several generated seed-format traces, every number of the oracle's
Summary block, every per-process row and every kswapd row (compared as sets:
Perl prints in hash order) and every per-task latency list must match what
vmscan-analyze reports.  Times are compared to the precision Perl prints.

usage: oracle2010.py TOOL SHARED_DIR WORKDIR
Exit 77 (skipped) when the oracle is not there.
"""
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def parse_perl(text):
    out = {"summary": {}, "procs": {}, "kswapd": {}, "lat": {}}
    section = None
    for line in text.splitlines():
        if line.startswith("WARNING"):
            continue
        if line.startswith("Reclaim latencies"):
            section = "lat"
            continue
        if line.startswith("Process"):
            section = "proc_hdr"
            continue
        if line.startswith("Kswapd ") and "Kswapd" in line[7:]:
            section = "ksw_hdr"
            continue
        if line.startswith("details") or line.startswith("Instance"):
            section = {"proc_hdr": "procs", "ksw_hdr": "kswapd"}[section]
            continue
        if line.startswith("Summary"):
            section = "summary"
            continue
        if not line.strip():
            if section in ("lat", "procs", "kswapd"):
                section = None
            continue
        tok = line.split()
        if section == "lat":
            out["lat"][tok[0]] = sorted(
                (int(t.split("-", 1)[0]), float(t.split("-", 1)[1])) for t in tok[1:])
        elif section in ("procs", "kswapd"):
            nums = tok[1:7] if section == "procs" else tok[1:6]
            ann = {}
            for t in tok[len(nums) + 1:]:
                k, v = t.split("=")
                ann[k] = int(v)
            out[section][tok[0]] = ([float(x) for x in nums], ann)
        elif section == "summary":
            label, value = line.split(":", 1)
            out["summary"][label.strip()] = float(value.split()[0])
    return out


def ours_from_json(j):
    procs, ksw = {}, {}
    for p in j["processes"]:
        d = p["direct"]
        if not d["reclaims"]:
            continue
        w = d["writes"]
        ann = {"direct-%s" % o: c for o, c in d["reclaims_by_order"].items()}
        ann.update({"wakeup-%s" % o: c for o, c in p["wakeup_kswapd_by_order"].items()})
        procs["%s-%d" % (p["comm"], p["pid"])] = ([
            d["reclaims"], p["wakeup_kswapd_requests"], d["pages_scanned"],
            w["file_sync"] + w["anon_sync"], w["file_async"] + w["anon_async"],
            d["latency_ns"] / 1e9], ann)
    for k in j["kswapd"]:
        r = k["reclaim"]
        w = r["writes"]
        ann = {"wake-%s" % o: c for o, c in k["wakeups_by_order"].items()}
        ann.update({"rewake-%s" % o: c for o, c in k["rewakeups_by_order"].items()})
        ksw["%s-%d" % (k["comm"], k["pid"])] = ([
            k["wakeups"], k["rewakeups"], r["pages_scanned"],
            w["file_sync"] + w["anon_sync"], w["file_async"] + w["anon_async"]], ann)
    t = j["totals"]
    d, k = t["direct"], t["kswapd"]
    summary = {
        "Direct reclaims": d["reclaims"],
        "Direct reclaim pages scanned": d["pages_scanned"],
        "Direct reclaim write file sync I/O": d["writes"]["file_sync"],
        "Direct reclaim write anon sync I/O": d["writes"]["anon_sync"],
        "Direct reclaim write file async I/O": d["writes"]["file_async"],
        "Direct reclaim write anon async I/O": d["writes"]["anon_async"],
        "Wake kswapd requests": t["wakeup_kswapd_requests"],
        "Time stalled direct reclaim": d["latency_ns"] / 1e9,
        "Kswapd wakeups": k["wakeups"],
        "Kswapd pages scanned": k["pages_scanned"],
        "Kswapd reclaim write file sync I/O": k["writes"]["file_sync"],
        "Kswapd reclaim write anon sync I/O": k["writes"]["anon_sync"],
        "Kswapd reclaim write file async I/O": k["writes"]["file_async"],
        "Kswapd reclaim write anon async I/O": k["writes"]["anon_async"],
        "Time kswapd awake": k["awake_ns"] / 1e9,
    }
    return summary, procs, ksw


def parse_our_latency_list(text):
    lat = {}
    on = False
    for line in text.splitlines():
        if line.startswith("Reclaim latencies"):
            on = True
            continue
        if on and not line.strip():
            break
        if on:
            tok = line.split()
            lat[tok[0]] = sorted((int(t.split("-", 1)[0]), float(t.split("-", 1)[1]))
                                 for t in tok[1:])
    return lat


def close(a, b, tol):
    return abs(a - b) <= tol


def compare(perl, ours_json, ours_text, label):
    errors = []
    summary, procs, ksw = ours_from_json(ours_json)
    if set(perl["summary"]) != set(summary):
        errors.append("%s: summary labels differ: %s vs %s" % (
            label, sorted(perl["summary"]), sorted(summary)))
    for k, v in perl["summary"].items():
        tol = 0.0051 if k.startswith("Time") else 0
        if k in summary and not close(v, summary[k], tol):
            errors.append("%s: Summary '%s': oracle %s, ours %s" % (label, k, v, summary[k]))
    for name, table, ours in (("process", perl["procs"], procs), ("kswapd", perl["kswapd"], ksw)):
        if set(table) != set(ours):
            errors.append("%s: %s rows differ: oracle %s ours %s" % (
                label, name, sorted(table), sorted(ours)))
            continue
        for row, (nums, ann) in table.items():
            onums, oann = ours[row]
            for i, (a, b) in enumerate(zip(nums, onums)):
                tol = 0.00051 if (name == "process" and i == 5) else 0
                if not close(a, b, tol):
                    errors.append("%s: %s row %s column %d: oracle %s ours %s" % (
                        label, name, row, i, a, b))
            if ann != oann:
                errors.append("%s: %s row %s orders: oracle %s ours %s" % (
                    label, name, row, ann, oann))
    olat = parse_our_latency_list(ours_text)
    if set(olat) != set(perl["lat"]):
        errors.append("%s: latency list tasks differ" % label)
    for task, pl in perl["lat"].items():
        ol = olat.get(task, [])
        if len(ol) != len(pl) or any(a[0] != b[0] or not close(a[1], b[1], 1e-6)
                                     for a, b in zip(pl, ol)):
            errors.append("%s: latency list of %s differs" % (label, task))
    return errors


def main():
    tool, shared, work = sys.argv[1:4]
    oracle = os.path.join(shared, "oracle", "run-oracle")
    if not os.access(oracle, os.X_OK):
        print("SKIP: no oracle at %s" % oracle)
        return 77
    os.makedirs(work, exist_ok=True)
    errors = []
    cases = [dict(seed=s, tasks=t, reclaims=r) for s, t, r in
             ((1, 3, 2), (2, 12, 6), (3, 30, 10), (4, 8, 40), (5, 60, 3))]
    for c in cases:
        label = "seed%(seed)d-t%(tasks)d-r%(reclaims)d" % c
        path = os.path.join(work, label + ".txt")
        with open(path, "w") as f:
            subprocess.run([sys.executable, os.path.join(HERE, "gentrace.py"), "--format",
                            "2010", "--seed", str(c["seed"]), "--tasks", str(c["tasks"]),
                            "--reclaims", str(c["reclaims"])], stdout=f, check=True)
        with open(path) as f:
            perl = subprocess.run([oracle], stdin=f, capture_output=True, text=True, check=True)
        pj = subprocess.run([tool, "--format", "json", path], capture_output=True, text=True,
                            check=True)
        pt = subprocess.run([tool, "--latency-list", path], capture_output=True, text=True,
                            check=True)
        parsed = parse_perl(perl.stdout)
        if not parsed["procs"] or not parsed["kswapd"]:
            errors.append("%s: the oracle printed no rows; the test would prove nothing" % label)
        errors += compare(parsed, json.loads(pj.stdout), pt.stdout, label)
        print("%s: %d process rows, %d kswapd rows, %d summary numbers compared" % (
            label, len(parsed["procs"]), len(parsed["kswapd"]), len(parsed["summary"])))
    for e in errors:
        print("MISMATCH", e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
