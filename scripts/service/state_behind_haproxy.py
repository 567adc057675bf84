#!/usr/bin/env python3
"""Three stores-server replicas behind HAProxy (docs/haproxy-state.cfg) sharing one PostgreSQL
state: a pause through one replica reaches every replica within 1 s, a pause with an end resumes
by itself with no request, and PostgreSQL stopped for 10 s under load fails no read.

What one run does, everything on 127.0.0.1 (free ports found by binding port 0):

1. PostgreSQL: scripts/state/postgres.sh starts a throwaway cluster in a temporary directory and
   prints its URL.
2. Three replicas of `--server` on the bundled data (`--data`, default Data/stores.geojson), each
   `--hostname 127.0.0.1 --port 0 --drain-delay 3 --state URL`, STORES_ADMIN_TOKEN set; HAProxy in
   the foreground (`haproxy -db`) with docs/haproxy-state.cfg unchanged, its addresses given by the
   environment variables the file reads. All three must be UP in HAProxy's stats socket first.
3. Propagation, `--rounds` times (default 5), pausing and resuming in turn: one poller per
   replica, each on its own connection to that replica directly, asks `GET
   /v1/stores/nw-0145/state` and plans a pickup (`POST /v1/pickup` choosing nw-0145) every 20 ms;
   the change is a `PATCH /v1/stores/nw-0145/state` through HAProxy. A replica's delay runs from
   the moment the PATCH was sent to the first answer of both kinds that shows the change (the
   state says paused and the pickup passes nw-0145 over as `ordering-paused`; or the state says
   open and the pickup no longer does); both that delay and the one from the PATCH's answer (the
   change committed) are reported. Fails when a replica shows the change more than `--max-delay`
   (1.0 s) after the PATCH's answer, or shows the old state again after the new one.
4. Resume at `until`: a pause with `until` 3 s ahead through HAProxy; once every replica shows it,
   nothing is sent to any replica until `until` + 0.3 s; then each must answer `ordering: open`
   with the pause's version (resumed by time, not by a change) and assign nw-0145 in a pickup.
   When nw-0145 is closed at this hour (its hours, not the pause), the pickup must pass it over
   for that reason, not `ordering-paused`, and a pickup at the next 20:00 UTC (noon or 13:00 in
   Seattle: open on every day of its week) must assign it.
5. Outage under load: `--connections` Python clients (keep-alive, through HAProxy) send GET
   nearest, within, a store and POST pickup for `--load-seconds` (20); `/readyz` of each replica
   is asked every 200 ms; after 4 s PostgreSQL is stopped (`postgres.sh stop`) for `--outage`
   (10) s, and meanwhile PATCHes through HAProxy must answer 503 `state-unavailable` within 6 s
   each; then `postgres.sh start` (the same port and data) and a PATCH through HAProxy is tried
   every 0.5 s until it answers 200; then every replica must reach its version. Every read must
   answer 200 (stale answers carry `X-Stores-State-Age`, counted); every `/readyz` 200, with
   `state.storage` "down" seen on each replica during the outage and "up" after; HAProxy keeps
   every replica UP; every replica is the process started at the beginning (same PID, running).
6. Stop everything (HAProxy, the replicas, which must exit 0 on SIGTERM, PostgreSQL) and print
   the figures (`--json FILE` keeps them).

Exits 1 when any check fails, 2 on a setup error (no haproxy, no PostgreSQL server, a replica that
does not start). Bounded: `--deadline` seconds for the whole run (default 120, SIGALRM), every
wait with its own timeout; every process it started is stopped in a `finally`, also on Ctrl-C or
SIGTERM (replicas and HAProxy are also killed if the script dies: PR_SET_PDEATHSIG; PostgreSQL,
which pg_ctl detaches, is stopped by `postgres.sh stop`).

    python3 scripts/service/state_behind_haproxy.py --server .build/debug/stores-server
    python3 scripts/service/state_behind_haproxy.py --server … --json /tmp/state.json --keep /tmp/state-logs

Needs haproxy and Debian's postgresql (`apt-get install haproxy postgresql`); Python 3 standard
library only.
"""
import argparse
import csv
import ctypes
import datetime
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
import statistics
import subprocess
import sys
import tempfile
import threading
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
POSTGRES_SH = ROOT / "scripts" / "state" / "postgres.sh"
STORE = "nw-0145"
NEAR = "47.6062,-122.3321"
TOKEN = "state-behind-haproxy-token"
STARTUP_TIMEOUT = 60.0
DRAIN_DELAY = 3.0


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


def pickup_body(now=None):
    body = {"near": NEAR, "ready_in": "10m", "store": STORE}
    if now is not None:
        body["now"] = now
    return json.dumps(body)


def paused_over(plan):
    """Whether a pickup plan passes STORE over because its ordering is paused."""
    return any(p.get("store_id") == STORE and p.get("code") == "ordering-paused" for p in plan.get("passed_over", []))


