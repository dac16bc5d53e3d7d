# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash # busybox ash
# The make bench workloads, run one after the other in one boot.
#
# hotcold.args=MODE,AMOUNT[,WORKLOAD...]
#   wall,SECONDS   each workload runs for SECONDS of wall time (the
#                  scenarios run their fixed amount of work)
#   fixed,SCALE    each workload does a fixed amount of work times SCALE,
#                  for the deterministic modes (icount, cachesim)
#   WORKLOAD...    which workloads (default all), by their names in the
#                  workload table (bench/workloads.tsv, /guest/workloads.tsv
#                  here), which also gives each its metric and its amount
#                  of fixed work.  Names only: the host resolves a WORKLOADS
#                  list with exclusions (-NAME) into the names each boot
#                  runs (bench/report.py boot-workloads, the one rule), so
#                  a -NAME here is refused
#   history=N      (fixed) start with warm-up N, so that rounds differ in
#                  history (below)
#   shape=SHAPE    a machine shape's boot (bench/shapes.tsv, its named
#                  shapes): the workloads are named WORKLOAD_SHAPE, and
#                  run WORKLOAD's work with their own line's amount
#
# Prints per workload:
#   hotcold-result WORKLOAD METRIC=VALUE
#   hotcold-background WORKLOAD background_UNIT=VALUE   (a workload with a
#                  background, backup_beside_compile: the background's rate)
#   hotcold-vmstat WORKLOAD name=delta ...   (pcp counters over the run)
#   hotcold-pcp WORKLOAD count_max=N hot_max=N high_max=N   (the per-CPU
#                  lists as it left them: guest/lib.sh's pcp_lists)
#   hotcold-phase WORKLOAD ops=N cpu=0|all   (one per measured phase, in
#                  the order the phases close; cpu: the vCPU whose counts
#                  are the workload's, 0 for the pinned foreground)
# The measured phase is opened and closed by the workload itself
# (guest/src/benchutil.h), or by `phase begin/end` around shell workloads.
# A workload that fails (or prints no METRIC) prints "hotcold: workload
# WORKLOAD failed: ..."; the others still run, and the job ends with
#   hotcold-failed WORKLOAD...
# and exit status 1 (scripts/bench.sh names them and fails the run).
set -u
# shellcheck source=../lib.sh
. /guest/lib.sh
# shellcheck disable=SC2086 # the arguments, one per word
set -- $HOTCOLD_ARGS
MODE=${1:-wall}
AMOUNT=${2:-4}
shift 2
HISTORY=0
SHAPE=
ONLY=
for a in "$@"; do
	case $a in
	history=*) HISTORY=${a#history=} ;;
	shape=*) SHAPE=${a#shape=} ;;
	*) ONLY="$ONLY $a" ;;
	esac
done
ONLY="$ONLY "
case $HISTORY in
'' | *[!0-9]*) echo "hotcold: bench: history=$HISTORY: expected a number"; exit 2 ;;
esac
[ -r /guest/workloads.tsv ] || { echo "hotcold: bench: no /guest/workloads.tsv (scripts/initramfs.sh copies bench/workloads.tsv)"; exit 2; }
for a in $ONLY; do
	case $a in -*)
		echo "hotcold: bench: '$a': the guest takes workload names only (the host resolves exclusions: bench/report.py boot-workloads)"
		exit 2 ;;
	esac
	awk -F'\t' -v w="$a" '$1 == w { found = 1 } END { exit !found }' /guest/workloads.tsv ||
		{ echo "hotcold: bench: unknown workload '$a' (not in bench/workloads.tsv)"; exit 2; }
	case $SHAPE,$a in
	,* | *,*_"$SHAPE") ;;
	*) echo "hotcold: bench: shape=$SHAPE: '$a' is not one of its workloads (WORKLOAD_$SHAPE)"; exit 2 ;;
	esac
done
# the _n workloads: one instance per CPU, at least two (the deterministic
# modes boot one vCPU)
N=$(nproc)
[ "$N" -lt 2 ] && N=2
B=/guest/bin
PCP="pcp_cold_alloc pcp_cold_request pcp_cold_free pcp_refill pcp_refill_pages pcp_drain pcp_drain_pages pgalloc_dma32 pgalloc_normal pgfree pgscan_kswapd pgsteal_kswapd pgscan_direct pgsteal_direct workingset_refault_file compact_stall compact_daemon_wake pgmigrate_success"
case $MODE in
wall) SECS=$AMOUNT ;;
fixed) SECS=0 ;;
*) echo "hotcold: bench: unknown mode '$MODE' (wall or fixed)"; exit 2 ;;
esac

# named WORKLOAD: the name WORKLOAD's rows carry in this boot: in a
# machine shape's boot (shape=SHAPE, bench/shapes.tsv's named shapes)
# WORKLOAD_SHAPE, a line of the table of its own that runs WORKLOAD's work
named() {
	echo "$1${SHAPE:+_$SHAPE}"
}

# want WORKLOAD: named, or no names given (every workload)
want() {
	[ -n "${ONLY# }" ] || return 0
	case $ONLY in *" $1 "*) return 0 ;; esac
	return 1
}

# The workload table (bench/workloads.tsv): field WORKLOAD COLUMN prints a
# column of the workload's line, and fails for a workload not in it
TABLE=/guest/workloads.tsv
field() {
	awk -F'\t' -v w="$1" -v c="$2" '$1 == w { print $c; found = 1 } END { exit !found }' "$TABLE"
}

# amount WORKLOAD: the table's amount of fixed work times SCALE, or 0
# (timed) in wall mode; the scenarios and micro do their amount (times
# SECS) in every mode, the real programs their amount in every mode (one
# build or configure run is 5 G instructions: SCALE would only double a
# programs boot)
amount() {
	local a k w
	w=$(named "$1")
	# (a workload this boot does not run is not looked up: every line
	# below asks for its amount, and each lookup is two simulated awk runs)
	if ! want "$w"; then
		echo 0
		return 0
	fi
	if ! a=$(field "$w" 7) || ! k=$(field "$w" 2); then
		echo 0
		return 1
	fi
	case $MODE,$k in
	*,program) echo "$a" ;;
	fixed,*) echo $((a * AMOUNT)) ;;
	*,scenario | *,micro) echo $((a * ${AMOUNT%.*})) ;;
	*) echo 0 ;;
	esac
}

