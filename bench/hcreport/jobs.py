# SPDX-License-Identifier: GPL-2.0
"""The run's boots as job lines (plan.py's Plan in, text out): the
deterministic boots (jobs), wall mode's (wall.jobs) and each kernel's
pads per round (layouts.tsv).  A line is the boot's tag, then KEY=VALUE
words, as scripts/bench-boot.sh reads them."""
from . import workloads
from .settings import ICOUNT_MORE


def job_line(plan, points, mode, name, r, part):
    """one deterministic boot: its tag, then KEY=VALUE words"""
    row = plan.names[name]
    f, key = row["kernel"], plan.layout(name)
    shape = workloads.SHAPES.get(part, {})
    tag = "%s-%s-%d-%s" % (mode, name, r, part)
    append = ["page_alloc.shuffle=1"] if plan.shuffle else []
    if row["append"] != "-":
        append.append(row["append"])
    words = [tag, "mode=" + mode, "config=" + name, "kernel=" + f, "layout=" + key,
             "image=" + (plan.image(key, r) if plan.shuffle else plan.image(f)),
             "round=%d" % r, "boot=" + part, "vcpus=%d" % workloads.vcpus(part),
             "seed=" + (plan.seed(r) or "-"),
             "pad=" + (plan.pad(key, r, points).replace(" ", "/") or "-"),
             "shape=" + (part if shape.get("named") == "yes" else "-"),
             "disk=" + ("yes" if part == "disk" else "no"),
             "programs=" + ("yes" if part in plan.prog_boots() else "no"),
             "history=%d" % r]
    words += ["append=" + a for a in append]
    words.append("workloads=" + ",".join(plan.order(r, part, plan.boot_list(part))))
    return " ".join(words)


def det_jobs(plan, points):
    """the deterministic boots in the order parallel starts them: the real
    programs' boots first (the longest: with one of them last, one worker
    would run it alone), each group in round order.  With icount and
    cachesim both asked for, icount boots the base's round 1 only (its
    check against cachesim's), the configurations of icount alone and the
    rounds beyond DET_ROUNDS; every other icount row is derived from a
    cachesim boot (bench-collect.sh).  Each configuration boots the modes
    and rounds its line of bench/configs.tsv allows (plan.det_parts).
    Then the residency meter's boots (plan.resid_configs)."""
    modes = plan.det_modes()
    both = "icount" in modes and "cachesim" in modes
    keys = []
    for mode in (["cachesim"] if both else modes):
        for r in range(1, plan.det_rounds + 1):
            runs = [(c, r) for c in plan.configs]
            if r == 1 and plan.repeat:
                runs.append((plan.repeat, 1))
            for c, rr in runs:
                keys += [(mode, c, rr, p) for p in plan.det_parts(c, rr, mode)]
                if both and not plan.boots_in(c, "cachesim"):
                    keys += [("icount", c, rr, p) for p in plan.det_parts(c, rr, "icount")]
        if both:
            keys += [("icount", plan.base, 1, p) for p in plan.parts(plan.base, 1)]
        if mode == "icount" or both:
            for r in range(plan.det_rounds + 1, plan.icount_rounds + 1):
                for c in plan.configs:
                    keys += [("icount", c, r, p) for p in plan.det_parts(c, r, "icount")
                             if p == ICOUNT_MORE]
    progs = plan.prog_boots()
    keys = [k for k in keys if k[3] in progs] + [k for k in keys if k[3] not in progs]
    # the residency meter's boots, last: each as its configuration's
    # cachesim boot of round 1's mem boot (its seed, image and workload
    # order), with the meter's module (scripts/bench-boot.sh)
    keys += [("resid", c, 1, "mem") for c in plan.resid_configs]
    return [job_line(plan, points, *k) for k in keys]


def wall_jobs(plan):
    """wall mode's boots: rounds interleaved (A B C, A B C, ...), the base
    twice per round with the repeat; the programs boot of their own, in
    the programs set's configurations, the first PROG_ROUNDS rounds"""
    if "wall" not in plan.modes:
        return []
    names = [c for c in plan.configs if plan.boots_in(c, "wall")]
    if plan.repeat:
        names.append(plan.repeat)
    out = []
    for r in range(1, plan.rounds + 1):
        for c in names:
            row = plan.names[c]
            for part, wl in (("main", plan.wall_main), ("prog", plan.wall_prog)):
                if not wl or (part == "prog" and (not plan.in_set(c, "programs") or
                                                  r > plan.prog_rounds)):
                    continue
                words = ["wall-%s-%d-%s" % (c, r, part), "mode=wall", "config=" + c,
                         "kernel=" + row["kernel"], "image=" + plan.image(row["kernel"]),
                         "round=%d" % r, "boot=" + part,
                         "programs=" + ("yes" if part == "prog" else "no")]
                if row["append"] != "-":
                    words.append("append=" + row["append"])
                words.append("workloads=" + ",".join(plan.order(r, "wall-" + part, wl)))
                out.append(" ".join(words))
    return out


def layouts(plan, points):
    """each relink's pads per round: its key (plan.layout: the kernel's,
    or the layout A/A's own name), the kernel it relinks, the round"""
    if not plan.shuffle or not plan.det_modes():
        return []
    head = "layout\tkernel\tround\tpads (data,bss,mostly,percpu lines at %s)" % \
        ",".join(points)
    return [head] + ["%s\t%s\t%d\t%s" % (k, f, r, plan.pad(k, r, points))
                     for k, f, n in plan.layouts() for r in range(1, n + 1)]
