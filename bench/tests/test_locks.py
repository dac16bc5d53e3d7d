# SPDX-License-Identifier: GPL-2.0
"""Unit tests for bench/hcreport/locks.py: the zone->lock call sites, read
from a hand-written `objdump -dr` listing and a small ELF image built
here (one loadable segment whose bytes hold the calls)."""
import os
import struct
import subprocess
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True     # no __pycache__ beside the scripts
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from hcreport import locks  # noqa: E402

# page_alloc.o as objdump -dr prints it: a static lock (the zonelists'
# seqlock: its address a relocated immediate), a zone->lock in
# free_one_page, rmqueue_bulk and free_pcppages_bulk, a pcp lock
# (_raw_spin_lock), and a zone->lock in .init.text, which is not counted
OBJDUMP = """
mm/page_alloc.o:     file format elf64-x86-64


Disassembly of section .text:

0000000000000000 <__build_all_zonelists>:
   0:\t48 c7 c7 00 00 00 00 \tmov    $0x0,%rdi
\t\t\t3: R_X86_64_32S\t.bss+0x34
   7:\te8 00 00 00 00       \tcall   c <__build_all_zonelists+0xc>
\t\t\t8: R_X86_64_PLT32\t_raw_spin_lock_irqsave-0x4
   c:\tc3                   \tret

0000000000000010 <free_one_page>:
  10:\t48 89 c7             \tmov    %rax,%rdi
  13:\te8 00 00 00 00       \tcall   18 <free_one_page+0x8>
\t\t\t14: R_X86_64_PLT32\t_raw_spin_lock_irqsave-0x4
  18:\tc3                   \tret

0000000000000020 <rmqueue_bulk>:
  20:\t4c 89 ef             \tmov    %r13,%rdi
  23:\te8 00 00 00 00       \tcall   28 <rmqueue_bulk+0x8>
\t\t\t24: R_X86_64_PLT32\t_raw_spin_lock_irqsave-0x4
  28:\te8 00 00 00 00       \tcall   2d <rmqueue_bulk+0xd>
\t\t\t29: R_X86_64_PLT32\t_raw_spin_lock-0x4
  2d:\tc3                   \tret

0000000000000030 <free_pcppages_bulk>:
  30:\t90                   \tnop
  31:\te8 00 00 00 00       \tcall   36 <free_pcppages_bulk+0x6>
\t\t\t32: R_X86_64_PLT32\t_raw_spin_lock_irqsave-0x4
  36:\tc3                   \tret

Disassembly of section .init.text:

0000000000000000 <page_alloc_init>:
   0:\t48 89 c7             \tmov    %rax,%rdi
   3:\te8 00 00 00 00       \tcall   8 <page_alloc_init+0x8>
\t\t\t4: R_X86_64_PLT32\t_raw_spin_lock_irqsave-0x4
   8:\tc3                   \tret
"""

BASE = 0xffffffff81000000
LOCK = BASE + 0x900
# where each function is linked in vmlinux; a second, unrelated
# free_one_page (a static of another file) at 0x600
FUNCS = {"__build_all_zonelists": 0x100, "free_one_page": 0x200, "rmqueue_bulk": 0x300,
         "free_pcppages_bulk": 0x400}


def system_map(extra=""):
    lines = ["%016x T %s" % (BASE + a, f) for f, a in FUNCS.items()]
    lines.append("%016x t free_one_page" % (BASE + 0x600))
    lines.append("%016x T _raw_spin_lock_irqsave" % LOCK)
    return "\n".join(lines) + "\n" + extra


def call(at, target):
    return b"\xe8" + struct.pack("<i", target - (at + 5))


def image(sites, size=0x1000, other=()):
    """an ELF64 image whose one PT_LOAD maps BASE..BASE+size, holding a
    call of LOCK at each of SITES (offsets from BASE), and a call of
    another function at each of OTHER"""
    text = bytearray(b"\x90" * size)
    for off in sites:
        text[off:off + 5] = call(BASE + off, LOCK)
    for off in other:
        text[off:off + 5] = call(BASE + off, LOCK + 0x40)
    ehdr = bytearray(64)
    ehdr[:6] = b"\x7fELF\x02\x01"
    struct.pack_into("<Q", ehdr, 0x20, 64)          # e_phoff
    struct.pack_into("<HH", ehdr, 0x36, 56, 1)      # e_phentsize, e_phnum
    phdr = struct.pack("<IIQQQQQQ", 1, 5, 120, BASE, BASE, size, size, 0x1000)
    return bytes(ehdr) + phdr + bytes(text)


# every counted site's offset in vmlinux: the function's plus the call's
# offset in it
SITES = [0x200 + 3, 0x300 + 3, 0x400 + 1]


