#!/usr/bin/python3
"""Traces as people have them.

Compressed: every real capture under fixtures/ (trace.txt.xz and trace.dat)
read as xz, gzip and zstd, from a file and from standard input, gives the
JSON summary of the plain file, all but the input block, whose source says
the compression and holds the counts of the plain file; a truncated xz and
a corrupt gzip stop with status 10 and a message naming the file and the
byte.

Split: each 6.1 text capture split by its CPU column into one file per CPU
(with header lines of their own), and split by time into two consecutive
files (rotated logs), gives the JSON summary of the whole (all but the
input block), and every line of every file is counted.

usage: inputs.py TOOL SOURCE_DIR WORKDIR
"""
import glob
import json
import lzma
import os
import re
import shutil
import subprocess
import sys

from checks import check, exit_status


def run(tool, args, stdin=None):
    return subprocess.run([tool, "-q", "-f", "json"] + args, capture_output=True, stdin=stdin)


def summary(tool, args, stdin=None):
    p = run(tool, args, stdin)
    if p.returncode:
        return None, None, p.stderr.decode(errors="replace")
    doc = json.loads(p.stdout)
    return doc, doc.pop("input"), ""


def differs(a, b):
    return [k for k in set(a) | set(b) if a.get(k) != b.get(k)]


def compressors(path, work, kinds=("xz", "gzip", "zstd")):
    """path compressed in each of kinds (fast levels), as files."""
    base = os.path.join(work, os.path.basename(path))
    out = {}
    for name, cmd, ext in (("xz", ["xz", "-0", "-c", "-T1"], ".xz"),
                           ("gzip", ["gzip", "-1", "-c"], ".gz"),
                           ("zstd", ["zstd", "-q", "-c"], ".zst")):
        if name not in kinds:
            continue
        with open(base + ext, "wb") as f:
            subprocess.run(cmd + [path], stdout=f, check=True)
        out[name] = base + ext
    return out


