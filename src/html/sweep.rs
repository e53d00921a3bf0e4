//! Command line, HTML stage: the page of `sim --sweep ... --html FILE`: the sweep's table, and a chart
//! per figure of its value (with its 95% interval) against the swept values.

use super::{esc, line_chart};
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
        let points: Vec<super::Point> = table
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
