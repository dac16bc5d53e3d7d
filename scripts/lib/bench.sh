# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# shellcheck disable=SC2034 # the names set here are for the scripts that source lib.sh
# make bench's helpers (sourced by scripts/lib.sh): the layout per round,
# the kernels a round boots, the stamp's inputs hash, the saved runs'
# directories and the boots at once.

# The layout per round (SHUFFLE=1; docs/decisions.md, "A layout per
# round"): a round boots each kernel linked again with bench/layout-pad.h
# forced into the objects of LAYOUT_POINTS (the first object of kernel/,
# of mm/, mm/'s first object after page-alloc.o and init-mm.o, the
# first of fs/: each the only object of its name in the tree while
# CONFIG_FS_VERITY, whose fs/verity/open.o would match, is off), each grown by a seeded 0-63 cache
# lines of .data, .bss, __read_mostly and per-CPU data (a group D,B,M,P
# per object, in this order), which moves everything linked after it.
# Every round of every kernel has pads of its own (the run's plan draws
# them: bench/hcreport/draws.py), drawn independently of every other
# kernel's, so the layout A/A's (vanilla-b's) rounds against vanilla's
# compare two independent layouts of the same code, as any two kernels'
# rounds do.
LAYOUT_POINTS="fork filemap memblock open"
# The symbols whose moves show that the pads reached them: NAME KIND N,
# a symbol of KIND (data or bss, the plain sections, where nothing but
# the pads moves it; the as-built System.map's type letter decides)
# linked after the first N points, which must move
# from its as-built place by those points' pads of its kind (mod 4 KB:
# past a page alignment it would not).  __read_mostly data follows the
# whole .data, and per-CPU data its own section's alignments, so for
# them only the pads' presence is checked.  bench-build.sh's round_layouts fails a relink where
# one does not.
LAYOUT_REFS="min_free_kbytes data 2
percpu_pagelist_high_fraction bss 2
super_blocks data 4
sb_lock bss 4"

# layout_moves BUILT_MAP MAP PADS: the refs of LAYOUT_REFS that did not
# move from BUILT_MAP to MAP (System.map files) by PADS (the plan's
# form), one "NAME moved X lines, not Y" a line; nothing if all did
layout_moves() {
	awk -v refs="$LAYOUT_REFS" -v pads="$3" '
	# the offset in its 4 KB page of an address, from its last 3 hex digits
	function low12(a,    i, n) {
		n = 0
		for (i = length(a) - 2; i <= length(a); i++)
			n = n * 16 + index("0123456789abcdef", tolower(substr(a, i, 1))) - 1
		return n
	}
	BEGIN {
		ng = split(pads, g, " ")
		for (i = 1; i <= ng; i++) {
			split(g[i], v, ",")
			pad["data", i] = v[1]
			pad["bss", i] = v[2]
		}
		nr = split(refs, r, "\n")
	}
	FNR == 1 { file++ }
	{ if (!(($3, file) in at)) { at[$3, file] = $1; type[$3, file] = tolower($2) } }
	END {
		for (i = 1; i <= nr; i++) {
			split(r[i], f, " ")
			# (the kind as the as-built map places it: a lock is data
			# in a kernel with spinlock debugging, bss elsewhere)
			kind = f[2]
			if ((f[1], 1) in type && type[f[1], 1] == "d")
				kind = "data"
			else if ((f[1], 1) in type && type[f[1], 1] == "b")
				kind = "bss"
			want = 0
			for (j = 1; j <= f[3]; j++)
				want += pad[kind, j]
			want %= 64
			if (!((f[1], 1) in at) || !((f[1], 2) in at)) {
				print f[1] " is not in both System.maps"
				continue
			}
			got = (low12(at[f[1], 2]) - low12(at[f[1], 1])) % 4096
			if (got < 0)
				got += 4096
			if (got != want * 64)
				printf "%s moved %d bytes within its 4 KB page, not %d (%d lines)\n", f[1], got, want * 64, want
		}
	}' "$1" "$2"
}

