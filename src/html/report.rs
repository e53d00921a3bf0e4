//! Command line, HTML stage: a simulation report as one self-contained page (inline CSS, SVG charts,
//! a few lines of JavaScript to sort the card table). It is rendered from the report's JSON (what
//! `sim --format json` prints), so any tool holding that JSON renders the same page.

use super::{count_chart, esc, histogram, line_chart, pct, rate_chart, Point, RateBar};
use serde_json::Value as Json;

const STYLE: &str = include_str!("report.css");

const SORT_JS: &str = "document.querySelectorAll('table.sortable th').forEach((th, i) => th.addEventListener('click', () => {\
  const t = th.closest('table'), b = t.tBodies[0], up = th.dataset.dir !== 'up';\
  t.querySelectorAll('th').forEach(h => delete h.dataset.dir); th.dataset.dir = up ? 'up' : 'down';\
  const key = r => { const c = r.cells[i]; const v = c.dataset.v ?? c.textContent; const n = parseFloat(v); return isNaN(n) ? v : n; };\
  [...b.rows].sort((x, y) => { const a = key(x), c = key(y); return (a < c ? -1 : a > c ? 1 : 0) * (up ? 1 : -1); }).forEach(r => b.appendChild(r));\
}));";

fn num(v: &Json) -> f64 {
    v.as_f64().unwrap_or(0.0)
}

fn int(v: &Json) -> u64 {
    v.as_u64().unwrap_or(0)
}

fn text(v: &Json) -> String {
    match v {
        Json::String(s) => s.clone(),
        Json::Null => String::new(),
        v => v.to_string(),
    }
}

/// A rate object of the report (`wins`, `games`, `rate`, `low`, `high`) as a bar.
fn rate_bar(label: String, r: &Json) -> RateBar {
    RateBar {
        label,
        rate: num(&r["rate"]),
        low: num(&r["low"]),
        high: num(&r["high"]),
        note: format!(
            "{} [{}–{}] of {}",
            pct(num(&r["rate"])),
            pct(num(&r["low"])),
            pct(num(&r["high"])),
            int(&r["games"])
        ),
    }
}

/// The Report page of `cardgame serve` when its form was filled in wrongly: the error in the page, above
/// the form with the values as they were sent, so that the person mends them there.
pub fn form_error_page(game: &str, error: &str, games: &str, seed: &str, agents: &str) -> String {
    format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width\"><title>{} — simulation report</title><style>{STYLE}</style></head><body>\
         <nav><a href=\"/\">Play</a> <a href=\"/replay\">Replay</a> <a class=\"here\" href=\"/report\">Report</a></nav>\
         <h1>{}</h1><p class=\"form-error\" role=\"alert\">No report: {}</p>\
         <form method=\"get\" action=\"/report\">games <input name=\"games\" size=\"6\" value=\"{}\"> seed <input name=\"seed\" size=\"6\" value=\"{}\"> agents <input name=\"agents\" size=\"24\" placeholder=\"the server's\" value=\"{}\"> <button>Simulate</button></form></body></html>",
        esc(game),
        esc(game),
        esc(error),
        esc(games),
        esc(seed),
        esc(agents)
    )
}

