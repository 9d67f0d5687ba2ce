//! The definition folder `variants` beside the program is loaded without being named (as the
//! release bundles lay it out: WinBoard's and XBoard's engine command needs no path to it), as one
//! set with the files named by `--variants`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A folder holding a copy of the built program, with `variants/` holding `files` (name, text).
fn program_with_folder(test: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("beside-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("variants")).expect("temp folder");
    let program = dir.join("fairybridge");
    std::fs::copy(env!("CARGO_BIN_EXE_fairybridge"), &program).expect("copy the program");
    for (name, text) in files {
        std::fs::write(dir.join("variants").join(name), text).expect("definition written");
    }
    program
}

/// Runs the copied program. A copy just written may be briefly "busy" (ETXTBSY) while a child
/// that another test thread forked still holds its write descriptor: that is retried.
fn run(program: &Path, args: &[&str]) -> Output {
    for _ in 0..100 {
        match Command::new(program).args(args).output() {
            Err(e) if e.kind() == std::io::ErrorKind::ExecutableFileBusy => {
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            result => return result.expect("program runs"),
        }
    }
    panic!("{} stayed busy", program.display());
}

fn names(out: &Output) -> Vec<String> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .collect()
}

fn example(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/variants/examples")
        .join(name);
    std::fs::read_to_string(path).expect("example readable")
}

#[test]
fn the_folder_beside_the_program_is_loaded_without_a_path() {
    let knightmate = example("knightmate.toml");
    let program = program_with_folder("loaded", &[("knightmate.toml", &knightmate)]);
    let out = run(&program, &["variants"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let listed = names(&out);
    assert!(listed.contains(&"knightmate".to_string()), "{listed:?}");
    assert!(listed.contains(&"wreckage".to_string()), "{listed:?}");

    // Its games are there for the engine too: CECP's variant list.
    let mut engine = Command::new(&program)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("engine starts");
    {
        use std::io::Write;
        let mut stdin = engine.stdin.take().expect("stdin");
        writeln!(stdin, "xboard\nprotover 2\nquit").expect("engine reads");
    }
    let out = engine.wait_with_output().expect("engine exits");
    let features = String::from_utf8_lossy(&out.stdout);
    let variants = features.lines().find(|l| l.contains("variants=")).unwrap_or_default();
    assert!(variants.contains("knightmate"), "{features}");
}

#[test]
fn without_the_folder_only_the_builtin_games_are_listed() {
    let program = program_with_folder("absent", &[]);
    std::fs::remove_dir(program.parent().expect("folder").join("variants")).expect("empty folder removed");
    let out = run(&program, &["variants"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        names(&out),
        ["normal", "wildcastle", "pillage", "wildrose", "wreckage", "crazyhouse"]
    );
}

#[test]
fn a_named_file_may_inherit_a_game_of_the_folder() {
    let knightmate = example("knightmate.toml");
    let program = program_with_folder("inherit", &[("knightmate.toml", &knightmate)]);
    let child = program.parent().expect("folder").join("child with spaces.toml");
    std::fs::write(&child, "name = \"knightmate-child\"\ninherit = \"knightmate\"\n").expect("child written");
    let out = run(&program, &["--variants", &child.display().to_string(), "variants"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(
        names(&out).contains(&"knightmate-child".to_string()),
        "{:?}",
        names(&out)
    );
}

#[test]
fn a_bad_file_in_the_folder_is_named_and_the_other_games_stay() {
    let knightmate = example("knightmate.toml");
    let program = program_with_folder(
        "bad",
        &[
            ("knightmate.toml", &knightmate),
            ("broken.toml", "name = \"broken\"\nboard = \"99x99\"\n"),
        ],
    );
    let out = run(&program, &["variants"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("broken.toml:"), "{stderr}");
    assert!(names(&out).contains(&"knightmate".to_string()), "{:?}", names(&out));
}
