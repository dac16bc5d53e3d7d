# SPDX-License-Identifier: GPL-2.0
"""The README's findings table, computed from the archived runs it cites:
docs/findings.tsv names each claim's run and cell, and this module prints
the table (claim, estimate [95 %], rounds, verdict, results page) under
the rule of docs/bench.md, "Verdicts".  A cell of the primary family
(bench/primary.tsv) gets the family's verdict in its run; any other cell
its moderated interval and no verdict word.  The README carries the
output between its findings markers, and a unit test fails when the two
differ, so the README cannot drift from the archive.

usage: report.py findings [TABLE]   (default: docs/findings.tsv)"""
import math
import os
import sys

from . import family, tables
from .ingest import BASE, InputError, load_all, load_plan
from .primary import parse_cells
from .tables import TableError
from .archive import history
from .verdicts import estimate, family_verdicts, pair_logs, prior_of, priors

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TABLE = os.path.join(ROOT, "docs", "findings.tsv")
COLUMNS = ("claim", "run", "cell", "page")
BEGIN, END = "<!-- findings: begin (report.py findings) -->", "<!-- findings: end -->"


def parse(text, path=TABLE):
    """[(claim, run, Cell, page)]; TableError naming a bad line"""
    sesoi, out = family.sesoi_table(), []
    for where, row in tables.lines(text, path, COLUMNS, {}):
        try:
            cell, = parse_cells([row["cell"]], sesoi)
        except ValueError as e:
            raise TableError("%s: %s" % (where, e)) from None
        for k in ("run", "page"):
            if not os.path.exists(os.path.join(ROOT, row[k])):
                raise TableError("%s: %s '%s': no such file or directory" % (where, k, row[k]))
        out.append((row["claim"], row["run"], cell, row["page"]))
    if not out:
        raise TableError("%s: no finding" % path)
    return out


def judged(run, cell, cache):
    """the Judgement of CELL in RUN (an archived run's directory): the
    family's, or an estimate for a cell outside it"""
    if run not in cache:
        path = os.path.join(ROOT, run)
        plan = load_plan(path)
        det, hist = load_all(path, plan)[0], history(plan)
        cache[run] = (det, hist) + family_verdicts(det, family.primary_table(),
                                                   family.sesoi_table(), BASE, history=hist)
    det, hist, js, _ = cache[run]
    for j in js:
        c = j.cell
        if (c.workload, c.mode, c.metric, c.config, c.base) == cell[:5]:
            return j, True
    logs, ev = pair_logs(det.get(cell.mode, {}).get(cell.workload, {}), cell.config, cell.base,
                         cell.metric)
    if logs is None:
        return None, False
    pri = priors(det, [(cell.mode, cell.workload, cell.metric)], BASE,
                 family.primary_table(), hist)
    return estimate(cell, logs, ev, prior_of(pri, cell),
                    family.sesoi_table()[cell.metric].sesoi), False


def row(claim, run, cell, page, cache):
    j, in_family = judged(run, cell, cache)
    where = "[%s](%s)" % (os.path.basename(page.rstrip("/")), page)
    if j is None or j.logs is None:
        return "| %s | no rows in the run | - | - | %s |" % (claim, where)
    iv = "" if j.lo is None else " [%.4f-%.4f]" % (math.exp(j.lo), math.exp(j.hi))
    if not in_family:
        word = "estimate (not in the family)"
    elif j.verdict:
        word = "**%s** (SESOI %.2g %%, p %.2g)" % (j.verdict, 100 * j.sesoi, j.p_adj)
    else:
        word = "no verdict: %s" % j.why
    return "| %s | %.4f%s | %d | %s | %s |" % (claim, math.exp(j.est), iv, len(j.logs), word,
                                              where)


def render(path=TABLE):
    """the table's lines"""
    with open(path) as f:
        found = parse(f.read(), path)
    cache = {}
    lines = ["| claim | ratio [95 %] | rounds | verdict | results |", "|---|---|---|---|---|"]
    return lines + [row(*x, cache) for x in found]


def main(argv):
    if len(argv) > 1:
        print(__doc__.split("usage: ")[1], file=sys.stderr)
        return 2
    try:
        print("\n".join(render(argv[0] if argv else TABLE)))
    except (OSError, TableError, InputError) as e:
        print("report.py: findings: %s" % e, file=sys.stderr)
        return 2
    return 0