# snap NAME: the PCP counters (guest/lib.sh's vmstat_keys) into
# /tmp/vm.NAME, in one read of /proc/vmstat (a workload's two snaps were
# once 36 awk runs, under the cache model the largest cost outside its
# phase)
snap() {
	vmstat_keys /proc/vmstat "$PCP" >"/tmp/vm.$1"
}

report_vm() {
	snap after
	awk -v w="$1" 'NR == FNR { a[$1] = $2; next }
		{ d = ($2 == "" ? 0 : $2) - (a[$1] == "" ? 0 : a[$1]); s = s " " $1 "=" d }
		END { print "hotcold-vmstat " w s }' /tmp/vm.before /tmp/vm.after
	# and the per-CPU lists as it left them (guest/lib.sh)
	pcp_lists "$1"
}

# failed WORKLOAD WHY: report a failed workload, fail the job at its end
FAILED=
failed() {
	echo "hotcold: workload $1 failed: $2"
	FAILED="$FAILED $1"
}

# run WORKLOAD CPU COMMAND...: queues the workload (this boot runs it:
# want) to run in the order the host gave the names (run_queue): the
# plan draws that order per round (bench/hcreport/draws.py), so the
# workloads' history is sampled; with no names, in this file's order.
# The command's words hold no space (numbers, paths, function names).
QUEUE=/tmp/bench.queue
: >$QUEUE
run() {
	local w
	w=$(named "$1")
	want "$w" || return 0
	shift
	echo "$w $*" >>$QUEUE
}

# run_queue: the queued workloads, in ONLY's order (every one queued,
# in the queue's order, with no names given); compile and
# backup_beside_compile get their configured tree first, outside the
# vmstat and cache counts of their run (configure's last, or one made
# here)
run_queue() {
	local w line
	for w in ${ONLY# }; do
		grep -q "^$w " $QUEUE || continue
		grep "^$w " $QUEUE
	done >$QUEUE.ordered
	[ -n "${ONLY# }" ] || cp $QUEUE $QUEUE.ordered
	# (the queue on fd 3: a workload reading stdin must not eat it)
	while read -r line <&3; do
		# shellcheck disable=SC2086 # the queued words
		set -- $line
		case $3 in
		compile | backup_beside_compile)
			[ ! -x "$PROG/configure" ] ||
				compile_tree >/dev/null || echo "hotcold: configure of the compile tree failed ($1 fails below)" ;;
		esac
		run_now "$@" 3<&-
	done 3<$QUEUE.ordered
}

# run_now WORKLOAD CPU COMMAND...: the command prints METRIC=VALUE (the
# workload's metric in the table) and ops=N and opens and closes one
# measured phase
run_now() {
	local w=$1 cpu=$2 m out v
	shift 2
	m=$(field "$w" 8) || { failed "$w" "not in the workload table ($TABLE)"; return 1; }
	drop_caches
	snap before
	out=$("$@") || { failed "$w" "$out"; return 1; }
	v=$(echo "$out" | tr ' ' '\n' | sed -n "s/^$m=//p")
	[ -n "$v" ] || { failed "$w" "no $m= in its output: $out"; return 1; }
	echo "hotcold-result $w $m=$v"
	# a background's rate beside the workload's, apart
	v=$(echo "$out" | tr ' ' '\n' | grep '^background_[a-z_]*=')
	[ -z "$v" ] || echo "hotcold-background $w $v"
	echo "hotcold-phase $w ops=$(echo "$out" | tr ' ' '\n' | sed -n 's/^ops=//p') cpu=$cpu"
	report_vm "$w"
}

# A streaming reader in the background: reader_start CPU [drop].  It reads
# /dev/nullb0, a 4 GB null_blk device (larger than memory) whose requests
# complete on a guest timer without touching the pages (run-guest.sh): no
# host I/O, so the deterministic modes repeat it boot for boot, and the
# pages are marked as written by DMA for the cachesim plugin as they are
# read (consume_file()).
reader_start() {
	taskset -c "$1" $B/streamread /dev/nullb0 ${2:+"$2"} &
	READER=$!
	sleep 0.1
}

reader_stop() {
	kill "$READER" 2>/dev/null
	wait "$READER" 2>/dev/null
}

# SDET-like shell mix: USERS concurrent users, for SECS or a fixed number
# of scripts each
sdet() {
	local users=$1 scripts=$2 i end total=0 t0 t1
	end=$(awk -v s="$SECS" '{ print $1 + s }' /proc/uptime)
	t0=$(cut -d' ' -f1 /proc/uptime)
	$B/phase begin
	for i in $(seq 1 "$users"); do
		sh /guest/sdet.sh "/tmp/sdet.$i" "$end" "$scripts" >"/tmp/sdet.$i.n" &
	done
	wait
	$B/phase end
	t1=$(cut -d' ' -f1 /proc/uptime)
	for i in $(seq 1 "$users"); do
		total=$((total + $(cat "/tmp/sdet.$i.n")))
		rm -rf "/tmp/sdet.$i" "/tmp/sdet.$i.n"
	done
	awk -v n="$total" -v a="$t0" -v b="$t1" \
		'BEGIN { printf "scripts_per_hour=%.0f ops=%d\n", n * 3600 / (b - a), n }'
}

# the foreground beside a streaming reader, both on CPU 0 (under -icount
# a busy vCPU 0 starves vCPU 1, so the reader shares the foreground's CPU)
mixed() {
	local out rc=0
	reader_start 0
	case $1 in
	sdet) out=$("$@") || rc=1 ;;	# a shell function: not pinned
	*) out=$(taskset -c 0 "$@") || rc=1 ;;
	esac
	reader_stop
	echo "$out"
	return $rc
}

