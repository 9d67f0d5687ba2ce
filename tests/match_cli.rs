//! `fairybridge match` on bad arguments: one line on stderr, nothing on stdout, exit code 2 —
//! before any game is played.

mod common;

use std::process::Command;

fn fails(args: &[&str], wanted: &str) {
    let out = Command::new(env!("CARGO_BIN_EXE_fairybridge"))
        .arg("match")
        .args(args)
        .output()
        .expect("run fairybridge match");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "", "{args:?}");
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 1, "{args:?}: {err:?}");
    assert!(
        lines[0].contains(wanted),
        "{args:?}: {:?} should mention {wanted:?}",
        lines[0]
    );
}

/// `--engine FB --engine FB --each tc=1`, then `extra`: two engines that run and a clock that is
/// good, so that only `extra` can be wrong.
fn two_engines_at_tc1<'a>(fb: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec!["--engine", fb, "--engine", fb, "--each", "tc=1"];
    args.extend_from_slice(extra);
    args
}

#[test]
fn bad_arguments_exit_2_with_one_line() {
    let fb = format!("cmd={}", env!("CARGO_BIN_EXE_fairybridge"));
    let fb = fb.as_str();
    fails(&[], "two --engine");
    fails(&["--engine", fb, "tc=1"], "two --engine");
    fails(&["--engine", fb, "--engine", fb], "no time control");
    fails(
        &["--engine", fb, "--engine", fb, "--each", "tc=fast"],
        "invalid time control",
    );
    fails(
        &["--engine", fb, "--engine", fb, "--each", "st=0"],
        "invalid time per move",
    );
    // Times no clock can hold are refused up front, not left to fail inside every game (which
    // would end the match with exit 0 and nothing written).
    for tc in [
        "tc=1e20",
        "tc=1e19",
        "tc=1+1e20",
        "st=1e20",
        "timemargin=99999999999999",
    ] {
        fails(&two_engines_at_tc1(fb, &[tc]), "above a year");
    }
    fails(&two_engines_at_tc1(fb, &["--variant", "nosuch"]), "unknown variant");
    fails(&two_engines_at_tc1(fb, &["--games", "x"]), "invalid value");
    fails(&two_engines_at_tc1(fb, &["--sprt", "elo0=5", "elo1=0"]), "--sprt");
    fails(&two_engines_at_tc1(fb, &["--sprt", "elo1=5"]), "elo0");
    fails(
        &[
            "--engine", fb, "--engine", fb, "--engine", fb, "--each", "tc=1", "--sprt", "elo0=0", "elo1=5",
        ],
        "two engines",
    );
    fails(
        &two_engines_at_tc1(fb, &["--openings", "/nonexistent.epd"]),
        "cannot read",
    );
    fails(&two_engines_at_tc1(fb, &["--shard", "3/2"]), "expected K/N");
    fails(&two_engines_at_tc1(fb, &["--shard", "half"]), "expected K/N");
    fails(
        &two_engines_at_tc1(fb, &["--tournament", "swiss"]),
        "round-robin, gauntlet",
    );
    // An opening that does not read is refused with its file and line, not played from the start.
    let book = std::env::temp_dir().join(format!("fb-match-cli-{}-bad.epd", std::process::id()));
    std::fs::write(
        &book,
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -\nrnbqkbnr/pppppppp/9/8 w KQkq -\n",
    )
    .expect("write the opening file");
    let book_text = book.display().to_string();
    fails(
        &two_engines_at_tc1(fb, &["--openings", &book_text]),
        &format!("{book_text}: line 2"),
    );
    let _ = std::fs::remove_file(&book);
    fails(&two_engines_at_tc1(fb, &["--resign", "movecount=3"]), "--resign");
    fails(
        &["--engine", fb, "colour=white", "--engine", fb, "--each", "tc=1"],
        "unknown key",
    );
    // Engines are started once before the match: a command that does not run is a bad argument,
    // and so is an engine that does not announce the variant.
    fails(
        &["--engine", "cmd=/nonexistent/engine", "--engine", fb, "--each", "tc=1"],
        "cannot start",
    );
    let fairymax = format!("cmd={}", common::require_fairymax());
    fails(
        &[
            "--engine",
            &fairymax,
            "--engine",
            fb,
            "--each",
            "tc=1",
            "--variant",
            "pillage",
        ],
        "does not play",
    );
}

#[test]
fn help_lists_the_flags() {
    let out = Command::new(env!("CARGO_BIN_EXE_fairybridge"))
        .args(["match", "--help"])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    for flag in [
        "--engine",
        "--each",
        "--variant",
        "--games",
        "--rounds",
        "--openings",
        "--concurrency",
        "--pgn",
        "--sprt",
        "--draw",
        "--resign",
        "--seed",
    ] {
        assert!(text.contains(flag), "{flag} missing from\n{text}");
    }
}

