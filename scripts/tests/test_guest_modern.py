# SPDX-License-Identifier: GPL-2.0
"""Unit tests of the modern family (guest/bench/modern.sh and its
machinery, guest/bench/reclaim.sh) on the host: each workload runs under
busybox's sh (the guest's shell; else the host's sh) against a stand-in
/sys and /proc of plain files (HOTCOLD_SYS, HOTCOLD_PROC) and stand-in
programs (sqlite3, httperf, appcompact, swapon, taskset...) whose hooks
move the counters as the kernel would.  Every failure the workloads check
is planted once and its message watched; the real helper
(guest/src/appcompact.c) is built with gcc and run against a child.

The scripts run as root in the guest and would act on the host here, so
each run is deny-by-default (Sandbox.run_call): (1) run by root, the
shell drops to nobody with no capabilities (setpriv), so a write to the
host's /proc, /sys or /dev, swapon, mount, taskset of another's thread
or a kill of another's process is refused; (2) every busybox applet not
in ALLOWED is a shell function that fails naming itself (busybox's sh
runs its applets whatever PATH says) and PATH holds only the stubs and
ALLOWED; (3) a refusal or an applet reached fails the test, whatever the
workload made of it; (4) SYS, PROC and M_TMP must be the stand-ins.
The Guard class plants each."""
import os
import re
import shutil
import stat
import subprocess
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUSYBOX = shutil.which("busybox")
SHELL = [BUSYBOX, "sh"] if BUSYBOX else ["sh"]
# the commands the workloads and the stubs may run besides the stubs:
# files and text only
ALLOWED = "awk cat cut dd grep head mkdir mkfifo mv rm rmdir sed seq sh sleep tail tr wc".split()
# setpriv's drop to nobody, no capabilities, for a run by root
NOBODY = 65534
DROP = ["setpriv", "--reuid=%d" % NOBODY, "--regid=%d" % NOBODY, "--clear-groups",
        "--inh-caps=-all", "--bounding-set=-all", "--no-new-privs", "--"]
# what the host said when the guard refused, or an applet not stubbed
REFUSED = re.compile(r"^.*(test: .* reached|Permission denied|Operation not permitted|"
                     r"Read-only file system|not found|not the stand-in).*$", re.M)
LIMIT = 16 << 20        # pressure.sh's SQLITE_ROOM in bytes
STEP = 33554432 * 956 // 10000 // 4096 * 4096   # Senpai's step of a 32 MB hc-bg

STUBS = {
    "phase": 'echo "phase $1" >>"$STUB/log"; [ "$1" = end ] || sleep 0.05\n',
    "bump": "# bump FILE KEY N: KEY's value in FILE (vmstat's format) raised by N\n"
            "awk -v k=\"$2\" -v n=\"$3\" '$1 == k { $2 += n } { print }' \"$1\" >\"$1.new\" &&"
            " mv \"$1.new\" \"$1\"\n",
    "grow": "# grow FILE N: the number in FILE (memory.swap.current's format) raised by N\n"
            "read -r v <\"$1\"; echo $((v + $2)) >\"$1\"\n",
    "sqlite3": '[ ! -f "$STUB/hook.sqlite3" ] || . "$STUB/hook.sqlite3"\n'
               '[ -z "${STUB_SQLITE_FAIL:-}" ] || { echo "Error: database disk image is malformed" >&2; exit 1; }\n'
               'n=0\nwhile read -r l; do n=$((n + 1)); [ "$n" = "${STUB_SQLITE_DROP:-0}" ] || echo "row $n"; done\n',
    "httperf": '[ ! -f "$STUB/hook.httperf" ] || . "$STUB/hook.httperf"\n'
               'for a; do case $a in --num-conns=*) n=${a#*=} ;; esac; done\n'
               'r=$n; [ -z "${STUB_HTTPERF_SHORT:-}" ] || r=$((n - 1))\n'
               'echo "Total: connections $n requests $n replies $r test-duration 0.250 s"\n'
               'echo "Reply status: 1xx=0 2xx=$r 3xx=0 4xx=0 5xx=0"\n'
               'echo "Errors: total ${STUB_HTTPERF_ERRORS:-0} client-timo 0 socket-timo 0"\n',
    "appcompact": 'case $1 in\n'
                  'app) echo ready; while read -r l; do\n'
                  '  [ -z "${STUB_APP_BAD:-}" ] || { echo "bad page 7"; exit 1; }; echo ok; done ;;\n'
                  'compact) [ ! -f "$STUB/hook.compact" ] || . "$STUB/hook.compact"\n'
                  '  [ -z "${STUB_COMPACT_FAIL:-}" ] || { echo "appcompact compact: process_madvise(MADV_PAGEOUT):'
                  ' Invalid argument" >&2; exit 1; }\n'
                  '  echo "${STUB_COMPACT_SAYS:-anon_kb=${STUB_ANON_KB:-8192} file_kb=100'
                  ' skipped=${STUB_SKIPPED:-0} skipped_kb=0}" ;;\nesac\n',
    "mkswap": "exit 0\n",
    "swapon": '[ -z "${STUB_SWAPON_FAIL:-}" ] || exit 1\n'
              'echo "$1 partition 131068 0 -2" >>"$HOTCOLD_PROC/swaps"\n',
    "swapoff": 'grep -v "^$1 " "$HOTCOLD_PROC/swaps" >"$STUB/swaps"; mv "$STUB/swaps" "$HOTCOLD_PROC/swaps"\n',
    "pidof": "echo 4242\n",
    "nproc": 'echo "${STUB_NPROC:-2}"\n',
    "taskset": 'echo "taskset $*" >>"$STUB/log"\n'
               'if [ "$1" = -p ] && [ $# = 2 ]; then echo "pid $2\'s current affinity mask: $(cat "$STUB/mask")"\n'
               'elif [ "$1" = -p ]; then\n'
               '  [ -z "${STUB_TASKSET_REFUSE:-}" ] || { echo "taskset: failed to set pid $3\'s affinity" >&2; exit 1; }\n'
               '  echo "$2" >"$STUB/mask"\n'
               'else shift 2; exec "$@"; fi\n',
}