class ObjectSites(unittest.TestCase):
    def test_zone_lock_calls_of_text_with_their_offsets(self):
        self.assertEqual(locks.object_sites(OBJDUMP),
                         [("free_one_page", 3), ("rmqueue_bulk", 3),
                          ("free_pcppages_bulk", 1)])

    def test_a_lock_from_a_register_is_counted(self):
        """the seqlock call is left out for its relocated immediate alone"""
        text = OBJDUMP.replace("48 c7 c7 00 00 00 00 \tmov    $0x0,%rdi\n\t\t\t3: R_X86_64_32S\t.bss+0x34",
                               "48 89 c7 00 00 00 00 \tmov    %rax,%rdi")
        self.assertIn(("__build_all_zonelists", 7), locks.object_sites(text))

    def test_a_lock_in_a_global_is_counted(self):
        """a zone of contig_page_data (!NUMA) is a global, not the file's
        static"""
        text = OBJDUMP.replace(".bss+0x34", "contig_page_data+0x1c0")
        self.assertIn(("__build_all_zonelists", 7), locks.object_sites(text))

    def test_a_cold_part_is_counted_and_grouped_by_its_function(self):
        text = OBJDUMP.replace("Disassembly of section .init.text:",
                               "Disassembly of section .text.unlikely:").replace(
                                   "<page_alloc_init>", "<rmqueue_bulk.cold>")
        self.assertIn(("rmqueue_bulk.cold", 3), locks.object_sites(text))
        self.assertEqual(locks.base_name("rmqueue_bulk.cold"), "rmqueue_bulk")

    def test_a_jump_to_the_lock_fails(self):
        text = OBJDUMP.replace("  31:\te8 00 00 00 00       \tcall   36",
                               "  31:\te9 00 00 00 00       \tjmp    36")
        with self.assertRaisesRegex(locks.SiteError, r"free_pcppages_bulk\+0x1: jmp reaches"):
            locks.object_sites(text)


class KernelSites(unittest.TestCase):
    def test_the_groups_hold_vmlinux_addresses(self):
        g = locks.kernel_sites(OBJDUMP, system_map(), image(SITES))
        self.assertEqual(g, {"zone_locks": [BASE + s for s in SITES],
                             "refill_locks": [BASE + 0x303], "drain_locks": [BASE + 0x401]})
        self.assertEqual(locks.calls_arg(g),
                         "0x%x/0x%x/0x%x+0x%x+0x%x" % (BASE + 0x203, BASE + 0x303,
                                                       BASE + 0x401, BASE + 0x303,
                                                       BASE + 0x401))

    def test_a_site_whose_bytes_are_not_the_call_fails(self):
        """a wrong offset or a stale object: vmlinux does not hold the call"""
        with self.assertRaisesRegex(locks.SiteError, r"free_pcppages_bulk\+0x1: 0 places"):
            locks.kernel_sites(OBJDUMP, system_map(), image(SITES[:2]))

    def test_a_call_of_another_function_there_fails(self):
        with self.assertRaisesRegex(locks.SiteError, r"free_pcppages_bulk\+0x1: 0 places"):
            locks.kernel_sites(OBJDUMP, system_map(), image(SITES[:2], other=SITES[2:]))

    def test_a_name_held_twice_is_placed_by_its_bytes_and_fails_if_both_hold_it(self):
        g = locks.kernel_sites(OBJDUMP, system_map(), image(SITES))
        self.assertEqual(g["zone_locks"][0], BASE + 0x203)
        with self.assertRaisesRegex(locks.SiteError, r"free_one_page\+0x3: 2 places"):
            locks.kernel_sites(OBJDUMP, system_map(), image(SITES + [0x603]))

    def test_no_drain_site_fails(self):
        text = OBJDUMP.replace("<free_pcppages_bulk>", "<free_pcppages_other>")
        with self.assertRaisesRegex(locks.SiteError, "drain_locks"):
            locks.kernel_sites(text, system_map().replace("free_pcppages_bulk",
                                                          "free_pcppages_other"), image(SITES))

    def test_no_lock_function_fails(self):
        with self.assertRaisesRegex(locks.SiteError, "no _raw_spin_lock_irqsave in System.map"):
            locks.kernel_sites(OBJDUMP, system_map().replace("_raw_spin_lock_irqsave", "x"),
                               image(SITES))

    def test_not_an_elf_image_fails(self):
        with self.assertRaisesRegex(locks.SiteError, "not a 64-bit"):
            locks.kernel_sites(OBJDUMP, system_map(), b"MZ" + image(SITES))


class Command(unittest.TestCase):
    def test_a_directory_without_the_objects_fails_and_names_it(self):
        with tempfile.TemporaryDirectory() as d:
            p = subprocess.run([sys.executable, os.path.join(os.path.dirname(HERE), "report.py"),
                                "lock-sites", d], capture_output=True, text=True)
        self.assertEqual(p.returncode, 1)
        self.assertIn("report.py: lock-sites %s:" % d, p.stderr)
        self.assertEqual(p.stdout, "")


if __name__ == "__main__":
    unittest.main()
