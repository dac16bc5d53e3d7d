#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build build/initramfs-programs.cpio.gz, the guest archive of real
# programs that the program workloads run (bench/workloads.tsv, kind
# program; guest/jobs/bench.sh), appended to the guest image only by the
# boots that run them (it takes about 100 MB of the guest's RAM):
#
#   a C toolchain   this machine's gcc (driver, cc1, collect2, the LTO
#                   plugin), as, ld and make, the crt files and libgcc,
#                   and only the headers of libc6-dev and linux-libc-dev
#                   (plus gcc's own), at the paths gcc looks for them;
#   a web server    lighttpd, and ab (apache2-utils) as its load
#                   generator: their .deb files fetched with apt-get
#                   download and unpacked here, never installed on this
#                   machine (no service is started);
#   a source tree   pv's (PROGRAM_SOURCE below): a few thousand lines of C
#                   with an autoconf-generated configure, fetched with
#                   apt-get source (the upstream tarball; Debian's patches
#                   are not needed to build it);
#   under pressure  httperf (the file server's load generator) and the
#                   sqlite3 shell, fetched as lighttpd is; GNU tar and gzip
#                   (the backup) from this machine, where Debian always
#                   installs them; and their data, scripts/pressure-data.py's
#                   file set and database as an ext4 image
#                   (/prog/data/pressure.img.gz), its request and query
#                   lists (urls, queries.sql) and sizes;
#
# with every shared library they load, found with ldd.  The shell tools a
# configure needs are the guest's busybox.  Everything is fetched from the
# configured Debian mirror through a private apt state under build/programs
# (the deb and deb-src twins of this machine's apt sources), so the
# system's package lists are neither needed nor changed.  Nothing fetched
# is committed: it all lives in build/.  The archive is reproducible
# (scripts/lib/image.sh's cpio_image): the same files staged give the same bytes.
#
# usage: scripts/programs.sh        (re-fetches only when the list of what
#                                    to fetch changes)
. "$(dirname "$0")/lib.sh"
step programs
lock_build
# (the modes staged are the sources', whatever the caller's umask)
umask 022

# what the guest runs: the web server, the load generators and the
# sqlite3 shell (binary packages), and the source package of the compile
# and configure workloads
WEB_DEBS="lighttpd libxxhash0 apache2-utils libapr1 libaprutil1 httperf sqlite3 libsqlite3-0 libreadline8"
PROGRAM_SOURCE=pv

out=$BUILD/initramfs-programs.cpio.gz
dir=$BUILD/programs
fetch=$dir/fetch
stage=$dir/stage
log=$LOGS/programs.log
: >"$log"

for t in gcc make as ld tar gzip ldd dpkg-deb apt-get bzip2 cpio realpath mke2fs debugfs; do
	command -v "$t" >/dev/null ||
		fail "'$t' not found -- run scripts/deps.sh bench (it installs what make bench needs)"
done

