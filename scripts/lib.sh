# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# shellcheck disable=SC2034 # the names set here are for the scripts that source it
# Shared helpers for the host-side scripts.  Source it; do not run it.
#
# Every script names its current step with step(); fail() then prints one
# line "hotcold: <step>: <what went wrong> -- <what to do>", the last 40
# lines of the relevant log, and exits non-zero.  Every script that sources
# it runs with set -u: an unset variable is an error (${VAR:-} for an
# optional one).

set -u -o pipefail

ROOT=${ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
BUILD=${BUILD:-$ROOT/build}
LOGS=$BUILD/logs
TREE=$BUILD/linux
VANILLA_SRC=$BUILD/vanilla-src
BASELINE_TAG=baseline
SERIES_BRANCH=hotcold
FLAVOURS="vanilla hotcold hotcold-bench debug single nopcp layout power rule-cold-first rule-cold-outside-high rule-cold-refill hotcap"
# the flavours built with configs/kunit.config (and memory-hotplug.config):
# the test kernels, the only ones with test code
KUNIT_FLAVOURS="hotcold debug"
# (the bench-only flavours, a patch under bench/alternatives/ on the
# series or the baseline: bench/configs.tsv, bench_kernel below)

# CONFIG_BASE: what every flavour's .config starts from (docs/decisions.md,
# "The distro configuration"):
#   lean    tinyconfig + configs/base.config, in build/kernel-<flavour>
#   distro  Debian's linux-config-6.12 of the pinned source, its modules
#           off, + configs/distro.config (scripts/distro-config.sh, checked
#           by scripts/distro-check.py), in build/kernel-<flavour>-distro
# The flavour's own fragments (kunit.config, ...) go on top of either.
CONFIG_BASE=${CONFIG_BASE:-lean}
# (checked here, before any script builds or boots: fail is defined below)
case $CONFIG_BASE in
lean | distro) ;;
*) echo "hotcold: ${STEP:-setup}: FAILED: CONFIG_BASE=$CONFIG_BASE: expected lean or distro" >&2
	exit 1 ;;
esac

GIT_AUTHOR="Hotcold Developers <hotcold@example.org>"

# shellcheck source=../source.conf
. "$ROOT/source.conf"

mkdir -p "$LOGS"

STEP=${STEP:-setup}

step() {
	STEP=$1
}

msg() {
	echo "hotcold: $*" >&2
}

# fail "what went wrong -- what to do" [log file to show the tail of]
fail() {
	local what=$1 log=${2:-}

	if [ -n "$log" ] && [ -s "$log" ]; then
		echo "----- last 40 lines of $log -----" >&2
		tail -n 40 "$log" >&2
		echo "-----" >&2
	fi
	echo "hotcold: $STEP: FAILED: $what" >&2
	exit 1
}

# run_logged LOG "what to do if it fails" cmd args...
run_logged() {
	local log=$1 fix=$2

	shift 2
	if ! "$@" >>"$log" 2>&1; then
		fail "'$*' failed (log: ${log#"$ROOT"/}) -- $fix" "$log"
	fi
}

valid_flavour() {
	case " $FLAVOURS " in
	*" $1 "*) return 0 ;;
	esac
	return 1
}

check_flavour() {
	valid_flavour "$1" ||
		fail "unknown kernel flavour '$1' -- use one of: $FLAVOURS"
}

# flavour_fragments FLAVOUR: the config fragments a flavour is built with
# on CONFIG_BASE's starting point
flavour_fragments() {
	local frags="$ROOT/configs/base.config"

	[ "$CONFIG_BASE" = distro ] && frags="$ROOT/configs/distro.config"

	case " $KUNIT_FLAVOURS " in
	*" $1 "*) frags="$frags $ROOT/configs/kunit.config $ROOT/configs/memory-hotplug.config" ;;
	esac
	[ "$1" = debug ] && frags="$frags $ROOT/configs/debug.config"
	echo "$frags"
}

# check_no_test_code FLAVOUR: fail unless the built kernel of FLAVOUR has
# no KUnit in it (its .config): a measured kernel must carry no test code
check_no_test_code() {
	local config
	config=$(kernel_dir "$1")/.config
	[ -f "$config" ] || fail "no .config for the $1 kernel ($config) -- build it first"
	if grep -q '^CONFIG_KUNIT=y' "$config"; then
		fail "the $1 kernel carries KUnit (CONFIG_KUNIT=y in ${config#"$ROOT"/}) -- a measured kernel must be built without configs/kunit.config"
	fi
}

