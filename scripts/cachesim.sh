#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the cachesim TCG plugin (bench/cachesim) and run its unit test.
#
# usage: scripts/cachesim.sh [test|check [FLAVOUR]|crosscheck [FLAVOUR]]
#   test: only build and run the host unit test of the cache model
#         (no QEMU header needed; make unit runs it)
#   default: also fetch QEMU's plugin API header and build the plugin,
#         build/cachesim/cachesim.so
#   check: also boot a kernel (default vanilla) with the plugin, in the
#         two-level and the three-level layout, and check the counts of
#         guest phases of known miss counts (guest/jobs/cachecheck.sh): a
#         walk over twice the L1D misses on every line read, one over half
#         of it on (almost) none, and a file read behind DMA markers on
#         every line at the last level
#   crosscheck: build QEMU's own contrib/plugins/cache.c too and compare
#         the two models' whole-run counts on one boot (see crosscheck())
#
# The header, include/qemu/qemu-plugin.h, is not packaged as a -dev file:
# it comes from Debian's source package of the installed QEMU, fetched with
# apt-get source through private deb-src lists under build/apt, the twins
# of the deb entries of the machine's own apt sources (the system's apt
# configuration is not changed); only the header is kept.
. "$(dirname "$0")/lib.sh"
step cachesim


# crosscheck FLAVOUR: our model against QEMU's own contrib/plugins/cache.c
# (a different author's model, LRU too), both loaded in one boot that runs
# kernel and user code (boot, then a trunc80k and a page-fault workload),
# with the same geometry: one vCPU, a 32 KB 8-way L1D and a 2 MB 16-way
# L2, 64-byte lines.  QEMU's has no phases and a unified L2 that
# instruction fetches also fill; ours counts the whole run (phases=off)
# and an access crossing a line as two.  Checks that the whole-run L1D
# misses agree within CROSS_L1 (default 0.5 %) and the L2 misses within
# CROSS_L2 (default 10 %: QEMU's L2 also holds instruction lines).
# Measured on 2026-12-04: L1D +0.02 %, L2 -3.6 % (docs/bench.md).
crosscheck() {
	local flavour=$1 ours=$OUT/cross.phases theirs jobout
	step "cachesim cross-check"
	rm -f "$OUT/cross.tap" "$OUT/cross.tap.results"
	theirs=$LOGS/$flavour-bench-cross.plugin
	"$ROOT/scripts/run-guest.sh" --quiet --icount --no-disk --smp 1 --mem "$BENCH_GUEST_MB" --tag cross \
		--plugin "$OUT/cachesim.so,out=$ours,phases=off,l1size=32768,l1ways=8,l2size=2097152,l2ways=16" \
		--plugin "$OUT/qemu-cache.so,dcachesize=32768,dassoc=8,dblksize=64,l2cachesize=2097152,l2assoc=16,l2blksize=64,cores=1,limit=1" \
		"$flavour" bench fixed 1 history=1 trunc80k_tmpfs_1 pagefault_anon || exit 1
	python3 - "$ours" "$theirs" "${CROSS_L1:-0.005}" "${CROSS_L2:-0.10}" >"$OUT/cross.tap" <<'EOPY'
import sys
ours = [dict(kv.split("=", 1) for kv in l.split()) for l in open(sys.argv[1])
        if l.startswith("phase=")]
rows = [l.split() for l in open(sys.argv[2]) if l[:1].isdigit()]
tol1, tol2 = float(sys.argv[3]), float(sys.argv[4])
print("TAP version 13")
if len(ours) != 1 or not rows:
    print("not ok 1 - cross-check: whole-run counts from both plugins (ours %d, QEMU's %d)"
          % (len(ours), len(rows)))
    print("1..1")
    sys.exit(1)
o = ours[0]
mine = {"L1D misses": int(o["l1m_k"]) + int(o["l1m_u"]),
        "L2 misses": int(o["l2m_k"]) + int(o["l2m_u"]),
        "L1D accesses": int(o["acc_k"]) + int(o["acc_u"])}
# core 0: data accesses, data misses, rate, insn accesses, insn misses,
# rate, l2 accesses, l2 misses, rate
r = rows[0]
qemu = {"L1D accesses": int(r[1]), "L1D misses": int(r[2]), "L2 misses": int(r[8])}
fails = 0
for n, (k, tol) in enumerate((("L1D misses", tol1), ("L2 misses", tol2)), 1):
    d = mine[k] / qemu[k] - 1 if qemu[k] else float("inf")
    good = abs(d) <= tol
    fails += not good
    print("%sok %d - cross-check: %s ours %d, QEMU's cache.c %d: %+.2f %% (within %.1f %%)"
          % ("" if good else "not ", n, k, mine[k], qemu[k], 100 * d, 100 * tol))
print("# L1D accesses: ours %d (lines touched), QEMU's %d (accesses)"
      % (mine["L1D accesses"], qemu["L1D accesses"]))
print("1..2")
sys.exit(fails != 0)
EOPY
	local rc=$?
	cat "$OUT/cross.tap" >&2
	[ "$rc" = 0 ] || fail "our cache model and QEMU's disagree beyond the tolerance -- see ${OUT#"$ROOT"/}/cross.tap" "$OUT/cross.tap"
	msg "cross-check against QEMU's cache.c: $(grep -c '^ok' "$OUT/cross.tap") checks passed"
	exit 0
}

