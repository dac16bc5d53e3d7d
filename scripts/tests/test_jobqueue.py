# SPDX-License-Identifier: GPL-2.0
"""Unit tests of scripts/jobqueue.sh: every job runs once, a long job
does not hold the other worker up, a failure stops the queue, bad
arguments run nothing."""
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


if __name__ == "__main__":
    unittest.main()
