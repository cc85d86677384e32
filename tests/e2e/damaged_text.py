#!/usr/bin/python3
"""Damaged and unusual text traces (issue 43): none may look like a clean
result.  Each case is made from the real 6.1 capture (its first 3,000
lines) or from real line shapes, with what the tool must say:

  * a lost newline joining two events: split where the second header
    begins, both events read (50 random joins: the same totals);
  * a lost-events marker glued before or after an event line: counted,
    the event read;
  * lines that end in a '\\r' alone: read as lines;
  * a last line without its newline, cut in its number: rejected;
  * damaged markers ("[LOST 5 EVENTS" cut, -5, 5x, past 2^64): events
    lost unknown (null), not ignored lines;
  * a timestamp 100 s ahead: the events after it are counted and noted;
  * real shapes: 3.x mm_shrink_slab_start (no nid), perf script without
    the ':' after the event name, mm_shrink_count_* as unknown vmscan
    events, kernel stacktrace frames (no "looks wrapped"), a mail wrapped
    at 115 columns and a hard wrap (fold -w 80) repaired by --unwrap,
    which never says "try --unwrap"; shrinker starts without ends: the
    objects freed unknown (null), not 0.

usage: damaged_text.py TOOL SOURCE_DIR WORKDIR
"""
import json
import lzma
import os
import random
import subprocess
import sys
import textwrap

from checks import check, exit_status


def run(tool, path, *args, stdin=None):
    p = subprocess.run([tool] + list(args) + [path], capture_output=True, text=True,
                       input=stdin)
    return p


def summary(tool, path, *args):
    p = run(tool, path, "-f", "json", *args)
    try:
        return json.loads(p.stdout), p
    except ValueError:
        return None, p


def write(path, text, mode="w"):
    with open(path, mode) as f:
        f.write(text)
    return path


def same_result(a, b):
    return a is not None and b is not None and a["totals"] == b["totals"] and \
        a["processes"] == b["processes"] and a["latency"] == b["latency"]


