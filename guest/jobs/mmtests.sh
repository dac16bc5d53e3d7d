# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash # busybox ash
# The kernel's own mm tests, the same on every flavour (make test compares
# vanilla's results with hotcold's and debug's, scripts/peer.py):
#   * tools/testing/selftests/mm binaries, built static on the host
#     (scripts/mmtests.sh, the extra archive initramfs-mmtests.cpio.gz),
#     called the way run_vmtests.sh calls them;
#   * the in-tree page test modules lib/test_meminit.ko and
#     lib/test_free_pages.ko (modules.sh packs them with the flavour).
# Each binary's own KTAP results become one TAP test each, named
# "BINARY: description"; the binary's exit status is one more test,
# "BINARY" (exit 4, kselftest's skip, is a skip).
#
# hotcold.args: "all" (default) or "modules" (only test_meminit: the boot
# with init_on_alloc=1 init_on_free=1); an optional second word is the
# per-binary timeout in seconds (default 600).
# "repeat N BINARY [ARGS...]" runs one selftest binary N times (hunting a
# flaky case: make test never uses it; see docs/decisions.md).
set -u
# shellcheck source=../lib.sh
. /guest/lib.sh
# shellcheck disable=SC2086 # the job's arguments, one per word
set -- ${HOTCOLD_ARGS:-}
WHAT=${1:-all}
LIMIT=600
REPEAT=0
case $WHAT in
all | modules) LIMIT=${2:-600} ;;
repeat)
	REPEAT=${2:-}
	if [ $# -lt 3 ] || ! [ "$REPEAT" -gt 0 ] 2>/dev/null; then
		echo "hotcold: usage: mmtests repeat N BINARY [ARGS...]"
		exit 1
	fi
	shift 2
	;;
*)
	echo "hotcold: unknown mode '$WHAT': all, modules or repeat N BINARY [ARGS...]"
	exit 1
	;;
esac
D=/guest/mmtests
M=/guest/modules

# tap_result OK|FAIL|SKIP NAME [REASON]
tap_result() {
	TAP_N=$((TAP_N + 1))
	case $1 in
	OK) echo "ok $TAP_N - $2" ;;
	SKIP) echo "ok $TAP_N - $2 # SKIP ${3:-}" ;;
	*)
		echo "not ok $TAP_N - $2${3:+ # $3}"
		TAP_FAILED=$((TAP_FAILED + 1))
		;;
	esac
}

# selftest NAME [ARGS...]: run one selftest binary, report its cases and
# its exit status.  One of the binaries in RETRY that fails runs again, up
# to three times, its results named "retry NAME: ..." (then "retry2",
# "retry3"; scripts/peer.py counts a case
# that passes on the retry as passed, and names it flaky): uffd-unit-tests'
# events cases fail in 2 of 60 runs on vanilla itself, and mremap_test
# fails 5 cases on every flavour, so it always runs twice and its 40 MB
# preamble case, which collides with other mappings now and then, gets a
# second chance (docs/decisions.md).  Every other binary runs once.
RETRY="uffd-unit-tests mremap_test"
# (on the debug kernel the events race hit twice in a row in one
# clean-clone run: up to three retries, named "retry", "retry2", "retry3")
selftest() {
	local n
	attempt "" "$@" && return
	case " $RETRY " in
	*" $1 "*) ;;
	*) return ;;
	esac
	attempt "retry " "$@" && return
	for n in 2 3; do
		attempt "retry$n " "$@" && return
	done
}

