# SPDX-License-Identifier: GPL-2.0
"""The primary family's verdicts: the special functions, the moderation's
prior (a case worked by hand, a simulated set with d0 and s0 known), the
family tables' refusals, the three-way verdicts with Holm, and the
calibration (simulated null and planted runs: its rates must be met)."""
import collections
import math
import os
import random
import statistics
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from hcreport import archive, calibration, family, moderate, verdicts  # noqa: E402
from hcreport.tables import TableError  # noqa: E402


class SpecialFunctions(unittest.TestCase):
    def test_known_values(self):
        g = moderate.EULER
        self.assertAlmostEqual(moderate.digamma(1), -g, places=12)
        self.assertAlmostEqual(moderate.digamma(0.5), -g - 2 * math.log(2), places=12)
        self.assertAlmostEqual(moderate.trigamma(1), math.pi ** 2 / 6, places=12)
        self.assertAlmostEqual(moderate.trigamma(0.5), math.pi ** 2 / 2, places=12)
        # psi(x + 1) = psi(x) + 1 / x across the series' switch at 10
        for x in (0.3, 2.5, 9.9, 10.1, 40.0):
            self.assertAlmostEqual(moderate.digamma(x + 1), moderate.digamma(x) + 1 / x, 12)
            self.assertAlmostEqual(moderate.trigamma(x + 1), moderate.trigamma(x) - 1 / x ** 2, 12)

    def test_trigamma_inverse(self):
        for x in (0.01, 0.5, 1, 3.7, 250):
            self.assertAlmostEqual(moderate.trigamma_inverse(moderate.trigamma(x)) / x, 1, 9)
        with self.assertRaises(ValueError):
            moderate.trigamma_inverse(0)


class Prior(unittest.TestCase):
    def test_by_hand(self):
        """three cells on 2 df with log s^2 = a - b, a, a + b, b^2 = pi^2/3:
        e = log s^2 + gamma, their sample variance b^2, less trigamma(1) =
        pi^2/6 leaves pi^2/6 = trigamma(1), so d0 / 2 = 1, and s0^2 =
        exp(mean e + digamma(1)) = exp(a)"""
        a, b = math.log(0.01), math.pi / math.sqrt(3)
        p = moderate.fit_prior([(math.exp(a - b), 2), (math.exp(a), 2), (math.exp(a + b), 2)])
        self.assertAlmostEqual(p.d0, 2, places=8)
        self.assertAlmostEqual(p.s02, 0.01, places=10)
        s2, df = moderate.posterior(math.exp(a + b), 2, p)
        self.assertAlmostEqual(s2, (2 * 0.01 + 2 * math.exp(a + b)) / 4, places=12)
        self.assertAlmostEqual(df, 4, places=8)
        # a cell with every round alike still has a variance
        self.assertAlmostEqual(moderate.posterior(0.0, 2, p)[0], 0.005, places=12)

    def test_no_spread_beyond_sampling(self):
        """cells whose variances agree more than sampling allows: d0
        infinite, every cell takes s0^2"""
        p = moderate.fit_prior([(0.04, 5)] * 4)
        self.assertTrue(math.isinf(p.d0))
        self.assertEqual(moderate.posterior(0.09, 5, p), (p.s02, math.inf))

    def test_simulated(self):
        """sigma^2 ~ d0 s0^2 / chi^2(d0), s^2 ~ sigma^2 chi^2(d) / d: the
        estimates come back near d0 = 6, s0^2 = 0.0004"""
        rng = random.Random(7)
        cells = []
        for i in range(4000):
            sigma2 = 6 * 0.0004 / rng.gammavariate(3, 2)
            d = 2 + i % 6
            cells.append((sigma2 * rng.gammavariate(d / 2, 2) / d, d))
        p = moderate.fit_prior(cells)
        self.assertLess(abs(p.d0 - 6), 1.2, p)
        self.assertLess(abs(p.s02 / 0.0004 - 1), 0.06, p)

    def test_too_few_cells(self):
        self.assertIsNone(moderate.fit_prior([(0.1, 2), (0.2, 2)]))

    def test_d0_capped(self):
        """where the moments put d0 at infinity (cells alike), or beyond
        the cap, d0 is the cap and s0^2 is taken at it; below the cap the
        moments stand"""
        p = moderate.fit_prior([(0.04, 5)] * 4, d0_max=10)
        self.assertEqual((p.d0, p.d0_moment), (10, math.inf))
        self.assertAlmostEqual(p.s02, 0.04 * math.exp(
            moderate.digamma(10 / 2) - math.log(10 / 2) - moderate.digamma(5 / 2) +
            math.log(5 / 2)), places=12)
        self.assertEqual(moderate.posterior(0.09, 5, p)[1], 15)
        a, b = math.log(0.01), math.pi / math.sqrt(3)
        cells = [(math.exp(a - b), 2), (math.exp(a), 2), (math.exp(a + b), 2)]
        self.assertAlmostEqual(moderate.fit_prior(cells, d0_max=10).d0, 2, places=8)
        p = moderate.fit_prior(cells, d0_max=1)
        self.assertEqual(p.d0, 1)
        self.assertAlmostEqual(p.d0_moment, 2, places=8)


