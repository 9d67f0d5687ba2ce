//! Static exchange evaluation: the material balance of the capture sequence on one square, each
//! side recapturing with its least valuable attacker (x-rays included: attackers are looked up again
//! on a virtual board after every capture), a recapture that promotes (by the move generator's
//! rule, `Promotions`) promoting to its best choice. Attackers come from the core
//! (`table_attackers` on a board with the exchanged pieces taken off), so any leaper, rider, lame
//! leaper or hopper works.
//!
//! Hook pieces capture in ways these tables do not describe (a Dragon takes the piece beyond or
//! behind it, a Detonator its neighbours, a Guillotine flies over or takes two), so SEE answers
//! only where no hook can take part: a hook's `Special` move is no exchange on one square (`None`;
//! a Guillotine's plain capture at distance 2 is a `Normal` move, answered like any capture), and
//! a capture onto a square where some hook piece, of either side, could take what stands there
//! at some point of the exchange is declined too. That test is sound for every order of captures:
//! it asks each hook (`hook_may_capture_on`) with every piece that could ever leave to capture on
//! the square taken off (`exchange_reach`) and with every kind that could stand there.
//! Callers fall back to MVV-LVA where SEE declines.

use std::ops::ControlFlow;

use crate::core::movegen::Promotions;
use crate::core::{Color, Move, Piece, Position, Square, SquareSet, Variant};

use super::eval::KindInfo;

/// Every square: the board where any piece may have left.
const EVERY_SQUARE: SquareSet = SquareSet([u64::MAX; 4]);

/// Most captures of an exchange counted (the first move's included); a longer one is cut there.
const MAX_CAPTURES: usize = 40;

/// Value of the move's exchange sequence for the mover (captured material minus lost material),
/// `None` if SEE does not apply to this move or position. The search asks only how the value
/// compares with a threshold (`see_at_least`); the value itself is for the tests.
#[cfg(test)]
pub(crate) fn see(pos: &Position, mv: &Move, kinds: &[KindInfo]) -> Option<i32> {
    let mut gain = [0i32; MAX_CAPTURES];
    let mut d = 0;
    exchange(pos, mv, kinds, |i, g| {
        gain[i] = g;
        d = i;
        false
    })?;
    while d > 0 {
        gain[d - 1] = -((-gain[d - 1]).max(gain[d]));
        d -= 1;
    }
    Some(gain[0])
}

/// Is the exchange value of `mv` (`see`) at least `threshold`? `None` where `see` is.
///
/// With `b[d]` the mover's balance if the exchange stopped after capture `d` (the first is 0),
/// the value is `min(b[0], max(b[1], min(b[2], ...)))`: the opponent chooses after even captures,
/// the mover after odd ones. So the first `b[d]` on the wrong side of the threshold for the side
/// that just captured (below it after an even capture, at least it after an odd one) decides, or
/// the last one: the rest of the exchange need not be looked at. Except where a recapture may grow
/// a rose (`Tables::multi_move_turns`), which makes the whole exchange `None`: there the walk goes
/// on to find out.
pub(crate) fn see_at_least(pos: &Position, mv: &Move, threshold: i32, kinds: &[KindInfo]) -> Option<bool> {
    let walk_all = pos.variant().tables.multi_move_turns;
    let mut decided = None;
    let mut last = false;
    exchange(pos, mv, kinds, |d, gain| {
        let balance = if d % 2 == 0 { gain } else { -gain };
        last = balance >= threshold;
        if decided.is_none() && last != (d % 2 == 0) {
            decided = Some(last);
            return !walk_all;
        }
        false
    })?;
    Some(decided.unwrap_or(last))
}

