#!/usr/bin/env python3
"""Two stores-server replicas behind HAProxy (docs/haproxy.cfg), a data roll and a restart of
each under load: no request may fail, no answer may mix two data versions.

What one run does, everything on 127.0.0.1 (free ports found by binding port 0):

1. Data: snapshot A of `--geojson` (default: the bundled Data/stores.geojson) and snapshot B of a
   copy whose every store name ends with " [B]" (so B has another data version, and every body
   says which data it came from); both made with `stores snapshot build` in a temporary
   directory, A copied to the path the replicas serve.
2. Two replicas, `stores-server --data SERVED --hostname 127.0.0.1 --port 0 --drain-delay D`,
   mapping the same snapshot file; HAProxy in the foreground (`haproxy -db`) with docs/haproxy.cfg
   unchanged, its addresses given by the environment variables the file reads; its log (one line
   per request and per health change) is kept and summarised. Both replicas must be UP in
   HAProxy's stats socket before the load starts.
3. Load through HAProxy for as long as the steps below take: `wrk` (1 thread, `--connections`)
   with a Lua script that sends, in turn, 3 `GET /v1/stores/nearest` and 1 `POST /v1/pickup` near
   stores of the data, and counts every answer's status and `X-Stores-Data-Version`; beside it
   one Python client on one keep-alive connection (http.client) sending the same kinds of request,
   which checks each answer's body: every store name in it ends with " [B]" or none does, and
   which one matches the version header (A's version unmarked, B's marked).
4. Roll: B is copied beside the served file and renamed over it; SIGHUP replica 1, wait until its
   /readyz names B's version; SIGHUP replica 2, the same. The roll time runs from the rename to
   the moment both serve B.
5. Restart, one replica after the other: SIGTERM, the replica must exit 0 (after --drain-delay);
   start it again on the same port; wait until HAProxy counts it UP. Times: SIGTERM to HAProxy's
   DOWN, to the exit, to the new process listening, to HAProxy's UP.
6. Stop the load a second later, stop everything, print the report (`--json FILE` keeps it).

Exits 1 when any request failed (a non-2xx status or a socket error or timeout in wrk, any error
in the Python client), when an answer mixed versions or its body did not match its version
header, when version B was never seen, when a replica did not exit 0 on SIGTERM, or when a step
did not finish in time; 2 on a setup error. Bounded: `--deadline` seconds for the whole run
(default 90, SIGALRM), every wait with its own timeout; every process it started is stopped in a
`finally` (and killed with it if the script dies: PR_SET_PDEATHSIG).

    python3 scripts/service/roll_behind_haproxy.py --server .build/debug/stores-server --stores .build/debug/stores
    python3 scripts/service/roll_behind_haproxy.py --server … --stores … --json /tmp/roll.json --keep /tmp/roll-logs

`--snapshots A B` serves two snapshots made beforehand instead (such as the 1M-store benchmark's
and a copy with its names marked " [B]"; query points are then uniform on the sphere); give
it a longer `--deadline`. `--config` and `--drain-delay` try other settings (docs/service.md,
"Behind HAProxy", has what a drain delay of 0 and a configuration without the retries did).

Needs haproxy and wrk (Debian: `apt-get install haproxy wrk`); Python 3 standard library only.
"""
import argparse
import csv
import ctypes
import http.client
import io
import json
import math
import os
import pathlib
import random
import re
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
MARK = " [B]"
STARTUP_TIMEOUT = 30.0


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


# ---- data --------------------------------------------------------------------------------------

def make_data(stores, geojson, work):
    """Snapshots A and B in `work`, and the query points (lat, lon) near stores of the data."""
    document = json.loads(geojson.read_text())
    points = []
    for feature in document["features"]:
        lon, lat = feature["geometry"]["coordinates"][:2]
        points.append((lat, lon))
        feature["properties"]["name"] = feature["properties"].get("name", feature.get("id", "?")) + MARK
    (work / "b.geojson").write_text(json.dumps(document))
    for name, source in (("a", geojson), ("b", work / "b.geojson")):
        result = subprocess.run([stores, "snapshot", "build", str(source), "-o", str(work / f"{name}.snap")],
                                capture_output=True, text=True, timeout=120)
        if result.returncode != 0:
            raise SetupError(f"stores snapshot build {source} failed ({result.returncode}): {result.stderr.strip()}")
    shutil.copyfile(work / "a.snap", work / "served.snap")
    return points