PRIMARY_OK = "x\tcachesim\tmem\thotcold\tvanilla\n"


class Tables(unittest.TestCase):
    def test_committed(self):
        cells = family.primary_table()
        # (about 30-40: issue 46)
        self.assertTrue(30 <= len(cells) <= 45, len(cells))
        self.assertEqual(family.sesoi_table()["insn1"].sesoi, 0.0025)

    def parse(self, text):
        return family.parse_primary("# comment\n" + text, family.sesoi_table(), "p.tsv",
                                    wls={"x"}, cfgs={"vanilla", "hotcold"})

    def test_refused(self):
        self.assertEqual(len(self.parse(PRIMARY_OK)), 1)
        for line, says in (("y\tcachesim\tmem\thotcold\tvanilla", "p.tsv:2: workload 'y'"),
                           ("x\twall\tmem\thotcold\tvanilla", "p.tsv:2: mode 'wall'"),
                           ("x\ticount\tmem\thotcold\tvanilla", "p.tsv:2: metric 'mem'"),
                           ("x\tcachesim\trate\thotcold\tvanilla", "metric 'rate'"),
                           ("x\tcachesim\tmem\thotcould\tvanilla", "config 'hotcould'"),
                           ("x\tcachesim\tmem\thotcold\tvanila", "base 'vanila'"),
                           ("x\tcachesim\tmem\tvanilla\tvanilla", "against itself"),
                           ("x\tcachesim\tmem\thotcold", "columns")):
            with self.assertRaises(TableError) as e:
                self.parse(line + "\n")
            self.assertIn(says, str(e.exception))
        with self.assertRaises(TableError) as e:
            self.parse(PRIMARY_OK * 2)
        self.assertIn("p.tsv:3: listed twice", str(e.exception))

    def test_sesoi_refused(self):
        for text, says in (("insn1\tinstructions\t0\n", "sesoi '0'"),
                           ("l9m\tL9\t1\n", "metric 'l9m'"),
                           ("l1m\tL1D\tone\n", "sesoi 'one'")):
            with self.assertRaises(TableError) as e:
                family.parse_sesoi(text, "s.tsv")
            self.assertIn("s.tsv:1: " + says, str(e.exception))


def run_det(cells_logs, events=1e4):
    """a det of one mode: {workload: [per-round log ratios]} of 'hc' over
    'vanilla' on mem"""
    det = {"cachesim": {}}
    for wl, logs in cells_logs.items():
        det["cachesim"][wl] = {
            "vanilla": {"rounds": {r: {"mem": events, "ops": 1} for r in range(1, len(logs) + 1)}},
            "hc": {"rounds": {r: {"mem": events * math.exp(x), "ops": 1}
                              for r, x in enumerate(logs, 1)}}}
    return det


