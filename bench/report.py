#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Summarise build/bench/results.csv: per workload and metric, the median
and min-max of each configuration over the rounds, and each configuration's
ratio to vanilla with its spread (min/max of the per-round ratios).  A
ratio whose spread crosses 1.0 is flagged "no significant difference".

usage: report.py results.csv report.md
"""
import csv
import statistics
import sys
from collections import defaultdict


def main():
    src, dst = sys.argv[1], sys.argv[2]
    data = defaultdict(lambda: defaultdict(dict))
    configs = []
    for row in csv.DictReader(open(src)):
        key = (row["workload"], row["metric"])
        data[key][row["config"]][int(row["round"])] = float(row["value"])
        if row["config"] not in configs:
            configs.append(row["config"])
    lines = ["# hotcold benchmark report", "",
             "Guests run under QEMU TCG on a 2-core host: absolute rates are "
             "emulator-bound, so the ratios between configurations of the same "
             "run are the result.", "",
             "| workload | metric | " + " | ".join(
                 "%s median (min-max)" % c for c in configs) +
             " | " + " | ".join("%s/vanilla" % c for c in configs if c != "vanilla") + " |",
             "|---|---|" + "---|" * (2 * len(configs) - 1)]
    for (wl, metric), per in sorted(data.items()):
        cells = []
        for c in configs:
            v = list(per.get(c, {}).values())
            cells.append("%.4g (%.4g-%.4g)" % (statistics.median(v), min(v), max(v))
                         if v else "-")
        ratios = []
        base = per.get("vanilla", {})
        for c in configs:
            if c == "vanilla":
                continue
            rs = [per[c][r] / base[r] for r in per.get(c, {}) if r in base and base[r]]
            if not rs:
                ratios.append("-")
                continue
            med = statistics.median(per[c].values()) / statistics.median(base.values())
            flag = " (no significant difference)" if min(rs) <= 1.0 <= max(rs) else ""
            ratios.append("%.3f [%.3f-%.3f]%s" % (med, min(rs), max(rs), flag))
        lines.append("| %s | %s | %s | %s |" % (wl, metric, " | ".join(cells),
                                               " | ".join(ratios)))
    open(dst, "w").write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