def given_data(snapshot_a, snapshot_b, work, count=1000, seed=4242):
    """Snapshots made beforehand (B's store names ending with " [B]", or the body check finds
    every answer unmarked); query points uniform on the sphere, as the benchmark's data is."""
    shutil.copyfile(snapshot_a, work / "a.snap")
    shutil.copyfile(snapshot_b, work / "b.snap")
    shutil.copyfile(work / "a.snap", work / "served.snap")
    rng = random.Random(seed)
    return [(math.degrees(math.asin(2 * rng.random() - 1)), rng.uniform(-180, 180)) for _ in range(count)]


def request_mix(points, count=200, seed=4242):
    """(method, path, body) triples: 3 nearest for every pickup, near stores (jittered ~1 km)."""
    rng = random.Random(seed)
    mix = []
    for i in range(count):
        lat, lon = rng.choice(points)
        lat = max(-89.9, min(89.9, lat + rng.uniform(-0.01, 0.01)))
        lon = max(-179.9, min(179.9, lon + rng.uniform(-0.01, 0.01)))
        if i % 4 == 3:
            body = json.dumps({"near": f"{lat:.5f},{lon:.5f}", "ready_in": "12m"})
            mix.append(("POST", "/v1/pickup", body))
        else:
            mix.append(("GET", f"/v1/stores/nearest?near={lat:.5f},{lon:.5f}&k=5", None))
    return mix


# ---- processes ---------------------------------------------------------------------------------

class Replica:
    def __init__(self, name, server, data, drain_delay, work):
        self.name, self.server, self.data, self.drain_delay, self.work = name, server, data, drain_delay, work
        self.process, self.port, self.starts = None, 0, 0

    def start(self, port=0):
        """Starts the process; returns (port, version) from its startup line."""
        self.starts += 1
        log_file = open(self.work / f"{self.name}.{self.starts}.log", "w")
        self.process = subprocess.Popen(
            [self.server, "--data", str(self.data), "--hostname", "127.0.0.1", "--port", str(port),
             "--drain-delay", str(self.drain_delay)],
            stdout=subprocess.PIPE, stderr=log_file, stdin=subprocess.DEVNULL, text=True,
            preexec_fn=die_with_parent)
        log_file.close()
        ready, _, _ = select.select([self.process.stdout], [], [], STARTUP_TIMEOUT)
        line = self.process.stdout.readline() if ready else ""
        match = re.search(r"\(version ([0-9a-f]{16}),.* on http://127\.0\.0\.1:(\d+)$", line.strip())
        if not match:
            raise Failure(f"{self.name}: no startup line within {STARTUP_TIMEOUT:.0f} s: {line!r} "
                          f"(exit {self.process.poll()}; log {self.work / f'{self.name}.{self.starts}.log'})")
        self.port = int(match.group(2))
        return self.port, match.group(1)

    def readyz(self):
        """(status, version or None) of GET /readyz, on a new connection."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=2)
        try:
            connection.request("GET", "/readyz")
            response = connection.getresponse()
            body = response.read()
            version = json.loads(body).get("version") if response.status == 200 else None
            return response.status, version
        finally:
            connection.close()

    def stop(self, timeout):
        """SIGTERM and wait; the exit status, or None when it had to be killed."""
        if self.process is None or self.process.poll() is not None:
            return None if self.process is None else self.process.returncode
        self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            return None


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
    """Polls HAProxy's stats every 50 ms: when each replica changes state, and when a counter of
    trouble moves (HAProxy does not log a request it closed without an answer, see below)."""

    COUNTERS = ("econ", "eresp", "srv_abrt", "wretr", "wredis")

    def __init__(self, socket_path, clock):
        super().__init__(daemon=True)
        self.socket_path, self.clock = socket_path, clock
        self.state, self.changes, self.stop_event = {}, [], threading.Event()
        self.counters, self.events = {}, []
        self.errors = 0

    def run(self):
        while not self.stop_event.is_set():
            try:
                for row in stats(self.socket_path):
                    if row["pxname"] == "replicas" and row["svname"].startswith("replica"):
                        server = row["svname"]
                        status = row["status"].split(" ")[0]
                        if self.state.get(server) != status:
                            self.state[server] = status
                            self.changes.append((self.clock.now(), server, row["status"]))
                        for name in self.COUNTERS:
                            value = int(row.get(name) or 0)
                            before = self.counters.get((server, name), 0)
                            if value != before:
                                self.counters[(server, name)] = value
                                self.events.append((round(self.clock.now(), 2), server, name, value - before))
            except OSError:
                self.errors += 1
            self.stop_event.wait(0.05)

    def wait_for(self, server, status, since, timeout):
        """The time of the first change of `server` to `status` after `since`."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            for at, name, full in self.changes:
                if name == server and full.split(" ")[0] == status and at >= since:
                    return at
            time.sleep(0.02)
        raise Failure(f"HAProxy did not see {server} {status} within {timeout:.0f} s (changes: {self.changes})")


