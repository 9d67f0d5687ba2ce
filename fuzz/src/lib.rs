//! What the fuzz targets share: the built-in games, and the invariants of a position (issue 15):
//! every generated move is legal, make then unmake restores the position and its hash, and every
//! text printed (FEN, each move notation) parses back to what was printed.

pub mod cecp;
pub mod uci;

/// A session harness a fuzz target drives with lines.
pub trait SessionHarness {
    fn new() -> Self;
    /// One line from the fuzzer, checked as the harness checks every line.
    fn send(&mut self, line: &str);
    /// The end of the input: what must hold of the whole session.
    fn finish(self);
}

/// The longest session a fuzz input makes, in lines: long enough for a game's worth of commands,
/// short enough for many inputs a second.
const SESSION_LINES: usize = 64;

/// A whole session from the fuzzer's bytes, a line each `\n`, through harness `H`.
pub fn fuzz_session<H: SessionHarness>(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let mut h = H::new();
    for line in text.split('\n').take(SESSION_LINES) {
        h.send(line);
    }
    h.finish();
}

use std::sync::{Arc, OnceLock};

use fairybridge::core::variant::Repetition;
use fairybridge::core::{Move, MoveKind, MoveList, Position, Variant};
use fairybridge::notation::{Coords, fen, movetext, san, zillions};
use fairybridge::protocol::uci::moves as uci_moves;
use fairybridge::variants::Registry;

/// The built-in games (built once per process).
pub fn registry() -> &'static Arc<Registry> {
    static REGISTRY: OnceLock<Arc<Registry>> = OnceLock::new();
    REGISTRY.get_or_init(|| Arc::new(fairybridge::protocol::builtin_games()))
}

/// The built-in game a byte picks.
pub fn variant(byte: u8) -> Arc<Variant> {
    let all = registry().all();
    Arc::clone(&all[byte as usize % all.len()])
}

/// A position read from a FEN in one game, or `None` if the text is not one.
pub fn position_from_fen(variant: &Arc<Variant>, text: &str, coords: Coords) -> Option<Position> {
    let setup = fen::parse_fen(text, coords).ok()?;
    Position::from_setup(variant, &setup).ok()
}

/// Everything a position states, for comparing two: FEN (board, hands, side, rights, e.p.,
/// counters), hash, turn state and history.
fn state(pos: &Position) -> (String, u64, bool, usize, Vec<u64>) {
    (
        fen::to_fen(pos, Coords::Human),
        pos.hash(),
        pos.in_continuation(),
        pos.plies_played(),
        pos.history().to_vec(),
    )
}

/// The incremental hash is the hash computed from scratch, and the FEN printed parses back to
/// the same position (same FEN, same hash), in both coordinate systems.
pub fn check_position(pos: &Position) {
    assert_eq!(pos.hash(), pos.recomputed_hash(), "incremental hash drifted: {pos:?}");
    if pos.in_continuation() {
        // A FEN cannot say "in the middle of a turn".
        return;
    }
    for coords in [Coords::Human, Coords::Wire] {
        let text = fen::to_fen(pos, coords);
        let back = position_from_fen(pos.variant(), &text, coords)
            .unwrap_or_else(|| panic!("printed FEN does not read back: {text}"));
        assert_eq!(fen::to_fen(&back, coords), text, "FEN round trip changed the position");
        assert_eq!(back.hash(), pos.hash(), "FEN round trip changed the hash: {text}");
    }
}

/// Is `mv` (pseudo-legal) legal, by the slow definition: make it and look?
fn legal_by_making(pos: &mut Position, mv: Move) -> bool {
    let us = pos.side_to_move();
    let forbidden = pos.variant().rules.repetition == Repetition::Forbidden;
    pos.make(mv);
    let ok = if pos.in_continuation() {
        pos.has_legal_move()
    } else {
        !pos.king_attacked(us) && !(forbidden && pos.occurred_before())
    };
    pos.unmake();
    ok
}

