//! The suite's outputs: the table lines shown as rows come, the summary of geometric means, the
//! CSV (and reading it back for `--from-csv`), the Markdown page and the summary section that
//! `--readme` rewrites in place.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::depth::{DepthChoice, DepthRule, PerftRow};
use crate::inputs::{GameFile, References, COMPILE_REFERENCE_TOOL};
use crate::machine::Provenance;
use crate::measure::Row;
use crate::{Engine, SuiteError};

/// The reference tools, in the order of the CSV's columns.
const TOOLS: [&str; 3] = ["rbg2cpp", "rbggamemanager", "rg"];

/// The rows of an earlier run's CSV for the games and engines asked for, with the current
/// reference tables attached (so ratios follow the tables, not the file's ratio columns), and
/// the games that have no row (not measured by that run).
pub(crate) fn rows_from_csv(
    path: &Path,
    games: &[GameFile],
    engines: &[Engine],
    references: &References,
) -> Result<(Vec<Row>, Vec<String>), SuiteError> {
    let cannot = |e: &dyn std::fmt::Display| SuiteError::new(format!("{}: {e}", path.display()));
    let mut reader = csv::Reader::from_path(path).map_err(|e| cannot(&e))?;
    let header = reader.headers().map_err(|e| cannot(&e))?.clone();
    let wanted: HashMap<&str, &GameFile> = games.iter().map(|g| (g.name.as_str(), g)).collect();
    // In the file's order (the order the run measured in).
    let mut rows: Vec<Row> = Vec::new();
    for record in reader.records() {
        let record = record.map_err(|e| cannot(&e))?;
        let line = record.position().map_or(0, |p| p.line());
        let mut row = row_from_record(&header, &record)
            .map_err(|e| SuiteError::new(format!("{}:{line}: {e}", path.display())))?;
        let Some(engine) = engines.iter().find(|e| e.name() == row.engine) else { continue };
        if !wanted.contains_key(row.game.as_str()) {
            continue;
        }
        row.references = references.get(&row.game).cloned().unwrap_or_default();
        row.headline_tool = engine.headline_tool().to_string();
        rows.retain(|r| (&r.game, &r.engine) != (&row.game, &row.engine));
        rows.push(row);
    }
    let not_measured =
        games.iter().filter(|g| !rows.iter().any(|r| r.game == g.name)).map(|g| g.name.clone()).collect();
    if rows.is_empty() {
        return Err(SuiteError::new(format!(
            "{}: no row for the games and engines asked for",
            path.display()
        )));
    }
    Ok((rows, not_measured))
}

fn row_from_record(header: &csv::StringRecord, record: &csv::StringRecord) -> Result<Row, String> {
    let field = |name: &str| -> Result<&str, String> {
        let i = header.iter().position(|h| h == name).ok_or_else(|| format!("no column {name}"))?;
        Ok(record.get(i).unwrap_or(""))
    };
    fn parsed<T: std::str::FromStr>(name: &str, text: &str) -> Result<Option<T>, String> {
        if text.is_empty() {
            return Ok(None);
        }
        text.parse().map(Some).map_err(|_| format!("column {name}: not a number: {text}"))
    }
    let number = |name: &str| -> Result<Option<f64>, String> {
        parsed::<f64>(name, field(name)?).map(|x| x.filter(|x| x.is_finite() && *x >= 0.0))
    };
    let depth = match (parsed::<u32>("perft_depth", field("perft_depth")?)?, field("perft_depth_rule")?) {
        (Some(depth), "reference") => {
            Some(DepthChoice { depth, rule: DepthRule::Reference, expected_seconds: 0.0 })
        }
        (Some(depth), _) => Some(DepthChoice { depth, rule: DepthRule::AboutASecond, expected_seconds: 0.0 }),
        (None, _) => None,
    };
    let perft = match (
        depth,
        parsed::<u64>("perft_leaves", field("perft_leaves")?)?,
        parsed::<u64>("perft_nodes", field("perft_nodes")?)?,
        number("perft_seconds")?,
    ) {
        (Some(d), Some(leaves), Some(nodes), Some(seconds)) => {
            Some(PerftRow { depth: d.depth, leaves, nodes, seconds })
        }
        _ => None,
    };
    let errors = field("errors")?;
    Ok(Row {
        game: field("game")?.to_string(),
        engine: field("engine")?.to_string(),
        headline_tool: String::new(),
        compile_seconds: number("compile_seconds")?,
        compile_cached: parsed::<bool>("compile_cached", field("compile_cached")?)?,
        depth,
        perft,
        nodes_per_s: number("perft_nodes_per_s")?,
        playouts_per_s: number("mc_playouts_per_s")?,
        monotonic_playouts_per_s: number("mc_monotonic_playouts_per_s")?,
        peak_rss_kib: parsed::<u64>("peak_rss_kib", field("peak_rss_kib")?)?,
        load_average: number("load_average_1min")?,
        references: Vec::new(),
        errors: if errors.is_empty() { Vec::new() } else { errors.split("; ").map(String::from).collect() },
    })
}

