#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A disk image as what the guest needs to rebuild it cheaply: its size
and its blocks that are not all zero.

usage: scripts/image-blocks.py IMAGE PREFIX
  writes PREFIX.extents, a line "blocks N" (the image's size in 4 KB
  blocks) then a line "START COUNT" per run of non-zero blocks, and
  PREFIX.blocks, those runs' bytes one after the other.

The guest (guest/lib.sh's image_unpack) allocates N blocks with
fallocate, which read as zeroes, and writes the runs over them with dd:
the image, byte for byte, neither inflated nor written whole.  An empty
ext4 of 64 MB is 12 such blocks; busybox's gunzip spent some 24 s of host
time under the cache model on it, before each of two workloads a boot.
"""
import sys

BLOCK = 4096


def extents(data):
    """(start, count) of each run of 4 KB blocks not all zero"""
    if len(data) % BLOCK:
        raise ValueError("the image is %d bytes, not a whole number of %d-byte blocks"
                         % (len(data), BLOCK))
    zero = bytes(BLOCK)
    runs = []
    for i in range(len(data) // BLOCK):
        if data[i * BLOCK:(i + 1) * BLOCK] == zero:
            continue
        if runs and runs[-1][0] + runs[-1][1] == i:
            runs[-1][1] += 1
        else:
            runs.append([i, 1])
    return [tuple(r) for r in runs]


def split(data):
    """the extents file's text and the blocks' bytes of an image"""
    runs = extents(data)
    text = "blocks %d\n" % (len(data) // BLOCK)
    text += "".join("%d %d\n" % r for r in runs)
    blocks = b"".join(data[s * BLOCK:(s + n) * BLOCK] for s, n in runs)
    return text, blocks


def join(text, blocks):
    """the image again (what image_unpack does in the guest)"""
    lines = text.splitlines()
    head = lines[0].split()
    if len(head) != 2 or head[0] != "blocks":
        raise ValueError("the extents do not start with 'blocks N'")
    out = bytearray(int(head[1]) * BLOCK)
    off = 0
    for line in lines[1:]:
        s, n = map(int, line.split())
        out[s * BLOCK:(s + n) * BLOCK] = blocks[off:off + n * BLOCK]
        off += n * BLOCK
    return bytes(out)


def main(argv):
    if len(argv) != 3:
        print("usage: image-blocks.py IMAGE PREFIX", file=sys.stderr)
        return 2
    try:
        with open(argv[1], "rb") as f:
            data = f.read()
        text, blocks = split(data)
    except (OSError, ValueError) as e:
        print("image-blocks.py: %s: %s" % (argv[1], e), file=sys.stderr)
        return 1
    with open(argv[2] + ".extents", "w") as f:
        f.write(text)
    with open(argv[2] + ".blocks", "wb") as f:
        f.write(blocks)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