/// The legal moves are exactly the pseudo-legal moves that pass the slow test (castling, whose
/// path is a rule of its own, only that legal castlings pass it), each is made and unmade
/// cleanly, and its hash after make is the hash from scratch.
pub fn check_moves(pos: &mut Position) -> MoveList {
    let before = state(pos);
    let legal = pos.legal_moves();
    assert_eq!(state(pos), before, "generating moves changed the position");
    if pos.goal_reached().is_some() {
        assert!(legal.is_empty(), "moves after the game is decided");
        return legal;
    }
    let mut pseudo = MoveList::new();
    pos.generate_pseudo(&mut pseudo);
    for mv in pseudo.iter() {
        let is_legal = legal.iter().any(|m| m == mv);
        let slow = legal_by_making(pos, *mv);
        if mv.kind() == MoveKind::Castle {
            assert!(
                !is_legal || slow,
                "legal castling {mv:?} leaves the king attacked in {}",
                fen::to_fen(pos, Coords::Human)
            );
        } else {
            assert_eq!(
                is_legal,
                slow,
                "legality of {mv:?} in {}",
                fen::to_fen(pos, Coords::Human)
            );
        }
    }
    for mv in legal.iter() {
        assert!(pseudo.iter().any(|m| m == mv), "legal move {mv:?} not generated");
        pos.make(*mv);
        assert_eq!(pos.hash(), pos.recomputed_hash(), "hash after {mv:?} from {}", before.0);
        pos.unmake();
        assert_eq!(state(pos), before, "make/unmake of {mv:?} did not restore the position");
    }
    legal
}

/// Every notation prints `mv` as a text that names `mv` again, and parsing leaves the position
/// as it was.
pub fn check_move_texts(pos: &mut Position, mv: &Move) {
    let before = state(pos);
    let at = before.0.clone();
    let text = movetext::canonical(pos, mv);
    assert_eq!(
        movetext::parse_move(pos, &text, Coords::Human),
        Ok(*mv),
        "canonical {text} in {at}"
    );
    let text = fairybridge::protocol::xboard::variant_info::wire(pos, mv);
    assert_eq!(
        movetext::parse_move(pos, &text, Coords::Wire),
        Ok(*mv),
        "wire {text} in {at}"
    );
    let text = san::to_san(pos, mv);
    assert_eq!(san::parse_san(pos, &text).ok(), Some(*mv), "SAN {text} in {at}");
    let text = zillions::move_text(pos, mv);
    assert_eq!(
        zillions::parse_move(pos, &text).ok(),
        Some(*mv),
        "Zillions {text:?} in {at}"
    );
    for chess960 in [false, true] {
        let text = uci_moves::move_text(pos, mv, chess960);
        let played = uci_moves::play_word(pos, &text, chess960);
        assert_eq!(played, Ok(vec![*mv]), "UCI {text} (chess960 {chess960}) in {at}");
        pos.unmake();
    }
    assert_eq!(state(pos), before, "reading move texts changed the position");
}

/// A walk through the game from `pos`: at each step the invariants above, then the move `choice`
/// picks (0xFF takes one back instead, checking the position is the one before).
pub fn walk(pos: &mut Position, choices: &[u8]) {
    check_position(pos);
    let mut seen: Vec<(String, u64)> = vec![(fen::to_fen(pos, Coords::Human), pos.hash())];
    for (i, &choice) in choices.iter().enumerate() {
        if choice == 0xFF {
            if pos.unmake().is_some() {
                seen.pop();
                let top = seen.last().cloned();
                assert_eq!(top, Some((fen::to_fen(pos, Coords::Human), pos.hash())), "unmake");
            }
            continue;
        }
        let legal = check_moves(pos);
        if legal.is_empty() {
            return;
        }
        let mv = legal.iter().nth(choice as usize % legal.len()).copied();
        let Some(mv) = mv else { return };
        // The texts of the move played and of one other (checking all costs too much per run).
        check_move_texts(pos, &mv);
        if let Some(other) = legal.iter().nth((choice as usize / 7 + i) % legal.len()) {
            check_move_texts(pos, other);
        }
        pos.make(mv);
        check_position(pos);
        seen.push((fen::to_fen(pos, Coords::Human), pos.hash()));
    }
}
