//! The JSON API over a real loopback server (127.0.0.1, a free port): sessions, moves step by
//! step, history, agents, jobs, every kind of bad request, path traversal, and a bounded load
//! of 100 games played to the end at once.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use rbg_core::dynamic::AnyGame;
use rbg_interp::{InterpOptions, Interpreter};
use serde_json::{json, Value};

fn load(path: &Path) -> Result<AnyGame, String> {
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    let parsed = rbg_parser::parse("game.rbg", &bytes);
    let game = parsed.game.ok_or_else(|| format!("{:?}", parsed.diagnostics))?;
    Interpreter::new(&game, "game", InterpOptions::default()).map(AnyGame::new).map_err(|e| e.to_string())
}

/// A directory with tic-tac-toe, a broken game, a text file and (on Unix) a link to a game
/// outside it.
fn games_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rbg-serve-test-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    let ttt = Path::new(env!("CARGO_MANIFEST_DIR")).join("../games/ticTacToe.rbg");
    std::fs::copy(&ttt, dir.join("ticTacToe.rbg")).unwrap();
    std::fs::copy(&ttt, dir.join("sub/copy.rbg")).unwrap();
    let breakthrough = Path::new(env!("CARGO_MANIFEST_DIR")).join("../games/breakthrough.rbg");
    std::fs::copy(&breakthrough, dir.join("breakthrough.rbg")).unwrap();
    let gardner = Path::new(env!("CARGO_MANIFEST_DIR")).join("../games/chessGardner.rbg");
    std::fs::copy(&gardner, dir.join("chessGardner.rbg")).unwrap();
    std::fs::write(dir.join("broken.rbg"), "#players = a(1)\n#rules = ->a [x\n").unwrap();
    std::fs::write(dir.join("notes.txt"), "not a game").unwrap();
    let outside = std::env::temp_dir().join(format!("rbg-serve-outside-{tag}-{}.rbg", std::process::id()));
    std::fs::copy(&ttt, &outside).unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(&outside, dir.join("escape.rbg")).unwrap();
    dir
}

/// Starts a server on 127.0.0.1 and a free port; it runs until the test process ends.
fn start(tag: &str) -> SocketAddr {
    start_with(tag, None)
}

/// [`start`], building every session's "compiled" engine in the background with `builder`.
fn start_with(tag: &str, builder: Option<rbg_serve::Builder>) -> SocketAddr {
    let dir = games_dir(tag);
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let runtime =
            tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            tx.send(listener.local_addr().unwrap()).unwrap();
            let mut config = rbg_serve::Config::new(dir);
            config.max_agent_time = Duration::from_secs(10);
            let router = match builder {
                None => rbg_serve::router(config, Arc::new(load)),
                Some(builder) => {
                    config.compile_in_background = true;
                    rbg_serve::router_with_builds(config, Arc::new(load), Arc::new(load), builder)
                }
            };
            rbg_serve::serve(listener, router).await.unwrap();
        });
    });
    rx.recv_timeout(Duration::from_secs(30)).expect("the server did not start")
}

/// One HTTP/1.1 request; the status and the JSON body (Null if the body is not JSON).
fn call(addr: SocketAddr, method: &str, path: &str, body: Option<&str>) -> (u16, Value) {
    let (status, text) = raw(addr, method, path, body);
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

fn raw(addr: SocketAddr, method: &str, path: &str, body: Option<&str>) -> (u16, String) {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
    let body = body.unwrap_or("");
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).unwrap();
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).unwrap();
    let text = String::from_utf8_lossy(&answer).into_owned();
    let status = text.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    let body = text.split_once("\r\n\r\n").map(|(_, b)| b.to_string()).unwrap_or_default();
    (status, body)
}

fn post(addr: SocketAddr, path: &str, body: Value) -> (u16, Value) {
    call(addr, "POST", path, Some(&body.to_string()))
}

fn new_game(addr: SocketAddr) -> Value {
    let (status, view) = post(addr, "/api/sessions", json!({ "game": "ticTacToe.rbg" }));
    assert_eq!(status, 200, "{view}");
    view
}

/// Marks a cell of tic-tac-toe by steps: the mark, then the switch the server offers.
fn mark(addr: SocketAddr, id: u64, cell: u32) -> Value {
    let (_, view) = call(addr, "GET", &format!("/api/sessions/{id}"), None);
    let first = view["next"].as_array().unwrap().iter().find(|a| a["vertex"] == cell).cloned().unwrap();
    let (status, view) = post(addr, &format!("/api/sessions/{id}/step"), first);
    assert_eq!(status, 200, "{view}");
    // The partial move has one way on: the switch at the same cell.
    let next = view["next"].as_array().unwrap();
    assert_eq!(next.len(), 1, "{view}");
    assert_eq!(next[0]["ends_move"], true);
    let (status, view) = post(addr, &format!("/api/sessions/{id}/step"), next[0].clone());
    assert_eq!(status, 200, "{view}");
    view
}

