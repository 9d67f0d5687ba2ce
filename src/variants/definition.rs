//! Variant definition files (TOML): building a checked `Variant` from a file's keys (read, and
//! laid over the keys of the definition it `inherit`s, by `layer`).
//! Every built-in game is such a file, embedded in the binary; users can load their own.
//!
//! Ranks in a definition are owner-relative and 1-based (a White pawn on e2 stands on rank 2, a
//! Black pawn on e7 of an 8x8 board too).

use std::sync::Arc;

use super::layer::{
    At, CastlingKeys, DefinitionKeys, PieceKeys, Place, PromotionDef, RepetitionDef, RulesKeys, ShuffleDef, SourceFile,
    Sources, VerdictDef, line_of, or, place_or,
};
use super::source::DefinitionSource;
use crate::core::betza::{self, mode};
use crate::core::geometry::BoardShape;
use crate::core::hooks::HookRef;
use crate::core::piece::{DropRule, Kind, MAX_KINDS, PieceType, Promotion, Royalty};
use crate::core::tables::Tables;
use crate::core::variant::{CastlingRule, Extensions, GameRules, Repetition, ShuffleRule, Variant};
use crate::core::{Color, Position, Setup};
use crate::notation::zillions::ZillionsNames;
use crate::notation::{Coords, fen};

/// A definition that cannot be used: which file, which line, what is wrong.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct DefinitionError {
    pub file: String,
    pub line: Option<usize>,
    pub message: String,
}

impl std::fmt::Display for DefinitionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.line {
            Some(l) => write!(f, "{}:{}: {}", self.file, l, self.message),
            None => write!(f, "{}: {}", self.file, self.message),
        }
    }
}

impl std::error::Error for DefinitionError {}

impl DefinitionError {
    /// A problem the TOML reader found (syntax, a missing key, a value of the wrong type or not
    /// one of a key's words), at its line.
    pub fn from_toml(e: &toml::de::Error, source: &str, file: &str) -> DefinitionError {
        DefinitionError {
            file: file.to_string(),
            line: e.span().map(|s| line_of(source, s.start)),
            // serde calls a word of a closed list a "variant": here that word would be misread.
            message: e.message().trim().replace("unknown variant", "unknown value"),
        }
    }
}

/// The text of a definition file from its bytes: a file that is not UTF-8 gets the line and
/// byte of its first bad byte, like any other problem.
///
/// # Errors
///
/// The bytes are not UTF-8 text.
pub fn definition_text(bytes: Vec<u8>, file: &str) -> Result<String, DefinitionError> {
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let line = e.as_bytes()[..at].iter().filter(|&&b| b == b'\n').count() + 1;
        DefinitionError {
            file: file.to_string(),
            line: Some(line),
            message: format!("not UTF-8 (byte {at})"),
        }
    })
}

/// Builds a variant from the text of a definition file that inherits nothing; `file` names it in
/// errors.
///
/// # Errors
///
/// The text is not a valid definition: TOML syntax, a missing or bad key, a piece or rule the
/// engine cannot play (the error names the file and line).
pub fn parse_definition(source: &str, file: &str) -> Result<Arc<Variant>, DefinitionError> {
    parse_definition_among(source, file, &[])
}

