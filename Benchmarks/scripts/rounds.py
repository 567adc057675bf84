#!/usr/bin/env python3
"""Runs the release benchmarks ROUNDS times and prints, per row, the run with the smallest figure.

Usage (from Benchmarks/, after `swift build -c release`):
    python3 scripts/rounds.py [ROUNDS] [FILE]

On a shared machine other jobs inflate some runs; the best of several rounds, each itself a best
of 5, is the figure least disturbed. FILE defaults to /tmp/stores-benchmarks-200000-42.geojson,
generated if missing. Every raw output goes to stdout as well, prefixed by the round.
"""
import os
import re
import subprocess
import sys

rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 3
path = sys.argv[2] if len(sys.argv) > 2 else "/tmp/stores-benchmarks-200000-42.geojson"
binary = ".build/release/stores-benchmarks"
if not os.path.exists(path):
    subprocess.run([binary, "generate", "--points", "200000", "--seed", "42", "-o", path], check=True)

commands = [
    [binary, "tree"],
    [binary, "load", path],
    [binary, "catalog", path],
    [sys.executable, "scripts/python_reference.py", path],
]
best = {}  # (title, label) -> (first number, line)
order = []
for r in range(1, rounds + 1):
    load = open("/proc/loadavg").read().split()[0] if os.path.exists("/proc/loadavg") else "?"
    print(f"=== round {r} (load average {load})", flush=True)
    for command in commands:
        output = subprocess.run(command, check=True, capture_output=True, text=True).stdout
        title = None
        for line in output.splitlines():
            print(f"[{r}] {line}")
            if not line.strip() or line.startswith("-") or line.startswith("(sink"):
                continue
            parts = re.split(r"\s{2,}", line.strip(), maxsplit=1)
            number = re.match(r"-?[0-9.]+", parts[1]) if len(parts) == 2 else None
            if number is None:
                title = re.sub(r"; best of.*", "", line)
                continue
            key = (title, parts[0])
            value = float(number.group(0))
            if key not in best:
                order.append(key)
            if key not in best or value < best[key][0]:
                best[key] = (value, line)

print(f"\n=== best of {rounds} rounds, row by row")
title = None
for key in order:
    if key[0] != title:
        title = key[0]
        print(f"\n{title}")
    print(best[key][1])
