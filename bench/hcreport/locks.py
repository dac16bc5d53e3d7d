# SPDX-License-Identifier: GPL-2.0
"""The call sites of zone->lock in a kernel, for the cache plugin to count.

The page allocator takes a zone's lock with spin_lock_irqsave(&zone->lock)
and nothing else in mm/page_alloc.c takes a lock that way on SMP (the
pcp lists' lock is a plain spin_lock or trylock; the zonelists'
seqlock, a static of the file, is told apart), so every other call of
_raw_spin_lock_irqsave in that file's run-time text is one zone->lock
acquisition.  Only the page allocator's holds are counted: those of
mm/compaction.c, mm/page_isolation.c and mm/page_reporting.c are not.  Which function each call sits in
depends on the compiler's inlining (vanilla inlines rmqueue_bulk() into
__rmqueue_pcplist(); the series keeps it out of line, as it has a second
caller), so the sites are read from each kernel's own mm/page_alloc.o
(objdump -dr: the call's offset in its function, and its relocation)
and placed in vmlinux by System.map; the call instruction found at each
address is checked against vmlinux's bytes.

Three groups, each one counter of the plugin's calls= (ADDR/ADDR...):
  zone_locks    every site: zone->lock acquisitions by the allocator
  refill_locks  the sites inside rmqueue_bulk() or __rmqueue_pcplist()
                (whichever holds rmqueue_bulk()'s body): batch refills of
                the per-CPU lists
  drain_locks   the site inside free_pcppages_bulk(): batch drains
The rest (free_one_page(), rmqueue_buddy() inlined in
get_page_from_freelist(), the highatomic and watermark paths) take the
lock for one page or block at a time.
"""

import re
import struct

LOCK_FN = "_raw_spin_lock_irqsave"
GROUPS = ("zone_locks", "refill_locks", "drain_locks")
REFILL_FNS = ("rmqueue_bulk", "__rmqueue_pcplist")
DRAIN_FNS = ("free_pcppages_bulk",)


class SiteError(Exception):
    """the kernel's objects do not give the sites: a message naming what"""


FUNC_RE = re.compile(r"^([0-9a-f]+) <([^>]+)>:$")
INSN_RE = re.compile(r"^\s+([0-9a-f]+):\t((?:[0-9a-f]{2} )+)\s*\t?(.*)$")
RELOC_RE = re.compile(r"^\s+([0-9a-f]+): (R_X86_64_\w+)\t(\S+)$")


def counted_section(sec):
    """is code in section SEC counted: the run-time text (.text and its
    .text.unlikely and .text.hot parts, .ref.text), not the init and exit
    code, which runs before or after any phase"""
    return sec is not None and (sec == ".text" or sec.startswith(".text.") or
                                sec == ".ref.text")


def base_name(fn):
    """a function's name without gcc's part suffixes (rmqueue_bulk.cold,
    free_pcppages_bulk.constprop.0: rmqueue_bulk, free_pcppages_bulk)"""
    return fn.split(".")[0]


def object_sites(text):
    """[(function, offset in it)] of every call of LOCK_FN in the run-time
    text of `objdump -dr` output TEXT whose lock is not a static of the
    file itself: the instruction before the call loads %rdi with an
    immediate relocated against a section (.bss+0x34: a file-local
    variable such as the zonelists' seqlock), where a zone's lock is
    reached through a pointer or a global (contig_page_data+X).
    SiteError for a jump to LOCK_FN (a tail call, which this counting
    does not know)."""
    sites = []
    sec = fn = None
    fn_addr = 0
    prev = []           # the current function's instructions: [(addr, bytes, asm, relocs)]
    for line in text.splitlines():
        if line.startswith("Disassembly of section "):
            sec = line[len("Disassembly of section "):].rstrip(":")
            fn, prev = None, []
            continue
        m = FUNC_RE.match(line)
        if m:
            fn, fn_addr, prev = m.group(2), int(m.group(1), 16), []
            continue
        m = INSN_RE.match(line)
        if m:
            prev.append([int(m.group(1), 16), m.group(2).split(), m.group(3), []])
            continue
        m = RELOC_RE.match(line)
        if not m or not prev:
            continue
        at, kind, sym = int(m.group(1), 16), m.group(2), m.group(3)
        prev[-1][3].append((kind, sym))
        insn = prev[-1]
        if not counted_section(sec) or fn is None or kind != "R_X86_64_PLT32" or \
                sym != LOCK_FN + "-0x4":
            continue
        if insn[1][0] != "e8" or at != insn[0] + 1:
            raise SiteError("%s+0x%x: %s reaches %s other than by a call" % (
                fn, insn[0] - fn_addr, insn[2].split()[0] if insn[2] else "an instruction",
                LOCK_FN))
        before = prev[-2] if len(prev) > 1 else None
        static = before is not None and "%rdi" in before[2] and \
            any(k == "R_X86_64_32S" and t.startswith(".") for k, t in before[3])
        if not static:
            sites.append((fn, insn[0] - fn_addr))
    return sites


