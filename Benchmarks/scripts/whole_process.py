#!/usr/bin/env python3
"""Times `stores nearest` as a whole process on a snapshot, against DESIGN §8's target (<= 50 ms
for the whole process on a 1,000,000-store snapshot), and once on the GeoJSON file for contrast.

From the repository root (standard library only):

    python3 Benchmarks/scripts/whole_process.py                    # 1,000,000 stores
    python3 Benchmarks/scripts/whole_process.py --stores 20000     # a try-out, seconds

What it does:
1. `swift build -c release --product stores` in the repository root, and `swift build -c release
   --product stores-benchmarks` in Benchmarks/ (skip both with --no-build).
2. `stores-benchmarks generate --points N --seed 42` (454 MB for 1,000,000 stores) unless the file
   is already there, then `stores snapshot build FILE -o FILE.snap` (indexes the suggested
   conditions; about 80 s and 4 GB of memory for 1,000,000 stores) unless the snapshot is newer
   than the file.
3. `stores nearest --near 47.6062,-122.3321 --data SNAP`, best of --runs (default 10) wall-clock
   runs, and the same with `--open-now --where drive_through=yes`; one run on the GeoJSON file
   (tens of seconds for 1,000,000 stores; --no-geojson skips it).

A run is timed from just before the process is started to its exit (subprocess.run, output to
/dev/null): fork, exec, dynamic loading, opening the snapshot, the query and writing the answer.
Python's own start-up of the child adds about a millisecond. The first run of each command warms
the page cache and is not counted.
"""
import argparse
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
BENCHMARKS = os.path.dirname(HERE)
ROOT = os.path.dirname(BENCHMARKS)
BENCHMARKS_BINARY = os.path.join(BENCHMARKS, ".build", "release", "stores-benchmarks")
TARGET_MS = 50.0  # DESIGN §8
SEATTLE = "47.6062,-122.3321"


def log(message):
    print(message, file=sys.stderr, flush=True)


def run(command, **kwargs):
    log("$ " + " ".join(command))
    return subprocess.run(command, check=True, **kwargs)


def stores_binary(build):
    if build:
        run(["swift", "build", "-c", "release", "--product", "stores"], cwd=ROOT)
    bin_path = subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=ROOT,
                              check=True, capture_output=True, text=True).stdout.strip()
    return os.path.join(bin_path, "stores")


def wall_time(command):
    """Seconds from starting `command` to its exit; fails if it exits non-zero or prints nothing."""
    start = time.perf_counter()
    result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    elapsed = time.perf_counter() - start
    if result.returncode != 0 or not result.stdout:
        raise SystemExit(f"{' '.join(command)} exited {result.returncode} with {len(result.stdout)} bytes of output")
    return elapsed


def measure(stores, workdir, runs=10, build=True, geojson_run=True, seed=42):
    """Every figure under `process.*` keys (see Benchmarks/README.md)."""
    os.makedirs(workdir, exist_ok=True)
    if build:
        run(["swift", "build", "-c", "release", "--product", "stores-benchmarks"], cwd=BENCHMARKS)
    binary = stores_binary(build)
    geojson = os.path.join(workdir, f"stores-benchmarks-{stores}-{seed}.geojson")
    snapshot = geojson[: -len(".geojson")] + ".snap"
    if not os.path.exists(geojson):
        run([BENCHMARKS_BINARY, "generate", "--points", str(stores), "--seed", str(seed), "-o", geojson],
            stdout=subprocess.DEVNULL)
    r = {"process.stores": stores, "process.geojson_bytes": os.path.getsize(geojson)}
    if not os.path.exists(snapshot) or os.path.getmtime(snapshot) < os.path.getmtime(geojson):
        start = time.perf_counter()
        run([binary, "snapshot", "build", geojson, "-o", snapshot], stdout=subprocess.DEVNULL)
        r["process.snapshot_build_s"] = time.perf_counter() - start
    r["process.snapshot_bytes"] = os.path.getsize(snapshot)

    nearest = [binary, "nearest", "--near", SEATTLE, "--data", snapshot]
    filtered = nearest + ["--open-now", "--where", "drive_through=yes"]
    for key, command in (("snapshot_nearest_ms", nearest), ("snapshot_nearest_open_drive_ms", filtered)):
        log(f"$ {' '.join(command)}  (best of {runs})")
        wall_time(command)  # page cache
        r[f"process.{key}"] = min(wall_time(command) for _ in range(runs)) * 1e3
    r["process.runs"] = runs
    if geojson_run:
        command = [binary, "nearest", "--near", SEATTLE, "--data", geojson]
        log(f"$ {' '.join(command)}  (one run)")
        r["process.geojson_nearest_s"] = wall_time(command)
    return r


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--stores", type=int, default=1_000_000, help="stores in the generated file (default 1000000)")
    p.add_argument("--runs", type=int, default=10, help="best of R runs on the snapshot (default 10)")
    p.add_argument("--workdir", default="/tmp", help="where the GeoJSON file and the snapshot go (default /tmp)")
    p.add_argument("--no-build", action="store_true", help="use the existing release binaries")
    p.add_argument("--no-geojson", action="store_true", help="skip the run on the GeoJSON file")
    p.add_argument("--json", default=None, help="also write the figures to this JSON file")
    a = p.parse_args()
    r = measure(a.stores, a.workdir, a.runs, not a.no_build, not a.no_geojson)
    print(f"stores nearest --near {SEATTLE}, whole process, {a.stores:,} stores "
          f"(load average {open('/proc/loadavg').read().split()[0]})")
    if "process.snapshot_build_s" in r:
        print(f"  stores snapshot build: {r['process.snapshot_build_s']:.1f} s")
    print(f"  snapshot: {r['process.snapshot_bytes'] / 1e6:.1f} MB "
          f"({r['process.snapshot_bytes'] / a.stores:.0f} B a store); GeoJSON {r['process.geojson_bytes'] / 1e6:.1f} MB")
    for key, label in (("snapshot_nearest_ms", "--data SNAP"),
                       ("snapshot_nearest_open_drive_ms", "--data SNAP --open-now --where drive_through=yes")):
        value = r[f"process.{key}"]
        verdict = "met" if value <= TARGET_MS else f"missed, {value / TARGET_MS:.1f}x"
        print(f"  {label}: {value:.1f} ms, best of {a.runs} (target <= {TARGET_MS:.0f} ms: {verdict})")
    if "process.geojson_nearest_s" in r:
        print(f"  --data GEOJSON (one run): {r['process.geojson_nearest_s']:.2f} s")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(r, f, indent=2)


if __name__ == "__main__":
    main()