# ---- load --------------------------------------------------------------------------------------

WRK_LUA = r"""
-- Generated by roll_behind_haproxy.py: the request mix, and counts of statuses and versions.
local spec = SPEC
local requests = {}
local counter = 0
statuses = {}
versions = {}
threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  for i, r in ipairs(spec) do
    if r[1] == "GET" then
      requests[i] = wrk.format("GET", r[2])
    else
      requests[i] = wrk.format("POST", r[2], {["Content-Type"] = "application/json"}, r[3])
    end
  end
end

function request()
  counter = counter + 1
  return requests[(counter - 1) % #requests + 1]
end

function response(status, headers, body)
  local key = tostring(status)
  statuses[key] = (statuses[key] or 0) + 1
  local version = "none"
  for name, value in pairs(headers) do
    if string.lower(name) == "x-stores-data-version" then version = value end
  end
  versions[version] = (versions[version] or 0) + 1
end

local function object(t)
  local parts = {}
  for k, v in pairs(t) do table.insert(parts, string.format("%q:%d", k, v)) end
  return "{" .. table.concat(parts, ",") .. "}"
end

function done(summary, latency, requests)
  local s, v = {}, {}
  for _, thread in ipairs(threads) do
    for k, n in pairs(thread:get("statuses")) do s[k] = (s[k] or 0) + n end
    for k, n in pairs(thread:get("versions")) do v[k] = (v[k] or 0) + n end
  end
  local e = summary.errors
  io.write(string.format(
    'WRK-JSON {"requests":%d,"duration_us":%d,"connect":%d,"read":%d,"write":%d,"status":%d,' ..
    '"timeout":%d,"p50_us":%d,"p99_us":%d,"max_us":%d,"statuses":%s,"versions":%s}\n',
    summary.requests, summary.duration, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(99), latency.max, object(s), object(v)))
end
"""


def wrk_script(mix):
    entries = []
    for method, path, body in mix:
        entries.append("{" + ", ".join(json.dumps(x) for x in ([method, path] + ([body] if body else []))) + "}")
    return "local SPEC = {\n  " + ",\n  ".join(entries) + "\n}\n" + WRK_LUA


def store_names(node, names):
    """Every store name in an answer: the `name` of each object that has an `id` and a `name`."""
    if isinstance(node, dict):
        if isinstance(node.get("id"), str) and isinstance(node.get("name"), str):
            names.append(node["name"])
        for value in node.values():
            store_names(value, names)
    elif isinstance(node, list):
        for value in node:
            store_names(value, names)
    return names


