# SPDX-License-Identifier: GPL-2.0
"""The configuration table, bench/configs.tsv: one line per make bench
configuration (its kernel, what that kernel is built from, its extra
command line, the allocator state its boots must show, the modes and
lists it is in, its role).  The one source of those facts: the report
and the run's plan (bench/hcreport/plan.py) read them here,
scripts/build-kernel.sh and scripts/tree.sh through report.py configs
kernels."""
import os
import sys

from . import tables
from .tables import TableError  # noqa: F401 (the parsers raise it)

BENCH = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOT = os.path.dirname(BENCH)
PATH = os.path.join(BENCH, "configs.tsv")
COLUMNS = ("name", "kernel", "source", "patch", "append", "switch", "pcp", "modes", "rounds",
           "role", "sets", "what")
VALUES = {"source": ("baseline", "series"), "switch": ("none", "0", "1"), "pcp": ("on", "off"),
          "modes": ("det", "fixed", "icount"),
          "role": ("base", "series", "switch-off", "no-lists", "repeat", "layout", "shifted",
                   "power", "-")}
# the roles a table must have, one line each (the others: at most one)
NEEDED = ("base", "series", "switch-off")
SETS = ("default", "quick", "programs", "sweeps", "shapes", "residency")
# the modes each value of the modes column boots
MODES = {"det": ("wall", "icount", "cachesim"), "fixed": ("icount", "cachesim"),
         "icount": ("icount",)}
# the most rounds a rounds column may cap at (plan.py's DET_ROUNDS' most)
MOST_ROUNDS = 20
# the directory a patch must be in
ALTERNATIVES = "bench/alternatives/"


def _word(s, extra=""):
    """lower-case letters, digits, - and EXTRA, and not empty"""
    return bool(s) and all(c.islower() or c.isdigit() or c == "-" or c in extra for c in s)


def boots_in(row, mode):
    """does the row's configuration boot in MODE (wall, icount, cachesim)?"""
    return mode in MODES[row["modes"]]


def rounds_of(row, n):
    """the rounds the row's configuration boots of a mode's N: N, or its
    rounds column where that is fewer"""
    return n if row["rounds"] == "-" else min(n, int(row["rounds"]))


def sets_of(row):
    """the row's sets, a list (its sets column without -)"""
    return [] if row["sets"] == "-" else row["sets"].split(",")


