//! A definition file as written, and inheritance: every key is optional and keeps the file and line
//! it was written on, so that a definition that `inherit`s another can be laid over its parent's
//! keys one by one, and an error in an inherited key still names the parent's file and line.
//!
//! Typed values are merged, never TOML values: each file is read on its own (its spans are its
//! own), marked with its place in the chain of files, then laid over the one before.

use std::ops::Range;

use serde::{Deserialize, Deserializer};
use toml::Spanned;

use super::definition::DefinitionError;
use crate::core::piece::Royalty;
use crate::core::variant::{Goal, Verdict};

/// One file of a definition's chain (the root parent first, the file being read last).
pub struct SourceFile<'a> {
    pub file: &'a str,
    pub text: &'a str,
}

/// The files a definition was read from, to name the file and line of any key.
pub(super) struct Sources<'a>(pub Vec<SourceFile<'a>>);

impl Sources<'_> {
    /// An error at `place`.
    pub fn error(&self, place: Place, message: String) -> DefinitionError {
        let Some(s) = self.0.get(place.source) else {
            // Every value is marked with a source of this chain: this is never reached.
            return DefinitionError {
                file: String::new(),
                line: None,
                message,
            };
        };
        let message = match self.0.last() {
            // A key the definition inherits: say whose definition it is wrong in.
            Some(child) if place.source + 1 < self.0.len() => format!("{message} (inherited by {})", child.file),
            _ => message,
        };
        DefinitionError {
            file: s.file.to_string(),
            line: Some(line_of(s.text, place.offset)),
            message,
        }
    }
}

/// Where something was written: which file of the chain, which byte of it.
#[derive(Clone, Copy, Debug)]
pub(super) struct Place {
    pub source: usize,
    pub offset: usize,
}

pub(super) fn line_of(source: &str, offset: usize) -> usize {
    source[..offset.min(source.len())].matches('\n').count() + 1
}

/// A value and where it was written: which file of the chain, which bytes of it.
#[derive(Clone, Debug)]
pub(super) struct At<T> {
    pub value: T,
    pub span: Range<usize>,
    pub source: usize,
}

impl<T> At<T> {
    pub fn place(&self) -> Place {
        Place {
            source: self.source,
            offset: self.span.start,
        }
    }
}

/// Where `key` was written, or `otherwise` where it was not.
pub(super) fn place_or<T>(key: &Option<At<T>>, otherwise: Place) -> Place {
    key.as_ref().map_or(otherwise, At::place)
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for At<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = Spanned::<T>::deserialize(d)?;
        Ok(At {
            span: s.span(),
            value: s.into_inner(),
            // Set by `mark` once the file's place in the chain is known.
            source: 0,
        })
    }
}

/// The value of an optional key, or the default.
pub(super) fn or<T: Clone>(key: &Option<At<T>>, default: T) -> T {
    key.as_ref().map_or(default, |k| k.value.clone())
}

/// Tables whose keys are inherited one by one: `mark` records which file of the chain they come
/// from, `over` takes each key from `self` where it is written and from `parent` where not.
macro_rules! keys_inherited_one_by_one {
    ($table:ident { $($key:ident),* $(,)? }) => {
        impl $table {
            fn mark(&mut self, source: usize) {
                $( if let Some(k) = &mut self.$key { k.source = source; } )*
            }

            fn over(self, parent: $table) -> $table {
                $table { $( $key: self.$key.or(parent.$key), )* }
            }
        }
    };
}

/// A table that may appear in the child, the parent, both or neither.
fn table_over<T>(child: Option<T>, parent: Option<T>, over: impl FnOnce(T, T) -> T) -> Option<T> {
    match (child, parent) {
        (Some(c), Some(p)) => Some(over(c, p)),
        (c, p) => c.or(p),
    }
}

