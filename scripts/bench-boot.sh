#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# One boot of make bench: a line of the run's job file (the plan,
# bench/hcreport/plan.py, writes them; GNU parallel hands them here one at
# a time, scripts/bench-jobs.sh), booted and its rows written to the run's
# directory: RUNDIR/TAG.csv (and TAG.phases, the cache plugin's records)
# for a deterministic boot (a meter boot's: resid.csv rows), RUNDIR/TAG.csv
# and TAG.vm for a wall boot.
#
# A line is the boot's tag, then KEY=VALUE words: mode (wall, icount,
# cachesim, or resid: the residency meter's boot, cachesim with its guest
# module), config, kernel (its flavour), layout (the key its relinks
# are kept under: the kernel's, or the layout A/A's own name; absent: the
# kernel's), image (the kernel's directory under build/: kernel-F as
# built, rounds/L-R layout L relinked at round R's pads),
# round, boot (mem, disk, a machine shape, prog, sweep; wall: main or
# prog), vcpus, seed (QEMU's -seed, or -), pad (the image's layout pads,
# or -), shape (a named shape's, or -), disk and programs (yes or no),
# history (the guest's warm-up), append (a word of kernel command line,
# once per word) and workloads (in the order the guest runs them).
#
# usage: scripts/bench-boot.sh RUNDIR 'LINE'   boot it
#        scripts/bench-boot.sh --check RUNDIR JOBFILE
#                                     check every line of JOBFILE, boot
#                                     nothing (scripts/bench-jobs.sh's
#                                     dry run)
# RUNDIR holds the plan (plan.sh: the run's settings, sourced).
. "$(dirname "$0")/lib.sh"
step boot

# parse_line LINE: TAG and the J_KEY variables of a job line; status 1
# with the reason on stderr for a line that is not one
parse_line() {
	local w k v
	TAG=${1%% *} APPENDS=() J_mode='' J_config='' J_kernel='' J_layout='' J_image='' J_round='' J_boot=''
	J_vcpus=1 J_seed=- J_pad=- J_shape=- J_disk=no J_programs=no J_history=0 J_workloads=''
	case $TAG in '' | *[!a-z0-9_-]*) echo "tag '$TAG': expected letters, digits, - and _" >&2; return 1 ;; esac
	set -f
	for w in ${1#"$TAG"}; do
		k=${w%%=*} v=${w#*=}
		[ "$k" != "$w" ] || { echo "$TAG: '$w': expected KEY=VALUE" >&2; set +f; return 1; }
		case $k in
		append) APPENDS+=("$v") ;;
		mode | config | kernel | layout | image | round | boot | vcpus | seed | pad | shape | disk | programs | history | workloads)
			printf -v "J_$k" '%s' "$v" ;;
		*) echo "$TAG: unknown key '$k'" >&2; set +f; return 1 ;;
		esac
	done
	set +f
	J_layout=${J_layout:-$J_kernel}
}

# check_line: the parsed line's values as the plan writes them; status 1
# naming each that is not
check_line() {
	local why=''
	case $J_mode in wall | icount | cachesim | resid) ;; *) why="$why; mode '$J_mode'" ;; esac
	case $J_round in [1-9] | 1[0-9] | 20) ;; *) why="$why; round '$J_round'" ;; esac
	[ "$TAG" = "$J_mode-$J_config-$J_round-$J_boot" ] || why="$why; the tag is not MODE-CONFIG-ROUND-BOOT"
	case $J_layout in "$J_kernel" | "$J_config") ;; *) why="$why; layout '$J_layout' neither the kernel's nor the configuration's" ;; esac
	case $J_image in "kernel-$J_kernel$(config_suffix)" | "rounds/$J_layout$(config_suffix)-$J_round") ;; *) why="$why; image '$J_image' of kernel '$J_kernel' (layout '$J_layout')" ;; esac
	[ "$J_seed" = - ] || [[ $J_seed =~ ^[1-9][0-9]{0,17}$ ]] || why="$why; seed '$J_seed'"
	[ "$J_pad" = - ] || layout_cflags "${J_pad//\// }" >/dev/null || why="$why; pad '$J_pad'"
	case $J_vcpus in [1-8]) ;; *) why="$why; vcpus '$J_vcpus'" ;; esac
	case $J_disk$J_programs in yesyes | yesno | noyes | nono) ;; *) why="$why; disk '$J_disk' or programs '$J_programs'" ;; esac
	case $J_workloads in '' | *[!a-z0-9_,]* | ,* | *, | *,,*) why="$why; workloads '$J_workloads'" ;; esac
	case " $BOOT_ORDER main " in *" $J_boot "*) ;; *) why="$why; boot '$J_boot'" ;; esac
	[ -z "$why" ] || { echo "$TAG: ${why#; }" >&2; return 1; }
}