// ---------------------------------------------------------------------------------------------
// Output

pub(crate) fn table_header() -> String {
    format!(
        "{:<28} {:<11} {:>9} {:>13} {:>8} {:>11} {:>8} {:>11} {:>13} {:>9} {:>5}  {}",
        "game",
        "engine",
        "depth",
        "nodes/s",
        "x ref",
        "playouts/s",
        "x ref",
        "monotonic",
        "compile",
        "peak MiB",
        "load",
        "notes"
    )
}

pub(crate) fn table_line(row: &Row) -> String {
    format!(
        "{:<28} {:<11} {:>9} {:>13} {:>8} {:>11} {:>8} {:>11} {:>13} {:>9} {:>5}  {}",
        row.game,
        row.engine,
        depth_cell(row),
        rate_cell(row.nodes_per_s, 0),
        ratio_cell(row.perft_ratio(&row.headline_tool)),
        rate_cell(row.playouts_per_s, 1),
        ratio_cell(row.mc_ratio(&row.headline_tool)),
        rate_cell(row.monotonic_playouts_per_s, 1),
        compile_cell_with_ratio(row),
        row.peak_rss_kib.map_or("-".into(), |k| format!("{:.1}", k as f64 / 1024.0)),
        rate_cell(row.load_average, 1),
        row.errors.join("; ")
    )
}

fn depth_cell(row: &Row) -> String {
    match row.depth {
        Some(DepthChoice { depth, rule: DepthRule::Reference, .. }) => format!("{depth}"),
        Some(DepthChoice { depth, rule: DepthRule::AboutASecond, .. }) => format!("{depth} (1s)"),
        None => "-".into(),
    }
}

fn rate_cell(rate: Option<f64>, decimals: usize) -> String {
    rate.map_or("-".into(), |r| format!("{r:.decimals$}"))
}

fn ratio_cell(ratio: Option<f64>) -> String {
    ratio.map_or("-".into(), |r| format!("{r:.2}x"))
}

fn compile_cell(row: &Row) -> String {
    match (row.compile_seconds, row.compile_cached) {
        (Some(_), Some(true)) => "cached".into(),
        (Some(s), _) => format!("{s:.1} s"),
        _ => "-".into(),
    }
}

/// The compile time with its ratio to the reference's where one is known (`12.0 s 4.1x`).
fn compile_cell_with_ratio(row: &Row) -> String {
    match row.compile_ratio() {
        Some(r) => format!("{} {r:.1}x", compile_cell(row)),
        None => compile_cell(row),
    }
}

/// The figures a summary is taken over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Figure {
    Perft,
    Mc,
    UncachedMc,
    MonotonicMc,
}

impl Figure {
    fn of(self, row: &Row, tool: &str) -> Option<f64> {
        match self {
            Figure::Perft => row.perft_ratio(tool),
            Figure::Mc => row.mc_ratio(tool),
            Figure::UncachedMc => row.uncached_mc_ratio(tool),
            Figure::MonotonicMc => row.monotonic_mc_ratio(tool),
        }
    }

    fn label(self) -> &'static str {
        match self {
            Figure::Perft => "perft nodes/s",
            Figure::Mc => "MC playouts/s (like for like)",
            Figure::UncachedMc => "MC playouts/s (ours without caching)",
            Figure::MonotonicMc => "MC playouts/s (ours with caching)",
        }
    }
}

