# SPDX-License-Identifier: GPL-2.0
"""The workload table, bench/workloads.tsv: one line per workload, read
by scripts/bench.sh (through report.py workloads and report.py
boot-workloads), guest/jobs/bench.sh and the report; and the one rule by
which a WORKLOADS list selects workloads (selected()), which
scripts/bench.sh applies through boot_workloads() and the report through
selected()."""
import os
import sys

from . import tables
from .tables import TableError  # noqa: F401 (the parsers raise it)

PATH = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                    "workloads.tsv")
SHAPES_PATH = os.path.join(os.path.dirname(PATH), "shapes.tsv")
SHAPE_COLUMNS = ("boot", "vcpus", "named", "programs", "what")


def parse_shapes(text, path=SHAPES_PATH):
    """bench/shapes.tsv: {boot: {column: value}} in the table's order;
    TableError for a line that is not a shape (vCPUs from 2 to 8, named
    and programs yes or no, a new lower-case name)"""
    out = {}
    for where, row in tables.lines(text, path, SHAPE_COLUMNS,
                                   {"named": ("yes", "no"), "programs": ("yes", "no")}):
        if not row["vcpus"].isdigit() or not 2 <= int(row["vcpus"]) <= 8:
            raise TableError("%s: vcpus '%s', expected 2 to 8 (CONFIG_NR_CPUS=8)" % (where, row["vcpus"]))
        b = row["boot"]
        if not b or not all(c.isdigit() or "a" <= c <= "z" for c in b) or b in out or \
                b in ("mem", "disk", "prog", "sweep", "wall"):
            raise TableError("%s: boot '%s', expected a new name of lower-case letters and digits"
                             % (where, b))
        out[b] = row
    return out


try:
    with open(SHAPES_PATH) as _f:
        SHAPES = parse_shapes(_f.read())
except (OSError, TableError) as _e:
    print("report.py: bench/shapes.tsv: %s" % _e, file=sys.stderr)
    sys.exit(2)
COLUMNS = ("name", "kind", "modes", "boot", "runs", "shared", "amount", "metric", "what")
VALUES = {"kind": ("2002", "mix", "scenario", "micro", "program", "sweep"),
          "modes": ("det", "wall", "fixed"),
          "boot": ("mem", "disk") + tuple(SHAPES) + ("prog", "sweep"),
          "runs": ("quick", "default", "asked"),
          "shared": ("yes", "no")}


def vcpus(boot):
    """the vCPUs a deterministic boot has: its shape's, else 1"""
    return int(SHAPES[boot]["vcpus"]) if boot in SHAPES else 1


# a sweep's name: sweep_exit_N_MB_L or sweep_reclaim_N_MB_L
SWEEP_KINDS = ("exit", "reclaim")


def sweep_params(name):
    """(what, n, mb, loops) of a sweep's name (sweep_exit_4_40_16: 4
    exits of 40 MB over 16 foreground loops of 1 MB), or None"""
    f = name.split("_")
    if len(f) != 5 or f[0] != "sweep" or f[1] not in SWEEP_KINDS or \
            not all(x.isdigit() for x in f[2:]):
        return None
    n, mb, loops = (int(x) for x in f[2:])
    if mb == 0 or loops == 0 or loops < n:
        return None
    return f[1], n, mb, loops


def parse(text, path=PATH):
    """[{column: value}] in the table's order; TableError names the line
    that is not a workload line (9 tab-separated columns with known values,
    a whole amount, a unique name)."""
    rows, seen = [], set()
    for where, row in tables.lines(text, path, COLUMNS, VALUES):
        if not row["amount"].isdigit():
            raise TableError("%s: amount '%s', expected a whole number" % (where, row["amount"]))
        if not row["name"] or not all(c.isalnum() or c == "_" for c in row["name"]):
            raise TableError("%s: name '%s', expected letters, digits and _" % (where, row["name"]))
        shape = SHAPES.get(row["boot"])
        if shape and shape["named"] == "yes" and (
                not row["name"].endswith("_" + row["boot"]) or row["modes"] != "fixed"):
            raise TableError("%s: %s: a workload of the %s shape is named BASE_%s, and runs in "
                             "the fixed modes only" % (where, row["name"], row["boot"], row["boot"]))
        if (row["kind"] == "sweep") != row["name"].startswith("sweep_"):
            raise TableError("%s: %s: a sweep's name starts with sweep_, and only a sweep's" %
                             (where, row["name"]))
        if row["kind"] == "sweep":
            p = sweep_params(row["name"])
            if p is None:
                raise TableError("%s: %s: expected sweep_exit_N_MB_L or sweep_reclaim_N_MB_L "
                                 "(L >= N >= 0, MB and L over 0)" % (where, row["name"]))
            if p[3] != int(row["amount"]):
                raise TableError("%s: %s: amount %s, but its name says %d loops" % (
                    where, row["name"], row["amount"], p[3]))
            if row["modes"] != "fixed" or row["boot"] != "sweep":
                raise TableError("%s: %s: a sweep runs in the fixed modes, in the sweep boot"
                                 % (where, row["name"]))
        if row["name"] in seen:
            raise TableError("%s: %s listed twice" % (where, row["name"]))
        seen.add(row["name"])
        rows.append(row)
    if not rows:
        raise TableError("%s: no workload lines" % path)
    boots = {r["name"]: r["boot"] for r in rows}
    for row in rows:
        shape = SHAPES.get(row["boot"])
        if shape and shape["named"] == "yes":
            base = row["name"][:-len(row["boot"]) - 1]
            boot = boots.get(base)
            if boot is None or base.endswith(tuple("_" + b for b in SHAPES)):
                raise TableError("%s: %s: no workload %s for it to run in the %s shape"
                                 % (path, row["name"], base, row["boot"]))
            want = "prog" if shape["programs"] == "yes" else "mem"
            if boot != want:
                raise TableError("%s: %s: %s boots %s, and the %s shape's boot has no disk%s: "
                                 "only a %s workload runs in it (bench/shapes.tsv's programs "
                                 "column)" % (path, row["name"], base, boot, row["boot"],
                                              "" if want == "prog" else " or programs", want))
    return rows