/// Walks the exchange sequence that `mv` begins, each side recapturing with its least valuable
/// attacker: `at(d, gain)` for each capture `d` (the first move is 0), `gain` the balance for the
/// side making it if the exchange stopped there; `at` returning true ends the walk. `None` if SEE
/// does not apply to this move or position (then `at` may have been called).
#[inline]
fn exchange(pos: &Position, mv: &Move, kinds: &[KindInfo], mut at: impl FnMut(usize, i32) -> bool) -> Option<()> {
    let (from, target, ep_victim) = match *mv {
        Move::Normal { from, to, .. } | Move::MultiStep { from, to, .. } => (from, to, None),
        Move::EnPassant { from, to, victim, .. } => (from, to, Some(victim)),
        _ => return None,
    };
    let us = pos.side_to_move();
    let mover = pos.piece_at(from)?;
    let mut removed = SquareSet::EMPTY;
    removed.insert(from);
    let victim = match ep_victim {
        Some(sq) => {
            removed.insert(sq);
            pos.piece_at(sq)
        }
        None => pos.piece_at(target),
    };
    let mut gain = victim.map_or(0, |p| kinds[p.kind().index()].value);
    let mut on_square = kinds[mover.kind().index()].see_value;
    let mut standing = 1u32 << mover.kind().0;
    if let Some(promo) = mv.promotion() {
        let pv = kinds[promo.index()].value;
        gain += pv - kinds[mover.kind().index()].value;
        on_square = pv;
        standing = 1 << promo.0;
    }
    if pos.variant().tables.hook_mask != 0 && hook_may_take_part(pos, from, target, &removed, standing) {
        return None;
    }
    if at(0, gain) {
        return Some(());
    }
    let cheapest = kinds.iter().map(|k| k.see_value).min().unwrap_or(i32::MIN);
    let mut side = us.opposite();
    let mut d = 0;
    while let Some((sq, piece)) = least_valuable_attacker(pos, target, side, &removed, kinds, cheapest) {
        let (value, promotion_gain) = on_arrival(pos, piece, sq, target, kinds)?;
        d += 1;
        gain = on_square + promotion_gain - gain;
        if at(d, gain) || d + 1 >= MAX_CAPTURES {
            break;
        }
        removed.insert(sq);
        on_square = value;
        side = side.opposite();
    }
    Some(())
}

/// Could a hook piece capture what stands on `target` at some point of the exchange that the move
/// from `moved` begins (`removed`: the squares it empties; `standing`: the kinds it puts there)?
/// First on a board where every piece may have left (most hooks are nowhere near), then on the
/// squares the exchange can reach, in any order.
fn hook_may_take_part(pos: &Position, moved: Square, target: Square, removed: &SquareSet, standing: u32) -> bool {
    if !(pos.has_hook_pieces(Color::White) || pos.has_hook_pieces(Color::Black)) {
        return false;
    }
    // Taking a screen away can end a hop: the reach below would not be every board.
    if pos.variant().tables.has_hoppers {
        return true;
    }
    if !hook_may_capture_on(pos, target, moved, &EVERY_SQUARE, [u32::MAX; 2]) {
        return false;
    }
    let them = pos.side_to_move().opposite();
    let (cleared, standing) = exchange_reach(pos, target, *removed, them, standing);
    hook_may_capture_on(pos, target, moved, &cleared, standing)
}

/// Could a hook piece capture, at some point of the exchange, the piece standing on `target`?
/// `moved`: the square the exchange's first move left (a hook that made it stands on `target`);
/// `cleared`: the squares whose pieces may have left by then to capture on `target`;
/// `standing[c]`: the kinds (one bit each) that may stand on `target` when colour `c` is to move.
/// Sound, not exact: `false` only if no hook piece can (each hook's `may_capture_on`, and its
/// `hook_immune`).
fn hook_may_capture_on(pos: &Position, target: Square, moved: Square, cleared: &SquareSet, standing: [u32; 2]) -> bool {
    let v: &Variant = pos.variant();
    for by in Color::BOTH {
        let prey = standing[by as usize] & !v.tables.uncapturable_mask;
        if prey == 0 || !pos.has_hook_pieces(by) {
            continue;
        }
        for &from in pos.pieces_of(by) {
            let Some(piece) = pos.piece_at(from).filter(|p| v.tables.hook_mask & 1 << p.kind().0 != 0) else {
                continue;
            };
            let pt = v.piece(piece.kind());
            let Some(hook) = pt.hook else { continue };
            let immune = pt.hook_immune.iter().fold(0u32, |m, k| m | 1 << k.0);
            if from != moved && from != target && prey & !immune != 0 && hook.may_capture_on(pos, from, target, cleared)
            {
                return true;
            }
        }
    }
    false
}