/// One ratio column's geometric mean over the games measured and the games below 1.0x.
#[derive(Clone, Debug)]
pub(crate) struct Summary {
    engine: Engine,
    tool: &'static str,
    figure: Figure,
    games: usize,
    geometric_mean: Option<f64>,
    below_one: Vec<String>,
}

pub(crate) fn summarize(rows: &[Row], engines: &[Engine]) -> Vec<Summary> {
    let mut out = Vec::new();
    for &engine in engines {
        for tool in TOOLS {
            for figure in [Figure::Perft, Figure::Mc, Figure::UncachedMc, Figure::MonotonicMc] {
                let ratios: Vec<(&str, f64)> = rows
                    .iter()
                    .filter(|r| r.engine == engine.name())
                    .filter_map(|r| figure.of(r, tool).map(|x| (r.game.as_str(), x)))
                    .collect();
                out.push(Summary {
                    engine,
                    tool,
                    figure,
                    games: ratios.len(),
                    geometric_mean: geometric_mean(ratios.iter().map(|(_, x)| *x)),
                    below_one: ratios.iter().filter(|(_, x)| *x < 1.0).map(|(g, _)| g.to_string()).collect(),
                });
            }
        }
    }
    out
}

fn geometric_mean(values: impl Iterator<Item = f64>) -> Option<f64> {
    let (sum, n) =
        values.filter(|x| *x > 0.0 && x.is_finite()).fold((0.0, 0usize), |(s, n), x| (s + x.ln(), n + 1));
    (n > 0).then(|| (sum / n as f64).exp())
}

/// The summary shown after the rows (one line per figure measured), without the last line break.
pub(crate) fn summary_text(summary: &[Summary]) -> String {
    let mut text = String::from("\ngeometric means of the ratios (games measured; games below 1.0x)\n");
    for s in summary.iter().filter(|s| s.games > 0) {
        text.push_str(&format!(
            "{:<11} / {:<14} {:<38} {:>7} over {:>2} games; {} below 1.0x{}\n",
            s.engine.name(),
            s.tool,
            s.figure.label(),
            ratio_cell(s.geometric_mean),
            s.games,
            s.below_one.len(),
            if s.below_one.is_empty() { String::new() } else { format!(": {}", s.below_one.join(", ")) }
        ));
    }
    text.pop();
    text
}

/// A CSV field, quoted when it holds a separator, a quote or a line break.
fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

/// Full precision (shortest round-trip form), so ratios can be recomputed from the file.
fn number<T: ToString>(x: Option<T>) -> String {
    x.map_or(String::new(), |x| x.to_string())
}

pub(crate) fn csv_text(rows: &[Row]) -> String {
    let mut header: Vec<String> = [
        "game",
        "engine",
        "status",
        "compile_seconds",
        "compile_cached",
        "compile_reference_seconds",
        "compile_ratio",
        "perft_depth",
        "perft_depth_rule",
        "perft_leaves",
        "perft_nodes",
        "perft_seconds",
        "perft_nodes_per_s",
        "mc_playouts_per_s",
        "mc_monotonic_playouts_per_s",
        "peak_rss_kib",
        "load_average_1min",
        "headline_tool",
        "headline_perft_ratio",
        "headline_mc_ratio",
    ]
    .map(String::from)
    .to_vec();
    for tool in TOOLS {
        for column in [
            "perft_depth",
            "perft_nodes_per_s",
            "mc_playouts_per_s",
            "perft_ratio",
            "mc_ratio",
            "mc_uncached_ratio",
            "mc_monotonic_ratio",
            "mc_reference_cached",
        ] {
            header.push(format!("{tool}_{column}"));
        }
    }
    header.push("errors".into());
    let mut text = header.join(",") + "\n";
    for row in rows {
        text.push_str(&csv_row(row).join(","));
        text.push('\n');
    }
    text
}

