//! The documents stay true to the code and to each other:
//!
//! * ARCHITECTURE.md's crate table names every workspace member by its directory, names no crate
//!   that does not exist, and each row's "depends on" column lists exactly the crate's workspace
//!   dependencies from its Cargo.toml: the normal ones (`[dependencies]` and target-specific
//!   ones) as plain names, the build ones marked `(build)`. External crates may be named freely
//!   (they are not checked); dev-dependencies are not listed.
//! * Every relative link of README.md, ARCHITECTURE.md and docs/*.md points to a file or
//!   directory that exists, and a `#fragment` into a Markdown file to one of its headings.
//! * docs/README.md, the index of the documentation, links every page of docs/.
//!
//! Cargo.toml files are read with a small parser of the few forms the workspace uses (section
//! headers, `name = ...` and `name.workspace = true` lines), not a TOML library.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    rbg_testdata::workspace_root()
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

// ---------------------------------------------------------------------------------------------
// Cargo manifests

/// The directories listed in the workspace's `members = [...]`.
fn member_dirs() -> Vec<String> {
    let text = read(&root().join("Cargo.toml"));
    let start = text.find("members = [").expect("the workspace Cargo.toml has members = [");
    let list = &text[start + "members = [".len()..];
    let list = &list[..list.find(']').expect("members list closes")];
    list.split(',').map(|m| m.trim().trim_matches('"').to_string()).filter(|m| !m.is_empty()).collect()
}

/// A manifest's package name and its dependencies by section kind.
#[derive(Debug, Default)]
struct Manifest {
    package: String,
    normal: BTreeSet<String>,
    build: BTreeSet<String>,
}

#[derive(Clone, Copy, PartialEq)]
enum Section {
    Package,
    Normal,
    Build,
    Other,
}

fn section_of(header: &str) -> Section {
    let name = header.trim_matches(|c| c == '[' || c == ']');
    if name == "package" {
        Section::Package
    } else if name == "dependencies" || (name.starts_with("target.") && name.ends_with(".dependencies")) {
        Section::Normal
    } else if name == "build-dependencies"
        || (name.starts_with("target.") && name.ends_with(".build-dependencies"))
    {
        Section::Build
    } else {
        Section::Other
    }
}

fn manifest(dir: &str) -> Manifest {
    let text = read(&root().join(dir).join("Cargo.toml"));
    let mut out = Manifest::default();
    let mut section = Section::Other;
    for line in text.lines().map(str::trim) {
        if line.starts_with('[') {
            section = section_of(line);
            continue;
        }
        let Some((key, value)) = line.split_once('=') else { continue };
        let key = key.trim();
        if key.starts_with('#') {
            continue;
        }
        // `name.workspace = true` or `name = ...`.
        let name = key.split('.').next().unwrap_or(key).trim_matches('"').to_string();
        match section {
            Section::Package if key == "name" && out.package.is_empty() => {
                out.package = value.trim().trim_matches('"').to_string();
            }
            Section::Normal => {
                out.normal.insert(name);
            }
            Section::Build => {
                out.build.insert(name);
            }
            _ => {}
        }
    }
    assert!(!out.package.is_empty(), "{dir}/Cargo.toml has no [package] name");
    out
}

// ---------------------------------------------------------------------------------------------
// ARCHITECTURE.md's crate table

/// A row of the table: the crate's directory and the names in its "depends on" column.
#[derive(Debug)]
struct Row {
    krate: String,
    normal: BTreeSet<String>,
    build: BTreeSet<String>,
}

/// Cells of a Markdown table line, split at `|` not escaped by a backslash.
fn cells(line: &str) -> Vec<String> {
    let mut cells = vec![String::new()];
    let mut escaped = false;
    for c in line.trim().trim_start_matches('|').chars() {
        match c {
            '|' if !escaped => cells.push(String::new()),
            _ => cells.last_mut().expect("a cell").push(c),
        }
        escaped = c == '\\';
    }
    if cells.last().is_some_and(|c| c.trim().is_empty()) {
        cells.pop();
    }
    cells.into_iter().map(|c| c.trim().to_string()).collect()
}

