//! `rbg lsp` driven over stdio as an editor drives it, and `rbg fmt`. Expected answers are
//! read off the small game texts below by hand (lines and columns count from 0, as in LSP).

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

use serde_json::{json, Value};

mod common;
use common::{rbg, stderr, stdout, temp_file};

const GAME: &str = "\
#players = white(100), black(100)
#pieces = empty, wPawn, bPawn
#variables = turns(10)
#board = rectangle(up, down, left, right, [empty, empty] [wPawn, bPawn])
#step(piece; dir) = {piece} [empty] dir [piece]
#rules = ->white (step(wPawn; up) ->black step(bPawn; down) [$ turns = turns + 1])*
";

const URI: &str = "file:///games/pawns.rbg";

/// A small SBG game (lines from 0): kings `K`/`k` with a rule, a black rook `r` without one.
const SBG: &str = "\
<<Duel>>
<BOARD> 3 3
|..k|
|.r.|
|K..|
<PIECES>
K (0,1,e) + (1,0,e) &
<GOALS>
6 &
#K 0 &
#k 0 &
";

/// [`SBG`] with its layout spoiled (the same game).
const SBG_MESSY: &str =
    "<<Duel>>\n<BOARD>\n3 3 |..k| |.r.| |K..|\n<PIECES>\nK ( 0,1,e )+( 1,0,e )&\n<GOALS> 6 & #K 0 & #k 0 &";

const SBG_URI: &str = "file:///games/duel.sbg";

/// A running `rbg lsp` with a thread reading its messages; killed when dropped.
struct Client {
    child: Child,
    stdin: Option<ChildStdin>,
    messages: Receiver<Value>,
    next_id: i64,
}

