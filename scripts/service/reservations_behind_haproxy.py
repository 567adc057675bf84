#!/usr/bin/env python3
"""No overbooking, anywhere: a burst of reservations for one slot holds exactly its capacity on
one replica with the embedded SQLite state and on three replicas behind HAProxy
(docs/haproxy-state.cfg) sharing one PostgreSQL; no reservation is lost or confirmed twice when a
replica is killed mid-burst; holds answer 503 while PostgreSQL is down and 201 again once it is
back; a hold expires by itself (docs/pickup.md, "Holding a slot: reservations").

What one run does, everything on 127.0.0.1 (free ports found by binding port 0):

0. Data: a temporary GeoJSON of 24/7 stores (Europe/Berlin), so that no check depends on the
   hour: for each load check a group near a place of its own (about 70 km apart; every request
   says `within` 2 km), a target at the customer's place (capacity set by PATCH: `--capacity`,
   default 20, per 15-minute slot), a neighbour with `pickup:capacity` 2 at 300 m, one with 3 at
   600 m and one without capacity at 900 m; for the expiry checks a store with
   `pickup:capacity` 5. Each check's orders are ready at the start of the first slot at least
   20 minutes ahead plus 1 minute (`ready_at`, an instant), so every order asks for the same
   slot at every store (walking 900 m takes 16 minutes) and the slot cannot roll over during the
   run. Half the requests say `max_delay` 0s (a full target passes the order to a neighbour),
   half 15m (the target's next slot is within reach: the order moves to it, `slot-full` warning).
   Reserves carry `Authorization: Bearer` with the order token (STORES_ORDER_TOKENS); capacity is
   set with the admin token (STORES_ADMIN_TOKEN).
1. One replica, `--state sqlite:TMP/state.sqlite` (`--single-state memory` tries the script on
   a build whose SQL storages hold no slots yet). The target's capacity is PATCHed, then every
   replica is asked directly until its copy of the state shows it (here and in checks 2 and 3, so
   that the burst measures holds, not the storage refusing holds planned on the older state as
   `stale`, which it does; the seconds it took are reported). Then `--requests`
   (2000) reserves for the target on `--threads` (64) keep-alive connections started together,
   each `max_delay` 0s or 15m in turn. Checks: every hold at the target was planned with the
   capacity (its `slot.orders_per_slot`); exactly `--capacity` answers hold the target's slot,
   and GET /v1/stores/{id}/slots says it holds that many; every other answer is 201 placed
   elsewhere (another store: the target passed over as `slot-full`; or the target's later slot:
   a `slot-full` warning) or 200 with `reservation` null and the target passed over as
   `slot-full`; every reservation names the plan's store and slot; no 5xx, no other status, no
   socket error; none lost: for every store of the group and every day concerned, the slots'
   `held` add up to the 201 answers, slot by slot, and the reservations in the SQLite file (read
   with Python's sqlite3, read-only) are exactly the ids answered. Then check 5 on this replica.
2. PostgreSQL (scripts/state/postgres.sh start in a temporary directory, made while step 1
   runs), three replicas on it (`--drain-delay 3`), HAProxy in the foreground with
   docs/haproxy-state.cfg unchanged (its addresses in the environment variables it reads), all
   three UP in HAProxy's stats socket. The same burst through HAProxy, the same checks, the
   database read both through GET slots and with psql (postgres.sh's URL): the rows of the group
   are exactly the ids answered 201.
5. (On PostgreSQL, through HAProxy; also on SQLite above.) Expiry: one hold with `hold_for` 2s;
   GET slots counts it at once; polled every 100 ms, it stops counting by itself (no request
   but the reads); 2.5 s after the answer it is not counted; confirming it then answers 409
   `reservation-expired`, and GET /v1/reservations/{id} says `expired`.
4. PostgreSQL restarted under load: `--outage-threads` (12) clients reserve (hold_for 5s, for a
   store without capacity) and 2 plan plain pickups (no reserve, no token), all through
   HAProxy; after 3 s PostgreSQL is stopped (`postgres.sh stop`) for `--outage` (8) s, then
   started again (`postgres.sh start`, the same port and data). Every reserve answered before
   the stop is 201; one in flight at the stop 201 or 503 `state-unavailable`; every reserve
   sent while PostgreSQL is down answers within `--max-refusal` (6 s: a storage call's 5 s
   deadline and a margin), 503 `state-unavailable` when answered before the start (201 is
   allowed once it is back: a hold waits up to that deadline for the database); every 503
   within that bound; every plain pickup 200 `assigned`, also during the outage; after the start
   a reserve answers 201 within `--recovery` (5) s, and every reserve sent from 1 s after that
   first 201 is 201; every replica is still the process started at the beginning (same PID,
   running). The database's rows for the group include every id answered 201; rows of requests
   answered 503 (a commit whose answer the stop cut) are counted. The reserves that took over
   1 s are listed in the JSON (`slow_reserves`).
3. `kill -9` of a replica mid-burst (last: the replica stays dead): the target's capacity
   PATCHed and seen by every replica, then `--kill-threads` (32) clients through HAProxy send
   `--kill-requests` (800) reserves (hold_for 5s; every other client with an `Idempotency-Key`,
   retried with the same key after a 5xx or a socket error, as the order flow does), and confirm
   each 201 at once through HAProxy (a confirmation that fails is tried again, up to 5 times
   100 ms apart: confirming again answers the same). replica2 gets SIGKILL once a third of the
   reserves are answered. After the burst, once every hold has passed its expiry: every id
   answered 201 is in the database; every reservation confirmed reads `confirmed` through GET
   /v1/reservations/{id} on a surviving replica (directly) and in the database; the database's
   confirmed ids are exactly the ids whose confirmation answered 200; every answered 201 was
   confirmed; every hold at the target was planned with the capacity; the rows nobody was
   answered (a request cut by the kill that committed on the dying replica, or that HAProxy sent
   again to another replica: a POST /v1/pickup is retried on an empty response,
   docs/haproxy-state.cfg) are counted, must carry no Idempotency-Key (a keyed request answers
   its first reservation: the answers marked `Idempotent-Replayed` are counted), were never
   confirmed, and read `expired`; the target's slot never holds more than its capacity (held
   and confirmed, in GET slots and in the database). The answers other than 201 are listed.
6. Stop everything (HAProxy, the replicas, which must exit 0 on SIGTERM, except the one killed;
   PostgreSQL) and print the figures of every check (answers by status, placements, requests/s,
   p50/p99 latency of the reserves) with a PASS or FAIL line each (`--json FILE` keeps them).

Exits 1 when any check fails, 2 on a setup error (no haproxy, no PostgreSQL server or psql, a
replica that does not start). Bounded: `--deadline` seconds for the whole run (default 240,
SIGALRM), every wait with its own timeout, every client thread stops by itself (a request
count, an end time, a socket timeout); every process it started is stopped in a `finally`, also
on Ctrl-C or SIGTERM (replicas and HAProxy are also killed if the script dies: PR_SET_PDEATHSIG;
PostgreSQL, which pg_ctl detaches, is stopped by `postgres.sh stop`).

    python3 scripts/service/reservations_behind_haproxy.py --server .build/debug/stores-server
    python3 scripts/service/reservations_behind_haproxy.py --server … --json /tmp/r.json --keep /tmp/r-logs

Needs haproxy and Debian's postgresql (`apt-get install haproxy postgresql`); Python 3 standard
library only.
"""
import argparse
import csv
import ctypes
import datetime
import glob
import http.client
import io
import json
import math
import os
import pathlib
import re
import select
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
POSTGRES_SH = ROOT / "scripts" / "state" / "postgres.sh"
ADMIN_TOKEN = "reservations-check-admin"
ORDER_TOKEN = "reservations-check-orders"
STARTUP_TIMEOUT = 60.0
DRAIN_DELAY = 3.0
ZONE = "Europe/Berlin"
LATITUDE = 52.52
# One place per group of stores, about 70 km apart.
GROUP_LONGITUDES = {"one": 10.0, "two": 11.0, "kill": 12.0, "outage": 13.0, "expiry": 14.0}
# The neighbours of a load group's target: (suffix, metres east, pickup:capacity or None).
NEIGHBOURS = [("small2", 300, "2"), ("small3", 600, "3"), ("open", 900, None)]
MAX_DELAYS = ("0s", "15m")


class Failure(Exception):
    """A step that did not go as it must (exit 1)."""


class SetupError(Exception):
    """Something needed to run the check is missing (exit 2)."""


