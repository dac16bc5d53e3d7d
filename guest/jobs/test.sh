# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash # busybox ash
# Guest tests: every guest/tests/*.sh, TAP output.  KUnit already ran at
# boot; its KTAP is in the console log and the host parses both.
set -u
# shellcheck source=../lib.sh
. /guest/lib.sh
tap_begin
for t in /guest/tests/*.sh; do
	# shellcheck source=/dev/null # each test file is checked on its own
	. "$t"
done
tap_end