# Scenarios in which vanilla hands cold pages to a hot foreground: a
# page-fault loop over 1 MB on CPU 0, whose own freed pages are hot (see
# guest/src/flood.c).  On the same CPU the cold pages come at fixed points
# of the loop, so every kernel does the same work: 1 exits of processes
# whose memory is long cold, 2 reclaim of page cache read long ago, 3
# readahead.  On the other CPU (3b) a reader runs while the foreground
# sleeps 1 ms after each iteration (under -icount vCPU 1 runs only while
# vCPU 0 idles).
readahead_other() {
	local out rc=0
	reader_start 1 drop
	out=$(taskset -c 0 $B/pagefault anon 1048576 1 "$SECS" "$1" 1000) || rc=1
	reader_stop
	echo "$out"
	return $rc
}

# loop_down DIR DEV FILE: unmount DIR, free the loop device DEV and remove
# its backing FILE in tmpfs (the disk-free setups below)
loop_down() {
	# shellcheck disable=SC2015 # the message if any step fails
	umount "$1" && losetup -d "$2" && rm -f "$3" ||
		{ echo "cannot unmount $1 or free $2 (backing $3)"; return 1; }
}

# 2 in a boot without the scratch disk (the deterministic modes boot the
# workloads that need no device I/O that way: a virtio-blk completion lands
# at a host-timed point, after which two boots of one kernel differ): the
# page cache comes from a sparse file on ext2 on a loop device over a
# tmpfs file, so no I/O leaves the guest (reading a hole fills the folio
# with zeroes, no I/O at all).  What is reclaimed is the same: clean
# order-0 page cache, read long before.
# reclaim_flood MB N LOOPS [CPU]: flood reclaim MB N 1024 LOOPS [CPU] (MB:
# at most the 100 MB of /mnt/big; CPU: the reclaim on that CPU, the
# foreground on CPU 0)
reclaim_flood() {
	local out rc=0
	if [ ! -b /dev/vda ]; then
		# shellcheck disable=SC2015 # the message if any step fails
		dd if=/dev/zero of=/tmp/scratch.img bs=1M count=0 seek=112 2>/dev/null &&
			losetup /dev/loop0 /tmp/scratch.img && mke2fs -q -b 4096 /dev/loop0 &&
			mount -t ext2 /dev/loop0 /mnt &&
			dd if=/dev/zero of=/mnt/big bs=1M count=0 seek=100 2>/dev/null ||
			{ echo "reclaim_flood: cannot make ext2 on /dev/loop0 over /tmp"; return 1; }
	fi
	out=$($B/flood reclaim "$1" "$2" 1024 "$3" ${4:+"$4"}) || rc=1
	if [ ! -b /dev/vda ]; then
		loop_down /mnt /dev/loop0 /tmp/scratch.img || rc=1
	fi
	echo "$out"
	return $rc
}

# trunc80k on ext4: ext4's write, truncate, journal and block allocator,
# on the empty image that scripts/initramfs.sh made (guest/data), mounted
# from a loop device over a tmpfs file: the loop driver copies in guest CPU
# time, so no I/O leaves the guest and two boots of one kernel repeat
# exactly (on the virtio disk, the first completion lands at a host-timed
# point).  The same in every mode.
trunc80k_ext4() {
	local out rc=0
	# shellcheck disable=SC2015 # the message if any step fails
	image_unpack /guest/data/ext4.img /tmp/ext4.img && losetup /dev/loop1 /tmp/ext4.img &&
		mkdir -p /ext4 && mount -t ext4 /dev/loop1 /ext4 ||
		{ echo "trunc80k_ext4: cannot mount /guest/data/ext4.img on /dev/loop1"; return 1; }
	out=$("$@") || rc=1
	loop_down /ext4 /dev/loop1 /tmp/ext4.img || rc=1
	echo "$out"
	return $rc
}

# 4: a per-cpu list made long (high_fraction 8: thousands of pages) and
# bursts larger than the cache
big_hot_list() {
	local out rc=0
	echo 8 >/proc/sys/vm/percpu_pagelist_high_fraction
	out=$(taskset -c 0 $B/pagefault anon 16777216 1 "$SECS" "$1") || rc=1
	echo 0 >/proc/sys/vm/percpu_pagelist_high_fraction
	echo "$out"
	return $rc
}

# 5: a streaming reader beside a task holding a long hot list, both on CPU
# 0: the reader's __GFP_COLD readahead finds no cold page, and a rule that
# sent it to the hot tail while the list is longer than the cache (v1 of
# the series) would cycle the reader through the task's list
reader_beside_hot_list() {
	local out rc=0
	echo 8 >/proc/sys/vm/percpu_pagelist_high_fraction
	reader_start 0 drop
	out=$(taskset -c 0 $B/pagefault anon 16777216 1 "$SECS" "$1") || rc=1
	reader_stop
	echo 0 >/proc/sys/vm/percpu_pagelist_high_fraction
	echo "$out"
	return $rc
}
# Real programs, from the programs archive (scripts/programs.sh), which
# only the boots that run them carry: gcc, make and pv's source tree for
# compile and configure, lighttpd and ab for web.  Each prints its metric
# and ops=N, and runs AMOUNT operations inside one measured phase; the
# setup (a configured tree, the server's files) is outside it.  A program
# that fails fails the workload, with the last lines it printed.
PROG=/prog/src/pv
# prog_check: the archive is there, or the workload fails saying so
prog_check() {
	if [ ! -x /usr/bin/gcc ] || [ ! -x "$PROG/configure" ]; then
		echo "no programs archive in this boot (scripts/programs.sh; scripts/bench.sh appends it to the boots of the program workloads)"
		return 1
	fi
}

