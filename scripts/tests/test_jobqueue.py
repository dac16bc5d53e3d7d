# SPDX-License-Identifier: GPL-2.0
"""Unit tests of scripts/jobqueue.sh: every job runs once, a long job
does not hold the other worker up, N workers run N jobs at once and
never more, a failure stops the queue, bad arguments run nothing; and
of make bench's JOBS, the number of workers: its default (lib.sh's
bench_workers: the host's cores or what its memory holds) and its use."""
import os
import subprocess
import tempfile
import time
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# a job: sleeps its second word (seconds), then appends "NAME N/TOTAL
# START END" to the log; a job named fail fails, one named exit exits
JOB_SH = """job() {
	local start
	start=$(date +%%s.%%N)
	sleep "$2"
	[ "$1" != fail ] || return 1
	[ "$1" != exit ] || exit 3
	echo "$1 $QUEUE_JOB $start $(date +%%s.%%N)" >>"%s"
}
"""


class JobQueue(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.log = os.path.join(self.dir.name, "log")
        self.jobs = os.path.join(self.dir.name, "jobs")

    def tearDown(self):
        self.dir.cleanup()

    def run_queue(self, workers, lines):
        with open(self.jobs, "w") as f:
            f.write("".join(line + "\n" for line in lines))
        p = subprocess.run(["bash", "-c", 'set -u; %s. "%s/scripts/jobqueue.sh"; queue_run %s "%s" job'
                            % (JOB_SH % self.log, ROOT, workers, self.jobs)],
                           capture_output=True, text=True)
        done = []
        if os.path.exists(self.log):
            with open(self.log) as f:
                done = [line.split() for line in f]
        return p.returncode, done, p.stderr

    def test_every_job_once(self):
        # blank lines, in the middle too, are no jobs
        rc, done, err = self.run_queue(2, ["j1 0", "", "j2 0", "\t"] + ["j%d 0" % i for i in range(3, 8)]
                                       + ["", "  "])
        self.assertEqual(rc, 0, err)
        self.assertEqual(sorted(d[0] for d in done), ["j%d" % i for i in range(1, 8)])
        self.assertEqual(sorted(d[1] for d in done), sorted("%d/7" % i for i in range(1, 8)))

    def test_one_worker_keeps_the_order(self):
        rc, done, err = self.run_queue(1, ["c 0", "a 0", "b 0"])
        self.assertEqual(rc, 0, err)
        self.assertEqual([d[0] for d in done], ["c", "a", "b"])

    def test_a_long_job_holds_up_no_other_worker(self):
        # lockstep pairs would start s3 only after long ended
        rc, done, err = self.run_queue(2, ["long 1.5", "s1 0.1", "s2 0.1", "s3 0.1", "s4 0.1"])
        self.assertEqual(rc, 0, err)
        end = {d[0]: float(d[3]) for d in done}
        for s in ("s1", "s2", "s3", "s4"):
            self.assertLess(end[s], end["long"], "%s waited for the long job" % s)

    def test_two_at_a_time(self):
        start = time.time()
        rc, done, err = self.run_queue(2, ["a 1", "b 1"])
        self.assertEqual(rc, 0, err)
        self.assertLess(time.time() - start, 1.8)

    def overlap(self, done):
        """the most jobs that ran at once: at each job's start, the jobs
        started by then and not yet ended"""
        spans = [(float(d[2]), float(d[3])) for d in done]
        return max(sum(1 for s, e in spans if s <= t < e) for t, _ in spans)

    def test_n_workers_run_n_at_once(self):
        for n in (1, 3, 4):
            with self.subTest(workers=n):
                if os.path.exists(self.log):
                    os.remove(self.log)
                # 2n jobs of 0.6 s: two waves of n, the second starting
                # as the first ends
                start = time.time()
                rc, done, err = self.run_queue(n, ["j%d 0.6" % i for i in range(2 * n)])
                took = time.time() - start
                self.assertEqual(rc, 0, err)
                self.assertEqual(len(done), 2 * n)
                self.assertEqual(self.overlap(done), n, done)
                # two waves: not one (more than n at once), nor three or
                # more (fewer than n)
                self.assertGreater(took, 1.2)
                self.assertLess(took, 1.8)

    def test_a_failure_stops_the_queue(self):
        rc, done, _ = self.run_queue(1, ["a 0", "fail 0", "b 0", "c 0"])
        self.assertEqual(rc, 1)
        self.assertEqual([d[0] for d in done], ["a"])

    def test_a_failure_waits_for_the_running_job(self):
        # the other worker's job ends (and is logged); nothing starts after
        rc, done, _ = self.run_queue(2, ["slow 0.8", "fail 0.1", "a 0", "b 0"])
        self.assertEqual(rc, 1)
        self.assertEqual([d[0] for d in done], ["slow"])

    def test_an_exit_counts_as_a_failure(self):
        # the other worker finishes b, then starts nothing
        rc, done, _ = self.run_queue(2, ["exit 0.6", "a 0", "b 1.2", "c 0", "d 0"])
        self.assertEqual(rc, 1)
        self.assertEqual([d[0] for d in done], ["a", "b"])

    def test_bad_arguments_run_nothing(self):
        for workers in ("0", "x", "''"):
            rc, done, err = self.run_queue(workers, ["a 0"])
            self.assertEqual(rc, 2, workers)
            self.assertIn("workers", err)
            self.assertEqual(done, [])
        p = subprocess.run(["bash", "-c", '. "%s/scripts/jobqueue.sh"; queue_run 2 /nonexistent/jobs true'
                            % ROOT], capture_output=True, text=True)
        self.assertEqual(p.returncode, 2)
        self.assertIn("no job file", p.stderr)

    def test_no_jobs(self):
        rc, done, err = self.run_queue(2, [])
        self.assertEqual(rc, 0, err)
        self.assertEqual(done, [])


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
        # the guest's -m of every deterministic boot (scripts/bench.sh)
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
        # no MemAvailable: the cores alone; no core count: one
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
        self.assertIn("JOBS=${JOBS:-$(bench_workers)}\nsetting_int JOBS 1 64\n", bench)
        self.assertIn('queue_run "$JOBS" ', bench)
        self.assertNotRegex(bench, r"queue_run [0-9]")
        # the memory the default counts is the memory the boots take
        self.assertIn('--mem "$BENCH_GUEST_MB"', bench)


if __name__ == "__main__":
    unittest.main()
