# SPDX-License-Identifier: GPL-2.0
"""Unit tests of the configuration table, bench/configs.tsv, and its
reader, bench/hcreport/configs.py: every rule of the table refuses a
fixture that breaks it (the fixtures' names are not the real ones: the
reader has none built in), CONFIGS picks from it as scripts/bench.sh
needs, and the real table holds: its kernels are flavours
scripts/lib.sh builds without test code, and what scripts/lib.sh's
bench_kernel and scripts/tree.sh read of it."""
import contextlib
import io
import os
import subprocess
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True     # no __pycache__ beside the scripts
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "bench"))

from hcreport import configs  # noqa: E402
from hcreport.configs import COLUMNS, SelectError, TableError  # noqa: E402

# a table of its own: name, kernel, source, patch, append, switch, pcp,
# modes, rounds, role, sets, what
GOOD = [
    ("base", "vanilla", "baseline", "-", "-", "none", "on", "det", "-", "base",
     "default,quick,programs,sweeps,shapes,residency", "the baseline"),
    ("base-again", "vanilla", "baseline", "-", "-", "none", "on", "det", "-", "repeat", "-",
     "the base booted again"),
    ("series", "hotcold-bench", "series", "-", "-", "1", "on", "det", "-", "series",
     "default,quick,programs,sweeps,shapes", "the series"),
    ("series-off", "hotcold-bench", "series", "-", "hot_cold=0", "0", "on", "det", "-", "switch-off",
     "default,quick", "the series, switch at 0"),
    ("lists-off", "nopcp", "baseline", "bench/alternatives/nopcp.patch", "-", "none", "off",
     "det", "3", "no-lists", "default,programs", "no per-cpu lists"),
    ("shifted", "layout", "baseline", "bench/alternatives/layout.patch", "-", "none", "on",
     "fixed", "-", "shifted", "-", "the base shifted"),
    ("base-b", "vanilla", "baseline", "-", "-", "none", "on", "fixed", "-", "layout", "default",
     "the base relinked apart"),
    ("costly", "power", "baseline", "bench/alternatives/power.patch", "-", "none", "on",
     "icount", "-", "power", "-", "the base with a known cost"),
]


def text(rows):
    return "# SPDX-License-Identifier: GPL-2.0\n# a comment\n\n" + \
        "".join("\t".join(r) + "\n" for r in rows)


def changed(which, **cols):
    """GOOD with the columns of the row named WHICH changed"""
    out = []
    for r in GOOD:
        d = dict(zip(COLUMNS, r))
        if d["name"] == which:
            d.update(cols)
        out.append(tuple(d[k] for k in COLUMNS))
    return out


def parse(rows):
    return configs.parse(text(rows), path="t.tsv")


