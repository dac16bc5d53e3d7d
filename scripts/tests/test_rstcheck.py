# SPDX-License-Identifier: GPL-2.0
"""Unit tests of scripts/rstcheck.py, the docs check of build-series.sh."""
import os
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RSTCHECK = os.path.join(ROOT, "scripts", "rstcheck.py")

GOOD = """Title
=====

=============== =====
``a``           one
``b``,          two
``c()``
=============== =====

See :c:func:`free_cold_page` and :doc:`other`.

.. kernel-doc:: mm/page_alloc.c
"""

# v1's table: the second column's text starts in the first column's margin
MALFORMED = """Title
=====

========================= ============================================
default free               head of the hot list
``free_cold_page()``,      head (coldest end) of the cold list
``free_unref_folios_cold``
========================= ============================================
"""

UNBALANCED = """Title
=====

Some ``literal without its end.
"""


def run(text):
    with tempfile.NamedTemporaryFile("w", suffix=".rst", delete=False) as f:
        f.write(text)
    try:
        out = subprocess.run([sys.executable, RSTCHECK, f.name], capture_output=True,
                             text=True, check=True).stdout
    finally:
        os.unlink(f.name)
    return out.replace(f.name, "FILE")


class RstCheck(unittest.TestCase):
    def test_clean_file_and_sphinx_only_markup(self):
        self.assertEqual(run(GOOD), "")

    def test_malformed_table(self):
        out = run(MALFORMED)
        self.assertIn("Malformed table", out)
        self.assertTrue(out.startswith("FILE:"), out)

    def test_unbalanced_inline_markup(self):
        self.assertIn("Inline literal start-string without end-string", run(UNBALANCED))

    def test_usage(self):
        r = subprocess.run([sys.executable, RSTCHECK], capture_output=True, text=True)
        self.assertEqual(r.returncode, 2)


if __name__ == "__main__":
    unittest.main()