SRC=$ROOT/bench/cachesim
OUT=$BUILD/cachesim
log=$LOGS/cachesim.log
mkdir -p "$OUT"
: >"$log"
rm -f "$OUT/test.tap" "$OUT/test.tap.results"

run_logged "$log" "fix the compile error in bench/cachesim/test.c or cache.h" \
	gcc -O2 -Wall -Wextra -Werror -o "$OUT/test" "$SRC/test.c"
"$OUT/test" >"$OUT/test.tap" 2>&1 ||
	fail "the cache model's unit test failed (bench/cachesim/test.c) -- see ${OUT#"$ROOT"/}/test.tap" "$OUT/test.tap"
msg "$(tail -1 "$OUT/test.tap" | sed 's/^# //')"
[ "${1:-}" = test ] && exit 0

hdr=$OUT/include/qemu-plugin.h
qver=$(dpkg-query -W -f '${source:Version}' qemu-system-x86 2>/dev/null) ||
	fail "qemu-system-x86 is not installed -- run scripts/deps.sh bench"
qcache=$OUT/qemu/cache.c
if [ ! -f "$hdr" ] || [ ! -f "$qcache" ] || [ "$(cat "$hdr.version" 2>/dev/null)" != "$qver" ]; then
	apt=$BUILD/apt
	qemu_source "$apt" "$log" "its plugin header" >/dev/null
	orig=$(find "$apt/src" -maxdepth 1 -name 'qemu_*.orig.tar.*' | head -1)
	[ -n "$orig" ] || fail "no qemu orig tarball in ${apt#"$ROOT"/}/src -- see $log" "$log"
	mkdir -p "$OUT/include"
	# shellcheck disable=SC2015 # fails if either fails
	tar -xJf "$orig" -O --wildcards '*/include/qemu/qemu-plugin.h' >"$hdr.tmp" 2>>"$log" && [ -s "$hdr.tmp" ] ||
		fail "include/qemu/qemu-plugin.h not found in $(basename "$orig")" "$log"
	mv "$hdr.tmp" "$hdr"
	# QEMU's own cache plugin, the independent model the cross-check
	# compares ours with (built, not copied into the repository)
	mkdir -p "$OUT/qemu"
	# shellcheck disable=SC2015 # fails if either fails
	tar -xJf "$orig" -O --wildcards '*/contrib/plugins/cache.c' >"$qcache.tmp" 2>>"$log" && [ -s "$qcache.tmp" ] ||
		fail "contrib/plugins/cache.c not found in $(basename "$orig")" "$log"
	mv "$qcache.tmp" "$qcache"
	echo "$qver" >"$hdr.version"
	rm -rf "$apt"
fi
run_logged "$log" "fix the compile error in bench/cachesim/cachesim.c" \
	gcc -O2 -Wall -Wextra -Werror -Wno-unused-parameter -shared -fPIC \
	-I"$OUT/include" -o "$OUT/cachesim.so" "$SRC/cachesim.c"
msg "plugin: ${OUT#"$ROOT"/}/cachesim.so (QEMU $qver plugin API)"
# shellcheck disable=SC2046 # pkg-config's flags, one per word
run_logged "$log" "QEMU's contrib/plugins/cache.c does not build: is libglib2.0-dev installed (scripts/deps.sh)?" \
	gcc -O2 -shared -fPIC -Wno-unused-parameter $(pkg-config --cflags glib-2.0) -I"$OUT/include" \
	-o "$OUT/qemu-cache.so" "$qcache" $(pkg-config --libs glib-2.0)
