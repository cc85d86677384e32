#!/usr/bin/python3
"""Every JSON summary the tool prints validates against docs/summary.schema.json.

Inputs: the hand-made fixtures, generated 2.6.35 and 6.1 traces, an empty
input, and hostile names (NUL bytes, invalid UTF-8, quotes), each also with
--ignore-pid.  The validator is Debian's python3-jsonschema, independent of
the tool.  A mutilated document must fail, so the check itself can fail.

usage: schema.py TOOL SOURCE_DIR WORKDIR
"""
import copy
import glob
import json
import os
import subprocess
import sys

import jsonschema


def main():
    tool, src, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    with open(os.path.join(src, "docs", "summary.schema.json")) as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    v = jsonschema.Draft202012Validator(schema)

    inputs = sorted(glob.glob(os.path.join(src, "fixtures", "handmade", "*.txt")))
    inputs += sorted(glob.glob(os.path.join(src, "fixtures", "synthetic", "*.txt")))
    gen = os.path.join(src, "tests", "e2e", "gentrace.py")
    for fmt, names in (("2010", "perl"), ("6.1", "any")):
        p = os.path.join(work, "gen-%s.txt" % fmt)
        with open(p, "w") as f:
            subprocess.run([sys.executable, gen, "--format", fmt, "--names", names, "--seed", "9"],
                           stdout=f, check=True)
        inputs.append(p)
    empty = os.path.join(work, "empty.txt")
    open(empty, "w").close()
    inputs.append(empty)
    hostile = os.path.join(work, "hostile.txt")
    with open(hostile, "wb") as f:
        f.write(b'  a\x00b"c\\-5 [000] 1.0: mm_vmscan_direct_reclaim_begin: order=0\n')
        f.write(b"  \xff\xfe\xc3(-6 [000] 1.0: mm_vmscan_direct_reclaim_begin: order=0\n")
        f.write(b"  \xe2\x82\xac uro-7 [000] 1.0: mm_vmscan_wakeup_kswapd: nid=0 order=0\n")
    inputs.append(hostile)

    failures = 0
    checked = 0
    for path in inputs:
        for extra in ([], ["--ignore-pid"]):
            out = subprocess.run([tool, "--format", "json", "--quiet"] + extra + [path],
                                 capture_output=True)
            if out.returncode != 0:
                print("FAIL %s %s: exit %d" % (path, extra, out.returncode))
                failures += 1
                continue
            try:
                doc = json.loads(out.stdout.decode("utf-8"))  # strict UTF-8
                v.validate(doc)
                checked += 1
            except (ValueError, jsonschema.ValidationError) as e:
                print("FAIL %s %s: %s" % (path, extra, str(e).splitlines()[0]))
                failures += 1
    # the hostile names survive, escaped
    doc = json.loads(subprocess.run([tool, "-f", "json", hostile], capture_output=True).stdout)
    comms = sorted(p["comm"] for p in doc["processes"])
    if comms != sorted(['a\x00b"c\\', "\ufffd\ufffd\ufffd(", "\u20ac uro"]):
        print("FAIL hostile names: %r" % comms)
        failures += 1
    # the check can fail
    broken = copy.deepcopy(doc)
    del broken["totals"]["direct"]["pages_scanned"]
    if v.is_valid(broken):
        print("FAIL: a document without totals.direct.pages_scanned validated")
        failures += 1
    print("%d passed, %d failed" % (checked, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
