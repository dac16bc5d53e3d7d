# SPDX-License-Identifier: GPL-2.0
"""Unit tests of the reproducible guest images: scripts/lib.sh's
cpio_image (build/initramfs.cpio.gz, initramfs-stress.cpio.gz and
initramfs-programs.cpio.gz) and ext4_image (build/disk.img) give the same
bytes from the same files, whenever they are built."""
import gzip
import hashlib
import os
import shutil
import subprocess
import tempfile
import time
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# lib.sh's IMAGE_EPOCH
EPOCH = 1767225600


def newc_entries(data):
    """(name, uid, gid, mtime) of each entry of a newc cpio archive."""
    out, i = [], 0
    while True:
        h = data[i:i + 110]
        assert h[:6] == b"070701", h[:6]
        f = [int(h[6 + 8 * k:14 + 8 * k], 16) for k in range(13)]
        namesize, filesize = f[11], f[6]
        name = data[i + 110:i + 110 + namesize - 1].decode()
        if name == "TRAILER!!!":
            return out
        out.append((name, f[2], f[3], f[5]))
        i = (i + 110 + namesize + 3) & ~3
        i = (i + filesize + 3) & ~3


# mke2fs and debugfs live in /usr/sbin, which a user's PATH may lack
SBIN_PATH = os.environ.get("PATH", "") + ":/usr/sbin:/sbin"

class Trees(unittest.TestCase):
    """Two trees of the same files, made in another order at another time."""

    def setUp(self):
        tmpdir = tempfile.TemporaryDirectory()
        self.addCleanup(tmpdir.cleanup)
        self.tmp = tmpdir.name

    def tree(self, name, order, mtime):
        """A small tree, its files made in ORDER, every time MTIME."""
        top = os.path.join(self.tmp, name)
        os.makedirs(os.path.join(top, "sub"))
        for f in order:
            with open(os.path.join(top, f), "w") as fh:
                fh.write("contents of %s\n" % f)
            os.chmod(os.path.join(top, f), 0o755 if f.endswith(".sh") else 0o644)
        os.symlink("a.txt", os.path.join(top, "link"))
        if os.geteuid() == 0:
            os.chown(os.path.join(top, "b.sh"), 1234, 1234)
        for d, dirs, files in os.walk(top):
            for n in dirs + files:
                os.utime(os.path.join(d, n), (mtime, mtime), follow_symlinks=False)
        os.utime(top, (mtime, mtime))
        return top


class CpioImage(Trees):
    def pack(self, top, out):
        cmd = '. "%s/scripts/lib.sh"; cpio_image "$1" "$2" "$3"' % ROOT
        env = dict(os.environ, BUILD=os.path.join(self.tmp, "build"), PATH=SBIN_PATH)
        p = subprocess.run(["bash", "-c", cmd, "-", top, out, os.path.join(self.tmp, "log")],
                           env=env, capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(out, "rb") as f:
            return f.read()

    def test_same_files_same_bytes(self):
        # the same files, made in another order at another time: an
        # image built now and one built an hour later
        names = ["a.txt", "b.sh", "sub/c.txt", "sub/a-b", "Z"]
        now = int(time.time())
        one = self.pack(self.tree("one", names, now - 3600), os.path.join(self.tmp, "one.gz"))
        two = self.pack(self.tree("two", names[::-1], now), os.path.join(self.tmp, "two.gz"))
        self.assertEqual(hashlib.md5(one).hexdigest(), hashlib.md5(two).hexdigest())
        entries = newc_entries(gzip.decompress(one))
        # bytewise order (a directory before its files), owner root, one time
        self.assertEqual([e[0] for e in entries],
                         [".", "Z", "a.txt", "b.sh", "link", "sub", "sub/a-b", "sub/c.txt"])
        self.assertEqual({e[1:] for e in entries}, {(0, 0, EPOCH)})
        # no time in the gzip header
        self.assertEqual(one[4:8], b"\0\0\0\0")


@unittest.skipUnless(shutil.which("mke2fs", path=SBIN_PATH) and shutil.which("debugfs", path=SBIN_PATH),
                     "needs mke2fs and debugfs (e2fsprogs)")
class Ext4Image(Trees):
    """lib.sh's ext4_image, as scripts/disk.sh makes build/disk.img."""

    def mkfs(self, top, out):
        cmd = ('. "%s/scripts/lib.sh"; ext4_image "$1" "$2" 8M scratch '
               '6f746f68-636c-6f64-0000-000000000003 6f746f68-636c-6f64-0000-000000000004 "$3"'
               % ROOT)
        env = dict(os.environ, BUILD=os.path.join(self.tmp, "build"), PATH=SBIN_PATH)
        p = subprocess.run(["bash", "-c", cmd, "-", top, out, os.path.join(self.tmp, "log")],
                           env=env, capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(out, "rb") as f:
            return hashlib.md5(f.read()).hexdigest()

    def test_same_files_same_bytes(self):
        names = ["a.txt", "b.sh", "sub/c.txt", "sub/a-b", "Z"]
        now = int(time.time())
        one = self.mkfs(self.tree("one", names, now - 3600), os.path.join(self.tmp, "one.img"))
        # the second tree's files are staged at another second (their
        # change time, which mke2fs -d copies and touch cannot set)
        time.sleep(1.1)
        img = os.path.join(self.tmp, "two.img")
        two = self.mkfs(self.tree("two", names[::-1], now), img)
        self.assertEqual(one, two)
        for f in ("/b.sh", "/link", "/sub"):
            p = subprocess.run(["debugfs", "-R", "stat " + f, img], capture_output=True, text=True,
                               env=dict(os.environ, PATH=SBIN_PATH))
            self.assertRegex(p.stdout, r"User: +0 +Group: +0 ", f)
            for t in ("ctime", "atime", "mtime"):
                self.assertIn(" %s: 0x%08x:" % (t, EPOCH), p.stdout, f)


if __name__ == "__main__":
    unittest.main()
