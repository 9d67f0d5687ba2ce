//! Static exchange evaluation: the material balance of the capture sequence on one square, each
//! side recapturing with its least valuable attacker (x-rays included: attackers are looked up again
//! on a virtual board after every capture). Attackers come from the core (`table_attackers` on a
//! board with the exchanged pieces taken off), so any leaper, rider, lame leaper or hopper works. Hook pieces attack in ways these tables do not
//! describe: with hooks on the board SEE declines (`None`) and callers fall back to MVV-LVA.

use std::ops::ControlFlow;

use crate::core::{Color, Move, Position, Square, SquareSet};

use super::eval::KindInfo;

/// Value of the move's exchange sequence for the mover (captured material minus lost material),
/// `None` if SEE does not apply to this move or position.
pub(crate) fn see(pos: &Position, mv: &Move, kinds: &[KindInfo]) -> Option<i32> {
    let (from, target, ep_victim) = match *mv {
        Move::Normal { from, to, .. } | Move::MultiStep { from, to, .. } => (from, to, None),
        Move::EnPassant { from, to, victim, .. } => (from, to, Some(victim)),
        _ => return None,
    };
    if pos.variant().tables.hook_mask != 0 && (pos.has_hook_pieces(Color::White) || pos.has_hook_pieces(Color::Black)) {
        return None;
    }
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
    let mut gain = [0i32; 40];
    gain[0] = victim.map_or(0, |p| kinds[p.kind().index()].value);
    let mut on_square = kinds[mover.kind().index()].see_value;
    if let Some(promo) = mv.promotion() {
        let pv = kinds[promo.index()].value;
        gain[0] += pv - kinds[mover.kind().index()].value;
        on_square = pv;
    }
    let mut side = us.opposite();
    let mut d = 0;
    while let Some((sq, value)) = least_valuable_attacker(pos, target, side, &removed, kinds) {
        d += 1;
        gain[d] = on_square - gain[d - 1];
        // No cut once the sign is known: callers compare the value itself with margins.
        if d + 1 >= gain.len() {
            break;
        }
        removed.insert(sq);
        on_square = value;
        side = side.opposite();
    }
    while d > 0 {
        gain[d - 1] = -((-gain[d - 1]).max(gain[d]));
        d -= 1;
    }
    Some(gain[0])
}

/// Is the exchange value of `mv` at least `threshold`? Moves SEE does not apply to pass.
pub(crate) fn see_ge(pos: &Position, mv: &Move, threshold: i32, kinds: &[KindInfo]) -> bool {
    // Bounds first: the mover gets at most what it takes, and at least that minus its piece.
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
    {
        let taken = pos.piece_at(to).map_or(0, |p| kinds[p.kind().index()].value);
        if taken < threshold {
            return false;
        }
        if taken - kinds[mover.kind().index()].see_value >= threshold {
            return true;
        }
    }
    see(pos, mv, kinds).is_none_or(|v| v >= threshold)
}

/// The cheapest piece of `side` attacking `target` on the board without the `removed` squares.
fn least_valuable_attacker(
    pos: &Position,
    target: Square,
    side: Color,
    removed: &SquareSet,
    kinds: &[KindInfo],
) -> Option<(Square, i32)> {
    let piece_on = |sq: Square| if removed.contains(sq) { None } else { pos.piece_at(sq) };
    let mut best: Option<(Square, i32)> = None;
    let _ = pos.table_attackers(target, side, piece_on, |sq, p| {
        let v = kinds[p.kind().index()].see_value;
        if best.is_none_or(|(_, b)| v < b) {
            best = Some((sq, v));
        }
        ControlFlow::<()>::Continue(())
    });
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::eval::EvalTables;
    use crate::test_fixtures;
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
        // A cut once the sign was known (QxB already losing) counted QxB as if it stood: -70.
        assert_eq!(see_of("3r2k1/8/4b3/3p4/8/8/Q7/3R2K1 w - - 0 1", "d1d5"), Some(100 - 500));
    }

    #[test]
    fn x_ray_through_own_rook() {
        // Two white rooks doubled against a black rook defended once.
        assert_eq!(see_of("3rk3/8/3r4/8/8/8/3R4/3RK3 w - - 0 1", "d2d6"), Some(500));
    }
}
