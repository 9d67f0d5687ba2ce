//! Forfeits, driven by a deliberately broken scripted engine (`scripts/e2e/broken-engine.py`, needs
//! python-chess): an illegal move, a crash, silence, a false result claim and garbage output each
//! lose the game with the right reason in the PGN, the other side wins, and the match goes on to
//! its next game.

use std::path::PathBuf;
use std::process::Command;

use fairybridge::tournament::pgn::read_pgn;
use fairybridge::variants::Registry;

fn broken_engine() -> String {
    format!("python3 {}/scripts/e2e/broken-engine.py", env!("CARGO_MANIFEST_DIR"))
}

fn pgn_path(tag: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let path = dir.join(format!("match-forfeit-{tag}-{}.pgn", std::process::id()));
    let _ = std::fs::remove_file(&path);
    path
}

/// Two games, the broken engine White in the first and Black in the second; checks both.
fn forfeit_case(mode: &str, termination: &str, reason: &str) {
    let pgn = pgn_path(mode);
    let out = Command::new(env!("CARGO_BIN_EXE_fairybridge"))
        .args(["match", "--engine"])
        .arg(format!("cmd={} {mode}", broken_engine()))
        .args(["name=Broken", "--engine"])
        .arg(format!("cmd={}", env!("CARGO_BIN_EXE_fairybridge")))
        .args([
            "name=fairybridge",
            "--each",
            "tc=1+0.01",
            "--games",
            "2",
            "--seed",
            "1",
            "--pgn",
        ])
        .arg(&pgn)
        .output()
        .expect("run fairybridge match");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{mode}: {stderr}");
    // The final table: the broken engine lost both games, both by forfeit.
    assert!(
        stdout.contains("Score of Broken vs fairybridge: 0 - 2 - 0  [0.000] 2"),
        "{mode}: {stdout}"
    );
    let row = stdout.lines().find(|l| l.contains(" Broken ")).expect("table row");
    assert!(row.trim_end().ends_with(" 2"), "{mode}: two forfeits in {row:?}");
    let text = std::fs::read_to_string(&pgn).expect("PGN written");
    let games = read_pgn(&text);
    assert_eq!(games.len(), 2, "{mode}: the match goes on after the forfeit:\n{text}");
    for (i, g) in games.iter().enumerate() {
        let broken_colour = if i == 0 { "White" } else { "Black" };
        let winner = if i == 0 { "0-1" } else { "1-0" };
        assert_eq!(g.tag(broken_colour), Some("Broken"), "{mode}");
        assert_eq!(g.tag("Result"), Some(winner), "{mode} game {}", i + 1);
        assert_eq!(g.result, winner);
        assert_eq!(g.tag("Termination"), Some(termination), "{mode} game {}", i + 1);
        let last = g.comments.last().expect("reason comment");
        let wanted = format!("{broken_colour} {reason}");
        assert!(
            last.starts_with(&wanted),
            "{mode} game {}: {last:?}, wanted {wanted:?}",
            i + 1
        );
        // The moves before the forfeit are legal and recorded: the broken engine misbehaves on its
        // third move.
        let (_, moves) = g.replay(&Registry::builtin()).expect("moves replay");
        assert_eq!(moves.len(), if i == 0 { 4 } else { 5 }, "{mode} game {}", i + 1);
    }
    let _ = std::fs::remove_file(&pgn);
}

#[test]
fn illegal_move_forfeits() {
    forfeit_case("illegal", "rules infraction", "makes an illegal move: ");
}

#[test]
fn crash_forfeits() {
    forfeit_case("crash", "abandoned", "disconnects (exit status 3)");
}

#[test]
fn silence_loses_on_time() {
    forfeit_case("silent", "time forfeit", "loses on time: no move within");
}

#[test]
fn false_claim_forfeits() {
    forfeit_case("false-claim", "rules infraction", "makes a false claim: ");
}

#[test]
fn garbage_forfeits() {
    forfeit_case("garbage", "rules infraction", "sends an unreadable move: ?!%zz");
}
