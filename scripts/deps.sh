#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Make sure the host has every tool the workbench needs.  Missing ones are
# installed with apt-get (as root); otherwise the script names them and stops.
#
# usage: scripts/deps.sh [test|bench|unit|pahole]
#   unit: only what make unit needs (python3 with docutils, gcc, shellcheck,
#         cpio and e2fsprogs for the image tests, GNU parallel for the job
#         runner's)
#   pahole: make pahole's (dwarves)
. "$(dirname "$0")/lib.sh"
step deps

# command:package pairs (a path instead of a command: that file; import.M:
# python3 imports module M)
NEED="gcc:gcc make:make flex:flex bison:bison bc:bc cpio:cpio xz:xz-utils
perl:perl python3:python3 git:git ccache:ccache
qemu-system-x86_64:qemu-system-x86 qemu-x86_64:qemu-user mke2fs:e2fsprogs
busybox:busybox-static sparse:sparse
/usr/include/libelf.h:libelf-dev /usr/include/openssl/ssl.h:libssl-dev
stress-ng:stress-ng pkg-config:pkg-config openssl:openssl
/usr/include/glib-2.0/glib.h:libglib2.0-dev
/usr/lib/python3/dist-packages/ply/__init__.py:python3-ply
/usr/lib/python3/dist-packages/git/__init__.py:python3-git"
case ${1:-test} in
unit) NEED="python3:python3 import.docutils:python3-docutils gcc:gcc shellcheck:shellcheck cpio:cpio /usr/sbin/debugfs:e2fsprogs parallel:parallel" ;;
test) NEED="$NEED shellcheck:shellcheck import.docutils:python3-docutils" ;;
bench) NEED="$NEED parallel:parallel gnuplot:gnuplot-nox bzip2:bzip2 meson:meson ninja:ninja-build dpkg-source:dpkg-dev
	/usr/include/pixman-1/pixman.h:libpixman-1-dev /usr/include/zlib.h:zlib1g-dev
	/usr/include/libfdt.h:libfdt-dev" ;;
pahole) NEED="pahole:dwarves" ;;
*) fail "unknown target '$1' -- usage: scripts/deps.sh [test|bench|unit|pahole]" ;;
esac

have() {
	case $1 in
	/*) [ -e "$1" ] ;;
	import.*) python3 -c "import ${1#import.}" >/dev/null 2>&1 ;;
	busybox) [ -x /bin/busybox ] && file_is_static /bin/busybox ;;
	*) command -v "$1" >/dev/null 2>&1 ;;
	esac
}

file_is_static() {
	! LC_ALL=C ldd "$1" >/dev/null 2>&1
}

missing=
for pair in $NEED; do
	have "${pair%%:*}" || missing="$missing ${pair#*:}"
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" != 0 ]; then
	fail "missing packages:$missing -- run as root, or: sudo apt-get install$missing"
fi
msg "installing:$missing"
log=$LOGS/deps.log
: >"$log"
# shellcheck disable=SC2086 # a list of packages
if ! DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
	$missing >>"$log" 2>&1; then
	# The package lists may be stale or absent on a fresh machine.
	run_logged "$log" "check the network to the configured Debian mirror (apt-get update)" \
		apt-get update
	# shellcheck disable=SC2086 # a list of packages
	DEBIAN_FRONTEND=noninteractive apt-get install -y \
		--no-install-recommends $missing >>"$log" 2>&1 ||
		fail "apt-get install$missing failed -- check the network to the configured Debian mirror and the apt sources (/etc/apt/sources.list, sources.list.d/)" "$log"
fi
for pair in $NEED; do
	have "${pair%%:*}" ||
		fail "'${pair%%:*}' still missing after installing ${pair#*:}" "$log"
done
