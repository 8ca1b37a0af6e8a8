//! `rbg serve [DIR]`: the local web page and JSON API of rbg-serve over the games in DIR. Games
//! are opened by [`rbg::open`], as by every other command (RBG or SBG files), with the engine
//! of `--engine`: by default the interpreter with the compiled reasoner built in the background
//! for every session (rbg-serve switches the session when it is ready), the interpreter alone,
//! or the compiled reasoner (built on first use of a game, with cargo's output captured into
//! the error should the build fail). The thumbnails of the game
//! library are always drawn with the interpreter. The page is described in docs/studio.md.

use std::net::{IpAddr, SocketAddr};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rbg::compile::{BuildSettings, CargoOutput};
use rbg::open::{Engine, OpenOptions};
use rbg_core::dynamic::AnyGame;

use crate::compile::build_settings;
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
    /// The engine that runs the games. auto: the interpreter plays at once while each game's
    /// compiled engine builds in the background (cargo at low priority; cached), and takes
    /// over when ready, the moves so far replayed (the interpreter alone when cargo is not
    /// found). compiled: each game is built when opened, before the first move.
    #[arg(long, value_enum, default_value_t)]
    engine: ServeEngine,
}

/// The engines `rbg serve` offers.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ServeEngine {
    #[default]
    Auto,
    #[value(alias = "interp")]
    Interpreter,
    Compiled,
}

/// How the server opens games: the chosen engine; a build's cargo output captured (requests
/// are served concurrently, and a failed build's output belongs in its answer).
fn open_options(engine: ServeEngine) -> OpenOptions {
    let engine = match engine {
        ServeEngine::Auto | ServeEngine::Interpreter => Engine::Interpreter,
        ServeEngine::Compiled => Engine::Compiled,
    };
    let mut options = OpenOptions::new(engine);
    options.build = BuildSettings { cargo_output: CargoOutput::Capture, ..build_settings() };
    options
}

/// Opens a game file; errors become one text (`file:line:col: error: message` for each error
/// of the description).
fn load_game(path: &Path, options: &OpenOptions) -> Result<AnyGame, String> {
    rbg::open(path, options).map(|opened| opened.game).map_err(|e| e.to_string())
}

pub fn run(args: &ServeArgs) -> Result<(), Failure> {
    if !args.dir.is_dir() {
        return Err(Failure::new(format!("{} is not a directory", args.dir.display())));
    }
    let mut config = rbg_serve::Config::new(&args.dir);
    let cargo_missing = args.engine == ServeEngine::Auto && !cargo_runs();
    config.compile_in_background = args.engine == ServeEngine::Auto && !cargo_missing;
    let options = open_options(args.engine);
    // Thumbnails of the library are drawn with the interpreter: listing builds nothing.
    let preview = open_options(ServeEngine::Interpreter);
    // Background builds (auto) go through the same cache and settings as `--engine compiled`.
    let builder = rbg::background::compiling(&open_options(ServeEngine::Compiled));
    let router = rbg_serve::router_with_builds(
        config,
        Arc::new(move |path: &Path| load_game(path, &options)),
        Arc::new(move |path: &Path| load_game(path, &preview)),
        builder,
    );
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
        if cargo_missing {
            say!("note: cargo was not found: the interpreter plays every game (no compiled engines)");
        }
        rbg_serve::serve(listener, router).await.map_err(|e| Failure::new(format!("the server stopped: {e}")))
    })
}

/// Whether cargo (`$CARGO`, else `cargo` on the path) runs: the background builds need it.
fn cargo_runs() -> bool {
    let cargo = std::env::var_os("CARGO").filter(|c| !c.is_empty()).unwrap_or_else(|| "cargo".into());
    std::process::Command::new(cargo)
        .arg("--version")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|status| status.success())
}
