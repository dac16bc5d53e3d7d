# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash # busybox ash
# The real programs under memory pressure (fileserver, sqlite,
# backup_beside_compile), sourced by guest/jobs/bench.sh after
# guest/bench/programs.sh, whose helpers they use: the data image, the
# balloon, the workloads and queue_pressure.

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
	"$B"/phase begin
	out=$(httperf --hog --server 127.0.0.1 --port 8080 --wlog=n,$PDATA/urls \
		--num-conns="$n" --num-calls=1 --timeout=60 2>&1) || rc=1
	"$B"/phase end
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
	"$B"/phase begin
	sqlite3 -batch -readonly /data/db/bench.db </tmp/queries.sql >/tmp/queries.out 2>/tmp/queries.err || rc=1
	"$B"/phase end
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
	"$B"/phase begin
	(set -o pipefail
	 /prog/bin/tar --totals -cf - -C /data www 2>/tmp/backup.tar | /prog/bin/gzip -1 |
		wc -c >/tmp/backup.out && cut -d' ' -f1 /proc/uptime >>/tmp/backup.out) &
	bk=$!
	compile_one /tmp/prog.backup || rc=1
	tf=$(cut -d' ' -f1 /proc/uptime)
	wait $bk || { rc=1; echo "backup_beside_compile: tar or gzip failed"; }
	"$B"/phase end
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


# queue_pressure: the programs under memory pressure, their amount in every mode
queue_pressure() {
	run fileserver all fileserver "$(amount fileserver)"
	run sqlite all sqlite_queries "$(amount sqlite)"
	run backup_beside_compile all backup_beside_compile "$(amount backup_beside_compile)"
}
