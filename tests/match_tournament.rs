//! Tournaments of three engines (fairybridge at fixed depths): a gauntlet plays only the first
//! engine's pairings and its crosstable leaves the others' cells blank; the progress goes to
//! stderr one line per game when stderr is not a terminal (games done/total, score, Elo, ETA), and
//! `--ratinginterval N` adds the rating lines every N games.

use std::process::Command;

fn tournament(kind: &str) -> (String, String) {
    let exe = env!("CARGO_BIN_EXE_fairybridge");
    let out = Command::new(exe)
        .args(["match", "--engine", &format!("cmd={exe}"), "name=Two", "depth=2"])
        .args(["--engine", &format!("cmd={exe}"), "name=One", "depth=1"])
        .args(["--engine", &format!("cmd={exe}"), "name=Three", "depth=3"])
        .args(["--each", "st=10", "--games", "2", "--maxmoves", "30", "--seed", "3"])
        .args([
            "--variant",
            "wildcastle",
            "--timemargin",
            "2000",
            "--ratinginterval",
            "2",
        ])
        .args(["--tournament", kind])
        .output()
        .expect("run fairybridge match");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    (String::from_utf8(out.stdout).unwrap(), stderr)
}

#[test]
fn gauntlet_plays_the_first_engine_against_the_others() {
    let (report, stderr) = tournament("gauntlet");
    assert!(report.contains("Score of Two vs One: "), "{report}");
    assert!(report.contains("Score of Two vs Three: "), "{report}");
    assert!(!report.contains("Score of One vs Three"), "{report}");
    // The crosstable: One and Three never meet.
    let table: Vec<&str> = report.lines().skip_while(|l| !l.starts_with("Crosstable")).collect();
    assert_eq!(table.len(), 4, "{report}");
    for row in &table[1..] {
        let cells: Vec<&str> = row.split_whitespace().collect();
        let expected = if cells[0] == "Two" { 4 } else { 3 };
        assert_eq!(cells.len(), expected, "{row}");
        for c in &cells[1..] {
            assert!(*c == "-" || c.ends_with("/2"), "{row}");
        }
    }
    // One progress line per game, counting up to 4 of 4 games, then rating lines every 2 games.
    let lines: Vec<&str> = stderr.lines().filter(|l| l.starts_with("Game ")).collect();
    assert_eq!(lines.len(), 4, "{stderr}");
    for (i, l) in lines.iter().enumerate() {
        assert!(l.contains(&format!("| {}/4 games", i + 1)), "{l}");
        assert!(l.contains(", ETA "), "{l}");
    }
    assert_eq!(stderr.matches("Score of Two vs One: ").count(), 2, "{stderr}");
}

#[test]
fn round_robin_plays_everyone() {
    let (report, stderr) = tournament("round-robin");
    for pairing in ["Two vs One", "Two vs Three", "One vs Three"] {
        assert!(report.contains(&format!("Score of {pairing}: ")), "{report}");
    }
    let table: Vec<&str> = report.lines().skip_while(|l| !l.starts_with("Crosstable")).collect();
    assert!(
        table[1..].iter().all(|row| row.split_whitespace().count() == 4),
        "{report}"
    );
    // Every engine's points in the crosstable add up to its score in the ranking.
    for row in &table[1..] {
        let cells: Vec<&str> = row.split_whitespace().collect();
        let points: f64 = cells[1..]
            .iter()
            .filter(|c| **c != "-")
            .map(|c| c.split('/').next().unwrap().parse::<f64>().unwrap())
            .sum();
        let rank_row = report
            .lines()
            .find(|l| l.split_whitespace().nth(1) == Some(cells[0]))
            .unwrap();
        let percent: f64 = rank_row
            .split_whitespace()
            .nth(6)
            .unwrap()
            .trim_end_matches('%')
            .parse()
            .unwrap();
        assert!((points / 4.0 * 100.0 - percent).abs() < 0.06, "{row} vs {rank_row}");
    }
    assert_eq!(stderr.lines().filter(|l| l.starts_with("Game ")).count(), 6);
}

/// On a terminal (a pty from util-linux's `script`) the status is one line redrawn in place.
#[test]
fn on_a_terminal_the_status_line_is_redrawn_in_place() {
    let exe = env!("CARGO_BIN_EXE_fairybridge");
    let line = format!(
        "{exe} match --engine cmd={exe} name=A depth=1 --engine cmd={exe} name=B depth=2 \
         --each st=10 --games 2 --maxmoves 10 --seed 1"
    );
    let out = Command::new("script")
        .args(["-qefc", &line, "/dev/null"])
        .output()
        .unwrap_or_else(|e| panic!("util-linux's script is needed (scripts/install-deps.sh): {e}"));
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    // Redrawn: carriage return and erase-line before each status, and the last one shows 2/2.
    assert!(text.matches("\r\x1b[K").count() >= 3, "{text:?}");
    assert!(text.contains("\r\x1b[K2/2 games, "), "{text:?}");
    // The games' own lines stay, each once.
    assert_eq!(text.matches("Game 1 of 2: ").count(), 1, "{text:?}");
    assert_eq!(text.matches("Game 2 of 2: ").count(), 1, "{text:?}");
}
