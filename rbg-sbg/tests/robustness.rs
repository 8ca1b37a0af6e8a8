//! Property tests: mutated SBG games never make [`rbg_sbg::parse`] panic or hang, every
//! diagnostic points inside the input, and every game that parses also translates into RBG the
//! RBG parser accepts and can be played by the direct reasoner.

mod support;

use proptest::prelude::*;
use proptest::sample::{select, Index};
use rbg_core::{Game, MoveList};

const GAMES: &[&str] =
    &["gardner.sbg", "breakthrough5.sbg", "nightriders.sbg", "grasshoppers.sbg", "cannibals.sbg"];

fn sources() -> Vec<Vec<u8>> {
    GAMES.iter().map(|f| std::fs::read(support::game_path(f)).expect("game file")).collect()
}

fn check(bytes: &[u8]) -> Result<(), TestCaseError> {
    match rbg_sbg::parse("mutant.sbg", bytes) {
        Err(diagnostics) => {
            prop_assert!(!diagnostics.is_empty());
            for d in &diagnostics {
                if let Some(span) = d.span {
                    prop_assert!(span.start <= span.end && span.end as usize <= bytes.len(), "{:?}", d);
                }
                for label in &d.labels {
                    prop_assert!(label.span.end as usize <= bytes.len(), "{:?}", d);
                }
            }
        }
        Ok(game) => {
            let generated = rbg_sbg::to_rbg_writer_with_source(&game, bytes).parse("mutant.rbg");
            prop_assert!(generated.game.is_some(), "translation rejected: {:?}", generated.parsed);
            let reasoner = rbg_sbg::SbgReasoner::new(&game);
            let mut state = reasoner.initial_state();
            let mut list = MoveList::new();
            prop_assert!(reasoner.legal_moves(&mut state, &mut reasoner.new_scratch(), &mut list).is_ok());
        }
    }
    Ok(())
}

#[derive(Clone, Debug)]
enum Edit {
    Insert(Index, u8),
    Delete(Index),
    Replace(Index, u8),
    /// Copies a stretch of the text elsewhere (duplicates letters, rows, goals).
    Copy(Index, Index, Index),
}

fn interesting_byte() -> impl Strategy<Value = u8> {
    prop_oneof![any::<u8>(), select(b"<>|&+()^*,-#@/\n .epwPpKk0123456789".to_vec())]
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<Index>(), interesting_byte()).prop_map(|(at, b)| Edit::Insert(at, b)),
        any::<Index>().prop_map(Edit::Delete),
        (any::<Index>(), interesting_byte()).prop_map(|(at, b)| Edit::Replace(at, b)),
        (any::<Index>(), any::<Index>(), any::<Index>()).prop_map(|(a, b, c)| Edit::Copy(a, b, c)),
    ]
}

impl Edit {
    fn apply(&self, bytes: &mut Vec<u8>) {
        let len = bytes.len();
        match self {
            Edit::Insert(at, b) => bytes.insert(at.index(len + 1), *b),
            _ if len == 0 => {}
            Edit::Delete(at) => {
                bytes.remove(at.index(len));
            }
            Edit::Replace(at, b) => bytes[at.index(len)] = *b,
            Edit::Copy(from, size, to) => {
                let start = from.index(len);
                let end = (start + size.index(40) + 1).min(len);
                let stretch = bytes[start..end].to_vec();
                let at = to.index(len + 1);
                bytes.splice(at..at, stretch);
            }
        }
    }
}

proptest! {
    #[test]
    fn mutated_games_never_panic(game in any::<Index>(), edits in prop::collection::vec(edit(), 1..8)) {
        let sources = sources();
        let mut bytes = sources[game.index(sources.len())].clone();
        for e in &edits {
            e.apply(&mut bytes);
        }
        check(&bytes)?;
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(interesting_byte(), 0..200)) {
        check(&bytes)?;
    }
}
