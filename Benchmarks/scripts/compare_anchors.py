#!/usr/bin/env python3
"""Runs our release benchmarks and the anchors of DESIGN §8 on the same data in the same run, and
prints one table: metric | ours | anchor | ratio ours/anchor (plus a Markdown copy).

Run it inside a venv that has the anchors (it installs nothing itself), from the repository root:

    python3 -m venv .build-anchors
    .build-anchors/bin/pip install -r Benchmarks/scripts/requirements-anchors.txt
    .build-anchors/bin/python Benchmarks/scripts/compare_anchors.py            # ~5 minutes
    .build-anchors/bin/python Benchmarks/scripts/compare_anchors.py --quick    # small sizes, ~1 minute

The full run also builds a snapshot of 1,000,000 stores for the whole-process row (about 80 s and
4 GB of memory the first time; kept in --workdir for the next run); --no-process skips that row.

What it does:
1. `swift build -c release --product stores-benchmarks` in Benchmarks/ (skip with --no-build).
2. `stores-benchmarks export-points` writes the points (seed 42), queries (seed 4242), the 10% and
   1% flags and the opening-hours instants and expressions as little-endian binary files (format in
   Benchmarks/README.md), and `generate` writes the GeoJSON file; the anchors read exactly these.
3. Ours: `stores-benchmarks tree|load|catalog|hours --json FILE`, and `stores nearest` as a
   whole process on a snapshot (scripts/whole_process.py).
4. The anchors, single-threaded (OMP_NUM_THREADS=1 for pykdtree): scipy cKDTree on 3-D unit
   vectors, pykdtree, sklearn BallTree (haversine), brute-force numpy haversine, scipy over-fetch
   on the GeoJSON file's own stores and tags (for the Catalog rows), json.load and orjson.loads,
   opening-hours-py; and DESIGN §8's targets, as rows of their own.

Every figure is the best of --repeats runs; a per-query figure is one call per query in a Python
loop (after a warm-up pass) unless it says "batched" (one call for all the queries, divided by
their number). Ratios are ours/anchor of the figure as printed: for times, below 1 means ours is
faster; for MB/s, above 1 means ours is faster (the "faster" column says which).
"""
import argparse
import gc
import json
import math
import os
import platform
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import whole_process  # noqa: E402

os.environ.setdefault("OMP_NUM_THREADS", "1")  # pykdtree: one thread, like ours

import numpy as np  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
BENCHMARKS = os.path.dirname(HERE)
BINARY = os.path.join(BENCHMARKS, ".build", "release", "stores-benchmarks")
EARTH_RADIUS_M = 6_371_008.8  # GeoIndex.earthMeanRadiusMeters


def parse_arguments():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--quick", action="store_true", help="small sizes (20,000 points), for a try-out")
    p.add_argument("--repeats", type=int, default=None, help="best of R (default 3; quick 2)")
    p.add_argument("--workdir", default="/tmp/stores-anchors", help="where the data files go")
    p.add_argument("--no-build", action="store_true", help="use the existing release binary")
    p.add_argument("--json", default=None, help="also write every figure to this JSON file")
    p.add_argument("--no-process", action="store_true",
                   help="skip the whole-process `stores nearest` row (its snapshot build is the slowest step)")
    a = p.parse_args()
    if a.quick:
        a.points, a.queries, a.stores, a.instants = 20_000, 1_000, 5_000, 5_000
        a.balltree_queries, a.brute_queries = 200, 20
        a.process_stores = 20_000
        a.repeats = a.repeats or 2
    else:
        a.points, a.queries, a.stores, a.instants = 1_000_000, 10_000, 200_000, 100_000
        a.balltree_queries, a.brute_queries = 1_000, 100
        a.process_stores = 1_000_000
        a.repeats = a.repeats or 3
    return a


def log(message):
    print(message, file=sys.stderr, flush=True)


def run(command, **kwargs):
    log("$ " + " ".join(command))
    return subprocess.run(command, check=True, **kwargs)


# MARK: - timing


