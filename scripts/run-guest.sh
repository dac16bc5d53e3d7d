#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Boot a kernel flavour in QEMU (TCG) with the guest image and run one job.
#
# usage: scripts/run-guest.sh [options] FLAVOUR JOB [JOB ARGS...]
#   --mem MB          guest memory (default 512)
#   --smp N           vCPUs (default 2)
#   --dimm MB         a removable memory block too: a pc-dimm of MB (a
#                     multiple of 128, the guest's memory block size)
#                     beside --mem, which the test kernels online into
#                     ZONE_MOVABLE (configs/memory-hotplug.config)
#   --timeout S       hard timeout in seconds (default 300)
#   --append "..."    extra kernel command line
#   --tag NAME        log name suffix (build/logs/<flavour>-<job>[-NAME].log)
#   --icount          -icount shift=0,sleep=off,align=off (guest ns = insns),
#                     with more than one vCPU in build/qemu's QEMU, whose
#                     vCPUs take turns (scripts/qemu.sh),
#                     and as little run-to-run variation as the guest allows:
#                     no RDRAND/RDSEED (the kernel's RNG seeds from them), no
#                     address-space randomisation (norandmaps nokaslr), a
#                     fixed RTC start and -seed 1 (-rtc, -seed)
#   --seed N          QEMU's -seed N (N a decimal, no leading zero: QEMU
#                     reads 010 as octal) instead of --icount's 1, and the
#                     guest keeps RDRAND, whose values -seed makes a
#                     function of N: the guest kernel's RNG (and, booted
#                     with page_alloc.shuffle=1, the order of its free
#                     lists) then differs with N and repeats with it
#   --cpu MODEL       QEMU CPU model (default max); its CPUID decides the
#                     cache sizes the guest kernel sees
#   --plugin SO,ARGS  load a TCG plugin (repeatable: each is loaded; what
#                     they print with qemu_plugin_outs() goes to
#                     build/logs/<flavour>-<job>[-NAME].plugin)
#   --allow REGEX     console lines matching REGEX are expected, not failures
#   --extra-initrd F  append another cpio archive to the guest image
#   --expect-panic    succeed only if the kernel panics (runner self-test);
#                     a timeout or any other failure fails the run
#   --interactive     serial console on this terminal, no timeout
#   --no-disk         no scratch disk
#   --quiet           print nothing on success
#   --dry-run         print the QEMU command line, an argument a line, and
#                     exit without booting (scripts/tests: the kernel and
#                     images must exist; nothing is written)
#
# The console log is kept in build/logs/.  The run fails, printing one line
# naming the problem and the log's last 40 lines, if the guest times out,
# panics, never finishes its job, the job exits non-zero, or the console
# shows a kernel splat (BUG, WARNING, Oops, KASAN, lockdep, list or page
# corruption, lockups, hung tasks, page allocation failures).
. "$(dirname "$0")/lib.sh"
step boot

