//! An analysis as one table of rows (measure, value, interval): the form the CLI prints, the
//! HTML report tabulates and Python returns.

use serde::Serialize;

use crate::analyze::Analysis;
use crate::stats::Rate;

/// One measure.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Row {
    /// What is measured, e.g. `win rate: white`.
    pub measure: String,
    pub value: f64,
    /// The 95% interval, for rates.
    pub low: Option<f64>,
    pub high: Option<f64>,
    /// The number of games (or positions) the value is based on.
    pub n: Option<u64>,
}

impl Row {
    fn plain(measure: impl Into<String>, value: f64, n: Option<u64>) -> Row {
        Row { measure: measure.into(), value, low: None, high: None, n }
    }

    fn rate(measure: impl Into<String>, rate: Rate) -> Row {
        Row {
            measure: measure.into(),
            value: rate.rate,
            low: Some(rate.low),
            high: Some(rate.high),
            n: Some(rate.trials),
        }
    }
}

/// The rows of `a`, in a fixed order; measures without data (e.g. win rates when no game
/// finished) are left out.
pub fn rows(a: &Analysis) -> Vec<Row> {
    let m = &a.measures;
    let mut rows = Vec::new();
    push_rate(&mut rows, "completion".into(), m.completion);
    for s in &m.seats {
        push_rate(&mut rows, format!("win rate: {}", s.name), s.win);
        push_rate(&mut rows, format!("draw rate: {}", s.name), s.draw);
        push_rate(&mut rows, format!("loss rate: {}", s.name), s.loss);
    }
    if a.agents.windows(2).any(|pair| pair[0] != pair[1]) {
        for s in &m.agents {
            push_rate(&mut rows, format!("score: agent {}", s.name), s.score);
        }
    }
    push_rate(&mut rows, "draws".into(), m.draws);
    push_rate(&mut rows, "first-mover score".into(), m.first_mover);
    if let Some(b) = m.balance {
        rows.push(Row::plain("balance", b, Some(m.finished)));
    }
    let d = &m.duration;
    if d.count > 0 {
        rows.push(Row::plain("duration: mean plies", d.mean, Some(d.count)));
        rows.push(Row::plain("duration: median plies", d.median, Some(d.count)));
        rows.push(Row::plain("duration: fewest plies", d.min as f64, Some(d.count)));
        rows.push(Row::plain("duration: most plies", d.max as f64, Some(d.count)));
    }
    if m.branching.positions > 0 {
        rows.push(Row::plain("branching: mean legal moves", m.branching.mean, Some(m.branching.positions)));
    }
    if let Some(c) = m.coverage {
        rows.push(Row::plain("coverage", c, Some(m.games)));
    }
    for p in &m.pieces {
        rows.push(Row::plain(format!("piece usage: {}", p.piece), p.share, Some(p.moves)));
    }
    if let Some(s) = &a.drama {
        rows.push(Row::plain("lead changes", s.lead_changes, Some(s.games)));
        for (name, value) in
            [("decided at", s.decided_at), ("winner behind", s.winner_behind), ("drama", s.drama)]
        {
            if let Some(v) = value {
                rows.push(Row::plain(name, v, Some(s.won)));
            }
        }
    }
    if let Some(s) = &a.strength {
        push_rate(&mut rows, format!("strength: score of {} against {}", s.strong, s.weak), s.strong_score);
        if let Some(gap) = s.gap {
            rows.push(Row {
                measure: "strength gap".into(),
                value: gap.value,
                low: Some(gap.low),
                high: Some(gap.high),
                n: Some(s.finished),
            });
        }
    }
    rows
}

/// Adds the row of rate `r`, if there is one.
fn push_rate(rows: &mut Vec<Row>, name: String, r: Option<Rate>) {
    if let Some(r) = r {
        rows.push(Row::rate(name, r));
    }
}