def parse(text, path=PATH, root=ROOT):
    """[{column: value}] in the table's order; TableError names the line
    (or the table) that breaks a rule: 12 tab-separated columns with
    known values, a unique name, rounds - or 1-20, a patch that exists under
    bench/alternatives/ (root: the repository), one word of command line
    without ':', a switch only on a series kernel, the lines of one
    kernel agreeing on its source and patch, one line of each role (one
    base, in every set, mode and round; one series, switch 1 and no patch; one
    switch-off, the series' kernel at switch 0; at most one no-lists,
    pcp off; at most one repeat, the base's kernel, command line and
    state, in no set; at most one layout, the base's kernel, command
    line and state under a name no kernel has; at most one shifted and one
    power, each a baseline kernel with a bench-only patch: a shift of the
    base's code, a known cost on the base)."""
    rows, where_of = [], {}
    for where, row in tables.lines(text, path, COLUMNS, VALUES):
        for k in ("name", "kernel"):
            if not _word(row[k]):
                raise TableError("%s: %s '%s', expected lower-case letters, digits and -" %
                                 (where, k, row[k]))
        if row["name"] in where_of:
            raise TableError("%s: %s listed twice (first at %s)" % (where, row["name"],
                                                                    where_of[row["name"]]))
        if row["patch"] != "-":
            p = row["patch"]
            if not p.startswith(ALTERNATIVES) or "/" in p[len(ALTERNATIVES):] or \
                    not p.endswith(".patch"):
                raise TableError("%s: patch '%s', expected %sNAME.patch or -" %
                                 (where, p, ALTERNATIVES))
            if not os.path.isfile(os.path.join(root, p)):
                raise TableError("%s: patch %s: no such file" % (where, p))
        rn = row["rounds"]
        if rn != "-" and not (rn.isdigit() and rn.isascii() and rn[0] != "0" and
                              int(rn) <= MOST_ROUNDS):
            raise TableError("%s: %s: rounds '%s', expected - (the run's) or a number from 1 to "
                             "%d" % (where, row["name"], rn, MOST_ROUNDS))
        if row["append"] != "-" and (not row["append"].strip() or
                                     any(c.isspace() or c == ":" for c in row["append"])):
            raise TableError("%s: append '%s', expected one word without ':' (or -)" %
                             (where, row["append"]))
        if (row["switch"] == "none") != (row["source"] == "baseline"):
            raise TableError("%s: %s: switch %s on a %s kernel: the series brings the switch "
                             "(0 or 1), a baseline kernel has none" %
                             (where, row["name"], row["switch"], row["source"]))
        sets = sets_of(row)
        bad = [s for s in sets if s not in SETS]
        if bad or len(set(sets)) != len(sets) or (row["sets"] != "-" and not sets):
            raise TableError("%s: sets '%s', expected - or some of %s, comma-separated, each "
                             "once" % (where, row["sets"], ",".join(SETS)))
        if not row["what"].strip():
            raise TableError("%s: %s: no what" % (where, row["name"]))
        where_of[row["name"]] = where
        rows.append(row)
    if not rows:
        raise TableError("%s: no configuration lines" % path)
    kernels = {}
    for r in rows:
        k = kernels.setdefault(r["kernel"], r)
        if (k["source"], k["patch"]) != (r["source"], r["patch"]):
            raise TableError("%s: %s: kernel %s from %s with patch %s, but %s's (%s) from %s "
                             "with patch %s: one kernel, one build" % (
                                 where_of[r["name"]], r["name"], r["kernel"], r["source"],
                                 r["patch"], k["name"], where_of[k["name"]], k["source"],
                                 k["patch"]))
    roles = {}
    for r in rows:
        roles.setdefault(r["role"], []).append(r)
    for role in VALUES["role"][:-1]:
        have = roles.get(role, [])
        if len(have) > 1 or (role in NEEDED and not have):
            raise TableError("%s: %d lines of role %s (%s), expected %s" % (
                path, len(have), role, " ".join(r["name"] for r in have),
                "one" if role in NEEDED else "at most one"))
    base = roles["base"][0]
    missing = [s for s in SETS if s not in sets_of(base)]
    if missing or base["modes"] != "det" or base["rounds"] != "-":
        raise TableError("%s: the base, %s, must be in every set, mode and round (every ratio "
                         "is to it): not in %s" % (
                             where_of[base["name"]], base["name"],
                             " ".join(missing) or ("modes " + base["modes"]
                                                   if base["modes"] != "det" else
                                                   "rounds beyond " + base["rounds"])))
    series, off = roles["series"][0], roles["switch-off"][0]
    if series["switch"] != "1" or series["patch"] != "-":
        raise TableError("%s: %s, the series, must boot with its switch at 1 and no patch" %
                         (where_of[series["name"]], series["name"]))
    if off["kernel"] != series["kernel"] or off["switch"] != "0":
        raise TableError("%s: %s, the switch-off, must boot the series' kernel (%s) with "
                         "its switch at 0" % (where_of[off["name"]], off["name"],
                                              series["kernel"]))
    for r in roles.get("no-lists", []):
        if r["pcp"] != "off":
            raise TableError("%s: %s, the no-lists configuration, must have its pcp lists "
                             "off" % (where_of[r["name"]], r["name"]))
    for r in roles.get("repeat", []):
        same = ("kernel", "append", "switch", "pcp", "modes", "rounds")
        if any(r[k] != base[k] for k in same) or r["sets"] != "-":
            raise TableError("%s: %s, the repeat, boots as the base's round 1: the base's %s, "
                             "and in no set (CONFIGS does not pick it)" % (
                                 where_of[r["name"]], r["name"], ", ".join(same)))
    for r in roles.get("layout", []):
        # (its relinks are kept under its name: no kernel's)
        same = ("kernel", "append", "switch", "pcp")
        if any(r[k] != base[k] for k in same) or r["name"] in kernels:
            raise TableError("%s: %s, the layout A/A, boots the base's kernel relinked under "
                             "its own name: the base's %s, and a name no kernel has" % (
                                 where_of[r["name"]], r["name"], ", ".join(same)))
    for r in roles.get("power", []) + roles.get("shifted", []):
        if r["source"] != "baseline" or r["patch"] == "-" or r["switch"] != "none":
            raise TableError("%s: %s, the %s, must be the baseline with a bench-only "
                             "patch (its %s) and no switch" % (
                                 where_of[r["name"]], r["name"],
                                 "power check" if r["role"] == "power" else "shifted base",
                                 "known cost" if r["role"] == "power" else "shift"))
    return rows