fn csv_row(row: &Row) -> Vec<String> {
    let status = if row.errors.is_empty() { "ok" } else { "failed" };
    let rule = row.depth.map(|d| match d.rule {
        DepthRule::Reference => "reference",
        DepthRule::AboutASecond => "about_a_second",
    });
    let mut fields = vec![
        csv_field(&row.game),
        row.engine.clone(),
        status.into(),
        number(row.compile_seconds),
        number(row.compile_cached),
        number(row.compile_reference()),
        number(row.compile_ratio()),
        number(row.depth.map(|d| d.depth)),
        number(rule),
        number(row.perft.map(|p| p.leaves)),
        number(row.perft.map(|p| p.nodes)),
        number(row.perft.map(|p| p.seconds)),
        number(row.nodes_per_s),
        number(row.playouts_per_s),
        number(row.monotonic_playouts_per_s),
        number(row.peak_rss_kib),
        number(row.load_average),
        row.headline_tool.clone(),
        number(row.perft_ratio(&row.headline_tool)),
        number(row.mc_ratio(&row.headline_tool)),
    ];
    for tool in TOOLS {
        let reference = row.reference(tool);
        fields.extend([
            number(reference.map(|r| r.perft_depth)),
            number(reference.and_then(|r| r.nodes_per_s)),
            number(reference.and_then(|r| r.playouts_per_s)),
            number(row.perft_ratio(tool)),
            number(row.mc_ratio(tool)),
            number(row.uncached_mc_ratio(tool)),
            number(row.monotonic_mc_ratio(tool)),
            number(reference.map(|r| r.cached_mc)),
        ]);
    }
    fields.push(csv_field(&row.errors.join("; ")));
    fields
}

/// What the Markdown page and the summary section are written from, besides the rows.
pub(crate) struct Page<'a> {
    pub(crate) engines: &'a [Engine],
    pub(crate) summary: &'a [Summary],
    /// The games left out by the run's time limit.
    pub(crate) not_measured: &'a [String],
}

pub(crate) fn markdown_text(rows: &[Row], page: &Page<'_>, seconds: f64, provenance: &Provenance) -> String {
    let Page { engines, summary, not_measured } = *page;
    let mut text = format!(
        "Produced by `rbg bench --suite` (single thread; flat Monte Carlo {seconds} s per figure). \
         Depth: the reference table's, or \"(1s)\" for the deepest depth expected to take about a \
         second. MC \"playouts/s\" is ours without monotonic-class caching and \"monotonic\" ours \
         with it; the MC ratio is like for like: rbg2cpp's figures come from its simulation \
         driver, which caches where a game has monotonic classes (marked *), and there the ratio \
         uses our cached figure. {} \"load\" is the 1-minute load average when the game's \
         measurements began. \"compile\" is the build of the compiled engine (generation and \
         cargo; a fresh cache builds the dependencies with its first game); † the reference compile times \
         (rbg2cpp generating the reasoner and g++ building it, CPU seconds) were measured side by side with \
         ours by benches/scripts/compile-time.sh, not by this suite (rbg-bench/reference-compile.csv).\n",
        provenance.sentence()
    );
    for &engine in engines {
        let tool = engine.headline_tool();
        text.push_str(&format!(
            "\n**{}** against {tool}:\n\n| game | depth | nodes/s | {tool} | ratio | playouts/s | {tool} | ratio | playouts/s monotonic | compile | {COMPILE_REFERENCE_TOOL} compile † | ratio | peak memory | load | notes |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n",
            capitalised(engine.name())
        ));
        for row in rows.iter().filter(|r| r.engine == engine.name()) {
            let reference = row.reference(tool);
            text.push_str(&format!(
                "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
                row.game,
                depth_cell(row),
                rate_cell(row.nodes_per_s, 0),
                rate_cell(reference.and_then(|r| r.nodes_per_s), 0),
                ratio_cell(row.perft_ratio(tool)),
                rate_cell(row.playouts_per_s, 1),
                rate_cell(reference.and_then(|r| r.playouts_per_s), 1),
                ratio_cell(row.mc_ratio(tool))
                    + if reference.is_some_and(|r| r.cached_mc) { " *" } else { "" },
                rate_cell(row.monotonic_playouts_per_s, 1),
                if engine == Engine::Compiled { compile_cell(row) } else { "-".into() },
                row.compile_reference().map_or("-".into(), |s| format!("{s:.1} s")),
                ratio_cell(row.compile_ratio()),
                row.peak_rss_kib.map_or("-".into(), |k| format!("{:.1} MiB", k as f64 / 1024.0)),
                rate_cell(row.load_average, 1),
                row.errors.join("; ").replace('|', "\\|")
            ));
        }
    }
    if !not_measured.is_empty() {
        text.push_str(&format!(
            "\nNot measured (the run's time limit): {} games: {}.\n",
            not_measured.len(),
            not_measured.join(", ")
        ));
    }
    text.push_str("\nGeometric means of the ratios over the games measured:\n\n");
    text.push_str(&summary_table(summary.iter().filter(|s| s.games > 0)));
    text
}

