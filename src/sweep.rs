//! Command line, simulation stage: `sim --sweep NAME=VALUES`, the same study run once per value of a
//! setting (or per point of a grid of several) and its figures reported against the value (docs/cli.md,
//! "Sweeps").

use crate::diagnostics::load_variant;
use crate::games::{config, study};
use crate::html::{esc, line_chart};
use crate::{Batch, Format, GameArgs, SCRIPT_ERROR, USAGE};
use cardgame_interpreter::sim::{simulate, SimReport};
use serde_json::json;
use std::path::{Path, PathBuf};

/// The most points a sweep may have (all its values, or the grid of several sweeps).
const MAX_POINTS: usize = 100;

/// One `--sweep NAME=VALUES`: a setting (as `--set` names it) and its values in order.
#[derive(Clone, Debug, PartialEq)]
pub struct Sweep {
    pub name: String,
    pub values: Vec<String>,
}

impl Sweep {
    /// Reads `NAME=LOW..HIGH` (whole numbers, both included) or `NAME=V1,V2,...`.
    pub fn parse(text: &str) -> Result<Sweep, String> {
        let bad = || {
            format!(
                "--sweep takes NAME=LOW..HIGH or NAME=V1,V2,... (for example \"Smithy.cost=3..6\"), \
                 not `{text}`"
            )
        };
        let (name, values) = text.split_once('=').ok_or_else(bad)?;
        let (name, values) = (name.trim(), values.trim());
        if name.is_empty() || values.is_empty() {
            return Err(bad());
        }
        let range = values.split_once("..").and_then(|(low, high)| {
            Some((
                low.trim().parse::<i64>().ok()?,
                high.trim().parse::<i64>().ok()?,
            ))
        });
        let values: Vec<String> = match range {
            Some((low, high)) if low <= high && high - low < MAX_POINTS as i64 => {
                (low..=high).map(|v| v.to_string()).collect()
            }
            Some(_) => {
                return Err(format!(
                    "--sweep {text}: a range goes up, with at most {MAX_POINTS} values"
                ))
            }
            None => values.split(',').map(|v| v.trim().to_string()).collect(),
        };
        if values.iter().any(String::is_empty) {
            return Err(bad());
        }
        Ok(Sweep {
            name: name.to_string(),
            values,
        })
    }
}

/// Every point of the grid of `sweeps`, the first sweep varying slowest: each point is the
/// `NAME=VALUE` of every sweep.
fn grid(sweeps: &[Sweep]) -> Vec<Vec<String>> {
    let mut points = vec![Vec::new()];
    for s in sweeps {
        points = points
            .into_iter()
            .flat_map(|p| {
                s.values.iter().map(move |v| {
                    let mut p = p.clone();
                    p.push(format!("{}={v}", s.name));
                    p
                })
            })
            .collect();
    }
    points
}

/// What `sim --sweep` was asked.
pub struct SweepArgs<'a> {
    pub file: &'a Path,
    pub game: &'a GameArgs,
    pub sweeps: &'a [String],
    pub games: u64,
    pub agents: &'a str,
    pub rotate: bool,
    pub reproducible: bool,
    pub html: Option<PathBuf>,
    pub batch: &'a Batch,
}

