//! Legality: which pseudo-legal moves leave no king attacked (and repeat no position where the
//! variant forbids it), and the questions built on it — the legal moves, whether there is one,
//! whether a given move is one — asked of a position without changing it; and `play`, which
//! refuses a move that is not legal.
//!
//! Most moves are judged on the board as it would be after them, read from the move without playing
//! it. The others are played and taken back: every move under a repetition ban (only the position
//! after the move has the hash to look for) and growing roses (the turn goes on); and, where the
//! side to move has a king, hook moves (`Special`: a blast may take the mover's own pieces) and,
//! when the enemy has hook pieces (a hook reads a real board), every king move, every move while
//! in check, en passant, castling and any move that leaves or enters a queen line from a king (off
//! those lines a move cannot change a hook's attack on a king). A caller that owns the position
//! (the search) has them played on it; a question asked of a position that may not change plays
//! them on a copy, made at the first such move.

use std::ops::ControlFlow;

use super::geometry::{Square, SquareSet};
use super::moves::{Move, MoveList};
use super::piece::{Piece, Royalty};
use super::position::{EMPTY, Position};
use super::variant::Repetition;

/// Facts about the side to move that decide whether a move needs the full legality test.
pub struct LegalityContext {
    in_check: bool,
    /// Squares whose change may expose a king.
    sensitive: SquareSet,
    /// The enemy has hook pieces (their attacks read squares the tables do not know).
    enemy_hooks: bool,
    /// With enemy hook pieces, the squares on the queen lines from a king of ours: a hook piece
    /// attacks a king only from one of them, and only the occupancy and contents of these squares
    /// decide whether it does, so a move that neither leaves nor enters one of them (and moves
    /// no king) cannot expose a king to a hook. Empty without enemy hook pieces.
    hook_sensitive: SquareSet,
    /// The variant has hoppers: putting a piece on a line can expose a king.
    enemy_hoppers: bool,
    has_kings: bool,
    forbid_repetition: bool,
}

/// A move that is not legal in the position it was offered to.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct IllegalMove(pub Move);

impl std::fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "illegal move {:?}", self.0)
    }
}

impl std::error::Error for IllegalMove {}

/// The legality test for a position that may not change: the moves that must be played are played
/// on a copy of it, made once, when the first of them comes.
struct Legality<'a> {
    pos: &'a Position,
    ctx: LegalityContext,
    copy: Option<Position>,
}

impl<'a> Legality<'a> {
    fn new(pos: &'a Position) -> Legality<'a> {
        Legality {
            pos,
            ctx: pos.legality_context(),
            copy: None,
        }
    }

    /// Is a pseudo-legal move of the position legal?
    fn allows(&mut self, mv: &Move) -> bool {
        if let Some(legal) = self.pos.legal_unplayed(&self.ctx, mv) {
            return legal;
        }
        let pos = self.pos;
        let forbid_repetition = self.ctx.forbid_repetition;
        self.copy
            .get_or_insert_with(|| pos.trial_copy(forbid_repetition))
            .legal_played(&self.ctx, mv)
    }
}

impl Position {
    /// What the legality test needs to know about the side to move.
    pub fn legality_context(&self) -> LegalityContext {
        let v = &**self.variant();
        let us = self.side_to_move();
        let them = us.opposite();
        let mut sensitive = SquareSet::EMPTY;
        for &k in self.kings(us) {
            sensitive = sensitive.union(v.tables.line_mask(them, k));
        }
        let enemy_hooks = self.has_hook_pieces(them);
        let mut hook_sensitive = SquareSet::EMPTY;
        if enemy_hooks {
            for &k in self.kings(us) {
                hook_sensitive = hook_sensitive.union(v.tables.queen_lines(k));
            }
        }
        LegalityContext {
            in_check: self.in_check(),
            sensitive,
            enemy_hooks,
            hook_sensitive,
            enemy_hoppers: v.tables.has_hoppers,
            has_kings: !self.kings(us).is_empty(),
            forbid_repetition: v.rules.repetition == Repetition::Forbidden,
        }
    }

    /// Is a pseudo-legal move legal? For a caller that owns the position and plays on it anyway
    /// (the search): a move that must be played to be judged is played and taken back here, which
    /// spares a copy; the position is left as it was.
    #[inline]
    pub fn is_legal_with(&mut self, ctx: &LegalityContext, mv: &Move) -> bool {
        match self.legal_unplayed(ctx, mv) {
            Some(legal) => legal,
            None => self.legal_played(ctx, mv),
        }
    }

