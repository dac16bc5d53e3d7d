# SPDX-License-Identifier: GPL-2.0
"""Unit tests of scripts/pressure-data.py, the data of the memory-
pressure programs (fileserver, sqlite, backup_beside_compile): the same
bytes from the same seed, a skewed request list over files that exist,
and a query list whose every statement prints one line (the guest counts
the lines to see a short run).  Scaled down: the module's sizes are set
small here."""
import contextlib
import hashlib
import importlib.util
import io
import os
import sqlite3
import tempfile
import unittest
from collections import Counter

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "scripts", "pressure-data.py")


def load(**sizes):
    spec = importlib.util.spec_from_file_location("pressure_data", SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    for k, v in sizes.items():
        setattr(mod, k, v)
    return mod


SMALL = dict(FILES=64, ROWS=3000, REQUESTS=2000, QUERIES=400)


def tree_hash(top):
    h = hashlib.sha1()
    for d, dirs, files in sorted(os.walk(top)):
        dirs.sort()
        for f in sorted(files):
            p = os.path.join(d, f)
            h.update(os.path.relpath(p, top).encode())
            with open(p, "rb") as x:
                h.update(x.read())
    return h.hexdigest()


class PressureData(unittest.TestCase):
    def make(self, mod):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        out = os.path.join(tmp.name, "data")
        self.assertEqual(mod.main(["pressure-data.py", out]), 0)
        return out

    def test_the_same_seed_gives_the_same_bytes(self):
        a, b = self.make(load(**SMALL)), self.make(load(**SMALL))
        self.assertEqual(tree_hash(a), tree_hash(b))
        c = self.make(load(SEED=1, **SMALL))
        self.assertNotEqual(tree_hash(a), tree_hash(c))

    def test_requests_are_skewed_over_files_that_exist(self):
        out = self.make(load(**SMALL))
        with open(os.path.join(out, "urls")) as f:
            urls = f.read().split("\0")
        self.assertEqual(urls[-1], "")
        urls = urls[:-1]
        self.assertEqual(len(urls), SMALL["REQUESTS"])
        for u in set(urls):
            self.assertTrue(os.path.isfile(os.path.join(out, "root", "www", u.lstrip("/"))), u)
        n = Counter(urls).most_common()
        # Zipf s=1 over 64 files: the first rank 1/H(64) = 21 % of the
        # requests, the 32nd 0.7 %; the hottest file is no file's neighbour
        self.assertGreater(n[0][1], 10 * n[len(n) // 2][1])
        self.assertGreater(len(n), SMALL["FILES"] // 2)
        self.assertNotEqual(n[0][0], "/0000.html")

    def test_every_statement_prints_one_line(self):
        out = self.make(load(**SMALL))
        con = sqlite3.connect(os.path.join(out, "root", "db", "bench.db"))
        with open(os.path.join(out, "queries.sql")) as f:
            stmts = f.read().splitlines()
        self.assertEqual(len(stmts), SMALL["QUERIES"])
        for s in stmts:
            self.assertEqual(len(con.execute(s).fetchall()), 1, s)
        self.assertEqual(con.execute("SELECT count(*) FROM t").fetchone()[0], SMALL["ROWS"])

    def test_sizes_names_what_was_written(self):
        out = self.make(load(**SMALL))
        with open(os.path.join(out, "sizes")) as f:
            kv = dict(x.split("=") for x in f.read().split())
        www = sum(os.path.getsize(os.path.join(out, "root", "www", x))
                  for x in os.listdir(os.path.join(out, "root", "www")))
        self.assertEqual(int(kv["files"]), SMALL["FILES"])
        self.assertEqual(int(kv["www_kb"]), www // 1024)
        self.assertEqual((int(kv["requests"]), int(kv["queries"])),
                         (SMALL["REQUESTS"], SMALL["QUERIES"]))

    def test_an_existing_directory_is_refused(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            self.assertEqual(load(**SMALL).main(["pressure-data.py", tmp.name]), 2)
        self.assertIn("exists", err.getvalue())
        self.assertEqual(os.listdir(tmp.name), [])
