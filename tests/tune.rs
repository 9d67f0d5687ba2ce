//! `fairybridge tune` on a game defined in a file (not built in): it plays, tunes, and writes the
//! definition with its `[eval]` section; the engine loads the result, and a second run learns from
//! the saved positions alone. Built-in games cannot be rewritten in place (they are embedded).

mod common;

use std::path::{Path, PathBuf};

use common::{run, stderr};

fn example(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/variants/examples")
        .join(name)
}

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("fairybridge-tune-{}-{name}", std::process::id()))
}

/// The training error the run reports: (before, after).
fn training_error(err: &str) -> (f64, f64) {
    let line = err
        .lines()
        .find(|l| l.contains("training positions, error"))
        .unwrap_or_else(|| panic!("no summary in {err}"));
    let part = line.split("error ").nth(1).expect("error figures");
    let mut figures = part
        .split(|c: char| c == ';' || c.is_whitespace())
        .filter(|w| !w.is_empty());
    let before: f64 = figures.next().and_then(|x| x.parse().ok()).expect("before");
    assert_eq!(figures.next(), Some("->"));
    let after: f64 = figures.next().and_then(|x| x.parse().ok()).expect("after");
    (before, after)
}

#[test]
fn tune_writes_a_user_game_s_definition_that_the_engine_loads() {
    let original = std::fs::read_to_string(example("minicannon.toml")).expect("example");
    let file = temp("minicannon.toml");
    let data = temp("minicannon.data");
    std::fs::write(&file, &original).expect("copy");
    let file_s = file.to_string_lossy().to_string();
    let data_s = data.to_string_lossy().to_string();
    let o = run(&[
        "--variants",
        &file_s,
        "tune",
        "--variant",
        "minicannon",
        "--games",
        "6",
        "--nodes",
        "300",
        "--passes",
        "2",
        "--data",
        &data_s,
        "--write",
    ]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    let (before, after) = training_error(&err);
    assert!(after < before, "{err}");
    let tuned = std::fs::read_to_string(&file).expect("rewritten");
    assert!(tuned.starts_with(original.trim_end()), "the rest of the file is kept");
    assert!(
        tuned.contains("\n[eval]\n") && tuned.contains("[eval.piece.Nightrider]"),
        "{tuned}"
    );
    // The engine loads it: a bad section would fail here with exit code 2.
    let o = run(&["--variants", &file_s, "variants"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // From the saved positions alone, starting at the tuned weights: no worse than where it began.
    let o = run(&[
        "--variants",
        &file_s,
        "tune",
        "--variant",
        "minicannon",
        "--from-data",
        &data_s,
        "--passes",
        "1",
    ]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    let (before2, after2) = training_error(&err);
    assert!(after2 <= before2 && before2 <= before, "{err}");
    assert!(common::stdout(&o).starts_with("[eval]\n"), "the section on stdout");
    // All weights at once (`--method gradient`): no worse either, and the written definition,
    // piece-square tables and all, loads.
    let out = temp("minicannon-gradient.toml");
    let out_s = out.to_string_lossy().to_string();
    let o = run(&[
        "--variants",
        &file_s,
        "tune",
        "--variant",
        "minicannon",
        "--from-data",
        &data_s,
        "--method",
        "gradient",
        "--passes",
        "2",
        "--out",
        &out_s,
    ]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    let (before3, after3) = training_error(&err);
    assert!(after3 <= before3 && before3 <= before, "{err}");
    let o = run(&["--variants", &out_s, "variants"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = run(&[
        "--variants",
        &file_s,
        "tune",
        "--variant",
        "minicannon",
        "--method",
        "newton",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let _ = std::fs::remove_file(&file);
    let _ = std::fs::remove_file(&data);
    let _ = std::fs::remove_file(&out);
}

#[test]
fn tune_refuses_to_rewrite_a_built_in_game_and_bad_data() {
    let o = run(&["tune", "--variant", "normal", "--games", "1", "--write"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("--out"), "{err}");
    let data = temp("bad.data");
    std::fs::write(
        &data,
        "1;rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n2;8/8/8/8/8/8/8/8 w - - 0 1\n",
    )
    .expect("data");
    let o = run(&["tune", "--variant", "normal", "--from-data", &data.to_string_lossy()]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains("line 2") && err.contains("not a score from 0 to 1"),
        "{err}"
    );
    let _ = std::fs::remove_file(&data);
}

/// `--from-pgn` on a tiny PGN file (fixtures/tune/games.pgn: three usable chess games among a
/// crazyhouse game, a game with an illegal move, a time forfeit and an unfinished game), given
/// twice: it says what it skipped and why, saves the positions with `--data`, and tunes from them.
#[test]
fn tune_learns_from_the_games_of_pgn_files() {
    let pgn = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/tune/games.pgn");
    let pgn_s = pgn.to_string_lossy().to_string();
    let data = temp("pgn.data");
    let data_s = data.to_string_lossy().to_string();
    let o = run(&[
        "tune",
        "--variant",
        "normal",
        "--from-pgn",
        &pgn_s,
        "--from-pgn",
        &pgn_s,
        "--passes",
        "1",
        "--data",
        &data_s,
    ]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    let summary = format!(
        "tune: {pgn_s}: 15 positions of 3 games of normal; skipped 1 of other variants, 1 without a \
         result, 1 forfeited, 1 that do not replay"
    );
    assert_eq!(err.matches(&summary).count(), 2, "{err}");
    assert_eq!(err.matches("move 3 (Ke3)").count(), 2, "the bad game is named: {err}");
    training_error(&err);
    assert!(
        err.contains("27 training positions"),
        "30 positions, the last tenth held out: {err}"
    );
    let saved = std::fs::read_to_string(&data).expect("saved positions");
    assert_eq!(saved.lines().count(), 30, "{saved}");
    assert_eq!(
        saved.lines().next(),
        Some("1;rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    );
    assert!(common::stdout(&o).starts_with("[eval]\n"), "the section on stdout");
    let _ = std::fs::remove_file(&data);

    // A file that is not there: a clear error, no tuning.
    let missing = temp("missing.pgn");
    let o = run(&["tune", "--variant", "normal", "--from-pgn", &missing.to_string_lossy()]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("cannot read") && err.contains("missing.pgn"), "{err}");
    // Games of another variant only: too few positions, said so.
    let o = run(&["tune", "--variant", "wildrose", "--from-pgn", &pgn_s]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains("skipped 7 of other variants") && err.contains("too few"),
        "{err}"
    );
}
