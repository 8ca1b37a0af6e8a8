//! How each piece is drawn, decided from the pieces' names alone.
//!
//! * **The empty piece** is not drawn. A piece is empty when its name is `e` (lower case only:
//!   `E` is a tile of the 15-puzzle) or, in any letter case, one of [`EMPTY_NAMES`] (`empty`,
//!   `free`, `none`, `vacant`, `open`, `air`, `bare` ...). A piece without a colour prefix that
//!   fills at least half of the board in the initial position is taken as a background marker
//!   and not drawn either (`pale`, the unused light squares of our draughts). Several pieces
//!   may be hidden.
//! * **Colour prefix.** A name may start with a colour: a word from [`COLOURS`] (`white`,
//!   `black`, `red`, `gold`, ...; any case) followed by the end of the name or a character that
//!   is not a lower-case letter (`whiteKing`, `black_stone`, `Red`), or a single letter alone
//!   or followed by an upper-case letter or a digit (`w`, `bKnight`, `wP`). The letter is the
//!   colour of the first player whose name starts with a colour word beginning with that letter
//!   (in hex, whose players are `red` and `blue`, `b` is blue; the letter may be upper-case
//!   here when it stands alone: connect4's `R` and `Y` are its red and yellow players' discs); failing that, `w`,
//!   `b`, `r` and `y` are white, black, red and yellow.
//! * **Chess glyphs.** After a white or black prefix, a chess piece: one of the words `pawn`,
//!   `knight`, `bishop`, `rook`, `queen`, `king` (any case; what follows must not be a lower-case
//!   letter, so `whiteRookMoved` is a rook) or one of the letters `P N B R Q K`. Such a piece
//!   gets its Unicode chess symbol, but only in a game where at least two different kinds
//!   occur: the kings of draughts, the only chess word there, stay discs with a letter.
//! * **Discs** for every other piece: the prefix's colour (else a colour from a fixed palette,
//!   in piece order) and a label of one to three characters from the rest of the name: its
//!   first character upper-cased, lengthened only where two discs of the same colour would look
//!   alike (`goldCamel` and `goldCat` give `Cam` and `Cat`), and then followed by the name's
//!   later capitals and digits (`goldRabbitSecond` gives `RS`).
//! * **Plain men and stones.** A coloured piece that is only its colour (`b`, `white`, connect4's
//!   `R`) or a colour and one of [`PLAIN_WORDS`] (`whiteMan`, `blackStone`, `redDisc`) is a disc
//!   without a label, as draughts men and go stones are drawn, unless another disc of its colour
//!   is plain too. A **king** that is not a chess glyph (draughts) is labelled with a crown
//!   (`♛`). **Promoted** pieces (`blackPromotedPawn`, shogi-like) get a `+` before their letter.

/// Colour words recognised as prefixes: (word, fill, ink for a label on that fill).
pub const COLOURS: &[(&str, &str, &str)] = &[
    ("white", "#f4f1ea", "#1d1d1d"),
    ("black", "#262626", "#f4f4f4"),
    ("red", "#d03b3b", "#ffffff"),
    ("blue", "#2f6fd0", "#ffffff"),
    ("green", "#2f9e55", "#ffffff"),
    ("yellow", "#f2c81e", "#1d1d1d"),
    ("gold", "#d4a52a", "#1d1d1d"),
    ("silver", "#b9bec7", "#1d1d1d"),
    ("orange", "#ef8a1c", "#1d1d1d"),
    ("purple", "#7f46b5", "#ffffff"),
    ("brown", "#8a5a2e", "#ffffff"),
    ("grey", "#8a8f96", "#ffffff"),
    ("gray", "#8a8f96", "#ffffff"),
    ("pink", "#ea7fb3", "#1d1d1d"),
    ("dark", "#262626", "#f4f4f4"),
    ("light", "#f4f1ea", "#1d1d1d"),
];

