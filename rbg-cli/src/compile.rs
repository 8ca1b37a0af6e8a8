//! `rbg compile` and the compiled engine of `rbg perft|mc|bench --engine compiled`: the clap
//! glue over the library's switch table and compile pipeline ([`rbg::compile`], whose docs
//! describe the generated crates and the cache). Here cargo's output goes to the terminal.

use std::path::{Path, PathBuf};

use rbg::compile::{
    all_switches, switch_help, write_crate_dir, BuildError, BuildSettings, Built, CargoOutput,
    CompileOptions, CrateTarget, OutputDirProblem, SwitchSettings,
};
use rbg_interp::InterpOptions;

use crate::diagnostics::Format;
use crate::load::load;
use crate::Failure;

/// The switches of both engines, as set on the command line: `--no-<name>` turns off an
/// optimisation, `--<name>` turns on a check (see [`all_switches`]). The flags are generated from
/// the switch table, so every switch is reachable and documented in `--help`.
#[derive(Clone, Debug, Default)]
pub struct CompileFlags(SwitchSettings);

impl CompileFlags {
    pub fn switches(&self) -> &SwitchSettings {
        &self.0
    }

    pub fn compile_options(&self) -> CompileOptions {
        self.0.compile_options().clone()
    }

    pub fn interp_options(&self) -> InterpOptions {
        self.0.interp_options().clone()
    }
}

impl clap::FromArgMatches for CompileFlags {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
        let mut flags = CompileFlags::default();
        flags.update_from_arg_matches(matches)?;
        Ok(flags)
    }

    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        for (switch, _) in all_switches() {
            if matches.try_get_one::<bool>(switch.flag).ok().flatten() == Some(&true) {
                self.0.set(&switch, !switch.default);
            }
        }
        Ok(())
    }
}

impl clap::Args for CompileFlags {
    fn augment_args(command: clap::Command) -> clap::Command {
        command.args(all_switches().into_iter().map(|(switch, scope)| {
            clap::Arg::new(switch.flag)
                .long(switch.flag)
                .action(clap::ArgAction::SetTrue)
                .help(switch_help(&switch, scope))
                .help_heading("Switches")
        }))
    }

    fn augment_args_for_update(command: clap::Command) -> clap::Command {
        Self::augment_args(command)
    }
}

/// How `rbg compile` writes its output directory.
pub type CompileTo = CrateTarget;

/// `rbg compile FILE -o DIR`: writes the reasoner crate with its vendored dependencies.
pub fn compile(path: &Path, out: &Path, how: &CompileTo, flags: &CompileFlags) -> Result<(), Failure> {
    let game = load(path, Format::Human, true)?;
    let written =
        write_crate_dir(&game, flags.switches().compile_options(), out, how).map_err(build_failure)?;
    crate::say!(
        "wrote crate {} to {}{}\n  build:  cargo build --release --manifest-path {}\n  run:    {} perft --depth 4",
        written.package,
        out.display(),
        if how.native { " (code for this machine's CPU)" } else { "" },
        out.join("Cargo.toml").display(),
        out.join("target").join("release").join(&written.package).display()
    );
    Ok(())
}

/// How the CLI builds compiled engines: in the default cache, cargo's progress on the terminal.
pub fn build_settings() -> BuildSettings {
    BuildSettings {
        cargo_output: CargoOutput::Inherit,
        on_build: Some(announce_build),
        ..BuildSettings::default()
    }
}

fn announce_build(crate_dir: &Path) {
    crate::say!("rbg: building the compiled reasoner in {} ...", crate_dir.display());
}

/// Generates (if needed) and builds the cached compiled engine of the game at `path` with its
/// runner binary; the binary's path.
pub fn build_runner(path: &Path, flags: &CompileFlags) -> Result<PathBuf, Failure> {
    build_runner_for(path, flags, false)
}

/// [`build_runner`] for plain x86-64 rather than this machine's CPU (`portable`), as valgrind
/// needs.
pub fn build_runner_for(path: &Path, flags: &CompileFlags, portable: bool) -> Result<PathBuf, Failure> {
    let game = load(path, Format::Human, true)?;
    let settings = BuildSettings { runner: true, portable, ..build_settings() };
    let built: Built = rbg::compile::build_engine(&game, flags.switches().compile_options(), &settings)
        .map_err(build_failure)?;
    built.binary.ok_or_else(|| Failure::new("internal error: the cache entry has no runner binary"))
}

/// A failed build or crate write, with the command-line way out where there is one.
pub fn build_failure(error: BuildError) -> Failure {
    match error {
        BuildError::OutputDir { problem: OutputDirProblem::Foreign, .. } => {
            Failure::new(format!("{error}; choose another directory or give --force"))
        }
        other => Failure::new(other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    /// docs/engines.md lists every switch between two markers, exactly as the table renders it.
    #[test]
    fn readme_lists_every_switch() {
        let readme = include_str!("../../docs/engines.md");
        let start = "<!-- switches: generated from the switch tables, checked by a test -->\n";
        let end = "<!-- /switches -->";
        let from = readme.find(start).expect("docs/engines.md has no switch list start marker") + start.len();
        let to = from + readme[from..].find(end).expect("docs/engines.md has no switch list end marker");
        assert_eq!(
            &readme[from..to],
            rbg::compile::switch_list(),
            "docs/engines.md's switch list is out of date; replace it by the expected text"
        );
    }
}
