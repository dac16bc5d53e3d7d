# SPDX-License-Identifier: GPL-2.0
"""Which archived runs are exchangeable with a run (bench/hcreport/archive.py):
made before it, on the same geometry and configuration base, with rounds
drawn the same way; and the committed archive read that way."""
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from hcreport import archive  # noqa: E402

RUN = {"date": "2026-12-08 10:00 UTC", "run": "20261208-1000-bench", "geometry": "zen3",
       "config_base": "lean", "run_seed": "123"}


class Exchangeable(unittest.TestCase):
    def other(self, **kw):
        p = dict(RUN, date="2026-12-08 09:00 UTC", run="20261208-0900-bench", run_seed="456")
        p.update(kw)
        return p

    def test_rule(self):
        self.assertTrue(archive.exchangeable(RUN, self.other()))
        for kw in ({"date": "2026-12-08 10:00 UTC"}, {"date": "2026-12-08 11:00 UTC"},
                   {"date": ""}, {"run": RUN["run"]}, {"geometry": "zen4"},
                   {"config_base": "distro"}, {"run_seed": ""}, {"run_seed": "fixed"}):
            self.assertFalse(archive.exchangeable(RUN, self.other(**kw)), kw)
        self.assertFalse(archive.exchangeable(dict(RUN, date=""), self.other()))
        # two runs of fixed seeds are
        fixed = dict(RUN, run_seed="")
        self.assertTrue(archive.exchangeable(fixed, self.other(run_seed="fixed")))

    def test_history_newest_first(self):
        runs = [("a/old", self.other(date="2026-12-01 00:00 UTC"), {"o": 1}),
                ("a/later", RUN, {"l": 1}),
                ("a/new", self.other(), {"n": 1})]
        self.assertEqual(archive.history(RUN, runs), [("new", {"n": 1}), ("old", {"o": 1})])


class Committed(unittest.TestCase):
    def test_the_archive(self):
        """v3's runs (fixed seeds) are exchangeable with a later v3 run, not
        with v4's quick run (drawn seeds) nor an earlier one"""
        runs = archive.archived()
        plans = {os.path.basename(d): p for d, p, _ in runs}
        names = [n for n, _ in archive.history(plans["20261207-v3-icount8"], runs)]
        self.assertIn("20261206-v3-posted", names)
        for n in ("20261207-v3-icount8", "20261207-v4-quick"):
            self.assertNotIn(n, names)
        names = [n for n, _ in archive.history(plans["20261206-v3-posted"], runs)]
        self.assertIn("20261206-v3-full", names)
        self.assertNotIn("20261207-v3-icount8", names)
        self.assertEqual(archive.history(plans["20261207-v4-quick"], runs), [])


if __name__ == "__main__":
    unittest.main()