    /// The legality of a pseudo-legal move judged on the board it leaves, without playing it;
    /// `None` for the moves that must be played (see the module's comment).
    fn legal_unplayed(&self, ctx: &LegalityContext, mv: &Move) -> Option<bool> {
        if ctx.forbid_repetition || matches!(mv, Move::Grow { .. }) {
            return None;
        }
        if !ctx.has_kings {
            return Some(true);
        }
        if !ctx.in_check {
            // No king moves, and the square left (or filled, with hoppers about) is on no enemy
            // line to a king, nor (with enemy hook pieces) either square on a queen line from a
            // king: nothing can be exposed.
            let simple = match *mv {
                Move::Normal { from, to, .. } | Move::MultiStep { from, to, .. } => {
                    let b = self.men.board[from.index()];
                    !(self.variant().piece(Piece(b).kind()).royalty == Royalty::King
                        || ctx.sensitive.contains(from)
                        || (ctx.enemy_hoppers && ctx.sensitive.contains(to))
                        || ctx.hook_sensitive.contains(from)
                        || ctx.hook_sensitive.contains(to))
                }
                Move::Drop { to, .. } => {
                    !((ctx.enemy_hoppers && ctx.sensitive.contains(to)) || ctx.hook_sensitive.contains(to))
                }
                _ => false,
            };
            if simple {
                return Some(true);
            }
        }
        if ctx.enemy_hooks {
            return None;
        }
        let us = self.side_to_move();
        // The board after the move: the mover on `to`, its origin and any e.p. victim empty. The
        // enemy's attacks depend only on which squares are taken and by whose pieces, so a
        // promotion may show the unpromoted piece.
        let after_piece_move = |from: Square, to: Square, moved: Piece, victim: Square| {
            self.kings_safe_after(from, to, |s| {
                if s == to {
                    Some(moved)
                } else if s == from || s == victim {
                    None
                } else {
                    self.piece_at(s)
                }
            })
        };
        let legal = match *mv {
            Move::Normal { from, to, .. } | Move::MultiStep { from, to, .. } => {
                after_piece_move(from, to, Piece(self.men.board[from.index()]), Square::NONE)
            }
            Move::EnPassant { from, to, victim, .. } => {
                after_piece_move(from, to, Piece(self.men.board[from.index()]), victim)
            }
            Move::Drop { kind, to } => after_piece_move(Square::NONE, to, Piece::new(kind, us), Square::NONE),
            Move::Castle {
                king_from,
                king_to,
                rook_from,
                rook_to,
            } => {
                let king = Piece(self.men.board[king_from.index()]);
                let rook = Piece(self.men.board[rook_from.index()]);
                !ctx.in_check
                    && self.castling_path_unattacked(king_from, king_to, king)
                    && self.kings_safe_after(king_from, king_to, |s| {
                        if s == king_to {
                            Some(king)
                        } else if s == rook_to {
                            Some(rook)
                        } else if s == king_from || s == rook_from {
                            None
                        } else {
                            self.piece_at(s)
                        }
                    })
            }
            Move::Special { .. } | Move::Grow { .. } => return None,
        };
        Some(legal)
    }

    /// Are the kings of the side to move (the one on `from` now on `to`) unattacked by the
    /// enemy's table attacks on the board `piece_on` describes? The enemy has no hook pieces.
    #[inline]
    fn kings_safe_after(&self, from: Square, to: Square, piece_on: impl Fn(Square) -> Option<Piece> + Copy) -> bool {
        let us = self.side_to_move();
        let them = us.opposite();
        self.kings(us).iter().all(|&k| {
            let k = if k == from { to } else { k };
            self.table_attackers(k, them, piece_on, |_, _| ControlFlow::Break(()))
                .is_continue()
        })
    }

