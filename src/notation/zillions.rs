//! Zillions of Games notation (protocol/zillions.md): the move texts Zillions passes to a plug-in
//! and writes into save games — `Pawn e2 - e4`, `Knight g1 x f3`, `Pawn e7 - e8 = Queen`, drops
//! `Ninja-Pawn e5`, side effects as clauses after the move (`x d7` for each further victim, the
//! rook's `Rook i1 - g1` after a castling king, `= Wild-Rose on b8` for a converted unit) — and
//! setup placements (`White King e1`, `(White Ninja-Pawn off 5)`). Piece names come from the
//! variant's `ZillionsNames`, read from its definition; squares are human coordinates.
//!
//! Reading finds the legal move whose text this is; a text that leaves out clauses the move
//! implies (`King e1 - g1` for a castling) is accepted when exactly one legal move fits it.

use std::sync::LazyLock;

use crate::core::{Color, Kind, Move, Position, Square, Variant};

use super::{Coords, parse_square, square_name};

/// Zillions' names of the two players.
pub fn player_name(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Black",
    }
}

fn player_by_name(word: &str) -> Option<Color> {
    Color::BOTH
        .into_iter()
        .find(|&c| player_name(c).eq_ignore_ascii_case(word))
}

/// What Zillions of Games calls a game and its pieces: read from the definition (its `zillions`
/// keys, or names made from its own) when the variant is built, and kept among its `extensions`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ZillionsNames {
    /// The name Zillions shows in its Variants menu (e.g. `Wild Rose Chess`).
    pub game: String,
    /// Each piece type's name, in the order of the piece table (one word, e.g. `Ninja-Pawn`).
    pub pieces: Vec<String>,
}

/// The names of a variant built by hand, from no definition: none (its own names stand in).
static NONE: LazyLock<ZillionsNames> = LazyLock::new(ZillionsNames::default);

impl ZillionsNames {
    /// The names of `variant` (none for a variant built from no definition).
    pub fn of(variant: &Variant) -> &ZillionsNames {
        variant.extensions.get::<ZillionsNames>().unwrap_or(&NONE)
    }
}

/// The name Zillions shows for a game.
pub fn game_name(variant: &Variant) -> &str {
    let names = ZillionsNames::of(variant);
    if names.game.is_empty() {
        &variant.name
    } else {
        &names.game
    }
}

/// The Zillions name of a piece type.
pub fn piece_name(variant: &Variant, kind: Kind) -> &str {
    ZillionsNames::of(variant)
        .pieces
        .get(kind.index())
        .map_or(&variant.piece(kind).name, |name| name)
}

/// The piece type with this Zillions name (any case).
pub fn kind_by_name(variant: &Variant, name: &str) -> Option<Kind> {
    (0..variant.pieces.len())
        .map(|i| Kind(i as u8))
        .find(|&k| piece_name(variant, k).eq_ignore_ascii_case(name))
}

fn sq(variant: &Variant, s: Square) -> String {
    square_name(variant.shape, s, Coords::Human)
}

/// The Zillions text of a legal move in `pos`.
pub fn move_text(pos: &Position, mv: &Move) -> String {
    let v = &**pos.variant();
    let name_at = |s: Square| pos.piece_at(s).map_or("?", |p| piece_name(v, p.kind()));
    match *mv {
        Move::Drop { kind, to } => format!("{} {}", piece_name(v, kind), sq(v, to)),
        Move::Castle {
            king_from,
            king_to,
            rook_from,
            rook_to,
        } => format!(
            "{} {} - {} {} {} - {}",
            name_at(king_from),
            sq(v, king_from),
            sq(v, king_to),
            name_at(rook_from),
            sq(v, rook_from),
            sq(v, rook_to)
        ),
        Move::Normal { from, to, .. }
        | Move::MultiStep { from, to, .. }
        | Move::EnPassant { from, to, .. }
        | Move::Special { from, to, .. }
        | Move::Grow { from, to, .. } => {
            let victims: Vec<Square> = pos.captures_of(mv).map(|(s, _)| s).collect();
            let on_target = from != to && victims.contains(&to);
            let mut s = format!(
                "{} {} {} {}",
                name_at(from),
                sq(v, from),
                if on_target { 'x' } else { '-' },
                sq(v, to)
            );
            if let Some(k) = mv.promotion() {
                s.push_str(" = ");
                s.push_str(piece_name(v, k));
            }
            for &victim in victims.iter().filter(|&&x| x != to || from == to) {
                s.push_str(" x ");
                s.push_str(&sq(v, victim));
            }
            if let Move::Grow {
                converts: Some(unit), ..
            } = *mv
            {
                let convert = pos
                    .piece_at(from)
                    .and_then(|p| v.piece(p.kind()).promotion.as_ref())
                    .and_then(|p| p.convert);
                if let Some(k) = convert {
                    s.push_str(&format!(" = {} on {}", piece_name(v, k), sq(v, unit)));
                }
            }
            s
        }
    }
}

