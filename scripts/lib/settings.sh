# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# shellcheck disable=SC2034 # the names set here are for the scripts that source lib.sh
# Settings checked before anything is built (sourced by scripts/lib.sh,
# whose fail it uses).

# A setting of a shell script (scripts/disk.sh's BIG_MB,
# scripts/vcpu-shares.sh's), checked before the script builds, boots or
# writes anything, so that a bad value fails at once with one line naming
# the setting, its value and the values it takes ("BIG_MB=abc: expected a
# whole number from 384 to 4096").  make bench's own settings are checked
# in Python (bench/hcreport/settings.py, through report.py plan check).
# The caller gives an unset or empty setting its default first
# (NAME=${NAME:-DEFAULT}), then checks it:
#   setting_int NAME MIN MAX    a whole number (digits, no leading zero)
#                               from MIN to MAX
setting_int() {
	local v=${!1-} min=$2 max=$3

	# (no more digits than MAX: test's integers are 64-bit)
	case $v in
	'' | *[!0-9]* | 0?*) ;;
	*) [ ${#v} -le ${#max} ] && [ "$v" -ge "$min" ] && [ "$v" -le "$max" ] && return 0 ;;
	esac
	fail "$1=$v: expected a whole number from $min to $max"
}
