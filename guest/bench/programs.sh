# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash # busybox ash
# The real programs (bench/workloads.tsv kind program: configure, compile,
# web), sourced by guest/jobs/bench.sh: their helpers, which the programs
# under memory pressure (guest/bench/pressure.sh) share, and
# queue_programs.

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
	"$B"/phase begin
	for i in $(seq 1 "$n"); do
		d=/tmp/prog.$i
		if ! "$step" "$d"; then
			"$B"/phase end
			echo "$step: run $i of $n failed"
			return 1
		fi
		if [ -z "$keep" ] || [ "$i" != "$n" ]; then
			rm -rf "$d"
		fi
	done
	"$B"/phase end
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
	"$B"/phase begin
	if ! t1=$(web_ab "$n" http://127.0.0.1:8080/small.html 1024) ||
		! t2=$(web_ab "$big" http://127.0.0.1:8080/big.html 65536); then
		rc=1
	fi
	"$B"/phase end
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


# queue_programs: the real programs, their amount in every mode
queue_programs() {
	# real programs: their amount in every mode
	# (configure first: compile builds in a copy of its last configured tree)
	run configure all configure "$(amount configure)"
	run compile all compile "$(amount compile)"
	run web all web "$(amount web)"
}