def die_with_parent():
    """Run in the child before exec: SIGKILL it when this script dies, however it dies."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Clock:
    def __init__(self):
        self.start = time.monotonic()

    def now(self):
        return time.monotonic() - self.start


def log(clock, message):
    print(f"[{clock.now():6.2f}s] {message}", flush=True)


def iso(unix_seconds):
    return datetime.datetime.fromtimestamp(unix_seconds, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def unix(text):
    """`2026-12-02T04:15:00Z` as Unix seconds."""
    return int(datetime.datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=datetime.timezone.utc).timestamp())


def percentile(values, share):
    """Nearest-rank percentile of `values` (seconds) in milliseconds; None when empty."""
    if not values:
        return None
    ordered = sorted(values)
    return round(ordered[max(0, math.ceil(share * len(ordered)) - 1)] * 1000, 1)


# ---- the data ----------------------------------------------------------------------------------

class Group:
    """The stores of one check, near a place of their own."""

    def __init__(self, name, load=True):
        self.name = name
        self.latitude, self.longitude = LATITUDE, GROUP_LONGITUDES[name.split("-")[0]]
        self.near = f"{self.latitude:.6f},{self.longitude:.6f}"
        self.target = f"{name}-target"
        self.stores = [self.target] + ([f"{name}-{suffix}" for suffix, _, _ in NEIGHBOURS] if load else [])
        self.load = load

    def features(self, target_capacity=None):
        def feature(store_id, metres_east, capacity):
            longitude = self.longitude + metres_east / (111320 * math.cos(math.radians(self.latitude)))
            properties = {"name": f"Reservations check {store_id}", "opening_hours": "24/7", "timezone": ZONE}
            if capacity is not None:
                properties["pickup:capacity"] = capacity
            return {"type": "Feature", "id": store_id,
                    "geometry": {"type": "Point", "coordinates": [round(longitude, 6), self.latitude]},
                    "properties": properties}

        found = [feature(self.target, 0, target_capacity)]
        if self.load:
            found += [feature(f"{self.name}-{suffix}", east, capacity) for suffix, east, capacity in NEIGHBOURS]
        return found


GROUPS = {
    "one": Group("one"), "two": Group("two"), "kill": Group("kill"), "outage": Group("outage", load=False),
    "expiry-sqlite": Group("expiry-sqlite", load=False), "expiry-pg": Group("expiry-pg", load=False),
}
# expiry-pg sits 1 km from expiry-sqlite: each check names its store and searches 2 km, and they
# run on separate storages anyway.
GROUPS["expiry-pg"].longitude += 0.015
GROUPS["expiry-pg"].near = f"{LATITUDE:.6f},{GROUPS['expiry-pg'].longitude:.6f}"


def write_data(path):
    features = []
    for name, group in GROUPS.items():
        features += group.features("5" if name.startswith("expiry") else None)
    path.write_text(json.dumps({"type": "FeatureCollection", "features": features}) + "\n")
    return len(features)


def slot_ahead(minutes=20, length=900):
    """The start (Unix seconds) of the first slot starting at least `minutes` from now."""
    return math.ceil((time.time() + minutes * 60) / length) * length


def reserve_body(group, ready_at, max_delay="0s", hold_for=None):
    body = {"near": group.near, "ready_at": ready_at, "store": group.target, "reserve": True,
            "max_delay": max_delay, "within": "2km"}
    if hold_for is not None:
        body["hold_for"] = hold_for
    return json.dumps(body)


ORDER_HEADERS = {"Authorization": f"Bearer {ORDER_TOKEN}"}
ADMIN_HEADERS = {"Authorization": f"Bearer {ADMIN_TOKEN}"}


# ---- HTTP --------------------------------------------------------------------------------------

class Connection:
    """One keep-alive connection to 127.0.0.1:port, opened again after an error or a close."""

    def __init__(self, port, timeout=15.0):
        self.port, self.timeout, self.connection = port, timeout, None

    def request(self, method, path, body=None, headers=None):
        """(status, headers as a dict with lowercase names, body bytes)."""
        if self.connection is None:
            self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.timeout)
        all_headers = dict(headers or {})
        if body is not None:
            all_headers["Content-Type"] = "application/json"
        try:
            self.connection.request(method, path, body=body, headers=all_headers)
            response = self.connection.getresponse()
            payload = response.read()
        except (OSError, http.client.HTTPException):
            self.close()
            raise
        answer_headers = {name.lower(): value for name, value in response.getheaders()}
        if answer_headers.get("connection", "").lower() == "close":
            self.close()
        return response.status, answer_headers, payload

    def json(self, method, path, body=None, headers=None):
        """(status, headers, body as JSON or None)."""
        status, answer_headers, payload = self.request(method, path, body, headers)
        try:
            document = json.loads(payload)
        except ValueError:
            document = None
        return status, answer_headers, document

    def close(self):
        if self.connection is not None:
            self.connection.close()
            self.connection = None


def call(port, method, path, body=None, headers=None, timeout=15.0):
    """One request on a new connection: (status, headers, body as JSON or None)."""
    connection = Connection(port, timeout)
    try:
        return connection.json(method, path, body, headers)
    finally:
        connection.close()


def problem_type(document):
    """The last part of a problem document's `type` (`urn:stores:problem:state-unavailable`:
    "state-unavailable"), or ""."""
    if isinstance(document, dict) and isinstance(document.get("type"), str):
        return re.split(r"[/:]", document["type"].rstrip("/"))[-1]
    return ""


def set_capacity(port, store, orders):
    status, _, body = call(port, "PATCH", f"/v1/stores/{store}/state",
                           json.dumps({"capacity": {"orders_per_slot": orders, "slot_minutes": 15}}), ADMIN_HEADERS)
    capacity = (body or {}).get("capacity") or []
    if status != 200 or not any(c.get("orders_per_slot") == orders and c.get("service") is None for c in capacity):
        raise Failure(f"PATCH capacity {orders} of {store} answered {status}: {body}")
    return body.get("version")


def wait_capacity(ports, store, orders, timeout=10.0):
    """Polls each replica directly (`ports`: name -> port) every 20 ms until its copy of the state
    gives `store` the capacity `orders`; seconds each took. A replica plans, and tells the storage
    the slot's limit, with its own copy: one that has not seen the capacity yet holds beyond it."""
    started, seen = time.monotonic(), {}
    connections = {name: Connection(port, 5) for name, port in ports.items()}
    try:
        while len(seen) < len(ports):
            for name, connection in connections.items():
                if name in seen:
                    continue
                status, _, body = connection.json("GET", f"/v1/stores/{store}/state")
                capacity = (body or {}).get("capacity") or [] if status == 200 else []
                if any(c.get("orders_per_slot") == orders and c.get("service") is None for c in capacity):
                    seen[name] = round(time.monotonic() - started, 3)
            if len(seen) < len(ports):
                if time.monotonic() - started > timeout:
                    raise Failure(f"the capacity {orders} of {store} did not reach every replica within {timeout:.0f} s "
                                  f"(seen by {seen})")
                time.sleep(0.02)
    finally:
        for connection in connections.values():
            connection.close()
    return seen


def slots_of(port, store, date):
    status, _, body = call(port, "GET", f"/v1/stores/{store}/slots?date={date}")
    if status != 200 or not isinstance(body, dict):
        raise Failure(f"GET /v1/stores/{store}/slots?date={date} answered {status}: {body}")
    return body


def held_by_slot(port, group, dates):
    """{(store, slot start as Unix seconds): (held, confirmed)} of every slot holding something, of
    every store of the group on each of `dates` (local dates)."""
    found = {}
    for store in group.stores:
        for date in sorted(dates):
            for slot in slots_of(port, store, date)["slots"]:
                if slot["held"] or slot["confirmed"]:
                    found[(store, unix(slot["start"]))] = (slot["held"], slot["confirmed"])
    return found


def dates_around(unix_seconds):
    """The UTC date of an instant and the next one: its local date in Europe/Berlin is one of them."""
    day = datetime.datetime.fromtimestamp(unix_seconds, datetime.timezone.utc).date()
    return {day.isoformat(), (day + datetime.timedelta(days=1)).isoformat()}


# ---- loads -------------------------------------------------------------------------------------

class Load:
    """`count` requests (`make(i, client)` gives method, path, body, headers; `count` None: until
    `end` or `stop`) on `threads` keep-alive connections to `port`, started together; stops at
    `count`, at `end` (monotonic) or when `stop` is set. `retry(client, result, attempts)` says
    whether to send a request again (after a pause of 100 ms); `after(i, connection, result)`,
    when given, runs after each request's last answer on the same connection (the confirmation
    of a hold). Every answer is kept, as it comes, as a dict: i, client, attempt, sent and
    answered (clock seconds), seconds, status (None after a socket error), body (JSON or None),
    error."""

    def __init__(self, port, count, threads, make, end, clock, after=None, retry=None, timeout=15.0, stop=None):
        self.port, self.count, self.threads, self.make, self.end = port, count, threads, make, end
        self.clock, self.after, self.retry, self.timeout = clock, after, retry, timeout
        self.stop = stop or threading.Event()
        self.lock = threading.Lock()
        self.next = 0
        self.results = []
        self.answered = 0
        self.started = self.finished = None
        self.gate = threading.Barrier(threads + 1)
        self.workers = [threading.Thread(target=self.work, args=(n,), daemon=True) for n in range(threads)]

    def take(self):
        with self.lock:
            if (self.count is not None and self.next >= self.count) or time.monotonic() > self.end \
                    or self.stop.is_set():
                return None
            self.next += 1
            return self.next - 1

    def work(self, client):
        connection = Connection(self.port, self.timeout)
        try:
            self.gate.wait(30)
            while True:
                i = self.take()
                if i is None:
                    break
                method, path, body, headers = self.make(i, client)
                attempts = 0
                while True:
                    attempts += 1
                    result = self.one(connection, method, path, body, headers)
                    result.update(i=i, client=client, attempt=attempts)
                    with self.lock:
                        self.results.append(result)
                    if not (self.retry and self.retry(client, result, attempts) and time.monotonic() < self.end):
                        break
                    time.sleep(0.1)
                with self.lock:
                    self.answered += 1
                if self.after is not None:
                    self.after(i, connection, result)
        except threading.BrokenBarrierError:
            pass
        finally:
            connection.close()

    def one(self, connection, method, path, body, headers):
        sent = time.monotonic()
        result = {"sent": round(sent - self.clock.start, 3), "status": None, "body": None, "error": None}
        try:
            status, answer_headers, document = connection.json(method, path, body, headers)
            result["status"], result["body"] = status, document
            if "retry-after" in answer_headers:
                result["retry_after"] = answer_headers["retry-after"]
            if answer_headers.get("idempotent-replayed") == "true":
                result["replayed"] = True
        except (OSError, http.client.HTTPException) as error:
            result["error"] = f"{type(error).__name__}: {error}"
        answered = time.monotonic()
        result["answered"] = round(answered - self.clock.start, 3)
        result["seconds"] = answered - sent
        return result

    def so_far(self):
        """The answers so far."""
        with self.lock:
            return list(self.results)

    def run(self):
        for worker in self.workers:
            worker.start()
        self.gate.wait(30)
        self.started = time.monotonic()
        for worker in self.workers:
            worker.join(max(1.0, self.end - time.monotonic() + self.timeout + 5))
        self.finished = time.monotonic()
        if any(worker.is_alive() for worker in self.workers):
            raise Failure(f"{sum(w.is_alive() for w in self.workers)} load threads still running past the end")
        if self.count is not None and self.next < self.count:
            raise Failure(f"only {self.next} of {self.count} requests sent before the load's end")
        return self.so_far()

    def wall(self):
        return self.finished - self.started


