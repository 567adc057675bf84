#!/usr/bin/env python3
"""What reading the stores' state costs the service (issue 32): two `stores-server` processes on the
same snapshot, A with the state empty and B with a state on some stores, under the same wrk load,
alternated so that the machine's noise falls on both.

From the repository root (standard library only; reuses service_benchmark.py's data files, its
wrk script and its helpers):

    python3 Benchmarks/scripts/state_cost.py                  # 1,000,000 stores, 3 rounds of 15 s
    python3 Benchmarks/scripts/state_cost.py --smoke          # 2,000 stores, 1 round of 2 s

What one run does (every server on 127.0.0.1 only; everything it starts is stopped on exit, also
on an error or Ctrl-C):

1. Builds `stores` and `stores-server` in the repository root and `stores-benchmarks` in
   Benchmarks/ (`swift build -c release --product ...`; --no-build skips, --server names another
   stores-server binary).
2. Data in --work-dir (default /tmp): the same GeoJSON file and snapshot as service_benchmark.py
   (`stores-benchmarks generate --points N --seed 42`, `stores snapshot build`), made unless
   present.
3. Starts two servers, `stores-server --data SNAP --state memory` on free ports with a random
   STORES_ADMIN_TOKEN: A (no state: answers take the catalog as it is) and B. B gets a state on
   --state-stores stores (default 1,000) picked at random with --state-seed, through
   `PATCH /v1/stores/{id}/state`: a third paused ("ordering": "paused", with a reason, until
   resumed), a third closed from yesterday until the day after tomorrow (a closure around now),
   a third with a special day (07:00-14:00, with a reason) on a day of the coming week.
4. Checks that the state is what B answers with and A is not: the state version in
   `X-Stores-State-Version` (N on B, 0 on A), a paused store's `"ordering": "paused"` in B's
   `nearest` at its own position (`"open"` on A), B's pickup there passing it over as
   `ordering-paused` and a closed store as `temporarily-closed`.
5. Warms both up (--warmup seconds of wrk per route and server, not counted), then --rounds
   rounds; each round runs wrk (1 thread, 64 connections, --duration seconds, --latency, the
   query points of scripts/service_wrk.lua) on `GET /v1/stores/nearest?near=..&k=10` against A
   then B, then on `POST /v1/pickup` against A then B; the next round B first, then A (--order
   abba, so that a load rising or falling during a round favours neither). Only one server is
   under load at a time; both stay up throughout.
6. One table: per route, req/s and p50/p99 of A and B (median over the rounds), B ÷ A per round
   and its median, against the target of issue 32 (reading the state costs at most 5% of the
   throughput: B ÷ A ≥ 0.95); reported, not enforced. --json FILE keeps every figure, the load
   average before and after each wrk run included. Beside the throughput, the server's CPU time
   (user + system, all threads, from /proc/PID/stat) divided by the requests it answered in the
   run: the machine's other load moves req/s a lot more than the work done per answer, so this
   is the steadier figure on a shared machine.

Exit status: 0 when every wrk run answered only 2xx with no socket errors and the state checks
passed (the 5% target is reported, not enforced); 1 when a run answered an error, a check failed
or a server did not become ready; 2 on a usage or setup error.
"""
import argparse
import datetime
import http.client
import json
import os
import random
import secrets
import signal
import statistics
import subprocess
import sys
import time

import service_benchmark as sb

HOST = sb.HOST
TARGET_RATIO = 0.95   # issue 32: reading the state costs <= 5% of nearest and pickup throughput
ROUTES = (("nearest", "GET /v1/stores/nearest k=10"), ("pickup", "POST /v1/pickup"))
REASON = "state_cost.py"


def log(message):
    sb.log(message)


class Failure(sb.Failure):
    pass


# --- setup -------------------------------------------------------------------------------------

