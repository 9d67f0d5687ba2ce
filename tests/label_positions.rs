//! scripts/label-positions.py with the real Fairy-Stockfish (installed by scripts/install-deps.sh
//! if missing): it scores positions for White, blends scores and results into labels, and
//! `fairybridge tune --from-data` learns from those labels; bad input is an exit status 2.

mod common;

use std::path::Path;
use std::process::{Command, Output};

use common::{fresh_temp_file, require_peer, run, stderr};

const FAIRY_STOCKFISH: &str = "/usr/games/fairy-stockfish";
const SCRIPT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/label-positions.py");

/// White a queen up with White to move, Black a queen up with Black to move, and Black a queen up
/// with White to move: the scores for White must be +, -, -. Written four times: the tuner wants
/// ten positions at least.
const POSITIONS: &str = "\
0.5;4k3/pppp4/8/8/8/8/PPPP4/3QK3 w - - 0 1
1;3qk3/pppp4/8/8/8/8/PPPP4/4K3 b - - 0 1
0;3qk3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1
";

fn script(args: &[&str]) -> Output {
    Command::new("python3")
        .arg(SCRIPT)
        .args(args)
        .output()
        .expect("python3 runs")
}

fn path(p: &Path) -> String {
    p.to_string_lossy().into_owned()
}

#[test]
fn fairy_stockfish_labels_positions_that_tune_learns_from() {
    require_peer("fairy-stockfish", || Path::new(FAIRY_STOCKFISH).exists());
    let input = fresh_temp_file("label-in", "data");
    let raw = fresh_temp_file("label-raw", "data");
    let labels = fresh_temp_file("label-out", "data");
    std::fs::write(&input, POSITIONS.repeat(4)).expect("write positions");

    let o = script(&["score", FAIRY_STOCKFISH, &path(&input), &path(&raw), "--depth", "4"]);
    assert!(o.status.success(), "score: {}", String::from_utf8_lossy(&o.stderr));
    let raw_text = std::fs::read_to_string(&raw).expect("raw");
    let scores: Vec<(String, i32)> = raw_text
        .lines()
        .map(|l| {
            let mut parts = l.splitn(3, ';');
            let result = parts.next().expect("result").to_string();
            let cp = parts.next().and_then(|c| c.parse().ok()).expect("cp");
            (result, cp)
        })
        .collect();
    assert_eq!(scores.len(), 12, "{raw_text}");
    for three in scores.chunks(3) {
        assert_eq!(
            three.iter().map(|(r, _)| r.as_str()).collect::<Vec<_>>(),
            ["0.5", "1", "0"],
            "results kept in order: {raw_text}"
        );
        assert!(three[0].1 > 500 && three[1].1 < -500 && three[2].1 < -500, "{raw_text}");
    }

    let o = script(&["blend", &path(&raw), &path(&labels), "--lam", "0.5"]);
    assert!(o.status.success(), "blend: {}", String::from_utf8_lossy(&o.stderr));
    let label_text = std::fs::read_to_string(&labels).expect("labels");
    let values: Vec<f64> = label_text
        .lines()
        .map(|l| l.split(';').next().and_then(|v| v.parse().ok()).expect("label"))
        .collect();
    // Half the result and half a score near 1 (White winning) or 0.
    for three in values.chunks(3) {
        assert!(three[0] > 0.7 && three[0] < 0.76, "{label_text}");
        assert!(three[1] > 0.5 && three[1] < 0.56, "{label_text}");
        assert!(three[2] < 0.03, "{label_text}");
    }

    let o = run(&[
        "tune",
        "--variant",
        "normal",
        "--from-data",
        &path(&labels),
        "--passes",
        "1",
    ]);
    assert!(o.status.success(), "tune: {}", stderr(&o));
    for f in [&input, &raw, &labels] {
        let _ = std::fs::remove_file(f);
    }
}

#[test]
fn fairy_stockfish_keeps_the_openings_it_finds_balanced() {
    require_peer("fairy-stockfish", || Path::new(FAIRY_STOCKFISH).exists());
    let input = fresh_temp_file("suite-in", "epd");
    let output = fresh_temp_file("suite-out", "epd");
    // The start position (balanced: Fairy-Stockfish gives White some 70 cp at depth 6), then
    // Black without its queen (lost for Black to move), then a
    // line without `ce`.
    std::fs::write(
        &input,
        "# a made-up suite\n\
         rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - ce 3; c0 \"\";\n\
         rnb1kbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - ce 0; c0 \"e2e4\";\n\
         rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - c0 \"g1f3\";\n",
    )
    .expect("write suite");
    let o = script(&[
        "suite",
        FAIRY_STOCKFISH,
        &path(&input),
        &path(&output),
        "--depth",
        "6",
        "--workers",
        "1",
        "--max-score",
        "150",
    ]);
    assert!(o.status.success(), "suite: {}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(&output).expect("suite written");
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(
        lines[0].starts_with("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - ce "),
        "{text}"
    );
    assert!(
        lines[0].ends_with(" c0 \"\";"),
        "the line is kept, its ce replaced: {text}"
    );
    assert!(
        lines[1].starts_with("rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - c0 \"g1f3\"; ce "),
        "{text}"
    );
    let ce: i32 = lines[0]
        .split("ce ")
        .nth(1)
        .and_then(|x| x.split(';').next())
        .and_then(|x| x.parse().ok())
        .expect("a ce");
    assert!(ce.abs() <= 150, "{text}");
    assert!(text.contains("(2 of 3; ce is its score)"), "{text}");
    let o = script(&[
        "suite",
        FAIRY_STOCKFISH,
        &path(&input),
        &path(&output),
        "--max-score",
        "-1",
    ]);
    assert_eq!(o.status.code(), Some(2));
    for f in [&input, &output] {
        let _ = std::fs::remove_file(f);
    }
}

#[test]
fn bad_input_is_refused_with_exit_status_2() {
    let raw = fresh_temp_file("label-bad-raw", "data");
    let out = fresh_temp_file("label-bad-out", "data");
    std::fs::write(
        &raw,
        "1;25;4k3/8/8/8/8/8/8/4K3 w - - 0 1\nwin;3;4k3/8/8/8/8/8/8/4K3 w - - 0 1\n",
    )
    .expect("write");
    let o = script(&["blend", &path(&raw), &path(&out)]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains(":2: expected RESULT;CP;FEN"));
    let o = script(&["blend", &path(&raw), &path(&out), "--lam", "2"]);
    assert_eq!(o.status.code(), Some(2));
    std::fs::write(&raw, "1;4k3/8/8/8/8/8/8/4K3 w - - 0 1\nno fen here\n").expect("write");
    let o = script(&["score", "/bin/false", &path(&raw), &path(&out)]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains(":2: expected RESULT;FEN"));
    for f in [&raw, &out] {
        let _ = std::fs::remove_file(f);
    }
}
