# SPDX-License-Identifier: GPL-2.0
# Guest tests: every guest/tests/*.sh, TAP output.  KUnit already ran at
# boot; its KTAP is in the console log and the host parses both.
. /guest/lib.sh
tap_begin
for t in /guest/tests/*.sh; do
	. "$t"
done
tap_end
