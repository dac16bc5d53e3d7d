# SPDX-License-Identifier: GPL-2.0
"""The archived runs (docs/results/*/, each with its plan and det.csv),
and which of them are exchangeable with a run: samples of the same
population of rounds, whose variances the moderation may pool with the
run's (verdicts.py; docs/bench.md, "Verdicts").

An archived run is exchangeable with the run judged when:
- it was made before it (the plans' dates): a run's prior never changes
  when a later run is archived, so its verdicts stay what they were;
- on the same cache geometry and configuration base (lean or distro);
- with its rounds drawn the same way: the fixed seeds and workload order
  of the runs before issue 46, or drawn from a run seed (the drawn order
  puts the history before each workload inside the rounds' spread, so a
  drawn run's variances are larger than a fixed one's, and pooling the
  two would shrink them).
Per workload, verdicts.py also asks for the same operations per round
(the same SCALE)."""
import functools
import glob
import os

from .ingest import InputError, load_all, load_plan

RESULTS = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "docs", "results")


@functools.lru_cache(maxsize=4)
def archived(paths=None):
    """((directory, plan, det), ...) of each archived run that loads
    (PATHS: a tuple of their det.csv files; default every one under
    docs/results/)"""
    out = []
    for path in paths or sorted(glob.glob(os.path.join(RESULTS, "2026*", "det.csv"))):
        d = os.path.dirname(path)
        try:
            plan = load_plan(d)
            out.append((d, plan, load_all(d, plan)[0]))
        except InputError:
            continue
    return tuple(out)


def draws(plan):
    """how a run drew its rounds: 'fixed' (no run seed, or RUN_SEED=fixed)
    or 'drawn'"""
    return "fixed" if plan.get("run_seed", "") in ("", "fixed") else "drawn"


def exchangeable(plan, other):
    """whether the archived run of plan OTHER is exchangeable with PLAN's
    run (the module's rule; a plan without a date has no before)"""
    return bool(plan.get("date") and other.get("date") and other["date"] < plan["date"] and
                other.get("run") != plan.get("run") and
                other.get("geometry") == plan.get("geometry") and
                other.get("config_base") == plan.get("config_base") and
                draws(other) == draws(plan))


def history(plan, runs=None):
    """[(name, det)] of the archived runs (RUNS: archived()'s) exchangeable
    with PLAN's run, newest first"""
    runs = archived() if runs is None else runs
    return [(os.path.basename(d), det) for d, p, det in
            sorted(runs, key=lambda x: x[1].get("date", ""), reverse=True)
            if exchangeable(plan, p)]
