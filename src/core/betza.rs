//! Betza (XBetza dialect) piece-movement strings: a nom parser into groups, then compilation into
//! movement atoms that move generation reads.
//!
//! Supported for move generation: atoms W F D A N H C Z G (leapers), K R B Q (compounds), doubled atoms
//! and range digits (riders), direction letters f b l r v s (also pairs such as `fl`, `ff`, `fs`), and the
//! modes m (move only), c (capture only), p (hop over one screen, cannon style), n (lame: the path must be
//! empty), i (only from the piece's initial ranks) and e (en-passant capture). Multi-leg moves (`a`) and
//! castling (`O`) parse, but generation leaves them to hooks and to the castling rules of the variant.

use nom::{
    IResult, Parser,
    bytes::complete::take_while,
    character::complete::{char, digit1, satisfy},
    combinator::{all_consuming, opt},
    multi::many1,
};
use std::fmt;

/// How far a group may go: the atom's default, a step count, or unlimited.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum Range {
    Default,
    Steps(u8),
    Unlimited,
}

/// One move group as written: modifier letters per leg (split at `a`), the atom and its range.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct BetzaGroup {
    pub legs: Vec<String>,
    pub atom: char,
    pub range: Range,
}

/// A parse or compile error, with the offending text.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct BetzaError {
    pub betza: String,
    pub message: String,
}

impl fmt::Display for BetzaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Betza string \"{}\": {}", self.betza, self.message)
    }
}

impl std::error::Error for BetzaError {}

/// Mode flags of a compiled atom.
pub mod mode {
    pub const MOVE: u8 = 1;
    pub const CAPTURE: u8 = 2;
    /// Must hop over exactly one occupied square (the screen) before its destinations.
    pub const HOP: u8 = 4;
    /// Leaps only if the squares on the straight path are empty.
    pub const LAME: u8 = 8;
    /// Only from the piece's initial ranks.
    pub const INITIAL: u8 = 16;
    /// May capture en passant.
    pub const EN_PASSANT: u8 = 32;
}

/// One direction of movement, seen from White (Black mirrors `dy`).
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
pub struct MoveAtom {
    pub dx: i8,
    pub dy: i8,
    /// 1 = a leap, 0 = unlimited, n = at most n steps along the vector.
    pub max_steps: u8,
    pub modes: u8,
}

/// The compiled movement of a piece.
#[derive(Clone, Debug, Default, Eq, PartialEq)]
pub struct Movement {
    pub atoms: Vec<MoveAtom>,
    /// King step distances of Betza `O` castling groups (informational; castling is variant data).
    pub castling_steps: Vec<u8>,
}

fn group(i: &str) -> IResult<&str, BetzaGroup> {
    let (i, mods) = take_while(|c: char| c.is_ascii_lowercase())(i)?;
    let (i, atom) = satisfy(|c| "WFDANHCZGKRBQOJL".contains(c))(i)?;
    let (i, doubled) = opt(char(atom)).parse(i)?;
    let (i, digits) = opt(digit1).parse(i)?;
    let range = match (doubled, digits) {
        (Some(_), _) => Range::Unlimited,
        (None, Some(d)) => match d.parse::<u8>() {
            Ok(0) => Range::Unlimited,
            Ok(n) => Range::Steps(n),
            Err(_) => Range::Unlimited,
        },
        (None, None) => Range::Default,
    };
    let legs = mods.split('a').map(str::to_string).collect();
    Ok((i, BetzaGroup { legs, atom, range }))
}

/// Parses a Betza string into groups (syntax only).
///
/// # Errors
///
/// The text is not Betza notation (the error names the string and what is wrong).
pub fn parse(betza: &str) -> Result<Vec<BetzaGroup>, BetzaError> {
    match all_consuming(many1(group)).parse(betza) {
        Ok((_, groups)) => Ok(groups),
        Err(e) => {
            let rest = match &e {
                nom::Err::Error(err) | nom::Err::Failure(err) => err.input,
                nom::Err::Incomplete(_) => "",
            };
            let at = betza.len() - rest.len();
            Err(BetzaError {
                betza: betza.to_string(),
                message: format!("cannot parse at character {} ({:?})", at + 1, rest),
            })
        }
    }
}

