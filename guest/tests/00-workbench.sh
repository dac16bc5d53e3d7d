# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash # busybox ash
# (sourced by guest/jobs/test.sh; set -u as everywhere)
set -u
# The guest environment the other tests rely on.

t_proc_vmstat() {
	[ -n "$(vmstat nr_free_pages)" ] || die "no nr_free_pages in /proc/vmstat"
	[ -n "$(vmstat pgalloc_normal)" ] || die "no pgalloc_normal: VM_EVENT_COUNTERS off?"
}
tap_run "proc_vmstat_has_counters" t_proc_vmstat

t_zoneinfo_pagesets() {
	grep -q "^  pagesets" /proc/zoneinfo || die "no pagesets in /proc/zoneinfo"
	[ "$(grep -c '^    cpu:' /proc/zoneinfo)" -ge 2 ] || die "fewer than 2 CPUs in pagesets"
}
tap_run "zoneinfo_has_pagesets" t_zoneinfo_pagesets

t_scratch_disk() {
	grep -q ' /mnt ext4 ' /proc/mounts || die "scratch disk not mounted on /mnt"
	[ -f /mnt/big ] || die "no /mnt/big on the scratch disk"
	dd if=/mnt/big of=/dev/null bs=1M count=8 2>/dev/null || die "cannot read /mnt/big"
}
tap_run "scratch_disk_readable" t_scratch_disk

t_cpu_hotplug() {
	local c=/sys/devices/system/cpu/cpu1/online
	[ -f $c ] || die "cpu1 cannot be offlined (no $c)"
	echo 0 >$c
	[ "$(cat $c)" = 0 ] || die "cpu1 still online"
	echo 1 >$c
	[ "$(cat $c)" = 1 ] || die "cpu1 did not come back"
}
tap_run "cpu1_offline_online" t_cpu_hotplug
