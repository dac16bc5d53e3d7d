# SPDX-License-Identifier: GPL-2.0
"""make bench's settings (environment variables), each checked with one
error line per bad value, naming the setting, its value and the values
it takes ("ROUNDS=abc: expected a whole number from 1 to 20"); the plan
(plan.py) reads them through Settings."""
import os

# the settings this program reads (the plan's command= names those set)
SETTINGS = ("QUICK", "MODES", "CONFIGS", "WORKLOADS", "ROUNDS", "SECS", "SCALE", "DET_ROUNDS",
            "ICOUNT_ROUNDS", "PROG_ROUNDS", "SWEEP_ROUNDS", "GEOMETRY", "L2WAYS", "L3WAYS",
            "SHUFFLE", "BIG_MB", "RUN_NAME", "JOBS", "HOSTS", "RUN_SEED", "DRY_RUN",
            "CONFIG_BASE", "SUITE", "SILICON", "SILICON_WAIT", "RESIDENCY")
# the boot icount's rounds beyond DET_ROUNDS take (a fifth of a cachesim
# boot's time; docs/decisions.md, "Eight rounds of instructions")
ICOUNT_MORE = "mem"
# the plugin takes a set-associative cache whose size over ways x 64-byte
# lines is a power of two; every L2 and L3 here is one (0: fully
# associative, capacity misses only)
WAYS = ("0", "1", "2", "4", "8", "16", "32", "64")
# the simulated machine and the CPU model whose CPUID describes it to the
# guest (the exit threshold is its LLC slice)
GEOMETRIES = {
    "zen3": ("EPYC-Milan", "l1size=32768,l1ways=8,l2size=524288,l2ways=%(l2)s,"
                           "l3size=33554432,l3ways=%(l3)s"),
    "v1": ("max", "l1size=49152,l1ways=12,l2size=2097152,l2ways=%(l2)s"),
}


class Settings:
    """The settings read from ENV, each checked; errors collects one line
    per bad value, notes what the run changed and why."""

    def __init__(self, env):
        self.env, self.errors, self.notes = env, [], []

    def get(self, name, default):
        v = self.env.get(name, "")
        return v if v != "" else default

    def bad(self, text):
        self.errors.append(text)

    def int(self, name, lo, hi, default):
        v = self.get(name, default)
        if v.isdigit() and v.isascii() and not (len(v) > 1 and v[0] == "0") and \
                len(v) <= len(str(hi)) and lo <= int(v) <= hi:
            return int(v)
        self.bad("%s=%s: expected a whole number from %d to %d" % (name, v, lo, hi))
        return lo

    def choice(self, name, words, default):
        v = self.get(name, default)
        if v in words:
            return v
        self.bad("%s=%s: expected %s" % (name, v, or_list(words)))
        return words[0]

    def words(self, name, words, default):
        v = self.get(name, default)
        got = v.split(" ")
        got = [w for w in got if w != ""]
        if got and all(w in words for w in got) and len(set(got)) == len(got) and \
                not any(c in v for c in "\t\n"):
            return got
        self.bad("%s=%s: expected one or more of: %s (each once)" % (name, v, " ".join(words)))
        return [words[0]]

    def name(self, name, hi, default):
        v = self.get(name, default)
        ok = v and v.isascii() and v[0].isalnum() and len(v) <= hi and \
            all(c.isalnum() or c in "._-" for c in v)
        if ok:
            return v
        self.bad("%s=%s: expected a name of 1 to %d letters, digits, '.', '_' or '-', starting "
                 "with a letter or digit" % (name, v, hi))
        return "x"


def or_list(words):
    return words[0] if len(words) == 1 else "%s or %s" % (", ".join(words[:-1]), words[-1])


def hosts_of(s, path):
    """HOSTS: a file in GNU parallel's --sshloginfile format (a login a
    line, [N/]HOST or [N/]USER@HOST, ':' this machine, # comments)"""
    if not path:
        return ""
    try:
        with open(path) as f:
            lines = [x.strip() for x in f if x.strip() and not x.lstrip().startswith("#")]
    except OSError as e:
        s.bad("HOSTS=%s: cannot read it (%s) -- a file in GNU parallel's --sshloginfile "
              "format, a login a line" % (path, e.strerror))
        return ""
    for x in lines:
        if any(c in x for c in "'\"`$;&|<>\\"):
            s.bad("HOSTS=%s: '%s': expected [N/]HOST, [N/]USER@HOST or ':' (this machine)" %
                  (path, x))
    if not lines:
        s.bad("HOSTS=%s: no login in it -- a login a line ([N/]HOST, ':' this machine)" % path)
    return os.path.abspath(path)