/// The page of a report; `served` adds the links and the form of `cardgame serve`; `script` is the
/// script's path as the user gave it, for the commands that replay a game.
pub fn page(r: &Json, served: bool, script: &str) -> String {
    let game = text(&r["game"]);
    let players = int(&r["players"]);
    let games = int(&r["games"]);
    let mut b = String::new();
    b.push_str(&format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width\"><title>{} — simulation report</title><style>{STYLE}</style></head><body>",
        esc(&game)
    ));
    if served {
        b.push_str("<nav><a href=\"/\">Play</a> <a href=\"/replay\">Replay</a> <a class=\"here\" href=\"/report\">Report</a></nav>");
    }
    // A reproducible report (`--reproducible`) has no speed: the page then says none.
    let speed = if r["games_per_second"].is_number() {
        format!("; {:.1} games per second", num(&r["games_per_second"]))
    } else {
        String::new()
    };
    b.push_str(&format!(
        "<h1>{}</h1><p class=\"sub\">{games} games, {players} players, seed {}; {} finished, {} stopped at a limit, {} engine errors{speed}</p>",
        esc(&game),
        int(&r["seed"]),
        int(&r["finished"]),
        int(&r["unfinished"]),
        int(&r["error_count"]),
    ));
    if served {
        b.push_str(&format!(
            "<form method=\"get\" action=\"/report\">games <input name=\"games\" size=\"6\" value=\"{games}\"> seed <input name=\"seed\" size=\"6\" value=\"{}\"> agents <input name=\"agents\" size=\"24\" placeholder=\"the server's\"> <button>Simulate</button></form>",
            int(&r["seed"])
        ));
    }
    // Wins.
    let seats: Vec<RateBar> = r["wins_by_seat"]
        .as_array()
        .map(|a| {
            a.iter()
                .enumerate()
                .map(|(i, x)| rate_bar(format!("seat {}", i + 1), x))
                .collect()
        })
        .unwrap_or_default();
    let even = (players > 0).then(|| 1.0 / players as f64);
    b.push_str("<section><h2>Win rate by seat</h2><p class=\"note\">Bars: the share of games (engine errors left out) each seat won; whiskers: the 95% interval (Wilson); dashed: an even share.</p>");
    b.push_str(&rate_chart("Win rate by seat", &seats, even));
    b.push_str("</section>");
    if let Some(agents) = r["wins_by_agent"].as_object() {
        let bars: Vec<RateBar> = agents
            .iter()
            .map(|(name, x)| rate_bar(name.clone(), x))
            .collect();
        b.push_str("<section><h2>Win rate by agent</h2>");
        b.push_str(&rate_chart("Win rate by agent", &bars, even));
        b.push_str(&format!(
            "<p class=\"note\">Ties (more than one winner): {}; finished games nobody won: {}.</p></section>",
            int(&r["ties"]),
            int(&r["no_winner"])
        ));
    }
    // Teams (`teams by VAR`): a team wins a game when every winner is of it.
    if let Some(teams) = r["wins_by_team"].as_object().filter(|t| !t.is_empty()) {
        let bars: Vec<RateBar> = teams
            .iter()
            .map(|(name, x)| rate_bar(format!("team {name}"), x))
            .collect();
        let even = (!teams.is_empty()).then(|| 1.0 / teams.len() as f64);
        b.push_str("<section><h2>Win rate by team</h2><p class=\"note\">A team wins a game when every winner is of it (a team's win is not a tie); over the games the team played.</p>");
        b.push_str(&rate_chart("Win rate by team", &bars, even));
        b.push_str("</section>");
    }
    // Participants that are not seats (`participant NAME "Name"`), when one took part.
    if let Some(ps) = r["wins_by_participant"]
        .as_object()
        .filter(|t| !t.is_empty())
    {
        let bars: Vec<RateBar> = ps
            .iter()
            .map(|(name, x)| rate_bar(name.clone(), x))
            .collect();
        b.push_str("<section><h2>Win rate by participant</h2><p class=\"note\">Participants that are not seats; over the games each took part in (at the end it held a card or had a variable changed, or it won).</p>");
        b.push_str(&rate_chart("Win rate by participant", &bars, None));
        b.push_str("</section>");
    }
    // Length.
    b.push_str("<section><h2>Game length</h2>");
    b.push_str(&format!(
        "<p>Turns: mean {:.1}, median {}, 90th percentile {}. Decisions: mean {:.1}, median {}, 90th percentile {}.</p>",
        num(&r["turns"]["mean"]),
        num(&r["turns"]["median"]),
        num(&r["turns"]["p90"]),
        num(&r["decisions"]["mean"]),
        num(&r["decisions"]["median"]),
        num(&r["decisions"]["p90"]),
    ));
    let pairs: Vec<(i64, u64)> = r["turns_histogram"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|p| Some((p.get(0)?.as_i64()?, p.get(1)?.as_u64()?)))
                .collect()
        })
        .unwrap_or_default();
    b.push_str(&histogram(
        "Games by number of turns",
        "turns",
        &pairs,
        &[
            ("mean", num(&r["turns"]["mean"])),
            ("median", num(&r["turns"]["median"])),
        ],
    ));
    b.push_str("</section>");
    course(&mut b, &r["course"]);
    curves(&mut b, r);
    // End reasons.
    if let Some(reasons) = r["end_reasons"].as_object() {
        let mut rows: Vec<(String, u64)> =
            reasons.iter().map(|(k, v)| (k.clone(), int(v))).collect();
        rows.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        b.push_str("<section><h2>End reasons</h2>");
        b.push_str(&count_chart("Games by end reason", &rows));
        b.push_str("</section>");
    }
    cards(&mut b, r);
    stats(&mut b, r);
    problems(&mut b, r, script);
    b.push_str(&format!("<script>{SORT_JS}</script></body></html>\n"));
    b
}

