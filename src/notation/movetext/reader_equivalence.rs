//! The typed reader (`move_syntax::parse`, then `resolve`) against the string-matching reader it
//! replaced (`string_reader`), along random playouts (deterministic seeds, xorshift64) of every
//! built-in game and example user game from its start and from positions with castling, e.p., hook captures,
//! detonations and growing roses to hand: every legal move's canonical text and its wire text
//! with castling and e.p. as two legs name that move, and both readers give the same answer for
//! its wire text in each style, for many malformed, misspelt or ambiguous texts made from these,
//! and for every text of the kept fuzz corpus. Known difference, outside the grammar: the old reader took XBoard's relay of a growing
//! rose (`e7b8,e8c8`) with any character for the last file (`e7b8,e8#8`); the typed one takes a
//! file `a`–`p`, the grammar's squares (a board has at most 16 files; the square beside the unit,
//! or the first off the board, is one of them on any board of up to 15).

use super::string_reader::{self, WireStyle, wire};
use super::{MoveTextError, canonical, multi_leg, parse_move};
use crate::core::{Move, Position};
use crate::notation::{Coords, fen, square_name};
use crate::variants::Registry;

/// Positions (human coordinates) where the rarer forms come up at once.
const STARTS: &[(&str, &str)] = &[
    (
        "normal",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ),
    (
        "normal",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    ),
    (
        "normal",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    ),
    ("wildcastle", "r2k3r/pppppppp/8/8/8/8/PPPPPPPP/R2K3R w KQkq - 0 1"),
    ("wildcastle", "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R2K3R w KQkq - 0 1"),
    (
        "wildcastle",
        "rbbqknnr/ppp1pppp/8/8/2Pp4/8/PP1PPPPP/RBBQKNNR b KQkq c3 0 2",
    ),
    ("wildcastle", "r2k3r/1P4P1/8/8/8/8/1p4p1/R2K3R w KQkq - 0 1"),
    ("pillage", "5k4/10/10/10/10/10/10/10/1R3K2R1/CV6VC w KQ - 0 1"),
    ("pillage", "9k/10/4r5/10/4P5/10/4C5/4n5/10/K9 w - - 0 1"),
    ("pillage", "9k/10/10/10/10/3p6/2P7/1V8/10/K9 w - - 0 1"),
    ("pillage", "9k/10/10/3pP5/10/10/10/10/10/K9 b - e5 0 1"),
    ("wreckage", "K8k/10/10/10/3jr5/4XP4/3b1p4/10/10/10 w - - 0 1"),
    ("wreckage", "9k/10/3r6/10/5p4/10/2bD6/3w6/10/K9 w - - 0 1"),
    ("wreckage", "9k/10/10/4r5/4p5/4G5/10/10/10/K9 w - - 0 1"),
    ("wreckage", "5k4/6r3/10/10/10/10/10/10/10/XR3K2RD w KQ - 0 1"),
    ("wreckage", "10/10/10/10/3k6/10/10/10/PPPP1PPPPP/K9[J] w - - 0 1"),
    ("wildrose", "1n5w/4P3/7w/8/8/8/W7/1W6 w - - 0 1"),
    ("wildrose", "1n1n3w/4P1P1/8/8/7w/8/W7/1W6 w - - 0 1"),
    ("wildrose", "1n5w/6P1/8/3pP3/8/8/7w/WW6 w - d6 0 1"),
    ("wildrose", "7w/4P3/8/8/8/8/W7/1W5w w - - 0 1"),
    ("wildrose", "1w6/w7/8/8/8/7W/4p3/1N5W b - - 0 1"),
    ("crazyhouse", "r1b1k2r/1P3ppp/8/8/8/8/5PPP/4K2R[NBRQnbrq] w Kkq - 0 1"),
    ("crazyhouse", "4k3/1Q~6/8/8/8/8/6q~1/4K3[RRrr] w - - 0 1"),
];