# bench_kernel FLAVOUR: "REF PATCH" of a kernel make bench boots that is
# built from a bench-only patch (bench/configs.tsv's source and patch
# columns, through bench/report.py configs kernels): the git ref it
# applies to (the series branch or the baseline tag) and the patch's
# path; nothing for any other flavour; status 1 (the reason above) if the
# table does not answer
bench_kernel() {
	local kernels
	kernels=$(python3 "$ROOT/bench/report.py" configs kernels) || return 1
	awk -v f="$1" -v series="$SERIES_BRANCH" -v baseline="$BASELINE_TAG" -v root="$ROOT" '
		$1 == f && $3 != "-" { print ($2 == "series" ? series : baseline) " " root "/" $3 }' <<<"$kernels"
}

# bench_alternatives: the flavours bench_kernel names a patch for
bench_alternatives() {
	python3 "$ROOT/bench/report.py" configs kernels | awk '$3 != "-" { printf "%s%s", s, $1; s = " " } END { print "" }'
}

# kernel_dir FLAVOUR: where the FLAVOUR kernel of CONFIG_BASE is built
kernel_dir() {
	echo "$BUILD/kernel-$1$(config_suffix)"
}

kernel_image() {
	echo "$(kernel_dir "$1")/arch/x86/boot/bzImage"
}

# modules_archive FLAVOUR: the FLAVOUR kernel's modules (scripts/modules.sh),
# which scripts/run-guest.sh appends to its boot: one per CONFIG_BASE, as
# modules load only into the kernel they were built against
modules_archive() {
	echo "$BUILD/modules-$1$(config_suffix).cpio.gz"
}

# config_suffix: what CONFIG_BASE adds to a kernel's directory names
# (nothing for lean, whose kernels keep the names they had before distro)
config_suffix() {
	[ "$CONFIG_BASE" = lean ] || echo "-$CONFIG_BASE"
}

now() {
	date +%s
}

# lock_build: one make test or make bench at a time on this build/ (they
# rebuild shared stages, such as the guest image's staging directory).  A
# second run waits for the first.  The lock (an flock on build/.lock, fd 9)
# is held until the script and everything it started have exited; scripts
# it runs see HOTCOLD_BUILD_LOCK and do not take it again.
lock_build() {
	[ "${HOTCOLD_BUILD_LOCK:-}" = "$BUILD" ] && return 0
	command -v flock >/dev/null || fail "flock missing -- apt-get install util-linux"
	exec 9>"$BUILD/.lock" || fail "cannot open $BUILD/.lock"
	if ! flock -n 9; then
		msg "${BUILD#"$ROOT"/}/ is in use by another make test, make bench or image build (lock: $BUILD/.lock); waiting for it to finish"
		flock 9 || fail "cannot lock $BUILD/.lock"
	fi
	export HOTCOLD_BUILD_LOCK=$BUILD
}

# Hashes of the inputs a build depends on, so reruns can skip work.
hash_files() {
	cat "$@" 2>/dev/null | sha1sum | cut -c1-16
}

