//! Opening files, in two formats, as cutechess-cli and fastchess read them:
//! - EPD/FEN: one position per line, as a FEN (six fields) or an EPD line (four fields, the
//!   operations after them ignored), in human coordinates. Empty lines and lines starting with `#`
//!   or `;` are skipped.
//! - PGN: every game's start (its `FEN` tag, or the variant's start) and the first `plies` moves
//!   of its main line (all of them without a limit), read as SAN in the match's variant; the
//!   position reached is the opening (a FEN: the PGN of the match starts from it).
//!
//! Every position is checked against the variant when the file is read, and kept as a [`Start`]:
//! the match never reads an opening's text again.

use std::sync::Arc;

use super::game::Start;
use crate::core::{Position, Variant};
use crate::notation::{Coords, fen, san};

/// The format of an opening file (`format=` of `--openings`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Epd,
    Pgn,
}

impl Format {
    /// `format=epd|fen|pgn`.
    ///
    /// # Errors
    ///
    /// Neither `epd` nor `pgn`.
    pub fn parse(text: &str) -> Result<Format, String> {
        match text {
            "epd" | "fen" => Ok(Format::Epd),
            "pgn" => Ok(Format::Pgn),
            _ => Err(format!("--openings: format= is epd or pgn, not \"{text}\"")),
        }
    }

    /// Without `format=`: PGN for a `.pgn` file or a text that begins with a tag, else EPD.
    pub fn guess(path: &std::path::Path, text: &str) -> Format {
        let pgn_name = path.extension().is_some_and(|e| e.eq_ignore_ascii_case("pgn"));
        if pgn_name || text.trim_start().starts_with('[') {
            Format::Pgn
        } else {
            Format::Epd
        }
    }
}

/// The positions of an opening file, each read once; `plies` limits the moves read from each
/// PGN game (`format` `None`: guessed from the file).
///
/// # Errors
///
/// The file cannot be read, or holds no opening of the variant (the text names the first bad one).
pub fn load(
    path: &std::path::Path,
    variant: &Arc<Variant>,
    format: Option<Format>,
    plies: Option<usize>,
) -> Result<Vec<Start>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let parsed = match format.unwrap_or_else(|| Format::guess(path, &text)) {
        Format::Epd if plies.is_some() => {
            return Err("--openings: plies= is for PGN openings (format=pgn)".to_string());
        }
        Format::Epd => parse(&text, variant),
        Format::Pgn => parse_pgn(&text, variant, plies),
    };
    parsed.map_err(|e| format!("{}: {e}", path.display()))
}

/// Parses the text of an EPD/FEN opening file.
///
/// # Errors
///
/// A line that is not a position of the variant (the text names it).
pub fn parse(text: &str, variant: &Arc<Variant>) -> Result<Vec<Start>, String> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') || line.starts_with(';') {
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        let counters = fields.len() >= 6
            && fields[4].parse::<u32>().is_ok()
            && fields[5].trim_end_matches(';').parse::<u32>().is_ok();
        let text = if counters {
            format!(
                "{} {}",
                fields[..4].join(" "),
                fields[4..6].join(" ").trim_end_matches(';')
            )
        } else if fields.len() >= 4 {
            format!("{} 0 1", fields[..4].join(" "))
        } else {
            return Err(format!("line {}: not a FEN or EPD position", n + 1));
        };
        let setup = fen::parse_fen(&text, Coords::Human).map_err(|e| format!("line {}: {e}", n + 1))?;
        let pos = Position::from_setup(variant, &setup).map_err(|e| format!("line {}: {e}", n + 1))?;
        out.push(Start::new(pos));
    }
    if out.is_empty() {
        return Err("no positions".to_string());
    }
    Ok(out)
}

