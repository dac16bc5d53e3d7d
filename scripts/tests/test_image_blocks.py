# SPDX-License-Identifier: GPL-2.0
"""Unit tests of scripts/image-blocks.py and guest/lib.sh's image_unpack:
an image split into its size and its non-zero blocks, and rebuilt in the
guest's shell, is the image byte for byte (the trunc80k_ext4 workloads'
empty ext4).  image_unpack runs under busybox's sh when the host has
busybox, else the host's sh."""
import importlib.util
import os
import random
import shutil
import subprocess
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "scripts", "image-blocks.py")
SHELL = ["busybox", "sh"] if shutil.which("busybox") else ["sh"]
B = 4096

spec = importlib.util.spec_from_file_location("image_blocks", SCRIPT)
ib = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ib)


def image(nblocks, filled, seed=1):
    """nblocks of zeroes with the blocks in filled random (never all zero)"""
    r = random.Random(seed)
    out = bytearray(nblocks * B)
    for i in filled:
        out[i * B:(i + 1) * B] = bytes(r.randrange(1, 256) for _ in range(B))
    return bytes(out)


class Split(unittest.TestCase):
    def test_runs_of_non_zero_blocks(self):
        data = image(300, [0, 1, 9, 10, 11, 299])
        self.assertEqual(ib.extents(data), [(0, 2), (9, 3), (299, 1)])

    def test_a_block_with_one_byte_set_is_kept(self):
        data = bytearray(4 * B)
        data[2 * B + 4095] = 1
        self.assertEqual(ib.extents(bytes(data)), [(2, 1)])

    def test_the_text_and_the_bytes(self):
        data = image(8, [3, 4])
        text, blocks = ib.split(data)
        self.assertEqual(text, "blocks 8\n3 2\n")
        self.assertEqual(blocks, data[3 * B:5 * B])

    def test_an_all_zero_image_is_its_size(self):
        self.assertEqual(ib.split(bytes(5 * B)), ("blocks 5\n", b""))

    def test_join_gives_the_image_back(self):
        data = image(700, [0, 5, 6, 255, 256, 257, 699])
        self.assertEqual(ib.join(*ib.split(data)), data)

    def test_not_whole_blocks_refused(self):
        with self.assertRaises(ValueError):
            ib.extents(bytes(B + 1))

    def test_the_command_refuses_a_partial_block_and_writes_nothing(self):
        with tempfile.TemporaryDirectory() as d:
            img = os.path.join(d, "x.img")
            with open(img, "wb") as f:
                f.write(bytes(B + 7))
            p = subprocess.run(["python3", SCRIPT, img, os.path.join(d, "x")],
                               capture_output=True, text=True)
            self.assertEqual(p.returncode, 1)
            self.assertIn("not a whole number", p.stderr)
            self.assertEqual(sorted(os.listdir(d)), ["x.img"])


class Unpack(unittest.TestCase):
    """image_unpack in the guest's shell rebuilds what split wrote, and
    refuses a pair of files that do not make the image, leaving no FILE"""

    def unpack(self, d, extents=None, blocks=None):
        """image_unpack of PREFIX d/x into d/out, the files written first
        when given"""
        if extents is not None:
            with open(os.path.join(d, "x.extents"), "w") as f:
                f.write(extents)
        if blocks is not None:
            with open(os.path.join(d, "x.blocks"), "wb") as f:
                f.write(blocks)
        cmd = '. "%s/guest/lib.sh"; image_unpack "%s/x" "%s/out"' % (ROOT, d, d)
        return subprocess.run(SHELL + ["-c", cmd], capture_output=True, text=True)

    def roundtrip(self, data):
        with tempfile.TemporaryDirectory() as d:
            img = os.path.join(d, "src.img")
            with open(img, "wb") as f:
                f.write(data)
            subprocess.run(["python3", SCRIPT, img, os.path.join(d, "x")], check=True)
            p = self.unpack(d)
            self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
            with open(os.path.join(d, "out"), "rb") as f:
                return f.read()

    def refused(self, says, extents, blocks=b""):
        with tempfile.TemporaryDirectory() as d:
            p = self.unpack(d, extents, blocks)
            self.assertNotEqual(p.returncode, 0, p.stdout)
            self.assertIn(says, p.stdout)
            self.assertFalse(os.path.exists(os.path.join(d, "out")))

    def test_byte_for_byte(self):
        data = image(700, [0, 1, 2, 40, 256, 257, 699])
        self.assertEqual(self.roundtrip(data), data)

    def test_the_size_when_the_last_blocks_are_zero(self):
        data = image(513, [3])
        self.assertEqual(self.roundtrip(data), data)

    def test_an_all_zero_image(self):
        self.assertEqual(self.roundtrip(bytes(9 * B)), bytes(9 * B))

    def test_a_last_line_without_its_newline_is_read(self):
        data = image(8, [2, 6])
        text, blocks = ib.split(data)
        with tempfile.TemporaryDirectory() as d:
            p = self.unpack(d, text.rstrip("\n"), blocks)
            self.assertEqual(p.returncode, 0, p.stdout)
            with open(os.path.join(d, "out"), "rb") as f:
                self.assertEqual(f.read(), data)

    def test_no_blocks_line(self):
        self.refused("does not start with 'blocks N'", "3 2\n")

    def test_a_size_that_is_not_a_number(self):
        self.refused("does not start with 'blocks N'", "blocks 8x\n")

    def test_a_blocks_line_with_more_words(self):
        self.refused("does not start with 'blocks N'", "blocks 8 extra\n")

    def test_a_run_that_is_not_two_numbers(self):
        self.refused("is not 'START COUNT'", "blocks 8\n3x 1\n", bytes(B))

    def test_a_blocks_file_shorter_than_its_runs(self):
        self.refused("is not the 2 blocks", "blocks 8\n3 2\n", b"\1" * B)

    def test_a_blocks_file_longer_than_its_runs(self):
        self.refused("is not the 1 blocks", "blocks 8\n3 1\n", b"\1" * (2 * B))


if __name__ == "__main__":
    unittest.main()
