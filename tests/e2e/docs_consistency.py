#!/usr/bin/python3
"""--help, the man page, the bash completion and the README agree, and what
cmake --install puts down works: man renders the page, pkg-config finds the
library, and a program using the public header (compiled alone with
-Wall -Wextra -pedantic -Werror) links against it.

usage: docs_consistency.py TOOL SOURCE_DIR BUILD_DIR WORKDIR
"""
import os
import re
import shutil
import subprocess
import sys

from checks import check, exit_status


def main():
    tool, src, build, work = sys.argv[1:5]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    helptext = subprocess.run([tool, "--help"], capture_output=True, text=True).stdout
    man = open(os.path.join(src, "docs", "vmscan-analyze.1.scd")).read()
    comp = open(os.path.join(src, "completion", "vmscan-analyze.bash")).read()
    readme = open(os.path.join(src, "README.md")).read()
    opts_help = set(re.findall(r"(--[a-z][a-z-]+)", helptext))
    opts_man = set(re.findall(r"\*(?:-\w, )?(--[a-z][a-z-]+)", man))
    opts_comp = set(re.findall(r"(--[a-z][a-z-]+)", comp))
    check("every --help option is in the man page", opts_help <= opts_man, opts_help - opts_man)
    check("every man page option is in --help", opts_man <= opts_help, opts_man - opts_help)
    check("every --help option is completed by bash", opts_help <= opts_comp,
          opts_help - opts_comp)
    for sub in ("live", "merge", "compare", "check"):
        check("subcommand %s in --help, man, completion and README" % sub,
              ("vmscan-analyze %s" % sub) in helptext and ("*vmscan-analyze %s*" % sub) in man
              and sub in comp and ("vmscan-analyze %s" % sub) in readme)
    codes_help = set(int(c) for c in re.findall(r"(\d+) [a-z]", helptext.split("Exit status:")[1]))
    codes_man = set(int(c) for c in re.findall(r"^\*(\d+)\*", man, re.M))
    codes_readme = set(int(c) for c in re.findall(r"^\| (\d+) \|", readme, re.M))
    # the statuses the program has (cmd/cli.h)
    codes_code = set(int(c) for c in re.findall(r"^\tEXIT_\w+ = (\d+),", open(
        os.path.join(src, "cmd", "cli.h")).read(), re.M))
    check("exit statuses: --help, man page and README list the same (%s)" % sorted(codes_help),
          codes_help == codes_man == codes_readme and codes_help == codes_code,
          (codes_help, codes_man, codes_readme, codes_code))

    prefix = os.path.join(work, "prefix")
    r = subprocess.run(["cmake", "--install", build, "--prefix", prefix], capture_output=True)
    check("cmake --install", r.returncode == 0, r.stderr)
    mandir = os.path.join(prefix, "share", "man")
    r = subprocess.run(["man", "vmscan-analyze"], capture_output=True, text=True,
                       env=dict(os.environ, MANPATH=mandir, MANPAGER="cat", PAGER="cat"))
    check("man vmscan-analyze shows the installed page", r.returncode == 0 and
          "EXIT STATUS" in r.stdout and "--thresholds" in r.stdout, r.stderr)
    pc = [os.path.join(root) for root, _, files in os.walk(prefix)
          if "vmscan-analyze.pc" in files]
    env = dict(os.environ, PKG_CONFIG_PATH=":".join(pc))
    flags = subprocess.run(["pkg-config", "--cflags", "--libs", "--static", "vmscan-analyze"],
                           capture_output=True, text=True, env=env)
    check("pkg-config finds the installed library", flags.returncode == 0, flags.stderr)
    prog = os.path.join(work, "use.c")
    with open(prog, "w") as f:
        f.write('#include <vmsa/vmsa.h>\n#include <stdio.h>\n'
                'int main(void) { struct vmsa_stats *st; if (vmsa_stats_new(&st, NULL)) return 1;'
                ' puts(vmsa_strerror(VMSA_E_CORRUPT)); vmsa_stats_free(st); return 0; }\n')
    libdir = [f[2:] for f in flags.stdout.split() if f.startswith("-L")]
    r = subprocess.run(["cc", "-std=c11", "-Wall", "-Wextra", "-pedantic", "-Werror", prog, "-o",
                        prog[:-2]] + flags.stdout.split() + ["-Wl,-rpath," + d for d in libdir],
                       capture_output=True, text=True)
    run = subprocess.run([prog[:-2]], capture_output=True, text=True) if r.returncode == 0 else None
    check("a program using the installed header and library builds and runs",
          run is not None and run.returncode == 0 and "corrupt" in run.stdout, r.stderr)
    r = subprocess.run(["bash", "-c", "source %s; COMP_WORDS=(vmscan-analyze --form); "
                        "COMP_CWORD=1; _vmscan_analyze; echo ${COMPREPLY[@]}" %
                        os.path.join(prefix, "share", "bash-completion", "completions",
                                     "vmscan-analyze")], capture_output=True, text=True)
    check("bash completes --form to --format", r.stdout.strip() == "--format", r.stdout)
    return exit_status()


if __name__ == "__main__":
    sys.exit(main())
