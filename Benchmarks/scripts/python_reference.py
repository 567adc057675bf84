#!/usr/bin/env python3
"""Reference figures for GeoJSON loading: Python's json.load and orjson.loads on the same file.

Usage: python3 scripts/python_reference.py FILE [REPEATS]

Each figure is the best of REPEATS (default 5) runs of reading the file and parsing it (as
Catalog.load reads and parses; neither builds an index nor checks the records), once as Python
runs by default and once with the cyclic garbage collector off (gc.disable()), which otherwise
rescans the growing tree of dicts while the parser allocates them.
"""
import gc
import json
import os
import sys
import time

path = sys.argv[1]
repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 5
size = os.path.getsize(path)


def best(fn, collect=True):
    if not collect:
        gc.disable()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
        assert len(result["features"]) > 0
        del result
    gc.enable()
    return min(times)


def report(name, seconds):
    print(f"{name:<44} {seconds:.3f} s   {size / 1e6 / seconds:.1f} MB/s")


print(f"{path}: {size / 1e6:.1f} MB; Python {sys.version.split()[0]}; best of {repeats}")


def with_json():
    with open(path, "rb") as f:
        return json.load(f)


report("json.load (read + parse)", best(with_json))
report("json.load (read + parse), gc off", best(with_json, collect=False))
try:
    import orjson

    def with_orjson():
        with open(path, "rb") as f:
            return orjson.loads(f.read())

    report(f"orjson.loads {orjson.__version__} (read + parse)", best(with_orjson))
    report(f"orjson.loads {orjson.__version__} (read + parse), gc off", best(with_orjson, collect=False))
except ImportError:
    print("orjson is not installed (pip install orjson)")
