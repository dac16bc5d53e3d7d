# SPDX-License-Identifier: GPL-2.0
"""Unit tests of scripts/bench-jobs.sh: GNU parallel runs a planned job
file, each line once, JOBS at a time, with its job log; the first boot
that fails stops the run, named with its guest log and the job log; a
dry run over a hosts file checks and lists every line and boots nothing;
through a local ssh login when this host has one that works without a
password (skipped with the reason otherwise).  The boots are a stand-in
that notes the line's tag (no kernel, no QEMU).  And lib.sh's
bench_workers, JOBS's default."""
import contextlib
import io
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "bench"))

from hcreport import plan  # noqa: E402

# the stand-in boot: RUNDIR LINE, the line's tag noted in RUNDIR/ran;
# FAIL_TAG's fails
STUB = """#!/bin/sh
tag=${2%% *}
echo "$tag $(hostname)" >>"$1/ran"
[ "$tag" != "${FAIL_TAG:-}" ] || { echo "stand-in boot $tag fails" >&2; exit 3; }
"""
RUN = dict(CONFIGS="vanilla hotcold", DET_ROUNDS="2", RUN_SEED="3", JOBS="2",
           WORKLOADS="sdet_1 pagefault_anon compile readahead_other_cpu")


class Jobs(unittest.TestCase):
    def setUp(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.tmp = tmp.name
        self.run_dir = os.path.join(self.tmp, "run")
        os.makedirs(self.run_dir)
        self.stub = os.path.join(self.tmp, "boot")
        with open(self.stub, "w") as f:
            f.write(STUB)
        os.chmod(self.stub, 0o755)

    def plan(self, **env):
        with contextlib.redirect_stderr(io.StringIO()):
            self.assertEqual(plan.main(["write", self.run_dir], dict(RUN, **env)), 0)
        with open(os.path.join(self.run_dir, "jobs")) as f:
            return [x.split(" ", 1)[0] for x in f.read().splitlines()]

    def jobs(self, *opts, **env):
        e = dict(PATH=os.environ["PATH"], BUILD=os.path.join(self.tmp, "build"), HOME=self.tmp,
                 **env)
        p = subprocess.run(["bash", os.path.join(ROOT, "scripts/bench-jobs.sh")] + list(opts) +
                           ["--boot", self.stub, self.run_dir, os.path.join(self.run_dir, "jobs")],
                           env=e, capture_output=True, text=True, timeout=120)
        return p.returncode, p.stdout + p.stderr

    def ran(self):
        path = os.path.join(self.run_dir, "ran")
        if not os.path.exists(path):
            return []
        with open(path) as f:
            return [x.split()[0] for x in f.read().splitlines()]

    def joblog(self):
        with open(os.path.join(self.run_dir, "jobs.log")) as f:
            return [x.split("\t") for x in f.read().splitlines()]

    def test_every_line_runs_once_with_its_job_log(self):
        tags = self.plan()
        self.assertGreater(len(tags), 10)
        rc, out = self.jobs()
        self.assertEqual(rc, 0, out)
        self.assertEqual(sorted(self.ran()), sorted(tags))
        log = self.joblog()
        self.assertEqual(log[0][:9], ["Seq", "Host", "Starttime", "JobRuntime", "Send",
                                      "Receive", "Exitval", "Signal", "Command"])
        self.assertEqual(len(log) - 1, len(tags))
        self.assertTrue(all(r[6] == "0" and r[8].startswith(self.stub) for r in log[1:]))
        self.assertIn("%d boots, 2 at a time" % len(tags), out)

    def test_a_failed_boot_stops_the_run_named_with_its_logs(self):
        tags = self.plan()
        bad = tags[4]
        rc, out = self.jobs(FAIL_TAG=bad)
        self.assertEqual(rc, 1, out)
        kernel = "hotcold-bench" if "-hotcold-" in bad else "vanilla"
        self.assertIn("FAILED: boot %s (line 5 of %s/jobs) failed with exit status 3 -- its log: "
                      "%s/build/logs/%s-bench-%s.out; the job log: %s/jobs.log" % (
                          bad, self.run_dir, self.tmp, kernel, bad, self.run_dir), out)
        self.assertIn(bad, self.ran())
        # (--halt now,fail=1: no boot starts after it)
        self.assertLess(len(self.ran()), len(tags))

    def test_a_dry_run_over_hosts_checks_and_lists_every_line(self):
        hosts = os.path.join(self.tmp, "hosts")
        with open(hosts, "w") as f:
            f.write(":\n4/:\n")
        tags = self.plan(HOSTS=hosts)
        rc, out = self.jobs("--dry-run")
        self.assertEqual(rc, 0, out)
        self.assertEqual(self.ran(), [])
        self.assertFalse(os.path.exists(os.path.join(self.run_dir, "jobs.log")))
        for t in tags:
            self.assertEqual(out.count("%s '%s " % (self.run_dir, t)), 1, t)
        self.assertIn("%d boots checked, on the hosts of %s, 2 at a time per host (N/HOST: N there); nothing booted"
                      % (len(tags), hosts), out)

    def test_a_dry_run_refuses_a_line_that_is_not_the_plans(self):
        self.plan()
        jobs = os.path.join(self.run_dir, "jobs")
        with open(jobs) as f:
            lines = f.read().splitlines()
        lines[2] = lines[2].replace("seed=", "seed=x")
        with open(jobs, "w") as f:
            f.write("\n".join(lines) + "\n")
        rc, out = self.jobs("--dry-run")
        self.assertEqual(rc, 1, out)
        self.assertIn("%s:3: not a boot of the plan's" % jobs, out)
        self.assertEqual(self.ran(), [])

    def test_over_a_hosts_file_of_this_machine(self):
        """HOSTS with ':' alone (this machine, no ssh): the hosts are
        checked for the boot script and the run's directory, then every
        line runs once"""
        hosts = os.path.join(self.tmp, "hosts")
        with open(hosts, "w") as f:
            f.write("# this machine\n2/:\n")
        tags = self.plan(HOSTS=hosts)
        rc, out = self.jobs()
        self.assertEqual(rc, 0, out)
        self.assertEqual(sorted(self.ran()), sorted(tags))
        self.assertIn("on the hosts of %s" % hosts, out)

    def test_a_host_without_the_run_directory(self):
        hosts = os.path.join(self.tmp, "hosts")
        with open(hosts, "w") as f:
            f.write(":\n")
        self.plan(HOSTS=hosts)
        os.chmod(self.stub, 0o644)
        rc, out = self.jobs()
        self.assertEqual(rc, 1, out)
        self.assertIn("these hosts do not see %s or the run's directory" % self.stub, out)
        self.assertEqual(self.ran(), [])

    def test_a_dry_run_checks_the_hosts(self):
        hosts = os.path.join(self.tmp, "hosts")
        with open(hosts, "w") as f:
            f.write(":\n")
        self.plan(HOSTS=hosts)
        os.chmod(self.stub, 0o644)
        rc, out = self.jobs("--dry-run")
        self.assertEqual(rc, 1, out)
        self.assertIn("these hosts do not see %s or the run's directory" % self.stub, out)

    def test_through_a_local_ssh_login(self):
        why = ssh_unavailable()
        if why:
            self.skipTest(why)
        hosts = os.path.join(self.tmp, "hosts")
        with open(hosts, "w") as f:
            f.write("2/localhost\n")
        tags = self.plan(HOSTS=hosts)
        rc, out = self.jobs()
        self.assertEqual(rc, 0, out)
        self.assertEqual(sorted(self.ran()), sorted(tags))
        # (parallel's Host column: the login each boot ran on)
        self.assertTrue(all("localhost" in r[1] for r in self.joblog()[1:]), self.joblog())


class DryRun(unittest.TestCase):
    """make bench DRY_RUN=1: the plan, every line checked and listed (on
    the HOSTS too), nothing built, booted or written under build/bench"""

    def test_make_bench_dry_run_over_hosts(self):
        with tempfile.TemporaryDirectory() as tmp:
            hosts = os.path.join(tmp, "hosts")
            with open(hosts, "w") as f:
                f.write(":\n8/:\n")
            build = os.path.join(tmp, "build")
            p = subprocess.run(["bash", os.path.join(ROOT, "scripts/bench.sh")],
                               env=dict(PATH=os.environ["PATH"], BUILD=build, QUICK="1", HOME=tmp,
                                        DRY_RUN="1", HOSTS=hosts, JOBS="3", RUN_SEED="1",
                                        PYTHONDONTWRITEBYTECODE="1"),
                               capture_output=True, text=True, timeout=120)
            out = p.stdout + p.stderr
            self.assertEqual(p.returncode, 0, out)
            self.assertFalse(os.path.exists(os.path.join(build, "bench")))
            with open(os.path.join(build, "plan-dry-run", "jobs")) as f:
                tags = [x.split(" ", 1)[0] for x in f.read().splitlines()]
            self.assertTrue(tags)
            for t in tags:
                self.assertIn("scripts/bench-boot.sh %s/plan-dry-run '%s " % (build, t), out)
            self.assertIn("%d boots checked, on the hosts of %s, 3 at a time per host (N/HOST: N "
                          "there); nothing booted" % (len(tags), hosts), out)
            self.assertIn("RUN_SEED=1 replays it", out)


def ssh_unavailable():
    """why a run through ssh to localhost cannot be tested here, or None"""
    if not shutil.which("ssh"):
        return "no ssh client"
    if not shutil.which("sshd") and not os.path.exists("/usr/sbin/sshd"):
        return "no sshd on this host (openssh-server not installed)"
    p = subprocess.run(["ssh", "-o", "BatchMode=yes", "-o", "ConnectTimeout=3",
                        "-o", "StrictHostKeyChecking=accept-new", "localhost", "true"],
                       capture_output=True, text=True, timeout=20)
    if p.returncode:
        return "ssh localhost without a password fails: %s" % (p.stderr.strip() or p.returncode)
    return None


def workers(*args):
    """lib.sh's bench_workers_of ARGS (bench_workers, this host's, without
    ARGS): (status, [the memory a boot takes, its output], stderr)"""
    p = subprocess.run(["bash", "-c", 'set -u; . "%s/scripts/lib.sh"; '
                        'echo "$BENCH_GUEST_MB $BENCH_QEMU_MB"; bench_workers%s %s'
                        % (ROOT, "_of" if args else "", " ".join(args))],
                       env=dict(PATH=os.environ["PATH"], BUILD=tempfile.gettempdir()),
                       capture_output=True, text=True)
    return p.returncode, p.stdout.split("\n"), p.stderr


class Workers(unittest.TestCase):
    """JOBS: how many deterministic boots run at once.  Each takes a core
    (one TCG thread) and its guest's memory plus QEMU's; the default is
    whichever the host has fewer of, at least one and at most 64."""

    def default(self, cores, avail_mb):
        rc, out, err = workers(str(cores), str(avail_mb))
        self.assertEqual(rc, 0, err)
        return int(out[1])

    def test_the_memory_a_boot_takes(self):
        rc, out, err = workers("1", "1")
        self.assertEqual(rc, 0, err)
        guest, qemu = (int(x) for x in out[0].split())
        # the guest's -m of every boot (scripts/bench-boot.sh)
        self.assertEqual(guest, 384)
        self.assertGreater(qemu, 0)

    def test_cores_bound_it(self):
        self.assertEqual(self.default(2, 24000), 2)
        self.assertEqual(self.default(16, 64000), 16)

    def test_memory_bounds_it(self):
        rc, out, _ = workers("1", "1")
        per = sum(int(x) for x in out[0].split())
        self.assertEqual(self.default(16, 4 * per), 4)
        self.assertEqual(self.default(16, 4 * per - 1), 3)

    def test_at_least_one_at_most_64(self):
        self.assertEqual(self.default(8, 100), 1)
        self.assertEqual(self.default(256, 10 ** 8), 64)

    def test_a_figure_missing(self):
        self.assertEqual(self.default(6, "''"), 6)
        self.assertEqual(self.default("''", 10 ** 6), 1)

    def test_this_host(self):
        rc, out, err = workers()
        self.assertEqual(rc, 0, err)
        self.assertGreaterEqual(int(out[1]), 1)
        self.assertLessEqual(int(out[1]), os.cpu_count())

    def test_bench_runs_jobs_workers(self):
        with open(os.path.join(ROOT, "scripts/bench.sh")) as f:
            bench = f.read()
        self.assertIn("JOBS_DEFAULT=$(bench_workers)\n", bench)
        with open(os.path.join(ROOT, "scripts/bench-jobs.sh")) as f:
            jobs = f.read()
        self.assertIn('opts=(--jobs "$JOBS" ', jobs)
        # the memory the default counts is the memory the boots take
        with open(os.path.join(ROOT, "scripts/bench-boot.sh")) as f:
            self.assertEqual(f.read().count('--mem "$BENCH_GUEST_MB"'), 2)


if __name__ == "__main__":
    unittest.main()
