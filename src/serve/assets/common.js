// Shared by the Play and Replay pages: fetch JSON, draw a seat's view (zones, players, variables).
"use strict";
const $ = id => document.getElementById(id);
const el = (tag, cls, text) => { const e = document.createElement(tag); if (cls) e.className = cls; if (text !== undefined) e.textContent = text; return e; };

async function api(url, method) {
  // Every POST carries the header the server asks for (no other site's page can send it).
  const r = await fetch(url, { method: method || "GET", headers: method === "POST" ? { "X-Cardgame": "1" } : {} });
  const body = await r.json().catch(() => ({ error: r.statusText }));
  if (!r.ok) throw new Error(body.error || r.statusText);
  return body;
}

// A value as the language writes it: none, true, [a, b], a name.
function show(v) {
  if (v === null || v === undefined) return "none";
  if (Array.isArray(v)) return "[" + v.map(show).join(", ") + "]";
  return String(v);
}

// Card definitions by name, for the texts and properties shown on demand.
let CARDS = {};
async function loadCards() {
  try { for (const c of await api("/api/cards")) CARDS[c.name] = c; } catch (e) { CARDS = {}; }
}
function cardTitle(name) {
  const c = CARDS[name];
  if (!c) return name;
  const props = Object.entries(c.properties).filter(([, v]) => v !== null && v !== 0 && v !== false).map(([k, v]) => k + " " + show(v));
  return [name + (c.tags.length ? " (" + c.tags.join(", ") + ")" : ""), props.join(", "), c.text].filter(x => x).join("\n");
}
function propLine(name) {
  const c = CARDS[name];
  if (!c) return "";
  return Object.entries(c.properties).filter(([, v]) => typeof v === "number" && v !== 0).map(([k, v]) => k + " " + v).join(" · ");
}

// The card an option's label names (the longest card name it contains), or undefined.
function cardIn(label) {
  let best;
  for (const name in CARDS) if (label.includes(name) && (!best || name.length > best.length)) best = name;
  return best;
}

// A zone's cards grouped: identical visible cards counted in the order the view lists them, the
// cards the seat may not see as backs with their count.
function cardsOf(zone) {
  const groups = new Map();
  let hidden = 0;
  for (const c of zone.cards) {
    if (c === null) { hidden++; continue; }
    groups.set(c, (groups.get(c) || 0) + 1);
  }
  const box = el("div", "cards");
  for (const [name, n] of groups) {
    const d = el("div", "card", name);
    d.title = cardTitle(name);
    const p = propLine(name);
    if (p) d.appendChild(el("span", "props", p));
    if (n > 1) d.appendChild(el("span", "n", "×" + n));
    d.addEventListener("click", () => info(name));
    box.appendChild(d);
  }
  if (hidden > 0) {
    const d = el("div", "card back", hidden === 1 ? "1 card" : hidden + " cards");
    d.title = "face down: you may not see " + (hidden === 1 ? "it" : "them");
    box.appendChild(d);
  }
  return box;
}

function info(name) {
  const box = $("card");
  if (!box) return;
  box.hidden = false;
  box.innerHTML = "";
  box.appendChild(el("b", "", name));
  box.appendChild(el("div", "", cardTitle(name).split("\n").slice(1).join(" — ")));
  const close = el("button", "small", "close");
  close.onclick = () => { box.hidden = true; };
  box.appendChild(close);
}

const blank = v => v === null || v === 0 || v === false || v === "" || (Array.isArray(v) && v.length === 0);

// Variables in a box: those declared `shown` first, then the others that are not blank; the blank
// ones behind a "+N" toggle.
function drawVars(box, vars, shown) {
  const put = (v, cls) => {
    const s = el("span", "var" + cls); s.appendChild(el("b", "", v.name + " ")); s.appendChild(document.createTextNode(show(v.value))); box.appendChild(s);
  };
  const mark = shown || [];
  vars.filter(v => mark.includes(v.name)).forEach(v => put(v, " shown"));
  vars.filter(v => !mark.includes(v.name) && !blank(v.value)).forEach(v => put(v, ""));
  const rest = vars.filter(v => !mark.includes(v.name) && blank(v.value));
  if (rest.length) {
    const more = el("button", "small", "+" + rest.length);
    more.title = rest.map(v => v.name + " " + show(v.value)).join(", ");
    more.onclick = () => { more.remove(); rest.forEach(v => put(v, " blank")); };
    box.appendChild(more);
  }
}

// One seat's view: players with their variables, global variables, then every zone with cards.
function drawView(view, seats, target, shown) {
  target.innerHTML = "";
  const players = el("section", "players");
  for (const p of view.players) {
    const d = el("div", "player" + (p.seat === view.active ? " active" : "") + (p.eliminated ? " out" : ""));
    d.appendChild(el("div", "name", p.name + (p.seat === view.seat ? " (you)" : "") + (p.seat === view.active ? " ◆" : "")));
    drawVars(d, p.vars, shown);
    players.appendChild(d);
  }
  // Participants that are not seats, when one of their variables holds something.
  const blank = (v) => v === null || v === 0 || v === false || v === "" || (Array.isArray(v) && v.length === 0);
  for (const p of view.participants || []) {
    if (p.vars.every((x) => blank(x.value))) continue;
    const d = el("div", "player");
    d.appendChild(el("div", "name", p.name));
    drawVars(d, p.vars, shown);
    players.appendChild(d);
  }
  if (view.globals.length) {
    const d = el("div", "player");
    d.appendChild(el("div", "name", "game"));
    drawVars(d, view.globals, shown);
    players.appendChild(d);
  }
  target.appendChild(players);
  const zones = el("section", "zones");
  const me = seats[view.seat];
  for (const z of view.zones) {
    if (z.count === 0 || z.name === "box") continue;
    const d = el("div", "zone" + (me && z.name.startsWith(me + ".") ? " mine" : ""));
    const h = el("div", "zname", z.name + " ");
    h.appendChild(el("span", "count", "(" + z.count + ")"));
    d.appendChild(h);
    d.appendChild(cardsOf(z));
    zones.appendChild(d);
  }
  target.appendChild(zones);
}

function showError(msg) {
  const e = $("error");
  e.hidden = !msg;
  e.textContent = msg || "";
}
