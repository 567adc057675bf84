#!/usr/bin/env python3
"""What capacity costs the service (issue 33 §4), side by side on the 1M snapshot.

Plain pickups with capacity data and bookings beside the same stores without, and how fast the
state storages hold slots.

From the repository root (standard library only; reuses service_benchmark.py's data files and
helpers and state_cost.py's measuring):

    python3 Benchmarks/scripts/capacity_cost.py               # 1,000,000 stores, 3 rounds of 15 s
    python3 Benchmarks/scripts/capacity_cost.py --smoke       # 2,000 stores, 1 round of 2 s, K=50
    python3 Benchmarks/scripts/capacity_cost.py --only sqlite --only postgres --rounds 1

What one run does (every server on 127.0.0.1 only; everything it starts, PostgreSQL included, is
stopped on exit, also on an error or Ctrl-C):

1. Builds `stores` and `stores-server` in the repository root (`swift build -c release --product
   ...`; `stores-benchmarks` in Benchmarks/ too when the GeoJSON file must be generated;
   --no-build skips, --server names another stores-server binary).
2. Data in --work-dir (default /tmp): A, the GeoJSON file and snapshot of service_benchmark.py
   (`stores-benchmarks generate --points N --seed 42`, `stores snapshot build`), and B, the same
   stores with `"pickup:capacity": "20"` (--capacity) added to every feature's properties
   (streamed line by line, the generated file has one feature a line), and its snapshot:
   `stores-benchmarks-N-42-capacity-20.geojson` / `.snap`, made unless present and newer than A's
   GeoJSON. Both snapshots are built again when the `stores` binary is newer than them, so that A
   and B always come from the same build (--keep-snapshots: not).
3. The points of the reservations: --reserve-stores stores picked at random (--reserve-seed), their
   positions read from a server (`GET /v1/stores/{id}`), kept when a plain pickup there is
   assigned to that store (open, not passed over). Uniform points on the sphere would mostly find
   no store within reach (about 80% of service_wrk.lua's points on 1M stores, nearly all on 2,000)
   and answer 200 without touching the storage; --reserve-points sphere sends those anyway.
4. Plain pickup (--only pickup): two servers on free ports, `--state memory`, an order token in
   STORES_ORDER_TOKENS: A on A's snapshot, B on B's. B first gets --reservations K bookings
   (default 5,000) through `POST /v1/pickup` with `"reserve": true` at the points of 3 (ready in
   12 minutes like the measured pickups, held for 30 minutes), so its planner counts slots that
   hold orders (--reservations 0: none, a control of the capacity data alone). Checks: B's plan
   names a slot with the capacity and A's none; B's plan at a booked store and time counts the
   bookings. Every server is left to finish checking its snapshot's records (a background task of
   about 5 s of a core at 1M stores, after it is ready) before anything is measured. Then, as
   state_cost.py does: a warm-up, and --rounds rounds
   of wrk (1 thread, 64 connections, --duration s, service_wrk.lua's pickup points and body)
   against A then B, B then A in the next round; req/s, p50/p99, the server's CPU time per
   request from /proc, B ÷ A per round and the median. Target: B ÷ A ≥ 0.90. Bookings whose slots
   are about to end are renewed before a round (--rebook-after).
5. Reserve throughput (--only sqlite, --only postgres): one server on B's snapshot per storage,
   `--state sqlite:WORK/capacity-bench.sqlite` (removed at the start, left after the run for a
   look) and a throwaway PostgreSQL (scripts/state/postgres.sh in a temporary directory), both up
   side by side. Each round, for each storage (the order alternates), for each of
   --reserve-connections (64 and 16): the tables are emptied (--keep-reservations: not), then wrk
   with Benchmarks/scripts/reserve_wrk.lua sends `POST /v1/pickup` with {"near", "ready_in":
   "10m", "reserve": true, "hold_for": "30m"} and the token for --duration seconds. Reported:
   holds per second (201 answers, counted by the script's response()), checked against the rows
   the storage holds after the run; p50/p99; the answers that are not 201 by status; the server's
   CPU time per hold, and PostgreSQL's (all its processes). After each run: no slot holds more
   than the capacity (`stores_slots.taken` and a count of the held/confirmed rows per slot), and
   every slot's counter equals its rows. Targets: PostgreSQL ≥ 1,000 holds/s with p99 ≤ 20 ms;
   SQLite ≥ 2,000 holds/s. Beside them, how many fsyncs a second the work dir's disk does (SQLite
   commits with synchronous=FULL; postgres.sh runs with fsync=off).
6. One table with every figure beside its target (reported, not enforced), in text and Markdown,
   and the command line to paste beside it; --json FILE keeps every figure, the load average
   before and after each wrk run included.

Exit status: 0 when every check passed and every wrk run answered without socket errors or
answers other than 2xx (plain pickup) or 201/200/409 (reserve); 1 when a check failed, a run
answered an error or a server did not become ready; 2 on a usage or setup error; 130 when
interrupted. The targets are reported, not enforced.
"""
import argparse
import concurrent.futures
import json
import os
import random
import secrets
import shlex
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time

import service_benchmark as sb
import state_cost as sc

HOST = sb.HOST
HERE = sb.HERE
RESERVE_LUA = os.path.join(HERE, "reserve_wrk.lua")
RESERVE_PACED_LUA = os.path.join(HERE, "reserve_paced_wrk.lua")
POSTGRES_SH = os.path.join(sb.ROOT, "scripts", "state", "postgres.sh")

# Targets of issue 33 §4 (reported, not enforced).
PICKUP_RATIO_TARGET = 0.90      # plain pickup with capacity data and bookings within 10% of without
POSTGRES_HOLDS_TARGET = 1000.0  # holds a second
POSTGRES_P99_TARGET_MS = 20.0
SQLITE_HOLDS_TARGET = 2000.0

STORAGES = ("sqlite", "postgres")
TOKEN_NAME = "bench"
# Answers of a reserve request that are no error: held, no store can take the order, slots-full.
RESERVE_OK = {201, 200, 409}

PG = {}   # the throwaway PostgreSQL: dir, url, running


def log(message):
    sb.log(message)


class Failure(sb.Failure):
    pass


def command_line():
    """The command as it can be pasted, from the repository root."""
    script = os.path.relpath(os.path.abspath(sys.argv[0]), sb.ROOT)
    return " ".join(["python3", shlex.quote(script)] + [shlex.quote(a) for a in sys.argv[1:]])


def git_revision():
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=sb.ROOT, capture_output=True,
                              text=True, timeout=30).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=sb.ROOT,
                               capture_output=True, text=True, timeout=30).stdout.strip()
        return head + ("+changes" if dirty else "")
    except (OSError, subprocess.SubprocessError):
        return None


# --- setup -------------------------------------------------------------------------------------

