//! Command line, HTML stage: pages written by the tool itself (no template engine, no network): text
//! escaping and SVG charts, used by `sim --html` and `cardgame serve`.

pub mod report;

/// `s` with the characters HTML gives a meaning escaped (for text and for attribute values).
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A rate (0 to 1) as a percentage with one decimal.
pub fn pct(x: f64) -> String {
    format!("{:.1}%", x * 100.0)
}

/// A point of a line chart: its value and, where it has one, its interval.
pub type Point = (f64, Option<(f64, f64)>);

/// Colours of the lines of a chart, one per series in turn.
const SERIES: [&str; 6] = [
    "#3b6ea8", "#c0533a", "#4c9a5b", "#8a5aa8", "#b8902f", "#4a4a4a",
];

/// One line per series through its points, one point per label from left to right, the intervals as
/// whiskers; the vertical axis spans the values and intervals (from 0% to 100% for a rate). A series
/// with a name is named in a legend.
pub fn line_chart(
    title: &str,
    axis: &str,
    labels: &[String],
    series: &[(String, Vec<Point>)],
    rate: bool,
) -> String {
    let (w, h) = (760.0, 240.0);
    let (left, right, top, bottom) = (60.0, 20.0, 12.0, 44.0);
    let (mut low, mut high) = match rate {
        true => (0.0f64, 1.0f64),
        false => (f64::INFINITY, f64::NEG_INFINITY),
    };
    for (v, i) in series.iter().flat_map(|s| &s.1) {
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
    let n = labels.len().max(1);
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
    // At most about 20 labels under the axis.
    let every = n.div_ceil(20);
    for (i, label) in labels.iter().enumerate().filter(|(i, _)| i % every == 0) {
        s.push_str(&format!(
            "<text class=\"tick\" x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
            x(i),
            h - bottom + 16.0,
            esc(label)
        ));
    }
    for (k, (name, points)) in series.iter().enumerate() {
        let colour = SERIES[k % SERIES.len()];
        let line: Vec<String> = points
            .iter()
            .enumerate()
            .map(|(i, (v, _))| format!("{:.1},{:.1}", x(i), y(*v)))
            .collect();
        s.push_str(&format!(
            "<polyline style=\"fill:none;stroke:{colour};stroke-width:2\" points=\"{}\"/>",
            line.join(" ")
        ));
        for (i, ((v, interval), label)) in points.iter().zip(labels).enumerate() {
            if let Some((l, u)) = interval {
                s.push_str(&format!(
                    "<path class=\"err\" d=\"M{0:.1} {1:.1}V{2:.1}M{3:.1} {1:.1}H{4:.1}M{3:.1} {2:.1}H{4:.1}\"/>",
                    x(i),
                    y(*l),
                    y(*u),
                    x(i) - 3.0,
                    x(i) + 3.0
                ));
            }
            s.push_str(&format!(
                "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"2.5\" style=\"fill:{colour}\"><title>{}{}: {}</title></circle>",
                x(i),
                y(*v),
                esc(name),
                esc(label),
                esc(&show(*v))
            ));
        }
        if !name.is_empty() {
            s.push_str(&format!(
                "<text class=\"tick\" x=\"{:.1}\" y=\"{:.1}\" style=\"fill:{colour}\">{}</text>",
                left + 8.0 + 80.0 * k as f64,
                top + 10.0,
                esc(name)
            ));
        }
    }
    s.push_str(&format!(
        "<text class=\"tick\" x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text></svg>",
        left + (w - left - right) / 2.0,
        h - 6.0,
        esc(axis)
    ));
    s
}

/// One bar of a rate chart: a label, the rate and its interval (all 0 to 1), a note on the right.
pub struct RateBar {
    pub label: String,
    pub rate: f64,
    pub low: f64,
    pub high: f64,
    pub note: String,
}

const LABEL_W: f64 = 190.0;
const PLOT_W: f64 = 380.0;
const NOTE_W: f64 = 250.0;
const ROW_H: f64 = 26.0;

/// Horizontal bars from 0% to 100% with error bars for the intervals; `mark` draws a dashed line at
/// that rate (an even share).
pub fn rate_chart(title: &str, bars: &[RateBar], mark: Option<f64>) -> String {
    let h = ROW_H * bars.len() as f64 + 34.0;
    let w = LABEL_W + PLOT_W + NOTE_W;
    let x = |r: f64| LABEL_W + PLOT_W * r.clamp(0.0, 1.0);
    let mut s = format!(
        "<svg class=\"chart\" role=\"img\" viewBox=\"0 0 {w} {h}\" width=\"{w}\" height=\"{h}\"><title>{}</title>",
        esc(title)
    );
    for t in [0.0, 0.25, 0.5, 0.75, 1.0] {
        s.push_str(&format!(
            "<line class=\"grid\" x1=\"{0:.1}\" x2=\"{0:.1}\" y1=\"4\" y2=\"{1:.1}\"/><text class=\"tick\" x=\"{0:.1}\" y=\"{2:.1}\" text-anchor=\"middle\">{3}%</text>",
            x(t),
            h - 24.0,
            h - 8.0,
            (t * 100.0) as u32
        ));
    }
    for (i, b) in bars.iter().enumerate() {
        let y = 6.0 + ROW_H * i as f64;
        let mid = y + ROW_H / 2.0 - 3.0;
        s.push_str(&format!(
            "<text class=\"label\" x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
            LABEL_W - 8.0,
            mid + 4.0,
            esc(&b.label)
        ));
        s.push_str(&format!(
            "<rect class=\"bar\" x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\"><title>{}: {} [{} to {}]</title></rect>",
            LABEL_W,
            y + 3.0,
            x(b.rate) - LABEL_W,
            ROW_H - 12.0,
            esc(&b.label),
            pct(b.rate),
            pct(b.low),
            pct(b.high)
        ));
        s.push_str(&format!(
            "<path class=\"err\" d=\"M{0:.1} {1:.1}V{2:.1}M{0:.1} {3:.1}H{4:.1}M{4:.1} {1:.1}V{2:.1}\"/>",
            x(b.low),
            mid - 5.0,
            mid + 5.0,
            mid,
            x(b.high)
        ));
        s.push_str(&format!(
            "<text class=\"note\" x=\"{:.1}\" y=\"{:.1}\">{}</text>",
            LABEL_W + PLOT_W + 10.0,
            mid + 4.0,
            esc(&b.note)
        ));
    }
    if let Some(m) = mark {
        s.push_str(&format!(
            "<line class=\"mark\" x1=\"{0:.1}\" x2=\"{0:.1}\" y1=\"2\" y2=\"{1:.1}\"><title>an even share: {2}</title></line>",
            x(m),
            h - 24.0,
            pct(m)
        ));
    }
    s.push_str("</svg>");
    s
}

/// Horizontal bars of counts (`label`, `count`), the longest the largest, as a table: each label is
/// written in full and wraps (an end reason is a sentence of the script, and two reasons may share
/// their first thirty letters), the bar beside it, then the count and its share.
pub fn count_chart(title: &str, rows: &[(String, u64)]) -> String {
    let max = rows.iter().map(|r| r.1).max().unwrap_or(0).max(1) as f64;
    let total: u64 = rows.iter().map(|r| r.1).sum();
    let mut s = format!(
        "<table class=\"counts\" aria-label=\"{}\"><tbody>",
        esc(title)
    );
    for (label, n) in rows {
        let share = if total > 0 {
            *n as f64 / total as f64
        } else {
            0.0
        };
        s.push_str(&format!(
            "<tr><td class=\"label\">{}</td><td class=\"bar\"><div style=\"width:{:.1}%\"></div></td><td class=\"note\">{n} ({})</td></tr>",
            esc(label),
            100.0 * *n as f64 / max,
            pct(share)
        ));
    }
    s.push_str("</tbody></table>");
    s
}

/// A histogram of `(value, count)` pairs in increasing value, in at most 40 bins of equal width;
/// `marks` are labelled vertical lines (a mean, a median).
pub fn histogram(title: &str, unit: &str, pairs: &[(i64, u64)], marks: &[(&str, f64)]) -> String {
    let (w, h) = (760.0, 220.0);
    let (left, bottom, top) = (50.0, 30.0, 10.0);
    let (Some(first), Some(last)) = (pairs.first(), pairs.last()) else {
        return String::new();
    };
    let (lo, hi) = (first.0, last.0);
    let span = (hi - lo + 1).max(1) as u64;
    let bins = span.min(40);
    let width = span.div_ceil(bins).max(1);
    let bins = span.div_ceil(width);
    let mut counts = vec![0u64; bins as usize];
    for &(v, c) in pairs {
        let b = ((v - lo) as u64 / width) as usize;
        if let Some(x) = counts.get_mut(b) {
            *x += c;
        }
    }
    let max = counts.iter().copied().max().unwrap_or(0).max(1) as f64;
    let plot_w = w - left - 10.0;
    let plot_h = h - bottom - top;
    let bw = plot_w / bins as f64;
    let mut s = format!(
        "<svg class=\"chart\" role=\"img\" viewBox=\"0 0 {w} {h}\" width=\"{w}\" height=\"{h}\"><title>{}</title>",
        esc(title)
    );
    s.push_str(&format!(
        "<line class=\"axis\" x1=\"{left}\" x2=\"{:.1}\" y1=\"{:.1}\" y2=\"{:.1}\"/><text class=\"tick\" x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text><text class=\"tick\" x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">0</text>",
        w - 10.0,
        top + plot_h,
        top + plot_h,
        left - 6.0,
        top + 10.0,
        max as u64,
        left - 6.0,
        top + plot_h
    ));
    for (i, &c) in counts.iter().enumerate() {
        let from = lo + (i as u64 * width) as i64;
        let to = from + width as i64 - 1;
        let range = if width == 1 {
            format!("{from}")
        } else {
            format!("{from} to {to}")
        };
        let bh = plot_h * c as f64 / max;
        s.push_str(&format!(
            "<rect class=\"bar\" x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\"><title>{range} {unit}: {c}</title></rect>",
            left + bw * i as f64 + 1.0,
            top + plot_h - bh,
            (bw - 2.0).max(1.0),
            bh
        ));
        let every = (bins / 10).max(1) as usize;
        if i % every == 0 || i + 1 == counts.len() {
            s.push_str(&format!(
                "<text class=\"tick\" x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{from}</text>",
                left + bw * (i as f64 + 0.5),
                h - 12.0
            ));
        }
    }
    for (i, (name, v)) in marks.iter().enumerate() {
        // The middle of the value's bin: a value `v` covers [v, v + 1) of the range.
        let x = left + plot_w * ((v - lo as f64 + 0.5) / (bins * width) as f64).clamp(0.0, 1.0);
        s.push_str(&format!(
            "<line class=\"mark\" x1=\"{x:.1}\" x2=\"{x:.1}\" y1=\"{top}\" y2=\"{:.1}\"/><text class=\"tick\" x=\"{:.1}\" y=\"{:.1}\">{} {v:.1}</text>",
            top + plot_h,
            x + 3.0,
            top + 10.0 + 13.0 * i as f64,
            esc(name)
        ));
    }
    s.push_str(&format!(
        "<text class=\"tick\" x=\"{:.1}\" y=\"{h}\" text-anchor=\"end\">{}</text></svg>",
        w - 10.0,
        esc(unit)
    ));
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup() {
        assert_eq!(
            esc("<a href=\"x\">Tom & Jerry's</a>"),
            "&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;"
        );
    }

    #[test]
    fn histogram_bins_wide_ranges() {
        let pairs: Vec<(i64, u64)> = (0..100).map(|v| (v, 1)).collect();
        let svg = histogram("t", "turns", &pairs, &[]);
        // 100 values in bins of 3: 34 bars, the first one holding 0 to 2.
        assert_eq!(svg.matches("<rect").count(), 34);
        assert!(svg.contains("<title>0 to 2 turns: 3</title>"), "{svg}");
        assert_eq!(histogram("t", "turns", &[], &[]), "");
    }

    #[test]
    fn count_labels_are_written_in_full() {
        // Two end reasons that share their first forty letters stay two different labels.
        let rows = [
            (
                "the player with the most Influence when the Market is empty".to_string(),
                30,
            ),
            (
                "the player with the most Influence when the turn limit came".to_string(),
                10,
            ),
        ];
        let html = count_chart("Games by end reason", &rows);
        for (label, _) in &rows {
            assert!(
                html.contains(&format!("<td class=\"label\">{label}</td>")),
                "{html}"
            );
        }
        assert!(
            html.contains("width:100.0%") && html.contains("width:33.3%"),
            "{html}"
        );
        assert!(
            html.contains("30 (75.0%)") && html.contains("10 (25.0%)"),
            "{html}"
        );
    }
}