# ---- HTTP --------------------------------------------------------------------------------------

class Connection:
    """One keep-alive connection to 127.0.0.1:port, opened again after an error or a close."""

    def __init__(self, port, timeout=10.0):
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

    def close(self):
        if self.connection is not None:
            self.connection.close()
            self.connection = None


def patch_state(port, change, timeout=15.0):
    """A PATCH of STORE's state on a new connection: (status, body as JSON or text, seconds)."""
    connection = Connection(port, timeout)
    started = time.monotonic()
    try:
        status, _, payload = connection.request(
            "PATCH", f"/v1/stores/{STORE}/state", json.dumps(change), {"Authorization": f"Bearer {TOKEN}"})
    finally:
        connection.close()
    elapsed = time.monotonic() - started
    try:
        body = json.loads(payload)
    except ValueError:
        body = payload[:300].decode(errors="replace")
    return status, body, elapsed


# ---- processes ---------------------------------------------------------------------------------

class Replica:
    def __init__(self, name, server, data, state_url, work):
        self.name, self.server, self.data, self.state_url, self.work = name, server, data, state_url, work
        self.process, self.port, self.pid = None, 0, None

    def launch(self):
        log_file = open(self.work / f"{self.name}.log", "w")
        environment = dict(os.environ, STORES_ADMIN_TOKEN=TOKEN)
        environment.pop("STORES_ADMIN_TOKENS", None)
        self.process = subprocess.Popen(
            [self.server, "--data", str(self.data), "--hostname", "127.0.0.1", "--port", "0",
             "--drain-delay", str(DRAIN_DELAY), "--state", self.state_url],
            stdout=subprocess.PIPE, stderr=log_file, stdin=subprocess.DEVNULL, text=True, env=environment,
            preexec_fn=die_with_parent)
        log_file.close()
        self.pid = self.process.pid

    def wait_started(self, end):
        """Reads the startup line; returns the data version."""
        ready, _, _ = select.select([self.process.stdout], [], [], max(0.0, end - time.monotonic()))
        line = self.process.stdout.readline() if ready else ""
        match = re.search(r"\(version ([0-9a-f]{16}),.*state in postgres://.* on http://127\.0\.0\.1:(\d+)$",
                          line.strip())
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

    def readyz(self, timeout=2.0):
        """(status, body as JSON), on a new connection."""
        connection = Connection(self.port, timeout)
        try:
            status, _, payload = connection.request("GET", "/readyz")
        finally:
            connection.close()
        return status, json.loads(payload)


class Postgres:
    """The throwaway cluster of scripts/state/postgres.sh."""

    def __init__(self):
        # Its own directory under /tmp: as root, postgres.sh gives it to the postgres user, who
        # could not enter a directory of ours (mkdtemp makes them 0700).
        self.dir = pathlib.Path(tempfile.mkdtemp(prefix="state-behind-haproxy-pg-"))
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
                print(f"state_behind_haproxy: could not stop PostgreSQL in {self.dir}: {error}", file=sys.stderr)
                return
        shutil.rmtree(self.dir, ignore_errors=True)


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


# ---- a. propagation ----------------------------------------------------------------------------

class Poller(threading.Thread):
    """Asks one replica directly, every `period` s, for STORE's state and a pickup choosing it;
    notes when each first shows `paused` (True or False) and whether the old state came back."""

    def __init__(self, replica, paused, period=0.02):
        super().__init__(daemon=True)
        self.replica, self.paused, self.period = replica, paused, period
        self.sent = None  # monotonic time the PATCH was sent; set by the main thread
        self.warm = threading.Event()
        self.done = threading.Event()
        self.stop_event = threading.Event()
        self.state_seen = self.pickup_seen = None
        self.polls, self.went_back, self.errors = 0, [], []

    def run(self):
        connection = Connection(self.replica.port, timeout=5)
        try:
            while not self.stop_event.is_set():
                started = time.monotonic()
                try:
                    status, _, payload = connection.request("GET", f"/v1/stores/{STORE}/state")
                    received = time.monotonic()
                    state_paused = json.loads(payload).get("ordering") == "paused" if status == 200 else None
                    self.note("state", status, state_paused, received)
                    status, _, payload = connection.request("POST", "/v1/pickup", pickup_body())
                    received = time.monotonic()
                    pickup_paused = paused_over(json.loads(payload)) if status == 200 else None
                    self.note("pickup", status, pickup_paused, received)
                except (OSError, http.client.HTTPException, ValueError) as error:
                    self.errors.append(f"{type(error).__name__}: {error}")
                self.polls += 1
                self.warm.set()
                if self.state_seen is not None and self.pickup_seen is not None:
                    self.done.set()
                self.stop_event.wait(max(0.0, self.period - (time.monotonic() - started)))
        finally:
            connection.close()

    def note(self, kind, status, paused, received):
        if status != 200:
            self.errors.append(f"{kind}: status {status}")
            return
        sent = self.sent
        if sent is None or received < sent:
            return
        seen = self.state_seen if kind == "state" else self.pickup_seen
        if paused == self.paused:
            if seen is None:
                if kind == "state":
                    self.state_seen = received
                else:
                    self.pickup_seen = received
        elif seen is not None:
            self.went_back.append(f"{kind} showed the old state again {received - sent:.3f} s after the PATCH")


