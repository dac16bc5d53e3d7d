# SPDX-License-Identifier: GPL-2.0
"""Unit tests of guest/lib.sh's ab_time and httperf_time, which the
guest's web and fileserver workloads use to hold ab and httperf to the
load they were asked for.  Run under busybox's sh
(the guest's shell) when the host has busybox, else the host's sh."""
import os
import shutil
import subprocess
import tempfile
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


class LibCheck(unittest.TestCase):
    """A guest/lib.sh check run on a load generator's output."""

    def lib(self, call, output):
        cmd = '. "%s/guest/lib.sh"; %s' % (ROOT, call)
        return subprocess.run(SHELL + ["-c", cmd], input=output,
                              capture_output=True, text=True)

    def assert_fails(self, p, says):
        self.assertNotEqual(p.returncode, 0, p.stdout)
        self.assertIn(says, p.stdout)


class AbTime(LibCheck):
    def ab_time(self, output, n=500, length=1024):
        return self.lib("ab_time %d %d" % (n, length), output)

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



def httperf_output(conns=2000, reqs=None, replies=None, ok=None, errors=0,
                   duration="1.043"):
    reqs = conns if reqs is None else reqs
    replies = reqs if replies is None else replies
    ok = replies if ok is None else ok
    return ("httperf --hog --timeout=60 --client=0/1 --server=127.0.0.1 --port=8080 "
            "--uri=/ --send-buffer=4096 --recv-buffer=16384 --wlog=n,/prog/data/urls "
            "--num-conns=%d --num-calls=1\n"
            "Maximum connect burst length: 1\n\n"
            "Total: connections %d requests %d replies %d test-duration %s s\n\n"
            "Reply size [B]: header 184.0 content 70000.0 footer 0.0 (total 70184.0)\n"
            "Reply status: 1xx=0 2xx=%d 3xx=0 4xx=%d 5xx=0\n\n"
            "Errors: total %d client-timo 0 socket-timo 0 connrefused %d connreset 0\n"
            "Errors: fd-unavail 0 addrunavail 0 ftab-full 0 other 0\n" % (
                conns, conns, reqs, replies, duration, ok, replies - ok, errors, errors))


class HttperfTime(LibCheck):
    def httperf_time(self, output, n=2000):
        return self.lib("httperf_time %d" % n, output)

    def test_the_load_asked_for_prints_its_time(self):
        p = self.httperf_time(httperf_output())
        self.assertEqual((p.returncode, p.stdout), (0, "1.043\n"), p.stderr)

    def test_a_request_list_shorter_than_n(self):
        # --wlog=n: the list ends, httperf opens one more connection and
        # stops, exit status 0
        self.assert_fails(self.httperf_time(httperf_output(conns=2000, reqs=1999)),
                          "2000 connections, 1999 requests")

    def test_another_n(self):
        self.assert_fails(self.httperf_time(httperf_output(conns=1000), n=2000),
                          "1000 connections")

    def test_a_reply_not_2xx(self):
        self.assert_fails(self.httperf_time(httperf_output(ok=1999)), "1999 of them 2xx")

    def test_an_error(self):
        self.assert_fails(self.httperf_time(httperf_output(errors=1)), "httperf: 1 errors")

    def test_no_output(self):
        self.assert_fails(self.httperf_time(""), "no connections")

    def test_no_time(self):
        self.assert_fails(self.httperf_time(httperf_output(duration="0.000")), "no time")


# /proc/zoneinfo's pagesets, cut down: two zones, two CPUs; the series
# prints hot: and cold: under count:
ZONEINFO = """Node 0, zone      DMA
  pagesets
    cpu: 0
              count: 10
              high:  20
              batch: 1
  vm stats threshold: 2
    cpu: 1
              count: 0
              high:  20
              batch: 1
  vm stats threshold: 2
Node 0, zone    DMA32
  pagesets
    cpu: 0
              count: 300
              hot:   100
              cold:  200
              high:  1000
              batch: 63
  vm stats threshold: 24
    cpu: 1
              count: 250
              hot:   250
              cold:  0
              high:  1419
              batch: 63
  vm stats threshold: 24
"""


class PcpLists(unittest.TestCase):
    """pcp_lists: over the CPUs, the largest list (every zone's), hot part
    and high, from /proc/zoneinfo"""

    def pcp_lists(self, text):
        with tempfile.NamedTemporaryFile("w", suffix=".zoneinfo") as f:
            f.write(text)
            f.flush()
            cmd = '. "%s/guest/lib.sh"; pcp_lists wl %s' % (ROOT, f.name)
            return subprocess.run(SHELL + ["-c", cmd], capture_output=True, text=True)

    def test_the_largest_over_the_cpus_of_each_cpus_zones(self):
        # CPU 0: 310 pages, 110 hot, high 1020; CPU 1: 250, 250, 1439
        p = self.pcp_lists(ZONEINFO)
        self.assertEqual((p.returncode, p.stdout),
                         (0, "hotcold-pcp wl count_max=310 hot_max=250 high_max=1439\n"),
                         p.stderr)

    def test_without_cold_lines_the_whole_list_is_hot(self):
        text = "".join(x for x in ZONEINFO.splitlines(True)
                       if "hot:" not in x and "cold:" not in x)
        p = self.pcp_lists(text)
        self.assertEqual(p.stdout, "hotcold-pcp wl count_max=310 hot_max=310 high_max=1439\n")


VMSTAT = """nr_free_pages 60000
pgalloc_normal 1234
pgfree 5678
pcp_refill 12
pgalloc_normal_extra 99
"""


class VmstatKeys(unittest.TestCase):
    """vmstat_keys: the workload's counters in one read of /proc/vmstat,
    the same lines the one-awk-a-key loop it replaced printed"""

    def keys(self, keys, text=VMSTAT):
        with tempfile.NamedTemporaryFile("w", suffix=".vmstat") as f:
            f.write(text)
            f.flush()
            cmd = '. "%s/guest/lib.sh"; vmstat_keys %s "%s"' % (ROOT, f.name, keys)
            return subprocess.run(SHELL + ["-c", cmd], capture_output=True, text=True)

    def test_each_key_in_the_order_asked(self):
        p = self.keys("pgfree pcp_refill pgalloc_normal")
        self.assertEqual((p.returncode, p.stdout),
                         (0, "pgfree 5678\npcp_refill 12\npgalloc_normal 1234\n"), p.stderr)

    def test_a_counter_the_kernel_lacks_is_empty_not_zero(self):
        # (vanilla has no pcp_cold_*: report_vm reads "" as no counter)
        p = self.keys("pcp_cold_free pgfree")
        self.assertEqual(p.stdout, "pcp_cold_free \npgfree 5678\n")

    def test_a_name_is_matched_whole(self):
        p = self.keys("pgalloc_normal")
        self.assertEqual(p.stdout, "pgalloc_normal 1234\n")

    def test_the_same_lines_as_one_read_a_key(self):
        keys = "pcp_cold_alloc pcp_refill pgalloc_normal pgfree nr_free_pages"
        with tempfile.NamedTemporaryFile("w", suffix=".vmstat") as f:
            f.write(VMSTAT)
            f.flush()
            loop = ('for k in %s; do echo "$k $(awk -v k="$k" \'$1 == k { print $2; f = 1 } '
                    'END { if (!f) print "" }\' %s)"; done' % (keys, f.name))
            old = subprocess.run(SHELL + ["-c", loop], capture_output=True, text=True)
        self.assertEqual(self.keys(keys).stdout, old.stdout)


if __name__ == "__main__":
    unittest.main()