class Rules(unittest.TestCase):
    """Each rule of configs.parse(), broken once."""

    def refused(self, rows, says):
        with self.assertRaises(TableError) as e:
            parse(rows)
        self.assertIn(says, str(e.exception))

    def test_the_fixture_parses(self):
        rows = parse(GOOD)
        self.assertEqual([r["name"] for r in rows], [r[0] for r in GOOD])
        self.assertEqual(rows[3]["append"], "hot_cold=0")

    def test_columns(self):
        self.refused(GOOD + [GOOD[2][:-1]], "t.tsv:12: 11 tab-separated columns, expected 12")

    def test_a_name_twice(self):
        self.refused(GOOD + [GOOD[2]], "t.tsv:12: series listed twice (first at t.tsv:6)")

    def test_names_and_kernels(self):
        self.refused(changed("series", name="Series"), "name 'Series'")
        self.refused(changed("series", name="series:x"), "name 'series:x'")
        self.refused(changed("series", kernel=""), "kernel ''")

    def test_unknown_values(self):
        for col, value in (("source", "upstream"), ("switch", "2"), ("pcp", "yes"),
                           ("modes", "wall"), ("role", "main")):
            with self.subTest(column=col):
                self.refused(changed("series", **{col: value}),
                             "%s '%s', expected one of" % (col, value))

    def test_patch(self):
        self.refused(changed("lists-off", patch="patches/0001-x.patch"),
                     "patch 'patches/0001-x.patch', expected bench/alternatives/NAME.patch")
        self.refused(changed("lists-off", patch="bench/alternatives/none.patch"),
                     "patch bench/alternatives/none.patch: no such file")

    def test_append_is_one_word_without_colon(self):
        self.refused(changed("series-off", append="a=0 b=1"), "append 'a=0 b=1'")
        self.refused(changed("series-off", append="a:0"), "append 'a:0'")

    def test_the_switch_comes_with_the_series(self):
        self.refused(changed("base", switch="1"), "base: switch 1 on a baseline kernel")
        self.refused(changed("series", switch="none"), "series: switch none on a series kernel")

    def test_sets(self):
        self.refused(changed("series", sets="default,fast"), "sets 'default,fast'")
        self.refused(changed("series", sets="quick,quick"), "sets 'quick,quick'")
        self.refused(changed("series", sets=""), "sets ''")

    def test_one_kernel_one_build(self):
        self.refused(changed("series-off", patch="bench/alternatives/layout.patch"),
                     "series-off: kernel hotcold-bench from series with patch "
                     "bench/alternatives/layout.patch, but series's")
        self.refused(changed("shifted", kernel="nopcp"), "one kernel, one build")

    def test_one_base_in_every_set(self):
        self.refused(changed("base", role="-"), "0 lines of role base")
        self.refused(changed("series", role="base"), "2 lines of role base (base series)")
        self.refused(changed("base", sets="default,quick,programs"),
                     "the base, base, must be in every set, mode and round")
        self.refused(changed("base", modes="fixed"), "not in modes fixed")
        self.refused(changed("base", rounds="3"), "not in rounds beyond 3")

    def test_the_repeat_boots_as_the_base(self):
        for col, value in (("append", "x=1"), ("kernel", "layout"), ("pcp", "off"),
                           ("sets", "default"), ("rounds", "1")):
            with self.subTest(column=col):
                rows = changed("base-again", **{col: value})
                if col == "kernel":
                    rows = changed("base-again", kernel="layout",
                                   patch="bench/alternatives/layout.patch")
                self.refused(rows, "base-again, the repeat, boots as the base's round 1")

    def test_one_repeat_one_layout(self):
        self.refused(GOOD + [("again2",) + GOOD[1][1:]], "2 lines of role repeat")
        self.refused(changed("lists-off", role="layout"), "2 lines of role layout")

    def test_the_roles_the_report_judges(self):
        self.refused(changed("series", role="-"), "0 lines of role series (), expected one")
        self.refused(changed("series-off", role="-"), "0 lines of role switch-off")
        self.refused(changed("lists-off", role="switch-off"), "2 lines of role switch-off")
        self.refused(changed("series", switch="0"), "series, the series, must boot with its "
                     "switch at 1 and no patch")
        self.refused(changed("series-off", switch="1"), "series-off, the switch-off, must "
                     "boot the series' kernel (hotcold-bench) with its switch at 0")
        self.refused(changed("lists-off", pcp="on"), "lists-off, the no-lists configuration, "
                     "must have its pcp lists off")
        # no no-lists, repeat or layout line: a table still
        self.assertEqual(len(parse([r for r in GOOD if r[9] in ("base", "series", "switch-off")])),
                         3)

    def test_the_layout_aa_is_the_bases_kernel_under_a_name_of_its_own(self):
        for col, value in (("append", "x=1"), ("pcp", "off")):
            with self.subTest(column=col):
                self.refused(changed("base-b", **{col: value}),
                             "base-b, the layout A/A, boots the base's kernel relinked under "
                             "its own name")
        self.refused(changed("base-b", kernel="layout", patch="bench/alternatives/layout.patch"),
                     "base-b, the layout A/A, boots the base's kernel")
        rows = [r if r[0] != "base-b" else ("nopcp",) + r[1:] for r in GOOD]
        self.refused(rows, "nopcp, the layout A/A, boots the base's kernel relinked under its "
                     "own name: the base's kernel, append, switch, pcp, and a name no kernel has")

    def test_the_shifted_base(self):
        rows = changed("shifted", role="shifted")
        self.assertEqual(configs.role("shifted", parse(rows)), "shifted")
        self.refused(rows + [("shifted2", "nopcp", "baseline", "bench/alternatives/nopcp.patch",
                              "-", "none", "off", "fixed", "-", "shifted", "-", "again")],
                     "2 lines of role shifted")
        self.refused(changed("shifted", role="shifted", kernel="vanilla", patch="-"),
                     "shifted, the shifted base, must be the baseline with a bench-only patch "
                     "(its shift)")

    def test_rounds(self):
        for bad in ("0", "21", "03", "x", "", "1.5", "٣"):
            with self.subTest(rounds=bad):
                self.refused(changed("lists-off", rounds=bad),
                             "lists-off: rounds '%s', expected - (the run's) or a number" % bad)
        rows = parse(changed("lists-off", rounds="20"))
        self.assertEqual([configs.rounds_of(r, 6) for r in rows], [6] * 8)
        self.assertEqual([configs.rounds_of(r, 10) for r in parse(GOOD)], [10] * 4 + [3, 10, 10, 10])

    def test_the_modes_each_boots(self):
        rows = {r["name"]: r for r in parse(GOOD)}
        self.assertEqual([m for m in ("wall", "icount", "cachesim")
                          if configs.boots_in(rows["costly"], m)], ["icount"])
        self.assertEqual([m for m in ("wall", "icount", "cachesim")
                          if configs.boots_in(rows["shifted"], m)], ["icount", "cachesim"])
        self.assertTrue(all(configs.boots_in(rows["base"], m) for m in ("wall", "icount",
                                                                       "cachesim")))

    def test_no_lines(self):
        self.refused([], "t.tsv: no configuration lines")

    def test_what(self):
        self.refused(changed("series", what=" "), "series: no what")