/// A definition file, or a chain of them laid over each other.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct DefinitionKeys {
    pub name: At<String>,
    /// The definition this one starts from: a loaded variant's name.
    pub inherit: Option<At<String>>,
    /// The name Zillions of Games shows in its Variants menu; default: `name`.
    pub zillions: Option<At<String>>,
    pub description: Option<At<String>>,
    pub board: Option<At<String>>,
    pub start: Option<At<String>>,
    pub castling: Option<CastlingKeys>,
    pub rules: Option<RulesKeys>,
    pub shuffle: Option<At<ShuffleDef>>,
    pub holdings: Option<HoldingsKeys>,
    /// The XBoard door's section (`protocol::xboard::variant_info` reads it); the rules do not.
    #[serde(default, rename = "xboard")]
    _xboard: toml::Table,
    /// The evaluation's weights (`search::eval_params` reads them); the rules do not.
    #[serde(default, rename = "eval")]
    _eval: toml::Table,
    #[serde(default)]
    pub piece: Vec<At<PieceKeys>>,
}

impl DefinitionKeys {
    /// Reads one file of the chain, number `source`.
    pub fn read(sources: &Sources, source: usize) -> Result<DefinitionKeys, DefinitionError> {
        let s = &sources.0[source];
        let mut keys: DefinitionKeys =
            toml::from_str(s.text).map_err(|e| DefinitionError::from_toml(&e, s.text, s.file))?;
        keys.mark(source);
        // Within one file a letter is one piece; a second `[[piece]]` of it would silently change
        // the first when laid over a parent.
        for (i, p) in keys.piece.iter().enumerate() {
            if let Some(letter) = &p.value.letter
                && keys.piece[..i].iter().any(|q| q.value.same_piece(&p.value))
            {
                return Err(sources.error(letter.place(), format!("piece letter {} is used twice", letter.value)));
            }
        }
        Ok(keys)
    }

    fn mark(&mut self, source: usize) {
        let top = [
            Some(&mut self.name),
            self.inherit.as_mut(),
            self.zillions.as_mut(),
            self.description.as_mut(),
            self.board.as_mut(),
            self.start.as_mut(),
        ];
        for k in top.into_iter().flatten() {
            k.source = source;
        }
        if let Some(s) = &mut self.shuffle {
            s.source = source;
        }
        if let Some(c) = &mut self.castling {
            c.mark(source);
        }
        if let Some(r) = &mut self.rules {
            r.mark(source);
        }
        if let Some(h) = &mut self.holdings {
            h.mark(source);
        }
        for p in &mut self.piece {
            p.source = source;
            p.value.mark(source);
        }
    }