pub fn cmd_sweep(args: SweepArgs) -> u8 {
    let sweeps: Result<Vec<Sweep>, String> = args.sweeps.iter().map(|s| Sweep::parse(s)).collect();
    let sweeps = match sweeps {
        Ok(s) => s,
        Err(e) => {
            errln!("error: {e}");
            return USAGE;
        }
    };
    let points = grid(&sweeps);
    if points.len() > MAX_POINTS {
        errln!(
            "error: the sweeps make {} points; at most {MAX_POINTS}",
            points.len()
        );
        return USAGE;
    }
    let mut rows: Vec<(Vec<String>, SimReport)> = Vec::new();
    for point in points {
        let mut settings = args.game.set.clone();
        settings.extend(point.iter().cloned());
        let (program, source) = match load_variant(args.file, &settings) {
            Ok(x) => x,
            Err(c) => return c,
        };
        let game = GameArgs {
            players: args.game.players,
            options: args.game.options.clone(),
            set: settings.clone(),
        };
        let cfg = match config(&program, &game, args.batch.seed) {
            Ok(c) => c,
            Err(e) => {
                errln!("error: {e}");
                return USAGE;
            }
        };
        let what = (args.games, args.agents, args.rotate);
        let sc = match study(
            &program,
            &cfg,
            (args.file, &source),
            what,
            args.batch,
            &settings,
        ) {
            Ok(sc) => sc,
            Err(c) => return c,
        };
        match simulate(&program, &sc, &|| {}) {
            Ok(r) => rows.push((point, r)),
            Err(e) => {
                errln!("error: {e}");
                return USAGE;
            }
        }
    }
    let names: Vec<String> = sweeps.iter().map(|s| s.name.clone()).collect();
    let mut table = table(&names, &rows);
    if let Some((_, r)) = rows.first() {
        table.title = format!(
            "{}: {}, {} games per point with {} players (seed {}; agents {})",
            r.game, table.title, args.games, r.players, r.seed, args.agents
        );
    }
    if let Some(path) = &args.html {
        let game = rows.first().map_or("", |r| r.1.game.as_str());
        let page = page(game, &table);
        if let Err(e) = std::fs::write(path, page) {
            errln!("error: cannot write {}: {e}", path.display());
            return SCRIPT_ERROR;
        }
    }
    match args.batch.format {
        Format::Text => out!("{}", table.to_text()),
        Format::Json => {
            let points: Vec<serde_json::Value> = rows
                .iter()
                .map(|(point, r)| {
                    let mut report = serde_json::to_value(r).unwrap_or_default();
                    if let (true, Some(o)) = (args.reproducible, report.as_object_mut()) {
                        for key in ["jobs", "seconds", "games_per_second"] {
                            o.remove(key);
                        }
                    }
                    json!({ "settings": point, "report": report })
                })
                .collect();
            outln!("{}", json!({ "sweeps": names, "points": points }));
        }
    }
    let errors: u64 = rows.iter().map(|r| r.1.error_count).sum();
    u8::from(errors > 0)
}

/// A figure at one point: its value and, where it has one, its 95% interval.
#[derive(Clone, Copy, Debug)]
pub struct Cell {
    pub value: f64,
    pub interval: Option<(f64, f64)>,
}

/// The figures of a sweep, a column per figure and a row per point.
pub struct Table {
    pub title: String,
    /// The swept names, then the figures.
    pub names: Vec<String>,
    pub figures: Vec<(String, bool)>,
    /// Per point: the swept values, then a cell per figure.
    pub rows: Vec<(Vec<String>, Vec<Cell>)>,
}

/// The figures designers read against a swept value: each seat's wins, ties, game length and each
/// statistic's mean.
fn table(names: &[String], rows: &[(Vec<String>, SimReport)]) -> Table {
    let mut figures: Vec<(String, bool)> = Vec::new();
    if let Some((_, r)) = rows.first() {
        figures.extend((1..=r.players).map(|s| (format!("wins: seat {s}"), true)));
        figures.push(("ties".into(), true));
        figures.push(("turns (mean)".into(), false));
        figures.push(("decisions (mean)".into(), false));
        figures.extend(r.stats.iter().map(|s| (format!("stat: {}", s.name), false)));
    }
    let games = |r: &SimReport| r.games.saturating_sub(r.error_count).max(1) as f64;
    let rows = rows
        .iter()
        .map(|(point, r)| {
            let mut cells: Vec<Cell> = r
                .wins_by_seat
                .iter()
                .map(|w| Cell {
                    value: w.rate,
                    interval: Some((w.low, w.high)),
                })
                .collect();
            let ties = cardgame_interpreter::sim::Rate::new(r.ties, games(r) as u64);
            cells.push(Cell {
                value: ties.rate,
                interval: Some((ties.low, ties.high)),
            });
            for v in [r.turns.mean, r.decisions.mean] {
                cells.push(Cell {
                    value: v,
                    interval: None,
                });
            }
            cells.extend(r.stats.iter().map(|s| Cell {
                value: s.mean,
                interval: Some((s.low, s.high)),
            }));
            let values = point
                .iter()
                .map(|p| p.split_once('=').map_or(p.clone(), |(_, v)| v.to_string()))
                .collect();
            (values, cells)
        })
        .collect();
    Table {
        title: format!("sweep of {}", names.join(" and ")),
        names: names.to_vec(),
        figures,
        rows,
    }
}

