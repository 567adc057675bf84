#!/usr/bin/env python3
"""Checks that stores-server answers as its OpenAPI document (GET /openapi.json) says.

Starts `stores-server --port 0 --hostname 127.0.0.1` on the bundled data with a random
STORES_ADMIN_TOKEN (so POST /admin/reload and the state changes are checked too) and a random order
token in STORES_ORDER_TOKENS (so pickup slots are held, confirmed and released with the token the
order flow uses, not only with the admin token), reads the port from its startup line,
validates the document the server serves (openapi-spec-validator), runs schemathesis with it
against that loopback server only, then stops the server with SIGTERM and expects a graceful
exit 0. Needs the packages of scripts/requirements-ci.txt. Usage:

    python3 scripts/service/check_contract.py --server .build/debug/stores-server
    python3 scripts/service/check_contract.py --server … --seconds 60 --examples 10 --seed 7

Exits non-zero when schemathesis reports any failure, when any answer is a 5xx other than a 503
(the one the document lists: `not-ready`, `timeout`), or when the server crashed or did not shut
down cleanly.

Bounded: at most `--examples` test cases per operation and phase, `--seconds` for the whole
schemathesis run (schemathesis keeps fuzzing until the budget is spent), 15 s per request (the
service's own deadline is 10 s), 5 examples for POST /admin/reload (each reads the data again).
The default run takes about 2 minutes 15 seconds on this 2-core machine with a debug build.

Checks: `all` of schemathesis's, none excluded: server errors, status codes, content types, response headers and bodies against the document, schema-violating requests
refused (400), schema-valid ones accepted, missing auth refused (401), undocumented methods
answered 405 with `Allow`, and, in the stateful phase (links schemathesis infers from the answers,
such as a plan's `reservation.id` to `/v1/reservations/{id}`), sequences of calls. Every request
carries the admin token (`--header`), except those of the routes that hold, confirm, release and
read pickup slots (`POST /v1/pickup`, `/v1/reservations/{id}…`), which carry the order token (a
per-operation header in the configuration): the admin token would pass there too, and the order
token is what those routes are for. Settings say what the document says and schemathesis cannot
read from it:

- a 503 is not a server error here (documented on every route: no data yet, shutting down, past
  the deadline); any other 5xx still fails the run;
- a well-formed pickup may be refused with 422 `pickup-refused` (an order ready beyond 30 days
  of the order time is a business rule, not a shape) or, holding a slot, `idempotency-key-reused`
  (schemathesis sends one `Idempotency-Key` with different bodies), and with 409 `slots-full`;
- the reservation routes answer 404 `unknown-reservation` for an id nobody was given (ids are
  130 random bits), and confirm a released one with 409: both are schemathesis's defaults for
  well-formed requests, so they need no setting. So that their answers are checked too, not
  only their 404s, the check holds a few slots before the run (`POST /v1/pickup` with `reserve`
  at nw-0003, open day and night, with the order token; 30 minutes each) and positive cases name
  one of them (below): read, confirmed, released, confirmed after a release, in whatever order
  schemathesis calls them;
- positive test cases are made to honour the cross-parameter rules the document states in words
  and OpenAPI cannot express (`map_case` below): `open_now` or `open_at`, not both; `near` with
  `radius` or `bbox` for `within`, south not above north (`within`, `clusters`); `at` or `from`
  for hours; a page file that exists (the page's own names); a pickup
  request's parameters in its body only; a cursor is one the service wrote (this data version);
  a `near` that is not `LAT,LON` is a name of exactly one place (`Seattle`), a `bias` is
  `LAT,LON`; a reservation id is
  one the service gave (one of those held before the run); a pickup that holds a
  slot (`reserve` true, in the body of a plain request or the query of an order document) gives no
  `now` (holds go by the real clock), and `hold_for` goes only with `reserve`.

And one filter: a "schema-violating request accepted" failure is dropped when the request as it
went over the wire matches the document after all (schemathesis mutates a value's JSON type, and a
query string has none: the integer 50355 arrives as the valid condition text `50355`). The request
is validated again, parameter by parameter (query, path and header) and body, before the failure is
dropped. `Idempotency-Key` is validated only on a pickup that holds a slot: the document says the
service reads it only then, so a malformed key on a plain pickup is not part of the request. And a
"deleted resource still available" failure (`use_after_free`) is dropped for a reservation whose
answer after the DELETE says `released` (or `expired`): `DELETE /v1/reservations/{id}` releases the
reservation's place, and the reservation stays readable with that status, which is what the order
flow reads back (docs/pickup.md); any other answer after a DELETE still fails.

This file is also the schemathesis hooks module (SCHEMATHESIS_HOOKS=check_contract), so the rules
above live beside the run that needs them.
"""
import argparse
import json
import os
import pathlib
import re
import secrets
import select
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
STARTUP_TIMEOUT_SECONDS = 120
# The files of GET /page/{name} (Leaflet's, under /assets/, exist only where libjs-leaflet is installed).
PAGE_FILES = ["picker.js", "picker.css", "basemap.json"]
SHUTDOWN_TIMEOUT_SECONDS = 20
# Slots held before the run, so the reservation routes answer with reservations (not only 404s):
# a store open day and night, so a slot is free whatever the time of the run.
HELD_RESERVATIONS = 3
ALWAYS_OPEN_HOLD = {"near": "40.7184,-74.0071", "ready_in": "10m", "store": "nw-0003", "reserve": True,
                    "hold_for": "30m"}
