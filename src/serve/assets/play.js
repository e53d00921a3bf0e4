// The Play page: the seat's view, its options as buttons, what the others did since, the trace.
"use strict";
let STATE = null;

function draw(s) {
  STATE = s;
  document.title = s.game + " — Play";
  $("title").textContent = s.game;
  const scores = s.scores ? "; scores: " + s.scores.map((n, i) => s.seats[i] + " " + n).join(", ") : "";
  $("where").textContent = "You are " + s.seats[s.seat - 1] + " (seat " + s.seat + "), seed " + s.seed + ", turn " + s.turn + ", " + s.step + " decisions made" + scores + (s.waiting_for ? "; waiting for " + s.waiting_for : "");
  showError(s.error ? "The game stopped with an error: " + s.error : "");
  const over = $("over");
  over.hidden = !s.over;
  if (s.over) {
    const who = s.over.winners.length ? s.over.winners.join(" and ") + (s.over.winners.length > 1 ? " win" : " wins") : "nobody wins";
    over.textContent = "Game over: " + who + " (" + s.over.reason + ") after " + s.over.turns + " turns." + (s.over.finished ? "" : " The game stopped at a limit of the run, not by its rules.");
  }
  const dec = $("decision");
  dec.innerHTML = "";
  const d = s.view.decision;
  if (d) {
    dec.appendChild(el("div", "prompt", d.prompt || "Your choice"));
    const opts = el("div", "options");
    d.options.forEach((o, i) => {
      const b = el("button", "", o);
      b.dataset.option = i;
      const card = cardIn(o);
      if (card) {
        b.title = cardTitle(card);
        const p = propLine(card);
        if (p) b.appendChild(el("span", "props", p));
      }
      b.onclick = () => choose(i);
      opts.appendChild(b);
    });
    dec.appendChild(opts);
  }
  const since = $("since");
  since.innerHTML = "";
  if (s.since.length) {
    since.appendChild(el("h2", "", "Since your last decision"));
    const ul = el("ul");
    for (const l of s.since.slice(-40)) ul.appendChild(el("li", "", l));
    if (s.since.length > 40) ul.prepend(el("li", "", "… " + (s.since.length - 40) + " earlier lines in the trace"));
    since.appendChild(ul);
  }
  drawWhy(s.why);
  const view = el("div");
  drawView(s.view, s.seats, view, s.shown);
  $("players").replaceWith(Object.assign(view.children[0], { id: "players" }));
  $("zones").replaceWith(Object.assign(view.children[0], { id: "zones" }));
  const trace = $("trace");
  trace.innerHTML = "";
  s.trace.forEach((t, i) => {
    const det = el("details");
    if (i === s.trace.length - 1) det.open = true;
    det.appendChild(el("summary", "", (t.title || "setup") + " (" + t.lines.length + " lines)"));
    const ul = el("ul");
    for (const l of t.lines) ul.appendChild(el("li", "", l));
    det.appendChild(ul);
    trace.appendChild(det);
  });
}

// Why the bots chose as they did since the seat's last decision: a panel opened on request, which
// stays open (or closed) from one position to the next.
let WHY_OPEN = false;
function drawWhy(why) {
  const sec = $("why");
  sec.innerHTML = "";
  if (!why || !why.length) return;
  const det = el("details");
  det.open = WHY_OPEN;
  det.ontoggle = () => { WHY_OPEN = det.open; };
  det.appendChild(el("summary", "", "Why the bots chose (" + why.length + ")"));
  for (const e of why) {
    const div = el("div", "explanation");
    div.appendChild(el("p", "", e.player + " (" + e.agent + ")" + (e.prompt ? " at “" + e.prompt + "”" : "") + " took “" + e.chosen + "”: " + e.how));
    if (e.options.length) {
      const visits = e.options.some(o => o.visits !== null);
      const value = e.options.some(o => o.value !== null);
      const t = el("table");
      const head = el("tr");
      if (visits) head.appendChild(el("th", "", "visits"));
      if (value) head.appendChild(el("th", "", "value"));
      head.appendChild(el("th", "", "option"));
      t.appendChild(head);
      for (const o of e.options) {
        const tr = el("tr", o.chosen ? "chosen" : "");
        if (visits) tr.appendChild(el("td", "num", o.visits === null ? "-" : String(o.visits)));
        if (value) tr.appendChild(el("td", "num", o.value === null ? "-" : o.value.toFixed(3)));
        tr.appendChild(el("td", "", o.option));
        t.appendChild(tr);
      }
      div.appendChild(t);
    }
    det.appendChild(div);
  }
  sec.appendChild(det);
}

async function choose(i) {
  try { draw(await api("/api/choose?option=" + i + "&step=" + STATE.step, "POST")); }
  catch (e) { showError(e.message); }
}

async function post(url) {
  try { draw(await api(url, "POST")); await loadCards(); } catch (e) { showError(e.message); }
}

$("new").onclick = () => post("/api/new");
$("reload").onclick = () => post("/api/reload");
$("expand").onclick = () => document.querySelectorAll("#trace details").forEach(d => { d.open = true; });
document.addEventListener("keydown", e => {
  if (!STATE || !STATE.view.decision || e.target.tagName === "INPUT") return;
  const n = parseInt(e.key, 10);
  if (n >= 1 && n <= Math.min(9, STATE.view.decision.options.length)) choose(n - 1);
});

(async () => {
  await loadCards();
  try { draw(await api("/api/state")); } catch (e) { showError(e.message); }
})();
