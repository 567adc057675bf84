#!/usr/bin/env python3
"""A Python replica of the place-name rules of Sources/StoreLocator/Places/PlaceIndex.swift, to
compare the rule's constants (docs/places.md): which place a name typed alone means, and how the
suggestions rank the starts of names. The figures of the rules as built come from the index
itself (PlaceNameMeasurementTests); this replica's folding is close to, not the same as, the
index's, so its counts differ a little.

Offline, reads only Data/timezones/places.tsv. Slow (about 1.5 minutes for the ranking):

    python3 scripts/places/replica.py resolve --dominance 10     # the chosen rule
    python3 scripts/places/replica.py resolve --dominance 0      # before: own names never resolved
    python3 scripts/places/replica.py rank --before              # main's ranking
    python3 scripts/places/replica.py rank                       # the chosen ranking
"""

from __future__ import annotations

import argparse
import bisect
import collections
import math
import os
import unicodedata

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SPECIAL = {"ß": "ss", "ẞ": "ss", "æ": "ae", "Æ": "ae", "œ": "oe", "Œ": "oe", "ø": "o", "Ø": "o", "ł": "l",
           "Ł": "l", "đ": "d", "Đ": "d", "ð": "d", "Ð": "d", "þ": "th", "Þ": "th", "ı": "i", "ħ": "h", "Ħ": "h"}


def fold(text: str) -> str:
    text = "".join(SPECIAL.get(c, c) for c in text)
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c) and c not in "'’ʼʻ‘`")
    text = "".join(c if c.isalnum() else " " for c in text.lower())
    return " ".join(text.split())


def load():
    places = []
    for line in open(os.path.join(ROOT, "Data", "timezones", "places.tsv"), encoding="utf-8"):
        if line.startswith("#"):
            continue
        f = line.rstrip("\n").split("\t")
        places.append(dict(cc=f[3], name=f[5], pop=int(f[6]), alts=[a for a in f[8].split("|") if a]))
    exact = collections.defaultdict(list)  # key -> [(place, is own name)]
    for i, p in enumerate(places):
        seen = set()
        for j, name in enumerate([p["name"]] + p["alts"]):
            key = fold(name)
            if key and key not in seen:
                seen.add(key)
                exact[key].append((i, j == 0))
    return places, exact


def resolve(places, exact, key, dominance, alternate_dominance=100):
    """The place a name typed alone means, or None (no bias, no country, no catalog)."""
    matched = exact.get(key, [])
    if not matched:
        return None
    own = [i for i, o in matched if o]
    if own:
        largest = max(places[i]["pop"] for i in own)
        matched = [(i, o) for i, o in matched if o or places[i]["pop"] > largest]
    matched = sorted(matched, key=lambda m: -places[m[0]]["pop"])
    if len(matched) == 1:
        return matched[0][0]
    top, is_own = matched[0]
    factor = (dominance or math.inf) if is_own else alternate_dominance
    return top if places[top]["pop"] >= factor * max(places[matched[1][0]]["pop"], 1) else None


def run_resolve(dominance: float) -> None:
    places, exact = load()
    shared = [k for k, v in exact.items() if len(v) > 1]
    resolved = sum(1 for k in shared if resolve(places, exact, k, dominance) is not None)
    print(f"names {len(exact)}; several places' {len(shared)}: resolved {resolved}, ambiguous {len(shared) - resolved}")
    order = sorted(range(len(places)), key=lambda i: -places[i]["pop"])
    for count in (100, 500):
        themselves = sum(1 for i in order[:count] if resolve(places, exact, fold(places[i]["name"]), dominance) == i)
        print(f"the {count} most populous typed alone: {themselves} are themselves")


