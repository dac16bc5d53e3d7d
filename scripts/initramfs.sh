#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the guest image build/initramfs.cpio.gz: busybox-static, guest/init,
# the jobs and tests under guest/, and guest/src/*.c compiled static.
# Both archives are reproducible (scripts/lib/image.sh's cpio_image): the same inputs
# give the same bytes.
. "$(dirname "$0")/lib.sh"
step initramfs
# (the modes staged are the sources', whatever the caller's umask)
umask 022
# (make test and make bench hold the lock already)
lock_build

# stage_guest_scripts STAGE: the guest's shell side into STAGE: /init,
# and under /guest the shell library, the SDET script, the workload table,
# the jobs, the bench job's workload families and the tests (a file a job
# sources must be here: scripts/tests/test_guest_image.py)
stage_guest_scripts() {
	install -m 0755 "$ROOT/guest/init" "$1/init"
	cp "$ROOT/guest/lib.sh" "$ROOT/guest/sdet.sh" "$1/guest/"
	cp "$ROOT/bench/workloads.tsv" "$1/guest/workloads.tsv"
	cp -r "$ROOT/guest/jobs" "$ROOT/guest/bench" "$ROOT/guest/tests" "$1/guest/"
}

out=$BUILD/initramfs.cpio.gz
stage=$BUILD/initramfs
log=$LOGS/initramfs.log
: >"$log"

[ -x /bin/busybox ] || fail "/bin/busybox missing -- apt-get install busybox-static"

rm -rf "$stage"
mkdir -p "$stage"/{bin,guest/bin,proc,sys,dev,tmp,mnt,etc}
cp /bin/busybox "$stage/bin/busybox"
stage_guest_scripts "$stage"
# An empty ext4 for the trunc80k_ext4 workloads, which mount it on a loop
# device over tmpfs (guest/jobs/bench.sh): made the way build/disk.img is
# (4 KB blocks, 16 MB journal), inode tables and journal written now so
# that no lazy-init thread runs in the guest, with a fixed UUID, hash seed
# and time so that every build gives the same image.  64 MB, of which 12
# blocks are not zero: the guest gets those and the size
# (scripts/image-blocks.py) and rebuilds it (guest/lib.sh's image_unpack).
mkdir -p "$stage/guest/data"
truncate -s 64M "$stage/guest/data/ext4.img"
run_logged "$log" "mke2fs (e2fsprogs) must make an ext4 image in $stage/guest/data" \
	env E2FSPROGS_FAKE_TIME="$IMAGE_EPOCH" mke2fs -q -t ext4 -b 4096 -J size=16 -L ext4loop \
	-U 6f746f68-636c-6f64-0000-000000000001 \
	-E hash_seed=6f746f68-636c-6f64-0000-000000000002,root_owner=0:0,lazy_itable_init=0,lazy_journal_init=0,nodiscard \
	-F "$stage/guest/data/ext4.img"
run_logged "$log" "scripts/image-blocks.py could not split the ext4 image (above)" \
	python3 "$ROOT/scripts/image-blocks.py" "$stage/guest/data/ext4.img" "$stage/guest/data/ext4.img"
rm -f "$stage/guest/data/ext4.img"
echo "root:x:0:0:root:/tmp:/bin/sh" >"$stage/etc/passwd"
echo "root:x:0:" >"$stage/etc/group"

for c in "$ROOT"/guest/src/*.c; do
	[ -f "$c" ] || continue
	run_logged "$log" "fix the compile error in ${c#"$ROOT"/}" \
		gcc -static -O2 -Wall -Wextra -Werror -o "$stage/guest/bin/$(basename "$c" .c)" "$c"
done

cpio_image "$stage" "$out" "$log"
msg "guest image: ${out#"$ROOT"/} ($(du -h "$out" | cut -f1))"

# stress-ng and the shared libraries it needs, as a separate archive that
# only the stress job appends (it would take ~40 MB of every guest's RAM).
extra=$BUILD/initramfs-stress.cpio.gz
estage=$BUILD/initramfs-stress
rm -rf "$estage"
mkdir -p "$estage/guest/bin"
p=$(command -v stress-ng) || fail "stress-ng not found on the host -- apt-get install stress-ng"
cp "$p" "$estage/guest/bin/"
for lib in $(ldd "$p" 2>/dev/null | grep -o '/[^ ]*'); do
	mkdir -p "$estage$(dirname "$lib")"
	cp -L "$lib" "$estage$lib"
done
cpio_image "$estage" "$extra" "$log"
