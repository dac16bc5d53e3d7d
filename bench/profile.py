#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Compare two cachesim profiles (plugin argument profile=on) by function.

Each profile line is "phase block-address instructions L2-misses
[L1D-misses]" (older profiles lack the last column); block
addresses in the kernel are mapped to functions with the kernel's
System.map, user-space blocks count as "user".  Prints, per phase, the
totals and the functions whose instructions or L2 misses differ most.

usage: profile.py A.profile A/System.map B.profile B/System.map [N]
"""
import bisect
import collections
import sys


def symbols(path):
    syms = sorted((int(f[0], 16), f[2]) for f in (line.split() for line in open(path))
                  if len(f) >= 3 and f[1] in "tTwW")
    return [a for a, _ in syms], [n for _, n in syms]


def load(path, sysmap):
    addrs, names = symbols(sysmap)
    prof = collections.defaultdict(lambda: collections.defaultdict(lambda: [0, 0, 0]))
    for line in open(path):
        f = line.split()
        phase, va, insns, l2m = f[:4]
        l1m = f[4] if len(f) > 4 else 0
        va = int(va, 16)
        i = bisect.bisect_right(addrs, va) - 1
        name = names[i] if va >> 63 and i >= 0 else "user"
        prof[int(phase)][name][0] += int(insns)
        prof[int(phase)][name][1] += int(l2m)
        prof[int(phase)][name][2] += int(l1m)
    return prof


def main():
    if len(sys.argv) < 5:
        print(__doc__, file=sys.stderr)
        return 2
    a = load(sys.argv[1], sys.argv[2])
    b = load(sys.argv[3], sys.argv[4])
    n = int(sys.argv[5]) if len(sys.argv) > 5 else 12
    for phase in sorted(a):
        pa, pb = a[phase], b.get(phase, {})
        ta = [sum(v[k] for v in pa.values()) for k in (0, 1, 2)]
        tb = [sum(v[k] for v in pb.values()) for k in (0, 1, 2)]
        print("phase %d: instructions %d -> %d (%+.2f %%), L2 misses %d -> %d, "
              "L1D misses %d -> %d" % (phase, ta[0], tb[0],
                                        100.0 * (tb[0] - ta[0]) / max(ta[0], 1),
                                        ta[1], tb[1], ta[2], tb[2]))
        names = set(pa) | set(pb)
        zero = [0, 0, 0]
        for key, what in ((0, "instructions"), (1, "L2 misses"), (2, "L1D misses")):
            # ties by name: the same report whatever the hash seed
            top = sorted(names, key=lambda f: (-abs(pb.get(f, zero)[key] - pa.get(f, zero)[key]),
                                               f))[:n]
            print("  by %s:" % what)
            for f in top:
                x, y = pa.get(f, zero)[key], pb.get(f, zero)[key]
                if x != y:
                    print("    %-40s %12d %12d %+12d" % (f, x, y, y - x))
    return 0


if __name__ == "__main__":
    sys.exit(main())