# attempt PREFIX NAME [ARGS...]: one run; fails when the binary failed
attempt() {
	local pfx=$1 name=$2 out rc t0

	shift 2
	out=/tmp/mmtest.out
	if [ ! -x "$D/$name" ]; then
		tap_result FAIL "$pfx$name" "not in the guest image"
		return 0
	fi
	echo "# ----- $pfx$name $*"
	t0=$(date +%s)
	(cd /tmp && timeout -s KILL "$LIMIT" "$D/$name" "$@") >"$out" 2>&1
	rc=$?
	echo "# ----- $pfx$name: exit $rc after $(($(date +%s) - t0)) s"
	sed 's/^/# | /' "$out"
	# its own results: "ok N desc", "not ok N desc # SKIP why" (the
	# description up to any directive; "- " after the number is optional)
	# uffd-unit-tests prints "Testing NAME... done|skipped [reason: ..]|failed [..]"
	sed -n 's/^Testing \(.*\)\.\.\. done$/ok 0 \1/p;
		s/^Testing \(.*\)\.\.\. skipped \[reason: \(.*\)\]$/ok 0 \1 # SKIP \2/p;
		s/^Testing \(.*\)\.\.\. failed.*/not ok 0 \1/p' "$out" >"$out.uffd"
	cat "$out.uffd" >>"$out"
	# A case is named after its own description, prefixed with the
	# "# [RUN] ..." line before it where the binary prints one (cow
	# repeats "No leak from parent into child" for every page kind).  A
	# case without a description is "case N" after its number, or, under
	# a [RUN] line, "result K" after its place there: cow's numbers shift
	# with the huge page sizes a kernel offers (a test kernel with memory
	# hotplug has CONTIG_ALLOC and so 1 GB hugetlb pages too).
	awk -v name="$pfx$name" '
	/^# \[RUN\] / { run = substr($0, 9); k = 0; next }
	/^(ok|not ok) [0-9]+ / {
		k++
		line = $0
		verdict = (line ~ /^ok/) ? "OK" : "FAIL"
		sub(/^(not ok|ok) /, "", line)
		num = line; sub(/ .*/, "", num)
		sub(/^[0-9]+ (- )?/, "", line)
		if (line ~ /# (SKIP|skip)/)
			verdict = "SKIP"
		desc = line
		sub(/[ \t]*#.*/, "", desc)
		sub(/[ \t]+$/, "", desc)
		if (desc == "")
			desc = (run != "") ? "result " k : "case " num
		if (run != "")
			desc = run ": " desc
		print verdict " " name ": " desc
	}' "$out" >/tmp/mmtest.cases
	while read -r verdict rest; do
		tap_result "$verdict" "$rest"
	done </tmp/mmtest.cases
	rm -f "$out" "$out.uffd" /tmp/mmtest.cases
	case $rc in
	0) tap_result OK "$pfx$name" ;;
	4) tap_result SKIP "$pfx$name" "exit 4" ;;
	137 | 143) tap_result FAIL "$pfx$name" "killed after $LIMIT s"; return 1 ;;
	*) tap_result FAIL "$pfx$name" "exit $rc"; return 1 ;;
	esac
	return 0
}

# hugepages N: reserve N huge pages (the hugetlb tests' requirement)
hugepages() {
	echo "$1" >/proc/sys/vm/nr_hugepages
	echo "# nr_hugepages: asked $1, got $(cat /proc/sys/vm/nr_hugepages)"
}