def build(args):
    """The three binaries this run needs; builds them unless --no-build."""
    root_bin, bench_bin = sb.bin_path(sb.ROOT), sb.bin_path(sb.BENCHMARKS)
    if not args.no_build:
        products = ["stores"] + ([] if args.server else ["stores-server"])
        for product in products:
            sb.run(["swift", "build", "-c", "release", "--product", product], cwd=sb.ROOT, timeout=3600)
        sb.run(["swift", "build", "-c", "release", "--product", "stores-benchmarks"], cwd=sb.BENCHMARKS,
               timeout=3600)
    binaries = {
        "stores": args.stores_bin or os.path.join(root_bin, "stores"),
        "server": args.server or os.path.join(root_bin, "stores-server"),
        "benchmarks": args.benchmarks_bin or os.path.join(bench_bin, "stores-benchmarks"),
    }
    for name, path in binaries.items():
        if not os.path.exists(path):
            # Without the GeoJSON or snapshot, stores and stores-benchmarks make them; with both
            # present only the server is needed.
            if name == "server" or not args.data_present:
                raise Failure(f"missing {path} (build it, or name it with --{'server' if name == 'server' else name + '-bin'})")
    return binaries


def data_present(args):
    geojson = os.path.join(args.work_dir, f"stores-benchmarks-{args.stores}-{args.seed}.geojson")
    snapshot = geojson[: -len(".geojson")] + ".snap"
    return os.path.exists(snapshot) and os.path.exists(geojson) and \
        os.path.getmtime(snapshot) >= os.path.getmtime(geojson)


# --- HTTP --------------------------------------------------------------------------------------

class Client:
    """One keep-alive connection to a server."""

    def __init__(self, port, token=None):
        self.port = port
        self.token = token
        self.connection = http.client.HTTPConnection(HOST, port, timeout=30)

    def request(self, method, path, body=None, admin=False):
        headers = {"Connection": "keep-alive"}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        if admin:
            headers["Authorization"] = f"Bearer {self.token}"
        for attempt in (1, 2):
            try:
                self.connection.request(method, path, body=data, headers=headers)
                response = self.connection.getresponse()
                raw = response.read()
                break
            except (http.client.HTTPException, ConnectionError):
                # The server may close an idle keep-alive connection: reconnect once.
                self.connection.close()
                self.connection = http.client.HTTPConnection(HOST, self.port, timeout=30)
                if attempt == 2:
                    raise
        try:
            document = json.loads(raw) if raw else None
        except ValueError:
            document = raw.decode(errors="replace")
        return response.status, dict((k.lower(), v) for k, v in response.getheaders()), document

    def close(self):
        self.connection.close()


def expect(status, document, what, wanted=200):
    if status != wanted:
        raise Failure(f"{what}: status {status}, expected {wanted}: {str(document)[:400]}")


# --- the state ---------------------------------------------------------------------------------

def store_id(number):
    """The id `stores-benchmarks generate` gives its store number (1-based)."""
    return f"mc-{number:07d}"


def state_changes(args, today):
    """(id, PATCH body) for every store B's state names, in the order they are applied."""
    rng = random.Random(args.state_seed)
    numbers = rng.sample(range(1, args.stores + 1), args.state_stores)
    changes = []
    for i, number in enumerate(numbers):
        kind = i % 3
        if kind == 0:
            body = {"ordering": "paused", "reason": f"{REASON}: paused"}
        elif kind == 1:
            # Dates are whole days in the store's zone: yesterday 00:00 to the day after tomorrow
            # 00:00 holds the current instant in every zone (UTC-12 to UTC+14).
            body = {"closures": [{"from": (today - datetime.timedelta(days=1)).isoformat(),
                                  "until": (today + datetime.timedelta(days=2)).isoformat(),
                                  "reason": f"{REASON}: closure"}]}
        else:
            day = today + datetime.timedelta(days=rng.randrange(7))
            body = {"special_days": [{"date": day.isoformat(), "hours": "07:00-14:00",
                                      "reason": f"{REASON}: special day"}]}
        changes.append((store_id(number), ("paused", "closure", "special_day")[kind], body))
    return changes