def propagation(replicas, lb_port, rounds, max_delay, clock, problems):
    """Rounds of pause and resume through HAProxy; each replica's delay per round."""
    results = []
    for round_number in range(rounds):
        paused = round_number % 2 == 0
        change = {"ordering": "paused", "reason": "ci"} if paused else {"ordering": "open"}
        pollers = [Poller(replica, paused) for replica in replicas]
        for poller in pollers:
            poller.start()
        try:
            for poller in pollers:
                if not poller.warm.wait(10):
                    raise Failure(f"{poller.replica.name} did not answer a poll within 10 s")
            sent = time.monotonic()
            for poller in pollers:
                poller.sent = sent
            status, body, patch_seconds = patch_state(lb_port, change)
            if status != 200 or not isinstance(body, dict) or body.get("ordering") != change["ordering"]:
                raise Failure(f"round {round_number + 1}: PATCH {change} through HAProxy answered {status}: {body}")
            # Waits past the limit, to measure a late replica rather than only fail it.
            end = sent + max_delay + 4.0
            for poller in pollers:
                poller.done.wait(max(0.0, end - time.monotonic()))
            # A little longer, to catch a replica going back to the old state.
            time.sleep(0.1)
        finally:
            for poller in pollers:
                poller.stop_event.set()
            for poller in pollers:
                poller.join(timeout=10)
        entry = {"round": round_number + 1, "change": "pause" if paused else "resume", "version": body.get("version"),
                 "patch_s": round(patch_seconds, 3), "replicas": {}}
        for poller in pollers:
            name = poller.replica.name
            if poller.state_seen is None or poller.pickup_seen is None:
                problems.append(f"round {entry['round']} ({entry['change']}): {name} did not show it within "
                                f"{max_delay + 4:.0f} s (state {poller.state_seen is not None}, pickup "
                                f"{poller.pickup_seen is not None}); errors {poller.errors[:3]}")
                entry["replicas"][name] = None
                continue
            delay = max(poller.state_seen, poller.pickup_seen) - sent
            entry["replicas"][name] = {"delay_s": round(delay, 3), "state_s": round(poller.state_seen - sent, 3),
                                       "pickup_s": round(poller.pickup_seen - sent, 3), "polls": poller.polls,
                                       "after_answer_s": round(delay - patch_seconds, 3)}
            # The change exists once the PATCH is answered (committed); a debug build's PATCH can take
            # half a second of its own, which is the write's time, not the spreading to replicas.
            if delay - patch_seconds > max_delay:
                problems.append(f"round {entry['round']} ({entry['change']}): {name} took {delay - patch_seconds:.3f} s "
                                f"after the PATCH's answer (over {max_delay} s; {delay:.3f} s from the PATCH sent)")
            if poller.went_back:
                problems.append(f"round {entry['round']}: {name}: {poller.went_back[:3]}")
            if poller.errors:
                problems.append(f"round {entry['round']}: {name}: {len(poller.errors)} failed polls: {poller.errors[:3]}")
        results.append(entry)
        log(clock, f"round {entry['round']} {entry['change']} (version {entry['version']}, PATCH {patch_seconds * 1000:.0f} ms): "
                   + ", ".join(f"{name} {r['delay_s']:.3f} s (state {r['state_s']:.3f}, pickup {r['pickup_s']:.3f})"
                               if r else f"{name} not seen" for name, r in entry["replicas"].items()))
    return results


# ---- b. resume at until ------------------------------------------------------------------------

def next_2000_utc(unix_seconds):
    day = datetime.datetime.fromtimestamp(unix_seconds, datetime.timezone.utc)
    at = day.replace(hour=20, minute=0, second=0, microsecond=0)
    if at.timestamp() <= unix_seconds + 60:
        at += datetime.timedelta(days=1)
    return at.strftime("%Y-%m-%dT%H:%M:%SZ")


