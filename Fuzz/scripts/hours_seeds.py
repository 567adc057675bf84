#!/usr/bin/env python3
"""Seeds for fuzz-hours (one opening_hours expression a file) and fuzz-batch (a few request lines
a file), from the expressions in ../shared/corpus/hours and the bundled stores. Written at run time
by run.sh into Fuzz/.build-work/seeds/: the corpus stays where it is, outside the repository.

usage: hours_seeds.py hours|batch OUT_DIR SHARED_HOURS_DIR BUNDLED_GEOJSON
"""
import json
import os
import sys

target, out, shared, bundled = sys.argv[1:5]

expressions = []
if os.path.isdir(shared):
    for name in sorted(os.listdir(shared)):
        with open(os.path.join(shared, name), encoding="utf-8", errors="replace") as handle:
            lines = [line.rstrip("\n") for line in handle if line.strip()]
        # At most 600 a file, spread over it: enough variety; thousands of seeds slow each start.
        step = max(1, len(lines) // 600)
        expressions += lines[::step]
with open(bundled, encoding="utf-8") as handle:
    seen = set()
    for feature in json.load(handle)["features"]:
        text = feature["properties"].get("opening_hours")
        if isinstance(text, str) and text not in seen:
            seen.add(text)
            expressions.append(text)

if target == "hours":
    for index, text in enumerate(expressions):
        with open(os.path.join(out, f"oh-{index:05d}"), "w", encoding="utf-8") as handle:
            handle.write(text)
else:
    # Requests as scripts/differential sends them: zones with DST, holidays, ops, ids of each kind.
    places = [
        ("Europe/Berlin", "DE-BE", "2026-03-29T01:59:59+01:00", 52.52, 13.40),
        ("America/New_York", "US", "2026-11-01T01:30:00-04:00", 40.71, -74.01),
        ("Australia/Lord_Howe", "AU-NSW", "2026-04-05T01:45:00+11:00", -31.55, 159.08),
        ("Asia/Kathmandu", "", "2026-12-24T23:30:00Z", None, None),
    ]
    chunk = 4
    for start in range(0, len(expressions), chunk):
        lines = []
        for offset, text in enumerate(expressions[start : start + chunk]):
            zone, country, at, lat, lon = places[(start + offset) % len(places)]
            request = {"id": start + offset, "oh": text, "tz": zone, "at": at}
            if country:
                request["country"] = country
            if lat is not None:
                request["lat"], request["lon"] = lat, lon
            if offset % 2:
                request["ops"] = ["next_change", "state"]
            lines.append(json.dumps(request, ensure_ascii=offset % 3 == 0))
        with open(os.path.join(out, f"batch-{start:05d}"), "w", encoding="utf-8") as handle:
            handle.write("\n".join(lines) + "\n")
