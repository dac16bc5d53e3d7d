#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Write a distro kernel's .config before olddefconfig (CONFIG_BASE=distro,
# scripts/build-kernel.sh): Debian's own configuration of the pinned
# source (source.conf's DISTRO_CONFIG, from the package DISTRO_CONFIG_PKG,
# which must be installed at SOURCE_VERSION: scripts/source.sh installs
# it), with every option Debian builds as a module (=m) turned off, then
# the fragments merged on top with the tree's merge_config.sh (-m: no
# make; the caller runs olddefconfig).  Debian's configuration is read
# from the package on every run and never copied into the repository.
#
# Everything is checked before anything is written: a bad argument, a
# missing or mismatched package or configuration file is one error line
# and OUT/.config is left as it was.
#
# usage: scripts/distro-config.sh SRC OUT FRAGMENT...
#   SRC: the kernel tree (its scripts/kconfig/merge_config.sh)
#   OUT: the object directory; OUT/.config is replaced whole
. "$(dirname "$0")/lib.sh"
step distro-config

[ $# -ge 2 ] || fail "usage: scripts/distro-config.sh SRC OUT FRAGMENT..."
src=$1 out=$2
shift 2
merge=$src/scripts/kconfig/merge_config.sh

# installed_version PKG: the version dpkg has installed, or nothing
installed_version() {
	dpkg-query -W -f='${Status} ${Version}\n' "$1" 2>/dev/null |
		awk '$3 == "installed" { print $4 }'
}

# modules_off: Debian's configuration on stdin, with every =m option
# turned off (the guests load no module but the harness's own, which the
# fragments ask for again)
modules_off() {
	sed 's/^\(CONFIG_[A-Za-z0-9_]*\)=m$/# \1 is not set/'
}

[ -x "$merge" ] || fail "SRC '$src': no scripts/kconfig/merge_config.sh in it -- give the kernel tree"
[ -d "$out" ] || fail "OUT '$out' is not a directory -- make the object directory first"
frags=()
for f in "$@"; do
	if [ ! -f "$f" ] || [ ! -r "$f" ]; then
		fail "fragment '$f' is not a readable file"
	fi
	frags+=("$(realpath "$f")")
done
have=$(installed_version "$DISTRO_CONFIG_PKG")
[ -n "$have" ] ||
	fail "$DISTRO_CONFIG_PKG is not installed -- run scripts/source.sh as root, or: sudo apt-get install $DISTRO_CONFIG_PKG=$SOURCE_VERSION"
[ "$have" = "$SOURCE_VERSION" ] ||
	fail "$DISTRO_CONFIG_PKG $have is installed, but the pinned source is $SOURCE_VERSION (source.conf) -- run scripts/source.sh as root, or: sudo apt-get install $DISTRO_CONFIG_PKG=$SOURCE_VERSION"
[ -f "$DISTRO_CONFIG" ] ||
	fail "$DISTRO_CONFIG is missing although $DISTRO_CONFIG_PKG $have is installed -- reinstall it: sudo apt-get install --reinstall $DISTRO_CONFIG_PKG=$SOURCE_VERSION"

tmp=$(mktemp -d "$out/.distro-config.XXXXXX") || fail "cannot write in $out"
trap 'rm -rf "$tmp"' EXIT
log=$LOGS/distro-config.log
: >"$log"
xz -dc "$DISTRO_CONFIG" >"$tmp/debian.config" 2>>"$log" ||
	fail "cannot decompress $DISTRO_CONFIG (xz) -- reinstall $DISTRO_CONFIG_PKG" "$log"
grep -q '^CONFIG_' "$tmp/debian.config" ||
	fail "$DISTRO_CONFIG holds no CONFIG_ line -- reinstall $DISTRO_CONFIG_PKG"
modules_off <"$tmp/debian.config" >"$tmp/base.config"
# (merge_config.sh makes its scratch files in the current directory)
(cd "$tmp" && "$merge" -m -O "$tmp" "$tmp/base.config" "${frags[@]}") >>"$log" 2>&1 ||
	fail "merge_config.sh failed on the fragments $* (log: ${log#"$ROOT"/})" "$log"
if ! chmod 644 "$tmp/.config" || ! mv "$tmp/.config" "$out/.config"; then
	fail "cannot write $out/.config"
fi
msg "$out/.config: Debian's $DISTRO_CONFIG_PKG $have, modules off, with $*"
