#!/usr/bin/env python3
"""Checks that a Python client generated from the served /openapi.json works against stores-server.

Starts `stores-server --port 0 --hostname 127.0.0.1` on the bundled data, fetches the document the
server serves (GET /openapi.json, not the file in the tree), generates a client from it with
openapi-python-client (the version pinned in scripts/client/requirements.txt, run from this
Python's environment) with its ruff post-hooks off, so that everything it prints is its own, and
fails when the generator warns or exits non-zero: a warning means a part of the document the
client leaves out (a response dropped, a schema it cannot read).

Then imports the generated package and calls the service through its generated functions, each
answer compared with what the `stores` command prints for the same question (same data, same
`now`, same `at`/`open_at`, so every open state is fixed):

- nearestStores: ids, distances, states, next changes (and the whole answer) against
  `stores nearest … --format json`;
  `format=geojson` too when the document offers it (it must parse as the GeoJSON model);
- getStore, getStoreHours, getStoreOpen against `stores show|hours|open ID --format json`;
- getInfo against `stores info --format json` (same data file: the same answer);
- storesWithin and storeClusters against `stores within` and `stores clusters`;
- searchPlaces against `stores places … --format json` (matched names and distances included);
- health, readiness, metrics, openAPI (the document generated from), page, pageFile, asset (200
  with Debian's libjs-leaflet installed, else the documented 404 problem) and reload with the
  admin token (the same file again: the same version), each parsed as the document says;
- planPickup with a plain request (near + ready_in) and with docs/examples/order.json against
  `stores pickup … --format json` (status, store, ready_at, pickup_at);
- the stores' state: getStoreState, changeStoreState (a pause, closures and special days; 401
  without the token, 400 naming the member), getChangedStates, getStoreStateHistory;
- errors: an unknown store id (404, `urn:stores:problem:unknown-store`) and a bad parameter
  (400, `urn:stores:problem:invalid-request` naming `k` in `parameter`), and reload without the
  token (401), each parsed as a generated Problem model;
- capacities and pickup slots: changeStoreState with a capacity (a number, then rules by time of
  day for a service, then the list emptied), getStoreSlots (96 slots of 20 places); planPickup
  with `reserve` at nw-0003 (open day and night, so a slot is held whatever the time of the run)
  with the order token (STORES_ORDER_TOKENS; 401 without it), again with the same
  `Idempotency-Key` (201, `Idempotent-Replayed: true`, the same bytes), getReservation,
  confirmReservation (401 without the token), the slots counting it, releaseReservation, a
  confirmation after the release (409 `reservation-released`) and an unknown id (404). Holds go by
  the real clock, so these answers are read whole but not compared with the CLI.

Every answer must parse as the generated model class it names (not None, not a dict), and the
model written back (`to_dict()`) must equal the JSON the server sent: what the client reads is the
whole answer. (A `format: date-time` member is a datetime in the model and comes back from
isoformat() as `+00:00` where the service wrote `Z`: the same instant in the same offset counts as
equal.) A plain pickup request carries `now` in its body, as the service requires.

    .build-venv/bin/python scripts/client/check_python_client.py \\
        --server .build/debug/stores-server --stores .build/debug/stores
    … --allow-warnings   (debugging only: go on to the calls when the generator warned)
    … --keep /tmp/client (keep the document and the generated client there)

Bounded: `--deadline` seconds for the whole check (default 110), 60 s for the server's startup,
15 s per request, 60 s per `stores` run, 90 s for the generator; the server is stopped with
SIGTERM whatever happens (and killed after 20 s) and must exit 0. 127.0.0.1 only.
"""
import argparse
import concurrent.futures
import datetime
import importlib
import json
import os
import pathlib
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback
import typing
import urllib.request
from importlib.metadata import version

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
DATA = ROOT / "Data" / "stores.geojson"
ORDER = ROOT / "docs" / "examples" / "order.json"
PACKAGE = "stores_client"
# The generator's settings: a fixed package name (the check imports it), no post-hooks (by
# default it runs `ruff check --fix` and `ruff format`, whose output is not the generator's).
GENERATOR_CONFIG = f"project_name_override: stores-client\npackage_name_override: {PACKAGE}\npost_hooks: []\n"
STARTUP_SECONDS = 60
SHUTDOWN_SECONDS = 20
REQUEST_SECONDS = 15
CLI_SECONDS = 60
GENERATOR_SECONDS = 90

# The questions: every answer depends on the clock, so both sides get the same one.
NOW = "2026-12-24T15:50:00Z"
NEAR = "47.6062,-122.3321"  # Seattle
K = 5
OPEN_AT = "2026-12-24T09:00"  # a wall time: 09:00 at each store
PICKUP_NEAR = "51.5074,-0.1278"  # London
READY_IN = "12m"
WITHIN_RADIUS = "1km"
CLUSTERS_BOX = "-180,-85,180,85"
# A prefix with accents and an alternate name among its answers (Zürich, Giurgiu as Zurz, ...).
PLACES_QUERY = "Zür"
ADMIN_TOKEN = "check-python-client"
ORDER_TOKEN = "check-python-client-orders"
# A store open day and night (New York), so a slot can be held at whatever time the check runs.
ALWAYS_OPEN = "nw-0003"
ALWAYS_OPEN_NEAR = "40.7184,-74.0071"
LEAFLET = pathlib.Path("/usr/share/javascript/leaflet")


class Deadline(Exception):
    pass


class Failed(Exception):
    pass