/// Every square whose piece could capture on `target` in some order of the exchange (with the
/// `removed` ones), and the kinds that could stand on `target` when each colour is to move
/// (`first`: what stands there when `to_move` is, after the first move). Taking pieces off only
/// adds attackers (no hoppers), so the attackers on the board without all of these are all of them.
fn exchange_reach(
    pos: &Position,
    target: Square,
    removed: SquareSet,
    to_move: Color,
    first: u32,
) -> (SquareSet, [u32; 2]) {
    let mut cleared = removed;
    let mut standing = [0u32; 2];
    standing[to_move as usize] = first;
    loop {
        let before = cleared;
        for by in Color::BOTH {
            let piece_on = |sq: Square| if before.contains(sq) { None } else { pos.piece_at(sq) };
            let _ = pos.table_attackers(target, by, piece_on, |sq, p| {
                cleared.insert(sq);
                standing[by.opposite() as usize] |= kinds_arriving(pos, p, sq, target);
                ControlFlow::<()>::Continue(())
            });
        }
        if cleared == before {
            return (cleared, standing);
        }
    }
}

/// The kinds `piece` may be after moving from `from` to `target`: its promotion choices, and its
/// own kind even where it must promote (a kind too many only makes the hook test more cautious).
fn kinds_arriving(pos: &Position, piece: Piece, from: Square, target: Square) -> u32 {
    let own = 1u32 << piece.kind().0;
    match promotions(pos, piece, from).on(target) {
        Some(p) => p.choices.iter().fold(own, |m, k| m | 1 << k.0),
        None => own,
    }
}

/// The promotion rule of `piece` moving from `from`: the one move generation follows.
fn promotions(pos: &Position, piece: Piece, from: Square) -> Promotions<'_> {
    Promotions::new(pos.variant(), piece.kind(), piece.color(), from)
}

/// What `piece` capturing from `from` on `target` stands there worth, and what it gains by
/// promoting (to its most valuable choice; nothing if it may stay and that is better). `None` for
/// a growing rose, which leaves the square: no exchange SEE describes.
fn on_arrival(pos: &Position, piece: Piece, from: Square, target: Square, kinds: &[KindInfo]) -> Option<(i32, i32)> {
    let own = &kinds[piece.kind().index()];
    let promotions = promotions(pos, piece, from);
    let Some(promotion) = promotions.on(target) else {
        return Some((own.see_value, 0));
    };
    if promotion.convert.is_some() {
        return None;
    }
    let best = promotion
        .choices
        .iter()
        .map(|k| &kinds[k.index()])
        .max_by_key(|k| k.value);
    match best {
        Some(k) if k.value > own.value || !promotions.may_stay(target) => Some((k.see_value, k.value - own.value)),
        _ => Some((own.see_value, 0)),
    }
}

/// Is the exchange value of `mv` at least `threshold`? Moves SEE does not apply to pass.
pub(crate) fn see_ge(pos: &Position, mv: &Move, threshold: i32, kinds: &[KindInfo]) -> bool {
    // Bounds first: the mover gets at most what it takes, and at least that minus its piece
    // (unless a recapture may promote).
    if let Move::Normal {
        from,
        to,
        promotion: None,
    }
    | Move::MultiStep {
        from,
        to,
        promotion: None,
    } = *mv
        && let Some(mover) = pos.piece_at(from)
        && !pos.variant().tables.promotion_targets.contains(to)
    {
        let taken = pos.piece_at(to).map_or(0, |p| kinds[p.kind().index()].value);
        if taken < threshold {
            return false;
        }
        if taken - kinds[mover.kind().index()].see_value >= threshold {
            return true;
        }
    }
    see_at_least(pos, mv, threshold, kinds).unwrap_or(true)
}

