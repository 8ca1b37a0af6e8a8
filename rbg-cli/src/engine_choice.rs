//! `--engine`: the one choice of the engine that runs a game, for every command. The values
//! are declared once ([`EngineChoice`]); each command offers the subset it can honour (an
//! [`EngineSet`]: the rest are refused by clap as a usage error, exit 2, and left out of the
//! help) with its own default, and [`open_options`] is the one mapping to the library's
//! [`rbg::Engine`] and [`OpenOptions`].
//!
//! `auto` (the interpreter at once, the compiled engine built in the background taking over)
//! is offered where a game is played long enough for a switch to pay and the command can make
//! it: `rbg client` (rbg-manager's `play_switching`) and `rbg serve` (sessions replayed on the
//! new engine). The one-shot commands (perft, mc, moves, render, replay, analyze) and the
//! matches of `rbg play` and `rbg manager` run one engine from start to end.

use std::marker::PhantomData;

use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::ValueEnum;
use rbg::open::{Engine, OpenOptions};

use crate::compile::{build_settings, CompileFlags};

/// Which engine runs a game.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum EngineChoice {
    /// The interpreter plays at once while the compiled engine builds in the background (cargo
    /// at low priority; cached) and takes over when it is ready, the moves so far replayed on
    /// it. The interpreter alone when cargo is not found or the build fails.
    Auto,
    /// The interpreter, in this process.
    #[value(alias = "interpreter")]
    Interp,
    /// The game compiled into a Rust crate (cached), built in release before the game starts,
    /// and run.
    Compiled,
    /// The direct Simplified Boardgames reasoner (for .sbg games; its moves are written
    /// `1@from 2@to`, unlike those of the RBG translation the other engines run).
    Sbg,
}

impl EngineChoice {
    /// The engine a game is opened with: `auto` starts on the interpreter.
    pub fn engine(self) -> Engine {
        match self {
            EngineChoice::Auto | EngineChoice::Interp => Engine::Interpreter,
            EngineChoice::Compiled => Engine::Compiled,
            EngineChoice::Sbg => Engine::Sbg,
        }
    }

    /// The value's name as `--engine` takes it (what `rbg play --log` records).
    pub fn name(self) -> String {
        self.to_possible_value().map(|v| v.get_name().to_string()).unwrap_or_default()
    }
}

/// How a game is opened for `engine` with the switches of `flags`: the one mapping from the
/// command line to [`rbg::open`]'s options.
pub fn open_options(engine: EngineChoice, flags: &CompileFlags) -> OpenOptions {
    let mut options = OpenOptions::new(engine.engine()).with_switches(flags.switches());
    options.build = build_settings();
    options
}

/// The parser of `--engine` offering only `offered` (in this order, as help lists them).
pub fn offered(offered: &'static [EngineChoice]) -> impl TypedValueParser<Value = EngineChoice> {
    PossibleValuesParser::new(offered.iter().filter_map(|v| v.to_possible_value()))
        .try_map(|name| EngineChoice::from_str(&name, false))
}

/// The values a command offers and its default.
pub trait EngineSet: Clone + Default + std::fmt::Debug + Send + Sync + 'static {
    const OFFERED: &'static [EngineChoice];
    const DEFAULT: &'static str;
}

