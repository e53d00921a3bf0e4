// Drives headless Chromium through the pages of a running `cardgame serve` (tests/browser.rs starts
// the server): plays Market Race to its end by clicking options (the scores shown), opens a replay at
// step 0 (the setup folded) and steps through it, reads the
// report, and saves a screenshot of each page. Usage: node run.js BASE_URL OUT_DIR
"use strict";
const { chromium } = require("playwright-core");
const fs = require("fs");
const os = require("os");
const path = require("path");

function check(ok, what) {
  if (!ok) throw new Error("failed: " + what);
}

(async () => {
  const [base, out] = process.argv.slice(2);
  check(base && out, "usage: node run.js BASE_URL OUT_DIR");
  fs.mkdirSync(out, { recursive: true });
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "cardgame-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    viewport: { width: 1280, height: 900 },
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
           "--disable-sync", "--no-first-run"],
  });
  try {
    const page = await context.newPage();
    const errors = [];
    page.on("pageerror", e => errors.push(String(e)));
    // Play: click an option at every decision until the game is over.
    await page.goto(base + "/");
    await page.waitForSelector("#decision button, #over:not([hidden])");
    // A script with `fn score(p: player): int` shows every seat's score beside the turn.
    const where = await page.textContent("#where");
    check(/scores: P1 \d+, P2 \d+/.test(where), "the scores in Play at the start: " + where);
    let clicks = 0;
    let explained = false;
    while (!(await page.isVisible("#over"))) {
      // Why the bots chose: a panel opened on request, then closed again.
      if (!explained && await page.isVisible("#why summary")) {
        check(/^Why the bots chose \(\d+\)$/.test(await page.textContent("#why summary")), "the why panel's title");
        check(!(await page.isVisible("#why .explanation")), "the explanations hidden until asked for");
        await page.click("#why summary");
        const why = await page.textContent("#why .explanation p");
        check(/^P2 \(random\).* took “.*”: at random among \d+ options$/.test(why), "a bot's choice explained: " + why);
        await page.click("#why summary");
        explained = true;
      }
      const buttons = await page.$$("#decision button");
      check(buttons.length > 0, "options at a decision");
      const pick = buttons[clicks % buttons.length];
      await Promise.all([page.waitForResponse(r => r.url().includes("/api/choose") && r.status() === 200), pick.click()]);
      await page.waitForFunction(n => STATE && STATE.step > n, clicks);
      clicks++;
      if (clicks === 8) {
        check(/scores: /.test(await page.textContent("#where")), "the scores in Play during the game");
        await page.screenshot({ path: path.join(out, "serve-play.png"), fullPage: true });
      }
      check(clicks < 3000, "the game ends");
    }
    check(explained, "the bots' choices explained on request");
    const over = await page.textContent("#over");
    check(/Game over/.test(over), "the end is shown: " + over);
    console.log("play: " + clicks + " clicks; " + over.trim());
    // Replay at step 0: the setup's many events are folded under one line, the board in sight.
    await page.goto(base + "/replay?seed=3&step=0&seat=all");
    await page.waitForSelector("#views .seatview");
    const summary = await page.textContent("#events details > summary");
    check(/^Setup: \d+ events$/.test(summary), "the setup folded: " + summary);
    check(!(await page.isVisible("#events details li")), "the setup's events hidden until unfolded");
    await page.screenshot({ path: path.join(out, "serve-replay-setup.png"), fullPage: true });
    await page.click("#events details > summary");
    check(await page.isVisible("#events details li"), "the setup's events shown when unfolded");
    console.log("replay: step 0, " + summary);
    // Replay: a position from its link, one step forward.
    await page.goto(base + "/replay?seed=3&step=8&seat=all");
    await page.waitForSelector("#views .seatview");
    check((await page.$$("#views .seatview")).length === 2, "both seats' views");
    await page.click("#fwd");
    await page.waitForFunction(() => R && R.step === 9);
    check((await page.getAttribute("#link", "href")).includes("step=9"), "the link follows the step");
    await page.screenshot({ path: path.join(out, "serve-replay.png"), fullPage: true });
    console.log("replay: step 9 of " + (await page.textContent("#steps")));
    // Report: charts, and the card table sorts.
    await page.goto(base + "/report?games=300");
    const charts = await page.$$("svg.chart");
    check(charts.length >= 3, "charts in the report");
    await page.click("table.sortable th:nth-child(4)");
    check((await page.getAttribute("table.sortable th:nth-child(4)", "data-dir")) === "up", "sorted");
    await page.screenshot({ path: path.join(out, "serve-report.png"), fullPage: true });
    console.log("report: " + charts.length + " charts");
    check(errors.length === 0, "no script error in the pages: " + errors.join("; "));
  } finally {
    await context.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
})().catch(e => { console.error(e); process.exit(1); });
