# SPDX-License-Identifier: GPL-2.0
"""Unit tests of the guest's workload order (guest/bench/common.sh's run
and run_queue): the workloads a boot is given run in the order given
(the plan's, drawn per round), each once, whatever order the job file
lists them in; with no names, in the file's order; compile and
backup_beside_compile get their configured tree before their run, and
a workload reading stdin does not eat the queue.  Run under busybox's
sh (the guest's shell) when the host has busybox, else the host's sh;
the workloads are stand-ins that print their name."""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from shfunc import shell_function  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHELL = ["busybox", "sh"] if shutil.which("busybox") else ["sh"]
with open(os.path.join(ROOT, "guest/bench/common.sh")) as f:
    GUEST = f.read()


def function(name):
    return shell_function(GUEST, name, "guest/bench/common.sh")


DRIVER = """set -u
QUEUE=%(tmp)s/queue
: >$QUEUE
PROG=%(tmp)s
ONLY="%(only)s"
SHAPE=
named() { echo "$1"; }
want() {
	[ -n "${ONLY# }" ] || return 0
	case $ONLY in *" $1 "*) return 0 ;; esac
	return 1
}
compile_tree() { echo "tree" >>%(tmp)s/ran; }
run_now() { echo "$1 $2 $3 $4" >>%(tmp)s/ran; cat >/dev/null; }
%(functions)s
run a 0 work 1
run b all work 2
run compile all compile 3
run c 0 work 4
run_queue
cat %(tmp)s/ran
"""


class Order(unittest.TestCase):
    def run_guest(self, only):
        with tempfile.TemporaryDirectory() as tmp:
            # (PROG/configure: the programs archive is there)
            with open(os.path.join(tmp, "configure"), "w") as f:
                f.write("")
            os.chmod(os.path.join(tmp, "configure"), 0o755)
            # (as the guest makes it: " NAME NAME ", or " " for none)
            script = DRIVER % {"tmp": tmp, "only": " %s " % only if only else " ",
                               "functions": function("run") + function("run_queue")}
            p = subprocess.run(SHELL + ["-c", script], capture_output=True, text=True,
                               timeout=30, stdin=subprocess.DEVNULL)
        self.assertEqual(p.returncode, 0, p.stderr)
        return p.stdout.splitlines()

    def test_the_order_given(self):
        self.assertEqual(self.run_guest("c compile a"),
                         ["c 0 work 4", "tree", "compile all compile 3", "a 0 work 1"])

    def test_no_names_the_files_order(self):
        self.assertEqual(self.run_guest(""), ["a 0 work 1", "b all work 2", "tree",
                                              "compile all compile 3", "c 0 work 4"])

    def test_a_name_this_boot_does_not_run(self):
        self.assertEqual(self.run_guest("alloc b"), ["b all work 2"])


if __name__ == "__main__":
    unittest.main()