def load_figures(results, wall):
    """Counts by status, requests/s and latency of a load's answers."""
    statuses = {}
    for r in results:
        key = str(r["status"]) if r["status"] is not None else "error"
        statuses[key] = statuses.get(key, 0) + 1
    seconds = [r["seconds"] for r in results if r["status"] is not None]
    return {"requests": len(results), "statuses": statuses, "seconds": round(wall, 2),
            "per_second": round(len(results) / wall, 1) if wall > 0 else None,
            "p50_ms": percentile(seconds, 0.50), "p99_ms": percentile(seconds, 0.99),
            "max_ms": percentile(seconds, 1.0)}


# ---- checks 1 and 2: a burst for one slot ------------------------------------------------------

def burst(port, ports, group, capacity, arguments, clock, problems, label, database_rows):
    """The target's capacity set through `port`, and seen by every replica (`ports`); then
    `--requests` reserves for the group's target slot on `--threads` connections to `port`; the
    answers checked against GET slots and `database_rows()` (the storage's rows of the group: id,
    store, slot start, status)."""
    set_capacity(port, group.target, capacity)
    capacity_seen = wait_capacity(ports, group.target, capacity)
    start = slot_ahead()
    ready_at = iso(start + 60)
    log(clock, f"{label}: {arguments.requests} reserves for {group.target}'s slot at {iso(start)} (ready_at "
               f"{ready_at}), {arguments.threads} connections, capacity {capacity} (known to every replica after "
               f"{', '.join(f'{n} {t} s' for n, t in capacity_seen.items())} from the PATCH's answer)")
    bodies = [reserve_body(group, ready_at, max_delay) for max_delay in MAX_DELAYS]
    load = Load(port, arguments.requests, arguments.threads,
                lambda i, n: ("POST", "/v1/pickup", bodies[i % 2], ORDER_HEADERS),
                time.monotonic() + arguments.load_timeout, clock)
    results = load.run()
    figures = load_figures(results, load.wall())
    log(clock, f"{label}: {figures['requests']} answers in {figures['seconds']} s ({figures['per_second']}/s), "
               f"statuses {figures['statuses']}, p50 {figures['p50_ms']} ms, p99 {figures['p99_ms']} ms")
    local = []

    def fail(message):
        local.append(message)
        problems.append(f"{label}: {message}")

    held, placements, reasons, unexplained, inconsistent, uncapped = {}, {}, {}, [], [], []
    ids, dates = set(), dates_around(start)
    for r in results:
        body = r["body"] if isinstance(r["body"], dict) else {}
        if r["status"] == 201:
            reservation = body.get("reservation") or {}
            store = reservation.get("store")
            slot_start = reservation.get("slot_start")
            if not store or not slot_start or not reservation.get("id"):
                inconsistent.append(f"201 without a reservation: {str(body)[:200]}")
                continue
            ids.add(reservation["id"])
            key = (store, unix(slot_start))
            held[key] = held.get(key, 0) + 1
            if (body.get("store") or {}).get("id") != store or (body.get("slot") or {}).get("start") != slot_start \
                    or reservation.get("status") != "held":
                inconsistent.append(f"reservation {reservation.get('id')} at {store} {slot_start} "
                                    f"({reservation.get('status')}) but the plan says {(body.get('store') or {}).get('id')} "
                                    f"{(body.get('slot') or {}).get('start')}")
            if body.get("pickup_at_local"):
                dates.add(body["pickup_at_local"][:10])
            at_target = store == group.target and unix(slot_start) == start
            if store == group.target and (body.get("slot") or {}).get("orders_per_slot") != capacity:
                uncapped.append(reservation["id"])
            if at_target:
                placement = "target slot"
            elif store == group.target:
                placement = "target, later slot"
                if not any(w.get("code") == "slot-full" and w.get("store_id") == group.target
                           for w in body.get("warnings", [])):
                    unexplained.append(f"{reservation['id']} moved to {slot_start} without a slot-full warning")
                reasons["slot-full warning"] = reasons.get("slot-full warning", 0) + 1
            else:
                placement = f"{store}" + ("" if unix(slot_start) == start else ", later slot")
                if not any(p.get("store_id") == group.target and p.get("code") == "slot-full"
                           for p in body.get("passed_over", [])):
                    unexplained.append(f"{reservation['id']} at {store} without {group.target} passed over as slot-full: "
                                       f"{body.get('passed_over')}")
                reasons["target passed over slot-full"] = reasons.get("target passed over slot-full", 0) + 1
            placements[placement] = placements.get(placement, 0) + 1
        elif r["status"] == 200:
            if body.get("reservation") is not None:
                inconsistent.append(f"200 with a reservation: {body.get('reservation')}")
            elif not any(p.get("store_id") == group.target and p.get("code") == "slot-full"
                         for p in body.get("passed_over", [])):
                unexplained.append(f"200 without {group.target} passed over as slot-full: {body.get('passed_over')}")
            placements["none (200)"] = placements.get("none (200)", 0) + 1
    answered_201 = sum(held.values())
    at_target = held.get((group.target, start), 0)
    result = {"slot_start": iso(start), "ready_at": ready_at, "load": figures, "placements": placements,
              "reasons": reasons, "answered_201": answered_201, "target_slot_answers": at_target,
              "target_planned_without_capacity": len(uncapped), "capacity_seen_after_s": capacity_seen}
    if uncapped:
        fail(f"{len(uncapped)} holds at {group.target} were planned with a slot whose orders_per_slot is not "
             f"{capacity} (a replica that did not know the capacity yet?)")
    if at_target != capacity:
        fail(f"{at_target} answers hold {group.target}'s slot at {iso(start)}, not {capacity}")
    others = {k: v for k, v in figures["statuses"].items() if k not in ("200", "201")}
    if others:
        examples = [f"{r['status']} {problem_type(r['body']) or r['error']}" for r in results
                    if r["status"] not in (200, 201)][:5]
        fail(f"answers other than 201 and 200: {others}, such as {examples}")
    if len(results) != arguments.requests:
        fail(f"{len(results)} answers for {arguments.requests} requests")
    if len(ids) != answered_201:
        fail(f"{answered_201} answers 201 name {len(ids)} distinct reservations")
    if unexplained:
        fail(f"{len(unexplained)} answers placed elsewhere without their reason, such as {unexplained[:3]}")
    if inconsistent:
        fail(f"{len(inconsistent)} answers whose reservation does not match their plan, such as {inconsistent[:3]}")
    # Counted by the storage, through the service: every slot of every store, each day concerned.
    counted = held_by_slot(port, group, dates)
    slots_held = sum(h for h, _ in counted.values())
    slots_confirmed = sum(c for _, c in counted.values())
    result.update({"dates": sorted(dates), "slots_held": slots_held, "slots_confirmed": slots_confirmed,
                   "target_slot_held": counted.get((group.target, start), (0, 0))[0],
                   "slots_holding": {f"{store} {iso(s)}": h for (store, s), (h, _) in sorted(counted.items())}})
    if result["target_slot_held"] != capacity:
        fail(f"GET slots: {group.target}'s slot at {iso(start)} holds {result['target_slot_held']}, not {capacity}")
    if slots_held != answered_201 or slots_confirmed:
        fail(f"GET slots: {slots_held} held and {slots_confirmed} confirmed over every slot, for {answered_201} "
             f"answers 201")
    differing = {f"{store} {iso(s)}": (held.get((store, s), 0), counted.get((store, s), (0, 0))[0])
                 for store, s in set(held) | set(counted) if held.get((store, s), 0) != counted.get((store, s), (0, 0))[0]}
    if differing:
        fail(f"GET slots differs from the answers (answers, held) in {differing}")
    # Read in the storage itself (not with --single-state memory).
    rows, in_target = [], None
    if database_rows is not None:
        rows = database_rows()
        result["database_rows"] = len(rows)
        row_ids = {row[0] for row in rows}
        if row_ids != ids:
            fail(f"the database holds {len(rows)} reservations of the group: {len(row_ids - ids)} never answered, "
                 f"{len(ids - row_ids)} answered and missing")
        in_target = sum(1 for row in rows
                        if row[1] == group.target and row[2] == start and row[3] in ("held", "confirmed"))
        result["database_target_slot"] = in_target
        if in_target != capacity:
            fail(f"the database holds {in_target} reservations in {group.target}'s slot, not {capacity}")
    result["ok"] = not local
    log(clock, f"{label}: placements {placements}; GET slots: {slots_held} held over every slot "
               f"({result['target_slot_held']} in the target's); database: {len(rows)} reservations "
               f"({in_target} in the target's slot) — {'PASS' if not local else 'FAIL'}")
    return result


