//! The perft depth to measure: the reference table's, unless it would take far too long; else
//! the deepest depth expected to take about a second (keeping the reference depth's parity).

use serde_json::Value;

use crate::child::{probe_perft, EngineCommand};

/// Probing goes on to the next depth while it is expected to take at most this long.
const PROBE_NEXT_SECONDS: f64 = 1.0;
/// The fallback depth may be expected to take up to this long ("about a second").
const ABOUT_A_SECOND: f64 = 2.0;
/// The reference depth is used unless it is expected to take longer than this.
const FAR_TOO_LONG_SECONDS: f64 = 20.0;
/// The deepest depth probed (games whose tree never ends and barely grows).
const MAX_PROBE_DEPTH: u32 = 40;

/// One perft row as printed with `--json`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PerftRow {
    pub(crate) depth: u32,
    pub(crate) leaves: u64,
    pub(crate) nodes: u64,
    pub(crate) seconds: f64,
}

pub(crate) fn perft_row(v: &Value) -> Option<PerftRow> {
    let nodes = v.get("nodes")?.as_u64()?;
    let rate = v.get("nodes_per_s")?.as_f64()?;
    let ms = v.get("ms")?.as_f64()?;
    // `ms` is rounded to whole milliseconds; the rate gives the time of short runs better.
    let seconds = if rate > 0.0 { nodes as f64 / rate } else { ms / 1000.0 };
    Some(PerftRow {
        depth: u32::try_from(v.get("depth")?.as_u64()?).ok()?,
        leaves: v.get("leaves")?.as_u64()?,
        nodes,
        seconds,
    })
}

/// Why a perft depth was chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum DepthRule {
    /// The reference table's depth.
    Reference,
    /// The deepest depth expected to take about a second.
    AboutASecond,
}

/// The depth to measure and its expected time.
#[derive(Clone, Copy, Debug)]
pub(crate) struct DepthChoice {
    pub(crate) depth: u32,
    pub(crate) rule: DepthRule,
    pub(crate) expected_seconds: f64,
}

/// Times perft at depth 1, 2, ... (one streaming child, killed once the next depth is expected
/// to take more than a second) and chooses the depth to measure.
pub(crate) fn choose_depth(engine: &EngineCommand, reference: Option<u32>) -> Result<DepthChoice, String> {
    let limit = reference.unwrap_or(MAX_PROBE_DEPTH).clamp(1, MAX_PROBE_DEPTH);
    let rows = probe_perft(engine, limit, perft_row, probe_should_stop)?;
    Ok(depth_from_probe(&rows, reference))
}

/// Expected growth of the work from one depth to the next, from the last two node counts.
fn growth(rows: &[PerftRow]) -> f64 {
    let last = rows.last().map_or(1, |r| r.nodes);
    let before = if rows.len() >= 2 { rows[rows.len() - 2].nodes } else { 1 };
    (last as f64 / before.max(1) as f64).max(1.0)
}

/// The probe stops after the last row when the tree has ended or the next depth is expected to
/// take more than [`PROBE_NEXT_SECONDS`].
fn probe_should_stop(rows: &[PerftRow]) -> bool {
    match rows.last() {
        None => false,
        Some(last) => last.leaves == 0 || last.seconds * growth(rows) > PROBE_NEXT_SECONDS,
    }
}