#[test]
fn a_game_of_tic_tac_toe_step_by_step_with_history() {
    let addr = start("game");
    let (status, games) = call(addr, "GET", "/api/games", None);
    assert_eq!(status, 200);
    // The game files of the directory, links included; not the text file.
    let listed: Vec<&str> = games["games"].as_array().unwrap().iter().map(|g| g.as_str().unwrap()).collect();
    assert!(listed.contains(&"ticTacToe.rbg") && listed.contains(&"sub/copy.rbg"), "{listed:?}");
    assert!(!listed.contains(&"notes.txt"));

    let view = new_game(addr);
    let id = view["id"].as_u64().unwrap();
    // The empty board: cross to move, nine cells to mark, the picture's cells named cell-N.
    assert_eq!(view["to_move"], "cross");
    assert_eq!(view["next"].as_array().unwrap().len(), 9);
    assert!(view["svg"].as_str().unwrap().contains("id=\"cell-8\""));
    // Cells 0 1 2 / 3 4 5 / 6 7 8: cross takes the top row while nought plays 3 and 4.
    for cell in [0, 3, 1, 4] {
        mark(addr, id, cell);
    }
    let view = mark(addr, id, 2);
    assert_eq!(view["over"], true);
    assert_eq!(view["to_move"], Value::Null);
    assert_eq!(view["scores"], json!([100, 0]));
    assert_eq!(view["history"].as_array().unwrap().len(), 5);
    assert!(view["next"].as_array().unwrap().is_empty());
    // Back two moves, forward one, then a different fifth move drops the rest of the history.
    let (_, view) = post(addr, &format!("/api/sessions/{id}/undo"), json!({}));
    let (_, view2) = post(addr, &format!("/api/sessions/{id}/undo"), json!({}));
    assert_eq!((view["cursor"].as_u64(), view2["cursor"].as_u64()), (Some(4), Some(3)));
    assert_eq!(view2["to_move"], "nought");
    let (_, view) = post(addr, &format!("/api/sessions/{id}/redo"), json!({}));
    assert_eq!(view["cursor"], 4);
    let view = mark(addr, id, 8);
    assert_eq!(view["cursor"], 5);
    assert_eq!(view["history"].as_array().unwrap().len(), 5);
    assert_eq!(view["over"], false);
    // The log: the moves in notation, as `rbg play --log` writes them.
    let (status, log) = call(addr, "GET", &format!("/api/sessions/{id}/log"), None);
    assert_eq!(status, 200);
    assert_eq!(log["moves"].as_array().unwrap().len(), 5);
    assert_eq!(log["players"], json!(["cross", "nought"]));
    // Exactly the fields of a record of `rbg play --log`: no agent moved, the game goes on at
    // 50 each, so there is no result yet.
    let mut keys: Vec<&str> = log.as_object().unwrap().keys().map(String::as_str).collect();
    keys.sort_unstable();
    let fields = [
        "agents",
        "engine",
        "error",
        "file",
        "game",
        "index",
        "moves",
        "notation",
        "players",
        "result",
        "scores",
        "seed",
        "termination",
    ];
    assert_eq!(keys, fields);
    assert_eq!(log["file"], "ticTacToe.rbg");
    assert_eq!((log["index"].clone(), log["seed"].clone()), (json!(0), json!(0)));
    assert_eq!(log["agents"], json!([]));
    assert_eq!(log["scores"], json!([50, 50]));
    assert_eq!(log["termination"], "unfinished");
    assert_eq!(log["result"], Value::Null);
    // A move by its notation: nought's mark at cell 6 (rx0y2) and the switch after it, whose
    // action indices the offers tell.
    let mark6 = view["next"].as_array().unwrap().iter().find(|a| a["vertex"] == 6).cloned().unwrap();
    let (_, partial) = post(addr, &format!("/api/sessions/{id}/step"), mark6.clone());
    let switch = partial["next"][0]["index"].clone();
    let (_, cleared) = post(addr, &format!("/api/sessions/{id}/clear"), json!({}));
    assert!(cleared["partial"].as_array().unwrap().is_empty());
    let text = format!("{}@rx0y2 {}@rx0y2", mark6["index"], switch);
    let (status, view) = post(addr, &format!("/api/sessions/{id}/move"), json!({ "move": text }));
    assert_eq!(status, 200, "{view}");
    assert_eq!(view["cursor"], 6);
}

#[test]
fn bad_requests_get_errors_and_change_nothing() {
    let addr = start("bad");
    let view = new_game(addr);
    let id = view["id"].as_u64().unwrap();
    let session = format!("/api/sessions/{id}");
    let cases: Vec<(&str, String, Option<String>, u16)> = vec![
        ("POST", format!("{session}/step"), Some(json!({ "index": 99, "vertex": 0 }).to_string()), 422),
        (
            "POST",
            format!("{session}/step"),
            Some(json!({ "index": 4, "vertex": 4_000_000_000u64 }).to_string()),
            422,
        ),
        ("POST", format!("{session}/step"), Some("{\"index\": -1}".into()), 400),
        ("POST", format!("{session}/step"), Some("not json".into()), 400),
        ("POST", format!("{session}/move"), Some(json!({ "move": "junk" }).to_string()), 400),
        ("POST", format!("{session}/move"), Some(json!({ "move": "4@rx0y0" }).to_string()), 422),
        ("POST", format!("{session}/redo"), None, 422),
        ("POST", format!("{session}/undo"), None, 422),
        ("POST", format!("{session}/agent"), Some(json!({ "agent": "nosuch" }).to_string()), 400),
        (
            "POST",
            format!("{session}/agent"),
            Some(json!({ "agent": "mcts", "iterations": 0 }).to_string()),
            400,
        ),
        (
            "POST",
            format!("{session}/agent"),
            Some(json!({ "agent": "mcts", "time_ms": 99_999_999u64 }).to_string()),
            400,
        ),
        ("POST", format!("{session}/perft"), Some(json!({ "depth": 0 }).to_string()), 400),
        ("POST", format!("{session}/perft"), Some(json!({ "depth": 99 }).to_string()), 400),
        ("POST", format!("{session}/mc"), Some(json!({ "seconds": -1 }).to_string()), 400),
        ("GET", "/api/sessions/99999".into(), None, 404),
        ("GET", "/api/sessions/abc".into(), None, 400),
        ("GET", "/api/jobs/77".into(), None, 404),
        ("GET", "/api/nothing".into(), None, 404),
        ("DELETE", session.clone(), None, 405),
    ];
    for (method, path, body, expected) in cases {
        let (status, answer) = call(addr, method, &path, body.as_deref());
        assert_eq!(status, expected, "{method} {path} {body:?}: {answer}");
        if expected != 405 {
            assert!(answer["error"].is_string(), "{method} {path}: {answer}");
        }
    }
    let (_, after) = call(addr, "GET", &session, None);
    assert_eq!(after["version"], view["version"]);
    assert_eq!(after["cursor"], 0);
    assert!(after["partial"].as_array().unwrap().is_empty());
    // A game file with an error: the loader's message comes back.
    let (status, answer) = post(addr, "/api/sessions", json!({ "game": "broken.rbg" }));
    assert_eq!(status, 422);
    assert!(answer["error"].as_str().unwrap().contains("board"), "{answer}");
}

