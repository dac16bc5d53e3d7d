#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make bench: the baseline against the series and its alternatives
# (bench/configs.tsv), in three modes.
#
#   wall      timed runs (guest/jobs/bench.sh, wall mode): rounds
#             interleaved (A B C, A B C, ...), a fresh boot per
#             configuration per round, medians and spread.  Real time,
#             with TCG's noise.
#   icount    fixed work under -icount shift=0 (one guest instruction per
#             guest ns) with the cachesim plugin counting instructions only:
#             instructions per operation, exact and repeatable.  Beside
#             cachesim, only the base's first round boots for it, and must
#             agree with cachesim's; the rest comes from the cachesim boots
#             (icount_derived below).
#   cachesim  the same fixed work with the plugin simulating the data
#             caches (bench/cachesim): misses per operation at each level
#             inside the measured phase, priced in cycles with the
#             modelled part's published latencies (bench/prices.tsv); the
#             host's (bench/calibrate) are printed as a cross-check.
#
# Configurations: bench/configs.tsv, one line each (its kernel, its extra
# command line, the allocator state its boots must show, the lists it is
# in), which this script reads through bench/report.py configs bench:
# the baseline every ratio is to, the series, the series booted with its
# switch at 0, bench-only alternatives (bench/alternatives/), and the A/A
# configurations.  CONFIGS selects them by name (default: the table's
# default set; QUICK: its quick set).  Deterministic runs
# are DET_ROUNDS rounds per configuration, JOBS boots at a time from one
# queue (host timing does not enter them: det_mode); round r of every
# configuration boots with QEMU's -seed S_r (lib.sh's BENCH_SEEDS) and
# page_alloc.shuffle=1, so that each round samples another boot state
# (which pages sit in which free list: small counts follow it), boots
# each kernel relinked at a layout of its own (round_layouts), and
# starts with warm-up r (guest/jobs/bench.sh).
# A/A checks: the base's first round booted again (the table's repeat,
# with round 1's seed and warm-up: it must count the same exactly), the
# instrument's repeatability; the base's rounds against each other, the
# spread the boot state adds; and the layout A/A against the base (the
# table's layout), judged as a family: no metric's simultaneous interval
# beyond 1 by more than 0.5 %, no more 95 % intervals apart from 1 than
# chance gives (the report's targets; where a metric's own 95 % interval
# is apart, its ratio is the margin a difference there has to clear).  Wall mode boots the base twice in every round (the
# repeat: its A/A; not for the real programs) unless QUICK.
# Workloads, their boots, amounts and which runs ask for them (QUICK's,
# the default run's, or only a run that names them): bench/workloads.tsv.
# The sweeps (exit_flood and reclaim_flood at several rates and sizes:
# the report's curves) run when WORKLOADS names them, in the
# deterministic modes only, in a boot of their own that only the table's
# sweeps set boots.
#
# Results in a directory of the run's own, build/bench/STAMP/ (STAMP: the
# start, UTC, and RUN_NAME: 20261206-0130-quick), build/bench/latest pointing
# at the newest: results.csv and vmstat.csv (wall), det.csv (icount,
# cachesim), the plan, calibrate.txt, report.md and its charts.  A run
# holds only what its own boots measured: a run of MODES=wall has no
# det.csv rows, the run before it keeps its own (bench/report.py compare
# RUN_A RUN_B sets two runs side by side).
#
# Environment: MODES (default "icount cachesim": wall mode, TCG time,
# resolves nothing and runs only when asked, docs/decisions.md), ROUNDS (wall, default
# 3), SECS per wall workload (default 1), SCALE of the fixed work (default
# 2), DET_ROUNDS of the deterministic modes (default 3), ICOUNT_ROUNDS
# (icount's, default 8: the rounds beyond DET_ROUNDS boot the one-vCPU
# mem boot alone, without the cache model), PROG_ROUNDS (how
# many of each mode's rounds boot the real programs, default 2),
# SWEEP_ROUNDS (how many deterministic rounds boot the sweeps, default 2),
# QUICK=1 (the scenarios, four of the 2002 workloads, web and sqlite;
# wall: 2 rounds of 1 s; deterministic: 2 rounds at scale 1 (icount's
# too), no repeat
# boot; the programs in the first round of each mode only), WORKLOADS
# (the workloads every mode runs: names, or -NAME to leave one out of the
# run's set), GEOMETRY (the machine the deterministic modes describe:
# zen3, the default, boots the guest as QEMU's EPYC-Milan, whose CPUID
# reports a Zen 3 core's caches, and simulates them: a private 32 KB 8-way
# L1D and 512 KB L2 per vCPU and a 32 MB L3 shared by all; v1 boots
# -cpu max and simulates v1's private 48 KB L1D and shared 2 MB L2),
# L2WAYS and L3WAYS (the ways of the L2 and the L3; default 0, fully
# associative: capacity misses only), SHUFFLE (default 1: the seeded,
# shuffled deterministic rounds, each kernel relinked at a layout of its
# own per round; 0: every round -seed 1 without RDRAND, no shuffle and
# the kernels as built, as before issue 31), RUN_NAME (the run directory's name
# after its date and time; default quick with QUICK=1, else bench), JOBS
# (the deterministic boots at once; default: the host's cores or what
# its memory holds, lib.sh's bench_workers) and scripts/disk.sh's BIG_MB.
# Every setting is checked before anything is built, booted or written
# (below, up to lock_build: the values each takes); a bad one fails the
# run at once and changes nothing.
. "$(dirname "$0")/lib.sh"
step settings
# the settings below ask bench/report.py (the configuration table), which
# needs python3 before scripts/deps.sh bench can install anything
command -v python3 >/dev/null || fail "python3 missing -- apt-get install python3 (make bench installs the rest)"
# the command as asked (the plan's stamp), before the settings below
# rewrite any of them (CONFIGS becomes NAME:KERNEL:APPEND words, QUICK
# sets ROUNDS and the others): the variables of the environment only
ASKED=
for v in QUICK MODES CONFIGS WORKLOADS ROUNDS SECS SCALE DET_ROUNDS ICOUNT_ROUNDS PROG_ROUNDS SWEEP_ROUNDS GEOMETRY \
	L2WAYS L3WAYS SHUFFLE BIG_MB RUN_NAME JOBS; do
	[ -n "$(printenv "$v")" ] && ASKED="$ASKED $v=\"$(printenv "$v")\""
done

