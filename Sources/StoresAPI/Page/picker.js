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

const $ = (id) => document.getElementById(id);
const config = readConfig();
const state = readURL();
let map = null, layers = null, info = null;
let results = []; // the stores in the list, nearest first
let active = -1; // index of the list's active option
let nearestGen = 0, viewGen = 0, panelGen = 0, pickupGen = 0;
let viewTimer = 0;
const mapNotes = { map: "", view: "" }; // the map's note: the basemap's sentence, then the view's

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

function attributeLabel(key) {
  const known = { drive_through: "Drive-through", wheelchair: "Wheelchair access" };
  if (known[key]) return known[key];
  const words = key.replace(/[_:]+/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

// ---- the URL -----------------------------------------------------------------------------------

function readURL() {
  const p = new URLSearchParams(location.search);
  return {
    near: p.get("near") || "",
    when: p.has("open_at") ? "at" : ["1", "true", "yes", ""].includes(p.get("open_now")) ? "now" : "any",
    openAt: p.get("open_at") || "",
    openFor: p.get("open_for") || "",
    where: p.getAll("where"),
    store: p.get("store") || "",
    now: p.get("now") || "",
    ready: p.get("ready") || "10",
    travel: p.get("travel") || "walk",
  };
}

function writeURL() {
  const p = new URLSearchParams();
  if (state.near) p.set("near", state.near);
  if (state.when === "now") p.set("open_now", "1");
  if (state.when === "at" && state.openAt) p.set("open_at", state.openAt);
  if (state.openFor) p.set("open_for", state.openFor);
  for (const w of state.where) p.append("where", w);
  if (state.store) p.set("store", state.store);
  if (state.now) p.set("now", state.now);
  if (state.ready !== "10") p.set("ready", state.ready);
  if (state.travel !== "walk") p.set("travel", state.travel);
  const query = p.toString();
  history.replaceState(null, "", location.pathname + (query ? "?" + query : ""));
}

// The point of `near` when it reads as LAT,LON in range (else the API's sentence says why).
function nearPoint() {
  const m = /^\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*$/.exec(state.near);
  if (!m) return null;
  const lat = Number(m[1]), lon = Number(m[2]);
  return Math.abs(lat) <= 90 && Math.abs(lon) <= 180 ? [lat, lon] : null;
}

// The instant answers are for: the `now` of the URL (a fixed clock), else the browser's clock.
function clock() {
  return state.now || new Date().toISOString().slice(0, 19) + "Z";
}

// The search parameters every store search shares: where, opening-hours filters, the clock.
function filterParams(p) {
  for (const w of state.where) p.append("where", w);
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
async function api(path, params, body) {
  const url = path + (params && [...params].length ? "?" + params.toString() : "");
  let response;
  try {
    response = await fetch(url, body === undefined ? { headers: { Accept: "application/json" } } : {
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
    error: detail ? sentence(detail) : "The service answered " + response.status + " " + response.statusText + ".",
  };
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
    showMessage("Choose where you are: click the map, type LAT,LON above, or use your location.");
    say("No location chosen yet.");
    return;
  }
  say("Looking for the stores nearest " + state.near + "…");
  const p = new URLSearchParams({ near: state.near, k: String(K) });
  const answer = await api("/v1/stores/nearest", filterParams(p));
  if (gen !== nearestGen) return;
  if (!answer.ok) {
    results = [];
    renderList();
    showMessage(answer.error, true);
    say(answer.error);
    drawResults();
    return;
  }
  results = answer.data.stores || [];
  renderList();
  drawResults();
  const filters = describeFilters();
  if (results.length === 0) {
    const text = "No store near " + state.near + (filters ? " is " + filters : " was found") + ".";
    showMessage(text + (answer.notes ? " " + answer.notes : ""), false);
    say(text + (answer.notes ? " " + answer.notes : ""));
  } else {
    showMessage(answer.notes || "", false);
    say(results.length + " stores" + (filters ? " " + filters : "") + " near " + state.near +
      "; the nearest is " + distanceText(results[0].distance_m) + " away." + (answer.notes ? " " + answer.notes : ""));
  }
}

function finishList(gen) {
  const list = $("results");
  list.setAttribute("data-gen", String(gen));
  list.setAttribute("aria-busy", "false");
}

function describeFilters() {
  const parts = [];
  if (state.when === "now") parts.push("open now");
  if (state.when === "at" && state.openAt) parts.push("open at " + state.openAt.replace("T", " ") + " local time");
  if (state.openFor) parts.push((state.when === "any" ? "open now " : "") + "for at least " + state.openFor + " min");
  for (const w of state.where) parts.push(attributeLabel(w.split("=")[0]).toLowerCase());
  return parts.join(", ");
}

function renderList() {
  const list = $("results");
  const items = results.map((store, i) => el("li", {
    id: "opt-" + i, role: "option", "aria-selected": store.id === state.store ? "true" : "false",
    "data-id": store.id, onclick: () => { setActive(i); openStore(store); },
  },
  el("span", { class: "name", text: store.name || store.id }),
  el("span", { class: "dist", text: distanceText(store.distance_m) }),
  el("span", { class: "addr", text: store.address || "" }),
  el("span", { class: "st " + stateClass(store.state), text: sentence(store.status_text || store.state) }),
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
  $("map-note").replaceChildren(...[mapNotes.map, mapNotes.view].filter(Boolean).map((t) => el("span", { text: t })));
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
  else map.setView([20, 0], 2);
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
  $("map").dataset.state = "ready";
  loadView();
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
      storeDot(store.latitude, lon, store.name || store.id, () => openStore(store)).addTo(layers.view);
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
    let lon = c.longitude + shift;
    let [w, s, e, n] = c.bbox;
    if (e < w) e += 360; // across the antimeridian
    w += shift;
    e += shift;
    if (lon < w) { w -= 360; e -= 360; } // the stores east of the antimeridian hold the centre
    // The mark whose circle holds this cluster's centre, on any copy of the world (Fiji's stores
    // either side of the antimeridian are one mark); `turn` the copy (a multiple of 360).
    let near = null, turn = 0;
    for (const m of marks) {
      const k = 360 * Math.round((lon - m.longitude) / 360);
      const at = map.latLngToLayerPoint([c.latitude, lon - k]);
      if (at.distanceTo(m.point) < Math.max(clusterRadius(m.count), clusterRadius(c.count))) {
        near = m;
        turn = k;
        break;
      }
    }
    if (!near) {
      marks.push({ count: c.count, latitude: c.latitude, longitude: lon, bbox: [w, s, e, n], id: c.id || null,
        cells: [[c.column, c.row, c.count]], point: map.latLngToLayerPoint([c.latitude, lon]) });
      continue;
    }
    lon -= turn;
    w -= turn;
    e -= turn;
    const total = near.count + c.count;
    near.latitude = (near.latitude * near.count + c.latitude * c.count) / total;
    near.longitude = (near.longitude * near.count + lon * c.count) / total;
    near.count = total;
    near.bbox = [Math.min(near.bbox[0], w), Math.min(near.bbox[1], s), Math.max(near.bbox[2], e), Math.max(near.bbox[3], n)];
    near.id = null;
    near.cells.push([c.column, c.row, c.count]);
    near.point = map.latLngToLayerPoint([near.latitude, near.longitude]);
  }
  return marks;
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
    }).bindTooltip(textTip((i + 1) + ". " + (store.name || store.id)))
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
  $("panel-title").textContent = store.name || store.id;
  $("panel-status").textContent = sentence(store.status_text || store.state);
  $("panel-status").className = "state " + stateClass(store.state);
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
  say("Details of " + (store.name || store.id) + ".");
  try {
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
  if (h.status_text) {
    $("panel-status").textContent = sentence(h.status_text);
    $("panel-status").className = "state " + stateClass(h.state);
  }
  body.replaceChildren(...h.days.map((day, i) => {
    const spans = day.spans.filter((s) => s.state !== "closed");
    const text = spans.length === 0 ? "closed" : spans.map((s) => (s.state === "unknown" ? "unknown " : "") +
      spanText(s, day.date) + (s.comment ? " (" + s.comment + ")" : "")).join(", ");
    return el("tr", { class: i === 0 ? "today" : null, "aria-current": i === 0 ? "date" : null },
      el("th", { scope: "row", text: (i === 0 ? "Today, " : "") + dayText(day.date) }),
      el("td", { text }));
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
  if (state.now) request.now = state.now;
  for (const w of state.where) (request.where = request.where || []).push(w);
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
  const nameOf = (s) => (s && (s.name || s.id)) || "";
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

// ---- filters and inputs --------------------------------------------------------------------------------

async function loadAttributes() {
  const answer = await api("/v1/info");
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

function setNear(text, fromForm) {
  state.near = text.trim();
  $("near").value = state.near;
  const point = nearPoint();
  if (map && point && !fromForm) map.panTo(point);
  else if (map && point) map.setView(point, Math.max(map.getZoom(), 13));
  refresh();
}

function refresh() {
  writeURL();
  loadNearest().then(() => {
    if (state.store && !$("panel").hidden) askPickup();
  });
  if (map) {
    drawResults();
    clearTimeout(viewTimer);
    viewTimer = setTimeout(loadView, 250);
  }
}

function wireInputs() {
  $("near").value = state.near;
  $("where").addEventListener("submit", (event) => {
    event.preventDefault();
    setNear($("near").value, true);
  });
  $("locate").addEventListener("click", () => {
    if (!navigator.geolocation) {
      say("This browser cannot give a location: type LAT,LON or click the map.");
      return;
    }
    say("Asking the browser for your location…");
    navigator.geolocation.getCurrentPosition(
      (pos) => setNear(pos.coords.latitude.toFixed(5) + "," + pos.coords.longitude.toFixed(5), true),
      (error) => say("The browser gave no location (" + error.message + "): type LAT,LON or click the map."),
      { timeout: 15000, maximumAge: 60000 });
  });
  for (const radio of document.querySelectorAll("input[name=when]")) {
    radio.checked = radio.value === state.when;
    radio.addEventListener("change", () => {
      state.when = radio.value;
      if (state.when === "at" && !state.openAt) return $("open-at").focus();
      refresh();
    });
  }
  $("open-at").value = state.openAt;
  $("open-at").addEventListener("change", (event) => {
    state.openAt = event.target.value;
    if (state.openAt) {
      state.when = "at";
      $("open-at-choice").checked = true;
    }
    refresh();
  });
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
  loadAttributes();
  const first = loadNearest();
  startMap();
  await first;
  openFromURL();
}

main();