def apply_state(port, token, changes):
    """PATCHes every change into the server; returns the state version it ends at and the seconds."""
    client = Client(port, token)
    start = time.perf_counter()
    version = None
    for n, (id, _, body) in enumerate(changes, 1):
        status, headers, document = client.request("PATCH", f"/v1/stores/{id}/state", body, admin=True)
        expect(status, document, f"PATCH /v1/stores/{id}/state {json.dumps(body)}")
        version = document.get("version")
        if n % 250 == 0 or n == len(changes):
            log(f"state: {n} of {len(changes)} stores changed (version {version})")
    seconds = time.perf_counter() - start
    status, _, document = client.request("GET", "/v1/stores/state?changed_since=0")
    expect(status, document, "GET /v1/stores/state")
    client.close()
    listed = len(document.get("stores", []))
    if listed != len(changes):
        raise Failure(f"the server lists {listed} stores with a state, {len(changes)} were changed")
    return document.get("version"), seconds


def coordinate(document):
    """(latitude, longitude) of a store document (a GeoJSON Feature or a flat object)."""
    geometry = document.get("geometry") if isinstance(document, dict) else None
    if geometry and geometry.get("coordinates"):
        lon, lat = geometry["coordinates"][:2]
        return lat, lon
    for key in ("location", "position", "coordinate"):
        value = document.get(key)
        if isinstance(value, dict) and "latitude" in value:
            return value["latitude"], value["longitude"]
        if isinstance(value, list) and len(value) >= 2:
            return value[1], value[0]
    if "latitude" in document:
        return document["latitude"], document["longitude"]
    raise Failure(f"no coordinate in {json.dumps(document)[:300]}")


def first_store(document):
    """The first store of a nearest answer, as a flat dict (properties merged in)."""
    items = None
    if isinstance(document, dict):
        for key in ("stores", "features", "results", "matches"):
            if isinstance(document.get(key), list):
                items = document[key]
                break
    if not items:
        raise Failure(f"no stores in the nearest answer: {json.dumps(document)[:300]}")
    item = dict(items[0])
    if isinstance(item.get("properties"), dict):
        item = {**item["properties"], **item}
    return item


def check_state(port_a, port_b, changes, version):
    """That B answers with the state and A without: the version header, a paused store's ordering
    in nearest, pickup's reasons. Returns what was seen (for the JSON); raises Failure if not."""
    a, b = Client(port_a), Client(port_b)
    seen = {}
    try:
        for name, client, wanted in (("A", a, "0"), ("B", b, str(version))):
            status, headers, document = client.request("GET", "/v1/stores/nearest?near=0,0&k=10")
            expect(status, document, f"{name}: GET nearest")
            got = headers.get("x-stores-state-version")
            seen[f"{name}.state_version"] = got
            if got != wanted:
                raise Failure(f"{name} answers with state version {got}, expected {wanted}")
        for kind, reason in (("paused", "ordering-paused"), ("closure", "temporarily-closed")):
            id = next(id for id, k, _ in changes if k == kind)
            status, _, document = b.request("GET", f"/v1/stores/{id}")
            expect(status, document, f"B: GET /v1/stores/{id}")
            lat, lon = coordinate(document if "geometry" in document else document.get("store", document))
            near = f"{lat!r},{lon!r}"
            for name, client in (("A", a), ("B", b)):
                status, _, document = client.request("GET", f"/v1/stores/nearest?near={near}&k=10")
                expect(status, document, f"{name}: GET nearest near {id}")
                first = first_store(document)
                if first.get("id") != id:
                    raise Failure(f"{name}: the store nearest {id}'s own position is {first.get('id')}")
                seen[f"{name}.{kind}.nearest"] = {k: first.get(k) for k in
                                                  ("id", "ordering", "ordering_note", "open_now", "status_text")}
                if kind == "paused":
                    wanted = "paused" if name == "B" else "open"
                    if first.get("ordering") != wanted:
                        raise Failure(f"{name}: nearest gives {id} \"ordering\": {first.get('ordering')!r}, "
                                      f"expected {wanted!r}")
                status, _, document = client.request("POST", "/v1/pickup", {"near": near, "ready_in": "12m"})
                expect(status, document, f"{name}: POST /v1/pickup near {id}")
                passed = [p for p in document.get("passed_over", []) if p.get("store_id") == id]
                codes = [p.get("code", p.get("reason")) for p in passed]
                assigned = (document.get("store") or {}).get("id")
                seen[f"{name}.{kind}.pickup"] = {"passed_over": passed, "assigned": assigned,
                                                 "status": document.get("status")}
                if name == "B" and reason not in codes:
                    raise Failure(f"B: pickup at {id}'s position does not pass it over as {reason} "
                                  f"(passed over: {passed}; assigned {assigned})")
                if name == "A" and reason in codes:
                    raise Failure(f"A: pickup passes {id} over as {reason}, but A has no state")
                if name == "B" and assigned == id:
                    raise Failure(f"B: pickup assigned {id}, whose state forbids it")
            log(f"check: {kind} store {id}: B {seen[f'B.{kind}.nearest']}, pickup passes it over "
                f"as {reason}; A {seen[f'A.{kind}.nearest']}")
    finally:
        a.close()
        b.close()
    return seen