def paths(args):
    base = os.path.join(args.work_dir, f"stores-benchmarks-{args.points}-{args.seed}")
    capacity = f"{base}-capacity-{args.capacity}"
    return {"geojson": base + ".geojson", "snapshot": base + ".snap",
            "capacity_geojson": capacity + ".geojson", "capacity_snapshot": capacity + ".snap"}


def stale(made, *sources):
    """Whether `made` is missing or older than any of `sources` that exist."""
    if not os.path.exists(made):
        return True
    return any(os.path.exists(x) and os.path.getmtime(made) < os.path.getmtime(x) for x in sources if x)


def build(args, files):
    """The binaries this run needs; builds them unless --no-build (`stores-benchmarks` only when
    the GeoJSON file is to be generated)."""
    need_generate = not os.path.exists(files["geojson"])
    root_bin = sb.bin_path(sb.ROOT)
    if not args.no_build:
        products = ([] if args.server else ["stores-server"]) + ([] if args.stores_bin else ["stores"])
        for product in products:
            sb.run(["swift", "build", "-c", "release", "--product", product], cwd=sb.ROOT, timeout=3600)
        if need_generate and not args.benchmarks_bin:
            sb.run(["swift", "build", "-c", "release", "--product", "stores-benchmarks"], cwd=sb.BENCHMARKS,
                   timeout=3600)
    binaries = {
        "server": args.server or os.path.join(root_bin, "stores-server"),
        "stores": args.stores_bin or os.path.join(root_bin, "stores"),
        "benchmarks": args.benchmarks_bin or (
            os.path.join(sb.bin_path(sb.BENCHMARKS), "stores-benchmarks") if need_generate else None),
    }
    stores_bin = None if args.keep_snapshots else binaries["stores"]
    need_stores = need_generate or stale(files["snapshot"], files["geojson"], stores_bin) or \
        stale(files["capacity_geojson"], files["geojson"]) or \
        stale(files["capacity_snapshot"], files["capacity_geojson"], stores_bin)
    needed = [("server", "--server")] + ([("stores", "--stores-bin")] if need_stores else []) + \
        ([("benchmarks", "--benchmarks-bin")] if need_generate else [])
    for name, option in needed:
        if not binaries[name] or not os.path.exists(binaries[name]):
            raise Failure(f"missing {binaries[name]} (build it, or name it with {option})")
    return binaries


def build_snapshot(args, binaries, geojson, snap, figures, key):
    """Builds `snap` from `geojson` unless it is newer than both the GeoJSON file and the `stores`
    binary (A and B are compared: both snapshots must come from the same build; --keep-snapshots
    skips the binary's part)."""
    if stale(snap, geojson, None if args.keep_snapshots else binaries["stores"]):
        partial = snap[: -len(".snap")] + "-partial.snap"
        figures[f"setup.{key}_snapshot_build_s"] = sb.timed(
            [binaries["stores"], "snapshot", "build", geojson, "-o", partial], stdout=subprocess.DEVNULL,
            timeout=1800)
        os.replace(partial, snap)
    return snap


def add_capacity(source, target, capacity):
    """Writes `source` (a GeoJSON FeatureCollection) to `target` with "pickup:capacity" set on every
    feature, a feature at a time: the generated file has one feature a line, so the whole
    collection is never held in memory. Returns the number of features."""
    partial = target + ".partial"
    value = str(capacity)
    features = 0
    with open(source, "rb") as f, open(partial, "wb") as out:
        for line in f:
            text = line.strip()
            if text.startswith(b"{") and b'"Feature"' in text and not text.startswith(b'{"type":"FeatureCollection"'):
                comma = text.endswith(b",")
                feature = json.loads(text[:-1] if comma else text)
                if feature.get("type") != "Feature":
                    raise Failure(f"{source}: a line that is not one feature: {text[:200]!r}")
                properties = feature.get("properties")
                if not isinstance(properties, dict):
                    properties = feature["properties"] = {}
                properties["pickup:capacity"] = value
                out.write(json.dumps(feature, ensure_ascii=False, separators=(",", ":")).encode())
                out.write(b",\n" if comma else b"\n")
                features += 1
            else:
                out.write(line)
    if features == 0:
        os.remove(partial)
        size = os.path.getsize(source)
        if size > 512 * 1024 * 1024:
            raise Failure(f"{source} has no feature a line and is {size:,} bytes: not loaded whole")
        # Not one feature a line (another generator): small enough to load whole.
        with open(source, encoding="utf-8") as f:
            collection = json.load(f)
        for feature in collection.get("features", []):
            if not isinstance(feature.get("properties"), dict):
                feature["properties"] = {}
            feature["properties"]["pickup:capacity"] = value
            features += 1
        with open(partial, "w", encoding="utf-8") as out:
            json.dump(collection, out, ensure_ascii=False, separators=(",", ":"))
    os.replace(partial, target)
    return features


def capacity_data(args, binaries, files, figures):
    """B's GeoJSON file and snapshot (made unless present and newer than what they come from)."""
    geojson, snapshot = files["capacity_geojson"], files["capacity_snapshot"]
    if not os.path.exists(geojson) or os.path.getmtime(geojson) < os.path.getmtime(files["geojson"]):
        log(f"writing {geojson}: every store with pickup:capacity {args.capacity}")
        start = time.perf_counter()
        figures["data.capacity_features"] = add_capacity(files["geojson"], geojson, args.capacity)
        figures["setup.capacity_geojson_s"] = time.perf_counter() - start
        log(f"{figures['data.capacity_features']:,} features in {figures['setup.capacity_geojson_s']:.1f} s")
    build_snapshot(args, binaries, geojson, snapshot, figures, "capacity")
    figures["data.capacity"] = args.capacity
    figures["data.capacity_snapshot_bytes"] = os.path.getsize(snapshot)
    return geojson, snapshot


def fsync_rate(directory, seconds=1.0):
    """How many small write + fsync a second a file in `directory` takes (what a synchronous
    commit waits for)."""
    path = os.path.join(directory, f"capacity-bench-fsync-{os.getpid()}")
    count = 0
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            start = time.perf_counter()
            while time.perf_counter() - start < seconds and count < 100_000:
                os.write(fd, b"x" * 512)
                os.fsync(fd)
                count += 1
            elapsed = time.perf_counter() - start
        finally:
            os.close(fd)
    finally:
        try:
            os.remove(path)
        except OSError:
            pass
    return count / elapsed


# --- servers -----------------------------------------------------------------------------------

def start_server(args, binaries, label, snapshot, state, scratch, figures):
    port = sb.free_port()
    log_path = os.path.join(scratch, f"capacity-cost-{label}.log")
    process, seconds = sb.start_server(
        f"stores-server {label}",
        [binaries["server"], "--data", snapshot, "--hostname", HOST, "--port", str(port), "--state", state],
        port, log_path, timeout=300)
    figures[f"server.{label}.ready_s"] = seconds
    figures[f"server.{label}.state"] = state.split("@")[-1] if state.startswith("postgres") else state
    log(f"stores-server {label} ({os.path.basename(snapshot)}, --state {figures[f'server.{label}.state']}) "
        f"ready on port {port} in {seconds:.2f} s (log: {log_path})")
    return {"label": label, "port": port, "pid": process.pid, "process": process, "log": log_path}


