//! A variant as data: board, piece table, start position, castling, game-end rules, and the typed
//! values the layers above keep about it (`Extensions`: the definition file it came from, a door's
//! section), which the rules never read. Built once (see `variants::definition`), then shared
//! read-only by every position.

use std::any::Any;
use std::sync::{Arc, OnceLock};

use super::geometry::{BoardShape, Color, Square};
use super::piece::{Kind, PieceType, Royalty};
use super::setup::Setup;
use super::tables::Tables;

/// Castling: the king moves towards a castling rook by one of `king_steps` squares (capped at the
/// rook's distance) and the rook lands next to the king on the side the king came from. Every square
/// strictly between king and rook must be empty.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct CastlingRule {
    pub king_steps: Vec<u8>,
    /// Files (0-based) a king may castle from: the king's file in the start position unless the
    /// definition lists several (Wild Castle: d and e).
    pub king_files: Vec<u8>,
    /// Rank (0-based, absolute) of each colour's king in the start position: castling happens there.
    pub king_ranks: [u8; 2],
    /// Files of the outermost castling rooks of the start position, towards higher files (`K`)
    /// and towards lower files (`Q`).
    pub rook_files: [Option<u8>; 2],
}

/// Result of a position without legal moves, seen from the side to move.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum Verdict {
    Draw,
    Loss,
    Win,
}

/// What repeating a position means.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum Repetition {
    /// The n-th occurrence of a position is a draw.
    Draw(u8),
    /// A turn may not recreate any earlier position.
    Forbidden,
}

/// Conditions checked after each completed turn, in order (Wild Rose style goals).
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum Goal {
    /// The mover wins if at least n enemy roses are attacked.
    EnemyRosesAttacked(u8),
    /// The mover wins if at least n of its own roses are attacked.
    OwnRosesAttacked(u8),
    /// The mover wins if the opponent has nothing but roses left.
    OpponentOnlyRoses,
    /// The mover loses if at least n of its own roses are attacked.
    OwnRosesAttackedLoses(u8),
}

/// How the game ends besides checkmate.
#[derive(Clone, Debug)]
pub struct GameRules {
    pub stalemate: Verdict,
    /// Plies without capture, pawn move or drop after which the game is drawn.
    pub move_rule: Option<u32>,
    pub repetition: Repetition,
    /// FIDE dead positions (bare kings, a single minor piece, same-coloured bishops).
    pub insufficient_material: bool,
    pub goals: Vec<Goal>,
}

/// A random back-rank arrangement (Wild Castle): `rank` is White's first rank with fixed pieces and
/// `.` for the squares that receive `pieces`; pieces listed in `opposite_colors` come in pairs that
/// must stand on squares of different colour. Black copies White file for file.
#[derive(Clone, Debug)]
pub struct ShuffleRule {
    pub rank: String,
    pub pieces: String,
    pub opposite_colors: String,
}

/// One typed value a layer above the rules keeps about a game.
pub type Extension = Arc<dyn Any + Send + Sync>;

/// What the layers above the rules keep about a game, each as a value of its own type: those
/// given when the variant is built (the definition file it came from, `variants::DefinitionSource`)
/// and those set once after, by the registry, when the definition loads (the XBoard door's
/// `XboardInfo`, read from its `[xboard]` section by a `variants::Section`). The rules never look
/// inside.
#[derive(Default)]
pub struct Extensions {
    built: Vec<Extension>,
    sections: OnceLock<Vec<Extension>>,
}

impl Extensions {
    /// The values known when the variant is built.
    pub fn new(built: Vec<Extension>) -> Extensions {
        Extensions {
            built,
            sections: OnceLock::new(),
        }
    }

    /// The value of type `T`, if the variant was built with one or loaded with the section that
    /// makes one.
    pub fn get<T: Any>(&self) -> Option<&T> {
        let sections = self.sections.get().map_or(&[][..], Vec::as_slice);
        self.built.iter().chain(sections).find_map(|e| e.downcast_ref::<T>())
    }

    /// Sets the sections' values once; `false` (and nothing changes) if they were set before.
    pub fn set(&self, values: Vec<Extension>) -> bool {
        self.sections.set(values).is_ok()
    }
}

impl std::fmt::Debug for Extensions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let sections = self.sections.get().map_or(0, Vec::len);
        write!(f, "Extensions({})", self.built.len() + sections)
    }
}

/// A complete variant.
#[derive(Debug)]
pub struct Variant {
    pub name: String,
    pub description: String,
    pub shape: BoardShape,
    pub pieces: Vec<PieceType>,
    /// The start position (validated when the variant is built).
    pub start: Setup,
    pub castling: Option<CastlingRule>,
    pub rules: GameRules,
    pub shuffle: Option<ShuffleRule>,
    /// The typed values the layers above read from the definition (its file, a door's section).
    pub extensions: Extensions,
    pub tables: Tables,
    /// Most king-royal pieces a side may have (as many as in the start position).
    pub max_kings: usize,
    /// Captured pieces go to the capturer's hand (crazyhouse, shogi), as `PieceType::hand_kind`.
    pub captures_to_hand: bool,
}

impl Variant {
    /// The piece type with this letter (either case) that is no promoted form.
    pub fn kind_by_letter(&self, letter: char) -> Option<Kind> {
        let up = letter.to_ascii_uppercase();
        self.pieces
            .iter()
            .position(|p| p.letter == up && p.promoted_from.is_none())
            .map(|i| Kind(i as u8))
    }

    /// The promoted piece type with this letter (either case): a crazyhouse `Q~`, a shogi `+P`.
    pub fn promoted_kind_by_letter(&self, letter: char) -> Option<Kind> {
        let up = letter.to_ascii_uppercase();
        self.pieces
            .iter()
            .position(|p| p.letter == up && p.promoted_from.is_some())
            .map(|i| Kind(i as u8))
    }

    /// What a captured piece of this kind becomes in its capturer's hand: promoted pieces revert.
    #[inline]
    pub fn hand_kind(&self, kind: Kind) -> Kind {
        self.pieces[kind.index()].promoted_from.unwrap_or(kind)
    }

    #[inline]
    pub fn piece(&self, kind: Kind) -> &PieceType {
        &self.pieces[kind.index()]
    }

    pub fn letter(&self, kind: Kind, color: Color) -> char {
        let l = self.pieces[kind.index()].letter;
        match color {
            Color::White => l,
            Color::Black => l.to_ascii_lowercase(),
        }
    }

    pub fn has_drops(&self) -> bool {
        self.pieces.iter().any(|p| p.drop.is_some())
    }

    pub fn king_kinds(&self) -> impl Iterator<Item = Kind> + '_ {
        self.pieces
            .iter()
            .enumerate()
            .filter(|(_, p)| p.royalty == Royalty::King)
            .map(|(i, _)| Kind(i as u8))
    }

    /// Owner-relative 0-based rank of a square.
    #[inline]
    pub fn relative_rank(&self, sq: Square, color: Color) -> u8 {
        self.shape.relative_rank(sq, color)
    }
}
