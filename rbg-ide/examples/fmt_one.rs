fn main() {
    let path = std::env::args().nth(1).unwrap();
    let text = std::fs::read_to_string(path).unwrap();
    print!("{}", rbg_ide::format::format(&text).unwrap());
}