def wait_idle(servers, figures, timeout=300.0):
    """Waits until every server's CPU stays under a tenth of a core for two seconds running: after
    it is ready, stores-server checks every record of its snapshot in the background (about 5 s of
    a core at 1M stores), which must not fall in a measured run."""
    for server in servers:
        start = time.perf_counter()
        quiet = 0
        before = sc.cpu_seconds(server["pid"])
        while quiet < 2:
            time.sleep(1.0)
            now = sc.cpu_seconds(server["pid"])
            quiet = quiet + 1 if now - before < 0.1 else 0
            before = now
            if time.perf_counter() - start > timeout:
                log(f"warning: stores-server {server['label']} still busy after {timeout:.0f} s; measuring anyway")
                break
        waited = time.perf_counter() - start
        figures[f"server.{server['label']}.idle_wait_s"] = waited
        if waited > 2.5:
            log(f"stores-server {server['label']} idle after {waited:.1f} s")


def stop_server(server):
    sb.stop(f"stores-server {server['label']}", server["process"])


def postgres_start(args):
    """A throwaway cluster from scripts/state/postgres.sh; its URL."""
    if not os.path.exists(POSTGRES_SH):
        raise Failure(f"missing {POSTGRES_SH}")
    # Under /tmp: the postgres user must reach the directory (postgres.sh says so).
    PG["dir"] = tempfile.mkdtemp(prefix="capacity-bench-pg-", dir="/tmp")
    os.chmod(PG["dir"], 0o755)
    log(f"$ {POSTGRES_SH} start {PG['dir']}")
    start = time.perf_counter()
    PG["running"] = True   # stopped on exit whatever start says: it may have started before failing
    result = subprocess.run(["bash", POSTGRES_SH, "start", PG["dir"]], capture_output=True, text=True,
                            timeout=180)
    if result.returncode != 0:
        raise Failure(f"postgres.sh start exited {result.returncode}: {result.stderr.strip()}")
    url = result.stdout.strip().splitlines()[-1]
    if not url.startswith("postgres"):
        raise Failure(f"postgres.sh start printed no URL: {result.stdout!r}")
    PG["url"] = url
    return url, time.perf_counter() - start


def postgres_stop():
    if PG.get("running") and PG.get("dir"):
        pid = postgres_pid()
        try:
            result = subprocess.run(["bash", POSTGRES_SH, "stop", PG["dir"]], capture_output=True, text=True,
                                    timeout=90)
            stopped = result.returncode == 0
            if not stopped:
                log(f"postgres.sh stop exited {result.returncode}: {result.stderr.strip()}")
        except (OSError, subprocess.SubprocessError) as error:
            log(f"stopping PostgreSQL: {error}")
            stopped = False
        if not stopped and pid:
            try:
                os.kill(pid, signal.SIGQUIT)   # immediate shutdown of this run's postmaster only
                time.sleep(2)
            except ProcessLookupError:
                pass
        PG["running"] = False
    if PG.get("dir"):
        shutil.rmtree(PG["dir"], ignore_errors=True)
        PG["dir"] = None


def postgres_pid():
    try:
        with open(os.path.join(PG["dir"], "data", "postmaster.pid")) as f:
            return int(f.readline().strip())
    except (OSError, ValueError, KeyError, TypeError):
        return None


def process_tree_cpu(root):
    """CPU seconds (user + system) of process `root` and its children (PostgreSQL's backends)."""
    if not root:
        return 0.0
    total = 0.0
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid, ppid = int(name), int(fields[1])
        if pid == root or ppid == root:
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def cleanup():
    sb.cleanup()
    postgres_stop()


# --- the storages, read from outside -----------------------------------------------------------

def sql(storage, query, args):
    """Runs `query` on the storage's database; its rows as lists of strings."""
    if storage == "sqlite":
        command = ["sqlite3", "-batch", "-cmd", ".timeout 10000", args.sqlite_path, query]
    else:
        command = ["psql", "-X", "-q", "-A", "-t", "-F", "|", "-v", "ON_ERROR_STOP=1", "-d", PG["url"],
                   "-c", query]
    result = subprocess.run(command, capture_output=True, text=True, timeout=120)
    if result.returncode != 0:
        raise Failure(f"{storage}: {query[:80]}…: {result.stderr.strip()}")
    return [line.split("|") for line in result.stdout.splitlines() if line.strip()]


def clear_reservations(storage, args):
    if storage == "sqlite":
        sql(storage, "BEGIN IMMEDIATE; DELETE FROM stores_reservations; DELETE FROM stores_slots; COMMIT;", args)
    else:
        sql(storage, "TRUNCATE stores_reservations, stores_slots", args)


def reservation_counts(storage, args):
    return {status: int(n) for status, n in
            sql(storage, "SELECT status, count(*) FROM stores_reservations GROUP BY status", args)}


def slot_check(storage, args):
    """What the slots hold after a run, read from the storage: no slot above the limit, every
    counter equal to its held and confirmed rows."""
    limit = int(args.capacity)
    live = ("SELECT store_id, service, slot_start, count(*) AS c FROM stores_reservations "
            "WHERE status IN ('held', 'confirmed') GROUP BY store_id, service, slot_start")
    row = sql(storage, f"""
        SELECT
          (SELECT coalesce(max(taken), 0) FROM stores_slots),
          (SELECT count(*) FROM stores_slots),
          (SELECT count(*) FROM stores_slots WHERE taken > {limit}),
          (SELECT coalesce(max(c), 0) FROM ({live}) AS per_slot),
          (SELECT count(*) FROM ({live}) AS per_slot WHERE c > {limit}),
          (SELECT count(*) FROM stores_slots s LEFT JOIN ({live}) r
             ON r.store_id = s.store_id AND r.service = s.service AND r.slot_start = s.slot_start
           WHERE s.taken <> coalesce(r.c, 0)),
          (SELECT count(*) FROM stores_slots WHERE taken >= {limit})
        """, args)[0]
    names = ("max_taken", "slots", "slots_over_limit", "max_rows_per_slot", "slots_rows_over_limit",
             "counter_mismatches", "slots_full")
    check = dict(zip(names, (int(x) for x in row)))
    check["limit"] = limit
    check["ok"] = (check["max_taken"] <= limit and check["slots_over_limit"] == 0 and
                   check["max_rows_per_slot"] <= limit and check["slots_rows_over_limit"] == 0 and
                   check["counter_mismatches"] == 0)
    return check