/// Where a placement puts its piece.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum PlacementTarget {
    /// On a square of the board.
    Square(Square),
    /// This many into the player's hand (ZRF's `off N`).
    Hand(u8),
}

/// One setup placement: `White King e1`, `White Ninja-Pawn off 5`.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct Placement {
    pub color: Color,
    pub kind: Kind,
    pub target: PlacementTarget,
}

/// The text of a placement, without parentheses.
pub fn placement_text(variant: &Variant, p: &Placement) -> String {
    let target = match p.target {
        PlacementTarget::Square(s) => sq(variant, s),
        PlacementTarget::Hand(n) => format!("off {n}"),
    };
    format!("{} {} {}", player_name(p.color), piece_name(variant, p.kind), target)
}

/// Why a Zillions text was not accepted.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum ZillionsError {
    /// Not shaped like a move or placement.
    Unparsable(String),
    /// A player name that is neither `White` nor `Black`.
    UnknownPlayer(String),
    /// A piece name that the variant does not have.
    UnknownPiece(String),
    /// A move or drop of the side that is not to move.
    WrongSide,
    /// `Pass`: no game here has a pass move.
    Pass,
    /// Shaped like a move, but no legal move has this text.
    Illegal(String),
}

impl std::fmt::Display for ZillionsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ZillionsError::Unparsable(t) => write!(f, "not a move or placement: {t:?}"),
            ZillionsError::UnknownPlayer(p) => write!(f, "unknown player {p:?} (expected White or Black)"),
            ZillionsError::UnknownPiece(p) => write!(f, "unknown piece {p:?}"),
            ZillionsError::WrongSide => write!(f, "it is the other side's turn"),
            ZillionsError::Pass => write!(f, "passing is not a move in this game"),
            ZillionsError::Illegal(why) => write!(f, "{why}"),
        }
    }
}

impl std::error::Error for ZillionsError {}

/// The words of a text: without surrounding parentheses, a leading `partial N` (Zillions marks a
/// move after which the same player moves again) and `@ sq n n` attribute clauses (they move no
/// piece).
fn words(text: &str) -> Vec<&str> {
    let t = text.trim();
    let t = t.strip_prefix('(').and_then(|r| r.strip_suffix(')')).unwrap_or(t);
    let mut out = Vec::new();
    let mut it = t.split_whitespace().peekable();
    if it.peek().is_some_and(|w| w.eq_ignore_ascii_case("partial")) {
        it.next();
        if it.peek().is_some_and(|w| w.chars().all(|c| c.is_ascii_digit())) {
            it.next();
        }
    }
    while let Some(w) = it.next() {
        if w == "@" {
            // `@ h7 0 0`: a square and two numbers.
            it.next();
            for _ in 0..2 {
                if it.peek().is_some_and(|w| w.parse::<i64>().is_ok()) {
                    it.next();
                }
            }
            continue;
        }
        out.push(w);
    }
    out
}

fn square(variant: &Variant, word: &str) -> Option<Square> {
    match parse_square(variant.shape, &word.to_ascii_lowercase(), Coords::Human) {
        Some((s, "")) => Some(s),
        _ => None,
    }
}