# the settings' defaults and the values they take (lib.sh's setting_*;
# the upper bounds catch a mistyped value, not a limit of the harness)
MODES=${MODES:-icount cachesim}
setting_words MODES wall icount cachesim
QUICK=${QUICK:-0}
setting_bool QUICK
ROUNDS=${ROUNDS:-3}
setting_int ROUNDS 1 20
SECS=${SECS:-1}
setting_int SECS 1 30
SCALE=${SCALE:-2}
setting_int SCALE 1 10
# (2 or more for the base's rounds to give an A/A check)
DET_ROUNDS=${DET_ROUNDS:-3}
setting_int DET_ROUNDS 1 20
# the instructions' rounds (icount): DET_ROUNDS, then up to ICOUNT_ROUNDS
# (default 8, or DET_ROUNDS if more; QUICK: its DET_ROUNDS) the one-vCPU
# boot (ICOUNT_MORE_BOOTS) again without the cache model, a fifth of a
# cachesim boot's time: three rounds could not resolve the power check's
# 1 % (docs/decisions.md, "Eight rounds of instructions"); checked below,
# once QUICK and the workloads are known
ICOUNT_MORE_BOOTS=mem
ICOUNT_ASKED=${ICOUNT_ROUNDS:-}
[ -z "$ICOUNT_ASKED" ] || setting_int ICOUNT_ROUNDS 1 20
PROG_ROUNDS=${PROG_ROUNDS:-2}
setting_int PROG_ROUNDS 1 20
SWEEP_ROUNDS=${SWEEP_ROUNDS:-2}
setting_int SWEEP_ROUNDS 1 20
GEOMETRY=${GEOMETRY:-zen3}
setting_choice GEOMETRY zen3 v1
# the plugin takes a set-associative cache whose size over ways x 64-byte
# lines is a power of two (bench/cachesim/cache.h, cache_init()); every L2
# and L3 size here is a power of two, so the ways are one too
# (0: fully associative)
L2WAYS=${L2WAYS:-0}
setting_choice L2WAYS 0 1 2 4 8 16 32 64
L3WAYS=${L3WAYS:-0}
setting_choice L3WAYS 0 1 2 4 8 16 32 64
# the deterministic rounds' boot state: 1, round r boots with lib.sh's
# seed r (RDRAND on) and page_alloc.shuffle=1 (det_boot), and boots each
# kernel relinked at round r's layout (round_layouts); 0, the rounds
# differ by their warm-up only (for comparison)
SHUFFLE=${SHUFFLE:-1}
setting_bool SHUFFLE
# the run's directory, build/bench/DATE-TIME-NAME (bench_run_dir)
if [ "$QUICK" = 1 ]; then
	RUN_NAME=${RUN_NAME:-quick}
else
	RUN_NAME=${RUN_NAME:-bench}
fi
setting_name RUN_NAME 40
# the deterministic boots at once: a core and BENCH_GUEST_MB +
# BENCH_QEMU_MB of memory each (lib.sh); more than the cores only share
# them (the counts stay the same, the run takes longer)
JOBS=${JOBS:-$(bench_workers)}
setting_int JOBS 1 64
[ "$JOBS" -le "$(nproc)" ] ||
	msg "JOBS=$JOBS: more boots at once than this host's $(nproc) cores -- they share them: the same counts, later"
# the scratch disk's (BIG_MB)
"$ROOT/scripts/disk.sh" settings || exit 1
# run-guest.sh's overrides, for build-series (the image every boot
# boots) and experiments (-icount's options: then an instruction is no
# longer a guest ns): every configuration would boot one kernel, or count
# otherwise than the results say
for v in HOTCOLD_KERNEL HOTCOLD_ICOUNT; do
	[ -z "${!v:-}" ] || fail "$v=${!v}: run-guest.sh's override, not for make bench -- unset it"
done
# named NAME LIST: NAME is a word of LIST
named() {
	case " $2 " in *" $1 "*) return 0 ;; esac
	return 1
}
# The configuration table (bench/configs.tsv) through bench/report.py
# configs bench, which checks CONFIGS (each name once, a configuration of
# the table, the base among them) and prints KEY=VALUE lines:
# configs_from sets CONFIGS (the run's configurations, NAME:KERNEL:APPEND
# each, in CONFIGS' order), want_configs (their names), BASE_CONFIG and
# REPEAT (the base and its repeat boot, NAME:KERNEL:APPEND), AA_CONFIGS
# (the A/A configurations), FIXED_CONFIGS (those of the deterministic
# modes only), PROG_CONFIGS, SWEEP_CONFIGS and SHAPE_CONFIGS (those that
# boot the real programs, in the first PROG_ROUNDS rounds, the sweeps and
# the named machine shapes)
configs_from() {
	local line
	while IFS= read -r line; do
		case $line in
		configs=*) CONFIGS=${line#*=} ;;
		names=*) want_configs=${line#*=} ;;
		base=*) BASE_CONFIG=${line#*=} ;;
		repeat=*) REPEAT=${line#*=} ;;
		aa=*) AA_CONFIGS=${line#*=} ;;
		fixed=*) FIXED_CONFIGS=${line#*=} ;;
		programs=*) PROG_CONFIGS=${line#*=} ;;
		sweeps=*) SWEEP_CONFIGS=${line#*=} ;;
		shapes=*) SHAPE_CONFIGS=${line#*=} ;;
		esac
	done <<<"$1"
}
# (a refused CONFIGS prints its reason and exits 1; a table that does not
# parse exits 2, naming its line on stderr)
cfg=$(python3 "$ROOT/bench/report.py" configs bench "$QUICK" "${CONFIGS:-}") ||
	fail "${cfg:-bench/configs.tsv: the configuration table does not parse (above) -- nothing was run}"
configs_from "$cfg"
# the kernel functions whose calls the plugin counts (below: call_addrs)
CALL_SYMS=$(python3 "$ROOT/bench/report.py" calls) ||
	fail "bench/report.py calls failed (above) -- nothing was run"
# The workload table (bench/workloads.tsv): table COLUMN=VALUE... prints
# the names of the workloads whose columns have those values
# (called in $(...): its callers check its status, since fail only ends
# the subshell)
table() {
	python3 "$ROOT/bench/report.py" workloads "$@"
}
# checked here, before any result is touched
ALL_WORKLOADS=$(table) ||
	fail "bench/workloads.tsv: the workload table does not parse (above) -- nothing was run"
for w in ${WORKLOADS:-}; do
	# (-NAME: the run's set but NAME: worklists.sh's run_lists)
	case " $ALL_WORKLOADS " in
	*" ${w#-} "*) ;;
	*) fail "unknown workload '${w#-}' in WORKLOADS -- workloads are (bench/workloads.tsv): $ALL_WORKLOADS" ;;
	esac
