#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Read a guest console log and list its test results.

Two sources, both TAP/KTAP:
  * KUnit suites run at boot: each test case is one test.  Whatever the
    output promised and did not deliver is a failed test: a suite that
    printed fewer results than its plan (or stopped mid-suite: a crash),
    a top-level plan announcing more suites than completed, a suite that
    reported "not ok" without a failed case, and a suite named with
    --expect-suite that never ran (no KTAP at all, say);
  * the guest tests printed between the HOTCOLD-JOB markers: fewer results
    than the plan ("1..N", printed last), or a TAP stream that stopped
    before its plan, is a failed test; with --expect-tap so is no TAP.

usage: results.py [--expect-suite SUITE]... [--expect-tap] LABEL LOG [JOB_OUTPUT]
(the guest tests are read from JOB_OUTPUT, default LOG with .out for .log)
prints one line per test ("ok|FAIL LABEL: name") and last "COUNT passed failed".
"""
import argparse
import re
import sys

TS = re.compile(r"^\[\s*\d+\.\d+\]\s?")
RESULT = re.compile(r"^(\s*)(ok|not ok) (\d+)(?: -)? ([^#]*?)\s*(#.*)?$")
PLAN = re.compile(r"^(\s*)1\.\.(\d+)\s*$")
SUBTEST = re.compile(r"^(\s*)# Subtest: (\S+)")
HEADER = re.compile(r"^(\s*)K?TAP version \d+\s*$")
# run-guest.sh appends the job's output (ttyS1) to the console log after
# this line; the console's KTAP ends there
JOB_OUTPUT = re.compile(r"^----- job output|=== HOTCOLD-JOB-BEGIN")


class _Suite:
    def __init__(self, name):
        self.name = name
        self.plan = None
        self.seen = 0
        self.failed = 0


def kunit(lines, expect=()):
    """(name, passed, skipped) for every KUnit case, and for every case,
    suite or plan that the output announced and did not deliver."""
    out = []
    suite = None        # the suite whose cases are being read
    section = None      # [top-level plan or None, suites completed]
    names = set()       # every suite that started or reported
    ktap = False        # any KTAP header at all

    def close_suite(crashed):
        # the suite's plan against its results; crashed: no result line
        if suite.plan is not None and suite.seen > suite.plan:
            out.append(("kunit %s.<%d results for a plan of %d>"
                        % (suite.name, suite.seen, suite.plan), False, False))
        if crashed:
            for i in range(suite.seen, max(suite.plan or 0, suite.seen + 1)):
                out.append(("kunit %s.<case %d never reported: crash?>"
                            % (suite.name, i + 1), False, False))
        else:
            for i in range(suite.seen, suite.plan or 0):
                out.append(("kunit %s.<case %d never reported>"
                            % (suite.name, i + 1), False, False))

    def close_section():
        # the top-level plan against the suites that completed (an open
        # suite has already failed for its missing cases)
        if section is None or section[0] is None:
            return
        plan, done = section
        done += suite is not None
        for i in range(done, plan):
            out.append(("kunit <suite %d of %d never reported>" % (i + 1, plan),
                        False, False))
        if done > plan:
            out.append(("kunit <%d suites for a top-level plan of %d>" % (done, plan),
                        False, False))

    for raw in lines:
        line = TS.sub("", raw.rstrip("\r\n"))
        if JOB_OUTPUT.search(line):
            break
        m = HEADER.match(line)
        if m and not m.group(1):
            # a new top-level KTAP document (built-in suites, a module's)
            if suite is not None:
                close_suite(True)
            close_section()
            suite, section, ktap = None, [None, 0], True
            continue
        m = SUBTEST.match(line)
        if m and len(m.group(1)) == 4 and section is None:
            section, ktap = [None, 0], True     # KTAP whose header was lost
        if section is None:
            continue
        if m and len(m.group(1)) == 4:
            if suite is not None:
                close_suite(True)
                section[1] += 1
            suite = _Suite(m.group(2))
            names.add(suite.name)
            continue
        m = PLAN.match(line)
        if m:
            if not m.group(1) and section[0] is None and suite is None:
                section[0] = int(m.group(2))
            elif len(m.group(1)) == 4 and suite is not None and suite.plan is None:
                suite.plan = int(m.group(2))
            continue
        m = RESULT.match(line)
        if not m:
            continue
        indent = len(m.group(1))
        directive = (m.group(5) or "").upper()
        ok = m.group(2) == "ok" or "SKIP" in directive
        if indent == 4 and suite is not None:
            suite.seen += 1
            suite.failed += not ok
            out.append(("kunit %s.%s" % (suite.name, m.group(4)), ok,
                        "SKIP" in directive))
        elif indent == 0:
            section[1] += 1
            if suite is None:
                # a suite with no cases printed: its init failed, or all
                # of it was skipped
                names.add(m.group(4))
                out.append(("kunit %s" % m.group(4) if ok else
                            "kunit %s.<suite not ok before any case ran>" % m.group(4),
                            ok, "SKIP" in directive))
                continue
            close_suite(False)
            if not ok and not suite.failed and suite.seen >= (suite.plan or 0):
                out.append(("kunit %s.<suite reported not ok>" % suite.name,
                            False, False))
            suite = None
    if suite is not None:
        close_suite(True)
    close_section()
    for name in expect:
        if name not in names:
            out.append(("kunit %s.<suite never ran: %s>"
                        % (name, "not in the KTAP output" if ktap else
                           "no KTAP output on the console"), False, False))
    return out


def guest_tap(lines, expect=False):
    out = []
    inside = False
    header = False
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
        if HEADER.match(line) and not HEADER.match(line).group(1):
            header = True
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
    n = len(out)
    if plan is not None and plan > n:
        out.append(("guest <%d tests never reported>" % (plan - n), False, False))
    elif plan is not None and plan < n:
        out.append(("guest <%d results for a plan of %d>" % (n, plan), False, False))
    elif plan is None and (header or n):
        # tap_end prints the plan last: the job stopped before it
        out.append(("guest <no plan after %d results: the job stopped?>" % n,
                    False, False))
    elif plan is None and expect:
        out.append(("guest <no TAP output>", False, False))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--expect-suite", action="append", default=[], metavar="SUITE",
                    help="a KUnit suite the log must contain (repeatable)")
    ap.add_argument("--expect-tap", action="store_true",
                    help="the job output must contain guest TAP")
    ap.add_argument("label")
    ap.add_argument("log")
    ap.add_argument("job_output", nargs="?")
    args = ap.parse_args()
    label, path = args.label, args.log
    out = args.job_output or re.sub(r"\.log$", ".out", path)
    with open(path, errors="replace") as f:
        lines = f.readlines()
    try:
        with open(out, errors="replace") as f:
            job = f.readlines()
    except OSError:
        job = []
    results = kunit(lines, args.expect_suite) + guest_tap(job, args.expect_tap)
    passed = failed = 0
    for name, ok, skip in results:
        print("%s %s: %s%s" % ("ok  " if ok else "FAIL", label, name,
                               " (skipped)" if skip else ""))
        passed += ok
        failed += not ok
    print("COUNT %d %d" % (passed, failed))


if __name__ == "__main__":
    main()