/// The per-card table, sortable by any column.
fn cards(b: &mut String, r: &Json) {
    let Some(cards) = r["cards"].as_array().filter(|c| !c.is_empty()) else {
        return;
    };
    b.push_str("<section><h2>Cards</h2><p class=\"note\">Click a column to sort. Acquired: mean copies a player held at the end beyond its setup; holders: players who gained a copy; their win rate with its 95% interval; performed: mean abilities of the card performed per player and game.</p>");
    b.push_str("<table class=\"sortable\"><thead><tr><th>card</th><th>acquired / game</th><th>holders</th><th>holders' win rate</th><th>interval</th><th>performed / game</th></tr></thead><tbody>");
    for c in cards {
        let w = &c["holder_wins"];
        // A card nobody gained has no holders to rate: a dash, sorted below every rate.
        let (rate, interval) = if int(&c["holders"]) == 0 {
            ("<td data-v=\"-1\">–</td>".to_string(), "–".to_string())
        } else {
            (
                format!(
                    "<td data-v=\"{}\">{}</td>",
                    num(&w["rate"]),
                    pct(num(&w["rate"]))
                ),
                format!("{}–{}", pct(num(&w["low"])), pct(num(&w["high"]))),
            )
        };
        b.push_str(&format!(
            "<tr><td>{}</td><td>{:.2}</td><td>{}</td>{rate}<td>{interval}</td><td>{:.2}</td></tr>",
            esc(&text(&c["name"])),
            num(&c["acquired_per_game"]),
            int(&c["holders"]),
            num(&c["performed_per_game"]),
        ));
    }
    b.push_str("</tbody></table></section>");
}

/// The script's statistics, each with its distribution when the report has one.
fn stats(b: &mut String, r: &Json) {
    let Some(stats) = r["stats"].as_array().filter(|s| !s.is_empty()) else {
        return;
    };
    b.push_str("<section><h2>Statistics of the script</h2><table><thead><tr><th>stat</th><th>kind</th><th>records</th><th>games</th><th>mean [95%]</th><th>min</th><th>max</th></tr></thead><tbody>");
    for s in stats {
        b.push_str(&format!(
            "<tr><td title=\"{}\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{:.2} [{:.2}–{:.2}]</td><td>{}</td><td>{}</td></tr>",
            esc(&text(&s["description"])),
            esc(&text(&s["name"])),
            esc(&text(&s["kind"])),
            int(&s["records"]),
            int(&s["games"]),
            num(&s["mean"]),
            num(&s["low"]),
            num(&s["high"]),
            text(&s["min"]),
            text(&s["max"]),
        ));
    }
    b.push_str("</tbody></table>");
    for s in stats {
        key_table(b, s);
    }
    for s in stats {
        let pairs: Vec<(i64, u64)> = s["distribution"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|p| Some((p.get(0)?.as_i64()?, p.get(1)?.as_u64()?)))
                    .collect()
            })
            .unwrap_or_default();
        if pairs.is_empty() {
            continue;
        }
        let name = text(&s["name"]);
        b.push_str(&format!(
            "<h3>{}</h3><p class=\"note\">{}</p>",
            esc(&name),
            esc(&text(&s["description"]))
        ));
        b.push_str(&histogram(
            &format!("Distribution of {name}"),
            "value",
            &pairs,
            &[("mean", num(&s["mean"]))],
        ));
    }
    b.push_str("</section>");
}