/// Is this text a placement (`[(]Player Piece square|off N[)]`)? Only the shape is checked.
pub fn looks_like_placement(text: &str) -> bool {
    let w = words(text);
    (w.len() == 3 || (w.len() == 4 && w[2].eq_ignore_ascii_case("off"))) && player_by_name(w[0]).is_some()
}

/// Reads a placement, with or without parentheses.
///
/// # Errors
///
/// The text is not a placement of this variant: its shape, player, piece or square.
pub fn parse_placement(variant: &Variant, text: &str) -> Result<Placement, ZillionsError> {
    let w = words(text);
    let unparsable = || ZillionsError::Unparsable(text.trim().to_string());
    if w.len() < 3 || w.len() > 4 {
        return Err(unparsable());
    }
    let color = player_by_name(w[0]).ok_or_else(|| ZillionsError::UnknownPlayer(w[0].to_string()))?;
    let kind = kind_by_name(variant, w[1]).ok_or_else(|| ZillionsError::UnknownPiece(w[1].to_string()))?;
    let target = match w[2..] {
        [s] => PlacementTarget::Square(square(variant, s).ok_or_else(unparsable)?),
        [off, n] if off.eq_ignore_ascii_case("off") => {
            PlacementTarget::Hand(n.parse::<u8>().ok().filter(|&n| n > 0).ok_or_else(unparsable)?)
        }
        _ => return Err(unparsable()),
    };
    Ok(Placement { color, kind, target })
}

/// What the words of a move text say (`None`: left open).
#[derive(Default)]
struct Pattern {
    kind: Option<Kind>,
    from: Option<Square>,
    to: Option<Square>,
    /// The separator: `Some(true)` for `x`.
    captures_on_target: Option<bool>,
    promotion: Option<Kind>,
    victims: Vec<Square>,
    rook: Option<(Kind, Square, Square)>,
    converted: Option<(Kind, Square)>,
    /// Two words `Piece square`: a drop, or a piece that acts without moving.
    drop_or_stationary: bool,
}

fn pattern(variant: &Variant, w: &[&str], text: &str) -> Result<Pattern, ZillionsError> {
    let unparsable = || ZillionsError::Unparsable(text.trim().to_string());
    let kind = |word: &str| kind_by_name(variant, word).ok_or_else(|| ZillionsError::UnknownPiece(word.to_string()));
    let square = |word: &str| square(variant, word).ok_or_else(unparsable);
    let mut p = Pattern {
        kind: Some(kind(w[0])?),
        ..Pattern::default()
    };
    let sq = square(w.get(1).ok_or_else(unparsable)?)?;
    let mut rest = &w[2..];
    match rest {
        [sep, to, tail @ ..] if *sep == "-" || sep.eq_ignore_ascii_case("x") => {
            p.from = Some(sq);
            p.to = Some(square(to)?);
            p.captures_on_target = Some(sep.eq_ignore_ascii_case("x"));
            rest = tail;
        }
        _ => {
            p.drop_or_stationary = true;
            p.to = Some(sq);
        }
    }
    if let ["=", promo, tail @ ..] = rest
        && tail.first().is_none_or(|w| !w.eq_ignore_ascii_case("on"))
    {
        p.promotion = Some(kind(promo)?);
        rest = tail;
    }
    loop {
        match rest {
            [] => break,
            [x, s, tail @ ..] if x.eq_ignore_ascii_case("x") => {
                p.victims.push(square(s)?);
                rest = tail;
            }
            ["=", k, on, s, tail @ ..] if on.eq_ignore_ascii_case("on") => {
                p.converted = Some((kind(k)?, square(s)?));
                rest = tail;
            }
            [k, a, "-", b, tail @ ..] => {
                p.rook = Some((kind(k)?, square(a)?, square(b)?));
                rest = tail;
            }
            _ => return Err(unparsable()),
        }
    }
    Ok(p)
}

