#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The kernel tree workflow.  build/linux is a git repository: a "baseline"
# commit (tagged) of the pinned source, and branch "hotcold" with one commit
# per patch of patches/series on top.  patches/ is the source of truth.
#
# usage: scripts/tree.sh setup   create the tree if needed and apply the series
#        scripts/tree.sh sync    setup, or re-apply patches/ if they changed and
#                                the tree holds no unexported work (make test)
#        scripts/tree.sh export  write the branch to patches/ (format-patch)
#        scripts/tree.sh check   fail if patches/ and the tree disagree
#                                (make tree-check)
#        scripts/tree.sh reset   drop tree work, re-apply patches/ from scratch
#        scripts/tree.sh vanilla make build/vanilla-src (a worktree at baseline)
. "$(dirname "$0")/lib.sh"

G() {
	git -C "$TREE" "$@"
}

STATE=$TREE/.git/hotcold-applied

patches_hash() {
	# shellcheck disable=SC2046 # patch names have no spaces
	(cd "$ROOT/patches" && cat series $(grep -v '^#' series 2>/dev/null) 2>/dev/null) |
		sha1sum | cut -c1-16
}

# Debian's .gitignore ignores everything at the top level ("/*"), which
# would hide every file a patch adds from git status and git add.  Drop that
# block (it only matters for Debian's packaging repository); nothing built
# depends on .gitignore.
drop_debian_ignore_all() {
	sed -i '/^# Debian packaging: ignore everything/,/^!\/debian\/$/d' .gitignore
}

extract() {
	step extract
	local log=$LOGS/tree.log tmp=$BUILD/linux.tmp

	[ -f "$SOURCE_TARBALL" ] ||
		fail "$SOURCE_TARBALL not found -- run scripts/source.sh (as root) first"
	: >"$log"
	rm -rf "$tmp"
	mkdir -p "$tmp"
	msg "extracting $SOURCE_TARBALL into build/linux"
	run_logged "$log" "check free disk space in $BUILD (needs ~2 GB)" \
		tar -C "$tmp" --strip-components=1 -xJf "$SOURCE_TARBALL"
	local ver
	ver=$(dpkg-query -W -f='${Version}' "$SOURCE_PKG" 2>/dev/null || echo unknown)
	# Fixed dates and identity: the same tarball always gives the same
	# baseline commit id, so exported patches name the same base-commit
	# on every machine.
	# shellcheck disable=SC2001 # the e-mail address between < and >
	(
		cd "$tmp" &&
		git init -q -b "$SERIES_BRANCH" &&
		git config user.name "${GIT_AUTHOR% <*}" &&
		git config user.email "$(echo "$GIT_AUTHOR" | sed 's/.*<\(.*\)>/\1/')" &&
		git config core.autocrlf false &&
		git config gc.auto 0 &&
		drop_debian_ignore_all &&
		git add -f -A . &&
		echo "/.obj-*/" >>.git/info/exclude &&
		GIT_AUTHOR_DATE=2002-10-31T00:00:00Z \
		GIT_COMMITTER_DATE=2002-10-31T00:00:00Z \
		git commit -q -m "baseline: $SOURCE_PKG $ver" &&
		git tag "$BASELINE_TAG"
	) >>"$log" 2>&1 || fail "git import of the source failed" "$log"
	mv "$tmp" "$TREE"
}

apply_series() {
	step apply
	local log=$LOGS/apply.log p

	: >"$log"
	G checkout -q -B "$SERIES_BRANCH" "$BASELINE_TAG" >>"$log" 2>&1 ||
		fail "cannot check out $BASELINE_TAG in build/linux" "$log"
	[ -f "$ROOT/patches/series" ] || { record_state; return 0; }
	# shellcheck disable=SC2013 # patch names have no spaces
	for p in $(grep -v '^#' "$ROOT/patches/series"); do
		[ -f "$ROOT/patches/$p" ] ||
			fail "patches/series names $p, which does not exist -- fix patches/series"
		if ! G am -q --keep-cr "$ROOT/patches/$p" >>"$log" 2>&1; then
			G am --abort >/dev/null 2>&1
			# let the next sync re-apply once patches/ is fixed
			echo "failed $(G rev-parse HEAD)" >"$STATE"
			grep -E '^(error|Patch failed|patch failed)' "$log" | sed 's/^/  /' >&2
			fail "patches/$p does not apply to $(G log -1 --format=%s "$BASELINE_TAG") (failing hunk above) -- rebase the series onto $SOURCE_PKG $SOURCE_VERSION" "$log"
		fi
	done
	record_state
	msg "applied $(grep -vc '^#' "$ROOT/patches/series") patches"
}

record_state() {
	echo "$(patches_hash) $(G rev-parse HEAD)" >"$STATE"
}

dirty() {
	[ -n "$(G status --porcelain --untracked-files=normal)" ]
}

# Export into directory $1.  Stable: zero commit ids, no signature, fixed
# numbering; the cover letter keeps its hand-written subject and blurb.
export_to() {
	local out=$1 n

	mkdir -p "$out"
	n=$(G rev-list --count "$BASELINE_TAG..$SERIES_BRANCH")
	[ "$n" -gt 0 ] || { : >"$out/series"; return 0; }
	G format-patch -q --zero-commit --no-signature --cover-letter \
		--numbered --subject-prefix="RFC PATCH v3" --base="$BASELINE_TAG" \
		-o "$out" "$BASELINE_TAG..$SERIES_BRANCH" ||
		fail "git format-patch failed in build/linux"
	python3 "$ROOT/scripts/cover-letter.py" "$ROOT/patches/0000-cover-letter.patch" \
		"$out/0000-cover-letter.patch" ||
		fail "could not write the cover letter"
	# shellcheck disable=SC2010 # format-patch's names are plain
	(cd "$out" && ls [0-9][0-9][0-9][0-9]-*.patch | grep -v '^0000-' >series)
}