fn summary_table<'a>(summary: impl Iterator<Item = &'a Summary>) -> String {
    let mut text = String::from(
        "| engine | reference | figure | geometric mean | games | below 1.0x |\n|---|---|---|---|---|---|\n",
    );
    for s in summary {
        text.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} |\n",
            s.engine.name(),
            s.tool,
            s.figure.label(),
            ratio_cell(s.geometric_mean),
            s.games,
            if s.below_one.is_empty() {
                "0".into()
            } else {
                format!("{}: {}", s.below_one.len(), s.below_one.join(", "))
            }
        ));
    }
    text
}

/// The games of `cargo bench` and of the parallel and ceiling targets.
const BENCH_GAMES: [&str; 8] =
    ["breakthrough", "chess", "connect4", "englishDraughts", "go", "hex_9x9", "reversi", "amazons"];

pub const README_BEGIN: &str = "<!-- bench-suite:begin -->";
pub const README_END: &str = "<!-- bench-suite:end -->";

/// The README's speed summary: each engine against its own kind of reference tool (geometric
/// means, the games below 1.0x) and the eight bench games' figures.
/// `full` is the Markdown page of every game, linked from the section relative to `readme`.
pub(crate) fn readme_text(rows: &[Row], page: &Page<'_>, full: Option<&Path>, readme: &Path) -> String {
    let Page { engines, summary, not_measured } = *page;
    let mut text = format!(
        "{README_BEGIN}\n<!-- Written by `rbg bench --suite ... --readme FILE`; edits between these markers are overwritten. -->\n\n"
    );
    let games =
        engines.iter().map(|&e| rows.iter().filter(|r| r.engine == e.name()).count()).max().unwrap_or(0);
    text.push_str(&format!(
        "`rbg bench --suite`, single thread, {games} games{}. Geometric means of our figure over the \
         reference tool's of the same kind (Monte Carlo like for like: with monotonic-class caching \
         where rbg2cpp's driver cached):\n\n",
        if not_measured.is_empty() {
            String::new()
        } else {
            format!(" ({} not measured)", not_measured.len())
        }
    ));
    let headline = summary.iter().filter(|s| s.games > 0 && s.tool == s.engine.headline_tool());
    text.push_str(&summary_table(headline.filter(|s| s.figure != Figure::MonotonicMc)));
    text.push_str("\nThe eight bench games (nodes/s at perft, playouts/s at flat Monte Carlo like for like; ratios to the reference tool):\n\n| game | engine | depth | nodes/s | ratio | playouts/s | ratio |\n|---|---|---|---|---|---|---|\n");
    for game in BENCH_GAMES {
        for row in rows.iter().filter(|r| r.game == game) {
            let cached = row.reference(&row.headline_tool).is_some_and(|r| r.cached_mc);
            let playouts = if cached { row.monotonic_playouts_per_s } else { row.playouts_per_s };
            text.push_str(&format!(
                "| {game} | {} (vs {}) | {} | {} | {} | {} | {} |\n",
                row.engine,
                row.headline_tool,
                depth_cell(row),
                rate_cell(row.nodes_per_s, 0),
                ratio_cell(row.perft_ratio(&row.headline_tool)),
                rate_cell(playouts, 1) + if cached { " *" } else { "" },
                ratio_cell(row.mc_ratio(&row.headline_tool)),
            ));
        }
    }
    text.push_str("\n\\* with monotonic-class caching, as rbg2cpp's figure.\n");
    if let Some(path) = full {
        let shown = link_from(readme, path).to_string_lossy().replace('\\', "/");
        text.push_str(&format!("\nEvery game and figure: [`{shown}`]({shown}).\n"));
    }
    text.push_str(README_END);
    text
}