/// The table of a statistic kept per key (`per_key` in the JSON report): per key, its mean with its
/// interval, records and games; nothing for a statistic without a key.
fn key_table(b: &mut String, s: &Json) {
    let per = &s["per_key"];
    if per.is_null() {
        return;
    }
    let name = text(&s["name"]);
    b.push_str(&format!(
        "<h3>{} per key ({})</h3><p class=\"note\">{}</p>",
        esc(&name),
        esc(&text(&per["key"])),
        esc(&text(&s["description"]))
    ));
    let Some(keys) = per["keys"].as_array() else {
        b.push_str(
            "<p class=\"note\">More than 256 keys: no table (every key together above).</p>",
        );
        return;
    };
    b.push_str("<table class=\"keys\"><thead><tr><th>key</th><th>mean [95%]</th><th>records</th><th>games</th><th>min</th><th>max</th></tr></thead><tbody>");
    for k in keys {
        b.push_str(&format!(
            "<tr><td>{}</td><td>{:.2} [{:.2}–{:.2}]</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            esc(&text(&k["key"])),
            num(&k["mean"]),
            num(&k["low"]),
            num(&k["high"]),
            int(&k["records"]),
            int(&k["games"]),
            text(&k["min"]),
            text(&k["max"]),
        ));
    }
    b.push_str("</tbody></table>");
}

/// Unused content, games stopped at a limit and engine errors, with the flags that replay them.
fn problems(b: &mut String, r: &Json, script: &str) {
    let list = |v: &Json| -> Vec<String> {
        v.as_array()
            .map(|a| a.iter().map(text).collect())
            .unwrap_or_default()
    };
    let unused = &r["unused"];
    let parts = [
        (
            "Actions never offered",
            list(&unused["actions_never_offered"]),
        ),
        ("Cards never chosen", list(&unused["cards_never_chosen"])),
        ("Cards never moved", list(&unused["cards_never_moved"])),
    ];
    if parts.iter().any(|p| !p.1.is_empty()) {
        b.push_str("<section><h2>Never used</h2><dl>");
        for (title, names) in parts.iter().filter(|p| !p.1.is_empty()) {
            b.push_str(&format!(
                "<dt>{title}</dt><dd>{}</dd>",
                esc(&names.join(", "))
            ));
        }
        b.push_str("</dl></section>");
    }
    let stalls = r["stalls"].as_array().cloned().unwrap_or_default();
    let errors = r["errors"].as_array().cloned().unwrap_or_default();
    if stalls.is_empty() && errors.is_empty() {
        return;
    }
    b.push_str("<section><h2>Games that did not end by the rules</h2><ul>");
    for e in &errors {
        b.push_str(&format!(
            "<li>engine error in game {} (seed {}): {}<br><code>cardgame run {} {}</code></li>",
            int(&e["game"]),
            int(&e["seed"]),
            esc(&text(&e["message"])),
            esc(script),
            esc(&text(&e["replay"]))
        ));
    }
    for g in &stalls {
        b.push_str(&format!(
            "<li>game {} (seed {}) stopped after {} turns: {}<br><code>cardgame run {} {}</code></li>",
            int(&g["game"]),
            int(&g["seed"]),
            int(&g["turns"]),
            esc(&text(&g["reason"])),
            esc(script),
            esc(&text(&g["replay"]))
        ));
    }
    b.push_str("</ul></section>");
}