DRIVER = """set -u
export PATH="%(d)s/bin:%(d)s/allowed" HOTCOLD_SYS=%(d)s/sys HOTCOLD_PROC=%(d)s/proc HOTCOLD_TMP=%(d)s/tmp STUB=%(d)s
%(deny)s
. %(root)s/guest/lib.sh
SHAPE= B=%(d)s/bin N=2
. %(root)s/guest/bench/programs.sh
. %(root)s/guest/bench/pressure.sh
PDATA=%(d)s/data
. %(root)s/guest/bench/reclaim.sh
. %(root)s/guest/bench/modern.sh
M_DB=%(d)s/data/bench.db
M_SCAN_KB=64
prog_check() { :; }
pressure_mount() { :; }
pressure_up() { echo "balloon $1" >>"$STUB/log"; }
pressure_release() { :; }
compile_tree() { :; }
compile_one() { [ ! -f "$STUB/hook.compile" ] || . "$STUB/hook.compile"; mkdir -p "$1"; return "${STUB_COMPILE_RC:-0}"; }
web_up() { WEB_PID=lighttpd; }
web_down() { echo web_down >>"$STUB/log"; }
%(stubs)s
[ "$SYS,$PROC,$M_TMP" = "%(d)s/sys,%(d)s/proc,%(d)s/tmp" ] ||
	{ echo "test: SYS, PROC or M_TMP not the stand-in: $SYS $PROC $M_TMP" >&2; exit 99; }
%(call)s
"""
# the stubs as functions: busybox's sh runs its own applets (taskset,
# swapon, mkswap, pidof, nproc) before anything on PATH, and those would
# act on the host
STUB_FUNCTIONS = "\n".join('%s() { "$STUB/bin/%s" "$@"; }' % (n, n)
                           for n in ("mkswap", "swapon", "swapoff", "taskset", "pidof", "nproc"))
# every other applet (mount, losetup, renice, sysctl, kill, swapon...):
# a function that fails naming itself (a function comes before an applet
# or a regular builtin; names that are no shell names are left to (1))
APPLETS = (subprocess.run([BUSYBOX, "--list"], capture_output=True, text=True).stdout.split()
           if BUSYBOX else [])
DENY_FUNCTIONS = "\n".join('%s() { echo "test: %s $* reached: no stub, it would run on the host" >&2;'
                            ' return 127; }' % (n, n) for n in APPLETS
                            if re.fullmatch(r"[a-z_][a-z0-9_]*", n) and n not in ALLOWED
                            and n not in ("sh", "ash", "echo", "printf", "test", "true", "false"))

VMSTAT = ("allocstall_normal allocstall_movable pgscan_kswapd pgscan_direct pgsteal_kswapd "
          "pgsteal_direct pgsteal_anon pgsteal_file workingset_refault_anon "
          "workingset_refault_file pswpin pswpout zswpin zswpout").split()
MEMSTAT = "anon file pgscan pgsteal pgscan_direct pgsteal_direct workingset_refault_anon " \
          "workingset_refault_file zswpin zswpout".split()