# The `LAT,LON` form of a `near` (the pattern the document had before `near` took place names).
LAT_LON = re.compile(r"-?(90(\.0+)?|[1-8]?[0-9](\.[0-9]+)?),-?(180(\.0+)?|(1[0-7][0-9]|[1-9]?[0-9])(\.[0-9]+)?)")

# schemathesis.toml for the run: see the module docstring for why each setting is there.
CONFIG = """
[checks.not_a_server_error]
expected-statuses = ["2xx", "3xx", "4xx", "503"]

[[operations]]
include-path = "/v1/pickup"
checks.positive_data_acceptance.expected-statuses = ["2xx", "3xx", "401", "403", "404", "409", "422", "429", "503"]

[[operations]]
# A state change's values must also agree with each other and with the clock (a pause ends after
# now, a closure's until after its from, a special day's hours one time selection: docs/state.md),
# which the document says in words: a schema-valid change may be refused with 400 naming the member.
include-operation-id = "changeStoreState"
checks.positive_data_acceptance.expected-statuses = ["2xx", "400", "404"]

[[operations]]
# The routes of the order flow carry the order token (STORES_ORDER_TOKENS), not the admin token.
include-path-regex = "^/v1/(pickup|reservations/)"
headers = { Authorization = "Bearer ORDER_TOKEN" }

[[operations]]
# A reload reads the whole data file again (about 1 s in a debug build): a few are enough to see
# that it answers as documented, with and without the token.
include-path = "/admin/reload"
generation.max-examples = 5
"""


def start_server(server, token, order_token, log):
    """The server process, its port, data version and store count, from its startup line."""
    environment = dict(os.environ, STORES_ADMIN_TOKEN=token, STORES_ORDER_TOKENS=f"contract:{order_token}")
    process = subprocess.Popen(
        [server, "--port", "0", "--hostname", "127.0.0.1", "--data", str(ROOT / "Data" / "stores.geojson"),
         "--state", "memory"],
        stdout=subprocess.PIPE, stderr=log, stdin=subprocess.DEVNULL, env=environment, text=True)
    ready, _, _ = select.select([process.stdout], [], [], STARTUP_TIMEOUT_SECONDS)
    line = process.stdout.readline() if ready else ""
    match = re.search(r"serving (\d+) stores .*\(version ([0-9a-f]{16}),.* on http://127\.0\.0\.1:(\d+)$",
                      line.strip())
    if not match:
        process.kill()
        process.wait()
        sys.exit(f"check_contract: no startup line from {server} within {STARTUP_TIMEOUT_SECONDS} s: {line!r}")
    return process, int(match.group(3)), match.group(2), int(match.group(1))