done
run_set=default
if [ "$QUICK" = 1 ]; then
	# under 10 minutes: the table's quick workloads (the scenarios, the
	# cheapest of the 2002 workloads, web and sqlite; SDET, 240 million
	# instructions even at scale 1, and compile, 5 G, are left to the
	# full run) in every mode they run in, no repeat boot, the
	# programs in the first round only (the full run has its two rounds;
	# the programs have no repeat or layout A/A)
	ROUNDS=2 SECS=1 SCALE=1 DET_ROUNDS=2 PROG_ROUNDS=1 REPEAT=
	ICOUNT_ASKED=
	run_set=quick
fi
# which workloads the run asks for (run_lists) and each boot runs
# (wall_lists, det_workloads)
# shellcheck source=worklists.sh
. "$ROOT/scripts/worklists.sh"
run_lists "$run_set" || fail "bench/workloads.tsv: see above"
# a workload of wall mode only (the in-kernel microbenchmark) is not asked
# of the deterministic modes
if [ -n "$DET_WORKLOADS" ]; then
	wall_only=" $(table modes=wall) " || fail "bench/workloads.tsv: see above"
	d=
	for w in $DET_WORKLOADS; do
		case $wall_only in *" $w "*) ;; *) d="$d $w" ;; esac
	done
	DET_WORKLOADS=${d# }
	[ -n "$DET_WORKLOADS" ] || case " $MODES " in *" icount "* | *" cachesim "*)
		fail "WORKLOADS=$WORKLOADS: only wall-mode workloads, and MODES asks for a deterministic mode -- add MODES=wall or a workload of bench/workloads.tsv with modes det" ;;
	esac
fi
# icount's rounds: as asked, at least DET_ROUNDS, more only where icount
# runs and the boot that takes them has work; unset, 8 (QUICK: DET_ROUNDS)
if [ -n "$ICOUNT_ASKED" ]; then
	[ "$ICOUNT_ROUNDS" -ge "$DET_ROUNDS" ] ||
		fail "ICOUNT_ROUNDS=$ICOUNT_ROUNDS: below DET_ROUNDS=$DET_ROUNDS, and the instructions have every round the misses have -- raise it, or leave it unset (8)"
	[ "$ICOUNT_ROUNDS" = "$DET_ROUNDS" ] || case " $MODES " in *" icount "*) ;; *)
		fail "ICOUNT_ROUNDS=$ICOUNT_ROUNDS: MODES ($MODES) has no icount, whose rounds it sets -- add icount to MODES, or leave ICOUNT_ROUNDS unset" ;;
	esac
elif [ "$QUICK" = 1 ]; then
	ICOUNT_ROUNDS=$DET_ROUNDS
else
	ICOUNT_ROUNDS=8
	[ "$ICOUNT_ROUNDS" -ge "$DET_ROUNDS" ] || ICOUNT_ROUNDS=$DET_ROUNDS
	case " $MODES " in *" icount "*) ;; *) ICOUNT_ROUNDS=$DET_ROUNDS ;; esac
fi
if [ "$ICOUNT_ROUNDS" != "$DET_ROUNDS" ]; then
	more=
	for p in $ICOUNT_MORE_BOOTS; do
		w=$(det_workloads "$p") || fail "bench/workloads.tsv: see above"
		[ "$w" = none ] || more=1
	done
	if [ -z "$more" ]; then
		[ -z "$ICOUNT_ASKED" ] ||
			msg "ICOUNT_ROUNDS=$ICOUNT_ROUNDS: no workload of the run is in the boot that takes icount's rounds beyond DET_ROUNDS ($ICOUNT_MORE_BOOTS) -- $DET_ROUNDS rounds"
		ICOUNT_ROUNDS=$DET_ROUNDS
	fi
fi
# The simulated machine and the CPU model whose CPUID describes it to the
# guest kernel (the exit threshold, patch 9, is its LLC slice), for the
# GEOMETRY checked above.  L2 and
# L3 are fully associative by default: set-associative, their conflict
# misses follow where each boot places pages in physical memory (vanilla
# against itself differed by up to 60 % with a 16-way L2, v1).
case $GEOMETRY in
zen3)
	GUEST_CPU=EPYC-Milan
	SIM_ARGS="l1size=32768,l1ways=8,l2size=524288,l2ways=$L2WAYS,l3size=33554432,l3ways=$L3WAYS" ;;
v1)
	GUEST_CPU=max
	SIM_ARGS="l1size=49152,l1ways=12,l2size=2097152,l2ways=$L2WAYS" ;;
esac
# the kernels the run's configurations boot (those of the deterministic
# modes only, the layout A/A, not in wall mode alone); every one is
# built from configs/base.config alone (no test code)
case " $MODES " in
*" icount "* | *" cachesim "*) boot_configs=$CONFIGS ;;
*) boot_configs=$(for c in $CONFIGS; do named "${c%%:*}" "$FIXED_CONFIGS" || echo "$c"; done) ;;
esac
BENCH_FLAVOURS=$(for c in $boot_configs; do f=${c#*:}; echo "${f%%:*}"; done | sort -u | tr '\n' ' ')

# the deterministic boots' queue
# shellcheck source=jobqueue.sh
. "$ROOT/scripts/jobqueue.sh"
wall_lists || fail "bench/workloads.tsv: see above"
case " $MODES " in *" wall "*)
	[ -n "$WALL_MAIN$WALL_PROG" ] ||
		fail "WORKLOADS=$WORKLOADS: only workloads of the deterministic modes (the sweeps), and MODES asks for wall -- add MODES=\"icount cachesim\" or a workload wall mode runs" ;;
esac

# every setting checked: from here on the run builds, boots and writes
step setup
lock_build
# the run's directory (its name: when it started, UTC, and RUN_NAME) and
# build/bench/latest, which points at it from here on, a failed run too
RUN_T=$(date +%s)
OUT=$(bench_run_dir "$BUILD/bench" "$RUN_NAME" "$(date -u -d "@$RUN_T" +%Y%m%d-%H%M)") || exit 1
msg "this run's results: ${OUT#"$ROOT"/}/ (${BUILD#"$ROOT"/}/bench/latest)"

step deps
"$ROOT/scripts/deps.sh" bench || exit 1
"$ROOT/scripts/source.sh" || exit 1
"$ROOT/scripts/tree.sh" sync || exit 1
for f in $BENCH_FLAVOURS; do
	"$ROOT/scripts/build-kernel.sh" "$f" || exit 1
	check_no_test_code "$f"
	# the deterministic rounds' page_alloc.shuffle=1: a kernel without it
	# ignores the parameter (the guest job fails on that too; this fails
	# before any boot)
	[ "$SHUFFLE" = 0 ] || case " $MODES " in *" icount "* | *" cachesim "*)
		grep -q '^CONFIG_SHUFFLE_PAGE_ALLOCATOR=y' "$(kernel_dir "$f")/.config" ||
			fail "the $f kernel has no CONFIG_SHUFFLE_PAGE_ALLOCATOR=y (${BUILD#"$ROOT"/}/kernel-$f/.config), which SHUFFLE=1's rounds need -- configs/base.config sets it: rebuild, or SHUFFLE=0" ;;
	esac
