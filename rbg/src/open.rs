//! Opening a game file with a chosen engine: the one way every front end reads games.
//!
//! A file is RBG or Simplified Boardgames (SBG), told apart by extension or content
//! ([`rbg_sbg::file::language`]); an SBG game is read through its RBG translation, whose
//! diagnostics point at the SBG source. Opening is two steps, each available alone:
//! [`read_game`] (or [`parse_game`] on bytes already in memory) parses the file into a
//! [`GameFile`], and [`GameFile::open`] builds an engine for it; [`open`] and [`open_bytes`]
//! do both. The engines are the interpreter, the compiled reasoner (built through the
//! [cache](crate::compile) and loaded into this process) and the direct SBG reasoner.
//!
//! Nothing is printed: every failure is an [`OpenError`], whose `Display` gives plain
//! `file:line:col: error: message` lines and whose variants keep the data (paths, error kinds,
//! diagnostics with spans) for front ends that render them their own way.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use rbg_core::dynamic::AnyGame;
use rbg_interp::{InterpOptions, Interpreter};
use rbg_parser::diag::Diagnostic;
use rbg_parser::ir;
use rbg_parser::source::SourceFile;
use rbg_sbg::file::{errors_text, language, parse_file, Language};
use rbg_sbg::SbgReasoner;

use crate::compile::{build_engine, BuildError, BuildSettings, CompileOptions, SwitchSettings};

/// The reasoner that runs a game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Engine {
    /// The interpreter, in this process.
    #[default]
    Interpreter,
    /// The game compiled into a Rust crate, built (once, cached) and loaded as a library.
    Compiled,
    /// The direct Simplified Boardgames reasoner (.sbg games only; its moves are written
    /// `1@from 2@to`, unlike those of the RBG translation the other engines run).
    Sbg,
}

impl Engine {
    /// The engine's name: `interpreter`, `compiled` or `sbg` (what [`Engine::from_str`] reads).
    pub fn name(self) -> &'static str {
        match self {
            Engine::Interpreter => "interpreter",
            Engine::Compiled => "compiled",
            Engine::Sbg => "sbg",
        }
    }
}

impl fmt::Display for Engine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An engine name that is none of `interpreter` (or `interp`), `compiled`, `sbg`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownEngine(pub String);

impl fmt::Display for UnknownEngine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown engine {:?}: use \"interpreter\", \"compiled\" or \"sbg\"", self.0)
    }
}

impl std::error::Error for UnknownEngine {}

impl FromStr for Engine {
    type Err = UnknownEngine;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "interpreter" | "interp" => Ok(Engine::Interpreter),
            "compiled" => Ok(Engine::Compiled),
            "sbg" => Ok(Engine::Sbg),
            other => Err(UnknownEngine(other.to_string())),
        }
    }
}

/// How a game is opened.
#[derive(Clone, Debug, Default)]
pub struct OpenOptions {
    pub engine: Engine,
    /// The interpreter's switches and bounds.
    pub interp: InterpOptions,
    /// The compiled engine's switches.
    pub compile: CompileOptions,
    /// Where compiled engines are cached and how cargo runs.
    pub build: BuildSettings,
}

impl OpenOptions {
    /// Defaults with this engine.
    pub fn new(engine: Engine) -> Self {
        OpenOptions { engine, ..OpenOptions::default() }
    }

    /// These options with both engines' switches as `switches` sets them.
    pub fn with_switches(mut self, switches: &SwitchSettings) -> Self {
        self.interp = switches.interp_options().clone();
        self.compile = switches.compile_options().clone();
        self
    }
}

/// A game file read and parsed, valid (its warnings kept), before any engine is built.
#[derive(Clone, Debug)]
pub struct GameFile {
    /// The path the file was read from (or that names it, for [`parse_game`]).
    pub path: PathBuf,
    /// The game's name: the file name without extension.
    pub name: String,
    pub language: Language,
    /// The file's own text; the warnings' spans refer to it.
    pub source: SourceFile,
    pub warnings: Vec<Diagnostic>,
    /// The game (of the RBG translation, for an SBG file).
    pub ir: ir::Game,
    /// The RBG text the game was read from: the file itself, or the translation of an SBG
    /// file (what the compile cache is keyed by and what a game manager sends).
    pub rbg_text: Vec<u8>,
}

/// A game opened with an engine.
#[derive(Clone, Debug)]
pub struct Opened {
    /// The game on its engine, behind the dynamic handle.
    pub game: AnyGame,
    pub engine: Engine,
    pub file: GameFile,
}

/// Why a game could not be opened.
#[derive(Debug)]
pub enum OpenError {
    /// The file could not be read (`kind` tells "not found" from other failures).
    Io { path: PathBuf, kind: io::ErrorKind, raw_os_error: Option<i32>, message: String },
    /// The description has errors: `diagnostics` (errors and warnings) with spans in `source`.
    Invalid { source: SourceFile, diagnostics: Vec<Diagnostic> },
    /// The direct SBG engine was asked to run a file that is not SBG.
    WrongLanguage { path: PathBuf },
    /// The engine could not be made for this valid game.
    Engine { path: PathBuf, error: EngineError },
    /// The compiled engine could not be generated or built.
    Build { path: PathBuf, error: BuildError },
}

/// Why an engine rejected a valid game.
#[derive(Debug)]
pub enum EngineError {
    /// The interpreter's program could not be built (a game beyond its limits).
    Interpreter(rbg_interp::BuildError),
    /// The compiled reasoner library does not load.
    Library(rbg_dynlib::LoadError),
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::Interpreter(e) => write!(f, "{e}"),
            EngineError::Library(e) => write!(f, "{e}"),
        }
    }
}

