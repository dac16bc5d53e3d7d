# SPDX-License-Identifier: GPL-2.0
"""The README's findings table (bench/hcreport/findings.py): the README
carries exactly what report.py findings prints from docs/findings.tsv and
the archived runs, a family cell gets the family's verdict and any other
cell an estimate, and a bad line of the table is refused by name."""
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from hcreport import findings  # noqa: E402
from hcreport.tables import TableError  # noqa: E402

RUN = "docs/results/20261207-v3-icount8"
PAGE = RUN + "/"


class Readme(unittest.TestCase):
    def test_the_readme_carries_the_table_as_the_archive_gives_it(self):
        with open(os.path.join(findings.ROOT, "README.md")) as f:
            text = f.read()
        for mark in (findings.BEGIN, findings.END):
            self.assertTrue(mark in text, "README.md has no %r" % mark)
        got = text.split(findings.BEGIN, 1)[1].split(findings.END, 1)[0].strip().splitlines()
        self.assertEqual(got, findings.render(),
                         "README.md's findings differ from `python3 bench/report.py findings`: "
                         "paste its output between the markers")


class Rows(unittest.TestCase):
    def render(self, *lines):
        cells = [x.split("\t") for x in lines]
        cache = {}
        return [findings.row(c, r, findings.parse_cells([cell], findings.family.sesoi_table())[0],
                             p, cache) for c, r, cell, p in cells]

    def test_a_family_cell_gets_its_verdict(self):
        row, = self.render("q\t%s\texit_flood/icount/insn1/hotcold/single\t%s" % (RUN, PAGE))
        self.assertRegex(row, r"^\| q \| 1\.0099 \[1\.0080-1\.0117\] \| 8 \| \*\*worse\*\* ")

    def test_a_cell_outside_it_an_estimate_without_a_verdict_word(self):
        row, = self.render("q\t%s\texit_flood/cachesim/l2m/hotcold/vanilla\t%s" % (RUN, PAGE))
        self.assertIn("| estimate (not in the family) |", row)
        for word in ("better", "worse", "equivalent"):
            self.assertNotIn(word, row)

    def test_too_few_rounds_no_verdict(self):
        row, = self.render("q\t%s\texit_flood/cachesim/mem/hotcold/vanilla\t%s" % (RUN, PAGE))
        self.assertIn("no verdict: 3 rounds, below 4", row)


class Refusals(unittest.TestCase):
    def refused(self, line, says):
        with self.assertRaises(TableError) as e:
            findings.parse("# c\n" + line + "\n", "t.tsv")
        self.assertIn("t.tsv:2: ", str(e.exception))
        self.assertIn(says, str(e.exception))

    def test_bad_lines(self):
        self.refused("c\t%s\texit_flood/icount/insn1/hotcold\t%s" % (RUN, PAGE),
                     "expected WORKLOAD/MODE/METRIC/CONFIG/BASE")
        self.refused("c\t%s\tnosuch/icount/insn1/hotcold/single\t%s" % (RUN, PAGE), "nosuch")
        self.refused("c\tdocs/results/nosuch\texit_flood/icount/insn1/hotcold/single\t%s" % PAGE,
                     "run 'docs/results/nosuch': no such file")
        self.refused("c\t%s\texit_flood/icount/insn1/hotcold/single" % RUN,
                     "tab-separated columns")
        with self.assertRaises(TableError):
            findings.parse("# nothing\n", "t.tsv")


if __name__ == "__main__":
    unittest.main()