def resume_at_until(replicas, lb_port, clock, problems):
    until = math.ceil(time.time()) + 3
    status, body, _ = patch_state(lb_port, {"ordering": "paused", "until": iso(until), "reason": "ci until"})
    if status != 200 or not isinstance(body, dict) or body.get("paused_until") != iso(until):
        raise Failure(f"PATCH pause until {iso(until)} answered {status}: {body}")
    version = body["version"]
    log(clock, f"paused until {iso(until)} (version {version}) through HAProxy")
    # Every replica shows the pause first (before the wait, not during it).
    end = time.monotonic() + 2.0
    for replica in replicas:
        connection = Connection(replica.port, 5)
        try:
            while True:
                status, _, payload = connection.request("GET", f"/v1/stores/{STORE}/state")
                if status == 200 and json.loads(payload).get("ordering") == "paused":
                    break
                if time.monotonic() > end:
                    raise Failure(f"{replica.name} did not show the pause until {iso(until)} within 2 s")
                time.sleep(0.02)
        finally:
            connection.close()
    # Nothing sent to any replica from here until until + 0.3 s (HAProxy's /readyz checks go on).
    quiet_from = time.time()
    time.sleep(max(0.0, until + 0.3 - time.time()))
    log(clock, f"{time.time() - quiet_from:.2f} s without a request; {time.time() - until:.2f} s past until")
    result = {"until": iso(until), "version": version, "quiet_s": round(time.time() - quiet_from, 2), "replicas": {}}
    for replica in replicas:
        connection = Connection(replica.port, 5)
        try:
            asked = time.time()
            status, headers, payload = connection.request("GET", f"/v1/stores/{STORE}/state")
            state = json.loads(payload) if status == 200 else {}
            status_pickup, _, payload = connection.request("POST", "/v1/pickup", pickup_body())
            plan = json.loads(payload) if status_pickup == 200 else {}
            entry = {"asked_after_until_s": round(asked - until, 3), "ordering": state.get("ordering"),
                     "state_version": state.get("version"), "header_version": headers.get("x-stores-state-version"),
                     "pickup": plan.get("status"), "assigned": (plan.get("store") or {}).get("id")}
            if status != 200 or state.get("ordering") != "open":
                problems.append(f"resume at until: {replica.name} answered {status} ordering {state.get('ordering')!r} "
                                f"{asked - until:.2f} s after until")
            if state.get("version") != version or headers.get("x-stores-state-version") != str(version):
                problems.append(f"resume at until: {replica.name} shows version {state.get('version')} (header "
                                f"{headers.get('x-stores-state-version')}), not the pause's {version}: something "
                                "changed the state")
            if status_pickup != 200:
                problems.append(f"resume at until: {replica.name}: pickup answered {status_pickup}")
            elif entry["assigned"] != STORE:
                reasons = [p for p in plan.get("passed_over", []) if p.get("store_id") == STORE]
                entry["passed_over"] = reasons
                if paused_over(plan) or not reasons:
                    problems.append(f"resume at until: {replica.name}: the pickup did not assign {STORE}: "
                                    f"{plan.get('status')} {entry['assigned']}, passed over {reasons}, "
                                    f"warnings {plan.get('warnings')}")
                else:
                    # Closed at this hour: the same plan at an hour it is open.
                    at = next_2000_utc(time.time())
                    status_later, _, payload = connection.request("POST", "/v1/pickup", pickup_body(at))
                    later = json.loads(payload) if status_later == 200 else {}
                    entry["assigned_at_2000_utc"] = {"now": at, "assigned": (later.get("store") or {}).get("id")}
                    if entry["assigned_at_2000_utc"]["assigned"] != STORE:
                        problems.append(f"resume at until: {replica.name}: {STORE} closed now ({reasons}), and a "
                                        f"pickup at {at} assigned {entry['assigned_at_2000_utc']['assigned']}")
        finally:
            connection.close()
        result["replicas"][replica.name] = entry
        log(clock, f"{replica.name}: {entry['asked_after_until_s']:.2f} s after until: ordering {entry['ordering']}, "
                   f"version {entry['state_version']}; pickup {entry['pickup']} {entry['assigned']}"
                   + (f" (passed over: {entry['passed_over'][0]['code']}; at {entry['assigned_at_2000_utc']['now']} "
                      f"assigned {entry['assigned_at_2000_utc']['assigned']})" if "assigned_at_2000_utc" in entry else ""))
    return result


# ---- c. outage under load ----------------------------------------------------------------------

