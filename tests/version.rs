//! The build says which build it is, the same way everywhere: `--version`, CECP `feature myname`
//! and UCI `id name` carry the package version and the commit it was built from (`build.rs`).

mod common;

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use common::{EngineProcess, LINE_TIMEOUT, run, stdout};

/// What `git` says about this source tree, when it is a git work tree of its own.
fn git(args: &[&str]) -> Option<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new("git").arg("-C").arg(root).args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// The engine's lines after `send`, up to and including the first for which `last` holds.
fn answer_until(args: &[&str], send: &[&str], last: impl Fn(&str) -> bool) -> Vec<String> {
    let mut engine = EngineProcess::start(args, false);
    for line in send {
        engine.send(line);
    }
    let deadline = Instant::now() + LINE_TIMEOUT;
    let mut lines = Vec::new();
    while let Some(line) = engine.next_line_before(deadline) {
        let done = last(&line);
        lines.push(line);
        if done {
            break;
        }
    }
    engine.send("quit");
    assert!(
        engine.wait_for_exit(Duration::from_secs(10)).is_some(),
        "engine did not exit"
    );
    lines
}

/// `--version`: the program name and version on the first line, then the commit and the target.
fn version_lines() -> Vec<String> {
    let out = run(&["--version"]);
    assert!(out.status.success(), "{out:?}");
    stdout(&out).lines().map(str::to_string).collect()
}

#[test]
fn version_names_the_commit_git_reports_or_is_the_package_version_without_git() {
    let lines = version_lines();
    let name = lines[0].as_str();
    let package = env!("CARGO_PKG_VERSION");
    let toplevel = git(&["rev-parse", "--show-toplevel"]);
    let ours = toplevel.is_some_and(|t| {
        Path::new(&t).canonicalize().ok() == Path::new(env!("CARGO_MANIFEST_DIR")).canonicalize().ok()
    });
    match git(&["rev-parse", "HEAD"]).filter(|_| ours) {
        Some(head) => {
            let short = &head[..7];
            assert!(
                name == format!("fairybridge {package}+{short}")
                    || name == format!("fairybridge {package}+{short}.dirty"),
                "{name:?} does not name HEAD {head}"
            );
            assert_eq!(
                lines.get(1).map(String::as_str),
                Some(format!("commit {head}").as_str())
            );
        }
        None => {
            assert_eq!(name, format!("fairybridge {package}"));
            assert_eq!(lines.get(1).map(String::as_str), Some("commit unknown"));
        }
    }
    assert!(lines.get(2).is_some_and(|l| l.starts_with("target ")), "{lines:?}");
}

#[test]
fn cecp_myname_and_uci_id_name_are_what_version_prints() {
    let name = version_lines()[0].clone();
    let cecp = answer_until(&[], &["xboard", "protover 2"], |l| l == "feature done=1");
    let myname = format!("myname=\"{name}\"");
    assert!(
        cecp.iter().any(|l| l.starts_with("feature ") && l.contains(&myname)),
        "no {myname} in {cecp:?}"
    );
    let uci = answer_until(&[], &["uci"], |l| l == "uciok");
    assert_eq!(
        uci.first().map(String::as_str),
        Some(format!("id name {name}").as_str()),
        "{uci:?}"
    );
}

#[test]
fn short_version_flag_prints_the_one_line() {
    let out = run(&["-V"]);
    assert!(out.status.success());
    assert_eq!(stdout(&out).trim_end(), version_lines()[0]);
}