    /// This file's keys laid over its parent's. The name, the Zillions name and the description
    /// say which game this is: they are the child's own. A `[[piece]]` with the letter (and
    /// `promoted_from`) of a parent's piece changes that piece key by key; any other is a new
    /// piece after the parent's.
    pub fn over(self, parent: DefinitionKeys) -> DefinitionKeys {
        let mut pieces = parent.piece;
        for child in self.piece {
            match pieces.iter().position(|p| p.value.same_piece(&child.value)) {
                Some(i) => {
                    let inherited = pieces.remove(i);
                    pieces.insert(
                        i,
                        At {
                            value: child.value.over(inherited.value),
                            span: child.span,
                            source: child.source,
                        },
                    );
                }
                None => pieces.push(child),
            }
        }
        DefinitionKeys {
            name: self.name,
            inherit: self.inherit,
            zillions: self.zillions,
            description: self.description,
            board: self.board.or(parent.board),
            start: self.start.or(parent.start),
            castling: table_over(self.castling, parent.castling, CastlingKeys::over),
            rules: table_over(self.rules, parent.rules, RulesKeys::over),
            shuffle: self.shuffle.or(parent.shuffle),
            holdings: table_over(self.holdings, parent.holdings, HoldingsKeys::over),
            _xboard: toml::Table::new(),
            _eval: toml::Table::new(),
            piece: pieces,
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct CastlingKeys {
    pub king_steps: Option<At<Vec<u8>>>,
    /// Files the king may castle from, e.g. "de"; default: its file in the start position.
    pub king_files: Option<At<String>>,
}
keys_inherited_one_by_one!(CastlingKeys { king_steps, king_files });

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RulesKeys {
    pub stalemate: Option<At<VerdictDef>>,
    pub move_rule: Option<At<u32>>,
    pub repetition: Option<At<RepetitionDef>>,
    pub repetition_count: Option<At<u8>>,
    pub insufficient_material: Option<At<bool>>,
    pub goals: Option<At<Vec<GoalDef>>>,
}
keys_inherited_one_by_one!(RulesKeys {
    stalemate,
    move_rule,
    repetition,
    repetition_count,
    insufficient_material,
    goals,
});

/// What happens to captured pieces.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct HoldingsKeys {
    /// Captured pieces go to the capturer's hand (promoted ones as their `promoted_from` piece);
    /// every piece that can get there may then be dropped (anywhere, unless its `drop` says where).
    pub captures: Option<At<bool>>,
}
keys_inherited_one_by_one!(HoldingsKeys { captures });

/// `[shuffle]`: its keys belong together, so a child's table replaces the parent's.
#[derive(Deserialize, Clone, Debug)]
#[serde(deny_unknown_fields)]
pub(super) struct ShuffleDef {
    pub rank: String,
    pub pieces: String,
    #[serde(default)]
    pub opposite_colors: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct PieceKeys {
    /// With `promoted_from`, what a child's `[[piece]]` is matched by.
    pub letter: Option<At<char>>,
    pub name: Option<At<String>>,
    /// The piece's name in Zillions notation (one word); default: `name` with `-` for spaces.
    pub zillions: Option<At<String>>,
    pub betza: Option<At<String>>,
    pub value: Option<At<i32>>,
    pub royal: Option<At<RoyalDef>>,
    pub promotion: Option<At<PromotionDef>>,
    pub push: Option<At<Vec<u8>>>,
    pub initial_ranks: Option<At<Vec<u8>>>,
    pub en_passant: Option<At<bool>>,
    pub resets_clock: Option<At<bool>>,
    pub castling_rook: Option<At<bool>>,
    pub drop: Option<At<DropDef>>,
    /// This piece is the promoted form of the piece with that letter; it may share its letter
    /// with another piece (crazyhouse: a `Q` that was a pawn, FEN `Q~`; shogi: a `P` that is a
    /// tokin, FEN `+P`).
    pub promoted_from: Option<At<char>>,
    pub hook: Option<At<String>>,
    pub hook_immune: Option<At<String>>,
}
keys_inherited_one_by_one!(PieceKeys {
    letter,
    name,
    zillions,
    betza,
    value,
    royal,
    promotion,
    push,
    initial_ranks,
    en_passant,
    resets_clock,
    castling_rook,
    drop,
    promoted_from,
    hook,
    hook_immune,
});

impl PieceKeys {
    /// A child's piece changes a parent's if both have the same letter and the same
    /// `promoted_from` (a crazyhouse `Q` and its promoted `Q~` are two pieces).
    fn same_piece(&self, other: &PieceKeys) -> bool {
        let letter = |p: &PieceKeys| p.letter.as_ref().map(|l| l.value);
        let from = |p: &PieceKeys| p.promoted_from.as_ref().map(|l| l.value);
        letter(self).is_some() && letter(self) == letter(other) && from(self) == from(other)
    }

    pub fn royal(&self) -> Royalty {
        self.royal.as_ref().map_or(Royalty::None, |r| r.value.into())
    }
}

/// `promotion = { ... }`: replaced whole by a child's.
#[derive(Deserialize, Clone, Debug)]
#[serde(deny_unknown_fields)]
pub(super) struct PromotionDef {
    pub ranks: Vec<u8>,
    #[serde(default)]
    pub to: String,
    /// Growing roses: the piece leaves, an enemy unit becomes this piece, the mover moves again.
    #[serde(default)]
    pub convert: Option<char>,
    /// The piece may stay unpromoted (except where it could never move again).
    #[serde(default)]
    pub optional: bool,
    /// A move that starts in the zone may promote too.
    #[serde(default)]
    pub from_zone: bool,
}

/// `drop = { ... }`: replaced whole by a child's.
#[derive(Deserialize, Clone, Debug)]
#[serde(deny_unknown_fields)]
pub(super) struct DropDef {
    /// Default: every rank.
    #[serde(default)]
    pub ranks: Option<Vec<u8>>,
    #[serde(default)]
    pub push: u8,
    /// Not on a file that already has an own piece of this kind (shogi's nifu).
    #[serde(default)]
    pub one_per_file: bool,
    /// A checkmate by dropping this piece loses for the dropper (shogi's uchifuzume).
    #[serde(default)]
    pub mate_loses: bool,
}

/// The result of a game-ending rule for the side to move (`rules.stalemate`).
#[derive(Deserialize, Clone, Copy, Debug)]
#[serde(rename_all = "lowercase")]
pub(super) enum VerdictDef {
    Draw,
    Loss,
    Win,
}

impl From<VerdictDef> for Verdict {
    fn from(v: VerdictDef) -> Verdict {
        match v {
            VerdictDef::Draw => Verdict::Draw,
            VerdictDef::Loss => Verdict::Loss,
            VerdictDef::Win => Verdict::Win,
        }
    }
}

/// What repeating a position means (`rules.repetition`; the count is `repetition_count`).
#[derive(Deserialize, Clone, Copy, Debug)]
#[serde(rename_all = "lowercase")]
pub(super) enum RepetitionDef {
    Draw,
    Forbidden,
}

/// A piece's royalty (`royal`).
#[derive(Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub(super) enum RoyalDef {
    King,
    Rose,
}

impl From<RoyalDef> for Royalty {
    fn from(r: RoyalDef) -> Royalty {
        match r {
            RoyalDef::King => Royalty::King,
            RoyalDef::Rose => Royalty::Rose,
        }
    }
}

/// One of `rules.goals`: a goal's name, then its count where it has one (`"enemy-roses-attacked 2"`).
#[derive(Deserialize, Clone, Copy, Debug)]
#[serde(try_from = "String")]
pub(super) struct GoalDef(pub Goal);

impl TryFrom<String> for GoalDef {
    type Error = String;

    fn try_from(text: String) -> Result<GoalDef, String> {
        parse_goal(&text).map(GoalDef).ok_or_else(|| {
            format!(
                "unknown goal {text:?}: expected enemy-roses-attacked N, own-roses-attacked N, \
                 opponent-only-roses or own-roses-attacked-loses N (N at least 1)"
            )
        })
    }
}

fn parse_goal(s: &str) -> Option<Goal> {
    let mut words = s.split_whitespace();
    let name = words.next()?;
    let n = words.next().map(str::parse::<u8>);
    let count = || match n {
        Some(Ok(n)) if n > 0 => Some(n),
        _ => None,
    };
    Some(match name {
        "enemy-roses-attacked" => Goal::EnemyRosesAttacked(count()?),
        "own-roses-attacked" => Goal::OwnRosesAttacked(count()?),
        "opponent-only-roses" => Goal::OpponentOnlyRoses,
        "own-roses-attacked-loses" => Goal::OwnRosesAttackedLoses(count()?),
        _ => return None,
    })
}

/// The two keys a folder loader needs before it reads a file whole: which game it defines and
/// which it inherits (every other key is ignored here).
#[derive(Deserialize)]
pub(super) struct DefinitionHead {
    pub name: Option<At<String>>,
    pub inherit: Option<At<String>>,
}