/// Does a legal move fit what the words say?
fn fits(pos: &Position, mv: &Move, p: &Pattern) -> bool {
    let v = &**pos.variant();
    let kind_at = |s: Square| pos.piece_at(s).map(|x| x.kind());
    if p.drop_or_stationary {
        let is_drop = mv.dropped() == p.kind && p.kind.is_some() && Some(mv.to()) == p.to;
        let stationary = mv.from() == Some(mv.to()) && Some(mv.to()) == p.to;
        if !(is_drop || (stationary && kind_at(mv.to()) == p.kind)) {
            return false;
        }
    } else if mv.from().is_none()
        || mv.from() != p.from
        || Some(mv.to()) != p.to
        || mv.from().and_then(kind_at) != p.kind
    {
        return false;
    }
    let victims: Vec<Square> = pos.captures_of(mv).map(|(s, _)| s).collect();
    if p.captures_on_target == Some(true) && !victims.contains(&mv.to()) {
        return false;
    }
    if p.promotion.is_some() && mv.promotion() != p.promotion {
        return false;
    }
    if !p.victims.iter().all(|s| victims.contains(s)) {
        return false;
    }
    if let Some((k, a, b)) = p.rook {
        let rook_fits = matches!(*mv, Move::Castle { rook_from, rook_to, .. } if (rook_from, rook_to) == (a, b));
        if !rook_fits || kind_at(a) != Some(k) {
            return false;
        }
    }
    if let Some((k, s)) = p.converted {
        let convert = mv
            .from()
            .and_then(kind_at)
            .and_then(|x| v.piece(x).promotion.as_ref())
            .and_then(|x| x.convert);
        if !matches!(*mv, Move::Grow { converts: Some(unit), .. } if unit == s) || convert != Some(k) {
            return false;
        }
    }
    true
}

fn same_words(a: &[&str], b: &str) -> bool {
    let b: Vec<&str> = b.split_whitespace().collect();
    a.len() == b.len() && a.iter().zip(&b).all(|(x, y)| x.eq_ignore_ascii_case(y))
}

