# SPDX-License-Identifier: GPL-2.0
"""What the bench's two tables (bench/workloads.tsv, bench/configs.tsv)
share: the error their parsers raise, and reading one once."""
import sys


class TableError(Exception):
    pass


def cached(path, parse, what):
    """a function returning parse(the text at path), read once; exits 2
    with the reason, naming the table as `what`, if it cannot"""
    cache = []

    def table():
        if not cache:
            try:
                with open(path) as f:
                    cache.append(parse(f.read()))
            except (OSError, TableError) as e:
                print("report.py: the %s: %s" % (what, e), file=sys.stderr)
                sys.exit(2)
        return cache[0]
    return table


def lines(text, path, columns, values):
    """(where, {column: value}) for each line of a table's text that is not
    blank or a comment, where being PATH:LINE; TableError for a line with
    the wrong number of tab-separated columns, or a value of a column in
    values (column: the values it may take) outside those"""
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        f = line.split("\t")
        where = "%s:%d" % (path, n)
        if len(f) != len(columns):
            raise TableError("%s: %d tab-separated columns, expected %d (%s)" % (
                where, len(f), len(columns), " ".join(columns)))
        row = dict(zip(columns, f))
        for k, ok in values.items():
            if row[k] not in ok:
                raise TableError("%s: %s '%s', expected one of %s" % (where, k, row[k],
                                                                      ", ".join(ok)))
        yield where, row
