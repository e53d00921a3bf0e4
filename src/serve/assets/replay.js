// The Replay page: a seeded game step by step, from one seat's view or all of them.
"use strict";
let R = null;

function params() {
  const q = new URLSearchParams(location.search);
  return { seed: q.get("seed"), step: parseInt(q.get("step") || "0", 10) || 0, seat: q.get("seat") || "all" };
}

async function go(seed, step, seat, push) {
  let url = "/api/replay?step=" + Math.max(0, step) + "&seat=" + encodeURIComponent(seat);
  if (seed !== null && seed !== "") url += "&seed=" + encodeURIComponent(seed);
  try {
    const r = await api(url);
    showError("");
    draw(r);
    const link = "/replay?seed=" + r.seed + "&step=" + r.step + "&seat=" + (r.seat || "all");
    if (push) history.replaceState(null, "", link);
  } catch (e) { showError(e.message); }
}

function draw(r) {
  R = r;
  document.title = r.game + " — Replay";
  $("title").textContent = r.game;
  $("where").textContent = "Seed " + r.seed + ", step " + r.step + " of " + r.steps + ", turn " + r.turn + (r.seat ? ", seen by " + r.seats[r.seat - 1] : ", every seat's view");
  $("seed").value = r.seed;
  $("step").value = r.step;
  $("steps").textContent = r.steps;
  const seat = $("seat");
  if (seat.options.length !== r.seats.length + 1) {
    r.seats.forEach((n, i) => seat.appendChild(Object.assign(el("option", "", n), { value: String(i + 1) })));
  }
  seat.value = r.seat ? String(r.seat) : "all";
  const slider = $("slider");
  slider.max = r.steps; slider.value = r.step;
  const link = "/replay?seed=" + r.seed + "&step=" + r.step + "&seat=" + (r.seat || "all");
  $("link").href = link;
  const over = $("over");
  over.hidden = !r.over;
  if (r.over) over.textContent = "Game over: " + (r.over.winners.length ? r.over.winners.join(" and ") + (r.over.winners.length > 1 ? " win" : " wins") : "nobody wins") + " (" + r.over.reason + ")";
  if (r.error) showError("The game stopped with an error: " + r.error);
  const dec = $("decision");
  dec.innerHTML = "";
  if (r.decision) {
    dec.appendChild(el("div", "prompt", r.decision.player + " decides" + (r.decision.prompt ? ": " + r.decision.prompt : "")));
    const opts = el("div", "options");
    r.decision.options.forEach((o, i) => opts.appendChild(el("button", i === r.decision.chosen ? "chosen" : "", o)));
    dec.appendChild(opts);
  }
  const ev = $("events");
  ev.innerHTML = "";
  if (r.step === 0 && r.events.length > 8) {
    // The setup's events (often hundreds of moves) folded, so that the board stays in sight.
    const fold = el("details");
    fold.appendChild(el("summary", "", "Setup: " + r.events.length + " events"));
    const ul = el("ul");
    for (const l of r.events) ul.appendChild(el("li", "", l));
    fold.appendChild(ul);
    const li = el("li");
    li.appendChild(fold);
    ev.appendChild(li);
  } else {
    for (const l of r.events) ev.appendChild(el("li", "", l));
  }
  const views = $("views");
  views.innerHTML = "";
  for (const v of r.views) {
    const box = el("div", "seatview");
    box.appendChild(el("h2", "", "As " + r.seats[v.seat] + " sees it"));
    const inner = el("div");
    drawView(v, r.seats, inner, r.shown);
    box.appendChild(inner);
    views.appendChild(box);
  }
}

const cur = () => (R ? R.step : 0);
const seatSel = () => $("seat").value;
$("first").onclick = () => go($("seed").value, 0, seatSel(), true);
$("back").onclick = () => go($("seed").value, cur() - 1, seatSel(), true);
$("fwd").onclick = () => go($("seed").value, Math.min(R ? R.steps : 0, cur() + 1), seatSel(), true);
$("last").onclick = () => go($("seed").value, R ? R.steps : 0, seatSel(), true);
$("slider").oninput = e => go($("seed").value, parseInt(e.target.value, 10), seatSel(), true);
$("seat").onchange = () => go($("seed").value, cur(), seatSel(), true);
$("controls").onsubmit = e => { e.preventDefault(); go($("seed").value, parseInt($("step").value, 10) || 0, seatSel(), true); };
$("seed").onchange = () => go($("seed").value, 0, seatSel(), true);
$("step").onchange = () => go($("seed").value, parseInt($("step").value, 10) || 0, seatSel(), true);
document.addEventListener("keydown", e => {
  if (e.target.tagName === "INPUT") return;
  if (e.key === "ArrowRight") $("fwd").click();
  if (e.key === "ArrowLeft") $("back").click();
});

(async () => {
  await loadCards();
  const p = params();
  await go(p.seed, p.step, p.seat, false);
})();
