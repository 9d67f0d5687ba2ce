//! Fairy-Stockfish's debugging commands, which its users type over UCI: `d` (the board and its
//! FEN), `eval` (the static evaluation) and `go perft N` (the move-path count, root move by root
//! move). Every line goes out as `info string …`, so a GUI reading the protocol sees nothing else.

use crate::core::Position;
use crate::notation::{Coords, fen};
use crate::perft::Perft;

/// The deepest `go perft` counted (a deeper request is clamped, and says so).
pub const MAX_PERFT_DEPTH: u32 = 7;

/// `d`: the board, rank by rank from the top (`.` for an empty square), then the FEN, the side to
/// move and whether it is in check.
pub fn board_lines(pos: &Position) -> Vec<String> {
    let text = fen::to_fen(pos, Coords::Human);
    let placement = text.split(' ').next().unwrap_or("");
    let (board, hand) = match placement.split_once('[') {
        Some((b, h)) => (b, Some(h.trim_end_matches(']'))),
        None => (placement, None),
    };
    let mut out: Vec<String> = board.split('/').map(rank_cells).map(|cells| cells.join(" ")).collect();
    if let Some(hand) = hand {
        out.push(format!("Holdings: [{hand}]"));
    }
    out.push(format!("Fen: {text}"));
    let side = match pos.side_to_move() {
        crate::core::Color::White => "white",
        crate::core::Color::Black => "black",
    };
    out.push(format!(
        "Side to move: {side}{}",
        if pos.in_check() { ", in check" } else { "" }
    ));
    out
}

/// The squares of one FEN rank: a piece letter (with shogi's `+` before it or crazyhouse's `~`
/// after it), or `.` for each empty square of a (multi-digit) run.
fn rank_cells(rank: &str) -> Vec<String> {
    let mut cells: Vec<String> = Vec::new();
    let mut run = 0usize;
    let mut prefix = String::new();
    for c in rank.chars() {
        if let Some(d) = c.to_digit(10) {
            run = run * 10 + d as usize;
            continue;
        }
        cells.extend(std::iter::repeat_n(".".to_string(), run));
        run = 0;
        match c {
            '+' => prefix.push(c),
            '~' => {
                if let Some(last) = cells.last_mut() {
                    last.push(c);
                }
            }
            _ => cells.push(format!("{}{c}", std::mem::take(&mut prefix))),
        }
    }
    cells.extend(std::iter::repeat_n(".".to_string(), run));
    cells
}

/// `go perft N`: one line per root turn (`e2e4: 1`), then `Nodes searched: N`, as
/// Fairy-Stockfish writes them.
pub fn perft_lines(pos: &Position, depth: u32) -> Vec<String> {
    let depth = depth.clamp(1, MAX_PERFT_DEPTH);
    let mut pos = pos.clone();
    let rows = Perft::new().divide(&mut pos, depth);
    let total: u64 = rows.iter().map(|(_, n)| n).sum();
    let mut out: Vec<String> = rows.into_iter().map(|(mv, n)| format!("{mv}: {n}")).collect();
    out.push(format!("Nodes searched: {total}"));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::Registry;

    #[test]
    fn the_board_perft_and_cells() {
        let normal = Registry::builtin().get("normal").unwrap();
        let start = Position::start(&normal);
        let lines = board_lines(&start);
        assert_eq!(lines[0], "r n b q k b n r");
        assert_eq!(lines[4], ". . . . . . . .");
        assert_eq!(
            lines[8],
            "Fen: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        );
        assert_eq!(lines[9], "Side to move: white");
        let perft = perft_lines(&start, 2);
        assert_eq!(perft.len(), 21);
        assert_eq!(perft[20], "Nodes searched: 400");
        assert!(perft.contains(&"e2e4: 20".to_string()), "{perft:?}");
        assert_eq!(rank_cells("10"), vec!["."; 10]);
        assert_eq!(rank_cells("r2+PQ~1"), ["r", ".", ".", "+P", "Q~", "."]);
    }
}
