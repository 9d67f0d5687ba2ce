//! Forfeits, driven by a deliberately broken scripted engine (`scripts/e2e/broken-engine.py`, needs
//! python-chess): an illegal move, a crash (at start or mid-game, or with a child holding its
//! output open), silence (at start or mid-game), false result claims, garbage, a bare `move`, a
//! flood of output and moves in a wrong notation each lose the game with the right reason in the
//! PGN, the other side wins, every finished game is in the PGN, and the match ends by itself.
//! Lines sent in force mode before the game are not held against the engine.

mod common;

fn broken_engine() -> String {
    common::require_python_chess();
    format!("python3 {}/scripts/e2e/broken-engine.py", env!("CARGO_MANIFEST_DIR"))
}

/// The broken engine's clock: short where it is to hang (the test waits for its flag), else so
/// long that it never flags even on a loaded machine (the forfeit must be for the fault).
fn broken_clock(mode: &str) -> &'static str {
    // `orphan` too: its child holds the output open for 5 s, longer than its clock.
    if ["silent", "hang-start", "orphan"].contains(&mode) {
        "st=1"
    } else {
        "tc=60+1"
    }
}

/// Two games, the broken engine White in the first and Black in the second; checks both. The
/// broken engine misbehaves on its third move.
fn forfeit_case(mode: &str, termination: &str, reason: &str) {
    forfeit_case_after(mode, termination, reason, [4, 5]);
}

/// As [`forfeit_case`], with the number of moves each game has before the forfeit.
fn forfeit_case_after(mode: &str, termination: &str, reason: &str, plies: [usize; 2]) {
    let pgn = common::fresh_temp_file(&format!("match-forfeit-{mode}"), "pgn");
    let broken = format!("cmd={} {mode}", broken_engine());
    let fairybridge = format!("cmd={}", env!("CARGO_BIN_EXE_fairybridge"));
    let out = common::run_match(
        [
            "--engine",
            broken.as_str(),
            "name=Broken",
            broken_clock(mode),
            "--engine",
            fairybridge.as_str(),
            // Fast moves, and a margin that no loaded machine overruns: fairybridge must not lose.
            "name=fairybridge",
            "st=0.05",
            "timemargin=5000",
            "--games",
            "2",
            "--seed",
            "1",
        ],
        &pgn,
    );
    let games = common::assert_broken_engine_forfeits_both(mode, &out, &pgn, termination, reason, plies);
    // The movetext's result agrees with the Result tag.
    for (i, g) in games.iter().enumerate() {
        assert_eq!(
            g.result.map(fairybridge::core::GameResult::as_str),
            Some(if i == 0 { "0-1" } else { "1-0" }),
            "{mode} game {}",
            i + 1
        );
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

#[test]
fn false_draw_claim_forfeits() {
    forfeit_case("false-draw", "rules infraction", "makes a false claim: 1/2-1/2");
}

#[test]
fn bare_move_is_a_bad_move_not_a_stall() {
    forfeit_case(
        "bare-move",
        "rules infraction",
        "sends an unreadable move: move without a move",
    );
}

#[test]
fn wrong_notation_forfeits() {
    forfeit_case("wrong-notation", "rules infraction", "makes an illegal move: ");
}

#[test]
fn a_flood_of_output_is_cut_and_forfeits() {
    // 1 MB of junk lines, then an 8 MB `move` line: read in bounded pieces, never kept whole, and
    // reported as too long (a line cut to 64 KiB must not be read as a move).
    let line = format!(
        "sends an unreadable line: line of {} bytes starting \"move ",
        5 + (8 << 20)
    );
    forfeit_case("flood", "rules infraction", &line);
}

#[test]
fn an_exit_counts_even_when_a_child_holds_the_output_open() {
    // The exit is the forfeit: waiting for the end of output would call it a stall on time.
    forfeit_case("orphan", "abandoned", "disconnects (exit status 3)");
}

#[test]
fn a_crash_at_start_forfeits_each_game() {
    // One engine failing to start forfeits its games; the match goes on and writes its PGN.
    forfeit_case_after(
        "crash-start",
        "abandoned",
        "fails to start: exited during start-up (exit status 3)",
        [0, 0],
    );
}

#[test]
fn a_hang_at_start_loses_on_time() {
    forfeit_case_after("hang-start", "time forfeit", "loses on time: no move within", [0, 1]);
}

#[test]
fn lines_before_the_game_are_not_moves() {
    // `--early`: a legal `move` and a draw claim in force mode, before the set-up's pong. They
    // must not be read after `go` as the engine's first move and a false claim.
    forfeit_case("illegal --early", "rules infraction", "makes an illegal move: ");
}
