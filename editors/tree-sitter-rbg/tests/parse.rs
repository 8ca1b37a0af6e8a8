//! The checked-in parser against real games: every corpus game and every `.rbg` file of
//! `games/` parses without an ERROR or MISSING node, the highlight query compiles against the
//! grammar, and small texts give the trees and colours worked out by hand.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use tree_sitter::{Node, Parser, Query, QueryCursor, StreamingIterator, Tree};

fn parse(text: &str) -> Tree {
    let mut parser = Parser::new();
    parser.set_language(&tree_sitter_rbg::LANGUAGE.into()).expect("the generated parser's ABI is supported");
    parser.parse(text, None).expect("parsing is not cancelled")
}

/// The first ERROR or MISSING node under `node`, depth first.
fn first_problem(node: Node) -> Option<Node> {
    if node.is_error() || node.is_missing() {
        return Some(node);
    }
    if !node.has_error() {
        return None;
    }
    let mut cursor = node.walk();
    let children: Vec<Node> = node.children(&mut cursor).collect();
    children.into_iter().find_map(first_problem)
}

/// `path:line:col: kind` for each file that does not parse cleanly.
fn problems(files: &[PathBuf]) -> Vec<String> {
    let mut problems = Vec::new();
    for path in files {
        let text =
            std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        let tree = parse(&text);
        if let Some(node) = first_problem(tree.root_node()) {
            let at = node.start_position();
            let kind = if node.is_missing() { format!("MISSING {}", node.kind()) } else { "ERROR".into() };
            problems.push(format!("{}:{}:{}: {kind}", path.display(), at.row + 1, at.column + 1));
        }
    }
    problems
}

fn rbg_files_under(dir: &Path, files: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()));
    for path in entries.flatten().map(|e| e.path()) {
        if path.is_dir() {
            rbg_files_under(&path, files);
        } else if path.extension().is_some_and(|e| e == "rbg") {
            files.push(path);
        }
    }
}

#[test]
fn every_corpus_game_parses_without_errors() {
    let Some(corpus) = rbg_testdata::corpus() else { return };
    let files: Vec<PathBuf> = rbg_testdata::corpus_games(&corpus).into_iter().map(|g| g.path).collect();
    assert_eq!(files.len(), 75, "the corpus has 75 games");
    let problems = problems(&files);
    assert!(problems.is_empty(), "tree-sitter-rbg fails on:\n{}", problems.join("\n"));
}

#[test]
fn every_game_of_the_repository_parses_without_errors() {
    let mut files = Vec::new();
    rbg_files_under(&rbg_testdata::workspace_root().join("games"), &mut files);
    assert!(files.len() >= 10, "games/ holds the example games, found {}", files.len());
    let problems = problems(&files);
    assert!(problems.is_empty(), "tree-sitter-rbg fails on:\n{}", problems.join("\n"));
}

#[test]
fn a_broken_text_is_marked() {
    let tree = parse("#rules = {a");
    assert!(first_problem(tree.root_node()).is_some(), "an unclosed brace gives an ERROR or MISSING node");
}

#[test]
fn directives_calls_and_brackets_give_the_expected_tree() {
    let text =
        "// pieces\n#pieces = e, w\n#m(a; b) = {a} [b]\n#rules = m(e; w)* ->> {$ x < 1} [$ x = 2] {? left}";
    let expected = "(source_file (comment) \
        (section name: (section_name) body: (body (identifier) (identifier))) \
        (macro_definition name: (identifier) parameters: (parameters (identifier) (identifier)) \
        body: (body (on (identifier)) (off (identifier)))) \
        (section name: (section_name) body: (body \
        (macro_call name: (identifier) arguments: (arguments (identifier) (identifier))) \
        (comparison (identifier) (number)) (assignment (identifier) (number)) (pattern (identifier)))))";
    assert_eq!(parse(text).root_node().to_sexp(), expected);
}

#[test]
fn a_space_before_the_parenthesis_makes_a_group_not_a_call() {
    let tree = parse("#rules = up (left)*");
    let expected =
        "(source_file (section name: (section_name) body: (body (identifier) (group (identifier)))))";
    assert_eq!(tree.root_node().to_sexp(), expected);
}

#[test]
fn board_generators_and_pasting_parse() {
    let tree = parse("#row(c) = [c~Pawn, e]\n#board = rectangle(up, down, left, right, row(white))");
    let expected = "(source_file \
        (macro_definition name: (identifier) parameters: (parameters (identifier)) \
        body: (body (off (identifier) (identifier) (identifier)))) \
        (section name: (section_name) body: (body (board_generator arguments: (arguments \
        (identifier) (identifier) (identifier) (identifier) \
        (macro_call name: (identifier) arguments: (arguments (identifier))))))))";
    assert_eq!(tree.root_node().to_sexp(), expected);
}

/// The colour of each coloured node of `text` as `capture: text`, in text order. As in Helix,
/// a node matched by several patterns takes the first pattern's capture.
fn highlights(text: &str) -> Vec<String> {
    let language = tree_sitter_rbg::LANGUAGE.into();
    let query = Query::new(&language, tree_sitter_rbg::HIGHLIGHTS_QUERY).expect("highlights.scm compiles");
    let tree = parse(text);
    let mut cursor = QueryCursor::new();
    let mut captures = cursor.captures(&query, tree.root_node(), text.as_bytes());
    // node's byte range -> (pattern index, capture name)
    let mut first: BTreeMap<(usize, usize), (usize, &str)> = BTreeMap::new();
    while let Some((found, index)) = captures.next() {
        let capture = found.captures[*index];
        let name = query.capture_names()[capture.index as usize];
        if name.starts_with('_') {
            continue;
        }
        let range = capture.node.byte_range();
        let entry = first.entry((range.start, range.end)).or_insert((found.pattern_index, name));
        if found.pattern_index < entry.0 {
            *entry = (found.pattern_index, name);
        }
    }
    first.iter().map(|(&(start, end), (_, name))| format!("{name}: {}", &text[start..end])).collect()
}

#[test]
fn the_highlight_query_compiles_against_the_grammar() {
    let language = tree_sitter_rbg::LANGUAGE.into();
    let query = Query::new(&language, tree_sitter_rbg::HIGHLIGHTS_QUERY);
    assert!(query.is_ok(), "highlights.scm: {:?}", query.err());
}

#[test]
fn highlighting_colours_names_by_their_role() {
    let text = "#players = white(100)\n#m(p) = {p} 7 // c\n#rules = m(e) [$ x = 1] ->white";
    // By hand: each coloured token of `text`, in order.
    let expected = [
        "keyword.directive: #",
        "keyword: players",
        "operator: =",
        "variable: white",
        "punctuation.bracket: (",
        "constant.numeric.integer: 100",
        "punctuation.bracket: )",
        "keyword.directive: #",
        "function.macro: m",
        "punctuation.bracket: (",
        "variable.parameter: p",
        "punctuation.bracket: )",
        "operator: =",
        "punctuation.bracket: {",
        "type: p",
        "punctuation.bracket: }",
        "constant.numeric.integer: 7",
        "comment: // c",
        "keyword.directive: #",
        "keyword: rules",
        "operator: =",
        "function.macro: m",
        "punctuation.bracket: (",
        "punctuation.bracket: )",
        "punctuation.bracket: [$",
        "variable: x",
        "operator: =",
        "constant.numeric.integer: 1",
        "punctuation.bracket: ]",
        "keyword.control: ->",
    ];
    let seen = highlights(text);
    assert_eq!(seen, expected);
}
