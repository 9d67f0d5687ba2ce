//! What XBoard's board shows that ours does not: a hook move's victims past the ones its wire text
//! carries (a Wreckage detonation removes every adjacent enemy, its two legs name one) stay on
//! XBoard's board as ghosts. XBoard refuses a drop onto a square it shows occupied even with
//! legality testing off ("Impossible move J@d5", and the game is forfeited), so
//! our search leaves such drops out while it has other moves. The game's own moves say where the
//! ghosts are: nothing to keep in step with `undo`, `setboard` or `new`.

use super::wire::{self, WireStyle};
use crate::core::{Move, Position, Square};

/// The squares XBoard shows occupied that are empty on our board, after the moves played since
/// `pos` was set up.
pub fn ghost_squares(pos: &Position, style: WireStyle) -> Vec<Square> {
    let moves: Vec<Move> = pos.moves_played().collect();
    let mut replay = pos.clone();
    while replay.unmake().is_some() {}
    let mut ghosts: Vec<Square> = Vec::new();
    for mv in moves {
        let cleared = wire::cleared(&replay, &mv, style);
        // A piece moved onto a ghost, or a kill square through it, puts XBoard right there.
        ghosts.retain(|s| !cleared.contains(s));
        for (square, _) in replay.captures_of(&mv) {
            if !cleared.contains(&square) && !ghosts.contains(&square) {
                ghosts.push(square);
            }
        }
        replay.make(mv);
    }
    ghosts
}

/// The legal moves of `pos` without its drops onto ghost squares, if there are such drops and
/// other moves to play (a drop XBoard refuses is still better than no move at all).
pub fn without_ghost_drops(pos: &Position, style: WireStyle) -> Option<Vec<Move>> {
    let ghosts = ghost_squares(pos, style);
    if ghosts.is_empty() {
        return None;
    }
    let legal = pos.legal_moves();
    let onto_ghost = |m: &Move| m.dropped().is_some() && ghosts.contains(&m.to());
    let allowed: Vec<Move> = legal.iter().filter(|m| !onto_ghost(m)).copied().collect();
    (allowed.len() < legal.len() && !allowed.is_empty()).then_some(allowed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::fen;
    use crate::notation::{Coords, movetext};
    use crate::protocol::xboard::variant_info::XboardInfo;

    fn wreckage(fen_text: &str) -> (Position, WireStyle) {
        let registry = crate::protocol::builtin_games();
        let v = registry.get("wreckage").expect("wreckage is built in");
        let setup = fen::parse_fen(fen_text, Coords::Wire).expect("a FEN");
        let pos = Position::from_setup(&v, &setup).expect("a legal wreckage position");
        (pos, XboardInfo::of(&v).wire)
    }

    fn play(pos: &mut Position, text: &str) {
        let mv = movetext::parse_move(pos, text, Coords::Wire).expect("a legal move");
        pos.make(mv);
    }

    /// A White Detonator on e6 next to two black pawns (d7, f7; wire ranks count from 0): the wire
    /// names one, XBoard keeps the other; a black ninja drop there is refused by XBoard, so it is
    /// left out; a white piece moving onto the ghost square puts XBoard's board right again.
    #[test]
    fn a_second_detonation_victim_is_a_ghost_until_a_piece_lands_there() {
        let (mut pos, style) = wreckage("k9/10/3p1p4/4X5/10/10/10/10/10/K9[j] w - - 0 1");
        assert!(ghost_squares(&pos, style).is_empty());
        assert_eq!(without_ghost_drops(&pos, style), None);
        let detonation = pos
            .legal_moves()
            .iter()
            .copied()
            .find(|m| m.stays() && pos.captures_of(m).count() == 2)
            .expect("the detonator can blow up both pawns");
        let wire = wire::text(&pos, &detonation, style);
        pos.make(detonation);
        let ghosts = ghost_squares(&pos, style);
        assert_eq!(ghosts.len(), 1, "{wire}: one victim not on the wire");
        let ghost = ghosts[0];
        let allowed = without_ghost_drops(&pos, style).expect("a drop onto the ghost is left out");
        assert!(allowed.iter().all(|m| !(m.dropped().is_some() && m.to() == ghost)));
        let all = pos.legal_moves();
        assert_eq!(allowed.len() + 1, all.len(), "only the drop onto the ghost square");
        // The ghost stays while no piece lands on it.
        play(&mut pos, "a9b9");
        assert_eq!(ghost_squares(&pos, style), vec![ghost]);
        let onto = pos
            .legal_moves()
            .iter()
            .copied()
            .find(|m| m.to() == ghost && m.dropped().is_none())
            .expect("the detonator can step onto the ghost square");
        pos.make(onto);
        assert!(ghost_squares(&pos, style).is_empty());
        // Taking the moves back takes the ghost back with them.
        pos.unmake();
        pos.unmake();
        pos.unmake();
        assert!(ghost_squares(&pos, style).is_empty());
    }
}