def cell(wl):
    return family.Cell(wl, "cachesim", "mem", "hc", "vanilla", "t")


def rows(values, key="mem", ops=1):
    """a configuration's rounds: VALUES of KEY, one a round"""
    return {"rounds": {r: {key: v, "ops": ops} for r, v in enumerate(values, 1)}}


def pool_run(n_cfg, ops=1, key="mem", wl="w", sd=0.01, seed=0, extra=()):
    """a det with workload WL: vanilla and N_CFG configurations of 3
    rounds on KEY (and EXTRA keys beside it), their spread SD"""
    rng = random.Random(seed)
    per = {}
    for c in ["vanilla"] + ["c%d" % i for i in range(n_cfg)]:
        per[c] = {"rounds": {r: {k: 1e4 * math.exp(rng.gauss(0, sd)) for k in (key,) + extra}
                             for r in (1, 2, 3)}}
        for m in per[c]["rounds"].values():
            m["ops"] = ops
    return {"cachesim": {wl: per}}


class Pools(unittest.TestCase):
    """the moderation's pools (docs/bench.md, "Verdicts"): per workload and
    metric over the run and the exchangeable archived runs, else the run's
    cells of that metric, else none; FLOOR cells at least"""
    KEY = ("cachesim", "w", "mem")

    def test_the_workload_over_runs(self):
        det = pool_run(4)
        hist = [("h%d" % i, pool_run(4, seed=i + 1)) for i in range(4)]
        p = verdicts.pool(det, self.KEY, "vanilla", [], hist)
        self.assertEqual((p.level, p.cells, p.runs), ("workload", 20, 5))
        self.assertLessEqual(p.prior.d0, verdicts.D0_MAX)
        # fewer than FLOOR: not the workload's pool (and the run has no
        # other workload: none, the cell's own variance)
        p = verdicts.pool(det, self.KEY, "vanilla", [], hist[:3])
        self.assertEqual((p.level, p.prior, p.cells), (None, None, 4))

    def test_another_scale_is_not_pooled(self):
        det = pool_run(4)
        hist = [("h%d" % i, pool_run(4, ops=2 if i == 0 else 1, seed=i + 1)) for i in range(5)]
        p = verdicts.pool(det, self.KEY, "vanilla", [], hist)
        self.assertEqual((p.level, p.cells, p.runs), ("workload", 20, 5))

    def test_the_run_one_metric(self):
        """the run's fallback pools the cell's metric only: cost beside
        cost_line in every row is not counted"""
        det = pool_run(3, key="cost_line", extra=("cost",))
        for i in range(6):
            det["cachesim"].update(pool_run(3, key="cost_line", wl="o%d" % i, seed=9 + i,
                                            extra=("cost",))["cachesim"])
        p = verdicts.pool(det, ("cachesim", "w", "cost_line"), "vanilla", [], [])
        self.assertEqual((p.level, p.cells, p.runs), ("run", 21, 1))

    def test_family_cells_against_another_base(self):
        det = pool_run(2)
        fam = [family.Cell("w", "cachesim", "mem", "c0", "c1", "t"),
               family.Cell("x", "cachesim", "mem", "c0", "c1", "t")]
        self.assertEqual(verdicts.pool(det, self.KEY, "vanilla", fam, []).cells, 3)


