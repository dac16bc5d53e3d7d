# SPDX-License-Identifier: GPL-2.0
"""Unit tests of the distro configuration (CONFIG_BASE=distro):
scripts/distro-check.py on small stand-in configurations
(data/distro/: Debian's, the fragment's, the built one) and a stand-in
tree of empty Kconfig files; scripts/distro-config.sh's refusals of bad
input, with a fake dpkg-query and a fake source.conf (ROOT), and its
modules-off step through a fake merge_config.sh; and the rules of
configs/distro.config itself."""
import importlib.util
import lzma
import os
import re
import subprocess
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.join(ROOT, "scripts", "tests", "data", "distro")
CHECK = os.path.join(ROOT, "scripts", "distro-check.py")
ASSEMBLE = os.path.join(ROOT, "scripts", "distro-config.sh")
VERSION = "6.12.118-1~deb12u1"
# the stand-in tree: the symbols its watched Kconfig files define
KCONFIG = {
    "mm/Kconfig": "config LRU_GEN\n\tbool\nconfig LRU_GEN_ENABLED\n\tbool\n"
                  "config MEMORY_BALLOON\n\tbool\nconfig BALLOON_COMPACTION\n\tbool\n"
                  "config GUP_TEST\n\tbool\nconfig HWPOISON_INJECT\n\ttristate\n",
    "init/Kconfig": "menuconfig CGROUPS\n\tbool\nconfig MEMCG\n\tbool\n"
                    "config CC_VERSION_TEXT\n\tstring\n",
}


def load_check():
    """scripts/distro-check.py as a module (its name has a hyphen)."""
    spec = importlib.util.spec_from_file_location("distro_check", CHECK)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def data(name):
    return os.path.join(DATA, name)


