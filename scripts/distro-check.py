#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check a distro kernel's .config against Debian's (CONFIG_BASE=distro).

Prints every watched option whose value in the built configuration
differs from Debian's, with what explains it, and exits 1 when any of
them is explained by no line of the fragments: one line per such option
on stderr.  Exit status 2 on bad input (a file missing, a malformed
directive), with one line naming it.

The watched options:
  - every symbol defined (config or menuconfig) directly in KCONFIG_FILES
    of the kernel tree (--srctree, default build/linux): memory
    management, DAMON, init (cgroups and memcg included), preemption and
    the tick, security and hardening, KFENCE;
  - every symbol, wherever defined, whose name matches NAME_PATTERN
    (cgroups, NUMA, NR_CPUS, the scheduler's, init_on_alloc/free,
    hardening, zswap, MGLRU, DAMON, address-space randomisation);
  - but never TOOLCHAIN's: what the build machine's compiler, linker,
    rustc and pahole report (their versions and capabilities).
Without a tree, FALLBACK_PATTERN (NAME_PATTERN plus the common names of
mm/Kconfig's options) is matched against the names alone, and the output
says so.

An option that differs is explained when a fragment
  - sets it (CONFIG_X=... or "# CONFIG_X is not set"), or
  - names it in a line "# distro-check: allows CONFIG_X because REASON":
    the option is fallout of the fragment's settings (olddefconfig turned
    it off with what it depends on), which the fragment owns with its
    reason.  Nothing infers dependencies: each is written down.
An unset option (absent from the file) and "is not set" are the same
value, off.