def test_compressed(tool, src, work):
    # the captures (a setting with repeated runs only is no capture)
    captures = sorted(d for d in glob.glob(os.path.join(src, "fixtures", "6.*", "*", "*"))
                      if os.path.exists(os.path.join(d, "trace.txt.xz")))
    for i, cap in enumerate(captures):
        name = os.path.relpath(cap, os.path.join(src, "fixtures"))
        plain = os.path.join(work, "trace.txt")
        with open(plain, "wb") as f:
            f.write(lzma.open(os.path.join(cap, "trace.txt.xz")).read())
        want, want_in, err = summary(tool, [plain])
        forms = compressors(plain, work, ("gzip", "zstd"))
        forms["xz"] = os.path.join(cap, "trace.txt.xz")  # as stored
        for kind, path in sorted(forms.items()):
            got, got_in, err = summary(tool, [path])
            s = got_in["sources"][0] if got_in else {}
            check("%s text %s: the plain file's summary" % (name, kind),
                  got is not None and not differs(want, got) and s["compression"] == kind and
                  s["lines_read"] == want_in["sources"][0]["lines_read"] and
                  s["bytes_read"] == want_in["sources"][0]["bytes_read"],
                  err or differs(want, got) or s)
        kind = ("xz", "gzip", "zstd")[i % 3]
        with open(forms[kind], "rb") as f:
            got, got_in, err = summary(tool, ["-"], stdin=f)
        check("%s text %s on standard input" % (name, kind),
              got is not None and not differs(want, got) and
              got_in["sources"][0]["compression"] == kind, err)
        # trace.dat: all three forms for the first capture, one for the others
        dat = os.path.join(cap, "trace.dat")
        want, want_in, err = summary(tool, [dat])
        forms = compressors(dat, work, ("xz", "gzip", "zstd") if i == 0 else (kind,))
        for kind in sorted(forms):
            got, got_in, err = summary(tool, [forms[kind]])
            s = got_in["sources"][0] if got_in else {}
            check("%s trace.dat %s: the plain file's summary" % (name, kind),
                  got is not None and not differs(want, got) and s["compression"] == kind and
                  s["format"] == "trace.dat" and
                  s["lines_read"] == want_in["sources"][0]["lines_read"],
                  err or differs(want, got) or s)
        # and through a pipe into standard input, plain and compressed
        for kind, path in [("none", dat)] + sorted(forms.items())[:1]:
            cat = subprocess.Popen(["cat", path], stdout=subprocess.PIPE)
            got, got_in, err = summary(tool, ["-"], stdin=cat.stdout)
            cat.stdout.close()
            cat.wait()
            s = got_in["sources"][0] if got_in else {}
            check("%s trace.dat %s through a pipe: the plain file's summary" % (name, kind),
                  got is not None and not differs(want, got) and s["compression"] == kind and
                  s["format"] == "trace.dat" and s["name"] == "-" and
                  s["lines_read"] == want_in["sources"][0]["lines_read"],
                  err or differs(want, got) or s)
        for p in forms.values():
            os.unlink(p)

    # what cannot be read says where, with a status of its own
    stored = os.path.join(captures[0], "trace.txt.xz")
    data = open(stored, "rb").read()
    cut = os.path.join(work, "cut.txt.xz")
    with open(cut, "wb") as f:
        f.write(data[:len(data) // 2])
    p = run(tool, [cut])
    msg = p.stderr.decode()
    check("a truncated xz: status 10, the file and the byte named",
          p.returncode == 10 and "%s: truncated xz stream at byte %d" % (cut, len(data) // 2)
          in msg, (p.returncode, msg))
    with open(cut, "rb") as f:
        p = subprocess.run([tool, "-q", "-"], stdin=f, capture_output=True)
    check("a truncated xz on standard input: status 10", p.returncode == 10 and
          "-: truncated xz stream" in p.stderr.decode(), (p.returncode, p.stderr))
    plain = os.path.join(work, "trace.txt")
    gz = compressors(plain, work, ("gzip",))["gzip"]
    data = bytearray(open(gz, "rb").read())
    for k in range(64):  # a run of garbage where the compressed blocks are
        data[len(data) // 3 + k] ^= 0xa5
    bad = os.path.join(work, "bad.txt.gz")
    with open(bad, "wb") as f:
        f.write(data)
    p = run(tool, [bad])
    msg = p.stderr.decode()
    m = re.search(r"corrupt gzip stream at byte (\d+)", msg)
    check("a corrupt gzip: status 10, the file and the byte named",
          p.returncode == 10 and bad in msg and m and int(m.group(1)) < len(data),
          (p.returncode, msg))
    p = subprocess.run([tool, "check", "-t", "totals.kswapd.pages_scanned > 0", bad],
                       capture_output=True)
    check("check on a corrupt gzip fails closed (status 9)", p.returncode == 9, p.stderr)
    with open(gz, "ab") as f:
        f.write(b"\0" * 512)
    got, got_in, err = summary(tool, [gz])
    check("zeros after the last gzip member are padding", got is not None, err)
    with open(gz, "ab") as f:
        f.write(b"not gzip")
    p = run(tool, [gz])
    check("other bytes after the last gzip member: status 10", p.returncode == 10 and
          b"trailing bytes after the gzip stream" in p.stderr, p.stderr)


def split_by_cpu(lines, work, tag):
    files = {}
    for line in lines:
        m = re.search(rb"\[(\d+)\]", line)
        files.setdefault(int(m.group(1)) if m else -1, []).append(line)
    paths = []
    for cpu, ls in sorted(files.items()):
        path = os.path.join(work, "%s-cpu%d.txt" % (tag, cpu))
        with open(path, "wb") as f:
            # every file a header of its own: lines without a timestamp
            f.write(b"# tracer: nop\n#\n")
            f.writelines(ls)
        paths.append(path)
    return paths, len(lines) + 2 * len(paths)


def text_options(cap):
    """the tracefs options the capture's text was printed with (kernel/run
    --text-options), or "" for the usual format"""
    meta = os.path.join(cap, "metadata.json")
    return json.load(open(meta)).get("text_options", "") if os.path.exists(meta) else ""


def test_split(tool, src, work):
    for cap in sorted(d for d in glob.glob(os.path.join(src, "fixtures", "6.1*", "*", "*"))
                      if os.path.exists(os.path.join(d, "trace.txt.xz"))):
        name = os.path.relpath(cap, os.path.join(src, "fixtures"))
        if text_options(cap):
            # split_by_cpu() finds the "[CPU]" column of the usual format;
            # the latency formats have none (the verbose one's "[hex time]"
            # would split it by time)
            print("skip %s: split by CPU: its text is in the kernel's %s format" %
                  (name, text_options(cap)))
            continue
        data = lzma.open(os.path.join(cap, "trace.txt.xz")).read()
        lines = data.splitlines(keepends=True)
        whole = os.path.join(work, "whole.txt")
        with open(whole, "wb") as f:
            f.write(data)
        want, want_in, err = summary(tool, [whole])
        paths, nlines = split_by_cpu(lines, work, "t")
        for threads in ("1", "4"):
            got, got_in, err = summary(tool, ["--threads", threads] + paths)
            check("%s split into %d per-CPU files (--threads %s): the whole's summary" %
                  (name, len(paths), threads),
                  got is not None and not differs(want, got) and
                  got_in["lines_read"] == nlines and len(got_in["sources"]) == len(paths),
                  err or differs(want, got))
        half = len(lines) // 2
        rot = [os.path.join(work, "rot.1"), os.path.join(work, "rot.0")]
        for path, part in zip(rot, (lines[:half], lines[half:])):
            with open(path, "wb") as f:
                f.writelines(part)
        got, got_in, err = summary(tool, rot)
        check("%s rotated into two files: the whole's summary" % name,
              got is not None and not differs(want, got) and
              [s["name"] for s in got_in["sources"]] == rot, err or differs(want, got))
        # a trace.dat among them is read alone, where it stands, compressed or not
        dat = os.path.join(cap, "trace.dat")
        gz = compressors(dat, work, ("gzip",))["gzip"]
        want, want_in, err = summary(tool, [rot[0], dat, rot[1]])
        got, got_in, err = summary(tool, [rot[0], gz, rot[1]])
        check("%s text, compressed trace.dat, text: as with the plain trace.dat" % name,
              got is not None and not differs(want, got) and
              [s["format"] for s in got_in["sources"]] ==
              [s["format"] for s in want_in["sources"]], err or differs(want, got))
        for p in paths + rot + [gz]:
            os.unlink(p)


ON_DEMAND = ("tracecmd", "tracefs", "traceevent", "z", "lzma", "zstd")


def test_on_demand(tool, src, work):
    """The libraries only some inputs need are opened on demand: the tool
    does not link them (unless a sanitizer build, which must), a text trace
    is read without them, and an input that needs one it cannot load stops
    with status 5 and a message naming the file (they are hidden in a
    mount namespace of the test's own: /dev/null bound over each)."""
    dyn = subprocess.run(["readelf", "-d", "-s", "-W", tool], capture_output=True,
                         text=True).stdout
    needed = re.findall(r"\(NEEDED\)\s+Shared library: \[lib(\w+)\.so", dyn)
    sanitized = re.search(r"__(asan|tsan)_init", dyn) is not None
    if sanitized:
        print("skip on-demand libraries: a sanitizer build links them (CMakeLists.txt)")
        return
    check("the tool does not link the on-demand libraries (NEEDED: %s)" % " ".join(needed),
          not set(needed) & set(ON_DEMAND), needed)
    if os.geteuid() != 0 or not shutil.which("unshare"):
        print("skip hiding the libraries: needs root and unshare(1)")
        return
    libdir = os.path.dirname(os.path.realpath(
        glob.glob("/usr/lib/*/libjson-c.so.*")[0]))
    hide = sorted(p for lib in ON_DEMAND for p in glob.glob(os.path.join(libdir, "lib%s.so*" % lib)))
    script = "for l in \"$@\"; do case $l in *.so*) mount --bind /dev/null \"$l\" || exit 99;; esac; done; " \
             "shift $(($# - 1)); exec sh -c \"$1\""
    fix = os.path.join(src, "fixtures", "6.1", "highalloc", "upstream")
    text = os.path.join(work, "hidden.txt")
    with lzma.open(os.path.join(fix, "trace.txt.xz")) as a, open(text, "wb") as b:
        shutil.copyfileobj(a, b)
    comp = compressors(text, work)

    def hidden(path):
        cmd = "%s -q -f json %s" % (tool, path)
        return subprocess.run(["unshare", "-m", "sh", "-c", script, "sh"] + hide + [cmd],
                              capture_output=True)
    plain = run(tool, [text])
    p = hidden(text)
    check("without the on-demand libraries, a text trace: status 0, the same summary",
          p.returncode == 0 and json.loads(p.stdout)["totals"] == json.loads(plain.stdout)["totals"],
          (p.returncode, p.stderr))
    for what, path in [("trace.dat", os.path.join(fix, "trace.dat"))] + sorted(comp.items()):
        p = hidden(path)
        err = p.stderr.decode(errors="replace")
        check("without the on-demand libraries, %s: status 5, the file and the library named"
              % what, p.returncode == 5 and path in err and "library" in err, (p.returncode, err))


def main():
    tool, src, work = sys.argv[1:4]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    test_compressed(tool, src, work)
    test_split(tool, src, work)
    test_on_demand(tool, src, work)
    return exit_status()


if __name__ == "__main__":
    sys.exit(main())
