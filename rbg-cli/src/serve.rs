//! `rbg serve [DIR]`: the local web page and JSON API of rbg-serve over the games in DIR. Games
//! are read by the same code as every other command (RBG or SBG files) into the interpreter.

use std::net::{IpAddr, SocketAddr};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rbg_core::dynamic::AnyGame;
use rbg_interp::{InterpOptions, Interpreter};

use crate::load::{game_name, parse_file};
use crate::{say, Failure};

#[derive(clap::Args)]
pub struct ServeArgs {
    /// The games directory (only files inside it are read).
    #[arg(default_value = "games")]
    dir: PathBuf,
    /// The port to listen on (0: any free port, printed).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// The address to listen on. The default serves this machine only; another address makes
    /// the games and the server's CPU available to the network.
    #[arg(long, default_value = "127.0.0.1")]
    bind: IpAddr,
}

/// Reads a game file into the interpreter; parse errors become one text, `file:line:col:
/// error: message` each.
fn load_game(path: &Path) -> Result<AnyGame, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let parsed = parse_file(path, bytes);
    let Some(game) = parsed.game else {
        return Err(rbg_sbg::file::errors_text(&parsed.source, &parsed.diagnostics));
    };
    let interp = Interpreter::new(&game, &game_name(path), InterpOptions::default())
        .map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(AnyGame::new(interp))
}

pub fn run(args: &ServeArgs) -> Result<(), Failure> {
    if !args.dir.is_dir() {
        return Err(Failure::new(format!("{} is not a directory", args.dir.display())));
    }
    let config = rbg_serve::Config::new(&args.dir);
    let router = rbg_serve::router(config, Arc::new(load_game));
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| Failure::new(format!("cannot start the server: {e}")))?;
    runtime.block_on(async {
        let address = SocketAddr::new(args.bind, args.port);
        let listener = tokio::net::TcpListener::bind(address)
            .await
            .map_err(|e| Failure::new(format!("cannot listen on {address}: {e}")))?;
        let bound = listener.local_addr().map_err(|e| Failure::new(e.to_string()))?;
        say!("serving {} on http://{bound}/ (Ctrl-C stops)", args.dir.display());
        rbg_serve::serve(listener, router).await.map_err(|e| Failure::new(format!("the server stopped: {e}")))
    })
}