def load_requests(data):
    """(method, path, body) of reads near stores of the data: nearest, within, a store, pickup."""
    features = json.loads(pathlib.Path(data).read_text())["features"]
    step = max(1, len(features) // 50)
    mix = []
    for feature in features[::step][:50]:
        lon, lat = feature["geometry"]["coordinates"][:2]
        near = f"{lat:.5f},{lon:.5f}"
        mix.append(("GET", f"/v1/stores/nearest?near={near}&k=5", None))
        mix.append(("GET", f"/v1/stores/within?near={near}&radius=2km&limit=20", None))
        mix.append(("GET", f"/v1/stores/{feature['id']}", None))
        mix.append(("POST", "/v1/pickup", json.dumps({"near": near, "ready_in": "10m"})))
    return mix


class LoadClient(threading.Thread):
    """One keep-alive connection through HAProxy, looping over the read mix; counts every answer."""

    def __init__(self, port, mix, offset, clock):
        super().__init__(daemon=True)
        self.port, self.mix, self.offset, self.clock = port, mix, offset, clock
        self.stop_event = threading.Event()
        self.requests, self.statuses, self.failures = 0, {}, []
        self.stale = []  # (time, age header) of answers carrying X-Stores-State-Age

    def run(self):
        connection = Connection(self.port, timeout=10)
        i = self.offset
        while not self.stop_event.is_set():
            method, path, body = self.mix[i % len(self.mix)]
            i += 1
            started = self.clock.now()
            try:
                status, headers, _ = connection.request(method, path, body)
            except (OSError, http.client.HTTPException) as error:
                self.requests += 1
                self.failures.append((round(started, 2), f"{method} {path}", f"{type(error).__name__}: {error}"))
                continue
            self.requests += 1
            self.statuses[status] = self.statuses.get(status, 0) + 1
            if status != 200:
                self.failures.append((round(started, 2), f"{method} {path}", f"status {status}"))
            if "x-stores-state-age" in headers:
                self.stale.append((round(self.clock.now(), 2), headers["x-stores-state-age"]))
        connection.close()


class ReadyWatcher(threading.Thread):
    """`/readyz` of one replica, directly, every 200 ms: (time, status, state.storage, state.version)."""

    def __init__(self, replica, clock):
        super().__init__(daemon=True)
        self.replica, self.clock = replica, clock
        self.stop_event = threading.Event()
        self.answers, self.failures = [], []

    def run(self):
        while not self.stop_event.is_set():
            at = self.clock.now()
            try:
                status, body = self.replica.readyz(timeout=1.0)
                state = body.get("state") or {}
                self.answers.append((round(at, 2), status, state.get("storage"), state.get("version"),
                                     state.get("age_s")))
                if status != 200:
                    self.failures.append((round(at, 2), f"status {status}"))
            except (OSError, http.client.HTTPException, ValueError) as error:
                self.failures.append((round(at, 2), f"{type(error).__name__}: {error}"))
            self.stop_event.wait(0.2)


def outage(replicas, lb_port, postgres, mix, arguments, clock, problems):
    result = {}
    clients = [LoadClient(lb_port, mix, i * 7, clock) for i in range(arguments.connections)]
    watchers = [ReadyWatcher(replica, clock) for replica in replicas]
    for thread in clients + watchers:
        thread.start()
    load_started = clock.now()
    log(clock, f"load: {arguments.connections} clients through HAProxy (nearest, within, a store, pickup); "
               "/readyz of each replica every 200 ms")
    try:
        time.sleep(4.0)
        stop_started = clock.now()
        postgres.stop()
        stopped = clock.now()
        result["stop_s"] = round(stopped - stop_started, 2)
        log(clock, f"PostgreSQL stopped ({stopped - stop_started:.2f} s)")
        # PATCHes through HAProxy while it is down, one sent every second (each on a thread of its
        # own: a refused change takes up to the storage's 5 s), each sent early enough to be
        # answered before the restart.
        patches, senders = [], []
        restart_at = stopped + arguments.outage

        def send_patch(change, sent):
            try:
                status, body, seconds = patch_state(lb_port, change, timeout=12)
                problem_type = body.get("type", "") if isinstance(body, dict) else ""
            except (OSError, http.client.HTTPException) as error:
                status, problem_type, seconds = f"{type(error).__name__}: {error}", "", clock.now() - sent
            patches.append({"at_s": round(sent - stopped, 2), "status": status, "type": problem_type,
                            "seconds": round(seconds, 3)})

        i = 0
        while clock.now() + 6.5 < restart_at:
            change = {"ordering": "paused", "reason": "outage"} if i % 2 == 0 else {"ordering": "open"}
            i += 1
            sender = threading.Thread(target=send_patch, args=(change, clock.now()), daemon=True)
            sender.start()
            senders.append(sender)
            time.sleep(1.0)
        for sender in senders:
            sender.join(timeout=max(0.0, restart_at - clock.now()) + 1)
        patches.sort(key=lambda p: p["at_s"])
        for p in patches:
            log(clock, f"PATCH during the outage ({p['at_s']:.1f} s in): {p['status']} {p['type']} in {p['seconds']:.3f} s")
            if p["status"] != 503 or not p["type"].endswith("state-unavailable") or p["seconds"] > 6.0:
                problems.append(f"outage: PATCH {p['at_s']:.1f} s in answered {p['status']} {p['type']!r} "
                                f"in {p['seconds']:.2f} s (expected 503 state-unavailable within 6 s)")
        if len(patches) < len(senders):
            problems.append(f"outage: {len(senders) - len(patches)} PATCHes had no answer before the restart")
        result["patches_during_outage"] = patches
        time.sleep(max(0.0, restart_at - clock.now()))
        start_started = clock.now()
        postgres.start()
        started = clock.now()
        result["outage_s"] = round(started - stopped, 2)
        result["start_s"] = round(started - start_started, 2)
        log(clock, f"PostgreSQL started again ({started - start_started:.2f} s; down {started - stopped:.2f} s)")
        # A change through HAProxy, tried every 0.5 s until it is taken.
        attempts = []
        version = None
        while clock.now() - started < 20:
            try:
                status, body, seconds = patch_state(lb_port, {"ordering": "paused", "reason": "after the outage"},
                                                    timeout=12)
            except (OSError, http.client.HTTPException) as error:
                status, body, seconds = f"{type(error).__name__}", str(error), 0.0
            attempts.append(status)
            if status == 200:
                version = body["version"]
                break
            time.sleep(0.5)
        result["patch_attempts_after_start"] = attempts
        if version is None:
            raise Failure(f"no PATCH answered 200 within 20 s of PostgreSQL's start: {attempts}")
        taken = clock.now()
        result["patch_200_after_start_s"] = round(taken - started, 2)
        log(clock, f"PATCH through HAProxy answered 200 (version {version}) {taken - started:.2f} s after the start, "
                   f"attempts {attempts}")
        # Every replica at that version.
        reached = {}
        end = time.monotonic() + 10
        while len(reached) < len(replicas) and time.monotonic() < end:
            for replica in replicas:
                if replica.name in reached:
                    continue
                try:
                    status, body = replica.readyz(timeout=1.0)
                except (OSError, http.client.HTTPException, ValueError):
                    continue
                state = body.get("state") or {}
                if status == 200 and state.get("version") == version and state.get("storage") == "up":
                    reached[replica.name] = round(clock.now() - started, 2)
            time.sleep(0.05)
        result["version_after"] = version
        result["replicas_at_version_after_start_s"] = reached
        if len(reached) < len(replicas):
            problems.append(f"outage: not every replica reached version {version} with storage up within 10 s "
                            f"of the PATCH: {reached}")
        log(clock, f"every replica at version {version}: "
                   + ", ".join(f"{name} {seconds:.2f} s" for name, seconds in reached.items())
                   + " after PostgreSQL's start")
        # The rest of the load.
        time.sleep(max(2.0, arguments.load_seconds - (clock.now() - load_started)))
    finally:
        for thread in clients + watchers:
            thread.stop_event.set()
        for thread in clients + watchers:
            thread.join(timeout=15)
    result["load_s"] = round(clock.now() - load_started, 2)
    result["requests"] = sum(c.requests for c in clients)
    statuses = {}
    for c in clients:
        for status, n in c.statuses.items():
            statuses[str(status)] = statuses.get(str(status), 0) + n
    result["statuses"] = statuses
    failures = [f for c in clients for f in c.failures]
    result["failed"] = len(failures)
    result["failures"] = sorted(failures)[:10]
    if failures:
        problems.append(f"outage: {len(failures)} reads through HAProxy failed (non-200 or socket error), first: "
                        f"{sorted(failures)[:3]}")
    stale = sorted(s for c in clients for s in c.stale)
    stop_rel, start_rel = stopped - load_started, started - load_started
    result["stale_answers"] = len(stale)
    if stale:
        ages = [int(a) for _, a in stale if a.isdigit()]
        result["stale_first_after_stop_s"] = round(stale[0][0] - stopped, 2)
        result["stale_last_after_start_s"] = round(stale[-1][0] - started, 2)
        result["stale_max_age_s"] = max(ages) if ages else None
    else:
        problems.append("outage: no answer carried X-Stores-State-Age while PostgreSQL was down")
    # /readyz of each replica.
    readiness = {}
    for watcher in watchers:
        name = watcher.replica.name
        answers = watcher.answers
        down = [a for a in answers if a[2] == "down"]
        readiness[name] = {
            "answers": len(answers), "not_200": len(watcher.failures),
            "statuses": sorted({a[1] for a in answers}),
            "down_from_after_stop_s": round(down[0][0] - stopped, 2) if down else None,
            "down_until_after_start_s": round(down[-1][0] - started, 2) if down else None,
            "last_storage": answers[-1][2] if answers else None}
        if watcher.failures:
            problems.append(f"outage: {name} /readyz: {len(watcher.failures)} not 200: {watcher.failures[:3]}")
        if not down:
            problems.append(f"outage: {name} /readyz never said state.storage \"down\" during the outage")
        elif down[0][0] < stopped - 0.5:
            problems.append(f"outage: {name} /readyz said \"down\" before PostgreSQL was stopped")
        if not answers or answers[-1][2] != "up":
            problems.append(f"outage: {name} /readyz says state.storage {answers[-1][2] if answers else None!r} at the end")
    result["readyz"] = readiness
    result["load_relative"] = {"stop_s": round(stop_rel, 2), "start_s": round(start_rel, 2)}
    return result


# ---- the run -----------------------------------------------------------------------------------

def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", required=True, help="the stores-server executable")
    parser.add_argument("--config", default=str(ROOT / "docs" / "haproxy-state.cfg"),
                        help="HAProxy configuration (default docs/haproxy-state.cfg)")
    parser.add_argument("--data", default=str(ROOT / "Data" / "stores.geojson"), help="the data (default: the bundled stores)")
    parser.add_argument("--rounds", type=int, default=5, help="pause/resume rounds of the propagation check (default 5)")
    parser.add_argument("--max-delay", type=float, default=1.0, help="the longest a replica may take to show a change (default 1.0 s)")
    parser.add_argument("--connections", type=int, default=6, help="load clients through HAProxy during the outage (default 6)")
    parser.add_argument("--load-seconds", type=float, default=20.0, help="length of the load around the outage (default 20)")
    parser.add_argument("--outage", type=float, default=10.0, help="seconds PostgreSQL stays stopped (default 10)")
    parser.add_argument("--deadline", type=float, default=120.0, help="hard bound on the whole run, seconds (default 120)")
    parser.add_argument("--haproxy", default="haproxy")
    parser.add_argument("--json", help="write the report as JSON to this file")
    parser.add_argument("--keep", help="copy the logs (HAProxy's, the replicas', PostgreSQL's) to this directory")
    arguments = parser.parse_args()
    clock = Clock()

    def on_alarm(signum, frame):
        raise Failure(f"the run took longer than --deadline {arguments.deadline:.0f} s")

    def on_signal(signum, frame):
        raise Failure(f"stopped by signal {signum}")

    signal.signal(signal.SIGALRM, on_alarm)
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    signal.setitimer(signal.ITIMER_REAL, arguments.deadline)

    report = {"ok": False, "problems": []}
    problems = report["problems"]
    if shutil.which(arguments.haproxy) is None:
        print(f"state_behind_haproxy: {arguments.haproxy} not found (apt-get install haproxy)", file=sys.stderr)
        return 2
    if not list(pathlib.Path("/usr/lib/postgresql").glob("*/bin/initdb")):
        print("state_behind_haproxy: no PostgreSQL server in /usr/lib/postgresql/*/bin (apt-get install postgresql)",
              file=sys.stderr)
        return 2
    server = str(pathlib.Path(arguments.server).resolve())
    replicas, processes, open_files = [], [], []
    monitor = postgres = None
    work = pathlib.Path(tempfile.mkdtemp(prefix="state-behind-haproxy-"))
    try:
        postgres = Postgres()
        url = postgres.start()
        log(clock, f"PostgreSQL at {url} (cluster in {postgres.dir})")

        # Three replicas on the same data and the same database, started together.
        for number in (1, 2, 3):
            replicas.append(Replica(f"replica{number}", server, arguments.data, url, work))
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
        haproxy_log = open(work / "haproxy.log", "w")
        open_files.append(haproxy_log)
        haproxy = subprocess.Popen([arguments.haproxy, "-db", "-f", arguments.config], env=environment,
                                   stdout=haproxy_log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                   preexec_fn=die_with_parent)
        processes.append(haproxy)
        for _ in range(100):
            if socket_path.exists() or haproxy.poll() is not None:
                break
            time.sleep(0.05)
        if haproxy.poll() is not None:
            raise SetupError(f"haproxy exited {haproxy.returncode}: {(work / 'haproxy.log').read_text()[-2000:]}")
        monitor = Monitor(socket_path, clock)
        monitor.start()
        monitor.wait_all_up([r.name for r in replicas], 15)
        up_changes = len(monitor.changes)
        log(clock, f"HAProxy on 127.0.0.1:{lb_port}: all three replicas UP")

        log(clock, f"a. propagation: {arguments.rounds} changes of {STORE} through HAProxy, each replica polled directly")
        report["propagation"] = propagation(replicas, lb_port, arguments.rounds, arguments.max_delay, clock, problems)
        if arguments.rounds % 2 == 1:
            status, body, _ = patch_state(lb_port, {"ordering": "open"})
            if status != 200:
                raise Failure(f"PATCH open before the until check answered {status}: {body}")

        log(clock, "b. a pause with until 3 s ahead, then no request until it has passed")
        report["resume_at_until"] = resume_at_until(replicas, lb_port, clock, problems)

        log(clock, f"c. PostgreSQL stopped for {arguments.outage:.0f} s under load")
        report["outage"] = outage(replicas, lb_port, postgres, load_requests(arguments.data), arguments, clock,
                                  problems)

        # The same processes throughout.
        for replica in replicas:
            if replica.process.poll() is not None:
                problems.append(f"{replica.name} (pid {replica.pid}) exited {replica.process.returncode} during the run")
        changes = monitor.changes[up_changes:]
        report["haproxy_changes_after_up"] = changes
        if changes:
            problems.append(f"HAProxy saw replicas change state during the run: {changes}")
    except (Failure, SetupError, subprocess.TimeoutExpired, OSError, http.client.HTTPException, ValueError) as error:
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
        exits = {}
        for replica in replicas:
            if replica.process is not None and replica.process.poll() is None:
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
        if "pids" in report and any(status != 0 for status in exits.values()):
            problems.append(f"replicas did not all exit 0 on SIGTERM: {exits}")
        for file in open_files:
            file.close()
        if (work / "haproxy.log").exists():
            text = (work / "haproxy.log").read_text(errors="replace")
            report["patches_by_server"] = re.findall(r"replicas/(\S+) .*\"PATCH /v1/stores/", text)
        if arguments.keep:
            keep = pathlib.Path(arguments.keep)
            keep.mkdir(parents=True, exist_ok=True)
            for path in work.glob("*.log"):
                shutil.copy(path, keep / path.name)
            if postgres is not None and (postgres.dir / "postgres.log").exists():
                shutil.copy(postgres.dir / "postgres.log", keep / "postgres.log")
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
    print("\n== state_behind_haproxy report")
    rounds = report.get("propagation", [])
    delays = [r["delay_s"] for entry in rounds for r in entry["replicas"].values() if r]
    after = [r["after_answer_s"] for entry in rounds for r in entry["replicas"].values() if r]
    if delays:
        taken = {}
        for name in report.get("patches_by_server", [])[:len(rounds)]:
            taken[name] = taken.get(name, 0) + 1
        print(f"propagation: {len(rounds)} changes through HAProxy (taken by "
              f"{', '.join(f'{name} {n}' for name, n in sorted(taken.items()))}), "
              f"{len(delays)} replica delays from the PATCH sent to the replica's state and pickup both showing it: "
              f"max {max(delays):.3f} s, median {statistics.median(delays):.3f} s, min {min(delays):.3f} s; "
              f"PATCH round trips {', '.join(str(round(e['patch_s'] * 1000)) for e in rounds)} ms; counted from the "
              f"PATCH's answer instead: max {max(after):.3f} s, median {statistics.median(after):.3f} s")
    u = report.get("resume_at_until")
    if u:
        print(f"resume at until: paused until {u['until']} (version {u['version']}), {u['quiet_s']:.2f} s with no "
              "request; then " + "; ".join(
                  f"{name} ordering {e['ordering']} (version {e['state_version']}), pickup {e['pickup']} {e['assigned']}"
                  + (f" (closed at this hour: {e['passed_over'][0]['code']}; at {e['assigned_at_2000_utc']['now']} "
                     f"assigned {e['assigned_at_2000_utc']['assigned']})" if "assigned_at_2000_utc" in e else "")
                  for name, e in u["replicas"].items()))
    o = report.get("outage")
    if o:
        print(f"outage: PostgreSQL down {o.get('outage_s', '?')} s (stop {o.get('stop_s', '?')} s, start "
              f"{o.get('start_s', '?')} s) inside {o.get('load_s', '?')} s of load: {o.get('requests', 0)} reads through "
              f"HAProxy, statuses {o.get('statuses')}, {o.get('failed', '?')} not 200")
        if "stale_answers" in o:
            print(f"outage: {o['stale_answers']} answers carried X-Stores-State-Age"
                  + (f" (first {o['stale_first_after_stop_s']:.2f} s after the stop, last "
                     f"{o['stale_last_after_start_s']:.2f} s after the start, largest age {o['stale_max_age_s']} s)"
                     if o["stale_answers"] else ""))
        patches = o.get("patches_during_outage", [])
        if patches:
            print(f"outage: {len(patches)} PATCHes during it: "
                  + ", ".join(f"{p['status']} {p['type'].rsplit('/', 1)[-1]} in {p['seconds']:.2f} s" for p in patches))
        if "patch_200_after_start_s" in o:
            print(f"recovery: PATCH 200 {o['patch_200_after_start_s']:.2f} s after PostgreSQL's start (attempts "
                  f"{o['patch_attempts_after_start']}); every replica at version {o['version_after']}: "
                  + ", ".join(f"{k} {v:.2f} s" for k, v in o["replicas_at_version_after_start_s"].items()))
        for name, r in o.get("readyz", {}).items():
            down = (f"\"down\" from {r['down_from_after_stop_s']:.2f} s after the stop to "
                    f"{r['down_until_after_start_s']:.2f} s after the start" if r["down_from_after_stop_s"] is not None
                    else "never \"down\"")
            print(f"readyz {name}: {r['answers']} answers, statuses {r['statuses']}, {r['not_200']} not 200; "
                  f"state.storage {down}; \"{r['last_storage']}\" at the end")
    if "pids" in report:
        print(f"replicas: pids {report['pids']}, the same processes throughout; exits on SIGTERM "
              f"{report.get('replica_exits')}; HAProxy state changes after all UP: "
              f"{report.get('haproxy_changes_after_up', [])}")
    for problem in report["problems"]:
        print(f"PROBLEM: {problem}")
    print(f"state_behind_haproxy: {'passed' if report['ok'] else 'FAILED'} in {report.get('seconds', 0):.1f} s")


if __name__ == "__main__":
    sys.exit(main())
