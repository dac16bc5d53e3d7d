#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make bench's second step: everything the run's boots need, built as its
# plan says (RUNDIR/plan.sh, bench/hcreport/plan.py): the tools, the
# kernels (FLAVOURS, without test code), each kernel relinked at each
# round's layout pads (RUNDIR/layouts.tsv), the guest images and modules,
# the cache plugin and its check (the plugin alone for a run whose only
# use of it is the silicon check), the QEMU with turns for the boots of
# more than one vCPU, and the host's own latencies (bench/calibrate, a
# cross-check printed beside the published prices, never a price).
#
# usage: scripts/bench-build.sh RUNDIR
. "$(dirname "$0")/lib.sh"
step build

# round_layouts: each kernel linked again at each round's pads (the
# plan's layouts.tsv: layout, kernel, round, a group D,B,M,P per object
# of LAYOUT_POINTS) into round_kernel_dir LAYOUT R (the layout: the
# kernel's name, or the layout A/A's, whose relinks of the base's kernel
# are kept apart from the base's), what round R boots, with its pads
# beside it (pad: bench-boot.sh checks a boot's image is its line's);
# each relink checked to carry its pads (each pad asked for a symbol of
# its System.map, and none other) and to have moved what follows them
# (layout_moves, against the kernel as built); then the kernel built
# again as it was, and checked to be the same image.
round_layouts() {
	local f l r pad d k kind n want moved built
	step layouts
	rm -rf "$BUILD/rounds"
	for f in $FLAVOURS; do
		k=$(kernel_dir "$f")
		built=$BUILD/rounds/$f-built
		if ! mkdir -p "$built" || ! cp "$k/System.map" "$k/arch/x86/boot/bzImage" "$built/"; then
			fail "cannot keep the $f kernel as built in ${built#"$ROOT"/}"
		fi
		while IFS=$'\t' read -r l r pad; do
			LAYOUT_PAD=$pad "$ROOT/scripts/build-kernel.sh" "$f" || exit 1
			d=$(round_kernel_dir "$l" "$r")
			mkdir -p "$d/mm" "$d/arch/x86/boot" || fail "cannot make $d"
			if ! cp "$k/System.map" "$k/vmlinux" "$d/" || ! cp "$k/mm/page_alloc.o" "$d/mm/" ||
				! cp "$k/arch/x86/boot/bzImage" "$d/arch/x86/boot/" || ! echo "$pad" >"$d/pad"; then
				fail "cannot keep the $f kernel of round $r in ${d#"$ROOT"/}"
			fi
			# every pad asked for above 0 lines is a symbol of the
			# relinked System.map, one per object asking, and no other
			n=1
			for kind in data bss mostly percpu; do
				want=$(tr ' ' '\n' <<<"$pad" | cut -d, -f"$n" | grep -vcx 0)
				[ "$(grep -c " hotcold_pad_$kind\$" "$d/System.map")" = "$want" ] ||
					fail "the $f kernel of round $r has $(grep -c " hotcold_pad_$kind\$" "$d/System.map") hotcold_pad_$kind symbols in ${d#"$ROOT"/}/System.map, not the $want its pads ($pad) ask for -- see ${LOGS#"$ROOT"/}/build-$f$(config_suffix).log"
				n=$((n + 1))
			done
			moved=$(layout_moves "$built/System.map" "$d/System.map" "$pad")
			[ -z "$moved" ] ||
				fail "the $f kernel of round $r did not move as its pads ($pad) ask: $(tr '\n' ';' <<<"$moved") -- a page alignment between a pad and scripts/lib/bench.sh's LAYOUT_REFS, or a pad not linked"
		done < <(awk -F'\t' -v f="$f" 'NR > 1 && $2 == f { print $1 "\t" $3 "\t" $4 }' "$OUT/layouts.tsv")
		"$ROOT/scripts/build-kernel.sh" "$f" || exit 1
		cmp -s "$k/arch/x86/boot/bzImage" "$built/bzImage" ||
			fail "the $f kernel built again without pads is not the image it was (${k#"$ROOT"/}/arch/x86/boot/bzImage against ${built#"$ROOT"/}/bzImage)"
	done
	msg "layouts: $(($(wc -l <"$OUT/layouts.tsv") - 1)) relinks of $(wc -w <<<"$FLAVOURS") kernels (${OUT#"$ROOT"/}/layouts.tsv)"
}

# calibrate: the host's latencies, measured natively before any guest
# runs (bench/calibrate), into RUNDIR/calibrate.txt
calibrate() {
	local opt=()
	step calibrate
	gcc -O2 -Wall -Wextra -Werror -pthread -o "$OUT/calibrate" "$ROOT/bench/calibrate/calibrate.c" ||
		fail "bench/calibrate/calibrate.c does not build"
	[ "$QUICK" = 0 ] || opt=(--quick)
	"$OUT/calibrate" "${opt[@]}" >"$OUT/calibrate.txt" ||
		fail "bench/calibrate failed (output: $OUT/calibrate.txt)"
	msg "$(tr '\n' ';' <"$OUT/calibrate.txt" | sed 's/calibrate //g')"
}

{ [ $# = 1 ] && [ -f "$1/plan.sh" ]; } || fail "usage: scripts/bench-build.sh RUNDIR (a run's directory, with its plan.sh)"
OUT=$1
# shellcheck source=/dev/null
. "$OUT/plan.sh"
step deps
"$ROOT/scripts/deps.sh" bench || exit 1
"$ROOT/scripts/source.sh" || exit 1
"$ROOT/scripts/tree.sh" sync || exit 1
step build
for f in $FLAVOURS; do
	"$ROOT/scripts/build-kernel.sh" "$f" || exit 1
	check_no_test_code "$f"
	# the seeded rounds' page_alloc.shuffle=1: a kernel without it
	# ignores the parameter (the guest job fails on that too; this fails
	# before any boot)
	[ "$SHUFFLE" = 0 ] || [ "$DET" = 0 ] ||
		grep -q '^CONFIG_SHUFFLE_PAGE_ALLOCATOR=y' "$(kernel_dir "$f")/.config" ||
		fail "the $f kernel has no CONFIG_SHUFFLE_PAGE_ALLOCATOR=y (${BUILD#"$ROOT"/}/kernel-$f/.config), which SHUFFLE=1's rounds need -- configs/base.config sets it: rebuild, or SHUFFLE=0"
done
"$ROOT/scripts/initramfs.sh" || exit 1
[ "$PROGRAMS" = 0 ] || "$ROOT/scripts/programs.sh" || exit 1
"$ROOT/scripts/disk.sh" || exit 1
# shellcheck disable=SC2086 # a list of flavours
"$ROOT/scripts/modules.sh" $FLAVOURS || exit 1
[ "$SHUFFLE" = 0 ] || [ "$DET" = 0 ] || round_layouts
if [ "$DET" = 1 ]; then
	# builds the plugin, runs its unit test and its end-to-end check
	"$ROOT/scripts/cachesim.sh" check || exit 1
	[ "$TURNS" = 0 ] || "$ROOT/scripts/qemu.sh" || exit 1
elif [ "$SILICON" = 1 ]; then
	# the silicon check's cache model (its unit test too)
	"$ROOT/scripts/cachesim.sh" || exit 1
fi
[ "$CACHESIM" = 0 ] || calibrate
