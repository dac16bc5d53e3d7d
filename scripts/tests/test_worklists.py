# SPDX-License-Identifier: GPL-2.0
"""Unit tests of scripts/worklists.sh: which workloads each boot of make
bench runs, for WORKLOADS lists of names, of exclusions (-NAME) and of
both, with a workload table of its own (table() mocked)."""
import os
import subprocess
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# name: (boot, modes); in the table's order
TABLE = [("sdet_1", "mem", "det"), ("sdet_2", "mem", "det"), ("readahead", "2cpu", "det"),
         ("alloc", "mem", "wall"), ("compile", "prog", "det"), ("web", "prog", "det"),
         ("sweep_a", "sweep", "fixed"), ("sweep_b", "sweep", "fixed")]

TABLE_SH = """table() {
	local row k v ok
	for row in %s; do
		ok=1
		for kv in "$@"; do
			k=${kv%%%%=*} v=${kv#*=}
			case $k in
			boot) [ "$(echo "$row" | cut -d: -f2)" = "$v" ] || ok=0 ;;
			modes) [ "$(echo "$row" | cut -d: -f3)" = "$v" ] || ok=0 ;;
			esac
		done
		[ $ok = 0 ] || echo "${row%%%%:*}"
	done
}
""" % " ".join("%s:%s:%s" % r for r in TABLE)


def run(script, **env):
    e = dict(os.environ, **env)
    p = subprocess.run(["bash", "-c", "set -u; " + TABLE_SH + '. "%s/scripts/worklists.sh"; %s'
                        % (ROOT, script)], env=e, capture_output=True, text=True)
    if p.returncode:
        raise AssertionError(p.stderr)
    return p.stdout.rstrip("\n")


def wall(workloads):
    out = run('wall_lists; echo "$WALL_MAIN|$WALL_PROG"', WALL_WORKLOADS=workloads)
    return tuple(out.split("|"))


def det(workloads, part):
    return run('det_workloads %s' % part, DET_WORKLOADS=workloads)


class WallLists(unittest.TestCase):
    def test_everything(self):
        self.assertEqual(wall(""), ("sdet_1 sdet_2 readahead alloc", "compile web"))

    def test_names_go_to_their_boot(self):
        self.assertEqual(wall("web sdet_2"), ("sdet_2", "web"))
        self.assertEqual(wall("sdet_1"), ("sdet_1", ""))
        self.assertEqual(wall("compile"), ("", "compile"))

    def test_exclusions_only_mean_all_but_those(self):
        self.assertEqual(wall("-web -sdet_1"), ("sdet_2 readahead alloc", "compile"))

    def test_names_and_exclusions(self):
        # a boot gets names only: an exclusion alone would read as "all but"
        self.assertEqual(wall("sdet_1 -web"), ("sdet_1", ""))
        self.assertEqual(wall("web -sdet_1"), ("", "web"))
        self.assertEqual(wall("sdet_1 sdet_2 -sdet_2"), ("sdet_1", ""))

    def test_whitespace(self):
        self.assertEqual(wall(" -web\t-compile "), ("sdet_1 sdet_2 readahead alloc", ""))

    def test_no_sweep_in_wall_mode(self):
        # the sweeps run in the fixed modes only, even when named
        self.assertEqual(wall("sweep_a sdet_1"), ("sdet_1", ""))
        self.assertEqual(wall("-sweep_b"), ("sdet_1 sdet_2 readahead alloc", "compile web"))


class DetWorkloads(unittest.TestCase):
    def test_parts(self):
        self.assertEqual(det("", "mem"), "sdet_1 sdet_2")
        self.assertEqual(det("", "prog"), "compile web")
        self.assertEqual(det("web", "mem"), "none")
        self.assertEqual(det("-web", "prog"), "compile")
        self.assertEqual(det("sdet_1 sdet_2 -sdet_2", "mem"), "sdet_1")
        self.assertEqual(det("-sdet_1", "mem"), "sdet_2")

    def test_sweep_boot(self):
        self.assertEqual(det("", "sweep"), "sweep_a sweep_b")
        self.assertEqual(det("-sweep_a", "sweep"), "sweep_b")
        self.assertEqual(det("sdet_1", "sweep"), "none")


if __name__ == "__main__":
    unittest.main()
