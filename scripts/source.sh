#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Install the pinned Debian kernel source package (source.conf).  If that
# exact version is no longer served, install the newest one with a loud
# warning: the series may then fail to apply, which scripts/tree.sh reports.
. "$(dirname "$0")/lib.sh"
step source

installed() {
	dpkg-query -W -f='${Status} ${Version}\n' "$SOURCE_PKG" 2>/dev/null |
		awk '$3 == "installed" { print $4 }'
}

have=$(installed)
if [ "$have" = "$SOURCE_VERSION" ] && [ -f "$SOURCE_TARBALL" ]; then
	exit 0
fi
[ "$(id -u)" = 0 ] ||
	fail "$SOURCE_PKG $SOURCE_VERSION is not installed -- run as root, or: sudo apt-get install $SOURCE_PKG=$SOURCE_VERSION"

log=$LOGS/source.log
: >"$log"
msg "installing $SOURCE_PKG=$SOURCE_VERSION"
if ! DEBIAN_FRONTEND=noninteractive apt-get install -y --allow-downgrades \
	--no-install-recommends "$SOURCE_PKG=$SOURCE_VERSION" >>"$log" 2>&1; then
	run_logged "$log" "check the network to the configured Debian mirror (apt-get update)" \
		apt-get update
	if ! DEBIAN_FRONTEND=noninteractive apt-get install -y \
		--allow-downgrades --no-install-recommends \
		"$SOURCE_PKG=$SOURCE_VERSION" >>"$log" 2>&1; then
		cat >&2 <<WARN
#####################################################################
hotcold: WARNING: $SOURCE_PKG $SOURCE_VERSION is no longer served.
hotcold: WARNING: installing the newest $SOURCE_PKG instead; the series
hotcold: WARNING: was made against $SOURCE_VERSION and may not apply.
#####################################################################
WARN
		DEBIAN_FRONTEND=noninteractive apt-get install -y \
			--no-install-recommends "$SOURCE_PKG" >>"$log" 2>&1 ||
			fail "cannot install $SOURCE_PKG -- check that the apt sources (/etc/apt/sources.list, sources.list.d/) include bookworm-security" "$log"
	fi
fi
[ -f "$SOURCE_TARBALL" ] ||
	fail "$SOURCE_TARBALL missing after installing $SOURCE_PKG" "$log"
msg "$SOURCE_PKG $(installed) installed"