impl OpenError {
    /// The first error's place, `(file, line, column)` (1-based), when it is in the file.
    pub fn first_error_place(&self) -> Option<(&str, u32, u32)> {
        let OpenError::Invalid { source, diagnostics } = self else { return None };
        let span = diagnostics.iter().find(|d| d.is_error())?.span?;
        let (line, column) = source.line_col(span.start);
        Some((&source.name, line, column))
    }
}

impl fmt::Display for OpenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpenError::Io { path, message, .. } => write!(f, "cannot read {}: {message}", path.display()),
            OpenError::Invalid { source, diagnostics } => f.write_str(&errors_text(source, diagnostics)),
            OpenError::WrongLanguage { path } => write!(
                f,
                "{}: the direct SBG engine runs Simplified Boardgames (.sbg) games only",
                path.display()
            ),
            OpenError::Engine { path, error } => write!(f, "{}: {error}", path.display()),
            OpenError::Build { path, error } => write!(f, "{}: {error}", path.display()),
        }
    }
}

impl std::error::Error for OpenError {}

/// Reads and parses the game file at `path`.
pub fn read_game(path: &Path) -> Result<GameFile, OpenError> {
    parse_game(path, read_bytes(path)?)
}

/// Parses `bytes` as the game file at `path`, which is not read: it names the game and, by
/// its extension, tells RBG from SBG (for a game rebuilt from its text, or edited in memory).
pub fn parse_game(path: &Path, bytes: Vec<u8>) -> Result<GameFile, OpenError> {
    let language = language(path, &bytes);
    let parsed = parse_file(path, bytes);
    let (errors, warnings): (Vec<_>, Vec<_>) =
        parsed.diagnostics.iter().cloned().partition(Diagnostic::is_error);
    match parsed.game {
        Some(ir) if errors.is_empty() => Ok(GameFile {
            path: path.to_path_buf(),
            name: game_name(path),
            language,
            source: parsed.source,
            warnings,
            ir,
            rbg_text: parsed.rbg_text,
        }),
        _ => Err(OpenError::Invalid { source: parsed.source, diagnostics: parsed.diagnostics }),
    }
}

/// Opens the game file at `path` with the engine and switches of `options`.
pub fn open(path: &Path, options: &OpenOptions) -> Result<Opened, OpenError> {
    open_bytes(path, read_bytes(path)?, options)
}

/// Opens `bytes` as the game file at `path` (see [`parse_game`]).
pub fn open_bytes(path: &Path, bytes: Vec<u8>, options: &OpenOptions) -> Result<Opened, OpenError> {
    // Asked first, so a broken RBG file given to the SBG engine is reported as what it is.
    if options.engine == Engine::Sbg && language(path, &bytes) != Language::Sbg {
        return Err(OpenError::WrongLanguage { path: path.to_path_buf() });
    }
    parse_game(path, bytes)?.open(options)
}

impl GameFile {
    /// Builds the engine of `options` for this game.
    pub fn open(self, options: &OpenOptions) -> Result<Opened, OpenError> {
        let game = match options.engine {
            Engine::Interpreter => AnyGame::new(self.interpreter(options.interp.clone())?),
            Engine::Compiled => self.compiled(&options.compile, &options.build)?,
            Engine::Sbg => AnyGame::new(self.sbg_reasoner()?),
        };
        Ok(Opened { game, engine: options.engine, file: self })
    }

    /// The interpreter of this game (the concrete type, for drivers that want no dynamic
    /// dispatch).
    pub fn interpreter(&self, options: InterpOptions) -> Result<Interpreter, OpenError> {
        Interpreter::new(&self.ir, &self.name, options)
            .map_err(|e| self.engine_error(EngineError::Interpreter(e)))
    }

    /// The compiled engine of this game, built or found in the cache, loaded into this process.
    pub fn compiled(&self, options: &CompileOptions, build: &BuildSettings) -> Result<AnyGame, OpenError> {
        let built = build_engine(self, options, build)
            .map_err(|error| OpenError::Build { path: self.path.clone(), error })?;
        rbg_dynlib::load(&built.library).map_err(|e| self.engine_error(EngineError::Library(e)))
    }

    /// The direct SBG reasoner of this game (an SBG file only).
    pub fn sbg_reasoner(&self) -> Result<SbgReasoner, OpenError> {
        if self.language != Language::Sbg {
            return Err(OpenError::WrongLanguage { path: self.path.clone() });
        }
        match rbg_sbg::parse(&self.source.name, &self.source.bytes) {
            Ok(game) => Ok(SbgReasoner::new(&game)),
            Err(diagnostics) => Err(OpenError::Invalid { source: self.source.clone(), diagnostics }),
        }
    }

    fn engine_error(&self, error: EngineError) -> OpenError {
        OpenError::Engine { path: self.path.clone(), error }
    }
}

/// Reads a game file's bytes (for [`open_bytes`] and [`parse_game`]); the error is
/// [`OpenError::Io`].
pub fn read_bytes(path: &Path) -> Result<Vec<u8>, OpenError> {
    std::fs::read(path).map_err(|e| OpenError::Io {
        path: path.to_path_buf(),
        kind: e.kind(),
        raw_os_error: e.raw_os_error(),
        message: e.to_string(),
    })
}

/// The game's name: the file name without extension.
pub fn game_name(path: &Path) -> String {
    path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| "game".into())
}