impl Client {
    fn start() -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_rbg"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("rbg lsp starts");
        let stdin = child.stdin.take();
        let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
        let (send, messages) = channel();
        std::thread::spawn(move || {
            while let Some(message) = read_frame(&mut stdout) {
                if send.send(message).is_err() {
                    break;
                }
            }
        });
        Client { child, stdin, messages, next_id: 0 }
    }

    fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).and_then(|_| stdin.flush()).expect("the server reads");
    }

    fn send(&mut self, message: Value) {
        let body = message.to_string();
        self.send_raw(format!("Content-Length: {}\r\n\r\n{body}", body.len()).as_bytes());
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({ "jsonrpc": "2.0", "method": method, "params": params }));
    }

    /// Sends a request and returns its answer (`result` or `error`), skipping notifications.
    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
        self.answer_to(json!(id))
    }

    fn answer_to(&self, id: Value) -> Value {
        loop {
            let message = self.next();
            if message.get("method").is_none() && message["id"] == id {
                return message;
            }
        }
    }

    fn next(&self) -> Value {
        self.messages.recv_timeout(Duration::from_secs(20)).expect("the server answers within 20 s")
    }

    /// The next diagnostics published (other notifications skipped).
    fn diagnostics(&self) -> Vec<Value> {
        loop {
            let message = self.next();
            if message["method"] == "textDocument/publishDiagnostics" {
                return message["params"]["diagnostics"].as_array().cloned().unwrap_or_default();
            }
        }
    }

    fn initialize(&mut self) -> Value {
        let answer = self.request("initialize", json!({ "capabilities": {} }));
        self.notify("initialized", json!({}));
        answer
    }

    fn open(&mut self, uri: &str, text: &str) -> Vec<Value> {
        let document = json!({ "uri": uri, "languageId": "rbg", "version": 1, "text": text });
        self.notify("textDocument/didOpen", json!({ "textDocument": document }));
        self.diagnostics()
    }

    fn at(&mut self, method: &str, line: u32, character: u32, extra: Value) -> Value {
        self.at_in(URI, method, line, character, extra)
    }

    fn at_in(&mut self, uri: &str, method: &str, line: u32, character: u32, extra: Value) -> Value {
        let mut params =
            json!({ "textDocument": { "uri": uri }, "position": { "line": line, "character": character } });
        if let (Some(params), Some(extra)) = (params.as_object_mut(), extra.as_object()) {
            params.extend(extra.clone());
        }
        self.request(method, params)
    }

    /// Sends `exit` and returns the exit code.
    fn exit(mut self) -> Option<i32> {
        self.notify("exit", Value::Null);
        self.stdin = None;
        for _ in 0..200 {
            if let Ok(Some(status)) = self.child.try_wait() {
                return status.code();
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        None
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn read_frame(input: &mut impl BufRead) -> Option<Value> {
    let mut length = 0;
    loop {
        let mut line = String::new();
        if input.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(value) = line.strip_prefix("Content-Length: ") {
            length = value.parse().ok()?;
        }
    }
    let mut body = vec![0; length];
    input.read_exact(&mut body).ok()?;
    serde_json::from_slice(&body).ok()
}

fn range(line: u32, start: u32, end: u32) -> Value {
    json!({ "start": { "line": line, "character": start }, "end": { "line": line, "character": end } })
}

#[test]
fn an_editor_session() {
    let mut client = Client::start();
    let capabilities = client.initialize()["result"]["capabilities"].clone();
    for provider in [
        "hoverProvider",
        "definitionProvider",
        "renameProvider",
        "completionProvider",
        "semanticTokensProvider",
    ] {
        assert!(!capabilities[provider].is_null(), "{provider}: {capabilities}");
    }
    assert_eq!(client.open(URI, GAME), Vec::<Value>::new(), "the game is valid");

    // Hover on `step` in `#rules = ->white (step(wPawn; up) ...` (line 5, characters 18-22):
    // its expansion there, `{piece} [empty] dir [piece]` with piece = wPawn and dir = up.
    let hover = client.at("textDocument/hover", 5, 19, json!({}));
    let text = hover["result"]["contents"]["value"].as_str().unwrap_or_default();
    assert!(text.contains("{wPawn} [empty] up [wPawn]"), "{hover}");
    assert_eq!(hover["result"]["range"], range(5, 18, 22));

    // `wPawn` passed to `step` (line 5, 23-28) is declared in #pieces (line 1, 17-22).
    let definition = client.at("textDocument/definition", 5, 25, json!({}));
    assert_eq!(definition["result"], json!({ "uri": URI, "range": range(1, 17, 22) }));

    // Renaming the parameter `piece` inside the macro: the parameter (line 4, 6-11) and its
    // two uses in the body (21-26 and 41-46).
    let rename = client.at("textDocument/rename", 4, 22, json!({ "newName": "p" }));
    let edits = &rename["result"]["changes"][URI];
    let ranges: Vec<&Value> = edits.as_array().expect("edits").iter().map(|e| &e["range"]).collect();
    assert_eq!(ranges, [&range(4, 6, 11), &range(4, 21, 26), &range(4, 41, 46)]);
    // Renaming the piece `wPawn` from its declaration (line 1, 17-22) reaches the board
    // (line 3, 58-63) and the argument of the macro call `step(wPawn; up)` (line 5, 23-28).
    let rename = client.at("textDocument/rename", 1, 18, json!({ "newName": "whitePawn" }));
    let ranges: Vec<Value> = rename["result"]["changes"][URI]
        .as_array()
        .expect("edits")
        .iter()
        .map(|e| e["range"].clone())
        .collect();
    assert_eq!(ranges, [range(1, 17, 22), range(3, 58, 63), range(5, 23, 28)]);
    // The player `black`: its declaration (line 0, 23-28) and `->black` (line 5, 36-41).
    let rename = client.at("textDocument/rename", 0, 24, json!({ "newName": "red" }));
    let ranges: Vec<Value> = rename["result"]["changes"][URI]
        .as_array()
        .expect("edits")
        .iter()
        .map(|e| e["range"].clone())
        .collect();
    assert_eq!(ranges, [range(0, 23, 28), range(5, 36, 41)]);

    // The outline: the six directives in order.
    let symbols = client.request("textDocument/documentSymbol", json!({ "textDocument": { "uri": URI } }));
    let names: Vec<&str> =
        symbols["result"].as_array().expect("symbols").iter().filter_map(|s| s["name"].as_str()).collect();
    assert_eq!(names, ["#players", "#pieces", "#variables", "#board", "#step", "#rules"]);

    // Semantic tokens: `wPawn` in `step(wPawn; up)` (line 5, 23-28) is a piece (`enumMember` in
    // the legend), `step` (18-22) a macro, `dir` in the body of `step` (line 4, 36-39) a parameter.
    let legend = capabilities["semanticTokensProvider"]["legend"]["tokenTypes"].clone();
    let kind =
        |name: &str| legend.as_array().and_then(|l| l.iter().position(|t| t == name)).expect(name) as u64;
    let tokens =
        client.request("textDocument/semanticTokens/full", json!({ "textDocument": { "uri": URI } }));
    let data: Vec<u64> =
        tokens["result"]["data"].as_array().expect("data").iter().filter_map(Value::as_u64).collect();
    let (mut line, mut start, mut decoded) = (0, 0, Vec::new());
    for token in data.chunks(5) {
        (line, start) = if token[0] == 0 { (line, start + token[1]) } else { (line + token[0], token[1]) };
        decoded.push((line, start, token[2], token[3]));
    }
    assert!(decoded.contains(&(5, 23, 5, kind("enumMember"))), "{decoded:?}");
    assert!(decoded.contains(&(5, 18, 4, kind("macro"))), "{decoded:?}");
    assert!(decoded.contains(&(4, 36, 3, kind("parameter"))), "{decoded:?}");

    // Completion of `st` typed in the rules: the macro, with its parameters as a snippet.
    let typed = GAME.replace("turns + 1])*", "turns + 1] st)*");
    client.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": URI, "version": 2 }, "contentChanges": [{ "text": typed }] }),
    );
    client.diagnostics();
    let column = typed.lines().nth(5).and_then(|l| l.find(" st)")).expect("st") as u32 + 3;
    let completion = client.at("textDocument/completion", 5, column, json!({}));
    let items = completion["result"].as_array().expect("items");
    assert_eq!(items.len(), 1, "{completion}");
    assert_eq!(items[0]["label"], "step");
    assert_eq!(items[0]["insertText"], "step(${1:piece}; ${2:dir})");

    // An incremental edit: `up` in `step(wPawn; up)` (line 5, 30-32) becomes `upp`, which is
    // not declared: the error points at it.
    client.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": URI, "version": 3 },
                "contentChanges": [{ "text": GAME }, { "range": range(5, 32, 32), "text": "p" }] }),
    );
    let diagnostics = client.diagnostics();
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    assert_eq!(diagnostics[0]["message"], "Identifier 'upp' not declared");
    assert_eq!(diagnostics[0]["range"], range(5, 30, 33));
    // Its quick fix: the nearest declared name.
    let actions = client.request(
        "textDocument/codeAction",
        json!({ "textDocument": { "uri": URI }, "range": range(5, 31, 31), "context": { "diagnostics": [] } }),
    );
    let action = &actions["result"][0];
    assert_eq!(action["title"], "Change to `up`");
    assert_eq!(action["edit"]["changes"][URI], json!([{ "range": range(5, 30, 33), "newText": "up" }]));

    // Formatting: `#a=(x|y)` would not format (a stray `|`); a messy layout does.
    client.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": URI, "version": 4 },
                "contentChanges": [{ "text": GAME.replace("#step(piece; dir) = {piece} [empty]", "#step( piece ;dir )={ piece }  [ empty ]") }] }),
    );
    assert_eq!(client.diagnostics(), Vec::<Value>::new());
    let formatting = client.request(
        "textDocument/formatting",
        json!({ "textDocument": { "uri": URI }, "options": { "tabSize": 4, "insertSpaces": true } }),
    );
    assert_eq!(formatting["result"][0]["newText"], GAME, "{formatting}");

    assert_eq!(client.request("shutdown", Value::Null)["result"], Value::Null);
    assert_eq!(client.exit(), Some(0));
}