class Verdicts(unittest.TestCase):
    SESOI = {"mem": family.Sesoi("memory accesses", 0.05)}

    def judge(self, logs, background=(), events=1e4):
        det = run_det({**logs, **{"bg%d" % i: x for i, x in enumerate(background)}}, events)
        js, _ = verdicts.family_verdicts(det, [cell(w) for w in logs], self.SESOI, "vanilla")
        return {j.cell.workload: j for j in js}

    BG = [[0.01 * math.sin(i + k) for k in range(6)] for i in range(20)]

    def test_four_words(self):
        js = self.judge({"worse": [0.30, 0.31, 0.29, 0.30, 0.32, 0.28],
                         "better": [-0.30, -0.31, -0.29, -0.30, -0.32, -0.28],
                         "equivalent": [0.001, -0.002, 0.0, 0.002, -0.001, 0.0],
                         "inconclusive": [0.05, 0.06, 0.04, 0.05, 0.07, 0.03]}, self.BG)
        for w, j in js.items():
            self.assertEqual(j.verdict, w, j)
            self.assertLessEqual(j.p_adj, 1)

    def test_no_verdict(self):
        js = self.judge({"three": [0.30, 0.31, 0.29], "same": [0.3] * 6}, self.BG)
        self.assertIsNone(js["three"].verdict)
        self.assertIn("3 rounds, below 4", js["three"].why)
        # every round alike: the prior's variance, never a zero-width
        # interval, and no word: the rounds do not sample its variance
        self.assertLess(js["same"].lo, js["same"].est)
        self.assertIsNone(js["same"].verdict)
        self.assertIn("1 distinct round of 6", js["same"].why)
        js = self.judge({"few": [0.3] * 6}, self.BG, events=40)
        self.assertIsNone(js["few"].verdict)
        self.assertIn("too few events", js["few"].why)

    def test_holm_over_the_whole_family(self):
        """a cell the run did not test still counts in the family's
        adjustment: the same cell beside 30 untested ones (one round each,
        which the prior does not pool) is judged against 62 hypotheses,
        not 2"""
        rounds = [0.10, 0.12, 0.08, 0.11, 0.13, 0.07]
        alone = self.judge({"w": rounds}, self.BG)["w"]
        self.assertGreater(alone.p_adj, 0)
        beside = self.judge({"w": rounds, **{"u%d" % k: [0.3] for k in range(30)}},
                            self.BG)["w"]
        self.assertEqual(beside.s2, alone.s2)
        self.assertAlmostEqual(beside.p_adj / alone.p_adj, 31, places=6)

    def test_simultaneous_words_are_holms(self):
        """a word read off the simultaneous interval is the word Holm gives
        (Holm may give more), in families of 1 and 4 cells whose rounds
        put them near the margins"""
        rng = random.Random(5)
        said = 0
        for trial in range(400):
            fam = {"c%d" % i: [rng.gauss(rng.choice((0.0, 0.04, 0.05, 0.06, 0.08)), 0.01)
                               for _ in range(6)] for i in range(1 + 3 * (trial % 2))}
            for j in self.judge(fam, self.BG).values():
                word = verdicts.interval_word(j.slo, j.shi, j.sesoi)
                self.assertTrue(j.slo < j.lo and j.hi < j.shi, j)
                if word:
                    said += 1
                    self.assertEqual(word, j.verdict, j)
        self.assertGreater(said, 50)

    def test_holm(self):
        adj = verdicts.holm([0.01, 0.04, 0.03, 0.005])
        for got, want in zip(adj, [0.03, 0.06, 0.06, 0.02]):
            self.assertAlmostEqual(got, want)

    def test_t_sf(self):
        self.assertAlmostEqual(verdicts.t_sf(4.3027, 2), 0.025, places=5)
        self.assertAlmostEqual(verdicts.t_sf(-4.3027, 2), 0.975, places=5)
        self.assertAlmostEqual(verdicts.t_sf(1.959964, math.inf), 0.025, places=6)
        # the t table's 0.975 quantiles, and df below 1 (one round and a
        # prior of d0 < 1): t(0.5)'s is 161.4 (a Cauchy-like tail)
        for df, q in ((1, 12.7062), (2, 4.3027), (5, 2.5706), (30, 2.0423)):
            self.assertAlmostEqual(verdicts.t975(df), q, places=4)
        # the 0.995 and 0.9995 quantiles (tables)
        self.assertAlmostEqual(verdicts.t_upper(0.005, 10), 3.1693, places=4)
        self.assertAlmostEqual(verdicts.t_upper(0.0005, 5), 6.8688, places=4)
        self.assertAlmostEqual(verdicts.t_upper(0.0005, math.inf), 3.2905, places=4)
        self.assertAlmostEqual(verdicts.t_sf(verdicts.t975(0.4), 0.4), 0.025, places=9)


