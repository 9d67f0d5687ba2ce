//! The match referee and a Wild Rose turn of several moves (protocol/wildrose-turns.md): the
//! opponent hears the growing-roses sub-move at once and passes with `move @@@@`, the mover hears
//! `usermove @@@@` (with its clock) and plays the rest of its turn.
//!
//! A referee that waited for the mover's next sub-move without passing the turn back would leave
//! the mover waiting too, until it lost on time ("no move within … (stalled)").
//! The scripted side is `scripts/e2e/scripted-engine.py`, which plays a fixed list of answers computed
//! here with the rules core.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use fairybridge::core::{Move, MoveKind, Position};
use fairybridge::protocol::xboard::variant_info::wire;
use fairybridge::tournament::pgn::{PgnGame, read_pgn};

use common::{builtin, position};

/// After Wild Rose spec T6 (the pawn on e7 reaches e8 and may convert a black unit into a rose),
/// with more units, so that nobody is left with roses only.
const START: &str = "vn5w/4P3/7w/8/8/8/W7/1W5N w - - 0 1";

fn tmp(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("{name}-{}", std::process::id()))
}

/// The command of a scripted engine (scripts/e2e/scripted-engine.py) that plays `answers` and logs
/// what it reads and writes to `log`.
fn script(log: &Path, answers: &[String]) -> String {
    // Answers and paths are plain ASCII, so Rust's string quoting is valid JSON.
    let moves: Vec<String> = answers.iter().map(|a| format!("{a:?}")).collect();
    let config = format!(
        r#"{{"variant": "wildrose", "moves": [{}], "log": {:?}}}"#,
        moves.join(", "),
        log.display().to_string()
    );
    let config_path = PathBuf::from(format!("{}.json", log.display()));
    std::fs::write(&config_path, config).expect("write the script's configuration");
    format!(
        "python3 {}/scripts/e2e/scripted-engine.py {}",
        env!("CARGO_MANIFEST_DIR"),
        config_path.display()
    )
}

/// The moves of `pos` after which the game goes on (the turn may go on too).
fn going_on(pos: &mut Position, pick: impl Fn(&Move) -> bool) -> Vec<Move> {
    let legal = pos.legal_moves();
    legal
        .iter()
        .copied()
        .filter(|m| pick(m))
        .filter(|m| {
            let mut after = pos.clone();
            after.make(*m);
            after.outcome().is_none()
        })
        .collect()
}

/// Plays the start position between `white` and `black` (engine commands), one game; returns the game's PGN.
fn play(tag: &str, white: &str, black: &str) -> (PgnGame, String) {
    let openings = tmp(&format!("{tag}-openings.fen"));
    std::fs::write(&openings, format!("{START}\n")).expect("write openings");
    let pgn = tmp(&format!("{tag}.pgn"));
    let _ = std::fs::remove_file(&pgn);
    let out = Command::new(env!("CARGO_BIN_EXE_fairybridge"))
        .args(["match", "--variant", "wildrose", "--engine"])
        .arg(format!("cmd={white}"))
        .args(["name=White", "--engine"])
        .arg(format!("cmd={black}"))
        .args(["name=Black", "--each", "tc=5+0.1", "--games", "1", "--openings"])
        .arg(&openings)
        .arg("--pgn")
        .arg(&pgn)
        .output()
        .expect("run fairybridge match");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let text = std::fs::read_to_string(&pgn).expect("PGN written");
    let mut games = read_pgn(&text);
    assert_eq!(games.len(), 1, "{text}");
    let _ = std::fs::remove_file(&pgn);
    let _ = std::fs::remove_file(&openings);
    (games.remove(0), text)
}

/// What a script read, line by line.
fn heard(log: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(log).expect("script log");
    let _ = std::fs::remove_file(log);
    let _ = std::fs::remove_file(format!("{}.json", log.display()));
    text.lines()
        .filter_map(|l| l.strip_prefix("< "))
        .map(str::to_string)
        .collect()
}

/// The pass came with the mover's clock: `time`, `otim`, `usermove @@@@`.
fn assert_pass_with_clock(lines: &[String]) {
    let pass = lines
        .iter()
        .position(|l| l == "usermove @@@@")
        .unwrap_or_else(|| panic!("the referee passed the turn back:\n{}", lines.join("\n")));
    assert!(lines[pass - 1].starts_with("otim "), "{}", lines.join("\n"));
    assert!(lines[pass - 2].starts_with("time "), "{}", lines.join("\n"));
}

