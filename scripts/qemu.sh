#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the QEMU of make bench's deterministic boots of more than one vCPU:
# the installed QEMU's own version, from Debian's source package (with
# Debian's patches), with bench/qemu/rr-icount-turns.patch on top, which
# gives busy vCPUs turns under -icount.  Debian 12's QEMU 7.2 runs only the
# first busy vCPU there (NOTES.md, "vCPU shares under -icount").
#
# usage: scripts/qemu.sh
#
# Only qemu-system-x86_64, with TCG and plugins and no optional feature
# (no KVM, display, network backend or tools): about 3 minutes on 2 cores
# from a cold ccache.  The binary is build/qemu/qemu-system-x86_64; it
# reads the firmware from the directories Debian's QEMU reads, so the
# installed qemu-system-x86 stays a dependency.  Rebuilt when the
# installed QEMU's version, the patch or this script changes.
. "$(dirname "$0")/lib.sh"
step qemu

OUT=$BUILD/qemu
SRC=$BUILD/qemu-src
PATCH=$ROOT/bench/qemu/rr-icount-turns.patch
log=$LOGS/qemu.log
FIRMWARE=/usr/share/qemu:/usr/share/seabios:/usr/lib/ipxe/qemu
CONFIGURE=(--target-list=x86_64-softmmu --without-default-features --enable-tcg --enable-plugins
	--disable-docs --disable-werror --firmwarepath="$FIRMWARE")

[ -f "$PATCH" ] || fail "no ${PATCH#"$ROOT"/} -- the checkout is incomplete"
for tool in meson ninja dpkg-source pkg-config; do
	command -v "$tool" >/dev/null 2>&1 ||
		fail "$tool is missing -- run scripts/deps.sh bench (QEMU's build needs meson, ninja-build, dpkg-dev, libpixman-1-dev, zlib1g-dev, libfdt-dev and libglib2.0-dev)"
done
qver=$(dpkg-query -W -f '${source:Version}' qemu-system-x86 2>/dev/null) ||
	fail "qemu-system-x86 is not installed -- run scripts/deps.sh bench"
stamp="$qver $(hash_files "$PATCH" "$0") ${CONFIGURE[*]}"
if [ -x "$QEMU_TURNS" ] && [ "$(cat "$QEMU_TURNS_STAMP" 2>/dev/null)" = "$stamp" ]; then
	msg "QEMU with turns: ${QEMU_TURNS#"$ROOT"/} is up to date ($qver)"
	exit 0
fi
: >"$log"
# (the binary in place stays until a new one is built)
rm -rf "$SRC"
qemu_source "$SRC/apt" "$log" "a build with turns under -icount" >/dev/null || exit 1
dsc=$(find "$SRC/apt/src" -maxdepth 1 -name 'qemu_*.dsc' | head -1)
[ -n "$dsc" ] || fail "no qemu .dsc in ${SRC#"$ROOT"/}/apt/src -- see ${log#"$ROOT"/}" "$log"
# (Debian's patches are applied as it unpacks: source format 3.0 (quilt))
run_logged "$log" "is dpkg-dev installed (scripts/deps.sh bench)?" \
	dpkg-source --no-check -x "$dsc" "$SRC/tree"
# (patch, not git apply: build/ lies inside this repository's work tree,
# where git apply skips, silently, the paths outside it; no fuzz: a hunk
# that does not match exactly fails rather than lands elsewhere)
run_logged "$log" "${PATCH#"$ROOT"/} no longer applies to QEMU $qver: port it to the installed version" \
	patch -d "$SRC/tree" -p1 --forward --fuzz=0 --no-backup-if-mismatch -i "$PATCH"
grep -q RR_ICOUNT_TURN "$SRC/tree/accel/tcg/tcg-accel-ops-rr.c" ||
	fail "${PATCH#"$ROOT"/} left accel/tcg/tcg-accel-ops-rr.c without its turns (log: ${log#"$ROOT"/})" "$log"
mkdir -p "$SRC/obj"
# Debian's source has no bundled meson: the system's, run by the
# system's python3 (PATH first, over any other python3 on the host)
(cd "$SRC/obj" && PATH="/usr/bin:$PATH" ../tree/configure --meson=/usr/bin/meson "${CONFIGURE[@]}") >>"$log" 2>&1 ||
	fail "QEMU's configure failed (log: ${log#"$ROOT"/}) -- a build dependency is missing: run scripts/deps.sh bench" "$log"
msg "building qemu-system-x86_64 with turns (about 3 minutes)"
run_logged "$log" "see the compile error above" \
	env PATH="/usr/bin:$PATH" ninja -C "$SRC/obj" -j"${JOBS:-2}" qemu-system-x86_64
"$SRC/obj/qemu-system-x86_64" --version >>"$log" 2>&1 ||
	fail "the QEMU just built does not start (log: ${log#"$ROOT"/})" "$log"
mkdir -p "$OUT"
cp "$SRC/obj/qemu-system-x86_64" "$QEMU_TURNS.new"
mv "$QEMU_TURNS.new" "$QEMU_TURNS"
echo "$stamp" >"$QEMU_TURNS_STAMP"
# (ccache keeps the objects for the next rebuild)
rm -rf "$SRC"
msg "QEMU with turns: ${QEMU_TURNS#"$ROOT"/} ($qver and ${PATCH#"$ROOT"/})"
