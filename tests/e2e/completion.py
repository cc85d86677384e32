#!/usr/bin/python3
"""Bash completion (completion/vmscan-analyze.bash) against cmd/options.c.

bash runs with the completion loaded (`complete -p` names its function),
and COMPREPLY is read after the function ran on a command line:
- every option of cmd/options.c's table that takes a path (its help line
  says FILE) completes files and directories, names with spaces as one
  word, written "--opt FILE" and "--opt=FILE";
- an option that takes a value that is not a path completes no file;
- "--<TAB>" offers every long option of the table;
- the first word offers the subcommands and files.

usage: completion.py SOURCE_DIR WORKDIR
"""
import os
import re
import shutil
import subprocess
import sys

from checks import check, exit_status


def options(src):
    """(long options, those that take a value, those that take a FILE, short of long)"""
    text = open(os.path.join(src, "cmd", "options.c")).read()
    table = re.findall(r'\{\{"([a-z-]+)", (no_argument|required_argument), NULL, ([^}]+)\}', text)
    longs = [n for n, _, _ in table]
    valued = [n for n, a, _ in table if a == "required_argument"]
    short = {n: s.strip("'") for n, _, s in table if re.fullmatch(r"'.'", s.strip())}
    files = set()
    # help lines: "  -j, --json FILE ..." or "      --svg FILE ..."
    for m in re.finditer(r'"\s+(?:-\w, )?--([a-z-]+) FILE\b', text):
        files.add(m.group(1))
    return longs, valued, files, short


def complete(src, cwd, words):
    """COMPREPLY for the command line words (the last one being completed)"""
    script = os.path.join(src, "completion", "vmscan-analyze.bash")
    prog = (
        'source "$1"; shift\n'
        'fn=$(complete -p vmscan-analyze | sed -n "s/.*-F \\([^ ]*\\) .*/\\1/p")\n'
        '[ -n "$fn" ] || exit 3\n'
        'COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))\n'
        'COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}\n'
        '"$fn" vmscan-analyze "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"\n'
        'printf "%s\\n" "${COMPREPLY[@]}"\n')
    p = subprocess.run(["bash", "--norc", "--noprofile", "-c", prog, "bash", script] + words,
                       cwd=cwd, capture_output=True, text=True)
    if p.returncode:
        return None
    return [w for w in p.stdout.split("\n") if w]


def main():
    src, work = os.path.abspath(sys.argv[1]), sys.argv[2]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(os.path.join(work, "traces dir"))
    for f in ("trace one.txt", "trace.dat", "other.json"):
        open(os.path.join(work, f), "w").close()

    longs, valued, files, short = options(src)
    check("options.c: the option table and the FILE options are found",
          len(longs) > 10 and {"json", "svg", "latencies", "junit"} <= files, (longs, files))

    for opt in sorted(files):
        forms = [["--" + opt, "tr"], ["--" + opt, "=", "tr"]]
        if opt in short:
            forms.append(["-" + short[opt], "tr"])
        for form in forms:
            got = complete(src, work, ["vmscan-analyze"] + form)
            want = ["trace one.txt", "trace.dat", "traces dir"]
            check("%s completes files" % " ".join(form), got is not None and sorted(got) == want,
                  got)
        got = complete(src, work, ["vmscan-analyze", "--" + opt, "=", ""])
        check("--%s= completes every file" % opt,
              got is not None and {"other.json", "trace one.txt", "traces dir"} <= set(got), got)

    for opt in valued:
        if opt in files:
            continue
        got = complete(src, work, ["vmscan-analyze", "--" + opt, "tr"])
        check("--%s (no path) completes no file" % opt,
              got is not None and not any(w.startswith("trace") for w in got), got)

    got = complete(src, work, ["vmscan-analyze", "--"])
    missing = sorted(set("--" + o for o in longs) - set(got or []))
    check("--<TAB> offers every long option", got is not None and not missing, missing)

    got = complete(src, work, ["vmscan-analyze", "c"])
    check("the first word offers subcommands", got is not None and set(got) == {"check", "compare"},
          got)
    got = complete(src, work, ["vmscan-analyze", "merge", "o"])
    check("an input completes files", got == ["other.json"], got)

    sys.exit(exit_status())


main()
