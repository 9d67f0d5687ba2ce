//! The README's examples work when copied: every TOML block that is a definition file (a top-level
//! `name`) loads, or is marked `# excerpt` on its first line, and the UCI example, piped as written, answers with a
//! `bestmove` (a reader copies them as they stand: a definition that fails to load, a rule the
//! text misstates or an example that never answers is a README that lies).

mod common;

use std::io::Write;
use std::process::{Command, Stdio};

fn readme() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).expect("README.md")
}

/// The fenced blocks of `lang`, each as its text.
fn blocks(text: &str, lang: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current: Option<String> = None;
    for line in text.lines() {
        match &mut current {
            None if line.trim_start() == format!("```{lang}") => current = Some(String::new()),
            Some(block) if line.trim_start() == "```" => {
                out.push(std::mem::take(block));
                current = None;
            }
            Some(block) => {
                block.push_str(line);
                block.push('\n');
            }
            None => {}
        }
    }
    out
}

#[test]
fn every_toml_block_loads_or_says_it_is_an_excerpt() {
    let tomls = blocks(&readme(), "toml");
    assert!(tomls.len() >= 2, "{tomls:?}");
    let mut whole = 0;
    for (i, block) in tomls.iter().enumerate() {
        // Definition files have a top-level `name`; other TOML (the Zillions bridge's
        // fairybridge.toml) is not one.
        let top: toml::Table = toml::from_str(block).unwrap_or_else(|e| panic!("README toml block {i}: {e}\n{block}"));
        if block.starts_with("# excerpt") || !top.contains_key("name") {
            continue;
        }
        let file = common::fresh_temp_file(&format!("readme-block-{i}"), "toml");
        std::fs::write(&file, block).expect("write");
        let mut registry = fairybridge::variants::Registry::builtin();
        let v = registry
            .load_file(&file)
            .unwrap_or_else(|e| panic!("README toml block {i} does not load: {e}\n{block}"));
        whole += 1;
        if v.name == "knightmate" {
            let pawn = v.pieces.iter().find(|p| p.letter == 'P').expect("pawn");
            let to: String = pawn
                .promotion
                .as_ref()
                .expect("promotion")
                .choices
                .iter()
                .map(|k| v.piece(*k).letter)
                .collect();
            assert!(to.contains('M') && !to.contains('N'), "knightmate promotes to {to}");
        }
        let _ = std::fs::remove_file(&file);
    }
    assert!(whole >= 1, "no whole definition file among the README's blocks");
}

#[test]
fn the_uci_example_prints_its_bestmove() {
    let text = readme();
    let example = blocks(&text, "sh")
        .into_iter()
        .find(|b| b.contains("printf 'uci\\n"))
        .expect("the UCI example");
    // The printf's text, as the shell would expand it.
    let start = example.find("printf '").expect("printf") + "printf '".len();
    let end = start + example[start..].find('\'').expect("closing quote");
    let input = example[start..end].replace("\\n", "\n");
    let mut child = Command::new(env!("CARGO_BIN_EXE_fairybridge"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("write");
    let out = child.wait_with_output().expect("exits at end of input");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(
        stdout.lines().last().is_some_and(|l| l.starts_with("bestmove ")),
        "{stdout}"
    );
}
