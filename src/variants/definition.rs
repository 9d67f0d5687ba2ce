//! Variant definition files (TOML): the schema, and building a checked `Variant` from it.
//! Every built-in game is such a file, embedded in the binary; users can load their own.
//!
//! Ranks in a definition are owner-relative and 1-based (a White pawn on e2 stands on rank 2, a
//! Black pawn on e7 of an 8x8 board too).

use std::sync::Arc;

use serde::Deserialize;
use toml::Spanned;

use crate::core::betza;
use crate::core::geometry::BoardShape;
use crate::core::hooks::HookRef;
use crate::core::piece::{DropRule, Kind, MAX_KINDS, PieceType, Promotion, Royalty};
use crate::core::tables::Tables;
use crate::core::variant::{
    CastlingRule, DefinitionSource, GameRules, Goal, Repetition, ShuffleRule, Variant, Verdict,
};
use crate::core::{Color, Position, Setup};
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

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct VariantDef {
    name: Spanned<String>,
    /// The name Zillions of Games shows in its Variants menu; default: `name`.
    #[serde(default)]
    zillions: Option<Spanned<String>>,
    #[serde(default)]
    description: String,
    board: Spanned<String>,
    start: Spanned<String>,
    castling: Option<Spanned<CastlingDef>>,
    #[serde(default)]
    rules: RulesDef,
    shuffle: Option<Spanned<ShuffleDef>>,
    #[serde(default)]
    holdings: HoldingsDef,
    /// The XBoard door's section (`protocol::xboard::variant_info` reads it); the rules do not.
    #[serde(default, rename = "xboard")]
    _xboard: toml::Table,
    piece: Vec<Spanned<PieceDef>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CastlingDef {
    king_steps: Vec<u8>,
    /// Files the king may castle from, e.g. "de"; default: its file in the start position.
    #[serde(default)]
    king_files: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RulesDef {
    #[serde(default = "default_stalemate")]
    stalemate: VerdictDef,
    #[serde(default = "default_move_rule")]
    move_rule: u32,
    #[serde(default = "default_repetition")]
    repetition: RepetitionDef,
    #[serde(default = "default_repetition_count")]
    repetition_count: u8,
    #[serde(default)]
    insufficient_material: bool,
    #[serde(default)]
    goals: Vec<GoalDef>,
}

/// The result of a game-ending rule for the side to move (`rules.stalemate`).
#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "lowercase")]
enum VerdictDef {
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
#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "lowercase")]
enum RepetitionDef {
    Draw,
    Forbidden,
}

/// A piece's royalty (`royal`).
#[derive(Deserialize, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
enum RoyalDef {
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
#[derive(Deserialize, Clone, Copy)]
#[serde(try_from = "String")]
struct GoalDef(Goal);

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

fn default_stalemate() -> VerdictDef {
    VerdictDef::Draw
}
fn default_move_rule() -> u32 {
    100
}
fn default_repetition() -> RepetitionDef {
    RepetitionDef::Draw
}
fn default_repetition_count() -> u8 {
    3
}

impl Default for RulesDef {
    fn default() -> Self {
        RulesDef {
            stalemate: default_stalemate(),
            move_rule: default_move_rule(),
            repetition: default_repetition(),
            repetition_count: default_repetition_count(),
            insufficient_material: false,
            goals: Vec::new(),
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ShuffleDef {
    rank: String,
    pieces: String,
    #[serde(default)]
    opposite_colors: String,
}

/// What happens to captured pieces.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct HoldingsDef {
    /// Captured pieces go to the capturer's hand (promoted ones as their `promoted_from` piece);
    /// every piece that can get there may then be dropped (anywhere, unless its `drop` says where).
    #[serde(default)]
    captures: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PieceDef {
    letter: char,
    name: String,
    /// The piece's name in Zillions notation (one word); default: `name` with `-` for spaces.
    #[serde(default)]
    zillions: Option<String>,
    #[serde(default)]
    betza: String,
    value: i32,
    #[serde(default)]
    royal: Option<RoyalDef>,
    promotion: Option<PromotionDef>,
    push: Option<Vec<u8>>,
    #[serde(default = "default_initial_ranks")]
    initial_ranks: Vec<u8>,
    #[serde(default)]
    en_passant: bool,
    #[serde(default)]
    resets_clock: bool,
    #[serde(default)]
    castling_rook: bool,
    drop: Option<DropDef>,
    /// This piece is the promoted form of the piece with that letter; it may share its letter
    /// with another piece (crazyhouse: a `Q` that was a pawn, FEN `Q~`; shogi: a `P` that is a
    /// tokin, FEN `+P`).
    promoted_from: Option<char>,
    hook: Option<String>,
    #[serde(default)]
    hook_immune: String,
}

fn default_initial_ranks() -> Vec<u8> {
    vec![2]
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PromotionDef {
    ranks: Vec<u8>,
    #[serde(default)]
    to: String,
    /// Growing roses: the piece leaves, an enemy unit becomes this piece, the mover moves again.
    #[serde(default)]
    convert: Option<char>,
    /// The piece may stay unpromoted (except where it could never move again).
    #[serde(default)]
    optional: bool,
    /// A move that starts in the zone may promote too.
    #[serde(default)]
    from_zone: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DropDef {
    /// Default: every rank.
    #[serde(default)]
    ranks: Option<Vec<u8>>,
    #[serde(default)]
    push: u8,
    /// Not on a file that already has an own piece of this kind (shogi's nifu).
    #[serde(default)]
    one_per_file: bool,
    /// A checkmate by dropping this piece loses for the dropper (shogi's uchifuzume).
    #[serde(default)]
    mate_loses: bool,
}

/// The span of the line `key = ...` inside `within` (a table's span), or `within` itself: errors
/// then name the line of the offending key, not of its table's header.
fn key_span(source: &str, within: std::ops::Range<usize>, key: &str) -> std::ops::Range<usize> {
    // A table's span may cover only its header: look on to the next header.
    let start = within.start.min(source.len());
    let end = source[start..]
        .match_indices("\n[")
        .map(|(i, _)| start + i)
        .find(|&i| i >= within.end.min(source.len()).saturating_sub(1))
        .unwrap_or(source.len())
        .max(within.end.min(source.len()));
    let mut offset = start;
    for line in source[start..end].split_inclusive('\n') {
        let t = line.trim_start();
        if let Some(rest) = t.strip_prefix(key)
            && rest.trim_start().starts_with('=')
        {
            return offset..offset + line.len();
        }
        offset += line.len();
    }
    within
}

fn line_of(source: &str, offset: usize) -> usize {
    source[..offset.min(source.len())].matches('\n').count() + 1
}

/// The text of a definition file from its bytes: a file that is not UTF-8 gets the line and
/// byte of its first bad byte, like any other problem.
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

/// Builds a variant from the text of a definition file; `file` names it in errors.
pub fn parse_definition(source: &str, file: &str) -> Result<Arc<Variant>, DefinitionError> {
    let def: VariantDef = toml::from_str(source).map_err(|e| DefinitionError::from_toml(&e, source, file))?;
    let err_at = |span: std::ops::Range<usize>, message: String| DefinitionError {
        file: file.to_string(),
        line: Some(line_of(source, span.start)),
        message,
    };
    let name = def.name.get_ref().trim().to_string();
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') {
        return Err(err_at(
            def.name.span(),
            format!("variant name {name:?} must be letters, digits, - or _"),
        ));
    }
    let shape = parse_board(def.board.get_ref()).ok_or_else(|| {
        err_at(
            def.board.span(),
            format!("board {:?} must be FILESxRANKS, at most 16x15", def.board.get_ref()),
        )
    })?;
    let start = fen::parse_fen(def.start.get_ref(), Coords::Human).map_err(|e| err_at(def.start.span(), e.message))?;
    if def.piece.is_empty() {
        return Err(err_at(def.name.span(), "a variant needs at least one [[piece]]".into()));
    }
    if def.piece.len() > MAX_KINDS {
        return Err(err_at(
            def.piece[MAX_KINDS].span(),
            format!("at most {MAX_KINDS} piece types"),
        ));
    }
    let letters: Vec<char> = def.piece.iter().map(|p| p.get_ref().letter).collect();
    let promoted: Vec<bool> = def.piece.iter().map(|p| p.get_ref().promoted_from.is_some()).collect();
    // A letter names the piece that is no promoted form.
    let kind_of = |c: char| {
        (0..letters.len())
            .find(|&i| letters[i] == c.to_ascii_uppercase() && !promoted[i])
            .map(|i| Kind(i as u8))
    };
    // In a piece's promotion list, a letter names the promoted form of that piece if it has one.
    let promotion_kind_of = |c: char, from: char| {
        (0..letters.len())
            .find(|&i| letters[i] == c.to_ascii_uppercase() && def.piece[i].get_ref().promoted_from == Some(from))
            .map(|i| Kind(i as u8))
            .or_else(|| kind_of(c))
    };
    let rank_list = |ranks: &[u8], span: std::ops::Range<usize>| -> Result<Vec<u8>, DefinitionError> {
        ranks
            .iter()
            .map(|&r| {
                if r == 0 || r > shape.ranks {
                    Err(err_at(
                        span.clone(),
                        format!("rank {r} is not on a board with {} ranks", shape.ranks),
                    ))
                } else {
                    Ok(r - 1)
                }
            })
            .collect()
    };
    let mut pieces = Vec::new();
    for (i, sp) in def.piece.iter().enumerate() {
        let span = sp.span();
        let p = sp.get_ref();
        let at = |key: &str| key_span(source, span.clone(), key);
        if !p.letter.is_ascii_uppercase() {
            return Err(err_at(
                at("letter"),
                format!("piece letter {:?} must be an upper-case letter", p.letter),
            ));
        }
        if (0..i).any(|j| letters[j] == p.letter && promoted[j] == promoted[i]) {
            return Err(err_at(at("letter"), format!("piece letter {} is used twice", p.letter)));
        }
        let promoted_from = match p.promoted_from {
            Some(c) => {
                let base = kind_of(c)
                    .ok_or_else(|| err_at(at("promoted_from"), format!("promoted_from names unknown piece {c}")))?;
                if def.piece[base.index()].get_ref().royal.is_some() {
                    return Err(err_at(
                        at("promoted_from"),
                        format!("promoted_from names royal piece {c}"),
                    ));
                }
                if p.royal.is_some() || p.drop.is_some() {
                    return Err(err_at(
                        at("promoted_from"),
                        format!("piece {}: a promoted piece is neither royal nor dropped", p.letter),
                    ));
                }
                Some(base)
            }
            None => None,
        };
        let hook = match &p.hook {
            Some(h) => Some(HookRef::named(h).ok_or_else(|| {
                let known: Vec<&str> = HookRef::names().collect();
                err_at(at("hook"), format!("unknown hook {h:?} (known: {})", known.join(", ")))
            })?),
            None => None,
        };
        // A hook piece's Betza string gives its quiet moves (its captures are the hook's).
        let betza_text = match (&hook, p.betza.is_empty()) {
            (Some(h), true) => h.quiet_betza(),
            (None, true) => {
                return Err(err_at(
                    span,
                    format!("piece {} needs a betza string or a hook", p.letter),
                ));
            }
            (_, false) => p.betza.as_str(),
        };
        let movement = {
            betza::movement(betza_text).map_err(|e| {
                err_at(
                    key_span(source, span.clone(), "betza"),
                    format!("piece {}: {e}", p.letter),
                )
            })?
        };
        let royalty = p.royal.map_or(Royalty::None, Royalty::from);
        let promotion = match &p.promotion {
            Some(pd) => {
                let mut choices = Vec::new();
                for c in pd.to.chars() {
                    let k = promotion_kind_of(c, p.letter)
                        .ok_or_else(|| err_at(at("promotion"), format!("promotion to unknown piece {c}")))?;
                    let target = &def.piece[k.index()].get_ref();
                    if target.royal.is_some() {
                        return Err(err_at(at("promotion"), format!("promotion to royal piece {c}")));
                    }
                    choices.push(k);
                }
                let convert = match pd.convert {
                    Some(c) => Some(
                        kind_of(c).ok_or_else(|| err_at(at("promotion"), format!("convert to unknown piece {c}")))?,
                    ),
                    None => None,
                };
                if choices.is_empty() == convert.is_none() {
                    return Err(err_at(
                        at("promotion"),
                        "promotion needs either pieces in `to` or a `convert` piece".into(),
                    ));
                }
                Some(Promotion {
                    ranks: rank_list(&pd.ranks, at("promotion"))?,
                    choices,
                    convert,
                    optional: pd.optional,
                    from_zone: pd.from_zone,
                })
            }
            None => None,
        };
        let drop = match &p.drop {
            Some(d) => {
                if royalty != Royalty::None {
                    return Err(err_at(at("drop"), "royal pieces cannot be dropped".into()));
                }
                Some(DropRule {
                    ranks: match &d.ranks {
                        Some(r) => rank_list(r, at("drop"))?,
                        None => (0..shape.ranks).collect(),
                    },
                    push: d.push,
                    one_per_file: d.one_per_file,
                    mate_loses: d.mate_loses,
                })
            }
            // Where captures go to hand, every piece that can get there may be dropped anywhere.
            None if def.holdings.captures && royalty == Royalty::None && promoted_from.is_none() => Some(DropRule {
                ranks: (0..shape.ranks).collect(),
                push: 0,
                one_per_file: false,
                mate_loses: false,
            }),
            None => None,
        };
        let mut hook_immune = Vec::new();
        for c in p.hook_immune.chars() {
            hook_immune.push(
                kind_of(c).ok_or_else(|| err_at(at("hook_immune"), format!("hook_immune names unknown piece {c}")))?,
            );
        }
        let zillions_name = match &p.zillions {
            Some(z) => z.trim().to_string(),
            None => p.name.split_whitespace().collect::<Vec<_>>().join("-"),
        };
        if let Some(problem) = zillions_piece_name_problem(&zillions_name, &pieces) {
            return Err(err_at(
                if p.zillions.is_some() {
                    at("zillions")
                } else {
                    at("name")
                },
                format!("piece {}: Zillions name {zillions_name:?} {problem}", p.letter),
            ));
        }
        pieces.push(PieceType {
            letter: p.letter,
            name: p.name.clone(),
            zillions_name,
            betza: betza_text.to_string(),
            movement,
            value: p.value,
            royalty,
            promotion,
            push: p.push.clone(),
            initial_ranks: rank_list(&p.initial_ranks, at("initial_ranks"))?,
            en_passant_victim: p.en_passant,
            resets_clock: p.resets_clock,
            castling_rook: p.castling_rook,
            drop,
            promoted_from,
            hook,
            hook_immune,
        });
    }
    let castling = match &def.castling {
        Some(c) => {
            let kings = pieces.iter().filter(|p| p.royalty == Royalty::King).count();
            if kings != 1 || !pieces.iter().any(|p| p.castling_rook) {
                return Err(err_at(
                    c.span(),
                    "castling needs exactly one king type and a piece with castling_rook = true".into(),
                ));
            }
            if c.get_ref().king_steps.is_empty() || c.get_ref().king_steps.contains(&0) {
                return Err(err_at(
                    key_span(source, c.span(), "king_steps"),
                    "king_steps must list step counts of at least 1".into(),
                ));
            }
            let king_letter = pieces
                .iter()
                .find(|p| p.royalty == Royalty::King)
                .map_or('K', |p| p.letter);
            let homes = king_homes(&start, king_letter, shape).ok_or_else(|| {
                err_at(
                    c.span(),
                    "castling needs one king per side in the start position".into(),
                )
            })?;
            let king_files = match &c.get_ref().king_files {
                Some(files) => files
                    .chars()
                    .map(|f| {
                        let i = (f as u32).wrapping_sub('a' as u32);
                        if i < shape.files as u32 {
                            Ok(i as u8)
                        } else {
                            Err(err_at(
                                c.span(),
                                format!("king_files: {f:?} is not a file of this board"),
                            ))
                        }
                    })
                    .collect::<Result<Vec<u8>, _>>()?,
                None => vec![homes[0].0],
            };
            let rook_letters: Vec<char> = pieces.iter().filter(|p| p.castling_rook).map(|p| p.letter).collect();
            let rook_files = castling_rook_files(&start, &rook_letters, homes[0], shape);
            Some(CastlingRule {
                king_steps: c.get_ref().king_steps.clone(),
                king_files,
                king_ranks: [homes[0].1, homes[1].1],
                rook_files,
            })
        }
        None => None,
    };
    let rules = GameRules {
        stalemate: def.rules.stalemate.into(),
        move_rule: (def.rules.move_rule > 0).then_some(def.rules.move_rule),
        repetition: match def.rules.repetition {
            RepetitionDef::Draw => Repetition::Draw(def.rules.repetition_count.max(1)),
            RepetitionDef::Forbidden => Repetition::Forbidden,
        },
        insufficient_material: def.rules.insufficient_material,
        goals: def.rules.goals.iter().map(|g| g.0).collect(),
    };
    let shuffle = match &def.shuffle {
        Some(s) => {
            let r = s.get_ref();
            let blanks = r.rank.chars().filter(|&c| c == '.').count();
            let ok = r.rank.chars().count() == shape.files as usize
                && blanks == r.pieces.chars().count()
                && r.rank
                    .chars()
                    .chain(r.pieces.chars())
                    .all(|c| c == '.' || kind_of(c).is_some());
            if !ok {
                return Err(err_at(
                    s.span(),
                    "shuffle.rank must have one letter or '.' per file and one '.' per shuffled piece".into(),
                ));
            }
            Some(ShuffleRule {
                rank: r.rank.clone(),
                pieces: r.pieces.clone(),
                opposite_colors: r.opposite_colors.clone(),
            })
        }
        None => None,
    };
    let tables = Tables::build(shape, &pieces);
    let king_letters: Vec<char> = pieces
        .iter()
        .filter(|p| p.royalty == Royalty::King)
        .map(|p| p.letter)
        .collect();
    let zillions_name = match &def.zillions {
        Some(z) if z.get_ref().trim().is_empty() || z.get_ref().len() > 64 => {
            return Err(err_at(
                z.span(),
                "zillions: a variant name of 1 to 64 characters".into(),
            ));
        }
        Some(z) => z.get_ref().trim().to_string(),
        None => name.clone(),
    };
    let max_kings = kings_in_start(&start, &king_letters);
    let variant = Arc::new(Variant {
        name,
        zillions_name,
        description: def.description.clone(),
        shape,
        pieces,
        start,
        castling,
        rules,
        shuffle,
        source: DefinitionSource {
            file: file.to_string(),
            text: source.into(),
        },
        tables,
        max_kings,
        captures_to_hand: def.holdings.captures,
    });
    let start = Position::from_setup(&variant, &variant.start)
        .map_err(|e| err_at(def.start.span(), format!("start position: {e}")))?;
    if start.side_to_move() != Color::White {
        log::debug!("variant {} starts with Black to move", variant.name);
    }
    Ok(variant)
}

/// Why a piece's Zillions name cannot be used, if it cannot: it must be one word that no other
/// piece uses (in any case) and that the notation does not reserve.
fn zillions_piece_name_problem(name: &str, earlier: &[PieceType]) -> Option<&'static str> {
    const RESERVED: [&str; 8] = ["white", "black", "pass", "partial", "off", "on", "x", "to"];
    if name.is_empty() || name.len() > 32 {
        Some("must have 1 to 32 characters")
    } else if !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') {
        Some("must be letters, digits, - or _")
    } else if !name.starts_with(|c: char| c.is_ascii_alphabetic()) {
        Some("must start with a letter")
    } else if RESERVED.iter().any(|r| r.eq_ignore_ascii_case(name)) {
        Some("is a word of the notation")
    } else if earlier.iter().any(|p| p.zillions_name.eq_ignore_ascii_case(name)) {
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

#[cfg(test)]
mod tests {
    use super::*;

    const NORMAL: &str = include_str!("../../fixtures/variants/normal.toml");

    fn line_of_error(source: &str) -> (Option<usize>, String) {
        match parse_definition(source, "t.toml") {
            Ok(_) => panic!("accepted:\n{source}"),
            Err(e) => (e.line, e.message),
        }
    }

    fn line_containing(source: &str, text: &str) -> usize {
        source
            .lines()
            .position(|l| l.contains(text))
            .expect("the text is in the file")
            + 1
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
        assert_eq!(line, Some(line_containing(NORMAL, "[castling]")), "{message}");
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
