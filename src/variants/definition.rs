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
use crate::core::{Color, Position};
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
    stalemate: String,
    #[serde(default = "default_move_rule")]
    move_rule: u32,
    #[serde(default = "default_repetition")]
    repetition: String,
    #[serde(default = "default_repetition_count")]
    repetition_count: u8,
    #[serde(default)]
    insufficient_material: bool,
    #[serde(default)]
    goals: Vec<String>,
}

fn default_stalemate() -> String {
    "draw".into()
}
fn default_move_rule() -> u32 {
    100
}
fn default_repetition() -> String {
    "draw".into()
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
    royal: Option<String>,
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

/// The span of a `[table]` of the file, up to the next table header.
fn table_span(source: &str, header: &str) -> Option<std::ops::Range<usize>> {
    let wanted = format!("[{header}]");
    let mut offset = 0;
    let mut found = None;
    for line in source.split_inclusive('\n') {
        if line.trim() == wanted {
            found = Some(offset);
            break;
        }
        offset += line.len();
    }
    let start = found?;
    let end = source[start + 1..].find("\n[").map_or(source.len(), |i| start + 1 + i);
    Some(start..end)
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
    let def: VariantDef = toml::from_str(source).map_err(|e| DefinitionError {
        file: file.to_string(),
        line: e.span().map(|s| line_of(source, s.start)),
        message: e.message().trim().to_string(),
    })?;
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
        let royalty = match p.royal.as_deref() {
            None => Royalty::None,
            Some("king") => Royalty::King,
            Some("rose") => Royalty::Rose,
            Some(other) => {
                return Err(err_at(
                    at("royal"),
                    format!("royal = {other:?}: expected \"king\" or \"rose\""),
                ));
            }
        };
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
            let homes = king_homes(def.start.get_ref(), king_letter, shape).ok_or_else(|| {
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
            let rook_files = castling_rook_files(def.start.get_ref(), &rook_letters, homes[0], shape);
            Some(CastlingRule {
                king_steps: c.get_ref().king_steps.clone(),
                king_files,
                king_ranks: [homes[0].1, homes[1].1],
                rook_files,
            })
        }
        None => None,
    };
    let rules_table = table_span(source, "rules").unwrap_or_else(|| def.name.span());
    let rules_span = |key: &str| key_span(source, rules_table.clone(), key);
    let rules = GameRules {
        stalemate: match def.rules.stalemate.as_str() {
            "draw" => Verdict::Draw,
            "loss" => Verdict::Loss,
            "win" => Verdict::Win,
            other => {
                return Err(err_at(
                    rules_span("stalemate"),
                    format!("rules.stalemate = {other:?}: expected draw, loss or win"),
                ));
            }
        },
        move_rule: (def.rules.move_rule > 0).then_some(def.rules.move_rule),
        repetition: match def.rules.repetition.as_str() {
            "draw" => Repetition::Draw(def.rules.repetition_count.max(1)),
            "forbidden" => Repetition::Forbidden,
            other => {
                return Err(err_at(
                    rules_span("repetition"),
                    format!("rules.repetition = {other:?}: expected draw or forbidden"),
                ));
            }
        },
        insufficient_material: def.rules.insufficient_material,
        goals: def
            .rules
            .goals
            .iter()
            .map(|g| parse_goal(g).ok_or_else(|| err_at(rules_span("goals"), format!("unknown goal {g:?}"))))
            .collect::<Result<_, _>>()?,
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
    let start = fen::parse_fen(def.start.get_ref(), Coords::Human).map_err(|e| err_at(def.start.span(), e.message))?;
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
        max_kings: kings_in_start(def.start.get_ref(), &letters, &def.piece),
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

/// The placement field of a start FEN (without holdings).
fn placement(start: &str) -> &str {
    start.split([' ', '[']).next().unwrap_or("")
}

/// The letters of one rank of a FEN placement with their files (0-based); digits are empty squares.
fn rank_letters(rank_text: &str) -> impl Iterator<Item = (u32, char)> + '_ {
    let mut file = 0u32;
    let mut digits = String::new();
    rank_text.chars().filter_map(move |ch| {
        if ch.is_ascii_digit() {
            digits.push(ch);
            return None;
        }
        file += digits.parse::<u32>().unwrap_or(0);
        digits.clear();
        let at = file;
        file += 1;
        Some((at, ch))
    })
}

/// (file, rank) of the White and the Black king in a start FEN's placement, 0-based.
fn king_homes(start: &str, king: char, shape: BoardShape) -> Option<[(u8, u8); 2]> {
    let mut homes = [None, None];
    for (row, rank_text) in placement(start).split('/').enumerate() {
        let rank = (shape.ranks as usize).checked_sub(row + 1)? as u8;
        for (file, ch) in rank_letters(rank_text) {
            if ch.eq_ignore_ascii_case(&king) {
                let color = if ch.is_ascii_uppercase() { 0 } else { 1 };
                homes[color] = Some((file as u8, rank));
            }
        }
    }
    Some([homes[0]?, homes[1]?])
}

/// Files of White's outermost castling rooks beside its king in the start FEN: (higher, lower).
fn castling_rook_files(start: &str, rooks: &[char], king: (u8, u8), shape: BoardShape) -> [Option<u8>; 2] {
    let row = (shape.ranks - 1 - king.1) as usize;
    let Some(rank_text) = placement(start).split('/').nth(row) else {
        return [None, None];
    };
    let files: Vec<u8> = rank_letters(rank_text)
        .filter(|(_, ch)| rooks.contains(ch))
        .map(|(file, _)| file as u8)
        .collect();
    let higher = files.iter().copied().filter(|&f| f > king.0).max();
    let lower = files.iter().copied().filter(|&f| f < king.0).min();
    [higher, lower]
}

/// The largest number of king-royal pieces one side has in the start FEN (at least 1).
fn kings_in_start(start: &str, letters: &[char], pieces: &[Spanned<PieceDef>]) -> usize {
    let board = placement(start);
    let kings: Vec<char> = letters
        .iter()
        .zip(pieces)
        .filter(|(_, p)| p.get_ref().royal.as_deref() == Some("king"))
        .map(|(l, _)| *l)
        .collect();
    let white = board.chars().filter(|c| kings.contains(c)).count();
    let black = board
        .chars()
        .filter(|c| kings.contains(&c.to_ascii_uppercase()) && c.is_ascii_lowercase())
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
