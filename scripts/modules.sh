#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the out-of-tree benchmark module (bench/module/) against each given
# kernel flavour and pack it, with the flavour's in-tree test modules
# (lib/test_meminit.ko, lib/test_free_pages.ko: configs/base.config), as
# build/modules-<flavour>[-distro].cpio.gz (lib.sh's modules_archive), which scripts/run-guest.sh appends to
# the guest image.
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
	cp "$src"/*.ko "$stage/guest/modules/"
	for ko in $INTREE_TEST_MODULES; do
		[ -f "$(kernel_dir "$f")/$ko" ] ||
			fail "no $ko in the $f kernel's build -- configs/base.config must build it as a module"
		cp "$(kernel_dir "$f")/$ko" "$stage/guest/modules/"
	done
	cpio_image "$stage" "$(modules_archive "$f")" "$log"
done