# --- points and bookings -----------------------------------------------------------------------

def parallel(items, work, workers):
    """Runs work(client_index, item) over `items` on `workers` threads; results in order."""
    results = [None] * len(items)
    chunks = [list(range(w, len(items), workers)) for w in range(workers)]

    def run(w):
        for index in chunks[w]:
            results[index] = work(w, items[index])

    with concurrent.futures.ThreadPoolExecutor(workers) as pool:
        for future in [pool.submit(run, w) for w in range(workers)]:
            future.result()
    return results


def store_points(args, port, figures):
    """(lat, lon) of --reserve-stores random stores whose plain pickup there (ready in
    --ready-in) is assigned to the store itself: open now, so a hold there succeeds."""
    rng = random.Random(args.reserve_seed)
    count = min(args.reserve_stores, args.points)
    numbers = rng.sample(range(1, args.points + 1), count)
    workers = 4
    clients = [sc.Client(port) for _ in range(workers)]
    start = time.perf_counter()

    def look(w, number):
        client = clients[w]
        id = sc.store_id(number)
        status, _, document = client.request("GET", f"/v1/stores/{id}")
        if status != 200:
            return ("missing", None)
        lat, lon = sc.coordinate(document if "geometry" in document else document.get("store", document))
        near = f"{lat:.7f},{lon:.7f}"
        status, _, plan = client.request("POST", "/v1/pickup", {"near": near, "ready_in": args.ready_in})
        if status != 200:
            return (f"pickup {status}", None)
        assigned = (plan.get("store") or {}).get("id")
        if plan.get("status") != "assigned":
            return ("none", None)
        if assigned != id:
            return ("elsewhere", None)
        return ("kept", near)

    try:
        looked = parallel(numbers, look, workers)
    finally:
        for client in clients:
            client.close()
    outcomes = {}
    for outcome, _ in looked:
        outcomes[outcome] = outcomes.get(outcome, 0) + 1
    points = [near for _, near in looked if near]
    figures["points.looked_at"] = count
    figures["points.outcomes"] = outcomes
    figures["points.kept"] = len(points)
    figures["points.seconds"] = time.perf_counter() - start
    log(f"reserve points: {len(points):,} of {count:,} stores take a pickup at their own position "
        f"now ({outcomes}) in {figures['points.seconds']:.1f} s")
    if not points:
        raise Failure("no store takes a pickup at its own position now: nothing to reserve")
    return points


def make_bookings(args, port, token, points, count, ready_in, seed):
    """`count` holds through POST /v1/pickup with "reserve": true at `points` (in a seeded random
    order, on 4 connections); at most 3 × count requests and --booking-timeout seconds. Returns
    (held answers, statuses, seconds)."""
    rng = random.Random(seed)
    order = [rng.choice(points) for _ in range(3 * count)]
    workers = 4
    lock = threading.Lock()
    held, statuses = [], {}
    position = [0]
    deadline = time.monotonic() + args.booking_timeout
    start = time.perf_counter()

    def worker(_):
        client = sc.Client(port)
        client.token = token
        try:
            while True:
                with lock:
                    if len(held) >= count or position[0] >= len(order) or time.monotonic() > deadline:
                        return
                    near = order[position[0]]
                    position[0] += 1
                status, _, document = client.request(
                    "POST", "/v1/pickup",
                    {"near": near, "ready_in": ready_in, "reserve": True, "hold_for": args.hold_for}, admin=True)
                with lock:
                    statuses[status] = statuses.get(status, 0) + 1
                    if status == 201:   # a few more than `count` when workers finish together
                        held.append((near, document))
                    if status not in RESERVE_OK:
                        position[0] = len(order)   # the other workers stop too
                        raise Failure(f"booking at {near}: status {status}: {str(document)[:300]}")
        finally:
            client.close()

    with concurrent.futures.ThreadPoolExecutor(workers) as pool:
        for future in [pool.submit(worker, w) for w in range(workers)]:
            future.result()
    return held, statuses, time.perf_counter() - start


def book(args, server, token, points, figures, what):
    log(f"B: {what}: {args.reservations:,} holds at {len(points):,} points (ready in 12m, held for {args.hold_for})")
    held, statuses, seconds = make_bookings(args, server["port"], token, points, args.reservations, "12m",
                                            args.reserve_seed + len(figures["pickup.bookings"]))
    slots = {}
    for _, document in held:
        r = document.get("reservation") or {}
        key = (r.get("store"), r.get("slot_start"))
        slots[key] = slots.get(key, 0) + 1
    record = {"what": what, "asked": args.reservations, "held": len(held), "statuses": statuses,
              "seconds": seconds, "slots": len(slots), "max_per_slot": max(slots.values()) if slots else 0,
              "made_at": time.time()}
    figures["pickup.bookings"].append(record)
    log(f"B: {len(held):,} held of {args.reservations:,} asked in {seconds:.1f} s "
        f"({len(held) / max(seconds, 1e-9):,.0f}/s; statuses {statuses}) in {len(slots):,} slots, "
        f"at most {record['max_per_slot']} in one")
    if len(held) < args.reservations:
        log(f"warning: only {len(held):,} of {args.reservations:,} bookings were held")
    return held, record


# --- checks ------------------------------------------------------------------------------------

def check_capacity(args, a, b, points, held):
    """That B plans with the capacity and A without, and that B's plan counts its bookings."""
    ca, cb = sc.Client(a["port"]), sc.Client(b["port"])
    seen = {}
    try:
        near = points[0]
        for name, client in (("A", ca), ("B", cb)):
            status, _, plan = client.request("POST", "/v1/pickup", {"near": near, "ready_in": "12m"})
            sc.expect(status, plan, f"{name}: POST /v1/pickup at {near}")
            slot = plan.get("slot")
            seen[f"{name}.slot"] = slot
            if name == "A" and slot is not None:
                raise Failure(f"A plans a slot at {near}, but A's data has no capacity: {slot}")
            if name == "B" and (not slot or slot.get("orders_per_slot") != args.capacity):
                raise Failure(f"B's plan at {near} has no slot of {args.capacity} orders: {slot}")
        if not held:
            return seen
        # The store and slot booked most: B's plan for that store and time counts them.
        per = {}
        for near, document in held:
            r = document.get("reservation") or {}
            per.setdefault((r.get("store"), r.get("slot_start")), []).append((near, document))
        (store, slot_start), booked = max(per.items(), key=lambda kv: len(kv[1]))
        near, document = booked[0]
        body = {"near": near, "ready_at": document["ready_at"]}
        status, _, plan = cb.request("POST", "/v1/pickup", body)
        sc.expect(status, plan, f"B: POST /v1/pickup {body}")
        slot = plan.get("slot") or {}
        assigned = (plan.get("store") or {}).get("id")
        seen["B.booked"] = {"store": store, "slot_start": slot_start, "booked": len(booked),
                            "assigned": assigned, "slot": slot}
        if assigned == store and slot.get("start") == slot_start and (slot.get("taken") or 0) < len(booked):
            raise Failure(f"B plans {store}'s slot {slot_start} with taken {slot.get('taken')}, "
                          f"but {len(booked)} holds were made in it")
        if assigned != store or slot.get("start") != slot_start:
            log(f"check: B's plan at the booked store {store} went to {assigned} slot {slot.get('start')} "
                f"(not {slot_start}): the count is not checked")
        else:
            log(f"check: B plans {store}'s slot {slot_start} with {slot.get('taken')} taken of "
                f"{slot.get('orders_per_slot')} ({len(booked)} booked by this run); A plans no slot")
        status, _, listing = cb.request("GET", f"/v1/stores/{store}/slots")
        sc.expect(status, listing, f"B: GET /v1/stores/{store}/slots")
        seen["B.slots_listed"] = len((listing or {}).get("slots", []))
    finally:
        ca.close()
        cb.close()
    return seen


