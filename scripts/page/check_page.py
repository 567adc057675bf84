#!/usr/bin/env python3
"""Browser tests of the store picker page (GET /, issue 14) in headless Chromium.

Starts `stores-server --port 0` on 127.0.0.1 with the bundled data (or tests a page already served,
with --url), drives Debian's chromium through chromium-driver with Selenium, and checks the page
against the `stores` command line: every expected answer is computed by running the CLI at the
same inputs, never written here. The browser resolves no host name but 127.0.0.1, so nothing it
loads leaves the machine. Every wait is for a state of the page (never a sleep), at most 20 s; the
server is killed at the end whatever happens.

    python scripts/page/check_page.py --server .build/debug/stores-server [--stores .build/debug/stores]

Writes .build/page-screenshots/desktop.png and phone.png. Ends with 'N passed, N failed'.
"""

import argparse
import datetime
import gzip
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
import traceback
import urllib.error
import urllib.parse
import urllib.request

from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

WAIT_S = 20  # every page load and every wait, at most
TAIPEI = (25.0330, 121.5654)  # where the map is opened; the point used is read back from the URL
K = 10  # stores the page lists (picker.js)
WEIGHT_LIMIT = 300 * 1024


class Failure(Exception):
    pass


class Skipped(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


# ---- the server and the command line ----------------------------------------------------------


def start_server(binary, assets, *extra, env=None):
    """Starts stores-server on a free loopback port (`env`: variables added to its environment);
    returns (process, base URL)."""
    args = [binary, "--hostname", "127.0.0.1", "--port", "0", "--state", "memory", *extra]
    if assets is not None:
        args += ["--assets", assets]
    process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env=dict(os.environ, **env) if env else None)
    found = {}

    def read():
        for line in process.stdout:
            match = re.search(r"on (http://127\.0\.0\.1:\d+)", line)
            if match:
                found["url"] = match.group(1)
                return

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(WAIT_S)
    if "url" not in found:
        process.kill()
        error = process.stderr.read() if process.poll() is not None else ""
        raise Failure(f"stores-server gave no startup line within {WAIT_S} s: {error.strip()}")
    threading.Thread(target=process.stderr.read, daemon=True).start()  # keep its pipe drained
    return process, found["url"]


class CLI:
    def __init__(self, binary):
        self.binary = binary

    def json(self, *args):
        result = subprocess.run([self.binary, *args, "--format", "json"], capture_output=True, text=True,
                                timeout=60)
        if result.returncode not in (0, 1, 2, 3):
            raise Failure(f"stores {' '.join(args)} exited {result.returncode}: {result.stderr.strip()}")
        return json.loads(result.stdout)

    def error(self, *args):
        """The sentence of a refusal: 'Error: --near: …' without 'Error: --'."""
        result = subprocess.run([self.binary, *args], capture_output=True, text=True, timeout=60)
        check(result.returncode != 0, f"stores {' '.join(args)} was expected to refuse, exited 0")
        first = result.stderr.strip().splitlines()[0]
        return re.sub(r"^Error: --", "", first)

    def nearest_ids(self, near, k, *extra):
        return [s["id"] for s in self.json("nearest", "--near", near, "-k", str(k), *extra)["stores"]]


def http_json(url):
    try:
        with urllib.request.urlopen(url, timeout=WAIT_S) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def sentence(text):
    """As picker.js writes an API sentence: first letter upper-case, a full stop at the end."""
    text = text.strip()
    text = text[:1].upper() + text[1:]
    return text if re.search(r"[.!?)]$", text) else text + "."


def problem_sentence(problem):
    """As picker.js writes a problem's detail: one that starts with the parameter it is about
    ("open_at: …") keeps the name as the API spells it; any other is a sentence."""
    detail = problem["detail"].strip()
    if problem.get("parameter") and detail.startswith(problem["parameter"] + ":"):
        return detail if re.search(r"[.!?)]$", detail) else detail + "."
    return sentence(detail)


# ---- the browser --------------------------------------------------------------------------------


def start_browser(chromium, chromedriver):
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for argument in (
        "--headless=new",
        "--disable-dev-shm-usage",
        "--disable-gpu",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-default-apps",
        # Nothing but loopback: any other host name fails to resolve.
        "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
        "--window-size=1280,800",
    ):
        options.add_argument(argument)
    if os.geteuid() == 0:
        options.add_argument("--no-sandbox")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(chromedriver))
    driver.set_page_load_timeout(WAIT_S)
    driver.set_script_timeout(WAIT_S)
    return driver


class Page:
    def __init__(self, driver, base):
        self.driver = driver
        self.base = base

    def wait(self, condition, what):
        try:
            return WebDriverWait(self.driver, WAIT_S).until(lambda d: condition())
        except TimeoutException:
            # Where the page was, so that a wait that times out once in CI can be told apart.
            state = self.driver.execute_script(
                "const r = document.getElementById('results'), m = document.getElementById('message');"
                " return [location.search, r && r.getAttribute('data-gen'), r && r.getAttribute('aria-busy'),"
                " m && m.textContent.slice(0, 120)];")
            raise Failure(f"waited {WAIT_S} s for {what}; the page at {state[0]!r}: list load {state[1]}, "
                          f"busy {state[2]}, message {state[3]!r}") from None

    def attr(self, css, name):
        return self.driver.execute_script(
            "const e = document.querySelector(arguments[0]); return e ? e.getAttribute(arguments[1]) : null;",
            css, name)

    def gen(self):
        return int(self.attr("#results", "data-gen") or 0)

    def open(self, query):
        self.driver.get(self.base + "/" + (("?" + urllib.parse.urlencode(query)) if query else ""))
        self.wait_list(0)
        self.wait_map()

    def wait_list(self, after):
        """Until the list has finished a load newer than `after`."""
        self.wait(lambda: self.gen() > after and self.attr("#results", "aria-busy") == "false",
                  "the list to load")

    def wait_map(self):
        def settled():
            state = self.attr("#map", "data-state")
            if state == "off":
                return True
            return (state == "ready" and self.attr("#map", "data-view") == "done"
                    and self.attr("#map", "data-basemap") not in (None, "loading"))
        self.wait(settled, "the map to draw")

    def list_ids(self):
        return self.driver.execute_script(
            "return [...document.querySelectorAll('#results li')].map(li => li.dataset.id);")

    def query(self):
        return urllib.parse.parse_qs(urllib.parse.urlsplit(self.driver.current_url).query)

    def text(self, css):
        return self.driver.execute_script(
            "const e = document.querySelector(arguments[0]); return e ? e.textContent : '';", css)

    def wait_panel(self, store_id):
        self.wait(lambda: self.attr("#panel", "hidden") is None
                  and self.attr("#panel", "data-store") == store_id
                  and self.attr("#panel", "aria-busy") == "false", f"the panel of {store_id}")

    def severe_logs(self):
        return [e for e in self.driver.get_log("browser") if e.get("level") == "SEVERE"]


# ---- the tests --------------------------------------------------------------------------------------


def test_loads_without_console_errors(page, cli, ctx):
    page.driver.get_log("browser")  # start from an empty log
    page.open({})
    page.open({"near": f"{TAIPEI[0]},{TAIPEI[1]}"})
    severe = page.severe_logs()
    allowed = []
    if ctx["basemap_status"] == 404:
        # The offline basemap is generated by another change; until it is there, its 404 is the
        # one error the page expects (and it says so in a sentence on the map).
        allowed = [e for e in severe if "/page/basemap.json" in e["message"]]
        if allowed:
            print("   note: /page/basemap.json answers 404 on this server; that one console error is allowed")
    rest = [e["message"] for e in severe if e not in allowed]
    check(not rest, f"console errors: {rest}")
    check(page.attr("#map", "data-state") == "ready", "the map did not start (is Leaflet served?)")
    return f"no SEVERE console entry on / and /?near=…; map {page.attr('#map', 'data-state')}, " \
           f"basemap {page.attr('#map', 'data-basemap')}"


def test_click_map_lists_nearest(page, cli, ctx):
    page.open({"near": f"{TAIPEI[0]},{TAIPEI[1]}"})
    before_near = page.query()["near"][0]
    element = page.driver.find_element(By.ID, "map")
    # A click on a store's dot opens that store instead: try a few points of the map until one is
    # empty ground (bounded).
    for dx, dy in ((-180, -120), (150, 110), (-160, 140), (120, -150), (60, 60), (-60, -200)):
        gen = page.gen()
        ActionChains(page.driver).move_to_element_with_offset(element, dx, dy).click().perform()
        try:
            WebDriverWait(page.driver, 2).until(lambda d: page.query().get("near", [""])[0] != before_near)
            break
        except TimeoutException:
            continue
    else:
        raise Failure("no click on the map changed the customer's point")
    page.wait_list(gen)
    near = page.query()["near"][0]
    expected5 = cli.nearest_ids(near, 5)
    expected_k = cli.nearest_ids(near, K)
    shown = page.list_ids()
    check(shown[:5] == expected5, f"at {near} the page lists {shown[:5]}, stores nearest -k 5 gives {expected5}")
    check(shown == expected_k, f"at {near} the page lists {shown}, stores nearest -k {K} gives {expected_k}")
    ctx["near"] = near
    return f"clicked at {near}: {', '.join(shown[:5])} as `stores nearest -k 5`"


def pick_now_with_closed_stores(cli, near):
    """An instant at which some of the K nearest stores are closed and some open (from the CLI)."""
    start = datetime.datetime(2026, 12, 2, 0, 0, tzinfo=datetime.timezone.utc)  # a Wednesday
    for hour in range(0, 48, 1):
        now = (start + datetime.timedelta(hours=hour)).strftime("%Y-%m-%dT%H:%M:%SZ")
        states = [s["state"] for s in cli.json("nearest", "--near", near, "-k", str(K), "--now", now)["stores"]]
        if "closed" in states and "open" in states:
            return now
    raise Failure(f"no hour of 2 and 3 December 2026 has both open and closed stores near {near}")


def test_open_now_with_fixed_clock(page, cli, ctx):
    near = ctx.get("near", f"{TAIPEI[0]},{TAIPEI[1]}")
    now = pick_now_with_closed_stores(cli, near)
    page.open({"near": near, "now": now})
    all_ids = cli.nearest_ids(near, K, "--now", now)
    check(page.list_ids() == all_ids, f"without a filter at {now}: page {page.list_ids()}, CLI {all_ids}")
    gen = page.gen()
    page.driver.find_element(By.ID, "open-now").click()
    page.wait_list(gen)
    expected = cli.nearest_ids(near, K, "--open-at", now)
    shown = page.list_ids()
    check(page.query().get("open_now") == ["1"], "open now is not in the URL")
    check(shown == expected, f"open now at {now}: page {shown}, stores nearest --open-at {now} gives {expected}")
    check(shown != all_ids, f"open now at {now} did not change the list ({shown})")
    closed = [s for s in all_ids if s not in shown]
    ctx["now"] = now
    return f"now={now}: {len(closed)} closed stores left the list ({', '.join(closed[:4])}…), as the CLI says"