#[test]
fn an_editor_session_on_an_sbg_file() {
    let mut client = Client::start();
    let capabilities = client.initialize()["result"]["capabilities"].clone();
    assert_eq!(client.open(SBG_URI, SBG), Vec::<Value>::new(), "the game is valid");
    // Hover on the black king `k` (line 2, 3-4): the piece type K, one of each colour.
    let hover = client.at_in(SBG_URI, "textDocument/hover", 2, 3, json!({}));
    let text = hover["result"]["contents"]["value"].as_str().unwrap_or_default();
    assert!(text.contains("piece `K`") && text.contains("1 white, 1 black"), "{hover}");
    assert_eq!(hover["result"]["range"], range(2, 3, 4));
    // Its definition: the letter of its rule (line 6, 0-1).
    let definition = client.at_in(SBG_URI, "textDocument/definition", 2, 3, json!({}));
    assert_eq!(definition["result"], json!({ "uri": SBG_URI, "range": range(6, 0, 1) }));
    // Its references: `k` and `K` on the board, the rule, `#K` and `#k`.
    let references = client.at_in(
        SBG_URI,
        "textDocument/references",
        6,
        0,
        json!({ "context": { "includeDeclaration": true } }),
    );
    let ranges: Vec<Value> =
        references["result"].as_array().expect("locations").iter().map(|l| l["range"].clone()).collect();
    assert_eq!(ranges, [range(2, 3, 4), range(4, 1, 2), range(6, 0, 1), range(9, 1, 2), range(10, 1, 2)]);
    // Completion after `#` (line 9, 1): either colour of either type.
    let completion = client.at_in(SBG_URI, "textDocument/completion", 9, 1, json!({}));
    let labels: Vec<&str> =
        completion["result"].as_array().expect("items").iter().filter_map(|i| i["label"].as_str()).collect();
    assert_eq!(labels, ["K", "R", "k", "r"]);
    // The outline: the header, the board (with the rook, which has no rule), the pieces with
    // the king's rule, the goals.
    let symbols =
        client.request("textDocument/documentSymbol", json!({ "textDocument": { "uri": SBG_URI } }));
    let symbols = symbols["result"].as_array().expect("symbols");
    let names: Vec<&str> = symbols.iter().filter_map(|s| s["name"].as_str()).collect();
    assert_eq!(names, ["<<Duel>>", "<BOARD>", "<PIECES>", "<GOALS>"]);
    assert_eq!(symbols[2]["children"][0]["name"], "K");
    assert_eq!(symbols[2]["children"][0]["range"], range(6, 0, 21));
    assert_eq!(symbols[1]["children"][0]["name"], "R");
    // Semantic tokens: `k` (line 2, 3) a piece, `<PIECES>` (line 5, 0-8) a keyword.
    let legend = capabilities["semanticTokensProvider"]["legend"]["tokenTypes"].clone();
    let kind =
        |name: &str| legend.as_array().and_then(|l| l.iter().position(|t| t == name)).expect(name) as u64;
    let tokens =
        client.request("textDocument/semanticTokens/full", json!({ "textDocument": { "uri": SBG_URI } }));
    let data: Vec<u64> =
        tokens["result"]["data"].as_array().expect("data").iter().filter_map(Value::as_u64).collect();
    let (mut line, mut start, mut decoded) = (0, 0, Vec::new());
    for token in data.chunks(5) {
        (line, start) = if token[0] == 0 { (line, start + token[1]) } else { (line + token[0], token[1]) };
        decoded.push((line, start, token[2], token[3]));
    }
    assert!(decoded.contains(&(2, 3, 1, kind("enumMember"))), "{decoded:?}");
    assert!(decoded.contains(&(5, 0, 8, kind("keyword"))), "{decoded:?}");
    // Formatting a spoiled layout gives the game back as written above.
    client.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": SBG_URI, "version": 2 }, "contentChanges": [{ "text": SBG_MESSY }] }),
    );
    assert_eq!(client.diagnostics(), Vec::<Value>::new());
    let formatting = client.request(
        "textDocument/formatting",
        json!({ "textDocument": { "uri": SBG_URI }, "options": { "tabSize": 4, "insertSpaces": true } }),
    );
    assert_eq!(formatting["result"][0]["newText"], SBG, "{formatting}");
    // Renaming is for RBG files.
    assert!(!client.at_in(SBG_URI, "textDocument/rename", 0, 0, json!({ "newName": "Q" }))["error"].is_null());
    assert_eq!(client.request("shutdown", Value::Null)["result"], Value::Null);
    assert_eq!(client.exit(), Some(0));
}