# --- measuring ---------------------------------------------------------------------------------

def reserve_wrk(args, port, connections, points_arg):
    paced = args.reserve_pace is not None
    command = ["wrk", "-t", str(args.threads), "-c", str(connections), "-d", f"{args.duration}s",
               "--timeout", "5s", "--latency", "-s", RESERVE_PACED_LUA if paced else RESERVE_LUA,
               f"http://{HOST}:{port}/", "--",
               args.token, points_arg, str(args.reserve_seed), str(args.query_count), args.ready_in,
               args.hold_for] + ([str(args.reserve_pace)] if paced else [])
    shown = [c if c != args.token else "TOKEN" for c in command]
    log("$ " + " ".join(shown))
    result = subprocess.run(command, capture_output=True, text=True, timeout=args.duration + 120)
    if result.returncode != 0:
        raise Failure(f"wrk exited {result.returncode}: {result.stderr.strip()}")
    line = next((l for l in result.stdout.splitlines() if l.startswith("WRK_JSON ")), None)
    if line is None:
        raise Failure(f"wrk printed no WRK_JSON line:\n{result.stdout}\n{result.stderr}")
    r = json.loads(line[len("WRK_JSON "):])
    r["seconds"] = r["duration_us"] / 1e6
    r["socket_errors"] = r["connect_errors"] + r["read_errors"] + r["write_errors"] + r["timeouts"]
    log(result.stdout.rstrip())
    return r


def measure_reserve(args, storage, server, connections, points_arg, round_number):
    time.sleep(1.5)   # the server's copy of the bookings refreshes every second: empty again
    rows_before = sum(reservation_counts(storage, args).values())
    load_before = os.getloadavg()[0]
    cpu_before = sc.cpu_seconds(server["pid"])
    db_before = process_tree_cpu(postgres_pid()) if storage == "postgres" else 0.0
    r = reserve_wrk(args, server["port"], connections, points_arg)
    cpu = sc.cpu_seconds(server["pid"]) - cpu_before
    db = (process_tree_cpu(postgres_pid()) - db_before) if storage == "postgres" else None
    load_after = os.getloadavg()[0]
    time.sleep(0.5)   # requests still in flight when wrk stopped
    rows = reservation_counts(storage, args)
    check = slot_check(storage, args)
    statuses = {int(k): v for k, v in r["statuses"].items()}
    held = statuses.get(201, 0)
    errors = sum(n for s, n in statuses.items() if s not in RESERVE_OK) + r["socket_errors"]
    figure = {
        "storage": storage, "connections": connections, "round": round_number, "pace_ms": args.reserve_pace,
        "requests": r["requests"], "seconds": r["seconds"], "rps": r["requests"] / r["seconds"],
        "holds": held, "holds_per_s": held / r["seconds"],
        "stored_rows": sum(rows.values()) - rows_before, "stored_before": rows_before, "stored_by_status": rows,
        "statuses": {str(k): v for k, v in sorted(statuses.items())},
        "non_201": {str(k): v for k, v in sorted(statuses.items()) if k != 201},
        "p50_ms": r["p50_us"] / 1000, "p90_ms": r["p90_us"] / 1000, "p99_ms": r["p99_us"] / 1000,
        "p999_ms": r["p999_us"] / 1000, "mean_ms": r["latency_mean_us"] / 1000,
        "max_ms": r["latency_max_us"] / 1000, "socket_errors": r["socket_errors"], "errors": errors,
        "server_cpu_s": cpu, "server_cpu_us_per_request": cpu * 1e6 / max(1, r["requests"]),
        "server_cpu_us_per_hold": cpu * 1e6 / held if held else None,
        "db_cpu_s": db, "db_cpu_us_per_hold": (db * 1e6 / held) if (db is not None and held) else None,
        "load1_before": load_before, "load1_after": load_after, "slot_check": check,
    }
    # wrk stops counting at its deadline; the server may finish up to `connections` holds after.
    figure["stored_minus_counted"] = figure["stored_rows"] - held
    log(f"reserve {storage} c={connections}: {figure['holds_per_s']:,.0f} holds/s ({held:,} answers 201, "
        f"{figure['stored_rows']:,} rows stored), {figure['rps']:,.0f} req/s, p50 {figure['p50_ms']:.2f} ms, "
        f"p99 {figure['p99_ms']:.2f} ms, not 201: {figure['non_201'] or 'none'}, server CPU "
        f"{(figure['server_cpu_us_per_hold'] or 0):.0f} µs a hold"
        + (f", PostgreSQL CPU {(figure['db_cpu_us_per_hold'] or 0):.0f} µs a hold" if db is not None else "")
        + f"; slots: max taken {check['max_taken']} of {check['limit']}, {check['slots_full']} full, "
        f"{check['counter_mismatches']} counter mismatches; load {load_before:.2f} → {load_after:.2f}")
    return figure


