// The store picker (GET /): plain ES2020, no build step, no dependency but Leaflet, which is loaded
// from the URL the server puts in #page-config. Every string from the data reaches the page through
// textContent or attributes set by the DOM, never as HTML. The page's state lives in its URL.
"use strict";

const K = 10; // stores in the list
const VIEW_MIN_ZOOM = 10; // from this zoom on every store in view is drawn; below it, clusters
const VIEW_PAGE = 1000; // stores a page of /v1/stores/within
const VIEW_PAGES = 5; // pages at most for the visible area
const CLUSTER_CELL_PX = 64; // about one cluster cell per 64 pixels of the map
const CLUSTER_MAX_CELLS = 256; // the most cells across or down /v1/stores/clusters takes
const CLUSTER_MAX_ZOOM = 14; // a click on a cluster zooms to its stores, never closer than this
const PLACES = 6; // suggestions under the location box
const PLACES_DELAY_MS = 150; // the suggestions are asked this long after the last key
const CLUSTER_GAP_PX = 2; // the least room between two clusters' circles; closer, they are drawn as one
const FIT_MAX_ZOOM = 16; // the list fitted on the map: street level for one store next door, no closer
const FIT_FAR = 4; // a listed store farther than this many times the middle one's distance is left off the fit
const FIT_PADDING_PX = 36; // room around the fitted list for the dots and the customer's ring
const WORLD_PADDING_PX = 28; // room around the first view's stores: a cluster of 1,000 has a radius of 27

const $ = (id) => document.getElementById(id);
const config = readConfig();
const state = readURL();
let map = null, layers = null, info = null;
let results = []; // the stores in the list, nearest first
let active = -1; // index of the list's active option
let nearestGen = 0, viewGen = 0, panelGen = 0, pickupGen = 0;
// The `bias` the last search by a town's name sent (the map's centre), which its pickup repeats.
let nearBias = "";
let viewTimer = 0;
let placesGen = 0, placesTimer = 0;
let placesRoute = true; // false once /v1/places answered 404 (a server without it): LAT,LON still works
let places = []; // the suggestions shown under the location box
let activePlace = -1; // index of the suggestion the arrow keys are on
let infoAnswer = null; // the promise of /v1/info's answer, asked once: the filters and the first view
const mapNotes = { map: "", fit: "", view: "" }; // the map's note: the basemap's, the fit's, the view's sentences

// ---- small helpers ---------------------------------------------------------------------------

function el(tag, props, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

function readConfig() {
  try {
    return JSON.parse($("page-config").textContent || "{}") || {};
  } catch (error) {
    return {};
  }
}

// Leaflet writes a string tooltip as HTML; a store's name is data, so it goes in as a text node.
function textTip(text) {
  return el("span", { text: String(text) });
}

function sentence(text) {
  const s = String(text || "").trim();
  if (!s) return "";
  const first = s.charAt(0).toUpperCase() + s.slice(1);
  return /[.!?)]$/.test(first) ? first : first + ".";
}

function say(text) {
  $("status").textContent = text;
}

function showMessage(text, isError) {
  const box = $("message");
  box.textContent = text || "";
  box.className = "message" + (isError ? " error" : "");
}

function distanceText(m) {
  if (m === null || m === undefined) return "";
  if (Math.round(m) < 1000) return Math.round(m) + " m";
  return (m < 10000 ? (m / 1000).toFixed(1) : Math.round(m / 1000)) + " km";
}

function stateClass(s) {
  return s === "open" ? "open" : s === "closed" ? "closed" : "unknown";
}

// "2026-11-25T19:00:00-08:00" → "19:00" (the wall time as written, in the store's zone)
function wallTime(iso) {
  const m = /T(\d\d:\d\d)/.exec(iso || "");
  return m ? m[1] : "";
}

const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

function dayText(date) {
  const [y, mo, d] = date.split("-").map(Number);
  const day = new Date(Date.UTC(y, mo - 1, d));
  return DAYS[day.getUTCDay()] + " " + d + " " + MONTHS[mo - 1];
}

// A local time with its day when that is not `today` (a YYYY-MM-DD in the store's zone).
function whenText(isoLocal, today) {
  if (!isoLocal) return "";
  const date = isoLocal.slice(0, 10);
  return (date === today ? "" : dayText(date) + ", ") + wallTime(isoLocal);
}

// What the page calls a store: its name (the API's `name`: the record's name, else its branch or
// brand), else what the record says the store is (its brand, operator, amenity, shop or type) and
// its street, else its id. All The Places exports without names (Suffolk's Dunkin' and
// Starbucks) are then "Dunkindonuts, 20 Main St", not a truncated hash.
function storeTitle(store) {
  if (!store) return "";
  if (store.name) return store.name;
  const p = store.properties && typeof store.properties === "object" ? store.properties : {};
  const text = (value) => (typeof value === "string" ? value.trim() : typeof value === "number" ? String(value) : "");
  const tag = (value) => {
    const words = text(value).replace(/[_;]+/g, " ").trim();
    return words.charAt(0).toUpperCase() + words.slice(1);
  };
  const what = text(store.brand) || text(p.brand) || text(p.operator) || tag(p.amenity) || tag(p.shop) || tag(p.type);
  const street = [text(p["addr:housenumber"]), text(p["addr:street"])].filter(Boolean).join(" ") ||
    text(p["addr:street_address"]) || String(store.address || "").split(",")[0].trim();
  return [what, street].filter(Boolean).join(", ") || store.id;
}