/// Builds a variant from the text of a definition file; `file` names it in errors. A file with
/// `inherit = "NAME"` starts from the definition of the variant of that name in `loaded`.
///
/// # Errors
///
/// As [`parse_definition`], and a parent named by `inherit` that is not among the known games.
pub fn parse_definition_among(
    source: &str,
    file: &str,
    loaded: &[Arc<Variant>],
) -> Result<Arc<Variant>, DefinitionError> {
    // The file alone first, to learn its parent.
    let alone = Sources(vec![SourceFile { file, text: source }]);
    let own = DefinitionKeys::read(&alone, 0)?;
    let parent = match &own.inherit {
        None => None,
        Some(name) => {
            let wanted = name.value.trim();
            let found = loaded.iter().find(|v| v.name == wanted).ok_or_else(|| {
                let known: Vec<&str> = loaded.iter().map(|v| v.name.as_str()).collect();
                alone.error(
                    name.place(),
                    format!(
                        "inherit = {wanted:?}: no variant of that name is loaded (known: {}); \
                         a parent's definition must be loaded before its child's",
                        known.join(", ")
                    ),
                )
            })?;
            Some(Arc::clone(found))
        }
    };
    // The chain of files, the root parent first: each parent's chain is its definition source's.
    let chain: Vec<&DefinitionSource> = parent
        .as_ref()
        .map(|p| DefinitionSource::of(p).chain())
        .unwrap_or_default();
    let mut files: Vec<SourceFile> = chain
        .iter()
        .map(|s| SourceFile {
            file: &s.file,
            text: &s.text,
        })
        .collect();
    files.push(SourceFile { file, text: source });
    let sources = Sources(files);
    let child = sources.0.len() - 1;
    let mut keys: Option<DefinitionKeys> = None;
    for i in 0..child {
        let layer = DefinitionKeys::read(&sources, i)?;
        keys = Some(match keys {
            Some(below) => layer.over(below),
            None => layer,
        });
    }
    let own = DefinitionKeys::read(&sources, child)?;
    let keys = match keys {
        Some(below) => own.over(below),
        None => own,
    };
    let definition = DefinitionSource {
        file: file.to_string(),
        text: source.into(),
        parent: parent.as_ref().map(|p| Arc::new(DefinitionSource::of(p).clone())),
    };
    build(keys, &sources, definition)
}

/// A key every definition needs (from its own file or its parent's).
fn required<'k, T>(
    key: &'k Option<At<T>>,
    name: &str,
    whose: Place,
    sources: &Sources,
) -> Result<&'k At<T>, DefinitionError> {
    key.as_ref()
        .ok_or_else(|| sources.error(whose, format!("missing field `{name}`")))
}

/// The checked variant of a definition's keys.
fn build(def: DefinitionKeys, sources: &Sources, source: DefinitionSource) -> Result<Arc<Variant>, DefinitionError> {
    let err_at = |place: Place, message: String| sources.error(place, message);
    let name = def.name.value.trim().to_string();
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') {
        return Err(err_at(
            def.name.place(),
            format!("variant name {name:?} must be letters, digits, - or _"),
        ));
    }
    let board = required(&def.board, "board", def.name.place(), sources)?;
    let shape = parse_board(&board.value).ok_or_else(|| {
        err_at(
            board.place(),
            format!("board {:?} must be FILESxRANKS, at most 16x15", board.value),
        )
    })?;
    let start_text = required(&def.start, "start", def.name.place(), sources)?;
    let start = fen::parse_fen(&start_text.value, Coords::Human).map_err(|e| err_at(start_text.place(), e.message))?;
    if def.piece.is_empty() {
        return Err(err_at(
            def.name.place(),
            "a variant needs at least one [[piece]]".into(),
        ));
    }
    if def.piece.len() > MAX_KINDS {
        return Err(err_at(
            def.piece[MAX_KINDS].place(),
            format!("at most {MAX_KINDS} piece types"),
        ));
    }
    let mut letters = Vec::new();
    for p in &def.piece {
        letters.push(required(&p.value.letter, "letter", p.place(), sources)?.value);
    }
    let promoted = def.piece.iter().map(|p| p.value.promoted_from.is_some()).collect();
    let keys = Keys {
        def: &def,
        sources,
        shape,
        letters,
        promoted,
        captures_to_hand: def.holdings.as_ref().is_some_and(|h| or(&h.captures, false)),
    };
    let mut pieces = Vec::new();
    let mut zillions_pieces = Vec::new();
    for (i, table) in def.piece.iter().enumerate() {
        pieces.push(keys.piece(i, table)?);
        zillions_pieces.push(keys.zillions_piece_name(i, table, &zillions_pieces)?);
    }
    let castling = match &def.castling {
        Some(c) => Some(keys.castling(c, &pieces, &start)?),
        None => None,
    };
    let rules = game_rules(def.rules.as_ref());
    let shuffle = match &def.shuffle {
        Some(s) => Some(keys.shuffle(s)?),
        None => None,
    };
    let tables = Tables::build(shape, &pieces);
    let king_letters: Vec<char> = pieces
        .iter()
        .filter(|p| p.royalty == Royalty::King)
        .map(|p| p.letter)
        .collect();
    let zillions_game = match &def.zillions {
        Some(z) if z.value.trim().is_empty() || z.value.len() > 64 => {
            return Err(err_at(
                z.place(),
                "zillions: a variant name of 1 to 64 characters".into(),
            ));
        }
        Some(z) => z.value.trim().to_string(),
        None => name.clone(),
    };
    let max_kings = kings_in_start(&start, &king_letters);
    let variant = Arc::new(Variant {
        name,
        description: def.description.as_ref().map(|d| d.value.clone()).unwrap_or_default(),
        shape,
        pieces,
        start,
        castling,
        rules,
        shuffle,
        extensions: Extensions::new(vec![
            Arc::new(source),
            Arc::new(ZillionsNames {
                game: zillions_game,
                pieces: zillions_pieces,
            }),
        ]),
        tables,
        max_kings,
        captures_to_hand: keys.captures_to_hand,
    });
    let start = Position::from_setup(&variant, &variant.start)
        .map_err(|e| err_at(start_text.place(), format!("start position: {e}")))?;
    if start.side_to_move() != Color::White {
        log::debug!("variant {} starts with Black to move", variant.name);
    }
    Ok(variant)
}