/// Texts no position changes the reading of.
const ODD_TEXTS: &[&str] = &[
    "",
    " ",
    "@@@@",
    "@@@",
    "O-O",
    "O-O-O",
    "o-o",
    "0-0-0",
    "O-O+",
    "e2e4e5",
    "e2-e4",
    "E2E4",
    "e2e4@",
    "E2E4@",
    "p@e4",
    "P@E4",
    "N'@d4",
    "P@e4,",
    "P@e4,e4e5",
    "e2e4,P@e4",
    "e7e8=b8=q",
    "e7e8=q,",
    "e7e8=q,e8e7",
    "e2e4,,",
    "e2e4,e4e5,e5e6",
    "e2e4 e4e5",
    "\te2e4\n",
    "é2e4",
    "e2é4",
    "e08e4",
    "e2e04",
    "e00e1",
    "a0a0",
    "p16p15",
    "q2e4",
    "Nf3",
    "0000",
    "e2",
    "e2e",
    "c7c8+",
    "c7c8-",
    "c7c8=",
    "c7c8+,c8c7",
    "e7e8=Q",
    "e7e8==q",
];

struct XorShift(u64);

impl XorShift {
    fn below(&mut self, n: usize) -> usize {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        (x % n as u64) as usize
    }
}

/// Both readers give the same answer for `text` in `coords`.
fn same(pos: &Position, text: &str, coords: Coords) {
    let _ = both(pos, text, coords);
}

/// Both readers give the same answer for `text` in `coords`; returns it.
fn both(pos: &Position, text: &str, coords: Coords) -> Result<Move, MoveTextError> {
    let typed = parse_move(pos, text, coords);
    let strings = string_reader::parse_move(pos, text, coords);
    assert_eq!(
        typed,
        strings,
        "{text:?} ({coords:?}) in {}",
        fen::to_fen(pos, Coords::Human)
    );
    typed
}

/// Texts made from a move's text `t`: other cases, decorations, suffixes, trailing commas, its
/// legs swapped or alone.
fn misspellings(t: &str) -> Vec<String> {
    let mut texts: Vec<String> = [
        t.to_ascii_uppercase(),
        format!(" {t} "),
        format!("{t}+"),
        format!("{t}#!?"),
        format!("{t},"),
        format!("{t}="),
        format!("{t}-"),
        format!("{t}q"),
        format!("{t}=q"),
        format!("{t}=Q"),
        format!("{t}=b8"),
        format!("{t},{t}"),
        format!("{t} {t}"),
        t.replace(',', ""),
        t.replace(',', " "),
    ]
    .into();
    if let Some((first, second)) = t.split_once(',') {
        texts.extend([
            first.to_string(),
            second.to_string(),
            format!("{second},{first}"),
            format!("{first},"),
            format!("{first}q,{second}"),
            format!("{first},{second}q"),
        ]);
    }
    if let Some(rest) = t.strip_suffix(|c: char| c.is_ascii_lowercase()) {
        texts.push(rest.to_string());
    }
    texts
}

/// Two-leg texts through every square of the board, for a move from `from` to `to`: as hook
/// captures, e.p., castling and detonations are written, and as XBoard relays growing roses.
fn through_every_square(pos: &Position, from: &str, to: &str, coords: Coords) -> Vec<String> {
    let shape = pos.variant().shape;
    let mut texts = Vec::new();
    for s in shape.squares() {
        let s = square_name(shape, s, coords);
        texts.push(format!("{from}{s},{s}{to}"));
        texts.push(format!("{from}{to},{s}{s}"));
        texts.push(format!("{from}{s},{to}{s}"));
        texts.push(format!("{from}{to},{to}{s}"));
        texts.push(format!("{s}{from}"));
        texts.push(format!("{from}{s}"));
    }
    texts
}