/// Colours of the pieces without a colour prefix, given in piece order (cycled).
const PALETTE: &[(&str, &str)] = &[
    ("#3b7dd8", "#ffffff"),
    ("#e0643a", "#ffffff"),
    ("#3fa34d", "#ffffff"),
    ("#8e5cc4", "#ffffff"),
    ("#e3b62b", "#1d1d1d"),
    ("#d1497e", "#ffffff"),
    ("#2aa3a3", "#ffffff"),
    ("#8c6d46", "#ffffff"),
    ("#5c6370", "#ffffff"),
    ("#a4c639", "#1d1d1d"),
];

/// Names (any case) of pieces that stand for an empty cell.
pub const EMPTY_NAMES: &[&str] = &[
    "empty", "free", "blank", "none", "nothing", "vacant", "void", "open", "air", "bare", "space", "clear",
    "nil",
];

/// Words naming a plain piece of a colour (any case): such discs carry no label.
pub const PLAIN_WORDS: &[&str] = &[
    "man", "men", "stone", "stones", "piece", "pieces", "disc", "disk", "checker", "counter", "token",
    "marble", "seed",
];

/// The label of a crowned (draughts) king.
const CROWN: &str = "\u{265B}\u{FE0E}";

/// The six chess pieces.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ChessKind {
    King,
    Queen,
    Rook,
    Bishop,
    Knight,
    Pawn,
}

impl ChessKind {
    const WORDS: [(&'static str, char, ChessKind); 6] = [
        ("king", 'K', ChessKind::King),
        ("queen", 'Q', ChessKind::Queen),
        ("rook", 'R', ChessKind::Rook),
        ("bishop", 'B', ChessKind::Bishop),
        ("knight", 'N', ChessKind::Knight),
        ("pawn", 'P', ChessKind::Pawn),
    ];

    /// The Unicode symbol: U+2654 (white king) to U+265F (black pawn).
    pub fn glyph(self, white: bool) -> char {
        let offset = match self {
            ChessKind::King => 0,
            ChessKind::Queen => 1,
            ChessKind::Rook => 2,
            ChessKind::Bishop => 3,
            ChessKind::Knight => 4,
            ChessKind::Pawn => 5,
        };
        let base = if white { 0x2654 } else { 0x265A };
        char::from_u32(base + offset).unwrap_or('?')
    }
}

/// How one piece is drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Look {
    /// The empty piece: nothing is drawn.
    Hidden,
    /// A chess symbol.
    Glyph {
        /// Which piece.
        kind: ChessKind,
        /// White (else black).
        white: bool,
    },
    /// A disc with a short label.
    Disc {
        /// Fill colour (`#rrggbb`).
        fill: String,
        /// Colour of the label.
        ink: String,
        /// One to a few characters.
        label: String,
    },
}

/// Whether a piece of this name stands for an empty cell (see the module docs).
pub fn is_empty_name(name: &str) -> bool {
    name == "e" || EMPTY_NAMES.iter().any(|n| name.eq_ignore_ascii_case(n))
}

/// The look of every piece of a game (parallel to `pieces`); `players` are the players' names
/// (their colours decide what single letters mean); `initial_counts[p]` is how many vertices
/// piece `p` fills in the initial position (empty when not known).
pub fn piece_looks(pieces: &[String], players: &[String], initial_counts: &[usize]) -> Vec<Look> {
    let vertices: usize = initial_counts.iter().sum();
    let fills_half = |p: usize| vertices > 0 && initial_counts.get(p).is_some_and(|&c| 2 * c >= vertices);
    let player_colours: Vec<Colour> = players.iter().filter_map(|p| colour_word(p).map(|(c, _)| c)).collect();
    let parsed: Vec<Parsed<'_>> = pieces.iter().map(|p| parse(p, &player_colours)).collect();
    let chess_kinds: std::collections::HashSet<ChessKind> = parsed.iter().filter_map(|p| p.chess).collect();
    let use_glyphs = chess_kinds.len() >= 2;
    let mut palette_next = 0;
    let mut looks: Vec<Look> = Vec::with_capacity(pieces.len());
    let mut disc_bases: Vec<(usize, &str)> = Vec::new();
    for (i, (name, p)) in pieces.iter().zip(&parsed).enumerate() {
        if is_empty_name(name) || (p.colour.is_none() && fills_half(i)) {
            looks.push(Look::Hidden);
            continue;
        }
        if let (true, Some(kind), Some(colour)) = (use_glyphs, p.chess, p.colour) {
            if colour.0 == "white" || colour.0 == "black" {
                looks.push(Look::Glyph { kind, white: colour.0 == "white" });
                continue;
            }
        }
        let (fill, ink) = match p.colour {
            Some((_, fill, ink)) => (fill, ink),
            None => {
                let colours = PALETTE[palette_next % PALETTE.len()];
                palette_next += 1;
                colours
            }
        };
        looks.push(Look::Disc { fill: fill.into(), ink: ink.into(), label: String::new() });
        disc_bases.push((i, p.rest));
    }
    assign_labels(&mut looks, &disc_bases);
    plain_and_crowned(&mut looks, &disc_bases, &parsed);
    looks
}

