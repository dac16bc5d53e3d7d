#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Carry the hand-written subject and blurb of the cover letter across
'git format-patch --cover-letter', which regenerates the shortlog and
diffstat but writes placeholders for the text.  The Date header is taken
from the last patch so that an unchanged series exports byte-identically.

usage: cover-letter.py OLD_COVER NEW_COVER
"""
import glob
import os
import re
import sys

SUBJ = "*** SUBJECT HERE ***"
BLURB = "*** BLURB HERE ***"
SHORTLOG = re.compile(r"^\S.*\(\d+\):$")


def split(text):
    head, _, body = text.partition("\n\n")
    return head, body


def old_parts(path):
    if not os.path.exists(path):
        return SUBJ, BLURB + "\n"
    head, body = split(open(path).read())
    subj = SUBJ
    lines = head.split("\n")
    for i, line in enumerate(lines):
        if line.startswith("Subject:"):
            s = line[len("Subject:"):]
            j = i + 1
            while j < len(lines) and lines[j].startswith(" "):
                s += lines[j]
                j += 1
            subj = re.sub(r"^\s*\[[^]]*\]\s*", "", s).strip()
    out = []
    for line in body.split("\n"):
        if SHORTLOG.match(line):
            break
        out.append(line)
    return subj, "\n".join(out).rstrip("\n") + "\n"


def main():
    old, new = sys.argv[1], sys.argv[2]
    subj, blurb = old_parts(old)
    text = open(new).read()
    text = text.replace(SUBJ, subj, 1)
    text = text.replace(BLURB + "\n", blurb, 1)
    patches = sorted(glob.glob(os.path.join(os.path.dirname(new), "[0-9]*.patch")))
    patches = [p for p in patches if not os.path.basename(p).startswith("0000-")]
    if patches:
        m = re.search(r"^Date: .*$", open(patches[-1]).read(), re.M)
        if m:
            text = re.sub(r"^Date: .*$", m.group(0), text, count=1, flags=re.M)
    open(new, "w").write(text)


if __name__ == "__main__":
    main()
