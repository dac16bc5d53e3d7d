# SPDX-License-Identifier: GPL-2.0
"""Unit tests of scripts/tests/ktapcheck.py, the strict KTAP reader the
tests of make test's KTAP file (test_tally_sh.py) lean on: it must take
well-formed KTAP and refuse each way the file could go wrong."""
import importlib.util
import os
import sys
import textwrap
import unittest

sys.dont_write_bytecode = True     # no __pycache__ beside the scripts
HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("ktapcheck", os.path.join(HERE, "ktapcheck.py"))
ktapcheck = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ktapcheck)

GOOD = """\
KTAP version 1
# a run
1..2
  KTAP version 1
  # Subtest: first stage
  1..3
  ok 1 one
  # two: build/logs/two.log
  not ok 2 two
  ok 3 three # SKIP not here
not ok 1 first stage
  KTAP version 1
  # Subtest: second
  1..1
  ok 1 four
ok 2 second
"""


class Accepts(unittest.TestCase):
    def test_two_stages(self):
        top = ktapcheck.parse(GOOD)
        self.assertEqual([t.name for t in top.subtests], ["first stage", "second"])
        self.assertEqual([t.ok for t in top.subtests], [False, True])
        self.assertEqual(top.counts(), (2, 1, 1))
        self.assertFalse(top.ok)
        two = top.subtests[0].subtests[1]
        self.assertEqual((two.name, two.ok, two.diagnostics),
                         ("two", False, ["# two: build/logs/two.log"]))
        three = top.subtests[0].subtests[2]
        self.assertTrue(three.skip)
        self.assertEqual(three.directive, "SKIP not here")

    def test_empty_run(self):
        top = ktapcheck.parse("KTAP version 1\n1..0\n")
        self.assertEqual((top.subtests, top.counts()), ([], (0, 0, 0)))

    def test_results_without_subtests(self):
        top = ktapcheck.parse("KTAP version 1\n1..2\nok 1 a\nok 2 b # SKIP\n")
        self.assertEqual(top.counts(), (1, 0, 1))


class Refuses(unittest.TestCase):
    """GOOD with one line changed: refused, naming the line."""

    def refuse(self, old, new, lineno, msg):
        self.assertEqual(GOOD.count(old), 1, old)
        with self.assertRaises(ktapcheck.KtapError) as e:
            ktapcheck.parse(GOOD.replace(old, new))
        self.assertEqual(e.exception.lineno, lineno, str(e.exception))
        self.assertIn(msg, str(e.exception))

    def test_a_plan_too_high(self):
        self.refuse("  1..3\n", "  1..4\n", 11, "3 results, where the plan is 1..4")

    def test_a_plan_too_low(self):
        self.refuse("  1..3\n", "  1..2\n", 10, "a result beyond the plan 1..2")

    def test_a_top_plan_too_high(self):
        self.refuse("1..2\n  KTAP", "1..3\n  KTAP", 17, "2 results, where the plan is 1..3")

    def test_a_failed_case_as_ok_under_a_failed_stage(self):
        self.refuse("  not ok 2 two\n", "  ok 2 two\n", 11, "none of its subtests failed")

    def test_a_failed_stage_as_ok(self):
        self.refuse("not ok 1 first stage\n", "ok 1 first stage\n", 11, "one of its subtests failed")

    def test_a_number_out_of_order(self):
        self.refuse("  ok 3 three", "  ok 4 three", 10, "result 4 where 3 was due")

    def test_a_hash_in_a_name(self):
        self.refuse("  ok 1 one\n", "  ok 1 one#1\n", 7, "not a result line")

    def test_an_empty_name(self):
        self.refuse("  ok 1 one\n", "  ok 1 \n", 7, "a tab or trailing blank")

    def test_a_result_for_another_subtest(self):
        self.refuse("ok 2 second\n", "ok 2 third\n", 16, "result of 'third' for the subtest 'second'")

    def test_a_wrong_indentation(self):
        self.refuse("  ok 1 four\n", "   ok 1 four\n", 15, "indented 3, not 2")

    def test_no_version_line(self):
        self.refuse("  KTAP version 1\n  # Subtest: second", "  TAP version 13\n  # Subtest: second",
                    12, "not 'KTAP version 1'")

    def test_a_result_beyond_the_top_plan(self):
        with self.assertRaises(ktapcheck.KtapError) as e:
            ktapcheck.parse(GOOD + "ok 3 more\n")
        self.assertEqual(e.exception.lineno, 17)
        self.assertIn("a result beyond the plan 1..2", str(e.exception))

    def test_a_line_after_the_last_result(self):
        with self.assertRaises(ktapcheck.KtapError) as e:
            ktapcheck.parse(GOOD + "hello\n")
        self.assertIn("a line after the last result", str(e.exception))

    def test_text_that_is_not_ktap(self):
        with self.assertRaises(ktapcheck.KtapError):
            ktapcheck.parse(textwrap.dedent("""\
                KTAP version 1
                1..1
                hello
                ok 1 a
                """))


if __name__ == "__main__":
    unittest.main()