usage: scripts/distro-check.py [--srctree DIR] DEBIAN_CONFIG BUILT_CONFIG FRAGMENT...
  DEBIAN_CONFIG may be xz-compressed (the package's file).
"""
import argparse
import lzma
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KCONFIG_FILES = [
    "mm/Kconfig", "mm/Kconfig.debug", "mm/damon/Kconfig", "init/Kconfig",
    "kernel/Kconfig.preempt", "kernel/Kconfig.hz", "security/Kconfig",
    "security/Kconfig.hardening", "lib/Kconfig.kfence",
]
NAME_PATTERN = (r"CGROUP|MEMCG|CPUSETS|NUMA|^NR_CPUS|^NODES_SHIFT|^PREEMPT|^SCHED_"
                r"|^INIT_ON_|^INIT_STACK|HARDENED|^KFENCE|^ZSWAP|^ZSMALLOC|^LRU_GEN"
                r"|^DAMON|^RANDOMIZE_|STACKPROTECTOR|^FORTIFY|^SLAB_FREELIST")
FALLBACK_PATTERN = (NAME_PATTERN + r"|^TRANSPARENT_HUGEPAGE|^HUGETLB|^COMPACTION"
                    r"|^MIGRATION|^KSM|^SWAP|^SLUB|^SHUFFLE|^PAGE_|^MEMORY_|^MHP_|^ZONE_"
                    r"|^SPARSEMEM|^USERFAULTFD|^HIGHMEM|^PCP_|^MMU|^VM_")
# what the build machine's tools report (init/Kconfig's versions and
# capabilities of the compiler, assembler, linker, rustc and pahole), not
# a setting: never compared
TOOLCHAIN = (r"^(CC_(VERSION_TEXT|IS_|HAS_|CAN_)|GCC_|CLANG_|LD_(VERSION|IS_|CAN_)|LLD_"
             r"|AS_(VERSION|IS_|HAS_)|RUSTC_|RUST_IS_|PAHOLE_|TOOLS_SUPPORT_|BINDGEN_)")
SETTING = re.compile(r"^(CONFIG_[A-Za-z0-9_]+)=(.*)$|^# (CONFIG_[A-Za-z0-9_]+) is not set$")
ALLOWS = re.compile(r"^#\s*distro-check:\s*(.*)$")
ALLOWS_FORM = re.compile(r"^allows (CONFIG_[A-Za-z0-9_]+) because (\S.*)$")
DEFINE = re.compile(r"^\s*(?:menu)?config\s+([A-Za-z0-9_]+)\s*$")


class BadInput(Exception):
    """A file or a line the check cannot read: one message naming it."""


def read_text(path):
    """A file's text; .xz files decompressed."""
    try:
        if path.endswith(".xz"):
            with lzma.open(path, "rt") as f:
                return f.read()
        with open(path) as f:
            return f.read()
    except (OSError, lzma.LZMAError, UnicodeDecodeError) as e:
        raise BadInput("cannot read %s: %s" % (path, e)) from e


def parse_config(path):
    """{CONFIG_X: value} of a .config ("n" for "is not set")."""
    values = {}
    for line in read_text(path).splitlines():
        m = SETTING.match(line)
        if m:
            values[m.group(1) or m.group(3)] = m.group(2) if m.group(1) else "n"
    if not values:
        raise BadInput("%s holds no CONFIG_ option -- is it a kernel configuration?" % path)
    return values


def parse_fragment(path):
    """{CONFIG_X: why} for every option the fragment sets or allows."""
    why = {}
    for n, line in enumerate(read_text(path).splitlines(), 1):
        where = "%s:%d" % (os.path.relpath(path, ROOT) if path.startswith(ROOT) else path, n)
        m = SETTING.match(line)
        if m:
            why[m.group(1) or m.group(3)] = "set by " + where
            continue
        m = ALLOWS.match(line)
        if m:
            a = ALLOWS_FORM.match(m.group(1).strip())
            if not a:
                raise BadInput("%s: '%s': expected '# distro-check: allows CONFIG_X because REASON'"
                               % (where, line))
            why[a.group(1)] = "allowed by %s: %s" % (where, a.group(2))
    return why


def kconfig_symbols(srctree):
    """The CONFIG_ names defined in KCONFIG_FILES under srctree."""
    names = set()
    for rel in KCONFIG_FILES:
        for line in read_text(os.path.join(srctree, rel)).splitlines():
            m = DEFINE.match(line)
            if m:
                names.add("CONFIG_" + m.group(1))
    return names


def watched(name, symbols, pattern):
    """Whether the check compares this option."""
    bare = name[len("CONFIG_"):]
    if re.search(TOOLCHAIN, bare):
        return False
    return name in symbols or re.search(pattern, bare) is not None


def off(value):
    """An option's value, with unset and "is not set" both "n"."""
    return "n" if value is None else value


def shown(value):
    """An option's value as printed: "unset" when the file does not have it."""
    return "unset" if value is None else value


def differences(debian, built, symbols, pattern):
    """[(name, Debian's value, the built value)] of the watched options that
    differ, as printed"""
    out = []
    for name in sorted(set(debian) | set(built)):
        if watched(name, symbols, pattern) and off(debian.get(name)) != off(built.get(name)):
            out.append((name, shown(debian.get(name)), shown(built.get(name))))
    return out


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--srctree", default=os.path.join(ROOT, "build", "linux"))
    ap.add_argument("debian")
    ap.add_argument("built")
    ap.add_argument("fragments", nargs="+")
    args = ap.parse_args(argv)
    try:
        debian = parse_config(args.debian)
        built = parse_config(args.built)
        why = {}
        for frag in args.fragments:
            why.update(parse_fragment(frag))
        if os.path.isdir(args.srctree):
            symbols, pattern = kconfig_symbols(args.srctree), NAME_PATTERN
            source = "the Kconfig files under %s and the name pattern" % args.srctree
        else:
            symbols, pattern = set(), FALLBACK_PATTERN
            source = "the fallback name pattern (no tree at %s)" % args.srctree
    except BadInput as e:
        print("distro-check: %s" % e, file=sys.stderr)
        return 2
    diffs = differences(debian, built, symbols, pattern)
    print("distro-check: %d watched options (%s) differ from Debian's:" % (len(diffs), source))
    unexplained = []
    for name, was, now in diffs:
        print("  %-40s Debian %-8s built %-8s %s" % (name, was, now, why.get(name, "UNEXPLAINED")))
        if name not in why:
            unexplained.append((name, was, now))
    for name, was, now in unexplained:
        print("distro-check: %s is %s in Debian's configuration and %s in %s, and no line of %s explains it"
              " -- set it in a fragment with its reason, or add '# distro-check: allows %s because REASON'"
              % (name, was, now, args.built, " ".join(args.fragments), name), file=sys.stderr)
    return 1 if unexplained else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