#[test]
fn garbage_on_the_wire_gets_errors_and_the_server_keeps_serving() {
    let mut client = Client::start();
    // Before `initialize`: ServerNotInitialized.
    assert_eq!(client.request("textDocument/hover", json!({}))["error"]["code"], -32002);
    client.initialize();
    // Not JSON: a parse error without an id.
    client.send_raw(b"Content-Length: 9\r\n\r\n{not json");
    let answer = client.answer_to(Value::Null);
    assert_eq!(answer["error"]["code"], -32700);
    // JSON but not JSON-RPC: an invalid request, answered with its id.
    client.send(json!({ "id": 77, "what": "is this" }));
    assert_eq!(client.answer_to(json!(77))["error"]["code"], -32600);
    // A header line that is no header, then a frame without Content-Length.
    client.send_raw(b"garbage\r\n\r\n");
    assert_eq!(client.answer_to(Value::Null)["error"]["code"], -32700);
    // Unknown methods and bad parameters.
    assert_eq!(client.request("no/such/method", json!({}))["error"]["code"], -32601);
    assert_eq!(client.request("textDocument/hover", json!({ "bad": 1 }))["error"]["code"], -32602);
    assert!(!client.at("textDocument/hover", 0, 0, json!({}))["error"].is_null(), "document not open");
    // A binary document: one diagnostic, not a crash.
    let diagnostics = client.open("file:///games/binary.rbg", "\u{0}\u{1}\u{2}#rules = \u{0}");
    assert!(
        diagnostics[0]["message"].as_str().unwrap_or_default().contains("not a text file"),
        "{diagnostics:?}"
    );
    // A huge document (4 MB of moves).
    let huge = format!("{}{}", GAME.replace("*\n", "*"), " up".repeat(1 << 20));
    let diagnostics = client.open("file:///games/huge.rbg", &huge);
    assert!(diagnostics.len() <= 1, "{diagnostics:?}");
    // Edits past the end of the document and across lines that do not exist.
    client.open(URI, GAME);
    client.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": URI, "version": 2 },
                "contentChanges": [{ "range": { "start": { "line": 400, "character": 9 }, "end": { "line": 2, "character": 999 } }, "text": "" }] }),
    );
    let diagnostics = client.diagnostics();
    assert!(!diagnostics.is_empty(), "everything after line 2 is gone");
    // Still serving: a valid request gets its answer.
    let hover = client.at("textDocument/hover", 0, 13, json!({}));
    assert!(
        hover["result"]["contents"]["value"].as_str().unwrap_or_default().contains("player `white`"),
        "{hover}"
    );
    // `exit` without `shutdown`: exit code 1, as the protocol says.
    assert_eq!(client.exit(), Some(1));
}

