//! Opening files: one position per line, as a FEN (six fields) or an EPD line (four fields, the
//! operations after them ignored), in human coordinates. Empty lines and lines starting with `#`
//! or `;` are skipped. Every position is checked against the variant when the file is read.

use std::sync::Arc;

use crate::core::{Position, Variant};
use crate::notation::{Coords, fen};

/// The positions of an opening file, as canonical FENs.
pub fn load(path: &std::path::Path, variant: &Arc<Variant>) -> Result<Vec<String>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    parse(&text, variant).map_err(|e| format!("{}: {e}", path.display()))
}

/// Parses the text of an opening file.
pub fn parse(text: &str, variant: &Arc<Variant>) -> Result<Vec<String>, String> {
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
        out.push(fen::to_fen(&pos, Coords::Human));
    }
    if out.is_empty() {
        return Err("no positions".to_string());
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
        let fens = parse(text, &v).unwrap();
        assert_eq!(fens.len(), 2);
        assert!(fens[0].ends_with(" b KQkq - 0 1"), "{}", fens[0]);
        assert!(fens[1].ends_with(" w KQkq - 0 1"), "{}", fens[1]);
        assert!(parse("nonsense\n", &v).unwrap_err().contains("line 1"));
        assert!(parse("8/8/8/8/8/8/8/8 w - - 0 1\n", &v).is_err());
        assert!(parse("# nothing\n", &v).is_err());
    }
}
