#!/usr/bin/env python3
"""Make the bundled public-holiday data, Data/holidays/<CC>.json.

The dates come from the PyPI package `holidays` (pinned in
scripts/requirements-holidays.txt), category "public" only, with the package's
default observed-day rules (so `US` 2026-07-03 is "Independence Day (observed)").
Names are in US English (`language="en_US"`) where the package has that
translation, else in the package's default language for the country (for the
countries here that is English too: BS, FJ, NZ, ZA). The language used is
recorded in each file.

One file per country. National dates under "national"; for every subdivision
the package knows, the region's *difference* from the national list under
"regions": a date with a name is a holiday in the region (added, or renamed
there); a date with `null` is a national date that is NOT a holiday in that
region (for example `US` Columbus Day in California, or the Sunday
"Australia Day" in Australian states that only keep the Monday). "aliases"
maps the other names the package accepts for a subdivision to its code.
The format is described in Data/holidays/README.md.

Deterministic: no clock, no network; the year range and the country list are
constants below (change them, or pass --years / --countries). Running it twice
with the same package version gives byte-identical output.

Usage:
    python3 -m venv /tmp/holvenv
    /tmp/holvenv/bin/pip install -r scripts/requirements-holidays.txt
    /tmp/holvenv/bin/python scripts/make_holidays.py             # writes Data/holidays/
    /tmp/holvenv/bin/python scripts/make_holidays.py --years 2026-2032 --out DIR
    /tmp/holvenv/bin/python scripts/make_holidays.py --check Data/stores.geojson more.geojson
        # lists addr:country values of those files that the country list lacks
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys

import holidays
from holidays.registry import COUNTRIES as _REGISTRY

# "From last year to five years ahead", as of 2026-11-22. Bump once a year.
FIRST_YEAR = 2025
LAST_YEAR = 2031

# Every addr:country in Data/stores.geojson, in the corpus (shared/corpus/geojson:
# Starbucks worldwide 2017, Manila, Los Angeles, Dixy RU, ...), and the issue's
# required list. Only codes the `holidays` package supports (the corpus' defective
# "M" is not a country). Check new data with --check.
COUNTRIES = sorted({
    # Issue's required list.
    "US", "CA", "GB", "DE", "FR", "TW", "JP", "AU", "NZ", "BR", "PH", "IS", "NO",
    # Data/stores.geojson.
    "MX", "ZA", "IN", "SG", "FJ",
    # Corpus.
    "AD", "AE", "AR", "AT", "AW", "AZ", "BE", "BG", "BH", "BN", "BO", "BS", "CH", "CL",
    "CN", "CO", "CR", "CW", "CY", "CZ", "DK", "EG", "ES", "FI", "GR", "GT", "HU", "ID",
    "IE", "JO", "KH", "KR", "KW", "KZ", "LB", "LU", "MA", "MC", "MY", "NL", "OM", "PA",
    "PE", "PL", "PR", "PT", "QA", "RO", "RU", "SA", "SE", "SK", "SV", "TH", "TR", "TT",
    "VN",
})

LANGUAGE = "en_US"

_NAMES = {entry[1]: entry[0] for entry in _REGISTRY.values()}


def country_name(code: str) -> str:
    """'UnitedStates' -> 'United States' (the package's class name, spaced)."""
    raw = _NAMES.get(code, code)
    return re.sub(r"(?<=[a-z])(?=[A-Z])", " ", raw)


def language_for(code: str) -> str | None:
    supported = holidays.country_holidays(code).supported_languages or ()
    return LANGUAGE if LANGUAGE in supported else None


def dates(code: str, years: range, language: str | None, subdiv: str | None = None) -> dict[str, str]:
    cal = holidays.country_holidays(code, subdiv=subdiv, years=years, language=language)
    return {d.isoformat(): name for d, name in sorted(cal.items())}


def country_data(code: str, years: range) -> dict:
    language = language_for(code)
    national = dates(code, years, language)
    cal_class = type(holidays.country_holidays(code))
    regions: dict[str, dict[str, str | None]] = {}
    for subdiv in sorted(holidays.list_supported_countries()[code]):
        local = dates(code, years, language, subdiv)
        diff: dict[str, str | None] = {}
        for day in sorted(set(local) | set(national)):
            if day not in local:
                diff[day] = None
            elif national.get(day) != local[day]:
                diff[day] = local[day]
        regions[subdiv] = diff
    aliases = dict(sorted((getattr(cal_class, "subdivisions_aliases", None) or {}).items()))
    return {
        "country": code,
        "name": country_name(code),
        "source": f"holidays {holidays.__version__} (PyPI)",
        "language": language or getattr(cal_class, "default_language", None) or "en",
        "years": [years.start, years.stop - 1],
        "national": national,
        "regions": regions,
        "aliases": aliases,
    }


def _s(value) -> str:
    return json.dumps(value, ensure_ascii=False)


def render(data: dict) -> str:
    """Compact JSON, one date a line, keys in a fixed order."""
    out = []
    head = ",".join(f"{_s(k)}:{_s(data[k])}" for k in ("country", "name", "source", "language"))
    out.append("{" + head + ',"years":' + _s(data["years"]).replace(" ", "") + ",")
    out.append('"national":{')
    out.append(",\n".join(f"{_s(d)}:{_s(n)}" for d, n in data["national"].items()))
    out.append("},")
    out.append('"regions":{')
    blocks = []
    for region, diff in data["regions"].items():
        if diff:
            body = ",\n".join(f"{_s(d)}:{_s(n)}" for d, n in diff.items())
            blocks.append(f"{_s(region)}:{{\n{body}}}")
        else:
            blocks.append(f"{_s(region)}:{{}}")
    out.append(",\n".join(blocks))
    out.append("},")
    out.append('"aliases":{' + ",".join(f"{_s(a)}:{_s(c)}" for a, c in data["aliases"].items()) + "}")
    out.append("}")
    text = "\n".join(line for line in out if line != "") + "\n"
    json.loads(text)  # self-check
    return text


def check(paths: list[str]) -> int:
    found: set[str] = set()
    for path in paths:
        with open(path, encoding="utf-8") as handle:
            for match in re.finditer(r'"addr:country"\s*:\s*"([^"]*)"', handle.read()):
                found.add(match.group(1))
    supported = holidays.list_supported_countries()
    missing = sorted(c for c in found if c not in COUNTRIES)
    for code in missing:
        print(f"{code}: {'supported by holidays, add it' if code in supported else 'not supported by holidays'}")
    return 1 if any(c in supported for c in missing) else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "..", "Data", "holidays"))
    parser.add_argument("--years", default=f"{FIRST_YEAR}-{LAST_YEAR}", help="FIRST-LAST, inclusive")
    parser.add_argument("--countries", help="comma-separated ISO codes (default: the built-in list)")
    parser.add_argument("--check", nargs="+", metavar="GEOJSON", help="report addr:country values not covered")
    args = parser.parse_args()
    if args.check:
        return check(args.check)
    first, _, last = args.years.partition("-")
    years = range(int(first), int(last or first) + 1)
    codes = args.countries.split(",") if args.countries else COUNTRIES
    supported = holidays.list_supported_countries()
    os.makedirs(args.out, exist_ok=True)
    total = 0
    for code in codes:
        if code not in supported:
            print(f"skipping {code}: not supported by holidays {holidays.__version__}", file=sys.stderr)
            continue
        text = render(country_data(code, years))
        path = os.path.join(args.out, f"{code}.json")
        with open(path, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
        total += len(text.encode("utf-8"))
    print(f"wrote {len(codes)} files, {total} bytes, to {os.path.normpath(args.out)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