# call_addrs DIR: the plugin's calls= argument for the kernel in DIR: the
# addresses of report.py calls' functions in its System.map, ADDR+ADDR...,
# then the zone->lock call sites of its page allocator (report.py
# lock-sites: all, refills, drains; the deterministic boots run without
# KASLR)
call_addrs() {
	local map=$1/System.map s a out='' locks syms
	syms=$(python3 "$ROOT/bench/report.py" calls) || return 1
	for s in $syms; do
		a=$(awk -v s="$s" '$3 == s { print "0x" $1; exit }' "$map" 2>/dev/null)
		[ -n "$a" ] || { msg "no $s in ${map#"$ROOT"/}: the plugin cannot count its calls"; return 1; }
		out="$out+$a"
	done
	locks=$(python3 "$ROOT/bench/report.py" lock-sites "$1") ||
		{ msg "the plugin cannot count the zone->lock holds of the kernel in ${1#"$ROOT"/} (above)"; return 1; }
	echo "${out#+}+$locks"
}

# resid_wrappers MAP: the plugin's residency arguments for the kernel of
# System.map MAP: ,resid_hot=ADDR (free_unref_folios) and, on a kernel
# with it, ,resid_cold=ADDR (free_unref_folios_cold): the batch wrappers
# whose entry labels a batch the guest's stack cannot (residency.h)
resid_wrappers() {
	local hot cold
	hot=$(awk '$3 == "free_unref_folios" { print "0x" $1; exit }' "$1" 2>/dev/null)
	cold=$(awk '$3 == "free_unref_folios_cold" { print "0x" $1; exit }' "$1" 2>/dev/null)
	[ -n "$hot" ] || { msg "no free_unref_folios in ${1#"$ROOT"/}: the residency meter cannot label batches"; return 1; }
	echo ",resid_hot=$hot${cold:+,resid_cold=$cold}"
}

# guest_failed OUT: fail naming the workloads that failed in the guest
# (guest/jobs/bench.sh's hotcold-failed line) and the guest's log
guest_failed() {
	local failed
	failed=$(sed -n 's/^hotcold-failed //p' "$1" 2>/dev/null | tail -1)
	fail "boot $TAG failed${failed:+; workloads that failed in the guest: $failed} -- its log: ${1#"$ROOT"/}"
}

# boot_state OUT [VCPUS]: the boot ran the allocator its configuration
# names (bench/configs.tsv), with VCPUS vCPUs if given, or fail: its rows
# would go under the wrong name
boot_state() {
	local a append=''
	for a in "${APPENDS[@]}"; do
		[ "$a" = page_alloc.shuffle=1 ] || append="$append $a"
	done
	python3 "$ROOT/bench/report.py" boot-state "$J_config" "$J_kernel" "${append# }" "$@" ||
		fail "$J_config: the kernel booted is not the configuration's (above) -- see ${1#"$ROOT"/}"
}

# det_boot: a deterministic boot, -icount with the cache plugin (sim=off:
# instructions only), its rows matched with the guest's phases; a meter
# boot (resid) is cachesim's with the meter's module loaded in the guest,
# and its rows are the meter's (bench/hcreport/residency.py)
det_boot() {
	local kdir=$BUILD/$J_image out sim=off calls a resid=''
	local -a opts=()
	out=$LOGS/$J_kernel-bench-$TAG.out
	calls=$(call_addrs "$kdir") || fail "boot $TAG: no calls= for the plugin (above)"
	[ "$J_mode" = icount ] || sim=on
	[ "$J_disk" = yes ] || opts+=(--no-disk)
	[ "$J_programs" = no ] || opts+=(--extra-initrd "$BUILD/initramfs-programs.cpio.gz")
	[ "$J_seed" = - ] || opts+=(--seed "$J_seed")
	for a in "${APPENDS[@]}"; do opts+=(--append "$a"); done
	local -a guest=(bench fixed "$SCALE" "history=$J_history")
	[ "$J_shape" = - ] || guest+=("shape=$J_shape")
	if [ "$J_mode" = resid ]; then
		guest+=(resid=1)
		resid=$(resid_wrappers "$kdir/System.map") || fail "boot $TAG: no batch wrappers for the residency meter (above)"
		[ -f "$(resid_archive "$J_kernel")" ] ||
			fail "boot $TAG: no $(resid_archive "$J_kernel") -- build the run's modules first (scripts/modules.sh)"
		opts+=(--extra-initrd "$(resid_archive "$J_kernel")")
	fi
	HOTCOLD_KERNEL=$kdir/arch/x86/boot/bzImage "$ROOT/scripts/run-guest.sh" --quiet --smp "$J_vcpus" \
		--mem "$BENCH_GUEST_MB" --timeout 3000 --tag "$TAG" "${opts[@]}" --icount --cpu "$GUEST_CPU" \
		--plugin "$BUILD/cachesim/cachesim.so,sim=$sim,$SIM_ARGS,calls=$calls$resid,out=$OUT/$TAG.phases" \
		"$J_kernel" "${guest[@]}" "${WL[@]}" || guest_failed "$out"
	boot_state "$out" "$J_vcpus"
	if [ "$J_mode" = resid ]; then
		python3 "$ROOT/bench/report.py" resid-rows "$J_config" "$J_round" "$out" "$OUT/$TAG.phases" \
			>"$OUT/$TAG.csv.tmp" ||
			fail "boot $TAG: the residency meter's rows failed (above) -- see bench/report.py resid-rows"
		mv "$OUT/$TAG.csv.tmp" "$OUT/$TAG.csv"
		return
	fi
	BENCH_STAMP=$BENCH_STAMP python3 "$ROOT/bench/report.py" det-rows "$J_mode" "$J_config" "$J_round" "$J_boot" \
		"$out" "$OUT/$TAG.phases" >"$OUT/$TAG.csv.tmp" ||
		fail "could not match the guest's phases with the plugin's ($OUT/$TAG.phases) -- see bench/report.py det-rows"
	mv "$OUT/$TAG.csv.tmp" "$OUT/$TAG.csv"
}