# prog_configure DIR [cached]: pv's configure in DIR, quiet; its tail if
# it fails.  cached: with the archive's autoconf cache
# (scripts/programs.sh), whose answers skip the checks' compiler runs
# (only compile_tree's configure, outside any phase, takes it; the cache
# is removed after it, so the tree compile copies differs from one
# configured without it only in config.log and config.status)
PROG_CACHE=/prog/pv.config.cache
prog_configure() {
	local c=
	if [ "${2:-}" = cached ] && [ -f $PROG_CACHE ]; then
		cp $PROG_CACHE "$1/config.cache" || return 1
		c=-C
	fi
	if ! (cd "$1" && ./configure -q --disable-nls ${c:+"$c"} && rm -f config.cache) >/tmp/configure.out 2>&1; then
		tail -5 /tmp/configure.out
		echo "pv's configure failed in $1"
		return 1
	fi
}

# prog_rate N T0 T1 METRIC PER: METRIC=N*PER/(T1-T0) ops=N
prog_rate() {
	awk -v n="$1" -v a="$2" -v b="$3" -v m="$4" -v per="$5" \
		'BEGIN { printf "%s=%.2f ops=%d\n", m, n * per / (b - a), n }'
}

# prog_runs N METRIC STEP [KEEP]: STEP DIR, N times inside one measured
# phase, each in a fresh DIR removed after it (the last one moved to KEEP
# after the phase instead, if given); prints METRIC (per hour) and ops
prog_runs() {
	local n=$1 m=$2 step=$3 keep=${4:-} i t0 t1 d
	t0=$(cut -d' ' -f1 /proc/uptime)
	$B/phase begin
	for i in $(seq 1 "$n"); do
		d=/tmp/prog.$i
		if ! "$step" "$d"; then
			$B/phase end
			echo "$step: run $i of $n failed"
			return 1
		fi
		if [ -z "$keep" ] || [ "$i" != "$n" ]; then
			rm -rf "$d"
		fi
	done
	$B/phase end
	if [ -n "$keep" ] && [ "$n" -gt 0 ]; then
		rm -rf "$keep"
		mv "$d" "$keep" || { echo "cannot keep $d as $keep"; return 1; }
	fi
	t1=$(cut -d' ' -f1 /proc/uptime)
	prog_rate "$n" "$t0" "$t1" "$m" 3600
}

# configure N: pv's autoconf configure (about 60 checks, each a compiler
# run or a shell test) in a fresh copy of the tree, N times; the last
# configured tree is kept for compile (COMPILE_SRC), which would
# otherwise run configure once more before its phase (a third of a
# programs boot under the cache model)
COMPILE_SRC=/tmp/compile.src
configure_one() {
	cp -a "$PROG" "$1" && prog_configure "$1"
}

configure() {
	prog_check || return 1
	prog_runs "$1" runs_per_hour configure_one "$COMPILE_SRC"
}

# compile N: make -jJ of pv from a clean, configured tree (a copy of one
# configured outside the phase: configure's last, or one configured
# here), N times; J is the vCPUs, at least 2 (the _n workloads' N: -j2 on
# one vCPU, -j8 on the 8-vCPU shape)
compile_one() {
	cp -a "$COMPILE_SRC" "$1" || return 1
	if ! make -C "$1" -j"$N" pv >/tmp/compile.out 2>&1 || [ ! -x "$1/pv" ]; then
		tail -5 /tmp/compile.out
		return 1
	fi
}

# compile_tree: the configured tree compile_one copies (configure's
# last, or one configured here, outside any phase, from the archive's
# autoconf cache: the same config.h and Makefile, scripts/programs.sh);
# compile removes it
# unless backup_beside_compile follows, which removes it
compile_tree() {
	[ ! -f "$COMPILE_SRC/Makefile" ] || return 0
	rm -rf "$COMPILE_SRC"
	if ! cp -a "$PROG" "$COMPILE_SRC" || ! prog_configure "$COMPILE_SRC" cached; then
		echo "configure of the compile tree failed"
		return 1
	fi
}

compile() {
	local rc=0
	prog_check || return 1
	compile_tree || return 1
	prog_runs "$1" builds_per_hour compile_one || rc=1
	# (kept for backup_beside_compile, which removes it)
	want backup_beside_compile || rm -rf "$COMPILE_SRC"
	return $rc
}

# web N: lighttpd serving static files from tmpfs to ab over the loopback,
# N requests of a 1 KB file and N/4 of a 64 KB one, four at a time (in a
# machine shape's boot, shape=: a worker process per vCPU, and as many at
# a time; wall mode's two vCPUs keep one process and four): every request
# must complete with 200 and the document's length, and lo must carry the
# documents and no more than WEB_HDR bytes a request besides them
# (headers, TCP/IP).
WEB_HDR=2048
WEB_WORKERS=1
WEB_AT_ONCE=4
if [ -n "$SHAPE" ] && [ "$(nproc)" -gt 1 ]; then
	WEB_WORKERS=$(nproc)
	WEB_AT_ONCE=$WEB_WORKERS
fi
# web_ab N URL LENGTH: N requests of a LENGTH-byte document, all answered
# 200, or fail; prints ab's time for them in seconds (ms resolution:
# /proc/uptime's 10 ms would quantise a load this short)
web_ab() {
	local n=$1 url=$2 len=$3 out
	out=$(ab -q -n "$n" -c "$WEB_AT_ONCE" "$url" 2>&1) || { echo "$out" | tail -5; echo "ab $url failed"; return 1; }
	echo "$out" | ab_time "$n" "$len" || { echo "ab $url: the load is not the one asked for"; return 1; }
}