class Client(threading.Thread):
    """One keep-alive connection through HAProxy; checks that each body is from one version."""

    def __init__(self, port, mix, clock):
        super().__init__(daemon=True)
        self.port, self.mix, self.clock = port, mix, clock
        self.stop_event = threading.Event()
        self.requests, self.statuses, self.failures, self.mixed = 0, {}, [], []
        self.kinds = {}  # version -> set of "marked"/"unmarked" seen with it
        self.checked_names, self.connections = 0, 0
        self.last_success, self.longest_gap = None, (0.0, 0.0)

    def run(self):
        connection = None
        i = 0
        while not self.stop_event.is_set():
            method, path, body = self.mix[i % len(self.mix)]
            i += 1
            if connection is None:
                connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
                self.connections += 1
            started = self.clock.now()
            try:
                headers = {"Content-Type": "application/json"} if body else {}
                connection.request(method, path, body=body, headers=headers)
                response = connection.getresponse()
                payload = response.read()
                version = response.getheader("X-Stores-Data-Version")
                if response.getheader("Connection", "").lower() == "close":
                    connection.close()
                    connection = None
            except (OSError, http.client.HTTPException) as error:
                self.requests += 1
                self.failures.append((round(started, 3), f"{method} {path}", f"{type(error).__name__}: {error}"))
                if connection is not None:
                    connection.close()
                connection = None
                continue
            self.requests += 1
            self.statuses[response.status] = self.statuses.get(response.status, 0) + 1
            if response.status != 200:
                self.failures.append((round(started, 3), f"{method} {path}",
                                      f"status {response.status}: {payload[:300]!r}"))
                continue
            now = self.clock.now()
            if self.last_success is not None and now - self.last_success > self.longest_gap[0]:
                self.longest_gap = (now - self.last_success, self.last_success)
            self.last_success = now
            names = store_names(json.loads(payload), [])
            self.checked_names += len(names)
            marked = sum(name.endswith(MARK) for name in names)
            if 0 < marked < len(names):
                self.mixed.append((round(started, 3), f"{method} {path}", version, f"{marked} of {len(names)} names marked"))
            elif names:
                self.kinds.setdefault(version, set()).add("marked" if marked else "unmarked")
        if connection is not None:
            connection.close()


# ---- the run -----------------------------------------------------------------------------------

