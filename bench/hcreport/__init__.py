# SPDX-License-Identifier: GPL-2.0
"""make bench's report, one module per concern: workloads (the workload
table), ingest (the run's files, the price table), stats (paired
intervals, verdicts, A/A), targets (the
checks that can fail), render (report.md) and charts (gnuplot).
bench/report.py is the entry point."""