# deb_src_lists DIR [TYPES]: write the deb-src twin of every deb entry of
# the machine's apt sources (with TYPES "deb deb-src": the entry and its
# twin), for a private apt state under DIR that fetches from the
# configured Debian mirror without touching the system's: DIR/sources.list
# from the one-line lists (sources.list and sources.list.d/*.list),
# DIR/sources.list.d/system.sources from the deb822 stanzas with "Types:
# deb" (sources.list.d/*.sources).  Prints how many entries (lines and
# stanzas) it wrote.
deb_src_lists() {
	local dir=$1 types=${2:-deb-src} SL='' SP='' f t
	eval "$(apt-config shell SL Dir::Etc::sourcelist/f SP Dir::Etc::sourceparts/d)"
	[ -n "$SP" ] || fail "apt-config names no apt sources -- is apt installed?"
	mkdir -p "$dir/sources.list.d"
	for f in "$SL" "$SP"/*.list; do
		[ -f "$f" ] || continue
		for t in $types; do
			sed -n 's/^[[:space:]]*deb[[:space:]]\{1,\}/'"$t"' /p' "$f"
		done
	done >"$dir/sources.list"
	for f in "$SP"/*.sources; do
		[ -f "$f" ] || continue
		awk -v types="$types" 'BEGIN { RS = ""; FS = "\n" }
		{
			out = ""; deb = 0
			for (i = 1; i <= NF; i++) {
				line = $i
				if (tolower(line) ~ /^types:/) {
					n = split(substr(line, 7), t, /[ \t]+/)
					for (j = 1; j <= n; j++)
						if (t[j] == "deb")
							deb = 1
					line = "Types: " types
				}
				out = out line "\n"
			}
			if (deb)
				printf "%s\n", out
		}' "$f"
	done >"$dir/sources.list.d/system.sources"
	echo $(($(grep -c . "$dir/sources.list") + $(grep -c '^Types: ' "$dir/sources.list.d/system.sources")))
}

# qemu_source DIR LOG WHY: download the source package of the installed
# QEMU (its .dsc, upstream tarball and Debian tarball) from the configured
# Debian mirror into DIR/src, through a private apt state in DIR (the
# deb-src twins of the machine's apt sources); prints its version.  WHY
# says what it is for, in the message before the download.
qemu_source() {
	local dir=$1 log=$2 why=$3 qver opts
	qver=$(dpkg-query -W -f '${source:Version}' qemu-system-x86 2>/dev/null) ||
		fail "qemu-system-x86 is not installed -- run scripts/deps.sh bench"
	rm -rf "$dir"
	mkdir -p "$dir/lists/partial" "$dir/src"
	[ "$(deb_src_lists "$dir")" -gt 0 ] ||
		fail "no deb entry in the apt sources (apt-config dump | grep Dir::Etc) -- configure the Debian mirror for apt"
	opts=(-o "Dir::Etc::SourceList=$dir/sources.list" -o "Dir::Etc::SourceParts=$dir/sources.list.d"
		-o "Dir::State::Lists=$dir/lists" -o Debug::NoLocking=1)
	msg "fetching QEMU $qver's source package for $why (about 24 MB)"
	run_logged "$log" "check the network to the configured Debian mirror (the deb-src twins of the apt sources are in ${dir#"$ROOT"/})" \
		apt-get -q "${opts[@]}" update
	(cd "$dir/src" && apt-get -q "${opts[@]}" source --download-only "qemu=$qver") >>"$log" 2>&1 ||
		fail "apt-get source qemu=$qver failed (log: ${log#"$ROOT"/}) -- the installed QEMU's source must be served by the configured Debian mirror; upgrade qemu-system-x86 if it is older than the archive's" "$log"
	echo "$qver"
}

# The QEMU of make bench's deterministic boots of more than one vCPU:
# Debian's, built from its source package with bench/qemu's turns
# (scripts/qemu.sh); run-guest.sh boots it for --icount with --smp above 1.
# Its stamp's first word is the QEMU version it was built from.
QEMU_TURNS=$BUILD/qemu/qemu-system-x86_64
QEMU_TURNS_STAMP=$BUILD/qemu/stamp

# Reproducible guest images: scripts/initramfs.sh, scripts/programs.sh and
# scripts/disk.sh make the same bytes from the same inputs, so that two
# runs of one kernel and seed boot the same machine.  Every file they hold
# gets this time (2026-01-01 00:00:00 UTC), and owner root.
IMAGE_EPOCH=1767225600

# image_times DIR: DIR and everything under it (symlinks themselves) get
# IMAGE_EPOCH as access and modification time.  Call it after the last
# change under DIR: a change sets its directory's time again.
image_times() {
	find "$1" -exec touch -h -d "@$IMAGE_EPOCH" {} + ||
		fail "cannot set the times of the files under $1"
}

# cpio_image DIR OUT LOG: DIR's files as OUT, a gzipped newc archive (an
# initramfs), the same bytes whenever DIR holds the same names, contents,
# modes and links: names in bytewise order, owner root, IMAGE_EPOCH times,
# inode numbers counted from the archive's start, no device numbers, no
# name or time in the gzip header.  OUT is replaced only by a whole archive.
cpio_image() {
	local dir=$1 out=$2 log=$3

	image_times "$dir"
	(cd "$dir" && find . -print0 | LC_ALL=C sort -z |
		cpio --null -o -H newc --reproducible --owner 0:0 2>>"$log") |
		gzip -1 -n >"$out.tmp" || fail "cpio of $dir failed" "$log"
	mv "$out.tmp" "$out" || fail "cannot write $out"
}

# ext4_image DIR OUT SIZE LABEL UUID HASH_SEED LOG: DIR's files as OUT, a
# new ext4 file system of SIZE (as mke2fs takes it, e.g. 640M), the same
# bytes whenever DIR holds the same names, contents, modes and links: the
# UUID and directory hash seed given, IMAGE_EPOCH as the file system's
# time and as every file's, owner root, each directory's entries added in
# bytewise order.  DIR's names must hold no space, quote or backslash.
ext4_image() {
	local dir=$1 out=$2 size=$3 label=$4 uuid=$5 seed=$6 log=$7 cmds=$2.debugfs

	image_times "$dir"
	rm -f "$out"
	# (LC_ALL=C: mke2fs -d adds a directory's entries in the locale's order)
	run_logged "$log" "check free disk space in $(dirname "$out")" \
		env LC_ALL=C E2FSPROGS_FAKE_TIME="$IMAGE_EPOCH" mke2fs -q -t ext4 -L "$label" \
		-U "$uuid" -E "hash_seed=$seed,root_owner=0:0" -d "$dir" -F "$out" "$size"
	# mke2fs -d copies each file's owner and times, and its change time is
	# when it was staged (touch cannot set that): set them in the image
	(cd "$dir" && find . -mindepth 1 | LC_ALL=C sort) | while IFS= read -r f; do
		case $f in
		*[\"\\[:space:]]*) fail "cannot name '$f' to debugfs (a space, quote or backslash) -- rename it" ;;
		esac
		f=${f#.}
		for t in atime mtime ctime; do
			echo "sif $f $t @$IMAGE_EPOCH"
		done
		echo "sif $f uid 0"
		echo "sif $f gid 0"
	done >"$cmds" || exit 1
	# (debugfs exits 0 when a command fails: its errors are on stderr,
	# after its version line)
	E2FSPROGS_FAKE_TIME=$IMAGE_EPOCH debugfs -w -f "$cmds" "$out" >>"$log" 2>"$cmds.err" ||
		fail "debugfs -w $out failed" "$cmds.err"
	if grep -v '^debugfs [0-9]' "$cmds.err" | grep -q .; then
		cat "$cmds.err" >>"$log"
		fail "debugfs could not set every file's times and owner in $out -- see the errors above" "$log"
	fi
	rm -f "$cmds" "$cmds.err"
}

# Settings: the environment variables a script takes (make bench's ROUNDS,
# QUICK, ...), each checked before the script builds, boots or writes
# anything, so that a bad value fails at once with one line naming the
# setting, its value and the values it takes ("ROUNDS=abc: expected a
# whole number from 1 to 20").  The caller gives an unset or empty setting
# its default first (NAME=${NAME:-DEFAULT}), then checks it:
#   setting_int NAME MIN MAX    a whole number (digits, no leading zero)
#                               from MIN to MAX
#   setting_bool NAME           0 or 1
#   setting_choice NAME WORD... one of the WORDs
#   setting_words NAME WORD...  one or more of the WORDs, each once
#   setting_name NAME MAX       a name for a file or directory: letters,
#                               digits, '.', '_' and '-', starting with a
#                               letter or digit, at most MAX characters
setting_int() {
	local v=${!1-} min=$2 max=$3

	# (no more digits than MAX: test's integers are 64-bit)
	case $v in
	'' | *[!0-9]* | 0?*) ;;
	*) [ ${#v} -le ${#max} ] && [ "$v" -ge "$min" ] && [ "$v" -le "$max" ] && return 0 ;;
	esac
	fail "$1=$v: expected a whole number from $min to $max"
}

setting_bool() {
	setting_choice "$1" 0 1
}

setting_choice() {
	local name=$1 v=${!1-} w

	shift
	for w in "$@"; do
		[ "$v" = "$w" ] && return 0
	done
	fail "$name=$v: expected $(or_list "$@")"
}

setting_words() {
	local name=$1 v=${!1-} w seen=' ' bad=0
	local -a words=()

	shift
	# (words between spaces, as the callers' case " $NAME " patterns see
	# them; read, not $v unquoted: no word is a glob pattern)
	IFS=' ' read -r -d '' -a words < <(printf '%s' "$v") || true
	for w in "${words[@]}"; do
		case " $* " in *" $w "*) ;; *) bad=1 ;; esac
		case $seen in *" $w "*) bad=1 ;; esac
		seen="$seen$w "
	done
	[ "$bad" = 0 ] && [ ${#words[@]} -gt 0 ] && return 0
	fail "$name=$v: expected one or more of: $* (each once)"
}

setting_name() {
	local v=${!1-} max=$2

	# (bash's ranges are ASCII ones: globasciiranges, on since 5.0)
	case $v in
	'' | [!A-Za-z0-9]* | *[!A-Za-z0-9._-]*) ;;
	*) [ ${#v} -le "$max" ] && return 0 ;;
	esac
	fail "$1=$v: expected a name of 1 to $max letters, digits, '.', '_' or '-', starting with a letter or digit"
}

# or_list WORD...: the words for a message, "a", "a or b", "a, b or c"
or_list() {
	local out=$1

	shift
	while [ $# -gt 1 ]; do
		out="$out, $1"
		shift
	done
	[ $# = 0 ] || out="$out or $1"
	echo "$out"
}

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
# kernel's, so vanilla-layout's rounds against vanilla's compare two
# independent layouts of the same code, as any two kernels' rounds do.
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
# the plan's bench_stamp (bench/hcreport/plan.py)
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