def test_store_panel(page, cli, ctx):
    near = ctx.get("near", f"{TAIPEI[0]},{TAIPEI[1]}")
    now = ctx.get("now") or pick_now_with_closed_stores(cli, near)
    page.open({"near": near, "now": now})
    first = page.driver.find_element(By.CSS_SELECTOR, "#results li")
    store_id = first.get_attribute("data-id")
    first.click()
    page.wait_panel(store_id)
    check(store_id in page.query().get("store", []), "the store is not in the URL")
    rows = page.driver.execute_script(
        "return [...document.querySelectorAll('#week tbody tr')].map(r => [r.className, r.textContent]);")
    check(len(rows) == 7, f"the week has {len(rows)} rows, not 7")
    today = [i for i, (cls, _) in enumerate(rows) if "today" in cls]
    check(today == [0], f"rows highlighted as today: {today}")
    hours = cli.json("hours", store_id, "--at", now, "--days", "7")
    check(page.attr("#panel", "data-today") == hours["days"][0]["date"],
          f"the panel's today is {page.attr('#panel', 'data-today')}, stores hours says {hours['days'][0]['date']}")
    plan = cli.json("pickup", "--near", near, "--ready-in", "10m", "--store", store_id, "--now", now)
    answer = page.text("#pickup .answer")
    check(answer, "no pickup answer in the panel")
    if plan["status"] == "assigned":
        local = plan["pickup_at_local"][11:16]
        check(local in answer, f"the pickup answer '{answer}' lacks the pickup time {local} of stores pickup")
        check(plan["store"]["id"] == store_id or (plan["store"]["name"] in answer),
              f"the pickup answer '{answer}' does not name {plan['store']['name']}")
    else:
        check("No store can take" in answer, f"stores pickup says none, the page says '{answer}'")
    warnings = page.driver.execute_script(
        "return [...document.querySelectorAll('#pickup ul.warn li')].map(li => li.textContent);")
    check(len(warnings) == len(plan["warnings"]),
          f"the page shows {len(warnings)} warnings, stores pickup gives {len(plan['warnings'])}")
    # The kinds of hours that draw a week differently (open all day, past midnight, to 24:00,
    # a break at noon, a day off) each render 7 days: the first store of each kind among the
    # 100 nearest, as `stores nearest` lists them.
    shapes = {"24/7": r"24/7", "past midnight": r"-0[0-4]:\d\d", "to 24:00": r"-24:00",
              "a break": r"\d\d:\d\d,\d\d:\d\d", "a day off": r"\b(Mo|Su|Su,PH) off"}
    kinds = {}
    for store in cli.json("nearest", "--near", near, "-k", "100", "--now", now)["stores"]:
        for shape, pattern in shapes.items():
            if shape not in kinds and re.search(pattern, store["opening_hours"] or ""):
                kinds[shape] = store["id"]
    for expression, other in kinds.items():
        page.driver.get_log("browser")
        page.open({"near": near, "now": now, "store": other})
        page.wait_panel(other)
        rows = page.driver.execute_script("return document.querySelectorAll('#week tbody tr').length;")
        check(rows == 7, f"{other} ({expression}): the week has {rows} rows")
        check(page.text("#pickup .answer"), f"{other} ({expression}): no pickup answer")
        errors = [e["message"] for e in page.severe_logs()]
        check(not errors, f"{other} ({expression}): console errors {errors}")
    return (f"{store_id}: 7 days, today {hours['days'][0]['date']} highlighted; pickup: {answer[:90]}…; "
            f"and a week for {', '.join(kinds)}")


def type_near(page, typed):
    """Types `typed` into the location box, presses Enter, waits for the list; the page's message."""
    box = page.driver.find_element(By.ID, "near")
    box.clear()
    gen = page.gen()
    box.send_keys(typed, Keys.ENTER)
    page.wait_list(gen)
    return page.text("#message")


def test_bad_near_sentences(page, cli, ctx):
    page.open({})
    for typed in ("91,0", "abc"):
        shown = type_near(page, typed)
        status, problem = http_json(page.base + "/v1/stores/nearest?" + urllib.parse.urlencode({"near": typed}))
        check(status == 400, f"near={typed}: the API answered {status}")
        check(shown == problem_sentence(problem), f"near={typed}: the page says '{shown}', the API '{problem['detail']}'")
        check(shown.startswith("near: ") or not problem["detail"].startswith("near:"),
              f"near={typed}: the page says '{shown}', not the parameter's name as the API writes it")
        cli_sentence = cli.error("nearest", "--near", typed)
        check(cli_sentence.split(": ", 1)[1] in shown,
              f"near={typed}: the page's '{shown}' is not the CLI's '{cli_sentence}'")
        check("error" in page.attr("#message", "class"), "the sentence is not shown as an error")
    # A point typed as LON,LAT is answered, with the CLI's warning (an X-Stores-Note) on the page.
    swapped = "-0.1278,51.5074"
    result = subprocess.run([cli.binary, "nearest", "--near", swapped, "-k", "1", "--format", "json"],
                            capture_output=True, text=True, timeout=60)
    warning = re.sub(r"^stores: (warning: )?", "", result.stderr.strip().splitlines()[0])
    shown = type_near(page, swapped)
    check(page.list_ids(), f"near={swapped}: the list is empty")
    # The API's note is the CLI's warning with the parameter as a query string writes it.
    with urllib.request.urlopen(page.base + "/v1/stores/nearest?" + urllib.parse.urlencode({"near": swapped}),
                                timeout=WAIT_S) as response:
        notes = [urllib.parse.unquote(n) for n in response.headers.get_all("X-Stores-Note") or []]
    note = re.sub(r"^warning: ", "", notes[0]) if notes else ""
    check(note.replace("did you mean near=", "did you mean --near ") == warning,
          f"near={swapped}: the API notes {notes}, the CLI warns '{warning}'")
    check(note in shown, f"near={swapped}: the page says '{shown}', the API notes '{note}'")
    # Once: in the message box, not again in the status line above it (issue 34 §4).
    check(note not in page.text("#status"), f"near={swapped}: the note shows twice: '{page.text('#status')}'")
    return "91,0 and abc: the API's sentence (the CLI's) is on the page; LON,LAT: the CLI's warning too"


def test_first_view_weight(page, cli, ctx):
    driver = page.driver
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.clearBrowserCache", {})
    driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
    figures = []
    try:
        for query in ({}, {"near": ctx.get("near", f"{TAIPEI[0]},{TAIPEI[1]}")}):
            page.open(query)
            entries = driver.execute_script("""
              const tiles = arguments[0];
              const all = [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')];
              return all.filter(e => !(tiles && e.name.match(tiles))).map(e => [e.name, e.transferSize]);""",
                                            ctx["tile_pattern"])
            total = sum(size for _, size in entries)
            label = "/?" + urllib.parse.urlencode(query) if query else "/"
            figures.append(f"{label}: {total / 1024:.1f} KB in {len(entries)} requests")
            biggest = sorted(entries, key=lambda e: -e[1])[:3]
            print(f"   {label}: {total} bytes; largest: " +
                  ", ".join(f"{urllib.parse.urlsplit(n).path} {s}" for n, s in biggest))
            check(total > 0, "the Performance API reported no bytes")
            check(total < WEIGHT_LIMIT, f"{label} weighs {total} bytes, over {WEIGHT_LIMIT}")
    finally:
        driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": False})
    return "; ".join(figures)


def test_keyboard(page, cli, ctx):
    near = ctx.get("near", f"{TAIPEI[0]},{TAIPEI[1]}")
    page.open({"near": near})
    page.driver.execute_script("document.getElementById('results').focus();")
    page.wait(lambda: page.attr("#results", "aria-activedescendant") == "opt-0", "the first store to be active")
    page.driver.switch_to.active_element.send_keys(Keys.ARROW_DOWN)
    page.wait(lambda: page.attr("#results", "aria-activedescendant") == "opt-1", "arrow down to move to the second store")
    page.driver.switch_to.active_element.send_keys(Keys.ENTER)
    second = cli.nearest_ids(near, 2)[1]
    page.wait_panel(second)
    focused = page.driver.switch_to.active_element.get_attribute("id")
    check(focused == "panel-title", f"after Enter the focus is on #{focused}, not the panel's title")
    return f"focus, arrow down, Enter: the panel of {second}, the second nearest"


def test_screenshots(page, cli, ctx):
    near = ctx.get("near", f"{TAIPEI[0]},{TAIPEI[1]}")
    os.makedirs(ctx["screenshots"], exist_ok=True)
    written = []
    for name, width, height, mobile in (("desktop", 1280, 800, False), ("phone", 390, 844, True)):
        page.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})
        query = {"near": near, "open_now": "1"}
        if ctx.get("now"):
            query["now"] = ctx["now"]
        page.open(query)
        first = page.driver.find_element(By.CSS_SELECTOR, "#results li")
        store_id = first.get_attribute("data-id")
        first.click()
        page.wait_panel(store_id)
        if mobile:
            page.driver.execute_script("window.scrollTo(0, 0);")
        path = os.path.join(ctx["screenshots"], name + ".png")
        check(page.driver.save_screenshot(path), f"no screenshot written to {path}")
        written.append(path)
    # The world, zoomed out: every store counted in clusters.
    page.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": 1280, "height": 800, "deviceScaleFactor": 1, "mobile": False})
    page.open({})
    zoom_out_to_world(page)
    path = os.path.join(ctx["screenshots"], "world.png")
    check(page.driver.save_screenshot(path), f"no screenshot written to {path}")
    written.append(path)
    page.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    return "wrote " + ", ".join(written)


def test_attribute_filter(page, cli, ctx):
    near = ctx.get("near", f"{TAIPEI[0]},{TAIPEI[1]}")
    info = cli.json("info")
    offered = [a["key"] for a in info.get("attributes", [])
               if "yes" in (a["values"] if isinstance(a["values"], dict) else [v["value"] for v in a["values"]])]
    check(offered, "stores info lists no attribute with a 'yes' value")
    page.open({"near": near})
    boxes = page.driver.execute_script(
        "return [...document.querySelectorAll('#attributes input')].map(i => [i.value, i.parentElement.textContent.trim()]);")
    check(sorted(v for v, _ in boxes) == sorted(k + "=yes" for k in offered),
          f"the page offers {boxes}, stores info has 'yes' for {offered}")
    key = "drive_through" if "drive_through" in offered else offered[0]
    label = dict(boxes)[key + "=yes"]
    gen = page.gen()
    page.driver.find_element(By.CSS_SELECTOR, f"#attributes input[value='{key}=yes']").click()
    page.wait_list(gen)
    expected = cli.nearest_ids(near, K, "--where", f"{key}=yes")
    check(page.query().get("where") == [f"{key}=yes"], f"the URL's where is {page.query().get('where')}")
    check(page.list_ids() == expected, f"'{label}': page {page.list_ids()}, stores nearest --where gives {expected}")
    return f"checkboxes {', '.join(label for _, label in boxes)}; '{label}' lists what --where {key}=yes lists"


def test_without_leaflet(page, cli, ctx):
    """A server with no Leaflet: the list still works, the map area says why in a sentence."""
    if not ctx["server"]:
        raise Skipped("needs --server")
    empty = os.path.join(ctx["screenshots"], "no-leaflet")
    os.makedirs(empty, exist_ok=True)
    server, base = start_server(ctx["server"], empty)
    try:
        other = Page(page.driver, base)
        near = ctx.get("near", f"{TAIPEI[0]},{TAIPEI[1]}")
        other.open({"near": near})
        check(other.attr("#map", "data-state") == "off", "the map did not say it is off")
        text = other.text("#map")
        check("Leaflet" in text and "--assets" in text, f"the map area says '{text}'")
        check(other.list_ids() == cli.nearest_ids(near, K), "the list is not the nearest stores")
    finally:
        server.kill()
        server.wait(timeout=WAIT_S)
    return "the list is there and the map area says: " + text[:70] + "…"


def test_tiles_fail_to_basemap(page, cli, ctx):
    """Tiles that cannot be loaded (a closed loopback port): the page falls back to the basemap."""
    import socket
    if not ctx["server"]:
        raise Skipped("needs --server")
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server, base = start_server(ctx["server"], ctx["assets"], "--tiles",
                                f"http://127.0.0.1:{port}/{{z}}/{{x}}/{{y}}.png", "--tiles-attribution", "test tiles")
    try:
        other = Page(page.driver, base)
        other.open({"near": ctx.get("near", f"{TAIPEI[0]},{TAIPEI[1]}")})
        other.wait(lambda: other.attr("#map", "data-basemap") == "loaded", "the basemap to replace the tiles")
        note = other.text("#map-note")
        check("tiles could not be loaded" in note, f"the map note says '{note}'")
    finally:
        server.kill()
        server.wait(timeout=WAIT_S)
    return "the tiles failed, the basemap is drawn and the map says so"


def test_gzip_copies_match(page, cli, ctx):
    """Every file sent gzip-encoded unpacks to the bytes sent to a client that does not accept
    gzip: the copies are separate files (Debian's for Leaflet, make_basemap.py's for the
    basemap), and a stale one would show a browser another map than curl gets."""
    base = page.base
    with urllib.request.urlopen(base + "/", timeout=WAIT_S) as response:
        html = response.read().decode()
    config = json.loads(re.search(r'<script id="page-config" type="application/json">(.*?)</script>',
                                  html, re.S).group(1))
    paths = ["/page/picker.js", "/page/picker.css"]
    if config.get("leaflet"):
        paths += [config["leaflet"]["script"], config["leaflet"]["stylesheet"]]
    if config.get("basemap"):
        paths.append(config["basemap"])
    compressed = []
    for path in paths:
        def fetch(encoding):
            request = urllib.request.Request(base + path, headers={"Accept-Encoding": encoding})
            with urllib.request.urlopen(request, timeout=WAIT_S) as response:
                return response.headers.get("Content-Encoding"), response.read()
        plain_encoding, plain = fetch("identity")
        check(plain_encoding is None, f"{path} was encoded ({plain_encoding}) for Accept-Encoding: identity")
        encoding, body = fetch("gzip")
        if encoding == "gzip":
            check(gzip.decompress(body) == plain, f"{path}: the gzip copy does not unpack to the file")
            compressed.append(f"{path} {len(plain)} -> {len(body)} bytes")
    check(any("basemap" in entry for entry in compressed) or not config.get("basemap"),
          "the basemap is not sent gzip-encoded")
    return "; ".join(compressed) or "no file has a gzip copy"