/// Parses the text of a PGN opening file: each game's position after its first `plies` moves.
///
/// # Errors
///
/// A game whose moves are not legal in the variant (the text names it).
pub fn parse_pgn(text: &str, variant: &Arc<Variant>, plies: Option<usize>) -> Result<Vec<Start>, String> {
    let mut out = Vec::new();
    for (n, game) in super::pgn::read_pgn(text).iter().enumerate() {
        let at = |e: String| format!("game {}: {e}", n + 1);
        let mut pos = match game.tag("FEN") {
            Some(text) => {
                let setup = fen::parse_fen(text, Coords::Human).map_err(|e| at(e.to_string()))?;
                Position::from_setup(variant, &setup).map_err(|e| at(e.to_string()))?
            }
            None => Position::start(variant),
        };
        let moves = &game.moves[..plies.unwrap_or(usize::MAX).min(game.moves.len())];
        for (i, word) in moves.iter().enumerate() {
            let mv = san::parse_san(&pos, word).map_err(|e| at(format!("move {} ({word}): {e}", i + 1)))?;
            pos.make(mv);
        }
        if pos.outcome().is_some() {
            return Err(at("the game is over in the opening position".to_string()));
        }
        out.push(Start::after_line(&pos).map_err(at)?);
    }
    if out.is_empty() {
        return Err("no games".to_string());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::Registry;

    #[test]
    fn reads_fen_and_epd_lines() {
        let v = Registry::builtin().get("normal").unwrap();
        let text = "# comment\n\
            rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n\
            \n\
            rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - bm Nf3; id \"sicilian\";\n";
        let fens: Vec<String> = parse(text, &v).unwrap().iter().map(|s| s.fen().to_string()).collect();
        assert_eq!(fens.len(), 2);
        assert!(fens[0].ends_with(" b KQkq - 0 1"), "{}", fens[0]);
        assert!(fens[1].ends_with(" w KQkq - 0 1"), "{}", fens[1]);
        assert!(parse("nonsense\n", &v).unwrap_err().contains("line 1"));
        assert!(parse("8/8/8/8/8/8/8/8 w - - 0 1\n", &v).is_err());
        assert!(parse("# nothing\n", &v).is_err());
    }

    /// PGN openings as cutechess-cli reads them (`format=pgn plies=N`): the start or the FEN tag,
    /// then the first N moves of the main line, comments, variations and NAGs skipped.
    #[test]
    fn reads_pgn_games_up_to_plies() {
        let v = Registry::builtin().get("normal").unwrap();
        let text = "[Event \"book\"]\n[Site \"?\"]\n\n1. e4 e5 {main} 2. Nf3 (2. f4 exf4) Nc6 $1 3. Bb5 *\n\n\
            [Event \"from a FEN\"]\n[SetUp \"1\"]\n[FEN \"rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1\"]\n\n\
            1... d5 2. c4 *\n";
        let fens = |starts: Vec<Start>| -> Vec<String> { starts.iter().map(|s| s.fen().to_string()).collect() };
        let all = fens(parse_pgn(text, &v, None).unwrap());
        assert_eq!(
            all,
            [
                "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3",
                "rnbqkbnr/ppp1pppp/8/3p4/2PP4/8/PP2PPPP/RNBQKBNR b KQkq - 0 2",
            ]
        );
        let two = fens(parse_pgn(text, &v, Some(2)).unwrap());
        assert_eq!(two[0], "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
        assert_eq!(two[1], all[1]);
        let err = parse_pgn("1. e4 Ke7 *\n", &v, None).unwrap_err();
        assert!(err.contains("game 1: move 2 (Ke7)"), "{err}");
        assert!(parse_pgn("", &v, None).is_err());
        let path = std::path::Path::new("book.pgn");
        assert_eq!(Format::guess(path, "1. e4 *"), Format::Pgn);
        assert_eq!(
            Format::guess(std::path::Path::new("x.epd"), "[Event \"x\"]"),
            Format::Pgn
        );
        assert_eq!(Format::guess(std::path::Path::new("x.epd"), "8/8 w - -"), Format::Epd);
    }

    /// A PGN opening's games start from its FEN, the position the engines are given: the line's
    /// own moves are no history there, so a position the line passed through is no repetition in
    /// the game (the referee and the engines judge the same game).
    #[test]
    fn a_pgn_opening_starts_without_the_line_that_led_to_it() {
        let v = Registry::builtin().get("normal").unwrap();
        // The start position twice in the line; Ng8 would make it the third time.
        let starts = parse_pgn("1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 *\n", &v, None).unwrap();
        let start = &starts[0];
        assert_eq!(
            start.fen(),
            "rnbqkb1r/pppppppp/5n2/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 7 4"
        );
        let from_fen = Start::parse(&v, start.fen()).unwrap();
        assert_eq!(start.position().plies_played(), 0);
        assert_eq!(start.position().hash(), from_fen.position().hash());
        let mut pos = start.position().clone();
        pos.make(san::parse_san(&pos, "Ng8").unwrap());
        assert_eq!(pos.repetitions(), 0);
        assert_eq!(pos.outcome(), None);
        // From the line with its history, the same move is a third occurrence: what the test sees.
        let mut line = Position::start(&v);
        for word in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"] {
            line.make(san::parse_san(&line, word).unwrap());
        }
        assert!(line.outcome().is_some());
    }
}