def haproxy_log_summary(text, load_stopped=None):
    """Counts from HAProxy's log: requests by status, retried, by server, unusual terminations.
    A request that ended when the load stopped (`load_stopped`, a Unix time) is counted apart: wrk
    closes its connections with requests in flight, which HAProxy logs as a client abort ("CD")."""
    pattern = re.compile(
        r'(?P<frontend>\S+) (?P<backend>[^/\s]+)/(?P<server>\S+) (?P<timers>\S+) (?P<status>-?\d+) (?P<bytes>\d+) '
        r'\S+ \S+ (?P<term>\S{4}) (?P<conns>\S+) (?P<queues>\S+) \{(?P<version>[^}]*)\} "(?P<request>[^"]*)"')
    summary = {"requests": 0, "statuses": {}, "servers": {}, "retried": 0, "terminations": {}, "unusual": [],
               "health": [], "versions": {}, "null_connections": 0, "aborted_at_stop": 0}
    for line in text.splitlines():
        match = pattern.search(line)
        if '"<BADREQ>"' in line and " CR-- " in line:
            # A connection closed before sending anything: wrk opens one when it starts, to check
            # the address, and closes it at once.
            summary["null_connections"] += 1
        elif match:
            summary["requests"] += 1
            status = match.group("status")
            summary["statuses"][status] = summary["statuses"].get(status, 0) + 1
            server = match.group("server")
            summary["servers"][server] = summary["servers"].get(server, 0) + 1
            version = match.group("version") or "none"
            summary["versions"][version] = summary["versions"].get(version, 0) + 1
            retries = match.group("conns").split("/")[-1]
            term = match.group("term")
            summary["terminations"][term] = summary["terminations"].get(term, 0) + 1
            if retries not in ("0",):
                summary["retried"] += 1
            if load_stopped is not None and term.startswith("C") and status.startswith("2"):
                accepted = re.search(r"\[(\d+/\w+/\d+:\d+:\d+:\d+)\.(\d+)\]", line)
                total_ms = match.group("timers").split("/")[-1]
                if accepted and total_ms.lstrip("-").isdigit():
                    started = time.mktime(time.strptime(accepted.group(1), "%d/%b/%Y:%H:%M:%S"))
                    ended = started + int(accepted.group(2)) / 1000 + int(total_ms) / 1000
                    if ended >= load_stopped - 0.2:
                        summary["aborted_at_stop"] += 1
                        continue
            if retries != "0" or term != "----" or not status.startswith("2"):
                summary["unusual"].append(line)
        elif not line.startswith("[") and ("Server replicas/" in line or "Health check" in line
                                           or "backend replicas" in line.lower()):
            # (HAProxy in the foreground prints each of these twice: a "[WARNING]" copy on stderr.)
            summary["health"].append(line)
    return summary


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", required=True, help="the stores-server executable")
    parser.add_argument("--stores", required=True, help="the stores executable (for `stores snapshot build`)")
    parser.add_argument("--config", default=str(ROOT / "docs" / "haproxy.cfg"), help="HAProxy configuration (default docs/haproxy.cfg)")
    parser.add_argument("--geojson", default=str(ROOT / "Data" / "stores.geojson"), help="data of version A (default: the bundled stores)")
    parser.add_argument("--snapshots", nargs=2, metavar=("A", "B"),
                        help="serve these snapshots instead of making them from --geojson (e.g. the 1M-store benchmark's)")
    parser.add_argument("--drain-delay", type=float, default=3.0, help="each replica's --drain-delay (default 3, as docs/haproxy.cfg says)")
    parser.add_argument("--connections", type=int, default=16, help="wrk's connections (default 16)")
    parser.add_argument("--settle", type=float, default=2.0, help="seconds of load before the roll, between the steps and after the last (default 2)")
    parser.add_argument("--deadline", type=float, default=90.0, help="hard bound on the whole run, seconds (default 90)")
    parser.add_argument("--haproxy", default="haproxy")
    parser.add_argument("--wrk", default="wrk")
    parser.add_argument("--json", help="write the report as JSON to this file")
    parser.add_argument("--keep", help="copy the logs (HAProxy's, the replicas') to this directory")
    arguments = parser.parse_args()
    clock = Clock()

    def on_alarm(signum, frame):
        raise Failure(f"the run took longer than --deadline {arguments.deadline:.0f} s")

    def on_term(signum, frame):
        raise Failure(f"stopped by signal {signum}")

    signal.signal(signal.SIGALRM, on_alarm)
    signal.signal(signal.SIGTERM, on_term)
    signal.setitimer(signal.ITIMER_REAL, arguments.deadline)

    for tool in (arguments.haproxy, arguments.wrk):
        if shutil.which(tool) is None:
            print(f"roll_behind_haproxy: {tool} not found (apt-get install haproxy wrk)", file=sys.stderr)
            return 2
    server = str(pathlib.Path(arguments.server).resolve())
    stores = str(pathlib.Path(arguments.stores).resolve())
    report = {"ok": False, "problems": []}
    problems = report["problems"]
    processes = []
    replicas = []
    monitor = client = load_stopped = None
    versions = {}
    open_files = []
    work = pathlib.Path(tempfile.mkdtemp(prefix="roll-behind-haproxy-"))
    try:
        if arguments.snapshots:
            points = given_data(*arguments.snapshots, work)
            log(clock, f"snapshots A {arguments.snapshots[0]} and B {arguments.snapshots[1]} copied to {work}")
        else:
            points = make_data(stores, pathlib.Path(arguments.geojson), work)
            log(clock, f"snapshots A and B of {arguments.geojson} ({len(points)} stores) in {work}")
        mix = request_mix(points)
        served = work / "served.snap"
        # B beside the served file, ready to be renamed over it (a copy of a large file is not
        # part of the roll time).
        shutil.copyfile(work / "b.snap", work / "served.snap.new")

        # Two replicas on the same file.
        for name in ("replica1", "replica2"):
            replica = Replica(name, server, served, arguments.drain_delay, work)
            replicas.append(replica)
            port, version = replica.start()
            versions.setdefault("A", version)
            if version != versions["A"]:
                raise Failure(f"the replicas serve different versions at start: {versions['A']}, {version}")
            log(clock, f"{name} on 127.0.0.1:{port}, version {version}")

        # HAProxy with docs/haproxy.cfg, the addresses in its environment.
        lb_port = free_port()
        socket_path = work / "haproxy.sock"
        environment = dict(os.environ, STORES_BIND=f"127.0.0.1:{lb_port}",
                           STORES_REPLICA1=f"127.0.0.1:{replicas[0].port}",
                           STORES_REPLICA2=f"127.0.0.1:{replicas[1].port}",
                           STORES_HAPROXY_SOCKET=str(socket_path))
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
        for replica in replicas:
            monitor.wait_for(replica.name, "UP", 0, 10)
        log(clock, f"HAProxy on 127.0.0.1:{lb_port}: both replicas UP")

        # The load: wrk and the checking client.
        (work / "load.lua").write_text(wrk_script(mix))
        wrk_out = open(work / "wrk.out", "w")
        open_files.append(wrk_out)
        wrk = subprocess.Popen(
            [arguments.wrk, "-t1", f"-c{arguments.connections}", f"-d{int(arguments.deadline)}s", "--timeout", "10s",
             "-s", str(work / "load.lua"), f"http://127.0.0.1:{lb_port}"],
            stdout=wrk_out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, preexec_fn=die_with_parent)
        processes.append(wrk)
        client = Client(lb_port, mix, clock)
        client.start()
        load_started = clock.now()
        log(clock, f"load: wrk -t1 -c{arguments.connections} and one checking client through HAProxy")
        time.sleep(arguments.settle)

        # Roll: B renamed over the served file, SIGHUP one replica after the other.
        renamed = clock.now()
        os.rename(work / "served.snap.new", served)
        log(clock, "B renamed over the served snapshot")
        roll = {"replicas": {}}
        for replica in replicas:
            replica.process.send_signal(signal.SIGHUP)
            log(clock, f"{replica.name}: SIGHUP")
            end = time.monotonic() + 30
            while True:
                try:
                    status, version = replica.readyz()
                except (OSError, http.client.HTTPException, ValueError) as error:
                    # A replica busy checking the new data may answer late (docs/service.md).
                    log(clock, f"{replica.name}: /readyz: {type(error).__name__}: {error}")
                    status, version = None, None
                if status == 200 and version != versions["A"]:
                    break
                if time.monotonic() > end:
                    raise Failure(f"{replica.name} did not serve a new version within 30 s of SIGHUP")
                time.sleep(0.01)
            versions.setdefault("B", version)
            if version != versions["B"]:
                raise Failure(f"the replicas took different versions: {versions['B']}, {version}")
            roll["replicas"][replica.name] = round(clock.now() - renamed, 3)
            log(clock, f"{replica.name} serves B ({version}) {clock.now() - renamed:.3f} s after the rename")
        roll["seconds"] = round(clock.now() - renamed, 3)
        report["roll"] = roll
        time.sleep(arguments.settle)

        # Restart: SIGTERM (drain), exit 0, start again on the same port, UP in HAProxy.
        restarts = {}
        for replica in replicas:
            port = replica.port
            signalled = clock.now()
            replica.process.send_signal(signal.SIGTERM)
            log(clock, f"{replica.name}: SIGTERM")
            down = monitor.wait_for(replica.name, "DOWN", signalled, arguments.drain_delay + 10)
            try:
                status = replica.process.wait(timeout=arguments.drain_delay + 20)
            except subprocess.TimeoutExpired:
                raise Failure(f"{replica.name} did not exit within {arguments.drain_delay + 20:.0f} s of SIGTERM")
            exited = clock.now()
            if status != 0:
                problems.append(f"{replica.name} exited {status} after SIGTERM (expected 0)")
            started = clock.now()
            new_port, version = replica.start(port)
            listening = clock.now()
            if new_port != port or version != versions["B"]:
                raise Failure(f"{replica.name} restarted on {new_port} with {version}")
            up = monitor.wait_for(replica.name, "UP", started, 15)
            restarts[replica.name] = {
                "exit_status": status, "down_after_sigterm_s": round(down - signalled, 3),
                "exit_after_sigterm_s": round(exited - signalled, 3),
                "listening_after_start_s": round(listening - started, 3),
                "up_after_start_s": round(up - started, 3), "out_of_rotation_s": round(up - down, 3)}
            log(clock, f"{replica.name}: HAProxy DOWN after {down - signalled:.2f} s; exit {status} after "
                       f"{exited - signalled:.2f} s; started again, listening after {listening - started:.2f} s, "
                       f"UP in HAProxy after {up - started:.2f} s")
            time.sleep(arguments.settle / 2)
        report["restarts"] = restarts
        time.sleep(arguments.settle / 2)

        # Stop the load: wrk prints its summary on SIGINT.
        load_stopped = time.time()
        wrk.send_signal(signal.SIGINT)
        client.stop_event.set()
        try:
            wrk.wait(timeout=15)
        except subprocess.TimeoutExpired:
            problems.append("wrk did not stop within 15 s of SIGINT")
        client.join(timeout=15)
        report["load_seconds"] = round(clock.now() - load_started, 2)
        # HAProxy's own counters: retries, redispatches, errors on the backend side.
        fields = ("stot", "wretr", "wredis", "econ", "eresp", "cli_abrt", "srv_abrt", "hrsp_2xx", "hrsp_4xx",
                  "hrsp_5xx", "chkfail", "chkdown", "downtime", "qmax")
        report["haproxy_stats"] = {
            row["svname"]: {k: int(row[k]) for k in fields if row.get(k, "").isdigit()}
            for row in stats(socket_path) if row["pxname"] == "replicas"}
        # Log lines HAProxy dropped (it drops rather than wait when its log output is busy), so the
        # log's counts can fall short of the stats'.
        info = dict(line.split(": ", 1) for line in ask(socket_path, "show info").splitlines() if ": " in line)
        report["haproxy_dropped_logs"] = int(info.get("DroppedLogs", "0") or 0)
        wrk_out.close()
        wrk_text = (work / "wrk.out").read_text()
        match = re.search(r"^WRK-JSON (.*)$", wrk_text, re.M)
        if not match:
            raise Failure(f"no summary from wrk:\n{wrk_text[-2000:]}")
        report["wrk"] = json.loads(match.group(1))
    except (Failure, SetupError, subprocess.TimeoutExpired, OSError, http.client.HTTPException, ValueError) as error:
        problems.append(f"{type(error).__name__}: {error}")
        if isinstance(error, SetupError):
            report["setup_error"] = True
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        if client is not None:
            client.stop_event.set()
            client.join(timeout=15)
        for replica in replicas:
            status = replica.stop(timeout=arguments.drain_delay + 20)
            if status != 0 and "restarts" in report:
                problems.append(f"{replica.name} exited {status} on the final SIGTERM")
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
        for file in open_files:
            file.close()
        if (work / "haproxy.log").exists():
            report["haproxy_log"] = haproxy_log_summary((work / "haproxy.log").read_text(errors="replace"),
                                                        load_stopped)
        if arguments.keep:
            keep = pathlib.Path(arguments.keep)
            keep.mkdir(parents=True, exist_ok=True)
            for path in work.glob("*"):
                if path.suffix in (".log", ".out", ".lua"):
                    shutil.copy(path, keep / path.name)
        shutil.rmtree(work, ignore_errors=True)

    # The verdict.
    report["versions"] = versions
    if client is not None:
        report["client"] = {
            "requests": client.requests, "statuses": {str(k): v for k, v in client.statuses.items()},
            "failures": client.failures[:20], "failure_count": len(client.failures), "mixed": client.mixed[:20],
            "names_checked": client.checked_names, "connections": client.connections,
            "kinds": {k: sorted(v) for k, v in client.kinds.items()},
            "longest_gap_s": round(client.longest_gap[0], 3), "longest_gap_at_s": round(client.longest_gap[1], 3)}
    if monitor is not None:
        report["health_changes"] = [(round(at, 3), name, status) for at, name, status in monitor.changes]
        # Consecutive polls of one counter merged: (first seen, server, counter, how many).
        merged = []
        for at, server, name, delta in monitor.events:
            if merged and merged[-1][1:3] == [server, name] and at - merged[-1][4] <= 0.2:
                merged[-1][3] += delta
                merged[-1][4] = at
            else:
                merged.append([at, server, name, delta, at])
        report["haproxy_events"] = [(at, server, name, delta) for at, server, name, delta, _ in merged]
    if "setup_error" not in report and "wrk" in report:
        w = report["wrk"]
        errors = w["connect"] + w["read"] + w["write"] + w["timeout"]
        non_2xx = sum(n for status, n in w["statuses"].items() if not status.startswith("2"))
        if errors or non_2xx:
            problems.append(f"wrk: {non_2xx} non-2xx answers {w['statuses']}, socket errors connect {w['connect']}, "
                            f"read {w['read']}, write {w['write']}, timeout {w['timeout']}")
        a, b = report["versions"].get("A"), report["versions"].get("B")
        unknown = {v: n for v, n in w["versions"].items() if v not in (a, b)}
        if unknown:
            problems.append(f"wrk: answers with an unknown or missing version: {unknown}")
        if not w["versions"].get(b):
            problems.append("wrk: version B was never seen")
        c = report["client"]
        if c["failure_count"]:
            problems.append(f"client: {c['failure_count']} failed requests, first: {c['failures'][:3]}")
        if c["mixed"]:
            problems.append(f"client: {len(c['mixed'])} answers mixed versions: {c['mixed'][:3]}")
        expected = {a: ["unmarked"], b: ["marked"]}
        for version, kinds in c["kinds"].items():
            if expected.get(version) != kinds:
                problems.append(f"client: bodies with version {version} were {kinds} (expected {expected.get(version)})")
        if b not in c["kinds"]:
            problems.append("client: version B was never seen")
    report["ok"] = not problems
    report["seconds"] = round(clock.now(), 2)
    print_report(report)
    if arguments.json:
        pathlib.Path(arguments.json).write_text(json.dumps(report, indent=2, default=list) + "\n")
    if "setup_error" in report:
        return 2
    return 0 if report["ok"] else 1