def drawn_clusters(page):
    """The clusters the page drew, as [count, lat, lon, bbox, cells] (one per cluster, not per
    copy of the world; `cells` the API's clusters it stands for: [column, row, count], more than
    one when clusters side by side were drawn as one), the counts written in the labels, and the
    clusters request the
    browser sent (its Performance API entry) with the one the page says it drew
    (#map[data-clusters-query])."""
    return page.driver.execute_script("""
      const drawn = [];
      layers.view.eachLayer((l) => {
        const c = l.options.cluster;
        if (c && !l.options.copy) drawn.push([c.count, c.latitude, c.longitude, c.bbox, c.cells]);
      });
      const labels = [...document.querySelectorAll('.cluster-label span:not([data-copy])')]
        .map((s) => [Number(s.textContent), Number(s.dataset.count)]);
      const sent = performance.getEntriesByType('resource').map((e) => e.name)
        .filter((n) => n.includes('/v1/stores/clusters?'));
      return {drawn, labels, sent: sent.length ? sent[sent.length - 1] : null,
              query: document.getElementById('map').dataset.clustersQuery || ''};""")


def check_clusters_as_cli(page, cli, what):
    """The clusters drawn are those `stores clusters` gives for the request the page sent; returns
    (request parameters, drawn clusters, CLI answer)."""
    page.wait(lambda: page.attr("#map", "data-view-kind") == "clusters", f"{what}: clusters on the map")
    seen = drawn_clusters(page)
    check(seen["sent"], f"{what}: the browser sent no /v1/stores/clusters request")
    sent = urllib.parse.parse_qs(urllib.parse.urlsplit(seen["sent"]).query)
    drew = urllib.parse.parse_qs(seen["query"])
    check(sent == drew, f"{what}: the page drew the clusters of {drew}, its last request was {sent}")
    args = ["clusters", "--bbox", sent["bbox"][0], "--columns", sent["columns"][0], "--rows", sent["rows"][0],
            "--now", sent["now"][0]]
    for condition in sent.get("where", []):
        args += ["--where", condition]
    for service in sent.get("service", []):
        args += ["--service", service]
    for instant in sent.get("open_at", []):
        args += ["--open-at", instant]
    expected = cli.json(*args)
    drawn = seen["drawn"]
    total = sum(c[0] for c in drawn)
    check(total == expected["count"],
          f"{what}: the clusters drawn hold {total} stores, `stores {' '.join(args)}` counts {expected['count']}")
    check(all(count == sum(cell[2] for cell in cells) for count, _, _, _, cells in drawn),
          f"{what}: a cluster drawn does not hold the stores of its cells")
    cells = sorted(tuple(cell) for c in drawn for cell in c[4])
    check(cells == sorted((c["column"], c["row"], c["count"]) for c in expected["clusters"]),
          f"{what}: the cells drawn (each once) differ from those of `stores {' '.join(args)}`")
    labels = seen["labels"]
    check(all(text == count for text, count in labels), f"{what}: a label's text is not its count: {labels}")
    check(sorted(c for _, c in labels) == sorted(c[0] for c in drawn if c[0] > 1),
          f"{what}: the labels {sorted(c for _, c in labels)} are not the counts of the clusters of 2 or more")
    return sent, drawn, expected


def map_bounds(page):
    return page.driver.execute_script(
        "const b = map.getBounds(); return [b.getWest(), b.getSouth(), b.getEast(), b.getNorth(), map.getZoom()];")


def contains(view, bbox):
    """Whether the view [W, S, E, N] (longitudes unwrapped, as Leaflet gives them) holds bbox, on
    any copy of the world."""
    west, south, east, north = bbox
    if east < west:
        east += 360  # a box across the antimeridian
    if not (view[1] <= south and north <= view[3]):
        return False
    return any(view[0] <= west + shift and east + shift <= view[2] for shift in (-720, -360, 0, 360, 720))


def wait_clusters(page, what, **expected):
    """Until the map has drawn the clusters of a request with these parameters (lists of values,
    as parse_qs gives them): a redraw started earlier (the header growing, a move) may end first."""
    def drawn():
        query = urllib.parse.parse_qs(page.attr("#map", "data-clusters-query") or "")
        return (page.attr("#map", "data-view") == "done" and page.attr("#map", "data-view-kind") == "clusters"
                and all(query.get(name) == values for name, values in expected.items()))
    page.wait(drawn, f"{what}: the clusters of {expected}")


def zoom_out_to_world(page):
    """Zooms out (Leaflet's − button) until the view is wider than the world (at most 3 times),
    and waits for the world's clusters."""
    for _ in range(3):
        west, _, east, _, zoom = map_bounds(page)
        if east - west >= 360 or zoom <= 1:
            break
        page.driver.find_element(By.CSS_SELECTOR, ".leaflet-control-zoom-out").click()
        page.wait(lambda: map_bounds(page)[4] < zoom, "the map to zoom out")
    wait_clusters(page, "the world view", bbox=["-180,-90,180,90"])


def test_clusters(page, cli, ctx):
    """Zoomed out, the map draws clusters: the counts of `stores clusters` for the request the page
    made; at a world view they count every store; a click on one zooms to its stores."""
    page.open({})
    sent, drawn, _ = check_clusters_as_cli(page, cli, "the first view")
    first = f"first view {sent['bbox'][0]} {sent['columns'][0]}×{sent['rows'][0]}: {len(drawn)} clusters"
    zoom_out_to_world(page)
    west, _, east, _, zoom = map_bounds(page)
    check(east - west >= 360, f"at zoom {zoom} the view is {east - west:.0f}° wide, not the world")
    sent, drawn, expected = check_clusters_as_cli(page, cli, "the world view")
    check(sent["bbox"] == ["-180,-90,180,90"], f"the world view asked for the box {sent['bbox']}")
    records = cli.json("info")["records"]
    total = sum(c[0] for c in drawn)
    check(total == records, f"the world's clusters hold {total} stores, stores info has {records} records")
    world = f"world {sent['columns'][0]}×{sent['rows'][0]}: {len(drawn)} clusters, {total} stores = info's records"

    # A click on the largest cluster zooms to the box of its stores.
    largest = max(drawn, key=lambda c: c[0])
    point = page.driver.execute_script("""
      const p = map.latLngToContainerPoint([arguments[0], arguments[1]]), size = map.getSize();
      return [p.x - size.x / 2, p.y - size.y / 2];""", largest[1], largest[2])
    ActionChains(page.driver).move_to_element_with_offset(
        page.driver.find_element(By.ID, "map"), round(point[0]), round(point[1])).click().perform()
    page.wait(lambda: map_bounds(page)[4] > zoom and page.attr("#map", "data-view") == "done"
              and page.attr("#map", "data-view-zoom") == str(map_bounds(page)[4]),
              f"the map to zoom in to the cluster of {largest[0]} and draw its view")
    after = map_bounds(page)
    check(after[4] > zoom, f"a click on the cluster of {largest[0]} left the zoom at {after[4]}")
    check(contains(after[:4], largest[3]),
          f"after the click the view {after[:4]} does not hold the cluster's box {largest[3]}")
    check(page.query().get("near") is None, "a click on a cluster moved the customer's point")
    clicked = f"a click on the cluster of {largest[0]} zoomed {zoom}→{after[4]} around its box"

    # With "Drive-through" checked, the clusters count the drive-throughs.
    page.open({})
    zoom_out_to_world(page)
    page.driver.find_element(By.CSS_SELECTOR, "#attributes input[value='drive_through=yes']").click()
    wait_clusters(page, "drive-through", bbox=["-180,-90,180,90"], where=["drive_through=yes"])
    sent, drawn, expected = check_clusters_as_cli(page, cli, "drive-through")
    check(sent.get("where") == ["drive_through=yes"], f"the clusters request's where is {sent.get('where')}")
    drive = f"drive-through: {expected['count']} stores, as --where drive_through=yes"
    return "; ".join((first, world, clicked, drive))


def test_clusters_stay_when_panning(page, cli, ctx):
    """The cells are a grid fixed on the Earth: after a pan of less than a cell, every cell inside
    both views holds the same stores (by `stores clusters` for the two requests the page made), so
    the clusters on the map do not jump."""
    page.open({})
    wait_clusters(page, "the first view")
    before = urllib.parse.parse_qs(page.attr("#map", "data-clusters-query"))
    gen = int(page.attr("#map", "data-view-gen") or 0)
    page.driver.execute_script("map.panBy([40, 25], {animate: false})")
    page.wait(lambda: int(page.attr("#map", "data-view-gen") or 0) > gen
              and page.attr("#map", "data-view") == "done", "the clusters after the pan")
    after = urllib.parse.parse_qs(page.attr("#map", "data-clusters-query"))
    check(before["bbox"] != after["bbox"] or before == after, "the request changed in an unexpected way")

    def cells(sent):
        """The answer's clusters by their cell on the Earth's grid: (column, row) from -180°, -90°."""
        west, south, east, north = (float(x) for x in sent["bbox"][0].split(","))
        columns, rows = int(sent["columns"][0]), int(sent["rows"][0])
        size = ((east - west) % 360 or 360) / columns
        check(abs((north - south) / rows - size) < 1e-9, f"the cells of {sent} are not square in degrees")
        answer = cli.json("clusters", "--bbox", sent["bbox"][0], "--columns", str(columns), "--rows", str(rows))
        first_column, first_row = round((west + 180) / size), round((south + 90) / size)
        check(abs(first_column * size - (west + 180)) < 1e-9 and abs(first_row * size - (south + 90)) < 1e-9,
              f"the box {sent['bbox'][0]} is not on the grid of {size}° cells")
        return size, {((first_column + c["column"]) % round(360 / size), first_row + c["row"]): c["count"]
                      for c in answer["clusters"]}, (first_column, first_row, columns, rows)

    size_before, cells_before, span_before = cells(before)
    size_after, cells_after, span_after = cells(after)
    check(size_before == size_after, f"the cell size changed with the pan: {size_before}° then {size_after}°")
    total = round(360 / size_before)

    def inside(cell, span):
        column, row = cell
        first_column, first_row, columns, rows = span
        return (column - first_column) % total < columns and first_row <= row < first_row + rows

    shared = [cell for cell in set(cells_before) | set(cells_after)
              if inside(cell, span_before) and inside(cell, span_after)]
    changed = [cell for cell in shared if cells_before.get(cell) != cells_after.get(cell)]
    check(shared, "no cell holding stores is in both views")
    check(not changed, f"cells whose stores changed with the pan: {changed[:5]}")
    return f"{len(shared)} cells of {size_before}° in both views hold the same stores after a 40 px pan"


SYDNEY = (-33.86882, 151.20929)


def test_browser_location(page, cli, ctx):
    """"Use my location" with the browser's position (Chromium's geolocation emulated over CDP,
    permission granted for this origin only): the list is the CLI's nearest stores at that point;
    with the permission denied, the page says so in a sentence."""
    driver = page.driver
    origin = page.base
    page.open({})
    try:
        driver.execute_cdp_cmd("Browser.grantPermissions", {"origin": origin, "permissions": ["geolocation"]})
        driver.execute_cdp_cmd("Emulation.setGeolocationOverride",
                               {"latitude": SYDNEY[0], "longitude": SYDNEY[1], "accuracy": 10})
        gen = page.gen()
        driver.find_element(By.ID, "locate").click()
        page.wait_list(gen)
        near = page.query().get("near", [""])[0]
        check(near == f"{SYDNEY[0]:.5f},{SYDNEY[1]:.5f}", f"the page used {near!r}, not the browser's position")
        expected = cli.nearest_ids(near, K)
        check(page.list_ids() == expected, f"at the browser's position: page {page.list_ids()}, CLI {expected}")

        driver.execute_cdp_cmd("Browser.setPermission", {"origin": origin, "permission": {"name": "geolocation"},
                                                         "setting": "denied"})
        driver.find_element(By.ID, "locate").click()
        page.wait(lambda: "gave no location" in page.text("#status"), "the sentence for a refused location")
        said = page.text("#status")
        check(page.list_ids() == expected, "a refused location changed the list")
    finally:
        driver.execute_cdp_cmd("Emulation.clearGeolocationOverride", {})
        driver.execute_cdp_cmd("Browser.resetPermissions", {})
    return f"the browser's position {near}: the CLI's {len(expected)} nearest; refused: '{said[:60]}…'"


