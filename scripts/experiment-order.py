#!/usr/bin/python3
"""The run order of a batch of docs/experiment-plan.md: randomised complete
blocks.  Block i runs every group of the batch once, in an order drawn by
random.Random(SEED * 1000 + BATCH).shuffle; a batch cut short leaves every
group with the same number of runs, give or take one.  Deterministic; the
committed order files (docs/experiment-plan/batchN.order) are its output:

    scripts/experiment-order.py 1 > docs/experiment-plan/batch1.order
    scripts/experiment-order.py 2 > docs/experiment-plan/batch2.order

Each line: BATCH BLOCK KERNEL LRU_GEN SCENARIO SETTING TRACING, read by
kernel/experiment --order FILE (the run goes to
fixtures/batchBATCH/FAMILY/SCENARIO/SETTING/runs/BLOCK/, FAMILY being
KERNEL, KERNEL-mglru with LRU_GEN on, and -notrace after it with TRACING off).
"""
import random
import sys

SEED = 47
# batch: (blocks = n per group, [(kernel, lru_gen, scenario, setting)], tracing settings)
BATCHES = {
    1: (6, [("6.1", "off", "dirty-swap", s)
            for s in ("traceonly", "nodirect", "flusholdest", "flushforward")], ("text", "off")),
    2: (6, [("6.12", "off", "dirty-swap", s)
            for s in ("upstream", "flusholdest", "flushforward")], ("text", "off")),
}


def order(batch):
    n, groups, tracings = BATCHES[batch]
    rng = random.Random(SEED * 1000 + batch)
    cells = [g + (t,) for g in groups for t in tracings]
    for block in range(1, n + 1):
        b = list(cells)
        rng.shuffle(b)
        for k, lru, sc, st, tr in b:
            yield "%d %d %s %s %s %s %s" % (batch, block, k, lru, sc, st, tr)


def main(argv):
    if len(argv) != 1 or not argv[0].isdigit() or int(argv[0]) not in BATCHES:
        sys.exit("usage: experiment-order.py BATCH (%s)" % ", ".join(map(str, BATCHES)))
    for line in order(int(argv[0])):
        print(line)


if __name__ == "__main__":
    main(sys.argv[1:])
