#!/usr/bin/python3
"""The installed library, as another program uses it.

Every function declared in include/vmsa/vmsa.h has a comment right above it.

`cmake --install` into a temporary prefix, then:
  * libvmsa.so.1 (soname) exports exactly the functions declared in
    include/vmsa/vmsa.h, under the symbol version VMSA_1, and libvmsa.a
    has exactly those as global symbols: no internal vmsa_ symbol leaks;
  * examples/summary.c builds against the installed header and library
    through pkg-config, linked dynamically (`pkg-config --libs`) and
    statically (libvmsa.a with `pkg-config --libs --static`), and both
    print the same three numbers as the tool's JSON summary of a fixture.

usage: library.py TOOL SOURCE_DIR BUILD_DIR WORKDIR
"""
import json
import os
import re
import shutil
import subprocess
import sys

from checks import check, exit_status


def declared(header):
    text = open(header).read()
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    # the static inline wrappers that pass a struct's size (docs/abi.md)
    # are compiled into the caller: not the library's symbols
    text = re.sub(r"\bstatic\s+inline\b[^;{]*\{[^{}]*\}", " ", text)
    return set(re.findall(r"[\w\s\*]\b(vmsa_\w+)\s*\(", text))


def main():
    tool, src, build, work = sys.argv[1:5]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    prefix = os.path.join(work, "prefix")
    r = subprocess.run(["cmake", "--install", build, "--prefix", prefix], capture_output=True,
                       text=True)
    check("cmake --install", r.returncode == 0, r.stderr)
    libdir = os.path.dirname(next(os.path.join(root, f) for root, _, files in os.walk(prefix)
                                  for f in files if f == "libvmsa.a"))
    want = declared(os.path.join(src, "include", "vmsa", "vmsa.h"))
    check("the header declares the API (%d functions)" % len(want), len(want) > 30, want)

    # every public function says what it does: a comment ends on the line above it
    text = open(os.path.join(src, "include", "vmsa", "vmsa.h")).read()
    bare = [m.group(1) for m in re.finditer(r"^[^\s#/*{}][^;{]*?\b(vmsa_\w+)\s*\(", text, re.M)
            if not text[:m.start()].rstrip("\n").split("\n")[-1].strip().endswith("*/")
            and not m.group(0).startswith("static inline")]
    check("every function of vmsa.h has its comment", not bare, bare)

    so = os.path.join(libdir, "libvmsa.so.1")
    dyn = subprocess.run(["nm", "-D", "--defined-only", so], capture_output=True, text=True)
    syms = {}
    for l in dyn.stdout.splitlines():
        parts = l.split()
        if len(parts) == 3 and parts[1] in "TDBRW":
            name, _, ver = parts[2].partition("@")
            syms[name] = ver.lstrip("@")
    exported = {n for n in syms if n.startswith("vmsa_")}
    check("libvmsa.so.1 exports exactly the declared functions", exported == want,
          ("not declared:", sorted(exported - want), "missing:", sorted(want - exported)))
    check("every export is versioned VMSA_1", set(syms[n] for n in exported) == {"VMSA_1"},
          set(syms.values()))
    check("nothing else exported", set(syms) - exported <= {"VMSA_1"}, sorted(set(syms) - exported))
    soname = subprocess.run(["objdump", "-p", so], capture_output=True, text=True).stdout
    check("soname libvmsa.so.1", re.search(r"SONAME\s+libvmsa\.so\.1\b", soname) is not None)

    st = subprocess.run(["nm", "-g", "--defined-only", os.path.join(libdir, "libvmsa.a")],
                        capture_output=True, text=True)
    glob_a = {l.split()[2] for l in st.stdout.splitlines() if len(l.split()) == 3}
    check("libvmsa.a has exactly the declared functions as globals", glob_a == want,
          ("not declared:", sorted(glob_a - want), "missing:", sorted(want - glob_a)))

    env = dict(os.environ, PKG_CONFIG_PATH=os.path.join(libdir, "pkgconfig"))
    pc = lambda *a: subprocess.run(["pkg-config"] + list(a) + ["vmscan-analyze"],
                                   capture_output=True, text=True, env=env).stdout.split()
    example = os.path.join(src, "examples", "summary.c")
    fixture = os.path.join(src, "fixtures", "synthetic", "6.1-mixed.txt")
    js = json.loads(subprocess.run([tool, "-q", "-f", "json", fixture], capture_output=True,
                                   check=True).stdout)
    expect = "direct reclaims %d\ndirect pages scanned %d\nkswapd pages scanned %d\n" % (
        js["totals"]["direct"]["reclaims"], js["totals"]["direct"]["pages_scanned"],
        js["totals"]["kswapd"]["pages_scanned"])
    static_libs = [f for f in pc("--libs", "--static") if f != "-lvmsa"]
    for kind, flags in (
            ("dynamic", pc("--cflags", "--libs") + ["-Wl,-rpath," + libdir]),
            ("static", pc("--cflags") + [os.path.join(libdir, "libvmsa.a")] + static_libs)):
        exe = os.path.join(work, "summary-" + kind)
        r = subprocess.run(["cc", "-std=c11", "-Wall", "-Wextra", "-pedantic", "-Werror",
                            example, "-o", exe] + flags, capture_output=True, text=True)
        check("examples/summary.c links %s through pkg-config" % kind, r.returncode == 0,
              r.stderr)
        if r.returncode:
            continue
        needed = subprocess.run(["objdump", "-p", exe], capture_output=True, text=True).stdout
        check("%s: %s libvmsa.so.1" % (kind, "needs" if kind == "dynamic" else "does not need"),
              ("libvmsa.so.1" in needed) == (kind == "dynamic"))
        out = subprocess.run([exe, fixture], capture_output=True, text=True)
        check("%s: the example prints the summary's numbers" % kind,
              out.returncode == 0 and out.stdout == expect, (out.stdout, expect, out.stderr))
    return exit_status()


if __name__ == "__main__":
    sys.exit(main())