/// The figures designers read (the report's `course`): a list, and the mean score of each seat by turn.
fn course(b: &mut String, c: &Json) {
    if c.is_null() {
        return;
    }
    let mean = |m: &Json, rate: bool| match rate {
        true => format!(
            "{:+.1}% [{:+.1} to {:+.1}]",
            num(&m["mean"]) * 100.0,
            num(&m["low"]) * 100.0,
            num(&m["high"]) * 100.0
        ),
        false => format!(
            "{:.2} [{:.2}-{:.2}]",
            num(&m["mean"]),
            num(&m["low"]),
            num(&m["high"])
        ),
    };
    b.push_str("<section><h2>How the games went</h2><ul>");
    b.push_str(&format!(
        "<li>First seat advantage (seat 1's win rate less the seats' mean): {}</li>",
        esc(&mean(&c["first_seat_advantage"], true))
    ));
    if c["measure"].is_string() {
        let measure = text(&c["measure"]);
        b.push_str(&format!(
            "<li>Lead changes per game, by <code>fn {}</code> turn by turn: {}</li>",
            esc(&measure),
            esc(&mean(&c["lead_changes"], false))
        ));
        let d = &c["decided_at"];
        b.push_str(&format!(
            "<li>The winner led for good from {:.0}% of the game [{:.0}-{:.0}] ({} games)</li>",
            num(&d["mean"]) * 100.0,
            num(&d["low"]) * 100.0,
            num(&d["high"]) * 100.0,
            int(&c["decided_games"])
        ));
        let drama = &c["drama"];
        b.push_str(&format!(
            "<li>The winner was behind after two thirds of the game: {} [{} to {}] of {} games one seat won</li>",
            pct(num(&drama["rate"])),
            pct(num(&drama["low"])),
            pct(num(&drama["high"])),
            int(&drama["games"])
        ));
    }
    b.push_str("</ul>");
    if let Some(turns) = c["score_by_turn"].as_array().filter(|t| !t.is_empty()) {
        let seats = turns[0].as_array().map_or(0, Vec::len);
        let names: Vec<String> = (1..=seats).map(|k| format!("seat {k}")).collect();
        let (labels, series) = by_turn(turns, &names);
        b.push_str(&format!(
            "<p class=\"note\">The mean <code>fn {}</code> of each seat in each turn (read at its first decision) (whiskers: 95% intervals), while at least 10 games lasted that long.</p>",
            esc(&text(&c["measure"]))
        ));
        b.push_str(&line_chart(
            "Mean score by turn",
            "turn",
            &labels,
            &series,
            false,
        ));
    }
    b.push_str("</section>");
}

/// The turns' labels and one series per line of a curve by turn (`[turn][line]` of means with
/// intervals), named `names`.
fn by_turn(turns: &[Json], names: &[String]) -> (Vec<String>, Vec<(String, Vec<Point>)>) {
    let labels: Vec<String> = (1..=turns.len()).map(|t| t.to_string()).collect();
    let series = names
        .iter()
        .enumerate()
        .map(|(k, name)| {
            let points = turns
                .iter()
                .map(|t| {
                    let m = &t[k];
                    (num(&m["mean"]), Some((num(&m["low"]), num(&m["high"]))))
                })
                .collect();
            (name.clone(), points)
        })
        .collect();
    (labels, series)
}