fn crate_table() -> Vec<Row> {
    let text = read(&root().join("ARCHITECTURE.md"));
    let heading = "## Crates and their API boundaries";
    let start = text.find(heading).unwrap_or_else(|| panic!("ARCHITECTURE.md has no \"{heading}\""));
    let section = &text[start + heading.len()..];
    let section = &section[..section.find("\n## ").unwrap_or(section.len())];
    let mut lines = section.lines().skip_while(|l| !l.starts_with('|'));
    let header = cells(lines.next().expect("the crate table"));
    assert_eq!(header[..2], ["crate", "depends on"], "the crate table's first two columns");
    let mut rows = Vec::new();
    for line in lines.skip(1).take_while(|l| l.starts_with('|')) {
        let cells = cells(line);
        let krate = cells[0].trim_matches('`').to_string();
        let mut row = Row { krate, normal: BTreeSet::new(), build: BTreeSet::new() };
        for item in cells.get(1).map_or("", String::as_str).split(',') {
            let item = item.trim();
            let (name, annotation) = match item.split_once('(') {
                Some((name, rest)) => (name.trim(), rest.trim_end_matches(')').trim()),
                None => (item, ""),
            };
            let name = name.trim_matches('`').to_string();
            if name.is_empty() {
                continue;
            }
            if annotation == "build" {
                row.build.insert(name);
            } else {
                row.normal.insert(name);
            }
        }
        rows.push(row);
    }
    rows
}

fn listed(set: &BTreeSet<String>) -> String {
    if set.is_empty() {
        "nothing".into()
    } else {
        set.iter().cloned().collect::<Vec<_>>().join(", ")
    }
}

#[test]
fn the_crate_table_matches_the_manifests() {
    let dirs = member_dirs();
    let manifests: BTreeMap<String, Manifest> = dirs.iter().map(|d| (d.clone(), manifest(d))).collect();
    // Dependencies name packages; the table names directories.
    let dir_of: BTreeMap<&str, &str> =
        manifests.iter().map(|(d, m)| (m.package.as_str(), d.as_str())).collect();
    let workspace = |deps: &BTreeSet<String>| -> BTreeSet<String> {
        deps.iter().filter_map(|p| dir_of.get(p.as_str()).map(|d| d.to_string())).collect()
    };
    let rows = crate_table();
    let mut problems = Vec::new();
    for dir in &dirs {
        if !rows.iter().any(|r| &r.krate == dir) {
            problems.push(format!("workspace member `{dir}` has no row in the crate table"));
        }
    }
    for row in &rows {
        let Some(manifest) = manifests.get(&row.krate) else {
            problems.push(format!(
                "the crate table names `{}`, which is not a workspace member directory",
                row.krate
            ));
            continue;
        };
        let in_table = |set: &BTreeSet<String>| -> BTreeSet<String> {
            set.iter().filter(|n| manifests.contains_key(n.as_str())).cloned().collect()
        };
        for (kind, from_table, from_manifest) in [
            ("normal", in_table(&row.normal), workspace(&manifest.normal)),
            ("build (marked `(build)`)", in_table(&row.build), workspace(&manifest.build)),
        ] {
            if from_table != from_manifest {
                let missing: BTreeSet<_> = from_manifest.difference(&from_table).cloned().collect();
                let extra: BTreeSet<_> = from_table.difference(&from_manifest).cloned().collect();
                let mut wrong = Vec::new();
                if !missing.is_empty() {
                    wrong.push(format!("add {}", listed(&missing)));
                }
                if !extra.is_empty() {
                    wrong.push(format!("remove {}", listed(&extra)));
                }
                problems.push(format!(
                    "`{}`: its {kind} workspace dependencies in {}/Cargo.toml are {}; in its \
                     \"depends on\" cell, {}",
                    row.krate,
                    row.krate,
                    listed(&from_manifest),
                    wrong.join(" and ")
                ));
            }
        }
    }
    assert!(problems.is_empty(), "ARCHITECTURE.md's crate table is out of date:\n{}", problems.join("\n"));
}

#[test]
fn table_cells_split_at_unescaped_bars() {
    assert_eq!(cells("| `a` | b, c | x \\| y |"), ["`a`", "b, c", "x \\| y"]);
}

// ---------------------------------------------------------------------------------------------
// Links