HOSTILE_NAME = '<img id="injected" src="x"><b>Evil & Co</b> "quoted"'


def test_data_is_text(page, cli, ctx):
    """A store whose name and address are HTML: the list, the panel and the marker's tooltip show
    them as text, and no element of theirs reaches the page."""
    if not ctx["server"]:
        raise Skipped("needs --server")
    directory = os.path.join(ctx["screenshots"], "hostile")
    os.makedirs(directory, exist_ok=True)
    data = os.path.join(directory, "stores.geojson")
    feature = {"type": "Feature", "id": "evil-1", "geometry": {"type": "Point", "coordinates": [13.4, 52.5]},
               "properties": {"name": HOSTILE_NAME, "addr:street": "<script>alert(1)</script> Str.",
                              "website": "javascript:alert(1)", "timezone": "Europe/Berlin",
                              "opening_hours": "Mo-Su 08:00-20:00"}}
    with open(data, "w") as handle:
        json.dump({"type": "FeatureCollection", "features": [feature]}, handle)
    server, base = start_server(ctx["server"], ctx["assets"] or None, "--data", data)
    try:
        other = Page(page.driver, base)
        other.open({"near": "52.5,13.4", "store": "evil-1"})
        other.wait_panel("evil-1")
        driver = page.driver
        check(other.text("#results li") and HOSTILE_NAME in other.text("#results li"),
              "the list does not show the name as written")
        check(other.text("#panel-title") == HOSTILE_NAME, f"the panel title is {other.text('#panel-title')!r}")
        # Hover the store's dot where the map drew it (the map is fitted to it, clear of the panel).
        if other.attr("#map", "data-state") == "ready":
            wait_fitted(other)
            box = driver.find_element(By.ID, "map")
            offset = driver.execute_script("""
              let at = null;
              layers.results.eachLayer((l) => { at = map.latLngToContainerPoint(l.getLatLng()); });
              const size = map.getSize();
              return [at.x - size.x / 2, at.y - size.y / 2];""")
            ActionChains(driver).move_to_element_with_offset(box, round(offset[0]), round(offset[1])).perform()
            other.wait(lambda: driver.execute_script(
                "return [...document.querySelectorAll('.leaflet-tooltip')].some(t => t.textContent.includes('Evil'))"),
                "the marker's tooltip")
            tip = driver.execute_script(
                "return [...document.querySelectorAll('.leaflet-tooltip')].map(t => t.textContent).join('|')")
            check(HOSTILE_NAME in tip, f"the tooltip reads {tip!r}")
        injected = driver.execute_script(
            "return document.querySelectorAll('#injected, #results b, #panel b, .leaflet-tooltip b, script:not([src]):not([type])').length")
        check(injected == 0, f"{injected} element(s) from the data reached the page")
        links = driver.execute_script(
            "return [...document.querySelectorAll('#panel a')].map(a => a.getAttribute('href'))")
        check(not any(link and link.lower().startswith("javascript:") for link in links),
              f"a javascript: link reached the panel: {links}")
    finally:
        server.kill()
        server.wait(timeout=WAIT_S)
    return "the name, the address and a javascript: website stay text in the list, the panel and the tooltip"


AXE_SCRIPT = os.environ.get("AXE_SCRIPT", "")


def axe_script():
    """axe-core, the accessibility engine, as the PyPI package axe-playwright-python ships it
    (installed without its Playwright dependency: only the script is read)."""
    if AXE_SCRIPT:
        return AXE_SCRIPT
    spec = importlib.util.find_spec("axe_playwright_python")
    check(spec is not None and spec.submodule_search_locations,
          "axe-playwright-python is not installed (pip install --no-deps axe-playwright-python)")
    return os.path.join(list(spec.submodule_search_locations)[0], "axe.min.js")


def test_accessibility(page, cli, ctx):
    """axe-core finds no violation (WCAG 2.x A and AA rules, best practices) on the page at rest,
    with results and a store's panel open, and at phone size."""
    with open(axe_script()) as handle:
        axe = handle.read()
    driver = page.driver
    near = ctx.get("near", f"{TAIPEI[0]},{TAIPEI[1]}")
    now = ctx.get("now") or pick_now_with_closed_stores(cli, near)
    findings = []
    views = [({}, (1280, 800)), ({"near": near, "open_now": "1", "now": now}, (1280, 800)),
             ({"near": near, "now": now}, (390, 844))]
    try:
        for query, size in views:
            driver.set_window_size(*size)
            page.open(query)
            if query:
                first = page.list_ids()[0]
                driver.execute_script("document.querySelector('#results li').click()")
                page.wait_panel(first)
            driver.execute_script(axe)
            version = driver.execute_script("return axe.version")
            violations = driver.execute_async_script("""
              const done = arguments[arguments.length - 1];
              axe.run(document, {resultTypes: ['violations']}).then(
                r => done(r.violations.map(v => [v.id, v.impact, v.help, v.nodes.map(n => n.target.join(' ')).slice(0, 3)])),
                e => done([['axe-failed', 'critical', String(e), []]]));""")
            label = ("/?" + urllib.parse.urlencode(query) if query else "/") + f" at {size[0]}x{size[1]}"
            findings += [f"{label}: {v[0]} ({v[1]}): {v[2]} at {', '.join(v[3])}" for v in violations]
    finally:
        driver.set_window_size(1280, 800)
    check(not findings, "axe found:\n      " + "\n      ".join(findings))
    return f"axe-core {version}: no violation in {len(views)} views (rest, list with a panel, phone)"


# ---- issue 26: the picker shows what it lists -------------------------------------------------


def wait_fitted(page):
    """Until the map has fitted the list's latest load and drawn the view it fitted."""
    page.wait(lambda: page.attr("#map", "data-state") != "ready"
              or (page.attr("#map", "data-fit-gen") == page.attr("#results", "data-gen")
                  and page.attr("#map", "data-view") == "done"
                  and page.attr("#map", "data-view-zoom") == str(map_bounds(page)[4])),
              "the map to fit the list")


def listed_on_map(page):
    """Where the customer's ring and each listed store's dot are in the map's box (CSS pixels of
    the window), with the map's box and the panel's box when it is shown."""
    return page.driver.execute_script("""
      const box = document.getElementById('map').getBoundingClientRect();
      const at = (latlng) => { const p = map.latLngToContainerPoint(latlng); return [box.left + p.x, box.top + p.y]; };
      const dots = [];
      layers.results.eachLayer((l) => dots.push(at(l.getLatLng())));
      const you = [];
      layers.customer.eachLayer((l) => you.push(at(l.getLatLng())));
      const panel = document.getElementById('panel');
      const cover = panel.hidden ? null : panel.getBoundingClientRect();
      return {map: [box.left, box.top, box.right, box.bottom], dots, you,
              panel: cover && getComputedStyle(panel).position === 'absolute'
                ? [cover.left, cover.top, cover.right, cover.bottom] : null, zoom: map.getZoom()};""")


