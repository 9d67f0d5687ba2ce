//! Self-play in every built-in game: fairybridge against itself, one game per variant at a fast
//! time control. Every game must end by rule or adjudication (no forfeit: a time loss or an
//! illegal move of our own engine is a bug), and its PGN must replay in the rules core.

use std::path::PathBuf;
use std::process::Command;

use fairybridge::tournament::pgn::read_pgn;

fn self_play(variant: &str) -> Result<(), String> {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let pgn = dir.join(format!("match-selfplay-{variant}-{}.pgn", std::process::id()));
    let _ = std::fs::remove_file(&pgn);
    let engine = format!("cmd={}", env!("CARGO_BIN_EXE_fairybridge"));
    let out = Command::new(env!("CARGO_BIN_EXE_fairybridge"))
        .args(["match", "--engine", &engine, "--engine", &engine])
        .args([
            "--each",
            "tc=1+0.01",
            "--games",
            "1",
            "--seed",
            "5",
            "--maxmoves",
            "150",
        ])
        .args(["--timemargin", "300", "--variant", variant, "--pgn"])
        .arg(&pgn)
        .output()
        .map_err(|e| e.to_string())?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    if out.status.code() != Some(0) {
        return Err(format!("{variant}: exit {:?}: {stderr}", out.status));
    }
    let text = std::fs::read_to_string(&pgn).map_err(|e| format!("{variant}: no PGN: {e}"))?;
    let _ = std::fs::remove_file(&pgn);
    let games = read_pgn(&text);
    if games.len() != 1 {
        return Err(format!("{variant}: {} games in\n{text}", games.len()));
    }
    let g = &games[0];
    let term = g.tag("Termination").unwrap_or("");
    if term != "normal" && term != "adjudication" {
        return Err(format!("{variant}: {term}: {:?}\n{text}", g.comments.last()));
    }
    if g.tag("Variant") != Some(variant) {
        return Err(format!("{variant}: Variant tag {:?}", g.tag("Variant")));
    }
    let (end, moves) = g
        .replay(&fairybridge::protocol::builtin_games())
        .map_err(|e| format!("{variant}: {e}\n{text}"))?;
    if moves.is_empty() {
        return Err(format!("{variant}: no moves\n{text}"));
    }
    if term == "normal" {
        let o = end
            .outcome()
            .ok_or_else(|| format!("{variant}: game not over by rule\n{text}"))?;
        if Some(o.result().as_str()) != g.tag("Result") {
            return Err(format!(
                "{variant}: result {:?} but the core says {}",
                g.tag("Result"),
                o.result()
            ));
        }
    }
    Ok(())
}

#[test]
fn self_play_in_every_builtin_game() {
    let reg = fairybridge::protocol::builtin_games();
    let names: Vec<String> = reg.names().iter().map(|s| s.to_string()).collect();
    for required in ["normal", "wildcastle", "pillage"] {
        assert!(names.iter().any(|n| n == required), "{required} missing from {names:?}");
    }
    // Two games at a time on two cores.
    let mut failures = Vec::new();
    for chunk in names.chunks(2) {
        let handles: Vec<_> = chunk
            .iter()
            .cloned()
            .map(|n| std::thread::spawn(move || self_play(&n)))
            .collect();
        for h in handles {
            if let Err(e) = h.join().expect("thread") {
                failures.push(e);
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    eprintln!("self-play played in: {}", names.join(", "));
}
