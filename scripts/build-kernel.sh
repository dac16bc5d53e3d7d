#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build one kernel flavour into build/kernel-<flavour> with ccache.
#   vanilla  the baseline commit (build/vanilla-src), no patches
#   hotcold  the series (build/linux) with its KUnit suite: the test kernel
#   hotcold-bench  the same source without any test code: the kernel
#            make bench measures against vanilla
#   debug    the series plus configs/debug.config, with the suite
#   single, nopcp, layout, power, rule-*  bench-only kernels: a patch under
#            bench/alternatives/ on the series or the baseline, as
#            bench/configs.tsv says (scripts/tree.sh alt)
# Config (CONFIG_BASE, lib.sh): tinyconfig + configs/base.config (lean, the
# default) or Debian's configuration with its modules off +
# configs/distro.config (distro: scripts/distro-config.sh); + configs/kunit.config
# for the test flavours, KUNIT_FLAVOURS in lib.sh; + configs/debug.config;
# then olddefconfig, then a check that every option of the fragments
# survived, and on distro scripts/distro-check.py (every mm, cgroup, init,
# scheduler and hardening option that differs from Debian's is one a
# fragment explains).  Rebuilds are incremental.
#
# LAYOUT_PAD="D,B,M,P D,B,M,P ..." (make bench's layout per round, set
# by scripts/bench.sh): link the kernel again with bench/layout-pad.h
# forced into each object of scripts/lib/bench.sh's LAYOUT_POINTS, one group of four
# numbers per object, in that order: the cache lines (0-63) its .data,
# .bss, __read_mostly data and per-CPU data grow by, which moves
# everything linked after it.  Only those objects are compiled again,
# and only bzImage is made.  The next build without it compiles them as
# before and links the kernel as built.
#
# usage: [LAYOUT_PAD="D,B,M,P ..."] scripts/build-kernel.sh FLAVOUR [extra make targets]
. "$(dirname "$0")/lib.sh"
step "build"

flavour=${1:-}
[ -n "$flavour" ] || fail "usage: scripts/build-kernel.sh FLAVOUR -- FLAVOUR is one of: $FLAVOURS"
check_flavour "$flavour"
shift
pad=()
if [ -n "${LAYOUT_PAD:-}" ]; then
	cflags=$(layout_cflags "$LAYOUT_PAD") ||
		fail "LAYOUT_PAD='$LAYOUT_PAD': expected $(wc -w <<<"$LAYOUT_POINTS") groups D,B,M,P (one per object of scripts/lib/bench.sh's LAYOUT_POINTS: $LAYOUT_POINTS) of cache lines from 0 to 63"
	mapfile -t pad <<<"$cflags"
fi
step "build $flavour"

log=$LOGS/build-$flavour$(config_suffix).log
: >"$log"

# a bench-only kernel: bench/configs.tsv names its patch
alt=$(bench_kernel "$flavour") ||
	fail "bench/configs.tsv: the configuration table does not answer (above) -- fix it"
if [ "$flavour" = vanilla ]; then
	"$ROOT/scripts/tree.sh" vanilla || exit 1
	src=$VANILLA_SRC
elif [ -n "$alt" ]; then
	"$ROOT/scripts/tree.sh" alt "$flavour" || exit 1
	src=$BUILD/$flavour-src
else
	[ -d "$TREE/.git" ] || "$ROOT/scripts/tree.sh" setup || exit 1
	src=$TREE
fi

# The objects live in <source>/.obj-<flavour>[-distro] (git-ignored there)
# and build/kernel-<flavour>[-distro] (kernel_dir) links to them.  A build directory directly inside
# its source tree makes the kernel use srctree=".." instead of an absolute
# path, so vanilla and hotcold compile with identical command lines and
# share ccache hits for every file the series does not touch.
out=$src/.obj-$flavour$(config_suffix)
mkdir -p "$out"
ln -sfn "${out#"$BUILD"/}" "$(kernel_dir "$flavour")"

frags=$(flavour_fragments "$flavour")

# Fixed build identity: same inputs, same objects (and ccache hits).
kmake() {
	make -C "$src" -j"$(nproc)" ARCH=x86_64 O="$out" CC="ccache gcc" \
		LOCALVERSION="-$flavour" KBUILD_BUILD_TIMESTAMP=2002-10-31 KBUILD_BUILD_VERSION=1 \
		KBUILD_BUILD_USER=hotcold KBUILD_BUILD_HOST=qemu "$@"
}

# The config is regenerated when a fragment or the Kconfig files change
# (on distro: or Debian's version, or how its configuration is assembled).
stamp=$out/.hotcold-config-stamp
# shellcheck disable=SC2086 # a list of files
want=$( (cat $frags; find "$src" -name 'Kconfig*' -not -path '*/.obj-*' | sort |
	xargs cat; [ "$CONFIG_BASE" = lean ] ||
	echo "$CONFIG_BASE $DISTRO_CONFIG_PKG $SOURCE_VERSION $(cat "$ROOT/scripts/distro-config.sh")") |
	sha1sum | cut -c1-16)
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ] || [ ! -f "$out/.config" ]; then
	if [ "$CONFIG_BASE" = distro ]; then
		# shellcheck disable=SC2086 # a list of files
		"$ROOT/scripts/distro-config.sh" "$src" "$out" $frags || exit 1
	else
		run_logged "$log" "see the log" kmake tinyconfig
		# shellcheck disable=SC2086 # a list of files
		run_logged "$log" "fix the config fragments in configs/" \
			"$src/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" $frags
	fi
	run_logged "$log" "fix the config fragments in configs/" kmake olddefconfig
	# Every option asked for must have survived (tinyconfig's SLUB_TINY
	# silently drops KASAN, for one).
	lost=
	for f in $frags; do
		while IFS= read -r line; do
			case $line in
			CONFIG_*=n) sym=${line%%=*}
				grep -q "^$sym=" "$out/.config" && lost="$lost $line" ;;
			CONFIG_*=*) grep -qx "$line" "$out/.config" || lost="$lost $line" ;;
			esac
		done <"$f"
	done
	[ -z "$lost" ] || fail "options lost by olddefconfig:$lost -- add their dependencies to the fragment" "$log"
	if [ "$CONFIG_BASE" = distro ]; then
		# shellcheck disable=SC2086 # a list of files
		python3 "$ROOT/scripts/distro-check.py" --srctree "$src" "$DISTRO_CONFIG" "$out/.config" \
			$frags >>"$log" ||
			fail "the $flavour kernel's configuration differs from Debian's where no fragment says why (above; the whole comparison: ${log#"$ROOT"/}) -- set the option in configs/distro.config with its reason, or add a '# distro-check: allows' line"
	fi
	echo "$want" >"$stamp"
fi

t0=$(now)
if [ ${#pad[@]} -gt 0 ]; then
	msg "linking $flavour kernel with layout pads $LAYOUT_PAD (log: ${log#"$ROOT"/})"
	run_logged "$log" "fix the build error above" kmake "${pad[@]}" bzImage "$@"
	msg "$flavour kernel linked in $(($(now) - t0)) s"
	exit 0
fi
msg "building $flavour kernel (log: ${log#"$ROOT"/})"
# "modules" too: no module is configured, but it writes Module.symvers,
# which the benchmark module (bench/module) builds against.
run_logged "$log" "fix the build error above" kmake bzImage modules "$@"
msg "$flavour kernel built in $(($(now) - t0)) s: ${out#"$ROOT"/}/arch/x86/boot/bzImage"
