//! State serialisation: a versioned, self-checking byte format for game states.
//!
//! [`Game::encode_state`](crate::Game::encode_state) and
//! [`Game::decode_state`](crate::Game::decode_state) use it through the game-independent
//! [`StateParts`]. Layout (integers are unsigned LEB128 varints unless said otherwise):
//!
//! | field | bytes |
//! |---|---|
//! | magic | `RBGS` |
//! | format version | one byte, [`FORMAT_VERSION`] |
//! | game fingerprint | 8, little endian: [`game_fingerprint`] of the [`GameInfo`] |
//! | rules fingerprint | 8, little endian: [`Game::rules_fingerprint`](crate::Game::rules_fingerprint) |
//! | pieces | count, then one piece id per vertex |
//! | variables | count, then one zigzag-encoded value per variable |
//! | current vertex, current player, rules state | one varint each |
//! | checksum | 8, little endian: FNV-1a (64 bit) of every byte before it |
//!
//! The checksum makes every single-byte corruption an error (FNV-1a's steps are bijections of
//! the running hash, so changing one input byte always changes the result); the fingerprints
//! reject states of another game or of a reasoner numbering rules positions differently; the
//! values are checked against the game's sizes and bounds. Decoding never panics.

use core::fmt;

use crate::game::{GameInfo, Player};

/// The first bytes of every encoded state.
pub const MAGIC: [u8; 4] = *b"RBGS";

/// The version of the layout written by [`encode`].
pub const FORMAT_VERSION: u8 = 1;

/// A state as game-independent data: what the accessors of [`crate::Game`] report.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StateParts {
    /// The piece id on each vertex, in vertex order.
    pub pieces: Vec<u32>,
    /// The value of each variable (see [`GameInfo::variables`]).
    pub variables: Vec<i64>,
    /// The current vertex.
    pub vertex: u32,
    /// The player to move (0 is the keeper).
    pub player: Player,
    /// The reasoner's rules position (see [`crate::Game::rules_state`]).
    pub rules_state: u32,
}

/// Why bytes could not be decoded into a state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StateCodecError {
    /// The bytes do not start with [`MAGIC`]: not an encoded state.
    BadMagic,
    /// The format version is not one this library reads.
    UnsupportedVersion {
        /// The version in the bytes.
        found: u8,
    },
    /// The state belongs to another game (its fingerprint differs).
    WrongGame {
        /// This game's fingerprint.
        expected: u64,
        /// The fingerprint in the bytes.
        found: u64,
    },
    /// The state was written by a reasoner that numbers rules positions differently.
    WrongReasoner {
        /// This reasoner's rules fingerprint.
        expected: u64,
        /// The rules fingerprint in the bytes.
        found: u64,
    },
    /// The bytes end before the state does.
    Truncated,
    /// The checksum does not match: the bytes were altered.
    Corrupted,
    /// Bytes follow the end of the state.
    TrailingBytes,
    /// A value is impossible for this game; `what` names it.
    OutOfRange {
        /// What the value is (e.g. "piece id").
        what: &'static str,
        /// The value read (-1 when the reasoner does not say).
        value: i128,
    },
    /// This reasoner cannot build states from their parts.
    Unsupported,
    /// A reasoner behind a library boundary (see [`crate::abi`]) refused the bytes; `message`
    /// is its explanation.
    Rejected {
        /// The library's description of the error.
        message: String,
    },
}

impl fmt::Display for StateCodecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StateCodecError::BadMagic => write!(f, "not an encoded RBG state (bad magic bytes)"),
            StateCodecError::UnsupportedVersion { found } => {
                write!(
                    f,
                    "state format version {found} is not supported (this library reads {FORMAT_VERSION})"
                )
            }
            StateCodecError::WrongGame { expected, found } => write!(
                f,
                "the state belongs to another game (fingerprint {found:016x}, this game {expected:016x})"
            ),
            StateCodecError::WrongReasoner { expected, found } => write!(
                f,
                "the state was saved by a reasoner with another rules numbering \
                 (fingerprint {found:016x}, this reasoner {expected:016x})"
            ),
            StateCodecError::Truncated => write!(f, "the encoded state is truncated"),
            StateCodecError::Corrupted => write!(f, "the encoded state is corrupted (checksum mismatch)"),
            StateCodecError::TrailingBytes => write!(f, "unexpected bytes after the encoded state"),
            StateCodecError::OutOfRange { what, value } => {
                write!(f, "the encoded state has an impossible {what}: {value}")
            }
            StateCodecError::Unsupported => write!(f, "decoding states is unsupported by this reasoner"),
            StateCodecError::Rejected { message } => write!(f, "{message}"),
        }
    }
}

