//! `rbg fmt [--check] FILES`: formats high-level RBG and SBG files in place (rbg-ide's
//! formatters; the language by extension and content, as `rbg check` tells it), or with
//! `--check` lists those that would change. `-` is standard input, written to standard output.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use rbg_parser::source::SourceFile;

use crate::Failure;

#[derive(clap::Args)]
pub struct FmtArgs {
    /// The RBG or SBG files to format in place (`-`: read standard input, write standard output).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Change nothing: list the files that are not formatted and exit 1 if there are any.
    #[arg(long)]
    check: bool,
}

/// What formatting one file found.
enum Outcome {
    Unchanged,
    Changed,
    /// The message was printed.
    Failed,
}

pub fn run(args: &FmtArgs) -> Result<(), Failure> {
    let mut failed = false;
    for file in &args.files {
        match format_one(file, args.check)? {
            Outcome::Unchanged => {}
            Outcome::Changed if args.check => {
                writeln!(std::io::stdout().lock(), "{}", file.display()).map_err(Failure::output)?;
                failed = true;
            }
            Outcome::Changed => {}
            Outcome::Failed => failed = true,
        }
    }
    if failed {
        Err(Failure::silent())
    } else {
        Ok(())
    }
}

fn format_one(file: &Path, check: bool) -> Result<Outcome, Failure> {
    let stdin = file == Path::new("-");
    let bytes = if stdin {
        let mut bytes = Vec::new();
        std::io::stdin().read_to_end(&mut bytes).map(|_| bytes)
    } else {
        std::fs::read(file)
    };
    let bytes = match bytes {
        Ok(bytes) => bytes,
        Err(e) => {
            crate::say!("error: cannot read {}: {e}", file.display());
            return Ok(Outcome::Failed);
        }
    };
    let Ok(text) = String::from_utf8(bytes) else {
        crate::say!("error: {}: not UTF-8 text", file.display());
        return Ok(Outcome::Failed);
    };
    let language = rbg_ide::Language::of(&file.display().to_string(), &text);
    let formatted = match rbg_ide::format::format_as(language, &text) {
        Ok(formatted) => formatted,
        Err(e) => {
            let source = SourceFile::new(file.display().to_string(), text.as_bytes());
            let place = e.span.map(|s| source.line_col(s.start)).map(|(l, c)| format!(":{l}:{c}"));
            crate::say!("{}{}: error: {}", file.display(), place.unwrap_or_default(), e.message);
            return Ok(Outcome::Failed);
        }
    };
    let changed = formatted != text;
    if stdin && !check {
        std::io::stdout().lock().write_all(formatted.as_bytes()).map_err(Failure::output)?;
    } else if changed && !check {
        if let Err(e) = std::fs::write(file, &formatted) {
            crate::say!("error: cannot write {}: {e}", file.display());
            return Ok(Outcome::Failed);
        }
    }
    Ok(if changed { Outcome::Changed } else { Outcome::Unchanged })
}