/// The choice rule (see the module docs), given the probe's rows (at least one).
fn depth_from_probe(rows: &[PerftRow], reference: Option<u32>) -> DepthChoice {
    let Some(last) = rows.last().copied() else {
        return DepthChoice { depth: 1, rule: DepthRule::AboutASecond, expected_seconds: 0.0 };
    };
    let next = last.seconds * growth(rows);
    if let Some(depth) = reference {
        let expected = match rows.iter().find(|r| r.depth == depth) {
            Some(row) => row.seconds,
            None => {
                last.seconds
                    * growth(rows).powi(i32::try_from(depth.saturating_sub(last.depth)).unwrap_or(i32::MAX))
            }
        };
        if expected <= FAR_TOO_LONG_SECONDS {
            return DepthChoice { depth, rule: DepthRule::Reference, expected_seconds: expected };
        }
    }
    // The tree ended: the deepest depth with leaves.
    if last.leaves == 0 {
        let deepest = rows.iter().rev().find(|r| r.leaves > 0).copied().unwrap_or(last);
        return DepthChoice {
            depth: deepest.depth,
            rule: DepthRule::AboutASecond,
            expected_seconds: deepest.seconds,
        };
    }
    let stopped_for_time = next > PROBE_NEXT_SECONDS;
    let choice = if stopped_for_time && next <= ABOUT_A_SECOND && last.depth < MAX_PROBE_DEPTH {
        DepthChoice { depth: last.depth + 1, rule: DepthRule::AboutASecond, expected_seconds: next }
    } else {
        DepthChoice { depth: last.depth, rule: DepthRule::AboutASecond, expected_seconds: last.seconds }
    };
    // Nodes per second depend on the kind of the last ply (a placement's leaves are cheaper than
    // a rotation's, a capture's dearer than a quiet move's): keep the reference depth's parity,
    // one depth shallower if need be (a probed row, so its time is known).
    match (reference, rows.iter().find(|r| r.depth + 1 == choice.depth)) {
        (Some(depth), Some(shallower)) if depth % 2 != choice.depth % 2 => DepthChoice {
            depth: shallower.depth,
            rule: DepthRule::AboutASecond,
            expected_seconds: shallower.seconds,
        },
        _ => choice,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(depth: u32, leaves: u64, nodes: u64, seconds: f64) -> PerftRow {
        PerftRow { depth, leaves, nodes, seconds }
    }

    #[test]
    fn the_reference_depth_is_kept_when_affordable() {
        // Growth 10 per depth; depth 3 took 0.5 s, so depth 5 is expected at 50 s: too long.
        let rows = [row(1, 10, 11, 0.005), row(2, 100, 111, 0.05), row(3, 1000, 1111, 0.5)];
        let far = depth_from_probe(&rows, Some(5));
        assert_eq!(far.rule, DepthRule::AboutASecond);
        // Next depth expected at 0.5 * 1111/111 = 5 s > 2 s: stay at 3.
        assert_eq!(far.depth, 3);
        let near = depth_from_probe(&rows, Some(4));
        assert_eq!((near.depth, near.rule), (4, DepthRule::Reference));
        assert!((near.expected_seconds - 0.5 * 1111.0 / 111.0).abs() < 1e-9);
    }

    #[test]
    fn the_fallback_keeps_the_reference_depth_parity() {
        // As above, but the reference is at depth 6: depth 3 would end on the other kind of ply.
        let rows = [row(1, 10, 11, 0.005), row(2, 100, 111, 0.05), row(3, 1000, 1111, 0.5)];
        let choice = depth_from_probe(&rows, Some(6));
        assert_eq!((choice.depth, choice.rule), (2, DepthRule::AboutASecond));
        assert!((choice.expected_seconds - 0.05).abs() < 1e-12);
        // With only depth 1 probed there is nothing shallower: depth 1 stays.
        assert_eq!(depth_from_probe(&rows[..1], Some(1000)).depth, 1);
    }

    #[test]
    fn the_fallback_takes_a_next_depth_of_about_a_second() {
        // Growth 1.5: after 0.9 s the next depth is expected at 1.35 s, within "about a second".
        let rows = [row(1, 2, 2, 0.6), row(2, 3, 3, 0.9)];
        let choice = depth_from_probe(&rows, None);
        assert_eq!((choice.depth, choice.rule), (3, DepthRule::AboutASecond));
    }

    #[test]
    fn an_ended_tree_stops_at_its_deepest_leaves() {
        let rows = [row(1, 9, 10, 0.001), row(2, 72, 82, 0.001), row(3, 0, 82, 0.001)];
        assert!(probe_should_stop(&rows));
        assert_eq!(depth_from_probe(&rows, None).depth, 2);
    }
}
