#!/usr/bin/python3
"""Every subcommand, on its good and its failing paths, under valgrind
memcheck: the expected exit status each time, no invalid access and no
definite or indirect leak (valgrind exits 99 when it finds one).

Small inputs (hand-made text, one fixture's trace.dat) keep it under a
minute.  valgrind.supp holds suppressions for leaks inside libtracecmd,
libtraceevent and libtracefs only, each with its reason; none is the
project's own.

usage: valgrind.py TOOL SOURCE_DIR WORKDIR
"""
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
import tempfile

from checks import check, exit_status

LEAK = 99


def main():
    tool, src, work = sys.argv[1:4]
    if not shutil.which("valgrind"):
        print("valgrind is not installed")
        return 1
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    hand = os.path.join(src, "fixtures", "handmade")
    names = os.path.join(hand, "names.txt")
    tracedat = os.path.join(src, "fixtures", "6.1", "highalloc", "upstream", "trace.dat")

    def path(name):
        return os.path.join(work, name)

    # summaries made without valgrind: the inputs of merge, compare and check
    for name, trace in (("a.json", names), ("b.json", os.path.join(hand, "perf-script.txt"))):
        with open(path(name), "wb") as f:
            subprocess.run([tool, "-f", "json", "--quiet", trace], stdout=f, check=True)
    with open(path("other.json"), "w") as f:
        json.dump({"schema": "something/else", "schema_version": 1}, f)
    with open(path("bad.json"), "w") as f:
        f.write("{ this is not JSON\n")
    with open(path("empty.txt"), "w"):
        pass
    with open(path("corrupt.dat"), "wb") as f:
        f.write(b"\x17\x08\x44tracing6\0" + b"\0" * 100)
    with open(path("perf.data"), "wb") as f:
        f.write(b"PERFILE2" + b"\0" * 100)
    # root reads any file: a directory is what cannot be read, for anyone
    unreadable = path("unreadable")
    os.makedirs(unreadable)
    missing = path("missing.json")
    a, b = path("a.json"), path("b.json")
    good = "totals.direct.reclaims >= 1"
    cases = [
        ("analyze text", [names], None, 0),
        ("analyze trace.dat", ["--histogram", tracedat], None, 0),
        ("analyze stdin", ["-f", "json"], names, 0),
        ("analyze --json, --svg, --latencies", ["--json", path("out.json"), "--svg",
                                                path("out.svg"), "--latencies",
                                                path("lat.csv"), names], None, 0),
        ("analyze --name (an option of compare)", ["--name", "x", names], None, 2),
        ("analyze a missing file", [missing], None, 3),
        ("analyze a corrupt trace.dat", [path("corrupt.dat")], None, 6),
        ("analyze perf.data", [path("perf.data")], None, 5),
        ("analyze trace.dat on stdin", ["-"], tracedat, 0),
        ("analyze trace.dat on stdin among text", [names, "-"], tracedat, 5),
        ("analyze a usage error after -t", ["-t", good, "--interval", "0", names], None, 2),
        ("check passing", ["check", "-t", good, a], None, 0),
        ("check failing", ["check", "-t", "totals.direct.reclaims > 100", a], None, 8),
        ("check a bad threshold expression", ["check", "-t", "totals.direct.reclaims >< 1", a],
         None, 2),
        ("check a missing field", ["check", "-t", "totals.no.such.field > 1", a], None, 2),
        ("check an unreadable input", ["check", "-t", good, unreadable], None, 3),
        ("check an empty input", ["check", "-t", good, path("empty.txt")], None, 9),
        ("check --format json --junit", ["check", "-f", "json", "--junit", path("junit.xml"),
                                         "-t", good, "-t", "totals.direct.reclaims > 100",
                                         a], None, 8),
        ("check a trace", ["check", "-t", good, names], None, 0),
        ("check a missing thresholds file", ["check", "--thresholds", missing, a], None, 3),
        ("check without thresholds", ["check", a], None, 2),
        ("merge", ["merge", a, b], None, 0),
        ("merge a summary and a trace", ["merge", a, names], None, 0),
        ("merge a JSON that is not a summary", ["merge", a, path("other.json")], None, 6),
        ("merge an unreadable file", ["merge", a, unreadable], None, 3),
        ("compare", ["compare", "--relative", "--name", "one", a, b], None, 0),
        ("compare a missing file", ["compare", a, missing], None, 3),
        ("compare a bad file", ["compare", a, path("bad.json")], None, 6),
    ]
    supp = os.path.join(src, "tests", "e2e", "valgrind.supp")

    # live, refused to a user who is not root (nothing is traced): the tool
    # and the suppressions copied where that user may read them
    nobody = tempfile.mkdtemp()
    os.chmod(nobody, 0o755)
    for f in (tool, supp):
        shutil.copy(f, nobody)
        os.chmod(os.path.join(nobody, os.path.basename(f)), 0o755)
    cases.append(("live without root", ["live", "--duration", "1"], None, 7))

    def run(case):
        name, args, stdin, want = case
        prefix, exe, sup = [], tool, supp
        if name == "live without root":
            prefix = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
            exe = os.path.join(nobody, os.path.basename(tool))
            sup = os.path.join(nobody, os.path.basename(supp))
        cmd = prefix + ["valgrind", "--quiet", "--leak-check=full", "--keep-debuginfo=yes",
                        "--errors-for-leak-kinds=definite,indirect",
                        "--error-exitcode=%d" % LEAK, "--child-silent-after-fork=yes",
                        "--suppressions=" + sup, exe] + args
        with open(stdin, "rb") if stdin else open(os.devnull, "rb") as f:
            return subprocess.run(cmd, stdin=f, capture_output=True, cwd="/")

    # two at a time: the machine's cores are shared
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        for (name, _, _, want), r in zip(cases, pool.map(run, cases)):
            check("%s: exit %d, valgrind clean" % (name, want), r.returncode == want,
                  "exit %d\n%s" % (r.returncode, r.stderr.decode(errors="replace")))
    shutil.rmtree(nobody)
    return exit_status()


if __name__ == "__main__":
    sys.exit(main())
