#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The data of the memory-pressure programs (bench/workloads.tsv: the
program workloads fileserver, sqlite and backup_beside_compile; guest/
jobs/bench.sh), written by scripts/programs.sh into the programs archive:

  DIR/root/www/NNNN.html  FILES static files of 8-128 KB (lighttpd's
                          document root, the backup's file set)
  DIR/root/db/bench.db    an SQLite database of ROWS rows (id, k, v)
                          with an index on k
  DIR/urls                REQUESTS request paths for httperf's --wlog,
                          NUL-separated, drawn with a Zipf popularity
                          (s = ZIPF_S) over the files in a seeded order:
                          a few files hot, a long tail that streams
  DIR/queries.sql         QUERIES statements for the sqlite3 shell, one
                          output line each: point reads by id (Zipf over
                          the rows), index reads by k and range scans
  DIR/sizes               KEY=VALUE: files, www_kb, rows, db_kb,
                          requests, queries (the guest checks its data
                          against it and prints it)

The root becomes an ext4 image (scripts/lib.sh's ext4_image) that the
guest copies into a loop device's backing file, so that reading it is
block I/O that stays in the guest (the deterministic modes).  Everything
is a function of SEED: the same seed, the same bytes (SQLite's file
header names the library's version: the same host, the same database).
The contents are text that repeats every 4 KB within a file: gzip packs
the image, and the backup's gzip still has work to do.

usage: scripts/pressure-data.py DIR
"""
import os
import random
import sqlite3
import sys

SEED = 20021030         # 2.5.45's release date
FILES = 1024
FILE_UNIT = 8192        # a file is 1..16 units
ROWS = 200000
VALUE_BYTES = 200
REQUESTS = 20000
QUERIES = 20000
ZIPF_S = 1.0
WORDS = ("page hot cold zone lock batch list cache buddy order free "
         "alloc refill drain high low reclaim readahead exit fault").split()


def zipf_cdf(n, s):
    """The cumulative weights of ranks 1..n under Zipf's law, 1/r^s."""
    acc, out = 0.0, []
    for r in range(1, n + 1):
        acc += 1.0 / r ** s
        out.append(acc)
    return out


def draw(rng, cdf, k):
    """k ranks (0-based) drawn from the cumulative weights CDF."""
    return rng.choices(range(len(cdf)), cum_weights=cdf, k=k)


def block(rng, size=4096):
    """SIZE bytes of words and newlines."""
    out, n = [], 0
    while n < size:
        w = rng.choice(WORDS) + (" " if rng.random() < 0.9 else "\n")
        out.append(w)
        n += len(w)
    return "".join(out)[:size].encode()


def file_sizes(rng):
    return [FILE_UNIT * rng.randint(1, 16) for _ in range(FILES)]


def write_www(root, rng):
    """The static files; returns their total size in bytes."""
    d = os.path.join(root, "www")
    os.makedirs(d)
    total = 0
    for i, size in enumerate(file_sizes(rng)):
        b = block(rng)
        with open(os.path.join(d, "%04d.html" % i), "wb") as f:
            f.write((b * (size // len(b) + 1))[:size])
        total += size
    return total


def write_db(root, rng):
    """The database (its journal off: written once, here); returns its
    size in bytes."""
    d = os.path.join(root, "db")
    os.makedirs(d)
    path = os.path.join(d, "bench.db")
    con = sqlite3.connect(path)
    con.execute("PRAGMA page_size = 4096")
    con.execute("PRAGMA journal_mode = OFF")
    con.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, k INTEGER, v TEXT)")
    text = block(rng, 4096).decode().replace("\n", " ")
    rows = ((i, (i * 2654435761) % ROWS, (text[i % 997:] + text)[:VALUE_BYTES])
            for i in range(1, ROWS + 1))
    con.executemany("INSERT INTO t VALUES (?, ?, ?)", rows)
    con.execute("CREATE INDEX tk ON t (k)")
    con.commit()
    con.close()
    return os.path.getsize(path)


def urls(rng):
    """The request paths: Zipf ranks mapped to files in a seeded order."""
    order = list(range(FILES))
    rng.shuffle(order)
    return ["/%04d.html" % order[r] for r in draw(rng, zipf_cdf(FILES, ZIPF_S), REQUESTS)]


def queries(rng):
    """The statements: 8 in 10 a point read by id (Zipf over the rows in
    a seeded order), 3 in 20 an index read by k, 1 in 20 a scan of 256
    consecutive ids; each prints one line."""
    cdf = zipf_cdf(ROWS, ZIPF_S)
    perm = list(range(1, ROWS + 1))
    rng.shuffle(perm)
    out = []
    for _ in range(QUERIES):
        x = rng.random()
        if x < 0.8:
            out.append("SELECT length(v) FROM t WHERE id = %d;" % perm[draw(rng, cdf, 1)[0]])
        elif x < 0.95:
            out.append("SELECT count(*) FROM t WHERE k = %d;" % rng.randrange(ROWS))
        else:
            a = rng.randrange(1, ROWS - 256)
            out.append("SELECT count(*), sum(length(v)) FROM t WHERE id BETWEEN %d AND %d;" %
                       (a, a + 255))
    return out


def main(argv):
    if len(argv) != 2:
        print("usage: scripts/pressure-data.py DIR", file=sys.stderr)
        return 2
    out = argv[1]
    if os.path.exists(out):
        print("pressure-data.py: %s exists: give a new directory" % out, file=sys.stderr)
        return 2
    root = os.path.join(out, "root")
    os.makedirs(root)
    rng = random.Random(SEED)
    www = write_www(root, rng)
    db = write_db(root, rng)
    with open(os.path.join(out, "urls"), "w") as f:
        f.write("\0".join(urls(rng)) + "\0")
    with open(os.path.join(out, "queries.sql"), "w") as f:
        f.write("\n".join(queries(rng)) + "\n")
    with open(os.path.join(out, "sizes"), "w") as f:
        f.write("files=%d www_kb=%d rows=%d db_kb=%d requests=%d queries=%d\n" % (
            FILES, www // 1024, ROWS, db // 1024, REQUESTS, QUERIES))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