#[test]
fn only_files_inside_the_games_directory_are_read() {
    let addr = start("paths");
    for name in [
        "../ticTacToe.rbg",
        "/etc/passwd",
        "sub/../../x.rbg",
        "notes.txt",
        "",
        "./ticTacToe.rbg",
        "%2e%2e/x.rbg",
        "sub/../ticTacToe.rbg",
    ] {
        let (status, answer) = post(addr, "/api/sessions", json!({ "game": name }));
        assert!(status == 400 || status == 404, "{name:?}: {status} {answer}");
    }
    // A link inside the directory to a file outside it is refused as well.
    #[cfg(unix)]
    assert_eq!(post(addr, "/api/sessions", json!({ "game": "escape.rbg" })).0, 404);
    // Raw traversal in the URL does not reach a file either.
    let (status, _) = raw(addr, "GET", "/../../etc/passwd", None);
    assert!(status == 400 || status == 404, "{status}");
    assert_eq!(post(addr, "/api/sessions", json!({ "game": "sub/copy.rbg" })).0, 200);
}

#[test]
fn agents_and_jobs_run_without_blocking_other_requests() {
    let addr = start("agents");
    let view = new_game(addr);
    let id = view["id"].as_u64().unwrap();
    let (status, view) = post(
        addr,
        &format!("/api/sessions/{id}/agent"),
        json!({ "agent": "mcts", "iterations": 300, "seed": 3 }),
    );
    assert_eq!(status, 200, "{view}");
    assert_eq!(view["history"].as_array().unwrap().len(), 1);
    assert_eq!(view["to_move"], "nought");
    // Perft from the position after one move: 8, 8·7 and 8·7·6 leaves.
    let (_, job) = post(addr, &format!("/api/sessions/{id}/perft"), json!({ "depth": 3 }));
    let job = job["job"].as_u64().unwrap();
    let progress = wait_for(addr, job);
    let leaves: Vec<u64> =
        progress["perft"].as_array().unwrap().iter().map(|r| r["leaves"].as_u64().unwrap()).collect();
    assert_eq!(leaves, vec![8, 56, 336]);
    // A long Monte Carlo job and a long agent search in another session: meanwhile, this
    // session answers (the searches hold no lock), and the job can be cancelled.
    let other = new_game(addr)["id"].as_u64().unwrap();
    let searching = std::thread::spawn(move || {
        post(addr, &format!("/api/sessions/{other}/agent"), json!({ "agent": "flatmc", "time_ms": 3000 }))
    });
    let (_, mc) = post(addr, &format!("/api/sessions/{id}/mc"), json!({ "seconds": 60 }));
    let mc = mc["job"].as_u64().unwrap();
    let mut answered = 0;
    while answered < 5 {
        assert_eq!(call(addr, "GET", &format!("/api/sessions/{id}"), None).0, 200);
        answered += 1;
    }
    assert!(
        !searching.is_finished(),
        "the agent's 3 s search ended before five quick requests were answered"
    );
    post(addr, &format!("/api/jobs/{mc}/cancel"), json!({}));
    let progress = wait_for(addr, mc);
    assert_eq!(progress["cancelled"], true);
    assert!(progress["playouts"].as_u64().unwrap() > 0);
    let (status, view) = searching.join().unwrap();
    assert_eq!(status, 200, "{view}");
    assert_eq!(view["history"].as_array().unwrap().len(), 1);
}

