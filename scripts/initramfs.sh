#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the guest image build/initramfs.cpio.gz: busybox-static, guest/init,
# the jobs and tests under guest/, and guest/src/*.c compiled static.
. "$(dirname "$0")/lib.sh"
step initramfs

out=$BUILD/initramfs.cpio.gz
stage=$BUILD/initramfs
log=$LOGS/initramfs.log
: >"$log"

[ -x /bin/busybox ] || fail "/bin/busybox missing -- apt-get install busybox-static"

rm -rf "$stage"
mkdir -p "$stage"/{bin,guest/bin,proc,sys,dev,tmp,mnt,etc}
cp /bin/busybox "$stage/bin/busybox"
install -m 0755 "$ROOT/guest/init" "$stage/init"
cp "$ROOT/guest/lib.sh" "$ROOT/guest/sdet.sh" "$stage/guest/"
cp -r "$ROOT/guest/jobs" "$ROOT/guest/tests" "$stage/guest/"
[ -d "$ROOT/guest/data" ] && cp -r "$ROOT/guest/data" "$stage/guest/"
echo "root:x:0:0:root:/tmp:/bin/sh" >"$stage/etc/passwd"
echo "root:x:0:" >"$stage/etc/group"

for c in "$ROOT"/guest/src/*.c; do
	[ -f "$c" ] || continue
	run_logged "$log" "fix the compile error in ${c#"$ROOT"/}" \
		gcc -static -O2 -Wall -Wextra -Werror -o "$stage/guest/bin/$(basename "$c" .c)" "$c"
done

# Extra static or dynamic programs a job needs (e.g. stress-ng), with the
# shared libraries ldd names.
for prog in ${GUEST_EXTRA_PROGS:-}; do
	p=$(command -v "$prog") || fail "$prog not found on the host -- apt-get install $prog"
	cp "$p" "$stage/guest/bin/"
	for lib in $(ldd "$p" 2>/dev/null | grep -o '/[^ ]*'); do
		mkdir -p "$stage$(dirname "$lib")"
		cp -L "$lib" "$stage$lib"
	done
done

(cd "$stage" && find . -print0 | sort -z | cpio --null -o -H newc --reproducible 2>>"$log") |
	gzip -1 >"$out.tmp" || fail "cpio of $stage failed" "$log"
mv "$out.tmp" "$out"
msg "guest image: ${out#"$ROOT"/} ($(du -h "$out" | cut -f1))"
