#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the out-of-tree benchmark module (bench/module/) against each given
# kernel flavour and pack it, with the flavour's in-tree test modules
# (lib/test_meminit.ko, lib/test_free_pages.ko: configs/base.config), as
# build/modules-<flavour>[-distro].cpio.gz (lib.sh's modules_archive), which scripts/run-guest.sh appends to
# the guest image; and the residency meter's module, built with it, apart
# as build/resid-<flavour>[-distro].cpio.gz (lib.sh's resid_archive), which
# only the meter's boots append (scripts/bench-boot.sh), so that every
# other boot's image is what it was.
. "$(dirname "$0")/lib.sh"
step modules

INTREE_TEST_MODULES="lib/test_meminit.ko lib/test_free_pages.ko"
for f in "$@"; do
	check_flavour "$f"
	log=$LOGS/modules-$f$(config_suffix).log
	: >"$log"
	src=$BUILD/module-$f$(config_suffix)
	rm -rf "$src"
	cp -r "$ROOT/bench/module" "$src"
	run_logged "$log" "fix the module build error" \
		make -C "$(kernel_dir "$f")" M="$src" CC="ccache gcc" modules
	stage=$BUILD/modules-$f$(config_suffix)
	rm -rf "$stage"
	mkdir -p "$stage/guest/modules"
	find "$src" -maxdepth 1 -name '*.ko' ! -name hotcold_resid.ko -exec cp -t "$stage/guest/modules/" {} + ||
		fail "cannot stage the $f kernel's modules in $stage"
	for ko in $INTREE_TEST_MODULES; do
		[ -f "$(kernel_dir "$f")/$ko" ] ||
			fail "no $ko in the $f kernel's build -- configs/base.config must build it as a module"
		cp "$(kernel_dir "$f")/$ko" "$stage/guest/modules/"
	done
	cpio_image "$stage" "$(modules_archive "$f")" "$log"
	stage=$BUILD/resid-$f$(config_suffix)
	rm -rf "$stage"
	mkdir -p "$stage/guest/modules"
	cp "$src/hotcold_resid.ko" "$stage/guest/modules/" || fail "no hotcold_resid.ko built for the $f kernel -- see $log" "$log"
	cpio_image "$stage" "$(resid_archive "$f")" "$log"
done