    /// Castling, the king not in check: may it pass over the squares before `king_to`? Each is
    /// tested with the king standing there and the rook still at home (the destination is tested
    /// with the castled board). The enemy has no hook pieces.
    fn castling_path_unattacked(&self, king_from: Square, king_to: Square, king: Piece) -> bool {
        let shape = self.variant().shape;
        let them = self.side_to_move().opposite();
        let (kf, tf) = (shape.file(king_from) as i32, shape.file(king_to) as i32);
        let dir = (tf - kf).signum();
        let mut f = kf + dir;
        while f != tf {
            let sq = shape.square(f as u8, shape.rank(king_from));
            let piece_on = |s: Square| {
                if s == sq {
                    Some(king)
                } else if s == king_from {
                    None
                } else {
                    self.piece_at(s)
                }
            };
            if self
                .table_attackers(sq, them, piece_on, |_, _| ControlFlow::Break(()))
                .is_break()
            {
                return false;
            }
            f += dir;
        }
        true
    }

    /// The legality of a pseudo-legal move judged by playing it and taking it back.
    fn legal_played(&mut self, ctx: &LegalityContext, mv: &Move) -> bool {
        let us = self.side_to_move();
        // Castling's path, before any test that plays the move (the path is not on the board
        // after it).
        if let Move::Castle { king_from, king_to, .. } = *mv
            && ctx.has_kings
            && !self.castling_path_safe(king_from, king_to, ctx.in_check)
        {
            return false;
        }
        if ctx.forbid_repetition || matches!(mv, Move::Grow { .. }) {
            self.make(*mv);
            let legal = if self.in_continuation() {
                // The turn is not over: legal if some way of finishing it is.
                self.has_legal_move_here()
            } else {
                let repeated = ctx.forbid_repetition && self.occurred_before();
                !(repeated || self.king_attacked(us))
            };
            self.unmake();
            return legal;
        }
        self.make(*mv);
        let legal = !self.king_attacked(us);
        self.unmake();
        legal
    }

    /// Castling, judged on the real board (hook pieces read it): the king may not be in check nor
    /// pass over an attacked square, tested with the king standing there and the rook still at
    /// home; the destination is tested after the move. The board is as it was afterwards.
    fn castling_path_safe(&mut self, king_from: Square, king_to: Square, in_check: bool) -> bool {
        if in_check {
            return false;
        }
        let shape = self.variant().shape;
        let us = self.side_to_move();
        let (kf, tf) = (shape.file(king_from) as i32, shape.file(king_to) as i32);
        let dir = (tf - kf).signum();
        let king = self.men.board[king_from.index()];
        let mut f = kf + dir;
        while f != tf {
            let sq = shape.square(f as u8, shape.rank(king_from));
            // The square is empty (castling needs a clear path), so the king can stand there.
            self.men.board[king_from.index()] = EMPTY;
            self.men.board[sq.index()] = king;
            let attacked = self.is_attacked(sq, us.opposite());
            self.men.board[sq.index()] = EMPTY;
            self.men.board[king_from.index()] = king;
            if attacked {
                return false;
            }
            f += dir;
        }
        true
    }

    /// Does the side to move have a legal move, judged by playing on this position (which a turn
    /// of several moves, being judged, already does)?
    fn has_legal_move_here(&mut self) -> bool {
        let mut list = MoveList::new();
        self.generate_pseudo(&mut list);
        let ctx = self.legality_context();
        list.iter().any(|mv| self.is_legal_with(&ctx, mv))
    }

    /// All legal moves.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate_legal(&mut list);
        list
    }

    /// Does the side to move have a legal move?
    pub fn has_legal_move(&self) -> bool {
        let mut list = MoveList::new();
        self.generate_pseudo(&mut list);
        let mut legality = Legality::new(self);
        list.iter().any(|mv| legality.allows(mv))
    }

    /// Fills `list` with the legal moves. A game already decided by the variant's goals has none.
    pub fn generate_legal(&self, list: &mut MoveList) {
        list.clear();
        if self.goal_reached().is_some() {
            return;
        }
        self.generate_pseudo(list);
        let mut legality = Legality::new(self);
        list.0.retain(|mv| legality.allows(mv));
    }

    /// Every legal turn: one move, or the sub-moves of a turn of several moves (growing roses).
    pub fn legal_turns(&self) -> Vec<Vec<Move>> {
        // The sub-moves after the first are found by playing the turn so far, on a copy.
        let mut pos = self.clone();
        pos.legal_turns_here()
    }

