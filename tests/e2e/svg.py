#!/usr/bin/python3
"""--svg draws what the summary says.

On a real capture and on a generated trace: the SVG is well-formed XML and
self-contained (no external reference), its scan-rate series add up to the
JSON totals of pages scanned by direct reclaim and by kswapd, it marks the
longest direct stalls (at most 200), and its histogram bars add up to the
number of completed direct reclaims.  The time axis is in trace time (its
ticks lie within the trace's first and last timestamps), both panels'
axes are labelled, a trace of one time bin still draws a line, and a trace
without stalls says so instead of naming "the 0 longest stalls".

usage: svg.py TOOL SOURCE_DIR WORKDIR
"""
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

from checks import check, exit_status

NS = "{http://www.w3.org/2000/svg}"


def main():
    tool, src, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    gen = os.path.join(work, "gen.txt")
    with open(gen, "w") as f:
        subprocess.run([sys.executable, os.path.join(src, "tests", "e2e", "gentrace.py"),
                        "--format", "6.1", "--names", "any", "--seed", "4"], stdout=f, check=True)
    tiny = os.path.join(work, "tiny.txt")
    with open(tiny, "w") as f:
        # a few milliseconds of kswapd scanning, no direct reclaim: one time bin
        for i in range(3):
            f.write("       kswapd0-35    [000] .....  %d.00%d000: mm_vmscan_lru_isolate: "
                    "isolate_mode=0 classzone=1 order=0 nr_requested=32 nr_scanned=32 "
                    "nr_skipped=0 nr_taken=32 lru=inactive_file\n" % (500, i))
    inputs = [os.path.join(src, "fixtures", "6.1", "dirty-swap", "upstream", "trace.dat"), gen,
              tiny]
    for path in inputs:
        label = os.path.basename(os.path.dirname(path)) + "/" + os.path.basename(path)
        svg = os.path.join(work, os.path.basename(path) + ".svg")
        out = subprocess.run([tool, "--quiet", "-f", "json", "--svg", svg, path],
                             capture_output=True, check=True)
        j = json.loads(out.stdout)
        t = j["totals"]
        raw = open(svg, "rb").read()
        try:
            root = ET.fromstring(raw)
        except ET.ParseError as e:
            check("%s: well-formed" % label, False, e)
            continue
        check("%s: well-formed SVG" % label, root.tag == NS + "svg")
        check("%s: self-contained" % label, b"href" not in raw and b"<script" not in raw and
              raw.count(b"http://") == 1)
        lines = {p.get("id"): p for p in root.iter(NS + "polyline")}
        for sid, key in (("direct-scanned", "direct"), ("kswapd-scanned", "kswapd")):
            p = lines.get(sid)
            check("%s: %s series totals %d pages" % (label, sid, t[key]["pages_scanned"]),
                  p is not None and int(p.get("data-total-pages")) == t[key]["pages_scanned"]
                  and len(p.get("points").split()) >= 2, p.attrib if p is not None else None)
        groups = {g.get("id"): g for g in root.iter(NS + "g")}
        n = t["direct"]["reclaims_completed"]
        st = groups.get("stalls")
        check("%s: the %d longest stalls marked" % (label, min(n, 200)),
              st is not None and int(st.get("data-count")) == min(n, 200) and
              len(list(st.iter(NS + "rect"))) == min(n, 200))
        ax = groups.get("time-axis")
        first, last = j["input"]["first_timestamp_ns"] / 1e9, j["input"]["last_timestamp_ns"] / 1e9
        ticks = [float(x.text) for x in ax.iter(NS + "text")] if ax is not None else []
        texts = [x.text or "" for x in root.iter(NS + "text")]
        binw = [float(x.split("bins of ")[1].split("s;")[0]) for x in texts if "bins of " in x]
        # the axis spans the bins that saw scanning: inside the trace, to a bin
        check("%s: time axis in trace time (%.3f..%.3f s)" % (label, first, last),
              ax is not None and ticks and binw and
              first - binw[0] - 1e-9 <= float(ax.get("data-start-s")) <= last + 1e-9 and
              first - 1e-9 <= float(ax.get("data-end-s")) <= last + binw[0] + 1e-9 and
              all(float(ax.get("data-start-s")) - 1e-9 <= x <= float(ax.get("data-end-s")) + 1e-9
                  for x in ticks), (ticks, binw, ax.attrib if ax is not None else None))
        check("%s: axes labelled" % label, "trace time (s)" in texts and "pages/s" in texts and
              (n == 0 or ("stalls" in texts and any(x.startswith("stall duration") for x in texts))))
        check("%s: no 'the 0 longest'" % label, not any("the 0 " in x for x in texts) and
              (n > 0 or any("no completed direct reclaim stall" in x for x in texts)))
        h = groups.get("stall-histogram")
        bars = sum(int(r.get("data-count")) for r in h.iter(NS + "rect")) if h is not None else -1
        check("%s: histogram bars add up to %d stalls" % (label, n),
              h is not None and int(h.get("data-count")) == n == bars, bars)
    return exit_status()


if __name__ == "__main__":
    sys.exit(main())