def log(message):
    print(f"check_python_client: {message}", flush=True)


# ---- the server ----------------------------------------------------------------------------------

def start_server(server, log_file):
    process = subprocess.Popen(
        [server, "--port", "0", "--hostname", "127.0.0.1", "--data", str(DATA), "--state", "memory"],
        stdout=subprocess.PIPE, stderr=log_file, stdin=subprocess.DEVNULL, text=True,
        env={**os.environ, "STORES_ADMIN_TOKEN": ADMIN_TOKEN, "STORES_ORDER_TOKENS": f"check:{ORDER_TOKEN}"})
    try:
        ready, _, _ = select.select([process.stdout], [], [], STARTUP_SECONDS)
        line = process.stdout.readline() if ready else ""
        match = re.search(r"serving (\d+) stores .* on http://127\.0\.0\.1:(\d+)$", line.strip())
        if not match:
            raise Failed(f"no startup line from {server} within {STARTUP_SECONDS} s: {line!r}")
    except BaseException:  # the deadline too: no server is left behind
        process.kill()
        process.wait()
        raise
    return process, int(match.group(2)), int(match.group(1))


def stop_server(process):
    """SIGTERM and the graceful exit the service promises; the exit status, or None if killed."""
    if process.poll() is not None:
        return process.returncode
    process.send_signal(signal.SIGTERM)
    try:
        return process.wait(timeout=SHUTDOWN_SECONDS)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
        return None


# ---- the generator -------------------------------------------------------------------------------

def generate(document, output, config):
    """Runs openapi-python-client; its exit status and its warnings, one line each."""
    generator = pathlib.Path(sys.executable).parent / "openapi-python-client"
    if not generator.exists():
        raise Failed(f"{generator} is missing: install scripts/client/requirements.txt")
    result = subprocess.run(
        [str(generator), "generate", "--path", str(document), "--output-path", str(output),
         "--config", str(config)],
        capture_output=True, text=True, timeout=GENERATOR_SECONDS, stdin=subprocess.DEVNULL)
    text = result.stdout + result.stderr
    # The generator prints "WARNING parsing GET /path within tag." and, after a blank line, why;
    # the why names the status code by an object's repr (UntrustedString object at 0x…).
    lines = [re.sub(r"<openapi_python_client\.\S+ object at 0x[0-9a-f]+>", "<status>", line.strip())
             for line in text.splitlines()]
    lines = [line for line in lines if line]
    warnings = []
    for index, line in enumerate(lines):
        if "warning" not in line.lower():
            continue
        if line.startswith("WARNING") and index + 1 < len(lines) and "warning" not in lines[index + 1].lower():
            line = f"{line} {lines[index + 1]}"
        warnings.append(line)
    return result.returncode, warnings, text


# ---- comparing -----------------------------------------------------------------------------------

def instant(value):
    """A date-time the generated models hold as datetime (format date-time), else None."""
    if isinstance(value, datetime.datetime):
        return value
    if isinstance(value, str) and re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)", value):
        return datetime.datetime.fromisoformat(value)
    return None


