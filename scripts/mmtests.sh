#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the kernel's own mm selftests (tools/testing/selftests/mm of the
# pinned baseline; the series does not touch tools/) static, and pack them
# as build/initramfs-mmtests.cpio.gz, the extra archive of the mmtests job
# (guest/jobs/mmtests.sh).  The UAPI headers come from `make headers` into
# build/mmtests-obj; the selftests build from a private copy of their
# sources, so that nothing is written into a kernel source tree.
. "$(dirname "$0")/lib.sh"
step mmtests
lock_build

# The binaries the guest job runs (run_vmtests.sh's names).
TESTS="mremap_test madv_populate mlock2-tests mrelease_test
mkdirty transhuge-stress cow uffd-unit-tests compaction_test hugepage-mmap"

log=$LOGS/mmtests-build.log
: >"$log"
out=$BUILD/initramfs-mmtests.cpio.gz
obj=$BUILD/mmtests-obj
src=$BUILD/mmtests-src

"$ROOT/scripts/tree.sh" vanilla || exit 1
[ -d "$VANILLA_SRC/tools/testing/selftests/mm" ] ||
	fail "no tools/testing/selftests/mm in ${VANILLA_SRC#"$ROOT"/} -- run 'make tree'"

# Rebuilt when the sources, this script or the compiler change.
want=$({ (cd "$VANILLA_SRC" && find tools/testing/selftests/mm tools/testing/selftests/lib.mk \
	tools/testing/selftests/kselftest.h include/uapi mm/gup_test.h -type f | sort | xargs cat);
	cat "$0"; gcc --version; } | sha1sum | cut -c1-16)
stamp=$BUILD/initramfs-mmtests.stamp
if [ -f "$out" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
	exit 0
fi
msg "building the mm selftests (log: ${log#"$ROOT"/})"

rm -rf "$src" "$obj"
mkdir -p "$src/tools/testing" "$src/mm" "$obj/mm"
cp -r "$VANILLA_SRC/tools/testing/selftests" "$src/tools/testing/"
cp -r "$VANILLA_SRC/tools/include" "$src/tools/"
cp "$VANILLA_SRC/mm/gup_test.h" "$src/mm/"
run_logged "$log" "make headers of the baseline must work" \
	make -C "$VANILLA_SRC" O="$obj" ARCH=x86_64 headers
targets=
for t in $TESTS; do
	targets="$targets $obj/mm/$t"
done
# shellcheck disable=SC2086 # a list of targets
run_logged "$log" "fix the selftest build (static libc: libc6-dev)" \
	make -C "$src/tools/testing/selftests/mm" top_srcdir="$src" OUTPUT="$obj/mm" \
	KHDR_INCLUDES="-isystem $obj/usr/include" LDFLAGS=-static $targets

stage=$BUILD/initramfs-mmtests
rm -rf "$stage"
mkdir -p "$stage/guest/mmtests"
for t in $TESTS; do
	# (ldd fails on a static binary)
	! LC_ALL=C ldd "$obj/mm/$t" >/dev/null 2>&1 ||
		fail "$t is not a static binary -- see $log" "$log"
	cp "$obj/mm/$t" "$stage/guest/mmtests/"
done
cpio_image "$stage" "$out" "$log"
echo "$want" >"$stamp"
msg "mm selftests: ${out#"$ROOT"/} ($(du -h "$out" | cut -f1))"