done
"$ROOT/scripts/initramfs.sh" || exit 1
# The A/A boots (the repeat, the layout A/A) run the workloads of the
# mem, disk and shapes' boots (not those with the programs archive) and
# wall mode's main boot: with none of those
# asked for (only the programs or the sweeps), there is no A/A to boot
aa_work=
case " $MODES " in *" wall "*) aa_work=$WALL_MAIN ;; esac
case " $MODES " in *" icount "* | *" cachesim "*)
	for p in mem disk $SHAPE_BOOTS; do
		# (a boot with the programs archive: not the A/A's)
		! named "$p" "$PROG_BOOTS" || continue
		w=$(det_workloads "$p") || fail "bench/workloads.tsv: see above"
		[ "$w" = none ] || aa_work="$aa_work $w"
	done ;;
esac
aa_asked=$REPEAT
for c in $CONFIGS; do
	! named "${c%%:*}" "$AA_CONFIGS" || aa_asked="$aa_asked $c"
done
if [ -z "$aa_work" ] && [ -n "$aa_asked" ]; then
	msg "WORKLOADS=$WORKLOADS: nothing for the A/A boots (${AA_CONFIGS// /, }) to run: left out"
	REPEAT=
	CONFIGS=$(for c in $CONFIGS; do named "${c%%:*}" "$AA_CONFIGS" || echo "$c"; done | tr '\n' ' ')
	want_configs=$(for c in $want_configs; do named "$c" "$AA_CONFIGS" || echo "$c"; done | tr '\n' ' ')
fi
# det_parts C R: the boots configuration C (name:flavour:append) has in
# round R, a part each: the one-vCPU workloads, any that need the disk,
# each machine shape's (bench/shapes.tsv: the reader on the other CPU,
# the seed's SMP widths: the named shapes in SHAPE_CONFIGS only), the
# real programs and the sweeps.  A boot with the programs archive (prog,
# a shape of programs: PROG_BOOTS) is booted in the first PROG_ROUNDS
# rounds, never by the repeat: prog by PROG_CONFIGS, a named shape of
# programs (ccd8prog) by SHAPE_CONFIGS, as the other named shapes.
det_parts() {
	local c=$1 r=$2 part wl named_shape
	for part in mem disk $SHAPE_BOOTS prog sweep; do
		[ "$part" != sweep ] || named "${c%%:*}" "$SWEEP_CONFIGS" || continue
		named_shape=$(shape_field "$part" 3)
		! named "$part" "$PROG_BOOTS" || {
			[ "$r" -le "$PROG_ROUNDS" ] && [ "${c%%:*}" != "${REPEAT%%:*}" ] &&
				{ [ "$named_shape" = yes ] || named "${c%%:*}" "$PROG_CONFIGS"; }
		} || continue
		# (a named shape: the shapes set's configurations only)
		[ "$named_shape" != yes ] || named "${c%%:*}" "$SHAPE_CONFIGS" || continue
		[ "$part" != sweep ] || [ "$r" -le "$SWEEP_ROUNDS" ] || continue
		wl=$(det_workloads "$part") || return 1
		[ "$wl" = none ] || echo "$part"
	done
}

# idle_configs: the names of the run's configurations (CONFIGS, not the
# base) that det_parts gives no boot in round 1, which has every boot a
# configuration gets in any round
idle_configs() {
	local c parts
	for c in $CONFIGS; do
		[ "${c%%:*}" != "${BASE_CONFIG%%:*}" ] || continue
		parts=$(det_parts "$c" 1) || return 1
		[ -n "$parts" ] || printf '%s ' "${c%%:*}"
	done
}

# A configuration with no deterministic boot in this run (WORKLOADS of
# boots it never gets: hotcold-off, outside the programs and shapes
# sets, with WORKLOADS=compile) is left out, as the A/A's are above: its
# targets then say "not in this run (CONFIGS)", not NOT RUN.  Round 1
# has every boot a configuration gets in any round.
case " $MODES " in *" wall "*) ;; *)
	idle=$(idle_configs) || fail "could not list each configuration's boots (above)"
	idle=${idle% }
	if [ -n "$idle" ]; then
		msg "WORKLOADS=$WORKLOADS: no boot of ${idle// /, } runs any of them: left out"
		CONFIGS=$(for c in $CONFIGS; do named "${c%%:*}" "$idle" || echo "$c"; done | tr '\n' ' ')
		want_configs=$(for c in $want_configs; do named "$c" "$idle" || echo "$c"; done | tr '\n' ' ')
	fi ;;
esac
# the real programs' archive, if a boot of the run needs it
det_prog=
case " $MODES " in
*" icount "* | *" cachesim "*)
	for p in $PROG_BOOTS; do
		det_prog=$(det_workloads "$p") || fail "bench/workloads.tsv: see above"
		[ "$det_prog" = none ] || break
	done ;;
esac
case " $MODES " in *" wall "*) ;; *) WALL_PROG= ;; esac
if [ -n "$WALL_PROG" ] || { [ -n "$det_prog" ] && [ "$det_prog" != none ]; }; then
	"$ROOT/scripts/programs.sh" || exit 1
fi
"$ROOT/scripts/disk.sh" || exit 1
# shellcheck disable=SC2086 # a list of flavours
"$ROOT/scripts/modules.sh" $BENCH_FLAVOURS || exit 1

