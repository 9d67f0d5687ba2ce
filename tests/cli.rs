//! The command line: `fairybridge perft` / `fairybridge variants`, exit codes and messages.
//! Contract: `perft` prints `<move> <count>` lines (with `--divide`) and always a last line
//! `nodes <N>` on stdout, timing on stderr; an unknown variant, a bad FEN or a bad depth gives one
//! line on stderr and exit code 2.

mod common;

use common::{run, stderr, stdout};

/// Exit code 2, nothing on stdout, exactly one non-empty line on stderr; returns that line.
fn assert_one_line_failure(args: &[&str]) -> String {
    let o = run(args);
    let err = stderr(&o);
    assert_eq!(
        o.status.code(),
        Some(2),
        "{args:?}: exit status {:?}, stderr {err:?}",
        o.status
    );
    assert_eq!(stdout(&o), "", "{args:?}: nothing on stdout");
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 1, "{args:?}: stderr should be one line, got {err:?}");
    assert!(!lines[0].trim().is_empty(), "{args:?}: empty error line");
    lines[0].to_string()
}

#[test]
fn variants_lists_normal_and_wildcastle() {
    let o = run(&["variants"]);
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    let names: Vec<&str> = out.lines().filter_map(|l| l.split_whitespace().next()).collect();
    assert!(names.contains(&"normal"), "{out}");
    assert!(names.contains(&"wildcastle"), "{out}");
    assert_eq!(stderr(&o), "");
}

