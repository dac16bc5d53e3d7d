# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash # busybox ash
# Check the value of vm.percpu_pagelist_hot_cold after booting with
# percpu_pagelist_hot_cold=<something>; hotcold.args gives the expected
# value and, optionally, "warn" if the kernel must have warned.
set -u
# shellcheck source=../lib.sh
. /guest/lib.sh
# shellcheck disable=SC2086 # the arguments, one per word
set -- $HOTCOLD_ARGS
tap_begin
t_bootparam() {
	local v
	v=$(cat /proc/sys/vm/percpu_pagelist_hot_cold)
	echo "cmdline: $(cat /proc/cmdline)"
	[ "$v" = "$1" ] || die "value is $v, expected $1"
	if [ "${2:-}" = warn ]; then
		dmesg | grep -q 'percpu_pagelist_hot_cold=.*expected 0 or 1' ||
			die "no warning for the bad boot parameter"
	fi
}
tap_run "boot_parameter_gives_$1${2:+_with_warning}" t_bootparam "$@"
tap_end
