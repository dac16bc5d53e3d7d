# SPDX-License-Identifier: GPL-2.0
"""The run's random draws, every one a function of the run seed
(RUN_SEED, recorded in the plan) and what it is for, so that a run's
boots can be replayed from its plan: each round's QEMU -seed (the same
for every configuration: the rounds pair), each kernel's layout pads per
round (drawn apart per kernel: two kernels' rounds compare two
independent layouts) and each boot's workload order per round (the same
for every configuration in that round and boot: the history is paired
too, and sampled across rounds; docs/decisions.md, "Seeds, pads and
order drawn per run").

Each draw is SHA-256 of "hotcold KIND RUN_SEED KEY", so it depends on
nothing of Python's random module.  RUN_SEED "fixed" gives the seeds and
pads of runs before issue 46 (one list of 20 seeds, drawn once with
python3's random.Random(31).randrange(10**8, 10**9), and pads hashed
from them with SHA-1) and the table's workload order."""
import hashlib

# the fixed list (RUN_SEED=fixed): round R's seed is the Rth
FIXED_SEEDS = ("113183664 604205743 220687353 920313923 521805906 251242153 834293676 "
               "146458888 248918250 220735357 674679666 348895886 863978401 913458742 "
               "249885380 258270849 895272471 135557643 810996034 165087333").split()


def _draw(kind, run_seed, key):
    return int.from_bytes(hashlib.sha256(
        ("hotcold %s %s %s" % (kind, run_seed, key)).encode()).digest(), "big")


def qemu_seed(run_seed, r):
    """round R's QEMU -seed: decimal, 9 digits, no leading zero (QEMU
    reads 010 as octal)"""
    if run_seed == "fixed":
        return FIXED_SEEDS[r - 1]
    return str(10 ** 8 + _draw("seed", run_seed, r) % (9 * 10 ** 8))


def pads(run_seed, flavour, r, points):
    """FLAVOUR's pads in round R: a group D,B,M,P (cache lines 0-63 of
    .data, .bss, __read_mostly and per-CPU data) per object of POINTS
    (scripts/lib/bench.sh's LAYOUT_POINTS), space-separated"""
    out = []
    for p in points:
        if run_seed == "fixed":
            h = hashlib.sha1(("layout %s %s %s" % (qemu_seed("fixed", r), flavour, p))
                             .encode()).hexdigest()[:8]
            b = [int(h[i:i + 2], 16) for i in (0, 2, 4, 6)]
        else:
            x = _draw("pad", run_seed, "%s %d %s" % (flavour, r, p))
            b = [(x >> (8 * i)) & 0xff for i in range(4)]
        out.append(",".join(str(v % 64) for v in b))
    return " ".join(out)


def shuffled(run_seed, key, names):
    """NAMES in the order drawn for KEY (a boot and round): Fisher-Yates,
    each swap drawn apart"""
    out = list(names)
    for i in range(len(out) - 1, 0, -1):
        j = _draw("order", run_seed, "%s %d" % (key, i)) % (i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def scheme_hash(run_seed, points):
    """the seeds= of a det.csv row's stamp: how the rounds were drawn (the
    scheme and the layout points, not the run seed: rows of two runs
    drawn the same way compare), 12 hex digits"""
    with open(__file__, "rb") as f:
        code = f.read()
    scheme = b"fixed" if run_seed == "fixed" else b"drawn"
    return hashlib.sha1(scheme + b" " + " ".join(points).encode() + b" page_alloc.shuffle=1 " +
                        code).hexdigest()[:12]