def system_map(text):
    """{symbol: [addresses]} of System.map's text symbols"""
    syms = {}
    for line in text.splitlines():
        f = line.split()
        if len(f) == 3 and f[1] in "tT":
            syms.setdefault(f[2], []).append(int(f[0], 16))
    return syms


def elf_reader(data):
    """read(vaddr, n): N bytes of an ELF64 little-endian image DATA at
    VADDR, from its loadable segments; None outside them"""
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        raise SiteError("vmlinux is not a 64-bit little-endian ELF image")
    phoff, = struct.unpack_from("<Q", data, 0x20)
    phentsize, phnum = struct.unpack_from("<HH", data, 0x36)
    segs = []
    for i in range(phnum):
        p_type, _, p_offset, p_vaddr, _, p_filesz = struct.unpack_from(
            "<IIQQQQ", data, phoff + i * phentsize)
        if p_type == 1:
            segs.append((p_vaddr, p_offset, p_filesz))

    def read(vaddr, n):
        for v, off, size in segs:
            if v <= vaddr and vaddr + n <= v + size:
                return data[off + vaddr - v:off + vaddr - v + n]
        return None
    return read


def kernel_sites(objdump_text, map_text, vmlinux):
    """{group: [vmlinux addresses]} (GROUPS), or SiteError naming what
    does not hold: no site, a function System.map does not place once, a
    site whose bytes in vmlinux are not a call of LOCK_FN, no refill or
    no drain site"""
    syms = system_map(map_text)
    if LOCK_FN not in syms:
        raise SiteError("no %s in System.map" % LOCK_FN)
    target = syms[LOCK_FN][0]
    read = elf_reader(vmlinux)
    sites = object_sites(objdump_text)
    if not sites:
        raise SiteError("no call of %s in mm/page_alloc.o's run-time text" % LOCK_FN)
    groups = {g: [] for g in GROUPS}
    for fn, off in sites:
        # a static function's name may recur in other files: the one
        # whose bytes hold the call is this file's
        found = []
        for base in syms.get(fn, []):
            b = read(base + off, 5)
            if b and b[0] == 0xe8 and \
                    base + off + 5 + struct.unpack("<i", b[1:])[0] == target:
                found.append(base + off)
        if len(found) != 1:
            raise SiteError("%s+0x%x: %d places in vmlinux hold a call of %s there, "
                            "expected 1" % (fn, off, len(found), LOCK_FN))
        groups["zone_locks"].append(found[0])
        if base_name(fn) in REFILL_FNS:
            groups["refill_locks"].append(found[0])
        if base_name(fn) in DRAIN_FNS:
            groups["drain_locks"].append(found[0])
    for g, fns in (("refill_locks", REFILL_FNS), ("drain_locks", DRAIN_FNS)):
        if not groups[g]:
            raise SiteError("no %s call in %s: %s cannot be counted" % (
                LOCK_FN, " or ".join(fns), g))
    return groups


def calls_arg(groups):
    """the plugin's calls= items for GROUPS, in order: ADDR/ADDR+..."""
    return "+".join("/".join("0x%x" % a for a in groups[g]) for g in GROUPS)


def main(args):
    """report.py lock-sites KERNEL_DIR: print the calls= items of the
    kernel built in KERNEL_DIR (its mm/page_alloc.o, System.map and
    vmlinux); 1 with a message if they do not give them"""
    import os
    import subprocess
    import sys

    if len(args) != 1:
        print("usage: report.py lock-sites KERNEL_DIR", file=sys.stderr)
        return 2
    d = args[0]
    obj = os.path.join(d, "mm", "page_alloc.o")
    try:
        with open(os.path.join(d, "System.map")) as f:
            smap = f.read()
        with open(os.path.join(d, "vmlinux"), "rb") as f:
            image = f.read()
        dump = subprocess.run(["objdump", "-dr", obj], check=True, capture_output=True,
                              text=True).stdout
        print(calls_arg(kernel_sites(dump, smap, image)))
    except (OSError, subprocess.CalledProcessError, SiteError) as e:
        print("report.py: lock-sites %s: %s" % (d, e), file=sys.stderr)
        return 1
    return 0