#[test]
fn fmt_formats_in_place_and_check_lists_what_would_change() {
    let messy =
        GAME.replace("#step(piece; dir) = {piece} [empty]", "#step( piece ;dir )={ piece }  [ empty ]");
    let file = temp_file("pawns.rbg", &messy);
    let path = file.to_str().expect("a path");
    let check = rbg(&["fmt", "--check", path]);
    assert_eq!(check.status.code(), Some(1), "{}", stderr(&check));
    assert_eq!(stdout(&check).trim(), path);
    assert_eq!(
        std::fs::read_to_string(&file).ok().as_deref(),
        Some(messy.as_str()),
        "--check changes nothing"
    );
    let format = rbg(&["fmt", path]);
    assert_eq!(format.status.code(), Some(0), "{}", stderr(&format));
    assert_eq!(std::fs::read_to_string(&file).ok().as_deref(), Some(GAME));
    let check = rbg(&["fmt", "--check", path]);
    assert_eq!((check.status.code(), stdout(&check)), (Some(0), String::new()));
    // A stray `|` (line 1, column 14): an error at its place, the file left alone.
    let bar = temp_file("bar.rbg", "#rules = (up | down)\n");
    let failed = rbg(&["fmt", bar.to_str().expect("a path")]);
    assert_eq!(failed.status.code(), Some(1));
    assert!(stderr(&failed).contains("bar.rbg:1:14: error"), "{}", stderr(&failed));
    // Usage errors.
    assert_eq!(rbg(&["fmt"]).status.code(), Some(2));
    // An SBG file is formatted in its own style; a file that does not exist fails.
    let sbg = temp_file("duel.sbg", SBG_MESSY);
    let format = rbg(&["fmt", sbg.to_str().expect("a path")]);
    assert_eq!(format.status.code(), Some(0), "{}", stderr(&format));
    assert_eq!(std::fs::read_to_string(&sbg).ok().as_deref(), Some(SBG));
    assert_eq!(rbg(&["fmt", "no-such-game.sbg"]).status.code(), Some(1));
}

/// Our own games are written in the style `rbg fmt` gives: every `.rbg` and `.sbg` file under
/// `games/` is left alone by `rbg fmt --check` (which lists the files it would change).
#[test]
fn the_games_of_the_repository_are_formatted() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../games");
    let mut files = Vec::new();
    let mut folders = vec![root];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).expect("games/ is readable").flatten() {
            let path = entry.path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|e| e == "rbg" || e == "sbg") {
                files.push(path.to_string_lossy().into_owned());
            }
        }
    }
    assert!(files.len() > 40, "only {} games found", files.len());
    let mut args = vec!["fmt", "--check"];
    args.extend(files.iter().map(String::as_str));
    let check = rbg(&args);
    assert_eq!((check.status.code(), stdout(&check)), (Some(0), String::new()), "{}", stderr(&check));
}
