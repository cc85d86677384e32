#!/usr/bin/python3
"""The statistics docs/experiment.md quotes for its claims: for each row
below, every group's mean +- sample sd over its runs, and against the first
group Welch's t-test and the exact Mann-Whitney test (two-sided; the
permutation distribution of the rank sum, mid-ranks for ties), p-values.

usage: experiment-stats.py FAMILY SCENARIO
           the five settings of fixtures/FAMILY/SCENARIO/*/runs/, against
           traceonly; then nodirect against the settings after it
       experiment-stats.py GROUP GROUP...
           GROUP: FAMILY/SCENARIO/SETTING (fixtures/GROUP/runs/), against
           the first (the classic against the multi-gen LRU, say)

Each run's numbers come from its summary.json (the analyzer's) and its
metadata.json's workload_result (the workload's own); a row some run has
no number for (null: the trace cannot tell) is left out.
"""
import glob
import itertools
import json
import math
import os
import statistics
import sys

TOP = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures")
SETTINGS = ["traceonly", "nodirect", "flusholdest", "flushforward", "upstream"]


def runs(group):
    """(summary, workload result) of each run of fixtures/GROUP/runs/, in order"""
    out = []
    dirs = glob.glob(os.path.join(TOP, group, "runs", "*"))
    for d in sorted(dirs, key=lambda p: int(os.path.basename(p))):
        with open(os.path.join(d, "summary.json")) as f, \
                open(os.path.join(d, "metadata.json")) as g:
            out.append((json.load(f), json.load(g).get("workload_result", {})))
    return out


def totals(s):
    return s["totals"]


def file_writes(s):
    t = totals(s)
    w = [t[c]["writes"]["file_async"] for c in ("direct", "kswapd", "memcg", "memcg_softlimit", "node")]
    return None if None in w else sum(w)


ROWS = [
    ("direct reclaim file writes", lambda s, w: totals(s)["direct"]["writes"]["file_async"]),
    ("kswapd file writes", lambda s, w: totals(s)["kswapd"]["writes"]["file_async"]),
    ("all of reclaim's file writes", lambda s, w: file_writes(s)),
    ("flusher pages written for reclaim",
     lambda s, w: totals(s)["flusher_writeback"]["vmscan"]["pages"]),
    ("flush-forward pages requested",
     lambda s, w: totals(s)["flusher_wakeups"]["flush_forward"]["requested_pages"]),
    ("direct reclaims", lambda s, w: totals(s)["direct"]["reclaims"]),
    ("direct stall, total (s)", lambda s, w: totals(s)["direct"]["latency_ns"] / 1e9),
    ("direct stall, longest (s)", lambda s, w: s["latency"]["direct_stall_ns"]["max_ns"] / 1e9),
    ("direct stall, median (ms)", lambda s, w: s["latency"]["direct_stall_ns"]["p50_ns"] / 1e6),
    ("kswapd pages scanned", lambda s, w: totals(s)["kswapd"]["pages_scanned"]),
    ("kswapd anon writes", lambda s, w: totals(s)["kswapd"]["writes"]["anon_async"]),
]
WORKLOAD = ["workload_seconds", "write_phase_seconds", "order9_got", "order4_got"]


def betacf(a, b, x):
    """the continued fraction of the regularized incomplete beta function"""
    tiny = 1e-300
    c, d = 1.0, 1 - (a + b) * x / (a + 1)
    d = 1 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        for num in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                    -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1 + num * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + num / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1) < 3e-14:
            break
    return h


def betai(a, b, x):
    if x <= 0 or x >= 1:
        return max(0.0, min(1.0, x))
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) +
                     a * math.log(x) + b * math.log(1 - x))
    if x < (a + 1) / (a + b + 2):
        return front * betacf(a, b, x) / a
    return 1 - front * betacf(b, a, 1 - x) / b


def welch(x, y):
    """two-sided p of Welch's t-test"""
    vx, vy = statistics.variance(x) / len(x), statistics.variance(y) / len(y)
    if vx + vy == 0:
        return 1.0 if statistics.mean(x) == statistics.mean(y) else 0.0
    t = (statistics.mean(x) - statistics.mean(y)) / math.sqrt(vx + vy)
    df = (vx + vy) ** 2 / (vx ** 2 / (len(x) - 1) + vy ** 2 / (len(y) - 1))
    return betai(df / 2, 0.5, df / (df + t * t))


def mid_ranks(v):
    order = sorted(range(len(v)), key=lambda i: v[i])
    r = [0.0] * len(v)
    i = 0
    while i < len(v):
        j = i
        while j + 1 < len(v) and v[order[j + 1]] == v[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return r


def mann_whitney(x, y):
    """exact two-sided p: the share of the splits of the pooled ranks into
    groups of x's and y's sizes whose rank sum is at least as far from its
    mean as x's"""
    r = mid_ranks(list(x) + list(y))
    n = len(x)
    mean = n * (len(r) + 1) / 2
    far = abs(sum(r[:n]) - mean) - 1e-9
    hits = total = 0
    for pick in itertools.combinations(r, n):
        total += 1
        hits += abs(sum(pick) - mean) >= far
    return hits / total


def fmt(v):
    return "%.2f" % v if abs(v) < 100 else "%.0f" % v


def pval(p):
    return "< 0.001" if p < 0.001 else "%.3f" % p


def table(groups, names, pairs):
    data = {g: runs(g) for g in groups}
    for g in groups:
        if len(data[g]) < 2:
            sys.exit("experiment-stats: %s: fewer than 2 runs" % g)
    print("runs: " + ", ".join("%s %d" % (n, len(data[g])) for g, n in zip(groups, names)))
    rows = ROWS + [(k, (lambda key: lambda s, w: w.get(key))(k)) for k in WORKLOAD]
    for label, get in rows:
        try:
            cols = {g: [get(s, w) for s, w in data[g]] for g in groups}
        except (KeyError, TypeError):
            continue
        if any(v is None for c in cols.values() for v in c):
            continue
        print(label)
        for g, n in zip(groups, names):
            c = cols[g]
            print("  %-14s %s +- %s" % (n, fmt(statistics.mean(c)), fmt(statistics.stdev(c))))
        for a, b in pairs:
            x, y = cols[groups[a]], cols[groups[b]]
            print("  %s vs %s: Welch p %s, U p %s" % (names[b], names[a], pval(welch(x, y)),
                                                     pval(mann_whitney(x, y))))


def main(argv):
    if len(argv) == 2 and "/" not in argv[0] + argv[1]:
        fam, sc = argv
        settings = [s for s in SETTINGS if os.path.isdir(os.path.join(TOP, fam, sc, s, "runs"))]
        groups = ["%s/%s/%s" % (fam, sc, s) for s in settings]
        pairs = [(0, i) for i in range(1, len(groups))]
        if "nodirect" in settings:
            k = settings.index("nodirect")
            pairs += [(k, i) for i in range(k + 1, len(groups))]
        table(groups, settings, pairs)
    elif len(argv) >= 2:
        table(argv, argv, [(0, i) for i in range(1, len(argv))])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