def stop_server(process):
    """SIGTERM, then the graceful exit the service promises; the exit status, or None if killed."""
    if process.poll() is not None:
        return process.returncode
    process.send_signal(signal.SIGTERM)
    try:
        return process.wait(timeout=SHUTDOWN_TIMEOUT_SECONDS)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
        return None


def hold_slots(base, order_token, count):
    """Holds `count` slots with the order token; their reservation ids."""
    ids = []
    for index in range(count):
        request = urllib.request.Request(
            f"{base}/v1/pickup", data=json.dumps(ALWAYS_OPEN_HOLD).encode(), method="POST",
            headers={"Content-Type": "application/json", "Authorization": f"Bearer {order_token}",
                     "Idempotency-Key": f"check-contract-{index}"})
        try:
            with urllib.request.urlopen(request, timeout=15) as response:
                status, answer = response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            status, answer = error.code, error.read().decode(errors="replace")
        reservation = answer.get("reservation") if isinstance(answer, dict) else None
        if status != 201 or not reservation:
            sys.exit(f"check_contract: holding a slot at nw-0003 answered {status}, not 201 with a reservation: "
                     f"{str(answer)[:500]}")
        ids.append(reservation["id"])
    return ids


def statuses_in(har_path):
    """How many answers had each status, from schemathesis's HAR report."""
    counts = {}
    if not har_path.exists():
        return counts
    for entry in json.loads(har_path.read_text())["log"]["entries"]:
        status = entry["response"]["status"]
        counts[status] = counts.get(status, 0) + 1
    return counts


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", required=True, help="the stores-server executable")
    parser.add_argument("--seconds", type=int, default=120, help="time budget of the schemathesis run (default 120)")
    parser.add_argument("--examples", type=int, default=25, help="test cases per operation and phase (default 25)")
    # One worker: with two, hypothesis's source inspection in parallel threads hit CPython 3.11's
    # "AST constructor recursion depth mismatch" (a runtime error of the tool, not of the server);
    # the server, not the client, bounds the requests a second either way.
    parser.add_argument("--workers", type=int, default=1, help="concurrent schemathesis workers (default 1)")
    parser.add_argument("--seed", type=int, help="schemathesis's seed, to repeat a run (default: random, printed)")
    arguments = parser.parse_args()
    server = str(pathlib.Path(arguments.server).resolve())
    started = time.monotonic()

    with tempfile.TemporaryDirectory(prefix="check-contract-") as directory:
        work = pathlib.Path(directory)
        token = secrets.token_hex(16)
        order_token = secrets.token_hex(16)
        with open(work / "server.log", "w") as log:
            process, port, version, stores = start_server(server, token, order_token, log)
            base = f"http://127.0.0.1:{port}"
            print(f"check_contract: stores-server on {base} ({stores} stores, version {version}), "
                  f"started in {time.monotonic() - started:.1f} s", flush=True)
            try:
                # The served document, from a file: loaded from its URL, schemathesis leaves the
                # operation that serves it untested.
                with urllib.request.urlopen(f"{base}/openapi.json", timeout=10) as response:
                    (work / "openapi.json").write_bytes(response.read())
                # The document is valid OpenAPI 3.1 before anything is checked against it.
                from openapi_spec_validator import validate

                validate(json.loads((work / "openapi.json").read_text()))
                print("check_contract: the served /openapi.json is valid OpenAPI 3.1", flush=True)
                reservations = hold_slots(base, order_token, HELD_RESERVATIONS)
                print(f"check_contract: held {len(reservations)} slots at nw-0003 for the reservation routes",
                      flush=True)
                (work / "schemathesis.toml").write_text(CONFIG.replace("ORDER_TOKEN", order_token))
                har = work / "run.har"
                command = [
                    str(pathlib.Path(sys.executable).parent / "schemathesis"), "--config-file",
                    str(work / "schemathesis.toml"), "--no-color", "run", str(work / "openapi.json"), "--url", base,
                    "--checks", "all", "--max-examples", str(arguments.examples), "--max-time",
                    str(arguments.seconds), "--workers", str(arguments.workers), "--request-timeout", "15",
                    "--header", f"Authorization: Bearer {token}", "--generation-database", "none",
                    "--report", "har", "--report-har-path", str(har), "--output-truncate", "true",
                ]
                if arguments.seed is not None:
                    command += ["--seed", str(arguments.seed)]
                environment = dict(
                    os.environ, SCHEMATHESIS_HOOKS="check_contract",
                    PYTHONPATH=os.pathsep.join([str(pathlib.Path(__file__).parent), os.environ.get("PYTHONPATH", "")]),
                    CHECK_CONTRACT_DOCUMENT=str(work / "openapi.json"), CHECK_CONTRACT_DATA_VERSION=version,
                    CHECK_CONTRACT_STORES=str(stores), CHECK_CONTRACT_RESERVATIONS=",".join(reservations))
                run_started = time.monotonic()
                # Bounded by --max-time; the extra minute covers schemathesis's own start and report.
                result = subprocess.run(command, cwd=work, env=environment, timeout=arguments.seconds + 120)
                run_seconds = time.monotonic() - run_started
                crashed = process.poll() is not None
            finally:
                exit_status = stop_server(process)
        log_text = (work / "server.log").read_text(errors="replace")
        counts = statuses_in(har)

    problems = []
    if result.returncode != 0:
        problems.append(f"schemathesis reported failures (exit {result.returncode})")
    server_errors = {status: count for status, count in counts.items() if status >= 500 and status != 503}
    if server_errors:
        problems.append(f"answers with a 5xx other than the documented 503: {server_errors}")
    if crashed:
        problems.append("stores-server exited during the run:\n" + log_text[-4000:])
    elif exit_status != 0:
        problems.append(f"stores-server did not exit 0 after SIGTERM (exit {exit_status})")
    summary = ", ".join(f"{status}: {count}" for status, count in sorted(counts.items()))
    print(f"check_contract: {sum(counts.values())} requests ({summary}); schemathesis ran {run_seconds:.0f} s, "
          f"the whole check {time.monotonic() - started:.0f} s")
    if problems:
        sys.exit("check_contract: FAILED\n- " + "\n- ".join(problems))
    print("check_contract: stores-server answers as its OpenAPI document says")