impl std::error::Error for StateCodecError {}

/// FNV-1a, 64 bit: a small hash whose value is fixed by its definition (unlike std's
/// `DefaultHasher`), so fingerprints and checksums agree between runs and versions.
#[derive(Clone, Copy, Debug)]
pub struct Fnv1a(u64);

impl Default for Fnv1a {
    fn default() -> Self {
        Fnv1a(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv1a {
    /// Feeds bytes.
    pub fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    /// Feeds a number as 8 little-endian bytes.
    pub fn write_u64(&mut self, x: u64) {
        self.write(&x.to_le_bytes());
    }

    /// Feeds a string, length first (so that `["ab", "c"]` and `["a", "bc"]` differ).
    pub fn write_str(&mut self, s: &str) {
        self.write_u64(s.len() as u64);
        self.write(s.as_bytes());
    }

    /// The hash of everything fed.
    pub fn finish(&self) -> u64 {
        self.0
    }
}

/// A fingerprint of the game: FNV-1a over a canonical byte form of the [`GameInfo`] fields that
/// define the game (players, pieces, variables and bounds, vertices, labels, edges, modifiers,
/// switches). The name (a file stem) and the drawing positions are left out: renaming a file
/// or redrawing a board does not change the game.
pub fn game_fingerprint(info: &GameInfo) -> u64 {
    let mut h = Fnv1a::default();
    let strings = |h: &mut Fnv1a, list: &[String]| {
        h.write_u64(list.len() as u64);
        list.iter().for_each(|s| h.write_str(s));
    };
    strings(&mut h, &info.players);
    strings(&mut h, &info.pieces);
    strings(&mut h, &info.variables);
    h.write_u64(info.bounds.len() as u64);
    info.bounds.iter().for_each(|&b| h.write_u64(b as u64));
    strings(&mut h, &info.vertices);
    strings(&mut h, &info.labels);
    h.write_u64(info.edges.len() as u64);
    for &(from, label, to) in &info.edges {
        h.write_u64(u64::from(from));
        h.write_u64(u64::from(label));
        h.write_u64(u64::from(to));
    }
    h.write_u64(u64::from(info.modifiers));
    h.write_u64(info.switches.len() as u64);
    info.switches.iter().for_each(|&s| h.write_u64(u64::from(s)));
    h.finish()
}

fn put_varint(out: &mut Vec<u8>, mut x: u64) {
    while x >= 0x80 {
        out.push((x as u8 & 0x7f) | 0x80);
        x >>= 7;
    }
    out.push(x as u8);
}

/// Appends the encoding of `parts` to `out`.
pub fn encode(info: &GameInfo, rules_fingerprint: u64, parts: &StateParts, out: &mut Vec<u8>) {
    let start = out.len();
    out.extend_from_slice(&MAGIC);
    out.push(FORMAT_VERSION);
    out.extend_from_slice(&game_fingerprint(info).to_le_bytes());
    out.extend_from_slice(&rules_fingerprint.to_le_bytes());
    put_varint(out, parts.pieces.len() as u64);
    parts.pieces.iter().for_each(|&p| put_varint(out, u64::from(p)));
    put_varint(out, parts.variables.len() as u64);
    parts.variables.iter().for_each(|&v| put_varint(out, ((v << 1) ^ (v >> 63)) as u64));
    put_varint(out, u64::from(parts.vertex));
    put_varint(out, u64::from(parts.player));
    put_varint(out, u64::from(parts.rules_state));
    let mut h = Fnv1a::default();
    h.write(&out[start..]);
    out.extend_from_slice(&h.finish().to_le_bytes());
}

/// Reads bytes front to back.
struct Reader<'a> {
    bytes: &'a [u8],
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], StateCodecError> {
        if self.bytes.len() < n {
            return Err(StateCodecError::Truncated);
        }
        let (head, rest) = self.bytes.split_at(n);
        self.bytes = rest;
        Ok(head)
    }

    fn u64_le(&mut self) -> Result<u64, StateCodecError> {
        let mut b = [0u8; 8];
        b.copy_from_slice(self.take(8)?);
        Ok(u64::from_le_bytes(b))
    }

    fn varint(&mut self, what: &'static str) -> Result<u64, StateCodecError> {
        let mut x = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.take(1)?[0];
            let bits = u64::from(b & 0x7f);
            if shift == 63 && bits > 1 {
                return Err(StateCodecError::OutOfRange { what, value: i128::MAX });
            }
            x |= bits << shift;
            if b & 0x80 == 0 {
                return Ok(x);
            }
        }
        Err(StateCodecError::OutOfRange { what, value: i128::MAX })
    }

