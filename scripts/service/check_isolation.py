#!/usr/bin/env python3
"""Checks that stores-server answers its probes while the heaviest legal requests run.

Starts `stores-server --port 0 --hostname 127.0.0.1` on `--data` (by default a generated file of
`--stores` random stores, written to a temporary directory), has `--clients` threads loop the
heaviest legal request (a 256 x 256 `clusters` over the whole world with `open_at` and
`open_for`, which evaluates every store's hours) on kept-alive connections, and meanwhile asks
`/healthz` and `/readyz` every `--probe-interval` seconds, each on a new connection with a 2 s
timeout, as a Kubernetes probe does. Then stops the server with SIGTERM and expects exit 0.

Prints, per probe route, how many answered and the p50, p99 and largest latency, and for the
heavy requests how many were answered 200, refused 503 `overloaded` or timed out 503 `timeout`.

    python3 scripts/service/check_isolation.py --server .build/release/stores-server \\
        --data /tmp/stores-benchmarks-1000000-42.snap --clients 8 --seconds 30

Fails (exit 1) when a probe was not answered 200, took longer than `--max-probe-seconds`
(default 1 s: Kubernetes' default probe timeout), when the probes' p99 is over `--p99-limit`, or
when the server did not exit 0. Bounded: `--seconds` of load (default 20), 60 s for a heavy
request past the server's `--request-timeout` (default 10 s), 120 s for the startup; loopback only.
"""
import argparse
import http.client
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time

HEAVY = (
    "/v1/stores/clusters?bbox=-180,-90,180,90&columns=256&rows=256"
    "&open_at=2026-11-27T09:00&open_for=1h"
)
STARTUP_SECONDS = 120


def generated_stores(count, directory):
    """A GeoJSON file of `count` stores spread over the land-ish latitudes, with hours."""
    path = os.path.join(directory, f"stores-{count}.geojson")
    rng = random.Random(42)
    hours = ["Mo-Fr 07:00-19:00; Sa 08:00-14:00", "24/7", "Mo-Su 06:30-22:00; PH off", "Mo-Sa 09:00-18:00"]
    zones = ["Europe/Berlin", "America/New_York", "Asia/Tokyo", "Australia/Sydney", "America/Los_Angeles"]
    with open(path, "w") as out:
        out.write('{"type": "FeatureCollection", "features": [\n')
        for index in range(count):
            feature = {
                "type": "Feature",
                "id": f"g-{index}",
                "geometry": {"type": "Point", "coordinates": [rng.uniform(-180, 180), rng.uniform(-60, 70)]},
                "properties": {
                    "name": f"Store {index}",
                    "opening_hours": hours[index % len(hours)],
                    "timezone": zones[index % len(zones)],
                },
            }
            out.write(("," if index else "") + json.dumps(feature) + "\n")
        out.write("]}\n")
    return path


