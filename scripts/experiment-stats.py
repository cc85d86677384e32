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
       experiment-stats.py --plan BATCH
           the analysis docs/experiment-plan.md fixes for batch BATCH
           (fixtures/batchBATCH/, its order file
           docs/experiment-plan/batchBATCH.order, its failures.log): the
           runs planned, done and failed per group; once every planned run
           is done or failed, the primary family (exact Mann-Whitney,
           Hodges-Lehmann shift with its 95% CI, Holm across the family),
           the tracing overhead (text minus off) and the exploratory rows.
           docs/experiment-batchBATCH.txt is this output

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


# ---- docs/experiment-plan.md ------------------------------------------------

PLAN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs", "experiment-plan")


def u_null(m, n):
    """the exact distribution of Mann-Whitney's U for sizes m and n, no
    ties: counts of U = 0 .. m*n over the C(m+n, m) splits"""
    # f[i][j]: counts for sizes i, j (the recursion on the largest value)
    f = {}

    def go(i, j):
        if (i, j) in f:
            return f[(i, j)]
        if i == 0 or j == 0:
            r = [1]
        else:
            a, b = go(i - 1, j), go(i, j - 1)  # the largest in x: U += j
            r = [0] * (i * j + 1)
            for u, c in enumerate(a):
                r[u + j] += c
            for u, c in enumerate(b):
                r[u] += c
        f[(i, j)] = r
        return r
    return go(m, n)


def hodges_lehmann(x, y, level):
    """the median of the pairwise differences y - x, and Moses's
    distribution-free CI at LEVEL: [d(k), d(mn + 1 - k)], k the largest
    with P(U <= k - 1) <= (1 - LEVEL) / 2; returns (shift, lo, hi, coverage)"""
    d = sorted(b - a for a in x for b in y)
    mn = len(d)
    counts = u_null(len(x), len(y))
    total = sum(counts)
    k, cum = 0, 0.0
    while k < len(counts) and (cum + counts[k]) / total <= (1 - level) / 2:
        cum += counts[k]
        k += 1
    shift = statistics.median(d)
    if k == 0:
        return shift, None, None, None
    return shift, d[k - 1], d[mn - k], 1 - 2 * cum / total


def holm(ps):
    """Holm's adjusted p-values, in the order given"""
    order = sorted(range(len(ps)), key=lambda i: ps[i])
    adj = [0.0] * len(ps)
    run = 0.0
    for rank, i in enumerate(order):
        run = max(run, min(1.0, (len(ps) - rank) * ps[i]))
        adj[i] = run
    return adj


