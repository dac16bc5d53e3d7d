# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash # busybox ash
# The modern family (bench/workloads.tsv: limit_*, proactive_fileserver,
# appcompact_*, kswapd_other_cpu): the reclaim systems run today beside
# real programs, sourced by guest/jobs/bench.sh after
# guest/bench/pressure.sh, whose data (/data) and helpers it uses, and
# queue_modern.  Each workload sets up its cgroups, runs a real program
# as the foreground inside one measured phase with the reclaim beside it
# on its CPU, stepped by the foreground's progress (every M_STEPS-th of
# its statements or requests), never by a timer, so that kernels pair per
# operation; it checks that the program answered in full, that the load
# generator made its load, and that the reclaim it is there for happened,
# and fails naming the cause.  Besides the rows every workload reports it
# prints, on stderr, the reclaim work over its phase:
#   hotcold-reclaim WORKLOAD global [KEY=N...] COUNTER=DELTA...  (/proc/vmstat)
#   hotcold-reclaim WORKLOAD CGROUP COUNTER=DELTA... events_KEY=N... (memory.stat,
#                   and memory.events since the cgroup was made)
# Needs memcg, zram and zswap (CONFIG_BASE=distro, configs/distro.config);
# on the lean kernels only kswapd_other_cpu runs.  Its machinery (cgroups,
# swap, counters, the background) is guest/bench/reclaim.sh's.

M_STEPS=16
M_DB=/data/db/bench.db
# limit_high_compile's memory.high: a first guess below the footprint of
# pv's make -j2 (its tree and objects in tmpfs, two cc1), swapped to zram;
# the run fails if the limit made no reclaim
M_COMPILE_HIGH_MB=32
# proactive_fileserver: the background scans M_SCAN_KB of the database per
# step; the controller writes memory.reclaim for 9.56 % of its cgroup per
# step: Senpai's largest probe (1 % of the size per 6 s interval, taken
# when the stall is at most a tenth of its 10 ms target) over ten
# intervals, 1 - 0.99^10, with no pressure read (docs/decisions.md)
# (DAMON_RECLAIM's quota, 128 MiB a second, would take the whole cache at
# each step: a guest's seconds hold a few steps)
M_SCAN_KB=2816
M_SENPAI_PERMYRIAD=956
# appcompact_*: the cached app's anonymous memory, and what it uses again
# per step before its compaction (Android compacts a cached app's whole
# anonymous memory; a quarter of it comes back at each switch)
M_APP_MB=32
M_APP_TOUCH_KB=8192

# m_split FILE N PREFIX STEPS: the first N lines of FILE in STEPS equal
# chunks, PREFIX.0 to PREFIX.STEPS-1
m_split() {
	local have
	have=$(wc -l <"$1")
	# shellcheck disable=SC2015 # the message if any test fails
	[ "$2" -gt 0 ] && [ "$2" -le "$have" ] && [ $(($2 % $4)) = 0 ] ||
		{ echo "$2 of the $have lines of $1 asked for: at most those, in $4 equal steps"; return 1; }
	rm -f "$3".*
	head -n "$2" "$1" | awk -v n=$(($2 / $4)) -v p="$3" '{ print > (p "." int((NR - 1) / n)) }'
}

# m_down: the workload's files and reclaim_down's (guest/bench/reclaim.sh)
m_down() {
	rm -f "$M_TMP"/m.*
	reclaim_down
}

# sql_chunk I [PREFIX...]: chunk I of the statements through the sqlite3
# shell (run by PREFIX, taskset), its answers added to /tmp/m.out
sql_chunk() {
	local i=$1
	shift
	"$@" sqlite3 -batch -readonly "$M_DB" <"$M_TMP/m.q.$i" >>"$M_TMP"/m.out 2>>"$M_TMP"/m.err ||
		{ echo "sqlite3 failed on step $i: $(tail -3 "$M_TMP"/m.err)"; return 1; }
}

# sql_check N: sqlite3 answered each of the N statements with a line, and
# printed no error
sql_check() {
	local l
	l=$(wc -l <"$M_TMP"/m.out)
	[ "$l" = "$1" ] && [ ! -s "$M_TMP"/m.err ] && return 0
	echo "sqlite3 answered $l of $1 statements$([ ! -s "$M_TMP"/m.err ] || echo ", and printed: $(tail -3 "$M_TMP"/m.err)")"
	return 1
}