def test_map_fits_list(page, cli, ctx):
    """docs/page.md's Taipei example: the map shows the customer and every listed store (none
    under the store's panel); one store next door is shown at street level, not closer."""
    near = f"{TAIPEI[0]},{TAIPEI[1]}"
    page.driver.set_window_size(1280, 800)
    shown = []
    for query in ({"near": near}, {"near": near, "store": cli.nearest_ids(near, K)[-1]}):
        page.open(query)
        if "store" in query:
            page.wait_panel(query["store"])
        wait_fitted(page)
        seen = listed_on_map(page)
        check(len(seen["dots"]) == K, f"{query}: {len(seen['dots'])} dots of listed stores, not {K}")
        left, top, right, bottom = seen["map"]
        outside = [i + 1 for i, (x, y) in enumerate(seen["dots"])
                   if not (left + 6 <= x <= right - 6 and top + 6 <= y <= bottom - 6)]
        check(not outside, f"{query}: the listed stores {outside} are off the map at zoom {seen['zoom']}")
        check(all(left <= x <= right and top <= y <= bottom for x, y in seen["you"]), f"{query}: the customer is off the map")
        if seen["panel"]:
            pl, pt, pr, pb = seen["panel"]
            under = [i + 1 for i, (x, y) in enumerate(seen["dots"]) if pl - 6 <= x <= pr and pt <= y <= pb]
            check(not under, f"{query}: the listed stores {under} are under the store's panel")
        shown.append(f"{'with the panel' if 'store' in query else 'the list'}: {K} stores on the map at zoom {seen['zoom']}")
    # docs/page.md's example: nine drive-throughs 4–7 km away, the tenth in Manila. The nine are on
    # the map; the one more than 4 times the middle store's distance away is named in the map's note.
    example = documented_examples()[0]
    page.driver.get(page.base + example)
    page.wait_list(0)
    wait_fitted(page)
    query = urllib.parse.parse_qs(urllib.parse.urlsplit(example).query)
    stores = cli.json("nearest", "--near", query["near"][0], "-k", str(K), *cli_filters(query))["stores"]
    middle = sorted(s["distance_m"] for s in stores)[(len(stores) - 1) // 2]
    near_ones = [i for i, s in enumerate(stores) if i == 0 or s["distance_m"] <= 4 * middle]
    far_ones = [s for i, s in enumerate(stores) if i not in near_ones]
    seen = listed_on_map(page)
    left, top, right, bottom = seen["map"]
    pl, pt, pr, pb = seen["panel"] or (right + 1, 0, right + 1, 0)
    off = [stores[i]["id"] for i in near_ones
           if not (left + 6 <= seen["dots"][i][0] <= min(right, pl) - 6 and top + 6 <= seen["dots"][i][1] <= bottom - 6)]
    check(not off, f"{example}: the stores {off} are off the map (or under the panel) at zoom {seen['zoom']}")
    note = page.text("#map-note")
    check(all(s["name"] in note for s in far_ones), f"{example}: the map's note {note!r} does not name "
                                                    f"{[s['name'] for s in far_ones]}")
    shown.append(f"the example: {len(near_ones)} stores on the map at zoom {seen['zoom']}, "
                 f"{len(far_ones)} named off it ({', '.join(s['id'] for s in far_ones)})")
    # One store next door: street level.
    if ctx["server"]:
        directory = os.path.join(ctx["screenshots"], "one-store")
        os.makedirs(directory, exist_ok=True)
        data = os.path.join(directory, "stores.geojson")
        feature = {"type": "Feature", "id": "only-1", "geometry": {"type": "Point", "coordinates": [13.4, 52.5]},
                   "properties": {"name": "The only store", "timezone": "Europe/Berlin",
                                  "opening_hours": "Mo-Su 08:00-20:00"}}
        with open(data, "w") as handle:
            json.dump({"type": "FeatureCollection", "features": [feature]}, handle)
        server, base = start_server(ctx["server"], ctx["assets"] or None, "--data", data)
        try:
            other = Page(page.driver, base)
            other.open({"near": "52.50003,13.40004"})
            wait_fitted(other)
            zoom = map_bounds(other)[4]
            check(zoom == 16, f"one store 4 m away is shown at zoom {zoom}, not street level (16)")
        finally:
            server.kill()
            server.wait(timeout=WAIT_S)
        shown.append("one store next door at zoom 16")
    return "; ".join(shown)


def drawn_circles(page):
    """Every cluster drawn (each copy of the world too): [x, y, radius, count, copy] in the map's
    container pixels, and the map's size."""
    return page.driver.execute_script("""
      const out = [];
      layers.view.eachLayer((l) => {
        const c = l.options.cluster;
        if (!c) return;
        const p = map.latLngToContainerPoint(l.getLatLng());
        out.push([p.x, p.y, l.getRadius(), c.count, Boolean(l.options.copy), c.cells.length]);
      });
      const size = map.getSize();
      return {circles: out, size: [size.x, size.y]};""")


def test_first_world_view(page, cli, ctx):
    """The first view at / holds every cluster whole (those across the antimeridian too: New
    Zealand, Fiji, Hawaii), and no two circles touch."""
    page.driver.set_window_size(1280, 800)
    page.open({})
    wait_clusters(page, "the first view")
    seen = drawn_circles(page)
    width, height = seen["size"]
    marks = {}
    for x, y, radius, count, copy, cells in seen["circles"]:
        inside = radius <= x <= width - radius and radius <= y <= height - radius
        key = (count, cells, round(radius))
        marks.setdefault(key, []).append(inside)
    cut = [key[0] for key, copies in marks.items() if not any(copies)]
    check(not cut, f"clusters of {cut} stores are cut by the map's edge in the first view ({width}×{height})")
    circles = seen["circles"]
    touching = [(a[3], b[3]) for i, a in enumerate(circles) for b in circles[i + 1:]
                if ((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5 < a[2] + b[2]]
    check(not touching, f"circles that overlap in the first view: {touching[:6]}")
    total = sum(c[3] for c in circles if not c[4])
    first_zoom = map_bounds(page)[4]
    records = cli.json("info")["records"]
    check(total == records, f"the first view's clusters hold {total} stores, stores info has {records}")
    # Zoomed out to the world, no two circles touch either.
    zoom_out_to_world(page)
    circles = drawn_circles(page)["circles"]
    touching = [(a[3], b[3]) for i, a in enumerate(circles) for b in circles[i + 1:]
                if ((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5 < a[2] + b[2]]
    check(not touching, f"circles that overlap in the world view: {touching[:6]}")
    return (f"{len(marks)} clusters, all {records} stores, each whole in the first view at zoom "
            f"{first_zoom} ({width}×{height}); none touching there or at the world view")


def documented_examples():
    """The page addresses docs/page.md gives as examples (`/?…` in backquotes after 'Example')."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs", "page.md")
    with open(path) as handle:
        text = handle.read()
    return re.findall(r"Example: `(/\?[^`]+)`", text)


def cli_filters(query):
    """The `stores nearest` options of a page address's filters (as picker.js sends them)."""
    args = []
    now = query.get("now", [None])[0]
    for condition in query.get("where", []):
        args += ["--where", condition]
    if query.get("open_now"):
        args += ["--open-at", now] if now else ["--open-now"]
    if query.get("open_at"):
        args += ["--open-at", query["open_at"][0]]
    if query.get("open_for"):
        args += ["--open-for", query["open_for"][0] + "m"]
    if query.get("service"):
        args += ["--service", query["service"][0]]
    if now:
        args += ["--now", now]
    return args


def test_documented_examples(page, cli, ctx):
    """Every example address of docs/page.md is true: the page lists what `stores nearest` lists
    with those filters, and the store it opens is one of them (so it meets them)."""
    examples = documented_examples()
    check(examples, "docs/page.md gives no example address")
    said = []
    for example in examples:
        query = urllib.parse.parse_qs(urllib.parse.urlsplit(example).query)
        page.driver.get(page.base + example)
        page.wait_list(0)
        page.wait_map()
        expected = cli.nearest_ids(query["near"][0], K, *cli_filters(query))
        check(page.list_ids() == expected, f"{example}: the page lists {page.list_ids()}, the CLI {expected}")
        check(expected, f"{example}: lists no store")
        if "store" in query:
            store = query["store"][0]
            page.wait_panel(store)
            check(store in expected, f"{example}: opens {store}, which is not among the stores it lists "
                                     f"({', '.join(expected)}): it does not meet the example's filters")
        check("error" not in (page.attr("#message", "class") or ""), f"{example}: {page.text('#message')}")
        said.append(f"{example[:60]}…: {len(expected)} stores as the CLI" + (", its store among them" if "store" in query else ""))
    return "; ".join(said)


def test_open_at_from_url(page, cli, ctx):
    """`open_at` in the address fills the date and time fields: a wall time both, a date alone the
    date (the API's sentence asks for a time, naming open_at as it is spelt), and a time given then
    lists what `stores nearest --open-at` lists."""
    near = f"{TAIPEI[0]},{TAIPEI[1]}"
    fields = lambda: page.driver.execute_script(
        "return [document.getElementById('open-at-choice').checked, document.getElementById('open-at-date').value,"
        " document.getElementById('open-at-time').value, document.getElementById('open-at-zone').textContent];")
    page.open({"near": near, "open_at": "2026-12-24T07:30"})
    check(fields()[:3] == [True, "2026-12-24", "07:30"], f"open_at=2026-12-24T07:30 shows {fields()}")
    expected = cli.nearest_ids(near, K, "--open-at", "2026-12-24T07:30")
    check(page.list_ids() == expected, f"open_at=2026-12-24T07:30: page {page.list_ids()}, CLI {expected}")
    page.open({"near": near, "open_at": "2026-12-24T07:30Z"})
    check(fields()[1:3] == ["2026-12-24", "07:30"] and "UTC" in fields()[3], f"open_at=…07:30Z shows {fields()}")
    page.open({"near": near, "open_at": "2026-12-24"})
    check(fields()[:3] == [True, "2026-12-24", ""], f"open_at=2026-12-24 shows {fields()}")
    status, problem = http_json(page.base + "/v1/stores/nearest?" + urllib.parse.urlencode(
        {"near": near, "open_at": "2026-12-24"}))
    message = page.text("#message")
    check(status == 400 and message == problem_sentence(problem), f"open_at=2026-12-24: the page says '{message}', "
                                                                   f"the API {status} '{problem.get('detail')}'")
    check(message.startswith("open_at: "), f"the sentence '{message}' does not name open_at as it is spelt")
    gen = page.gen()
    page.driver.execute_script("""
      const time = document.getElementById('open-at-time');
      time.value = '09:15';
      time.dispatchEvent(new Event('change', {bubbles: true}));""")
    page.wait_list(gen)
    check(page.query().get("open_at") == ["2026-12-24T09:15"], f"the URL's open_at is {page.query().get('open_at')}")
    expected = cli.nearest_ids(near, K, "--open-at", "2026-12-24T09:15")
    check(page.list_ids() == expected, f"open at 09:15: page {page.list_ids()}, CLI {expected}")
    return f"a wall time, an instant and a date alone fill the fields; the date alone says '{message[:50]}…'"


def test_status_line_whole(page, cli, ctx):
    """The status line shows its whole sentence (a pickup answer is longer than a line): it wraps,
    nothing is cut or hidden."""
    near = f"{TAIPEI[0]},{TAIPEI[1]}"
    now = ctx.get("now") or pick_now_with_closed_stores(cli, near)
    store = cli.nearest_ids(near, K)[-1]
    checked = []
    try:
        for width in (1280, 900):
            page.driver.set_window_size(width, 800)
            page.open({"near": near, "now": now, "store": store})
            page.wait_panel(store)
            page.wait(lambda: page.text("#status").startswith("Pickup:"), "the pickup answer in the status line")
            text, clipped = page.driver.execute_script("""
              const e = document.getElementById('status'), box = e.getBoundingClientRect();
              const range = document.createRange(); range.selectNodeContents(e);
              const text = range.getBoundingClientRect();
              return [e.textContent, e.scrollWidth > e.clientWidth || e.scrollHeight > e.clientHeight
                      || text.right > box.right + 0.5 || text.bottom > box.bottom + 0.5];""")
            check(len(text) > 100, f"the status line's sentence is short ({text!r}): nothing to check")
            check(not clipped, f"at {width} px the status line is cut: {text!r}")
            checked.append(f"{width} px: {len(text)} characters whole")
    finally:
        page.driver.set_window_size(1280, 800)
    return "; ".join(checked)


UNNAMED = [
    # As All The Places' Suffolk export has them: no name, a spider `type`, one address line.
    ({"id": "9MsJi3NZsG9NeimQe8gh8HCT3ZI=", "type": "dunkindonuts", "address": "20 Main St",
      "website": "https://locations.dunkindonuts.com/en/ma/winthrop/20-main-st/337721"},
     [-70.993608, 42.382766], "Dunkindonuts, 20 Main St"),
    ({"id": "unnamed-operator", "operator": "City Cafés Ltd", "amenity": "cafe", "addr:housenumber": "3",
      "addr:street": "Tremont St", "addr:city": "Boston"}, [-71.0600, 42.3580], "City Cafés Ltd, 3 Tremont St"),
    ({"id": "unnamed-amenity", "amenity": "fast_food", "addr:street": "Court St"}, [-71.0590, 42.3590],
     "Fast food, Court St"),
    ({"id": "unnamed-nothing"}, [-71.0580, 42.3600], "unnamed-nothing"),
]


def test_unnamed_store_titles(page, cli, ctx):
    """A store without a name is called by what its record has (brand, operator, amenity or type,
    and its street), its id only when there is nothing else: in the list, the panel and the
    tooltip."""
    if not ctx["server"]:
        raise Skipped("needs --server")
    directory = os.path.join(ctx["screenshots"], "unnamed")
    os.makedirs(directory, exist_ok=True)
    data = os.path.join(directory, "stores.geojson")
    features = [{"type": "Feature", "geometry": {"type": "Point", "coordinates": where},
                 "properties": dict(properties, timezone="America/New_York", opening_hours="Mo-Su 06:00-22:00")}
                for properties, where, _ in UNNAMED]
    with open(data, "w") as handle:
        json.dump({"type": "FeatureCollection", "features": features}, handle)
    server, base = start_server(ctx["server"], ctx["assets"] or None, "--data", data)
    try:
        other = Page(page.driver, base)
        other.open({"near": "42.37,-71.02"})
        titles = dict(page.driver.execute_script(
            "return [...document.querySelectorAll('#results li')].map(li => [li.dataset.id, li.querySelector('.name').textContent]);"))
        for properties, _, expected in UNNAMED:
            check(titles.get(properties["id"]) == expected,
                  f"{properties['id']} is titled {titles.get(properties['id'])!r} in the list, not {expected!r}")
        first = UNNAMED[0][0]["id"]
        other.open({"near": "42.37,-71.02", "store": first})
        other.wait_panel(first)
        check(other.text("#panel-title") == UNNAMED[0][2], f"the panel's title is {other.text('#panel-title')!r}")
        tips = page.driver.execute_script(
            "const t = []; layers.results.eachLayer((l) => t.push(l.getTooltip().getContent().textContent)); return t;")
        check(any(tip.endswith(UNNAMED[0][2]) for tip in tips), f"the dots' tooltips are {tips}")
    finally:
        server.kill()
        server.wait(timeout=WAIT_S)
    return "; ".join(f"{p['id'][:12]}… → {t!r}" for p, _, t in UNNAMED)


def axe_violations(driver):
    """axe-core's violations (WCAG 2 A/AA and best practices) of the page as it is now."""
    with open(axe_script()) as handle:
        driver.execute_script(handle.read())
    return driver.execute_async_script("""
      const done = arguments[arguments.length - 1];
      axe.run(document, {resultTypes: ['violations']}).then(
        r => done(r.violations.map(v => v.id + ' (' + v.impact + '): ' + v.help + ' at ' +
                                   v.nodes.map(n => n.target.join(' ')).slice(0, 3).join(', '))),
        e => done(['axe-failed: ' + String(e)]));""")


def suggestions(page):
    return page.driver.execute_script("""
      const list = document.getElementById('near-places');
      return {hidden: list.hidden, query: list.dataset.query || '',
              names: [...list.querySelectorAll('[role=option]')].map(o => o.dataset.name),
              texts: [...list.querySelectorAll('[role=option]')].map(o => o.textContent)};""")


def type_in_box(page, text):
    box = page.driver.find_element(By.ID, "near")
    box.click()
    box.send_keys(Keys.CONTROL, "a")
    box.send_keys(Keys.BACKSPACE)
    box.send_keys(text)
    return box


def test_place_box(page, cli, ctx):
    """The location box takes a town: typing "Seat" lists the places GET /v1/places (and `stores
    places`) gives, as an ARIA combobox; ↓ to Seattle and Enter lists Seattle's stores (those of
    `stores nearest --near Seattle`); Escape closes the suggestions; LAT,LON still works, with no
    suggestions, and so does a server whose /v1/places answers 404."""
    driver = page.driver
    driver.set_window_size(1280, 800)
    page.open({})
    box = type_in_box(page, "Seat")
    page.wait(lambda: not suggestions(page)["hidden"] and "q=Seat" in suggestions(page)["query"],
              "the suggestions for 'Seat'")
    shown = suggestions(page)
    sent = urllib.parse.parse_qs(shown["query"])
    args = ["places", "Seat", "--limit", sent["limit"][0]] + (["--near", sent["near"][0]] if "near" in sent else [])
    expected = cli.json(*args)["places"]
    check(shown["names"] == [p["name"] for p in expected],
          f"the box suggests {shown['names']}, `stores {' '.join(args)}` gives {[p['name'] for p in expected]}")
    check("Seattle" in shown["names"], f"'Seat' does not suggest Seattle: {shown['names']}")
    aria = driver.execute_script("""
      const box = document.getElementById('near'), list = document.getElementById('near-places');
      return [box.getAttribute('role'), box.getAttribute('aria-expanded'), box.getAttribute('aria-controls'),
              box.getAttribute('aria-autocomplete'), list.getAttribute('role'),
              [...list.children].every(o => o.getAttribute('role') === 'option' && o.id)];""")
    check(aria == ["combobox", "true", "near-places", "list", "listbox", True], f"the combobox's ARIA is {aria}")
    findings = axe_violations(driver)
    check(not findings, "axe with the suggestions open:\n      " + "\n      ".join(findings))
    # ↓ until Seattle is the active option (the focus stays in the box), then Enter.
    for _ in range(len(shown["names"])):
        box.send_keys(Keys.ARROW_DOWN)
        active = page.attr("#near", "aria-activedescendant")
        if active and driver.execute_script("return document.getElementById(arguments[0]).dataset.name", active) == "Seattle":
            break
    else:
        raise Failure("the arrow keys never made Seattle the active suggestion")
    check(page.attr("#" + active, "aria-selected") == "true", f"the active option {active} is not aria-selected")
    check(driver.switch_to.active_element.get_attribute("id") == "near", "the focus left the box")
    gen = page.gen()
    box.send_keys(Keys.ENTER)
    page.wait_list(gen)
    seattle = next(p for p in expected if p["name"] == "Seattle")
    near = f"{seattle['latitude']:.4f},{seattle['longitude']:.4f}"
    check(page.query().get("near") == [near], f"the URL's near is {page.query().get('near')}, not Seattle's {near}")
    check(page.attr("#near-places", "hidden") is not None, "the suggestions stayed open after Enter")
    value = driver.execute_script("return document.getElementById('near').value")
    check(value.startswith("Seattle"), f"the box shows {value!r} after Seattle was taken")
    by_name = cli.nearest_ids("Seattle", K)
    check(page.list_ids() == by_name, f"Seattle: the page lists {page.list_ids()}, stores nearest --near Seattle {by_name}")
    names = page.driver.execute_script(
        "return [...document.querySelectorAll('#results li .addr')].map(a => a.textContent)")
    check(sum("Seattle" in a for a in names) >= K // 2, f"the list is not Seattle's stores: {names}")
    took = f"'Seat' suggests {', '.join(shown['names'][:3])}…; ↓ Enter on Seattle lists {by_name[0]}… as --near Seattle"

    # Escape closes the suggestions and changes nothing else.
    box = type_in_box(page, "Zur")
    page.wait(lambda: not suggestions(page)["hidden"] and "q=Zur" in suggestions(page)["query"], "suggestions for 'Zur'")
    box.send_keys(Keys.ESCAPE)
    page.wait(lambda: suggestions(page)["hidden"], "Escape to close the suggestions")
    check(page.attr("#near", "aria-expanded") == "false", "aria-expanded is not false after Escape")
    check(page.list_ids() == by_name, "Escape changed the list")

    # LAT,LON: no suggestions, Enter lists the nearest stores.
    box = type_in_box(page, "47.61,-122.33")
    gen = page.gen()
    box.send_keys(Keys.ENTER)
    page.wait_list(gen)
    check(suggestions(page)["hidden"], "LAT,LON brought suggestions")
    check(page.list_ids() == cli.nearest_ids("47.61,-122.33", K), "LAT,LON typed does not list the CLI's nearest")

    # A server whose /v1/places answers 404: no suggestions, no error, LAT,LON still works.
    page.open({})
    driver.execute_script("""
      const real = window.fetch;
      window.fetch = (url, options) => String(url).startsWith('/v1/places')
        ? Promise.resolve(new Response('{"status":404,"detail":"no such route"}',
                                       {status: 404, headers: {'Content-Type': 'application/problem+json'}}))
        : real(url, options);""")
    box = type_in_box(page, "Seat")
    page.wait(lambda: driver.execute_script("return placesRoute === false"), "the page to learn /v1/places is missing")
    check(suggestions(page)["hidden"], "suggestions shown without /v1/places")
    check("error" not in (page.attr("#message", "class") or ""), f"a missing /v1/places shows {page.text('#message')!r}")
    box = type_in_box(page, "47.61,-122.33")
    gen = page.gen()
    box.send_keys(Keys.ENTER)
    page.wait_list(gen)
    check(page.list_ids() == cli.nearest_ids("47.61,-122.33", K), "without /v1/places LAT,LON does not list the nearest")
    return took + "; Escape closes; LAT,LON lists as before, also when /v1/places answers 404"


def test_ambiguous_town_offers_choices(page, cli, ctx):
    """A town several places share, none of them dominant (`?near=Springfield`: Paris is now
    Paris, France, its namesakes listed beside it), is refused with the API's sentence, and the
    places it may mean, those of the problem's `places` (as `stores nearest --near Springfield`
    lists them), are offered under the box; taking one lists the stores near it, as `stores nearest`
    does at its LAT,LON, and the box shows its name."""
    driver = page.driver
    driver.set_window_size(1280, 800)
    status, problem = http_json(page.base + "/v1/stores/nearest?" + urllib.parse.urlencode({"near": "Springfield", "k": K}))
    check(status == 400 and problem.get("parameter") == "near", f"near=Springfield answered {status}: {problem}")
    expected = problem.get("places") or []
    check(len(expected) > 1 and all(p["name"] == "Springfield" for p in expected), f"the problem's places: {expected}")
    refusal = cli.error("nearest", "--near", "Springfield")
    check(all(f"Springfield, {p['division']}, {p['country']}" in refusal for p in expected),
          f"the problem's places are not those the CLI lists: {refusal}")
    page.open({"near": "Springfield"})
    page.wait(lambda: not suggestions(page)["hidden"], "the places 'Springfield' may mean under the box")
    shown = suggestions(page)
    check(len(shown["names"]) == len(expected), f"the page offers {len(shown['names'])} places, the API {len(expected)}")
    check(all(f"{p['division']}, {p['country']}" in text for p, text in zip(expected, shown["texts"])),
          f"the choices read {shown['texts']}, the API's places are {[(p['division'], p['country']) for p in expected]}")
    check("error" in (page.attr("#message", "class") or ""), "the refusal is not shown as an error")
    check("names" in page.text("#message"), f"the message is {page.text('#message')!r}")
    illinois = next((i for i, p in enumerate(expected) if p["division"] == "Illinois"), None)
    check(illinois is not None, "Springfield, Illinois is not among the places")
    gen = page.gen()
    driver.execute_script(
        "document.getElementById(arguments[0]).dispatchEvent(new MouseEvent('mousedown', {bubbles: true}))",
        f"place-{illinois}")
    page.wait_list(gen)
    place = expected[illinois]
    near = f"{place['latitude']:.4f},{place['longitude']:.4f}"
    check(page.query().get("near") == [near], f"the URL's near is {page.query().get('near')}, not Springfield, Illinois's {near}")
    check(page.list_ids() == cli.nearest_ids(near, K), "Springfield, Illinois: the list is not `stores nearest` at its LAT,LON")
    value = driver.execute_script("return document.getElementById('near').value")
    check(value == "Springfield, Illinois, US", f"the box shows {value!r}")
    check(suggestions(page)["hidden"], "the choices stayed open after one was taken")
    return f"?near=Springfield offers {len(expected)} places as the API's problem lists them; taking Springfield, Illinois lists {page.list_ids()[0]}…"


def test_spill_erased_warning(page, cli, ctx):
    """Hours whose later rule cuts a night at midnight (issue 26, spill-erased): the store's panel
    says so under its week, as `stores hours` warns; a store without it shows no such line."""
    if not ctx["server"]:
        raise Skipped("needs --server")
    directory = os.path.join(ctx["screenshots"], "spill")
    os.makedirs(directory, exist_ok=True)
    data = os.path.join(directory, "stores.geojson")
    def store(ident, hours, lon):
        return {"type": "Feature", "id": ident, "geometry": {"type": "Point", "coordinates": [lon, 14.55]},
                "properties": {"name": ident, "timezone": "Asia/Manila", "opening_hours": hours}}
    cut = "Mo-Th 05:30-02:30; Fr 05:30-03:30; Sa 05:30-02:30; Su 06:00-01:30"
    with open(data, "w") as handle:
        json.dump({"type": "FeatureCollection", "features": [
            store("cut", cut, 121.02), store("kept", "Mo-Fr 18:00-02:00; Sa off", 121.03)]}, handle)
    warnings = cli.json("hours", "--expression", cut, "--timezone", "Asia/Manila")["warnings"]
    check(any(w.startswith("spill-erased") for w in warnings), f"stores hours does not warn: {warnings}")
    server, base = start_server(ctx["server"], ctx["assets"] or None, "--data", data)
    try:
        other = Page(page.driver, base)
        other.open({"near": "14.55,121.02", "store": "cut"})
        other.wait_panel("cut")
        other.wait(lambda: other.text("#week-note"), "the hours warning under the week")
        note = other.text("#week-note")
        check(note.startswith("Hours warning:") and "Friday 00:00-02:30" in note, f"the panel says {note!r}")
        other.open({"near": "14.55,121.02", "store": "kept"})
        other.wait_panel("kept")
        check(not other.text("#week-note"), f"a store whose Saturday is off on purpose: {other.text('#week-note')!r}")
    finally:
        server.kill()
        server.wait()
    return f"the panel of a store with a night cut at midnight reads {note[:80]!r}…"


# ---- issue 32: hours per service, paused ordering, temporary closures ------------------------------


def service_control(page):
    """The service control of the filters: hidden or not, its checkboxes [value, checked, label],
    its select's options and value, once /v1/info's services have been read."""
    page.wait(lambda: page.attr("#services", "data-ready") == "1", "the service control")
    return page.driver.execute_script("""
      const box = document.getElementById('services'), select = box.querySelector('select');
      return {hidden: box.hidden,
              boxes: [...box.querySelectorAll('input[type=checkbox]')].map(i => [i.value, i.checked, i.parentElement.textContent.trim()]),
              options: select ? [...select.options].map(o => [o.value, o.textContent]) : [],
              value: select ? select.value : null};""")


def list_statuses(page):
    """The list as [id, status line, 'Orders paused' mark or '']."""
    return page.driver.execute_script("""
      return [...document.querySelectorAll('#results li')].map(li => [li.dataset.id, li.querySelector('.st').textContent,
        li.querySelector('.badge') ? li.querySelector('.badge').textContent : '']);""")


def record_bodies(page):
    """From now on the page's fetch bodies (the pickup request's) are kept in window.sentBodies."""
    page.driver.execute_script("""
      window.sentBodies = [];
      const real = window.fetch;
      window.fetch = (url, options) => {
        if (options && options.body) window.sentBodies.push([String(url), JSON.parse(options.body)]);
        return real(url, options);
      };""")


def day_text(date):
    """As picker.js writes a day: "Wed 2 Dec"."""
    day = datetime.date.fromisoformat(date)
    return f"{day.strftime('%a')} {day.day} {day.strftime('%b')}"


def span_text(span, date):
    """As picker.js writes an open span of a day (its spanText)."""
    start, end = span["start"], span["end"]
    if not start and not end:
        return "24 hours"
    end_text = ""
    if end:
        next_day = end[:10] > date
        end_text = "24:00" if next_day and end[11:16] == "00:00" else end[11:16] + (" (next day)" if next_day else "")
    if not start:
        return "until " + end_text
    if not end:
        return "from " + start[11:16]
    return start[11:16] + "–" + end_text


def week_rows(days):
    """The rows [day, hours] picker.js draws for an hours answer's days."""
    rows = []
    for i, day in enumerate(days):
        spans = [s for s in day["spans"] if s["state"] != "closed"]
        text = "closed" if not spans else ", ".join(
            ("unknown " if s["state"] == "unknown" else "") + span_text(s, day["date"])
            + (f" ({s['comment']})" if s["comment"] else "") for s in spans)
        rows.append([("Today, " if i == 0 else "") + day_text(day["date"]), text])
    return rows


def panel_services(page):
    """The services part of the open panel: per service its source, heading, status, rows and line."""
    return page.driver.execute_script("""
      return [...document.querySelectorAll('#services-weeks .service-week')].map(s => ({
        service: s.dataset.service, source: s.dataset.source,
        heading: s.querySelector('h3') ? s.querySelector('h3').textContent : '',
        status: s.querySelector('.service-state') ? s.querySelector('.service-state').textContent : '',
        rows: [...s.querySelectorAll('tbody tr')].map(r => [r.cells[0].textContent, r.cells[1].textContent, r.className]),
        line: s.querySelector('.service-line') ? s.querySelector('.service-line').textContent : ''}));""")


SERVICE_LINES = {"store hours": "the store's hours, as above.", "not offered": "not offered.", "unknown": "hours unknown."}


def test_service_toggle(page, cli, ctx):
    """The services /v1/info lists are offered (the bundled data: a "Drive-through hours" checkbox);
    checked, every request carries service=drive_through, the list's statuses are those of `stores
    nearest --service drive_through` ("open now" then lists the stores whose drive-through is open),
    the URL keeps it, the panel's status and pickup answer are the drive-through's."""
    near = f"{TAIPEI[0]},{TAIPEI[1]}"
    now = ctx.get("now") or pick_now_with_closed_stores(cli, near)
    services = [s["service"] for s in cli.json("info")["services"]]
    check("drive_through" in services, f"stores info lists the services {services}, not drive_through")
    page.open({"near": near, "now": now})
    control = service_control(page)
    check(not control["hidden"], "the page offers no service although stores info lists " + ", ".join(services))
    if len(services) == 1:
        check(control["boxes"] == [["drive_through", False, "Drive-through hours"]], f"the service control is {control}")
    else:
        check([v for v, _ in control["options"]] == [""] + services, f"the service control is {control}")
    before = list_statuses(page)
    plain = cli.json("nearest", "--near", near, "-k", str(K), "--now", now)["stores"]
    check([[s["id"], sentence(s["status_text"])] for s in plain] == [row[:2] for row in before],
          f"without a service the list is {before}")
    gen = page.gen()
    if len(services) == 1:
        page.driver.find_element(By.ID, "service-drive_through").click()
    else:
        page.driver.execute_script("const s = document.getElementById('service'); s.value = 'drive_through';"
                                   " s.dispatchEvent(new Event('change', {bubbles: true}));")
    page.wait_list(gen)
    check(page.query().get("service") == ["drive_through"], f"the URL's service is {page.query().get('service')}")
    expected = cli.json("nearest", "--near", near, "-k", str(K), "--now", now, "--service", "drive_through")["stores"]
    shown = list_statuses(page)
    wanted = [[s["id"], sentence("Drive-through: " + s["status_text"])] for s in expected]
    check([row[:2] for row in shown] == wanted,
          f"with the drive-through: the list is {shown}, stores nearest --service drive_through gives {wanted}")
    check([row[1] for row in shown] != [row[1] for row in before], "the drive-through's statuses are the store's")
    # "open now" by the drive-through's hours: the stores whose drive-through is open.
    gen = page.gen()
    page.driver.find_element(By.ID, "open-now").click()
    page.wait_list(gen)
    open_drive = cli.nearest_ids(near, K, "--open-at", now, "--service", "drive_through")
    open_store = cli.nearest_ids(near, K, "--open-at", now)
    check(page.list_ids() == open_drive, f"open now, drive-through: page {page.list_ids()}, CLI {open_drive}")
    check(open_drive and open_drive != open_store, f"open now by the drive-through's hours lists {open_drive}, "
                                                   f"by the store's {open_store}: nothing to tell apart")
    # The address keeps it: loaded again, the box is checked and the list is the same; every
    # request of the list, the stores in view and a store's panel carries service=drive_through.
    address = page.driver.current_url
    page.driver.get(address)
    page.wait_list(0)
    page.wait_map()
    control = service_control(page)
    check(control["boxes"][:1] == [["drive_through", True, "Drive-through hours"]] or control["value"] == "drive_through",
          f"loaded from {address}, the service control is {control}")
    check(page.list_ids() == open_drive, f"loaded from {address}: the list is {page.list_ids()}")
    record_bodies(page)
    first = open_drive[0]
    page.driver.execute_script("document.querySelector('#results li').click()")
    page.wait_panel(first)
    sent = page.driver.execute_script("""
      return performance.getEntriesByType('resource').map(e => e.name)
        .filter(n => /\\/v1\\/stores\\/(nearest|within|clusters)\\?/.test(n));""")
    check(sent, "the browser sent no store search")
    without = [n for n in sent if urllib.parse.parse_qs(urllib.parse.urlsplit(n).query).get("service") != ["drive_through"]]
    check(not without, f"searches without service=drive_through: {without[:3]}")
    page.wait(lambda: page.text("#pickup .answer"), "the pickup answer")
    bodies = page.driver.execute_script("return window.sentBodies")
    pickups = [body for url, body in bodies if url.endswith("/v1/pickup")]
    check(pickups and all(b.get("service") == "drive_through" for b in pickups), f"the pickup requests were {pickups}")
    hours = cli.json("hours", first, "--at", now, "--days", "7", "--service", "drive_through")
    status = page.text("#panel-status")
    check(status == sentence("Drive-through: " + hours["status_text"]),
          f"the panel says {status!r}, stores hours --service drive_through {hours['status_text']!r}")
    plan = cli.json("pickup", "--near", near, "--ready-in", "10m", "--store", first, "--now", now, "--service", "drive_through")
    answer = page.text("#pickup .answer")
    if plan["status"] == "assigned":
        check(plan["pickup_at_local"][11:16] in answer,
              f"the pickup answer {answer!r} lacks {plan['pickup_at_local'][11:16]} of stores pickup --service")
    # The panel of a store opened by its id (the URL's, not in the list) asks for it with the service.
    other = next(s["id"] for s in expected if s["id"] not in open_drive)
    page.open({"near": near, "now": now, "service": "drive_through", "open_now": "1", "store": other})
    page.wait_panel(other)
    asked = page.driver.execute_script("""
      return performance.getEntriesByType('resource').map(e => e.name).filter(n => n.includes('/v1/stores/' + arguments[0] + '?'));""",
                                       other)
    check(asked and all("service=drive_through" in n for n in asked), f"the store by its id was asked as {asked}")
    # Unchecked, the service leaves the address and the statuses are the store's again.
    gen = page.gen()
    if len(services) == 1:
        page.driver.find_element(By.ID, "service-drive_through").click()
    else:
        page.driver.execute_script("const s = document.getElementById('service'); s.value = '';"
                                   " s.dispatchEvent(new Event('change', {bubbles: true}));")
    page.wait_list(gen)
    check("service" not in page.query(), f"unchecked, the URL still has {page.query().get('service')}")
    check(page.list_ids() == open_store, f"unchecked: the list is {page.list_ids()}, not --open-at's {open_store}")
    # Zoomed out, the clusters are counted by the drive-through's hours too.
    page.open({"service": "drive_through", "open_now": "1", "now": now})
    wait_clusters(page, "the first view by the drive-through's hours", service=["drive_through"], open_at=[now])
    clusters, _, counted = check_clusters_as_cli(page, cli, "the first view by the drive-through's hours")
    by_store = cli.json("clusters", "--bbox", clusters["bbox"][0], "--columns", clusters["columns"][0], "--rows",
                        clusters["rows"][0], "--now", now, "--open-at", now)["count"]
    check(counted["count"] != by_store, f"the clusters count {counted['count']} stores open by the drive-through's "
                                        f"hours and {by_store} by the store's: nothing to tell apart")
    return (f"'Drive-through hours' lists {len(wanted)} statuses as --service drive_through; open now: "
            f"{', '.join(open_drive[:3])}… (the store's hours: {', '.join(open_store[:3])}…); the URL keeps it, "
            f"{len(sent)} searches and the pickup carry it; the first view's clusters count {counted['count']} "
            f"stores open by it ({by_store} by the store's hours)")


def patch_state(base, store_id, change, token):
    request = urllib.request.Request(base + f"/v1/stores/{store_id}/state", data=json.dumps(change).encode(),
                                     method="PATCH", headers={"Authorization": f"Bearer {token}",
                                                              "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=WAIT_S) as response:
        return json.loads(response.read())


def test_paused_and_closed_stores(page, cli, ctx):
    """A store paused through PATCH /v1/stores/{id}/state (a server of its own with
    STORES_ADMIN_TOKEN and --state memory) is marked "Orders paused" in the list and its panel says
    "Not taking orders: …" (the ordering_note, its instant in the store's time) above an order form
    that explains, the pickup answer naming another store; a store in a temporary closure shows
    the API's "temporarily closed …, reopens …" in the list and the panel; resumed, the mark goes."""
    if not ctx["server"]:
        raise Skipped("needs --server")
    import zoneinfo
    token = "page-test-token"
    server, base = start_server(ctx["server"], ctx["assets"] or None, env={"STORES_ADMIN_TOKEN": token})
    try:
        other = Page(page.driver, base)
        near = f"{TAIPEI[0]},{TAIPEI[1]}"
        ids = cli.nearest_ids(near, K)
        paused, closed = ids[1], ids[2]
        until = (datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(days=3)).replace(microsecond=0, second=0)
        until_text = until.strftime("%Y-%m-%dT%H:%M:%SZ")
        state = patch_state(base, paused, {"ordering": "paused", "until": until_text, "reason": "machine repair"}, token)
        check(state["ordering"] == "paused", f"the PATCH answered {state}")
        today = datetime.date.today()
        patch_state(base, closed, {"closures": [{"from": str(today - datetime.timedelta(days=2)),
                                                 "until": str(today + datetime.timedelta(days=6)), "reason": "renovation"}]}, token)
        other.open({"near": near})
        rows = {row[0]: row for row in list_statuses(other)}
        check(rows[paused][2] == "Orders paused", f"the paused store's row is {rows[paused]}")
        marked = [i for i, row in rows.items() if row[2]]
        check(marked == [paused], f"the rows marked paused are {marked}, not only {paused}")
        status, api_closed = http_json(base + f"/v1/stores/{closed}")
        check(api_closed["status_text"].startswith('temporarily closed "renovation", reopens'),
              f"the API says {api_closed['status_text']!r} for the closed store")
        check(rows[closed][1] == sentence(api_closed["status_text"]), f"the closed store's row is {rows[closed]}, "
                                                                    f"the API says {api_closed['status_text']!r}")
        # The paused store's panel.
        status, api_paused = http_json(base + f"/v1/stores/{paused}")
        check(api_paused["ordering"] == "paused" and "machine repair" in api_paused["ordering_note"],
              f"the API's store: {api_paused['ordering']}, {api_paused['ordering_note']!r}")
        local = until.astimezone(zoneinfo.ZoneInfo(api_paused["timezone"]))
        check(until_text in api_paused["ordering_note"], f"the ordering note {api_paused['ordering_note']!r} lacks {until_text}")
        expected = sentence("Not taking orders: " + api_paused["ordering_note"].replace(
            until_text, f"{day_text(local.date().isoformat())} {local.strftime('%H:%M')}"))
        page.driver.execute_script(f"document.querySelector('#results li[data-id=\"{paused}\"]').click()")
        other.wait_panel(paused)
        note = other.text("#panel-ordering")
        check(other.attr("#panel-ordering", "hidden") is None and note == expected,
              f"the panel says {note!r}, not {expected!r}")
        shown = page.driver.execute_script("""
          const e = document.getElementById('panel-ordering'), r = e.getBoundingClientRect();
          return [r.width > 0 && r.height > 0, getComputedStyle(e).fontWeight];""")
        check(shown[0] and int(shown[1]) >= 600, f"the note is not shown prominently: {shown}")
        explain = other.text("#order-note")
        check(other.attr("#order-note", "hidden") is None and "takes no orders" in explain,
              f"the order form says {explain!r}")
        other.wait(lambda: other.text("#pickup .answer"), "the pickup answer")
        answer = other.text("#pickup .answer")
        warnings = page.driver.execute_script(
            "return [...document.querySelectorAll('#pickup ul.warn li')].map(li => li.textContent);")
        check("cannot take it" in answer or "No store can take" in answer, f"the pickup answer for the paused store: {answer!r}")
        check(any("machine repair" in w for w in warnings), f"no pickup warning gives the reason: {warnings}")
        findings = axe_violations(page.driver)
        check(not findings, "axe with the paused store's panel:\n      " + "\n      ".join(findings))
        os.makedirs(ctx["screenshots"], exist_ok=True)
        shot = os.path.join(ctx["screenshots"], "paused.png")
        check(page.driver.save_screenshot(shot), f"no screenshot written to {shot}")
        # The closed store's panel.
        page.driver.execute_script(f"document.querySelector('#results li[data-id=\"{closed}\"]').click()")
        other.wait_panel(closed)
        status, hours = http_json(base + f"/v1/stores/{closed}/hours?days=7")
        check(other.text("#panel-status") == sentence(hours["status_text"]) and "Temporarily closed" in hours["status_text"].capitalize(),
              f"the closed store's panel says {other.text('#panel-status')!r}, the API {hours['status_text']!r}")
        check(other.attr("#panel-ordering", "hidden") is not None, "the closed (not paused) store shows a pause")
        # Resumed: the mark is gone at once. The same view loaded just before the change (its
        # `now` fixed, so the two loads ask the same URLs within a second or two) shows that the
        # page asks the service again rather than reusing an answer it may keep for 10 s.
        view = {"near": near, "store": paused,
                "now": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")}
        other.open(view)
        other.wait_panel(paused)
        rows = {row[0]: row for row in list_statuses(other)}
        check(rows[paused][2] == "Orders paused", f"before resuming, the row is {rows[paused]}")
        patch_state(base, paused, {"ordering": "open"}, token)
        other.open(view)
        other.wait_panel(paused)
        rows = {row[0]: row for row in list_statuses(other)}
        check(not rows[paused][2], f"resumed, the row is still {rows[paused]}")
        check(other.attr("#panel-ordering", "hidden") is not None, f"resumed, the panel says {other.text('#panel-ordering')!r}")
    finally:
        server.kill()
        server.wait(timeout=WAIT_S)
    return f"{paused}: 'Orders paused', '{note[:70]}…', pickup: '{answer[:60]}…'; {closed}: '{rows[closed][1][:60]}…'"


SERVICE_STORES = [
    # id, properties beyond the name, zone and hours: each way a store's hours for a service are read.
    ("svc-own", {"opening_hours:drive_through": "Mo-Su 05:00-24:00", "drive_through": "yes",
                 "opening_hours:kitchen": "Mo-Fr 11:00-14:00,17:00-21:00"}),
    ("svc-store", {"drive_through": "yes", "kitchen": "no"}),
    ("svc-none", {"drive_through": "no"}),
    ("svc-unknown", {}),
]


def test_service_weeks_on_panel(page, cli, ctx):
    """A store's panel lists, under its week, each service's: a store of the bundled data with
    `opening_hours:drive_through` shows the drive-through's week as `stores hours` gives it, one
    without shows "Drive-through: not offered."; on data with two services (a server of its own)
    the page offers a select, a service by the store's hours and unknown hours are one line each,
    and choosing "Kitchen" lists what `stores nearest --service kitchen` lists."""
    near = f"{TAIPEI[0]},{TAIPEI[1]}"
    now = ctx.get("now") or pick_now_with_closed_stores(cli, near)
    drive = cli.nearest_ids(near, 1, "--where", "drive_through=yes")[0]
    hours = cli.json("hours", drive, "--at", now, "--days", "7")
    week = next(s for s in hours["services"] if s["service"] == "drive_through")
    check(week["source"] == "own hours", f"{drive}'s drive-through hours are {week['source']}")
    page.open({"near": near, "now": now, "store": drive})
    page.wait_panel(drive)
    shown = {s["service"]: s for s in panel_services(page)}
    check(list(shown) == [s["service"] for s in hours["services"]], f"the panel lists the services {list(shown)}")
    part = shown["drive_through"]
    check(part["heading"] == "Drive-through, this week", f"the heading is {part['heading']!r}")
    check(part["status"] == sentence(week["status_text"]), f"the drive-through's status is {part['status']!r}, "
                                                           f"stores hours says {week['status_text']!r}")
    rows = [row[:2] for row in part["rows"]]
    check(rows == week_rows(week["days"]), f"the drive-through's week is {rows}, stores hours gives {week_rows(week['days'])}")
    check([i for i, row in enumerate(part["rows"]) if "today" in row[2]] == [0], "today is not the first, highlighted row")
    store_rows = page.driver.execute_script(
        "return [...document.querySelectorAll('#week tbody tr')].map(r => [r.cells[0].textContent, r.cells[1].textContent]);")
    check(store_rows == week_rows(hours["days"]), f"the store's week is {store_rows}, stores hours gives {week_rows(hours['days'])}")
    check(rows != store_rows, "the drive-through's week is the store's: nothing to tell apart")
    without = cli.nearest_ids(near, 1)[0]
    page.open({"near": near, "now": now, "store": without})
    page.wait_panel(without)
    line = {s["service"]: s for s in panel_services(page)}["drive_through"]["line"]
    check(line == "Drive-through: not offered.", f"the panel of {without} says {line!r}")
    said = [f"{drive}: the drive-through's week as stores hours ({rows[0][1]} today)", f"{without}: {line!r}"]

    if ctx["server"]:
        directory = os.path.join(ctx["screenshots"], "services")
        os.makedirs(directory, exist_ok=True)
        data = os.path.join(directory, "stores.geojson")
        features = [{"type": "Feature", "id": ident, "geometry": {"type": "Point", "coordinates": [13.40 + 0.002 * i, 52.5]},
                     "properties": dict(extra, name=ident, timezone="Europe/Berlin", opening_hours="Mo-Su 07:00-22:00")}
                    for i, (ident, extra) in enumerate(SERVICE_STORES)]
        with open(data, "w") as handle:
            json.dump({"type": "FeatureCollection", "features": features}, handle)
        server, base = start_server(ctx["server"], ctx["assets"] or None, "--data", data)
        try:
            other = Page(page.driver, base)
            where = "52.5,13.4"
            other.open({"near": where, "now": now})
            services = [s["service"] for s in cli.json("info", "--data", data)["services"]]
            control = service_control(other)
            check(sorted(services) == ["drive_through", "kitchen"], f"stores info lists {services}")
            check(control["options"] == [["", "the store"]] + [[s, {"drive_through": "Drive-through"}.get(s, s.capitalize())]
                                                             for s in services], f"the select offers {control['options']}")
            for ident, _ in SERVICE_STORES:
                other.open({"near": where, "now": now, "store": ident})
                other.wait_panel(ident)
                parts = {s["service"]: s for s in panel_services(other)}
                expected = cli.json("hours", ident, "--data", data, "--at", now, "--days", "7")["services"]
                for service in expected:
                    part = parts.get(service["service"])
                    label = {"drive_through": "Drive-through"}.get(service["service"], service["service"].capitalize())
                    check(part and part["source"] == service["source"],
                          f"{ident}: the panel's {service['service']} is {part}, stores hours says {service['source']}")
                    if service["source"] == "own hours":
                        check([r[:2] for r in part["rows"]] == week_rows(service["days"]),
                              f"{ident}: the {service['service']} week is {part['rows']}")
                    else:
                        check(part["line"] == f"{label}: {SERVICE_LINES[service['source']]}",
                              f"{ident}: the {service['service']} line is {part['line']!r}")
            gen = other.gen()
            page.driver.execute_script("const s = document.getElementById('service'); s.value = 'kitchen';"
                                       " s.dispatchEvent(new Event('change', {bubbles: true}));")
            other.wait_list(gen)
            check(other.query().get("service") == ["kitchen"], f"the URL's service is {other.query().get('service')}")
            kitchen = cli.json("nearest", "--data", data, "--near", where, "-k", str(K), "--now", now, "--service", "kitchen")
            wanted = [[s["id"], sentence("Kitchen: " + s["status_text"])] for s in kitchen["stores"]]
            check([row[:2] for row in list_statuses(other)] == wanted, f"Kitchen: the list is {list_statuses(other)}, the CLI {wanted}")
        finally:
            server.kill()
            server.wait(timeout=WAIT_S)
        said.append("two services: a select; own hours, the store's, not offered, unknown as stores hours; Kitchen as --service kitchen")
    return "; ".join(said)


TESTS = [
    ("1 loads with no console error", test_loads_without_console_errors),
    ("2 a click on the map lists the nearest stores", test_click_map_lists_nearest),
    ("3 open now with a fixed clock", test_open_now_with_fixed_clock),
    ("4 a store's panel: the week and a pickup answer", test_store_panel),
    ("5 a bad near shows the API's sentence", test_bad_near_sentences),
    ("6 first view under 300 KB", test_first_view_weight),
    ("7 keyboard: arrow down and Enter", test_keyboard),
    ("8 screenshots, desktop and phone", test_screenshots),
    ("9 an attribute checkbox filters as --where", test_attribute_filter),
    ("10 without Leaflet the list works", test_without_leaflet),
    ("11 tiles that fail fall back to the basemap", test_tiles_fail_to_basemap),
    ("12 gzip copies unpack to the files", test_gzip_copies_match),
    ("13 zoomed out, clusters count every store", test_clusters),
    ("14 the data is shown as text, never as HTML", test_data_is_text),
    ("15 no accessibility violation (axe-core)", test_accessibility),
    ("16 clusters stay put when the map pans", test_clusters_stay_when_panning),
    ("17 the browser's location", test_browser_location),
    ("18 the map fits the customer and the listed stores", test_map_fits_list),
    ("19 the first view holds every cluster whole, none touching", test_first_world_view),
    ("20 docs/page.md's examples are true", test_documented_examples),
    ("21 open_at in the address fills the fields", test_open_at_from_url),
    ("22 the status line is whole", test_status_line_whole),
    ("23 a store without a name is called by what it has", test_unnamed_store_titles),
    ("24 the box takes a town, with suggestions", test_place_box),
    ("25 hours that cut a night at midnight warn on the panel", test_spill_erased_warning),
    ("26 a town several places share offers them as choices", test_ambiguous_town_offers_choices),
    ("27 the service toggle: drive-through hours in every request", test_service_toggle),
    ("28 paused ordering and a temporary closure are shown", test_paused_and_closed_stores),
    ("29 the panel lists each service's week", test_service_weeks_on_panel),
]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", help="the stores-server binary to start")
    parser.add_argument("--url", help="test a page already served here instead of starting a server")
    parser.add_argument("--stores", help="the stores CLI (default: beside --server)")
    parser.add_argument("--assets", default="/usr/share/javascript/leaflet",
                        help="the Leaflet directory given to stores-server --assets ('' for none)")
    parser.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    parser.add_argument("--chromedriver", default=shutil.which("chromedriver") or "/usr/bin/chromedriver")
    parser.add_argument("--screenshots", default=".build/page-screenshots")
    parser.add_argument("-k", "--only", help="run only the tests whose name contains this")
    args = parser.parse_args()
    if not args.server and not args.url:
        parser.error("give --server (or --url)")
    stores = args.stores or os.path.join(os.path.dirname(os.path.abspath(args.server or "")), "stores")
    check(os.access(stores, os.X_OK), f"no stores CLI at {stores} (give --stores)")

    server = driver = None
    passed = failed = skipped = 0
    started = time.monotonic()
    try:
        if args.url:
            base = args.url.rstrip("/")
        else:
            server, base = start_server(args.server, args.assets)
        print(f"page: {base}/")
        with urllib.request.urlopen(base + "/", timeout=WAIT_S) as response:
            html = response.read().decode()
        config = json.loads(re.search(r'<script id="page-config" type="application/json">(.*?)</script>',
                                      html, re.S).group(1))
        tiles = (config.get("tiles") or {}).get("url")
        tile_pattern = re.escape(tiles.split("{")[0]) if tiles else ""
        basemap_status = None
        if config.get("basemap"):
            try:
                with urllib.request.urlopen(base + config["basemap"], timeout=WAIT_S) as response:
                    basemap_status = response.status
            except urllib.error.HTTPError as error:
                basemap_status = error.code
        print(f"page config: leaflet {'yes' if config.get('leaflet') else 'no'}, tiles {tiles or 'none'}, "
              f"basemap {config.get('basemap')} ({basemap_status})")
        driver = start_browser(args.chromium, args.chromedriver)
        page = Page(driver, base)
        ctx = {"screenshots": args.screenshots, "tile_pattern": tile_pattern, "basemap_status": basemap_status,
               "server": args.server, "assets": args.assets}
        for name, test in TESTS:
            if args.only and args.only not in name:
                continue
            try:
                outcome = test(page, CLI(stores), ctx)
                passed += 1
                print(f"ok   {name}: {outcome}")
            except Failure as error:
                failed += 1
                print(f"FAIL {name}: {error}")
            except Skipped as why:
                skipped += 1
                print(f"skip {name}: {why}")
            except Exception:  # a Selenium error is a failure of this test, not of the run
                failed += 1
                print(f"FAIL {name}:\n{traceback.format_exc()}")
    finally:
        if driver is not None:
            driver.quit()
        if server is not None:
            server.kill()
            server.wait(timeout=WAIT_S)
    print(f"page tests took {time.monotonic() - started:.0f} s")
    print(f"{passed} passed, {failed} failed" + (f", {skipped} skipped" if skipped else ""))
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main())