def load_json(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def vmstat(d):
    out = {}
    try:
        with open(os.path.join(d, "vmstat.delta")) as f:
            for line in f:
                k, v = line.split()
                out[k] = int(v)
    except OSError:
        pass
    return out


def plan_run(d):
    """one run's numbers: the outcomes of the plan and the secondary rows"""
    meta = load_json(os.path.join(d, "metadata.json")) or {}
    s = load_json(os.path.join(d, "summary.json"))
    w = load_json(os.path.join(d, "summary.workload.json"))
    wr = meta.get("workload_result", {})
    pr = meta.get("pressure_us", {})
    vm = vmstat(d)
    r = {}
    if w is not None:
        r["O1"] = w["totals"]["direct"]["latency_ns"] / 1e9
        mx = w["latency"]["direct_stall_ns"]["max_ns"]
        r["O2"] = None if mx is None else mx / 1e9
    if s is not None:
        r["O3"] = file_writes(s)
        r["O4"] = totals(s)["flusher_writeback"]["vmscan"]["pages"]
        r["all-tasks direct stall (s)"] = totals(s)["direct"]["latency_ns"] / 1e9
        mx = s["latency"]["direct_stall_ns"]["max_ns"]
        r["all-tasks longest stall (s)"] = None if mx is None else mx / 1e9
        r["direct reclaims (all tasks)"] = totals(s)["direct"]["reclaims"]
        r["kswapd file writes"] = totals(s)["kswapd"]["writes"]["file_async"]
    if w is not None:
        r["workload direct reclaims"] = w["totals"]["direct"]["reclaims"]
    r["O5"] = wr.get("dd_seconds")
    r["write phase, dd and hogs (s)"] = wr.get("write_phase_seconds")
    r["workload seconds"] = wr.get("workload_seconds")
    if pr.get("work_some") is not None:
        r["PSI work some (s)"] = pr["work_some"] / 1e6
        r["PSI work full (s)"] = pr["work_full"] / 1e6
    if "nr_vmscan_write" in vm or "pswpout" in vm:
        r["nr_vmscan_write - pswpout"] = vm.get("nr_vmscan_write", 0) - vm.get("pswpout", 0)
    r["allocstall"] = sum(v for k, v in vm.items() if k.startswith("allocstall_"))
    r["guest calibration (s)"] = meta.get("guest_calibration_seconds")
    la = meta.get("host_loadavg_before")
    r["host load, 1 min, before"] = float(la.split()[0]) if la else None
    r["host seconds"] = meta.get("host_seconds")
    return r


OUTCOMES = [("O1", "workload direct-stall time (s)"), ("O2", "workload longest stall (s)"),
            ("O3", "reclaim file writes, all tasks"), ("O4", "flusher pages written for reclaim"),
            ("O5", "dd's elapsed time (s)")]
# batch: primary comparisons (claim, family, scenario, first, second),
# exploratory comparisons (label, family, scenario, first, second)
PLANS = {
    1: {"primary": [("C1", "6.1", "dirty-swap", "traceonly", "nodirect"),
                    ("C2", "6.1", "dirty-swap", "flusholdest", "flushforward")],
        "explore": [("nodirect vs flusholdest", "6.1", "dirty-swap", "nodirect", "flusholdest"),
                    ("C1 untraced", "6.1-notrace", "dirty-swap", "traceonly", "nodirect"),
                    ("C2 untraced", "6.1-notrace", "dirty-swap", "flusholdest", "flushforward")]},
    2: {"primary": [("C3", "6.12", "dirty-swap", "flusholdest", "flushforward")],
        "explore": [("upstream vs flusholdest", "6.12", "dirty-swap", "upstream", "flusholdest"),
                    ("C3 untraced", "6.12-notrace", "dirty-swap", "flusholdest", "flushforward")]},
}
OVERHEAD = [("O1 proxy: PSI work some (s)", "PSI work some (s)"), ("PSI work full (s)", "PSI work full (s)"),
            ("O3 upper bound (vmstat)", "nr_vmscan_write - pswpout"), ("O5", "O5"), ("allocstall", "allocstall")]
SECONDARY = ["all-tasks direct stall (s)", "all-tasks longest stall (s)", "direct reclaims (all tasks)",
             "workload direct reclaims", "kswapd file writes", "write phase, dd and hogs (s)",
             "workload seconds", "PSI work some (s)", "PSI work full (s)", "nr_vmscan_write - pswpout",
             "allocstall"]


def fnum(v):
    if v is None:
        return "-"
    a = abs(v)
    return "%.0f" % v if a >= 100 else "%.2f" % v if a >= 1 or a == 0 else "%.3f" % v


def cell(x, y, ref_median):
    """p, HL shift, 95% CI, 90% CI and the shift relative to ref_median"""
    p = mann_whitney(x, y)
    hl, lo, hi, cov = hodges_lehmann(x, y, 0.95)
    _, lo90, hi90, _ = hodges_lehmann(x, y, 0.90)
    rel = (lambda v: None if v is None or not ref_median else 100 * v / ref_median)
    return p, hl, lo, hi, cov, lo90, hi90, rel


def plan_report(batch):
    order_file = os.path.join(PLAN, "batch%d.order" % batch)
    top = os.path.join(TOP, "batch%d" % batch)
    if batch not in PLANS or not os.path.exists(order_file):
        sys.exit("experiment-stats: no plan for batch %s" % batch)
    planned = {}
    with open(order_file) as f:
        for line in f:
            b, i, k, lru, sc, st, tr = line.split()
            fam = k + ("-mglru" if lru == "on" else "") + ("-notrace" if tr == "off" else "")
            planned.setdefault((fam, sc, st), []).append((i, "%s %s lru_gen %s %s %s tracing %s" % (
                "batch %s block %s:" % (b, i), k, lru, sc, st, tr)))
    failed = {}
    try:
        with open(os.path.join(top, "failures.log")) as f:
            fails = f.read().splitlines()
    except OSError:
        fails = []
    data = {}
    for g, items in planned.items():
        fam, sc, st = g
        data[g] = []
        failed[g] = 0
        for i, what in items:
            d = os.path.join(top, fam, sc, st, "runs", i)
            if os.path.isdir(d):
                data[g].append(plan_run(d))
            elif any(" %s: " % what in " " + x for x in fails):
                failed[g] += 1
    print("Batch %d (docs/experiment-plan.md): runs planned, done, failed" % batch)
    for g in sorted(planned):
        print("  %-40s %2d planned %2d done %2d failed" % ("/".join(g), len(planned[g]), len(data[g]),
                                                          failed[g]))
    left = sum(len(planned[g]) - len(data[g]) - failed[g] for g in planned)
    if left:
        print("\n%d planned runs neither done nor failed: no tests before the batch is complete" % left)
        provenance(planned, data)
        return
    print("\nRuns of a group: the medians; HL: Hodges-Lehmann shift, second minus first,")
    print("with its distribution-free 95% CI (Moses); U p: exact Mann-Whitney, two-sided;")
    print("Holm: adjusted across the primary family. %: of the first group's median.")

    def row(label, x, y, adj=None, verdict_of=None):
        x = [v for v in x if v is not None]
        y = [v for v in y if v is not None]
        if len(x) < 2 or len(y) < 2:
            print("  %-36s too few runs with a value (%d, %d)" % (label, len(x), len(y)))
            return None
        ref = statistics.median(x)
        p, hl, lo, hi, cov, lo90, hi90, rel = cell(x, y, ref)
        ci = "[%s, %s]" % (fnum(lo), fnum(hi)) if lo is not None else "[n too small]"
        relci = "[%s%%, %s%%]" % (fnum(rel(lo)), fnum(rel(hi))) if lo is not None and ref else ""
        out = "  %-36s %9s %9s  HL %9s %-22s %-18s U p %s" % (
            label, fnum(ref), fnum(statistics.median(y)), fnum(hl), ci, relci, pval(p))
        if adj is not None:
            out += ", Holm %s" % pval(adj)
            out += ": " + verdict_of(adj, ref, lo90, hi90)
        print(out)
        return p

    def verdict(key):
        def v(adj, ref, lo90, hi90):
            if adj < 0.05:
                return "shown"
            if key == "O5" and lo90 is not None and ref and \
                    -0.1 * ref <= lo90 and hi90 <= 0.1 * ref:
                return "no change (90% CI within +-10%)"
            return "not shown"
        return v

    fam_cells = []
    for claim, fam, sc, a, b in PLANS[batch]["primary"]:
        for key, label in OUTCOMES:
            x = [r.get(key) for r in data[(fam, sc, a)]]
            y = [r.get(key) for r in data[(fam, sc, b)]]
            xs, ys = [v for v in x if v is not None], [v for v in y if v is not None]
            if len(xs) >= 2 and len(ys) >= 2:
                fam_cells.append((claim, key, mann_whitney(xs, ys)))
    adj = dict(((c, k), a) for (c, k, _), a in zip(fam_cells, holm([p for _, _, p in fam_cells])))
    print("\n== Primary family: %d tests, Holm ==" % len(fam_cells))
    for claim, fam, sc, a, b in PLANS[batch]["primary"]:
        print("\n%s: %s/%s %s -> %s (tracing text; n %d, %d)" % (
            claim, fam, sc, a, b, len(data[(fam, sc, a)]), len(data[(fam, sc, b)])))
        print("  %-36s %9s %9s" % ("outcome", a[:9], b[:9]))
        for key, label in OUTCOMES:
            row("%s %s" % (key, label), [r.get(key) for r in data[(fam, sc, a)]],
                [r.get(key) for r in data[(fam, sc, b)]], adj.get((claim, key)), verdict(key))
    print("\n== Tracing overhead (measurement, not tests): text minus off, per setting ==")
    print("O2 (longest stall) and O4 (flusher pages for reclaim) cannot be measured untraced.")
    for fam, sc, st in sorted(g for g in planned if not g[0].endswith("-notrace")):
        off = (fam + "-notrace", sc, st)
        if off not in data:
            continue
        print("\n%s/%s %s: off (n %d) -> text (n %d)" % (fam, sc, st, len(data[off]), len(data[(fam, sc, st)])))
        for label, key in OVERHEAD:
            row(label, [r.get(key) for r in data[off]], [r.get(key) for r in data[(fam, sc, st)]])
    print("\n== Exploratory (no Holm, no claims) ==")
    for label, fam, sc, a, b in PLANS[batch]["explore"]:
        print("\n%s: %s/%s %s -> %s" % (label, fam, sc, a, b))
        for key, lab in OUTCOMES:
            row("%s %s" % (key, lab), [r.get(key) for r in data[(fam, sc, a)]],
                [r.get(key) for r in data[(fam, sc, b)]])
        for key in SECONDARY:
            row(key, [r.get(key) for r in data[(fam, sc, a)]], [r.get(key) for r in data[(fam, sc, b)]])
    for claim, fam, sc, a, b in PLANS[batch]["primary"]:
        print("\nSecondary rows of %s: %s/%s %s -> %s" % (claim, fam, sc, a, b))
        for key in SECONDARY:
            row(key, [r.get(key) for r in data[(fam, sc, a)]], [r.get(key) for r in data[(fam, sc, b)]])
    provenance(planned, data)


def provenance(planned, data):
    print("\nProvenance, ranges over each group's runs: the host's 1-minute load before")
    print("the run, the guest's calibration loop (s), QEMU's wall time on the host (s)")
    for g in sorted(planned):
        cols = []
        for key in ("host load, 1 min, before", "guest calibration (s)", "host seconds"):
            v = [r.get(key) for r in data[g] if r.get(key) is not None]
            cols.append("%s-%s" % (fnum(min(v)), fnum(max(v))) if v else "-")
        print("  %-40s load %-12s calibration %-12s host %s" % ("/".join(g), cols[0], cols[1], cols[2]))


def main(argv):
    if len(argv) == 2 and argv[0] == "--plan":
        if not argv[1].isdigit():
            sys.exit(__doc__)
        plan_report(int(argv[1]))
    elif len(argv) == 2 and "/" not in argv[0] + argv[1]:
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