def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def summarize(figures, args):
    summary = {}
    runs = figures["runs"]
    pickup = {label: [r for r in runs if r.get("route") == "pickup" and r["server"] == label] for label in "AB"}
    if pickup["A"] and pickup["B"]:
        ratios = [b["rps"] / a["rps"] for a, b in zip(pickup["A"], pickup["B"]) if a["rps"]]
        cpu_ratios = [b["server_cpu_us_per_request"] / a["server_cpu_us_per_request"]
                      for a, b in zip(pickup["A"], pickup["B"]) if a["server_cpu_us_per_request"]]
        s = {"ratios": ratios, "ratio_median": median(ratios), "cpu_ratios": cpu_ratios,
             "cpu_ratio_median": median(cpu_ratios)}
        for label in "AB":
            rs = pickup[label]
            s[label] = {key: [r[key] for r in rs] for key in
                        ("rps", "p50_ms", "p99_ms", "server_cpu_us_per_request", "none_share")
                        if all(key in r for r in rs)}
            for key in list(s[label]):
                s[label][key + "_median"] = median(s[label][key])
            s[label]["errors"] = sum(r["errors"] for r in rs)
        s["meets_target"] = None if s["ratio_median"] is None else s["ratio_median"] >= PICKUP_RATIO_TARGET
        summary["pickup"] = s
    for storage in STORAGES:
        for connections in args.reserve_connections:
            rs = [r for r in figures["reserve_runs"] if r["storage"] == storage and r["connections"] == connections]
            if not rs:
                continue
            non_201 = {}
            for r in rs:
                for status, n in r["non_201"].items():
                    non_201[status] = non_201.get(status, 0) + n
            s = {key: [r[key] for r in rs] for key in
                 ("holds_per_s", "rps", "p50_ms", "p99_ms", "server_cpu_us_per_hold", "db_cpu_us_per_hold")}
            for key in list(s):
                s[key + "_median"] = median(s[key])
            s["non_201"] = non_201
            s["requests"] = sum(r["requests"] for r in rs)
            s["holds"] = sum(r["holds"] for r in rs)
            s["errors"] = sum(r["errors"] for r in rs)
            s["slots_ok"] = all(r["slot_check"]["ok"] for r in rs)
            s["max_taken"] = max(r["slot_check"]["max_taken"] for r in rs)
            s["max_rows_per_slot"] = max(r["slot_check"]["max_rows_per_slot"] for r in rs)
            s["counter_mismatches"] = sum(r["slot_check"]["counter_mismatches"] for r in rs)
            s["slots_full"] = max(r["slot_check"]["slots_full"] for r in rs)
            s["stored_minus_counted"] = [r["stored_minus_counted"] for r in rs]
            if storage == "postgres":
                s["meets_target"] = (s["holds_per_s_median"] >= POSTGRES_HOLDS_TARGET and
                                     s["p99_ms_median"] <= POSTGRES_P99_TARGET_MS)
            else:
                s["meets_target"] = s["holds_per_s_median"] >= SQLITE_HOLDS_TARGET
            summary[f"{storage}.c{connections}"] = s
    return summary


def table(summary, figures, args):
    def n(x, digits=0):
        return "–" if x is None else f"{x:,.{digits}f}"

    def per_round(xs, digits=0):
        return ", ".join(n(x, digits) for x in xs)

    def verdict(ok):
        return "–" if ok is None else ("met" if ok else "MISSED")

    header = ["measure", "figure (median; per round)", "p50 / p99 ms", "server CPU µs", "other", "target",
              "verdict"]
    rows = []
    s = summary.get("pickup")
    if s:
        for label, what in (("A", "plain pickup A (no capacity)"),
                            ("B", f"plain pickup B (capacity {args.capacity}, bookings)")):
            x = s[label]
            rows.append([what, f"{n(x['rps_median'])} req/s ({per_round(x['rps'])})",
                         f"{n(x['p50_ms_median'], 2)} / {n(x['p99_ms_median'], 2)}",
                         f"{n(x['server_cpu_us_per_request_median'], 1)} a request",
                         f"none {x['none_share_median'] * 100:.0f}%" if x.get("none_share_median") is not None
                         else "", "", ""])
        rows.append(["plain pickup B ÷ A", f"{n(s['ratio_median'], 3)} ({per_round(s['ratios'], 3)})", "",
                     f"B ÷ A {n(s['cpu_ratio_median'], 3)} ({per_round(s['cpu_ratios'], 3)})", "",
                     f"≥ {PICKUP_RATIO_TARGET:.2f}", verdict(s["meets_target"])])
    for storage in STORAGES:
        for connections in args.reserve_connections:
            x = summary.get(f"{storage}.c{connections}")
            if not x:
                continue
            target = (f"≥ {POSTGRES_HOLDS_TARGET:,.0f}/s, p99 ≤ {POSTGRES_P99_TARGET_MS:.0f} ms"
                      if storage == "postgres" else f"≥ {SQLITE_HOLDS_TARGET:,.0f}/s")
            cpu = f"{n(x['server_cpu_us_per_hold_median'])} a hold"
            if storage == "postgres":
                cpu += f" (+ PostgreSQL {n(x['db_cpu_us_per_hold_median'])})"
            other = (f"not 201: {', '.join(f'{k}: {v:,}' for k, v in sorted(x['non_201'].items())) or 'none'}; "
                     f"slots: max {x['max_taken']} of {args.capacity}, rows max {x['max_rows_per_slot']}, "
                     f"{x['counter_mismatches']} mismatches")
            rows.append([f"reserve {storage}, {connections} connections",
                         f"{n(x['holds_per_s_median'])} holds/s ({per_round(x['holds_per_s'])})",
                         f"{n(x['p50_ms_median'], 2)} / {n(x['p99_ms_median'], 2)}", cpu, other, target,
                         verdict(x["meets_target"]) + ("" if x["slots_ok"] else "; SLOT CHECK FAILED")])
    widths = [max(len(str(r[i])) for r in rows + [header]) for i in range(len(header))]
    text = ["  ".join(str(c).ljust(w) for c, w in zip(header, widths)), "  ".join("-" * w for w in widths)]
    text += ["  ".join(str(c).ljust(w) for c, w in zip(r, widths)) for r in rows]
    md = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    md += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    loads = [x for r in figures["runs"] + figures["reserve_runs"] for x in (r["load1_before"], r["load1_after"])]
    parts = [f"{figures['data.stores']:,} stores{' (SMOKE: not a measurement)' if args.smoke else ''}",
             f"{figures['run.rounds']} round(s) of {figures['run.duration_s']} s per run, wrk {args.threads} thread"]
    if figures["runs"]:
        parts.append(f"plain pickup {args.connections} connections, A and B alternated, B with capacity "
                     f"{args.capacity} and {sum(b['held'] for b in figures.get('pickup.bookings', [])):,} holds")
    if figures["reserve_runs"]:
        where = (f"at {figures.get('points.kept', 0):,} store positions" if args.reserve_points == "stores"
                 else "at points uniform on the sphere")
        parts.append(f"reserve {where}, ready in {args.ready_in}, held for {args.hold_for}, tables "
                     f"{'kept between runs' if args.keep_reservations else 'emptied before each run'}")
    parts += [f"revision {figures.get('run.revision')}", f"{os.cpu_count()} cores"]
    note = "; ".join(parts)
    if figures.get("machine.fsync_per_s"):
        note += f"; {figures['machine.fsync_per_s']:,.0f} fsyncs/s in the work dir"
    if loads:
        note += f"; 1-minute load average {min(loads):.2f}–{max(loads):.2f} during the runs"
    return "\n".join(text), "\n".join(md), note


# --- main --------------------------------------------------------------------------------------

