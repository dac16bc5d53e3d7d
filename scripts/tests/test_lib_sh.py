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
