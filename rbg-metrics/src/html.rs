//! The report of an analysis as one self-contained HTML page: a table of the measures and SVG
//! charts drawn here (win rates with their intervals, the length histogram, branching over the
//! course of a game, the sample games' values), no scripts and nothing fetched.

use std::fmt::Write as _;

use rbg_render::escape;

use crate::analyze::Analysis;
use crate::stats::Rate;
use crate::table::rows;

/// Chart size in pixels, and the margins left for the axes' labels.
const WIDTH: f64 = 640.0;
const HEIGHT: f64 = 260.0;
const LEFT: f64 = 56.0;
const RIGHT: f64 = 16.0;
const TOP: f64 = 28.0;
const BOTTOM: f64 = 44.0;

/// Colours of the series (seats, sample games) in turn.
const PALETTE: [&str; 6] = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b"];

/// The page.
pub fn report(a: &Analysis) -> String {
    let mut page = String::new();
    let title = format!("Analysis of {}", escape(&a.game));
    let _ = write!(
        page,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{title}</title>\n<style>\
         body{{font-family:sans-serif;max-width:60rem;margin:2rem auto;color:#222}}\
         table{{border-collapse:collapse}}td,th{{border:1px solid #ccc;padding:.2rem .5rem;text-align:left}}\
         svg{{display:block;margin:1rem 0}}.note{{color:#a33}}</style></head><body>\n<h1>{title}</h1>\n"
    );
    let _ = writeln!(
        page,
        "<p>{} games, agents {} (seats rotate), seed {}, move limit {}.</p>",
        a.games,
        escape(&a.agents.join(", ")),
        a.seed,
        a.max_moves
    );
    for note in a.measures.notes.iter().chain(&a.samples_note) {
        let _ = writeln!(page, "<p class=\"note\">{}</p>", escape(note));
    }
    page.push_str(&measures_table(a));
    page.push_str(&charts(a));
    page.push_str("</body></html>\n");
    page
}

/// The charts of the report, one SVG element each (win rates with intervals, length
/// histogram, branching over the game, sample games' values; a chart without data is left
/// out): the page of `rbg serve` shows them too.
pub fn charts(a: &Analysis) -> String {
    [win_chart(a), length_chart(a), branching_chart(a), value_chart(a)].concat()
}

fn measures_table(a: &Analysis) -> String {
    let mut t =
        String::from("<table><tr><th>measure</th><th>value</th><th>95% interval</th><th>n</th></tr>\n");
    for row in rows(a) {
        let interval = match (row.low, row.high) {
            (Some(low), Some(high)) => format!("{low:.3} .. {high:.3}"),
            _ => String::new(),
        };
        let n = row.n.map_or(String::new(), |n| n.to_string());
        let _ = writeln!(
            t,
            "<tr><td>{}</td><td>{:.3}</td><td>{interval}</td><td>{n}</td></tr>",
            escape(&row.measure),
            row.value
        );
    }
    t.push_str("</table>\n");
    t
}

/// A chart's frame: the x and y ranges, mapped into the plotting area.
struct Frame {
    x: (f64, f64),
    y: (f64, f64),
}

impl Frame {
    fn px(&self, x: f64) -> f64 {
        let span = (self.x.1 - self.x.0).max(f64::EPSILON);
        LEFT + (x - self.x.0) / span * (WIDTH - LEFT - RIGHT)
    }

    fn py(&self, y: f64) -> f64 {
        let span = (self.y.1 - self.y.0).max(f64::EPSILON);
        HEIGHT - BOTTOM - (y - self.y.0) / span * (HEIGHT - TOP - BOTTOM)
    }

    /// The opening tag, title, axes, y ticks and axis labels.
    fn open(&self, title: &str, x_label: &str, y_label: &str) -> String {
        let mut s = String::new();
        let _ = write!(
            s,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{HEIGHT}\" \
             viewBox=\"0 0 {WIDTH} {HEIGHT}\" font-size=\"11\" role=\"img\">\
             <title>{t}</title><text x=\"{LEFT}\" y=\"16\" font-size=\"13\" font-weight=\"bold\">{t}</text>",
            t = escape(title)
        );
        let (x0, y0, x1, y1) = (LEFT, HEIGHT - BOTTOM, WIDTH - RIGHT, TOP);
        let _ = write!(
            s,
            "<path d=\"M{x0} {y1} V{y0} H{x1}\" fill=\"none\" stroke=\"#444\"/>\
             <text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\
             <text transform=\"translate(14 {}) rotate(-90)\" text-anchor=\"middle\">{}</text>",
            (x0 + x1) / 2.0,
            HEIGHT - 8.0,
            escape(x_label),
            (y0 + y1) / 2.0,
            escape(y_label)
        );
        for i in 0..=4 {
            let v = self.y.0 + (self.y.1 - self.y.0) * f64::from(i) / 4.0;
            let y = self.py(v);
            let _ = write!(
                s,
                "<path d=\"M{x0} {y:.1} H{x1}\" stroke=\"#eee\"/><text x=\"{}\" y=\"{:.1}\" \
                 text-anchor=\"end\">{}</text>",
                x0 - 4.0,
                y + 4.0,
                short(v)
            );
        }
        s
    }
}

/// A tick label: few digits.
fn short(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e9 {
        format!("{v:.0}")
    } else if v.abs() >= 10.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
    }
}

/// One bar of a chart, with an optional interval whisker.
struct Bar {
    label: String,
    value: f64,
    interval: Option<(f64, f64)>,
}

/// Bars with their interval whiskers, each of its own colour (`colour: None`: bars of
/// different things) or all of one (bins of one distribution).
fn bar_chart(title: &str, y_label: &str, bars: &[Bar], y_max: f64, colour: Option<&str>) -> String {
    if bars.is_empty() {
        return String::new();
    }
    let frame = Frame { x: (0.0, bars.len() as f64), y: (0.0, y_max.max(f64::EPSILON)) };
    let mut s = frame.open(title, "", y_label);
    let slot = frame.px(1.0) - frame.px(0.0);
    for (i, Bar { label, value, interval }) in bars.iter().enumerate() {
        let x = frame.px(i as f64) + slot * 0.15;
        let (top, bottom) = (frame.py(*value), frame.py(0.0));
        let _ = write!(
            s,
            "<rect x=\"{x:.1}\" y=\"{top:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"{}\"><title>{}: {}</title></rect>",
            slot * 0.7,
            (bottom - top).max(0.0),
            colour.unwrap_or(PALETTE[i % PALETTE.len()]),
            escape(label),
            short(*value)
        );
        if let Some((lo, hi)) = interval {
            let mid = x + slot * 0.35;
            let _ = write!(
                s,
                "<path d=\"M{mid:.1} {:.1} V{:.1} M{:.1} {:.1} H{:.1} M{:.1} {:.1} H{:.1}\" stroke=\"#000\"/>",
                frame.py(*lo),
                frame.py(*hi),
                mid - 5.0,
                frame.py(*lo),
                mid + 5.0,
                mid - 5.0,
                frame.py(*hi),
                mid + 5.0
            );
        }
        let _ = write!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
            x + slot * 0.35,
            HEIGHT - BOTTOM + 14.0,
            escape(label)
        );
    }
    s.push_str("</svg>\n");
    s
}

/// Lines through points; `series` are (name, points), `guide` a dashed level.
fn line_chart(
    title: &str,
    labels: (&str, &str),
    series: &[(String, Vec<(f64, f64)>)],
    y: (f64, f64),
    guide: Option<f64>,
) -> String {
    let x_max = series.iter().flat_map(|(_, p)| p.iter().map(|q| q.0)).fold(0.0, f64::max);
    if x_max <= 0.0 {
        return String::new();
    }
    let frame = Frame { x: (0.0, x_max), y };
    let mut s = frame.open(title, labels.0, labels.1);
    for i in 0..=4 {
        let v = x_max * f64::from(i) / 4.0;
        let _ = write!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
            frame.px(v),
            HEIGHT - BOTTOM + 14.0,
            short(v.round())
        );
    }
    if let Some(g) = guide {
        let _ = write!(
            s,
            "<path d=\"M{LEFT} {0:.1} H{1}\" stroke=\"#888\" stroke-dasharray=\"4 3\"/>",
            frame.py(g),
            WIDTH - RIGHT
        );
    }
    for (i, (name, points)) in series.iter().enumerate() {
        let path: Vec<String> =
            points.iter().map(|&(x, y)| format!("{:.1},{:.1}", frame.px(x), frame.py(y))).collect();
        let _ = write!(
            s,
            "<polyline fill=\"none\" stroke=\"{}\" stroke-width=\"1.5\" points=\"{}\"><title>{}</title></polyline>",
            PALETTE[i % PALETTE.len()],
            path.join(" "),
            escape(name)
        );
    }
    s.push_str("</svg>\n");
    s
}

fn win_chart(a: &Analysis) -> String {
    let mut bars: Vec<Bar> = Vec::new();
    let mut rate =
        |label: String, r: Rate| bars.push(Bar { label, value: r.rate, interval: Some((r.low, r.high)) });
    for s in &a.measures.seats {
        if let Some(r) = s.win {
            rate(format!("{} wins", s.name), r);
        }
    }
    if let Some(r) = a.measures.draws {
        rate("draws".into(), r);
    }
    if let Some(r) = a.strength.as_ref().and_then(|s| s.strong_score) {
        rate("strong's score".into(), r);
    }
    bar_chart("Win rates with 95% intervals", "rate", &bars, 1.0, None)
}

fn length_chart(a: &Analysis) -> String {
    let d = &a.measures.duration;
    let bars: Vec<Bar> = d
        .histogram
        .iter()
        .map(|&(lo, hi, n)| Bar {
            label: if lo == hi { lo.to_string() } else { format!("{lo}-{hi}") },
            value: n as f64,
            interval: None,
        })
        .collect();
    let most = bars.iter().map(|b| b.value).fold(0.0, f64::max);
    bar_chart("Game length (plies)", "games", &bars, most, Some(PALETTE[0]))
}

fn branching_chart(a: &Analysis) -> String {
    let b = &a.measures.branching;
    let points: Vec<(f64, f64)> = b.by_ply.iter().enumerate().map(|(i, &v)| (i as f64, v)).collect();
    let most = b.by_ply.iter().cloned().fold(0.0, f64::max);
    line_chart(
        "Branching factor over the game (mean over the games that reached each ply)",
        ("ply", "legal moves"),
        &[("mean legal moves".to_string(), points)],
        (0.0, most.max(1.0)),
        None,
    )
}

fn value_chart(a: &Analysis) -> String {
    let first = a.players.first().map_or("first player", String::as_str);
    let series: Vec<(String, Vec<(f64, f64)>)> = a
        .samples
        .iter()
        .map(|s| {
            let winner = s
                .winner
                .and_then(|w| a.players.get(w))
                .map_or("no winner".to_string(), |p| format!("{p} won"));
            (
                format!("game {} ({winner})", s.index),
                s.first.iter().enumerate().map(|(i, &v)| (i as f64, v)).collect(),
            )
        })
        .collect();
    line_chart(
        &format!("Value of {first} over sample games ({})", a.evaluator),
        ("ply", "estimated value"),
        &series,
        (0.0, 1.0),
        Some(0.5),
    )
}