def start_server(server, data, timeout, queue):
    process = subprocess.Popen(
        [server, "--data", data, "--hostname", "127.0.0.1", "--port", "0", "--request-timeout", str(timeout),
         "--log-level", "warning"] + (["--max-queued-queries", str(queue)] if queue is not None else []),
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    deadline = time.monotonic() + STARTUP_SECONDS
    line = process.stdout.readline()
    if not line.startswith("stores-server: serving") or time.monotonic() > deadline:
        process.kill()
        sys.exit(f"the server did not start: {line!r}")
    return process, int(line.rsplit(":", 1)[1])


def percentile(values, fraction):
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--server", required=True)
    parser.add_argument("--data", help="a GeoJSON file or snapshot (default: --stores generated stores)")
    parser.add_argument("--stores", type=int, default=50_000)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--probe-interval", type=float, default=0.05)
    parser.add_argument("--max-probe-seconds", type=float, default=1.0)
    parser.add_argument("--p99-limit", type=float, default=0.1)
    parser.add_argument("--request-timeout", type=float, default=10, help="the server's --request-timeout")
    parser.add_argument("--max-queued-queries", type=int, help="the server's --max-queued-queries (default: its own)")
    parser.add_argument("--json", help="write the figures here too")
    arguments = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="stores-isolation-") as directory:
        data = arguments.data or generated_stores(arguments.stores, directory)
        process, port = start_server(arguments.server, data, arguments.request_timeout, arguments.max_queued_queries)
        stop = threading.Event()
        heavy = {"200": 0, "overloaded": 0, "timeout": 0, "other": 0, "errors": 0, "seconds": []}
        probes = {"/healthz": [], "/readyz": []}
        failures = []
        lock = threading.Lock()

        def load():
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=arguments.request_timeout + 5)
            while not stop.is_set():
                start = time.monotonic()
                try:
                    connection.request("GET", HEAVY)
                    response = connection.getresponse()
                    body = response.read()
                except (OSError, http.client.HTTPException):
                    with lock:
                        heavy["errors"] += 1
                    connection.close()
                    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=arguments.request_timeout + 5)
                    continue
                kind = "200" if response.status == 200 else "other"
                if response.status == 503:
                    kind = "overloaded" if b"overloaded" in body else "timeout" if b"timeout" in body else "other"
                with lock:
                    heavy[kind] += 1
                    if kind == "200":
                        heavy["seconds"].append(time.monotonic() - start)
                if kind == "overloaded":
                    time.sleep(float(response.getheader("Retry-After", "1")))
            connection.close()

        def probe(path):
            while not stop.is_set():
                start = time.monotonic()
                try:
                    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
                    connection.request("GET", path)
                    status = connection.getresponse().status
                    connection.close()
                except (OSError, http.client.HTTPException) as error:
                    status = f"{type(error).__name__}"
                elapsed = time.monotonic() - start
                with lock:
                    probes[path].append(elapsed)
                    if status != 200 or elapsed > arguments.max_probe_seconds:
                        failures.append(f"{path}: {status} after {elapsed:.3f} s")
                time.sleep(arguments.probe_interval)

        threads = [threading.Thread(target=load) for _ in range(arguments.clients)]
        threads += [threading.Thread(target=probe, args=(path,)) for path in probes]
        for thread in threads:
            thread.start()
        time.sleep(arguments.seconds)
        stop.set()
        for thread in threads:
            thread.join(timeout=arguments.request_timeout + 10)
        process.send_signal(signal.SIGTERM)
        try:
            status = process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()
            status = "hung"

    figures = {
        "clients": arguments.clients, "seconds": arguments.seconds, "data": data,
        "heavy": {key: value for key, value in heavy.items() if key != "seconds"},
        "heavy_p50_seconds": percentile(heavy["seconds"], 0.5),
        "probes": {
            path: {"count": len(values), "p50": percentile(values, 0.5), "p99": percentile(values, 0.99),
                   "max": max(values, default=float("nan"))}
            for path, values in probes.items()
        },
        "exit_status": status,
    }
    for path, row in figures["probes"].items():
        print(f"{path}: {row['count']} answered, p50 {row['p50'] * 1000:.1f} ms, "
              f"p99 {row['p99'] * 1000:.1f} ms, max {row['max'] * 1000:.1f} ms")
    print(f"heavy clusters requests ({arguments.clients} clients, {arguments.seconds:.0f} s): "
          f"{heavy['200']} answered 200 (p50 {figures['heavy_p50_seconds']:.2f} s), "
          f"{heavy['overloaded']} refused 503 overloaded, {heavy['timeout']} 503 timeout, "
          f"{heavy['other']} other, {heavy['errors']} connection errors; server exit {status}")
    if arguments.json:
        with open(arguments.json, "w") as out:
            json.dump(figures, out, indent=2)
    problems = list(failures[:10])
    for path, row in figures["probes"].items():
        if not row["count"]:
            problems.append(f"{path}: never answered")
        elif row["p99"] > arguments.p99_limit:
            problems.append(f"{path}: p99 {row['p99'] * 1000:.1f} ms over {arguments.p99_limit * 1000:.0f} ms")
    if heavy["200"] == 0:
        problems.append("no heavy request was answered: the load did not run")
    if status != 0:
        problems.append(f"the server exited {status}, not 0")
    if problems:
        print("FAILED:\n  " + "\n  ".join(problems))
        return 1
    print("isolation check passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
