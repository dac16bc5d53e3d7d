# SPDX-License-Identifier: GPL-2.0
"""Unit tests of guest/lib.sh's ab_time, which the guest's web workload
uses to hold ab to the load it was asked for.  Run under busybox's sh
(the guest's shell) when the host has busybox, else the host's sh."""
import os
import shutil
import subprocess
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHELL = ["busybox", "sh"] if shutil.which("busybox") else ["sh"]

HEAD = """This is ApacheBench, Version 2.3 <$Revision: 1903618 $>

Server Software:        lighttpd/1.4.69
Server Hostname:        127.0.0.1
Server Port:            8080

Document Path:          /small.html
"""


def ab_output(length=1024, taken="0.512", complete=500, failed=0, html=None,
              non2xx=None):
    html = complete * length if html is None else html
    out = HEAD + "Document Length:        %d bytes\n\n" % length
    out += "Concurrency Level:      4\n"
    if taken is not None:
        out += "Time taken for tests:   %s seconds\n" % taken
    out += "Complete requests:      %d\n" % complete
    out += "Failed requests:        %d\n" % failed
    if non2xx is not None:
        out += "Non-2xx responses:      %d\n" % non2xx
    out += "Total transferred:      %d bytes\n" % (html + complete * 250)
    out += "HTML transferred:       %d bytes\n" % html
    return out


class AbTime(unittest.TestCase):
    def ab_time(self, output, n=500, length=1024):
        cmd = '. "%s/guest/lib.sh"; ab_time %d %d' % (ROOT, n, length)
        return subprocess.run(SHELL + ["-c", cmd], input=output,
                              capture_output=True, text=True)

    def assert_fails(self, p, says):
        self.assertNotEqual(p.returncode, 0, p.stdout)
        self.assertIn(says, p.stdout)

    def test_the_load_asked_for_prints_its_time(self):
        p = self.ab_time(ab_output())
        self.assertEqual((p.returncode, p.stdout), (0, "0.512\n"), p.stderr)

    def test_fewer_requests_complete(self):
        self.assert_fails(self.ab_time(ab_output(complete=499, html=500 * 1024)),
                          "499 of 500 requests complete")

    def test_more_requests_than_asked(self):
        self.assert_fails(self.ab_time(ab_output(complete=1000), n=500),
                          "1000 of 500")

    def test_a_failed_request(self):
        self.assert_fails(self.ab_time(ab_output(failed=1)), "1 failed")

    def test_a_response_not_200(self):
        self.assert_fails(self.ab_time(ab_output(non2xx=3)), "3 not 200")

    def test_another_document(self):
        self.assert_fails(self.ab_time(ab_output(length=2048), length=1024),
                          "documents of 2048 bytes")

    def test_short_documents_in_all(self):
        self.assert_fails(self.ab_time(ab_output(html=500 * 1024 - 1)),
                          "511999 bytes in all")

    def test_no_time(self):
        self.assert_fails(self.ab_time(ab_output(taken=None)), "no time")

    def test_a_zero_time(self):
        self.assert_fails(self.ab_time(ab_output(taken="0.000")), "no time")

    def test_no_output(self):
        self.assert_fails(self.ab_time(""), "none of 500")


if __name__ == "__main__":
    unittest.main()