#[test]
fn perft_prints_nodes_last_and_timing_on_stderr() {
    let o = run(&["perft", "--variant", "wildcastle", "--depth", "2"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // Without --divide: just the nodes line (the orthodox array is wildcastle's default start).
    assert_eq!(stdout(&o), "nodes 400\n");
    assert!(
        stderr(&o).starts_with("time"),
        "timing goes to stderr: {:?}",
        stderr(&o)
    );

    let o = run(&[
        "perft",
        "--variant",
        "normal",
        "--fen",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "--depth",
        "3",
        "--divide",
    ]);
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(*lines.last().unwrap(), "nodes 2812");
    assert_eq!(lines.len(), 14 + 1, "one row per legal move (14) and the nodes line");
    for row in &lines[..lines.len() - 1] {
        let (mv, n) = row.split_once(' ').expect("`<move> <count>`");
        assert!(mv.len() >= 4 && n.parse::<u64>().is_ok(), "{row:?}");
    }
}

#[test]
fn perft_defaults_to_normal_chess() {
    let o = run(&["perft", "--depth", "3"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stdout(&o), "nodes 8902\n");
}

#[test]
fn unknown_variant() {
    let line = assert_one_line_failure(&["perft", "--variant", "nosuch", "--depth", "1"]);
    assert!(line.contains("nosuch"), "{line}");
    assert!(line.contains("unknown variant"), "{line}");
    assert!(
        line.contains("normal") && line.contains("wildcastle"),
        "lists the known ones: {line}"
    );
    assert_one_line_failure(&["perft", "--variant", "", "--depth", "1"]);
    assert_one_line_failure(&["perft", "--variant", "Normal", "--depth", "1"]);
}

#[test]
fn bad_fen() {
    for fen in [
        "garbage",
        "",
        "8/8/8/8/8/8/8/8",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 99999999999999999999 1",
    ] {
        let line = assert_one_line_failure(&["perft", "--fen", fen, "--depth", "1"]);
        assert!(line.contains("invalid FEN"), "{fen:?}: {line}");
    }
    // Well-formed but impossible positions.
    for (fen, why) in [
        ("8/8/8/8/8/8/8/8 w - - 0 1", "kings"),
        ("4k3/8/8/8/8/8/4R3/4K3 w - - 0 1", "check"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1", "'X'"),
        ("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "files"),
    ] {
        let line = assert_one_line_failure(&["perft", "--fen", fen, "--depth", "1"]);
        assert!(
            line.contains("invalid position") && line.contains(why),
            "{fen:?}: {line}"
        );
    }
    // A FEN valid in one game is checked against the game asked for.
    assert_one_line_failure(&[
        "perft",
        "--variant",
        "wildcastle",
        "--fen",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Q] w KQkq - 0 1",
        "--depth",
        "1",
    ]);
}

#[test]
fn depth_too_large() {
    for depth in ["999", "65", "4294967295"] {
        let line = assert_one_line_failure(&["perft", "--depth", depth]);
        assert!(line.contains(depth), "{line}");
    }
    // 64 is the limit, and is accepted (on a position without moves, so it returns at once).
    let o = run(&["perft", "--fen", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "--depth", "64"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "nodes 0\n", "stalemate: no moves");
}

/// A depth that is not a number (or is negative, or missing) is reported in one `fairybridge: ...`
/// line (src/cli/mod.rs), not clap's multi-line usage error ("error: invalid value 'x' for
/// '--depth <DEPTH>' ... \n\nFor more information, try '--help'."), with exit code 2.
#[test]
fn bad_depth_is_one_line_with_exit_2() {
    for args in [
        &["perft", "--depth", "x"][..],
        &["perft", "--depth", "-1"][..],
        &["perft", "--depth", "1.5"][..],
        &["perft", "--depth", ""][..],
    ] {
        let line = assert_one_line_failure(args);
        assert!(line.contains("depth"), "{args:?}: {line}");
    }
}

#[test]
fn bad_depth_exit_code_is_2() {
    // The exit-code half of the contract: a bad depth is a usage error.
    for depth in ["x", "-1", "1.5", ""] {
        let o = run(&["perft", "--depth", depth]);
        assert_eq!(o.status.code(), Some(2), "--depth {depth:?}");
        assert_eq!(stdout(&o), "");
        assert!(!stderr(&o).is_empty());
    }
}

/// At depth 0 the node total does not depend on `--divide` (src/perft.rs `divide`): plain perft
/// says `nodes 1` (perft(0) = 1), and `--divide` must not print one row per legal move with
/// count 1 and `nodes 20`. The same command reports the same total either way.
#[test]
fn depth_0_total_does_not_depend_on_divide() {
    let plain = stdout(&run(&["perft", "--depth", "0"]));
    let divided = stdout(&run(&["perft", "--depth", "0", "--divide"]));
    assert_eq!(plain.lines().last(), Some("nodes 1"));
    assert_eq!(
        divided.lines().last(),
        plain.lines().last(),
        "--divide output: {divided}"
    );
}

/// clap's errors in one line, whole: what is missing is named, and a near miss gets clap's "did
/// you mean" (never `the following required arguments were not provided:` and nothing more).
#[test]
fn command_line_errors_name_what_is_wrong() {
    let line = assert_one_line_failure(&["perft"]);
    assert!(line.contains("not provided: --depth <DEPTH>"), "{line}");
    let line = assert_one_line_failure(&["merge"]);
    assert!(line.contains("not provided: <FILE>"), "{line}");
    let line = assert_one_line_failure(&["perfts"]);
    assert!(
        line.contains("unrecognized subcommand 'perfts'") && line.contains("'perft'"),
        "{line}"
    );
    let line = assert_one_line_failure(&["perft", "--dept", "2"]);
    assert!(line.contains("--dept") && line.contains("--depth"), "{line}");
}

/// XBoard starts `-fcp "fairybridge --variants '/my games/x.toml'"` with an empty last argument
/// (it splits the command at spaces and leaves a word after the closing quote): the engine runs.
#[test]
fn an_empty_last_argument_is_ignored() {
    let dir = std::env::temp_dir().join(format!("fairybridge cli {}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("my knightmate.toml");
    std::fs::copy(
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/fixtures/variants/examples/knightmate.toml"
        ),
        &file,
    )
    .unwrap();
    let file = file.to_str().unwrap();

    let o = run(&["--variants", file, "variants", ""]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).lines().any(|l| l.starts_with("knightmate")),
        "{}",
        stdout(&o)
    );

    let mut engine = common::EngineProcess::start(&["--variants", file, ""], true);
    engine.send("xboard");
    engine.send("protover 2");
    let deadline = std::time::Instant::now() + common::LINE_TIMEOUT;
    let mut features = Vec::new();
    while let Some(line) = engine.next_line_before(deadline) {
        let done = line.contains("done=1");
        features.push(line);
        if done {
            break;
        }
    }
    assert!(
        features
            .iter()
            .any(|l| l.contains("variants=") && l.contains("knightmate")),
        "the file's game is offered: {features:?}"
    );
    engine.close_input_with_quit();
    let status = engine.wait_for_exit(common::LINE_TIMEOUT).expect("the engine exits");
    assert!(status.success(), "{status:?}: {}", engine.stderr_text());
    // An empty word inside the command is still a mistake.
    assert_one_line_failure(&["--variants", "", "variants"]);
    let _ = std::fs::remove_dir_all(&dir);
}