/// The curves followed turn by turn (`sim --curve`), a chart each.
fn curves(b: &mut String, r: &Json) {
    let Some(curves) = r["curves"].as_array().filter(|c| !c.is_empty()) else {
        return;
    };
    b.push_str("<section><h2>Curves by turn</h2>");
    b.push_str("<p class=\"note\">The mean in each turn (read at its first decision) over the games that lasted that long (whiskers: 95% intervals), while at least 10 games did.</p>");
    for c in curves {
        let names: Vec<String> = c["lines"]
            .as_array()
            .map(|l| l.iter().map(text).collect())
            .unwrap_or_default();
        let turns = c["by_turn"].as_array().cloned().unwrap_or_default();
        let (labels, series) = by_turn(&turns, &names);
        let title = format!("{} ({})", text(&c["name"]), text(&c["of"]));
        b.push_str(&line_chart(&title, "turn", &labels, &series, false));
    }
    b.push_str("</section>");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_every_section_of_a_report() {
        let r = serde_json::json!({
            "game": "A <b>game</b>", "players": 2, "games": 10, "seed": 1, "finished": 9,
            "unfinished": 1, "error_count": 0, "games_per_second": 100.0,
            "wins_by_seat": [
                {"wins": 6, "games": 10, "rate": 0.6, "low": 0.31, "high": 0.83},
                {"wins": 3, "games": 10, "rate": 0.3, "low": 0.11, "high": 0.6}
            ],
            "wins_by_agent": {"random": {"wins": 9, "games": 20, "rate": 0.45, "low": 0.26, "high": 0.66}},
            "ties": 0, "no_winner": 0,
            "turns": {"mean": 12.0, "median": 12.0, "p90": 15.0},
            "turns_histogram": [[10, 3], [12, 5], [15, 2]],
            "decisions": {"mean": 40.0, "median": 41.0, "p90": 50.0},
            "end_reasons": {"goal reached": 9, "turn limit": 1},
            "cards": [{"name": "Copper", "acquired_per_game": 0.5, "holders": 4,
                       "holder_wins": {"wins": 2, "games": 4, "rate": 0.5, "low": 0.15, "high": 0.85},
                       "performed_per_game": 7.25},
                      {"name": "Estate", "acquired_per_game": 0.0, "holders": 0,
                       "holder_wins": {"wins": 0, "games": 0, "rate": 0.0, "low": 0.0, "high": 0.0},
                       "performed_per_game": 0.0}],
            "stats": [{"name": "coins", "description": "coins a turn", "kind": "value", "records": 30,
                       "games": 10, "mean": 3.5, "low": 3.1, "high": 3.9, "min": 0, "max": 8,
                       "distribution": [[0, 2], [8, 1]], "by_turn": []}],
            "unused": {"actions_never_offered": ["pass"], "cards_never_chosen": [], "cards_never_moved": []},
            "curves": [{"name": "coins", "of": "per-player variable", "lines": ["seat 1", "seat 2"],
                        "by_turn": [[{"mean": 1.0, "low": 0.5, "high": 1.5}, {"mean": 2.0, "low": 1.5, "high": 2.5}],
                                    [{"mean": 3.0, "low": 2.5, "high": 3.5}, {"mean": 4.0, "low": 3.5, "high": 4.5}]]}],
            "stalls": [{"game": 4, "seed": 99, "reason": "turn limit", "turns": 2000, "decisions": 9000,
                        "agents": ["random"], "replay": "--seed 99"}],
            "errors": []
        });
        // A statistic kept per key.
        let mut r = r;
        let keyed: Json = serde_json::from_str(
            r#"{"name": "bust", "description": "busts by up-card", "kind": "value", "records": 4,
                "games": 2, "mean": 0.5, "low": 0.1, "high": 0.9, "min": 0, "max": 1,
                "distribution": [[0, 2], [1, 2]], "by_turn": [],
                "per_key": {"key": "int", "keys": [
                    {"key": "10", "records": 3, "games": 2, "mean": 0.67, "low": 0.2, "high": 1.1,
                     "min": 0, "max": 1, "distribution": [[0, 1], [1, 2]]},
                    {"key": "<A>", "records": 1, "games": 1, "mean": 0.0, "low": 0.0, "high": 0.0,
                     "min": 0, "max": 0, "distribution": [[0, 1]]}]}}"#,
        )
        .expect("JSON");
        if let Some(stats) = r["stats"].as_array_mut() {
            stats.push(keyed);
        }
        let html = page(&r, false, "games/race.cardgame");
        assert!(html.starts_with("<!doctype html>"));
        assert!(
            html.contains("<h1>A &lt;b&gt;game&lt;/b&gt;</h1>"),
            "escaped title"
        );
        for part in [
            "Win rate by seat",
            "Win rate by agent",
            "Games by number of turns",
            "End reasons",
            "<td>Copper</td><td>0.50</td><td>4</td>",
            "<td>Estate</td><td>0.00</td><td>0</td><td data-v=\"-1\">–</td><td>–</td>",
            "Statistics of the script",
            "Distribution of coins",
            "<h3>bust per key (int)</h3>",
            "<tr><td>10</td><td>0.67 [0.20–1.10]</td><td>3</td><td>2</td><td>0</td><td>1</td></tr>",
            "<tr><td>&lt;A&gt;</td><td>0.00 [0.00–0.00]</td><td>1</td><td>1</td><td>0</td><td>0</td></tr>",
            "Actions never offered",
            "cardgame run games/race.cardgame --seed 99",
            "Curves by turn",
            "<title>coins (per-player variable) against turn</title>",
        ] {
            assert!(html.contains(part), "missing {part}");
        }
        // Three seat/agent bars with whiskers, three histogram bars of turns (10 to 15 in one-turn
        // bins: six bins, three of them empty), and the curve's four points with whiskers.
        assert_eq!(html.matches("class=\"err\"").count(), 7);
        assert!(html.contains("<title>12 turns: 5</title>"));
        assert!(
            !html.contains("<nav>"),
            "a written file has no links to the server"
        );
        assert!(page(&r, true, "games/race.cardgame").contains("<nav>"));
    }
}