# ---- check 5: expiry ---------------------------------------------------------------------------

def expiry(port, group, clock, problems, label, storage):
    """One hold with hold_for 2s: counted at once, not after 2.5 s; its confirmation then 409."""
    local = []

    def fail(message):
        local.append(message)
        problems.append(f"{label}: {message}")

    start = slot_ahead()
    status, _, body = call(port, "POST", "/v1/pickup", reserve_body(group, iso(start + 60), hold_for="2s"),
                           ORDER_HEADERS)
    answered = time.monotonic()
    reservation = (body or {}).get("reservation") if isinstance(body, dict) else None
    if status != 201 or not reservation:
        raise Failure(f"{label}: the hold answered {status}: {body}")
    rid, date = reservation["id"], body["pickup_at_local"][:10]
    key_start = reservation["slot_start"]

    def counted():
        for slot in slots_of(port, group.target, date)["slots"]:
            if slot["start"] == key_start:
                return slot["held"]
        raise Failure(f"{label}: GET slots of {date} lists no slot at {key_start}")

    first = counted()
    first_at = time.monotonic() - answered
    gone_at, polls = None, 0
    while time.monotonic() - answered < 4.0:
        polls += 1
        if counted() == 0:
            gone_at = time.monotonic() - answered
            break
        time.sleep(0.1)
    time.sleep(max(0.0, 2.5 - (time.monotonic() - answered)))
    at_2_5 = counted()
    after = time.monotonic() - answered
    status_confirm, _, confirm_body = call(port, "POST", f"/v1/reservations/{rid}/confirm", None, ORDER_HEADERS)
    status_read, _, read_body = call(port, "GET", f"/v1/reservations/{rid}")
    result = {"storage": storage, "reservation": rid, "expires_at": reservation["expires_at"],
              "created_at": reservation["created_at"],
              "counted_first": first, "counted_first_after_s": round(first_at, 2),
              "gone_after_s": round(gone_at, 2) if gone_at is not None else None, "polls": polls,
              "counted_at_2_5_s": at_2_5, "asked_after_s": round(after, 2),
              "confirm": f"{status_confirm} {problem_type(confirm_body)}",
              "read": f"{status_read} {(read_body or {}).get('status') if isinstance(read_body, dict) else None}"}
    if first != 1:
        fail(f"the slot held {first} right after the hold ({first_at:.2f} s), not 1")
    if gone_at is None or at_2_5 != 0:
        fail(f"the hold still counted {after:.2f} s after it was answered (hold_for 2s)")
    if status_confirm != 409 or problem_type(confirm_body) != "reservation-expired":
        fail(f"confirming the expired hold answered {status_confirm} {confirm_body}")
    if status_read != 200 or (read_body or {}).get("status") != "expired":
        fail(f"GET /v1/reservations/{rid} answered {status_read} {read_body}")
    result["ok"] = not local
    log(clock, f"{label}: hold {rid} (expires {reservation['expires_at']}, made {reservation['created_at']}) counted "
               f"{first} at {first_at:.2f} s, gone at {result['gone_after_s']} s, {at_2_5} at {after:.2f} s; confirm "
               f"{result['confirm']}; read {result['read']} — {'PASS' if not local else 'FAIL'}")
    return result


# ---- processes ---------------------------------------------------------------------------------

class Replica:
    def __init__(self, name, server, data, state, work, request_timeout, drain_delay=DRAIN_DELAY):
        self.name, self.server, self.data, self.state, self.work = name, server, data, state, work
        self.request_timeout, self.drain_delay = request_timeout, drain_delay
        self.process, self.port, self.pid, self.killed = None, 0, None, False

    def launch(self):
        log_file = open(self.work / f"{self.name}.log", "w")
        environment = dict(os.environ, STORES_ADMIN_TOKEN=ADMIN_TOKEN, STORES_ORDER_TOKENS=f"checks:{ORDER_TOKEN}")
        environment.pop("STORES_ADMIN_TOKENS", None)
        self.process = subprocess.Popen(
            [self.server, "--data", str(self.data), "--hostname", "127.0.0.1", "--port", "0",
             "--drain-delay", str(self.drain_delay), "--request-timeout", str(self.request_timeout), "--state", self.state],
            stdout=subprocess.PIPE, stderr=log_file, stdin=subprocess.DEVNULL, text=True, env=environment,
            preexec_fn=die_with_parent)
        log_file.close()
        self.pid = self.process.pid

    def wait_started(self, end):
        """Reads the startup line; returns the data version."""
        ready, _, _ = select.select([self.process.stdout], [], [], max(0.0, end - time.monotonic()))
        line = self.process.stdout.readline() if ready else ""
        match = re.search(r"\(version ([0-9a-f]{16}),.*state in \S+.* on http://127\.0\.0\.1:(\d+)$", line.strip())
        if not match:
            raise SetupError(f"{self.name}: no startup line within {STARTUP_TIMEOUT:.0f} s: {line!r} "
                             f"(exit {self.process.poll()}; log: {self.log_tail()})")
        self.port = int(match.group(2))
        return match.group(1)

    def log_tail(self):
        try:
            return (self.work / f"{self.name}.log").read_text(errors="replace")[-1500:]
        except OSError:
            return ""

    def running(self):
        return self.process is not None and self.process.poll() is None


class Postgres:
    """The throwaway cluster of scripts/state/postgres.sh."""

    def __init__(self):
        # Its own directory under /tmp: as root, postgres.sh gives it to the postgres user, who
        # could not enter a directory of ours (mkdtemp makes them 0700).
        self.dir = pathlib.Path(tempfile.mkdtemp(prefix="reservations-behind-haproxy-pg-"))
        self.url, self.running = None, False

    def _run(self, command):
        result = subprocess.run(["bash", str(POSTGRES_SH), command, str(self.dir)], capture_output=True, text=True,
                                timeout=60)
        if result.returncode != 0:
            raise Failure(f"postgres.sh {command} failed ({result.returncode}): {result.stderr.strip()}")
        return result.stdout

    def start(self):
        self.running = True  # (stopped in the finally even if start fails half-way)
        lines = self._run("start").split()
        self.url = lines[-1] if lines else None
        if not self.url or not self.url.startswith("postgres://"):
            raise Failure(f"postgres.sh start printed no URL: {lines}")
        return self.url

    def stop(self):
        self._run("stop")
        self.running = False

    def remove(self):
        if self.running:
            try:
                self.stop()
            except (Failure, subprocess.TimeoutExpired) as error:
                print(f"reservations_behind_haproxy: could not stop PostgreSQL in {self.dir}: {error}", file=sys.stderr)
                return
        shutil.rmtree(self.dir, ignore_errors=True)


def find_psql():
    found = shutil.which("psql")
    if found:
        return found
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/psql"))
    return candidates[-1] if candidates else None


def psql_rows(psql, url, sql):
    """The rows of one query, as lists of text fields."""
    result = subprocess.run([psql, url, "-X", "-At", "-F", "\t", "-v", "ON_ERROR_STOP=1", "-c", sql],
                            capture_output=True, text=True, timeout=30)
    if result.returncode != 0:
        raise Failure(f"psql: {result.stderr.strip()}")
    return [line.split("\t") for line in result.stdout.splitlines() if line]


RESERVATION_QUERY = ("SELECT id, store_id, slot_start, status, expires_at, "
                     "CASE WHEN idempotency_key IS NULL THEN 0 ELSE 1 END FROM stores_reservations "
                     "WHERE store_id LIKE '{prefix}-%'")


def postgres_rows(psql, url, group):
    """(id, store, slot start, status, expires at, keyed) of the group's reservations in PostgreSQL."""
    return [(r[0], r[1], int(r[2]), r[3], int(r[4]), r[5] == "1")
            for r in psql_rows(psql, url, RESERVATION_QUERY.format(prefix=group.name))]


def sqlite_rows(path, group):
    """The same, from the SQLite file, opened read-only."""
    connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=10)
    try:
        return [(r[0], r[1], int(r[2]), r[3], int(r[4]), r[5] == 1)
                for r in connection.execute(RESERVATION_QUERY.format(prefix=group.name))]
    finally:
        connection.close()


def ask(socket_path, command):
    """One command on HAProxy's stats socket; its answer."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.settimeout(2)
        s.connect(str(socket_path))
        s.sendall(command.encode() + b"\n")
        chunks = []
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            chunks.append(chunk)
    return b"".join(chunks).decode()


def stats(socket_path):
    """HAProxy's `show stat` as a list of dicts (CSV)."""
    return list(csv.DictReader(io.StringIO(ask(socket_path, "show stat").lstrip("# "))))