[ "${1:-}" = check ] || [ "${1:-}" = crosscheck ] || exit 0
[ "${1:-}" = crosscheck ] && crosscheck "${2:-vanilla}"

# End to end: the plugin loaded in QEMU, the guest's phase markers, the
# physical addresses, in both layouts (two levels, the L2 shared; three,
# a Zen 3 core's private 32 KB L1D and 512 KB L2 and a shared 32 MB L3).
# User-mode misses of the walks: L1D misses on exactly the lines read for
# 2x L1 (every access misses under LRU), under 1 % of them for L1/2 (the
# timer interrupt may evict a few lines), and with three levels under 1 %
# L2 misses for 2x L1 (the private L2 holds it).  The DMA read: every
# marker applied (dma = pages, dma_lost = 0) and every line read missing
# the last level, although the CPU wrote the file just before: each
# marker's load faults first, and the fault's own accesses must not
# consume the marker.
step "cachesim check"
flavour=${2:-vanilla}
rm -f "$OUT/check.tap.results"
: >"$OUT/check.tap"
n=0 fails=0
for layout in "2:49152:" "3:32768:,l1size=32768,l1ways=8,l2size=524288,l2ways=8,l3size=33554432,l3ways=16"; do
	levels=${layout%%:*} rest=${layout#*:}
	l1=${rest%%:*} args=${rest#*:}
	phases=$OUT/check-$levels.phases
	"$ROOT/scripts/run-guest.sh" --quiet --icount --no-disk --smp 1 --tag "cachecheck-$levels" \
		--plugin "$OUT/cachesim.so,out=$phases$args" "$flavour" cachecheck "$l1" || exit 1
	jobout=$LOGS/$flavour-cachecheck-cachecheck-$levels.out
	python3 - "$jobout" "$phases" "$levels" "$n" >>"$OUT/check.tap" <<'EOPY'
import sys
levels, n = int(sys.argv[3]), int(sys.argv[4])
walks = [l.split() for l in open(sys.argv[1]) if l.startswith("hotcold-phase ")]
recs = [dict(kv.split("=") for kv in l.split()) for l in open(sys.argv[2])
        if l.startswith("phase=") and "vcpu=0" in l]
name = "%d levels" % levels
last = "l%dm_u" % levels


def check(good, text):
    global n
    n += 1
    print("%sok %d - %s: %s" % ("" if good else "not ", n, name, text))
    return not good


fails = check(len(walks) == 3 and len(recs) == 3,
              "three phases seen by the plugin (%d) and the guest (%d)" % (len(recs), len(walks)))
if not fails:
    for w, r in zip(walks, recs):
        got = {k: int(v) for k, v in (x.split("=") for x in w[2:])}
        lines = got["lines"]
        if w[1] == "walk_2xL1":
            miss = int(r["l1m_u"])
            fails += check(miss == lines, "%s: user L1D misses %d (expected == %d)"
                           % (w[1], miss, lines))
            if levels == 3:
                miss = int(r["l2m_u"])
                fails += check(miss < lines / 100, "%s: user L2 misses %d (expected < %d)"
                               % (w[1], miss, lines // 100))
        elif w[1] == "walk_halfL1":
            miss = int(r["l1m_u"])
            fails += check(miss < lines / 100, "%s: user L1D misses %d (expected < %d)"
                           % (w[1], miss, lines // 100))
        else:
            fails += check(int(r["dma"]) == got["pages"] and int(r["dma_lost"]) == 0,
                           "%s: markers applied %s, lost %s (expected %d, 0)"
                           % (w[1], r["dma"], r["dma_lost"], got["pages"]))
            miss = int(r[last])
            fails += check(miss >= lines, "%s: user last-level misses %d (expected >= %d)"
                           % (w[1], miss, lines))
print("# n=%d" % n)
sys.exit(fails != 0)
EOPY
	rc=$?
	n=$(sed -n 's/^# n=//p' "$OUT/check.tap" | tail -1)
	[ "$rc" = 0 ] || fails=$((fails + 1))
done
sed -i '/^# n=/d' "$OUT/check.tap"
sed -i '1i TAP version 13' "$OUT/check.tap"
echo "1..$n" >>"$OUT/check.tap"
[ "$fails" = 0 ] || fail "the plugin's end-to-end check failed -- see ${OUT#"$ROOT"/}/check.tap and $OUT/check-*.phases" "$OUT/check.tap"
msg "end-to-end: $n checks passed in both layouts"