# module NAME: load an in-tree test module; its verdict is in dmesg
module() {
	local name=$1 ko=$M/$1.ko rc sw ht

	if [ ! -f "$ko" ]; then
		tap_result FAIL "$name" "not in the guest image"
		return
	fi
	dmesg -c >/dev/null
	# test_free_pages frees and allocates a million order-3 blocks in a
	# loop without cond_resched(): on the debug kernel under TCG one loop
	# holds the CPU for about 150 s, which the soft-lockup detector (120 s
	# at watchdog_thresh=60) reports, and a task waiting on that CPU (jbd2
	# committing the swap file's blocks, in one clean-clone run) trips the
	# hung-task detector (60 s).  Both off for that module's load only,
	# after writing back what is dirty.
	sw='' ht=''
	if [ "$name" = test_free_pages ]; then
		sync
		if [ -w /proc/sys/kernel/soft_watchdog ]; then
			sw=$(cat /proc/sys/kernel/soft_watchdog)
			echo 0 >/proc/sys/kernel/soft_watchdog
		fi
		if [ -w /proc/sys/kernel/hung_task_timeout_secs ]; then
			ht=$(cat /proc/sys/kernel/hung_task_timeout_secs)
			echo 0 >/proc/sys/kernel/hung_task_timeout_secs
		fi
	fi
	insmod "$ko"
	rc=$?
	[ -z "$sw" ] || echo "$sw" >/proc/sys/kernel/soft_watchdog
	[ -z "$ht" ] || echo "$ht" >/proc/sys/kernel/hung_task_timeout_secs
	[ "$rc" = 0 ] && rmmod "$name"
	# busybox's insmod retries a failed finit_module() with init_module():
	# a module whose init fails runs twice; read the first run only (up to
	# test_meminit's summary line)
	dmesg | grep "$name: " | sed 's/^\[[^]]*\] //' |
		awk '{ print } /test_meminit: (all [0-9]+ tests passed|failures: )/ { exit }' >/tmp/module.log
	sed 's/^/# | /' /tmp/module.log
	case $name in
	test_meminit)
		# "all N tests in FN passed" or "FN failed N out of M times",
		# per group; the module fails to load if any group failed
		sed -n 's/.*test_meminit: all [0-9]* tests in \([a-z_]*\) passed.*/OK \1/p;
			s/.*test_meminit: \([a-z_]*\) failed \([0-9]*\) out of \([0-9]*\) times.*/FAIL \1 \2 of \3 failed/p' /tmp/module.log >/tmp/meminit
		[ -s /tmp/meminit ] || echo "FAIL <no result in dmesg>" >/tmp/meminit
		while read -r verdict group why; do
			tap_result "$verdict" "test_meminit: $group" "$why"
		done </tmp/meminit
		rm -f /tmp/meminit
		;;
	test_free_pages)
		if grep -q 'test_free_pages: Test completed' /tmp/module.log; then
			:
		else
			rc=1
		fi
		;;
	esac
	if [ "$rc" = 0 ]; then
		tap_result OK "$name"
	else
		tap_result FAIL "$name" "insmod exit $rc"
	fi
	rm -f /tmp/module.log
}

tap_begin
echo "# cmdline: $(cat /proc/cmdline)"
if [ "$WHAT" = repeat ]; then
	hugepages 128
	i=0
	while [ $i -lt "$REPEAT" ]; do
		i=$((i + 1))
		echo "# ===== round $i of $REPEAT"
		attempt "" "$@" || :
	done
	tap_end
	exit 0
fi
# Swap, for the tests that page out (cow's MADV_PAGEOUT cases, through
# reclaim's cold frees): a 64 MB swap file on the scratch disk
if [ "$WHAT" = all ] && grep -q ' /mnt ' /proc/mounts; then
	dd if=/dev/zero of=/mnt/swap bs=1M count=64 2>/dev/null &&
		chmod 600 /mnt/swap && mkswap /mnt/swap >/dev/null && swapon /mnt/swap ||
		echo "# no swap: the tests that need it skip"
fi
echo "# SwapTotal: $(awk '$1 == "SwapTotal:" { print $2 }' /proc/meminfo) kB"
echo "# MemTotal: $(awk '$1 == "MemTotal:" { print $2 }' /proc/meminfo) kB"
# (test_free_pages is about a speculative reference, not initialisation:
# once per flavour; on the debug kernel it takes four minutes)
[ "$WHAT" = all ] && module test_free_pages
module test_meminit
if [ "$WHAT" = all ]; then
	# huge pages reserved as run_vmtests.sh does, for the hugetlb cases of
	# cow and uffd-unit-tests; hugepage-mmap maps 256 MB of them
	hugepages 128
	selftest mremap_test
	selftest madv_populate
	selftest mlock2-tests
	selftest mrelease_test
	selftest mkdirty
	selftest transhuge-stress -d 20
	selftest cow
	selftest uffd-unit-tests
	selftest hugepage-mmap
	# compaction_test wants none reserved when it starts
	hugepages 0
	selftest compaction_test
fi
# Some tests fail on vanilla too (test_meminit without init_on_alloc sees
# the garbage it freed: the page comes back hot).  The verdict is the host's
# comparison with vanilla, so the job itself succeeds once it got here.
tap_end || echo "# $TAP_FAILED failed: make test holds them against vanilla's results (scripts/peer.py)"
