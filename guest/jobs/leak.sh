# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash # busybox ash
# No data leaked: a process fills most of free memory with a marker and
# exits; then hot (anonymous) and cold (readahead of a file of zeros)
# allocations of the same amount must never show the marker.
set -u
# shellcheck source=../lib.sh
. /guest/lib.sh
B=/guest/bin
tap_begin
MB=$(awk '$1 == "MemAvailable:" { print int($2 / 1024 * 0.7) }' /proc/meminfo)
echo "# cmdline: $(cat /proc/cmdline)"
# the zero file as large as the marker fill, or as the scratch disk allows
ZMB=$(df -m /mnt | awk -v mb="$MB" 'NR == 2 { f = $4 - 16; print (f < mb ? f : mb) }')
dd if=/dev/zero of=/mnt/zero bs=1M count="$ZMB" 2>/dev/null
sync
t_fill() {
	$B/leakcheck fill "$MB"
}
tap_run "fill_${MB}mb_with_marker" t_fill
t_hot() {
	$B/leakcheck anon "$MB" || die "marker seen in anonymous memory"
}
tap_run "hot_anon_allocations_see_no_marker" t_hot
t_fill2() {
	$B/leakcheck fill "$MB"
}
tap_run "refill_with_marker" t_fill2
t_cold() {
	drop_caches
	$B/leakcheck file /mnt/zero || die "marker seen in a file read through readahead"
}
tap_run "cold_readahead_sees_no_marker" t_cold
rm -f /mnt/zero
tap_end
