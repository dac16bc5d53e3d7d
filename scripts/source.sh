#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Install the pinned Debian kernel source package and Debian's
# configuration of it, both at SOURCE_VERSION (source.conf).  If that exact
# version is no longer served, install the newest of both with a loud
# warning: the series may then fail to apply, which scripts/tree.sh
# reports, and scripts/distro-config.sh refuses the other version's
# configuration until source.conf names it.
. "$(dirname "$0")/lib.sh"
step source

installed() {
	dpkg-query -W -f='${Status} ${Version}\n' "$1" 2>/dev/null |
		awk '$3 == "installed" { print $4 }'
}

if [ "$(installed "$SOURCE_PKG")" = "$SOURCE_VERSION" ] && [ -f "$SOURCE_TARBALL" ] &&
	[ "$(installed "$DISTRO_CONFIG_PKG")" = "$SOURCE_VERSION" ] && [ -f "$DISTRO_CONFIG" ]; then
	exit 0
fi
pinned=("$SOURCE_PKG=$SOURCE_VERSION" "$DISTRO_CONFIG_PKG=$SOURCE_VERSION")
[ "$(id -u)" = 0 ] ||
	fail "$SOURCE_PKG and $DISTRO_CONFIG_PKG $SOURCE_VERSION are not both installed -- run as root, or: sudo apt-get install ${pinned[*]}"

log=$LOGS/source.log
: >"$log"
msg "installing ${pinned[*]}"
if ! DEBIAN_FRONTEND=noninteractive apt-get install -y --allow-downgrades \
	--no-install-recommends "${pinned[@]}" >>"$log" 2>&1; then
	run_logged "$log" "check the network to the configured Debian mirror (apt-get update)" \
		apt-get update
	if ! DEBIAN_FRONTEND=noninteractive apt-get install -y \
		--allow-downgrades --no-install-recommends \
		"${pinned[@]}" >>"$log" 2>&1; then
		cat >&2 <<WARN
#####################################################################
hotcold: WARNING: $SOURCE_PKG $SOURCE_VERSION is no longer served.
hotcold: WARNING: installing the newest $SOURCE_PKG and $DISTRO_CONFIG_PKG
hotcold: WARNING: instead; the series was made against $SOURCE_VERSION
hotcold: WARNING: and may not apply, and CONFIG_BASE=distro refuses the
hotcold: WARNING: newer configuration until source.conf names it.
#####################################################################
WARN
		DEBIAN_FRONTEND=noninteractive apt-get install -y \
			--no-install-recommends "$SOURCE_PKG" "$DISTRO_CONFIG_PKG" >>"$log" 2>&1 ||
			fail "cannot install $SOURCE_PKG and $DISTRO_CONFIG_PKG -- check that the apt sources (/etc/apt/sources.list, sources.list.d/) include bookworm-security" "$log"
	fi
fi
[ -f "$SOURCE_TARBALL" ] ||
	fail "$SOURCE_TARBALL missing after installing $SOURCE_PKG" "$log"
[ -f "$DISTRO_CONFIG" ] ||
	fail "$DISTRO_CONFIG missing after installing $DISTRO_CONFIG_PKG" "$log"
msg "$SOURCE_PKG $(installed "$SOURCE_PKG") and $DISTRO_CONFIG_PKG $(installed "$DISTRO_CONFIG_PKG") installed"