cmd_setup() {
	[ -d "$TREE/.git" ] || extract
	if ! G rev-parse -q --verify "refs/tags/$BASELINE_TAG" >/dev/null; then
		fail "build/linux has no $BASELINE_TAG tag -- remove build/linux and rerun"
	fi
	[ -f "$STATE" ] || apply_series
}

cmd_sync() {
	cmd_setup
	step sync
	local hash head
	read -r hash head <"$STATE"
	if [ "$hash" = "$(patches_hash)" ]; then
		if [ "$(G rev-parse HEAD)" != "$head" ] || dirty; then
			msg "note: build/linux has work not in patches/ (testing the tree as it is); 'make export' before committing"
		fi
		return 0
	fi
	# patches/ changed (new checkout, pull): re-apply unless the tree holds
	# work that exists nowhere else.
	if [ "$(G rev-parse HEAD)" != "$head" ] || dirty; then
		fail "patches/ changed and build/linux holds work not in patches/ -- 'make export' it first, or 'make tree-reset' to discard it"
	fi
	apply_series
}

cmd_export() {
	cmd_setup
	step export
	dirty && fail "build/linux has uncommitted edits -- commit them (git -C build/linux commit) first"
	local tmp
	tmp=$(mktemp -d)
	export_to "$tmp"
	rm -f "$ROOT"/patches/[0-9][0-9][0-9][0-9]-*.patch
	cp "$tmp"/* "$ROOT/patches/"
	rm -rf "$tmp"
	record_state
	msg "exported $(wc -l <"$ROOT/patches/series") patches to patches/"
}

cmd_check() {
	cmd_setup
	step check
	if dirty; then
		G status --short | head -20 >&2
		fail "build/linux has uncommitted edits -- commit them and run 'make export'"
	fi
	local tmp rc=0
	tmp=$(mktemp -d)
	export_to "$tmp"
	if ! diff -r -q -x 0000-cover-letter.patch "$tmp" "$ROOT/patches" \
		-x '*.txt' >/dev/null 2>&1 ||
		! diff -q <(grep -v -e '^Date:' -e '^From ' "$tmp/0000-cover-letter.patch" 2>/dev/null) \
			<(grep -v -e '^Date:' -e '^From ' "$ROOT/patches/0000-cover-letter.patch" 2>/dev/null) >/dev/null; then
		diff -r -u "$ROOT/patches" "$tmp" 2>&1 | head -40 >&2
		rc=1
	fi
	rm -rf "$tmp"
	[ $rc = 0 ] || fail "patches/ and build/linux disagree -- 'make export' to write the tree to patches/, or 'make tree-reset' to drop tree work"
	msg "patches/ and build/linux agree ($(G rev-list --count "$BASELINE_TAG..$SERIES_BRANCH") commits)"
}

cmd_reset() {
	cmd_setup
	G reset -q --hard >/dev/null 2>&1
	G clean -q -fd >/dev/null 2>&1
	apply_series
}

cmd_vanilla() {
	cmd_setup
	step vanilla-src
	local want have
	want=$(G rev-parse "$BASELINE_TAG")
	have=$(git -C "$VANILLA_SRC" rev-parse HEAD 2>/dev/null || true)
	[ "$want" = "$have" ] && return 0
	rm -rf "$VANILLA_SRC"
	G worktree prune
	run_logged "$LOGS/tree.log" "remove build/vanilla-src and retry" \
		git -C "$TREE" worktree add -q --detach "$VANILLA_SRC" "$BASELINE_TAG"
}

# alt NAME: build/NAME-src, a worktree of the series or of the baseline
# with NAME's patch under bench/alternatives/ applied on top (both from
# bench/configs.tsv: lib.sh's bench_kernel): a bench-only kernel, never
# part of patches/
cmd_alt() {
	local name=${1:-} alt base patch want have src
	step "alt-src $name"
	alt=$(bench_kernel "$name") ||
		fail "bench/configs.tsv: the configuration table does not answer (above) -- fix it"
	[ -n "$alt" ] ||
		fail "unknown bench alternative '$name' -- alternatives are (bench/configs.tsv's kernels with a patch): $(bench_alternatives)"
	base=${alt%% *} patch=${alt#* }
	cmd_setup
	step "alt-src $name"
	[ -f "$patch" ] || fail "no ${patch#"$ROOT"/} -- restore it from git"
	src=$BUILD/$name-src
	want="$(G rev-parse "$base") $(sha1sum <"$patch" | cut -c1-16)"
	have=$(cat "$src/.hotcold-alt" 2>/dev/null || true)
	[ "$want" = "$have" ] && return 0
	rm -rf "$src"
	G worktree prune
	run_logged "$LOGS/tree.log" "remove build/$name-src and retry" \
		git -C "$TREE" worktree add -q --detach "$src" "$base"
	run_logged "$LOGS/tree.log" "rebase ${patch#"$ROOT"/} onto its base (bench/configs.tsv)" \
		git -C "$src" apply --index "$patch"
	echo "$want" >"$src/.hotcold-alt"
}

case ${1:-} in
setup | sync | export | check | reset | vanilla) "cmd_$1" ;;
alt) cmd_alt "${2:-}" ;;
*) echo "usage: $0 setup|sync|export|check|reset|vanilla|alt NAME" >&2; exit 2 ;;
esac