/// Clears the labels of plain men and stones (one plain disc per colour) and crowns kings.
fn plain_and_crowned(looks: &mut [Look], discs: &[(usize, &str)], parsed: &[Parsed<'_>]) {
    let plain: Vec<usize> = discs
        .iter()
        .filter(|&&(i, rest)| {
            parsed[i].colour.is_some()
                && (rest == parsed[i].whole || PLAIN_WORDS.iter().any(|w| rest.eq_ignore_ascii_case(w)))
        })
        .map(|&(i, _)| i)
        .collect();
    let fill = |looks: &[Look], i: usize| match &looks[i] {
        Look::Disc { fill, .. } => fill.clone(),
        _ => String::new(),
    };
    for &i in &plain {
        let alone = plain.iter().all(|&j| j == i || fill(looks, j) != fill(looks, i));
        if let (true, Look::Disc { label, .. }) = (alone, &mut looks[i]) {
            label.clear();
        }
    }
    for &(i, _) in discs {
        if let (Some(ChessKind::King), Look::Disc { label, .. }) = (parsed[i].chess, &mut looks[i]) {
            *label = CROWN.to_string();
        }
    }
}

/// An entry of [`COLOURS`]: word, fill, ink.
type Colour = (&'static str, &'static str, &'static str);

/// A name split into its colour prefix and the rest, and the chess piece the rest names.
struct Parsed<'a> {
    colour: Option<Colour>,
    rest: &'a str,
    chess: Option<ChessKind>,
    /// The whole name (the rest of a name that is only a colour).
    whole: &'a str,
}

fn parse<'a>(name: &'a str, player_colours: &[Colour]) -> Parsed<'a> {
    let Some((colour, rest)) = colour_word(name).or_else(|| colour_letter(name, player_colours)) else {
        return Parsed { colour: None, rest: name, chess: None, whole: name };
    };
    let chess = if colour.0 == "white" || colour.0 == "black" { chess_kind(rest) } else { None };
    // A name that is only a colour ("white", "b") is labelled by itself.
    let rest = if rest.is_empty() { name } else { rest };
    Parsed { colour: Some(colour), rest, chess, whole: name }
}

/// Whether `rest` may follow a word: the end, or anything but a lower-case letter.
fn word_ends(rest: &str) -> bool {
    rest.chars().next().is_none_or(|c| !c.is_lowercase())
}

/// A colour word at the start of `name` and the rest of the name.
fn colour_word(name: &str) -> Option<(Colour, &str)> {
    COLOURS.iter().find_map(|&entry| {
        let head = name.get(..entry.0.len())?;
        let rest = &name[entry.0.len()..];
        (head.eq_ignore_ascii_case(entry.0) && word_ends(rest))
            .then(|| (entry, rest.trim_start_matches(['_', '-'])))
    })
}

