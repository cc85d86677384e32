"""The checks of an end-to-end script, kept in one place.

    from checks import check, results, exit_status

    check("what is checked", condition, detail)  # prints ok or FAIL, detail on failure
    ...
    return exit_status()  # prints the counts; 1 when any check failed, else 0

results holds one bool per check made, in order.  The scripts sit beside
this module, so Python finds it on the script's own path.
"""
import sys

results = []

# a failure's detail is shortened to its start and its end (valgrind's and a
# command's last lines are often what tells)
HEAD, TAIL = 400, 1200


def shorten(detail):
    text = str(detail)
    if len(text) <= HEAD + TAIL + 100:
        return text
    return "%s [... %d characters ...] %s" % (text[:HEAD], len(text) - HEAD - TAIL, text[-TAIL:])


def check(name, ok, detail=""):
    """Record a check; print it, and on failure its detail.  Returns ok as a bool."""
    ok = bool(ok)
    results.append(ok)
    print("%s %s%s" % ("ok  " if ok else "FAIL", name, "" if ok else "  " + shorten(detail)))
    sys.stdout.flush()
    return ok


def exit_status():
    """Print how many checks passed and failed: the script's exit status (1 if any failed)."""
    passed = sum(results)
    failed = len(results) - passed
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


def selftest():
    """A failing check makes a script exit 1 and say which; passing ones exit 0."""
    import os
    import subprocess
    here = os.path.dirname(os.path.abspath(__file__))
    body = ("import sys; sys.path.insert(0, %r)\n"
            "from checks import check, exit_status\n"
            "check('one', True)\n"
            "check('two', %s, 'x' * 5000)\n"
            "sys.exit(exit_status())\n")
    bad = subprocess.run([sys.executable, "-c", body % (here, "0 == 1")], capture_output=True, text=True)
    good = subprocess.run([sys.executable, "-c", body % (here, "1 == 1")], capture_output=True, text=True)
    ok = (bad.returncode == 1 and "FAIL two  " + "x" * HEAD in bad.stdout and
          "1 passed, 1 failed" in bad.stdout and len(bad.stdout) < HEAD + TAIL + 200 and
          good.returncode == 0 and "ok   two" in good.stdout and "2 passed, 0 failed" in good.stdout)
    if not ok:
        print(bad.stdout + bad.stderr + good.stdout + good.stderr)
    print("checks.py: a failing check %s the script" % ("fails" if ok else "DOES NOT FAIL"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(selftest())