mem=512 dimm='' smp=2 timeout=300 append='' tag='' icount='' plugin='' allow='' expect_panic=''
interactive='' disk=1 quiet='' extra_initrd='' cpu=max plugins=() seed='' dry_run=''
while [ $# -gt 0 ]; do
	case $1 in
	--mem | --dimm | --smp | --timeout | --append | --tag | --plugin | --allow | --extra-initrd | --cpu | --seed)
		[ $# -ge 2 ] || fail "option $1 needs a value -- see the usage at the top of scripts/run-guest.sh" ;;
	esac
	case $1 in
	--mem)
		case $2 in
		'' | *[!0-9]* | 0*) fail "--mem $2: expected a number of MB" ;;
		esac
		mem=$2; shift ;;
	--dimm)
		case $2 in
		'' | *[!0-9]* | 0*) fail "--dimm $2: expected a number of MB, a multiple of 128" ;;
		esac
		[ $(($2 % 128)) = 0 ] || fail "--dimm $2: expected a multiple of 128 (the guest's memory block size)"
		dimm=$2; shift ;;
	--smp) smp=$2; shift ;;
	--timeout) timeout=$2; shift ;;
	--append) append="$append $2"; shift ;;
	--tag) tag=-$2; shift ;;
	--icount) icount=1 ;;
	--plugin) plugins+=("$2"); plugin=1; shift ;;
	--cpu) cpu=$2; shift ;;
	--seed)
		# (at most 18 digits: QEMU takes a 64-bit number)
		case $2 in
		'' | *[!0-9]* | 0?*) fail "--seed $2: expected a decimal number without a leading zero" ;;
		esac
		[ ${#2} -le 18 ] || fail "--seed $2: expected at most 18 digits"
		seed=$2; shift ;;
	--allow) allow="${allow:+$allow|}$2"; shift ;;
	--extra-initrd) extra_initrd="$extra_initrd $2"; shift ;;
	--expect-panic) expect_panic=1 ;;
	--interactive) interactive=1 ;;
	--no-disk) disk= ;;
	--quiet) quiet=1 ;;
	--dry-run) dry_run=1 ;;
	-*) fail "unknown option '$1' -- see the usage at the top of scripts/run-guest.sh" ;;
	*) break ;;
	esac
	shift
done
flavour=${1:-} job=${2:-}
# shellcheck disable=SC2015 # fails if either is empty
[ -n "$flavour" ] && [ -n "$job" ] ||
	fail "usage: scripts/run-guest.sh [options] FLAVOUR JOB -- see the top of the script"
shift 2
check_flavour "$flavour"
case $smp in
[1-8]) ;;
*) fail "--smp '$smp': expected a number of vCPUs from 1 to 8 (the kernels' CONFIG_NR_CPUS)" ;;
esac
# shellcheck disable=SC2012 # job names are plain words
[ -f "$ROOT/guest/jobs/$job.sh" ] ||
	fail "unknown job '$job' -- jobs are: $(cd "$ROOT/guest/jobs" && ls | sed 's/\.sh$//' | tr '\n' ' ')"
step "boot $flavour $job${tag}"

# HOTCOLD_KERNEL overrides the image (build-series boots every step)
kernel=${HOTCOLD_KERNEL:-$(kernel_image "$flavour")}
initrd=$BUILD/initramfs.cpio.gz
[ -f "$kernel" ] || fail "no $flavour kernel at ${kernel#"$ROOT"/} -- run scripts/build-kernel.sh $flavour"
[ -f "$initrd" ] || fail "no guest image -- run scripts/initramfs.sh"
# A flavour's own modules ride along as a second cpio archive.
[ -f "$(modules_archive "$flavour")" ] && initrd_cat=$(modules_archive "$flavour")

