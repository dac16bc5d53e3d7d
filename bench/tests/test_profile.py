# SPDX-License-Identifier: GPL-2.0
"""Unit tests for bench/profile.py, on small hand-computed profiles.

Fixtures (data/):
  profile-a.System.map, profile-b.System.map  the same functions at other
      addresses in B; a D symbol at weak_fn's address and an A symbol
      that must not count, a per-cpu symbol at 0
  profile-a.profile   5-column lines; phase 1 has a user block and a
                      kernel-half address below the first text symbol
  profile-b.profile   one old 4-column line (no L1D column); a phase 2
                      that A lacks (not reported)
  profile-expected.txt  the report, computed by hand: phase 0 totals
      1190 -> 1250 instructions (+5.04 %), free_pcppages_bulk +60,
      rmqueue_pcplist -30 and weak_fn +30 (a tie: by name), ...
"""
import importlib.util
import os
import subprocess
import sys
import unittest

sys.dont_write_bytecode = True     # no __pycache__ beside the scripts
HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "data")
SCRIPT = os.path.join(os.path.dirname(HERE), "profile.py")

spec = importlib.util.spec_from_file_location("profile_py", SCRIPT)
profile = importlib.util.module_from_spec(spec)
spec.loader.exec_module(profile)

ARGS = [os.path.join(DATA, f) for f in ("profile-a.profile", "profile-a.System.map",
                                        "profile-b.profile", "profile-b.System.map")]


def run(*extra, env=None):
    p = subprocess.run([sys.executable, SCRIPT] + ARGS + list(extra), capture_output=True,
                       text=True, check=True, env=env)
    return p.stdout


class Profile(unittest.TestCase):
    def test_report(self):
        with open(os.path.join(DATA, "profile-expected.txt")) as f:
            self.assertEqual(run(), f.read())

    def test_top_n_and_ties_independent_of_hash_seed(self):
        outs = set()
        for seed in range(8):
            env = dict(os.environ, PYTHONHASHSEED=str(seed))
            outs.add(run("2", env=env))
        self.assertEqual(len(outs), 1)
        out = outs.pop().split("\n")
        i = out.index("  by instructions:")
        self.assertEqual([line.split()[0] for line in out[i + 1:i + 3]],
                         ["free_pcppages_bulk", "rmqueue_pcplist"])
        self.assertEqual(out[i + 3], "  by L2 misses:")

    def test_symbols_text_and_weak_only(self):
        addrs, names = profile.symbols(os.path.join(DATA, "profile-a.System.map"))
        self.assertEqual(names, ["_text", "rmqueue_pcplist", "free_pcppages_bulk",
                                 "weak_fn", "memcpy"])
        self.assertEqual(addrs, sorted(addrs))

    def test_load(self):
        a = profile.load(*ARGS[:2])
        self.assertEqual(dict(a[0]), {"rmqueue_pcplist": [150, 6, 9],
                                      "free_pcppages_bulk": [30, 3, 1],
                                      "user": [1000, 20, 40],
                                      "weak_fn": [10, 0, 0]})
        # user space and kernel-half addresses below the first symbol
        self.assertEqual(dict(a[1]), {"memcpy": [200, 4, 8], "user": [75, 2, 3]})

    def test_load_old_format(self):
        b = profile.load(*ARGS[2:])
        self.assertEqual(b[0]["rmqueue_pcplist"], [120, 4, 0])
        self.assertEqual(sorted(b), [0, 1, 2])

    def test_usage(self):
        p = subprocess.run([sys.executable, SCRIPT, ARGS[0]], capture_output=True, text=True)
        self.assertEqual(p.returncode, 2)
        self.assertIn("usage: profile.py", p.stderr)


if __name__ == "__main__":
    unittest.main()