    fn legal_turns_here(&mut self) -> Vec<Vec<Move>> {
        let mut turns = Vec::new();
        for mv in self.legal_moves().0 {
            self.make(mv);
            if self.in_continuation() {
                for rest in self.legal_turns_here() {
                    let mut turn = vec![mv];
                    turn.extend(rest);
                    turns.push(turn);
                }
            } else {
                turns.push(vec![mv]);
            }
            self.unmake();
        }
        turns
    }

    /// Counts legal moves without keeping them (perft leaves; see `Perft` for turns of several
    /// moves).
    pub fn count_legal(&self, scratch: &mut MoveList) -> u64 {
        scratch.clear();
        if self.goal_reached().is_some() {
            return 0;
        }
        self.generate_pseudo(scratch);
        let mut legality = Legality::new(self);
        scratch.iter().filter(|mv| legality.allows(mv)).count() as u64
    }

    /// Is `mv` (a move from outside: anything) one of the legal moves?
    pub fn is_legal(&self, mv: &Move) -> bool {
        if self.goal_reached().is_some() {
            return false;
        }
        let mut pseudo = MoveList::new();
        self.generate_pseudo(&mut pseudo);
        pseudo.iter().any(|m| m == mv) && Legality::new(self).allows(mv)
    }

    /// The move among the legal ones that equals `mv` (a move from outside is checked this way).
    pub fn find_legal(&self, mv: &Move) -> Option<Move> {
        self.is_legal(mv).then_some(*mv)
    }

    /// Plays a move from outside if it is legal here.
    ///
    /// # Errors
    ///
    /// [`IllegalMove`] if it is not; the position is left as it was.
    pub fn play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        if !self.is_legal(&mv) {
            return Err(IllegalMove(mv));
        }
        self.make(mv);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::core::moves::{Move, MoveList};
    use crate::core::test_positions::{position, square};
    use crate::core::{Color, IllegalMove, Position};
    use crate::test_rng::Rng;
    use crate::variants::Registry;

    /// In random games of every built-in game, each pseudo-legal move that the board after it
    /// judges gets the verdict that playing it gives: the two tests are one rule.
    #[test]
    fn judging_a_move_without_playing_it_agrees_with_playing_it() {
        let registry = Registry::builtin();
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        let (mut judged, mut illegal) = (0, 0);
        for name in registry.names() {
            let variant = registry.get(name).expect("a listed game");
            for _game in 0..6 {
                let mut pos = Position::start(&variant);
                for _ply in 0..120 {
                    let ctx = pos.legality_context();
                    let mut pseudo = MoveList::new();
                    pos.generate_pseudo(&mut pseudo);
                    let mut trial = pos.clone();
                    for mv in pseudo.iter() {
                        if let Some(legal) = pos.legal_unplayed(&ctx, mv) {
                            assert_eq!(legal, trial.legal_played(&ctx, mv), "{name}: {mv:?} in {pos:?}");
                            judged += 1;
                            illegal += usize::from(!legal);
                        }
                    }
                    let legal = pos.legal_moves();
                    if legal.is_empty() || pos.outcome().is_some() {
                        break;
                    }
                    pos.make(legal.0[rng.below(legal.len())]);
                }
            }
        }
        assert!(judged > 10_000 && illegal > 100, "{judged} judged, {illegal} illegal");
    }

    /// `play` makes a legal move and refuses any other (one no piece makes, one that exposes the
    /// king), leaving the position as it was.
    #[test]
    fn play_refuses_a_move_that_is_not_legal_and_changes_nothing() {
        let chess = Registry::builtin().get("normal").expect("built-in");
        let pieces = [('K', "e1"), ('R', "e2"), ('r', "e8"), ('k', "a8")];
        let mut p = position(&chess, &pieces, Color::White, 0);
        let mv = |from: &str, to: &str| Move::normal(square(&p, from), square(&p, to));
        let (pinned, nowhere, along) = (mv("e2", "d2"), mv("e1", "e3"), mv("e2", "e5"));
        let before = (p.hash(), p.plies_played(), p.history().len());
        for refused in [pinned, nowhere] {
            assert!(!p.is_legal(&refused));
            assert_eq!(p.play(refused), Err(IllegalMove(refused)));
            assert_eq!((p.hash(), p.plies_played(), p.history().len()), before);
        }
        assert!(p.is_legal(&along));
        assert_eq!(p.play(along), Ok(()));
        assert_eq!(p.last_move(), Some(along));
    }
}