# layout_cflags PADS: the make arguments (one a line) that force
# bench/layout-pad.h into each object of LAYOUT_POINTS with its group of
# PADS (the plan's form, a job line's pad= with spaces); status 1, nothing printed, unless PADS is a
# group of four numbers from 0 to 63 per point
layout_cflags() {
	local -a groups points
	local i g x out=''
	local -a nums
	read -r -a groups <<<"$1"
	read -r -a points <<<"$LAYOUT_POINTS"
	[ "${#groups[@]}" = "${#points[@]}" ] || return 1
	for i in "${!points[@]}"; do
		g=${groups[$i]}
		IFS=, read -r -a nums <<<"$g,"
		[ "${#nums[@]}" = 4 ] && [ "$g" = "${nums[0]},${nums[1]},${nums[2]},${nums[3]}" ] || return 1
		for x in "${nums[@]}"; do
			case $x in [0-9] | [1-5][0-9] | 6[0-3]) ;; *) return 1 ;; esac
		done
		out="${out}CFLAGS_${points[$i]}.o=-include $ROOT/bench/layout-pad.h -DHOTCOLD_PAD_DATA=${nums[0]} -DHOTCOLD_PAD_BSS=${nums[1]} -DHOTCOLD_PAD_MOSTLY=${nums[2]} -DHOTCOLD_PAD_PERCPU=${nums[3]}
"
	done
	printf '%s' "$out"
}

# round_kernel_dir FLAVOUR R: where round R's relinked FLAVOUR kernel is
# kept, as in its build directory: arch/x86/boot/bzImage, System.map,
# vmlinux and mm/page_alloc.o (what bench-boot.sh and report.py
# lock-sites read) and pad (its pads)
round_kernel_dir() {
	echo "$BUILD/rounds/$1$(config_suffix)-$2"
}

# bench_inputs_hash: 12 hex digits of the files a det.csv row's figures
# follow besides the pinned source: the series, the bench-only patches,
# the patch to QEMU (the turns its boots of more than one vCPU take), the
# workload table (the amounts), the machine shapes (the vCPUs), the
# configuration table and the kernel
# config fragments (what each kernel is built from), and the guest's
# side: its benchmark job (guest/jobs/bench.sh and its workload families,
# guest/bench/), shell library, SDET script and programs, and
# the script that builds its image (what runs before and in each phase:
# a change there gives every workload another history); the "patches=" of
# the plan's bench_stamp (bench/hcreport/planfiles.py)
bench_inputs_hash() {
	cat "$ROOT"/patches/*.patch "$ROOT"/bench/alternatives/*.patch "$ROOT"/bench/qemu/*.patch \
		"$ROOT"/bench/workloads.tsv "$ROOT"/bench/shapes.tsv "$ROOT"/bench/configs.tsv "$ROOT"/configs/*.config \
		"$ROOT"/guest/jobs/bench.sh "$ROOT"/guest/bench/*.sh "$ROOT"/guest/lib.sh "$ROOT"/guest/sdet.sh "$ROOT"/guest/src/*.[ch] \
		"$ROOT"/scripts/initramfs.sh "$ROOT"/scripts/programs.sh |
		sha1sum | cut -c1-12
}

# Saved runs (scripts/bench.sh; docs/bench.md, "Options and output"): each
# make bench writes a directory of its own under build/bench/, named by
# its start (UTC) and a short name, 20261206-0130-quick, and
# build/bench/latest is a symlink to the newest run's.  Nothing else sits
# directly in build/bench/.

# bench_run_dir BASE NAME WHEN: make the new run's directory, BASE/WHEN-NAME
# (WHEN: the start, as date -u +%Y%m%d-%H%M prints it), or WHEN-NAME-2,
# -3, ... when a run of the same minute and name has that one; point
# BASE/latest at it (a relative symlink, replaced whole); print its path.
# A run of the layout before saved runs, its files straight in BASE,
# first moves into a directory of its own (bench_flat_run).  Call it in
# $(...) and check its status: fail ends only the subshell.
bench_run_dir() {
	local base=$1 name=$2 when=$3 dir

	mkdir -p "$base" || fail "cannot make $base"
	bench_flat_run "$base" || return 1
	dir=$(bench_new_dir "$base" "$when-$name") || return 1
	rm -f "$base/latest.new"
	if ! { ln -s "${dir##*/}" "$base/latest.new" && mv -T "$base/latest.new" "$base/latest"; }; then
		fail "cannot point $base/latest at $dir -- is latest a directory?"
	fi
	echo "$dir"
}

