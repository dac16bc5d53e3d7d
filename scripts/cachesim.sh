#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the cachesim TCG plugin (bench/cachesim) and run its unit test.
#
# usage: scripts/cachesim.sh [test|check [FLAVOUR]]
#   test: only build and run the host unit test of the cache model
#         (no QEMU header needed)
#   default: also fetch QEMU's plugin API header and build the plugin,
#         build/cachesim/cachesim.so
#   check: also boot a kernel (default vanilla) with the plugin and check the
#         counts of two guest walks of known miss counts (guest/jobs/
#         cachecheck.sh): a walk over twice the L1D misses on every line
#         read, one over half of it on (almost) none
#
# The header, include/qemu/qemu-plugin.h, is not packaged as a -dev file:
# it comes from Debian's source package of the installed QEMU, fetched with
# apt-get source through private deb-src lists under build/apt, the twins
# of the deb entries of the machine's own apt sources (the system's apt
# configuration is not changed); only the header is kept.
. "$(dirname "$0")/lib.sh"
step cachesim

# deb_src_lists DIR: write the deb-src twin of every deb entry of the apt
# sources: DIR/sources.list from the one-line lists (sources.list and
# sources.list.d/*.list), DIR/sources.list.d/system.sources from the deb822
# stanzas with "Types: deb" (sources.list.d/*.sources).  Prints how many
# entries (lines and stanzas) it wrote.
deb_src_lists() {
	local dir=$1 SL='' SP='' f
	eval "$(apt-config shell SL Dir::Etc::sourcelist/f SP Dir::Etc::sourceparts/d)"
	[ -n "$SP" ] || fail "apt-config names no apt sources -- is apt installed?"
	mkdir -p "$dir/sources.list.d"
	for f in "$SL" "$SP"/*.list; do
		[ -f "$f" ] || continue
		sed -n 's/^[[:space:]]*deb[[:space:]]\{1,\}/deb-src /p' "$f"
	done >"$dir/sources.list"
	for f in "$SP"/*.sources; do
		[ -f "$f" ] || continue
		awk 'BEGIN { RS = ""; FS = "\n" }
		{
			out = ""; deb = 0
			for (i = 1; i <= NF; i++) {
				line = $i
				if (tolower(line) ~ /^types:/) {
					n = split(substr(line, 7), t, /[ \t]+/)
					for (j = 1; j <= n; j++)
						if (t[j] == "deb")
							deb = 1
					line = "Types: deb-src"
				}
				out = out line "\n"
			}
			if (deb)
				printf "%s\n", out
		}' "$f"
	done >"$dir/sources.list.d/system.sources"
	echo $(($(grep -c . "$dir/sources.list") + $(grep -c '^Types: deb-src' "$dir/sources.list.d/system.sources")))
}

SRC=$ROOT/bench/cachesim
OUT=$BUILD/cachesim
log=$LOGS/cachesim.log
mkdir -p "$OUT"
: >"$log"
rm -f "$OUT"/*.tap "$OUT"/*.tap.results

run_logged "$log" "fix the compile error in bench/cachesim/test.c or cache.h" \
	gcc -O2 -Wall -Wextra -Werror -o "$OUT/test" "$SRC/test.c"
"$OUT/test" >"$OUT/test.tap" 2>&1 ||
	fail "the cache model's unit test failed (bench/cachesim/test.c) -- see ${OUT#"$ROOT"/}/test.tap" "$OUT/test.tap"
msg "$(tail -1 "$OUT/test.tap" | sed 's/^# //')"
[ "${1:-}" = test ] && exit 0

hdr=$OUT/include/qemu-plugin.h
qver=$(dpkg-query -W -f '${source:Version}' qemu-system-x86 2>/dev/null) ||
	fail "qemu-system-x86 is not installed -- run scripts/deps.sh bench"
if [ ! -f "$hdr" ] || [ "$(cat "$hdr.version" 2>/dev/null)" != "$qver" ]; then
	apt=$BUILD/apt
	rm -rf "$apt"
	mkdir -p "$apt/lists/partial" "$apt/src"
	[ "$(deb_src_lists "$apt")" -gt 0 ] ||
		fail "no deb entry in the apt sources (apt-config dump | grep Dir::Etc) -- configure the Debian mirror for apt"
	opts=(-o "Dir::Etc::SourceList=$apt/sources.list" -o "Dir::Etc::SourceParts=$apt/sources.list.d"
		-o "Dir::State::Lists=$apt/lists" -o Debug::NoLocking=1)
	msg "fetching QEMU $qver's source package for its plugin header (about 24 MB)"
	run_logged "$log" "check the network to the configured Debian mirror (the deb-src twins of the apt sources are in ${apt#"$ROOT"/})" \
		apt-get -q "${opts[@]}" update
	(cd "$apt/src" && apt-get -q "${opts[@]}" source --download-only "qemu=$qver") >>"$log" 2>&1 ||
		fail "apt-get source qemu=$qver failed (log: ${log#"$ROOT"/}) -- the installed QEMU's source must be served by the configured Debian mirror; upgrade qemu-system-x86 if it is older than the archive's" "$log"
	orig=$(find "$apt/src" -maxdepth 1 -name 'qemu_*.orig.tar.*' | head -1)
	[ -n "$orig" ] || fail "no qemu orig tarball in ${apt#"$ROOT"/}/src -- see $log" "$log"
	mkdir -p "$OUT/include"
	# shellcheck disable=SC2015 # fails if either fails
	tar -xJf "$orig" -O --wildcards '*/include/qemu/qemu-plugin.h' >"$hdr.tmp" 2>>"$log" && [ -s "$hdr.tmp" ] ||
		fail "include/qemu/qemu-plugin.h not found in $(basename "$orig")" "$log"
	mv "$hdr.tmp" "$hdr"
	echo "$qver" >"$hdr.version"
	rm -rf "$apt"
fi
run_logged "$log" "fix the compile error in bench/cachesim/cachesim.c" \
	gcc -O2 -Wall -Wextra -Werror -Wno-unused-parameter -shared -fPIC \
	-I"$OUT/include" -o "$OUT/cachesim.so" "$SRC/cachesim.c"
msg "plugin: ${OUT#"$ROOT"/}/cachesim.so (QEMU $qver plugin API)"
[ "${1:-}" = check ] || exit 0

# End to end: the plugin loaded in QEMU, the guest's phase markers, the
# physical addresses.  User-mode L1D misses of the walks: exactly the lines
# read for 2x L1 (every access misses under LRU), under 1 % of them for
# L1/2 (the timer interrupt may evict a few lines).
step "cachesim check"
phases=$OUT/check.phases
flavour=${2:-vanilla}
"$ROOT/scripts/run-guest.sh" --quiet --icount --no-disk --tag cachecheck \
	--plugin "$OUT/cachesim.so,out=$phases" "$flavour" cachecheck 49152 || exit 1
jobout=$LOGS/$flavour-cachecheck-cachecheck.out
python3 - "$jobout" "$phases" >"$OUT/check.tap" <<'EOPY' || fail "the plugin's end-to-end check failed -- see ${OUT#"$ROOT"/}/check.tap and $phases" "$OUT/check.tap"
import sys
walks = [l.split() for l in open(sys.argv[1]) if l.startswith("hotcold-phase ")]
recs = [dict(kv.split("=") for kv in l.split()) for l in open(sys.argv[2])
        if l.startswith("phase=") and "vcpu=0" in l]
ok = len(walks) == 2 and len(recs) == 2
print("TAP version 13")
print("%sok 1 - two phases seen by the plugin and the guest" % ("" if ok else "not "))
fails = 0 if ok else 1
if ok:
    for n, (w, r) in enumerate(zip(walks, recs), 2):
        lines = int(w[2].split("=")[1])
        miss = int(r["l1m_u"])
        if w[1] == "walk_2xL1":
            good = miss == lines
            want = "== %d" % lines
        else:
            good = miss < lines / 100
            want = "< %d" % (lines // 100)
        fails += not good
        print("%sok %d - %s: user L1D misses %d (expected %s)" %
              ("" if good else "not ", n, w[1], miss, want))
print("1..%d" % (3 if ok else 1))
sys.exit(fails != 0)
EOPY
msg "plugin check: $(grep -c '^ok' "$OUT/check.tap") passed, $(grep -c '^not ok' "$OUT/check.tap") failed ($(sed -n 's/^ok 2 - //p' "$OUT/check.tap"))"

