# SPDX-License-Identifier: GPL-2.0
"""The primary family and the smallest effects of interest: bench/primary.tsv
(the cells that get verdict words, fixed before a run) and bench/sesoi.tsv
(each metric's class and SESOI).  A cell naming a workload, mode, metric
or configuration the tables do not know is refused, naming its line."""
import collections
import math
import os

from . import configs, tables, workloads
from .tables import TableError

BENCH = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PRIMARY = os.path.join(BENCH, "primary.tsv")
SESOI = os.path.join(BENCH, "sesoi.tsv")
SESOI_COLUMNS = ("metric", "class", "sesoi")
PRIMARY_COLUMNS = ("workload", "mode", "metric", "config", "base")
# the metrics each deterministic mode's rows carry (ingest.load_det):
# icount has no cache model
MODE_METRICS = {"icount": ("insn1", "insn"),
                "cachesim": ("insn", "l1m", "l2m", "l3m", "mem", "cost", "cost_line")}

# a metric's class and SESOI (a fraction)
Sesoi = collections.namedtuple("Sesoi", "cls sesoi")
# a cell of the family; where: its table line (PATH:LINE)
Cell = collections.namedtuple("Cell", "workload mode metric config base where")


def parse_sesoi(text, path=SESOI):
    """{metric: Sesoi}; TableError for an unknown metric, a repeated one or
    a SESOI that is not a percentage above 0 and below 100"""
    out = {}
    known = {k for ks in MODE_METRICS.values() for k in ks}
    for where, row in tables.lines(text, path, SESOI_COLUMNS, {}):
        m = row["metric"]
        if m not in known or m in out:
            raise TableError("%s: metric '%s', expected a new one of %s" % (
                where, m, ", ".join(sorted(known))))
        try:
            pct = float(row["sesoi"])
        except ValueError:
            pct = math.nan
        if not 0 < pct < 100:
            raise TableError("%s: sesoi '%s', expected a percentage above 0 and below 100" % (
                where, row["sesoi"]))
        if not row["class"]:
            raise TableError("%s: no class" % where)
        out[m] = Sesoi(row["class"], pct / 100)
    return out


def parse_primary(text, sesoi, path=PRIMARY, wls=None, cfgs=None):
    """[Cell] in the table's order; TableError naming the line for a
    workload of no bench/workloads.tsv line, a mode that is not icount or
    cachesim, a metric without a SESOI or not of that mode, a configuration
    or base of no bench/configs.tsv line, a cell against itself, or a cell
    listed twice"""
    wls = set(workloads.names() if wls is None else wls)
    cfgs = set(configs.names() if cfgs is None else cfgs)
    out, seen = [], set()
    for where, row in tables.lines(text, path, PRIMARY_COLUMNS,
                                   {"mode": tuple(MODE_METRICS)}):
        if row["workload"] not in wls:
            raise TableError("%s: workload '%s': not in bench/workloads.tsv" % (
                where, row["workload"]))
        if row["metric"] not in sesoi or row["metric"] not in MODE_METRICS[row["mode"]]:
            raise TableError("%s: metric '%s': not a metric of %s rows with a SESOI (%s)" % (
                where, row["metric"], row["mode"], ", ".join(
                    m for m in MODE_METRICS[row["mode"]] if m in sesoi)))
        for k in ("config", "base"):
            if row[k] not in cfgs:
                raise TableError("%s: %s '%s': not in bench/configs.tsv" % (where, k, row[k]))
        if row["config"] == row["base"]:
            raise TableError("%s: config '%s' against itself" % (where, row["config"]))
        key = tuple(row[k] for k in PRIMARY_COLUMNS)
        if key in seen:
            raise TableError("%s: listed twice" % where)
        seen.add(key)
        out.append(Cell(*key, where))
    if not out:
        raise TableError("%s: no cells" % path)
    return out


sesoi_table = tables.cached(SESOI, parse_sesoi, "SESOI table (bench/sesoi.tsv)")
primary_table = tables.cached(PRIMARY, lambda t: parse_primary(t, sesoi_table()),
                              "primary family (bench/primary.tsv)")