# the table (read once), or exit 2 with the reason
table = tables.cached(PATH, parse, "workload table")


def names(rows=None, **want):
    """the names of the workloads whose columns have the values asked for"""
    return [r["name"] for r in (rows if rows is not None else table())
            if all(r[k] == v for k, v in want.items())]


def selected(listed, names):
    """The NAMES a WORKLOADS list (its words) selects, in NAMES' order: the
    names it lists less any it excludes (-NAME); a list of exclusions
    only (or none), every name but those."""
    excluded = {w[1:] for w in listed if w.startswith("-")}
    named = {w for w in listed if not w.startswith("-")}
    return [n for n in names if n not in excluded and (not named or n in named)]


# the runs of make bench: QUICK=1's and the default
RUNS = ("quick", "default")


def run_workloads(run, listed, rows=None):
    """The workloads a run (quick or default) asks for, for a WORKLOADS
    list (its words), in the table's order: the names it lists, less any
    it excludes; with no name listed (none, or exclusions only), the
    run's set less the exclusions.  The quick set is the workloads whose
    runs column says quick; the default set adds those that say default
    (a workload that says asked runs only where WORKLOADS names it)."""
    rows = rows if rows is not None else table()
    if any(not w.startswith("-") for w in listed):
        return selected(listed, names(rows))
    want = ("quick",) if run == "quick" else ("quick", "default")
    return selected(listed, [r["name"] for r in rows if r["runs"] in want])


def _list_main(command, what, choices, lister, args):
    """report.py COMMAND WHAT [LIST...]: lister(WHAT, LIST's words), one
    line; a WHAT not among CHOICES is an error"""
    if not args or args[0] not in choices:
        print("report.py %s: expected %s [WORKLOADS...], %s one of %s" %
              (command, what, what, ", ".join(choices)), file=sys.stderr)
        return 2
    print(" ".join(lister(args[0], " ".join(args[1:]).split())))
    return 0


def run_main(args):
    """report.py run-workloads RUN [LIST...]: the names run RUN (quick or
    default) asks for with the WORKLOADS list LIST, one line"""
    return _list_main("run-workloads", "RUN", RUNS, run_workloads, args)


# the boots scripts/bench.sh gives workloads: wall mode's without and with
# the programs archive, and the deterministic modes' (the boot column)
BOOTS = ("wall", "wall-prog") + VALUES["boot"]


def boot_workloads(boot, listed, rows=None):
    """The names one boot runs for a WORKLOADS list (its words; empty:
    every workload), by selected(), in the table's order.  wall: the
    workloads wall mode times (modes det or wall) but the real programs,
    which wall-prog, their own boot with the programs archive, runs; a
    deterministic boot (mem, disk, prog, sweep or a shape): the workloads of
    its boot column that the deterministic modes run (modes det or
    fixed).  A boot is always given names: the guest runs the names it is
    given (every workload with none), it does not read exclusions."""
    rows = rows if rows is not None else table()
    if boot in ("wall", "wall-prog"):
        cand = [r["name"] for r in rows
                if r["modes"] != "fixed" and (r["boot"] == "prog") == (boot == "wall-prog")]
    elif boot in VALUES["boot"]:
        cand = names(rows, boot=boot, modes="det") + names(rows, boot=boot, modes="fixed")
    else:
        raise ValueError("boot %r, expected one of %s" % (boot, ", ".join(BOOTS)))
    return selected(listed, cand)


def boot_main(args):
    """report.py boot-workloads BOOT [LIST...]: the names BOOT runs for
    the WORKLOADS list LIST (its words, however split), one line (empty:
    none); an unknown boot is an error"""
    return _list_main("boot-workloads", "BOOT", BOOTS, boot_workloads, args)


def metric(name):
    """the workload's metric (what it prints), or None"""
    for r in table():
        if r["name"] == name:
            return r["metric"]
    return None


def kind(name):
    for r in table():
        if r["name"] == name:
            return r["kind"]
    return None


def scenarios():
    return names(kind="scenario")


def sweeps():
    return names(kind="sweep")


def is_shared(name):
    """a streaming reader shares the measured CPU: each kernel's counts
    hold a different amount of the reader's work (not like for like)"""
    return name in names(shared="yes")


def main(args):
    """report.py workloads [COLUMN=VALUE...]: the names, one line; an
    unknown column or value is an error"""
    want = {}
    for a in args:
        k, eq, v = a.partition("=")
        if not eq or k not in COLUMNS:
            print("report.py workloads: '%s': expected COLUMN=VALUE, COLUMN one of %s" %
                  (a, " ".join(COLUMNS)), file=sys.stderr)
            return 2
        if k in VALUES and v not in VALUES[k]:
            print("report.py workloads: %s=%s: %s is one of %s" % (k, v, k, ", ".join(VALUES[k])),
                  file=sys.stderr)
            return 2
        want[k] = v
    print(" ".join(names(**want)))
    return 0