/// Finds the legal move a Zillions text names (any case; a drop may name its player).
///
/// # Errors
///
/// The text is not a move, names a player, piece or square the game lacks, moves the side not
/// to move, or names no legal move.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, ZillionsError> {
    let mut w = words(text);
    if w.len() == 1 && w[0].eq_ignore_ascii_case("pass") {
        return Err(ZillionsError::Pass);
    }
    let variant = std::sync::Arc::clone(pos.variant());
    let v = &*variant;
    // A player in front: `White Ninja-Pawn e5` (a drop, or any move, by that player).
    if let Some(&first) = w.first()
        && kind_by_name(v, first).is_none()
        && w.len() >= 3
        && square(v, w[1]).is_none()
    {
        let color = player_by_name(first).ok_or_else(|| ZillionsError::UnknownPlayer(first.to_string()))?;
        if color != pos.side_to_move() {
            return Err(ZillionsError::WrongSide);
        }
        w.remove(0);
    }
    if w.len() < 2 {
        return Err(ZillionsError::Unparsable(text.trim().to_string()));
    }
    let moves = pos.legal_moves();
    if let Some(mv) = moves.iter().find(|mv| same_words(&w, &move_text(pos, mv))) {
        return Ok(*mv);
    }
    let p = pattern(v, &w, text)?;
    let candidates: Vec<Move> = moves.iter().filter(|mv| fits(pos, mv, &p)).copied().collect();
    match candidates[..] {
        [mv] => Ok(mv),
        [] => {
            let them = pos.side_to_move().opposite();
            if let Some(from) = p.from
                && pos.piece_at(from).is_some_and(|x| x.color() == them)
            {
                return Err(ZillionsError::WrongSide);
            }
            let us = pos.side_to_move();
            if let (Some(from), Some(kind)) = (p.from, p.kind)
                && pos.piece_at(from).map(|x| (x.kind(), x.color())) != Some((kind, us))
            {
                return Err(ZillionsError::Illegal(format!(
                    "no {} {} on {}",
                    player_name(us),
                    piece_name(v, kind),
                    sq(v, from)
                )));
            }
            Err(ZillionsError::Illegal(format!(
                "{:?} is not a legal move here",
                w.join(" ")
            )))
        }
        _ => Err(ZillionsError::Illegal(format!(
            "{:?} fits {} legal moves; name the captured squares",
            w.join(" "),
            candidates.len()
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::fen;
    use crate::variants::Registry;

    fn position(variant: &str, fen_text: Option<&str>) -> Position {
        let v = Registry::builtin().get(variant).expect("built-in variant");
        match fen_text {
            None => Position::start(&v),
            Some(f) => Position::from_setup(&v, &fen::parse_fen(f, Coords::Human).expect("FEN")).expect("position"),
        }
    }

    fn play(pos: &mut Position, text: &str) -> Move {
        let mv = parse_move(pos, text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert!(
            same_words(&words(text), &move_text(pos, &mv)),
            "{text} prints as {}",
            move_text(pos, &mv)
        );
        pos.make(mv);
        mv
    }

    #[test]
    fn orthodox_moves_captures_castling_and_promotion() {
        let mut pos = position("normal", None);
        for m in [
            "Pawn e2 - e4",
            "Pawn d7 - d5",
            "Pawn e4 x d5",
            "Knight g8 - f6",
            "Bishop f1 - b5",
            "Pawn c7 - c6",
            "Knight g1 - f3",
        ] {
            play(&mut pos, m);
        }
        play(&mut pos, "Pawn c6 x b5");
        let castle = parse_move(&pos, "king e1 - g1").expect("castling");
        assert_eq!(move_text(&pos, &castle), "King e1 - g1 Rook h1 - f1");
        let mut pos = position("normal", Some("8/4P3/8/8/8/8/8/k3K3 w - - 0 1"));
        play(&mut pos, "Pawn e7 - e8 = Queen");
        let mut pos = position("normal", Some("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1"));
        play(&mut pos, "Pawn e5 - d6 x d5");
        // Without the victim's clause it is still the only move from e5 to d6.
        let pos = position("normal", Some("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1"));
        assert!(parse_move(&pos, "Pawn e5 - d6").is_ok());
    }

    #[test]
    fn wreckage_drops_and_hook_captures() {
        let mut pos = position("wreckage", None);
        play(&mut pos, "Pawn e2 - e4");
        play(&mut pos, "Pawn e9 - e7");
        // A drop may name its player; a drop of the side not to move is refused.
        assert_eq!(parse_move(&pos, "Black Ninja-Pawn e2"), Err(ZillionsError::WrongSide));
        let mv = parse_move(&pos, "White Ninja-Pawn e2").expect("drop");
        assert_eq!(move_text(&pos, &mv), "Ninja-Pawn e2");
        assert_eq!(
            parse_move(&pos, "Unicorn e2"),
            Err(ZillionsError::UnknownPiece("Unicorn".into()))
        );
        assert_eq!(
            parse_move(&pos, "Green Ninja-Pawn e2"),
            Err(ZillionsError::UnknownPlayer("Green".into()))
        );
        assert_eq!(parse_move(&pos, "Pass"), Err(ZillionsError::Pass));
        assert!(matches!(
            parse_move(&pos, "Pawn e2 - e4"),
            Err(ZillionsError::Illegal(_))
        ));
        // A detonation: the Detonator stays, every victim is a clause.
        let pos = position("wreckage", Some("4k5/10/10/10/4pp4/4Xp4/10/10/10/4K5[-] w - - 0 1"));
        let det = pos
            .legal_moves()
            .iter()
            .copied()
            .find(|m| matches!(m, Move::Special { .. }))
            .expect("detonation");
        assert_eq!(move_text(&pos, &det), "Detonator e5 - e5 x e6 x f6 x f5");
        assert_eq!(parse_move(&pos, "Detonator e5 - e5 x f5 x e6 x f6"), Ok(det));
    }

    #[test]
    fn placements() {
        let v = Registry::builtin().get("wreckage").expect("wreckage");
        let p = parse_placement(&v, "(White King f1)").expect("placement");
        assert_eq!(placement_text(&v, &p), "White King f1");
        let hand = parse_placement(&v, "Black Ninja-Pawn off 5").expect("hand");
        assert_eq!(hand.target, PlacementTarget::Hand(5));
        assert!(looks_like_placement("(White King f1)"));
        assert!(!looks_like_placement("King f1 - f2"));
        assert!(parse_placement(&v, "White King z1").is_err());
    }
}