# bench_new_dir BASE STAMP: make BASE/STAMP, or BASE/STAMP-2, -3, ... if
# it exists (mkdir: two runs never get one directory); print its path
bench_new_dir() {
	local dir=$1/$2 n=1

	while ! mkdir "$dir" 2>/dev/null; do
		[ -e "$dir" ] || fail "cannot make $dir"
		n=$((n + 1))
		[ $n -le 99 ] || fail "$1/$2-2 to -99 all exist -- remove some runs"
		dir=$1/$2-$n
	done
	echo "$dir"
}

# bench_flat_run BASE: the files of a run from before saved runs
# (plan, det.csv, report.md, ... straight in BASE) move into a run
# directory of their own, named by the plan's date (00000000-0000 without
# one) and "flat", so that report.py and compare read it as any run
bench_flat_run() {
	local base=$1 f dir when='' any=''

	for f in "$base"/*; do
		[ -f "$f" ] && [ ! -L "$f" ] && any=1 && break
	done
	[ -n "$any" ] || return 0
	[ ! -f "$base/plan" ] || when=$(sed -n 's/^date=\([0-9]\{4\}\)-\([0-9][0-9]\)-\([0-9][0-9]\) \([0-9][0-9]\):\([0-9][0-9]\) UTC$/\1\2\3-\4\5/p' "$base/plan" | tail -1)
	dir=$(bench_new_dir "$base" "${when:-00000000-0000}-flat") || return 1
	for f in "$base"/*; do
		if [ -f "$f" ] && [ ! -L "$f" ]; then
			mv "$f" "$dir/" || fail "cannot move $f into $dir"
		fi
	done
	msg "the results in ${base#"$ROOT"/}/ of a run from before saved runs are now in ${dir#"$ROOT"/}/"
}

# The deterministic boots at once (make bench's JOBS).  Each boot is one
# QEMU with one TCG thread (the cachesim plugin asks for thread=single,
# and -icount runs every vCPU on one thread anyway, the 2-vCPU boot's
# too): a host core each.  And memory: the guest's (BENCH_GUEST_MB, the
# -m of every bench boot, the cachesim cross-check's and the least size
# of the scratch disk's /big) and QEMU's own, BENCH_QEMU_MB, an
# estimate no run has measured: TCG's translation buffer (up to 1 GB,
# or an eighth of the host's memory, touched as it fills), the
# plugin's cache model (under 20 MB for the 32 MB fully associative L3)
# and QEMU itself.
BENCH_GUEST_MB=384
BENCH_QEMU_MB=512

# bench_workers: JOBS's default on this host: bench_workers_of its cores
# (nproc: those this process may run on) and its available memory
# (MemAvailable)
bench_workers() {
	bench_workers_of "$(nproc 2>/dev/null)" \
		"$(awk '$1 == "MemAvailable:" { print int($2 / 1024) }' /proc/meminfo 2>/dev/null)"
}

# bench_workers_of CORES AVAIL_MB: the cores, or as many boots as AVAIL_MB
# holds, whichever is fewer; at least 1, at most 64 (JOBS's bound).  A
# figure missing or not a number: 1 core, or no bound from memory.
bench_workers_of() {
	local cores=$1 avail=$2 n per=$((BENCH_GUEST_MB + BENCH_QEMU_MB))

	case $cores in '' | *[!0-9]*) cores=1 ;; esac
	n=$cores
	case $avail in
	'' | *[!0-9]*) ;;
	*) [ $((avail / per)) -ge "$n" ] || n=$((avail / per)) ;;
	esac
	[ "$n" -ge 1 ] || n=1
	[ "$n" -le 64 ] || n=64
	echo "$n"
}