# web_up DOCROOT: lighttpd serving DOCROOT on 127.0.0.1:8080, listening
# (state 0A in /proc/net/tcp) within 10 s, its pid in WEB_PID; the guest
# has no network device (QEMU -nodefaults), which is checked: the only
# interface is lo
WEB_PID=
web_up() {
	local ifs i
	ifs=$(ls /sys/class/net)
	[ "$ifs" = lo ] || { echo "network interfaces other than lo ($ifs): the load must stay in the guest"; return 1; }
	ip link set lo up 2>/dev/null || ifconfig lo 127.0.0.1 up
	cat >/tmp/lighttpd.conf <<-EOF
	server.document-root = "$1"
	server.bind = "127.0.0.1"
	server.port = 8080
	server.errorlog = "/tmp/lighttpd.err"
	server.upload-dirs = ("/tmp")
	server.max-keep-alive-requests = 0
	mimetype.assign = (".html" => "text/html")
	EOF
	# (workers: the master signals its process group to stop them, so it
	# gets a session of its own, not this job's)
	if [ "$WEB_WORKERS" -gt 1 ]; then
		echo "server.max-worker = $WEB_WORKERS" >>/tmp/lighttpd.conf
		setsid lighttpd -D -f /tmp/lighttpd.conf &
	else
		lighttpd -D -f /tmp/lighttpd.conf &
	fi
	WEB_PID=$!
	i=0
	while ! grep -q ':1F90 00000000:0000 0A' /proc/net/tcp; do
		if ! kill -0 "$WEB_PID" 2>/dev/null || [ $i -ge 100 ]; then
			cat /tmp/lighttpd.err 2>/dev/null
			web_down
			echo "lighttpd did not start listening on 127.0.0.1:8080"
			return 1
		fi
		sleep 0.1
		i=$((i + 1))
	done
}

# web_procs: how many lighttpd processes run (the master and its workers)
web_procs() {
	grep -l '^lighttpd$' /proc/[0-9]*/comm 2>/dev/null | wc -l
}

# web_down: stop lighttpd (WEB_PID) and wait until none of its processes
# is left (its workers exit after the master), at most 10 s
web_down() {
	local i=0
	kill "$WEB_PID" 2>/dev/null
	wait "$WEB_PID" 2>/dev/null
	while [ "$(web_procs)" -gt 0 ] && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ "$(web_procs)" = 0 ] || { echo "lighttpd's processes did not exit"; return 1; }
}