/// Declares a marker type of [`EngineSet`]: its values in help order, then its default.
macro_rules! engine_set {
    ($(#[$doc:meta])* $name:ident: [$($value:ident),+], default $default:literal) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default)]
        pub struct $name;

        impl EngineSet for $name {
            const OFFERED: &'static [EngineChoice] = &[$(EngineChoice::$value),+];
            const DEFAULT: &'static str = $default;
        }
    };
}

engine_set! {
    /// perft, mc, moves, play, render, analyze, replay: one engine in this process, the direct
    /// SBG reasoner included.
    Local: [Interp, Compiled, Sbg], default "interp"
}

engine_set! {
    /// The engines of RBG text: `rbg manager` (its game travels as RBG text, whose moves the
    /// direct SBG reasoner does not number) and the engines `rbg bench --suite` measures.
    RbgText: [Interp, Compiled], default "interp"
}

engine_set! {
    /// `rbg client` and `rbg serve`: RBG text, and `auto` (their default).
    Switching: [Auto, Interp, Compiled], default "auto"
}

/// `--engine` (the values of `S`) and the switches of both engines.
#[derive(clap::Args, Clone, Debug)]
pub struct EngineArgs<S: EngineSet = Local> {
    /// Which engine runs the game.
    #[arg(long, value_parser = offered(S::OFFERED), default_value = S::DEFAULT)]
    pub engine: EngineChoice,
    #[command(flatten)]
    pub flags: CompileFlags,
    #[arg(skip)]
    set: PhantomData<S>,
}

impl<S: EngineSet> EngineArgs<S> {
    /// `engine` with the default switches.
    pub fn new(engine: EngineChoice) -> Self {
        EngineArgs { engine, flags: CompileFlags::default(), set: PhantomData }
    }

    /// The same switches with another engine.
    pub fn with_engine(&self, engine: EngineChoice) -> Self {
        EngineArgs { engine, ..self.clone() }
    }

    /// How [`rbg::open`] opens games for these arguments.
    pub fn open_options(&self) -> OpenOptions {
        open_options(self.engine, &self.flags)
    }
}

impl<S: EngineSet> Default for EngineArgs<S> {
    /// The command's default engine.
    fn default() -> Self {
        let engine = EngineChoice::from_str(S::DEFAULT, false).unwrap_or(EngineChoice::Interp);
        EngineArgs::new(engine)
    }
}

#[cfg(test)]
mod tests {
    use clap::error::ErrorKind;
    use clap::Parser;

    use super::*;
    use crate::{Cli, Command};

    /// Each command takes the values of its set, both spellings of the interpreter included,
    /// and refuses the others as an invalid value (a usage error).
    #[test]
    fn each_command_takes_its_values_and_refuses_the_others() {
        let parse = |args: &[&str]| Cli::try_parse_from([&["rbg"], args].concat());
        let perft_engine = |engine: &str| match parse(&["perft", "g.rbg", "--depth", "1", "--engine", engine])
        {
            Ok(Cli { command: Command::Perft { engine, .. } }) => Ok(engine.engine),
            Ok(_) => panic!("not perft"),
            Err(e) => Err(e.kind()),
        };
        assert_eq!(perft_engine("interpreter"), Ok(EngineChoice::Interp));
        assert_eq!(perft_engine("sbg"), Ok(EngineChoice::Sbg));
        assert_eq!(perft_engine("auto"), Err(ErrorKind::InvalidValue));
        let refused = [
            vec!["manager", "g.rbg", "--port", "0", "--engine", "auto"],
            vec!["client", "h:1", "--agent", "random", "--engine", "sbg"],
            vec!["serve", "--engine", "sbg"],
            vec!["bench", "--suite", "d", "--engines", "interp,auto"],
        ];
        for args in refused {
            assert_eq!(parse(&args).err().map(|e| e.kind()), Some(ErrorKind::InvalidValue), "{args:?}");
        }
        for args in [vec!["serve", "--engine", "interpreter"], vec!["serve", "--engine", "interp"]] {
            assert!(parse(&args).is_ok(), "{args:?}");
        }
        let Ok(Cli { command: Command::Bench { suite, .. } }) =
            parse(&["bench", "--suite", "d", "--engines", "compiled,interpreter"])
        else {
            panic!("not bench")
        };
        assert_eq!(suite.engines, [EngineChoice::Compiled, EngineChoice::Interp]);
    }

    /// Every set's default is one of its values, and each value names the library engine it
    /// says (`auto` the interpreter it starts on).
    #[test]
    fn defaults_are_offered_and_names_map_to_their_engines() {
        for (offered, default) in [
            (Local::OFFERED, Local::DEFAULT),
            (RbgText::OFFERED, RbgText::DEFAULT),
            (Switching::OFFERED, Switching::DEFAULT),
        ] {
            let default = EngineChoice::from_str(default, false).expect("a value");
            assert!(offered.contains(&default));
        }
        let expected = [
            ("auto", Engine::Interpreter),
            ("interp", Engine::Interpreter),
            ("interpreter", Engine::Interpreter),
            ("compiled", Engine::Compiled),
            ("sbg", Engine::Sbg),
        ];
        for (name, engine) in expected {
            assert_eq!(EngineChoice::from_str(name, false).map(EngineChoice::engine), Ok(engine), "{name}");
        }
    }
}
