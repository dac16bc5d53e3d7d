# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash # busybox ash
# The reclaim machinery the modern family (guest/bench/modern.sh) drives,
# sourced by guest/jobs/bench.sh before it: cgroup v2 and its files, zram
# and zswap, the reclaim counters around a phase (hotcold-reclaim lines)
# and a background process that answers on a fifo.  A write to a kernel
# file is read back, and a file missing or a write refused fails the
# workload with a message naming the file and the cause.
#
# HOTCOLD_SYS, HOTCOLD_PROC, HOTCOLD_TMP: stand-ins for /sys and /proc
# made of plain files, and a scratch directory for /tmp
# (scripts/tests/test_guest_modern.py: the host's unit tests)
SYS=${HOTCOLD_SYS:-/sys}
PROC=${HOTCOLD_PROC:-/proc}
M_TMP=${HOTCOLD_TMP:-/tmp}
CG=$SYS/fs/cgroup
ZRAM=$SYS/block/zram0
ZSWAP=$SYS/module/zswap/parameters/enabled
M_ZRAM_MB=128
M_RC_VM="allocstall_normal allocstall_movable pgscan_kswapd pgscan_direct pgsteal_kswapd pgsteal_direct pgsteal_anon pgsteal_file workingset_refault_anon workingset_refault_file pswpin pswpout zswpin zswpout"
M_RC_CG="pgscan pgsteal pgscan_direct pgsteal_direct workingset_refault_anon workingset_refault_file zswpin zswpout"

# kset FILE VALUE READS WHY: VALUE written to a kernel file (cgroupfs,
# sysfs), which must then read READS (a pattern; -: write-only); a
# missing FILE is named with WHY, a refused write with the kernel's error
kset() {
	local v
	[ -e "$1" ] || { echo "no $1 ($4)"; return 1; }
	if ! { echo "$2" >"$1"; } 2>"$M_TMP"/kset.err; then
		echo "$1 refused '$2' ($(sed 's/.*: //' "$M_TMP"/kset.err))"
		return 1
	fi
	[ "$3" = - ] && return 0
	v=$(cat "$1")
	# shellcheck disable=SC2254 # READS is a pattern
	case $v in $3) return 0 ;; esac
	echo "$1 reads '$v' after '$2' was written"
	return 1
}

# cg_up: cgroup v2 mounted on $CG, the memory controller given to its children
cg_up() {
	if [ "$SYS" = /sys ] && ! grep -q " $CG cgroup2 " /proc/mounts; then
		mount -t cgroup2 cgroup2 "$CG" || { echo "cannot mount cgroup2 on $CG (CONFIG_CGROUPS)"; return 1; }
	fi
	grep -qw memory "$CG/cgroup.controllers" 2>/dev/null ||
		{ echo "no memory controller in $CG/cgroup.controllers (CONFIG_MEMCG)"; return 1; }
	kset "$CG/cgroup.subtree_control" +memory "*memory*" "cgroup v2"
}