/// The cheapest piece of `side` attacking `target` on the board without the `removed` squares (the
/// first found of the cheapest). `cheapest`: no kind is worth less, so the first attacker worth that
/// much is the answer and the look-up stops there (pawns come early: leaps before rides).
fn least_valuable_attacker(
    pos: &Position,
    target: Square,
    side: Color,
    removed: &SquareSet,
    kinds: &[KindInfo],
    cheapest: i32,
) -> Option<(Square, Piece)> {
    let piece_on = |sq: Square| if removed.contains(sq) { None } else { pos.piece_at(sq) };
    let mut best: Option<(Square, Piece, i32)> = None;
    let _ = pos.table_attackers(target, side, piece_on, |sq, p| {
        let v = kinds[p.kind().index()].see_value;
        if best.is_none_or(|(_, _, b)| v < b) {
            best = Some((sq, p, v));
            if v <= cheapest {
                return ControlFlow::Break(());
            }
        }
        ControlFlow::Continue(())
    });
    best.map(|(sq, p, _)| (sq, p))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::eval::EvalTables;
    use crate::test_fixtures;
    use crate::test_rng::Rng;
    use crate::variants::Registry;

    fn see_of(fen_text: &str, mv: &str) -> Option<i32> {
        let v = Registry::builtin().get("normal").unwrap();
        let mut p = test_fixtures::position_of(&v, fen_text);
        let m = test_fixtures::parse_move(&mut p, mv);
        let t = EvalTables::new(&v);
        see(&p, &m, &t.kinds)
    }

    #[test]
    fn simple_exchanges() {
        // Pawn takes an undefended knight.
        assert_eq!(see_of("4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1", "e4d5"), Some(320));
        // Queen takes a pawn defended by a pawn: loses the queen for a pawn.
        assert_eq!(see_of("4k3/8/2p5/3p4/8/8/3Q4/4K3 w - - 0 1", "d2d5"), Some(100 - 950));
        // Rook takes a defended rook, x-ray from the queen behind: R for R.
        assert_eq!(see_of("3r2k1/3r4/8/8/8/8/3R4/3QK3 w - - 0 1", "d2d7"), Some(500));
        // With the king also defending, White stops after R for R.
        assert_eq!(see_of("3rk3/3r4/8/8/8/8/3R4/3QK3 w - - 0 1", "d2d7"), Some(0));
        // Knight takes a pawn defended by a bishop: loses the knight for a pawn.
        assert_eq!(see_of("4k3/8/5b2/4p3/8/3N4/8/6K1 w - - 0 1", "d3e5"), Some(100 - 320));
        // With a rook behind, the bishop cannot recapture profitably: a clean pawn.
        assert_eq!(see_of("4k3/8/5b2/4p3/8/3N4/8/4R1K1 w - - 0 1", "d3e5"), Some(100));
        // A quiet move onto a square attacked by a pawn loses the piece.
        assert_eq!(see_of("4k3/8/2p5/8/8/8/8/3QK3 w - - 0 1", "d1d5"), Some(-950));
    }

    #[test]
    fn the_value_is_exact_not_only_its_sign() {
        // RxP, BxR; QxB would lose the queen to the rook behind: White stops a rook for a pawn down.
        // Exact, not just negative: QxB, which the rook would answer by taking the queen, is not
        // counted (as if the queen stood after it, the value would be -70).
        assert_eq!(
            see_of("3r2k1/8/4b3/3p4/8/8/Q7/3R2K1 w - - 0 1", "d1d5"),
            Some(100 - 500)
        );
    }

    #[test]
    fn x_ray_through_own_rook() {
        // Two white rooks doubled against a black rook defended once.
        assert_eq!(see_of("3rk3/8/3r4/8/8/8/3R4/3RK3 w - - 0 1", "d2d6"), Some(500));
    }

    // ----- the oracle: every order of captures on one square, by the real moves -----

    /// The exchange on one square searched by brute force over the real (pseudo-legal) moves:
    /// after the first move, the side to move may stop (0) or play any move that captures what
    /// stands on `target`, with SEE's material (`see_value` of what is taken, a promotion's gain,
    /// the capture of a king ending it). Hook moves that capture there are not played: `hook`
    /// records that one existed somewhere in the tree (SEE must have declined then).
    struct Oracle<'a> {
        kinds: &'a [KindInfo],
        target: Square,
        memo: std::collections::HashMap<u64, i32>,
        hook: bool,
    }

    impl Oracle<'_> {
        /// What the moving piece gains by promoting with `mv`.
        fn promotion_gain(&self, pos: &Position, mv: &Move) -> i32 {
            let mover = pos.piece_at(mv.from().unwrap()).unwrap();
            mv.promotion().map_or(0, |k| {
                self.kinds[k.index()].value - self.kinds[mover.kind().index()].value
            })
        }

        /// The best the side to move gets from the captures on `target` from here on.
        fn value(&mut self, pos: &mut Position) -> i32 {
            if let Some(&v) = self.memo.get(&pos.hash()) {
                return v;
            }
            let standing = pos.piece_at(self.target).expect("the exchange's square is occupied");
            let taken = &self.kinds[standing.kind().index()];
            let mut list = crate::core::MoveList::new();
            pos.generate_pseudo(&mut list);
            let mut best = 0;
            for mv in list.iter().copied() {
                if !pos.captures_of(&mv).any(|(sq, _)| sq == self.target) {
                    continue;
                }
                let mover = pos.piece_at(mv.from().unwrap()).unwrap();
                if pos.variant().piece(mover.kind()).hook.is_some() {
                    self.hook = true;
                    continue;
                }
                assert_eq!(mv.to(), self.target, "a table piece captures by moving there");
                let gain = taken.see_value + self.promotion_gain(pos, &mv);
                let v = if taken.royal {
                    gain
                } else {
                    pos.make(mv);
                    let rest = self.value(pos);
                    pos.unmake();
                    gain - rest
                };
                best = best.max(v);
            }
            self.memo.insert(pos.hash(), best);
            best
        }
    }

    /// The oracle's value of the capture `mv` and whether a hook could capture on its square in
    /// the exchange; `None` for a hook's `Special` move (not an exchange on one square).
    fn oracle(pos: &mut Position, mv: Move, kinds: &[KindInfo]) -> Option<(i32, bool)> {
        let mover = pos.piece_at(mv.from()?)?;
        if matches!(mv, Move::Special { .. }) {
            assert!(pos.variant().piece(mover.kind()).hook.is_some());
            return None;
        }
        let mut o = Oracle {
            kinds,
            target: mv.to(),
            memo: Default::default(),
            hook: false,
        };
        let taken: i32 = pos.captures_of(&mv).map(|(_, p)| kinds[p.kind().index()].value).sum();
        let gain = taken + o.promotion_gain(pos, &mv);
        pos.make(mv);
        let rest = o.value(pos);
        pos.unmake();
        Some((gain - rest, o.hook))
    }

    /// How the captures of some positions came out: SEE answered, declined where a hook took part
    /// (by the oracle), declined otherwise; and the hooks' own captures.
    #[derive(Default, Debug)]
    struct Tally {
        answered: usize,
        declined_hook: usize,
        declined_other: usize,
        hook_moves: usize,
    }

    impl Tally {
        fn captures(&self) -> usize {
            self.answered + self.declined_hook + self.declined_other + self.hook_moves
        }
    }

    /// Checks SEE against the oracle on every legal capture of `pos`.
    fn check_captures(pos: &mut Position, kinds: &[KindInfo], tally: &mut Tally) {
        let legal = pos.legal_moves();
        for mv in legal.iter().copied() {
            if !pos.is_capture(&mv) {
                continue;
            }
            let fen = test_fixtures::fen_of(pos);
            let text = test_fixtures::move_text(pos, &mv);
            let got = see(pos, &mv, kinds);
            agrees_at_every_threshold(pos, &mv, kinds, got);
            let Some((exact, hook)) = oracle(pos, mv, kinds) else {
                assert_eq!(got, None, "{fen} {text}: a hook's own capture");
                tally.hook_moves += 1;
                continue;
            };
            match got {
                Some(v) => {
                    assert!(!hook, "{fen} {text}: a hook can capture on the square, SEE said {v}");
                    assert_eq!(v, exact, "{fen} {text}");
                    tally.answered += 1;
                }
                None if hook => tally.declined_hook += 1,
                None => tally.declined_other += 1,
            }
        }
    }

    /// `see_at_least` answers as `see`'s value does, around that value and at some fixed steps.
    fn agrees_at_every_threshold(pos: &Position, mv: &Move, kinds: &[KindInfo], value: Option<i32>) {
        let near = value.map_or(vec![], |v| vec![v - 1, v, v + 1]);
        for t in near
            .into_iter()
            .chain([-2000, -950, -500, -320, -100, -1, 0, 1, 100, 320, 500, 950, 2000])
        {
            assert_eq!(
                see_at_least(pos, mv, t, kinds),
                value.map(|v| v >= t),
                "{} {} threshold {t}",
                test_fixtures::fen_of(pos),
                test_fixtures::move_text(pos, mv)
            );
        }
    }

    /// Random games of `variant` from its start that prefer captures: `see_at_least` agrees with
    /// `see` on every capture met, where no oracle is at hand (growing roses, drops).
    fn check_thresholds(variant: &str, games: usize) -> usize {
        let v = Registry::builtin().get(variant).unwrap();
        let kinds = EvalTables::new(&v).kinds;
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        let mut checked = 0;
        for _ in 0..games {
            let mut pos = Position::start(&v);
            for _ in 0..60 {
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                let mut captures = Vec::new();
                for mv in legal.iter().copied() {
                    if pos.is_capture(&mv) {
                        agrees_at_every_threshold(&pos, &mv, &kinds, see(&pos, &mv, &kinds));
                        checked += 1;
                        captures.push(mv);
                    }
                }
                let mv = if !captures.is_empty() && rng.below(2) == 0 {
                    captures[rng.below(captures.len())]
                } else {
                    legal.0[rng.below(legal.len())]
                };
                pos.make(mv);
            }
        }
        checked
    }

    #[test]
    fn the_threshold_test_agrees_with_the_value() {
        for variant in ["normal", "crazyhouse", "wildcastle", "pillage", "wreckage", "wildrose"] {
            assert!(check_thresholds(variant, 6) > 100, "{variant}: captures met");
        }
    }

    /// The suite's positions of `variant` (every `step`-th), each followed by a random game that
    /// prefers captures and hook moves (so that exchanges and hooks meet), checked every few plies.
    fn check_suite(variant: &str, suite: &str, step: usize) -> Tally {
        let v = Registry::builtin().get(variant).unwrap();
        let kinds = EvalTables::new(&v).kinds;
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let mut tally = Tally::default();
        let lines = suite.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#'));
        for line in lines.step_by(step) {
            let f: Vec<&str> = line.split_whitespace().collect();
            let mut pos = test_fixtures::position_of(&v, &format!("{} {} {} {} 0 1", f[0], f[1], f[2], f[3]));
            for ply in 0..40 {
                if ply % 4 == 0 {
                    check_captures(&mut pos, &kinds, &mut tally);
                }
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                let noisy: Vec<Move> = legal
                    .iter()
                    .copied()
                    .filter(|m| pos.is_capture(m) || !matches!(m, Move::Normal { .. }))
                    .collect();
                let mv = if !noisy.is_empty() && rng.below(2) == 0 {
                    noisy[rng.below(noisy.len())]
                } else {
                    legal.0[rng.below(legal.len())]
                };
                pos.make(mv);
            }
        }
        tally
    }

    /// In Wreckage, hook pieces on the board: SEE answers most captures, each exactly, and never
    /// one where the oracle finds a hook able to capture on the square.
    #[test]
    fn wreckage_exchanges_agree_with_the_oracle_and_decline_only_near_hooks() {
        let tally = check_suite("wreckage", include_str!("../../fixtures/openings/wreckage.epd"), 5);
        eprintln!("wreckage: {tally:?} of {} captures", tally.captures());
        assert!(tally.declined_hook > 0, "the oracle met hooks: {tally:?}");
        assert!(
            tally.answered * 2 > tally.captures(),
            "SEE answers most captures: {tally:?}"
        );
    }

    /// In chess, SEE answers every capture but a hook's, exactly.
    #[test]
    fn chess_exchanges_agree_with_the_oracle() {
        let tally = check_suite("normal", include_str!("../../fixtures/openings/normal.epd"), 10);
        eprintln!("normal: {tally:?} of {} captures", tally.captures());
        assert_eq!(tally.answered, tally.captures(), "{tally:?}");
    }

    /// A recapture promotes as move generation has it: a pawn whose optional promotion is to a
    /// cheaper piece must still take it on the last rank, where it could never move again.
    #[test]
    fn a_recapture_promotes_where_the_move_generator_forces_it() {
        let v = Registry::builtin()
            .read_definition(
                r#"
name = "cheap-promotion"
board = "8x8"
start = "3N3k/2P5/8/8/8/8/7K/3r4 b - - 0 1"

[[piece]]
letter = "P"
name = "Pawn"
betza = "fmWfcF"
value = 100
promotion = { ranks = [8], to = "F", optional = true }

[[piece]]
letter = "F"
name = "Ferz"
betza = "F"
value = 50

[[piece]]
letter = "N"
name = "Knight"
betza = "N"
value = 300

[[piece]]
letter = "R"
name = "Rook"
betza = "R"
value = 500

[[piece]]
letter = "K"
name = "King"
betza = "K"
value = 0
royal = "king"
"#,
                "cheap-promotion.toml",
            )
            .unwrap();
        let kinds = EvalTables::new(&v).kinds;
        let mut pos = test_fixtures::position_of(&v, "3N3k/2P5/8/8/8/8/7K/3r4 b - - 0 1");
        // RxN, then cxd8 may only be played promoting to a ferz.
        let mv = test_fixtures::parse_move(&mut pos, "d1d8");
        let (exact, hook) = oracle(&mut pos, mv, &kinds).unwrap();
        assert!(!hook);
        assert_eq!(see(&pos, &mv, &kinds), Some(exact));
    }
}