REPORT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "report.py")
RUN_A = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "run-a")


def cli(*args):
    p = subprocess.run([sys.executable, "-B", REPORT] + list(args), capture_output=True,
                       text=True)
    return p.returncode, p.stdout, p.stderr


class Command(unittest.TestCase):
    def test_prints_the_family(self):
        rc, out, _ = cli("verdicts", RUN_A, "exit_flood/cachesim/l2m/hotcold/vanilla")
        self.assertEqual(rc, 0)
        self.assertTrue(out.startswith("## The primary family: verdicts"), out[:200])
        self.assertIn("| exit_flood | cachesim l2m | hotcold/vanilla | 3 |", out)
        self.assertIn("no verdict: 3 rounds, below 4", out)
        self.assertNotIn("lowered", out)
        # each cell's prior named: the fixture's date is before every
        # archived run, so none is exchangeable with it
        self.assertIn("Priors (0 exchangeable archived runs):", out)
        self.assertRegex(out, r"\n- cachesim exit_flood mem: (the run's \d+ mem cells|none)")

    def test_few_rounds_no_prior(self):
        """the archived QUICK run (2 rounds, too few cells for a prior):
        a bound beyond a float prints as inf, not a crash"""
        rc, out, err = cli("verdicts", os.path.join(archive.RESULTS, "20261207-v4-quick"))
        self.assertEqual(rc, 0, err)
        self.assertRegex(out, r"\| readahead_other_cpu \| cachesim mem \| hotcold/vanilla \| 2 "
                              r"\|.* \| 0\.0000-inf \|")

    def test_refuses(self):
        for args, says in ((("exit_flood/cachesim/l9m/hotcold/vanilla",), "metric 'l9m'"),
                           (("--min-rounds", "1"), "--min-rounds '1'"),
                           (("exit_flood/cachesim",), "expected WORKLOAD/MODE")):
            rc, out, err = cli("verdicts", RUN_A, *args)
            self.assertEqual((rc, out), (2, ""))
            self.assertIn(says, err)

    def test_calibrate_refuses_few_families(self):
        for args, says in ((("--families", "5"), "--families 5: fewer than 20"),
                           (("--since", "yesterday"), "--since 'yesterday': expected a date")):
            rc, out, err = cli("calibrate", *args)
            self.assertEqual((rc, out), (2, ""))
            self.assertIn(says, err)