/// A match whose PGN, state or save games cannot be written stops before the first game (it used
/// to play every game, lose them, and exit 0).
#[test]
fn unwritable_outputs_are_refused_before_any_game() {
    let fb = format!("cmd={}", env!("CARGO_BIN_EXE_fairybridge"));
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("outputs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("tmp dir");
    // Under a plain file: no folder can be there, whoever runs the test (root too).
    let plain = dir.join("plain");
    std::fs::write(&plain, "x").expect("plain file");
    let under_file = plain.join("x.pgn");
    let bad: [(&str, String, &str); 6] = [
        (
            "--pgn",
            "/nonexistent-fairybridge-dir/x.pgn".to_string(),
            "--pgn: cannot write",
        ),
        ("--pgn", under_file.display().to_string(), "--pgn: cannot write"),
        (
            "--resume",
            "/nonexistent-fairybridge-dir/m.state".to_string(),
            "--resume: cannot write",
        ),
        // A state file is read first: there it cannot be.
        (
            "--resume",
            plain.join("m.state").display().to_string(),
            "cannot read the state file",
        ),
        (
            "--zsg",
            "/nonexistent-fairybridge-dir/g.zsg".to_string(),
            "--zsg: cannot write",
        ),
        (
            "--zsg",
            plain.join("g.zsg").display().to_string(),
            "--zsg: cannot write",
        ),
    ];
    for (flag, path, wanted) in &bad {
        fails(&two_engines_at_tc1(&fb, &["--games", "1", flag, path]), wanted);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The whole way of a cutechess-cli command line: `fairybridge match -engine … -each … -openings
/// file=… format=pgn plies=N -pgnout FILE` plays from the PGN book's positions after N plies.
#[test]
fn a_cutechess_command_line_plays_from_a_pgn_book() {
    let fb = env!("CARGO_BIN_EXE_fairybridge");
    let book = common::fresh_temp_file("cutechess-book", "pgn");
    std::fs::write(&book, "[Event \"book\"]\n\n1. e4 c5 2. Nf3 d6 *\n").expect("book");
    let pgn = common::fresh_temp_file("cutechess-games", "pgn");
    let out = Command::new(fb)
        .args([
            "match",
            "-engine",
            &format!("cmd={fb}"),
            "name=A",
            "-engine",
            &format!("cmd={fb}"),
            "name=B",
        ])
        .args([
            "-each",
            "depth=1",
            "proto=uci",
            "-games",
            "2",
            "-rounds",
            "1",
            "-repeat",
            "-recover",
        ])
        .args([
            "-maxmoves",
            "10",
            "-openings",
            &format!("file={}", book.display()),
            "format=pgn",
            "plies=3",
        ])
        .args(["-pgnout", &pgn.display().to_string(), "-srand", "3"])
        .output()
        .expect("run");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let games = fairybridge::tournament::pgn::read_pgn(&std::fs::read_to_string(&pgn).expect("PGN"));
    assert_eq!(games.len(), 2, "{stderr}");
    for g in &games {
        assert_eq!(
            g.tag("FEN"),
            Some("rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"),
            "the book's position after 3 plies"
        );
        assert_eq!(g.tag("TimeControl"), Some("-"), "depth= alone: no clock");
    }
    let _ = std::fs::remove_file(&book);
    let _ = std::fs::remove_file(&pgn);
}

/// `option.X=` that the engine does not announce is sent with a warning naming it and the
/// engine's options (never silently: a typo would otherwise change nothing unseen).
#[test]
fn an_option_the_engine_lacks_is_warned_about() {
    let fb = env!("CARGO_BIN_EXE_fairybridge");
    for proto in ["uci", "xboard"] {
        let out = Command::new(fb)
            .args([
                "match",
                "--engine",
                &format!("cmd={fb}"),
                "option.Bogus=1",
                "option.Hash=8",
            ])
            .args([
                "--engine",
                &format!("cmd={fb}"),
                "--each",
                "depth=1",
                &format!("proto={proto}"),
            ])
            .args(["--games", "1", "--maxmoves", "4"])
            .output()
            .expect("run");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{stderr}");
        let warnings: Vec<&str> = stderr.lines().filter(|l| l.contains("announces no option")).collect();
        assert_eq!(warnings.len(), 1, "{proto}: {stderr}");
        assert!(
            warnings[0].contains("\"Bogus\"") && warnings[0].contains("Hash"),
            "{proto}: {}",
            warnings[0]
        );
    }
}

/// `fairybridge --variants FILE match …` gives the file to the fairybridge engines of the match
/// (without it they would refuse the game: "does not play the variant").
#[test]
fn the_matchs_definition_files_reach_our_own_engines() {
    let fb = env!("CARGO_BIN_EXE_fairybridge");
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/variants/examples/minicannon.toml"
    );
    let out = Command::new(fb)
        .args([
            "--variants",
            file,
            "match",
            "--engine",
            &format!("cmd={fb}"),
            "--engine",
        ])
        .args([
            &format!("cmd={fb}"),
            "proto=uci",
            "--each",
            "depth=1",
            "--variant",
            "minicannon",
        ])
        .args(["--games", "2", "--maxmoves", "10"])
        .output()
        .expect("run");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("Score of"), "{stderr}");
}