# wall_boot: a timed boot (no -icount), its results and pcp counters
wall_boot() {
	local out a
	local -a opts=()
	out=$LOGS/$J_kernel-bench-$TAG.out
	[ "$J_programs" = no ] || opts+=(--extra-initrd "$BUILD/initramfs-programs.cpio.gz")
	for a in "${APPENDS[@]}"; do opts+=(--append "$a"); done
	"$ROOT/scripts/run-guest.sh" --quiet --mem "$BENCH_GUEST_MB" --timeout 1200 --tag "$TAG" "${opts[@]}" \
		"$J_kernel" bench wall "$SECS" "${WL[@]}" || guest_failed "$out"
	boot_state "$out"
	sed -n 's/^hotcold-result \([a-z0-9_]*\) \([a-z_]*\)=\([0-9.]*\).*/\1,\2,'"$J_config,$J_round"',\3/p' \
		"$out" >"$OUT/$TAG.csv" || fail "boot $TAG: cannot read its results from ${out#"$ROOT"/}"
	awk -v c="$J_config" -v r="$J_round" '$1 == "hotcold-vmstat" {
		for (i = 3; i <= NF; i++) { split($i, kv, "="); print $2 "," c "," r "," kv[1] "," kv[2] } }' \
		"$out" >"$OUT/$TAG.vm" || fail "boot $TAG: cannot read its pcp counters from ${out#"$ROOT"/}"
}

check=
[ "${1:-}" != --check ] || { check=1; shift; }
[ $# = 2 ] || fail "usage: scripts/bench-boot.sh RUNDIR 'LINE' | scripts/bench-boot.sh --check RUNDIR JOBFILE"
OUT=$1
[ -f "$OUT/plan.sh" ] || fail "$OUT/plan.sh: no such file -- RUNDIR is a run's directory, with its plan (bench/report.py plan write)"
# shellcheck source=/dev/null
. "$OUT/plan.sh"
if [ -n "$check" ]; then
	n=0
	while IFS= read -r line || [ -n "$line" ]; do
		n=$((n + 1))
		{ parse_line "$line" && check_line; } || fail "$2:$n: not a boot of the plan's (above)"
		echo "$TAG: $J_image, seed $J_seed, ${J_workloads//,/ }"
	done <"$2"
	exit 0
fi
{ parse_line "$2" && check_line; } || fail "not a line of a job file (above): $2"
IFS=, read -r -a WL <<<"$J_workloads"
[ -f "$BUILD/$J_image/arch/x86/boot/bzImage" ] ||
	fail "boot $TAG: no kernel image in ${BUILD#"$ROOT"/}/$J_image -- build the run's kernels first (scripts/bench-build.sh)"
# (a relink carries its pads: round_layouts wrote them beside it)
[ "$J_pad" = - ] || [ "$(cat "$BUILD/$J_image/pad" 2>/dev/null)" = "${J_pad//\// }" ] ||
	fail "boot $TAG: ${BUILD#"$ROOT"/}/$J_image is not relinked at the pads $J_pad -- this host's build is not the run's"
msg "$TAG: $J_image, seed $J_seed, ${J_workloads//,/ }"
if [ "$J_mode" = wall ]; then
	wall_boot
else
	det_boot
fi