/// Checks the legal moves of `pos`: every one by its texts, a few chosen at random (the unusual
/// ones more often) by their misspellings, two by texts through every square.
fn check_position(pos: &Position, rng: &mut XorShift) {
    let shape = pos.variant().shape;
    let moves = pos.legal_moves();
    let unusual: Vec<usize> = (0..moves.len())
        .filter(|&i| {
            !matches!(
                moves.0[i],
                Move::Normal { .. } | Move::MultiStep { .. } | Move::Drop { .. }
            )
        })
        .collect();
    let mut picked = Vec::new();
    for _ in 0..3 {
        if !unusual.is_empty() {
            picked.push(unusual[rng.below(unusual.len())]);
        }
        if !moves.is_empty() {
            picked.push(rng.below(moves.len()));
        }
    }
    for (i, mv) in moves.iter().enumerate() {
        let human = canonical(pos, mv);
        assert_eq!(both(pos, &human, Coords::Human), Ok(*mv), "{human}");
        let legs = wire(pos, mv, WireStyle::LEGS);
        assert_eq!(both(pos, &legs, Coords::Wire), Ok(*mv), "{legs}");
        assert_eq!(multi_leg(pos, mv, Coords::Wire), legs);
        for style in WireStyle::ALL {
            same(pos, &wire(pos, mv, style), Coords::Wire);
        }
        if !picked.contains(&i) {
            continue;
        }
        for (t, coords) in [(&human, Coords::Human), (&legs, Coords::Wire)] {
            for text in misspellings(t) {
                same(pos, &text, coords);
            }
        }
        let Some(from) = mv.from() else {
            continue;
        };
        if !picked[..picked.len().min(2)].contains(&i) {
            continue;
        }
        for coords in [Coords::Human, Coords::Wire] {
            let (from, to) = (square_name(shape, from, coords), square_name(shape, mv.to(), coords));
            for text in through_every_square(pos, &from, &to, coords) {
                same(pos, &text, coords);
            }
            // XBoard's relay of growing roses, with the last square beside the converted unit or
            // off the board.
            if let Move::Grow { converts, .. } = *mv {
                let unit = square_name(shape, converts.unwrap_or(mv.to()), coords);
                for file in 'a'..='p' {
                    for text in [
                        format!("{from}{unit},{to}{file}{}", &unit[1..]),
                        format!("{from}{unit},{to}{file}{}q", &unit[1..]),
                        format!("{from}{unit},{to}{file}0{}", &unit[1..]),
                        format!("{from}{unit},{to}{file}1"),
                    ] {
                        same(pos, &text, coords);
                    }
                }
            }
        }
    }
    for text in ODD_TEXTS {
        for coords in [Coords::Human, Coords::Wire] {
            same(pos, text, coords);
        }
    }
}

fn playout(mut pos: Position, seed: u64, plies: usize) -> usize {
    let mut rng = XorShift(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let mut seen = 0;
    for _ in 0..plies {
        check_position(&pos, &mut rng);
        seen += 1;
        let moves = pos.legal_moves();
        if moves.is_empty() || pos.outcome().is_some() {
            break;
        }
        pos.make(moves.0[rng.below(moves.len())]);
    }
    seen
}

#[test]
fn the_typed_reader_reads_as_the_string_reader_did() {
    let registry = Registry::builtin();
    let mut positions = 0;
    for (i, v) in registry.all().iter().enumerate() {
        for seed in 0..2 {
            positions += playout(Position::start(v), 100 * i as u64 + seed, 20);
        }
    }
    // The example user games too (minishogi's promoted pieces, nightriders, cannons).
    let mut users = Registry::builtin();
    let examples = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/variants/examples");
    let mut files: Vec<_> = std::fs::read_dir(&examples)
        .expect("the examples")
        .map(|entry| entry.expect("an example").path())
        .filter(|path| path.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    for (i, path) in files.iter().enumerate() {
        let v = users.load_file(path).expect("an example loads");
        for seed in 0..2 {
            positions += playout(Position::start(&v), 500 + 100 * i as u64 + seed, 20);
        }
    }
    for (i, (game, fen_text)) in STARTS.iter().enumerate() {
        let v = registry.get(game).expect("built in");
        let setup = fen::parse_fen(fen_text, Coords::Human).expect("FEN");
        let pos = Position::from_setup(&v, &setup).expect("position");
        positions += playout(pos, 7000 + i as u64, 8);
    }
    assert!(positions > 300, "{positions} positions");
}

/// The kept fuzz corpus of move texts (`fuzz/corpus/move_text`: a game byte, a FEN line, then a
/// text a line), read as the fuzz target reads it: both readers agree on every text.
#[test]
fn the_fuzz_corpus_of_move_texts_reads_alike() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus/move_text");
    let registry = Registry::builtin();
    let all = registry.all();
    let mut texts = 0;
    for entry in std::fs::read_dir(&dir).expect("the corpus") {
        let data = std::fs::read(entry.expect("a corpus file").path()).expect("a corpus file");
        let Some((&game, rest)) = data.split_first() else {
            continue;
        };
        let v = &all[game as usize % all.len()];
        let text = String::from_utf8_lossy(rest);
        let mut lines = text.split('\n');
        let fen_text = lines.next().unwrap_or("");
        let pos = fen::parse_fen(fen_text, Coords::Human)
            .ok()
            .and_then(|setup| Position::from_setup(v, &setup).ok())
            .unwrap_or_else(|| Position::start(v));
        for word in lines.take(16) {
            for coords in [Coords::Human, Coords::Wire] {
                same(&pos, word, coords);
                texts += 1;
            }
        }
    }
    assert!(texts > 100, "{texts} texts");
}