# sql_up N STEPS: the first N statements in STEPS chunks, no answers yet
sql_up() {
	rm -f "$M_TMP"/m.out "$M_TMP"/m.err
	m_split "$PDATA/queries.sql" "$1" "$M_TMP"/m.q "$2"
}

# limit_sqlite WORKLOAD high|max N: the sqlite3 shell running N statements
# (sqlite's list) in a cgroup whose memory.high or memory.max is sqlite's
# room (SQLITE_ROOM, 16 MB, of a 45 MB database): it reclaims its own
# page cache, on its own CPU, as it reads
limit_sqlite() {
	local w=$1 n=$3 rc=0 t0 t1
	if ! { prog_check && pressure_mount && cg_up && sql_up "$n" 1 &&
		cg_new hc-fg "memory.$2" $((SQLITE_ROOM << 20)) && cg_join hc-fg; }; then
		m_down
		return 1
	fi
	rc_snap before hc-fg
	t0=$(cut -d' ' -f1 /proc/uptime)
	"$B"/phase begin
	sql_chunk 0 || rc=1
	"$B"/phase end
	t1=$(cut -d' ' -f1 /proc/uptime)
	rc_report "$w" "" hc-fg
	[ $rc = 0 ] && sql_check "$n" && reclaimed hc-fg "memory.$2" || rc=1
	m_down || rc=1
	[ $rc = 0 ] && prog_rate "$n" "$t0" "$t1" queries_per_s 1
}

# limit_compile WORKLOAD N: N builds of pv (compile's, make -j2) in a cgroup
# at memory.high M_COMPILE_HIGH_MB, with zram swap (as Fedora has by default)
limit_compile() {
	local w=$1 n=$2 rc=0 i t0 t1
	if ! { prog_check && cg_up && compile_tree && swap_up zram &&
		cg_new hc-fg memory.high $((M_COMPILE_HIGH_MB << 20)) && cg_join hc-fg; }; then
		m_down
		return 1
	fi
	rc_snap before hc-fg
	t0=$(cut -d' ' -f1 /proc/uptime)
	"$B"/phase begin
	for i in $(seq 1 "$n"); do
		compile_one "$M_TMP/prog.$i" || { echo "build $i of $n failed"; rc=1; break; }
		rm -rf "$M_TMP/prog.$i"
	done
	"$B"/phase end
	t1=$(cut -d' ' -f1 /proc/uptime)
	rm -rf "$M_TMP/prog.$i"
	rc_report "$w" "" hc-fg
	[ $rc = 0 ] && reclaimed hc-fg memory.high || rc=1
	m_down || rc=1
	[ $rc = 0 ] && prog_rate "$n" "$t0" "$t1" builds_per_hour 3600
}