# ---- fetch (once per list) ----
want="$WEB_DEBS source:$PROGRAM_SOURCE"
if [ "$(cat "$fetch/.done" 2>/dev/null)" != "$want" ]; then
	rm -rf "$fetch"
	apt=$fetch/apt
	mkdir -p "$apt/lists/partial" "$fetch/debs" "$fetch/src"
	n=$(deb_src_lists "$apt" "deb deb-src") || exit 1
	[ "$n" -gt 0 ] ||
		fail "no deb entry in the apt sources (apt-config dump | grep Dir::Etc) -- configure the Debian mirror for apt"
	opts=(-o "Dir::Etc::SourceList=$apt/sources.list" -o "Dir::Etc::SourceParts=$apt/sources.list.d"
		-o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache" -o Debug::NoLocking=1)
	msg "fetching $WEB_DEBS and the source of $PROGRAM_SOURCE (about 4 MB) from the configured Debian mirror"
	run_logged "$log" "check the network to the configured Debian mirror (the private apt sources are in ${apt#"$ROOT"/})" \
		apt-get -q "${opts[@]}" update
	# shellcheck disable=SC2086 # a list of packages
	(cd "$fetch/debs" && apt-get -q "${opts[@]}" download $WEB_DEBS) >>"$log" 2>&1 ||
		fail "apt-get download $WEB_DEBS failed (log: ${log#"$ROOT"/}) -- check the network to the configured Debian mirror" "$log"
	(cd "$fetch/src" && apt-get -q "${opts[@]}" source --download-only "$PROGRAM_SOURCE") >>"$log" 2>&1 ||
		fail "apt-get source $PROGRAM_SOURCE failed (log: ${log#"$ROOT"/}) -- the configured Debian mirror must serve deb-src for it" "$log"
	echo "$want" >"$fetch/.done"
fi

# ---- stage ----
rm -rf "$stage"
mkdir -p "$stage/prog/src" "$stage/prog/www" "$stage/prog/etc"

# copy_file PATH: PATH (symlinks resolved) at the same path in the stage
copy_file() {
	mkdir -p "$stage$(dirname "$1")"
	cp -L "$1" "$stage$1" || fail "cannot copy $1 into ${stage#"$ROOT"/}"
}

# the toolchain, at the paths gcc and collect2 look in
# (called in $(...): its callers exit when it fails)
gcc_path() {
	local p
	p=$(gcc "$1")
	[ -e "$p" ] ||
		fail "gcc does not find '$2' ($1 gave '$p') -- is gcc installed whole (apt-get install gcc)?"
	echo "$p"
}
p=$(gcc_path -print-prog-name=cc1 cc1) || exit 1
libexec=$(dirname "$p")
copy_file "$libexec/cc1"
p=$(gcc_path -print-prog-name=collect2 collect2) || exit 1
copy_file "$p"
# the linker plugin gcc hands ld by default, where this gcc has one
for p in lto-wrapper liblto_plugin.so; do
	[ -e "$libexec/$p" ] && copy_file "$libexec/$p"
done
for f in crt1.o Scrt1.o crti.o crtn.o crtbegin.o crtbeginS.o crtend.o crtendS.o \
	libgcc.a libgcc_eh.a libgcc_s.so libgcc_s.so.1 libc.so libc_nonshared.a libm.so libmvec.so; do
	p=$(gcc_path -print-file-name="$f" "$f") || exit 1
	copy_file "$(realpath -s "$p")"
done
# what the linker scripts among them (libc.so, libm.so) name
for f in libc.so libm.so; do
	p=$(gcc_path -print-file-name="$f" "$f") || exit 1
	p=$(realpath -s "$p")
	while read -r l; do
		[ -e "$stage$l" ] || copy_file "$l"
	done < <(grep -o '/[a-z][^ )]*' "$p")
done
# gcc's own headers
gccinc=$(gcc_path -print-file-name=include include) || exit 1
[ -d "$gccinc" ] || fail "gcc's own headers ($gccinc) are not a directory -- is gcc installed whole?"
mkdir -p "$stage$gccinc"
cp -r "$gccinc/." "$stage$gccinc/"
for t in gcc make as ld; do
	p=$(command -v "$t")
	mkdir -p "$stage/usr/bin"
	cp -L "$p" "$stage/usr/bin/$t"
done
# the C library's headers and the kernel's UAPI ones, nothing else of
# /usr/include (the host's has every -dev package it happens to have)
dpkg -L libc6-dev linux-libc-dev >"$dir/headers.list" 2>>"$log" ||
	fail "dpkg -L libc6-dev linux-libc-dev failed -- apt-get install libc6-dev linux-libc-dev" "$log"
while read -r f; do
	[ -f "$f" ] && echo "$f"
done < <(grep '^/usr/include/' "$dir/headers.list") >"$dir/headers.files"
[ -s "$dir/headers.files" ] || fail "libc6-dev installs no header -- apt-get install libc6-dev"
# (tar keeps the symlinks the asm/ directory needs)
tar -cf - -T "$dir/headers.files" 2>>"$log" | tar -xf - -C "$stage" ||
	fail "cannot copy the C headers into ${stage#"$ROOT"/}" "$log"

# the web server and the load generator, unpacked from their packages
rm -rf "$dir/debroot"
for d in "$fetch"/debs/*.deb; do
	dpkg-deb -x "$d" "$dir/debroot" 2>>"$log" || fail "dpkg-deb -x $(basename "$d") failed" "$log"
done
for p in /usr/sbin/lighttpd /usr/bin/ab /usr/bin/httperf /usr/bin/sqlite3; do
	[ -x "$dir/debroot$p" ] || fail "$p is not in the fetched packages ($WEB_DEBS)"
	mkdir -p "$stage$(dirname "$p")"
	cp "$dir/debroot$p" "$stage$p"
done
if [ -d "$dir/debroot/usr/lib/lighttpd" ]; then
	mkdir -p "$stage/usr/lib/lighttpd"
	cp "$dir/debroot/usr/lib/lighttpd/"*.so "$stage/usr/lib/lighttpd/"
fi
rm -rf "$dir/debroot/usr/share" "$dir/debroot/etc"
# the backup's GNU tar and gzip, apart from the guest's busybox applets
mkdir -p "$stage/prog/bin"
for t in tar gzip; do
	cp -L "$(command -v "$t")" "$stage/prog/bin/$t"
done

# the memory-pressure programs' data: the file set and the database as
# an ext4 image, which the guest copies into a loop device's backing
# file (guest/bench/pressure.sh: pressure_up), and the request and query
# lists
rm -rf "$dir/pressure" "$dir/pressure.img"
run_logged "$log" "scripts/pressure-data.py failed (above)" \
	python3 "$ROOT/scripts/pressure-data.py" "$dir/pressure"
pkb=$(du -sk "$dir/pressure/root" | cut -f1)
ext4_image "$dir/pressure/root" "$dir/pressure.img" "$((pkb / 1024 + pkb / 8192 + 24))M" pressure \
	6f746f68-636c-6f64-0000-000000000005 6f746f68-636c-6f64-0000-000000000006 "$log"
mkdir -p "$stage/prog/data"
gzip -1 -n -c "$dir/pressure.img" >"$stage/prog/data/pressure.img.gz" ||
	fail "cannot compress $dir/pressure.img into the stage"
cp "$dir/pressure/urls" "$dir/pressure/queries.sql" "$dir/pressure/sizes" "$stage/prog/data/"
rm -f "$dir/pressure.img"

# the shared libraries of every executable and plugin staged, from the
# unpacked packages first, then this machine
while read -r e; do
	# (ldd fails on what is not a dynamic ELF file: skipped)
	l=$(LD_LIBRARY_PATH=$dir/debroot/usr/lib/x86_64-linux-gnu ldd "$e" 2>/dev/null) || continue
	while read -r line; do
		echo "${e#"$stage"}: $line"
	done <<<"$l"
done < <(find "$stage" -type f \( -perm -u+x -o -name '*.so' -o -name '*.so.*' \) | sort) >"$dir/ldd.out"
if grep -q 'not found' "$dir/ldd.out"; then
	fail "shared libraries not found: $(grep 'not found' "$dir/ldd.out" | awk '{print $2}' | sort -u | tr '\n' ' ')-- install the packages that provide them" "$dir/ldd.out"
fi
while read -r lib; do
	case $lib in
	"$dir"/debroot/*) dest=${lib#"$dir"/debroot} ;;
	*) dest=$lib ;;
	esac
	[ -e "$stage$dest" ] && continue
	mkdir -p "$stage$(dirname "$dest")"
	cp -L "$lib" "$stage$dest" || fail "cannot copy $lib into ${stage#"$ROOT"/}"
done < <(sed 's/^[^:]*: //' "$dir/ldd.out" | grep -o '/[^ ]*\.so[^ ]*' | sort -u)
# the dynamic loader, at the path every executable names
copy_file /lib64/ld-linux-x86-64.so.2

# the source tree (the upstream tarball, unpacked)
orig=$(find "$fetch/src" -maxdepth 1 -name "${PROGRAM_SOURCE}_*.orig.tar.*" \
	! -name '*.asc' ! -name '*.sig' | sort | head -1)
[ -n "$orig" ] || fail "no ${PROGRAM_SOURCE} orig tarball in ${fetch#"$ROOT"/}/src -- see $log" "$log"
tar -xf "$orig" -C "$stage/prog/src" 2>>"$log" || fail "cannot unpack $(basename "$orig")" "$log"
src=$(find "$stage/prog/src" -mindepth 1 -maxdepth 1 -type d | head -1)
[ -x "$src/configure" ] || fail "$(basename "$orig") has no configure script"
mv "$src" "$stage/prog/src/$PROGRAM_SOURCE"

# the toolchain must compile and link a program here from the stage's
# files only (a chroot needs root; instead): the stage's bin alone on
# PATH (as, ld), its libraries for every tool, --sysroot for headers,
# crt files and libraries, -B for cc1, which must then be the stage's;
# the program runs under the stage's loader and libraries
printf '%s\n' '#include <stdio.h>' '#include <math.h>' \
	'int main(void) { printf("%g\n", sqrt(4.0)); return 0; }' >"$dir/hello.c"
libs=$stage/lib/x86_64-linux-gnu:$stage/usr/lib/x86_64-linux-gnu
sgcc=(env PATH="$stage/usr/bin" LD_LIBRARY_PATH="$libs" "$stage/usr/bin/gcc"
	--sysroot="$stage" -B"$stage$libexec/")
p=$("${sgcc[@]}" -print-prog-name=cc1)
[ "$p" = "$stage$libexec/cc1" ] || fail "the staged gcc would run $p, not the stage's cc1"
run_logged "$log" "the staged toolchain cannot build a program (above)" \
	"${sgcc[@]}" -O2 -o "$dir/hello" "$dir/hello.c" -lm
[ "$("$stage/lib64/ld-linux-x86-64.so.2" --library-path "$libs" "$dir/hello")" = 2 ] ||
	fail "the program the staged toolchain built does not run on the stage's libraries ($dir/hello)"

# pv's autoconf cache for the configure that only prepares compile's
# tree (guest/bench/programs.sh: compile_tree, outside any phase: on the
# 8-vCPU shape, some 90 s of every boot under the cache model): the
# answers about the compiler and the C library that the checks would
# compile programs to find, found here with the staged toolchain, which
# is the guest's.  Kept: headers, functions, types and the compiler's
# own properties; left out: tool paths (the guest's are busybox's) and
# this shell's environment.  Checked here: pv configured again from the
# cache must give the same config.h and Makefile as without it (an
# answer a check found by running a program on this kernel, or one the
# filter lost, would show).  The configure workload never reads it.
# pv_configure DIR [CACHE]: pv's configure in DIR with the staged
# toolchain, from CACHE if given
pv_configure() {
	rm -rf "$1"
	cp -a "$stage/prog/src/$PROGRAM_SOURCE" "$1" || fail "cannot copy pv's tree to $1"
	[ -z "${2:-}" ] || cp "$2" "$1/config.cache" || fail "cannot copy $2 to $1"
	(cd "$1" && env PATH="$stage/usr/bin:$PATH" LD_LIBRARY_PATH="$libs" \
		CC="$stage/usr/bin/gcc --sysroot=$stage -B$stage$libexec/" \
		./configure -q --disable-nls -C) >>"$log" 2>&1 ||
		fail "pv's configure with the staged toolchain failed (log: ${log#"$ROOT"/}, $1/config.log)" "$log"
}
cache=$stage/prog/$PROGRAM_SOURCE.config.cache
pv_configure "$dir/pvconf"
grep -E '^ac_cv_(header_|func_|type_|sizeof_|c_|objext=|prog_cc_)' "$dir/pvconf/config.cache" >"$cache"
grep -q '^ac_cv_header_stdlib_h=' "$cache" ||
	fail "pv's configure left no usable cache ($dir/pvconf/config.cache)"
pv_configure "$dir/pvconf-cached" "$cache"
for f in Makefile src/include/config.h; do
	cmp -s "$dir/pvconf/$f" "$dir/pvconf-cached/$f" ||
		fail "pv configured from ${cache#"$stage"} gives another $f than without it (diff $dir/pvconf/$f $dir/pvconf-cached/$f): the cache holds an answer the guest's configure would not give"
done
rm -rf "$dir/pvconf" "$dir/pvconf-cached"
cp -a "$stage/prog/src/$PROGRAM_SOURCE" "$dir/pvconf" || fail "cannot copy pv's tree to $dir/pvconf"
(cd "$dir/pvconf" && env PATH="$stage/usr/bin:$PATH" LD_LIBRARY_PATH="$libs" \
	CC="$stage/usr/bin/gcc --sysroot=$stage -B$stage$libexec/" \
	./configure -q --disable-nls -C) >>"$log" 2>&1 ||
	fail "pv's configure with the staged toolchain failed (log: ${log#"$ROOT"/}, $dir/pvconf/config.log)" "$log"
grep -E '^ac_cv_(header_|func_|type_|sizeof_|c_|objext=|prog_cc_)' "$dir/pvconf/config.cache" \
	>"$stage/prog/$PROGRAM_SOURCE.config.cache"
grep -q '^ac_cv_header_stdlib_h=' "$stage/prog/$PROGRAM_SOURCE.config.cache" ||
	fail "pv's configure left no usable cache ($dir/pvconf/config.cache)"
rm -rf "$dir/pvconf"

cpio_image "$stage" "$out" "$log"
msg "programs: ${out#"$ROOT"/} ($(du -h "$out" | cut -f1); $(du -sh "$stage" | cut -f1) in the guest)"