class Select(unittest.TestCase):
    """CONFIGS against the fixture table, as the run's plan selects them"""

    rows = parse(GOOD)

    def select(self, listed, quick=False):
        return [r["name"] for r in configs.select(listed, quick, self.rows)]

    def refused(self, listed, says):
        with self.assertRaises(SelectError) as e:
            self.select(listed)
        self.assertIn(says, str(e.exception))

    def test_defaults(self):
        self.assertEqual(self.select(""), ["base", "series", "series-off", "lists-off",
                                           "base-b"])
        self.assertEqual(self.select(" \t", quick=True), ["base", "series", "series-off"])

    def test_a_list_in_its_order(self):
        self.assertEqual(self.select("series\tbase  shifted", quick=True),
                         ["series", "base", "shifted"])

    def test_unknown_names(self):
        # a name is a word of the table: not a pattern, a prefix, or the repeat
        for bad in ("bogus", "series.off", "ser", "base-again"):
            with self.subTest(name=bad):
                self.refused("base " + bad, "unknown configuration '%s' in CONFIGS -- "
                             "configurations are (bench/configs.tsv): base series series-off "
                             "lists-off shifted" % bad)

    def test_a_name_twice(self):
        self.refused("base series series", "CONFIGS=base series series: 'series' twice")

    def test_without_the_base(self):
        self.refused("series shifted", "CONFIGS=series shifted: base is the baseline every "
                     "ratio needs -- add it")

    def test_kernel_lines(self):
        self.assertEqual(configs.kernel_lines(self.rows), [
            "vanilla baseline -", "hotcold-bench series -",
            "nopcp baseline bench/alternatives/nopcp.patch",
            "layout baseline bench/alternatives/layout.patch",
            "power baseline bench/alternatives/power.patch"])

    def test_expected_state(self):
        self.assertEqual(configs.expected_state("series-off", self.rows), ("0", False))
        self.assertEqual(configs.expected_state("lists-off", self.rows), ("none", True))
        self.assertIsNone(configs.expected_state("bogus", self.rows))

    def test_names_by_column_and_set(self):
        self.assertEqual(configs.names(self.rows, sets="programs"), ["base", "series",
                                                                     "lists-off"])
        self.assertEqual(configs.names(self.rows, source="series", modes="det"),
                         ["series", "series-off"])
        self.assertEqual(configs.role("layout", self.rows), "base-b")
        self.assertIsNone(configs.role("repeat", parse([r for r in GOOD if r[9] != "repeat"])))