def main():
    tool, src, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    with lzma.open(os.path.join(src, "fixtures", "6.1", "dirty-swap", "traceonly",
                                "trace.txt.xz"), "rt") as f:
        real = [next(f) for _ in range(3000)]
    base = write(os.path.join(work, "real.txt"), "".join(real))
    want, _ = summary(tool, base)
    events = [i for i, l in enumerate(real) if ": mm_" in l]

    # 1. lost newlines: 50 random joins of an event line with the next one
    rnd = random.Random(43)
    joins = sorted(rnd.sample([i for i in events if i + 1 < len(real)], 50))
    lines = list(real)
    for i in joins:
        lines[i] = lines[i].rstrip("\n")
    got, p = summary(tool, write(os.path.join(work, "joined.txt"), "".join(lines)))
    check("50 lost newlines: each joined pair split, every event read (same totals)",
          same_result(want, got) and got["input"]["lines_rejected"] == 0 and
          got["input"]["lines_analyzed"] == want["input"]["lines_analyzed"],
          got and got["input"] or p.stderr)

    # 2. a lost-events marker glued after an event line, and before one
    i = events[10]
    for name, glued in (("after", real[i].rstrip("\n") + " CPU:0 [LOST 7 EVENTS]\n"),
                        ("before", "CPU:0 [LOST 7 EVENTS]" + real[i])):
        lines = list(real)
        lines[i] = glued
        got, p = summary(tool, write(os.path.join(work, "glued-%s.txt" % name), "".join(lines)))
        check("a marker glued %s an event line: 7 events lost, the event read" % name,
              got is not None and got["input"]["events_lost"] == 7 and
              got["input"]["lines_lost_markers"] == 1 and same_result(want, got),
              got and got["input"] or p.stderr)

    # 3. lines that end in a '\r' alone
    got, p = summary(tool, write(os.path.join(work, "cr.txt"),
                                 "".join(real).replace("\n", "\r"), "w"))
    check("3,000 lines ending in CR alone: 3,000 lines, the same result",
          got is not None and got["input"]["lines_read"] == 3000 and same_result(want, got),
          got and got["input"] or p.stderr)

    # 4. the last line cut in its number (no newline after it)
    end = "      kswapd0-45      [000] .....    20.002500: mm_vmscan_direct_reclaim_end: " \
          "nr_reclaimed=34\n"
    begin = "      kswapd0-45      [000] .....    20.001500: mm_vmscan_direct_reclaim_begin: " \
            "order=0 gfp_flags=GFP_KERNEL\n"
    cut = write(os.path.join(work, "cut.txt"), begin + end[:-2])
    got, p = summary(tool, cut)
    check("a last line cut in its number ('nr_reclaimed=3' of 34): rejected, bad_number",
          got is not None and got["input"]["lines_rejected"] == 1 and
          got["input"]["sources"][0]["rejected_by_reason"]["bad_number"] == 1 and
          got["totals"]["direct"]["end_nr_reclaimed_pages"] == 0, got and got["input"])
    check("... told on stderr with its line", "cut.txt:2: rejected (bad_number" in p.stderr,
          p.stderr)
    p = run(tool, cut, "--strict", "-q")
    check("... and --strict exits 4", p.returncode == 4, p.returncode)
    p = subprocess.run([tool, "-f", "json", "-"], input=begin + end[:-2], capture_output=True,
                       text=True)
    check("... the same through a pipe",
          p.returncode == 0 and json.loads(p.stdout)["input"]["lines_rejected"] == 1, p.stderr)
    whole = write(os.path.join(work, "whole.txt"), end + begin[:-1])
    got, p = summary(tool, whole)
    check("a last line without its newline that ends in a word (not a number): read",
          got is not None and got["input"]["lines_rejected"] == 0 and
          got["input"]["lines_analyzed"] == 2, got and got["input"])
    p = subprocess.run([tool, "-f", "json", "-"], input=begin + end, capture_output=True,
                       text=True)
    check("a pipe whose last line is whole (with its newline): read",
          p.returncode == 0 and json.loads(p.stdout)["input"]["lines_rejected"] == 0 and
          json.loads(p.stdout)["input"]["lines_analyzed"] == 2, p.stderr)

    # 5. damaged markers: the count is unknown, not ignored
    for m in ("[LOST 5 EVENTS", "[LOST -5 EVENTS]", "[LOST 5x EVENTS]",
              "[LOST 99999999999999999999 EVENTS]"):
        got, p = summary(tool, write(os.path.join(work, "marker.txt"),
                                     begin + "CPU:0 %s\n" % m + end))
        s = got and got["input"]["sources"][0]
        check("marker 'CPU:0 %s': events lost unknown (null), noted" % m,
              got is not None and got["input"]["events_lost"] is None and
              s["lost_markers_without_count"] == 1 and s["lines_ignored"] == 0 and
              any(n.startswith("events_lost_unknown:") for n in got["notes"]),
              got and got["input"])

    # 6. a timestamp 100 s ahead: the events after it go backwards
    lines = list(real)
    i = events[100]
    head, rest = lines[i].split(": mm_", 1)
    ts = head.rsplit(None, 1)[1]
    lines[i] = head[:-len(ts)] + "%.6f" % (float(ts) + 100) + ": mm_" + rest
    bad = write(os.path.join(work, "ts.txt"), "".join(lines))
    got, p = summary(tool, bad)
    after = len([j for j in events if j > i])
    check("a timestamp 100 s ahead: the %d events after it counted and noted" % after,
          got is not None and
          got["input"]["sources"][0]["traits"].get("timestamps_out_of_order") == after and
          any(n.startswith("timestamps_out_of_order:") for n in got["notes"]),
          got and (got["input"]["sources"][0]["traits"], got["notes"]))
    p = run(tool, bad, "-q")
    check("... the classic report's note",
          "Note: %d events have a timestamp more than 1 s before" % after in p.stdout,
          p.stdout[-600:])
    check("... none on the capture itself",
          "timestamps_out_of_order" not in want["input"]["sources"][0]["traits"] and
          not any(n.startswith("timestamps_out_of_order") for n in want["notes"]))

    # 7. 3.x mm_shrink_slab_start: no "nid: ", no priority
    old = write(os.path.join(work, "3x.txt"),
                "         kswapd0-27    [000] ....  1085.361434: mm_shrink_slab_start: "
                "prune_super+0x0/0x1a0 ffff88003d5b2800: objects to shrink 0 gfp_flags "
                "GFP_KERNEL pgs_scanned 32 lru_pgs 13446 cache items 1028 delta 4 "
                "total_scan 4\n"
                "         kswapd0-27    [000] ....  1085.361440: mm_shrink_slab_end: "
                "prune_super+0x0/0x1a0 ffff88003d5b2800: unused scan count 0 new scan count "
                "4 total_scan 4 last shrinker return val 963\n")
    got, p = summary(tool, old)
    check("3.x mm_shrink_slab_start (no nid) read",
          got is not None and got["input"]["lines_rejected"] == 0 and
          got["totals"]["kswapd"]["slab_shrinker_calls"] == 1 and
          got["totals"]["kswapd"]["slab_objects_freed"] == 963, got and got["input"])

    # 8. perf script: the event name without its ':'
    perf = write(os.path.join(work, "perf.txt"),
                 "              dd 13873 [011]   578.542919: vmscan:mm_vmscan_direct_reclaim_begin "
                 "order=0 gfp_flags=GFP_HIGHUSER_MOVABLE\n"
                 "              dd 13873 [011]   578.543919: vmscan:mm_vmscan_direct_reclaim_end "
                 "nr_reclaimed=32\n")
    got, p = summary(tool, perf)
    check("perf script lines without the ':' after the event name read",
          got is not None and got["input"]["lines_analyzed"] == 2 and
          got["totals"]["direct"]["reclaims_completed"] == 1 and
          got["totals"]["direct"]["latency_ns"] == 1000000, got and got["input"] or p.stderr)

    # 9. vmscan events the catalogue lacks: unknown vmscan events, and no
    # "were the vmscan events enabled?"
    count = write(os.path.join(work, "count.txt"),
                  "         kswapd0-27    [000] .....  1085.361434: mm_shrink_count_start: "
                  "shrinker=ffff88003d5b2800 nid=0\n"
                  "         kswapd0-27    [000] .....  1085.361440: mm_shrink_count_end: "
                  "shrinker=ffff88003d5b2800 nid=0 count=12\n")
    got, p = summary(tool, count)
    check("mm_shrink_count_* are unknown vmscan events",
          got is not None and got["input"]["sources"][0]["unknown_vmscan_events"] == 2,
          got and got["input"])
    check("... and not 'no vmscan events (were they enabled?)'",
          "were the vmscan events enabled" not in p.stderr and
          "2 of vmscan events it does not know" in p.stderr, p.stderr)

    # 10. the kernel's stacktrace under events: frames, not a wrapped trace
    stack = []
    for line in real[:400]:
        stack.append(line)
        if ": mm_vmscan_direct_reclaim_begin" in line:
            stack.append(line.split(": mm_")[0] + ": <stack trace>\n")
            stack += [" => %s+0x%x/0x%x\n" % (fn, 16 * k + 3, 0x1a0) for k, fn in
                      enumerate(("__alloc_pages_slowpath", "__alloc_pages", "folio_alloc",
                                 "filemap_fault", "__do_fault", "handle_mm_fault"))]
    got, p = summary(tool, write(os.path.join(work, "stack.txt"), "".join(stack)))
    check("stacktrace frames: no 'looks wrapped'",
          got is not None and not any(n.startswith("wrapped") for n in got["notes"]) and
          "wrapped" not in p.stderr, (got and got["notes"], p.stderr))

    # 11. a mail wrapped at 115 columns; a hard wrap at 80 (fold -w 80)
    mail = "".join("\n".join(textwrap.wrap(l, 115, break_long_words=False)) + "\n"
                   for l in real)
    mailf = write(os.path.join(work, "mail.txt"), mail)
    got, p = summary(tool, mailf)
    check("a mail wrapped at 115 columns looks wrapped",
          got is not None and any(n.startswith("wrapped:") for n in got["notes"]),
          got and got["notes"])
    got, p = summary(tool, mailf, "--unwrap")
    check("... --unwrap repairs it: the capture's result",
          same_result(want, got) and got["input"]["lines_rejected"] == 0, got and got["input"])
    fold = "".join(l[k:k + 80] + "\n" for l in (x.rstrip("\n") for x in real)
                   for k in range(0, max(len(l), 1), 80))
    foldf = write(os.path.join(work, "fold.txt"), fold)
    got, p = summary(tool, foldf, "--unwrap")
    check("a hard wrap (fold -w 80): --unwrap repairs it: the capture's result",
          same_result(want, got) and got["input"]["lines_rejected"] == 0, got and got["input"])
    # an event broken in two that --unwrap cannot join (its order is no number)
    unj = write(os.path.join(work, "unjoined.txt"),
                begin.replace("order=0 gfp_flags=GFP_KERNEL\n", "order=x\ngfp_flags=GFP_KERNEL\n")
                + end)
    got, p = summary(tool, unj, "--unwrap")
    check("never 'try --unwrap' with --unwrap on: 'could not join'",
          got is not None and "try --unwrap" not in p.stderr and
          not any("try --unwrap" in n for n in got["notes"]) and
          any(n.startswith("unjoined:") for n in got["notes"]) and
          "that --unwrap could not join" in p.stderr, (p.stderr[-400:], got and got["notes"]))
    p = run(tool, unj, "--unwrap", "-q")
    check("... nor in the classic report",
          "try --unwrap" not in p.stdout and "--unwrap could not join 1 events" in p.stdout,
          p.stdout[-400:])
    p = run(tool, unj, "-q")
    check("... which says it without --unwrap", "try --unwrap" in p.stdout, p.stdout[-400:])

    # 12. shrinker starts without ends: the objects freed are unknown, not 0
    starts = write(os.path.join(work, "starts.txt"),
                   "".join(l for l in real if ": mm_shrink_slab_start:" in l))
    got, p = summary(tool, starts)
    ctxs = got and [got["totals"][k] for k in ("direct", "kswapd", "outside_reclaim")] + \
        [r[k] for r in got["processes"] for k in ("direct", "outside_reclaim")] + \
        [r["reclaim"] for r in got["kswapd"]]
    check("shrinker starts without ends: slab_objects_freed null (totals, rows), noted",
          got is not None and sum(c["slab_shrinker_calls"] for c in ctxs) > 0 and
          all(c["slab_objects_freed"] is None for c in ctxs) and
          any(n.startswith("slab_ends_missing:") for n in got["notes"]), got and got["notes"])
    try:
        import jsonschema
        with open(os.path.join(src, "docs", "summary.schema.json")) as f:
            jsonschema.Draft202012Validator(json.load(f)).validate(got)
        valid = True
    except Exception as e:  # (a schema error names the field)
        valid = str(e)[:300]
    check("... and the summary validates against the schema", valid is True, valid)
    p = run(tool, starts, "-q")
    check("... the classic report says unknown, not 0",
          " unknown\n" in p.stdout and "freed are unknown, not 0" in p.stdout, p.stdout[-800:])
    sj = write(os.path.join(work, "starts.json"), json.dumps(got))
    p = run(tool, sj, "-q")
    check("... and so does a report of that summary",
          " unknown\n" in p.stdout and "freed are unknown, not 0" in p.stdout, p.stdout[-800:])
    got, p = summary(tool, base)
    check("... known (a number) where the trace has the ends",
          got["totals"]["direct"]["slab_objects_freed"] is not None and
          not any(n.startswith("slab_ends_missing") for n in got["notes"]))

    return exit_status()


if __name__ == "__main__":
    sys.exit(main())
