# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash # busybox ash
# One SDET-like "user": a fixed script of everyday shell commands in its
# own directory, repeated until the deadline (/proc/uptime seconds) or for
# a fixed number of scripts.  Prints the number of scripts completed.
# usage: sh sdet.sh DIR DEADLINE [SCRIPTS]
set -u
dir=$1 deadline=$2 max=${3:-0}
n=0
mkdir -p "$dir"
cd "$dir" || exit 1
up() { cut -d' ' -f1 /proc/uptime; }
while :; do
	if [ "$max" -gt 0 ]; then
		[ "$n" -ge "$max" ] && break
	else
		awk -v u="$(up)" -v d="$deadline" 'BEGIN { exit !(u < d) }' || break
	fi
	mkdir -p w && cd w || exit 1
	cp -r /guest/jobs /guest/tests /guest/lib.sh .
	cat jobs/* tests/* lib.sh >all.txt
	grep -c die all.txt >/dev/null
	sort all.txt | uniq -c | sort -rn | head -5 >top.txt
	wc -l all.txt >/dev/null
	sed 's/hot/cold/g' all.txt >cold.txt
	tar cf pack.tar jobs tests lib.sh
	mkdir x && tar xf pack.tar -C x
	ls -lR >ls.txt
	sh -c 'echo $$ >pid.txt; cat pid.txt >/dev/null'
	md5sum all.txt cold.txt >/dev/null
	cd .. && rm -rf w
	n=$((n + 1))
done
echo "$n"
