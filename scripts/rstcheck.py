#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Parse .rst files with docutils and print what it reports.

usage: scripts/rstcheck.py FILE...

One line per problem, "FILE:LINE: (LEVEL/N) message", for warnings and
errors.  The roles and directives that only the kernel's Sphinx setup
defines (:c:func:, kernel-doc, toctree...) are not problems here: the
check is for what plain reStructuredText gets wrong (malformed tables,
bad indentation, unbalanced markup).  Exit status 0 either way; the
caller compares the output with the baseline's.
"""
import sys

import docutils.frontend
import docutils.parsers.rst
import docutils.utils

SPHINX_ONLY = ("Unknown interpreted text role", "Unknown directive type",
               "No role entry", "No directive entry",
               'Trying "', "Problematic")


def main(argv):
    if not argv:
        print("usage: scripts/rstcheck.py FILE...", file=sys.stderr)
        return 2
    for path in argv:
        for p in check_with_observer(path):
            print(p)
    return 0


def check_with_observer(path):
    """publish_doctree with an observer attached to the document's reporter"""
    problems = []

    def observer(msg):
        level = int(msg["level"])
        if level < docutils.utils.Reporter.WARNING_LEVEL:
            return
        text = msg.astext()
        if any(s in text for s in SPHINX_ONLY):
            return
        first = text.splitlines()[0]
        # docutils' own text starts with "<source>:<line>: (LEVEL/N) "
        problems.append("%s:%s: (%s) %s" % (path, msg.get("line", 0),
                                             msg["type"],
                                             first.split(") ", 1)[-1]))

    parser = docutils.parsers.rst.Parser()
    settings = docutils.frontend.get_default_settings(parser)
    settings.report_level = 5
    settings.halt_level = 5
    settings.file_insertion_enabled = False
    with open(path, encoding="utf-8") as f:
        source = f.read()
    doc = docutils.utils.new_document(path, settings)
    doc.reporter.attach_observer(observer)
    parser.parse(source, doc)
    return problems


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