# round_layouts: the layout per round (SHUFFLE=1; lib.sh's layout_pad):
# each kernel linked again at each round's pads into round_kernel_dir,
# what round R boots (det_kernel), checked to carry them (each pad asked
# for a symbol of its System.map, and none other) and to have moved what
# follows them (lib.sh's layout_moves, against the kernel as built); then
# built again as it was, and checked to be the same image.  The pads go
# to the run's layouts.tsv.
round_layouts() {
	local f r pad d k kind n want moved built
	step layouts
	rm -rf "$BUILD/rounds"
	printf 'kernel\tround\tpads (data,bss,mostly,percpu lines at %s)\n' "$(tr ' ' , <<<"$LAYOUT_POINTS")" >"$OUT/layouts.tsv"
	for f in $BENCH_FLAVOURS; do
		k=$(kernel_dir "$f")
		built=$BUILD/rounds/$f-built
		if ! mkdir -p "$built" || ! cp "$k/System.map" "$k/arch/x86/boot/bzImage" "$built/"; then
			fail "cannot keep the $f kernel as built in ${built#"$ROOT"/}"
		fi
		for r in $(seq 1 "$ICOUNT_ROUNDS"); do
			pad=$(layout_pad "$f" "$r") ||
				fail "round $r has no seed in scripts/lib.sh's BENCH_SEEDS, so no layout -- add one"
			LAYOUT_PAD=$pad "$ROOT/scripts/build-kernel.sh" "$f" || exit 1
			d=$(round_kernel_dir "$f" "$r")
			mkdir -p "$d/mm" "$d/arch/x86/boot" || fail "cannot make $d"
			if ! cp "$k/System.map" "$k/vmlinux" "$d/" || ! cp "$k/mm/page_alloc.o" "$d/mm/" ||
				! cp "$k/arch/x86/boot/bzImage" "$d/arch/x86/boot/"; then
				fail "cannot keep the $f kernel of round $r in ${d#"$ROOT"/}"
			fi
			# every pad asked for above 0 lines is a symbol of the
			# relinked System.map, one per object asking, and no other
			n=1
			for kind in data bss mostly percpu; do
				want=$(tr ' ' '\n' <<<"$pad" | cut -d, -f"$n" | grep -vcx 0)
				[ "$(grep -c " hotcold_pad_$kind\$" "$d/System.map")" = "$want" ] ||
					fail "the $f kernel of round $r has $(grep -c " hotcold_pad_$kind\$" "$d/System.map") hotcold_pad_$kind symbols in ${d#"$ROOT"/}/System.map, not the $want its pads ($pad) ask for -- see ${LOGS#"$ROOT"/}/build-$f.log"
				n=$((n + 1))
			done
			moved=$(layout_moves "$built/System.map" "$d/System.map" "$pad")
			[ -z "$moved" ] ||
				fail "the $f kernel of round $r did not move as its pads ($pad) ask: $(tr '\n' ';' <<<"$moved") -- a page alignment between a pad and lib.sh's LAYOUT_REFS, or a pad not linked"
			printf '%s\t%s\t%s\n' "$f" "$r" "$pad" >>"$OUT/layouts.tsv"
		done
		"$ROOT/scripts/build-kernel.sh" "$f" || exit 1
		cmp -s "$k/arch/x86/boot/bzImage" "$built/bzImage" ||
			fail "the $f kernel built again without pads is not the image it was (${k#"$ROOT"/}/arch/x86/boot/bzImage against ${built#"$ROOT"/}/bzImage)"
	done
	msg "layouts: $ICOUNT_ROUNDS per kernel, $(wc -w <<<"$BENCH_FLAVOURS") kernels (${OUT#"$ROOT"/}/layouts.tsv)"
}
if [ "$SHUFFLE" = 1 ]; then
	case " $MODES " in *" icount "* | *" cachesim "*) round_layouts ;; esac
fi
case " $MODES " in
*" icount "* | *" cachesim "*)
	# builds the plugin, runs its unit test and its end-to-end check
	"$ROOT/scripts/cachesim.sh" check || exit 1
	# the boots of more than one vCPU run QEMU with turns
	for p in $SHAPE_BOOTS; do
		w=$(det_workloads "$p") || fail "bench/workloads.tsv: see above"
		[ "$w" = none ] || { "$ROOT/scripts/qemu.sh" || exit 1; break; }
	done
	;;
esac
case " $MODES " in
*" cachesim "*)
	# the host's latencies, measured here, natively (bench/calibrate;
	# before any guest runs): printed beside the published prices
	# (bench/prices.tsv) as a cross-check, never a price
	step calibrate
	gcc -O2 -Wall -Wextra -Werror -pthread -o "$OUT/calibrate" "$ROOT/bench/calibrate/calibrate.c" ||
		fail "bench/calibrate/calibrate.c does not build"
	quick=
	[ "$QUICK" = 1 ] && quick=--quick
	"$OUT/calibrate" $quick >"$OUT/calibrate.txt" ||
		fail "bench/calibrate failed (output: $OUT/calibrate.txt)"
	msg "$(tr '\n' ';' <"$OUT/calibrate.txt" | sed 's/calibrate //g')"
	;;
esac

T0=$(now)
# every det.csv row names the patches, the workload table (the amounts),
# the configuration table and the kernel config fragments (what each
# kernel is built from), the scale it measured and its rounds' boot
# states (seeds=: the hash of lib.sh's seed list and layout pads, or off
# for SHUFFLE=0)
# (bench/report.py never compares rows of two stamps)
if [ "$SHUFFLE" = 1 ]; then
	# (and the layout per round: its pads and how they are drawn)
	seeds=$( (printf '%s' "$BENCH_SEEDS page_alloc.shuffle=1"
		cat "$ROOT/bench/layout-pad.h"
		echo "$LAYOUT_POINTS"
		declare -f layout_pad layout_cflags) | sha1sum | cut -c1-12)
else
	seeds=off
fi
BENCH_STAMP="patches=$(bench_inputs_hash) scale=$SCALE seeds=$seeds"
export BENCH_STAMP
# What this run asks for: bench/report.py judges a target with no data as
# NOT RUN (and fails) only if the run asked for its data
{
	echo "modes=$MODES"
	echo "configs=$(printf '%s' "$want_configs" | tr -s ' \n' '  ')"
	echo "repeat=$([ -n "$REPEAT" ] && echo 1 || echo 0)"
	echo "det_rounds=$DET_ROUNDS"
	echo "icount_rounds=$ICOUNT_ROUNDS $ICOUNT_MORE_BOOTS"
	echo "prog_rounds=$PROG_ROUNDS"
	echo "sweep_rounds=$SWEEP_ROUNDS"
	# the deterministic rounds' QEMU seeds, round 1's first (empty with
	# SHUFFLE=0: every round -seed 1 without RDRAND, no shuffle)
	echo "shuffle=$SHUFFLE"
	echo "det_seeds=$([ "$SHUFFLE" = 0 ] || for r in $(seq 1 "$ICOUNT_ROUNDS"); do bench_seed "$r"; done | tr '\n' ' ' | sed 's/ $//')"
	echo "workloads=$(printf '%s' "${DET_WORKLOADS:-}" | tr -s ' \n' '  ')"
	echo "sweep_configs=$SWEEP_CONFIGS"
	echo "geometry=$GEOMETRY cpu=$GUEST_CPU sim=$SIM_ARGS"
	# the stamp of report.md: which run, when, on what, asked how, and
	# the det.csv rows' stamp
	echo "run=${OUT##*/}"
	echo "date=$(date -u -d "@$RUN_T" '+%Y-%m-%d %H:%M UTC')"
	echo "commit=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)$(git -C "$ROOT" diff --quiet HEAD -- 2>/dev/null || echo ' (with uncommitted changes)')"
	echo "command=${ASKED# } make bench"
	echo "bench_stamp=$BENCH_STAMP"
	echo "jobs=$JOBS"
} >"$OUT/plan"
# the price table the report of this run (and of its archive) uses: a
# later edit of bench/prices.tsv does not reprice it; and the tables that
# say what each boot is (its machine shape, its configuration, its
# workloads), as they were when the run started (for the record: the
# run and its report read the checkout's)
cp "$ROOT/bench/prices.tsv" "$OUT/prices.tsv"
cp "$ROOT/bench/shapes.tsv" "$ROOT/bench/configs.tsv" "$ROOT/bench/workloads.tsv" "$OUT/" ||
	fail "could not copy the bench tables into $OUT"

