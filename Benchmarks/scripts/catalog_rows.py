#!/usr/bin/env python3
"""The whole-process rows of issue 12's table, for two builds of `stores` side by side.

Runs each binary on the same GeoJSON file in the same run: load with hours (`stores nearest`:
seconds and MB/s, whole process; `stores info`: peak RSS and bytes a store above the file's size), `stores snapshot build` (seconds,
size, ratio to the GeoJSON), and `stores nearest --open-now --where drive_through=yes` on that
snapshot (best of 5, milliseconds, whole process). Prints one row a figure: the base build, the
new build, new/base, and the issue's target.

    python3 Benchmarks/scripts/catalog_rows.py --base OLD/stores --new .build/release/stores FILE.geojson

Standard library only; everything it runs is local, and it deletes the snapshots it writes.
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time


def run(command):
    """Wall seconds and peak RSS in bytes of one child process."""
    start = time.perf_counter()
    result = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    seconds = time.perf_counter() - start
    if result.returncode != 0:
        sys.exit(f"{' '.join(command)} failed ({result.returncode}): {result.stderr.strip()[:400]}")
    return seconds


def peak_rss(command):
    """Peak RSS in bytes, from GNU time's %M (kB)."""
    result = subprocess.run(
        ["/usr/bin/time", "-f", "%M"] + command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    if result.returncode != 0:
        sys.exit(f"{' '.join(command)} failed: {result.stderr.strip()[:400]}")
    return int(result.stderr.strip().splitlines()[-1]) * 1024


def measure(binary, geojson, stores, workdir, label):
    size = os.path.getsize(geojson)
    figures = {}
    # Loading with hours and one query: `info` would add its summary pass over every store.
    load = min(run([binary, "nearest", "--near", "0,0", "--data", geojson]) for _ in range(2))
    figures["load_s"] = load
    figures["load_mb_s"] = size / 1e6 / load
    rss = peak_rss([binary, "info", "--data", geojson])
    figures["rss_mb"] = rss / 1e6
    figures["rss_above_file_b_per_store"] = (rss - size) / stores
    snapshot = os.path.join(workdir, f"{label}.snap")
    figures["snapshot_build_s"] = run([binary, "snapshot", "build", geojson, "-o", snapshot])
    figures["snapshot_b_per_store"] = os.path.getsize(snapshot) / stores
    figures["snapshot_over_geojson"] = os.path.getsize(snapshot) / size
    query = [binary, "nearest", "--near", "47.6062,-122.3321", "--open-now", "--where", "drive_through=yes",
             "--data", snapshot]
    figures["nearest_filtered_ms"] = min(run(query) for _ in range(5)) * 1e3
    plain = [binary, "nearest", "--near", "47.6062,-122.3321", "--data", snapshot]
    figures["nearest_ms"] = min(run(plain) for _ in range(5)) * 1e3
    os.unlink(snapshot)
    return figures


ROWS = [
    ("load_mb_s", "default load (hours on), MB/s", "≥ 150", "{:.1f}"),
    ("load_s", "  load, seconds", "", "{:.2f}"),
    ("rss_mb", "peak RSS of `stores info`, MB", "", "{:.0f}"),
    ("rss_above_file_b_per_store", "  bytes a store above the file's size", "≤ 350", "{:.0f}"),
    ("snapshot_build_s", "snapshot build, seconds", "≤ 5 (1M)", "{:.2f}"),
    ("snapshot_b_per_store", "snapshot bytes a store", "", "{:.0f}"),
    ("snapshot_over_geojson", "snapshot size / GeoJSON size", "≤ 0.8", "{:.2f}"),
    ("nearest_filtered_ms", "`nearest --open-now --where drive_through=yes` on the snapshot, ms", "≤ 30 (1M)", "{:.1f}"),
    ("nearest_ms", "`nearest` on the snapshot, ms", "", "{:.1f}"),
]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True, help="the stores binary to compare against")
    parser.add_argument("--new", required=True, help="the stores binary measured")
    parser.add_argument("--stores", type=int, required=True, help="how many stores the file holds")
    parser.add_argument("geojson")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="stores-catalog-rows-") as workdir:
        base = measure(args.base, args.geojson, args.stores, workdir, "base")
        new = measure(args.new, args.geojson, args.stores, workdir, "new")
    print(f"{args.geojson}: {os.path.getsize(args.geojson) / 1e6:.1f} MB, {args.stores} stores")
    print("| figure | base | new | new/base | target |")
    print("|---|---|---|---|---|")
    for key, label, target, form in ROWS:
        ratio = new[key] / base[key] if base[key] else float("nan")
        print(f"| {label} | {form.format(base[key])} | {form.format(new[key])} | {ratio:.2f}× | {target} |")


if __name__ == "__main__":
    main()