/// A colour letter at the start of `name` (alone or before a capital or digit) and the rest.
fn colour_letter<'a>(name: &'a str, player_colours: &[Colour]) -> Option<(Colour, &'a str)> {
    let mut chars = name.chars();
    let letter = chars.next()?;
    let rest = chars.as_str();
    if !rest.chars().next().is_none_or(|c| c.is_uppercase() || c.is_ascii_digit()) {
        return None;
    }
    // A player's colour by its initial (connect4's `R` and `Y`, alone, are the red and yellow
    // players' discs); the fixed letters below only in lower case.
    // An upper-case letter only alone, so that `BK` stays no colour.
    let lower = if rest.is_empty() { letter.to_ascii_lowercase() } else { letter };
    let by_player = player_colours.iter().copied().find(|c| c.0.starts_with(lower));
    let word = match letter {
        'w' => "white",
        'b' => "black",
        'r' => "red",
        'y' => "yellow",
        _ => "",
    };
    let colour = by_player.or_else(|| COLOURS.iter().copied().find(|c| c.0 == word))?;
    Some((colour, rest))
}

fn chess_kind(rest: &str) -> Option<ChessKind> {
    let mut chars = rest.chars();
    if let (Some(c), None) = (chars.next(), chars.next()) {
        return ChessKind::WORDS.iter().find(|w| w.1 == c).map(|w| w.2);
    }
    // A piece letter with a short lower-case mark of its state, e.g. `Rc` and `Kc` for a rook
    // and king that may still castle (games/chessGardner.rbg).
    let mut chars = rest.chars();
    if let Some(c) = chars.next().filter(char::is_ascii_uppercase) {
        let mark = chars.as_str();
        if mark.len() <= 2 && mark.chars().all(|m| m.is_ascii_lowercase()) {
            if let Some(word) = ChessKind::WORDS.iter().find(|w| w.1 == c) {
                return Some(word.2);
            }
        }
    }
    ChessKind::WORDS.iter().find_map(|&(word, _, kind)| {
        let head = rest.get(..word.len())?;
        (head.eq_ignore_ascii_case(word) && word_ends(&rest[word.len()..])).then_some(kind)
    })
}

/// Longest label kept when lengthening to tell discs apart.
const MAX_LABEL_PREFIX: usize = 3;

/// Gives each disc a label: a prefix of its base name (first character upper-cased) and the
/// base's later capitals and digits; prefixes grow where two discs of one colour collide.
fn assign_labels(looks: &mut [Look], discs: &[(usize, &str)]) {
    let fill_of = |looks: &[Look], i: usize| match &looks[i] {
        Look::Disc { fill, .. } => fill.clone(),
        _ => String::new(),
    };
    let mut lengths = vec![1usize; discs.len()];
    let mut labels: Vec<String> = discs.iter().map(|&(_, base)| label(base, 1)).collect();
    for _ in 0..MAX_LABEL_PREFIX {
        let mut grown = false;
        for a in 0..discs.len() {
            let clash = (0..discs.len()).any(|b| {
                b != a && labels[a] == labels[b] && fill_of(looks, discs[a].0) == fill_of(looks, discs[b].0)
            });
            if clash && lengths[a] < MAX_LABEL_PREFIX {
                lengths[a] += 1;
                grown = true;
            }
        }
        labels = discs.iter().zip(&lengths).map(|(&(_, base), &n)| label(base, n)).collect();
        if !grown {
            break;
        }
    }
    for (&(i, _), text) in discs.iter().zip(labels) {
        if let Look::Disc { label, .. } = &mut looks[i] {
            *label = text;
        }
    }
}

/// The first `prefix` characters of `base` (the first upper-cased) and then its later capitals
/// and digits, at most four characters in all.
fn label(base: &str, prefix: usize) -> String {
    for word in ["promoted", "Promoted"] {
        if let Some(rest) = base.strip_prefix(word).filter(|r| !r.is_empty()) {
            return format!("+{}", label(rest, prefix)).chars().take(4).collect();
        }
    }
    let chars: Vec<char> = base.chars().collect();
    let mut out: String =
        chars.iter().take(prefix).enumerate().map(|(i, &c)| if i == 0 { upper(c) } else { c }).collect();
    for &c in chars.iter().skip(prefix) {
        if c.is_uppercase() || c.is_ascii_digit() {
            out.push(c);
        }
    }
    out.chars().take(4).collect()
}