/// A definition's keys while its pieces and rules are checked: where errors point, the board, and
/// the pieces' letters.
struct Keys<'a> {
    def: &'a DefinitionKeys,
    sources: &'a Sources<'a>,
    shape: BoardShape,
    letters: Vec<char>,
    /// Which pieces are a promoted form of another (`promoted_from`).
    promoted: Vec<bool>,
    /// Captured pieces go to the capturer's hand.
    captures_to_hand: bool,
}

impl Keys<'_> {
    fn err_at(&self, place: Place, message: String) -> DefinitionError {
        self.sources.error(place, message)
    }

    fn promoted_from_letter(&self, i: usize) -> Option<char> {
        self.def.piece[i].value.promoted_from.as_ref().map(|f| f.value)
    }

    /// The piece a letter names: the one that is no promoted form.
    fn kind_of(&self, c: char) -> Option<Kind> {
        (0..self.letters.len())
            .find(|&i| self.letters[i] == c.to_ascii_uppercase() && !self.promoted[i])
            .map(|i| Kind(i as u8))
    }

    /// In a piece's promotion list, a letter names the promoted form of that piece if it has one.
    fn promotion_kind_of(&self, c: char, from: char) -> Option<Kind> {
        (0..self.letters.len())
            .find(|&i| self.letters[i] == c.to_ascii_uppercase() && self.promoted_from_letter(i) == Some(from))
            .map(|i| Kind(i as u8))
            .or_else(|| self.kind_of(c))
    }

    /// Owner-relative 1-based ranks as 0-based ones, each on the board.
    fn rank_list(&self, ranks: &[u8], at: Place) -> Result<Vec<u8>, DefinitionError> {
        ranks
            .iter()
            .map(|&r| {
                if r == 0 || r > self.shape.ranks {
                    Err(self.err_at(
                        at,
                        format!("rank {r} is not on a board with {} ranks", self.shape.ranks),
                    ))
                } else {
                    Ok(r - 1)
                }
            })
            .collect()
    }

    /// Piece `i`, checked against the pieces before it.
    fn piece(&self, i: usize, table: &At<PieceKeys>) -> Result<PieceType, DefinitionError> {
        let p = &table.value;
        let letter = self.letters[i];
        let letter_at = place_or(&p.letter, table.place());
        if !letter.is_ascii_uppercase() {
            return Err(self.err_at(
                letter_at,
                format!("piece letter {letter:?} must be an upper-case letter"),
            ));
        }
        if (0..i).any(|j| self.letters[j] == letter && self.promoted[j] == self.promoted[i]) {
            return Err(self.err_at(letter_at, format!("piece letter {letter} is used twice")));
        }
        let royalty = p.royal();
        let promoted_from = match &p.promoted_from {
            Some(c) => Some(self.promoted_from(c, letter, royalty, p)?),
            None => None,
        };
        let hook = match &p.hook {
            Some(h) => Some(HookRef::named(&h.value).ok_or_else(|| {
                let known: Vec<&str> = HookRef::names().collect();
                self.err_at(
                    h.place(),
                    format!("unknown hook {:?} (known: {})", h.value, known.join(", ")),
                )
            })?),
            None => None,
        };
        // A hook piece's Betza string gives its quiet moves (its captures are the hook's only).
        let written_betza = p.betza.as_ref().filter(|b| !b.value.is_empty());
        let betza_text = match (&hook, written_betza) {
            (Some(h), None) => h.quiet_betza(),
            (None, None) => {
                return Err(self.err_at(
                    place_or(&p.betza, table.place()),
                    format!("piece {letter} needs a betza string or a hook"),
                ));
            }
            (_, Some(b)) => b.value.as_str(),
        };
        let movement = betza::movement(betza_text)
            .map_err(|e| self.err_at(place_or(&p.betza, table.place()), format!("piece {letter}: {e}")))?;
        if let Some(h) = hook
            && movement
                .atoms
                .iter()
                .any(|a| a.modes & (mode::CAPTURE | mode::EN_PASSANT) != 0)
        {
            return Err(self.err_at(
                place_or(&p.betza, table.place()),
                format!(
                    "piece {letter}: betza {betza_text:?} captures, but a hook piece captures only by its hook \
                     ({}); give its moves as non-capturing (m), as in {:?}",
                    h.name(),
                    h.quiet_betza()
                ),
            ));
        }
        let promotion = match &p.promotion {
            Some(pd) => Some(self.promotion(pd, letter)?),
            None => None,
        };
        let drop = self.drop_rule(p, royalty, promoted_from)?;
        let mut hook_immune = Vec::new();
        if let Some(immune) = &p.hook_immune {
            for c in immune.value.chars() {
                hook_immune.push(
                    self.kind_of(c)
                        .ok_or_else(|| self.err_at(immune.place(), format!("hook_immune names unknown piece {c}")))?,
                );
            }
        }
        let piece_name = required(&p.name, "name", table.place(), self.sources)?;
        let initial_ranks = match &p.initial_ranks {
            Some(r) => self.rank_list(&r.value, r.place())?,
            // Rank 2, where a board has one.
            None => self.rank_list(&[2], table.place())?,
        };
        Ok(PieceType {
            letter,
            name: piece_name.value.clone(),
            betza: betza_text.to_string(),
            movement,
            value: required(&p.value, "value", table.place(), self.sources)?.value,
            royalty,
            promotion,
            push: p.push.as_ref().map(|p| p.value.clone()),
            initial_ranks,
            en_passant_victim: or(&p.en_passant, false),
            resets_clock: or(&p.resets_clock, false),
            castling_rook: or(&p.castling_rook, false),
            drop,
            promoted_from,
            hook,
            hook_immune,
        })
    }

    /// The piece a promoted form (`promoted_from = c`) comes from.
    /// The Zillions name of piece `i` (its `zillions` key, else its name with `-` for spaces),
    /// checked against the names of the pieces before it.
    fn zillions_piece_name(
        &self,
        i: usize,
        table: &At<PieceKeys>,
        earlier: &[String],
    ) -> Result<String, DefinitionError> {
        let p = &table.value;
        let piece_name = required(&p.name, "name", table.place(), self.sources)?;
        let name = match &p.zillions {
            Some(z) => z.value.trim().to_string(),
            None => piece_name.value.split_whitespace().collect::<Vec<_>>().join("-"),
        };
        match zillions_piece_name_problem(&name, earlier) {
            Some(problem) => Err(self.err_at(
                place_or(&p.zillions, piece_name.place()),
                format!("piece {}: Zillions name {name:?} {problem}", self.letters[i]),
            )),
            None => Ok(name),
        }
    }

    fn promoted_from(
        &self,
        c: &At<char>,
        letter: char,
        royalty: Royalty,
        p: &PieceKeys,
    ) -> Result<Kind, DefinitionError> {
        let base = self
            .kind_of(c.value)
            .ok_or_else(|| self.err_at(c.place(), format!("promoted_from names unknown piece {}", c.value)))?;
        if self.def.piece[base.index()].value.royal() != Royalty::None {
            return Err(self.err_at(c.place(), format!("promoted_from names royal piece {}", c.value)));
        }
        if royalty != Royalty::None || p.drop.is_some() {
            return Err(self.err_at(
                c.place(),
                format!("piece {letter}: a promoted piece is neither royal nor dropped"),
            ));
        }
        Ok(base)
    }

    /// The promotion of piece `letter`.
    fn promotion(&self, pd: &At<PromotionDef>, letter: char) -> Result<Promotion, DefinitionError> {
        let mut choices = Vec::new();
        for c in pd.value.to.chars() {
            let k = self
                .promotion_kind_of(c, letter)
                .ok_or_else(|| self.err_at(pd.place(), format!("promotion to unknown piece {c}")))?;
            if self.def.piece[k.index()].value.royal() != Royalty::None {
                return Err(self.err_at(pd.place(), format!("promotion to royal piece {c}")));
            }
            choices.push(k);
        }
        let convert = match pd.value.convert {
            Some(c) => Some(
                self.kind_of(c)
                    .ok_or_else(|| self.err_at(pd.place(), format!("convert to unknown piece {c}")))?,
            ),
            None => None,
        };
        if choices.is_empty() == convert.is_none() {
            return Err(self.err_at(
                pd.place(),
                "promotion needs either pieces in `to` or a `convert` piece".into(),
            ));
        }
        Ok(Promotion {
            ranks: self.rank_list(&pd.value.ranks, pd.place())?,
            choices,
            convert,
            optional: pd.value.optional,
            from_zone: pd.value.from_zone,
        })
    }

    /// Where the piece may be dropped from the hand, if it may.
    fn drop_rule(
        &self,
        p: &PieceKeys,
        royalty: Royalty,
        promoted_from: Option<Kind>,
    ) -> Result<Option<DropRule>, DefinitionError> {
        let every_rank = || (0..self.shape.ranks).collect();
        Ok(match &p.drop {
            Some(d) => {
                if royalty != Royalty::None {
                    return Err(self.err_at(d.place(), "royal pieces cannot be dropped".into()));
                }
                Some(DropRule {
                    ranks: match &d.value.ranks {
                        Some(r) => self.rank_list(r, d.place())?,
                        None => every_rank(),
                    },
                    push: d.value.push,
                    one_per_file: d.value.one_per_file,
                    mate_loses: d.value.mate_loses,
                })
            }
            // Where captures go to hand, every piece that can get there may be dropped anywhere.
            None if self.captures_to_hand && royalty == Royalty::None && promoted_from.is_none() => Some(DropRule {
                ranks: every_rank(),
                push: 0,
                one_per_file: false,
                mate_loses: false,
            }),
            None => None,
        })
    }

    /// The castling rule: the king's steps and files, and the rooks' files from the start position.
    fn castling(&self, c: &CastlingKeys, pieces: &[PieceType], start: &Setup) -> Result<CastlingRule, DefinitionError> {
        let shape = self.shape;
        // Errors about castling as a whole are told at `king_steps`, the key it cannot go without.
        let steps = c.king_steps.as_ref().ok_or_else(|| {
            let at = place_or(&c.king_files, self.def.name.place());
            self.err_at(at, "missing field `king_steps` in [castling]".into())
        })?;
        let kings = pieces.iter().filter(|p| p.royalty == Royalty::King).count();
        if kings != 1 || !pieces.iter().any(|p| p.castling_rook) {
            return Err(self.err_at(
                steps.place(),
                "castling needs exactly one king type and a piece with castling_rook = true".into(),
            ));
        }
        if steps.value.is_empty() || steps.value.contains(&0) {
            return Err(self.err_at(steps.place(), "king_steps must list step counts of at least 1".into()));
        }
        let king_letter = pieces
            .iter()
            .find(|p| p.royalty == Royalty::King)
            .map_or('K', |p| p.letter);
        let homes = king_homes(start, king_letter, shape).ok_or_else(|| {
            self.err_at(
                steps.place(),
                "castling needs one king per side in the start position".into(),
            )
        })?;
        let king_files = match &c.king_files {
            Some(files) => files
                .value
                .chars()
                .map(|f| {
                    let i = (f as u32).wrapping_sub('a' as u32);
                    if i < shape.files as u32 {
                        Ok(i as u8)
                    } else {
                        Err(self.err_at(files.place(), format!("king_files: {f:?} is not a file of this board")))
                    }
                })
                .collect::<Result<Vec<u8>, _>>()?,
            None => vec![homes[0].0],
        };
        let rook_letters: Vec<char> = pieces.iter().filter(|p| p.castling_rook).map(|p| p.letter).collect();
        let rook_files = castling_rook_files(start, &rook_letters, homes[0], shape);
        Ok(CastlingRule {
            king_steps: steps.value.clone(),
            king_files,
            king_ranks: [homes[0].1, homes[1].1],
            rook_files,
        })
    }

    /// The shuffle of the back rank (Wild Castle), checked against the board and the pieces.
    fn shuffle(&self, s: &At<ShuffleDef>) -> Result<ShuffleRule, DefinitionError> {
        let r = &s.value;
        let blanks = r.rank.chars().filter(|&c| c == '.').count();
        let ok = r.rank.chars().count() == self.shape.files as usize
            && blanks == r.pieces.chars().count()
            && r.rank
                .chars()
                .chain(r.pieces.chars())
                .all(|c| c == '.' || self.kind_of(c).is_some());
        if !ok {
            return Err(self.err_at(
                s.place(),
                "shuffle.rank must have one letter or '.' per file and one '.' per shuffled piece".into(),
            ));
        }
        Ok(ShuffleRule {
            rank: r.rank.clone(),
            pieces: r.pieces.clone(),
            opposite_colors: r.opposite_colors.clone(),
        })
    }
}

