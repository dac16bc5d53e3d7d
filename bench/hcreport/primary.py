# SPDX-License-Identifier: GPL-2.0
"""The primary family's printout (verdicts.py's judgements): the report's
first section, and report.py verdicts RUN, which prints it for a run (an
archived one too) with, on request, cells outside the family as
estimates."""
import math
import sys

from . import family
from .ingest import BASE, InputError, load_all, load_plan
from .tables import TableError
from .archive import history as archived_history
from .verdicts import (D0_MAX, FLOOR, MIN_EVENTS, MIN_ROUNDS, Judgement, estimate,
                       family_verdicts, pair_logs, prior_of, priors)


TABLE_HEAD = ("| workload | metric | ratio | n | df (own, moderated) | per round (log ratio %) "
              "| estimate | 95 % interval | simultaneous (Bonferroni) | SESOI | verdict "
              "| Holm p |")


def ratio(x):
    """a ratio from its log: 4 decimals, in figures where that would be
    unreadable, inf beyond a float (the bound of a cell of 1-2 df and no
    prior, at 1 - 0.05/2K, can be e^1000)"""
    if x > 709:
        return "inf"
    return "%.4f" % math.exp(x) if x < 20 else "%.3g" % math.exp(x)


def pct(x):
    return "%+.2f" % (100 * x)


def judgement_row(j):
    """a table row of the primary printout"""
    c = j.cell
    head = "| %s | %s %s | %s/%s |" % (c.workload, c.mode, c.metric, c.config, c.base)
    if j.logs is None:
        return head + " - | - | - | - | - | - | %.2f %% | no verdict: %s | - |" % (
            100 * j.sesoi, j.why)
    iv = "n/a (no variance)" if j.lo is None else "%s-%s" % (ratio(j.lo), ratio(j.hi))
    siv = "-" if j.slo is None else "%s-%s" % (ratio(j.slo), ratio(j.shi))
    return head + " %d | %d, %s | %s | %.4f | %s | %s | %.2f %% | %s | %s |" % (
        len(j.logs), j.df, "%.1f" % j.df_mod if not math.isinf(j.df_mod) else "inf",
        ", ".join(pct(x) for x in j.logs), math.exp(j.est), iv, siv, 100 * j.sesoi,
        j.verdict or "no verdict: " + j.why, "-" if j.p_adj is None else "%.2g" % j.p_adj)


def prior_text(pri):
    """the moderation's priors (verdicts.priors'), a line each"""
    out = []
    for (mode, wl, key), p in sorted(pri.items()):
        head = "- %s %s %s: " % (mode, wl, key)
        if p.prior is None:
            out.append(head + "none (%d cells, below %d): the cell's own variance" % (
                p.cells, FLOOR))
            continue
        d0 = "%.2f" % p.prior.d0
        if p.prior.d0 < p.prior.d0_moment:
            d0 += " (capped; the moments gave %s)" % (
                "infinity" if math.isinf(p.prior.d0_moment) else "%.1f" % p.prior.d0_moment)
        where = ("the workload's %d cells in %d run%s" % (p.cells, p.runs, "s"[p.runs == 1:])
                 if p.level == "workload" else "the run's %d %s cells, every workload" % (
                     p.cells, key))
        out.append(head + "%s: d0 %s, s0 %.3f %%" % (where, d0, 100 * math.sqrt(p.prior.s02)))
    return out