#[derive(Copy, Clone, Eq, PartialEq)]
enum Shape {
    Orthogonal,
    Diagonal,
    Oblique,
}

/// Base vectors (first octant) and default range of an atom letter.
fn atom_vectors(atom: char) -> Option<(Vec<(i8, i8)>, u8)> {
    Some(match atom {
        'W' => (vec![(1, 0)], 1),
        'F' => (vec![(1, 1)], 1),
        'D' => (vec![(2, 0)], 1),
        'A' => (vec![(2, 2)], 1),
        'N' => (vec![(1, 2)], 1),
        'H' => (vec![(3, 0)], 1),
        'C' | 'L' => (vec![(1, 3)], 1),
        'Z' | 'J' => (vec![(2, 3)], 1),
        'G' => (vec![(3, 3)], 1),
        'K' => (vec![(1, 0), (1, 1)], 1),
        'R' => (vec![(1, 0)], 0),
        'B' => (vec![(1, 1)], 0),
        'Q' => (vec![(1, 0), (1, 1)], 0),
        _ => return None,
    })
}

fn symmetric(base: (i8, i8)) -> Vec<(i8, i8)> {
    let (a, b) = base;
    let mut out = Vec::new();
    for (x, y) in [(a, b), (b, a)] {
        for sx in [1, -1] {
            for sy in [1, -1] {
                let v = (x * sx, y * sy);
                if !out.contains(&v) {
                    out.push(v);
                }
            }
        }
    }
    out
}

fn shape_of(v: (i8, i8)) -> Shape {
    if v.0 == 0 || v.1 == 0 {
        Shape::Orthogonal
    } else if v.0.abs() == v.1.abs() {
        Shape::Diagonal
    } else {
        Shape::Oblique
    }
}

/// Does a single direction letter select vector `v`?
fn single_selects(c: char, v: (i8, i8), shape: Shape) -> bool {
    let (dx, dy) = v;
    match c {
        'f' => dy > 0,
        'b' => dy < 0,
        'l' => dx < 0,
        'r' => dx > 0,
        'v' => match shape {
            Shape::Orthogonal => dx == 0,
            Shape::Oblique => dy.abs() > dx.abs(),
            Shape::Diagonal => true,
        },
        's' => match shape {
            Shape::Orthogonal => dy == 0,
            Shape::Oblique => dx.abs() > dy.abs(),
            Shape::Diagonal => true,
        },
        _ => false,
    }
}

/// Does a direction pair (such as `fl`, `ff`, `fs`) select vector `v`? `None` if the pair is not one.
fn pair_selects(a: char, b: char, v: (i8, i8), shape: Shape) -> Option<bool> {
    let (dx, dy) = v;
    let vertical = |c: char| c == 'f' || c == 'b';
    let lateral = |c: char| c == 'l' || c == 'r';
    match shape {
        Shape::Orthogonal => None,
        Shape::Diagonal => {
            if (vertical(a) && lateral(b)) || (lateral(a) && vertical(b)) {
                Some(single_selects(a, v, shape) && single_selects(b, v, shape))
            } else {
                None
            }
        }
        Shape::Oblique => {
            let major_vertical = dy.abs() > dx.abs();
            if vertical(a) {
                match b {
                    _ if b == a => Some(single_selects(a, v, shape) && major_vertical),
                    's' => Some(single_selects(a, v, shape) && !major_vertical),
                    'l' | 'r' => Some(single_selects(a, v, shape) && single_selects(b, v, shape) && major_vertical),
                    _ => None,
                }
            } else if lateral(a) {
                match b {
                    _ if b == a => Some(single_selects(a, v, shape) && !major_vertical),
                    'v' => Some(single_selects(a, v, shape) && major_vertical),
                    'f' | 'b' => Some(single_selects(a, v, shape) && single_selects(b, v, shape) && !major_vertical),
                    _ => None,
                }
            } else {
                None
            }
        }
    }
}