/// README.md, ARCHITECTURE.md and every Markdown file of docs/.
fn documents() -> Vec<PathBuf> {
    let root = root();
    let mut files = vec![root.join("README.md"), root.join("ARCHITECTURE.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("docs/")
        .map(|e| e.expect("a docs entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    files.extend(docs);
    files
}

/// The text outside fenced code blocks and inline code spans (links there are examples).
fn prose(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut fenced = false;
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        let mut kept = String::new();
        for (j, part) in line.split('`').enumerate() {
            // Even parts are outside code spans; a code span becomes an empty one.
            if j % 2 == 0 {
                kept.push_str(part);
            }
        }
        out.push((i + 1, kept));
    }
    out
}

/// The targets of inline links and images `[text](target)` in one line.
fn link_targets(line: &str) -> Vec<String> {
    let mut targets = Vec::new();
    let mut rest = line;
    while let Some(at) = rest.find("](") {
        rest = &rest[at + 2..];
        let end = rest.find(')').unwrap_or(rest.len());
        // A title after the target (`(file "title")`) is not part of it.
        let target = rest[..end].split_whitespace().next().unwrap_or("");
        targets.push(target.trim_matches(|c| c == '<' || c == '>').to_string());
        rest = &rest[end..];
    }
    targets
}

/// GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-' || *c == '_')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of a Markdown file's headings (outside code blocks).
fn anchors(text: &str) -> BTreeSet<String> {
    let mut fenced = false;
    let mut out = BTreeSet::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced && line.starts_with('#') {
            out.insert(slug(line.trim_start_matches('#')));
        }
    }
    out
}

fn is_external(target: &str) -> bool {
    target.contains("://") || target.starts_with("mailto:")
}

#[test]
fn every_relative_link_resolves() {
    let mut problems = Vec::new();
    let mut checked = 0;
    for document in documents() {
        let text = read(&document);
        let shown = document.strip_prefix(root()).unwrap_or(&document).display().to_string();
        for (line, prose) in prose(&text) {
            for target in link_targets(&prose) {
                if target.is_empty() || is_external(&target) {
                    continue;
                }
                checked += 1;
                let (path, fragment) = match target.split_once('#') {
                    Some((path, fragment)) => (path, Some(fragment)),
                    None => (target.as_str(), None),
                };
                let file = if path.is_empty() {
                    document.clone()
                } else {
                    document.parent().expect("a directory").join(path)
                };
                if !file.exists() {
                    problems.push(format!("{shown}:{line}: {target}: no such file"));
                    continue;
                }
                let is_markdown = file.extension().is_some_and(|e| e == "md");
                if let (Some(fragment), true) = (fragment, is_markdown) {
                    if !anchors(&read(&file)).contains(fragment) {
                        problems
                            .push(format!("{shown}:{line}: {target}: no heading with anchor #{fragment}"));
                    }
                }
            }
        }
    }
    assert!(checked > 20, "only {checked} links found: is the scanner broken?");
    assert!(problems.is_empty(), "broken links:\n{}", problems.join("\n"));
}

#[test]
fn the_docs_index_lists_every_page() {
    let index_path = root().join("docs/README.md");
    let index = read(&index_path);
    let linked: BTreeSet<String> = prose(&index).iter().flat_map(|(_, l)| link_targets(l)).collect();
    let missing: Vec<String> = documents()
        .iter()
        .filter(|d| d.parent() == index_path.parent() && **d != index_path)
        .filter_map(|d| d.file_name().map(|n| n.to_string_lossy().into_owned()))
        .filter(|name| !linked.contains(name))
        .collect();
    assert!(missing.is_empty(), "docs/README.md does not list {}", missing.join(", "));
}

#[test]
fn links_and_anchors_are_read_as_github_does() {
    assert_eq!(
        link_targets("see [a](x.md) and ![b](img/c.png \"t\") [c](<d.md>)"),
        ["x.md", "img/c.png", "d.md"]
    );
    assert_eq!(
        slug(" 8. Playing matches, human play and replays"),
        "8-playing-matches-human-play-and-replays"
    );
    assert_eq!(slug("The `rbg` command"), "the-rbg-command");
    let lines = prose("a [x](y)\n```\n[no](link)\n```\n`[no](code)` [z](w)");
    let targets: Vec<String> = lines.iter().flat_map(|(_, l)| link_targets(l)).collect();
    assert_eq!(targets, ["y", "w"]);
}