web() {
	local n=$1 big t1 t2 rc=0 lo0 lo doc procs
	prog_check || return 1
	big=$((n / 4))
	[ "$big" -gt 0 ] || big=1
	mkdir -p /tmp/www
	head -c 1024 /dev/zero | tr '\0' a >/tmp/www/small.html
	head -c 65536 /dev/zero | tr '\0' b >/tmp/www/big.html
	web_up /tmp/www || return 1
	lo0=$(cat /sys/class/net/lo/statistics/rx_bytes)
	$B/phase begin
	if ! t1=$(web_ab "$n" http://127.0.0.1:8080/small.html 1024) ||
		! t2=$(web_ab "$big" http://127.0.0.1:8080/big.html 65536); then
		rc=1
	fi
	$B/phase end
	lo=$(($(cat /sys/class/net/lo/statistics/rx_bytes) - lo0))
	doc=$((n * 1024 + big * 65536))
	echo "web: lo carried $lo bytes for $doc bytes of documents in $((n + big)) requests" >&2
	if [ $rc = 0 ] && { [ "$lo" -lt "$doc" ] || [ "$lo" -gt $((doc + (n + big) * WEB_HDR)) ]; }; then
		echo "web: lo carried $lo bytes, outside [$doc, $((doc + (n + big) * WEB_HDR))]: traffic other than the load"
		rc=1
	fi
	# (with workers: the master and one process per worker served it)
	procs=$(web_procs)
	echo "web: $procs lighttpd processes for $WEB_WORKERS workers, ab $WEB_AT_ONCE at a time" >&2
	if [ $rc = 0 ] && [ "$WEB_WORKERS" -gt 1 ] && [ "$procs" -ne $((WEB_WORKERS + 1)) ]; then
		echo "web: $procs lighttpd processes, expected a master and $WEB_WORKERS workers"
		rc=1
	fi
	web_down || rc=1
	rm -rf /tmp/www /tmp/lighttpd.conf /tmp/lighttpd.err
	if [ $rc != 0 ]; then
		echo "$t1${t2:+ $t2}"
		return 1
	fi
	awk -v a="$t1" -v b="$t2" -v n=$((n + big)) \
		'BEGIN { if (a + b <= 0) exit 1; printf "requests_per_s=%.2f ops=%d\n", n / (a + b), n }' ||
		{ echo "ab reported no time for its requests ($t1, $t2)"; return 1; }
}

# Real programs under memory pressure: their data (scripts/pressure-
# data.py: a file set, a database, the request and query lists) is an
# ext4 image in the programs archive, copied into a tmpfs file behind a
# loop device and mounted read-only on /data: reading it is block I/O
# (bio, the loop driver's copy from its backing file), readahead and page
# cache, and it stays in the guest, so the deterministic modes repeat it.
# The page cache room is fixed per workload, whatever the kernel: a
# balloon (a tmpfs file, unreclaimable without swap) takes MemAvailable
# less the room, after the caches are dropped.  The data set is several
# times the room, so the tail of each load is read from the device and
# reclaimed again (kswapd and direct reclaim, on the one vCPU).
PDATA=/prog/data
PIMG=/tmp/pressure.img
PLOOP=/dev/loop2
# pressure_up ROOM_MB: the data mounted (once per boot: each workload runs
# in a subshell, so the mount is the state) and the balloon sized for
# ROOM_MB of page cache room; prints what it did to stderr
pressure_up() {
	local room=$1 avail hold
	pressure_release
	if ! grep -q " /data " /proc/mounts; then
		if [ ! -r $PDATA/pressure.img.gz ] || [ ! -r $PDATA/sizes ]; then
			echo "no pressure data in this boot ($PDATA: scripts/programs.sh)"
			return 1
		fi
		if ! gunzip -c $PDATA/pressure.img.gz >$PIMG || ! losetup $PLOOP $PIMG; then
			rm -f $PIMG
			echo "cannot copy $PDATA/pressure.img.gz behind $PLOOP (/tmp full?)"
			return 1
		fi
		if ! mkdir -p /data || ! mount -t ext4 -o ro $PLOOP /data; then
			losetup -d $PLOOP
			rm -f $PIMG
			echo "cannot mount $PLOOP (the pressure image) on /data"
			return 1
		fi
	fi
	drop_caches
	avail=$(awk '$1 == "MemAvailable:" { print $2 }' /proc/meminfo)
	hold=$((${avail:-0} - room * 1024))
	# (the room must be less than what is available, or the workload
	# would run without pressure)
	if [ "$hold" -le 0 ]; then
		echo "pressure: ${avail:-no} KB available, not more than the room asked for, $((room * 1024)) KB"
		return 1
	fi
	mkdir -p /balloon
	# shellcheck disable=SC2015 # the message if any step fails
	mount -t tmpfs -o size=$((hold + 4096))k balloon /balloon &&
		dd if=/dev/zero of=/balloon/hold bs=4096 count=$((hold / 4)) 2>/dev/null ||
		{ pressure_release; echo "cannot hold $hold KB in /balloon"; return 1; }
	echo "pressure: $(cat $PDATA/sizes) room_kb=$((room * 1024)) avail_kb=$avail held_kb=$hold" >&2
}

# pressure_release: the balloon gone (after each workload)
pressure_release() {
	grep -q " /balloon " /proc/mounts || return 0
	rm -f /balloon/hold
	umount /balloon || { echo "cannot unmount /balloon"; return 1; }
}

# pressure_down: the balloon, the mount, the loop device and the image
# gone (after the programs)
pressure_down() {
	pressure_release || return 1
	if grep -q " /data " /proc/mounts; then
		loop_down /data $PLOOP $PIMG || return 1
	fi
	[ ! -e $PIMG ] || { echo "$PIMG is left behind"; return 1; }
}

# psize KEY: a figure of the data's sizes file
psize() {
	tr ' ' '\n' <$PDATA/sizes | sed -n "s/^$1=//p"
}

# fileserver N: lighttpd serving the file set from /data/www (1024 files
# of 8-128 KB, 72 MB) with 24 MB of page cache room, to httperf replaying
# the first N paths of the request list one connection after another: a
# Zipf popularity, so the hot files stay cached and the tail is read
# through readahead and reclaimed.  Every request must be answered 200,
# httperf must report no error, and it must have made N requests.
FILESERVER_ROOM=24
fileserver() {
	local n=$1 out rc=0 t
	prog_check || return 1
	[ "$n" -le "$(psize requests)" ] || { echo "fileserver: $n requests, the list has $(psize requests)"; return 1; }
	pressure_up $FILESERVER_ROOM || return 1
	web_up /data/www || { pressure_release; return 1; }
	$B/phase begin
	out=$(httperf --hog --server 127.0.0.1 --port 8080 --wlog=n,$PDATA/urls \
		--num-conns="$n" --num-calls=1 --timeout=60 2>&1) || rc=1
	$B/phase end
	kill "$WEB_PID"
	wait "$WEB_PID" 2>/dev/null
	rm -f /tmp/lighttpd.conf /tmp/lighttpd.err
	pressure_release
	t=$(echo "$out" | httperf_time "$n") || rc=1
	if [ $rc != 0 ]; then
		echo "$out" | grep -E '^(Total|Reply status|Errors):'
		echo "fileserver: httperf failed${t:+ ($t)}"
		return 1
	fi
	awk -v n="$n" -v t="$t" 'BEGIN { printf "requests_per_s=%.2f ops=%d\n", n / t, n }'
}

# sqlite_queries N: the sqlite3 shell running the first N statements of
# the query list (8 in 10 a point read by id with a Zipf popularity, the
# rest index reads and range scans) over /data/db/bench.db (200000 rows,
# 45 MB, read-only) with 16 MB of page cache room; each statement prints
# one line, so a short run is seen.
SQLITE_ROOM=16
sqlite_queries() {
	local n=$1 rc=0 t0 t1 lines
	prog_check || return 1
	[ "$n" -le "$(psize queries)" ] || { echo "sqlite: $n queries, the list has $(psize queries)"; return 1; }
	pressure_up $SQLITE_ROOM || return 1
	head -n "$n" $PDATA/queries.sql >/tmp/queries.sql
	t0=$(cut -d' ' -f1 /proc/uptime)
	$B/phase begin
	sqlite3 -batch -readonly /data/db/bench.db </tmp/queries.sql >/tmp/queries.out 2>/tmp/queries.err || rc=1
	$B/phase end
	t1=$(cut -d' ' -f1 /proc/uptime)
	pressure_release
	lines=$(wc -l </tmp/queries.out)
	if [ $rc != 0 ] || [ -s /tmp/queries.err ] || [ "$lines" != "$n" ]; then
		tail -5 /tmp/queries.err
		echo "sqlite: sqlite3 failed or printed an error, or answered $lines of $n statements"
		return 1
	fi
	rm -f /tmp/queries.sql /tmp/queries.out /tmp/queries.err
	prog_rate "$n" "$t0" "$t1" queries_per_s 1
}

# backup_beside_compile N: one build of pv (compile's, make -j2) in the
# foreground while GNU tar streams the whole file set (/data/www, 72 MB)
# through gzip -1 to a pipe's end in the background, with 48 MB of page
# cache room (the build's processes take part of it), both on the one
# vCPU; the phase holds both, each a fixed amount of work.  Prints the
# foreground's builds_per_hour, from its own time, and the background's
# background_mb_per_s, from the backup's; tar must have archived the whole
# file set.
BACKUP_ROOM=48
backup_beside_compile() {
	local rc=0 t0 tf tb bytes bk www tarred
	prog_check || return 1
	[ "$1" = 1 ] || { echo "backup_beside_compile: amount $1, expected 1 (one build beside one backup)"; return 1; }
	compile_tree || return 1
	pressure_up $BACKUP_ROOM || return 1
	rm -f /tmp/backup.out
	t0=$(cut -d' ' -f1 /proc/uptime)
	$B/phase begin
	(set -o pipefail
	 /prog/bin/tar --totals -cf - -C /data www 2>/tmp/backup.tar | /prog/bin/gzip -1 |
		wc -c >/tmp/backup.out && cut -d' ' -f1 /proc/uptime >>/tmp/backup.out) &
	bk=$!
	compile_one /tmp/prog.backup || rc=1
	tf=$(cut -d' ' -f1 /proc/uptime)
	wait $bk || { rc=1; echo "backup_beside_compile: tar or gzip failed"; }
	$B/phase end
	rm -rf /tmp/prog.backup "$COMPILE_SRC"
	pressure_release || rc=1
	[ $rc = 0 ] || { echo "backup_beside_compile: the build or the backup failed"; return 1; }
	{ read -r bytes; read -r tb; } </tmp/backup.out
	www=$(psize www_kb)
	# tar must have archived the whole file set (its --totals line: the
	# archive's bytes, headers and padding included), and gzip written
	# something of it
	tarred=$(sed -n 's/^Total bytes written: \([0-9]*\) .*/\1/p' /tmp/backup.tar)
	if [ "${tarred:-0}" -lt $((www * 1024)) ] || [ "${bytes:-0}" -le 0 ]; then
		cat /tmp/backup.tar
		echo "backup_beside_compile: tar archived ${tarred:-no} bytes of a $www KB file set, gzip wrote ${bytes:-no}"
		return 1
	fi
	rm -f /tmp/backup.out /tmp/backup.tar
	awk -v a="$t0" -v f="$tf" -v b="$tb" -v kb="$www" 'BEGIN {
		if (f <= a || b <= a) exit 1
		printf "builds_per_hour=%.2f ops=1 background_mb_per_s=%.2f\n", 3600 / (f - a), kb / 1024 / (b - a) }' ||
		{ echo "backup_beside_compile: no time measured ($t0 $tf $tb)"; return 1; }
}

# Warm-up N (fixed mode): the fixed work repeats the same instructions in
# every boot, but which physical pages sit in which list when a workload
# starts depends on everything before it, and a workload's L2 misses of a
# few per operation follow that state: one configuration can repeat 7.2
# misses per op exactly while another gets 2.9, and another history gives
# both something else.  So each round starts with a different warm-up
# (N x 97 pages written to a tmpfs file and removed, N x 64 KB of the
# ext4 file read into the page cache), every configuration the same one
# in the same round; the spread over the rounds then includes the state,
# and a difference that holds in every round is not an accident of one
# history.  No measured phase is opened here.
warm_up() {
	[ "$1" -gt 0 ] || return 0
	dd if=/dev/zero of=/tmp/warm-up bs=4096 count=$(($1 * 97)) 2>/dev/null
	rm -f /tmp/warm-up
	# (the deterministic modes boot the disk-free workloads without disk)
	[ -f /mnt/big ] || return 0
	dd if=/mnt/big of=/dev/null bs=65536 count="$1" 2>/dev/null
}
[ "$MODE" = fixed ] && warm_up "$HISTORY"

# the allocator's state, which the host checks against the configuration
# it booted (bench/report.py boot-state): the switch, and the pcp lists'
# largest high and their batch (0 and 1 on nopcp) over /proc/zoneinfo
pcp=$(awk '$1 == "high:" && $2 > h { h = $2 }
	$1 == "batch:" { if (b == "" || $2 < b) b = $2; if ($2 > bm) bm = $2 }
	END { printf "pcp_high_max=%d pcp_batch=%s-%s", h, b == "" ? "none" : b, b == "" ? "none" : bm }' /proc/zoneinfo)
# and the series' cold events since boot, before the first workload (a
# workload's own counters cover its run only): boot_cold=FREE/REQUEST/ALLOC
bc=$(vmstat pcp_cold_free)
bc=${bc:+$bc/$(vmstat pcp_cold_request)/$(vmstat pcp_cold_alloc)}
# and whether the free lists were shuffled at boot (scripts/bench.sh's
# seeded rounds boot with page_alloc.shuffle=1: a kernel without
# CONFIG_SHUFFLE_PAGE_ALLOCATOR ignores it, and its rounds would not
# sample the boot state)
shuffle=none
shuffle_param=/sys/module/page_alloc/parameters/shuffle
[ ! -r $shuffle_param ] || read -r shuffle <$shuffle_param
read -r cmdline </proc/cmdline
case " $cmdline " in
*" page_alloc.shuffle=1 "*)
	[ "$shuffle" = Y ] || { echo "hotcold: bench: booted with page_alloc.shuffle=1, and the kernel's shuffle is '$shuffle' (CONFIG_SHUFFLE_PAGE_ALLOCATOR=y?)"; exit 2; } ;;
esac
echo "hotcold-info kernel=$(uname -r) vcpus=$(nproc) tasks=$N mode=$MODE amount=$AMOUNT history=$HISTORY switch=$(cat /proc/sys/vm/percpu_pagelist_hot_cold 2>/dev/null || echo none) $pcp boot_cold=${bc:-none} shuffle=$shuffle"
# The data caches the kernel read from CPUID, and its per-CPU slice of the
# last level (per_cpu_data_slice_size: the LLC's size over the CPUs that
# share it; the series' exit threshold, patch 9), in pages
caches=
llc=0 shared=1
for d in /sys/devices/system/cpu/cpu0/cache/index*; do
	[ -r "$d/size" ] || continue
	t=$(cat "$d/type")
	[ "$t" = Instruction ] && continue
	caches="$caches L$(cat "$d/level")=$(cat "$d/size")/$(cat "$d/ways_of_associativity" 2>/dev/null || echo 0)w"
	llc=${d}
done
if [ "$llc" != 0 ]; then
	size=$(sed 's/K$//' "$llc/size")
	shared=$(awk -F, '{ n = 0; for (i = 1; i <= NF; i++) { if (split($i, r, "-") == 2) n += r[2] - r[1] + 1; else n++ } print n }' "$llc/shared_cpu_list")
	caches="$caches llc_shared_cpus=$shared slice_pages=$((size / shared / 4))"
fi
echo "hotcold-caches${caches:- none}"
run trunc80k_tmpfs_1 0 taskset -c 0 $B/trunc80k /tmp 81920 1 "$SECS" "$(amount trunc80k_tmpfs_1)"
run trunc80k_tmpfs_n all $B/trunc80k /tmp 81920 "$N" "$SECS" "$(amount trunc80k_tmpfs_n)"
run trunc80k_ext4_1 0 trunc80k_ext4 taskset -c 0 $B/trunc80k /ext4 81920 1 "$SECS" "$(amount trunc80k_ext4_1)"
run trunc80k_ext4_n all trunc80k_ext4 $B/trunc80k /ext4 81920 "$N" "$SECS" "$(amount trunc80k_ext4_n)"
run trunc_sweep_16k all $B/trunc80k /tmp 16384 "$N" "$SECS" "$(amount trunc_sweep_16k)"
run trunc_sweep_256k all $B/trunc80k /tmp 262144 "$N" "$SECS" "$(amount trunc_sweep_256k)"
run trunc_sweep_1024k all $B/trunc80k /tmp 1048576 "$N" "$SECS" "$(amount trunc_sweep_1024k)"
run trunc_sweep_8192k all $B/trunc80k /tmp 8388608 "$N" "$SECS" "$(amount trunc_sweep_8192k)"
for u in 1 2 4 8; do
	run "sdet_$u" all sdet "$u" "$(amount "sdet_$u")"
done
run pagefault_anon all $B/pagefault anon 4194304 "$N" "$SECS" "$(amount pagefault_anon)"
run pagefault_fork all $B/pagefault fork 65536 "$N" "$SECS" "$(amount pagefault_fork)"
run mixed_pagefault 0 mixed $B/pagefault anon 4194304 1 "$SECS" "$(amount mixed_pagefault)"
run mixed_trunc80k 0 mixed $B/trunc80k /tmp 81920 1 "$SECS" "$(amount mixed_trunc80k)"
run mixed_sdet all mixed sdet 2 "$(amount mixed_sdet)"
# scenarios: a fixed amount of work in every mode
run exit_flood 0 $B/flood exit 40 4 1024 "$(amount exit_flood)"
run reclaim_flood 0 reclaim_flood 96 4 "$(amount reclaim_flood)"
# the same with the flood on CPU 1, the foreground on CPU 0 (the 2cpu
# boot): the exits and the reclaim free on the other CPU
run exit_flood_other_cpu 0 $B/flood exit 40 4 1024 "$(amount exit_flood_other_cpu)" 1
run reclaim_flood_other_cpu 0 reclaim_flood 96 4 "$(amount reclaim_flood_other_cpu)" 1
run readahead_same_cpu 0 $B/flood readahead 256 0 1024 "$(amount readahead_same_cpu)"
run readahead_other_cpu 0 readahead_other "$(amount readahead_other_cpu)"
run big_hot_list 0 big_hot_list "$(amount big_hot_list)"
run reader_beside_hot_list 0 reader_beside_hot_list "$(amount reader_beside_hot_list)"
# the directed tests' curves (fixed mode only; scripts/bench.sh boots
# them in a boot of their own): exit_flood and reclaim_flood at the rate
# and size each name says (bench/workloads.tsv: sweep_exit_N_MB_L,
# sweep_reclaim_N_MB_L), whatever SCALE, so that a point means the same
# in every run
if [ "$MODE" = fixed ]; then
	sweeps=$(awk -F'\t' '!/^#/ && $2 == "sweep" { print $1 }' "$TABLE")
	for w in $sweeps; do
		want "$w" || continue
		# shellcheck disable=SC2046 # the name's fields, one per word
		set -- $(echo "$w" | tr _ ' ')
		case $#,${2:-} in
		5,exit) run "$w" 0 $B/flood exit "$4" "$3" 1024 "$5" ;;
		5,reclaim) run "$w" 0 reclaim_flood "$4" "$3" "$5" ;;
		*) failed "$w" "not a sweep's name (sweep_exit_N_MB_L or sweep_reclaim_N_MB_L)" ;;
		esac
	done
