#!/usr/bin/env python3
"""How often the holiday region inferred from a store's nearest place agrees with the region of
its own `addr:state`, on a GeoJSON file whose stores have both (Data/holidays/README.md).

A Python copy of the rule (Sources/StoreLocator/Hours/InferredHolidays.swift): the nearest of the
8 nearest places of Data/timezones/places.tsv in the store's country (else no region), its
GeoNames division mapped by Data/holidays/divisions.tsv. Stores whose `addr:state` does not
resolve to a region of the holiday data, or whose country has no row in divisions.tsv, are left
out. Needs numpy.

Usage: python3 scripts/measure_holiday_regions.py ../shared/corpus/geojson/starbucks_worldwide_2017.geojson
"""
import collections
import glob
import json
import math
import os
import sys

import numpy as np

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
places = []
for line in open(root + "/Data/timezones/places.tsv", encoding="utf-8"):
    if line.startswith("#"): continue  # columns: latitude longitude time_zone country admin1 name
    f = line.rstrip("\n").split("\t")
    places.append((float(f[0]), float(f[1]), f[3], f[4], f[5]))
lat = np.radians([p[0] for p in places]); lon = np.radians([p[1] for p in places])
P = np.stack([np.cos(lat)*np.cos(lon), np.cos(lat)*np.sin(lon), np.sin(lat)], axis=1)
divs = {}
for line in open(root + "/Data/holidays/divisions.tsv", encoding="utf-8"):
    if line.startswith("#"): continue
    c, a, r, _ = line.rstrip("\n").split("\t")
    divs[(c, a)] = r
# region resolution like resolveRegion
hol = {}
for path in glob.glob(root + "/Data/holidays/*.json"):
    d = json.load(open(path, encoding="utf-8"))
    regions = d.get("regions") or {}
    keys = {k.upper(): k for k in regions}
    for a, c in (d.get("aliases") or {}).items(): keys.setdefault(a.strip().upper(), c)
    hol[d["country"]] = keys
def resolve(c, text):
    keys = hol.get(c, {}); k = text.strip().upper()
    if k.startswith(c + "-"): k = k[len(c)+1:]
    if k in keys: return keys[k]
    if k.isdigit() and len(k) < 2 and "0"+k in keys: return keys["0"+k]
    return None
data = json.load(open(sys.argv[1], encoding="utf-8"))
stores = []
for f in data["features"]:
    p = f.get("properties") or {}; g = f.get("geometry")
    if not g or g.get("type") != "Point": continue
    c = (p.get("addr:country") or "").upper(); s = p.get("addr:state")
    if not s or not any(k[0] == c for k in divs): continue
    r = resolve(c, str(s))
    if r is None: continue
    stores.append((g["coordinates"][1], g["coordinates"][0], c, r))
S = np.array([[math.cos(math.radians(a))*math.cos(math.radians(b)), math.cos(math.radians(a))*math.sin(math.radians(b)), math.sin(math.radians(a))] for a, b, _, _ in stores])
agree = collections.Counter(); total = collections.Counter(); noregion = collections.Counter()
for start in range(0, len(stores), 500):
    chunk = S[start:start+500]
    dots = chunk @ P.T
    near = np.argpartition(-dots, 8, axis=1)[:, :8]
    for i, row in enumerate(near):
        row = row[np.argsort(-dots[i, row])]
        lat_, lon_, c, r = stores[start+i]
        chosen = next((j for j in row if places[j][2] == c), row[0])
        total[c] += 1
        if places[chosen][2] != c: noregion[c] += 1; continue
        got = divs.get((c, places[chosen][3]))
        if got is None: noregion[c] += 1
        elif got == r: agree[c] += 1
for c in sorted(total, key=lambda c: -total[c]):
    print(c, total[c], "agree", agree[c], "no region", noregion[c], "differ", total[c]-agree[c]-noregion[c])
print("all", sum(total.values()), "agree", sum(agree.values()), "no region", sum(noregion.values()))
