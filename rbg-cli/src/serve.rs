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

use rbg::background::cargo_runs;
use rbg::compile::CargoOutput;
use rbg::open::OpenOptions;
use rbg_core::dynamic::AnyGame;

use crate::compile::CompileFlags;
use crate::engine_choice::{offered, open_options, EngineChoice, EngineSet, Switching};
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
    /// The engine that runs each game opened (a file of the library or an edited text).
    #[arg(long, value_parser = offered(Switching::OFFERED), default_value = Switching::DEFAULT)]
    engine: EngineChoice,
}

/// How the server opens games: the chosen engine; a build's cargo output captured (requests
/// are served concurrently, and a failed build's output belongs in its answer).
fn serve_options(engine: EngineChoice) -> OpenOptions {
    let mut options = open_options(engine, &CompileFlags::default());
    options.build.cargo_output = CargoOutput::Capture;
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
    let options = serve_options(args.engine);
    let cargo_missing = args.engine == EngineChoice::Auto && !cargo_runs(&options.build);
    config.compile_in_background = args.engine == EngineChoice::Auto && !cargo_missing;
    // Thumbnails of the library are drawn with the interpreter: listing builds nothing.
    let preview = serve_options(EngineChoice::Interp);
    // Background builds (auto) go through the same cache and settings as `--engine compiled`.
    let builder = rbg::background::compiling(&options);
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