def print_report(report):
    print("\n== roll_behind_haproxy report")
    versions = report.get("versions", {})
    if versions:
        print(f"versions: A {versions.get('A')}, B {versions.get('B')}")
    w = report.get("wrk")
    if w:
        print(f"wrk: {w['requests']} requests in {w['duration_us'] / 1e6:.1f} s ({w['requests'] / (w['duration_us'] / 1e6):.0f}/s), "
              f"statuses {w['statuses']}, versions {w['versions']}, socket errors connect {w['connect']} read {w['read']} "
              f"write {w['write']} timeout {w['timeout']}; latency p50 {w['p50_us'] / 1000:.1f} ms, "
              f"p99 {w['p99_us'] / 1000:.1f} ms, max {w['max_us'] / 1000:.1f} ms")
    c = report.get("client")
    if c:
        print(f"client: {c['requests']} requests on {c['connections']} connection(s), statuses {c['statuses']}, "
              f"{c['failure_count']} failed, {len(c['mixed'])} mixed, {c['names_checked']} store names checked, "
              f"versions {c['kinds']}; longest time between two answers {c['longest_gap_s']:.3f} s "
              f"(at {c['longest_gap_at_s']:.1f} s)")
    if "roll" in report:
        r = report["roll"]
        print(f"roll: both replicas serve B {r['seconds']:.3f} s after the rename "
              f"({', '.join(f'{k} {v:.3f} s' for k, v in r['replicas'].items())})")
    for name, r in report.get("restarts", {}).items():
        print(f"restart {name}: exit {r['exit_status']}; after SIGTERM: DOWN in HAProxy {r['down_after_sigterm_s']:.2f} s, "
              f"exited {r['exit_after_sigterm_s']:.2f} s; after the new start: listening {r['listening_after_start_s']:.2f} s, "
              f"UP in HAProxy {r['up_after_start_s']:.2f} s; out of rotation {r['out_of_rotation_s']:.2f} s")
    events = report.get("haproxy_events", [])
    if events:
        print("haproxy counters moving (time, replica, counter, by): "
              + "; ".join(f"{at:.2f}s {server} {name} +{delta}" for at, server, name, delta in events[:30]))
    for name, counters in report.get("haproxy_stats", {}).items():
        print(f"haproxy stats {name}: " + ", ".join(f"{k} {v}" for k, v in counters.items()))
    h = report.get("haproxy_log")
    if "haproxy_dropped_logs" in report:
        print(f"haproxy dropped log lines: {report['haproxy_dropped_logs']}")
    if h:
        print(f"haproxy log: {h['requests']} requests, statuses {h['statuses']}, by server {h['servers']}, "
              f"retried {h['retried']}, termination states {h['terminations']}; connections closed before "
              f"any request {h['null_connections']} (wrk opens one at start); ended by the client when the load stopped "
              f"{h['aborted_at_stop']}")
        for line in h["health"][:20]:
            print(f"  {line}")
        for line in h["unusual"][:20]:
            print(f"  unusual: {line}")
    for problem in report["problems"]:
        print(f"PROBLEM: {problem}")
    print(f"roll_behind_haproxy: {'passed' if report['ok'] else 'FAILED'} in {report.get('seconds', 0):.1f} s")


if __name__ == "__main__":
    sys.exit(main())