# --- the rounds --------------------------------------------------------------------------------

def cpu_seconds(pid):
    """User + system CPU time of process `pid` (all its threads) so far, in seconds."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    # Fields 14 and 15 of proc(5) (utime, stime), counted from after the command name.
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def measure(args, port, pid, route, label):
    load_before = os.getloadavg()[0]
    cpu_before = cpu_seconds(pid)
    r = sb.wrk(args, port, route)
    cpu = cpu_seconds(pid) - cpu_before
    load_after = os.getloadavg()[0]
    errors = r["non_2xx"] + r["socket_errors"]
    figure = {"server": label, "route": route, "rps": r["rps"], "requests": r["requests"],
              "p50_ms": r["p50_us"] / 1000, "p90_ms": r["p90_us"] / 1000, "p99_ms": r["p99_us"] / 1000,
              "p999_ms": r["p999_us"] / 1000, "mean_ms": r["latency_mean_us"] / 1000,
              "max_ms": r["latency_max_us"] / 1000, "errors": errors, "non_2xx": r["non_2xx"],
              "socket_errors": r["socket_errors"], "bytes_per_response": r["bytes"] / max(1, r["requests"]),
              "load1_before": load_before, "load1_after": load_after,
              "server_cpu_s": cpu, "server_cpu_us_per_request": cpu * 1e6 / max(1, r["requests"])}
    if r["counted"]:
        figure["none_share"] = r["count_none"] / max(1, r["requests"])
    log(f"{route} {label}: {r['rps']:,.0f} req/s, p50 {figure['p50_ms']:.2f} ms, p99 {figure['p99_ms']:.2f} ms, "
        f"server CPU {figure['server_cpu_us_per_request']:.0f} µs a request, {errors} errors, "
        f"load {load_before:.2f} → {load_after:.2f}")
    return figure


def summarize(runs, rounds):
    summary = {}
    for route, _ in ROUTES:
        per = {label: [r for r in runs if r["route"] == route and r["server"] == label] for label in "AB"}
        ratios = [b["rps"] / a["rps"] for a, b in zip(per["A"], per["B"]) if a["rps"]]
        cpu_ratios = [b["server_cpu_us_per_request"] / a["server_cpu_us_per_request"]
                      for a, b in zip(per["A"], per["B"]) if a["server_cpu_us_per_request"]]
        s = {"ratios": ratios, "ratio_median": statistics.median(ratios) if ratios else None,
             "cpu_ratios": cpu_ratios, "cpu_ratio_median": statistics.median(cpu_ratios) if cpu_ratios else None}
        for label in "AB":
            rs = per[label]
            s[label] = {
                "rps": [r["rps"] for r in rs],
                "rps_median": statistics.median([r["rps"] for r in rs]) if rs else None,
                "p50_ms_median": statistics.median([r["p50_ms"] for r in rs]) if rs else None,
                "p99_ms_median": statistics.median([r["p99_ms"] for r in rs]) if rs else None,
                "p99_ms": [r["p99_ms"] for r in rs],
                "cpu_us_per_request": [r["server_cpu_us_per_request"] for r in rs],
                "cpu_us_per_request_median": statistics.median([r["server_cpu_us_per_request"] for r in rs])
                if rs else None,
                "errors": sum(r["errors"] for r in rs),
            }
        s["p99_ratio_median"] = (s["B"]["p99_ms_median"] / s["A"]["p99_ms_median"]
                                 if s["A"]["p99_ms_median"] else None)
        s["meets_target"] = None if s["ratio_median"] is None else s["ratio_median"] >= TARGET_RATIO
        summary[route] = s
    return summary


def table(summary, figures):
    def rps(x):
        return "–" if x is None else f"{x:,.0f}"

    def ms(x):
        return "–" if x is None else f"{x:.2f}"

    header = ["route", "A (no state) req/s", "B (state) req/s", "B ÷ A per round", "B ÷ A (median)",
              "A p50 / p99 ms", "B p50 / p99 ms", "server CPU µs a request, A / B (B ÷ A)",
              f"target B ÷ A ≥ {TARGET_RATIO:.2f}"]
    rows = []
    for route, name in ROUTES:
        s = summary[route]
        verdict = "–" if s["meets_target"] is None else ("met" if s["meets_target"] else "MISSED")
        rows.append([
            name,
            f"{rps(s['A']['rps_median'])} ({', '.join(rps(x) for x in s['A']['rps'])})",
            f"{rps(s['B']['rps_median'])} ({', '.join(rps(x) for x in s['B']['rps'])})",
            ", ".join(f"{x:.3f}" for x in s["ratios"]),
            "–" if s["ratio_median"] is None else f"{s['ratio_median']:.3f}",
            f"{ms(s['A']['p50_ms_median'])} / {ms(s['A']['p99_ms_median'])}",
            f"{ms(s['B']['p50_ms_median'])} / {ms(s['B']['p99_ms_median'])}",
            f"{s['A']['cpu_us_per_request_median']:.1f} / {s['B']['cpu_us_per_request_median']:.1f} "
            f"({s['cpu_ratio_median']:.3f})",
            verdict,
        ])
    widths = [max(len(str(r[i])) for r in rows + [header]) for i in range(len(header))]
    text = ["  ".join(str(c).ljust(w) for c, w in zip(header, widths)), "  ".join("-" * w for w in widths)]
    text += ["  ".join(str(c).ljust(w) for c, w in zip(r, widths)) for r in rows]
    md = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    md += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    loads = [x for r in figures.get("runs", []) for x in (r["load1_before"], r["load1_after"])]
    note = (f"{figures['data.stores']:,} stores; B's state on {figures['state.stores']:,} of them "
            f"(version {figures.get('state.version')}); {figures['run.rounds']} rounds of "
            f"{figures['run.duration_s']} s per route and server, wrk {figures['run.threads']} thread × "
            f"{figures['run.connections']} connections, A and B alternated "
            f"({'A B, B A, …' if figures['run.order'] == 'abba' else 'A B, A B, …'})")
    if loads:
        note += f"; 1-minute load average {min(loads):.2f}–{max(loads):.2f} during the runs"
    return "\n".join(text), "\n".join(md), note


# --- main --------------------------------------------------------------------------------------

def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog="\n".join(__doc__.split("\n")[1:]))
    p.add_argument("--smoke", action="store_true",
                   help="2,000 stores, a state on 100, 1 round of 2 s, 1 s of warm-up")
    p.add_argument("--stores", type=int, help="stores in the data (default 1000000; 2000 with --smoke)")
    p.add_argument("--seed", type=int, default=42, help="seed of the generated stores (default 42)")
    p.add_argument("--state-stores", type=int,
                   help="stores B's state names (default 1000; 100 with --smoke): a third paused, "
                        "a third closed, a third with a special day; 0 leaves B without state too, "
                        "a control of how far two identical servers differ")
    p.add_argument("--state-seed", type=int, default=32, help="seed of the stores picked (default 32)")
    p.add_argument("--duration", type=int, help="seconds of each wrk run (default 15; 2 with --smoke)")
    p.add_argument("--rounds", type=int, help="rounds of A then B per route (default 3; 1 with --smoke)")
    p.add_argument("--warmup", type=int, help="seconds of wrk per route and server before the rounds, "
                                              "not counted (default 3; 1 with --smoke)")
    p.add_argument("--order", choices=("abba", "ab"), default="abba",
                   help="abba (default): A then B in odd rounds, B then A in even ones; ab: always A then B")
    p.add_argument("--connections", type=int, default=64, help="wrk connections (default 64)")
    p.add_argument("--threads", type=int, default=1, help="wrk threads (default 1)")
    p.add_argument("--query-seed", type=int, default=4242, help="seed of the query points (default 4242)")
    p.add_argument("--query-count", type=int, default=10000, help="distinct query points (default 10000)")
    p.add_argument("--work-dir", default="/tmp", help="data and scratch (default /tmp)")
    p.add_argument("--server", help="a stores-server binary to use instead of building one")
    p.add_argument("--stores-bin", help="a stores binary (for the snapshot) instead of the built one")
    p.add_argument("--benchmarks-bin", help="a stores-benchmarks binary (for the data) instead of the built one")
    p.add_argument("--no-build", action="store_true", help="use the existing release binaries")
    p.add_argument("--json", help="also write every figure to this JSON file ('-' for standard output)")
    args = p.parse_args()
    args.stores = args.stores or (2000 if args.smoke else 1_000_000)
    args.state_stores = args.state_stores if args.state_stores is not None else (100 if args.smoke else 1000)
    args.duration = args.duration or (2 if args.smoke else 15)
    args.rounds = args.rounds or (1 if args.smoke else 3)
    args.warmup = args.warmup if args.warmup is not None else (1 if args.smoke else 3)
    args.work_dir = os.path.abspath(args.work_dir)
    if not 0 <= args.state_stores <= args.stores:
        p.error("--state-stores must be 0 to --stores")
    if args.rounds < 1 or args.duration < 1 or args.warmup < 0:
        p.error("--rounds and --duration must be at least 1, --warmup at least 0")
    if not sb.have("wrk"):
        p.error("wrk is not installed (apt-get install wrk, or run service_benchmark.py once)")
    scratch = os.path.join(args.work_dir, "service-bench")
    os.makedirs(scratch, exist_ok=True)
    args.data_present = data_present(args)

    def on_signal(number, _):
        raise KeyboardInterrupt(f"signal {number}")
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGHUP, on_signal)

    figures = {"run.started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "run.smoke": args.smoke,
               "run.duration_s": args.duration, "run.rounds": args.rounds, "run.warmup_s": args.warmup,
               "run.connections": args.connections, "run.order": args.order, "run.threads": args.threads, "run.nproc": os.cpu_count(),
               "run.load_at_start": os.getloadavg(), "run.command": " ".join(sys.argv),
               "state.stores": args.state_stores, "state.seed": args.state_seed, "runs": []}
    status = 0
    wall = time.perf_counter()
    summary = None
    try:
        binaries = build(args)
        _, snapshot = sb.data(args, binaries, figures)
        figures["server.binary"] = binaries["server"]
        token = secrets.token_hex(16)
        os.environ["STORES_ADMIN_TOKEN"] = token   # the servers inherit it
        ports, pids = {}, {}
        for label in "AB":
            port = sb.free_port()
            process, seconds = sb.start_server(
                f"stores-server {label}",
                [binaries["server"], "--data", snapshot, "--hostname", HOST, "--port", str(port),
                 "--state", "memory"],
                port, os.path.join(scratch, f"state-cost-{label}.log"), timeout=300)
            ports[label] = port
            pids[label] = process.pid
            figures[f"server.{label}.ready_s"] = seconds
            log(f"stores-server {label} ready on port {port} in {seconds:.2f} s")

        today = datetime.datetime.now(datetime.timezone.utc).date()
        changes = state_changes(args, today)
        if changes:
            version, seconds = apply_state(ports["B"], token, changes)
            figures["state.version"] = version
            figures["state.apply_s"] = seconds
            figures["state.kinds"] = {k: sum(1 for _, kind, _ in changes if kind == k)
                                      for k in ("paused", "closure", "special_day")}
            figures["state.first_ids"] = [id for id, _, _ in changes[:6]]
            figures["check"] = check_state(ports["A"], ports["B"], changes, version)
        else:
            # --state-stores 0: B is a second server without state, a control for how far two
            # identical processes differ on this machine.
            figures["state.version"] = 0
            log("--state-stores 0: B has no state either (a control run, A against A)")

        for route, _ in ROUTES:
            for label in "AB":
                bad = sb.probe(ports[label], route)
                if bad:
                    raise Failure(f"{label} {route}: {len(bad)} of 20 probe requests failed, e.g. {bad[0]}")
        if args.warmup:
            warm = argparse.Namespace(**vars(args))
            warm.duration = args.warmup
            for route, _ in ROUTES:
                for label in "AB":
                    sb.wrk(warm, ports[label], route)

        for round_number in range(1, args.rounds + 1):
            log(f"--- round {round_number} of {args.rounds} ---")
            # A then B, and B then A in the next round (--order abba): a load that rises or falls
            # during a round then favours neither server.
            order = "BA" if args.order == "abba" and round_number % 2 == 0 else "AB"
            for route, _ in ROUTES:
                for label in order:
                    figure = measure(args, ports[label], pids[label], route, label)
                    figure["round"] = round_number
                    figures["runs"].append(figure)
                    if figure["errors"]:
                        status = 1
        summary = summarize(figures["runs"], args.rounds)
        figures["summary"] = summary
    except Failure as error:
        log(f"error: {error}")
        status = 2 if "missing" in str(error) else 1
    except subprocess.CalledProcessError as error:
        log(f"error: {' '.join(map(str, error.cmd))} exited {error.returncode}")
        status = 2
    except subprocess.TimeoutExpired as error:
        log(f"error: {error}")
        status = 1
    except KeyboardInterrupt as error:
        log(f"interrupted ({error}): stopping what was started")
        status = 130
    finally:
        sb.cleanup()
    figures["run.load_at_end"] = os.getloadavg()
    figures["run.wall_s"] = time.perf_counter() - wall

    if summary:
        text, md, note = table(summary, figures)
        print(text)
        print()
        print(md)
        print()
        print(note)
    print(f"whole run: {figures['run.wall_s']:.1f} s; load average at start "
          f"{', '.join(f'{x:.2f}' for x in figures['run.load_at_start'])}, at end "
          f"{', '.join(f'{x:.2f}' for x in figures['run.load_at_end'])}")
    if args.json:
        blob = json.dumps(figures, indent=2, sort_keys=True)
        if args.json == "-":
            print(blob)
        else:
            with open(args.json, "w") as f:
                f.write(blob + "\n")
    return status


if __name__ == "__main__":
    sys.exit(main())