class Sandbox(unittest.TestCase):
    """A stand-in guest: /sys/fs/cgroup with hc-fg and hc-bg as a kernel
    with memcg makes them, zram0, zswap's switch, /proc/vmstat and
    /proc/swaps, 64 statements and 64 request paths, the stubs."""

    def setUp(self):
        self.d = tempfile.mkdtemp(prefix="hotcold-modern.")
        self.addCleanup(shutil.rmtree, self.d, True)
        cg = self.path("sys/fs/cgroup")
        self.write("sys/fs/cgroup/cgroup.controllers", "cpuset cpu io memory pids\n")
        for f in ("cgroup.subtree_control", "cgroup.procs"):
            self.write("sys/fs/cgroup/" + f, "")
        for c in ("hc-fg", "hc-bg"):
            files = {"memory.high": "max", "memory.max": "max", "memory.current": "33554432",
                     "memory.swap.current": "0",
                     "memory.reclaim": "", "cgroup.procs": "", "memory.zswap.writeback": "1",
                     "memory.stat": "".join("%s 0\n" % k for k in MEMSTAT),
                     "memory.events": "low 0\nhigh 0\nmax 0\noom 0\noom_kill 0\n"}
            for f, v in files.items():
                self.write(os.path.join(cg, c, f), v + ("\n" if v and not v.endswith("\n") else ""))
        self.write("sys/block/zram0/disksize", "0\n")
        self.write("sys/block/zram0/mm_stat", "0 0 0 0 0 0 0 0 0\n")
        self.write("sys/block/zram0/reset", "")
        self.write("sys/module/zswap/parameters/enabled", "N\n")
        self.write("proc/vmstat", "nr_free_pages 1000\n" + "".join("%s 0\n" % k for k in VMSTAT))
        self.write("proc/swaps", "Filename Type Size Used Priority\n")
        self.write("data/queries.sql", "".join("select %d;\n" % i for i in range(64)))
        self.write("data/urls", "".join("/%04d.html\0" % i for i in range(64)))
        self.write("data/sizes", "files=64 www_kb=640 rows=64 db_kb=1024 requests=64 queries=64\n")
        with open(self.path("data/bench.db"), "wb") as f:
            f.write(b"x" * (64 << 10) * 16)
        self.write("mask", "3\n")
        os.makedirs(self.path("tmp"))
        for name, body in STUBS.items():
            self.write("bin/" + name, "#!/bin/sh\n" + body)
            os.chmod(self.path("bin/" + name), 0o755)
        os.makedirs(self.path("allowed"))
        for name in ALLOWED:
            os.symlink(shutil.which(name), self.path("allowed/" + name))

    def path(self, rel):
        return os.path.join(self.d, rel)

    def write(self, rel, text):
        p = self.path(rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "w") as f:
            f.write(text)

    def read(self, rel):
        with open(self.path(rel)) as f:
            return f.read()

    def hook(self, prog, *bumps):
        """PROG, when it runs, moves the counters: (FILE, KEY, N) a
        counter of vmstat's format, (FILE, N) a file of one number"""
        self.write("hook." + prog, "".join('bump "%s" %s %d\n' % (self.path(b[0]), b[1], b[2])
                                           if len(b) == 3 else
                                           'grow "%s" %d\n' % (self.path(b[0]), b[1])
                                           for b in bumps))

    def plant(self, rel, target):
        """a kernel file replaced by a symlink (/dev/full: every write
        fails, as a refused one; /dev/null: written, reads nothing)"""
        os.remove(self.path(rel))
        os.symlink(target, self.path(rel))

    def run_raw(self, call, **env):
        """CALL in the stand-in guest, unprivileged (root: as nobody)"""
        e = dict(os.environ, **{k: str(v) for k, v in env.items()})
        drop = []
        if os.geteuid() == 0:
            if not shutil.which("setpriv"):
                self.fail("refusing to run the guest scripts as root without setpriv "
                          "(util-linux): they would act on the host")
            drop = DROP
            for top, dirs, files in os.walk(self.d):
                for n in [top] + [os.path.join(top, f) for f in dirs + files]:
                    os.lchown(n, NOBODY, NOBODY)
        return subprocess.run(drop + SHELL + ["-c", DRIVER % {
            "d": self.d, "root": ROOT, "call": call, "stubs": STUB_FUNCTIONS,
            "deny": DENY_FUNCTIONS}], capture_output=True, text=True, env=e, timeout=60,
            cwd=self.d)

    def assert_guarded(self, p):
        """nothing the guard refused, no applet without a stub reached"""
        said = [m.group(0) for m in REFUSED.finditer(p.stdout + p.stderr)]
        if said:
            self.fail("the guest scripts reached the host: " + " | ".join(said))

    def run_call(self, call, **env):
        p = self.run_raw(call, **env)
        self.assert_guarded(p)
        return p

    def assert_ok(self, p, metric, ops):
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertIn(metric + "=", p.stdout)
        self.assertIn("ops=%d" % ops, p.stdout)

    def assert_fails(self, p, says):
        self.assertNotEqual(p.returncode, 0, p.stdout)
        self.assertIn(says, p.stdout)
        print("\n    planted: %s" % [x for x in p.stdout.splitlines() if says in x][0])