class Monitor(threading.Thread):
    """Polls HAProxy's stats every 100 ms: when each replica changes state (UP, DOWN, …)."""

    def __init__(self, socket_path, clock):
        super().__init__(daemon=True)
        self.socket_path, self.clock = socket_path, clock
        self.state, self.changes, self.stop_event = {}, [], threading.Event()

    def run(self):
        while not self.stop_event.is_set():
            try:
                for row in stats(self.socket_path):
                    if row["pxname"] == "replicas" and row["svname"].startswith("replica"):
                        status = row["status"].split(" ")[0]
                        if self.state.get(row["svname"]) != status:
                            self.state[row["svname"]] = status
                            self.changes.append((round(self.clock.now(), 2), row["svname"], row["status"]))
            except OSError:
                pass
            self.stop_event.wait(0.1)

    def wait_all_up(self, names, timeout):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if all(self.state.get(name) == "UP" for name in names):
                return
            time.sleep(0.05)
        raise SetupError(f"HAProxy did not see every replica UP within {timeout:.0f} s: {self.state}")


# ---- check 4: PostgreSQL restarted under load --------------------------------------------------

def outage(replicas, lb_port, postgres, psql, arguments, clock, problems):
    label = "4. PostgreSQL restart"
    local = []

    def fail(message):
        local.append(message)
        problems.append(f"{label}: {message}")

    group = GROUPS["outage"]
    start = slot_ahead()
    reserve = reserve_body(group, iso(start + 60), hold_for="5s")
    plain = json.dumps({"near": group.near, "ready_in": "10m", "within": "2km"})
    begun = time.monotonic()
    stop_event = threading.Event()
    end = begun + 3.0 + arguments.outage + 30.0
    reserves = Load(lb_port, None, arguments.outage_threads,
                    lambda i, n: ("POST", "/v1/pickup", reserve, ORDER_HEADERS), end, clock,
                    timeout=arguments.request_timeout + 5, stop=stop_event)
    plains = Load(lb_port, None, 2, lambda i, n: ("POST", "/v1/pickup", plain, None), end, clock,
                  timeout=arguments.request_timeout + 5, stop=stop_event)
    errors = []

    def run(load):
        try:
            load.run()
        except Failure as error:
            errors.append(str(error))

    runner = [threading.Thread(target=run, args=(load,), daemon=True) for load in (reserves, plains)]
    for thread in runner:
        thread.start()
    log(clock, f"{label}: {arguments.outage_threads} clients reserving (hold_for 5s) and 2 planning plain pickups "
               f"through HAProxy")
    result = {}
    try:
        time.sleep(3.0)
        stop_began = clock.now()
        postgres.stop()
        stopped = clock.now()
        log(clock, f"{label}: PostgreSQL stopped ({stopped - stop_began:.2f} s)")
        time.sleep(max(0.0, stop_began + arguments.outage - clock.now()))
        start_began = clock.now()
        postgres.start()
        started = clock.now()
        log(clock, f"{label}: PostgreSQL started again ({started - start_began:.2f} s; down from {stop_began:.2f} to "
                   f"{started:.2f} s)")
        # Until a reserve sent after the start is answered 201, then 3 s more.
        recovered = None
        while clock.now() < started + 15:
            firsts = [r for r in reserves.so_far() if r["status"] == 201 and r["sent"] >= started]
            if firsts:
                recovered = min(r["answered"] for r in firsts)
                break
            time.sleep(0.1)
        time.sleep(3.0 if recovered is not None else 0.0)
    finally:
        stop_event.set()
        for thread in runner:
            thread.join(arguments.request_timeout + 25)
    if any(thread.is_alive() for thread in runner):
        raise Failure(f"{label}: the clients did not stop")
    if errors:
        fail("; ".join(errors))
    answers = sorted(reserves.results, key=lambda r: r["sent"])
    plain_answers = plains.results
    # Each reserve by when it was answered: before the stop began (201); while PostgreSQL was
    # down, from 0.5 s after the stop ended (an answer the stop's first moments let through aside)
    # to the start (503 state-unavailable); sent from 1 s after the first 201 after the start
    # (201); any other time (201 or 503 state-unavailable).
    described = lambda r: f"{r['status']} {problem_type(r['body']) or r['error'] or ''}".strip()
    unavailable = lambda r: r["status"] == 503 and problem_type(r["body"]) == "state-unavailable"
    overlap = lambda r: max(0.0, min(r["answered"], start_began) - max(r["sent"], stopped))
    before = [r for r in answers if r["answered"] < stop_began]
    down = [r for r in answers if stopped + 0.5 < r["answered"] <= start_began]
    after = [r for r in answers if recovered is not None and r["sent"] >= recovered + 1.0]
    classified = {id(r) for r in before + down + after}
    around = [r for r in answers if id(r) not in classified]
    waited = [r for r in around if r["sent"] < start_began < r["answered"] and r["status"] == 201]
    refused = [r for r in answers if unavailable(r)]
    result.update({
        "stop_s": round(stopped - stop_began, 2), "start_s": round(started - start_began, 2),
        "outage_s": round(started - stop_began, 2),
        "reserves": load_figures(answers, max(0.001, clock.now() - (begun - clock.start))),
        "plain": load_figures(plain_answers, max(0.001, clock.now() - (begun - clock.start))),
        "before": len(before), "down": len(down), "around": len(around), "after": len(after),
        "down_statuses": sorted({described(r) for r in down}),
        "around_statuses": sorted({described(r) for r in around}),
        "waited_for_start_201": len(waited),
        "longest_wait_in_outage_s": round(max((overlap(r) for r in answers), default=0), 2),
        "refused_503": len(refused),
        "refused_p50_ms": percentile([r["seconds"] for r in refused], 0.5),
        "refused_max_ms": percentile([r["seconds"] for r in refused], 1.0),
        "refused_retry_after": sorted({r.get("retry_after") for r in refused}, key=str),
        "plain_during": sum(1 for r in plain_answers if r["sent"] >= stopped and r["answered"] <= start_began),
        "first_201_after_start_s": round(recovered - started, 2) if recovered is not None else None,
        # Every reserve that took over a second: sent (s after the stop began), seconds, answer.
        "slow_reserves": [(round(r["sent"] - stop_began, 2), round(r["seconds"], 2), described(r))
                          for r in answers if r["seconds"] > 1.0],
    })
    bad_before = [r for r in before if r["status"] != 201]
    if bad_before:
        fail(f"{len(bad_before)} reserves before the stop answered other than 201: "
             f"{[described(r) for r in bad_before[:3]]}")
    if not down:
        fail("no reserve was answered while PostgreSQL was down")
    bad_down = [r for r in down if not unavailable(r)]
    if bad_down:
        fail(f"{len(bad_down)} reserves answered while PostgreSQL was down were not 503 state-unavailable: "
             f"{[described(r) for r in bad_down[:3]]}")
    bad_around = [r for r in around if r["status"] != 201 and not unavailable(r)]
    if bad_around:
        examples = [(described(r), round(r["sent"] - stop_began, 2), round(r["seconds"], 2)) for r in bad_around[:3]]
        fail(f"{len(bad_around)} reserves around the stop or the start answered neither 201 nor 503 "
             f"state-unavailable (answer, sent after the stop began, seconds): {examples}")
    slow = [r for r in answers if r["seconds"] > arguments.request_timeout]
    if slow:
        fail(f"{len(slow)} reserves took over the request deadline ({arguments.request_timeout} s): "
             f"{[(described(r), round(r['seconds'], 2)) for r in slow[:3]]}")
    hung = [r for r in answers if overlap(r) > arguments.max_refusal]
    if hung:
        fail(f"{len(hung)} reserves waited over {arguments.max_refusal} s of the outage without an answer: "
             f"{[(described(r), round(r['sent'] - stop_began, 2), round(r['seconds'], 2)) for r in hung[:3]]}")
    if recovered is None or recovered - started > arguments.recovery:
        fail(f"no reserve answered 201 within {arguments.recovery} s of PostgreSQL's start "
             f"(first after {result['first_201_after_start_s']} s)")
    bad_after = [r for r in after if r["status"] != 201]
    if bad_after or (recovered is not None and not after):
        fail(f"after the recovery {len(bad_after)} of {len(after)} reserves answered other than 201: "
             f"{[described(r) for r in bad_after[:3]]}")
    bad_plain = [r for r in plain_answers if r["status"] != 200 or (r["body"] or {}).get("status") != "assigned"]
    if bad_plain or not result["plain_during"]:
        fail(f"{len(bad_plain)} of {len(plain_answers)} plain pickups did not answer 200 assigned "
             f"({result['plain_during']} during the outage): "
             f"{[(r['status'], problem_type(r['body']) or r['error']) for r in bad_plain[:3]]}")
    exited = {r.name: (r.pid, r.process.poll()) for r in replicas if not r.running()}
    if exited:
        fail(f"replicas exited (pid, status): {exited}")
    result["pids"] = {r.name: r.pid for r in replicas}
    # The database: every id answered 201 is there; rows answered otherwise are counted.
    answered_ids = {(r["body"].get("reservation") or {}).get("id") for r in answers
                    if r["status"] == 201 and isinstance(r["body"], dict)}
    rows = postgres_rows(psql, postgres.url, group)
    row_ids = {row[0] for row in rows}
    result["answered_201"] = len(answered_ids)
    result["database_rows"] = len(rows)
    result["database_rows_not_answered_201"] = len(row_ids - answered_ids)
    # Holds made for a request answered 503: (stored status, seconds past their expiry now).
    result["database_rows_not_answered_201_detail"] = [(row[3], round(time.time() - row[4], 1)) for row in rows
                                                       if row[0] not in answered_ids]
    if answered_ids - row_ids:
        fail(f"{len(answered_ids - row_ids)} reservations answered 201 are not in the database")
    result["ok"] = not local
    log(clock, f"{label}: reserves answered before the stop {len(before)} (all 201: {not bad_before}), while down "
               f"{len(down)} {result['down_statuses']}, around the stop and the start {len(around)} "
               f"{result['around_statuses']} ({len(waited)} waited for the start and held); 503s {len(refused)} (p50 "
               f"{result['refused_p50_ms']} ms, max {result['refused_max_ms']} ms); longest wait inside the outage "
               f"{result['longest_wait_in_outage_s']} s; first 201 {result['first_201_after_start_s']} s after the start, "
               f"{len(after)} after it; plain pickups {result['plain']['statuses']} ({result['plain_during']} during the "
               f"outage); database {len(rows)} rows for {len(answered_ids)} answered 201 — "
               f"{'PASS' if not local else 'FAIL'}")
    return result