class Scratch(unittest.TestCase):
    """A temporary directory per test."""

    def setUp(self):
        tmpdir = tempfile.TemporaryDirectory()
        self.addCleanup(tmpdir.cleanup)
        self.tmp = tmpdir.name

    def write(self, rel, text):
        path = os.path.join(self.tmp, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
        return path


class DistroCheck(Scratch):
    def tree(self):
        """The stand-in kernel tree: every watched Kconfig file, most empty."""
        for rel in load_check().KCONFIG_FILES:
            self.write(os.path.join("src", rel), KCONFIG.get(rel, ""))
        return os.path.join(self.tmp, "src")

    def check(self, built=None, fragments=None, srctree=None):
        args = ["python3", CHECK, "--srctree", srctree or self.tree(), data("debian.config"),
                built or data("built.config")] + (fragments or [data("fragment.config")])
        return subprocess.run(args, capture_output=True, text=True)

    def changed(self, old, new):
        """built.config with one line replaced."""
        with open(data("built.config")) as f:
            text = f.read()
        self.assertIn(old + "\n", text)
        return self.write("built.config", text.replace(old + "\n", new + "\n"))

    def test_matching_pair_passes(self):
        p = self.check()
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertEqual(p.stderr, "")
        # every difference printed with what explains it; the compiler's
        # version text and the unwatched drivers are not compared
        self.assertRegex(p.stdout, r"CONFIG_GUP_TEST +Debian n +built y +set by .*fragment.config:6")
        self.assertRegex(p.stdout, r"CONFIG_HWPOISON_INJECT +Debian m +built n +allowed by "
                         r".*fragment.config:11: it is a module in Debian")
        self.assertIn("4 watched options", p.stdout)
        for name in ("CC_VERSION_TEXT", "CONFIG_DRM", "CONFIG_EXT4_FS", "VIRTIO_BALLOON"):
            self.assertNotIn(name, p.stdout)

    def test_option_changed_without_a_reason_fails(self):
        built = self.changed("CONFIG_LRU_GEN_ENABLED=y", "# CONFIG_LRU_GEN_ENABLED is not set")
        p = self.check(built=built)
        self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
        self.assertRegex(p.stdout, r"CONFIG_LRU_GEN_ENABLED +Debian y +built n +UNEXPLAINED")
        lines = p.stderr.splitlines()
        self.assertEqual(len(lines), 1, p.stderr)
        self.assertIn("CONFIG_LRU_GEN_ENABLED is y in Debian's configuration and n in", lines[0])
        self.assertIn("no line of %s explains it" % data("fragment.config"), lines[0])

    def test_name_pattern_watches_options_outside_the_files(self):
        # NR_CPUS is arch/x86/Kconfig's: watched by its name
        p = self.check(built=self.changed("CONFIG_NR_CPUS=8192", "CONFIG_NR_CPUS=8"))
        self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
        self.assertIn("CONFIG_NR_CPUS is 8192 in Debian's configuration and 8 in", p.stderr)

    def test_option_dropped_by_olddefconfig_fails(self):
        # absent from the built file (its dependency off): off, not Debian's y
        p = self.check(built=self.changed("CONFIG_MEMCG=y", ""))
        self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
        self.assertIn("CONFIG_MEMCG is y in Debian's configuration and unset in", p.stderr)

    def test_allows_line_explains(self):
        built = self.changed("CONFIG_LRU_GEN_ENABLED=y", "# CONFIG_LRU_GEN_ENABLED is not set")
        extra = self.write("extra.config", "# distro-check: allows CONFIG_LRU_GEN_ENABLED because a test says so\n")
        p = self.check(built=built, fragments=[data("fragment.config"), extra])
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertRegex(p.stdout, r"CONFIG_LRU_GEN_ENABLED .* allowed by .*extra.config:1: a test says so")

    def test_allows_line_without_reason_is_bad_input(self):
        extra = self.write("extra.config", "# distro-check: allows CONFIG_LRU_GEN_ENABLED\n")
        p = self.check(fragments=[data("fragment.config"), extra])
        self.assertEqual(p.returncode, 2, p.stdout + p.stderr)
        self.assertIn("extra.config:1", p.stderr)
        self.assertIn("expected '# distro-check: allows CONFIG_X because REASON'", p.stderr)

    def test_missing_kconfig_file_is_bad_input(self):
        src = self.tree()
        os.remove(os.path.join(src, "mm", "Kconfig"))
        p = self.check(srctree=src)
        self.assertEqual(p.returncode, 2, p.stdout + p.stderr)
        self.assertIn("cannot read %s" % os.path.join(src, "mm", "Kconfig"), p.stderr)

    def test_fallback_without_a_tree(self):
        p = self.check(built=self.changed("CONFIG_LRU_GEN_ENABLED=y", "# CONFIG_LRU_GEN_ENABLED is not set"),
                       srctree=os.path.join(self.tmp, "none"))
        self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
        self.assertIn("the fallback name pattern (no tree at", p.stdout)
        self.assertIn("CONFIG_LRU_GEN_ENABLED is y in Debian's", p.stderr)


class DistroConfig(Scratch):
    """scripts/distro-config.sh on a fake machine: dpkg-query answers
    FAKE_VERSION, source.conf names a stand-in configuration."""

    def run_assembly(self, version=VERSION, config=True, fragments=None):
        root = os.path.join(self.tmp, "root")
        debian = os.path.join(self.tmp, "usr", "config.amd64_none_amd64.xz")
        self.write("root/source.conf", "SOURCE_VERSION=%s\nDISTRO_CONFIG_PKG=linux-config-6.12\n"
                   "DISTRO_CONFIG=%s\n" % (VERSION, debian))
        if config:
            os.makedirs(os.path.dirname(debian))
            with open(data("debian.config"), "rb") as f, lzma.open(debian, "wb") as xz:
                xz.write(f.read())
        self.write("bin/dpkg-query", "#!/bin/sh\n[ -n \"$FAKE_VERSION\" ] || exit 1\n"
                   "echo \"install ok installed $FAKE_VERSION\"\n")
        # the fake merge: the base, then each fragment's lines appended
        # (called as merge_config.sh -m -O DIR BASE FRAGMENT...)
        self.write("src/scripts/kconfig/merge_config.sh",
                   "#!/bin/sh\nshift 2\nout=$1\nshift\ncat \"$@\" >\"$out/.config\"\n")
        for f in ("bin/dpkg-query", "src/scripts/kconfig/merge_config.sh"):
            os.chmod(os.path.join(self.tmp, f), 0o755)
        out = self.write("obj/.config", "the old config\n")
        env = dict(os.environ, ROOT=root, BUILD=os.path.join(self.tmp, "build"), FAKE_VERSION=version,
                   PATH=os.path.join(self.tmp, "bin") + os.pathsep + os.environ["PATH"])
        p = subprocess.run(["bash", ASSEMBLE, os.path.join(self.tmp, "src"), os.path.dirname(out)]
                           + (fragments or [data("fragment.config")]),
                           env=env, capture_output=True, text=True)
        with open(out) as f:
            return p, f.read(), sorted(os.listdir(os.path.dirname(out)))

    def refused(self, p, config, files, message):
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertEqual(config, "the old config\n")
        self.assertEqual(files, [".config"])
        lines = p.stderr.strip().splitlines()
        self.assertEqual(len(lines), 1, p.stderr)
        self.assertIn(message, lines[0])

    def test_writes_modules_off_then_fragments(self):
        p, config, files = self.run_assembly()
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(files, [".config"])
        self.assertIn("# CONFIG_DRM is not set\n", config)
        self.assertIn("# CONFIG_HWPOISON_INJECT is not set\n", config)
        self.assertNotIn("=m\n", config)
        self.assertIn("CONFIG_MEMCG=y\n", config)
        self.assertTrue(config.endswith("# distro-check: allows CONFIG_HWPOISON_INJECT because it is a module in Debian\n"))

    def test_wrong_package_version_refused(self):
        p, config, files = self.run_assembly(version="6.12.117-1~deb12u1")
        self.refused(p, config, files, "linux-config-6.12 6.12.117-1~deb12u1 is installed, but the pinned "
                     "source is 6.12.118-1~deb12u1 (source.conf) -- run scripts/source.sh")

    def test_package_not_installed_refused(self):
        p, config, files = self.run_assembly(version="")
        self.refused(p, config, files, "linux-config-6.12 is not installed -- run scripts/source.sh as root")

    def test_missing_debian_config_refused(self):
        p, config, files = self.run_assembly(config=False)
        self.refused(p, config, files, "config.amd64_none_amd64.xz is missing although linux-config-6.12 "
                     "6.12.118-1~deb12u1 is installed")

    def test_missing_fragment_refused(self):
        missing = os.path.join(self.tmp, "nothing.config")
        p, config, files = self.run_assembly(fragments=[data("fragment.config"), missing])
        self.refused(p, config, files, "fragment '%s' is not a readable file" % missing)


class DistroFragment(unittest.TestCase):
    """configs/distro.config's own rules."""

    def test_every_setting_has_its_reason_above(self):
        with open(os.path.join(ROOT, "configs", "distro.config")) as f:
            lines = f.read().splitlines()
        setting = re.compile(r"^CONFIG_\w+=|^# CONFIG_\w+ is not set$")
        for n, line in enumerate(lines):
            if setting.match(line):
                above = lines[n - 1] if n else ""
                self.assertTrue(above.startswith("#") and not setting.match(above)
                                and "distro-check:" not in above,
                                "configs/distro.config:%d: %s has no reason on the line above" % (n + 1, line))

    def test_fragments_parse(self):
        check = load_check()
        for name in sorted(os.listdir(os.path.join(ROOT, "configs"))):
            check.parse_fragment(os.path.join(ROOT, "configs", name))


if __name__ == "__main__":
    unittest.main()