# boot_state NAME FLAVOUR APPEND JOBOUT [VCPUS]: the boot ran the
# allocator its configuration names (bench/configs.tsv: the switch's
# value, the per-cpu lists on or off), with VCPUS vCPUs online if given
# (a deterministic boot: its machine shape's), or fail: its rows would go
# under the wrong name
boot_state() {
	python3 "$ROOT/bench/report.py" boot-state "$@" ||
		fail "$1: the kernel booted is not the configuration's (above) -- see ${4#"$ROOT"/}"
}

# failed_workloads JOBOUT: the workloads a failed bench job reported failed
# (guest/jobs/bench.sh's "hotcold-failed" line), or nothing
failed_workloads() {
	sed -n 's/^hotcold-failed //p' "$1" 2>/dev/null | tail -1
}

# ---- wall: timed, interleaved rounds ----
wall_mode() {
	local csv=$OUT/results.csv vmcsv=$OUT/vmstat.csv total n=0 r c name rest f append eta tag out failed
	step "bench wall"
	echo "workload,metric,config,round,value" >"$csv"
	echo "workload,config,round,counter,delta" >"$vmcsv"
	# wall mode's configurations: not those of the deterministic modes
	# only (the layout A/A), and the base booted twice per round (its A/A)
	# when the run has the repeat boot
	local configs=
	for c in $CONFIGS $REPEAT; do
		named "${c%%:*}" "$FIXED_CONFIGS" || configs="$configs $c"
	done
	# the real programs boot on their own, with the programs archive: the
	# other workloads' boot stays as it was (its list excludes them)
	local parts='' part wl extra
	[ -n "$WALL_MAIN" ] && parts=main
	[ -n "$WALL_PROG" ] && parts="$parts prog"
	# wall_skip PART NAME ROUND: a boot the run leaves out: the programs'
	# of a configuration outside PROG_CONFIGS (the repeat: the A/A boots
	# the main workloads only) and after the first PROG_ROUNDS rounds (as
	# in the deterministic modes)
	wall_skip() {
		[ "$1" = prog ] && { ! named "$2" "$PROG_CONFIGS" || [ "$3" -gt "$PROG_ROUNDS" ]; }
	}
	total=0
	for r in $(seq 1 "$ROUNDS"); do
		for c in $configs; do
			for part in $parts; do
				wall_skip "$part" "${c%%:*}" "$r" || total=$((total + 1))
			done
		done
	done
	local t0
	t0=$(now)
	for r in $(seq 1 "$ROUNDS"); do
		for c in $configs; do
			for part in $parts; do
				name=${c%%:*} rest=${c#*:}
				! wall_skip "$part" "$name" "$r" || continue
				f=${rest%%:*} append=${rest#*:}
				n=$((n + 1))
				if [ $n -gt 1 ]; then
					eta="$(( ($(now) - t0) * (total - n + 1) / (n - 1) )) s"
				else
					eta="?"
				fi
				tag=bench-$name-$r extra='' wl=$WALL_MAIN
				if [ "$part" = prog ]; then
					tag=$tag-prog extra=$BUILD/initramfs-programs.cpio.gz wl=$WALL_PROG
				fi
				msg "wall run $n/$total: $name, round $r/$ROUNDS${extra:+, the real programs} (${SECS} s per timed workload), ETA $eta"
				out=$LOGS/$f-bench-$tag.out
				# shellcheck disable=SC2086 # a list of workloads
				if ! "$ROOT/scripts/run-guest.sh" --quiet --mem "$BENCH_GUEST_MB" --timeout 1200 --tag "$tag" \
					${extra:+--extra-initrd "$extra"} \
					${append:+--append "$append"} "$f" bench wall "$SECS" $wl; then
					failed=$(failed_workloads "$out")
					fail "wall run $name, round $r failed${failed:+; workloads that failed in the guest: $failed} -- see above and ${out#"$ROOT"/}"
				fi
				boot_state "$name" "$f" "$append" "$out"
				sed -n 's/^hotcold-result \([a-z0-9_]*\) \([a-z_]*\)=\([0-9.]*\).*/\1,\2,'"$name,$r"',\3/p' \
					"$out" >>"$csv"
				awk -v c="$name" -v r="$r" '$1 == "hotcold-vmstat" {
					for (i = 3; i <= NF; i++) { split($i, kv, "="); print $2 "," c "," r "," kv[1] "," kv[2] } }' \
					"$out" >>"$vmcsv"
			done
		done
	done
	msg "wall mode took $(($(now) - t0)) s"
}

# ---- icount / cachesim: fixed work, a few boots per configuration ----
# One vCPU: with two, Debian's QEMU under -icount runs a busy vCPU until
# the next timer deadline and the other only on what it leaves by
# halting, so a busy second vCPU starves.  With one vCPU the guest's own
# scheduler interleaves the tasks.  The workloads that need more CPUs
# (a flood or a reader on the other CPU; the seed's SMP widths) get
# boots of their own, one per machine shape of bench/shapes.tsv (2cpu,
# ccd4, ccd8, ccd8prog), in the QEMU built with turns (scripts/qemu.sh: each vCPU runs 20000
# instructions, or until it halts or pauses, then the next).
# The boot each workload runs in is the table's boot column: mem (one
# vCPU, no disk), a shape, prog, sweep or disk.  The deterministic boots
# have no disk: a virtio-blk completion interrupt lands at an instruction
# count the host's I/O timing decides,
# and from the first one (the mount) two boots of one kernel diverge.
# Without host I/O (and with run-guest.sh's fixed RTC and seed) they
# repeat instruction for instruction, and so do the counts.
# trunc80k_ext4_* mount an ext4 image from a loop device over tmpfs in
# every mode, reclaim_flood's page cache comes from one, and the streaming
# readers (mixed_*, readahead_*) read /dev/nullb0, a null_blk device that
# completes on a guest timer (guest/jobs/bench.sh, run-guest.sh).

# The kernel functions whose calls the plugin counts in each phase (its
# calls= argument): CALL_SYMS, from bench/report.py calls (what each
# workload exercises: bench/hcreport/ingest.py, which reads the counts
# in that order).
# call_addrs DIR: their addresses in the System.map of the kernel in DIR
# (a build, or a round's relink: round_kernel_dir), ADDR+ADDR..., then
# the call sites of zone->lock in its page allocator, three counters of
# ADDR/ADDR... (report.py lock-sites: all, refills, drains) (the
# deterministic boots run without KASLR)
call_addrs() {
	local map=$1/System.map s a out='' locks
	for s in $CALL_SYMS; do
		a=$(awk -v s="$s" '$3 == s { print "0x" $1; exit }' "$map" 2>/dev/null)
		[ -n "$a" ] || { msg "no $s in ${map#"$ROOT"/}: the plugin cannot count its calls"; return 1; }
		out="$out+$a"
	done
	locks=$(python3 "$ROOT/bench/report.py" lock-sites "$1") ||
		{ msg "the plugin cannot count the zone->lock holds of the kernel in ${1#"$ROOT"/} (above)"; return 1; }
	echo "${out#+}+$locks"
}

# det_kernel FLAVOUR R: the directory of the kernel round R boots, its
# relink at round R's layout (SHUFFLE=1: round_layouts) or the build
det_kernel() {
	if [ "$SHUFFLE" = 1 ]; then
		round_kernel_dir "$1" "$2"
	else
		kernel_dir "$1"
	fi
}

# det_seed R: round R's QEMU seed with SHUFFLE=1 (lib.sh's BENCH_SEEDS:
# the same in every configuration and mode, so the repeat and the icount
# check, round 1, boot as the base's round 1 did), nothing with
# SHUFFLE=0
det_seed() {
	[ "$SHUFFLE" = 1 ] || return 0
	bench_seed "$1" || fail "round $1 has no seed in scripts/lib.sh's BENCH_SEEDS -- add one (DET_ROUNDS goes to 20)"
}

det_boot() {
	local mode=$1 c=$2 r=$3 smp=$4 part=$5 name rest f append tag sim disk='' failed calls seed kdir
	shift 5
	name=${c%%:*} rest=${c#*:}
	f=${rest%%:*} append=${rest#*:}
	tag=$mode-$name-$r-$part
	kdir=$(det_kernel "$f" "$r")
	calls=$(call_addrs "$kdir") || return 1
	seed=$(det_seed "$r") || return 1
	[ "$mode" = cachesim ] && sim=on || sim=off
	[ "$part" = disk ] || disk=--no-disk
	named "$part" "$PROG_BOOTS" && disk="$disk --extra-initrd $BUILD/initramfs-programs.cpio.gz"
	# (a named shape's workloads carry its name: the guest runs their
	# base's work, shape=)
	[ "$(shape_field "$part" 3)" = yes ] && set -- "shape=$part" "$@"
	# (the round's seed and the shuffle apart from the configuration's
	# append, which boot_state checks the booted allocator against)
	# shellcheck disable=SC2086 # $disk: options
	if ! HOTCOLD_KERNEL=$kdir/arch/x86/boot/bzImage "$ROOT/scripts/run-guest.sh" --quiet --smp "$smp" --mem "$BENCH_GUEST_MB" --timeout 3000 --tag "$tag" \
		$disk --icount --cpu "$GUEST_CPU" --plugin "$BUILD/cachesim/cachesim.so,sim=$sim,$SIM_ARGS,calls=$calls,out=$OUT/$tag.phases" \
		${seed:+--seed "$seed" --append page_alloc.shuffle=1} \
		${append:+--append "$append"} "$f" bench fixed "$SCALE" "history=$r" "$@"; then
		failed=$(failed_workloads "$LOGS/$f-bench-$tag.out")
		[ -z "$failed" ] || msg "$mode run $name, round $r ($part boot): workloads that failed in the guest: $failed"
		return 1
	fi
	boot_state "$name" "$f" "$append" "$LOGS/$f-bench-$tag.out" "$smp"
	python3 "$ROOT/bench/report.py" det-rows "$mode" "$name" "$r" "$part" \
		"$LOGS/$f-bench-$tag.out" "$OUT/$tag.phases" >"$OUT/$tag.csv" ||
		fail "could not match the guest's phases with the plugin's ($OUT/$tag.phases) -- see bench/report.py det-rows"
}

# det_jobs MODE: a line per boot of MODE's run (MODE CONFIG ROUND PART),
# in round order
det_jobs() {
	local mode=$1 r c runs='' run parts part lines=''
	for r in $(seq 1 "$DET_ROUNDS"); do
		for c in $CONFIGS; do
			runs="$runs $c/$r"
		done
		# the base once more with round 1's seed and history (the
		# repeat): the instrument's repeatability (the rounds' spread adds
		# the boot state's effect)
		[ "$r" != 1 ] || [ -z "$REPEAT" ] || runs="$runs $REPEAT/1"
	done
	for run in $runs; do
		parts=$(det_parts "${run%/*}" "${run##*/}") || return 1
		for part in $parts; do
			lines="$lines$mode ${run%/*} ${run##*/} $part
"
		done
	done
	printf '%s' "$lines"
}

# icount_more_jobs: the icount boots of rounds DET_ROUNDS + 1 to
# ICOUNT_ROUNDS, lines as det_jobs': every configuration's boots of
# ICOUNT_MORE_BOOTS that round (not the repeat's: round 1 only)
icount_more_jobs() {
	local r c parts part
	for r in $(seq $((DET_ROUNDS + 1)) "$ICOUNT_ROUNDS"); do
		for c in $CONFIGS; do
			parts=$(det_parts "$c" "$r") || return 1
			for part in $parts; do
				named "$part" "$ICOUNT_MORE_BOOTS" || continue
				echo "icount $c $r $part"
			done
		done
	done
}

# prog_first: the job lines on stdin, the real programs' boots (PROG_BOOTS)
# first, each group in its order
prog_first() {
	awk -v p=" $PROG_BOOTS " 'index(p, " " $4 " ") { print; next }
		{ rest[n++] = $0 } END { for (i = 0; i < n; i++) print rest[i] }'
}

# det_job MODE CONFIG ROUND PART: one boot (scripts/jobqueue.sh's command)
det_job() {
	local mode=$1 c=$2 r=$3 part=$4 wl seed
	wl=$(det_workloads "$part") || return 1
	seed=$(det_seed "$r") || return 1
	# shellcheck disable=SC2031 # queue_run sets it in the job's subshell, this one
	msg "$mode boot $QUEUE_JOB: ${c%%:*}, round $r${seed:+ (seed $seed)}, $part boot"
	# shellcheck disable=SC2086 # a list of workloads
	det_boot "$mode" "$c" "$r" "$(shape_field "$part" 2 | grep . || echo 1)" "$part" $wl
}

# det_mode MODE [CHECK]: MODE's boots, DET_ROUNDS rounds of every
# configuration (and the repeat boot), JOBS at a time from one queue
# (scripts/jobqueue.sh): a worker takes the next boot as soon as its boot
# ends, the real programs' boots first (the longest: with one of them
# last, one worker would run it alone).  Host timing does not enter the
# counts, so neither does the order nor which boots run side by side.  CHECK (icount): the icount check boots
# (icount_derived) join the end of the queue; so do icount's rounds
# beyond DET_ROUNDS (icount_more_jobs), when MODE or CHECK is icount.
det_mode() {
	local mode=$1 check=${2:-} t0 jobs parts p more
	step "bench $mode"
	t0=$(now)
	# (the run's directory is new: no boot's rows of another run in it)
	jobs=$OUT/$mode.jobs
	(
		det_jobs "$mode" || exit 1
		# the check boots: the base's first round, every boot it has
		if [ -n "$check" ]; then
			parts=$(det_parts "$BASE_CONFIG" 1) || exit 1
			for p in $parts; do
				echo "$check $BASE_CONFIG 1 $p"
			done
		fi
		[ "$mode" != icount ] && [ "$check" != icount ] || icount_more_jobs
	) | prog_first >"$jobs" || fail "could not list the $mode boots (above)"
	more=
	[ "$ICOUNT_ROUNDS" = "$DET_ROUNDS" ] || { [ "$mode" != icount ] && [ "$check" != icount ]; } ||
		more=", icount's round$([ "$ICOUNT_ROUNDS" = $((DET_ROUNDS + 1)) ] && echo " $ICOUNT_ROUNDS" ||
			echo "s $((DET_ROUNDS + 1))-$ICOUNT_ROUNDS") ($ICOUNT_MORE_BOOTS boots)"
	msg "$mode: $(wc -w <<<"$CONFIGS") configurations x $DET_ROUNDS rounds$([ "$SHUFFLE" = 0 ] || echo " (seeded, shuffled free lists, a layout per round)")${REPEAT:+ and ${BASE_CONFIG%%:*} round 1 again}${check:+, and the $check check boots}$more: $(wc -l <"$jobs") boots, $JOBS at a time (scale $SCALE${DET_WORKLOADS:+, workloads: $(wc -w <<<"$DET_WORKLOADS")})"
	queue_run "$JOBS" "$jobs" det_job ||
		fail "a $mode${check:+ or $check check} boot failed (above) -- its log is in build/logs/"
	msg "$mode mode took $(($(now) - t0)) s"
}

# icount beside cachesim: under -icount the guest's clock counts
# instructions, so the cache model running or not changes nothing the
# guest does, and a cachesim boot counts the instructions an icount boot
# would (all 368 row pairs of the full run of 2026-12-05 were equal).  So
# with both modes asked for, icount boots one configuration and round,
# the base's first (every boot it has; in cachesim's queue, det_mode),
# whose rows must equal those derived from the cachesim boot of the same
# configuration and round, or the run fails; every icount row is then
# derived from a cachesim boot.
icount_derived() {
	local f t check n=0 checked=0 base=${BASE_CONFIG%%:*}
	step "bench icount"
	# every boot of the check must have its cachesim twin
	for f in "$OUT/icount-$base"-1-*.csv; do
		[ -f "$f" ] || continue
		t=${f##*/icount-}
		[ -f "$OUT/cachesim-$t" ] ||
			fail "the icount check boot $f has no cachesim boot to compare with ($OUT/cachesim-$t)"
		checked=$((checked + 1))
	done
	[ "$checked" -gt 0 ] || fail "the icount check boot ($base, round 1) wrote no rows -- see build/logs/"
	for f in "$OUT"/cachesim-*.csv; do
		[ -f "$f" ] || continue
		t=${f##*/cachesim-} check=
		[ -f "$OUT/icount-$t" ] && check=$OUT/icount-$t
		python3 "$ROOT/bench/report.py" icount-rows "$f" ${check:+"$check"} >"$OUT/icount-$t.tmp" ||
			fail "icount rows from $f failed (above)${check:+: the icount boot ($check) and the cachesim boot disagree, so the instruments do not count the same instructions}"
		mv "$OUT/icount-$t.tmp" "$OUT/icount-$t"
		n=$((n + 1))
	done
	msg "icount: $n boots' rows from the cachesim boots; $base round 1 booted ($checked boots) and equal"
}

# The run's own results only: a mode this run did not ask for has no rows
# here (the run that measured it keeps them in its own directory).
det=$OUT/det.csv
both=
case " $MODES " in *" icount "*) case " $MODES " in *" cachesim "*) both=1 ;; esac ;; esac
for m in $MODES; do
	case $m,$both in
	wall,*) wall_mode ;;
	icount,1) ;;
	cachesim,1)
		det_mode cachesim icount
		icount_derived ;;
	*) det_mode "$m" ;;
	esac
done
python3 "$ROOT/bench/report.py" det-header >"$det"
# the rows in the boots' order: mem, disk, the shapes, prog, sweep
for m in icount cachesim; do
	for p in mem disk $SHAPE_BOOTS prog sweep; do
		cat "$OUT/$m"-*-"$p".csv
	done
done >>"$det" 2>/dev/null
msg "benchmark runs took $(($(now) - T0)) s"
step report
python3 "$ROOT/bench/report.py" report "$OUT" ||
	fail "the report failed (bench/report.py): a target the run asked for had no data (NOT RUN, above), or the chart failed -- see $OUT/report.md"
cat "$OUT/report.md"
msg "this run's results: ${OUT#"$ROOT"/}/ (${BUILD#"$ROOT"/}/bench/latest); its report's files alone: bench/report.py archive ${OUT##*/} DEST"
