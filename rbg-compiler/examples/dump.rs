//! Prints the analysed program of a game (the graph the compiler translates), for reading what
//! the analyses did: `cargo run --release -p rbg-compiler --example dump -- FILE`.

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).ok_or("usage: dump FILE")?;
    let bytes = std::fs::read(&path)?;
    let game = rbg_parser::parse(&path, &bytes).game.ok_or("the game does not parse (see `rbg check`)")?;
    let program = rbg_automaton::Program::build(&game, &Default::default())?;
    println!("{}\n{}", program.summary(), program.dump());
    Ok(())
}