cmdline="console=ttyS0 panic=-1 hotcold.job=$job"
[ $# -gt 0 ] && cmdline="$cmdline hotcold.args=$(echo "$*" | tr ' ' ',')"
[ "$flavour" = debug ] && cmdline="$cmdline debug_pagealloc=on"
[ "$job" = test ] || cmdline="$cmdline kunit.enable=0"
# /dev/nullb0, the streaming readers' device: 4 GB, larger than any guest
# memory, whose reads complete 50 us after submission on a guest hrtimer
# (under -icount, 50000 instructions later) and leave the pages as they
# were, the way a device's DMA leaves the CPU's caches (the readers tell
# the cachesim plugin, see consume_file() in guest/src/benchutil.h)
cmdline="$cmdline null_blk.gb=4 null_blk.bs=4096 null_blk.irqmode=2 null_blk.completion_nsec=50000"
[ -n "$icount" ] && cmdline="$cmdline norandmaps nokaslr"
cmdline="$cmdline $append"

log=$LOGS/$flavour-$job$tag.log
if [ -n "${initrd_cat:-}$extra_initrd" ]; then
	for x in $extra_initrd; do
		[ -f "$x" ] || fail "no $x -- run scripts/initramfs.sh"
	done
	# shellcheck disable=SC2086 # lists of files
	[ -n "$dry_run" ] || cat "$initrd" ${initrd_cat:-} $extra_initrd >"$BUILD/initrd-$flavour$tag.cpio.gz"
	initrd=$BUILD/initrd-$flavour$tag.cpio.gz
fi
accel=tcg
# the cachesim plugin has no locking: one TCG thread (as -icount has anyway)
[ -n "$plugin" ] && accel=tcg,thread=single
# (under --icount, RDRAND stays on only with --seed, below; RDSEED is off)
if [ -n "$icount" ] && [ -n "$seed" ]; then
	cpu=$cpu,-rdseed
elif [ -n "$icount" ]; then
	cpu=$cpu,-rdrand,-rdseed
fi
memory=$mem
[ -n "$dimm" ] && memory="$mem,slots=1,maxmem=$((mem + dimm))M"
# Under -icount, more than one vCPU boots the QEMU built with turns
# (scripts/qemu.sh): Debian's runs only the first busy vCPU there.
# HOTCOLD_QEMU=debian boots Debian's anyway (scripts/vcpu-shares.sh's
# plant: the check must fail in it).
qemu_bin="qemu-system-x86_64"
if [ -n "$icount" ] && [ "$smp" -gt 1 ] && [ "${HOTCOLD_QEMU:-}" != debian ]; then
	qemu_bin=$QEMU_TURNS
	if [ -z "$dry_run" ]; then
		[ -x "$qemu_bin" ] ||
			fail "no ${QEMU_TURNS#"$ROOT"/}: --icount with more than one vCPU needs QEMU with turns -- run scripts/qemu.sh"
		built=$(cut -d' ' -f1 "$QEMU_TURNS_STAMP" 2>/dev/null)
		have=$(dpkg-query -W -f '${source:Version}' qemu-system-x86 2>/dev/null)
		[ "$built" = "$have" ] ||
			fail "${QEMU_TURNS#"$ROOT"/} was built from QEMU ${built:-(no stamp)}, the installed one is ${have:-(none)} -- run scripts/qemu.sh"
	fi
fi
qemu=("$qemu_bin" -accel "$accel" -cpu "$cpu" -smp "$smp" -m "$memory"
	-kernel "$kernel" -initrd "$initrd" -append "$cmdline"
	-no-reboot -nodefaults -display none)
[ -n "$dimm" ] && qemu+=(-object "memory-backend-ram,id=hcdimm,size=${dimm}M"
	-device "pc-dimm,id=dimm0,memdev=hcdimm")
[ -n "$disk" ] && qemu+=(-drive "file=$BUILD/disk.img,if=virtio,format=raw,snapshot=on")
# Under -icount the guest's clocks count instructions; the RTC's start and
# the random numbers the guest gets from QEMU are the host's inputs left:
# fix them too, and two boots of one kernel without disk I/O run the same
# instructions (virtio-blk completions still land at host-timed points).
# -seed makes QEMU's random numbers for the guest a pseudo-random sequence
# from the seed: RDRAND's values.  (QEMU 7.1 and 7.2.0 also gave the kernel
# a seed in setup_data; the QEMU installed here, Debian's 7.2 from
# 7.2+dfsg-5, has that reverted, as 8.0 has: with RDRAND off, -seed
# reaches nothing in the guest.)
# shellcheck disable=SC2054 # QEMU's option values have commas
[ -n "$icount" ] && qemu+=(-icount "${HOTCOLD_ICOUNT:-shift=0,sleep=off,align=off}"
	-rtc base=2026-01-01T00:00:00,clock=vm -seed "${seed:-1}")
[ -z "$icount" ] && [ -n "$seed" ] && qemu+=(-seed "$seed")
for p in "${plugins[@]}"; do
	qemu+=(-plugin "$p")
done
[ -n "$plugin" ] && qemu+=(-d plugin -D "$LOGS/$flavour-$job$tag.plugin")

if [ -n "$interactive" ]; then
	[ -z "$dry_run" ] || { printf '%s\n' "${qemu[@]}" -serial mon:stdio; exit 0; }
	exec "${qemu[@]}" -serial mon:stdio
fi

# ttyS0: the kernel console; ttyS1: the job's output (guest/init).
jobout=${log%.log}.out
qemu+=(-serial stdio -serial "file:$jobout")
[ -z "$dry_run" ] || { printf '%s\n' "${qemu[@]}"; exit 0; }
rm -f "$jobout"
t0=$(now)
timeout -k 10 "$timeout" "${qemu[@]}" </dev/null >"$log" 2>&1
qrc=$?
secs=$(($(now) - t0))
# the per-run image (guest image + modules + extras) is not kept
case $initrd in "$BUILD"/initrd-*) rm -f "$initrd" ;; esac
[ -f "$jobout" ] && sed -i 's/\r$//' "$jobout"
console=$(mktemp)
cp "$log" "$console"
if [ -s "$jobout" ]; then
	{ echo "----- job output (ttyS1) -----"; cat "$jobout"; } >>"$log"
