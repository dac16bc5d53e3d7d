#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Read a guest console log and list its test results.

Two sources, both TAP/KTAP:
  * KUnit suites run at boot: each test case is one test (a suite that
    printed fewer results than its plan counts the missing ones as failed);
  * the guest tests printed between the HOTCOLD-JOB markers.

usage: results.py LABEL LOG [JOB_OUTPUT]
(the guest tests are read from JOB_OUTPUT, default LOG with .out for .log)
prints one line per test ("ok|FAIL LABEL: name") and last "COUNT passed failed".
"""
import re
import sys

TS = re.compile(r"^\[\s*\d+\.\d+\]\s?")
RESULT = re.compile(r"^(\s*)(ok|not ok) (\d+)(?: -)? ([^#]*?)\s*(#.*)?$")
PLAN = re.compile(r"^(\s*)1\.\.(\d+)\s*$")
SUBTEST = re.compile(r"^(\s*)# Subtest: (\S+)")


def kunit(lines):
    """Yield (name, passed) for every KUnit case."""
    out = []
    suite = None
    plan = 0
    seen = 0
    for raw in lines:
        line = TS.sub("", raw.rstrip("\r\n"))
        m = SUBTEST.match(line)
        if m and len(m.group(1)) == 4:
            suite, plan, seen = m.group(2), 0, 0
            continue
        if suite is None:
            continue
        m = PLAN.match(line)
        if m and len(m.group(1)) == 4:
            plan = int(m.group(2))
            continue
        m = RESULT.match(line)
        if not m:
            continue
        indent = len(m.group(1))
        directive = (m.group(5) or "").upper()
        if indent == 4:
            seen += 1
            ok = m.group(2) == "ok" or "SKIP" in directive
            out.append(("kunit %s.%s" % (suite, m.group(4)), ok,
                        "SKIP" in directive))
        elif indent == 0:
            for i in range(seen, plan):
                out.append(("kunit %s.<case %d never reported>" % (suite, i + 1),
                            False, False))
            suite = None
    if suite is not None:
        for i in range(seen, max(plan, seen + 1)):
            out.append(("kunit %s.<case %d never reported: crash?>" % (suite, i + 1),
                        False, False))
    return out


def guest_tap(lines):
    out = []
    inside = False
    plan = None
    for raw in lines:
        line = raw.rstrip("\r\n")
        if "=== HOTCOLD-JOB-BEGIN" in line:
            inside = True
            continue
        if "=== HOTCOLD-JOB-END" in line:
            inside = False
            continue
        if not inside:
            continue
        m = RESULT.match(line)
        if m and not m.group(1):
            directive = (m.group(5) or "").upper()
            out.append(("guest " + m.group(4), m.group(2) == "ok" or "SKIP" in directive,
                        "SKIP" in directive))
            continue
        m = PLAN.match(line)
        if m and not m.group(1):
            plan = int(m.group(2))
    if plan is not None and plan > len(out):
        out.append(("guest <%d tests never reported>" % (plan - len(out)), False, False))
    return out


def main():
    label, path = sys.argv[1], sys.argv[2]
    out = sys.argv[3] if len(sys.argv) > 3 else re.sub(r"\.log$", ".out", path)
    with open(path, errors="replace") as f:
        lines = f.readlines()
    try:
        with open(out, errors="replace") as f:
            job = f.readlines()
    except OSError:
        job = []
    results = kunit(lines) + guest_tap(job)
    passed = failed = 0
    for name, ok, skip in results:
        print("%s %s: %s%s" % ("ok  " if ok else "FAIL", label, name,
                               " (skipped)" if skip else ""))
        passed += ok
        failed += not ok
    print("COUNT %d %d" % (passed, failed))


if __name__ == "__main__":
    main()