/// Polls a job until it is done (at most a minute).
fn wait_for(addr: SocketAddr, job: u64) -> Value {
    for _ in 0..3000 {
        let (_, progress) = call(addr, "GET", &format!("/api/jobs/{job}"), None);
        if progress["done"] == true {
            return progress;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    panic!("job {job} did not finish");
}

/// 100 games at once, each played to its end by steps chosen from the server's offers: no
/// move is lost (each history has every move made) and every game ends.
#[test]
fn a_hundred_games_at_once_play_to_the_end() {
    let addr = start("load");
    let players: Vec<_> = (0..100u64)
        .map(|g| {
            std::thread::spawn(move || {
                let mut view = new_game(addr);
                let id = view["id"].as_u64().unwrap();
                let mut moves = 0u64;
                while view["over"] == false {
                    let next = view["next"].as_array().unwrap().clone();
                    let pick = next[((g + moves) % next.len() as u64) as usize].clone();
                    let (status, answer) = post(addr, &format!("/api/sessions/{id}/step"), pick);
                    assert_eq!(status, 200, "{answer}");
                    if answer["cursor"].as_u64() != view["cursor"].as_u64() {
                        moves += 1;
                    }
                    view = answer;
                    assert!(moves <= 9, "tic-tac-toe lasts at most nine moves");
                }
                assert_eq!(view["history"].as_array().unwrap().len() as u64, moves);
                moves
            })
        })
        .collect();
    let total: u64 = players.into_iter().map(|p| p.join().unwrap()).sum();
    // Every game has at least five moves (the first possible line) and at most nine; a game
    // that fills the board is over with nought to move and no move left.
    assert!((500..=900).contains(&total), "{total}");
}

/// While an agent searches, the board is locked: every change is refused with a 409. Stop
/// unlocks it at once, and the stopped search's move, when it comes, is dropped (the answer
/// to its request is a 409); a new game during a search is a new session, which the old
/// search never touches.
#[test]
fn a_stopped_or_outdated_agent_search_never_lands() {
    let addr = start("stale");
    let id = new_game(addr)["id"].as_u64().unwrap();
    let session = format!("/api/sessions/{id}");
    let searching = std::thread::spawn(move || {
        post(addr, &format!("/api/sessions/{id}/agent"), json!({ "agent": "flatmc", "time_ms": 1500 }))
    });
    wait_until(|| call(addr, "GET", &session, None).1["thinking"] == true);
    let (_, view) = call(addr, "GET", &session, None);
    assert!(view["moves"].as_array().unwrap().is_empty(), "no moves offered while the agent thinks");
    for (path, body) in [
        ("step", json!({ "index": 1, "vertex": 0 })),
        ("move", json!({ "move": "1@rx0y0 3@rx0y0" })),
        ("undo", json!({})),
        ("clear", json!({})),
        ("agent", json!({ "agent": "random" })),
    ] {
        let (status, answer) = post(addr, &format!("{session}/{path}"), body);
        assert_eq!(status, 409, "{path} during the search: {answer}");
    }
    // A new game meanwhile is another session, free to play.
    let other = new_game(addr)["id"].as_u64().unwrap();
    assert_ne!(other, id);
    mark(addr, other, 4);
    // Stop: the board is open again; cross moves by hand in the centre.
    let (status, view) = post(addr, &format!("{session}/stop"), json!({}));
    assert_eq!((status, view["thinking"].clone()), (200, json!(false)));
    let view = mark(addr, id, 4);
    assert_eq!(view["history"].as_array().unwrap().len(), 1);
    let (status, answer) = searching.join().unwrap();
    assert_eq!(status, 409, "{answer}");
    // The late answer changed nothing: one move (ours) in this game, one in the other.
    let (_, view) = call(addr, "GET", &session, None);
    assert_eq!(view["history"].as_array().unwrap().len(), 1);
    assert_eq!(view["notation"], json!(["X@b2"]));
    let (_, view) = call(addr, "GET", &format!("/api/sessions/{other}"), None);
    assert_eq!(view["history"].as_array().unwrap().len(), 1);
    // Stopping when nothing runs is harmless.
    assert_eq!(post(addr, &format!("{session}/stop"), json!({})).0, 200);
}

/// Perft of breakthrough to depth 6 (minutes) stops within a fraction of a second of the
/// cancel; the depths finished before it are the reference counts.
#[test]
fn perft_is_cancelled_within_a_fraction_of_a_second() {
    let addr = start("cancel");
    let (status, view) = post(addr, "/api/sessions", json!({ "game": "breakthrough.rbg" }));
    assert_eq!(status, 200, "{view}");
    let id = view["id"].as_u64().unwrap();
    let (_, job) = post(addr, &format!("/api/sessions/{id}/perft"), json!({ "depth": 6 }));
    let job = job["job"].as_u64().unwrap();
    // Cancel once depth 4 is done (depth 5 is then running).
    wait_until(|| {
        call(addr, "GET", &format!("/api/jobs/{job}"), None).1["perft"].as_array().unwrap().len() >= 4
    });
    std::thread::sleep(Duration::from_millis(300));
    let cancelled = std::time::Instant::now();
    post(addr, &format!("/api/jobs/{job}/cancel"), json!({}));
    let progress = wait_for(addr, job);
    let latency = cancelled.elapsed();
    eprintln!("perft cancelled after {} ms", latency.as_millis());
    assert!(latency < Duration::from_secs(1), "the cancel took {latency:?}");
    assert_eq!(progress["cancelled"], true);
    // Leaves by depth, from the reference table (conformance/reference-perft.csv).
    let leaves: Vec<u64> =
        progress["perft"].as_array().unwrap().iter().map(|r| r["leaves"].as_u64().unwrap()).collect();
    assert_eq!(leaves[..4], [22, 484, 11132, 256036]);
    assert!(leaves.len() == 4, "depth 5 ended before the cancel: {leaves:?}");
}

/// A session can start from moves (a log's pair notation, or the page's move numbers) and
/// a cursor; the view names every move in human notation; a bad move is refused.
#[test]
fn sessions_start_from_moves_and_write_human_notation() {
    let addr = start("replay");
    // Cells 0 1 2 / 3 4 5 / 6 7 8 are a3 b3 c3 / a2 b2 c2 / a1 b1 c1 (a1 bottom left); the
    // marks are the pieces X (cross) and O (nought); the switch after a mark is its index + 1.
    let first = new_game(addr);
    let at = |v: u32| {
        first["next"].as_array().unwrap().iter().find(|a| a["vertex"] == v).unwrap()["index"].clone()
    };
    let cross = at(0);
    let text = format!("{}@rx0y0 {}@rx0y0", cross, cross.as_u64().unwrap() + 1);
    let (status, view) =
        post(addr, "/api/sessions", json!({ "game": "ticTacToe.rbg", "moves": [text], "cursor": 0 }));
    assert_eq!(status, 200, "{view}");
    assert_eq!((view["cursor"].clone(), view["notation"].clone()), (json!(0), json!(["X@a3"])));
    // Move numbers: cross's ninth move (c1), nought's first (a3).
    let (status, view) = post(addr, "/api/sessions", json!({ "game": "ticTacToe.rbg", "ordinals": [8, 0] }));
    assert_eq!(status, 200, "{view}");
    assert_eq!(view["notation"], json!(["X@c1", "O@a3"]));
    assert_eq!(view["ordinals"], json!([8, 0]));
    for (body, expected) in [
        (json!({ "game": "ticTacToe.rbg", "ordinals": [9] }), 422),
        (json!({ "game": "ticTacToe.rbg", "moves": ["junk"] }), 400),
        (json!({ "game": "ticTacToe.rbg", "moves": [text.clone(), text.clone()] }), 422),
    ] {
        let (status, answer) = post(addr, "/api/sessions", body.clone());
        assert_eq!(status, expected, "{body}: {answer}");
    }
    // Thumbnails: an SVG picture of the initial position; bad names are refused.
    let (status, svg) = raw(addr, "GET", "/api/thumbnail/sub/copy.rbg", None);
    assert_eq!(status, 200);
    assert!(svg.contains("<svg") && svg.contains("cell-8"), "{svg}");
    assert_eq!(raw(addr, "GET", "/api/thumbnail/nothing.rbg", None).0, 404);
    assert_eq!(raw(addr, "GET", "/api/thumbnail/notes.txt", None).0, 400);
    // The agent's view: the root's moves with visits.
    let id = view["id"].as_u64().unwrap();
    let (status, analysis) = post(
        addr,
        &format!("/api/sessions/{id}/analyse"),
        json!({ "agent": "mcts", "iterations": 200, "seed": 1 }),
    );
    assert_eq!(status, 200, "{analysis}");
    let moves = analysis["moves"].as_array().unwrap();
    // Seven empty cells, each a root move of the tree (200 iterations visit them all).
    assert_eq!(moves.len(), 7, "{analysis}");
    let visits: Vec<u64> = moves.iter().map(|m| m["visits"].as_u64().unwrap()).collect();
    assert!(visits.windows(2).all(|w| w[0] >= w[1]), "most visited first: {visits:?}");
    assert_eq!(visits.iter().sum::<u64>(), 200, "every iteration passes through one root move");
}

/// Polls `ready` every 20 ms for up to a minute.
fn wait_until(mut ready: impl FnMut() -> bool) {
    for _ in 0..3000 {
        if ready() {
            return;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    panic!("timed out");
}

/// The template of a new game (the page's "New"), as the server sends it.
fn template(addr: SocketAddr) -> String {
    let (status, answer) = call(addr, "GET", "/api/template", None);
    assert_eq!(status, 200, "{answer}");
    answer["text"].as_str().unwrap().to_string()
}

/// The template with a fourth column (12 cells instead of 9).
fn four_columns(text: &str) -> String {
    let wider = text.replace("[empty, empty, empty]", "[empty, empty, empty, empty]");
    assert_ne!(wider, text);
    wider
}

#[test]
fn the_editor_checks_previews_and_plays_a_text() {
    let addr = start("editor");
    let text = template(addr);
    // The template is a valid game: no errors.
    let (status, answer) = post(addr, "/api/check", json!({ "text": text }));
    assert_eq!(status, 200, "{answer}");
    assert_eq!((answer["valid"].as_bool(), answer["errors"].as_u64()), (Some(true), Some(0)), "{answer}");

    // A misspelt piece after a line with non-ASCII characters: marked where it is written, in
    // UTF-16 units and lines from 1, with the declared name as a quick fix.
    let broken = format!("// Tic-tac-toe à la 𝄞\n{}", text.replacen("{empty} [stone]", "{emty} [stone]", 1));
    let at = broken.find("emty").unwrap();
    let (from, line) =
        (broken[..at].encode_utf16().count() as u64, broken[..at].matches('\n').count() as u64 + 1);
    assert_ne!(from, at as u64, "the test needs characters of several bytes before the error");
    let (status, answer) = post(addr, "/api/check", json!({ "text": broken, "name": "mine.rbg" }));
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["valid"], false);
    let marked = answer["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["severity"] == "error" && d["range"]["from"] == from)
        .unwrap_or_else(|| panic!("no error at {from}: {answer}"));
    assert_eq!(marked["range"]["to"], from + 4);
    assert_eq!(marked["range"]["line"], line);
    let fixed = marked["fixes"].as_array().unwrap().iter().any(|f| f["edits"][0]["text"] == "empty");
    assert!(fixed, "{marked}");

    // The preview draws the initial position: 9 cells, then 12 with a fourth column.
    let (status, answer) = post(addr, "/api/preview", json!({ "text": text }));
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["vertices"], 9);
    let svg = answer["svg"].as_str().unwrap();
    assert!(svg.contains("id=\"cell-8\"") && !svg.contains("id=\"cell-9\""));
    let wider = four_columns(&text);
    let (status, answer) = post(addr, "/api/preview", json!({ "text": wider, "name": "wide.rbg" }));
    assert_eq!((status, answer["vertices"].as_u64()), (200, Some(12)), "{answer}");
    // An invalid text has no picture: its first error, with its place.
    let (status, answer) = post(addr, "/api/preview", json!({ "text": broken, "name": "mine.rbg" }));
    assert_eq!(status, 422, "{answer}");
    assert!(answer["error"].as_str().unwrap().contains(&format!("mine.rbg:{line}:")), "{answer}");

    // A session from the edited text, saved nowhere: 12 cells to play, and a move by steps.
    let (status, view) = post(addr, "/api/sessions", json!({ "source": wider, "name": "wide.rbg" }));
    assert_eq!(status, 200, "{view}");
    assert_eq!(view["game"], "wide.rbg");
    assert_eq!(view["next"].as_array().unwrap().len(), 12);
    let id = view["id"].as_u64().unwrap();
    let view = mark(addr, id, 11);
    assert_eq!((view["history"].as_array().unwrap().len(), view["to_move"].as_str()), (1, Some("black")));
    assert!(!games_dir_path("editor").join("wide.rbg").exists());
}

fn games_dir_path(tag: &str) -> PathBuf {
    std::env::temp_dir().join(format!("rbg-serve-test-{tag}-{}", std::process::id()))
}

#[test]
fn bad_editor_requests_get_errors_and_the_server_keeps_serving() {
    let addr = start("editor-bad");
    let text = template(addr);
    let huge = "/".repeat(1_500_000);
    for route in ["/api/check", "/api/preview"] {
        assert_eq!(post(addr, route, json!({ "text": huge })).0, 413, "{route}");
        assert_eq!(post(addr, route, json!({ "text": "#players = a\u{0}(1)" })).0, 400, "{route}");
        assert_eq!(post(addr, route, json!({ "text": text, "name": "../x.rbg" })).0, 400, "{route}");
        assert_eq!(post(addr, route, json!({ "text": text, "name": "x.txt" })).0, 400, "{route}");
        assert_eq!(post(addr, route, json!({ "name": "x.rbg" })).0, 400, "{route}");
        assert_eq!(raw(addr, "POST", route, Some("\u{1}\u{2}not json")).0, 400, "{route}");
    }
    // Bodies beyond the server's limit are refused before they are read as JSON.
    assert_eq!(post(addr, "/api/check", json!({ "text": "x".repeat(3_000_000) })).0, 413);
    // Sessions: exactly one of a file and a text; an invalid text is unprocessable.
    assert_eq!(post(addr, "/api/sessions", json!({})).0, 400);
    assert_eq!(post(addr, "/api/sessions", json!({ "game": "ticTacToe.rbg", "source": text })).0, 400);
    assert_eq!(post(addr, "/api/sessions", json!({ "source": "#rules = [" })).0, 422);
    assert_eq!(post(addr, "/api/sessions", json!({ "source": huge })).0, 413);

    // Saving: only plain names of game files in existing folders inside the directory.
    let dir = games_dir_path("editor-bad");
    let before = std::fs::read_to_string(dir.join("ticTacToe.rbg")).unwrap();
    let outside = std::fs::read_link(dir.join("escape.rbg")).ok();
    for (name, status) in [
        ("../up.rbg", 400),
        ("/tmp/abs.rbg", 400),
        ("sub/../../up.rbg", 400),
        ("notes.txt", 400),
        ("game.rbg.txt", 400),
        ("missing/x.rbg", 404),
        ("ticTacToe.rbg", 409),
    ] {
        let (got, answer) = post(addr, "/api/files", json!({ "name": name, "text": text }));
        assert_eq!(got, status, "{name}: {answer}");
    }
    assert!(!dir.join("../up.rbg").exists() && !Path::new("/tmp/abs.rbg").exists());
    assert_eq!(std::fs::read_to_string(dir.join("ticTacToe.rbg")).unwrap(), before);
    // A link is never written through, even when overwriting is asked for.
    #[cfg(unix)]
    {
        let (got, _) =
            post(addr, "/api/files", json!({ "name": "escape.rbg", "text": "x", "overwrite": true }));
        assert_eq!(got, 409);
        assert_eq!(std::fs::read_to_string(outside.unwrap()).unwrap(), before);
    }
    assert_eq!(post(addr, "/api/files", json!({ "name": "big.rbg", "text": huge })).0, 413);

    // A new file, listed and read back; replaced only with `overwrite`.
    let (got, answer) = post(addr, "/api/files", json!({ "name": "sub/mine.rbg", "text": text }));
    assert_eq!((got, answer["saved"].as_str()), (200, Some("sub/mine.rbg")), "{answer}");
    assert_eq!(std::fs::read_to_string(dir.join("sub/mine.rbg")).unwrap(), text);
    let (_, games) = call(addr, "GET", "/api/games", None);
    assert!(games["games"].as_array().unwrap().iter().any(|g| g == "sub/mine.rbg"), "{games}");
    let (got, source) = call(addr, "GET", "/api/files/sub/mine.rbg", None);
    assert_eq!((got, source["text"].as_str()), (200, Some(text.as_str())));
    let wider = four_columns(&text);
    assert_eq!(post(addr, "/api/files", json!({ "name": "sub/mine.rbg", "text": wider })).0, 409);
    let overwrite = json!({ "name": "sub/mine.rbg", "text": wider, "overwrite": true });
    assert_eq!(post(addr, "/api/files", overwrite).0, 200);
    assert_eq!(std::fs::read_to_string(dir.join("sub/mine.rbg")).unwrap(), wider);
    // Reading sources: only files inside the directory.
    assert_eq!(call(addr, "GET", "/api/files/escape.rbg", None).0, 404);
    assert_eq!(call(addr, "GET", "/api/files/notes.txt", None).0, 400);
    assert_eq!(call(addr, "GET", "/api/files/..%2Fx.rbg", None).0 / 100, 4);

    // Still serving.
    assert_eq!(call(addr, "GET", "/api/games", None).0, 200);
    assert_eq!(post(addr, "/api/check", json!({ "text": text })).0, 200);
}

/// Plays the move of session `id` from square `from` to square `to` (chess-style labels),
/// found among the view's legal moves by its click path; the view after it.
fn play_from_to(addr: SocketAddr, id: u64, from: &str, to: &str) -> Value {
    let (_, view) = call(addr, "GET", &format!("/api/sessions/{id}"), None);
    let labels: Vec<&str> = view["labels"].as_array().unwrap().iter().map(|l| l.as_str().unwrap()).collect();
    let square = |name: &str| labels.iter().position(|l| *l == name).unwrap() as u64;
    let path = json!([square(from), square(to)]);
    let mv = view["moves"].as_array().unwrap().iter().find(|m| m["path"] == path);
    let mv = mv.unwrap_or_else(|| panic!("no move {from}-{to}: {}", view["moves"]));
    let (status, view) = post(addr, &format!("/api/sessions/{id}/move"), json!({ "move": mv["actions"] }));
    assert_eq!(status, 200, "{view}");
    view
}

/// Check in Gardner minichess (5x5: R N B Q K on rows 1 and 5, pawns on rows 2 and 4), by
/// hand: after 1. Nb1-a3 the white knight can take the black knight on b5 and the pawn on c4,
/// neither royal, so Black is not in check; after 1... b4-b3 2. Na3xc4 the knight attacks the
/// black king on e5 (two files right, one row up): check, on e5 alone. White is never in check
/// meanwhile.
#[test]
fn check_marks_the_royal_piece_the_opponent_could_take() {
    let addr = start("check");
    let (status, view) = post(addr, "/api/sessions", json!({ "game": "chessGardner.rbg" }));
    assert_eq!(status, 200, "{view}");
    let id = view["id"].as_u64().unwrap();
    assert_eq!(view["check"], json!([]), "the first position");
    let e5 = view["labels"].as_array().unwrap().iter().position(|l| l == "e5").unwrap();
    let view = play_from_to(addr, id, "b1", "a3");
    assert_eq!(view["check"], json!([]), "a quiet position with captures of plain pieces");
    let view = play_from_to(addr, id, "b4", "b3");
    assert_eq!(view["check"], json!([]), "White is not in check");
    let view = play_from_to(addr, id, "a3", "c4");
    assert_eq!(view["check"], json!([e5]), "the black king on e5 is in check");
    // The move that gives check ends in `+`; white moved first and third.
    assert_eq!(view["notation"], json!(["Nb1-a3", "b4-b3", "Na3xc4+"]));
    assert_eq!(view["movers"], json!([1, 2, 1]));
    // Back one move: no check again.
    let (_, view) = post(addr, &format!("/api/sessions/{id}/undo"), json!({}));
    assert_eq!(view["check"], json!([]));
}

/// Stop ends the agent's search at once, not when its time is up: a 4-second MCTS search of
/// breakthrough answers (409: its move dropped) within a fraction of a second of the stop.
#[test]
fn a_stopped_agent_search_ends_promptly() {
    let addr = start("stop");
    let (status, view) = post(addr, "/api/sessions", json!({ "game": "breakthrough.rbg" }));
    assert_eq!(status, 200, "{view}");
    let id = view["id"].as_u64().unwrap();
    let session = format!("/api/sessions/{id}");
    let (tx, ended) = std::sync::mpsc::channel();
    let searching = std::thread::spawn(move || {
        let answer =
            post(addr, &format!("/api/sessions/{id}/agent"), json!({ "agent": "mcts", "time_ms": 4000 }));
        tx.send(std::time::Instant::now()).unwrap();
        answer
    });
    wait_until(|| call(addr, "GET", &session, None).1["thinking"] == true);
    std::thread::sleep(Duration::from_millis(300));
    let stopped = std::time::Instant::now();
    let (status, _) = post(addr, &format!("{session}/stop"), json!({}));
    assert_eq!(status, 200);
    let end = ended.recv_timeout(Duration::from_secs(10)).expect("the search did not end");
    let latency = end.saturating_duration_since(stopped);
    eprintln!("the agent's search ended {} ms after the stop", latency.as_millis());
    assert!(latency < Duration::from_millis(250), "the search ran on for {latency:?}");
    let (status, answer) = searching.join().unwrap();
    assert_eq!(status, 409, "{answer}");
    let (_, view) = call(addr, "GET", &session, None);
    assert_eq!(view["history"], json!([]), "the stopped search's move did not land");
}

/// The analysis of a game by self-play as a job: tic-tac-toe under full-depth alpha-beta is
/// all draws (the game is a draw with perfect play), and a draw fills the board, so every game
/// is 9 plies; perfect play never loses, so against random it scores at least one half.
#[test]
fn the_game_analysis_runs_as_a_job_with_its_measures_and_charts() {
    let addr = start("analysis");
    let id = new_game(addr)["id"].as_u64().unwrap();
    let path = format!("/api/sessions/{id}/game-analysis");
    for bad in [
        json!({ "games": 0 }),
        json!({ "games": 1_000_000 }),
        json!({ "games": 4, "agent": "nonsense" }),
        json!({ "games": 4, "agent": "mcts:iterations=99999999" }),
        json!({ "games": 4, "max_moves": 0 }),
        json!({ "agent": "random" }),
    ] {
        let (status, answer) = post(addr, &path, bad.clone());
        assert_eq!(status, 400, "{bad}: {answer}");
    }
    let request = json!({ "games": 4, "agent": "alphabeta:depth=9", "strength_games": 4, "seed": 3 });
    let (status, job) = post(addr, &path, request);
    assert_eq!(status, 200, "{job}");
    let progress = wait_for(addr, job["job"].as_u64().unwrap());
    assert_eq!((progress["error"].clone(), progress["cancelled"].clone()), (Value::Null, json!(false)));
    let rows = progress["analysis"]["rows"].as_array().unwrap();
    let row =
        |name: &str| rows.iter().find(|r| r["measure"] == name).unwrap_or_else(|| panic!("{name}: {rows:?}"));
    assert_eq!(row("draws")["value"], json!(1.0));
    assert_eq!(row("completion")["value"], json!(1.0));
    assert_eq!(row("duration: fewest plies")["value"], json!(9.0));
    assert_eq!(row("duration: most plies")["value"], json!(9.0));
    let strong = rows.iter().find(|r| r["measure"].as_str().unwrap().starts_with("strength: score")).unwrap();
    assert!(strong["value"].as_f64().unwrap() >= 0.5, "{strong}");
    let charts = progress["analysis"]["charts"].as_str().unwrap();
    assert!(charts.matches("<svg").count() >= 3, "win rates, lengths, branching: {charts}");
}

/// Cancelling an analysis of breakthrough (a thousand MCTS games: minutes) ends it within a
/// fraction of a second, without a result.
#[test]
fn a_cancelled_game_analysis_ends_promptly() {
    let addr = start("analysis-cancel");
    let (_, view) = post(addr, "/api/sessions", json!({ "game": "breakthrough.rbg" }));
    let id = view["id"].as_u64().unwrap();
    let request = json!({ "games": 1000, "agent": "mcts:iterations=1000" });
    let (status, job) = post(addr, &format!("/api/sessions/{id}/game-analysis"), request);
    assert_eq!(status, 200, "{job}");
    let job = job["job"].as_u64().unwrap();
    wait_until(|| call(addr, "GET", &format!("/api/jobs/{job}"), None).1["stage"] == "self-play");
    std::thread::sleep(Duration::from_millis(300));
    let cancelled = std::time::Instant::now();
    post(addr, &format!("/api/jobs/{job}/cancel"), json!({}));
    let progress = wait_for(addr, job);
    let latency = cancelled.elapsed();
    eprintln!("analysis cancelled after {} ms", latency.as_millis());
    assert!(latency < Duration::from_secs(1), "the cancel took {latency:?}");
    assert_eq!((progress["cancelled"].clone(), progress["analysis"].clone()), (json!(true), Value::Null));
}

/// The sorted names of the points the offered moves' click paths end at.
fn path_ends(view: &Value) -> Vec<String> {
    let names = view["vertices"].as_array().unwrap();
    let mut ends: Vec<String> = view["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            let last = m["path"].as_array().unwrap().last().unwrap_or_else(|| panic!("a path: {m}"));
            names[last.as_u64().unwrap() as usize].as_str().unwrap().to_string()
        })
        .collect();
    ends.sort();
    ends
}

/// The sorted names of the points around `[x, y]` one `step` away (8 directions), leaving out
/// `except`.
fn points_around([x, y]: [i64; 2], step: i64, except: &[[i64; 2]]) -> Vec<String> {
    let mut out = Vec::new();
    for dx in [-step, 0, step] {
        for dy in [-step, 0, step] {
            let p = [x + dx, y + dy];
            if (dx, dy) != (0, 0) && !except.contains(&p) {
                out.push(format!("rx{}y{}", p[0], p[1]));
            }
        }
    }
    out.sort();
    out
}

/// Paper soccer is clicked at the points the ball goes to. By hand from the corpus file: the
/// board is 31 squares wide (five triplets, the goal column, five triplets) and 37 high; the
/// points are every 3rd square (each triplet's mark; rows 0, 3, ..., 36) and the two squares
/// between neighbouring points encode the line between them. The ball starts on the centre
/// spot (column 15, row 18); every line around it is free, and arriving on a point with no
/// drawn line ends the move, so the first player's 8 moves end at the 8 points around it.
#[test]
fn paper_soccer_moves_are_clicked_at_the_points_the_ball_goes_to() {
    let source = rbg_testdata::corpus_dir().join("paperSoccer.rbg");
    if !rbg_testdata::available(&[&source]) {
        return;
    }
    let addr = start("pitch");
    std::fs::copy(&source, games_dir_path("pitch").join("paperSoccer.rbg")).unwrap();
    let (status, view) = post(addr, "/api/sessions", json!({ "game": "paperSoccer.rbg" }));
    assert_eq!(status, 200, "{view}");
    let moves = view["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 8, "{view}");
    assert!(moves.iter().all(|m| m["path"].as_array().unwrap().len() == 1), "{moves:?}");
    assert_eq!(path_ends(&view), points_around([15, 18], 3, &[]));
    // Click the point right of the centre: one move has that path; play it.
    let names: Vec<&str> = view["vertices"].as_array().unwrap().iter().map(|n| n.as_str().unwrap()).collect();
    let right = names.iter().position(|n| *n == "rx18y18").unwrap() as u64;
    let clicked: Vec<&Value> = moves.iter().filter(|m| m["path"] == json!([right])).collect();
    assert_eq!(clicked.len(), 1);
    let id = view["id"].as_u64().unwrap();
    let (status, after) =
        post(addr, &format!("/api/sessions/{id}/move"), json!({ "move": clicked[0]["actions"] }));
    assert_eq!(status, 200, "{after}");
    assert_eq!((after["cursor"].as_u64(), after["to_move"].as_str()), (Some(1), Some("black")));
    // Written as the point the ball went to, by the name players read.
    assert_eq!(after["notation"], json!([after["labels"][right as usize]]));
    // Black's ball is on that point; the line back to the centre is drawn, so 7 points.
    assert_eq!(path_ends(&after), points_around([18, 18], 3, &[[15, 18]]));
    // Black to the point above the centre (a free diagonal). There the ball meets no drawn line,
    // so the move ends. White then has 7 lines from it (not the one just drawn): 6 moves end
    // on their point; the 7th reaches the centre, where lines are drawn, so the ball goes on
    // (a bounce) along one of the centre's 6 free lines (not the two drawn): 12 paths in all.
    let up = names.iter().position(|n| *n == "rx15y15").unwrap() as u64;
    let mv = after["moves"].as_array().unwrap().iter().find(|m| m["path"] == json!([up])).cloned().unwrap();
    let (status, again) = post(addr, &format!("/api/sessions/{id}/move"), json!({ "move": mv["actions"] }));
    assert_eq!(status, 200, "{again}");
    assert_eq!(again["to_move"].as_str(), Some("white"));
    let name_path = |m: &Value| -> Vec<String> {
        m["path"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| names[v.as_u64().unwrap() as usize].to_string())
            .collect()
    };
    let mut paths: Vec<Vec<String>> = again["moves"].as_array().unwrap().iter().map(name_path).collect();
    paths.sort();
    let centre = "rx15y18".to_string();
    let mut expected: Vec<Vec<String>> = points_around([15, 15], 3, &[[18, 18], [15, 18]])
        .into_iter()
        .map(|p| vec![p])
        .chain(points_around([15, 18], 3, &[[18, 18], [15, 15]]).into_iter().map(|p| vec![centre.clone(), p]))
        .collect();
    expected.sort();
    assert_eq!(paths, expected);
    // Clicking the centre leaves the 6 bounces; clicking on to (12, 21) plays one.
    let corner = names.iter().position(|n| *n == "rx12y21").unwrap() as u64;
    let centre_id = names.iter().position(|n| *n == "rx15y18").unwrap() as u64;
    let mv =
        again["moves"].as_array().unwrap().iter().find(|m| m["path"] == json!([centre_id, corner])).cloned();
    let (status, last) =
        post(addr, &format!("/api/sessions/{id}/move"), json!({ "move": mv.unwrap()["actions"] }));
    assert_eq!(status, 200, "{last}");
    assert_eq!((last["cursor"].as_u64(), last["to_move"].as_str()), (Some(3), Some("black")));
}

/// With background builds on, a session of a file starts on the interpreter, says it is
/// building, and switches when the (stand-in) build is ready: the moves played meanwhile are
/// kept, the badge's facts say "compiled", and play goes on. A server made by `router` builds
/// nothing.
#[test]
fn every_session_switches_to_its_background_build() {
    let stand_in: rbg_serve::Builder = Arc::new(|name: &str, text: &str| {
        std::thread::sleep(Duration::from_millis(300));
        let game = rbg_parser::parse(name, text.as_bytes()).game.ok_or("no game")?;
        Interpreter::new(&game, "game", InterpOptions::default()).map(AnyGame::new).map_err(|e| e.to_string())
    });
    let addr = start_with("builds", Some(stand_in));
    let view = new_game(addr);
    let id = view["id"].as_u64().unwrap();
    assert_eq!(view["engine"]["build"], "building", "{}", view["engine"]);
    assert_eq!(view["engine"]["engine"], "interpreter");
    mark(addr, id, 0);
    let before = mark(addr, id, 4);
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    let switched = loop {
        let (status, view) = call(addr, "GET", &format!("/api/sessions/{id}"), None);
        assert_eq!(status, 200, "{view}");
        if view["engine"]["build"] != "building" || std::time::Instant::now() > deadline {
            break view;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    assert_eq!(
        switched["engine"],
        json!({"engine": "compiled", "build": "ready", "seconds": 0, "message": null})
    );
    assert_eq!(switched["history"], before["history"], "the moves played on the interpreter are kept");
    assert!(switched["version"].as_u64() > before["version"].as_u64());
    let after = mark(addr, id, 8);
    assert_eq!(after["history"].as_array().map(Vec::len), Some(3));
    // Nothing is built by a server without background builds.
    let plain = new_game(start("no-builds"));
    assert_eq!(plain["engine"]["build"], "none");
}