/// Compiles parsed groups into atoms. Multi-leg groups are an error: such pieces need a hook.
///
/// # Errors
///
/// A group this compiler cannot turn into atoms (several legs, an unknown atom or modifier).
pub fn compile(betza: &str, groups: &[BetzaGroup]) -> Result<Movement, BetzaError> {
    let err = |message: String| BetzaError {
        betza: betza.to_string(),
        message,
    };
    let mut movement = Movement::default();
    for g in groups {
        if g.atom == 'O' {
            let steps = match g.range {
                Range::Steps(n) => n,
                _ => 2,
            };
            movement.castling_steps.push(steps);
            continue;
        }
        if g.legs.len() > 1 {
            return Err(err(format!(
                "multi-leg group \"{}{}\" cannot be generated from atoms; give the piece a hook",
                g.legs.join("a"),
                g.atom
            )));
        }
        let mods = &g.legs[0];
        let (bases, default_range) = atom_vectors(g.atom).ok_or_else(|| err(format!("unknown atom {}", g.atom)))?;
        let mut modes = 0u8;
        let mut dirs: Vec<char> = Vec::new();
        for c in mods.chars() {
            match c {
                'm' => modes |= mode::MOVE,
                'c' => modes |= mode::CAPTURE,
                'p' => modes |= mode::HOP,
                'n' => modes |= mode::LAME,
                'i' => modes |= mode::INITIAL,
                'e' => modes |= mode::EN_PASSANT | mode::CAPTURE,
                'f' | 'b' | 'l' | 'r' | 'v' | 's' => dirs.push(c),
                other => return Err(err(format!("modifier '{other}' is not supported"))),
            }
        }
        if modes & (mode::MOVE | mode::CAPTURE) == 0 {
            modes |= mode::MOVE | mode::CAPTURE;
        }
        let max_steps = match g.range {
            Range::Default => default_range,
            Range::Steps(n) => n,
            Range::Unlimited => 0,
        };
        for base in bases {
            let lame_ok = base.0 == 0 || base.1 == 0 || base.0 == base.1;
            if modes & mode::LAME != 0 && !lame_ok {
                return Err(err(format!("lame (n) {} leaps are not supported", g.atom)));
            }
            for v in symmetric(base) {
                let shape = shape_of(v);
                let selected = if dirs.is_empty() {
                    true
                } else {
                    let mut sel = false;
                    let mut k = 0;
                    while k < dirs.len() {
                        if k + 1 < dirs.len()
                            && let Some(s) = pair_selects(dirs[k], dirs[k + 1], v, shape)
                        {
                            sel |= s;
                            k += 2;
                            continue;
                        }
                        sel |= single_selects(dirs[k], v, shape);
                        k += 1;
                    }
                    sel
                };
                if selected {
                    let atom = MoveAtom {
                        dx: v.0,
                        dy: v.1,
                        max_steps,
                        modes,
                    };
                    if !movement.atoms.contains(&atom) {
                        movement.atoms.push(atom);
                    }
                }
            }
        }
    }
    Ok(movement)
}