fi
# real programs: their amount in every mode
# (configure first: compile builds in a copy of its last configured tree)
run configure all configure "$(amount configure)"
run compile all compile "$(amount compile)"
run web all web "$(amount web)"
run fileserver all fileserver "$(amount fileserver)"
run sqlite all sqlite_queries "$(amount sqlite)"
run backup_beside_compile all backup_beside_compile "$(amount backup_beside_compile)"
run_queue
pressure_down || failed pressure "the data's mount, loop device or balloon did not come down"
rm -rf "$COMPILE_SRC"

# in-kernel microbenchmark (bench/module), built for this kernel; timed,
# so wall mode only
alloc_bench() {
	local m
	m=$(ls /guest/modules/hotcold_bench.ko 2>/dev/null) || { echo "no module"; return 1; }
	dmesg -c >/dev/null
	insmod "$m" || { echo "insmod $m failed"; return 1; }
	rmmod hotcold_bench
	dmesg | sed -n 's/.*hotcold-result //p'
}
if [ "$MODE" = wall ] && want alloc; then
	drop_caches
	snap before
	if out=$(alloc_bench) && [ -n "$out" ]; then
		echo "$out" | while read -r w v; do echo "hotcold-result $w $v"; done
	else
		failed alloc "${out:-no hotcold-result line in dmesg}"
	fi
	report_vm alloc
fi

if [ -n "$FAILED" ]; then
	echo "hotcold-failed$FAILED"
	exit 1
fi