    /// A varint below `bound`.
    fn below(&mut self, what: &'static str, bound: u64) -> Result<u32, StateCodecError> {
        let x = self.varint(what)?;
        if x >= bound || x > u64::from(u32::MAX) {
            return Err(StateCodecError::OutOfRange { what, value: i128::from(x) });
        }
        Ok(x as u32)
    }
}

/// Reads the parts of a state encoded by [`encode`] for this game and rules numbering, checking
/// them against `info`: sizes, piece ids, variable bounds (0 to the bound), vertex and player.
pub fn decode(info: &GameInfo, rules_fingerprint: u64, bytes: &[u8]) -> Result<StateParts, StateCodecError> {
    // Header first, so that another format or game is reported as such rather than as a
    // checksum mismatch.
    let mut r = Reader { bytes };
    let magic = r.take(MAGIC.len()).map_err(|_| StateCodecError::BadMagic)?;
    if magic != MAGIC {
        return Err(StateCodecError::BadMagic);
    }
    let version = r.take(1)?[0];
    if version != FORMAT_VERSION {
        return Err(StateCodecError::UnsupportedVersion { found: version });
    }
    let (game, rules) = (r.u64_le()?, r.u64_le()?);
    if bytes.len() < 8 + MAGIC.len() + 17 {
        return Err(StateCodecError::Truncated);
    }
    let (body, checksum) = bytes.split_at(bytes.len() - 8);
    let mut h = Fnv1a::default();
    h.write(body);
    let checksum_ok = checksum == h.finish().to_le_bytes();
    let expected = game_fingerprint(info);
    if game != expected {
        return Err(if checksum_ok {
            StateCodecError::WrongGame { expected, found: game }
        } else {
            StateCodecError::Corrupted
        });
    }
    if rules != rules_fingerprint {
        return Err(if checksum_ok {
            StateCodecError::WrongReasoner { expected: rules_fingerprint, found: rules }
        } else {
            StateCodecError::Corrupted
        });
    }
    let mut r = Reader { bytes: &body[MAGIC.len() + 17..] };
    let parts = read_parts(info, &mut r);
    if !checksum_ok {
        // A truncated encoding fails the checksum too; say which it is when we can tell.
        return Err(match parts {
            Err(StateCodecError::Truncated) => StateCodecError::Truncated,
            _ => StateCodecError::Corrupted,
        });
    }
    let parts = parts?;
    if !r.bytes.is_empty() {
        return Err(StateCodecError::TrailingBytes);
    }
    Ok(parts)
}

