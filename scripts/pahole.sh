#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# struct per_cpu_pages as pahole prints it, in the kernels that differ in
# it: vanilla, single (one list, on the baseline) and the series
# (hotcold-bench, the kernel make bench measures).  The kernels carry no
# DWARF (CONFIG_DEBUG_INFO_NONE), so mm/page_alloc.c is compiled once more
# with -g, from the command line kbuild recorded for it in the kernel's
# object directory, into build/pahole/FLAVOUR.o; pahole reads that.
# Nothing in the object directories changes.  Prints each layout and a
# size line per kernel; fails if a kernel is not built or pahole finds no
# struct.
#
# usage: scripts/pahole.sh [FLAVOUR...]   (default: vanilla single hotcold-bench)
. "$(dirname "$0")/lib.sh"
step pahole

sizes=
[ $# -gt 0 ] || set -- vanilla single hotcold-bench
# every kernel asked for is built, before anything is installed or compiled
for f in "$@"; do
	check_flavour "$f"
	cmdfile=$(kernel_dir "$f")/mm/.page_alloc.o.cmd
	[ -f "$cmdfile" ] || fail "no built $f kernel (${cmdfile#"$ROOT"/}) -- run scripts/build-kernel.sh $f"
	grep -q '^savedcmd_mm/page_alloc\.o := .* -Wp,-MMD,mm/\.page_alloc\.o\.d .* -c -o mm/page_alloc\.o ' "$cmdfile" ||
		fail "${cmdfile#"$ROOT"/}: no 'gcc -Wp,-MMD,... -c -o mm/page_alloc.o' command in it -- rebuild the $f kernel"
	# the object is the source's: the struct's header and its user are
	# no newer than it (the tree may have moved on since the kernel's build)
	dir=$(kernel_dir "$f")
	for src in mm/page_alloc.c include/linux/mmzone.h; do
		[ ! "$dir/../$src" -nt "$dir/mm/page_alloc.o" ] ||
			fail "$src is newer than the $f kernel's mm/page_alloc.o -- rebuild it (scripts/build-kernel.sh $f), so that pahole reads what the kernel was built from"
	done
done
"$ROOT/scripts/deps.sh" pahole || exit 1
out=$BUILD/pahole
mkdir -p "$out"
for f in "$@"; do
	dir=$(kernel_dir "$f")
	cmd=$(sed -n 's/^savedcmd_mm\/page_alloc\.o := //p' "$dir/mm/.page_alloc.o.cmd")
	cmd=${cmd%%;*}
	# no dependency file, no ccache, debug info, our output
	cmd=${cmd/-Wp,-MMD,mm\/.page_alloc.o.d /}
	cmd=${cmd#ccache }
	# shellcheck disable=SC2016 # expanded by the eval below
	cmd=${cmd/ -c -o mm\/page_alloc.o / -g -c -o \"\$PAHOLE_OBJ\" }
	log=$LOGS/pahole-$f.log
	(cd "$dir" && export PAHOLE_OBJ=$out/$f.o && eval "$cmd") >"$log" 2>&1 ||
		fail "compiling mm/page_alloc.c with -g for $f failed" "$log"
	pahole -C per_cpu_pages "$out/$f.o" >"$out/$f.txt" 2>>"$log" || fail "pahole failed on $out/$f.o" "$log"
	size=$(sed -n 's/.*\/\* size: \([0-9]*\), cachelines: \([0-9]*\).*/\1 bytes, \2 cache lines/p' "$out/$f.txt")
	[ -n "$size" ] || fail "pahole found no struct per_cpu_pages in ${out#"$ROOT"/}/$f.o" "$log"
	echo "== $f"
	cat "$out/$f.txt"
	sizes="$sizes$f: struct per_cpu_pages $size
"
done
printf '%s' "$sizes"