# the table (read once), or exit 2 with the reason
table = tables.cached(PATH, parse, "configuration table")


def names(rows=None, **want):
    """the names of the configurations whose columns have the values asked
    for (sets=S: S among its sets)"""
    return [r["name"] for r in (rows if rows is not None else table())
            if all((v in sets_of(r)) if k == "sets" else r[k] == v for k, v in want.items())]


def row(name, rows=None):
    for r in (rows if rows is not None else table()):
        if r["name"] == name:
            return r
    return None


def role(which, rows=None):
    """the name of the configuration of that role (base, series,
    switch-off, no-lists, repeat, layout, shifted, power), or None"""
    found = names(rows, role=which)
    return found[0] if found else None


def expected_state(name, rows=None):
    """(switch, lists off) a boot of NAME must show: the switch's value
    ("none": a kernel without the series) and whether its per-cpu lists
    are off; None for a name the table does not have"""
    r = row(name, rows)
    return None if r is None else (r["switch"], r["pcp"] == "off")


class SelectError(Exception):
    pass


def select(listed, quick, rows=None):
    """The rows a CONFIGS value picks, in its order: every name once, each
    a configuration of the table (not the repeat: CONFIGS does not pick
    it), the base among them; unset (blank), the default set, or with
    quick QUICK's.  SelectError with the reason."""
    rows = rows if rows is not None else table()
    words = listed.split()
    if not words:
        return [r for r in rows if ("quick" if quick else "default") in sets_of(r)]
    choosable = [r for r in rows if r["role"] != "repeat"]
    out = []
    for w in words:
        r = row(w, choosable)
        if r is None:
            raise SelectError("unknown configuration '%s' in CONFIGS -- configurations are "
                              "(bench/configs.tsv): %s" % (
                                  w, " ".join(x["name"] for x in choosable)))
        if r in out:
            raise SelectError("CONFIGS=%s: '%s' twice -- each configuration once" % (listed, w))
        out.append(r)
    base = role("base", rows)
    if base not in words:
        raise SelectError("CONFIGS=%s: %s is the baseline every ratio needs -- add it" %
                          (listed, base))
    return out


def kernel_lines(rows=None):
    """KERNEL SOURCE PATCH, once per kernel, in the table's order: what
    scripts/build-kernel.sh and scripts/tree.sh build it from"""
    out, seen = [], set()
    for r in (rows if rows is not None else table()):
        if r["kernel"] not in seen:
            seen.add(r["kernel"])
            out.append("%s %s %s" % (r["kernel"], r["source"], r["patch"]))
    return out


USAGE = """usage: report.py configs [COLUMN=VALUE...]   the names (sets=S: in set S)
       report.py configs kernels              KERNEL SOURCE PATCH lines"""


def main(args):
    """report.py configs ...: 0, or 2 (usage on stderr)"""
    if args == ["kernels"]:
        print("\n".join(kernel_lines()))
        return 0
    want = {}
    for a in args:
        k, eq, v = a.partition("=")
        if not eq or k not in COLUMNS or k == "what":
            print("report.py configs: '%s': expected COLUMN=VALUE, COLUMN one of %s\n%s" %
                  (a, " ".join(COLUMNS[:-1]), USAGE), file=sys.stderr)
            return 2
        ok = SETS if k == "sets" else VALUES.get(k)
        if ok and v not in ok:
            print("report.py configs: %s=%s: %s is one of %s" % (k, v, k, ", ".join(ok)),
                  file=sys.stderr)
            return 2
        want[k] = v
    print(" ".join(names(**want)))
    return 0