class Calibration(unittest.TestCase):
    """the fast calibration: 30 simulated runs a scenario, sds from three
    archived runs"""

    @classmethod
    def setUpClass(cls):
        runs = ("20261207-v3-icount8", "20261207-v3-default", "20261206-v3-smp-programs")
        cls.model = calibration.archive_model(
            tuple(os.path.join(archive.RESULTS, r, "det.csv") for r in runs))

    def test_rates(self):
        """without the run effect (the archive's is the command's to
        judge): the criteria of issue 46 met, and the plant caught more
        often the larger it is"""
        r = calibration.run(30, 3, self.model, run_effect=False)
        nul, bnd, top = r["null"], r["sesoi"], r[max(calibration.PLANTS)]
        self.assertLessEqual(nul["alarms"], 0.05 * nul["families"], nul)
        self.assertLessEqual(bnd["eq_families"], 0.05 * bnd["families"], bnd)
        self.assertGreater(bnd["boundary"], 0, bnd)
        # the cells the default plan gives fewer rounds than the rule
        # needs (the programs' and ccd8prog's: PROG_ROUNDS) are never
        # called; every other planted cell is, in 90 % of runs at least
        self.assertGreater(top["short"], 0, top)
        self.assertGreaterEqual(top["caught_runs"], 0.9 * top["families"], top)
        self.assertEqual(top["caught"], top["planted"] - top["short"], top)
        self.assertTrue(0.9 <= top["covered"] / top["planted"] <= 0.99, top)
        self.assertTrue(0.9 <= nul["null_covered"] / nul["null_cells"] <= 0.99, nul)
        self.assertEqual(sum(nul["t%d" % i] for i in range(3)), nul["null_cells"])
        caught = [r[k]["caught"] for k in calibration.PLANTS]
        self.assertLess(caught[0], caught[1], caught)
        self.assertLessEqual(caught[1], caught[2], caught)
        self.assertEqual([calibration.judged(r)[i][1] for i in range(4)], [True] * 4)
        # Bonferroni's simultaneous intervals cover every cell at once in
        # nominally 97.5 % of runs at least (93 % measured at 200 runs:
        # the noisiest cells' per-cell intervals cover 91 %)
        self.assertGreaterEqual(nul["sim_all"], 0.8 * nul["families"], nul)

    def test_counting(self):
        """the counters against an adjustment that rejects every hypothesis
        of one kind: every tested cell `equivalent` (at the SESOI: a false
        word in every run), or every one directional (a false alarm in
        every null run, the plant caught in all its cells)"""
        eq = calibration.run(20, 1, self.model, scenarios=("sesoi",), run_effect=False,
                             adjust=lambda ps: [float(i % 2 == 0) for i in range(len(ps))])
        self.assertEqual(eq["sesoi"]["eq_families"], 20)
        self.assertGreater(eq["sesoi"]["eq_cells"], 0.5 * eq["sesoi"]["boundary"])
        self.assertEqual(eq["sesoi"]["alarms"], 0)
        top = max(calibration.PLANTS)
        d = calibration.run(20, 1, self.model, scenarios=("null", top), run_effect=False,
                            adjust=lambda ps: [0.0] * len(ps))
        self.assertEqual((d["null"]["alarms"], d[top]["caught_runs"]), (20, 20))
        self.assertEqual(d[top]["caught"], d[top]["planted"] - d[top]["short"])
        # one cell called (the first hypothesis rejected alone): a run with
        # more planted cells that can get a word has not caught the plant
        one = calibration.run(20, 1, self.model, scenarios=(top,), run_effect=False,
                              adjust=lambda ps: [0.0] + [1.0] * (len(ps) - 1))
        self.assertEqual((one[top]["caught"], one[top]["caught_runs"]), (20, 0))

    def test_scenarios(self):
        """at the SESOI the series lies on the boundary against vanilla and
        against single, single at 1; a plant moves the planted cells'
        configurations alone"""
        cells = [family.Cell("w", "cachesim", "mem", "hotcold", "vanilla", "t"),
                 family.Cell("w", "cachesim", "mem", "single", "vanilla", "t"),
                 family.Cell("w", "cachesim", "mem", "hotcold", "single", "t")]
        m = math.log1p(0.05)
        shift = calibration.scenario_shift(cells, self.model, "sesoi", -1)
        self.assertEqual(shift, {("cachesim", "w", "mem", "hotcold"): -m})
        shift = calibration.scenario_shift(cells, self.model._replace(sds={}, pools={
            ("cachesim", "mem"): [0.01]}), 2, 1)
        self.assertEqual(shift, {("cachesim", "w", "mem", "hotcold"): 2 * m,
                                 ("cachesim", "w", "mem", "single"): 2 * m})

    def test_between_run_sd(self):
        # run means 0, 0.1, 0.2 (variance 0.01); rounds explain 0.0036
        self.assertAlmostEqual(calibration.between_run_sd(
            [(0.0, 0.0108, 3), (0.1, 0.0108, 3), (0.2, 0.0108, 3)]), 0.08, places=12)
        self.assertEqual(calibration.between_run_sd([(0.0, 0.3, 3), (0.1, 0.3, 3)]), 0.0)

    def test_run_effect(self):
        """a run shifts each configuration's rounds alike: the spread of the
        run means is the cell's between-run sd, and the pair against
        another base keeps its own through the shared factor"""
        cells = [family.Cell("w", "cachesim", "mem", "hotcold", "vanilla", "t"),
                 family.Cell("w", "cachesim", "mem", "single", "vanilla", "t"),
                 family.Cell("w", "cachesim", "mem", "hotcold", "single", "t")]
        k = ("cachesim", "w", "mem")
        model = calibration.Model(
            {k + ("hotcold", "vanilla"): 1e-4, k + ("single", "vanilla"): 1e-4,
             k + ("hotcold", "single"): 1e-4},
            {("cachesim", "mem"): [1e-4]},
            {k + ("hotcold", "vanilla"): 0.1, k + ("single", "vanilla"): 0.1,
             k + ("hotcold", "single"): 0.05}, {},
            {"cachesim": 2, "icount": 2, "configs": ["vanilla", "hotcold", "single"]})
        rng = random.Random(1)
        means = collections.defaultdict(list)
        for _ in range(3000):
            per = calibration.simulate(rng, cells, model)["cachesim"]["w"]
            for c, b in (("hotcold", "vanilla"), ("hotcold", "single")):
                means[c + "/" + b].append(statistics.fmean(verdicts.pair_logs(
                    per, c, b, "mem")[0]))
        self.assertAlmostEqual(statistics.stdev(means["hotcold/vanilla"]), 0.1, delta=0.005)
        self.assertAlmostEqual(statistics.stdev(means["hotcold/single"]), 0.05, delta=0.003)
        per = calibration.simulate(rng, cells, model, run_effect=False)["cachesim"]["w"]
        self.assertLess(abs(statistics.fmean(verdicts.pair_logs(
            per, "hotcold", "vanilla", "mem")[0])), 0.001)

    def test_judged(self):
        """the criteria at their edges (200 runs: 10 alarms met, 11
        missed; 180 runs caught met, 179 missed)"""
        def rates(alarms=10, eq=10, caught=180, covered=1900):
            c = collections.Counter
            return {"null": c(families=200, alarms=alarms), "sesoi": c(families=200,
                                                                       eq_families=eq),
                    max(calibration.PLANTS): c(families=200, caught_runs=caught, planted=2000,
                                               covered=covered)}
        self.assertEqual([ok for _, ok in calibration.judged(rates())], [True] * 4)
        for kw, i in (({"alarms": 11}, 0), ({"eq": 11}, 1), ({"caught": 179}, 2),
                      ({"covered": 1880}, 3)):
            got = [ok for _, ok in calibration.judged(rates(**kw))]
            self.assertEqual(got, [j != i for j in range(4)], kw)

    def test_aa_counted_where_the_rule_applies(self):
        lines = calibration.aa_lines([("run3", 15, 0, [], 2), ("run8", 15, 4, ["x mem worse"], 1)])
        self.assertIn("counted where the rule gives a word: run8: 4 cells with a word, "
                      "1 better/worse (x mem worse)", lines[0])
        self.assertNotIn("run3", lines[0])
        self.assertIn("run3 (15 intervals, 2 miss 1)", lines[1])

    def test_plan_rounds(self):
        """each cell at the rounds the default plan gives its boot, each
        configuration at its own (nopcp: 3)"""
        rounds = calibration.plan_rounds(family.primary_table())
        self.assertEqual((rounds[("cachesim", "exit_flood")], rounds[("icount", "exit_flood")],
                          rounds[("cachesim", "readahead_other_cpu")],
                          rounds[("icount", "readahead_other_cpu")]), (6, 10, 6, 6))
        for wl in ("fileserver", "sqlite", "compile_ccd8prog"):
            self.assertEqual(rounds[("cachesim", wl)], 3, wl)
        self.assertEqual(rounds[("cachesim", "exit_flood", "nopcp")], 3)
        self.assertEqual(rounds[("cachesim", "exit_flood", "power")], 0)
        self.assertIn("vanilla-b", rounds["configs"])


if __name__ == "__main__":
    unittest.main()