# ---- check 3: kill -9 of a replica mid-burst ---------------------------------------------------

def kill_burst(replicas, lb_port, postgres, psql, haproxy_log, arguments, clock, problems):
    label = "3. kill -9 of a replica"
    local = []

    def fail(message):
        local.append(message)
        problems.append(f"{label}: {message}")

    group = GROUPS["kill"]
    capacity = arguments.capacity
    log_offset = haproxy_log.stat().st_size if haproxy_log.exists() else 0
    set_capacity(lb_port, group.target, capacity)
    capacity_seen = wait_capacity({r.name: r.port for r in replicas}, group.target, capacity)
    start = slot_ahead()
    ready_at = iso(start + 60)
    bodies = [reserve_body(group, ready_at, max_delay, hold_for="5s") for max_delay in MAX_DELAYS]
    run_id = f"{int(time.time())}-{os.getpid()}"
    confirms = {}  # reservation id -> list of (status, problem type or error)
    confirm_lock = threading.Lock()
    victim = replicas[1]

    def make(i, n):
        headers = dict(ORDER_HEADERS)
        if n % 2 == 0:
            headers["Idempotency-Key"] = f"kill-{run_id}-{i}"
        return "POST", "/v1/pickup", bodies[i % 2], headers

    def retry(n, result, attempts):
        # Keyed clients send the same request again after a 5xx or a socket error.
        return n % 2 == 0 and attempts < 4 and (result["status"] is None or result["status"] >= 500)

    def after(i, connection, result):
        if result["status"] != 201 or not isinstance(result["body"], dict):
            return
        rid = (result["body"].get("reservation") or {}).get("id")
        if not rid:
            return
        tries = []
        for _ in range(5):
            try:
                status, _, document = connection.json("POST", f"/v1/reservations/{rid}/confirm", None, ORDER_HEADERS)
                tries.append((status, (document or {}).get("status") if status == 200 else problem_type(document)))
                if status == 200 or status in (404, 409):
                    break
            except (OSError, http.client.HTTPException) as error:
                tries.append((None, f"{type(error).__name__}"))
            time.sleep(0.1)
        with confirm_lock:
            confirms[rid] = tries

    load = Load(lb_port, arguments.kill_requests, arguments.kill_threads, make,
                time.monotonic() + arguments.load_timeout, clock, after=after, retry=retry)
    log(clock, f"{label}: {arguments.kill_requests} reserves (hold_for 5s, half with an Idempotency-Key) for "
               f"{group.target}'s slot at {iso(start)} through HAProxy on {arguments.kill_threads} connections, each "
               f"201 confirmed at once; {victim.name} (pid {victim.pid}) killed after a third; capacity known to every "
               f"replica after {', '.join(f'{n} {t} s' for n, t in capacity_seen.items())}")
    killed_at = {}

    def killer():
        end = time.monotonic() + arguments.load_timeout
        while time.monotonic() < end:
            with load.lock:
                answered = load.answered
            if answered >= arguments.kill_requests // 3:
                os.kill(victim.pid, signal.SIGKILL)
                victim.killed = True
                killed_at["t"] = clock.now()
                killed_at["answered"] = answered
                return
            time.sleep(0.005)

    killing = threading.Thread(target=killer, daemon=True)
    killing.start()
    results = load.run()
    killing.join(5)
    if "t" not in killed_at:
        raise Failure(f"{label}: {victim.name} was not killed during the burst")
    victim.process.wait(10)
    log(clock, f"{label}: {victim.name} killed at {killed_at['t']:.2f} s after {killed_at['answered']} answers "
               f"(exit {victim.process.returncode})")
    figures = load_figures(results, load.wall())
    answered = {}  # id -> result
    for r in results:
        if r["status"] == 201 and isinstance(r["body"], dict) and (r["body"].get("reservation") or {}).get("id"):
            answered[r["body"]["reservation"]["id"]] = r
    uncapped = [rid for rid, r in answered.items() if r["body"]["reservation"]["store"] == group.target
                and (r["body"].get("slot") or {}).get("orders_per_slot") != capacity]
    # Once every hold has passed its expiry: the database, and each reservation on a survivor.
    rows = postgres_rows(psql, postgres.url, group)
    latest = max([row[4] for row in rows], default=0)
    time.sleep(max(0.0, latest + 1.2 - time.time()))
    rows = postgres_rows(psql, postgres.url, group)
    by_id = {row[0]: row for row in rows}
    confirmed_here = {rid for rid, tries in confirms.items() if tries and tries[-1] == (200, "confirmed")}
    database_confirmed = {row[0] for row in rows if row[3] == "confirmed"}
    unanswered = [row for row in rows if row[0] not in answered]
    survivors = [r for r in replicas if r.running()]
    misread = []
    connections = [Connection(r.port, 10) for r in survivors]
    try:
        for n, rid in enumerate(sorted(confirmed_here)):
            status, _, document = connections[n % len(connections)].json("GET", f"/v1/reservations/{rid}")
            if status != 200 or (document or {}).get("status") != "confirmed":
                misread.append((rid, status, (document or {}).get("status")))
        unanswered_read = {}
        for n, row in enumerate(unanswered):
            status, _, document = connections[n % len(connections)].json("GET", f"/v1/reservations/{row[0]}")
            key = f"{status} {(document or {}).get('status')}"
            unanswered_read[key] = unanswered_read.get(key, 0) + 1
        counted = held_by_slot(survivors[0].port, group, dates_around(start))
    finally:
        for connection in connections:
            connection.close()
    target_live_db = sum(1 for row in rows if row[1] == group.target and row[2] == start
                         and (row[3] == "confirmed" or (row[3] == "held" and row[4] > time.time())))
    target_counted = sum(counted.get((group.target, start), (0, 0)))
    haproxy_text = ""
    if haproxy_log.exists():
        with open(haproxy_log, "rb") as file:
            file.seek(log_offset)
            haproxy_text = file.read().decode(errors="replace")
    retried = 0  # HAProxy's log lines of this check's reserves with retries (the field after the 4 counts)
    for line in haproxy_text.splitlines():
        if "\"POST /v1/pickup" in line:
            match = re.search(r" \d+/\d+/\d+/\d+/\+?(\d+) \d+/\d+ ", line)
            if match and int(match.group(1)) > 0:
                retried += 1
    keyed_failed = sum(1 for r in results if r["attempt"] > 1)
    unkeyed_cut = sum(1 for r in results if (r["status"] is None or r["status"] >= 500)
                      and r["client"] % 2 == 1)
    not_confirmed = sorted(set(answered) - confirmed_here)
    result = {
        "killed": victim.name, "killed_at_s": killed_at["t"], "killed_after_answers": killed_at["answered"],
        "load": figures, "answered_201": len(answered), "confirmed": len(confirmed_here),
        "confirm_attempts_over_1": sum(1 for tries in confirms.values() if len(tries) > 1),
        "answered_not_confirmed": len(not_confirmed), "database_rows": len(rows),
        "database_confirmed": len(database_confirmed), "unanswered_rows": len(unanswered),
        "unanswered_keyed": sum(1 for row in unanswered if row[5]),
        "unanswered_statuses_in_database": sorted({row[3] for row in unanswered}),
        "unanswered_read": unanswered_read, "confirmed_misread": len(misread),
        "haproxy_retried_reserves": retried, "keyed_requests_sent_again": keyed_failed,
        "keyed_answers_replayed": sum(1 for r in results if r.get("replayed")),
        "unkeyed_5xx_or_errors": unkeyed_cut, "target_slot_live_database": target_live_db,
        "target_slot_counted": target_counted, "target_planned_without_capacity": len(uncapped),
        "capacity_seen_after_s": capacity_seen,
        "statuses_5xx": {k: v for k, v in figures["statuses"].items() if k == "error" or k.startswith("5")},
        # Every answer other than 201: (client keyed?, attempt, status or socket error, problem type).
        "not_201": [(r["client"] % 2 == 0, r["attempt"], r["status"] if r["status"] is not None else r["error"],
                     problem_type(r["body"])) for r in results if r["status"] != 201][:20],
    }
    lost = set(answered) - set(by_id)
    if lost:
        fail(f"{len(lost)} reservations answered 201 are not in the database: {sorted(lost)[:3]}")
    if misread:
        fail(f"{len(misread)} confirmed reservations do not read confirmed on a survivor: {misread[:3]}")
    if database_confirmed != confirmed_here:
        fail(f"the database's confirmed reservations differ from those confirmed: "
             f"{len(database_confirmed - confirmed_here)} confirmed that no client confirmed, "
             f"{len(confirmed_here - database_confirmed)} confirmed and not so in the database")
    if not_confirmed:
        fail(f"{len(not_confirmed)} reservations answered 201 could not be confirmed: "
             f"{[(rid, confirms.get(rid)) for rid in not_confirmed[:3]]}")
    if result["unanswered_keyed"]:
        fail(f"{result['unanswered_keyed']} reservations made with an Idempotency-Key were never answered")
    phantom = [row for row in unanswered if row[3] == "confirmed" or row[4] > time.time()]
    if phantom:
        fail(f"{len(phantom)} reservations nobody was answered are confirmed or not expired: {phantom[:3]}")
    if set(unanswered_read) - {"200 expired"}:
        fail(f"reservations nobody was answered read {unanswered_read}, not all 200 expired")
    if target_live_db > capacity or target_counted > capacity:
        fail(f"{group.target}'s slot holds {target_live_db} (database) / {target_counted} (GET slots), over {capacity}")
    if uncapped:
        fail(f"{len(uncapped)} holds at {group.target} were planned with a slot whose orders_per_slot is not "
             f"{capacity} (a replica that did not know the capacity yet?)")
    if len(rows) != len(answered) + len(unanswered):
        fail(f"{len(rows)} rows for {len(answered)} answered and {len(unanswered)} not")
    result["ok"] = not local
    log(clock, f"{label}: {figures['requests']} answers ({figures['statuses']}, {figures['per_second']}/s, p50 "
               f"{figures['p50_ms']} ms, p99 {figures['p99_ms']} ms); {len(answered)} answered 201, {len(confirmed_here)} "
               f"confirmed (all read confirmed on a survivor: {not misread}); database {len(rows)} rows, "
               f"{len(database_confirmed)} confirmed, {len(unanswered)} never answered (keyed {result['unanswered_keyed']}, "
               f"read {unanswered_read}); HAProxy resent {retried} reserves; target's slot {target_live_db} live — "
               f"{'PASS' if not local else 'FAIL'}")
    return result


