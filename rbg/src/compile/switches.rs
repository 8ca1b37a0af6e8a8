//! The switch table of both engines: every optimisation, check and measurement switch of the
//! shared program ([`ProgramOptions`]), of the compiler ([`CompileOptions`]) and of the
//! interpreter ([`InterpOptions`]), with the engines each affects.
//!
//! Front ends build their settings from this one table (the CLI's `--no-<name>` flags, the
//! README's list of switches), so every switch is reachable and documented wherever switches
//! are offered.

use rbg_compiler::CompileOptions;
use rbg_interp::program::{Switch, SwitchKind, Switches};
use rbg_interp::{InterpOptions, ProgramOptions};

/// Which engines a switch affects.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// A switch of the program both engines share ([`ProgramOptions`]).
    BothEngines,
    /// A switch of the compiler only ([`CompileOptions`]).
    Compiler,
    /// A switch of the interpreter only ([`InterpOptions`]).
    Interpreter,
}

impl Scope {
    /// The engines affected, as help texts say it.
    pub fn describe(self) -> &'static str {
        match self {
            Scope::BothEngines => "both engines",
            Scope::Compiler => "compiled engine only",
            Scope::Interpreter => "interpreter only",
        }
    }
}

/// Every switch of both engines with the engines it affects.
pub fn all_switches() -> Vec<(Switch, Scope)> {
    let tagged = |switches: &'static [Switch], scope: Scope| switches.iter().map(move |s| (*s, scope));
    tagged(ProgramOptions::SWITCHES, Scope::BothEngines)
        .chain(tagged(CompileOptions::SWITCHES, Scope::Compiler))
        .chain(tagged(InterpOptions::SWITCHES, Scope::Interpreter))
        .collect()
}

/// One line on what a switch does, its kind and default, and the engines it affects (the help
/// text of its command-line flag).
pub fn switch_help(switch: &Switch, scope: Scope) -> String {
    let kind = match switch.kind {
        SwitchKind::Optimisation => "optimisation, on by default",
        SwitchKind::Check => "correctness check, off by default",
        SwitchKind::Measurement => "measurement, off by default",
    };
    format!("{} [{kind}; {}]", switch.summary(), scope.describe())
}

/// The list of every switch in Markdown, one line per flag (the README holds it between
/// markers; a test of the CLI checks that it is up to date).
pub fn switch_list() -> String {
    all_switches()
        .iter()
        .map(|(switch, scope)| format!("- `--{}`: {}\n", switch.flag, switch_help(switch, *scope)))
        .collect()
}

/// The switches of both engines as a user set them: every switch at its default until moved.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SwitchSettings {
    compile: CompileOptions,
    interp: InterpOptions,
}

impl SwitchSettings {
    /// Sets a switch of the table ([`all_switches`]).
    pub fn set(&mut self, switch: &Switch, on: bool) {
        // A program switch lives in both option sets; an engine's own switch in one of them.
        let in_compiler = self.compile.set_switch(switch.name, on);
        let in_interp = self.interp.set_switch(switch.name, on);
        debug_assert!(in_compiler || in_interp, "switch {} is in no option set", switch.name);
    }

    /// Moves the switch whose flag (without `--`) is `flag` away from its default: `no-<name>`
    /// turns an optimisation off, `<name>` turns a check on. False for an unknown flag.
    pub fn set_flag(&mut self, flag: &str) -> bool {
        match all_switches().into_iter().find(|(s, _)| s.flag == flag) {
            Some((switch, _)) => {
                self.set(&switch, !switch.default);
                true
            }
            None => false,
        }
    }

    /// These settings with `flag` set as [`Self::set_flag`] does (`None` for an unknown flag).
    pub fn with_flag(mut self, flag: &str) -> Option<Self> {
        self.set_flag(flag).then_some(self)
    }

    /// The compiled engine's options.
    pub fn compile_options(&self) -> &CompileOptions {
        &self.compile
    }

    /// The interpreter's options.
    pub fn interp_options(&self) -> &InterpOptions {
        &self.interp
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_flag_reaches_the_options() {
        let mut all = SwitchSettings::default();
        for (switch, _) in all_switches() {
            all = all.with_flag(switch.flag).unwrap();
        }
        let compile = all.compile_options();
        assert_eq!(compile.program, ProgramOptions::baseline());
        assert!(!compile.unchecked_modifiers && !compile.compact_state && !compile.deferred_checks);
        assert!(!compile.pattern_order && !compile.piece_sets);
        let interp = all.interp_options();
        assert_eq!(interp.program, ProgramOptions::baseline());
        assert!(interp.checked_keeper && !interp.fuse_ops && !interp.pure_patterns && !interp.piece_bitsets);
        assert_eq!(SwitchSettings::default().compile_options(), &CompileOptions::default());
        assert_eq!(SwitchSettings::default().interp_options(), &InterpOptions::default());
        assert!(SwitchSettings::default().with_flag("no-such-switch").is_none());
    }

    #[test]
    fn switch_names_and_flags_are_unique() {
        let switches = all_switches();
        for (i, (a, _)) in switches.iter().enumerate() {
            for (b, _) in &switches[i + 1..] {
                assert_ne!(a.name, b.name);
                assert_ne!(a.flag, b.flag);
            }
        }
    }

    #[test]
    fn the_list_has_one_line_per_flag() {
        let list = switch_list();
        assert_eq!(list.lines().count(), all_switches().len());
        assert!(list.lines().all(|l| l.starts_with("- `--") && l.contains("]")), "{list}");
    }
}