/// The game's rules: the definition's `[rules]`, FIDE's where it has none.
fn game_rules(rules: Option<&RulesKeys>) -> GameRules {
    match rules {
        Some(r) => {
            let move_rule = or(&r.move_rule, 100);
            GameRules {
                stalemate: or(&r.stalemate, VerdictDef::Draw).into(),
                move_rule: (move_rule > 0).then_some(move_rule),
                repetition: match or(&r.repetition, RepetitionDef::Draw) {
                    RepetitionDef::Draw => Repetition::Draw(or(&r.repetition_count, 3).max(1)),
                    RepetitionDef::Forbidden => Repetition::Forbidden,
                },
                insufficient_material: or(&r.insufficient_material, false),
                goals: r
                    .goals
                    .as_ref()
                    .map(|g| g.value.iter().map(|g| g.0).collect())
                    .unwrap_or_default(),
            }
        }
        None => GameRules {
            stalemate: VerdictDef::Draw.into(),
            move_rule: Some(100),
            repetition: Repetition::Draw(3),
            insufficient_material: false,
            goals: Vec::new(),
        },
    }
}

/// Why a piece's Zillions name cannot be used, if it cannot: it must be one word that no other
/// piece uses (in any case) and that the notation does not reserve.
fn zillions_piece_name_problem(name: &str, earlier: &[String]) -> Option<&'static str> {
    const RESERVED: [&str; 8] = ["white", "black", "pass", "partial", "off", "on", "x", "to"];
    if name.is_empty() || name.len() > 32 {
        Some("must have 1 to 32 characters")
    } else if !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') {
        Some("must be letters, digits, - or _")
    } else if !name.starts_with(|c: char| c.is_ascii_alphabetic()) {
        Some("must start with a letter")
    } else if RESERVED.iter().any(|r| r.eq_ignore_ascii_case(name)) {
        Some("is a word of the notation")
    } else if earlier.iter().any(|p| p.eq_ignore_ascii_case(name)) {
        Some("is used twice")
    } else {
        None
    }
}

