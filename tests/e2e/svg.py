#!/usr/bin/python3
"""--svg draws what the summary says.

On a real capture and on a generated trace: the SVG is well-formed XML and
self-contained (no external reference), its scan-rate series add up to the
JSON totals of pages scanned by direct reclaim and by kswapd, it marks the
longest direct stalls (at most 200), and its histogram bars add up to the
number of completed direct reclaims.

usage: svg.py TOOL SOURCE_DIR WORKDIR
"""
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"
results = []


def check(name, ok, detail=""):
    results.append(ok)
    print("%s %s%s" % ("ok  " if ok else "FAIL", name, "" if ok else "  " + str(detail)[:300]))


def main():
    tool, src, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    gen = os.path.join(work, "gen.txt")
    with open(gen, "w") as f:
        subprocess.run([sys.executable, os.path.join(src, "tests", "e2e", "gentrace.py"),
                        "--format", "6.1", "--names", "any", "--seed", "4"], stdout=f, check=True)
    inputs = [os.path.join(src, "fixtures", "6.1", "dirty-swap", "upstream", "trace.dat"), gen]
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
        h = groups.get("stall-histogram")
        bars = sum(int(r.get("data-count")) for r in h.iter(NS + "rect")) if h is not None else -1
        check("%s: histogram bars add up to %d stalls" % (label, n),
              h is not None and int(h.get("data-count")) == n == bars, bars)
    passed = sum(results)
    print("%d passed, %d failed" % (passed, len(results) - passed))
    return 0 if passed == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
