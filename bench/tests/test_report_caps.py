# SPDX-License-Identifier: GPL-2.0
"""Unit tests of the report on a run whose configurations boot fewer
rounds or fewer modes than the others (bench/configs.tsv's rounds and
modes columns): a capped configuration's intervals pair over its own
rounds, and a configuration of icount alone has icount rows and no
cachesim rows, which the report takes as such (no NOT RUN)."""
import os
import sys
import unittest

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from test_report import FULL, Run, det_row, report, target  # noqa: E402

CONFIGS = report.configs
NOPCP, POWER, LAYOUT = (CONFIGS.role(r) for r in ("no-lists", "power", "layout"))
WL = "pagefault_anon"


def vanilla_l2m(r):
    """vanilla's L2 misses per op in round R: a spread over the rounds,
    so a pairing by anything but the round would show"""
    return 5.0 * (1 + 0.05 * r)


def rows(rounds=6, capped=3):
    """every configuration of a default run on one workload: cachesim
    rounds 1-ROUNDS (the no-lists configuration 1-CAPPED, 20 % more L2
    misses than vanilla in each), their icount rows, power's icount rows
    alone (1 % more instructions)"""
    out = []
    for r in range(1, rounds + 1):
        for mode in ("cachesim", "icount"):
            v = vanilla_l2m(r)
            out += [det_row(mode, WL, c, r, l2m=v) for c in ("vanilla", "hotcold", "hotcold-off",
                                                             LAYOUT)]
            if r <= capped:
                out.append(det_row(mode, WL, NOPCP, r, l2m=v * 1.2))
        out.append(det_row("icount", WL, POWER, r, insn=1010.0, rep=10.0))
    return out + [det_row(m, WL, "vanilla-repeat", 1, l2m=vanilla_l2m(1))
                  for m in ("cachesim", "icount")]


class CappedRun(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.bench = Run(dict(FULL, workloads=WL, det_rounds="6", configs=" ".join(
            ("vanilla", "hotcold", "hotcold-off", NOPCP, LAYOUT, POWER))))
        cls.bench.det(rows())
        cls.rc, cls.lines, cls.err = cls.bench.report()

    def test_it_reports(self):
        self.assertEqual(self.rc, 0, self.err)
        self.assertFalse([x for x in self.lines if "NOT RUN" in x],
                         [x for x in self.lines if "NOT RUN" in x])

    def test_a_capped_configuration_pairs_over_its_own_rounds(self):
        """nopcp/vanilla: 1.200 exactly in each of its 3 rounds (paired
        with vanilla's rounds 1-3 of 6)"""
        row = [x for x in self.lines if x.startswith("| %s | simulated L2 misses/op |" % WL)]
        self.assertEqual(len(row), 1, row)
        cols = [c.strip() for c in row[0].split("|")]
        head = [x for x in self.lines if x.startswith("| workload | metric | rounds |")][0]
        names = [c.strip() for c in head.split("|")]
        ratio = cols[[i for i, n in enumerate(names) if n.startswith(NOPCP)][0]]
        self.assertTrue(ratio.startswith("1.2000 [1.200-1.200]"), (ratio, row[0]))

    def test_icount_alone_is_judged_in_instructions(self):
        self.assertIn(": met on 1 workloads: %s 1.010 [1.010-1.010]" % WL,
                      target(self.lines, "power check"))

    def test_the_layout_aa_is_judged(self):
        self.assertIn("layout A/A: %s" % LAYOUT, "\n".join(self.lines))
        self.assertIn(": met on", target(self.lines, "layout A/A"))



class ArchivedAA(unittest.TestCase):
    def test_the_archived_layout_aa_pairs_are_read(self):
        """the archived runs' layout A/A (vanilla-layout, now the table's
        shifted base) stays report.py calibrate's empirical null"""
        from hcreport import calibration
        shifted = CONFIGS.role("shifted")
        self.assertTrue(shifted)
        runs = [name for name, *_ in calibration.aa_nulls()]
        self.assertIn("20261207-v3-icount8", runs)
        self.assertGreaterEqual(len(runs), 6)


if __name__ == "__main__":
    unittest.main()