/// Where a start position has a piece with one of these letters (either colour): (file, rank,
/// letter as written), 0-based from White's a1.
fn pieces_in<'a>(
    start: &'a Setup,
    letters: &'a [char],
    shape: BoardShape,
) -> impl Iterator<Item = (u8, u8, char)> + 'a {
    start.board.iter().enumerate().flat_map(move |(row, cells)| {
        // A start whose rank count is wrong is refused by `Position::from_setup`; its extra rows here
        // have no rank.
        let rank = (shape.ranks as usize).checked_sub(row + 1);
        cells.iter().enumerate().filter_map(move |(file, cell)| {
            let c = (*cell)?;
            let rank = rank?;
            letters
                .contains(&c.to_ascii_uppercase())
                .then_some((file as u8, rank as u8, c))
        })
    })
}

/// (file, rank) of the White and the Black king in the start position, 0-based.
fn king_homes(start: &Setup, king: char, shape: BoardShape) -> Option<[(u8, u8); 2]> {
    let mut homes = [None, None];
    for (file, rank, c) in pieces_in(start, &[king], shape) {
        homes[usize::from(c.is_ascii_lowercase())] = Some((file, rank));
    }
    Some([homes[0]?, homes[1]?])
}

/// Files of White's outermost castling rooks beside its king in the start position: (higher, lower).
fn castling_rook_files(start: &Setup, rooks: &[char], king: (u8, u8), shape: BoardShape) -> [Option<u8>; 2] {
    let files: Vec<u8> = pieces_in(start, rooks, shape)
        .filter(|&(_, rank, c)| rank == king.1 && c.is_ascii_uppercase())
        .map(|(file, _, _)| file)
        .collect();
    let higher = files.iter().copied().filter(|&f| f > king.0).max();
    let lower = files.iter().copied().filter(|&f| f < king.0).min();
    [higher, lower]
}