impl Table {
    /// One line per point, a column per figure: `55.8% [52.7-58.9]` for a rate, `30.12` for a mean.
    pub fn to_text(&self) -> String {
        let heads: Vec<String> = self
            .names
            .iter()
            .cloned()
            .chain(self.figures.iter().map(|f| f.0.clone()))
            .collect();
        let cells: Vec<Vec<String>> = self
            .rows
            .iter()
            .map(|(values, cells)| {
                let mut line = values.clone();
                for (cell, (_, rate)) in cells.iter().zip(&self.figures) {
                    line.push(cell_text(cell, *rate));
                }
                line
            })
            .collect();
        let widths: Vec<usize> = (0..heads.len())
            .map(|i| {
                cells
                    .iter()
                    .map(|l| l.get(i).map_or(0, |c| c.chars().count()))
                    .chain([heads[i].chars().count()])
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        let mut s = format!("{} (95% intervals per point)\n", self.title);
        for line in std::iter::once(&heads).chain(&cells) {
            let row: Vec<String> = line
                .iter()
                .zip(&widths)
                .map(|(c, w)| format!("{c:w$}"))
                .collect();
            s.push_str(row.join("  ").trim_end());
            s.push('\n');
        }
        s
    }
}

/// A cell as text.
pub fn cell_text(cell: &Cell, rate: bool) -> String {
    match (rate, cell.interval) {
        (true, Some((l, h))) => format!(
            "{:.1}% [{:.1}-{:.1}]",
            cell.value * 100.0,
            l * 100.0,
            h * 100.0
        ),
        (false, Some((l, h))) => format!("{:.2} [{:.2}-{:.2}]", cell.value, l, h),
        (true, None) => format!("{:.1}%", cell.value * 100.0),
        (false, None) => format!("{:.2}", cell.value),
    }
}

// The page of `--html FILE`: the sweep's table, and a chart per figure of its value (with its 95%
// interval) against the swept values.

const STYLE: &str = include_str!("html/report.css");

/// The whole page.
pub fn page(game: &str, table: &Table) -> String {
    let mut b = format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width\"><title>{} — sweep</title><style>{STYLE}</style></head><body><h1>{}</h1><p class=\"sub\">{}; every point plays the same seeds. Whiskers: 95% intervals per point.</p>",
        esc(game),
        esc(game),
        esc(&table.title)
    );
    let labels: Vec<String> = table.rows.iter().map(|(v, _)| v.join(", ")).collect();
    for (i, (figure, rate)) in table.figures.iter().enumerate() {
        let points: Vec<crate::html::Point> = table
            .rows
            .iter()
            .filter_map(|(_, cells)| cells.get(i).map(|c| (c.value, c.interval)))
            .collect();
        b.push_str(&format!("<section><h2>{}</h2>", esc(figure)));
        let series = [(String::new(), points)];
        let axis = table.names.join(", ");
        b.push_str(&line_chart(figure, &axis, &labels, &series, *rate));
        b.push_str("</section>");
    }
    b.push_str("<section><h2>Table</h2><table class=\"counts\"><thead><tr>");
    for h in table.names.iter().chain(table.figures.iter().map(|f| &f.0)) {
        b.push_str(&format!("<th>{}</th>", esc(h)));
    }
    b.push_str("</tr></thead><tbody>");
    for (values, cells) in &table.rows {
        b.push_str("<tr>");
        for v in values {
            b.push_str(&format!("<td>{}</td>", esc(v)));
        }
        for (c, (_, rate)) in cells.iter().zip(&table.figures) {
            b.push_str(&format!("<td>{}</td>", esc(&cell_text(c, *rate))));
        }
        b.push_str("</tr>");
    }
    b.push_str("</tbody></table></section></body></html>\n");
    b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sweep_is_read_as_a_range_or_a_list_and_sweeps_make_a_grid() {
        let a = Sweep::parse("Smithy.cost=3..5").expect("a range");
        assert_eq!(a.values, ["3", "4", "5"]);
        let b = Sweep::parse("rares = true, false").expect("a list");
        assert_eq!((b.name.as_str(), b.values.len()), ("rares", 2));
        assert!(Sweep::parse("Smithy.cost=6..3").is_err());
        assert!(Sweep::parse("Smithy.cost").is_err());
        assert!(Sweep::parse("x=1,,2").is_err());
        let g = grid(&[a, b]);
        assert_eq!(g.len(), 6);
        assert_eq!(g[1], ["Smithy.cost=3", "rares=false"]);
    }
}
