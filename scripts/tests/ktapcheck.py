# SPDX-License-Identifier: GPL-2.0
"""A strict reader of KTAP version 1 (Documentation/dev-tools/ktap.rst in
the kernel tree), for the unit tests of the KTAP file make test writes
(scripts/tally.sh): they read it with this when no kernel tree is there
to run tools/testing/kunit/kunit.py parse, and with both when one is.

Stricter than the kernel's parser, which takes any line it does not know
for a diagnostic: here every line is a version line, a plan, a result
or a "#" diagnostic, at exactly its nesting's indentation (two spaces a
level); every block starts "KTAP version 1", then an optional "# Subtest:
NAME", then its plan, which must count its results; results are numbered
from 1; a name is not empty and holds no "#"; a block's result line names
it as its "# Subtest:" line did; a parent is "not ok" exactly when one of
its subtests is.  parse(TEXT) returns the top-level Test or raises
KtapError naming the line.

usage (a check by hand): python3 scripts/tests/ktapcheck.py FILE
"""
import re
import sys

VERSION = "KTAP version 1"
PLAN = re.compile(r"1\.\.([0-9]+)$")
# "ok 3 name", "not ok 3 name", "ok 3 name # SKIP why", "ok 3 name # data"
RESULT = re.compile(r"(ok|not ok) ([0-9]+) ([^#]*?)(?: # (.*))?$")
SUBTEST = "# Subtest: "


class KtapError(Exception):
    def __init__(self, lineno, msg):
        super().__init__("line %d: %s" % (lineno, msg))
        self.lineno = lineno


class Test:
    """A test: its name, whether it is ok, skipped, its diagnostic lines
    (those just before its result line) and its subtests."""

    def __init__(self, name=""):
        self.name = name
        self.parent = False     # a version line and plan, even 1..0
        self.ok = True
        self.skip = False
        self.directive = None
        self.diagnostics = []
        self.subtests = []

    def counts(self):
        """(passed, failed, skipped) of the cases: tests without subtests."""
        if not self.parent:
            if self.skip:
                return (0, 0, 1)
            return (1, 0, 0) if self.ok else (0, 1, 0)
        total = [0, 0, 0]
        for t in self.subtests:
            for i, n in enumerate(t.counts()):
                total[i] += n
        return tuple(total)


class Reader:
    def __init__(self, text):
        self.lines = text.split("\n")
        if self.lines and self.lines[-1] == "":
            self.lines.pop()
        self.pos = 0

    def peek(self):
        """(indent, text) of the next line, or None at the end."""
        if self.pos >= len(self.lines):
            return None
        line = self.lines[self.pos]
        if "\t" in line or line != line.rstrip():
            raise KtapError(self.pos + 1, "a tab or trailing blank: %r" % line)
        text = line.lstrip(" ")
        return len(line) - len(text), text

    def error(self, msg):
        raise KtapError(self.pos + 1, msg)

    def take(self, indent, what):
        nxt = self.peek()
        if nxt is None:
            raise KtapError(len(self.lines), "the end, where %s was due" % what)
        if nxt[0] != indent:
            self.error("%s indented %d, not %d" % (what, nxt[0], indent))
        self.pos += 1
        return nxt[1]

    def diagnostics(self, indent):
        """The "#" lines at INDENT from here (not "# Subtest:" ones)."""
        out = []
        while True:
            nxt = self.peek()
            if nxt is None or not nxt[1].startswith("#") or nxt[1].startswith(SUBTEST):
                return out
            if nxt[0] != indent:
                self.error("a diagnostic indented %d, not %d" % (nxt[0], indent))
            out.append(nxt[1])
            self.pos += 1

    def block(self, indent, test):
        """A version line, optional "# Subtest:", plan and subtests at
        INDENT, into TEST."""
        test.parent = True
        if self.take(indent, "a version line") != VERSION:
            self.pos -= 1
            self.error("not %r" % VERSION)
        nxt = self.peek()
        if indent and nxt is not None and nxt[1].startswith(SUBTEST):
            test.name = self.take(indent, "a subtest line")[len(SUBTEST):]
            if not test.name:
                self.pos -= 1
                self.error("a subtest line without a name")
        test.diagnostics += self.diagnostics(indent)
        m = PLAN.match(self.take(indent, "a plan"))
        if not m:
            self.pos -= 1
            self.error("not a plan 1..N")
        plan = int(m.group(1))
        for number in range(1, plan + 1):
            diags = self.diagnostics(indent)
            nxt = self.peek()
            if nxt is None or nxt[0] < indent:
                self.error("%d results, where the plan is 1..%d" % (number - 1, plan))
            sub = Test()
            sub.diagnostics = diags
            if nxt[0] == indent + 2:
                self.block(indent + 2, sub)
                sub.diagnostics += self.diagnostics(indent)
            self.result(indent, number, sub)
            test.subtests.append(sub)
        self.diagnostics(indent)
        nxt = self.peek()
        if nxt is not None and nxt[0] == indent and RESULT.match(nxt[1]):
            self.error("a result beyond the plan 1..%d" % plan)
        return test

    def result(self, indent, number, test):
        """TEST's result line at INDENT, numbered NUMBER."""
        text = self.take(indent, "result %d" % number)
        m = RESULT.match(text)
        if not m:
            self.pos -= 1
            self.error("not a result line: %r" % text)
        self.pos -= 1
        if int(m.group(2)) != number:
            self.error("result %s where %d was due" % (m.group(2), number))
        name = m.group(3)
        if not name or name != name.strip():
            self.error("an empty name, or blanks around it: %r" % name)
        if test.name and name != test.name:
            self.error("result of %r for the subtest %r" % (name, test.name))
        test.name = name
        test.ok = m.group(1) == "ok"
        test.directive = m.group(4)
        test.skip = (m.group(4) or "").split(" ")[0] == "SKIP"
        if test.subtests and test.ok != all(t.ok for t in test.subtests):
            self.error("%r is %s, and %s of its subtests failed" % (
                name, m.group(1), "one" if test.ok else "none"))
        self.pos += 1


def parse(text):
    """The top-level Test of TEXT, KTAP version 1, or KtapError."""
    r = Reader(text)
    top = r.block(0, Test("main"))
    top.ok = all(t.ok for t in top.subtests)
    r.diagnostics(0)
    if r.peek() is not None:
        r.error("a line after the last result: %r" % r.peek()[1])
    return top


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    with open(sys.argv[1]) as f:
        try:
            top = parse(f.read())
        except KtapError as e:
            print("%s: %s" % (sys.argv[1], e), file=sys.stderr)
            return 1
    print("%d passed, %d failed, %d skipped" % top.counts())
    return 0


if __name__ == "__main__":
    sys.exit(main())