# proactive_fileserver WORKLOAD N: lighttpd in hc-fg serving the file set
# to httperf (the fileserver's request list, N requests in M_STEPS steps),
# while a background in hc-bg scans the database, M_SCAN_KB a step, and
# the controller writes memory.reclaim for hc-bg after each step.  The
# kernel may reclaim less than asked (EAGAIN: counted as short_steps);
# any other refusal fails the workload.
proactive_fileserver() {
	local w=$1 n=$2 rc=0 i per=$(($2 / M_STEPS)) t0 t1 h cur b asked=0 short=0
	rm -f "$M_TMP"/m.u.*
	# shellcheck disable=SC2016 # the background's script, its own words
	if ! { prog_check && pressure_mount && cg_up && tr '\0' '\n' <"$PDATA/urls" >"$M_TMP"/m.urls &&
		m_split "$M_TMP"/m.urls "$n" "$M_TMP"/m.u "$M_STEPS" && cg_new hc-fg && cg_new hc-bg &&
		bg_up hc-bg sh -c 'echo ready; while read -r i; do
			dd if="$0" of=/dev/null bs=64k skip=$((i * $1)) count="$1" 2>/dev/null && echo ok || echo "dd failed"
			done' "$M_DB" $((M_SCAN_KB / 64)) && cg_join hc-fg && web_up /data/www && cg_join; }; then
		m_down
		return 1
	fi
	for i in $(seq 0 $((M_STEPS - 1))); do
		tr '\n' '\0' <"$M_TMP/m.u.$i" >"$M_TMP/m.u.$i.z" && mv "$M_TMP/m.u.$i.z" "$M_TMP/m.u.$i"
	done
	rc_snap before hc-fg hc-bg
	t0=$(cut -d' ' -f1 /proc/uptime)
	"$B"/phase begin
	for i in $(seq 0 $((M_STEPS - 1))); do
		bg_say "$i" || { rc=1; break; }
		httperf --hog --server 127.0.0.1 --port 8080 --wlog=n,"$M_TMP/m.u.$i" --num-conns="$per" \
			--num-calls=1 --timeout=60 >"$M_TMP/m.h.$i" 2>&1 || { echo "httperf failed on step $i"; rc=1; break; }
		read -r cur <"$CG/hc-bg/memory.current" || { echo "the controller cannot read $CG/hc-bg/memory.current"; rc=1; break; }
		b=$((cur * M_SENPAI_PERMYRIAD / 10000 / 4096 * 4096))
		asked=$((asked + b))
		kset "$CG/hc-bg/memory.reclaim" "$b" - "memory.reclaim: Linux 5.19, CONFIG_MEMCG" >"$M_TMP"/m.kset && continue
		grep -q 'temporarily unavailable' "$M_TMP"/m.kset || { echo "the controller: $(cat "$M_TMP"/m.kset)"; rc=1; break; }
		short=$((short + 1))
	done
	"$B"/phase end
	t1=$(cut -d' ' -f1 /proc/uptime)
	rc_report "$w" "steps=$M_STEPS asked_kb=$((asked / 1024)) short_steps=$short" hc-fg hc-bg
	for i in $(seq 0 $((M_STEPS - 1))); do
		[ $rc = 0 ] || break
		h=$(httperf_time "$per" <"$M_TMP/m.h.$i") || { echo "$h (step $i of the requests)"; rc=1; }
	done
	[ $rc = 0 ] && reclaimed hc-bg memory.reclaim || rc=1
	m_down || rc=1
	[ $rc = 0 ] && prog_rate "$n" "$t0" "$t1" requests_per_s 1
}

# app_compaction WORKLOAD zram|zswap N: the sqlite3 shell running N statements
# in M_STEPS steps, the foreground app, while a cached app (appcompact app,
# in hc-bg: M_APP_MB of anonymous memory and a hundred files of the file
# set mapped) is used again (M_APP_TOUCH_KB swapped back in) and compacted
# (appcompact compact) before each step, as Android's CachedAppOptimizer
# compacts a cached app, with zram, or zswap in front of it, behind.
# What left memory is hc-bg's: paged_out_kb, the growth of its
# memory.swap.current across each compaction (process_madvise() returns
# what it was asked to advise, advised_kb; 6.12's memory.stat has zswpout
# but no pswpout, and MADV_PAGEOUT's reclaim_pages() counts no pgsteal)
app_compaction() {
	local w=$1 how=$2 n=$3 rc=0 i t0 t1 a f s k s0 s1 adv=0 out=0 skip=0 wb=
	local sw=$CG/hc-bg/memory.swap.current
	[ "$how" = zram ] || wb="memory.zswap.writeback 0"
	rm -f "$M_TMP"/m.c
	# shellcheck disable=SC2086 # the cgroup's file and value, or none
	if ! { prog_check && pressure_mount && cg_up && sql_up "$n" "$M_STEPS" && swap_up "$how" &&
		cg_new hc-bg $wb && cg_has hc-bg memory.swap.current "swap accounting: CONFIG_SWAP" &&
		bg_up hc-bg "$B"/appcompact app "$M_APP_MB" /data/www/00??.html &&
		"$B"/appcompact compact "$BG_PID" >"$M_TMP"/m.c 2>&1; }; then
		cat "$M_TMP"/m.c 2>/dev/null
		m_down
		return 1
	fi
	rc_snap before hc-bg
	t0=$(cut -d' ' -f1 /proc/uptime)
	"$B"/phase begin
	for i in $(seq 0 $((M_STEPS - 1))); do
		bg_say "touch $M_APP_TOUCH_KB" || { rc=1; break; }
		read -r s0 <"$sw"
		"$B"/appcompact compact "$BG_PID" >"$M_TMP"/m.c 2>&1 || { echo "compaction failed: $(cat "$M_TMP"/m.c)"; rc=1; break; }
		read -r s1 <"$sw"
		read -r a f s k <"$M_TMP"/m.c
		case $a,$f,$s,$k,$s0,$s1 in
		anon_kb=[0-9]*,file_kb=[0-9]*,skipped=[0-9]*,skipped_kb=[0-9]*,[0-9]*,[0-9]*) ;;
		*) echo "compaction: '$(cat "$M_TMP"/m.c)', $sw: '$s0' '$s1'"; rc=1; break ;;
		esac
		adv=$((adv + ${a#anon_kb=})) skip=$((skip + ${s#skipped=}))
		[ "$s1" -le "$s0" ] || out=$((out + (s1 - s0) / 1024))
		sql_chunk "$i" || { rc=1; break; }
	done
	"$B"/phase end
	t1=$(cut -d' ' -f1 /proc/uptime)
	rc_report "$w" "steps=$M_STEPS advised_kb=$adv paged_out_kb=$out skipped_regions=$skip" hc-bg
	[ $rc = 0 ] && sql_check "$n" || rc=1
	if [ $rc = 0 ] && [ $out = 0 ]; then
		echo "the compactions paged nothing out of hc-bg (its memory.swap.current did not grow; they advised $adv kB)"
		rc=1
	fi
	if [ $rc = 0 ] && [ "$how" = zswap ]; then
		read -r a _ <"$ZRAM/mm_stat"
		[ "$(rc_delta hc-bg zswpout)" -gt 0 ] || { echo "zswap stored nothing of hc-bg (its memory.stat's zswpout did not move)"; rc=1; }
		[ "$a" = 0 ] || { echo "zswap let $a bytes through to zram0 (memory.zswap.writeback is 0)"; rc=1; }
	fi
	m_down || rc=1
	[ $rc = 0 ] && prog_rate "$n" "$t0" "$t1" queries_per_s 1
}

# kswapd_other_cpu WORKLOAD N: the sqlite3 shell on CPU 0 running N
# statements with sqlite's room (a balloon: guest/bench/pressure.sh),
# kswapd0 bound to CPU 1: the reclaim is kswapd's, on the other CPU (the
# direct reclaim left on CPU 0 is in the hotcold-reclaim line)
kswapd_other_cpu() {
	local w=$1 n=$2 rc=0 k mask t0 t1
	prog_check || return 1
	[ "$(nproc)" -ge 2 ] || { echo "$(nproc) vCPU: kswapd has no other CPU"; return 1; }
	k=$(pidof kswapd0) || { echo "no kswapd0 thread"; return 1; }
	mask=$(taskset -p "$k" | sed 's/.*: //')
	if ! taskset -p 2 "$k" >/dev/null || [ "$(taskset -p "$k" | sed 's/.*: //')" != 2 ]; then
		echo "cannot bind kswapd0 (pid $k) to CPU 1"
		return 1
	fi
	if ! { sql_up "$n" 1 && pressure_up "$SQLITE_ROOM"; }; then
		taskset -p "$mask" "$k" >/dev/null
		m_down
		return 1
	fi
	rc_snap before
	t0=$(cut -d' ' -f1 /proc/uptime)
	"$B"/phase begin
	sql_chunk 0 taskset -c 0 || rc=1
	"$B"/phase end
	t1=$(cut -d' ' -f1 /proc/uptime)
	pressure_release || rc=1
	taskset -p "$mask" "$k" >/dev/null || { echo "cannot give kswapd0 its CPUs ($mask) back"; rc=1; }
	rc_report "$w" "kswapd_cpu=1"
	[ $rc = 0 ] && sql_check "$n" || rc=1
	if [ $rc = 0 ] && [ "$(rc_delta vm pgsteal_kswapd)" -le 0 ]; then
		echo "kswapd reclaimed nothing (pgsteal_kswapd did not move): no pressure"
		rc=1
	fi
	m_down || rc=1
	[ $rc = 0 ] && prog_rate "$n" "$t0" "$t1" queries_per_s 1
}

# queue_modern: the modern family, its amount in every mode
queue_modern() {
	run limit_high_sqlite all limit_sqlite "$(named limit_high_sqlite)" high "$(amount limit_high_sqlite)"
	run limit_max_sqlite all limit_sqlite "$(named limit_max_sqlite)" max "$(amount limit_max_sqlite)"
	run limit_high_compile all limit_compile "$(named limit_high_compile)" "$(amount limit_high_compile)"
	run proactive_fileserver all proactive_fileserver "$(named proactive_fileserver)" "$(amount proactive_fileserver)"
	run appcompact_zram all app_compaction "$(named appcompact_zram)" zram "$(amount appcompact_zram)"
	run appcompact_zswap all app_compaction "$(named appcompact_zswap)" zswap "$(amount appcompact_zswap)"
	run kswapd_other_cpu 0 kswapd_other_cpu "$(named kswapd_other_cpu)" "$(amount kswapd_other_cpu)"
}