/// The largest number of king-royal pieces one side has in the start position (at least 1).
fn kings_in_start(start: &Setup, kings: &[char]) -> usize {
    let cells = start.board.iter().flatten().flatten();
    let white = cells.clone().filter(|c| kings.contains(c)).count();
    let black = cells
        .filter(|c| c.is_ascii_lowercase() && kings.contains(&c.to_ascii_uppercase()))
        .count();
    white.max(black).max(1)
}

fn parse_board(s: &str) -> Option<BoardShape> {
    let (f, r) = s.split_once('x')?;
    BoardShape::new(f.trim().parse().ok()?, r.trim().parse().ok()?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_fixtures::line_containing;

    const NORMAL: &str = include_str!("../../fixtures/variants/normal.toml");

    fn line_of_error(source: &str) -> (Option<usize>, String) {
        match parse_definition(source, "t.toml") {
            Ok(_) => panic!("accepted:\n{source}"),
            Err(e) => (e.line, e.message),
        }
    }

    /// `king_steps` was reported at its table's header.
    #[test]
    fn king_steps_points_at_its_own_line() {
        let source = NORMAL.replace("king_steps = [2]", "king_steps = [0]");
        let (line, message) = line_of_error(&source);
        assert_eq!(line, Some(line_containing(&source, "king_steps")), "{message}");
    }

    /// A word that is not one of a key's values is refused at the key's line, naming the word and
    /// the words it may be.
    #[test]
    fn closed_word_lists_refuse_other_words_at_their_line() {
        for (from, to, words) in [
            ("royal = \"king\"", "royal = \"queen\"", ["queen", "king", "rose"]),
            (
                "stalemate = \"draw\"",
                "stalemate = \"sometimes\"",
                ["sometimes", "loss", "win"],
            ),
            (
                "repetition = \"draw\"",
                "repetition = \"often\"",
                ["often", "draw", "forbidden"],
            ),
            (
                "insufficient_material = true",
                "insufficient_material = true\ngoals = [\"opponent-only-roses\", \"enemy-roses-attacked 0\"]",
                ["enemy-roses-attacked 0", "own-roses-attacked N", "goal"],
            ),
        ] {
            assert!(NORMAL.contains(from), "{from}");
            let source = NORMAL.replace(from, to);
            let (line, message) = line_of_error(&source);
            let bad = to.lines().last().unwrap_or(to);
            assert_eq!(line, Some(line_containing(&source, bad)), "{message}");
            for w in words {
                assert!(message.contains(w), "{w:?} not in {message:?}");
            }
            assert!(!message.contains("variant"), "{message}");
        }
    }

    /// The start position is read once, as a `Setup`: the king's and castling rooks' homes and the
    /// most kings a side may have come from it.
    #[test]
    fn castling_homes_and_king_count_come_from_the_start_position() {
        let normal = parse_definition(NORMAL, "normal.toml").unwrap_or_else(|e| panic!("{e}"));
        let c = normal.castling.as_ref().expect("castling");
        assert_eq!(
            (c.king_files.clone(), c.king_ranks, c.rook_files),
            (vec![4], [0, 7], [Some(7), Some(0)])
        );
        assert_eq!(normal.max_kings, 1);
        let two_kings = NORMAL
            .replace(
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq",
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RK1QKBNR w -",
            )
            .replace("[castling]\nking_steps = [2]\n", "");
        let v = parse_definition(&two_kings, "t.toml").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(v.max_kings, 2);
        let no_black_king = NORMAL.replace("rnbqkbnr/pppppppp", "rnbq1bnr/pppppppp");
        let (line, message) = line_of_error(&no_black_king);
        assert_eq!(line, Some(line_containing(NORMAL, "king_steps")), "{message}");
        assert!(message.contains("one king per side"), "{message}");
    }

    /// A file that is not UTF-8 got no line at all.
    #[test]
    fn a_file_that_is_not_utf8_gets_its_line() {
        let mut bytes = NORMAL.as_bytes().to_vec();
        let at = NORMAL.find("Orthodox chess\"").expect("the description");
        bytes[at] = 0xFF;
        let e = definition_text(bytes, "t.toml").expect_err("not UTF-8");
        assert_eq!(e.line, Some(line_containing(NORMAL, "Orthodox chess\"")));
        assert_eq!(
            e.to_string(),
            format!("t.toml:{}: not UTF-8 (byte {at})", e.line.unwrap_or(0))
        );
        assert_eq!(
            definition_text(b"name = 1\n".to_vec(), "t.toml").ok().as_deref(),
            Some("name = 1\n")
        );
    }
}