/// Parses and compiles a Betza string.
///
/// # Errors
///
/// As [`parse`] and [`compile`].
pub fn movement(betza: &str) -> Result<Movement, BetzaError> {
    compile(betza, &parse(betza)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vectors(betza: &str) -> Vec<(i8, i8, u8, u8)> {
        let mut v: Vec<_> = movement(betza)
            .unwrap()
            .atoms
            .iter()
            .map(|a| (a.dx, a.dy, a.max_steps, a.modes))
            .collect();
        v.sort();
        v
    }

    const BOTH: u8 = mode::MOVE | mode::CAPTURE;

    #[test]
    fn orthodox_pieces() {
        assert_eq!(movement("K").unwrap().atoms.len(), 8);
        assert_eq!(movement("N").unwrap().atoms.len(), 8);
        let q = movement("Q").unwrap();
        assert_eq!(q.atoms.len(), 8);
        assert!(q.atoms.iter().all(|a| a.max_steps == 0 && a.modes == BOTH));
        assert_eq!(vectors("R").len(), 4);
        assert!(vectors("B").iter().all(|v| v.0 != 0 && v.1 != 0));
    }

    #[test]
    fn fide_pawn() {
        let v = vectors("fmWfceFifmnD");
        assert_eq!(
            v,
            vec![
                (-1, 1, 1, mode::CAPTURE | mode::EN_PASSANT),
                (0, 1, 1, mode::MOVE),
                (0, 2, 1, mode::MOVE | mode::LAME | mode::INITIAL),
                (1, 1, 1, mode::CAPTURE | mode::EN_PASSANT),
            ]
        );
    }

    #[test]
    fn pillage_pieces() {
        // Cannon and vao: move as rider, capture by hopping.
        let c = vectors("mRcpR");
        assert_eq!(c.len(), 8);
        assert_eq!(c.iter().filter(|a| a.3 == mode::CAPTURE | mode::HOP).count(), 4);
        let v = vectors("mBcpB");
        assert!(v.iter().all(|a| a.0 != 0 && a.1 != 0));
        // Super pawn: W and D forward and sideways, F and A forward.
        let s = vectors("fsWfFfsDfA");
        assert_eq!(
            s.iter().map(|a| (a.0, a.1)).collect::<Vec<_>>(),
            vec![
                (-2, 0),
                (-2, 2),
                (-1, 0),
                (-1, 1),
                (0, 1),
                (0, 2),
                (1, 0),
                (1, 1),
                (2, 0),
                (2, 2)
            ]
        );
        // Fast pawn: lame double step from any rank.
        let p = vectors("mfWmfnDcfeF");
        assert!(p.contains(&(0, 2, 1, mode::MOVE | mode::LAME)));
    }

    #[test]
    fn wreckage_and_wildrose_pieces() {
        assert_eq!(vectors("NW").len(), 12);
        assert_eq!(vectors("NF").len(), 12);
        let nn = vectors("NN");
        assert!(nn.iter().all(|a| a.2 == 0) && nn.len() == 8);
        let raven = vectors("RNN");
        assert_eq!(raven.len(), 12);
        let crusader = vectors("BDD");
        assert_eq!(crusader.len(), 8);
        assert!(crusader.contains(&(0, 2, 0, BOTH)));
    }

    #[test]
    fn oblique_directions() {
        let ff: Vec<_> = vectors("ffN").iter().map(|a| (a.0, a.1)).collect();
        assert_eq!(ff, vec![(-1, 2), (1, 2)]);
        let fs: Vec<_> = vectors("fsN").iter().map(|a| (a.0, a.1)).collect();
        assert_eq!(fs, vec![(-2, 1), (2, 1)]);
        assert_eq!(vectors("fN").len(), 4);
        let fl: Vec<_> = vectors("flF").iter().map(|a| (a.0, a.1)).collect();
        assert_eq!(fl, vec![(-1, 1)]);
    }

    #[test]
    fn ranges() {
        assert!(vectors("R4").iter().all(|a| a.2 == 4));
        assert!(vectors("W0").iter().all(|a| a.2 == 0));
        assert!(vectors("WW").iter().all(|a| a.2 == 0));
    }

    #[test]
    fn xbetza_strings_parse_but_multi_leg_needs_a_hook() {
        // XBetza (Betza with multi-leg modifiers) of Wreckage's hook pieces and flexible castling.
        for s in ["KisO1isO2isO3isO4", "mQmNcabK", "mQcafK", "mQmN"] {
            assert!(parse(s).is_ok(), "{s}");
        }
        let castle = movement("KisO1isO2isO3isO4");
        assert!(castle.is_err() || castle.unwrap().castling_steps == vec![1, 2, 3, 4]);
        assert!(movement("mQmNcabK").unwrap_err().message.contains("multi-leg"));
    }

    #[test]
    fn errors_name_the_problem() {
        let e = parse("fmWx").unwrap_err();
        assert!(e.message.contains("character 4"), "{}", e.message);
        assert!(parse("").is_err());
        assert!(movement("gQ").unwrap_err().message.contains("'g'"));
        assert!(movement("nN").is_err());
    }
}