function attributeLabel(key) {
  const known = { drive_through: "Drive-through", wheelchair: "Wheelchair access" };
  if (known[key]) return known[key];
  const words = key.replace(/[_:]+/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

// A service (`opening_hours:<service>`) as the page names it: "Drive-through", "Kitchen".
function serviceLabel(service) {
  const known = { drive_through: "Drive-through", takeaway: "Takeaway", delivery: "Delivery" };
  return known[service] || attributeLabel(service);
}

// A store's status as the list and the panel write it: the API's status_text (of the service the
// page asks about, when one is chosen, named first).
function statusText(store) {
  const text = store.status_text || store.state || "";
  return sentence(state.service ? serviceLabel(state.service) + ": " + text : text);
}

// A wall time "YYYY-MM-DDTHH:MM" of an instant in a time zone (the browser's tz database), or "".
function zoneWallTime(iso, zone) {
  const at = Date.parse(iso);
  if (!Number.isFinite(at) || !zone) return "";
  try {
    const parts = {};
    for (const part of new Intl.DateTimeFormat("en-CA", {
      timeZone: zone, hourCycle: "h23", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit",
    }).formatToParts(new Date(at))) parts[part.type] = part.value;
    return parts.year + "-" + parts.month + "-" + parts.day + "T" + parts.hour + ":" + parts.minute;
  } catch (error) {
    return "";
  }
}

// A paused store's sentence: "Not taking orders: ordering paused until Thu 24 Dec 23:30 "machine
// repair"." (the API's ordering_note, its instant written in the store's time), else "".
function orderingText(store) {
  if (!store || store.ordering !== "paused") return "";
  const note = String(store.ordering_note || "ordering paused").replace(/until (\d{4}-\d\d-\d\dT[^\s"]+)/, (whole, iso) => {
    const local = zoneWallTime(iso, store.timezone);
    return local ? "until " + dayText(local.slice(0, 10)) + " " + local.slice(11) : whole;
  });
  return sentence("Not taking orders: " + note);
}

// ---- the URL -----------------------------------------------------------------------------------

function readURL() {
  const p = new URLSearchParams(location.search);
  return {
    near: p.get("near") || "",
    place: p.get("near") ? p.get("place") || "" : "", // the chosen place's name, shown for `near`
    resolved: null, // {text, point}: where the API read a place name in `near`
    when: p.has("open_at") ? "at" : ["1", "true", "yes", ""].includes(p.get("open_now")) ? "now" : "any",
    openAt: p.get("open_at") || "",
    openFor: p.get("open_for") || "",
    where: p.getAll("where"),
    service: p.get("service") || "", // the service whose hours the page speaks of (`opening_hours:<service>`)
    store: p.get("store") || "",
    now: p.get("now") || "",
    ready: p.get("ready") || "10",
    travel: p.get("travel") || "walk",
  };
}

function writeURL() {
  const p = new URLSearchParams();
  if (state.near) p.set("near", state.near);
  if (state.near && state.place) p.set("place", state.place);
  if (state.when === "now") p.set("open_now", "1");
  if (state.when === "at" && state.openAt) p.set("open_at", state.openAt);
  if (state.openFor) p.set("open_for", state.openFor);
  for (const w of state.where) p.append("where", w);
  if (state.service) p.set("service", state.service);
  if (state.store) p.set("store", state.store);
  if (state.now) p.set("now", state.now);
  if (state.ready !== "10") p.set("ready", state.ready);
  if (state.travel !== "walk") p.set("travel", state.travel);
  const query = p.toString();
  history.replaceState(null, "", location.pathname + (query ? "?" + query : ""));
}

// The point of `near` when it reads as LAT,LON in range, or where the API read the place it names
// (else the API's sentence says why).
function nearPoint() {
  const m = /^\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*$/.exec(state.near);
  if (!m) return state.resolved && state.resolved.text === state.near ? state.resolved.point : null;
  const lat = Number(m[1]), lon = Number(m[2]);
  return Math.abs(lat) <= 90 && Math.abs(lon) <= 180 ? [lat, lon] : null;
}

// The instant answers are for: the `now` of the URL (a fixed clock), else the browser's clock.
function clock() {
  return state.now || new Date().toISOString().slice(0, 19) + "Z";
}

// The search parameters every store search shares: where, the service, opening-hours filters, the clock.
function filterParams(p) {
  for (const w of state.where) p.append("where", w);
  if (state.service) p.set("service", state.service);
  if (state.when === "now") {
    if (state.now) p.set("open_at", state.now);
    else p.set("open_now", "1");
  } else if (state.when === "at" && state.openAt) {
    p.set("open_at", state.openAt);
  }
  const minutes = Number(state.openFor);
  if (state.openFor && minutes > 0) p.set("open_for", minutes + "m"); // alone: open now for that long
  p.set("now", clock());
  return p;
}

// ---- the API ------------------------------------------------------------------------------------

// {ok, data, notes, error}: `error` is a sentence for the page (the problem's detail when there is one).
// Answers about stores may be kept 10 s (`Cache-Control: max-age=10`), but a pause or a closure
// must show as soon as staff set it: the page asks again each time (`no-cache`), and the service
// answers 304 from the answer's ETag when nothing changed.
async function api(path, params, body) {
  const url = path + (params && [...params].length ? "?" + params.toString() : "");
  const cache = path.startsWith("/v1/stores/") ? "no-cache" : "default";
  let response;
  try {
    response = await fetch(url, body === undefined ? { headers: { Accept: "application/json" }, cache } : {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(body),
    });
  } catch (error) {
    return { ok: false, error: "The service did not answer (" + error.message + "). Check that stores-server is running." };
  }
  const notes = (response.headers.get("X-Stores-Note") || "").trim();
  let data = null;
  try {
    data = await response.json();
  } catch (error) {
    data = null;
  }
  let decoded = notes;
  try {
    decoded = decodeURIComponent(notes);
  } catch (error) {
    // keep it as sent
  }
  if (response.ok && data) return { ok: true, data, notes: decoded ? sentence(decoded) : "" };
  const detail = data && typeof data.detail === "string" ? data.detail : "";
  return {
    ok: false,
    status: response.status,
    error: detail ? problemSentence(detail, data.parameter)
      : "The service answered " + response.status + " " + response.statusText + ".",
    // A `near` name several places have (or none): the places it may mean (or close names).
    places: data && Array.isArray(data.places) ? data.places : [],
  };
}

// A problem's detail as the page says it: a detail that starts with the parameter it is about
// ("open_at: 2026-12-24 is a date; …") keeps the name as the URL and the API spell it (a capital
// would make "Open_at", a name nothing uses); any other detail is a sentence.
function problemSentence(detail, parameter) {
  const named = typeof parameter === "string" && parameter && detail.startsWith(parameter + ":");
  if (!named) return sentence(detail);
  const s = detail.trim();
  return /[.!?)]$/.test(s) ? s : s + ".";
}

// ---- the list -----------------------------------------------------------------------------------

async function loadNearest() {
  const gen = ++nearestGen;
  $("results").setAttribute("aria-busy", "true");
  try {
    await searchNearest(gen);
  } finally {
    if (gen === nearestGen) finishList(gen);
  }
}

async function searchNearest(gen) {
  if (!state.near) {
    results = [];
    renderList();
    showMessage("Choose where you are: type a town or LAT,LON above, click the map, or use your location.");
    say("No location chosen yet.");
    return;
  }
  say("Looking for the stores nearest " + nearText() + "…");
  const p = new URLSearchParams({ near: state.near, k: String(K) });
  // A town several places share is the one near the map's centre once the map shows a region: the
  // service weighs nearer places more (`bias`), and names the others in its note.
  nearBias = "";
  if (!/^[\d+\-.]/.test(state.near) && map && map.getZoom() >= 4) {
    const centre = map.getCenter().wrap();
    nearBias = centre.lat.toFixed(4) + "," + centre.lng.toFixed(4);
    p.set("bias", nearBias);
  }
  const answer = await api("/v1/stores/nearest", filterParams(p));
  if (gen !== nearestGen) return;
  if (!answer.ok) {
    results = [];
    renderList();
    showMessage(answer.error, true);
    say(answer.error);
    drawResults();
    mapNote("", "fit");
    // A town several places share: they are offered under the box, to take as a suggestion is.
    if (answer.places.length) showPlaces(answer.places, state.near, p);
    return;
  }
  results = answer.data.stores || [];
  const read = answer.data.query && answer.data.query.near;
  if (read && Number.isFinite(read.latitude) && Number.isFinite(read.longitude)) {
    state.resolved = { text: state.near, point: [read.latitude, read.longitude] };
  }
  renderList();
  drawResults();
  if (results.length) fitToResults(gen);
  else mapNote("", "fit");
  const filters = describeFilters();
  // The status line says what was found; the API's notes (the place a name stood for, a store
  // far away, why nothing matched) go in the message box alone, so no sentence shows twice.
  if (results.length === 0) {
    const text = "No store near " + nearText() + (filters ? " is " + filters : " was found") + ".";
    showMessage(answer.notes || "", false);
    say(text);
  } else {
    showMessage(answer.notes || "", false);
    say(results.length + " stores" + (filters ? " " + filters : "") + " near " + nearText() +
      "; the nearest is " + distanceText(results[0].distance_m) + " away.");
  }
}

// Where the customer is, as the page says it: the chosen place's name, else what was typed.
function nearText() {
  return state.place || state.near;
}

function finishList(gen) {
  const list = $("results");
  list.setAttribute("data-gen", String(gen));
  list.setAttribute("aria-busy", "false");
}

function describeFilters() {
  const parts = [];
  if (state.when === "now") parts.push("open now");
  if (state.when === "at" && state.openAt) {
    const instant = /([Zz]|[+-]\d\d:?\d\d)$/.test(state.openAt) && state.openAt.includes("T");
    parts.push("open at " + state.openAt.replace("T", " ") + (instant ? "" : " local time"));
  }
  if (state.openFor) parts.push((state.when === "any" ? "open now " : "") + "for at least " + state.openFor + " min");
  for (const w of state.where) parts.push(attributeLabel(w.split("=")[0]).toLowerCase());
  if (state.service) parts.push("by " + serviceLabel(state.service).toLowerCase() + " hours");
  return parts.join(", ");
}

function renderList() {
  const list = $("results");
  const items = results.map((store, i) => el("li", {
    id: "opt-" + i, role: "option", "aria-selected": store.id === state.store ? "true" : "false",
    "data-id": store.id, "data-ordering": store.ordering || null, class: store.ordering === "paused" ? "paused" : null,
    onclick: () => { setActive(i); openStore(store); },
  },
  el("span", { class: "name", text: storeTitle(store) }),
  el("span", { class: "dist", text: distanceText(store.distance_m) }),
  el("span", { class: "addr", text: store.address || "" }),
  // A paused store stays listed (open for walk-ins), marked: it takes no orders.
  store.ordering === "paused" ? el("span", { class: "badge", text: "Orders paused" }) : null,
  el("span", { class: "st " + stateClass(store.state), text: statusText(store) }),
  el("span", { class: "phone", text: store.phone || "" })));
  list.replaceChildren(...items);
  active = -1;
  list.removeAttribute("aria-activedescendant");
}

function setActive(i) {
  const list = $("results");
  if (results.length === 0) return;
  active = Math.max(0, Math.min(results.length - 1, i));
  for (const li of list.children) li.classList.toggle("active", li.id === "opt-" + active);
  list.setAttribute("aria-activedescendant", "opt-" + active);
  $("opt-" + active).scrollIntoView({ block: "nearest" });
}

function onListKey(event) {
  const moves = { ArrowDown: active + 1, ArrowUp: active - 1, Home: 0, End: results.length - 1 };
  if (event.key in moves) {
    event.preventDefault();
    setActive(moves[event.key]);
  } else if ((event.key === "Enter" || event.key === " ") && active >= 0 && results[active]) {
    event.preventDefault();
    openStore(results[active], true);
  }
}

// ---- the map ------------------------------------------------------------------------------------

function loadLeaflet() {
  const leaflet = config.leaflet;
  if (!leaflet || !leaflet.script) return Promise.reject(new Error("no Leaflet"));
  return new Promise((resolve, reject) => {
    if (leaflet.stylesheet) document.head.append(el("link", { rel: "stylesheet", href: leaflet.stylesheet }));
    const script = el("script", { src: leaflet.script });
    script.onload = () => (window.L ? resolve() : reject(new Error("Leaflet did not load")));
    script.onerror = () => reject(new Error("Leaflet could not be loaded from " + leaflet.script));
    document.head.append(script);
  });
}

function mapOff(text) {
  const box = $("map");
  box.classList.add("map-off");
  box.dataset.state = "off";
  box.replaceChildren(el("p", { text }));
}

// The map's note has two parts: why the basemap looks as it does (`map`), and what the view
// could not draw (`view`, replaced on every redraw of the view).
function mapNote(text, part) {
  mapNotes[part || "map"] = text || "";
  $("map-note").replaceChildren(...[mapNotes.map, mapNotes.fit, mapNotes.view].filter(Boolean)
    .map((t) => el("span", { text: t })));
}

async function startMap() {
  try {
    await loadLeaflet();
  } catch (error) {
    mapOff("The map needs Leaflet, which this server does not serve: start stores-server with " +
      "--assets DIR naming a directory with leaflet.min.js and leaflet.css (on Debian: apt install " +
      "libjs-leaflet). The list works without it.");
    return;
  }
  const L = window.L;
  map = L.map("map", { preferCanvas: true, worldCopyJump: true, minZoom: 1 });
  // Cluster counts sit over their circles and under the list's dots' tooltips; clicks go through
  // them to the circle on the canvas.
  const labels = map.createPane("cluster-labels");
  labels.style.zIndex = 450;
  labels.style.pointerEvents = "none";
  layers = {
    view: L.layerGroup().addTo(map),
    labels: L.layerGroup().addTo(map),
    results: L.layerGroup().addTo(map),
    customer: L.layerGroup().addTo(map),
  };
  const point = nearPoint();
  if (point) map.setView(point, 14);
  else await firstWorldView(await infoAnswer);
  // The header grows when /v1/info's checkboxes arrive, which may be after the map started:
  // Leaflet is told the map's new size, keeping its centre (else the view is off by half the change).
  if (window.ResizeObserver) new ResizeObserver(() => map.invalidateSize()).observe($("map"));
  if (config.tiles && config.tiles.url) startTiles();
  else startBasemap("");
  map.on("click", (event) => {
    const at = event.latlng.wrap();
    setNear(at.lat.toFixed(5) + "," + at.lng.toFixed(5), false);
  });
  map.on("moveend zoomend", () => {
    clearTimeout(viewTimer);
    viewTimer = setTimeout(loadView, 250);
  });
  drawResults();
  if (results.length) fitToResults(Number($("results").dataset.gen));
  $("map").dataset.state = "ready";
  loadView();
}

// The first view without a customer: the box of every store (/v1/info's `bounds`, west > east
// when it crosses the antimeridian, as the bundled data's does, whose stores from Hawaii to Fiji
// and New Zealand lie in the middle of it), at the closest whole zoom that shows all of it with
// room for the clusters' circles; else the world. The box's corners are single stores, while
// circles sit at their stores' mean, so one zoom closer often holds every circle too: that zoom's
// clusters are asked for and kept when every circle fits (a view holding the world twice is the
// last resort).
async function firstWorldView(info) {
  const L = window.L;
  const bounds = info && info.ok && Array.isArray(info.data.bounds) ? info.data.bounds : null;
  if (!bounds || bounds.length !== 4 || !bounds.every(Number.isFinite)) {
    map.setView([20, 0], 2);
    return;
  }
  const [w, s, e, n] = bounds;
  const box = L.latLngBounds([s, w], [n, e < w ? e + 360 : e]);
  map.fitBounds(box, { padding: [WORLD_PADDING_PX, WORLD_PADDING_PX], maxZoom: VIEW_MIN_ZOOM, animate: false });
  const zoom = map.getZoom(), centre = map.getCenter();
  if (zoom + 1 >= VIEW_MIN_ZOOM) return;
  map.setView(centre, zoom + 1, { animate: false });
  const grid = clusterGrid({ box: [-180, -90, 180, 90], wide: true }, zoom + 1);
  const answer = await api("/v1/stores/clusters", filterParams(new URLSearchParams({
    bbox: grid.box.join(","), columns: String(grid.columns), rows: String(grid.rows),
  })));
  const fit = answer.ok && circlesFit(clusterMarks(answer.data.clusters || []));
  if (fit) map.panBy(fit, { animate: false });
  else map.setView(centre, zoom, { animate: false });
}

// The pan (in pixels) that centres `marks`' circles in the map when they all fit in it with
// CLUSTER_GAP_PX to spare, else null.
function circlesFit(marks) {
  if (marks.length === 0) return null;
  const size = map.getSize();
  let left = Infinity, right = -Infinity, top = Infinity, bottom = -Infinity;
  for (const mark of marks) {
    const at = map.latLngToContainerPoint([mark.latitude, mark.longitude]);
    const r = clusterRadius(mark.count) + CLUSTER_GAP_PX;
    left = Math.min(left, at.x - r);
    right = Math.max(right, at.x + r);
    top = Math.min(top, at.y - r);
    bottom = Math.max(bottom, at.y + r);
  }
  if (right - left > size.x || bottom - top > size.y) return null;
  return window.L.point(Math.round((left + right - size.x) / 2), Math.round((top + bottom - size.y) / 2));
}

// The map shows what the list lists: the view is fitted to the customer and the listed stores
// (longitudes taken on the customer's side of the antimeridian), with room for their dots, at
// most at street level; on a wide screen the store's panel, which lies over the map's right
// side, is kept clear. A store much farther than the others (more than FIT_FAR times the
// middle store's distance: the tenth drive-through near Taipei is in Manila) would shrink the
// rest to one spot, so it is left off and the map's note names it. `gen` is the list's load it
// fits (the map's data-fit-gen, for tests).
function fitToResults(gen) {
  if (!map) return;
  const L = window.L;
  const point = nearPoint();
  const placed = results.filter((s) => Number.isFinite(s.latitude) && Number.isFinite(s.longitude));
  const distances = placed.map((s) => s.distance_m).filter(Number.isFinite).sort((a, b) => a - b);
  const reach = distances.length ? FIT_FAR * distances[Math.floor((distances.length - 1) / 2)] : Infinity;
  const far = placed.filter((s, i) => i > 0 && Number.isFinite(s.distance_m) && s.distance_m > reach);
  const points = placed.filter((s) => !far.includes(s)).map((s) => [s.latitude, s.longitude]);
  mapNote(far.length === 0 ? "" : (far.length === 1 ? "Off the map: " : far.length + " listed stores are off the map: ") +
    far.map((s) => storeTitle(s) + ", " + distanceText(s.distance_m) + " away").join("; ") + ".", "fit");
  if (point) points.push(point);
  if (points.length === 0) return;
  const reference = point ? point[1] : points[0][1];
  const box = L.latLngBounds(points.map(([lat, lon]) => [lat, lon + 360 * Math.round((reference - lon) / 360)]));
  map.fitBounds(box, {
    paddingTopLeft: [FIT_PADDING_PX, FIT_PADDING_PX],
    paddingBottomRight: [FIT_PADDING_PX + panelCover(), FIT_PADDING_PX],
    maxZoom: FIT_MAX_ZOOM, animate: false,
  });
  $("map").dataset.fitGen = String(gen);
}

// How much of the map's right side the store's panel covers (open, or about to open from the
// URL): its width and margin when it lies over the map, nothing when it is below it (a phone)
// or when it would leave the map too little room.
function panelCover() {
  const panel = $("panel");
  if (panel.hidden && !state.store) return 0;
  const style = getComputedStyle(panel);
  if (style.position !== "absolute") return 0;
  const cover = parseFloat(style.width) + parseFloat(style.right) || 0;
  return map.getSize().x - cover >= 2 * FIT_PADDING_PX + 200 ? cover : 0;
}

function startTiles() {
  const t = config.tiles;
  const tiles = window.L.tileLayer(t.url, { attribution: t.attribution || "", maxZoom: t.maxZoom || 19 });
  $("map").dataset.basemap = "tiles";
  let loaded = 0, failed = 0;
  tiles.on("tileload", () => { loaded += 1; });
  tiles.on("tileerror", () => {
    failed += 1;
    if (loaded === 0 && failed === 4) {
      map.removeLayer(tiles);
      startBasemap("The map tiles could not be loaded (offline?), so the map shows the offline basemap.");
    }
  });
  tiles.addTo(map);
}

async function startBasemap(why) {
  const box = $("map");
  box.dataset.basemap = "loading";
  if (!config.basemap) {
    box.dataset.basemap = "none";
    mapNote((why ? why + " " : "") + "No basemap is configured: stores are drawn without land outlines.");
    return;
  }
  const answer = await api(config.basemap);
  if (!answer.ok) {
    box.dataset.basemap = "missing";
    mapNote((why ? why + " " : "") + "The offline basemap is not available (" + config.basemap +
      " answered " + (answer.status || "nothing") + "): stores are drawn without land outlines.");
    return;
  }
  mapNote(why);
  // The land three times, a world apart: a view across the antimeridian, or zoomed out wider
  // than the world, shows the copies of the stores and clusters on land (lonsInView).
  const L = window.L;
  const land = L.featureGroup([-360, 0, 360].map((shift) => L.geoJSON(answer.data, {
    interactive: false, attribution: shift === 0 ? "Natural Earth" : null,
    coordsToLatLng: (c) => L.latLng(c[1], c[0] + shift),
    // Filled, not outlined: the polygons are cut at the antimeridian, at 0° through Antarctica and
    // at the edge of the Web Mercator map, and an outline would draw those cuts as coasts.
    style: { stroke: false, fillColor: "#f2efe6", fillOpacity: 1 },
  })));
  land.addTo(map);
  land.bringToBack();
  box.dataset.basemap = "loaded";
}

// Leaflet's bounds as [W, S, E, N] for the API: longitudes wrapped into [-180, 180] (west > east
// crosses the antimeridian), latitudes clamped to `poles`; a view wider than the world is `wide`.
function viewBox(poles) {
  const b = map.getBounds();
  const s = Math.max(-poles, b.getSouth()), n = Math.min(poles, b.getNorth());
  let w = b.getWest(), e = b.getEast();
  const wide = e - w >= 360;
  if (wide) { w = -180; e = 180; } else {
    w = ((((w + 180) % 360) + 360) % 360) - 180;
    e = ((((e + 180) % 360) + 360) % 360) - 180;
  }
  return { box: [w, s, e, n], wide };
}

function boxText(box) {
  return box.map((x) => Number(x.toFixed(5))).join(",");
}

// Where to draw longitude `lon` (the view may run past ±180 when it crosses the antimeridian, and
// show the world more than once when zoomed far out): first the copy nearest the view's centre,
// then any other copy in view.
function lonsInView(lon) {
  const b = map.getBounds(), center = map.getCenter().lng;
  const first = lon + 360 * Math.round((center - lon) / 360);
  const lons = [first];
  for (const step of [-360, 360, -720, 720]) {
    const other = first + step;
    if (other >= b.getWest() && other <= b.getEast()) lons.push(other);
  }
  return lons;
}

// The stores in the visible area: every one from zoom VIEW_MIN_ZOOM on, counted per grid cell
// (clusters) below it.
async function loadView() {
  if (!map) return;
  const gen = ++viewGen;
  const box = $("map");
  const zoom = map.getZoom();
  box.dataset.view = "busy";
  try {
    if (zoom < VIEW_MIN_ZOOM) await drawClusters(gen, box);
    else await drawView(gen, box);
  } finally {
    if (gen === viewGen) {
      box.dataset.viewGen = String(gen);
      box.dataset.viewZoom = String(zoom);
      box.dataset.view = "done";
    }
  }
}

function clearView() {
  layers.view.clearLayers();
  layers.labels.clearLayers();
}

// Every store in the visible area, a page at a time, as small dots on the canvas.
async function drawView(gen, box) {
  const drawn = [];
  let cursor = null, pages = 0, more = false;
  const base = filterParams(new URLSearchParams({ bbox: boxText(viewBox(90).box), limit: String(VIEW_PAGE) }));
  do {
    const p = new URLSearchParams(base);
    if (cursor) p.set("cursor", cursor);
    const answer = await api("/v1/stores/within", p);
    if (gen !== viewGen) return;
    if (!answer.ok) {
      mapNote("The stores in view could not be loaded: " + answer.error, "view");
      return;
    }
    drawn.push(...answer.data.stores);
    cursor = answer.data.next_cursor;
    pages += 1;
    more = Boolean(cursor) && pages >= VIEW_PAGES;
  } while (cursor && pages < VIEW_PAGES);
  clearView();
  const listed = new Set(results.map((s) => s.id));
  for (const store of drawn) {
    if (listed.has(store.id) || store.latitude === null) continue;
    for (const lon of lonsInView(store.longitude)) {
      storeDot(store.latitude, lon, storeTitle(store), () => openStore(store)).addTo(layers.view);
    }
  }
  box.dataset.viewKind = "stores";
  box.dataset.inView = String(drawn.length);
  box.dataset.clusters = "";
  box.dataset.clustersQuery = "";
  mapNote(more ? "Showing the first " + drawn.length + " stores in view; zoom in to see them all." : "", "view");
}

// A store of the view (not of the list): a small grey dot.
function storeDot(lat, lon, title, onclick) {
  return window.L.circleMarker([lat, lon], {
    radius: 4, weight: 1, color: "#fff", fillColor: "#56606b", fillOpacity: 0.85, bubblingMouseEvents: false,
  }).bindTooltip(textTip(title)).on("click", onclick);
}

// Zoomed out: GET /v1/stores/clusters for the visible area (the whole world when the view is wider
// than it), about one cell per CLUSTER_CELL_PX pixels, with the page's filters. Each cluster is a
// circle on the canvas, its radius growing with log(count), its count written over it; a cluster
// of one store is that store's dot.
async function drawClusters(gen, box) {
  const grid = clusterGrid(viewBox(90), map.getZoom());
  const query = filterParams(new URLSearchParams({
    bbox: grid.box.map(String).join(","),
    columns: String(grid.columns),
    rows: String(grid.rows),
  }));
  const answer = await api("/v1/stores/clusters", query);
  if (gen !== viewGen) return; // an answer for an older view
  if (!answer.ok) {
    clearView();
    box.dataset.clusters = "";
    mapNote("The stores in view could not be counted: " + answer.error, "view");
    return;
  }
  clearView();
  const marks = clusterMarks(answer.data.clusters || []);
  for (const mark of marks) {
    lonsInView(mark.longitude).forEach((lon, i) => drawCluster(mark, lon, i > 0));
  }
  drawResults(); // the list's stores over the clusters
  box.dataset.viewKind = "clusters";
  box.dataset.inView = String(answer.data.count);
  box.dataset.clusters = String(marks.length);
  box.dataset.clustersQuery = query.toString();
  mapNote(answer.data.count === 0 && answer.notes ? answer.notes : "", "view");
}

// The cells to ask for: a grid fixed on the Earth (from -180° and -90°) whose cell is about
// CLUSTER_CELL_PX pixels wide at this zoom, so panning moves the view over the same cells and the
// clusters stay where they are. The view is widened to whole cells. A cell is 90° / 2^zoom × 2^k,
// a binary fraction, so the box's numbers are written exactly and the world is a whole number
// of cells.
function clusterGrid(view, zoom) {
  let size = (CLUSTER_CELL_PX * 360) / (256 * Math.pow(2, zoom));
  const down = (x, origin) => origin + Math.floor((x - origin) / size + 1e-9) * size;
  const up = (x, origin) => origin + Math.ceil((x - origin) / size - 1e-9) * size;
  for (;;) {
    const [w, s, e, n] = view.box;
    const south = Math.max(-90, down(s, -90)), north = Math.min(90, up(n, -90));
    let west = down(w, -180), east = Math.min(180, up(e, -180));
    let columns = Math.round(((east - west + 360) % 360 || 360) / size);
    if (view.wide || columns >= Math.round(360 / size)) {
      west = -180; east = 180; columns = Math.round(360 / size);
    }
    const rows = Math.max(1, Math.round((north - south) / size));
    if (columns <= CLUSTER_MAX_CELLS && rows <= CLUSTER_MAX_CELLS) {
      return { box: [west, south, east, north], columns: Math.max(1, columns), rows, size };
    }
    size *= 2;
  }
}

function clusterRadius(count) {
  return Math.round(9 + 6 * Math.log10(count));
}

// The clusters as drawn ("marks"): each on the copy of the world nearest the view's centre, with
// its box as one run of longitudes there (east may pass 180). A city split by a cell edge (or by
// the antimeridian) gives two clusters side by side whose counts would be written over each
// other: a cluster whose centre falls inside a larger one's circle joins it (counts added,
// positions averaged by count, boxes joined), so the sum of the counts is the API's `count`.
function clusterMarks(clusters) {
  const center = map.getCenter().lng;
  const marks = [];
  for (const c of [...clusters].sort((a, b) => b.count - a.count)) {
    const shift = 360 * Math.round((center - c.longitude) / 360);
    const lon = c.longitude + shift;
    let [w, s, e, n] = c.bbox;
    if (e < w) e += 360; // across the antimeridian
    w += shift;
    e += shift;
    if (lon < w) { w -= 360; e -= 360; } // the stores east of the antimeridian hold the centre
    marks.push({ count: c.count, latitude: c.latitude, longitude: lon, bbox: [w, s, e, n], id: c.id || null,
      cells: [[c.column, c.row, c.count]], point: map.latLngToLayerPoint([c.latitude, lon]) });
  }
  // Two circles that would touch are one (Fiji's stores either side of the antimeridian, a city
  // cut by a cell edge): the larger takes the smaller in, and a circle grown so may reach
  // another, so the joining goes on until no two circles touch. The copy of the world compared
  // is the one nearest the larger circle.
  for (let joined = true; joined;) {
    joined = false;
    for (let i = 0; i < marks.length; i++) {
      for (let j = i + 1; j < marks.length; j++) {
        const big = marks[i], small = marks[j];
        const turn = 360 * Math.round((small.longitude - big.longitude) / 360);
        const at = map.latLngToLayerPoint([small.latitude, small.longitude - turn]);
        if (at.distanceTo(big.point) >= clusterRadius(big.count) + clusterRadius(small.count) + CLUSTER_GAP_PX) continue;
        joinMark(big, small, turn);
        marks.splice(j, 1);
        joined = true;
        j = i; // the grown circle is compared with every later one again
      }
    }
  }
  return marks;
}

// `small` drawn as part of `big` (`turn` the multiple of 360° that brings it next to `big`):
// the counts added, the position averaged by count, the boxes joined.
function joinMark(big, small, turn) {
  const [w, s, e, n] = small.bbox;
  const total = big.count + small.count;
  big.latitude = (big.latitude * big.count + small.latitude * small.count) / total;
  big.longitude = (big.longitude * big.count + (small.longitude - turn) * small.count) / total;
  big.count = total;
  big.bbox = [Math.min(big.bbox[0], w - turn), Math.min(big.bbox[1], s), Math.max(big.bbox[2], e - turn),
    Math.max(big.bbox[3], n)];
  big.id = null;
  big.cells.push(...small.cells);
  big.point = map.latLngToLayerPoint([big.latitude, big.longitude]);
}

// A cluster: a circle on the canvas with its count written over it (a cluster of one store is
// that store's dot); `copy` when it is drawn again on another copy of the world.
function drawCluster(mark, lon, copy) {
  const L = window.L;
  const shift = lon - mark.longitude;
  if (mark.count === 1 && mark.id) {
    const dot = storeDot(mark.latitude, lon, mark.id, () => openStoreByID(mark.id));
    Object.assign(dot.options, { cluster: mark, copy });
    dot.addTo(layers.view);
    return;
  }
  const radius = clusterRadius(mark.count);
  L.circleMarker([mark.latitude, lon], {
    radius, weight: 2, color: "#fff", fillColor: "#3d6a8e", fillOpacity: 0.85, bubblingMouseEvents: false,
    cluster: mark, copy,
  }).bindTooltip(mark.count + " stores: click to zoom in").on("click", () => zoomToCluster(mark, shift))
    .addTo(layers.view);
  L.marker([mark.latitude, lon], {
    pane: "cluster-labels", interactive: false, keyboard: false,
    icon: L.divIcon({
      className: "cluster-label", iconSize: [radius * 2, radius * 2],
      html: el("span", { text: String(mark.count), "data-count": mark.count, "data-copy": copy ? "1" : null }),
    }),
  }).addTo(layers.labels);
}

// A click on a cluster zooms to the box holding its stores (at most to CLUSTER_MAX_ZOOM), and at
// least one level in; `shift` is the copy of the world it was drawn on (0 or a multiple of 360).
function zoomToCluster(mark, shift) {
  const [w, s, e, n] = mark.bbox;
  const bounds = window.L.latLngBounds([s, w + shift], [n, e + shift]);
  const zoom = Math.min(CLUSTER_MAX_ZOOM, map.getBoundsZoom(bounds, false, window.L.point(40, 40)));
  if (zoom > map.getZoom()) map.fitBounds(bounds, { padding: [20, 20], maxZoom: CLUSTER_MAX_ZOOM });
  else map.setView([mark.latitude, mark.longitude + shift], map.getZoom() + 1);
}

function drawResults() {
  if (!map) return;
  const L = window.L;
  layers.results.clearLayers();
  layers.customer.clearLayers();
  const colors = { open: "#1c7c3c", closed: "#b3261e", unknown: "#6b6f75" };
  results.forEach((store, i) => {
    if (store.latitude === null) return;
    const chosen = store.id === state.store;
    L.circleMarker([store.latitude, store.longitude], {
      radius: chosen ? 10 : 7, weight: chosen ? 3 : 2, color: chosen ? "#f5a623" : "#fff",
      fillColor: colors[store.state] || colors.unknown, fillOpacity: 0.95, bubblingMouseEvents: false,
    }).bindTooltip(textTip((i + 1) + ". " + storeTitle(store) + (store.ordering === "paused" ? " (orders paused)" : "")))
      .on("click", () => { setActive(i); openStore(store); }).addTo(layers.results);
  });
  const point = nearPoint();
  if (point) {
    L.circleMarker(point, { radius: 8, weight: 3, color: "#0b5cad", fillColor: "#fff", fillOpacity: 1, interactive: false })
      .bindTooltip("You are here").addTo(layers.customer);
  }
}

// ---- the store's panel -----------------------------------------------------------------------------

async function openStore(store, focus) {
  state.store = store.id;
  writeURL();
  for (const li of $("results").children) li.setAttribute("aria-selected", String(li.dataset.id === store.id));
  drawResults();
  const panel = $("panel");
  const gen = ++panelGen;
  panel.hidden = false;
  panel.setAttribute("aria-busy", "true");
  panel.dataset.store = store.id;
  $("panel-title").textContent = storeTitle(store);
  $("panel-status").textContent = statusText(store);
  $("panel-status").className = "state " + stateClass(store.state);
  // Paused ordering: said prominently under the status, and by the order form (the pickup answer
  // then names the store that can take the order).
  const paused = orderingText(store);
  $("panel-ordering").textContent = paused;
  $("panel-ordering").hidden = !paused;
  $("order-note").textContent = paused ? "This store takes no orders now: asking finds the store that can." : "";
  $("order-note").hidden = !paused;
  $("services-weeks").replaceChildren();
  $("panel-address").textContent = (store.address || "") +
    (store.distance_m !== null && store.distance_m !== undefined ? " · " + distanceText(store.distance_m) + " away" : "");
  const contact = $("panel-contact");
  contact.replaceChildren();
  if (store.phone) contact.append(el("a", { href: "tel:" + store.phone.replace(/[^\d+]/g, ""), text: "☎ " + store.phone }));
  if (store.website && /^https?:\/\//i.test(store.website)) {
    contact.append(el("a", { href: store.website, rel: "noopener", target: "_blank", text: "Website" }));
  }
  $("panel-zone").textContent = store.timezone ? "Times in the store's time zone, " + store.timezone + "." : "";
  $("week").tBodies[0].replaceChildren();
  $("pickup").replaceChildren();
  if (focus) $("panel-title").focus();
  say("Details of " + storeTitle(store) + "." + (paused ? " " + paused : ""));
  try {
    // Without `service`: the answer holds the store's week and, in `services`, each service's.
    const hours = new URLSearchParams({ days: "7" });
    if (state.now) hours.set("at", state.now);
    const answer = await api("/v1/stores/" + encodeURIComponent(store.id) + "/hours", hours);
    if (gen !== panelGen) return;
    renderWeek(answer);
    panel.dataset.today = answer.ok && answer.data.days.length ? answer.data.days[0].date : "";
    await askPickup();
  } finally {
    if (gen === panelGen) panel.setAttribute("aria-busy", "false");
  }
}

// A span of a day: a null start goes on from the day before, a null end goes on after the day.
function spanText(span, date) {
  if (!span.start && !span.end) return "24 hours";
  let end = "";
  if (span.end) {
    const nextDay = span.end.slice(0, 10) > date;
    end = nextDay && wallTime(span.end) === "00:00" ? "24:00" : wallTime(span.end) + (nextDay ? " (next day)" : "");
  }
  if (!span.start) return "until " + end;
  if (!span.end) return "from " + wallTime(span.start);
  return wallTime(span.start) + "–" + end;
}

function renderWeek(answer) {
  const body = $("week").tBodies[0];
  // Hours that likely do not say what the store means (spill-erased: a night cut at midnight).
  const doubt = ((answer.ok && answer.data.warnings) || []).find((w) => w.startsWith("spill-erased"));
  let hoursNote = $("week-note");
  if (!hoursNote) $("week").after(hoursNote = el("p", { id: "week-note", class: "zone" }));
  hoursNote.textContent = doubt ? "Hours warning: " + sentence(doubt.replace(/^[^:]*: /, "").split("; write it as")[0]) : "";
  if (!answer.ok) {
    body.replaceChildren(el("tr", {}, el("td", { class: "error", text: answer.error })));
    return;
  }
  const h = answer.data;
  const services = Array.isArray(h.services) ? h.services : [];
  // The status at the top is the chosen service's (the list's), else the store's.
  const chosen = state.service ? services.find((s) => s.service === state.service) : h;
  if (chosen && chosen.status_text) {
    $("panel-status").textContent = statusText(chosen);
    $("panel-status").className = "state " + stateClass(chosen.state);
  }
  body.replaceChildren(...weekRows(h.days));
  renderServices(services);
}

// A week's rows: a day a row, today first and highlighted.
function weekRows(days) {
  return days.map((day, i) => {
    const spans = day.spans.filter((s) => s.state !== "closed");
    const text = spans.length === 0 ? "closed" : spans.map((s) => (s.state === "unknown" ? "unknown " : "") +
      spanText(s, day.date) + (s.comment ? " (" + s.comment + ")" : "")).join(", ");
    return el("tr", { class: i === 0 ? "today" : null, "aria-current": i === 0 ? "date" : null },
      el("th", { scope: "row", text: (i === 0 ? "Today, " : "") + dayText(day.date) }),
      el("td", { text }));
  });
}

// Under the store's week, each service's (the hours answer's `services`): its own hours as a
// week with its status; the store's hours, not offered or unknown as one line.
function renderServices(services) {
  const box = $("services-weeks");
  box.replaceChildren(...services.map((s) => {
    const label = serviceLabel(s.service);
    const section = el("section", { class: "service-week", "data-service": s.service, "data-source": s.source || "" });
    if (s.source === "own hours" && Array.isArray(s.days)) {
      section.append(el("h3", { text: label + ", this week" }),
        el("p", { class: "service-state " + stateClass(s.state), text: sentence(s.status_text || s.state) }),
        el("table", { class: "week" }, el("caption", { class: "sr", text: label + " hours, today first" }),
          el("tbody", {}, ...weekRows(s.days))));
    } else {
      const line = s.source === "store hours" ? "the store's hours, as above"
        : s.source === "not offered" ? "not offered" : "hours unknown";
      section.append(el("p", { class: "service-line" }, el("strong", { text: label + ": " }), line + "."));
    }
    return section;
  }));
}

// "Order now, ready in N minutes": POST /v1/pickup for this store, from where the customer is.
async function askPickup() {
  const box = $("pickup");
  const gen = ++pickupGen;
  const store = results.find((s) => s.id === state.store) || { id: state.store };
  const near = nearPoint() ? state.near
    : store.latitude !== undefined && store.latitude !== null ? store.latitude + "," + store.longitude : "";
  if (!near) {
    box.replaceChildren(el("p", { text: "Choose where you are to ask when an order would be ready." }));
    return;
  }
  const minutes = Math.max(0, Math.round(Number(state.ready) || 0));
  const request = { near, ready_in: minutes + "m", store: state.store, travel: state.travel };
  if (nearBias && near === state.near) request.bias = nearBias;
  if (state.now) request.now = state.now;
  for (const w of state.where) (request.where = request.where || []).push(w);
  if (state.service) request.service = state.service;
  box.replaceChildren(el("p", { text: "Asking when an order would be ready…" }));
  const answer = await api("/v1/pickup", null, request);
  if (gen !== pickupGen) return;
  if (!answer.ok) {
    box.replaceChildren(el("p", { class: "error", text: answer.error }));
    return;
  }
  box.replaceChildren(...pickupText(answer.data, minutes));
  say("Pickup: " + box.firstChild.textContent);
}

function pickupText(plan, minutes) {
  const today = $("panel").dataset.today || "";
  const out = [];
  const travel = plan.travel || {};
  const mode = { walk: "on foot", bike: "by bike", drive: "by car" }[travel.mode] || "at " + travel.speed_kmh + " km/h";
  const nameOf = (s) => (s ? storeTitle(s) : "");
  if (plan.status === "assigned" && plan.store) {
    const here = plan.store.id === state.store;
    const trip = travel.duration_s !== null && travel.duration_s !== undefined
      ? " About " + Math.round(travel.duration_s / 60) + " min " + mode + ": you would arrive at " +
        wallTime(localOf(plan.arrival_at, plan.pickup_at_local)) + "." : "";
    out.push(el("p", { class: "answer", text: (here ? "Order now" : "This store cannot take it; order at " + nameOf(plan.store)) +
      ": ready in " + minutes + " min, pick it up at " + whenText(plan.pickup_at_local, today) + " (store time)." + trip }));
  } else {
    out.push(el("p", { class: "answer", text: "No store can take an order ready in " + minutes + " min right now." }));
    if (plan.earliest) {
      const s = results.find((r) => r.id === plan.earliest.store_id);
      out.push(el("p", { text: "The earliest: " + (s ? nameOf(s) : plan.earliest.store_id) + " (" +
        distanceText(plan.earliest.distance_m) + "), from " + whenText(plan.earliest.pickup_at_local, today) + "." }));
    }
  }
  if (plan.warnings && plan.warnings.length) {
    out.push(el("ul", { class: "warn" }, ...plan.warnings.map((w) => el("li", { text: sentence(w.message) }))));
  }
  if (plan.alternatives && plan.alternatives.length) {
    out.push(el("p", { text: "Also possible:" }), el("ul", {}, ...plan.alternatives.map((a) => el("li", {},
      el("button", { type: "button", class: "linkish", text: nameOf(a.store), onclick: () => openStore(a.store, true) }),
      " (" + distanceText(a.store.distance_m) + "), pickup at " + whenText(a.pickup_at_local, today)))));
  }
  return out;
}

// The arrival time in the store's offset, taken from the pickup time's offset.
function localOf(utc, localSample) {
  const m = /([+-])(\d\d):(\d\d)$/.exec(localSample || "");
  if (!utc || !m) return "";
  const offset = (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
  return new Date(Date.parse(utc) + offset * 60000).toISOString().slice(0, 19);
}

function closePanel() {
  $("panel").hidden = true;
  state.store = "";
  writeURL();
  for (const li of $("results").children) li.setAttribute("aria-selected", "false");
  drawResults();
  $("results").focus();
}

// ---- the location box's suggestions (the ARIA combobox pattern) ------------------------------------------
// The box is a combobox: typing the start of a town's name (not a number: LAT,LON starts with a
// digit, a sign or a point) asks GET /v1/places after a pause and lists the places under it; ↓/↑
// move through them (aria-activedescendant, the focus stays in the box), Enter takes the one
// chosen, Escape closes the list. A place taken is searched by its LAT,LON, and its name is
// shown (the URL's `place`). A server without /v1/places (404) offers no suggestions, and the box
// takes LAT,LON or a name the API reads as before.

function onNearInput() {
  const text = $("near").value.trim();
  clearTimeout(placesTimer);
  if (!placesRoute || text.length < 2 || /^[\d+\-.]/.test(text)) {
    placesGen += 1; // an answer on its way is for older text
    closePlaces();
    return;
  }
  placesTimer = setTimeout(() => loadPlaces(text), PLACES_DELAY_MS);
}

async function loadPlaces(text) {
  const gen = ++placesGen;
  const p = new URLSearchParams({ q: text, limit: String(PLACES) });
  // Nearer places first: near the customer, else near the map's centre once it shows a region.
  const centre = map && map.getZoom() >= 4 ? map.getCenter().wrap() : null;
  const point = nearPoint() || (centre && [centre.lat, centre.lng]);
  if (point) p.set("near", point[0].toFixed(4) + "," + point[1].toFixed(4));
  const answer = await api("/v1/places", p);
  if (gen !== placesGen || $("near").value.trim() !== text || document.activeElement !== $("near")) return;
  if (!answer.ok) {
    if (answer.status === 404) placesRoute = false;
    closePlaces();
    return;
  }
  showPlaces(Array.isArray(answer.data.places) ? answer.data.places : [], text, p);
}

// A place as the list and the box write it: "Seattle, Washington, US" (a division known only by
// a number code is left out).
function placeText(place) {
  const division = place.division && !/^\d+$/.test(place.division) ? place.division : "";
  return [place.name, division, place.country].filter(Boolean).join(", ");
}

function showPlaces(found, text, query) {
  const list = $("near-places");
  places = found.filter((place) => Number.isFinite(place.latitude) && Number.isFinite(place.longitude));
  activePlace = -1;
  $("near").removeAttribute("aria-activedescendant");
  list.dataset.query = query.toString();
  if (places.length === 0) {
    closePlaces();
    $("near-count").textContent = "No town starts with " + text + ".";
    return;
  }
  list.replaceChildren(...places.map((place, i) => {
    const division = place.division && !/^\d+$/.test(place.division) ? place.division : "";
    return el("li", {
      id: "place-" + i, role: "option", "aria-selected": "false", "data-name": place.name,
      // mousedown, not click: the box keeps the focus, so its blur does not close the list first.
      onmousedown: (event) => { event.preventDefault(); choosePlace(i); },
    }, el("span", { text: place.name }),
    el("span", { class: "where-in", text: [division, place.country].filter(Boolean).map((t) => ", " + t).join("") +
      (place.matched_name && place.matched_name !== place.name ? " (" + place.matched_name + ")" : "") }));
  }));
  list.hidden = false;
  $("near").setAttribute("aria-expanded", "true");
  $("near-count").textContent = places.length + (places.length === 1 ? " place" : " places") +
    ": the arrow keys choose, Enter takes it.";
}

function closePlaces() {
  clearTimeout(placesTimer);
  const list = $("near-places");
  if (!list) return;
  list.hidden = true;
  list.replaceChildren();
  places = [];
  activePlace = -1;
  $("near").setAttribute("aria-expanded", "false");
  $("near").removeAttribute("aria-activedescendant");
}

function setActivePlace(i) {
  activePlace = (i + places.length) % places.length;
  for (const li of $("near-places").children) li.setAttribute("aria-selected", String(li.id === "place-" + activePlace));
  $("near").setAttribute("aria-activedescendant", "place-" + activePlace);
  $("place-" + activePlace).scrollIntoView({ block: "nearest" });
}

function onNearKey(event) {
  const open = !$("near-places").hidden && places.length > 0;
  if (event.key === "ArrowDown" || event.key === "ArrowUp") {
    if (!open) {
      if (event.key === "ArrowDown") onNearInput();
      return;
    }
    event.preventDefault();
    setActivePlace(activePlace < 0 && event.key === "ArrowUp" ? places.length - 1
      : activePlace + (event.key === "ArrowDown" ? 1 : -1));
  } else if (event.key === "Enter" && open && activePlace >= 0) {
    event.preventDefault();
    choosePlace(activePlace);
  } else if (event.key === "Escape" && open) {
    event.preventDefault();
    closePlaces();
  }
}

// A suggestion taken: the stores near its LAT,LON, the box showing its name.
function choosePlace(i) {
  const place = places[i];
  if (!place) return;
  closePlaces();
  placesGen += 1;
  state.near = place.latitude.toFixed(4) + "," + place.longitude.toFixed(4);
  state.place = placeText(place);
  $("near").value = state.place;
  if (map) map.setView([place.latitude, place.longitude], Math.max(map.getZoom(), 11));
  refresh();
}

// ---- filters and inputs --------------------------------------------------------------------------------

// `open_at` in the date and time fields: `2026-12-24T07:30` (a wall time at each store) fills both;
// an instant (`…Z`, `…+09:00`) fills them with its wall time as written and names its offset
// beside them; a date alone (which the API refuses, asking for a time) fills the date and leaves
// the time for the customer to give.
function showOpenAt() {
  const m = /^(\d{4}-\d\d-\d\d)(?:[T ](\d\d:\d\d)(?::\d\d(?:\.\d+)?)?)?\s*([Zz]|[+-]\d\d:?\d\d)?$/.exec(state.openAt.trim());
  $("open-at-date").value = m ? m[1] : "";
  $("open-at-time").value = m && m[2] ? m[2] : "";
  const zone = m && m[3] ? (/^z$/i.test(m[3]) ? "UTC" : "UTC" + m[3]) : "";
  $("open-at-zone").textContent = zone ? "(" + zone + ", one instant)" : "";
}

// The customer changed the date or the time: a date and a time are a wall time at each store
// (an instant's offset from the URL is dropped); a date alone waits for the time.
function onOpenAtInput() {
  const date = $("open-at-date").value, time = $("open-at-time").value;
  $("open-at-zone").textContent = "";
  if (date && !time) {
    state.openAt = date;
    $("open-at-time").focus();
    say("Choose the time too: stores are open at a time of " + dayText(date) + ", not on the whole day.");
    return;
  }
  state.openAt = date && time ? date + "T" + time : "";
  if (state.openAt) {
    state.when = "at";
    $("open-at-choice").checked = true;
  }
  refresh();
}

async function loadAttributes() {
  const answer = await infoAnswer;
  const box = $("attributes");
  const attributes = answer.ok && Array.isArray(answer.data.attributes) ? answer.data.attributes : [];
  // values: {"yes": 404, "no": 1596} (as served), or [{"value": "yes", "count": 404}, …]
  const hasYes = (values) => Array.isArray(values) ? values.some((v) => v && v.value === "yes")
    : Boolean(values && typeof values === "object" && "yes" in values);
  const offered = attributes.filter((a) => a && typeof a.key === "string" && hasYes(a.values));
  box.replaceChildren(...offered.map((a) => {
    const where = a.key + "=yes";
    return el("label", {}, el("input", {
      type: "checkbox", value: where, checked: state.where.includes(where),
      onchange: (event) => {
        state.where = state.where.filter((w) => w !== where);
        if (event.target.checked) state.where.push(where);
        refresh();
      },
    }), " " + attributeLabel(a.key));
  }));
}

// The services /v1/info lists (`opening_hours:<service>` in the data): one is a checkbox
// ("Drive-through hours"), several a select ("Hours of: the store, Drive-through, Kitchen"). A
// service chosen goes with every request (service=…), and the statuses are its hours'. A service
// from the URL that the data does not have is offered too, so it can be turned off.
async function loadServices() {
  const answer = await infoAnswer;
  const box = $("services");
  const listed = answer.ok && Array.isArray(answer.data.services) ? answer.data.services : [];
  const names = listed.map((s) => s && s.service).filter((name) => typeof name === "string" && name);
  if (state.service && !names.includes(state.service)) names.push(state.service);
  const choose = (service) => {
    state.service = service;
    refresh(true);
  };
  if (names.length === 0) {
    box.hidden = true;
    box.replaceChildren();
  } else if (names.length === 1) {
    const name = names[0];
    box.replaceChildren(el("label", {}, el("input", {
      type: "checkbox", id: "service-" + name, value: name, checked: state.service === name,
      onchange: (event) => choose(event.target.checked ? name : ""),
    }), " " + serviceLabel(name) + " hours"));
    box.hidden = false;
  } else {
    const select = el("select", { id: "service", onchange: (event) => choose(event.target.value) },
      el("option", { value: "", text: "the store" }),
      ...names.map((name) => el("option", { value: name, text: serviceLabel(name) })));
    select.value = state.service;
    box.replaceChildren(el("label", { for: "service" }, "Hours of "), select);
    box.hidden = false;
  }
  box.dataset.ready = "1";
}

// The open panel again, after the service changed: its status and pickup speak of the new one.
function reopenPanel() {
  const store = results.find((s) => s.id === state.store);
  if (store) openStore(store);
  else openStoreByID(state.store);
}

function setNear(text, fromForm) {
  closePlaces();
  state.near = text.trim();
  state.place = "";
  $("near").value = state.near;
  const point = nearPoint();
  if (map && point && !fromForm) map.panTo(point);
  else if (map && point) map.setView(point, Math.max(map.getZoom(), 13));
  refresh();
}

// The list (and the view) again after a change; the open panel's pickup is asked again, or with
// `reopen` (the service changed) the whole panel, whose status and weeks depend on it.
function refresh(reopen) {
  writeURL();
  loadNearest().then(() => {
    if (state.store && !$("panel").hidden) {
      if (reopen) reopenPanel();
      else askPickup();
    }
  });
  if (map) {
    drawResults();
    clearTimeout(viewTimer);
    viewTimer = setTimeout(loadView, 250);
  }
}

function wireInputs() {
  $("near").value = nearText();
  $("where").addEventListener("submit", (event) => {
    event.preventDefault();
    // The chosen place's name, unchanged, stays that place (its LAT,LON); anything else is read anew.
    if (state.place && $("near").value.trim() === state.place) {
      closePlaces();
      refresh();
    } else {
      setNear($("near").value, true);
    }
  });
  $("near").addEventListener("input", onNearInput);
  $("near").addEventListener("keydown", onNearKey);
  $("near").addEventListener("blur", () => closePlaces());
  $("locate").addEventListener("click", () => {
    if (!navigator.geolocation) {
      say("This browser cannot give a location: type a town or LAT,LON, or click the map.");
      return;
    }
    say("Asking the browser for your location…");
    navigator.geolocation.getCurrentPosition(
      (pos) => setNear(pos.coords.latitude.toFixed(5) + "," + pos.coords.longitude.toFixed(5), true),
      (error) => say("The browser gave no location (" + error.message + "): type a town or LAT,LON, or click the map."),
      { timeout: 15000, maximumAge: 60000 });
  });
  for (const radio of document.querySelectorAll("input[name=when]")) {
    radio.checked = radio.value === state.when;
    radio.addEventListener("change", () => {
      state.when = radio.value;
      if (state.when === "at" && !state.openAt) return $("open-at-date").focus();
      refresh();
    });
  }
  showOpenAt();
  for (const id of ["open-at-date", "open-at-time"]) $(id).addEventListener("change", onOpenAtInput);
  $("open-for").value = state.openFor;
  $("open-for").addEventListener("change", (event) => {
    state.openFor = event.target.value && Number(event.target.value) > 0 ? String(Math.round(Number(event.target.value))) : "";
    refresh();
  });
  const list = $("results");
  list.addEventListener("keydown", onListKey);
  list.addEventListener("focus", () => { if (active < 0) setActive(0); });
  $("panel-close").addEventListener("click", closePanel);
  $("panel").addEventListener("keydown", (event) => { if (event.key === "Escape") closePanel(); });
  $("ready").value = state.ready;
  $("travel").value = state.travel;
  $("order").addEventListener("submit", (event) => {
    event.preventDefault();
    state.ready = String(Math.max(0, Math.round(Number($("ready").value) || 0)));
    state.travel = $("travel").value;
    writeURL();
    askPickup();
  });
}

// A store named in the URL: open its panel once the list has loaded (it may be outside the list).
async function openFromURL() {
  if (!state.store) return;
  const listed = results.find((s) => s.id === state.store);
  if (listed) return openStore(listed);
  const store = await openStoreByID(state.store);
  if (map && store && !nearPoint() && store.latitude !== null) map.setView([store.latitude, store.longitude], 14);
}

// The panel of a store known by its id only (the URL's, a cluster of one): GET /v1/stores/{id}.
async function openStoreByID(id) {
  const p = new URLSearchParams();
  if (state.service) p.set("service", state.service);
  if (state.now) p.set("now", state.now);
  const answer = await api("/v1/stores/" + encodeURIComponent(id), p);
  if (!answer.ok) {
    showMessage(answer.error, true);
    say(answer.error);
    return null;
  }
  openStore(answer.data);
  return answer.data;
}

async function main() {
  wireInputs();
  if (state.now) say("Times are as of " + state.now + " (the now= of the address).");
  infoAnswer = api("/v1/info");
  loadAttributes();
  loadServices();
  const first = loadNearest();
  startMap();
  await first;
  openFromURL();
}

main();
