#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Bisectability: build the hotcold kernel config at every step of the
# series and boot it (the boot job), in a worktree of build/linux (build/series-src) checked out at
# each commit in turn.  At the baseline and at every step, the files the
# series touches are also compiled with W=1 and checked with sparse (C=2);
# a warning that the baseline does not have fails the step.  So does a new
# kernel-doc warning (scripts/kernel-doc -none) in the C files and headers
# the series touches, or a new docutils error in its .rst files.  Incremental
# and ccache-backed (the object directory sits inside the worktree, so
# command lines match the other flavours').
#
# usage: scripts/build-series.sh
. "$(dirname "$0")/lib.sh"
step build-series
# (its config() below starts from tinyconfig: the lean base only)
[ "$CONFIG_BASE" = lean ] ||
	fail "CONFIG_BASE=$CONFIG_BASE: scripts/build-series.sh builds on the lean configuration only -- run it with CONFIG_BASE=lean"

"$ROOT/scripts/tree.sh" setup || exit 1
src=$BUILD/series-src
out=$src/.obj-series
log=$LOGS/build-series.log
: >"$log"
if [ ! -d "$src/.git" ] && [ ! -f "$src/.git" ]; then
	git -C "$TREE" worktree prune
	run_logged "$log" "remove build/series-src and retry" \
		git -C "$TREE" worktree add -q --detach "$src" "$BASELINE_TAG"
fi
mkdir -p "$out"
frags=$(flavour_fragments hotcold)

kmake() {
	make -C "$src" -j"$(nproc)" ARCH=x86_64 O="$out" CC="ccache gcc" \
		LOCALVERSION=-series KBUILD_BUILD_TIMESTAMP=2002-10-31 \
		KBUILD_BUILD_USER=hotcold KBUILD_BUILD_HOST=qemu "$@"
}

# the .c files the whole series touches, as objects
objs=$(git -C "$TREE" diff --name-only "$BASELINE_TAG..$SERIES_BRANCH" -- '*.c' |
	grep -v '^tools/' | sed 's/\.c$/.o/')

# the C files and headers, and the .rst files, the whole series touches:
# their kernel-doc comments and reStructuredText are checked at every step
docs_c=$(git -C "$TREE" diff --name-only "$BASELINE_TAG..$SERIES_BRANCH" -- '*.c' '*.h' |
	grep -v '^tools/')
docs_rst=$(git -C "$TREE" diff --name-only "$BASELINE_TAG..$SERIES_BRANCH" -- '*.rst')

# kernel-doc -none on $docs_c and docutils on $docs_rst (the roles and
# directives only Sphinx knows are not errors here), line numbers dropped,
# as a multiset like check_warnings
check_docs() {
	local f have_c='' have_rst=''

	for f in $docs_c; do [ -f "$src/$f" ] && have_c="$have_c $f"; done
	for f in $docs_rst; do [ -f "$src/$f" ] && have_rst="$have_rst $f"; done
	# shellcheck disable=SC2086 # lists of files
	{
		[ -z "$have_c" ] || (cd "$src" && perl scripts/kernel-doc -none -Wall $have_c 2>&1)
		[ -z "$have_rst" ] || (cd "$src" && python3 "$ROOT/scripts/rstcheck.py" $have_rst)
	} | grep -Ei 'warning|error' | sed -E 's/:[0-9]+:/:/g; s/ line [0-9]+/ line N/g' | sort
}

# warnings of W=1 + sparse on $objs, line numbers and quoted names
# dropped (a renamed function keeps its old warnings), as a multiset
check_warnings() {
	# shellcheck disable=SC2046 # lists of object files
	rm -f $(for o in $objs; do echo "$out/$o"; done)
	# shellcheck disable=SC2046 # lists of object files
	kmake W=1 C=2 $(for o in $objs; do [ -f "$src/${o%.o}.c" ] && echo "$o"; done) 2>&1 |
		grep -E ':[0-9]+:[0-9]+: (warning|error):' |
		sed -E "s/:[0-9]+:[0-9]+:/:/; s/'[^']*'/'...'/g" | sort
}

# shellcheck disable=SC2086 # $frags: a list of files
config() {
	kmake tinyconfig &&
	"$src/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" $frags &&
	kmake olddefconfig
}

git -C "$src" checkout -q --detach "$BASELINE_TAG"
config >>"$log" 2>&1 || fail "config of the baseline failed" "$log"
kmake prepare >>"$log" 2>&1 || fail "make prepare of the baseline failed" "$log"
check_warnings >"$BUILD/series-baseline.warn"
echo "baseline: $(wc -l <"$BUILD/series-baseline.warn") W=1/sparse warnings in the touched files"
check_docs >"$BUILD/series-baseline.docwarn"
echo "baseline: $(wc -l <"$BUILD/series-baseline.docwarn") kernel-doc/docutils warnings in the touched files"

n=0
rc=0
total=$(git -C "$TREE" rev-list --count "$BASELINE_TAG..$SERIES_BRANCH")
for c in $(git -C "$TREE" rev-list --reverse "$BASELINE_TAG..$SERIES_BRANCH"); do
	n=$((n + 1))
	subj=$(git -C "$TREE" log -1 --format=%s "$c")
	git -C "$src" checkout -q --detach "$c" ||
		fail "cannot check out $c in build/series-src"
	: >"$log.step"
	t0=$(now)
	{ config && kmake bzImage; } >"$log.step" 2>&1
	ok=$?
	cat "$log.step" >>"$log"
	new=$(check_warnings | comm -23 - "$BUILD/series-baseline.warn")
	newdoc=$(check_docs | comm -23 - "$BUILD/series-baseline.docwarn")
	booted=no
	if [ $ok = 0 ]; then
		cp "$out/arch/x86/boot/bzImage" "$BUILD/series-bzImage"
		HOTCOLD_KERNEL=$BUILD/series-bzImage "$ROOT/scripts/run-guest.sh" \
			--quiet --timeout 120 --tag "series-$n" hotcold boot && booted=yes
	fi
	if [ $ok = 0 ] && [ -z "$new" ] && [ -z "$newdoc" ] && [ $booted = yes ]; then
		echo "ok   $n/$total $subj ($(($(now) - t0)) s, boots, no new W=1/sparse/kernel-doc/docutils warning)"
	elif [ $ok = 0 ] && [ $booted = no ]; then
		echo "FAIL $n/$total $subj: does not boot (build/logs/hotcold-boot-series-$n.log)"
		rc=1
	elif [ $ok = 0 ] && [ -n "$newdoc" ]; then
		echo "FAIL $n/$total $subj: new kernel-doc/docutils warnings:"
		# shellcheck disable=SC2001 # prefixes every line
		echo "$newdoc" | sed 's/^/    /'
		rc=1
	elif [ $ok = 0 ]; then
		echo "FAIL $n/$total $subj: new W=1/sparse warnings:"
		# shellcheck disable=SC2001 # prefixes every line
		echo "$new" | sed 's/^/    /'
		rc=1
	else
		echo "FAIL $n $subj"
		tail -20 "$log.step"
		rc=1
	fi
done
rm -f "$log.step"
[ $rc = 0 ] || fail "a step of the series does not build (log: ${log#"$ROOT"/})" "$log"