FG = "sys/fs/cgroup/hc-fg/"
BG = "sys/fs/cgroup/hc-bg/"


class Limit(Sandbox):
    def sqlite(self, how="high", n=64, **env):
        return self.run_call("limit_sqlite limit_%s_sqlite %s %d" % (how, how, n), **env)

    def reclaims(self):
        self.hook("sqlite3", (FG + "memory.stat", "pgsteal", 100), (FG + "memory.events", "high", 3),
                  ("proc/vmstat", "pgsteal_direct", 100))

    def test_high_reclaims_and_reports(self):
        self.reclaims()
        p = self.sqlite()
        self.assert_ok(p, "queries_per_s", 64)
        self.assertEqual(self.read(FG + "memory.high").strip(), str(LIMIT))
        self.assertIn("memory", self.read("sys/fs/cgroup/cgroup.subtree_control"))
        self.assertIn("hotcold-reclaim limit_high_sqlite hc-fg pgscan=0 pgsteal=100 ", p.stderr)
        self.assertIn("events_high=3", p.stderr)
        self.assertIn("pgsteal_direct=100", p.stderr)

    def test_max(self):
        self.reclaims()
        self.assert_ok(self.sqlite("max"), "queries_per_s", 64)
        self.assertEqual(self.read(FG + "memory.max").strip(), str(LIMIT))

    def test_no_memory_controller(self):
        self.write("sys/fs/cgroup/cgroup.controllers", "cpu io pids\n")
        self.assert_fails(self.sqlite(), "no memory controller in %s/sys/fs/cgroup/cgroup.controllers "
                          "(CONFIG_MEMCG)" % self.d)

    def test_limit_file_missing(self):
        os.remove(self.path(FG + "memory.high"))
        self.assert_fails(self.sqlite(), "no %s/%smemory.high (no memcg in this kernel: CONFIG_MEMCG)"
                          % (self.d, FG))

    def test_limit_refused(self):
        self.plant(FG + "memory.max", "/dev/full")
        self.assert_fails(self.sqlite("max"), "memory.max refused '%d' (No space left on device)" % LIMIT)

    def test_limit_ignored(self):
        self.plant(FG + "memory.high", "/dev/null")
        self.assert_fails(self.sqlite(), "memory.high reads '' after '%d' was written" % LIMIT)

    def test_cgroup_refuses_the_process(self):
        self.plant(FG + "cgroup.procs", "/dev/full")
        self.assert_fails(self.sqlite(), "hc-fg/cgroup.procs refused")

    def test_limit_without_reclaim(self):
        self.assert_fails(self.sqlite(), "memory.high made no reclaim in hc-fg (memory.stat's pgsteal "
                          "did not move)")

    def test_oom_kill(self):
        self.hook("sqlite3", (FG + "memory.events", "oom_kill", 1), (FG + "memory.stat", "pgsteal", 1))
        self.assert_fails(self.sqlite("max"), "the OOM killer ran in hc-fg (1 kills)")

    def test_program_fails(self):
        self.reclaims()
        self.assert_fails(self.sqlite(STUB_SQLITE_FAIL=1), "sqlite3 failed on step 0: Error: database "
                          "disk image is malformed")

    def test_program_answers_short(self):
        self.reclaims()
        self.assert_fails(self.sqlite(STUB_SQLITE_DROP=5), "sqlite3 answered 63 of 64 statements")

    def test_more_statements_than_the_list(self):
        self.assert_fails(self.sqlite(n=80), "80 of the 64 lines of %s/data/queries.sql asked for"
                          % self.d)

    def test_compile(self):
        self.hook("compile", (FG + "memory.stat", "pgsteal", 50), ("proc/vmstat", "pswpout", 10))
        p = self.run_call("limit_compile limit_high_compile 1")
        self.assert_ok(p, "builds_per_hour", 1)
        self.assertEqual(self.read(FG + "memory.high").strip(), str(32 << 20))
        self.assertIn("pswpout=10", p.stderr)
        # zram set up, then taken down
        self.assertEqual(self.read("sys/block/zram0/disksize").strip(), str(128 << 20))
        self.assertNotIn("zram0", self.read("proc/swaps"))

    def test_compile_fails(self):
        self.assert_fails(self.run_call("limit_compile limit_high_compile 1", STUB_COMPILE_RC=1),
                          "build 1 of 1 failed")

    def test_no_zram(self):
        shutil.rmtree(self.path("sys/block/zram0"))
        self.assert_fails(self.run_call("limit_compile limit_high_compile 1"),
                          "no %s/sys/block/zram0/disksize (CONFIG_ZRAM)" % self.d)

    def test_swapon_fails(self):
        self.assert_fails(self.run_call("limit_compile limit_high_compile 1", STUB_SWAPON_FAIL=1),
                          "cannot swap on /dev/zram0")