/// Replaces the marked section of `path` with `section` (which includes the markers).
pub(crate) fn rewrite_readme(path: &Path, section: &str) -> Result<(), SuiteError> {
    let old = std::fs::read_to_string(path)
        .map_err(|e| SuiteError::new(format!("--readme: cannot read {}: {e}", path.display())))?;
    let (Some(begin), Some(end)) = (old.find(README_BEGIN), old.find(README_END)) else {
        return Err(SuiteError::new(format!(
            "--readme: {} has no section between {README_BEGIN} and {README_END}",
            path.display()
        )));
    };
    if end < begin {
        return Err(SuiteError::new(format!(
            "--readme: {}: the end marker comes before the begin marker",
            path.display()
        )));
    }
    let new = format!("{}{section}{}", &old[..begin], &old[end + README_END.len()..]);
    std::fs::write(path, new)
        .map_err(|e| SuiteError::new(format!("--readme: cannot write {}: {e}", path.display())))
}

/// The path of `target` as a relative link from a page at `page` (both found on disk; else
/// `target` as given).
fn link_from(page: &Path, target: &Path) -> PathBuf {
    let (Some(from), Ok(to)) =
        (page.canonicalize().ok().and_then(|p| p.parent().map(Path::to_path_buf)), target.canonicalize())
    else {
        return target.to_path_buf();
    };
    let common = from.components().zip(to.components()).take_while(|(a, b)| a == b).count();
    let mut link: PathBuf = from.components().skip(common).map(|_| "..").collect();
    link.extend(to.components().skip(common));
    link
}

fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    chars.next().map_or(String::new(), |c| c.to_uppercase().chain(chars).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::measure::ratio;

    #[test]
    fn geometric_means_and_ratios() {
        let mean = geometric_mean([2.0, 8.0].into_iter()).unwrap();
        assert!((mean - 4.0).abs() < 1e-12);
        assert_eq!(geometric_mean([0.0, f64::NAN].into_iter()), None);
        assert_eq!(ratio(Some(3.0), Some(0.0)), None);
        assert_eq!(ratio(Some(3.0), Some(2.0)), Some(1.5));
    }

    /// A build twice breakthrough's reference time has the ratio 2; a cache hit, the
    /// interpreter and a game without a figure have none.
    #[test]
    fn the_compile_time_is_set_against_the_reference() {
        let reference = crate::inputs::compile_reference("breakthrough").unwrap();
        let built = Row {
            game: "breakthrough".into(),
            engine: "compiled".into(),
            compile_seconds: Some(2.0 * reference),
            compile_cached: Some(false),
            ..Row::default()
        };
        assert_eq!(built.compile_reference(), Some(reference));
        assert!((built.compile_ratio().unwrap() - 2.0).abs() < 1e-12);
        assert_eq!(compile_cell_with_ratio(&built), format!("{} 2.0x", compile_cell(&built)));
        let cached = Row { compile_cached: Some(true), ..built.clone() };
        assert_eq!(cached.compile_ratio(), None);
        let interpreter = Row { engine: "interpreter".into(), ..built.clone() };
        assert_eq!(interpreter.compile_reference(), None);
        let unknown = Row { game: "no_such_game".into(), ..built };
        assert_eq!(unknown.compile_ratio(), None);
        assert_eq!(compile_cell_with_ratio(&unknown), compile_cell(&unknown));
    }

    #[test]
    fn csv_fields_are_quoted_when_needed() {
        assert_eq!(csv_field("plain"), "plain");
        assert_eq!(csv_field("a, \"b\""), "\"a, \"\"b\"\"\"");
    }

    #[test]
    fn the_full_page_is_linked_relative_to_the_summary() {
        let root = std::env::temp_dir().join(format!("rbg-bench-link-{}", std::process::id()));
        let (docs, out) = (root.join("docs"), root.join("out").join("runs"));
        std::fs::create_dir_all(&docs).unwrap();
        std::fs::create_dir_all(&out).unwrap();
        let (page, full) = (docs.join("results.md"), out.join("full.md"));
        std::fs::write(&page, "").unwrap();
        std::fs::write(&full, "").unwrap();
        // From docs/ up to the root, then down into out/runs/.
        assert_eq!(link_from(&page, &full), Path::new("../out/runs/full.md"));
        assert_eq!(link_from(&page, &docs.join("results.md")), Path::new("results.md"));
        // A target not on disk is shown as given.
        assert_eq!(link_from(&page, Path::new("no/such.md")), Path::new("no/such.md"));
        let _ = std::fs::remove_dir_all(&root);
    }
}