def best(fn, repeats):
    """The smallest wall time of `repeats` calls of fn, in seconds."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def per_item(fn, items, repeats):
    """Seconds per item: fn(item) once per item, one warm-up pass, then the best of `repeats`."""
    for item in items:
        fn(item)

    def one_pass():
        for item in items:
            fn(item)

    return best(one_pass, repeats) / len(items)


# MARK: - data


def load_data(directory):
    meta = json.load(open(os.path.join(directory, "meta.json")))
    points = np.fromfile(os.path.join(directory, "points.f64"), dtype="<f8").reshape(-1, 2)
    queries = np.fromfile(os.path.join(directory, "queries.f64"), dtype="<f8").reshape(-1, 2)
    flags10 = np.fromfile(os.path.join(directory, "flags10.u8"), dtype=np.uint8).astype(bool)
    flags1 = np.fromfile(os.path.join(directory, "flags1.u8"), dtype=np.uint8).astype(bool)
    instants = np.fromfile(os.path.join(directory, "instants.i64"), dtype="<i8")
    expressions = [line.rstrip("\n").split("\t") for line in open(os.path.join(directory, "hours.tsv"))]
    assert len(points) == meta["points"] and len(queries) == meta["queries"]
    assert flags10.sum() == meta["flags10_set"] and flags1.sum() == meta["flags1_set"]
    return meta, points, queries, flags10, flags1, instants, expressions


def unit_vectors(latlon):
    lat = np.radians(latlon[:, 0])
    lon = np.radians(latlon[:, 1])
    c = np.cos(lat)
    return np.ascontiguousarray(np.stack([c * np.cos(lon), c * np.sin(lon), np.sin(lat)], axis=1))


def haversine_m(lat1, lon1, lat2, lon2):
    """Great-circle distance in metres; arguments in radians (numpy broadcasting)."""
    s = np.sin((lat2 - lat1) / 2) ** 2 + np.cos(lat1) * np.cos(lat2) * np.sin((lon2 - lon1) / 2) ** 2
    return 2 * EARTH_RADIUS_M * np.arcsin(np.minimum(1.0, np.sqrt(s)))


# MARK: - anchors


def tree_anchors(a, points, queries, flags10, flags1):
    from scipy.spatial import cKDTree
    import scipy

    r = {}
    versions = {"numpy": np.__version__, "scipy": scipy.__version__}
    P = unit_vectors(points)
    Q = unit_vectors(queries)
    n = len(P)
    log(f"scipy cKDTree: {n} points, {len(Q)} queries")
    r["scipy.build_s"] = best(lambda: cKDTree(P), a.repeats)
    tree = cKDTree(P)
    for k in (1, 10, 100):
        r[f"scipy.k{k}_us"] = per_item(lambda q: tree.query(q, k=k), Q, a.repeats) * 1e6
        r[f"scipy.k{k}_batched_us"] = best(lambda: tree.query(Q, k=k), a.repeats) / len(Q) * 1e6

    chord = 2 * math.sin(50_000 / (2 * EARTH_RADIUS_M))
    found = [len(x) for x in tree.query_ball_point(Q, r=chord)]
    r["scipy.radius50km_found"] = sum(found) / len(Q)
    r["scipy.radius50km_us"] = per_item(lambda q: tree.query_ball_point(q, r=chord), Q, a.repeats) * 1e6
    r["scipy.radius50km_batched_us"] = best(lambda: tree.query_ball_point(Q, r=chord), a.repeats) / len(Q) * 1e6

    # Filtered k = 10 by over-fetching: ask for k0 = 2·10/share neighbours, keep the matching ones,
    # double k until 10 match.
    for name, flags, share in (("filtered10", flags10, 0.10), ("filtered1", flags1, 0.01)):
        k0 = int(round(2 * 10 / share))
        r[f"scipy.{name}_us"] = per_item(over_fetch(tree, flags, k0), Q, a.repeats) * 1e6
        r[f"scipy.{name}_k0"] = k0

    # Sanity: the chord order is the great-circle order, so scipy's k = 10 matches brute force.
    lat, lon = np.radians(points[:, 0]), np.radians(points[:, 1])
    qlat, qlon = np.radians(queries[:, 0]), np.radians(queries[:, 1])
    mismatches = 0
    for i in range(min(20, len(Q))):
        d = haversine_m(qlat[i], qlon[i], lat, lon)
        expected = np.argsort(d, kind="stable")[:10]
        mismatches += int(not np.array_equal(np.sort(expected), np.sort(tree.query(Q[i], k=10)[1])))
    r["scipy.k10_mismatches_vs_brute_force_of_20"] = mismatches
    del tree
    gc.collect()

    try:
        import pykdtree
        from pykdtree.kdtree import KDTree as PyKDTree

        versions["pykdtree"] = getattr(pykdtree, "__version__", None) or package_version("pykdtree")
        log("pykdtree")
        r["pykdtree.build_s"] = best(lambda: PyKDTree(P), a.repeats)
        ptree = PyKDTree(P)
        r["pykdtree.k10_batched_us"] = best(lambda: ptree.query(Q, k=10), a.repeats) / len(Q) * 1e6
        Qrows = [Q[i : i + 1] for i in range(len(Q))]
        r["pykdtree.k10_us"] = per_item(lambda q: ptree.query(q, k=10), Qrows, a.repeats) * 1e6
        del ptree
    except ImportError:
        log("pykdtree is not installed")

    try:
        import sklearn
        from sklearn.neighbors import BallTree

        versions["scikit-learn"] = sklearn.__version__
        log("sklearn BallTree (haversine)")
        R = np.radians(points)
        r["balltree.build_s"] = best(lambda: BallTree(R, metric="haversine"), min(a.repeats, 2))
        btree = BallTree(R, metric="haversine")
        sub = np.radians(queries[: a.balltree_queries])
        rows = [sub[i : i + 1] for i in range(len(sub))]
        r["balltree.k10_us"] = per_item(lambda q: btree.query(q, k=10), rows, a.repeats) * 1e6
        r["balltree.k10_batched_us"] = best(lambda: btree.query(sub, k=10), a.repeats) / len(sub) * 1e6
        r["balltree.k10_queries"] = len(rows)
        del btree
    except ImportError:
        log("scikit-learn is not installed")

    log("brute-force numpy haversine")
    m = a.brute_queries

    coslat = np.cos(lat)

    def brute(i):
        # The haversine term h is monotone in the distance: select on it, convert only the 10.
        h = np.sin((lat - qlat[i]) / 2) ** 2 + math.cos(qlat[i]) * coslat * np.sin((lon - qlon[i]) / 2) ** 2
        part = np.argpartition(h, 10)[:10]
        part = part[np.argsort(h[part])]
        return part, 2 * EARTH_RADIUS_M * np.arcsin(np.sqrt(h[part]))

    brute(0)
    r["brute.k10_us"] = best(lambda: [brute(i) for i in range(m)], 1) / m * 1e6
    r["brute.k10_queries"] = m
    return r, versions


def over_fetch(tree, flags, k0):
    """Filtered k = 10 by over-fetching: ask for k0 neighbours, keep the matching ones, double k
    until 10 match (or every point was asked for)."""
    n = tree.n

    def filtered(q):
        k = k0
        while True:
            _, idx = tree.query(q, k=min(k, n))
            hits = idx[flags[idx]]
            if len(hits) >= 10 or k >= n:
                return hits[:10]
            k *= 2

    return filtered


def catalog_anchors(a, path, queries):
    """scipy over-fetch on the GeoJSON file's own stores and tags: the anchor of the Catalog rows
    (`drive_through=yes`, `flag1=yes`), same stores, same queries as `stores-benchmarks catalog`."""
    import orjson
    from scipy.spatial import cKDTree

    with open(path, "rb") as f:
        features = orjson.loads(f.read())["features"]
    coordinates = np.array([feature["geometry"]["coordinates"][::-1] for feature in features], dtype=float)
    tags = [feature["properties"] for feature in features]
    drive = np.array([t.get("drive_through") == "yes" for t in tags])
    flag1 = np.array([t.get("flag1") == "yes" for t in tags])
    del features, tags
    tree = cKDTree(unit_vectors(coordinates))
    Q = unit_vectors(queries)
    log(f"scipy over-fetch on the {len(coordinates):,} stores of {path}")
    r = {"scipy_catalog.stores": len(coordinates), "scipy_catalog.filtered10_share": float(drive.mean()),
         "scipy_catalog.filtered1_share": float(flag1.mean())}
    for name, flags in (("filtered10", drive), ("filtered1", flag1)):
        k0 = int(round(2 * 10 / max(flags.mean(), 1e-6)))
        r[f"scipy_catalog.{name}_us"] = per_item(over_fetch(tree, flags, k0), Q, a.repeats) * 1e6
        r[f"scipy_catalog.{name}_k0"] = k0
    return r, {}


def json_anchors(a, path):
    import orjson

    size = os.path.getsize(path)
    r = {"json.file_bytes": size}

    def with_json():
        with open(path, "rb") as f:
            assert len(json.load(f)["features"]) > 0

    def with_orjson():
        with open(path, "rb") as f:
            assert len(orjson.loads(f.read())["features"]) > 0

    for name, fn in (("json", with_json), ("orjson", with_orjson)):
        log(f"{name} on {path}")
        r[f"{name}.mb_per_s"] = size / 1e6 / best(fn, a.repeats)
        gc.disable()
        try:
            r[f"{name}.mb_per_s_gc_off"] = size / 1e6 / best(fn, a.repeats)
        finally:
            gc.enable()
    return r, {"orjson": orjson.__version__}


def hours_anchors(a, instants, expressions):
    from datetime import datetime
    from zoneinfo import ZoneInfo
    from importlib.metadata import version
    from opening_hours import OpeningHours

    berlin = ZoneInfo("Europe/Berlin")
    # Aware datetimes, made before timing, as ours makes its Instants before timing.
    times = [datetime.fromtimestamp(int(t), tz=berlin) for t in instants]
    sample = times[: max(1, len(times) // 10)]
    r = {}
    for key, label, text in expressions:
        log(f"opening-hours-py: {label}")
        parse = best(lambda: [OpeningHours(text, timezone=berlin, country="DE") for _ in range(1_000)], a.repeats)
        r[f"ohpy.{key}.parse_us"] = parse / 1_000 * 1e6
        oh = OpeningHours(text, timezone=berlin, country="DE")
        r[f"ohpy.{key}.is_open_ns"] = per_item(oh.is_open, times, a.repeats) * 1e9
        r[f"ohpy.{key}.state_ns"] = per_item(oh.state, times, a.repeats) * 1e9
        r[f"ohpy.{key}.next_change_us"] = per_item(oh.next_change, sample, a.repeats) * 1e6
        r[f"ohpy.{key}.open_count"] = sum(1 for t in times if oh.is_open(t))
        total = 0
        for t in sample:
            change = oh.next_change(t)
            total += int(change.timestamp()) if change is not None else 0
        r[f"ohpy.{key}.next_change_sum"] = total
    return r, {"opening-hours-py": version("opening-hours-py")}


# MARK: - the table


def package_version(name):
    from importlib.metadata import version

    try:
        return version(name)
    except Exception:
        return "?"


def machine():
    info = {"nproc": os.cpu_count(), "python": platform.python_version(), "kernel": platform.release()}
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                info["cpu"] = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        info["swift"] = subprocess.run(["swift", "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    except (OSError, IndexError):
        pass
    return info


def loadavg():
    try:
        return open("/proc/loadavg").read().split()[0]
    except OSError:
        return "?"


def fmt(value, unit):
    if value is None:
        return "–"
    if unit == "s":
        return f"{value:.3f} s"
    if unit == "MB/s":
        return f"{value:.1f} MB/s"
    if unit == "B":
        return f"{value:.1f} B"
    if value >= 1000:
        return f"{value:,.0f} {unit}"
    if value >= 10:
        return f"{value:.1f} {unit}"
    return f"{value:.2f} {unit}"


# DESIGN §8's targets for one query at a time through the Swift API (at most, or at least for MB/s).
TARGETS = {"build_s": 0.10, "k10_us": 1.5, "filtered10_us": 5.0, "filtered1_us": 10.0, "radius50km_us": 3.0,
           "bytes_per_point": 32.0, "load_mb_per_s": 200.0, "is_open_ns": 100.0, "process_ms": 50.0}


def target(key):
    return ("DESIGN §8 target", TARGETS[key])


def build_rows(ours, anchors, a):
    """(metric, ours value, unit, [(anchor label, value)], higher is better)."""
    g = anchors.get
    stores = f"{int(ours.get('catalog.stores', a.stores)):,} stores"
    ball = f"sklearn BallTree haversine (avg of first {a.balltree_queries:,} queries)"
    brute = f"brute-force numpy haversine (avg of {a.brute_queries} queries)"
    rows = [
        ("build", ours.get("tree.build_s"), "s",
         [("scipy cKDTree (3-D)", g("scipy.build_s")), ("pykdtree", g("pykdtree.build_s")),
          ("sklearn BallTree haversine", g("balltree.build_s")), target("build_s")], False),
        ("nearest k = 1", ours.get("tree.k1_us"), "µs",
         [("scipy, one call each", g("scipy.k1_us")), ("scipy, batched", g("scipy.k1_batched_us"))], False),
        ("nearest k = 10", ours.get("tree.k10_us"), "µs",
         [("scipy, one call each", g("scipy.k10_us")), ("scipy, batched", g("scipy.k10_batched_us")),
          ("pykdtree, one call each", g("pykdtree.k10_us")), ("pykdtree, batched", g("pykdtree.k10_batched_us")),
          (ball, g("balltree.k10_us")), (ball.replace("(avg", "batched (avg"), g("balltree.k10_batched_us")),
          (brute, g("brute.k10_us")), target("k10_us")], False),
        ("nearest k = 100", ours.get("tree.k100_us"), "µs",
         [("scipy, one call each", g("scipy.k100_us")), ("scipy, batched", g("scipy.k100_batched_us"))], False),
        ("within 50 km", ours.get("tree.radius50km_us"), "µs",
         [("scipy query_ball_point (chord), one call each", g("scipy.radius50km_us")),
          ("scipy query_ball_point (chord), batched", g("scipy.radius50km_batched_us")),
          target("radius50km_us")], False),
        ("k = 10, 10% match, tree with predicate", ours.get("tree.filtered10_us"), "µs",
         [(f"scipy over-fetch (k0 = {g('scipy.filtered10_k0')}, doubled)", g("scipy.filtered10_us")),
          target("filtered10_us")], False),
        ("k = 10, 1% match, tree with predicate", ours.get("tree.filtered1_us"), "µs",
         [(f"scipy over-fetch (k0 = {g('scipy.filtered1_k0')}, doubled)", g("scipy.filtered1_us")),
          target("filtered1_us")], False),
        (f"Catalog k = 10 drive_through=yes (10%), indexed, {stores}", ours.get("catalog.indexed.filtered10_us"),
         "µs", [(f"scipy over-fetch, same stores (k0 = {g('scipy_catalog.filtered10_k0')})",
                 g("scipy_catalog.filtered10_us")), target("filtered10_us")], False),
        (f"Catalog k = 10 drive_through=yes (10%), as loaded, {stores}", ours.get("catalog.filtered10_us"), "µs",
         [("scipy over-fetch, same stores", g("scipy_catalog.filtered10_us"))], False),
        (f"Catalog k = 10 flag1=yes (1%), indexed, {stores}", ours.get("catalog.indexed.filtered1_us"), "µs",
         [(f"scipy over-fetch, same stores (k0 = {g('scipy_catalog.filtered1_k0')})",
           g("scipy_catalog.filtered1_us")), target("filtered1_us")], False),
        (f"Catalog k = 10 flag1=yes (1%), as loaded, {stores}", ours.get("catalog.filtered1_us"), "µs",
         [("scipy over-fetch, same stores", g("scipy_catalog.filtered1_us"))], False),
        ("index bytes/point", ours.get("tree.bytes_per_point"), "B",
         [target("bytes_per_point"), ("kdbush (DESIGN §8 figure, not run here)", 20.0)], False),
        ("GeoJSON load, parse + checks + index, no hours", ours.get("load.mb_per_s_no_hours"), "MB/s",
         [("json.load", g("json.mb_per_s")), ("json.load, gc off", g("json.mb_per_s_gc_off")),
          ("orjson.loads", g("orjson.mb_per_s")), ("orjson.loads, gc off", g("orjson.mb_per_s_gc_off")),
          target("load_mb_per_s")], True),
        ("GeoJSON Catalog.load (+ hours + zones)", ours.get("load.mb_per_s"), "MB/s",
         [("orjson.loads (parse only)", g("orjson.mb_per_s"))], True),
    ]
    for key, label in (("weekly", "weekly"), ("weekly_past_midnight", "weekly, past midnight"),
                       ("with_ph", "with PH"), ("seasonal_dates", "seasonal + dates")):
        rows.append((f"hours {label}: isOpen", ours.get(f"hours.{key}.is_open_ns"), "ns",
                     [("opening-hours-py is_open", g(f"ohpy.{key}.is_open_ns")),
                      ("opening-hours-py state", g(f"ohpy.{key}.state_ns")), target("is_open_ns")], False))
        rows.append((f"hours {label}: nextChange", ours.get(f"hours.{key}.next_change_us"), "µs",
                     [("opening-hours-py next_change", g(f"ohpy.{key}.next_change_us"))], False))
        rows.append((f"hours {label}: parse", ours.get(f"hours.{key}.parse_us"), "µs",
                     [("opening-hours-py OpeningHours(...)", g(f"ohpy.{key}.parse_us"))], False))
    process = f"{int(ours.get('process.stores', a.process_stores)):,} stores"
    geojson_ms = ours.get("process.geojson_nearest_s")
    rows.append((f"stores nearest, whole process, snapshot of {process} (best of {int(ours.get('process.runs', 10))})",
                 ours.get("process.snapshot_nearest_ms"), "ms",
                 [target("process_ms"),
                  ("same command on the GeoJSON file (one run)", geojson_ms * 1e3 if geojson_ms else None)], False))
    rows.append(("  same, --open-now --where drive_through=yes",
                 ours.get("process.snapshot_nearest_open_drive_ms"), "ms", [target("process_ms")], False))
    return rows


def table_lines(rows, markdown):
    out = []
    header = ["metric", "ours", "anchor", "anchor value", "ours/anchor", "faster"]
    body = []
    for metric, value, unit, anchors, higher_better in rows:
        if not anchors:
            body.append([metric, fmt(value, unit), "–", "–", "–", ""])
        for i, (label, anchor) in enumerate(anchors):
            ratio = value / anchor if value is not None and anchor else None
            faster = ""
            if ratio is not None:
                faster = "ours" if (ratio > 1) == higher_better else "anchor"
            body.append([
                metric if i == 0 else "", fmt(value, unit) if i == 0 else "", label, fmt(anchor, unit),
                f"{ratio:.3g}" if ratio is not None else "–", faster,
            ])
    if markdown:
        out.append("| " + " | ".join(header) + " |")
        out.append("|" + "---|" * len(header))
        for row in body:
            out.append("| " + " | ".join(row) + " |")
    else:
        widths = [max(len(r[i]) for r in body + [header]) for i in range(len(header))]
        line = lambda r: "  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip()  # noqa: E731
        out.append(line(header))
        out.append("-" * len(line(header)))
        out += [line(r) for r in body]
    return out


def main():
    a = parse_arguments()
    started = time.time()
    load_start = loadavg()
    os.makedirs(a.workdir, exist_ok=True)
    if not a.no_build:
        run(["swift", "build", "-c", "release", "--product", "stores-benchmarks"], cwd=BENCHMARKS)
    data = os.path.join(a.workdir, f"data-{a.points}")
    geojson = os.path.join(a.workdir, f"stores-{a.stores}-42.geojson")
    run([BINARY, "export-points", "--points", str(a.points), "--queries", str(a.queries),
         "--instants", str(a.instants), "-o", data], stdout=subprocess.DEVNULL)
    if not os.path.exists(geojson):
        run([BINARY, "generate", "--points", str(a.stores), "--seed", "42", "-o", geojson], stdout=subprocess.DEVNULL)

    # Ours first, each command in its own process.
    ours = {}
    reps = str(a.repeats)
    for command in (
        ["tree", "--points", str(a.points), "--queries", str(a.queries), "--repeats", reps],
        ["load", geojson, "--repeats", reps],
        ["catalog", geojson, "--queries", str(a.queries), "--repeats", reps],
        ["hours", "--queries", str(a.instants), "--repeats", reps],
    ):
        out = os.path.join(a.workdir, f"ours-{command[0]}.json")
        run([BINARY] + command + ["--json", out], stdout=subprocess.DEVNULL)
        ours.update({k: v for k, v in json.load(open(out)).items() if k != "command"})

    if not a.no_process:
        ours.update(whole_process.measure(a.process_stores, a.workdir, build=not a.no_build))

    meta, points, queries, flags10, flags1, instants, expressions = load_data(data)
    anchors, versions = {}, {}
    for fn, args in ((tree_anchors, (a, points, queries, flags10, flags1)), (json_anchors, (a, geojson)),
                     (catalog_anchors, (a, geojson, queries)), (hours_anchors, (a, instants, expressions))):
        try:
            r, v = fn(*args)
            anchors.update(r)
            versions.update(v)
        except ImportError as error:
            log(f"skipped {fn.__name__}: {error}")

    rows = build_rows(ours, anchors, a)
    elapsed = time.time() - started
    info = machine()
    print()
    print(f"stores anchors, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}: {meta['points']:,} points "
          f"(seed {meta['seed']}), {meta['queries']:,} queries (seed {meta['query_seed']}), "
          f"{os.path.getsize(geojson) / 1e6:.1f} MB GeoJSON ({a.stores:,} stores), {len(instants):,} instants; "
          f"best of {a.repeats}; {elapsed:.0f} s; load average {load_start} -> {loadavg()}")
    print(f"machine: {info}")
    print(f"anchors: {versions}")
    print()
    print("\n".join(table_lines(rows, markdown=False)))

    print("\nChecks (same data, same answers):")
    print(f"  within 50 km, found on average: ours {ours.get('tree.radius50km_found', float('nan')):.3f}, "
          f"scipy {anchors.get('scipy.radius50km_found', float('nan')):.3f}")
    for name in ("filtered10", "filtered1"):
        print(f"  Catalog {name} share of stores: ours {ours.get(f'catalog.{name}_share', float('nan')):.4f}, "
              f"scipy over-fetch input {anchors.get(f'scipy_catalog.{name}_share', float('nan')):.4f}")
    print(f"  scipy k = 10 vs brute-force haversine, mismatching queries of 20: "
          f"{anchors.get('scipy.k10_mismatches_vs_brute_force_of_20')}")
    for key, label, _ in expressions:
        o = (ours.get(f"hours.{key}.open_count"), ours.get(f"hours.{key}.next_change_sum"))
        p = (anchors.get(f"ohpy.{key}.open_count"), anchors.get(f"ohpy.{key}.next_change_sum"))
        verdict = "agree" if o == p else "DIFFER"
        print(f"  hours {label}: open at (ours, opening-hours-py) {o[0]}, {p[0]}; "
              f"sum of next changes {o[1]}, {p[1]}: {verdict}")

    print("\nMarkdown:\n")
    print("\n".join(table_lines(rows, markdown=True)))
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"ours": ours, "anchors": anchors, "versions": versions, "machine": info,
                       "meta": meta, "seconds": elapsed}, f, indent=2)


if __name__ == "__main__":
    main()