# ---- schemathesis hooks (this module is imported by schemathesis as SCHEMATHESIS_HOOKS) ----------

def _register_hooks():
    import urllib.parse

    import schemathesis
    from jsonschema import Draft202012Validator

    document = json.loads(pathlib.Path(os.environ["CHECK_CONTRACT_DOCUMENT"]).read_text())
    version = os.environ["CHECK_CONTRACT_DATA_VERSION"]
    stores = int(os.environ["CHECK_CONTRACT_STORES"])
    reservations = [value for value in os.environ.get("CHECK_CONTRACT_RESERVATIONS", "").split(",") if value]

    def is_positive(case):
        return case.meta is not None and case.meta.generation.mode.is_positive

    @schemathesis.hook
    def map_case(context, case):
        """Positive cases keep the rules the document states in words (the module docstring)."""
        if not is_positive(case):
            return case
        return honouring_the_rules(case)

    @schemathesis.hook
    def before_add_examples(context, examples):
        # The examples phase combines every parameter's example without `map_case`.
        for case in examples:
            honouring_the_rules(case)

    def honouring_the_rules(case):
        route = (case.method.upper(), case.operation.path)
        query = case.query if isinstance(case.query, dict) else None
        searches = {("GET", "/v1/stores/nearest"), ("GET", "/v1/stores/within"), ("GET", "/v1/stores/clusters")}
        if query is not None and route in searches:
            if "open_now" in query and "open_at" in query:
                del query["open_now"]
        if query is not None and route == ("GET", "/v1/stores/clusters") and "bbox" in query:
            west, south, east, north = query["bbox"].split(",")
            if float(south) > float(north):
                query["bbox"] = ",".join([west, north, east, south])
        if route == ("GET", "/page/{name}") and isinstance(case.path_parameters, dict):
            # A file the page has (any other name is a documented 404, which the negative cases try).
            name = str(case.path_parameters.get("name", ""))
            case.path_parameters["name"] = PAGE_FILES[sum(map(ord, name)) % len(PAGE_FILES)]
        if case.operation.path.startswith("/v1/reservations/") and isinstance(case.path_parameters, dict) \
                and reservations:
            # A reservation the service gave (a made-up id is a documented 404, which the negative
            # cases try).
            name = str(case.path_parameters.get("id", ""))
            case.path_parameters["id"] = reservations[sum(map(ord, name)) % len(reservations)]
        if route == ("GET", "/assets/{name}") and isinstance(case.path_parameters, dict):
            # Served where Leaflet is installed; a 404 problem elsewhere, which the document allows.
            case.path_parameters["name"] = "leaflet.css"
        if query is not None and route == ("GET", "/v1/stores/within"):
            if "bbox" in query:
                query.pop("near", None)
                query.pop("radius", None)
                west, south, east, north = query["bbox"].split(",")
                if float(south) > float(north):
                    query["bbox"] = ",".join([west, north, east, south])
            elif "near" in query or "radius" in query:
                query.setdefault("near", "47.6062,-122.3321")
                query.setdefault("radius", "2km")
            else:
                query["bbox"] = "-180,-90,180,90"
            if "cursor" in query:
                # A cursor of this data at an offset from the generated one: any offset up to the
                # number of stores is a page (an empty one past the end).
                query["cursor"] = f"{version}.{int(query['cursor'].split('.')[1]) % (stores + 1)}"
        if query is not None and route == ("GET", "/v1/stores/{id}/hours"):
            if "at" in query and "from" in query:
                del query["at"]
        if route == ("POST", "/v1/pickup") and isinstance(case.body, dict) and "items" not in case.body:
            case.query = {}
        if route == ("POST", "/v1/pickup"):
            # A plain request's parameters are its body's members, an order document's the query's.
            plain = isinstance(case.body, dict) and "items" not in case.body
            holder = case.body if plain else query
            if holder is not None:
                if reserves(holder):
                    holder.pop("now", None)
                else:
                    holder.pop("hold_for", None)
        # `near` is LAT,LON or the name of one place (`Location`): any other text is a well-formed
        # name of no place, or of several, which the service refuses (400) by the rule the
        # document states in words. Such a text becomes a name that is one place.
        for holder in (query, case.body if isinstance(case.body, dict) else None):
            if holder is not None and isinstance(holder.get("near"), str) and not LAT_LON.fullmatch(holder["near"]):
                holder["near"] = "Seattle"
            # `bias` is LAT,LON (a string the document leaves free, as `near`'s): other text is refused.
            if holder is not None and isinstance(holder.get("bias"), str) and not LAT_LON.fullmatch(holder["bias"]):
                holder["bias"] = "47.6062,-122.3321"
        return case

    def reserves(parameters):
        """Whether a pickup's parameters (a plain request's body or an order's query) hold a slot."""
        value = parameters.get("reserve")
        if isinstance(value, bool):
            return value
        # The query's Flag: the name alone and `true`, `1`, `yes` (any case) are yes.
        return isinstance(value, str) and value.lower() in ("", "true", "1", "yes")

    def resolved(node):
        while isinstance(node, dict) and "$ref" in node:
            target = document
            for part in node["$ref"].removeprefix("#/").split("/"):
                target = target[part]
            node = target
        return node

    def valid(schema, instance):
        # Resolves `#/components/...` against the document, which the root carries.
        return Draft202012Validator({**schema, "components": document["components"]}).is_valid(instance)

    def query_value(schema, text):
        """The JSON value a query text stands for under `schema`, or None when it cannot be one."""
        kind = resolved(schema).get("type")
        if kind == "integer":
            return int(text) if re.fullmatch(r"-?[0-9]+", text) else None
        if kind == "boolean":
            return {"true": True, "false": False}.get(text)
        return text

    def sent_request_matches_document(case, request):
        """Whether the request as sent (URL, body) is one the document describes as valid."""
        item = document["paths"][case.operation.path]
        operation = item[case.method.lower()]
        parameters = [resolved(p) for p in item.get("parameters", []) + operation.get("parameters", [])]
        url = urllib.parse.urlsplit(request.url)
        sent = urllib.parse.parse_qsl(url.query, keep_blank_values=True)
        declared = {p["name"]: p for p in parameters if p["in"] == "query"}
        names = [name for name, _ in sent]
        for parameter in declared.values():
            if parameter.get("required") and parameter["name"] not in names:
                return False
        for name in set(names):
            if name not in declared:
                return False
            schema = resolved(declared[name]["schema"])
            texts = [value for key, value in sent if key == name]
            if schema.get("type") == "array":
                values = [query_value(schema["items"], text) for text in texts]
            elif len(texts) == 1:
                values = query_value(schema, texts[0])
            else:
                return False
            if values is None or (isinstance(values, list) and None in values) or not valid(schema, values):
                return False
        for parameter in parameters:
            if parameter["in"] != "header":
                continue
            value = request.headers.get(parameter["name"])
            if value is None:
                if parameter.get("required"):
                    return False
                continue
            if parameter["name"].lower() == "idempotency-key" and not pickup_reserves(case, request):
                continue  # read only by a pickup that holds a slot
            if not valid(resolved(parameter["schema"]), value):
                return False
        template = case.operation.path.strip("/").split("/")
        segments = url.path.strip("/").split("/")
        if len(template) != len(segments):
            return False
        for part, segment in zip(template, segments):
            if part.startswith("{"):
                parameter = next(p for p in parameters if p["in"] == "path" and p["name"] == part[1:-1])
                if not valid(resolved(parameter["schema"]), urllib.parse.unquote(segment)):
                    return False
        body = operation.get("requestBody")
        if body is None:
            return not request.body
        content_type = (request.headers.get("Content-Type") or "").split(";")[0].strip().lower()
        if content_type != "application/json" or not request.body:
            return False
        try:
            value = json.loads(request.body)
        except ValueError:
            return False
        return valid(body["content"]["application/json"]["schema"], value)

    def pickup_reserves(case, request):
        """Whether a pickup request, as sent, holds a slot (`reserve` in a plain request's body, or
        in the query with an order document)."""
        try:
            body = json.loads(request.body) if request.body else None
        except ValueError:
            return False
        if isinstance(body, dict) and "items" not in body:
            return reserves(body)
        sent = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(request.url).query, keep_blank_values=True))
        return "reserve" in sent and reserves(sent)

    def released_reservation(case, response):
        """Whether the answer is a reservation read after its release (the module docstring)."""
        if case.operation.path != "/v1/reservations/{id}" or response.status_code != 200:
            return False
        try:
            return json.loads(response.content).get("status") in ("released", "expired")
        except (ValueError, AttributeError):
            return False

    @schemathesis.hook
    def filter_failure(context, failure, case, response):
        if failure.code == "ST301":
            return not released_reservation(case, response)
        if failure.code != "ST201":
            return True
        return not sent_request_matches_document(case, response.request)


if __name__ == "__main__":
    main()
else:
    _register_hooks()
