//! `rbg lsp`: the language server on standard input and output (rbg-lsp does the work).

use crate::Failure;

#[derive(clap::Args)]
pub struct LspArgs {
    /// Talk on standard input and output (the default and only transport; accepted because
    /// some editors pass it).
    #[arg(long)]
    stdio: bool,
}

pub fn run(_args: &LspArgs) -> Result<(), Failure> {
    let mut input = std::io::stdin().lock();
    let mut output = std::io::stdout().lock();
    match rbg_lsp::serve(&mut input, &mut output) {
        Ok(rbg_lsp::server::Ending::Clean) => Ok(()),
        // LSP: `exit` without `shutdown` (or a client gone) ends with exit code 1.
        Ok(rbg_lsp::server::Ending::Abrupt) => Err(Failure::silent()),
        Err(e) => Err(Failure::new(format!("language server: {e}"))),
    }
}
