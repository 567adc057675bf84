#!/usr/bin/env python3
"""CI gate over ../shared/peer-hours: the opening-hours engine against the reference engines' suites.

Runs `run_peer_hours.py STORES --quiet` (it classifies every disagreement; see its README) and
fails when its summary counts a wrong answer, class (a), or a disagreement no entry classifies,
(?): each of those is either a bug of ours or a difference nobody has decided on yet. Documented
decisions (b) and holiday data (d) pass. Skips, with a message, when ../shared is absent.

    python3 scripts/check_peer_hours.py --stores .build/debug/stores

Standard library only.
"""

import argparse
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RUNNER = os.path.join(ROOT, "..", "shared", "peer-hours", "run_peer_hours.py")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stores", required=True, help="the stores binary to check")
    args = parser.parse_args()
    if not os.path.isfile(RUNNER):
        print(f"peer hours: skipped, {os.path.normpath(RUNNER)} is absent")
        return 0
    run = subprocess.run([sys.executable, RUNNER, args.stores, "--quiet"], capture_output=True, text=True)
    sys.stdout.write(run.stdout)
    sys.stderr.write(run.stderr)
    lines = [line for line in run.stdout.splitlines() if line.startswith("peer hours: ")]
    if run.returncode != 0 or not lines:
        print(f"peer hours: the runner failed (exit {run.returncode})")
        return 1
    summary = lines[-1]
    counts = dict((name, int(count)) for name, count in re.findall(r"\(([a-e?])\) (\d+)", summary))
    bad = {name: count for name, count in counts.items() if name in ("a", "?") and count > 0}
    if bad:
        listed = ", ".join(f"({name}) {count}" for name, count in sorted(bad.items()))
        print(f"peer hours: FAILED: {listed}; run {os.path.normpath(RUNNER)} {args.stores} --list")
        return 1
    print("peer hours: no wrong answer and nothing unclassified")
    return 0


if __name__ == "__main__":
    sys.exit(main())
