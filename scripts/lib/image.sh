# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# shellcheck disable=SC2034 # the names set here are for the scripts that source lib.sh
# Build inputs and images (sourced by scripts/lib.sh, whose ROOT, BUILD,
# msg, fail and run_logged it uses): input hashes, the Debian sources
# and QEMU's, and the reproducible guest and disk images.

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