class Proactive(Sandbox):
    def serve(self, **env):
        return self.run_call("proactive_fileserver proactive_fileserver 64", **env)

    def test_steps_reclaim_the_background(self):
        self.hook("httperf", (BG + "memory.stat", "pgsteal", 10))
        p = self.serve()
        self.assert_ok(p, "requests_per_s", 64)
        self.assertEqual(self.read(BG + "memory.reclaim").strip(), str(STEP))
        self.assertIn("hotcold-reclaim proactive_fileserver global steps=16 asked_kb=%d short_steps=0 "
                      % (16 * STEP // 1024), p.stderr)
        self.assertIn("hotcold-reclaim proactive_fileserver hc-bg pgscan=0 pgsteal=160", p.stderr)
        self.assertIn("web_down", self.read("log"))

    def test_controller_finds_no_memory_reclaim(self):
        os.remove(self.path(BG + "memory.reclaim"))
        self.assert_fails(self.serve(), "the controller: no %s/%smemory.reclaim (memory.reclaim: "
                          "Linux 5.19, CONFIG_MEMCG)" % (self.d, BG))

    def test_controller_refused(self):
        self.plant(BG + "memory.reclaim", "/dev/full")
        self.assert_fails(self.serve(), "the controller: %s/%smemory.reclaim refused '%d' (No space "
                          "left on device)" % (self.d, BG, STEP))

    def test_load_generator_short(self):
        self.hook("httperf", (BG + "memory.stat", "pgsteal", 10))
        self.assert_fails(self.serve(STUB_HTTPERF_SHORT=1), "httperf: 4 connections, 4 requests, 3 "
                          "replies, 3 of them 2xx: expected 4 each")

    def test_load_generator_errors(self):
        self.hook("httperf", (BG + "memory.stat", "pgsteal", 10))
        self.assert_fails(self.serve(STUB_HTTPERF_ERRORS=2), "httperf: 2 errors")

    def test_background_scan_fails(self):
        os.remove(self.path("data/bench.db"))
        self.assert_fails(self.serve(), "the background (0) answered 'dd failed'")

    def test_reclaim_did_nothing(self):
        self.assert_fails(self.serve(), "memory.reclaim made no reclaim in hc-bg")


SWAPPED = (BG + "memory.swap.current", 8 << 20)    # a compaction's 8 MB to swap


class AppCompaction(Sandbox):
    def compact(self, how="zram", **env):
        return self.run_call("app_compaction appcompact_%s %s 64" % (how, how), **env)

    def test_zram(self):
        self.hook("compact", SWAPPED)
        p = self.compact(STUB_ANON_KB=32768)
        self.assert_ok(p, "queries_per_s", 64)
        # what left memory, not what was advised
        self.assertIn("hotcold-reclaim appcompact_zram global steps=16 advised_kb=524288 "
                      "paged_out_kb=131072 skipped_regions=0 ", p.stderr)
        self.assertEqual(self.read("sys/module/zswap/parameters/enabled").strip(), "N")

    def test_zswap(self):
        self.hook("compact", SWAPPED, (BG + "memory.stat", "zswpout", 2048))
        p = self.compact("zswap")
        self.assert_ok(p, "queries_per_s", 64)
        self.assertEqual(self.read(BG + "memory.zswap.writeback").strip(), "0")
        # enabled for the run, off after it
        self.assertEqual(self.read("sys/module/zswap/parameters/enabled").strip(), "N")
        self.assertIn("hotcold-reclaim appcompact_zswap hc-bg ", p.stderr)
        self.assertIn(" zswpout=32768", p.stderr)

    def test_advised_but_nothing_paged_out(self):
        # process_madvise() said it advised 8 MB a step, and something
        # else swapped (the global counters moved): hc-bg lost nothing
        self.hook("compact", ("proc/vmstat", "pswpout", 2048), ("proc/vmstat", "zswpout", 2048))
        self.assert_fails(self.compact(), "the compactions paged nothing out of hc-bg (its "
                          "memory.swap.current did not grow; they advised 131072 kB)")

    def test_zswap_stored_another_cgroups_pages(self):
        self.hook("compact", SWAPPED, ("proc/vmstat", "zswpout", 2048))
        self.assert_fails(self.compact("zswap"), "zswap stored nothing of hc-bg (its "
                          "memory.stat's zswpout did not move)")

    def test_zswap_let_pages_through(self):
        self.hook("compact", SWAPPED, (BG + "memory.stat", "zswpout", 2048))
        self.write("sys/block/zram0/mm_stat", "4096 100 0 0 0 0 0 0 0\n")
        self.assert_fails(self.compact("zswap"), "zswap let 4096 bytes through to zram0")

    def test_no_swap_accounting(self):
        os.remove(self.path(BG + "memory.swap.current"))
        self.assert_fails(self.compact(), "no %s/%smemory.swap.current (swap accounting: "
                          "CONFIG_SWAP)" % (self.d, BG))

    def test_skipped_regions_reported(self):
        self.hook("compact", SWAPPED)
        p = self.compact(STUB_SKIPPED=2)
        self.assert_ok(p, "queries_per_s", 64)
        self.assertIn("paged_out_kb=131072 skipped_regions=32 ", p.stderr)

    def test_no_zswap(self):
        shutil.rmtree(self.path("sys/module/zswap"))
        self.assert_fails(self.compact("zswap"), "no %s/sys/module/zswap/parameters/enabled "
                          "(CONFIG_ZSWAP)" % self.d)

    def test_no_zswap_writeback_file(self):
        os.remove(self.path(BG + "memory.zswap.writeback"))
        self.assert_fails(self.compact("zswap"), "hc-bg/memory.zswap.writeback (no memcg")

    def test_compaction_refused(self):
        self.assert_fails(self.compact(STUB_COMPACT_FAIL=1), "process_madvise(MADV_PAGEOUT): "
                          "Invalid argument")

    def test_compaction_says_something_else(self):
        self.hook("compact", SWAPPED)
        self.assert_fails(self.compact(STUB_COMPACT_SAYS="anon_kb=8192 file_kb=100"),
                          "compaction: 'anon_kb=8192 file_kb=100', %s/%smemory.swap.current: "
                          "'8388608' '16777216'" % (self.d, BG))

    def test_app_page_bad(self):
        self.hook("compact", SWAPPED)
        self.assert_fails(self.compact(STUB_APP_BAD=1), "the background (touch 8192) answered "
                          "'bad page 7'")


class Kswapd(Sandbox):
    def kswapd(self, **env):
        return self.run_call("kswapd_other_cpu kswapd_other_cpu 64", **env)

    def test_kswapd_on_cpu_1(self):
        self.hook("sqlite3", ("proc/vmstat", "pgsteal_kswapd", 500), ("proc/vmstat", "pgsteal_direct", 7))
        p = self.kswapd()
        self.assert_ok(p, "queries_per_s", 64)
        self.assertIn("pgsteal_kswapd=500 pgsteal_direct=7", p.stderr)
        log = self.read("log")
        self.assertIn("balloon 16", log)
        # (the stand-in taskset bound it, not the host's)
        self.assertIn("taskset -p 2 4242", log)
        self.assertIn("taskset -c 0 sqlite3", log)
        # its CPUs given back
        self.assertEqual(self.read("mask").strip(), "3")

    def test_no_kswapd_reclaim(self):
        self.assert_fails(self.kswapd(), "kswapd reclaimed nothing (pgsteal_kswapd did not move)")

    def test_kswapd_not_bound(self):
        self.assert_fails(self.kswapd(STUB_TASKSET_REFUSE=1), "cannot bind kswapd0 (pid 4242) to CPU 1")

    def test_one_cpu(self):
        self.assert_fails(self.kswapd(STUB_NPROC=1), "1 vCPU: kswapd has no other CPU")


class Guard(Sandbox):
    """each of run_call's guards planted once: the run it guards fails"""

    def refused(self, p, says):
        with self.assertRaises(AssertionError) as cm:
            self.assert_guarded(p)
        self.assertIn(says, str(cm.exception))
        print("\n    planted: %s" % str(cm.exception).splitlines()[0])

    def test_a_host_file_is_not_written(self):
        # a file of the host's that nobody may write (root: not even root,
        # once dropped), outside the stand-ins
        d = tempfile.mkdtemp(prefix="hotcold-host.")
        self.addCleanup(shutil.rmtree, d, True)
        f = os.path.join(d, "host")
        with open(f, "w") as h:
            h.write("host\n")
        os.chmod(f, 0o444)
        self.refused(self.run_raw("echo planted >%s" % f), "Permission denied")
        with open(f) as h:
            self.assertEqual(h.read(), "host\n")

    @unittest.skipUnless(BUSYBOX, "no busybox: its applets are not there to reach")
    def test_an_applet_without_a_stub(self):
        self.refused(self.run_raw("renice -n 0 -p $$"), "test: renice -n 0 -p")

    def test_a_program_off_the_path(self):
        self.refused(self.run_raw("python3 -c 0"), "not found")

    def test_the_stand_ins_unset(self):
        global DRIVER
        driver = DRIVER
        self.addCleanup(globals().__setitem__, "DRIVER", driver)
        DRIVER = driver.replace("HOTCOLD_SYS=%(d)s/sys ", "")
        p = self.run_raw("echo never")
        self.assertEqual(p.returncode, 99)
        self.assertNotIn("never", p.stdout)
        self.refused(p, "not the stand-in: /sys ")


# a child with three anonymous mappings besides its own: 4 MB written,
# 4 MB read-only and, below both (first in its maps), 64 kB mlocked, which
# MADV_COLD and MADV_PAGEOUT refuse with EINVAL
LOCKED_CHILD = r"""
#include <stdio.h>
#include <sys/mman.h>
#define MB (1L << 20)
int main(void)
{
	char *a = mmap(0, 4 * MB, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *r = mmap(0, 4 * MB, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *l = mmap(0, 64 << 10, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (a == MAP_FAILED || r == MAP_FAILED || l == MAP_FAILED || mlock(l, 64 << 10)) {
		perror("child");
		return 1;
	}
	a[0] = l[0] = 1;
	printf("ready %lx\n", (unsigned long)l);
	fflush(stdout);
	getchar();
	return 0;
}
"""
# /proc/PID/maps of an app, each line with the advice Android's full
# compaction gives it
MAPS = [("cold", "00400000-00401000 r-xp 00000000 fe:00 123 /usr/bin/app"),
        ("pageout", "00600000-00601000 rw-p 00000000 00:00 0"),
        ("pageout", "01000000-01021000 rw-p 00000000 00:00 0 [heap]"),
        ("pageout", "7f0000000000-7f0000400000 rw-p 00000000 00:00 0 [anon:dalvik-main space]"),
        ("pageout", "7f0000400000-7f0000800000 r--p 00000000 00:00 0"),
        ("pageout", "7f0000800000-7f0000801000 ---p 00000000 00:00 0"),
        ("cold", "7f0000900000-7f0000a00000 rw-s 00000000 00:01 4242 /dev/zero (deleted)"),
        ("cold", "7f0000a00000-7f0000a01000 rw-s 00000000 00:01 4243 [anon_shmem:ashmem]"),
        ("cold", "7f0000b00000-7f0000b01000 r--p 00000000 fe:00 124 /system/framework/boot.art"),
        ("pageout", "7ffc00000000-7ffc00021000 rw-p 00000000 00:00 0 [stack]"),
        ("none", "7ffc00100000-7ffc00104000 r--p 00000000 00:00 0 [vvar]"),
        ("none", "7ffc00104000-7ffc00106000 r-xp 00000000 00:00 0 [vdso]"),
        ("none", "ffffffffff600000-ffffffffff601000 --xp 00000000 00:00 0 [vsyscall]")]


@unittest.skipUnless(shutil.which("gcc"), "no gcc")
class Helper(unittest.TestCase):
    """guest/src/appcompact.c, built here, against a child of this test
    (MADV_COLD only: the host's memory is not paged out)"""

    @classmethod
    def setUpClass(cls):
        cls.d = tempfile.mkdtemp(prefix="hotcold-appcompact.")
        cls.bin = os.path.join(cls.d, "appcompact")
        subprocess.run(["gcc", "-O2", "-Wall", "-Wextra", "-Werror", "-o", cls.bin,
                        os.path.join(ROOT, "guest/src/appcompact.c")], check=True)
        cls.locked = os.path.join(cls.d, "locked")
        subprocess.run(["gcc", "-O2", "-Wall", "-Werror", "-o", cls.locked, "-x", "c", "-"],
                       input=LOCKED_CHILD, text=True, check=True)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.d, True)

    def app(self):
        p = subprocess.Popen([self.bin, "app", "2", "/etc/passwd"], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)
        self.addCleanup(p.stdout.close)
        self.addCleanup(p.wait)
        self.addCleanup(p.stdin.close)
        self.assertEqual(p.stdout.readline(), "ready\n")
        return p

    def say(self, p, line):
        p.stdin.write(line + "\n")
        p.stdin.flush()
        return p.stdout.readline().strip()

    # (process_madvise() of another process needs CAP_SYS_NICE: root's,
    # as in the guest)
    @unittest.skipUnless(os.geteuid() == 0, "process_madvise of another process needs CAP_SYS_NICE")
    def test_compact_a_child(self):
        p = self.app()
        self.assertEqual(self.say(p, "touch 2048"), "ok")
        c = subprocess.run([self.bin, "compact", str(p.pid), "cold"], capture_output=True, text=True)
        self.assertEqual(c.returncode, 0, c.stderr)
        kv = dict(w.split("=") for w in c.stdout.split())
        self.assertGreaterEqual(int(kv["anon_kb"]), 2048)
        self.assertGreater(int(kv["file_kb"]), 0)
        self.assertEqual(self.say(p, "touch 2048"), "ok")

    @unittest.skipUnless(os.geteuid() == 0, "process_madvise of another process needs CAP_SYS_NICE")
    def test_skips_a_region_it_cannot_advise(self):
        # as CachedAppOptimizer: the mlocked mapping is skipped and
        # counted, the ones after it are advised
        p = subprocess.Popen([self.locked], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.addCleanup(p.stdout.close)
        self.addCleanup(p.wait)
        self.addCleanup(p.stdin.close)
        self.assertTrue(p.stdout.readline().startswith("ready "))
        c = subprocess.run([self.bin, "compact", str(p.pid), "cold"], capture_output=True, text=True)
        if c.returncode:
            print("\n    planted: %s" % c.stderr.strip())
        self.assertEqual(c.returncode, 0, c.stderr)
        kv = dict(w.split("=") for w in c.stdout.split())
        self.assertEqual((kv["skipped"], kv["skipped_kb"]), ("1", "64"), c.stdout)
        self.assertGreaterEqual(int(kv["anon_kb"]), 8192, c.stdout)

    def test_advice_of_each_mapping(self):
        d = tempfile.mkdtemp(prefix="hotcold-maps.")
        self.addCleanup(shutil.rmtree, d, True)
        with open(os.path.join(d, "maps"), "w") as f:
            f.write("".join(line + "\n" for _, line in MAPS))
        c = subprocess.run([self.bin, "advice", os.path.join(d, "maps")], capture_output=True,
                           text=True)
        self.assertEqual(c.returncode, 0, c.stderr)
        got = [line.split(" ", 1) for line in c.stdout.splitlines()]
        for (want, line), (said, back) in zip(MAPS, got):
            if said != want:
                print("\n    planted: %s %s (wanted %s)" % (said, line, want))
            self.assertEqual((said, back), (want, line))
        self.assertEqual(len(got), len(MAPS))
        with open(os.path.join(d, "maps"), "a") as f:
            f.write("7f00-7e00 rw-p 00000000 00:00 0\n")
        c = subprocess.run([self.bin, "advice", os.path.join(d, "maps")], capture_output=True,
                           text=True)
        self.assertEqual(c.returncode, 1)
        self.assertIn("cannot read '7f00-7e00 rw-p", c.stderr)

    def test_a_page_that_comes_back_wrong(self):
        p = self.app()
        with open("/proc/%d/maps" % p.pid) as f:
            two_mb = [int(x, 16) for x, y in (line.split()[0].split("-") for line in f)
                      if int(y, 16) - int(x, 16) >= 2 << 20]
        with open("/proc/%d/mem" % p.pid, "r+b", buffering=0) as mem:
            for start in two_mb:
                mem.seek(start + 3 * 4096)
                mem.write(b"\0" * 8)
        said = self.say(p, "touch 2048")
        self.assertEqual(said, "bad page 3")
        print("\n    planted: %s" % said)

    def test_no_such_process(self):
        c = subprocess.run([self.bin, "compact", "999999999"], capture_output=True, text=True)
        self.assertEqual(c.returncode, 1)
        self.assertIn("pidfd_open(999999999): No such process", c.stderr)


class Registered(unittest.TestCase):
    """queue_modern queues exactly the table's modern workloads, none of
    them in a run that does not name it (runs: asked)"""

    def test_queue_matches_the_table(self):
        with open(os.path.join(ROOT, "guest/bench/modern.sh")) as f:
            queued = [line.split()[1] for line in f if line.startswith("\trun ")]
        with open(os.path.join(ROOT, "bench/workloads.tsv")) as f:
            rows = [line.rstrip("\n").split("\t") for line in f if not line.startswith("#")]
        table = {r[0]: r for r in rows if r[0] in queued}
        self.assertEqual(sorted(table), sorted(queued))
        for name, r in table.items():
            self.assertEqual((r[1], r[4]), ("program", "asked"), name)


if __name__ == "__main__":
    unittest.main()
