//! Command line, HTML stage: the page of `sim --sweep ... --html FILE`: the sweep's table, and a chart
//! per figure of its value (with its 95% interval) against the swept values.

use super::esc;
use crate::sweep::{cell_text, Table};

const STYLE: &str = include_str!("report.css");

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
        let points: Vec<(f64, Option<(f64, f64)>)> = table
            .rows
            .iter()
            .filter_map(|(_, cells)| cells.get(i).map(|c| (c.value, c.interval)))
            .collect();
        b.push_str(&format!("<section><h2>{}</h2>", esc(figure)));
        b.push_str(&chart(
            figure,
            &table.names.join(", "),
            &labels,
            &points,
            *rate,
        ));
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

/// A line through the points, one per swept value from left to right, with the intervals as
/// whiskers; the vertical axis spans the values and intervals (from 0% to 100% for a rate).
fn chart(
    title: &str,
    axis: &str,
    labels: &[String],
    points: &[(f64, Option<(f64, f64)>)],
    rate: bool,
) -> String {
    let (w, h) = (760.0, 240.0);
    let (left, right, top, bottom) = (60.0, 20.0, 12.0, 44.0);
    let (mut low, mut high) = match rate {
        true => (0.0f64, 1.0f64),
        false => (f64::INFINITY, f64::NEG_INFINITY),
    };
    for (v, i) in points {
        let (l, u) = i.unwrap_or((*v, *v));
        low = low.min(l.min(*v));
        high = high.max(u.max(*v));
    }
    if !low.is_finite() || !high.is_finite() {
        return String::new();
    }
    if high - low < 1e-9 {
        high = low + 1.0;
    }
    let n = points.len().max(1);
    let x = |i: usize| left + (w - left - right) * (i as f64 + 0.5) / n as f64;
    let y = |v: f64| top + (h - top - bottom) * (1.0 - (v - low) / (high - low));
    let show = |v: f64| match rate {
        true => format!("{:.0}%", v * 100.0),
        false => format!("{v:.2}"),
    };
    let mut s = format!(
        "<svg class=\"chart\" role=\"img\" viewBox=\"0 0 {w} {h}\" width=\"{w}\" height=\"{h}\"><title>{} against {}</title>",
        esc(title),
        esc(axis)
    );
    for t in 0..=4 {
        let v = low + (high - low) * f64::from(t) / 4.0;
        let (yv, x2, tx, ty) = (y(v), w - right, left - 6.0, y(v) + 4.0);
        s.push_str(&format!(
            "<line class=\"grid\" x1=\"{left}\" x2=\"{x2:.1}\" y1=\"{yv:.1}\" y2=\"{yv:.1}\"/><text class=\"tick\" x=\"{tx:.1}\" y=\"{ty:.1}\" text-anchor=\"end\">{}</text>",
            show(v)
        ));
    }
    let line: Vec<String> = points
        .iter()
        .enumerate()
        .map(|(i, (v, _))| format!("{:.1},{:.1}", x(i), y(*v)))
        .collect();
    s.push_str(&format!(
        "<polyline style=\"fill:none;stroke:#3b6ea8;stroke-width:2\" points=\"{}\"/>",
        line.join(" ")
    ));
    for (i, ((v, interval), label)) in points.iter().zip(labels).enumerate() {
        if let Some((l, u)) = interval {
            s.push_str(&format!(
                "<path class=\"err\" d=\"M{0:.1} {1:.1}V{2:.1}M{3:.1} {1:.1}H{4:.1}M{3:.1} {2:.1}H{4:.1}\"/>",
                x(i),
                y(*l),
                y(*u),
                x(i) - 4.0,
                x(i) + 4.0
            ));
        }
        s.push_str(&format!(
            "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"3.5\"><title>{}: {}</title></circle><text class=\"tick\" x=\"{0:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
            x(i),
            y(*v),
            esc(label),
            esc(&show(*v)),
            h - bottom + 16.0,
            esc(label)
        ));
    }
    s.push_str(&format!(
        "<text class=\"tick\" x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text></svg>",
        left + (w - left - right) / 2.0,
        h - 6.0,
        esc(axis)
    ));
    s
}