def connections_list(text):
    try:
        values = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a list of numbers: {text!r}")
    if not values or any(v < 1 for v in values):
        raise argparse.ArgumentTypeError("give one or more connection counts of at least 1")
    return values


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog="\n".join(__doc__.split("\n")[1:]))
    p.add_argument("--smoke", action="store_true",
                   help="2,000 stores, 1 round of 2 s, 1 s of warm-up, K=50 bookings, all 2,000 stores "
                        "looked at for reserve points")
    p.add_argument("--points", type=int, help="stores in the data (default 1000000; 2000 with --smoke)")
    p.add_argument("--seed", type=int, default=42, help="seed of the generated stores (default 42)")
    p.add_argument("--capacity", type=int, default=20, help="B's pickup:capacity, orders per slot (default 20)")
    p.add_argument("--only", action="append", choices=("pickup",) + STORAGES,
                   help="run only this part (repeat for several; default all three)")
    p.add_argument("--rounds", type=int, help="rounds (default 3; 1 with --smoke)")
    p.add_argument("--duration", type=int, help="seconds of each wrk run (default 15; 2 with --smoke)")
    p.add_argument("--warmup", type=int, help="seconds of wrk per server before the rounds, not counted "
                                              "(default 3; 1 with --smoke)")
    p.add_argument("--order", choices=("abba", "ab"), default="abba",
                   help="abba (default): A then B in odd rounds, B then A in even ones (and the storages "
                        "and connection counts likewise); ab: always the same order")
    p.add_argument("--reservations", type=int,
                   help="K, the holds made on B before the plain pickups (default 5000; 50 with --smoke; "
                        "0: none, a control of what the capacity data alone costs)")
    p.add_argument("--rebook-after", type=int, default=600,
                   help="before a round, book K more when the last bookings are this many seconds old "
                        "(their slots, 12 minutes ahead, end after 12 to 27 minutes; default 600)")
    p.add_argument("--booking-timeout", type=int, default=600, help="seconds the bookings may take (default 600)")
    p.add_argument("--connections", type=int, default=64, help="wrk connections for plain pickup (default 64)")
    p.add_argument("--reserve-pace", type=int, default=None, metavar="MS",
                   help="each connection pauses MS milliseconds after an answer before its next "
                        "reserve (reserve_paced_wrk.lua): p99 at an offered rate, e.g. 16 connections "
                        "and 12 ms offer about 1,000 a second; the rate reached is reported (default: no pause)")
    p.add_argument("--reserve-connections", type=connections_list, default=[64, 16],
                   help="wrk connections for reserve, comma-separated (default 64,16)")
    p.add_argument("--threads", type=int, default=1, help="wrk threads (default 1)")
    p.add_argument("--query-seed", type=int, default=4242, help="seed of the plain pickup points (default 4242)")
    p.add_argument("--query-count", type=int, default=10000,
                   help="distinct requests in a wrk run's list (default 10000)")
    p.add_argument("--reserve-points", choices=("stores", "sphere"), default="stores",
                   help="stores (default): reserve at the positions of stores open now; sphere: uniform on "
                        "the sphere as service_wrk.lua (mostly no store within reach: 200, nothing held)")
    p.add_argument("--reserve-stores", type=int,
                   help="stores looked at for reserve points (default 10000; 2000 with --smoke)")
    p.add_argument("--reserve-seed", type=int, default=4343, help="seed of the reserve points (default 4343)")
    p.add_argument("--keep-reservations", action="store_true",
                   help="do not empty the tables before each reserve run: each run starts with the holds of "
                        "the runs before it still live (what more live holds cost)")
    p.add_argument("--ready-in", default="10m", help="ready_in of the reserve requests (default 10m)")
    p.add_argument("--hold-for", default="30m", help="hold_for of every hold (default 30m)")
    p.add_argument("--work-dir", default="/tmp", help="data and scratch (default /tmp)")
    p.add_argument("--server", help="a stores-server binary to use instead of building one")
    p.add_argument("--stores-bin", help="a stores binary (for the snapshots) instead of the built one")
    p.add_argument("--benchmarks-bin", help="a stores-benchmarks binary (for the data) instead of the built one")
    p.add_argument("--no-build", action="store_true", help="use the existing release binaries")
    p.add_argument("--keep-snapshots", action="store_true",
                   help="use the snapshots in the work dir even when the stores binary is newer (by default "
                        "both are built again then, so that A and B come from the same build)")
    p.add_argument("--json", help="also write every figure to this JSON file ('-' for standard output)")
    args = p.parse_args()
    args.points = args.points or (2000 if args.smoke else 1_000_000)
    args.stores = args.points   # service_benchmark.data's name
    args.duration = args.duration or (2 if args.smoke else 15)
    args.rounds = args.rounds or (1 if args.smoke else 3)
    args.warmup = args.warmup if args.warmup is not None else (1 if args.smoke else 3)
    args.reservations = args.reservations if args.reservations is not None else (50 if args.smoke else 5000)
    args.reserve_stores = args.reserve_stores or (2000 if args.smoke else 10_000)
    args.work_dir = os.path.abspath(args.work_dir)
    args.parts = list(dict.fromkeys(args.only or ("pickup",) + STORAGES))
    args.sqlite_path = os.path.join(args.work_dir, "capacity-bench.sqlite")
    if args.points < 1 or args.capacity < 1 or args.reservations < 0 or args.reserve_stores < 1:
        p.error("--points, --capacity and --reserve-stores must be at least 1, --reservations at least 0")
    if args.rounds < 1 or args.duration < 1 or args.warmup < 0:
        p.error("--rounds and --duration must be at least 1, --warmup at least 0")
    missing = [c for c in ["wrk"] + (["sqlite3"] if "sqlite" in args.parts else []) +
               (["psql"] if "postgres" in args.parts else []) if not sb.have(c)]
    if missing:
        p.error(f"not installed: {', '.join(missing)} (apt-get install wrk sqlite3 postgresql)")
    scratch = os.path.join(args.work_dir, "service-bench")
    os.makedirs(scratch, exist_ok=True)
    files = paths(args)

    def on_signal(number, _):
        raise KeyboardInterrupt(f"signal {number}")
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGHUP, on_signal)

    figures = {"run.started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "run.smoke": args.smoke,
               "run.command": command_line(), "run.revision": git_revision(), "run.parts": args.parts,
               "run.duration_s": args.duration, "run.rounds": args.rounds, "run.warmup_s": args.warmup,
               "run.connections": args.connections, "run.reserve_connections": args.reserve_connections,
               "run.threads": args.threads, "run.order": args.order, "run.nproc": os.cpu_count(),
               "run.load_at_start": os.getloadavg(), "reserve.points": args.reserve_points,
               "reserve.ready_in": args.ready_in, "reserve.hold_for": args.hold_for,
               "pickup.reservations": args.reservations, "pickup.bookings": [],
               "targets": {"pickup_ratio": PICKUP_RATIO_TARGET, "postgres_holds_per_s": POSTGRES_HOLDS_TARGET,
                           "postgres_p99_ms": POSTGRES_P99_TARGET_MS, "sqlite_holds_per_s": SQLITE_HOLDS_TARGET},
               "runs": [], "reserve_runs": []}
    status = 0
    wall = time.perf_counter()
    summary = None
    log(f"command: {figures['run.command']}")
    try:
        binaries = build(args, files)
        figures["server.binary"] = binaries["server"]
        geojson_a, snapshot_a = sb.data(args, binaries, figures)
        build_snapshot(args, binaries, geojson_a, snapshot_a, figures, "plain")
        _, snapshot_b = capacity_data(args, binaries, files, figures)
        args.token = secrets.token_hex(16)
        os.environ["STORES_ORDER_TOKENS"] = f"{TOKEN_NAME}:{args.token}"   # the servers inherit it
        os.environ.pop("STORES_ADMIN_TOKEN", None)
        points = None

        if "pickup" in args.parts:
            a = start_server(args, binaries, "A", snapshot_a, "memory", scratch, figures)
            b = start_server(args, binaries, "B", snapshot_b, "memory", scratch, figures)
            points = store_points(args, b["port"], figures)
            if args.reservations:
                held, _ = book(args, b, args.token, points, figures, "bookings")
                if not held:
                    raise Failure("B holds no booking: its planner would count nothing")
            else:
                held = []
                log("--reservations 0: B has the capacity data and no booking (a control)")
            # The replica's copy of the bookings follows the storage within a poll (--state-poll,
            # 1 s): the check reads it after one, as the last holds may have come in just now.
            time.sleep(1.5)
            figures["check"] = check_capacity(args, a, b, points, held)
            wait_idle((a, b), figures)
            for label, server in (("A", a), ("B", b)):
                bad = sb.probe(server["port"], "pickup")
                if bad:
                    raise Failure(f"{label} pickup: {len(bad)} of 20 probe requests failed, e.g. {bad[0]}")
            if args.warmup:
                warm = argparse.Namespace(**vars(args))
                warm.duration = args.warmup
                for server in (a, b):
                    sb.wrk(warm, server["port"], "pickup")
            for round_number in range(1, args.rounds + 1):
                log(f"--- plain pickup, round {round_number} of {args.rounds} ---")
                last = figures["pickup.bookings"][-1]["made_at"] if figures["pickup.bookings"] else None
                if last and time.time() - last > args.rebook_after:
                    book(args, b, args.token, points, figures, f"renewed before round {round_number}")
                order = (b, a) if args.order == "abba" and round_number % 2 == 0 else (a, b)
                for server in order:
                    figure = sc.measure(args, server["port"], server["pid"], "pickup", server["label"])
                    figure["round"] = round_number
                    figures["runs"].append(figure)
                    if figure["errors"]:
                        status = 1
            for server in (a, b):
                stop_server(server)

        storages = [s for s in STORAGES if s in args.parts]
        if storages:
            servers = {}
            if "sqlite" in storages:
                for suffix in ("", "-wal", "-shm", "-journal"):
                    if os.path.exists(args.sqlite_path + suffix):
                        os.remove(args.sqlite_path + suffix)
                figures["machine.fsync_per_s"] = fsync_rate(args.work_dir)
                log(f"the work dir's disk: {figures['machine.fsync_per_s']:,.0f} write + fsync a second")
                servers["sqlite"] = start_server(args, binaries, "sqlite", snapshot_b, f"sqlite:{args.sqlite_path}",
                                                 scratch, figures)
            if "postgres" in storages:
                url, seconds = postgres_start(args)
                figures["postgres.start_s"] = seconds
                log(f"PostgreSQL at {url} in {seconds:.1f} s (postgres.sh: fsync=off, full_page_writes=off)")
                servers["postgres"] = start_server(args, binaries, "postgres", snapshot_b, url, scratch, figures)
            if args.reserve_points == "sphere":
                points_arg = "sphere"
            else:
                if points is None:
                    points = store_points(args, servers[storages[0]]["port"], figures)
                points_arg = os.path.join(scratch, "capacity-cost-points.txt")
                with open(points_arg, "w") as f:
                    f.write("\n".join(points) + "\n")
            wait_idle([servers[storage] for storage in storages], figures)
            if args.warmup:
                warm = argparse.Namespace(**vars(args))
                warm.duration = args.warmup
                for storage in storages:
                    clear_reservations(storage, args)
                    reserve_wrk(warm, servers[storage]["port"], max(args.reserve_connections), points_arg)
            for round_number in range(1, args.rounds + 1):
                log(f"--- reserve, round {round_number} of {args.rounds} ---")
                flip = args.order == "abba" and round_number % 2 == 0
                for storage in (storages[::-1] if flip else storages):
                    for connections in (args.reserve_connections[::-1] if flip else args.reserve_connections):
                        if not args.keep_reservations:
                            clear_reservations(storage, args)
                        figure = measure_reserve(args, storage, servers[storage], connections, points_arg,
                                                 round_number)
                        figures["reserve_runs"].append(figure)
                        if figure["errors"]:
                            status = 1
                        if not figure["slot_check"]["ok"]:
                            log(f"error: {storage}: the slots hold more than their limit or disagree with "
                                f"their rows: {figure['slot_check']}")
                            status = 1
        summary = summarize(figures, args)
        figures["summary"] = summary
    except Failure as error:
        log(f"error: {error}")
        status = 2 if str(error).startswith("missing") else 1
    except subprocess.CalledProcessError as error:
        log(f"error: {' '.join(map(str, error.cmd))} exited {error.returncode}")
        status = 2
    except subprocess.TimeoutExpired as error:
        log(f"error: {error}")
        status = 1
    except KeyboardInterrupt as error:
        log(f"interrupted ({error}): stopping what was started")
        status = 130
    except Exception as error:   # a server gone, a file unreadable: still stop everything, still report
        log(f"error: {error!r}")
        status = 1
    finally:
        cleanup()
    figures["run.load_at_end"] = os.getloadavg()
    figures["run.wall_s"] = time.perf_counter() - wall
    figures["run.status"] = status

    if summary:
        text, md, note = table(summary, figures, args)
        print(text)
        print()
        print(md)
        print()
        print(note)
        print(f"command: {figures['run.command']}")
    print(f"whole run: {figures['run.wall_s']:.1f} s; load average at start "
          f"{', '.join(f'{x:.2f}' for x in figures['run.load_at_start'])}, at end "
          f"{', '.join(f'{x:.2f}' for x in figures['run.load_at_end'])}; exit status {status}")
    if args.json:
        blob = json.dumps(figures, indent=2, sort_keys=True, default=str)
        if args.json == "-":
            print(blob)
        else:
            with open(args.json, "w") as f:
                f.write(blob + "\n")
    return status


if __name__ == "__main__":
    sys.exit(main())
