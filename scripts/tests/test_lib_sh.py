# SPDX-License-Identifier: GPL-2.0
"""Unit tests of scripts/lib.sh's deb_src_lists, which writes the private
apt sources that scripts/cachesim.sh (deb-src) and scripts/programs.sh
(deb and deb-src) fetch through, from a fake machine's apt configuration
(APT_CONFIG names it)."""
import os
import subprocess
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

ONE_LINE = """# a comment
deb http://mirror.invalid/debian bookworm main
deb [arch=amd64] http://mirror.invalid/debian-security bookworm-security main
deb-src http://mirror.invalid/debian bookworm main
"""

DEB822 = """Types: deb
URIs: http://mirror.invalid/debian
Suites: bookworm bookworm-updates
Components: main

Types: deb-src
URIs: http://mirror.invalid/other
Suites: bookworm
Components: main
"""


class DebSrcLists(unittest.TestCase):
    def run_lists(self, types=None, one_line=ONE_LINE, deb822=DEB822):
        tmpdir = tempfile.TemporaryDirectory()
        self.addCleanup(tmpdir.cleanup)
        tmp = tmpdir.name
        etc = os.path.join(tmp, "etc")
        parts = os.path.join(etc, "sources.list.d")
        os.makedirs(parts)
        with open(os.path.join(etc, "sources.list"), "w") as f:
            f.write(one_line)
        if deb822 is not None:
            with open(os.path.join(parts, "debian.sources"), "w") as f:
                f.write(deb822)
        conf = os.path.join(tmp, "apt.conf")
        with open(conf, "w") as f:
            f.write('Dir::Etc::sourcelist "%s/sources.list";\n' % etc)
            f.write('Dir::Etc::sourceparts "%s";\n' % parts)
        out = os.path.join(tmp, "out")
        cmd = '. "%s/scripts/lib.sh"; deb_src_lists "%s"%s' % (
            ROOT, out, ' "%s"' % types if types else "")
        env = dict(os.environ, APT_CONFIG=conf, BUILD=os.path.join(tmp, "build"))
        p = subprocess.run(["bash", "-c", cmd], env=env, capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(os.path.join(out, "sources.list")) as f:
            lines = f.read()
        with open(os.path.join(out, "sources.list.d", "system.sources")) as f:
            stanzas = f.read()
        return p.stdout.strip(), lines, stanzas

    def test_deb_src_twins_only(self):
        n, lines, stanzas = self.run_lists()
        self.assertEqual(lines.splitlines(), [
            "deb-src http://mirror.invalid/debian bookworm main",
            "deb-src [arch=amd64] http://mirror.invalid/debian-security bookworm-security main"])
        # the deb stanza's twin; the deb-src stanza is not a deb entry
        self.assertIn("Types: deb-src\nURIs: http://mirror.invalid/debian\n", stanzas)
        self.assertNotIn("mirror.invalid/other", stanzas)
        self.assertEqual(n, "3")

    def test_deb_and_deb_src(self):
        n, lines, stanzas = self.run_lists("deb deb-src")
        self.assertEqual(sorted(lines.splitlines()), sorted([
            "deb http://mirror.invalid/debian bookworm main",
            "deb [arch=amd64] http://mirror.invalid/debian-security bookworm-security main",
            "deb-src http://mirror.invalid/debian bookworm main",
            "deb-src [arch=amd64] http://mirror.invalid/debian-security bookworm-security main"]))
        self.assertIn("Types: deb deb-src\nURIs: http://mirror.invalid/debian\n", stanzas)
        self.assertEqual(n, "5")

    def test_no_deb_entry_counts_zero(self):
        n, lines, stanzas = self.run_lists(one_line="# nothing\n", deb822=None)
        self.assertEqual((n, lines, stanzas), ("0", "", ""))


if __name__ == "__main__":
    unittest.main()


class MeasuredKernels(unittest.TestCase):
    """flavour_fragments and check_no_test_code: only the test flavours
    get configs/kunit.config, and a measured kernel whose .config has
    KUnit fails the run."""

    def lib(self, cmd, config=None):
        tmpdir = tempfile.TemporaryDirectory()
        self.addCleanup(tmpdir.cleanup)
        build = os.path.join(tmpdir.name, "build")
        os.makedirs(os.path.join(build, "kernel-x"))
        if config is not None:
            with open(os.path.join(build, "kernel-x", ".config"), "w") as f:
                f.write(config)
        env = dict(os.environ, BUILD=build)
        return subprocess.run(["bash", "-c", '. "%s/scripts/lib.sh"; %s' % (ROOT, cmd)],
                              env=env, capture_output=True, text=True)

    def frags(self, flavour):
        p = self.lib("flavour_fragments %s" % flavour)
        self.assertEqual(p.returncode, 0, p.stderr)
        return [os.path.basename(f) for f in p.stdout.split()]

    def test_only_test_flavours_get_kunit(self):
        self.assertEqual(self.frags("hotcold"),
                         ["base.config", "kunit.config", "memory-hotplug.config"])
        self.assertEqual(self.frags("debug"),
                         ["base.config", "kunit.config", "memory-hotplug.config",
                          "debug.config"])
        for f in ("vanilla", "hotcold-bench", "single", "nopcp", "layout"):
            self.assertEqual(self.frags(f), ["base.config"], f)

    def test_kunit_in_a_measured_kernel_fails(self):
        p = self.lib("check_no_test_code x", "CONFIG_MMU=y\nCONFIG_KUNIT=y\n")
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("carries KUnit", p.stderr)

    def test_kernel_without_kunit_passes(self):
        p = self.lib("check_no_test_code x", "CONFIG_MMU=y\n# CONFIG_KUNIT is not set\n")
        self.assertEqual(p.returncode, 0, p.stderr)

    def test_no_config_fails(self):
        p = self.lib("check_no_test_code x")
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("no .config", p.stderr)
