#!/usr/bin/env python3
"""Validates what `stores pickup` writes against the JSON Schemas in docs/schemas.

Runs the command on docs/examples/order.json (an order written back with its `pickup` object)
on a plain request for which no store is eligible, on one assigned, and on one whose store has a
capacity (its `slot`, and a full slot moved with `--reserve` into a throwaway SQLite state, its
`reservation`), at fixed instants, and checks the documents with jsonschema (draft 2020-12).
Usage:

    python3 scripts/check_schemas.py --stores .build/debug/stores
"""
import argparse
import json
import pathlib
import subprocess
import sys
import tempfile

from jsonschema import Draft202012Validator
from referencing import Registry, Resource

ROOT = pathlib.Path(__file__).resolve().parent.parent
SCHEMAS = ROOT / "docs" / "schemas"


def load_registry():
    resources = []
    for path in SCHEMAS.glob("*.schema.json"):
        schema = json.loads(path.read_text())
        resources.append((schema["$id"], Resource.from_contents(schema)))
    return Registry().with_resources(resources)


def run(stores, arguments, expected_status):
    result = subprocess.run([stores, *arguments], capture_output=True, text=True)
    if result.returncode != expected_status:
        sys.exit(f"{' '.join(arguments)}: exit {result.returncode}, expected {expected_status}\n{result.stderr}")
    return json.loads(result.stdout)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--stores", required=True)
    stores = parser.parse_args().stores
    registry = load_registry()
    order_schema = json.loads((SCHEMAS / "order.schema.json").read_text())
    result_schema = json.loads((SCHEMAS / "pickup-result.schema.json").read_text())
    documents = [
        ("order written back", order_schema,
         run(stores, ["pickup", "--order", str(ROOT / "docs/examples/order.json"), "--now",
                      "2026-12-24T15:50:00Z", "--format", "json"], 0)),
        ("plan with nothing eligible", result_schema,
         run(stores, ["pickup", "--near", "51.5074,-0.1278", "--ready-in", "5m", "--now",
                      "2026-11-23T03:00:00Z", "--within", "1km", "--format", "json"], 3)),
        ("plan assigned", result_schema,
         run(stores, ["pickup", "--near", "35.6595,139.7005", "--ready-in", "12m", "--now",
                      "2026-11-22T07:45:00+09:00", "--format", "json"], 0)),
    ]
    with tempfile.TemporaryDirectory() as folder:
        data = pathlib.Path(folder) / "capacity.geojson"
        data.write_text(json.dumps({"type": "FeatureCollection", "features": [{
            "type": "Feature", "id": "a", "geometry": {"type": "Point", "coordinates": [13.40, 52.521]},
            "properties": {"opening_hours": "24/7", "timezone": "Europe/Berlin", "pickup:capacity": "1"}}]}))
        state = f"sqlite:{folder}/state.sqlite"
        common = ["pickup", "--data", str(data), "--near", "52.52,13.40", "--ready-in", "5m", "--format", "json"]
        documents.append(("plan with a slot", result_schema, run(stores, [*common, "--now", "2026-12-02T12:00:00Z"], 0)))
        run(stores, [*common, "--reserve", "--state", state], 0)
        documents.append(("plan with a reservation, its slot full", result_schema,
                          run(stores, [*common, "--reserve", "--state", state], 0)))
    failures = 0
    for name, schema, document in documents:
        errors = list(Draft202012Validator(schema, registry=registry).iter_errors(document))
        for error in errors:
            print(f"{name}: {'/'.join(map(str, error.absolute_path))}: {error.message}")
        failures += bool(errors)
    print(f"schemas: {len(documents) - failures} passed, {failures} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