/// Black (fairybridge) has not moved yet, so it is still in force mode and cannot pass: the
/// referee confirms the pass to the mover itself, and Black hears the whole turn before its `go`.
#[test]
fn a_growing_roses_turn_against_an_engine_in_force_mode() {
    let mut pos = position(&builtin("wildrose"), START);
    let (grow, second) = going_on(&mut pos, |m| m.kind() == MoveKind::Grow)
        .into_iter()
        .find_map(|grow| {
            let mut mid = pos.clone();
            mid.make(grow);
            assert!(mid.in_continuation(), "the turn goes on after a growing-roses move");
            going_on(&mut mid, |_| true).first().map(|&second| (grow, second))
        })
        .expect("a growing-roses turn after which the game goes on");
    let first = wire(&pos, &grow);
    pos.make(grow);
    let second = wire(&pos, &second);
    let log = tmp("rose-white.log");
    let _ = std::fs::remove_file(&log);
    let white = script(&log, &[first.clone(), second.clone(), "resign".into()]);
    let (g, text) = play("rose-force", &white, env!("CARGO_BIN_EXE_fairybridge"));
    // The whole first turn was played and Black replied; then the script resigned, or Black's reply
    // already ended the game by rule. Nobody lost on time.
    let last = g.comments.last().map(String::as_str).unwrap_or_default();
    assert!(
        last.contains("resign") || last.starts_with("Black wins"),
        "not a time loss or another forfeit: {last:?}\n{text}"
    );
    assert_eq!(g.tag("Result"), Some("0-1"), "{text}");
    assert_pass_with_clock(&heard(&log));
    let (_, moves) = g.replay(&fairybridge::protocol::builtin_games()).expect("moves replay");
    assert_eq!(moves.len(), 3, "two sub-moves by White, one move by Black:\n{text}");
}

/// A fixed line of play: White's ordinary move, Black's reply, White's growing-roses turn of two
/// sub-moves, Black's reply. Wire texts.
fn scripted_line() -> [String; 5] {
    let mut pos = position(&builtin("wildrose"), START);
    for w1 in going_on(&mut pos, |m| m.kind() != MoveKind::Grow) {
        let mut p1 = pos.clone();
        p1.make(w1);
        for b1 in going_on(&mut p1, |_| true) {
            let mut p2 = p1.clone();
            p2.make(b1);
            for grow in going_on(&mut p2, |m| m.kind() == MoveKind::Grow) {
                let mut p3 = p2.clone();
                p3.make(grow);
                for w2 in going_on(&mut p3, |_| true) {
                    let mut p4 = p3.clone();
                    p4.make(w2);
                    if let Some(&b2) = going_on(&mut p4, |_| true).first() {
                        return [
                            wire(&pos, &w1),
                            wire(&p1, &b1),
                            wire(&p2, &grow),
                            wire(&p3, &w2),
                            wire(&p4, &b2),
                        ];
                    }
                }
            }
        }
    }
    panic!("no such line from {START}");
}

/// Both sides scripted, Black out of force mode: Black hears the growing-roses sub-move at once and
/// passes, White hears the pass and completes its turn, Black replies, White resigns.
#[test]
fn the_opponent_passes_inside_a_growing_roses_turn() {
    let [w1, b1, grow, w2, b2] = scripted_line();
    let (wlog, blog) = (tmp("rose-pass-white.log"), tmp("rose-pass-black.log"));
    let white = script(&wlog, &[w1.clone(), grow.clone(), w2.clone(), "resign".into()]);
    let black = script(&blog, &[b1.clone(), "@@@@".into(), b2.clone()]);
    let (g, text) = play("rose-pass", &white, &black);
    let last = g.comments.last().map(String::as_str).unwrap_or_default();
    assert!(last.contains("resign"), "White resigned at the end: {last:?}\n{text}");
    assert_eq!(g.tag("Result"), Some("0-1"), "{text}");
    let (_, moves) = g.replay(&fairybridge::protocol::builtin_games()).expect("moves replay");
    assert_eq!(moves.len(), 5, "{text}");
    assert_pass_with_clock(&heard(&wlog));
    // Black heard the growing-roses sub-move on its own, before the rest of the turn.
    let black_heard = heard(&blog);
    let at = |wanted: &str| black_heard.iter().position(|l| l == &format!("usermove {wanted}"));
    assert!(
        matches!((at(&grow), at(&w2)), (Some(a), Some(b)) if a < b),
        "{}",
        black_heard.join("\n")
    );
}

/// An opponent that answers the growing-roses sub-move with a real move instead of the pass plays
/// out of turn: it forfeits.
#[test]
fn an_opponent_that_does_not_pass_forfeits() {
    let [w1, b1, grow, w2, _] = scripted_line();
    let (wlog, blog) = (tmp("rose-nopass-white.log"), tmp("rose-nopass-black.log"));
    let white = script(&wlog, &[w1.clone(), grow.clone(), w2.clone()]);
    let black = script(&blog, &[b1.clone(), b1.clone()]);
    let (g, text) = play("rose-nopass", &white, &black);
    assert_eq!(g.tag("Result"), Some("1-0"), "{text}");
    let last = g.comments.last().map(String::as_str).unwrap_or_default();
    assert!(last.starts_with("Black"), "Black forfeits: {last:?}\n{text}");
    let _ = (heard(&wlog), heard(&blog));
}
