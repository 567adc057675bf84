#!/usr/bin/env python3
"""Whole-process `stores nearest` on two builds' snapshots, alternating: wall clock around the
child process (time.perf_counter) and its peak RSS (os.wait4), one warm-up run each, then RUNS
runs of each build for `nearest --near 47.6,-122.3 --data SNAP --format json` and the same with
`--open-now --where drive_through=yes`. Standard library only.

    python3 Benchmarks/scripts/nearest_ab.py BASE_STORES BASE_SNAP NEW_STORES NEW_SNAP [RUNS]

Time a snapshot that `cp` wrote rather than the file `snapshot build` has just written: that one
showed a higher peak RSS (more page-cache memory mapped a fault) until rewritten.
"""
import os
import statistics
import subprocess
import sys
import time


def run(command):
    start = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    elapsed = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"failed: {' '.join(command)}")
    return elapsed, usage.ru_maxrss


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    builds = {"base": (sys.argv[1], sys.argv[2]), "new": (sys.argv[3], sys.argv[4])}
    runs = int(sys.argv[5]) if len(sys.argv) > 5 else 20
    queries = {"nearest": [], "open+where": ["--open-now", "--where", "drive_through=yes"]}
    results = {}
    for query, extra in queries.items():
        def command(binary, snapshot):
            return [binary, "nearest", "--near", "47.6,-122.3", "--data", snapshot, "--format", "json"] + extra
        for binary, snapshot in builds.values():
            run(command(binary, snapshot))
        for _ in range(runs):
            for tag, (binary, snapshot) in builds.items():
                results.setdefault((query, tag), []).append(run(command(binary, snapshot)))
    for (query, tag), measured in results.items():
        times = [elapsed * 1000 for elapsed, _ in measured]
        print(
            f"{query:11} {tag:5} best {min(times):6.1f} ms  median {statistics.median(times):6.1f} ms  "
            f"peak RSS max {max(rss for _, rss in measured):,} KB  ({len(times)} runs)")


if __name__ == "__main__":
    main()