def primary_lines(det, cells, sesoi, base, min_rounds=MIN_ROUNDS, history=()):
    """the primary family's section of the report (HISTORY: the
    exchangeable archived runs, archive.history's)"""
    js, pri = family_verdicts(det, cells, sesoi, base, min_rounds=min_rounds, history=history)
    tested = sum(1 for j in js if j.verdict)
    lines = ["## The primary family: verdicts", "",
             "The %d cells of bench/primary.tsv, fixed before the run, each against its base, "
             "rounds paired by number.  Per round the log ratio (%%); the estimate is their "
             "geometric mean, the 95 %% interval a t interval on the moderated variance "
             "(empirical Bayes, bench/hcreport/moderate.py, over the workload's cells of "
             "that metric in this run and the exchangeable archived runs where they are "
             "%d or more, else the run's cells of that metric; d0 at most %d; df: the "
             "cell's own n - 1, and the moderated d0 + n - 1).  Verdicts (docs/bench.md, "
             "\"Verdicts\"): `worse` or `better` beyond the SESOI (bench/sesoi.tsv), "
             "`equivalent` within it (TOST), else "
             "`inconclusive`; Holm over the %d hypotheses of the %d cells tested (two each), "
             "p adjusted.  No verdict word with fewer than %d rounds or below %d events in a "
             "round on either side.  The simultaneous interval is Bonferroni's over the "
             "family's %d hypotheses (each cell's at 1 - 0.05/%d, t on the same df): a "
             "word read off it (beyond a margin: worse or better; within both: equivalent) "
             "is one Holm gives, and every cell's covers its truth at once with nominally "
             "97.5 %% probability at least; Holm may say more.  Every other interval in this "
             "report is an estimate without a verdict.%s" % (
                 len(cells), FLOOR, D0_MAX, 2 * tested, tested, min_rounds, MIN_EVENTS,
                 2 * len(cells), 2 * len(cells),
                 "" if min_rounds == MIN_ROUNDS else "  **The rule's %d rounds lowered to %d "
                 "(report.py verdicts --min-rounds): not the rule's verdicts.**" % (
                     MIN_ROUNDS, min_rounds)),
             "", "Priors (%d exchangeable archived run%s):" % (
                 len(history), "s"[len(history) == 1:])] + prior_text(pri) + ["",
             TABLE_HEAD, "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    return lines + [judgement_row(j) for j in js] + [""], js


def extra_lines(det, cells, sesoi, base, history=()):
    """cells outside the family: the same moderated interval (each its
    own pool, as a family cell's), no verdict"""
    pri = priors(det, [(c.mode, c.workload, c.metric) for c in cells], base,
                 family.primary_table(), history)
    out = []
    for cell in cells:
        logs, ev = pair_logs(det.get(cell.mode, {}).get(cell.workload, {}), cell.config,
                             cell.base, cell.metric)
        if logs is None:
            out.append(judgement_row(Judgement(cell, None, None, None, None, None, None, None,
                                               None, sesoi[cell.metric].sesoi, None, ev, None)))
            continue
        s = sesoi[cell.metric]
        j = estimate(cell, logs, ev, prior_of(pri, cell), s.sesoi)
        out.append(judgement_row(j._replace(why="not in the family")))
    return out + ["", "Their priors:"] + prior_text(pri)


USAGE = ("usage: report.py verdicts RUN [--min-rounds N] [WORKLOAD/MODE/METRIC/CONFIG/BASE...]\n"
         "  the primary family's section for RUN; --min-rounds below 4 re-reads an archived\n"
         "  run (said in the output: not the rule); each extra cell an estimate, no verdict")


def parse_cells(args, sesoi):
    """extra cells named WORKLOAD/MODE/METRIC/CONFIG/BASE; ValueError naming a bad one"""
    out = []
    for a in args:
        f = a.split("/")
        if len(f) != 5:
            raise ValueError("%r: expected WORKLOAD/MODE/METRIC/CONFIG/BASE" % a)
        try:
            out += family.parse_primary("\t".join(f) + "\n", sesoi, path=a)
        except TableError as e:
            raise ValueError(str(e)) from None
    return out


def main(argv):
    args = list(argv)
    min_rounds = MIN_ROUNDS
    try:
        if "--min-rounds" in args:
            k = args.index("--min-rounds")
            v = args[k + 1] if k + 1 < len(args) else ""
            if not v.isdigit() or not 2 <= int(v) <= MIN_ROUNDS:
                raise ValueError("--min-rounds %r: expected 2 to %d" % (v, MIN_ROUNDS))
            min_rounds = int(v)
            del args[k:k + 2]
        if not args:
            raise ValueError("no run")
        run, extra = args[0], parse_cells(args[1:], family.sesoi_table())
        plan = load_plan(run)
        det = load_all(run, plan)[0]
    except (ValueError, InputError) as e:
        print("report.py: verdicts: %s\n%s" % (e, USAGE), file=sys.stderr)
        return 2
    hist = archived_history(plan)
    lines, _ = primary_lines(det, family.primary_table(), family.sesoi_table(), BASE,
                             min_rounds, hist)
    if extra:
        head = lines.index(TABLE_HEAD)
        lines += ["Outside the family (estimates, no verdict):", "", lines[head],
                  lines[head + 1]]
        lines += extra_lines(det, extra, family.sesoi_table(), BASE, hist) + [""]
    print("\n".join(lines))
    return 0