fi

problem='' panicked=''
# (the console only: the job's output may mention a panic)
grep -q 'Kernel panic' "$console" &&
	panicked=$(grep -m1 'Kernel panic' "$console" | sed 's/^\[[^]]*\] //')
if [ $qrc = 124 ] || [ $qrc = 137 ]; then
	problem="guest timed out after $timeout s"
elif [ -n "$panicked" ]; then
	problem="kernel panic: $panicked"
elif [ $qrc != 0 ]; then
	problem="qemu exited with status $qrc"
elif ! grep -q '=== HOTCOLD-JOB-END' "$jobout" 2>/dev/null; then
	problem="guest stopped before the job finished"
else
	jrc=$(sed -n 's/.*=== HOTCOLD-JOB-END .* rc=\([0-9]*\) ===.*/\1/p' "$jobout" | tail -1)
	[ "$jrc" = 0 ] || problem="job '$job' exited with status $jrc"
fi
# Kernel splats, unless the job expects them.
# (lockdep and KASAN reports start with BUG: or WARNING:; their boot
# banners do not count)
SPLATS='BUG:|WARNING:|Oops|KASAN:|possible circular locking|possible recursive locking|inconsistent lock state|suspicious RCU usage|list_add corruption|list_del corruption|Bad page state|soft lockup|hard LOCKUP|blocked for more than|page allocation failure|Call Trace:|general protection fault|UBSAN:|kernel BUG'
splats=$(grep -E "$SPLATS" "$console" | grep -v -E "${allow:-^\$^}" | grep -v 'hotcold.job' | head -20)
rm -f "$console"
if [ -z "$problem" ] && [ -n "$splats" ]; then
	problem="kernel splat on the console:"
fi

if [ -n "$expect_panic" ]; then
	if [ -n "$panicked" ] && [ "$problem" = "kernel panic: $panicked" ]; then
		[ -n "$quiet" ] || msg "$flavour $job: panicked as expected ($panicked) in $secs s"
		exit 0
	fi
	fail "the kernel was expected to panic and did not: ${problem:-the job ran to its end} (log: ${log#"$ROOT"/})" "$log"
fi
if [ -n "$problem" ]; then
	# shellcheck disable=SC2001 # prefixes every line
	[ -n "$splats" ] && echo "$splats" | sed 's/^/  | /' >&2
	fail "$problem (log: ${log#"$ROOT"/}) -- read the log; 'make shell' boots the hotcold kernel to a shell" "$log"
fi
[ -n "$quiet" ] || msg "$flavour $job$tag: ok in $secs s (log: ${log#"$ROOT"/})"
exit 0