fn read_parts(info: &GameInfo, r: &mut Reader<'_>) -> Result<StateParts, StateCodecError> {
    let vertices = info.vertices.len() as u64;
    let n = r.varint("vertex count")?;
    if n != vertices {
        return Err(StateCodecError::OutOfRange { what: "vertex count", value: i128::from(n) });
    }
    let pieces =
        (0..n).map(|_| r.below("piece id", info.pieces.len() as u64)).collect::<Result<Vec<_>, _>>()?;
    let n = r.varint("variable count")?;
    if n != info.variables.len() as u64 {
        return Err(StateCodecError::OutOfRange { what: "variable count", value: i128::from(n) });
    }
    let variables = (0..info.variables.len())
        .map(|i| {
            let z = r.varint("variable value")?;
            let v = ((z >> 1) as i64) ^ -((z & 1) as i64);
            let bound = info.bounds.get(i).copied().unwrap_or(i64::MAX);
            if v < 0 || v > bound {
                return Err(StateCodecError::OutOfRange { what: "variable value", value: i128::from(v) });
            }
            Ok(v)
        })
        .collect::<Result<Vec<_>, _>>()?;
    let vertex = r.below("current vertex", vertices)?;
    let player = r.below("current player", info.players.len() as u64 + 1)?;
    let rules_state = r.below("rules state", u64::from(u32::MAX) + 1)?;
    Ok(StateParts { pieces, variables, vertex, player, rules_state })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info() -> GameInfo {
        GameInfo {
            players: vec!["a".into(), "b".into()],
            pieces: vec!["e".into(), "x".into(), "y".into()],
            variables: vec!["a".into(), "b".into(), "t".into()],
            bounds: vec![100, 100, 1 << 40],
            vertices: (0..200).map(|i| format!("v{i}")).collect(),
            modifiers: 5,
            switches: vec![5],
            ..Default::default()
        }
    }

    fn parts() -> StateParts {
        StateParts {
            pieces: (0..200).map(|i| i % 3).collect(),
            variables: vec![0, 100, (1 << 40) - 3],
            vertex: 199,
            player: 2,
            rules_state: 123_456,
        }
    }

    #[test]
    fn fnv1a_matches_the_published_test_vectors() {
        let hash = |s: &str| {
            let mut h = Fnv1a::default();
            h.write(s.as_bytes());
            h.finish()
        };
        assert_eq!(hash(""), 0xcbf29ce484222325);
        assert_eq!(hash("a"), 0xaf63dc4c8601ec8c);
        assert_eq!(hash("foobar"), 0x85944171f73967e8);
    }

    #[test]
    fn round_trip_and_the_header_errors() {
        let (info, parts) = (info(), parts());
        let mut bytes = Vec::new();
        encode(&info, 7, &parts, &mut bytes);
        assert_eq!(&bytes[..5], b"RBGS\x01");
        assert_eq!(decode(&info, 7, &bytes), Ok(parts.clone()));
        assert!(matches!(decode(&info, 8, &bytes), Err(StateCodecError::WrongReasoner { .. })));
        let mut other = info.clone();
        other.pieces[2] = "z".into();
        assert!(matches!(decode(&other, 7, &bytes), Err(StateCodecError::WrongGame { .. })));
        // The name and the drawing positions are not part of the game.
        let mut renamed = info.clone();
        renamed.name = "renamed".into();
        assert_eq!(decode(&renamed, 7, &bytes), Ok(parts.clone()));
        assert_eq!(decode(&info, 7, b"RBG"), Err(StateCodecError::BadMagic));
        assert_eq!(decode(&info, 7, b"RBGS\x02rest"), Err(StateCodecError::UnsupportedVersion { found: 2 }));
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(decode(&info, 7, &longer).is_err());
    }

    #[test]
    fn values_are_checked_against_the_game() {
        let info = info();
        type Spoil = fn(&mut StateParts);
        let cases: [(&str, Spoil); 5] = [
            ("piece id", |p| p.pieces[3] = 3),
            ("variable value", |p| p.variables[0] = 101),
            ("variable value", |p| p.variables[2] = -1),
            ("current vertex", |p| p.vertex = 200),
            ("current player", |p| p.player = 3),
        ];
        for (what, spoil) in cases {
            let mut parts = parts();
            spoil(&mut parts);
            let mut bytes = Vec::new();
            encode(&info, 0, &parts, &mut bytes);
            match decode(&info, 0, &bytes) {
                Err(StateCodecError::OutOfRange { what: w, .. }) => assert_eq!(w, what),
                other => panic!("{what}: {other:?}"),
            }
        }
        let mut parts = parts();
        parts.pieces.pop();
        let mut bytes = Vec::new();
        encode(&info, 0, &parts, &mut bytes);
        assert!(matches!(
            decode(&info, 0, &bytes),
            Err(StateCodecError::OutOfRange { what: "vertex count", .. })
        ));
    }

    proptest::proptest! {
        #[test]
        fn arbitrary_bytes_never_panic(tail in proptest::collection::vec(proptest::num::u8::ANY, 0..64)) {
            let info = info();
            let _ = decode(&info, 7, &tail);
            // Also behind a valid header, so the body reader sees them.
            let mut bytes = Vec::new();
            encode(&info, 7, &parts(), &mut bytes);
            bytes.truncate(MAGIC.len() + 17);
            bytes.extend_from_slice(&tail);
            let _ = decode(&info, 7, &bytes);
            let game = crate::toy::Nim::new(3);
            let _ = crate::Game::decode_state(&game, &bytes);
        }
    }

    #[test]
    fn every_prefix_and_single_byte_change_is_an_error() {
        let (info, parts) = (info(), parts());
        let mut bytes = Vec::new();
        encode(&info, 7, &parts, &mut bytes);
        for len in 0..bytes.len() {
            assert!(decode(&info, 7, &bytes[..len]).is_err(), "prefix of {len} bytes decoded");
        }
        for i in 0..bytes.len() {
            for x in [0x01u8, 0x80, 0xff] {
                let mut spoiled = bytes.clone();
                spoiled[i] ^= x;
                assert!(decode(&info, 7, &spoiled).is_err(), "byte {i} ^ {x:#x} decoded");
            }
        }
    }
}