# ---- the run -----------------------------------------------------------------------------------

def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", required=True, help="the stores-server executable")
    parser.add_argument("--config", default=str(ROOT / "docs" / "haproxy-state.cfg"),
                        help="HAProxy configuration (default docs/haproxy-state.cfg)")
    parser.add_argument("--checks", default="1,2,3,4,5", help="which checks to run (default 1,2,3,4,5)")
    parser.add_argument("--capacity", type=int, default=20, help="orders per slot of each target (default 20)")
    parser.add_argument("--requests", type=int, default=2000, help="reserves of each burst, checks 1 and 2 (default 2000)")
    parser.add_argument("--threads", type=int, default=64, help="connections of each burst (default 64)")
    parser.add_argument("--kill-requests", type=int, default=800, help="reserves of check 3 (default 800)")
    parser.add_argument("--kill-threads", type=int, default=32, help="connections of check 3 (default 32)")
    parser.add_argument("--outage-threads", type=int, default=12, help="reserving clients of check 4 (default 12)")
    parser.add_argument("--outage", type=float, default=8.0, help="seconds PostgreSQL stays stopped (default 8)")
    parser.add_argument("--max-refusal", type=float, default=7.0,
                        help="the longest a reserve may wait inside the outage (default 7 s: a storage call's 5 s "
                             "deadline and a margin)")
    parser.add_argument("--recovery", type=float, default=5.0,
                        help="the longest after PostgreSQL's start before a reserve answers 201 (default 5 s)")
    parser.add_argument("--request-timeout", type=float, default=10.0,
                        help="the replicas' --request-timeout, the bound on a 503 during the outage (default 10)")
    parser.add_argument("--load-timeout", type=float, default=90.0, help="the longest one burst may take (default 90 s)")
    parser.add_argument("--single-state", choices=("sqlite", "memory"), default="sqlite",
                        help="the single replica's state (check 1): sqlite (default), or memory to try the script on "
                             "a build whose SQL storages hold no slots yet")
    parser.add_argument("--deadline", type=float, default=240.0, help="hard bound on the whole run, seconds (default 240)")
    parser.add_argument("--haproxy", default="haproxy")
    parser.add_argument("--json", help="write the report as JSON to this file")
    parser.add_argument("--keep", help="copy the logs (HAProxy's, the replicas', PostgreSQL's) to this directory")
    arguments = parser.parse_args()
    checks = {c.strip() for c in arguments.checks.split(",") if c.strip()}
    clock = Clock()

    def on_alarm(signum, frame):
        raise Failure(f"the run took longer than --deadline {arguments.deadline:.0f} s")

    def on_signal(signum, frame):
        raise Failure(f"stopped by signal {signum}")

    signal.signal(signal.SIGALRM, on_alarm)
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    signal.setitimer(signal.ITIMER_REAL, arguments.deadline)

    report = {"ok": False, "problems": [], "checks": {}}
    problems = report["problems"]
    needs_postgres = bool(checks & {"2", "3", "4"}) or "5" in checks
    if needs_postgres:
        if shutil.which(arguments.haproxy) is None:
            print(f"reservations_behind_haproxy: {arguments.haproxy} not found (apt-get install haproxy)", file=sys.stderr)
            return 2
        if not list(pathlib.Path("/usr/lib/postgresql").glob("*/bin/initdb")):
            print("reservations_behind_haproxy: no PostgreSQL server in /usr/lib/postgresql/*/bin "
                  "(apt-get install postgresql)", file=sys.stderr)
            return 2
    psql = find_psql()
    if needs_postgres and psql is None:
        print("reservations_behind_haproxy: no psql (apt-get install postgresql-client)", file=sys.stderr)
        return 2
    server = str(pathlib.Path(arguments.server).resolve())
    single, replicas, processes, open_files = None, [], [], []
    monitor = postgres = postgres_starter = None
    work = pathlib.Path(tempfile.mkdtemp(prefix="reservations-behind-haproxy-"))
    data = work / "stores.geojson"
    haproxy_log = work / "haproxy.log"
    try:
        count = write_data(data)
        log(clock, f"data: {count} stores open 24/7 in {data}")
        # PostgreSQL starts (initdb, a few seconds) while the single replica's checks run.
        postgres_started = {}
        if checks & {"2", "3", "4", "5"}:
            postgres = Postgres()

            def start_postgres():
                try:
                    postgres_started["url"] = postgres.start()
                except (Failure, subprocess.TimeoutExpired, OSError) as error:
                    postgres_started["error"] = error

            postgres_starter = threading.Thread(target=start_postgres, daemon=True)
            postgres_starter.start()

        if checks & {"1", "5"}:
            state = f"sqlite:{work / 'state.sqlite'}" if arguments.single_state == "sqlite" else "memory"
            single = Replica("single", server, data, state, work, arguments.request_timeout, drain_delay=0)
            single.launch()
            version = single.wait_started(time.monotonic() + STARTUP_TIMEOUT)
            log(clock, f"single replica on 127.0.0.1:{single.port} (pid {single.pid}), data version {version}, "
                       f"state {state}")
            if "1" in checks:
                group = GROUPS["one"]
                rows = (lambda: sqlite_rows(work / "state.sqlite", group)) if arguments.single_state == "sqlite" \
                    else None
                report["checks"]["1"] = burst(single.port, {single.name: single.port}, group, arguments.capacity,
                                              arguments, clock, problems,
                                              f"1. one replica, {arguments.single_state}", rows)
            if "5" in checks:
                report["checks"]["5-single"] = expiry(single.port, GROUPS["expiry-sqlite"], clock, problems,
                                                      f"5. expiry, {arguments.single_state}", arguments.single_state)
            single.process.send_signal(signal.SIGTERM)
            try:
                report["single_exit"] = single.process.wait(timeout=DRAIN_DELAY + 20)
            except subprocess.TimeoutExpired:
                single.process.kill()
                single.process.wait()
                report["single_exit"] = None
            if report["single_exit"] != 0:
                problems.append(f"the single replica exited {report['single_exit']} on SIGTERM")

        if checks & {"2", "3", "4", "5"}:
            postgres_starter.join(70)
            if "url" not in postgres_started:
                raise SetupError(f"PostgreSQL did not start: {postgres_started.get('error', 'no answer within 70 s')}")
            url = postgres_started["url"]
            log(clock, f"PostgreSQL at {url} (cluster in {postgres.dir})")
            for number in (1, 2, 3):
                replicas.append(Replica(f"replica{number}", server, data, url, work, arguments.request_timeout))
            for replica in replicas:
                replica.launch()
            end = time.monotonic() + STARTUP_TIMEOUT
            for replica in replicas:
                version = replica.wait_started(end)
                log(clock, f"{replica.name} on 127.0.0.1:{replica.port} (pid {replica.pid}), data version {version}")
            report["pids"] = {r.name: r.pid for r in replicas}

            # HAProxy with docs/haproxy-state.cfg, the addresses in its environment.
            lb_port = free_port()
            socket_path = work / "haproxy.sock"
            environment = dict(os.environ, STORES_BIND=f"127.0.0.1:{lb_port}", STORES_HAPROXY_SOCKET=str(socket_path),
                               **{f"STORES_REPLICA{i + 1}": f"127.0.0.1:{r.port}" for i, r in enumerate(replicas)})
            check = subprocess.run([arguments.haproxy, "-c", "-f", arguments.config], env=environment,
                                   capture_output=True, text=True, timeout=20)
            if check.returncode != 0:
                raise SetupError(f"haproxy -c -f {arguments.config}: {check.stdout}{check.stderr}")
            haproxy_file = open(haproxy_log, "w")
            open_files.append(haproxy_file)
            haproxy = subprocess.Popen([arguments.haproxy, "-db", "-f", arguments.config], env=environment,
                                       stdout=haproxy_file, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                       preexec_fn=die_with_parent)
            processes.append(haproxy)
            for _ in range(100):
                if socket_path.exists() or haproxy.poll() is not None:
                    break
                time.sleep(0.05)
            if haproxy.poll() is not None:
                raise SetupError(f"haproxy exited {haproxy.returncode}: {haproxy_log.read_text()[-2000:]}")
            monitor = Monitor(socket_path, clock)
            monitor.start()
            monitor.wait_all_up([r.name for r in replicas], 15)
            up_changes = len(monitor.changes)
            log(clock, f"HAProxy on 127.0.0.1:{lb_port}: all three replicas UP")

            if "2" in checks:
                group = GROUPS["two"]
                report["checks"]["2"] = burst(lb_port, {r.name: r.port for r in replicas}, group, arguments.capacity,
                                              arguments, clock, problems,
                                              "2. three replicas behind HAProxy, PostgreSQL",
                                              lambda: postgres_rows(psql, postgres.url, group))
            if "5" in checks:
                report["checks"]["5-postgres"] = expiry(lb_port, GROUPS["expiry-pg"], clock, problems,
                                                        "5. expiry, PostgreSQL through HAProxy", "postgres")
            if "4" in checks:
                report["checks"]["4"] = outage(replicas, lb_port, postgres, psql, arguments, clock, problems)
            changes = monitor.changes[up_changes:]
            report["haproxy_changes_before_kill"] = changes
            if changes:
                problems.append(f"HAProxy saw replicas change state before the kill: {changes}")
            if "3" in checks:
                report["checks"]["3"] = kill_burst(replicas, lb_port, postgres, psql, haproxy_log, arguments, clock,
                                                   problems)
                report["haproxy_changes_after_kill"] = monitor.changes[up_changes + len(changes):]
            for replica in replicas:
                if not replica.killed and not replica.running():
                    problems.append(f"{replica.name} (pid {replica.pid}) exited {replica.process.returncode} during "
                                    "the run")
    except (Failure, SetupError, subprocess.TimeoutExpired, OSError, http.client.HTTPException, ValueError,
            KeyError, sqlite3.Error) as error:
        problems.append(f"{type(error).__name__}: {error}")
        if isinstance(error, SetupError):
            report["setup_error"] = True
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        # Ctrl-C or SIGTERM again while stopping everything does not leave processes behind.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        if monitor is not None:
            monitor.stop_event.set()
            monitor.join(timeout=5)
        for process in processes:
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
        if single is not None and single.running():
            single.process.kill()
            single.process.wait()
        exits = {}
        for replica in replicas:
            if replica.running():
                replica.process.send_signal(signal.SIGTERM)
        for replica in replicas:
            if replica.process is None:
                continue
            try:
                exits[replica.name] = replica.process.wait(timeout=DRAIN_DELAY + 20)
            except subprocess.TimeoutExpired:
                replica.process.kill()
                replica.process.wait()
                exits[replica.name] = None
        report["replica_exits"] = exits
        if "pids" in report and any(status != 0 for name, status in exits.items()
                                    if not next(r for r in replicas if r.name == name).killed):
            problems.append(f"replicas did not all exit 0 on SIGTERM: {exits}")
        for file in open_files:
            file.close()
        if arguments.keep:
            keep = pathlib.Path(arguments.keep)
            keep.mkdir(parents=True, exist_ok=True)
            for path in work.glob("*.log"):
                shutil.copy(path, keep / path.name)
            if postgres is not None and (postgres.dir / "postgres.log").exists():
                shutil.copy(postgres.dir / "postgres.log", keep / "postgres.log")
        if postgres_starter is not None:
            postgres_starter.join(70)  # (a cluster half made is stopped once made)
        if postgres is not None:
            postgres.remove()
        shutil.rmtree(work, ignore_errors=True)

    report["ok"] = not problems
    report["seconds"] = round(clock.now(), 2)
    print_report(report)
    if arguments.json:
        pathlib.Path(arguments.json).write_text(json.dumps(report, indent=2, default=list) + "\n")
    if "setup_error" in report:
        return 2
    return 0 if report["ok"] else 1