fn upper(c: char) -> char {
    c.to_uppercase().next().unwrap_or(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    fn disc_label(look: &Look) -> &str {
        match look {
            Look::Disc { label, .. } => label,
            other => panic!("not a disc: {other:?}"),
        }
    }

    #[test]
    fn the_empty_piece_is_found_by_name_and_case_matters_only_for_e() {
        for empty in ["e", "empty", "Empty", "FREE", "none", "blank"] {
            assert!(is_empty_name(empty), "{empty}");
        }
        for piece in ["E", "x", "emptyish", "whitePawn"] {
            assert!(!is_empty_name(piece), "{piece}");
        }
    }

    #[test]
    fn chess_names_get_their_symbols() {
        let looks = piece_looks(
            &names(&["whiteKing", "blackQueen", "wN", "bPawn", "whiteRookMoved", "empty", "wRc", "bKc"]),
            &[],
            &[],
        );
        assert_eq!(looks[0], Look::Glyph { kind: ChessKind::King, white: true });
        assert_eq!(looks[1], Look::Glyph { kind: ChessKind::Queen, white: false });
        assert_eq!(looks[2], Look::Glyph { kind: ChessKind::Knight, white: true });
        assert_eq!(looks[3], Look::Glyph { kind: ChessKind::Pawn, white: false });
        assert_eq!(looks[4], Look::Glyph { kind: ChessKind::Rook, white: true });
        assert_eq!(looks[5], Look::Hidden);
        assert_eq!(looks[6], Look::Glyph { kind: ChessKind::Rook, white: true });
        assert_eq!(looks[7], Look::Glyph { kind: ChessKind::King, white: false });
        assert_eq!(ChessKind::King.glyph(true), '♔');
        assert_eq!(ChessKind::Pawn.glyph(false), '♟');
    }

    #[test]
    fn draughts_kings_alone_are_not_chess() {
        let looks =
            piece_looks(&names(&["blackKing", "blackMan", "empty", "whiteKing", "whiteMan"]), &[], &[]);
        // Kings crowned, men plain.
        assert_eq!(
            looks[0],
            Look::Disc { fill: "#262626".into(), ink: "#f4f4f4".into(), label: CROWN.into() }
        );
        assert_eq!(disc_label(&looks[1]), "");
        assert_eq!(disc_label(&looks[3]), CROWN);
        assert_eq!(disc_label(&looks[4]), "");
    }

    #[test]
    fn colliding_labels_grow_and_capitals_follow() {
        let looks = piece_looks(
            &names(&["goldCamel", "goldCat", "goldRabbit", "goldRabbitSecond", "silverCat"]),
            &[],
            &[],
        );
        assert_eq!(disc_label(&looks[0]), "Cam");
        assert_eq!(disc_label(&looks[1]), "Cat");
        assert_eq!(disc_label(&looks[2]), "R");
        assert_eq!(disc_label(&looks[3]), "RS");
        // Another colour: no clash with the gold cat.
        assert_eq!(disc_label(&looks[4]), "C");
    }

    #[test]
    fn letters_and_words_that_are_not_colours_get_the_palette() {
        let looks = piece_looks(&names(&["e", "o", "x", "redoubt"]), &names(&["xplayer", "oplayer"]), &[]);
        assert_eq!(looks[0], Look::Hidden);
        assert_eq!(
            looks[1],
            Look::Disc { fill: PALETTE[0].0.into(), ink: PALETTE[0].1.into(), label: "O".into() }
        );
        assert_eq!(
            looks[2],
            Look::Disc { fill: PALETTE[1].0.into(), ink: PALETTE[1].1.into(), label: "X".into() }
        );
        assert_eq!(disc_label(&looks[3]), "R");
        let stones = piece_looks(&names(&["b", "w"]), &names(&["black", "white"]), &[]);
        assert_eq!(
            stones[0],
            Look::Disc { fill: "#262626".into(), ink: "#f4f4f4".into(), label: String::new() }
        );
        assert_eq!(
            stones[1],
            Look::Disc { fill: "#f4f1ea".into(), ink: "#1d1d1d".into(), label: String::new() }
        );
    }

    #[test]
    fn a_colourless_piece_filling_half_the_board_is_background() {
        // Our draughts: 32 pale squares, 8 open, 12 men a side on 64 squares.
        let pieces = names(&["bKing", "bMan", "open", "pale", "wKing", "wMan"]);
        let looks = piece_looks(&pieces, &names(&["white", "black"]), &[0, 12, 8, 32, 0, 12]);
        assert_eq!(looks[2], Look::Hidden);
        assert_eq!(looks[3], Look::Hidden);
        assert_eq!(disc_label(&looks[1]), "");
        // Without the counts pale is a piece; a coloured piece filling the board stays drawn.
        assert_ne!(piece_looks(&pieces, &[], &[])[3], Look::Hidden);
        let full = piece_looks(&names(&["whiteStone", "e"]), &[], &[9, 0]);
        assert_ne!(full[0], Look::Hidden);
    }

    #[test]
    fn plain_men_and_stones_promoted_pieces() {
        let looks = piece_looks(&names(&["blackStone", "whiteStone", "redDisc", "empty"]), &[], &[]);
        assert!(looks[..3].iter().all(|l| disc_label(l).is_empty()), "{looks:?}");
        // Two plain pieces of one colour keep their letters apart.
        let two = piece_looks(&names(&["whiteMan", "white"]), &[], &[]);
        assert!(two.iter().all(|l| !disc_label(l).is_empty()), "{two:?}");
        let shogi = piece_looks(&names(&["blackPromotedSilver", "blackSilver", "blackGold"]), &[], &[]);
        assert_eq!(disc_label(&shogi[0]), "+S");
        assert_eq!(disc_label(&shogi[1]), "S");
        assert_eq!(disc_label(&shogi[2]), "G");
    }

    #[test]
    fn single_letters_take_the_colours_of_the_players() {
        // Hex: players red and blue, so b is blue, not black.
        let hex = piece_looks(&names(&["b", "e", "r"]), &names(&["red", "blue"]), &[]);
        // Stones of one colour each: plain discs.
        assert_eq!(
            hex[0],
            Look::Disc { fill: "#2f6fd0".into(), ink: "#ffffff".into(), label: String::new() }
        );
        assert_eq!(
            hex[2],
            Look::Disc { fill: "#d03b3b".into(), ink: "#ffffff".into(), label: String::new() }
        );
        // Breakthru: g and s are gold and silver; gf is not a single letter (lower-case f).
        // Connect four: players red and yellow, discs R and Y.
        let connect4 = piece_looks(&names(&["R", "Y", "air"]), &names(&["red", "yellow"]), &[0, 0, 42]);
        assert_eq!(
            connect4[0],
            Look::Disc { fill: "#d03b3b".into(), ink: "#ffffff".into(), label: String::new() }
        );
        assert_eq!(
            connect4[1],
            Look::Disc { fill: "#f2c81e".into(), ink: "#1d1d1d".into(), label: String::new() }
        );
        assert_eq!(connect4[2], Look::Hidden);
        // Without such players an upper-case letter is no colour.
        assert!(
            matches!(&piece_looks(&names(&["R"]), &[], &[])[0], Look::Disc { fill, .. } if fill == PALETTE[0].0)
        );
        let breakthru = piece_looks(&names(&["e", "g", "gf", "s"]), &names(&["gold", "silver"]), &[]);
        assert_eq!(
            breakthru[1],
            Look::Disc { fill: "#d4a52a".into(), ink: "#1d1d1d".into(), label: String::new() }
        );
        assert_eq!(
            breakthru[3],
            Look::Disc { fill: "#b9bec7".into(), ink: "#1d1d1d".into(), label: String::new() }
        );
        assert_eq!(
            breakthru[2],
            Look::Disc { fill: PALETTE[0].0.into(), ink: PALETTE[0].1.into(), label: "G".into() }
        );
    }
}