def run_rank(before: bool) -> None:
    places, exact = load()
    entries = sorted((k, i, o) for k, lst in exact.items() for i, o in lst)
    keys = [e[0] for e in entries]

    def search(query: str, limit: int):
        query = fold(query)
        position = bisect.bisect_left(keys, query)
        best = {}
        while position < len(entries) and entries[position][0].startswith(query):
            key, i, own = entries[position]
            position += 1
            score = math.log10(max(places[i]["pop"], 1)) + (1 if len(key) == len(query) else 0)
            if not own and not before:
                if len(key) == len(query):
                    score -= 2
                elif " " in key and key.split()[0] not in fold(places[i]["name"]).split():
                    score -= 3
                else:
                    score -= 1.5
            if i not in best or best[i][0] < score or (best[i][0] == score and own):
                best[i] = (score, own)
        ranked = sorted(best.items(), key=lambda x: (-x[1][0], -places[x[0]]["pop"]))
        return [(i, own) for i, (_, own) in ranked[:limit]]

    def letters(i, name, limit):
        key = fold(name)
        for length in range(1, len(key) + 1):
            if i in [r[0] for r in search(key[:length], limit)]:
                return length
        return None

    order = sorted(range(len(places)), key=lambda i: -places[i]["pop"])[:500]
    first = [letters(i, places[i]["name"], 1) for i in order]
    five = [letters(i, places[i]["name"], 5) for i in order]
    own_keys = sorted(fold(p["name"]) for p in places)
    alternate_first = starts = 0
    for i in order:
        key = fold(places[i]["name"])
        for length in range(1, len(key) + 1):
            prefix = key[:length]
            starts += 1
            top = search(prefix, 1)
            at = bisect.bisect_left(own_keys, prefix)
            if top and not top[0][1] and at < len(own_keys) and own_keys[at].startswith(prefix):
                alternate_first += 1
    typed = {
        "cologne": "Köln", "kiev": "Kyiv", "peking": "Beijing", "bombay": "Mumbai", "calcutta": "Kolkata",
        "madras": "Chennai", "saigon": "Ho Chi Minh City", "bangalore": "Bengaluru", "seville": "Sevilla",
        "hanover": "Hannover", "new york": "New York City", "munich": "Munich", "zurich": "Zürich",
        "london": "London", "seattle": "Seattle", "paris": "Paris", "montreal": "Montréal",
        "sao paulo": "São Paulo", "rio": "Rio de Janeiro", "tokyo": "Tokyo", "berlin": "Berlin",
        "sydney": "Sydney", "toronto": "Toronto", "moscow": "Moscow", "delhi": "Delhi", "rome": "Rome",
        "dublin": "Dublin", "boston": "Boston", "los angeles": "Los Angeles", "chicago": "Chicago",
        "san francisco": "San Francisco", "vienna": "Vienna", "prague": "Prague", "lisbon": "Lisbon",
        "copenhagen": "Copenhagen", "milan": "Milan", "venice": "Venice", "quebec": "Québec",
        "reykjavik": "Reykjavík", "cape town": "Cape Town", "auckland": "Auckland", "singapore": "Singapore",
        "hong kong": "Hong Kong", "new delhi": "New Delhi", "washington": "Washington",
    }
    total = 0
    for text, name in typed.items():
        i = max((j for j, p in enumerate(places) if p["name"] == name), key=lambda j: places[j]["pop"])
        total += letters(i, text, 1) or len(fold(text)) + 1
    print(f"{len(typed)} names customers type (PlaceNameMeasurementTests' list): letters until first, summed: {total}")
    found = [n for n in first if n is not None]
    found5 = [n for n in five if n is not None]
    print(f"500 most populous: letters until first {sum(found) / len(found):.2f} (never {len(first) - len(found)}), "
          f"until in the first five {sum(found5) / len(found5):.2f} (never {len(five) - len(found5)}); "
          f"of {starts} starts, an alternate name first while an own name matches: {alternate_first}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    r = sub.add_parser("resolve")
    r.add_argument("--dominance", type=float, default=10, help="0: own names never resolve (before)")
    k = sub.add_parser("rank")
    k.add_argument("--before", action="store_true", help="main's ranking, without the penalties")
    args = parser.parse_args()
    if args.command == "resolve":
        run_resolve(args.dominance)
    else:
        run_rank(args.before)


if __name__ == "__main__":
    main()