def print_report(report):
    print("\n== reservations_behind_haproxy report")
    checks = report["checks"]
    for key, title in (("1", "1. one replica"), ("2", "2. three replicas behind HAProxy")):
        c = checks.get(key)
        if c:
            load = c["load"]
            print(f"{title}: {load['requests']} reserves for the slot at {c['slot_start']} in {load['seconds']} s "
                  f"({load['per_second']}/s, p50 {load['p50_ms']} ms, p99 {load['p99_ms']} ms, max {load['max_ms']} ms), "
                  f"statuses {load['statuses']}; {c['target_slot_answers']} answers in the target's slot, GET slots "
                  f"{c.get('target_slot_held')}, database {c.get('database_target_slot')}; placements "
                  f"{c['placements']}; reasons {c['reasons']}; capacity known to every replica after "
                  f"{max(c['capacity_seen_after_s'].values())} s; {c['answered_201']} answers 201 = "
                  f"{c.get('slots_held')} held over every slot ({', '.join(c.get('dates', []))}) = "
                  f"{c.get('database_rows')} rows — {'PASS' if c['ok'] else 'FAIL'}")
    c = checks.get("3")
    if c:
        load = c["load"]
        print(f"3. kill -9 of {c['killed']} at {c['killed_at_s']:.2f} s (after {c['killed_after_answers']} answers): "
              f"{load['requests']} answers ({load['statuses']}, {load['per_second']}/s, p50 {load['p50_ms']} ms, p99 "
              f"{load['p99_ms']} ms); {c['answered_201']} answered 201, {c['confirmed']} confirmed "
              f"({c['confirm_attempts_over_1']} after a retry), {c['answered_not_confirmed']} not; database "
              f"{c['database_rows']} rows, {c['database_confirmed']} confirmed, {c['unanswered_rows']} never answered "
              f"(keyed {c['unanswered_keyed']}, stored {c['unanswered_statuses_in_database']}, read "
              f"{c['unanswered_read']}); HAProxy sent {c['haproxy_retried_reserves']} reserves again (its log's "
              f"retries: a connection the dead replica refused, or an answer the kill cut), "
              f"{c['keyed_answers_replayed']} keyed answers were replays (Idempotent-Replayed), keyed clients sent "
              f"{c['keyed_requests_sent_again']} again, unkeyed 5xx/errors {c['unkeyed_5xx_or_errors']} "
              f"{c['not_201'][:3]}; target slot "
              f"{c['target_slot_live_database']} live (GET slots {c['target_slot_counted']}), capacity known to every "
              f"replica after {max(c['capacity_seen_after_s'].values())} s — "
              f"{'PASS' if c['ok'] else 'FAIL'}")
    c = checks.get("4")
    if c:
        print(f"4. PostgreSQL down {c['outage_s']} s (stop {c['stop_s']} s, start {c['start_s']} s): reserves "
              f"{c['reserves']['statuses']} (p50 {c['reserves']['p50_ms']} ms, p99 {c['reserves']['p99_ms']} ms): "
              f"{c['before']} answered before the stop (201), {c['down']} while down {c['down_statuses']}, "
              f"{c['around']} around the stop and the start {c['around_statuses']} ({c['waited_for_start_201']} waited "
              f"for the start and held); 503 state-unavailable: {c['refused_503']} (p50 {c['refused_p50_ms']} ms, max "
              f"{c['refused_max_ms']} ms, Retry-After {c['refused_retry_after']}); longest wait inside the outage "
              f"{c['longest_wait_in_outage_s']} s; first 201 {c['first_201_after_start_s']} s after the start, then "
              f"{c['after']} all 201; plain pickups {c['plain']['statuses']} ({c['plain_during']} during the outage, "
              f"p99 {c['plain']['p99_ms']} ms); database {c['database_rows']} rows for {c['answered_201']} answered "
              f"201 ({c['database_rows_not_answered_201']} answered otherwise); same pids {c['pids']} — "
              f"{'PASS' if c['ok'] else 'FAIL'}")
    for key in ("5-single", "5-postgres"):
        c = checks.get(key)
        if c:
            print(f"5. expiry ({c['storage']}): counted {c['counted_first']} at {c['counted_first_after_s']} s, gone at "
                  f"{c['gone_after_s']} s (expires_at {c['expires_at']}, made {c['created_at']}), {c['counted_at_2_5_s']} "
                  f"at {c['asked_after_s']} s; confirm {c['confirm']}; read {c['read']} — {'PASS' if c['ok'] else 'FAIL'}")
    if "pids" in report:
        print(f"replicas: pids {report['pids']}; exits on SIGTERM {report.get('replica_exits')}; HAProxy state changes "
              f"after the kill: {report.get('haproxy_changes_after_kill', [])}")
    for problem in report["problems"]:
        print(f"PROBLEM: {problem}")
    print(f"reservations_behind_haproxy: {'passed' if report['ok'] else 'FAILED'} in {report.get('seconds', 0):.1f} s")


if __name__ == "__main__":
    sys.exit(main())