# cg_new CGROUP [FILE VALUE]...: the cgroup made, each FILE set
cg_new() {
	local d=$CG/$1
	shift
	mkdir -p "$d" || { echo "cannot make the cgroup $d"; return 1; }
	while [ $# -ge 2 ]; do
		kset "$d/$1" "$2" "$2" "no memcg in this kernel: CONFIG_MEMCG" || return 1
		shift 2
	done
}

# cg_has CGROUP FILE WHY: the cgroup's FILE is there, or named with WHY
cg_has() {
	[ -e "$CG/$1/$2" ] || { echo "no $CG/$1/$2 ($3)"; return 1; }
}

# cg_join [CGROUP]: this shell (and what it starts from now on) moved into
# CGROUP, or back to the root; never called in $(...), whose subshell
# would move instead
cg_join() {
	local self
	read -r self _ </proc/self/stat
	kset "$CG${1:+/$1}/cgroup.procs" "$self" - "CONFIG_CGROUPS"
}

# cg_down: this shell back in the root, the workload's cgroups removed (on
# a stand-in root they stay: plain files)
cg_down() {
	local c rc=0
	[ -d "$CG/hc-fg" ] || [ -d "$CG/hc-bg" ] || return 0
	cg_join || rc=1
	for c in hc-fg hc-bg; do
		[ -d "$CG/$c" ] || continue
		rmdir "$CG/$c" 2>/dev/null || [ "$SYS" != /sys ] ||
			{ echo "cannot remove the cgroup $CG/$c (a process left in it?)"; rc=1; }
	done
	return $rc
}

# rc_snap TAG [CGROUP...]: the reclaim counters now, in /tmp/rc.TAG.*
rc_snap() {
	local t=$1 c
	shift
	vmstat_keys "$PROC/vmstat" "$M_RC_VM" >"$M_TMP/rc.$t.vm"
	for c in "$@"; do
		vmstat_keys "$CG/$c/memory.stat" "$M_RC_CG" >"$M_TMP/rc.$t.$c"
	done
}

# rc_delta vm|CGROUP KEY: a counter's change from the before snap to the after
rc_delta() {
	awk -v k="$2" '$1 == k { d = $2 - d } END { print d + 0 }' "$M_TMP/rc.before.$1" "$M_TMP/rc.after.$1"
}

# rc_report WORKLOAD "KEY=N..." [CGROUP...]: the after snap, and the
# hotcold-reclaim lines (a counter the kernel does not have: KEY=)
rc_report() {
	local w=$1 kv=$2 c l
	shift 2
	rc_snap after "$@"
	for c in vm "$@"; do
		l=$c
		[ "$c" != vm ] || l="global${kv:+ $kv}"
		awk -v h="hotcold-reclaim $w $l" 'NR == FNR { a[$1] = $2; next }
			{ h = h " " $1 "=" ($2 == "" || a[$1] == "" ? "" : $2 - a[$1]) }
			END { printf "%s", h }' "$M_TMP/rc.before.$c" "$M_TMP/rc.after.$c"
		[ "$c" = vm ] || awk '{ printf " events_%s=%s", $1, $2 }' "$CG/$c/memory.events" 2>/dev/null
		echo
	done >&2
}

# reclaimed CGROUP BY: the cgroup's pages were reclaimed over the phase
# (memory.stat's pgsteal), and none of its processes was OOM-killed
reclaimed() {
	local k
	k=$(awk '$1 == "oom_kill" { print $2 }' "$CG/$1/memory.events" 2>/dev/null)
	[ "${k:-0}" = 0 ] || { echo "the OOM killer ran in $1 ($k kills)"; return 1; }
	[ "$(rc_delta "$1" pgsteal)" -gt 0 ] ||
		{ echo "$2 made no reclaim in $1 (memory.stat's pgsteal did not move)"; return 1; }
}

# swap_up zram|zswap: /dev/zram0 a swap device; zswap: zswap enabled in
# front of it (the cgroups that swap set memory.zswap.writeback 0, so
# zram holds nothing: checked)
swap_up() {
	kset "$ZRAM/disksize" $((M_ZRAM_MB << 20)) $((M_ZRAM_MB << 20)) "CONFIG_ZRAM" || return 1
	# shellcheck disable=SC2015 # the message if either fails
	mkswap /dev/zram0 >/dev/null && swapon /dev/zram0 || { echo "cannot swap on /dev/zram0"; return 1; }
	[ "$1" = zram ] || kset "$ZSWAP" Y Y "CONFIG_ZSWAP"
}

swap_down() {
	local rc=0
	if [ -e "$ZSWAP" ] && [ "$(cat "$ZSWAP")" = Y ]; then
		kset "$ZSWAP" N N "CONFIG_ZSWAP" || rc=1
	fi
	if grep -q '^/dev/zram0 ' "$PROC/swaps"; then
		swapoff /dev/zram0 || { echo "swapoff /dev/zram0 failed"; rc=1; }
	fi
	[ ! -e "$ZRAM/reset" ] || kset "$ZRAM/reset" 1 - "CONFIG_ZRAM" || rc=1
	return $rc
}

# bg_up CGROUP COMMAND...: a background process in CGROUP, which prints
# "ready" and then answers each line given it (bg_say) with "ok"
BG_PID=
bg_up() {
	local c=$1
	shift
	rm -f "$M_TMP"/bg.in "$M_TMP"/bg.out
	mkfifo "$M_TMP"/bg.in "$M_TMP"/bg.out || { echo "cannot make the background's fifos"; return 1; }
	# (a background that died: its fifo's write fails, the shell lives)
	trap '' PIPE
	cg_join "$c" || return 1
	"$@" <"$M_TMP"/bg.in >"$M_TMP"/bg.out 2>"$M_TMP"/bg.err &
	BG_PID=$!
	cg_join || return 1
	exec 7>"$M_TMP"/bg.in 8<"$M_TMP"/bg.out
	bg_say "" ready
}

# bg_say LINE [ANSWER]: LINE to the background, which must answer ANSWER (ok)
bg_say() {
	local r=
	[ -z "$1" ] || echo "$1" >&7
	read -r r <&8
	[ "$r" = "${2:-ok}" ] || { echo "the background (${1:-its start}) answered '${r:-nothing}' $(cat "$M_TMP"/bg.err)"; return 1; }
}

# reclaim_down: whatever a workload set up here gone: the background
# (ended by the end of its input: it must exit 0), lighttpd (WEB_PID,
# guest/bench/programs.sh's web_up), the swap, the cgroups
reclaim_down() {
	local rc=0
	if [ -n "$BG_PID" ]; then
		exec 7>&-
		wait "$BG_PID" || { echo "the background exited with $? $(cat "$M_TMP"/bg.err)"; rc=1; }
		exec 8<&-
		BG_PID=
	fi
	if [ -n "$WEB_PID" ]; then
		web_down || rc=1
		WEB_PID=
	fi
	swap_down || rc=1
	cg_down || rc=1
	rm -f "$M_TMP"/bg.in "$M_TMP"/bg.out "$M_TMP"/bg.err "$M_TMP"/kset.err "$M_TMP"/rc.* "$M_TMP"/lighttpd.conf "$M_TMP"/lighttpd.err
	return $rc
}