class CommandLine(unittest.TestCase):
    """report.py configs, in process (the real table)."""

    def main(self, *args):
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            rc = configs.main(list(args))
        return rc, out.getvalue(), err.getvalue()

    def test_usage(self):
        for args in (("bench", "yes", ""), ("bench",), ("kernel=x", "bogus"), ("switch=2",),
                     ("what=x",)):
            with self.subTest(args=args):
                rc, out, err = self.main(*args)
                self.assertEqual((rc, out), (2, ""))
                self.assertTrue(err)


def lib_sh(script):
    """bash: scripts/lib.sh sourced, then SCRIPT; (status, stdout, stderr)"""
    with tempfile.TemporaryDirectory() as build:
        p = subprocess.run(["bash", "-c", '. "%s/scripts/lib.sh"; %s' % (ROOT, script)],
                           env=dict(PATH=os.environ["PATH"], BUILD=build,
                                    PYTHONDONTWRITEBYTECODE="1"),
                           capture_output=True, text=True, timeout=60)
        files = [f for _, _, fs in os.walk(build) for f in fs]
    return p.returncode, p.stdout, p.stderr, files


class TheTable(unittest.TestCase):
    """bench/configs.tsv itself, and the scripts that read it."""

    @classmethod
    def setUpClass(cls):
        with open(configs.PATH) as f:
            cls.rows = configs.parse(f.read())
        rc, out, err, _ = lib_sh('echo "$FLAVOURS"; echo "$KUNIT_FLAVOURS"; '
                                 'echo "$SERIES_BRANCH $BASELINE_TAG"')
        if rc:
            raise AssertionError(err)
        flavours, tests, refs = out.splitlines()
        cls.flavours, cls.test_flavours = flavours.split(), tests.split()
        cls.refs = dict(zip(("series", "baseline"), refs.split()))

    def test_every_kernel_is_a_flavour_without_test_code(self):
        for r in self.rows:
            with self.subTest(config=r["name"]):
                self.assertIn(r["kernel"], self.flavours,
                              "%s boots kernel %s, which is not one of scripts/lib.sh's FLAVOURS"
                              % (r["name"], r["kernel"]))
                self.assertNotIn(r["kernel"], self.test_flavours,
                                 "%s boots kernel %s, a test flavour (KUnit): a measured kernel "
                                 "carries no test code" % (r["name"], r["kernel"]))

    def test_the_report_reads_its_roles(self):
        import report  # noqa: F401 (bench/report.py: the report's own import)
        self.assertEqual(report.BASE, configs.role("base", self.rows))
        self.assertEqual(report.REPEAT, configs.role("repeat", self.rows))
        self.assertEqual(report.LAYOUT, configs.role("layout", self.rows))

    def test_bench_kernel_reads_the_patches(self):
        # lib.sh's bench_kernel (scripts/build-kernel.sh, scripts/tree.sh)
        for line in configs.kernel_lines(self.rows):
            kernel, source, patch = line.split()
            with self.subTest(kernel=kernel):
                rc, out, err, _ = lib_sh("bench_kernel %s" % kernel)
                self.assertEqual(rc, 0, err)
                want = "" if patch == "-" else "%s %s/%s\n" % (self.refs[source], ROOT, patch)
                self.assertEqual(out, want)
        rc, out, err, _ = lib_sh("bench_kernel debug; bench_kernel bogus")
        self.assertEqual((rc, out), (0, ""), err)

    def test_tree_sh_refuses_an_unknown_alternative(self):
        alts = [line.split()[0] for line in configs.kernel_lines(self.rows)
                if not line.endswith(" -")]
        self.assertTrue(alts)
        rc, out, err, files = lib_sh('bash "$ROOT/scripts/tree.sh" alt bogus')
        self.assertEqual(rc, 1)
        self.assertIn("unknown bench alternative 'bogus' -- alternatives are "
                      "(bench/configs.tsv's kernels with a patch): " + " ".join(alts), err)
        self.assertEqual(files, [], "tree.sh wrote files before refusing")


if __name__ == "__main__":
    unittest.main()