def difference(left, right, path="$"):
    """The first place where two JSON values differ, or None. The generated models hold a
    `format: date-time` member as a datetime and write it back with isoformat() (`+00:00` for
    `Z`): the same instant in the same offset is the same value."""
    if isinstance(left, dict) and isinstance(right, dict):
        for key in sorted(set(left) | set(right)):
            if key not in left or key not in right:
                return f"{path}.{key}: {left.get(key, '(absent)')!s} != {right.get(key, '(absent)')!s}"
            found = difference(left[key], right[key], f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(left, list) and isinstance(right, list):
        if len(left) != len(right):
            return f"{path}: {len(left)} items, not {len(right)}"
        for index, (a, b) in enumerate(zip(left, right)):
            found = difference(a, b, f"{path}[{index}]")
            if found:
                return found
        return None
    if instant(left) is not None and instant(right) is not None and (
            isinstance(left, datetime.datetime) or isinstance(right, datetime.datetime) or left != right):
        same = instant(left) == instant(right) and instant(left).utcoffset() == instant(right).utcoffset()
        return None if same else f"{path}: {left!s} != {right!s}"
    if left != right or isinstance(left, bool) != isinstance(right, bool):
        return f"{path}: {left!r} != {right!r}"
    return None


class Checks:
    def __init__(self):
        self.problems = []
        self.passed = 0

    def expect(self, condition, what):
        if condition:
            self.passed += 1
        else:
            self.problems.append(what)
        return condition

    def equal(self, got, expected, what):
        found = difference(got, expected)
        return self.expect(found is None, f"{what}: the client has {str(got)[:300]}, the CLI {str(expected)[:300]} "
                                          f"({found})")


def parsed(checks, response, status, model, name):
    """The response's parsed model when it has the status and class and reads the whole JSON."""
    body = response.content.decode(errors="replace")
    if not checks.expect(int(response.status_code) == status,
                         f"{name}: HTTP {int(response.status_code)}, not {status}: {body[:300].strip()}"):
        return None
    value = response.parsed
    if not checks.expect(isinstance(value, model),
                         f"{name}: parsed as {type(value).__name__}, not the generated "
                         f"{model.__name__} (body: {body[:200].strip()})"):
        return None
    found = difference(value.to_dict(), json.loads(body))
    checks.expect(found is None, f"{name}: the {model.__name__} model does not read the answer whole: {found}")
    return value


def members(model_class):
    """The members a generated (attrs) model declares."""
    import attrs

    return [field.name for field in attrs.fields(model_class) if field.name != "additional_properties"]


def declared(model_class, data, keys):
    """A body model from `data` whose class declares `keys` (not read as additional members)."""
    try:
        value = model_class.from_dict(data)
    except (KeyError, TypeError, ValueError, AttributeError):
        return None
    extra = [key for key in keys if key in getattr(value, "additional_properties", {})]
    return value if not extra else None


# ---- the calls -----------------------------------------------------------------------------------

def cli_answers(stores):
    """The `stores` command's JSON answers, and the nearest store's id (the one getStore asks for).
    Two runs at a time: each run of the debug build reads the bundled data again (about a second)."""
    nearest = ["nearest", "--near", NEAR, "-k", str(K), "--now", NOW]
    runs = {
        "nearest-fields": ["nearest", "--near", NEAR, "-k", str(K), "--now", NOW, "--fields", "name,distance_m,state"],
        "nearest-geojson": ["nearest", "--near", NEAR, "-k", str(K), "--now", NOW, "--open-at", OPEN_AT,
                            "--format", "geojson"],
        "info": ["info"],
        # The service pages `within` by 100 by default, the command line not at all.
        "within": ["within", "--near", NEAR, "--radius", WITHIN_RADIUS, "--limit", "100", "--now", NOW],
        "clusters": ["clusters", "--bbox", CLUSTERS_BOX, "--columns", "8", "--rows", "4", "--now", NOW],
        "pickup": ["pickup", "--near", PICKUP_NEAR, "--ready-in", READY_IN, "--now", NOW],
        "pickup-order": ["pickup", "--order", str(ORDER), "--now", NOW],
        "places": ["places", PLACES_QUERY, "--near", NEAR, "--limit", "5"],
    }
    # `open` exits 1 when closed and 2 when unknown, `pickup` 3 when no store is eligible: the JSON
    # is the answer either way.
    answered = {"open": (0, 1, 2), "pickup": (0, 3)}

    def run(arguments):
        # `places` reads the bundled places, not store data.
        command = [stores, *arguments] + ([] if arguments[0] == "places" else ["--data", str(DATA)])
        if "--format" not in arguments:
            command += ["--format", "json"]
        result = subprocess.run(command, capture_output=True, text=True, timeout=CLI_SECONDS, stdin=subprocess.DEVNULL)
        if result.returncode not in answered.get(arguments[0], (0,)):
            raise Failed(f"`stores {' '.join(arguments)}` exited {result.returncode}: {result.stderr.strip()}")
        return json.loads(result.stdout)

    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        futures = {name: pool.submit(run, arguments) for name, arguments in runs.items()}
        answers = {"nearest": run(nearest)}
        store_id = answers["nearest"]["stores"][0]["id"]
        for name in ["show", "hours", "open"]:
            futures[name] = pool.submit(run, [name, store_id, "--at", NOW, "--now", NOW])
        answers.update({name: future.result() for name, future in futures.items()})
        return answers, store_id


def call_through_client(base, document, cli, store_id, checks):
    package = importlib.import_module(PACKAGE)
    models = importlib.import_module(f"{PACKAGE}.models")
    api = importlib.import_module(f"{PACKAGE}.api")
    import httpx

    def operation(tag, name):
        return importlib.import_module(f"{api.__name__}.{tag}.{name}")

    def model(name):
        found = getattr(models, name, None)
        if found is None:
            raise Failed(f"the generated client has no model {name} (models: {', '.join(sorted(models.__all__))})")
        return found

    def call(function, *arguments, **keywords):
        """`function(…)`, a parameter the document types `format: date-time` passed as a datetime."""
        hints = typing.get_type_hints(function)
        for name, value in keywords.items():
            if isinstance(value, str) and datetime.datetime in typing.get_args(hints.get(name)):
                keywords[name] = datetime.datetime.fromisoformat(value)
        return function(*arguments, **keywords)

    client = package.Client(base_url=base, timeout=httpx.Timeout(REQUEST_SECONDS), raise_on_unexpected_status=False)
    nearest_stores = operation("stores", "nearest_stores")

    # nearestStores, JSON.
    response = call(nearest_stores.sync_detailed, client=client, near=NEAR, k=K, now=NOW)
    answer = parsed(checks, response, 200, model("NearestAnswer"), "nearestStores")
    if answer is not None:
        expected = cli["nearest"]["stores"]
        checks.equal(answer.count, len(expected), "nearestStores count")
        checks.equal([store.id for store in answer.stores], [store["id"] for store in expected], "nearestStores ids")
        checks.equal([store.distance_m for store in answer.stores], [store["distance_m"] for store in expected],
                     "nearestStores distances")
        checks.equal([str(store.state) for store in answer.stores], [store["state"] for store in expected],
                     "nearestStores states")
        checks.equal([store.next_change for store in answer.stores], [store["next_change"] for store in expected],
                     "nearestStores next changes")
        checks.expect(all(isinstance(store, model("Store")) for store in answer.stores),
                      "nearestStores: the stores are not Store models")
        checks.equal(answer.to_dict(), cli["nearest"], "nearestStores (the whole answer)")
        log(f"nearestStores: {answer.count} stores near {NEAR}, as `stores nearest` lists them "
            f"({', '.join(f'{s.id} {s.distance_m:.0f} m {s.state}' for s in answer.stores[:3])}, …)")

    # nearestStores with fields: only the members asked for, as `stores nearest --fields` writes them.
    if "Fields" in document.get("components", {}).get("parameters", {}):
        member = model("StoreMember")
        response = call(nearest_stores.sync_detailed, client=client, near=NEAR, k=K, now=NOW,
                        fields=[member("name"), member("distance_m"), member("state")])
        selection = parsed(checks, response, 200, model("NearestSelection"), "nearestStores fields")
        if selection is not None:
            checks.equal(selection.to_dict(), cli["nearest-fields"], "nearestStores fields (the whole answer)")
            checks.expect(all(isinstance(store, model("SelectedStore")) for store in selection.stores),
                          "nearestStores fields: the stores are not SelectedStore models")
            log(f"nearestStores fields: {selection.count} stores with {', '.join(map(str, selection.fields))}, "
                f"as `stores nearest --fields` writes them")

    # nearestStores, GeoJSON: when the document offers format=geojson, the client must read it as
    # GeoJSON (a NearestAnswer parse of a FeatureCollection fails, or worse, half-works).
    def resolved(node):
        while isinstance(node, dict) and "$ref" in node:
            target = document
            for part in node["$ref"].removeprefix("#/").split("/"):
                target = target[part]
            node = target
        return node

    nearest_parameters = [resolved(parameter) for parameter in
                          document["paths"]["/v1/stores/nearest"]["get"].get("parameters", [])]
    offers_geojson = any(parameter.get("name") == "format" and "geojson" in json.dumps(resolved(parameter["schema"]))
                         for parameter in nearest_parameters)
    if offers_geojson:
        answer_format = model("AnswerFormat")
        try:
            response = call(nearest_stores.sync_detailed, client=client, near=NEAR, k=K, now=NOW, open_at=OPEN_AT,
                                                    format_=answer_format("geojson"))
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            checks.expect(False, f"nearestStores format=geojson: the client fails to read the answer: "
                                 f"{type(error).__name__}: {error}")
        else:
            collection = parsed(checks, response, 200, model("FeatureCollection"), "nearestStores format=geojson")
            if collection is not None:
                expected = cli["nearest-geojson"]["features"]
                checks.equal([feature.id for feature in collection.features], [f["id"] for f in expected],
                             "nearestStores format=geojson feature ids")
                checks.equal([feature.to_dict()["properties"].get("state") for feature in collection.features],
                             [f["properties"].get("state") for f in expected],
                             "nearestStores format=geojson states")
                checks.equal(collection.to_dict(), cli["nearest-geojson"],
                             "nearestStores format=geojson (the whole answer)")
                log(f"nearestStores format=geojson: a FeatureCollection of {len(collection.features)} features "
                    f"open at {OPEN_AT}, as `stores nearest --format geojson` writes it")
    else:
        log("nearestStores format=geojson: not offered by the document, not called")

    # getStore, getStoreHours, getStoreOpen.
    response = call(operation("stores", "get_store").sync_detailed, store_id, client=client, at=NOW, now=NOW)
    store = parsed(checks, response, 200, model("Store"), "getStore")
    if store is not None:
        for member in ["id", "name", "address", "latitude", "longitude", "timezone", "opening_hours",
                       "next_change", "status_text"]:
            checks.equal(getattr(store, member), cli["show"][member], f"getStore {member}")
        checks.equal(str(store.state), cli["show"]["state"], "getStore state")
        checks.equal(store.properties.to_dict(), cli["show"]["properties"], "getStore properties")
        checks.equal(store.to_dict(), cli["show"], "getStore (the whole store)")
        log(f"getStore {store_id}: {store.name}, {store.state} ({store.status_text}), as `stores show` says")

    response = call(operation("stores", "get_store_hours").sync_detailed, store_id, client=client, at=NOW, now=NOW)
    hours = parsed(checks, response, 200, model("HoursAnswer"), "getStoreHours")
    if hours is not None:
        checks.equal(hours.to_dict(), cli["hours"], "getStoreHours (the whole answer)")
        log(f"getStoreHours {store_id}: {len(hours.days)} days, as `stores hours` lists them")

    response = call(operation("stores", "get_store_open").sync_detailed, store_id, client=client, at=NOW, now=NOW)
    open_store = parsed(checks, response, 200, model("OpenStore"), "getStoreOpen")
    if open_store is not None:
        checks.equal(open_store.to_dict(), cli["open"], "getStoreOpen (the whole answer)")
        log(f"getStoreOpen {store_id}: {open_store.state}, as `stores open` says")

    # getInfo: the same data file, so the same figures, source path included.
    response = call(operation("data", "get_info").sync_detailed, client=client)
    info = parsed(checks, response, 200, model("Info"), "getInfo")
    if info is not None:
        checks.equal(info.records, cli["info"]["records"], "getInfo records")
        checks.equal(info.to_dict(), cli["info"], "getInfo (the whole answer)")
        log(f"getInfo: {info.records} records, {info.indexed} indexed, as `stores info` says")

    # planPickup: the body is one of the request models; build each from its JSON and make sure
    # the model declares what it is given (a member read as an additional one is not typed).
    plan_pickup = operation("pickup", "plan_pickup")
    body_types = typing.get_args(typing.get_type_hints(plan_pickup.sync_detailed)["body"]) or (
        typing.get_type_hints(plan_pickup.sync_detailed)["body"],)
    # A plain request gives every parameter in the body (`now` too; the query string is refused).
    request_json = {"near": PICKUP_NEAR, "ready_in": READY_IN, "now": NOW}
    body = next((value for kind in body_types if kind is not model("Order")
                 for value in [declared(kind, request_json, request_json)] if value is not None), None)
    if checks.expect(body is not None, "planPickup: no request model declares near, ready_in and now (the body's "
                                       "models and their members: " + "; ".join(
                                           f"{kind.__name__}({', '.join(members(kind))})" for kind in body_types)
                                       + ")"):
        response = call(plan_pickup.sync_detailed, client=client, body=body)
        plan = parsed(checks, response, 200, model("PickupResult"), "planPickup (near + ready_in)")
        if plan is not None:
            expected = cli["pickup"]
            checks.equal(str(plan.status), expected["status"], "planPickup status")
            checks.equal(plan.store.id if plan.store else None, (expected["store"] or {}).get("id"),
                         "planPickup store")
            checks.equal(plan.ready_at, expected["ready_at"], "planPickup ready_at")
            checks.equal(plan.pickup_at, expected["pickup_at"], "planPickup pickup_at")
            checks.equal(plan.to_dict(), expected, "planPickup (the whole plan)")
            log(f"planPickup near {PICKUP_NEAR}, ready in {READY_IN}: {plan.status} "
                f"{plan.store.id if plan.store else '-'}, ready {plan.ready_at}, as `stores pickup` plans it")

    order_json = json.loads(ORDER.read_text())
    order = declared(model("Order"), order_json, ["id", "customer", "items"])
    if checks.expect(order is not None, "planPickup: the Order model does not declare id, customer and items"):
        response = call(plan_pickup.sync_detailed, client=client, body=order, now=NOW)
        placed = parsed(checks, response, 200, model("OrderWithPickup"), "planPickup (order document)")
        if placed is not None:
            expected = cli["pickup-order"]
            plan = placed.pickup
            checks.expect(isinstance(plan, model("PickupResult")), "planPickup (order): pickup is not a PickupResult")
            checks.equal(placed.id, expected["id"], "planPickup (order) id")
            checks.equal(str(plan.status), expected["pickup"]["status"], "planPickup (order) status")
            checks.equal(plan.store.id if plan.store else None, (expected["pickup"]["store"] or {}).get("id"),
                         "planPickup (order) store")
            checks.equal(plan.ready_at, expected["pickup"]["ready_at"], "planPickup (order) ready_at")
            checks.equal(plan.pickup_at, expected["pickup"]["pickup_at"], "planPickup (order) pickup_at")
            checks.equal(placed.to_dict(), expected, "planPickup (order, the whole document)")
            log(f"planPickup {ORDER.relative_to(ROOT)}: {plan.status} {plan.store.id if plan.store else '-'}, "
                f"ready {plan.ready_at}, pickup {plan.pickup_at}, as `stores pickup --order` plans it")

    # storesWithin and storeClusters.
    response = call(operation("stores", "stores_within").sync_detailed, client=client, near=NEAR,
                    radius=WITHIN_RADIUS, now=NOW)
    within = parsed(checks, response, 200, model("WithinAnswer"), "storesWithin")
    if within is not None:
        checks.equal(within.to_dict(), cli["within"], "storesWithin (the whole answer)")
        log(f"storesWithin: {within.count} stores within {WITHIN_RADIUS} of {NEAR}, as `stores within` lists them")
    response = call(operation("stores", "store_clusters").sync_detailed, client=client, bbox=CLUSTERS_BOX,
                    columns=8, rows=4, now=NOW)
    clusters = parsed(checks, response, 200, model("ClustersAnswer"), "storeClusters")
    if clusters is not None:
        checks.equal(clusters.to_dict(), cli["clusters"], "storeClusters (the whole answer)")
        log(f"storeClusters: {len(clusters.clusters)} clusters over the world, as `stores clusters` counts them")

    # searchPlaces: the suggestions of a search box.
    response = call(operation("places", "search_places").sync_detailed, client=client, q=PLACES_QUERY, near=NEAR,
                    limit=5)
    places = parsed(checks, response, 200, model("PlacesAnswer"), "searchPlaces")
    if places is not None:
        checks.equal(places.to_dict(), cli["places"], "searchPlaces (the whole answer)")
        log(f"searchPlaces q={PLACES_QUERY}: {', '.join(place.name for place in places.places)}, as `stores places` lists them")

    # The operator's routes, the document and the page: each parsed as the document says.
    operations = "operations"
    parsed(checks, call(operation(operations, "health").sync_detailed, client=client), 200, model("Health"),
           "health")
    ready = parsed(checks, call(operation(operations, "readiness").sync_detailed, client=client), 200,
                   model("Ready"), "readiness")
    if ready is not None:
        checks.equal(ready.stores, cli["info"]["indexed"], "readiness stores")
    response = call(operation(operations, "metrics").sync_detailed, client=client)
    checks.expect(int(response.status_code) == 200 and isinstance(response.parsed, str)
                  and "stores_loaded_stores" in response.parsed, "metrics: not the Prometheus text")
    response = call(operation(operations, "open_api").sync_detailed, client=client)
    contract = response.parsed
    checks.expect(int(response.status_code) == 200 and getattr(contract, "openapi", None) == document["openapi"]
                  and contract.to_dict() == document, "openAPI: not the document the check generated from")
    page = operation("page", "page").sync_detailed(client=client)
    checks.expect(int(page.status_code) == 200 and isinstance(page.parsed, str) and "<html" in page.parsed.lower(),
                  f"page: HTTP {int(page.status_code)}, not the picker page")
    script = operation("page", "page_file").sync_detailed("picker.js", client=client)
    checks.expect(int(script.status_code) == 200 and isinstance(script.parsed, str) and len(script.parsed) > 1000,
                  f"pageFile picker.js: HTTP {int(script.status_code)}")
    leaflet = operation("page", "asset").sync_detailed("leaflet.css", client=client)
    if (LEAFLET / "leaflet.css").exists():
        checks.expect(int(leaflet.status_code) == 200 and isinstance(leaflet.parsed, str),
                      f"asset leaflet.css: HTTP {int(leaflet.status_code)}")
    else:  # Debian's libjs-leaflet is not installed: the documented 404 problem
        checks.expect(int(leaflet.status_code) == 404 and isinstance(leaflet.parsed, model("Problem")),
                      f"asset leaflet.css without {LEAFLET}: HTTP {int(leaflet.status_code)}, not a 404 Problem")

    # reload, with the admin token: the same file again, so the same version; without it, a 401.
    reload = operation("admin", "reload")
    admin = package.AuthenticatedClient(base_url=base, token=ADMIN_TOKEN, timeout=httpx.Timeout(REQUEST_SECONDS * 4),
                                        raise_on_unexpected_status=False)
    reloaded = parsed(checks, reload.sync_detailed(client=admin), 200, model("Reloaded"), "reload")
    if reloaded is not None and ready is not None:
        checks.equal(reloaded.version, ready.version, "reload version (the same file)")
        checks.equal(reloaded.previous_version, ready.version, "reload previous_version")
    log("health, readiness, metrics, openAPI, page, pageFile, asset and reload: each answer read as the document says")

    # The stores' state: read, pause with the token (a 401 without), the pause in a store answer,
    # closures and special days, the mirror's list and the history, each parsed as the document says.
    state_id = "nw-0145"
    get_state = operation("state", "get_store_state")
    change_state = operation("state", "change_store_state")
    before = parsed(checks, get_state.sync_detailed(state_id, client=client), 200, model("StoreOperationalState"),
                    "getStoreState")
    if before is not None:
        checks.equal(str(before.ordering), "open", "getStoreState ordering before")
    change = model("StateChange")
    paused = parsed(checks, change_state.sync_detailed(
        state_id, client=admin, body=change.from_dict({"ordering": "paused", "reason": "python client check"})),
        200, model("StoreOperationalState"), "changeStoreState pause")
    if paused is not None:
        checks.equal(str(paused.ordering), "paused", "changeStoreState ordering")
        checks.equal(paused.reason, "python client check", "changeStoreState reason")
    shown = parsed(checks, call(operation("stores", "get_store").sync_detailed, state_id, client=client), 200,
                   model("Store"), "getStore of the paused store")
    if shown is not None:
        checks.equal(str(shown.ordering), "paused", "getStore ordering of the paused store")
    days = parsed(checks, change_state.sync_detailed(state_id, client=admin, body=change.from_dict({
        "closures": [{"from": "2027-01-05", "until": "2027-01-19", "reason": "renovation"}],
        "special_days": [{"date": "2026-12-24", "hours": "07:00-14:00", "reason": "Christmas Eve", "service": None}],
        "ordering": "open"})), 200, model("StoreOperationalState"), "changeStoreState closures and special days")
    if days is not None:
        checks.equal(len(days.closures), 1, "closures stored")
        checks.equal(days.special_days[0].hours, "07:00-14:00", "special day stored")
    changed = parsed(checks, operation("state", "get_changed_states").sync_detailed(client=client, changed_since=0),
                     200, model("ChangedStates"), "getChangedStates")
    if changed is not None:
        checks.equal([store.id for store in changed.stores], [state_id], "getChangedStates stores")
    history = parsed(checks, operation("state", "get_store_state_history").sync_detailed(state_id, client=client),
                     200, model("StateHistory"), "getStoreStateHistory")
    if history is not None:
        checks.equal(len(history.history), 2, "getStoreStateHistory entries")
        checks.equal({entry.by for entry in history.history}, {"admin"}, "getStoreStateHistory by")
    log("getStoreState, changeStoreState, getChangedStates and getStoreStateHistory: each answer read as the document says")

    # Errors: typed Problem models.
    def problem(response, status, kind, name, parameter=None):
        value = response.parsed
        body = response.content.decode(errors="replace")
        if not checks.expect(int(response.status_code) == status,
                             f"{name}: HTTP {int(response.status_code)}, not {status}: {body[:300].strip()}"):
            return
        if not checks.expect(isinstance(value, model("Problem")),
                             f"{name}: the {status} answer is not parsed as the generated Problem model "
                             f"({type(value).__name__}; body: {body[:200].strip()})"):
            return
        checks.expect(difference(value.to_dict(), json.loads(body)) is None,
                      f"{name}: the {type(value).__name__} model does not read the problem whole: "
                      f"{difference(value.to_dict(), json.loads(body))}")
        checks.equal(getattr(value, "status", None), status, f"{name} status")
        checks.equal(str(getattr(value, "type_", getattr(value, "type", None))), kind, f"{name} type")
        checks.expect(bool(getattr(value, "detail", None)), f"{name}: no detail")
        if parameter is not None:
            checks.equal(getattr(value, "parameter", None), parameter, f"{name} parameter")
        log(f"{name}: {status} {type(value).__name__} {kind}"
            + (f" (parameter {getattr(value, 'parameter', None)})" if parameter else "")
            + f": {getattr(value, 'detail', None)}")

    response = call(operation("stores", "get_store").sync_detailed, "no-such-store", client=client, now=NOW)
    problem(response, 404, "urn:stores:problem:unknown-store", "getStore no-such-store")
    response = call(nearest_stores.sync_detailed, client=client, near=NEAR, k=0, now=NOW)
    problem(response, 400, "urn:stores:problem:invalid-request", "nearestStores k=0", parameter="k")
    problem(reload.sync_detailed(client=client), 401, "urn:stores:problem:unauthorized", "reload without the token")
    problem(change_state.sync_detailed(state_id, client=client, body=change.from_dict({"ordering": "open"})), 401,
            "urn:stores:problem:unauthorized", "changeStoreState without the token")
    problem(change_state.sync_detailed(state_id, client=admin, body=change.from_dict(
        {"closures": [{"from": "2027-01-19", "until": "2027-01-05", "reason": None}]})), 400,
        "urn:stores:problem:invalid-request", "changeStoreState with until before from", parameter="closures[0].until")

    # Capacities through the state (a number, rules by time of day, the list replaced), the slots
    # listing, and the order flow with the order token: a slot held, held again with the same
    # Idempotency-Key (the same answer, `Idempotent-Replayed`), read, confirmed, released; each
    # answer read whole as the document says (holds go by the real clock, so no CLI to compare).
    capped = parsed(checks, change_state.sync_detailed(state_id, client=admin, body=change.from_dict(
        {"capacity": {"orders_per_slot": 20, "slot_minutes": 15}})), 200, model("StoreOperationalState"),
        "changeStoreState capacity")
    if capped is not None:
        checks.equal([item.to_dict() for item in capped.capacity],
                     [{"orders_per_slot": 20, "slot_minutes": 15, "service": None}], "capacity stored")
    ruled = parsed(checks, change_state.sync_detailed(state_id, client=admin, body=change.from_dict(
        {"capacity": {"orders_per_slot": "Mo-Fr 07:00-09:00 6; 10", "slot_minutes": 10, "service": "drive_through"}})),
        200, model("StoreOperationalState"), "changeStoreState capacity rules")
    if ruled is not None:
        checks.equal(sorted(str(item.orders_per_slot) for item in ruled.capacity), ["20", "Mo-Fr 07:00-09:00 6; 10"],
                     "capacities stored")
    get_slots = operation("pickup", "get_store_slots")
    listing = parsed(checks, call(get_slots.sync_detailed, state_id, client=client, date=datetime.date(2026, 12, 24),
                                  now=NOW), 200, model("SlotListing"), "getStoreSlots")
    if listing is not None:
        checks.equal(listing.capacity.orders_per_slot if listing.capacity else None, 20, "getStoreSlots capacity")
        checks.equal(len(listing.slots), 96, "getStoreSlots slots of a day")
        checks.equal({slot.free for slot in listing.slots}, {20}, "getStoreSlots free places")
    cleared = parsed(checks, change_state.sync_detailed(state_id, client=admin, body=change.from_dict(
        {"capacity": []})), 200, model("StoreOperationalState"), "changeStoreState capacity removed")
    if cleared is not None:
        checks.equal(cleared.capacity, [], "capacities removed")
    log("changeStoreState capacity and getStoreSlots: each answer read as the document says")

    orders = package.AuthenticatedClient(base_url=base, token=ORDER_TOKEN, timeout=httpx.Timeout(REQUEST_SECONDS),
                                         raise_on_unexpected_status=False)
    hold_json = {"near": ALWAYS_OPEN_NEAR, "ready_in": "10m", "store": ALWAYS_OPEN, "reserve": True,
                 "hold_for": "2m"}
    hold_body = next((value for kind in body_types if kind is not model("Order")
                      for value in [declared(kind, hold_json, hold_json)] if value is not None), None)
    if checks.expect(hold_body is not None, "planPickup: no request model declares reserve and hold_for"):
        problem(plan_pickup.sync_detailed(client=client, body=hold_body), 401, "urn:stores:problem:unauthorized",
                "planPickup reserve without the order token")
        response = plan_pickup.sync_detailed(client=orders, body=hold_body, idempotency_key="check-order-1")
        plan = parsed(checks, response, 201, model("PickupResult"), "planPickup reserve")
        again = plan_pickup.sync_detailed(client=orders, body=hold_body, idempotency_key="check-order-1")
        checks.expect(int(again.status_code) == 201 and again.headers.get("Idempotent-Replayed") == "true"
                      and again.content == response.content,
                      f"planPickup reserve again: HTTP {int(again.status_code)}, Idempotent-Replayed "
                      f"{again.headers.get('Idempotent-Replayed')!r}, not the first answer again")
        if plan is not None and checks.expect(plan.reservation is not None, "planPickup reserve: no reservation"):
            held = plan.reservation
            checks.equal(plan.store.id if plan.store else None, ALWAYS_OPEN, "planPickup reserve store")
            checks.equal(str(held.status), "held", "planPickup reserve status")
            checks.equal(held.slot_start, plan.slot.start if plan.slot else None, "planPickup reserve slot")
            reservations = "reservations"
            read = parsed(checks, operation(reservations, "get_reservation").sync_detailed(held.id, client=client),
                          200, model("Reservation"), "getReservation")
            if read is not None:
                checks.equal(read.to_dict(), held.to_dict(), "getReservation (the hold)")
            confirm = operation(reservations, "confirm_reservation")
            problem(confirm.sync_detailed(held.id, client=client), 401, "urn:stores:problem:unauthorized",
                    "confirmReservation without the order token")
            confirmed = parsed(checks, confirm.sync_detailed(held.id, client=orders), 200, model("Reservation"),
                               "confirmReservation")
            if confirmed is not None:
                checks.equal(str(confirmed.status), "confirmed", "confirmReservation status")
            slots = parsed(checks, call(get_slots.sync_detailed, ALWAYS_OPEN, client=client,
                                        date=datetime.date.fromisoformat(plan.pickup_at_local[:10])),
                           200, model("SlotListing"), "getStoreSlots with a confirmed reservation")
            if slots is not None:
                counted = [slot for slot in slots.slots if slot.start == held.slot_start]
                checks.equal([(slot.held, slot.confirmed) for slot in counted], [(0, 1)],
                             "getStoreSlots counts the confirmed reservation")
            released = parsed(checks, operation(reservations, "release_reservation").sync_detailed(
                held.id, client=orders), 200, model("Reservation"), "releaseReservation")
            if released is not None:
                checks.equal(str(released.status), "released", "releaseReservation status")
            problem(confirm.sync_detailed(held.id, client=orders), 409, "urn:stores:problem:reservation-released",
                    "confirmReservation after the release")
            problem(operation(reservations, "get_reservation").sync_detailed("r_" + "0" * 26, client=client), 404,
                    "urn:stores:problem:unknown-reservation", "getReservation of an unknown id")
            log(f"planPickup reserve at {ALWAYS_OPEN}: held {held.id} in the slot from {held.slot_start}; "
                f"getReservation, confirmReservation, releaseReservation: each answer read as the document says")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", required=True, help="the stores-server executable")
    parser.add_argument("--stores", required=True, help="the stores executable (the answers to compare with)")
    parser.add_argument("--allow-warnings", action="store_true",
                        help="debugging only: make the calls even when the generator warned (still fails)")
    parser.add_argument("--keep", help="write the served document and the generated client to this directory")
    parser.add_argument("--deadline", type=int, default=110, help="seconds for the whole check (default 110)")
    arguments = parser.parse_args()
    server = str(pathlib.Path(arguments.server).resolve())
    stores = str(pathlib.Path(arguments.stores).resolve())
    started = time.monotonic()

    def over(signum, frame):
        raise Deadline(f"the check ran past its {arguments.deadline} s deadline")

    signal.signal(signal.SIGALRM, over)
    signal.alarm(arguments.deadline)
    problems = []
    warnings = []
    exit_status = "not started"
    checks = Checks()
    with tempfile.TemporaryDirectory(prefix="check-python-client-") as directory:
        work = pathlib.Path(arguments.keep or directory).resolve()
        work.mkdir(parents=True, exist_ok=True)
        output = work / "client"
        shutil.rmtree(output, ignore_errors=True)
        process = None
        pool = concurrent.futures.ThreadPoolExecutor(max_workers=1)
        try:
            # The `stores` answers are computed meanwhile.
            cli = pool.submit(cli_answers, stores)
            with open(work / "server.log", "w") as server_log:
                process, port, served = start_server(server, server_log)
                base = f"http://127.0.0.1:{port}"
                log(f"stores-server on {base} ({served} stores), started in {time.monotonic() - started:.1f} s")
                with urllib.request.urlopen(f"{base}/openapi.json", timeout=REQUEST_SECONDS) as response:
                    (work / "openapi.json").write_bytes(response.read())
                document = json.loads((work / "openapi.json").read_text())
                (work / "generator.yaml").write_text(GENERATOR_CONFIG)
                generator_started = time.monotonic()
                status, warnings, text = generate(work / "openapi.json", output, work / "generator.yaml")
                log(f"openapi-python-client {version('openapi-python-client')} generated {PACKAGE} from the served "
                    f"document ({len(document['paths'])} paths) in {time.monotonic() - generator_started:.1f} s: "
                    f"exit {status}, {sum(line.startswith('WARNING') for line in warnings)} warnings")
                if status != 0:
                    problems.append(f"openapi-python-client exited {status}:\n{text[-4000:]}")
                if warnings:
                    count = sum(line.startswith("WARNING") for line in warnings)
                    problems.append(f"openapi-python-client warned ({count} warnings):\n  " + "\n  ".join(warnings))
                if status == 0 and (not warnings or arguments.allow_warnings):
                    sys.path.insert(0, str(output))
                    answers, store_id = cli.result(timeout=CLI_SECONDS * 2)
                    call_through_client(base, document, answers, store_id, checks)
                    log(f"{checks.passed} comparisons with the stores CLI held, {len(checks.problems)} did not")
        except Deadline as error:
            problems.append(str(error))
        except Failed as error:
            problems.append(str(error))
        except Exception:  # the generated code failing in a way no check foresaw: say where
            problems.append("the check stopped on an error:\n" + traceback.format_exc(limit=-6))
        finally:
            signal.alarm(0)
            if process is not None:
                exit_status = stop_server(process)
                if exit_status != 0:
                    problems.append(f"stores-server did not exit 0 after SIGTERM (exit {exit_status}):\n"
                                    + (work / "server.log").read_text(errors="replace")[-2000:])
            pool.shutdown(wait=False, cancel_futures=True)

    problems += checks.problems
    log(f"the whole check took {time.monotonic() - started:.0f} s; stores-server exit {exit_status}")
    if problems:
        sys.exit("check_python_client: FAILED\n- " + "\n- ".join(problems))
    log("the generated Python client reads every answer it was asked for, as the stores CLI gives them")


if __name__ == "__main__":
    main()
