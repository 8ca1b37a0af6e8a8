//! Compiles the checked-in generated parser (`src/parser.c`, made by `generate.sh`).

fn main() {
    let src = std::path::Path::new("src");
    cc::Build::new()
        .include(src)
        .std("c11")
        .warnings(false)
        .file(src.join("parser.c"))
        .compile("tree-sitter-rbg");
    println!("cargo:rerun-if-changed=src/parser.c");
    println!("cargo:rerun-if-changed=src/tree_sitter/parser.h");
}
