//! Definition files that `inherit` another game's definition: a child starts
//! from its parent's keys and pieces and changes some; errors keep naming the file and line of the
//! key they are about, also when the key is the parent's; a parent must be loaded before its
//! child, or with it in one set (a folder), where a cycle of `inherit` is an error.
//!
//! Files: fixtures/variants/examples/knightmate.toml (normal with two pieces changed and one added;
//! its perft suite fixtures/perft/knightmate.perft has Fairy-Stockfish's counts),
//! fixtures/variants/examples/inherit/ (a child listed before its parent), and the inheriting
//! files of fixtures/variants/examples/bad/.

mod common;

use std::path::{Path, PathBuf};

use fairybridge::core::piece::Royalty;
use fairybridge::core::variant::{Repetition, Verdict};
use fairybridge::notation::zillions;
use fairybridge::protocol::xboard::variant_info::XboardInfo;
use fairybridge::variants::{DefinitionError, DefinitionSource};

use common::{run, stderr, stdout};

fn example(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/variants/examples")
        .join(path)
}

fn normal_line_containing(text: &str) -> usize {
    let normal = include_str!("../fixtures/variants/normal.toml");
    normal
        .lines()
        .position(|l| l.contains(text))
        .unwrap_or_else(|| panic!("{text:?} is in normal.toml"))
        + 1
}

/// `fairybridge --variants ARG... variants`: exit code 2 and one `FILE:LINE: MESSAGE` line per bad
/// file on stderr.
fn cli_errors(args: &[&str]) -> Vec<String> {
    let mut all = vec![];
    for a in args {
        all.extend(["--variants", a]);
    }
    all.push("variants");
    let o = run(&all);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
    assert!(
        stdout(&o).lines().any(|l| l.starts_with("normal")),
        "the built-in games are still listed"
    );
    stderr(&o).lines().map(str::to_string).collect()
}

#[test]
fn a_child_changes_pieces_and_keys_and_keeps_the_rest() {
    let mut registry = fairybridge::protocol::builtin_games();
    let file = example("knightmate.toml");
    let child = registry.load_file(&file).unwrap_or_else(|e| panic!("{e}"));
    let normal = registry.get("normal").expect("normal");
    assert_eq!(child.name, "knightmate");
    // Not inherited: the name Zillions shows and the description are the child's own.
    assert_eq!(zillions::game_name(&child), "knightmate");
    assert!(child.description.starts_with("Knightmate"));
    // Normal's six pieces in their order, then the new mann.
    let letters: String = child.pieces.iter().map(|p| p.letter).collect();
    assert_eq!(letters, "PNBRQKM");
    for (c, n) in child.pieces.iter().zip(&normal.pieces) {
        match c.letter {
            // One key changed: the pawn's promotion (to a mann, not a knight).
            'P' => {
                let to = |p: &fairybridge::core::piece::PieceType| {
                    p.promotion
                        .as_ref()
                        .map(|pr| pr.choices.iter().map(|k| k.index()).collect::<Vec<_>>())
                };
                assert_eq!(to(c), Some(vec![4, 3, 2, 6]));
                assert_eq!(to(n), Some(vec![4, 3, 2, 1]));
                assert_eq!(
                    (c.betza.as_str(), c.value, c.en_passant_victim),
                    ("fmWfceFifmnD", 100, true)
                );
            }
            // One key changed: the king's movement; its name, value and royalty are normal's.
            'K' => {
                assert_eq!(
                    (c.name.as_str(), c.betza.as_str(), c.royalty),
                    ("King", "N", Royalty::King)
                );
                assert_eq!(n.betza, "K");
            }
            _ => assert_eq!(format!("{c:?}"), format!("{n:?}"), "piece {} is normal's", c.letter),
        }
    }
    assert_eq!(
        (child.pieces[6].name.as_str(), child.pieces[6].betza.as_str()),
        ("Mann", "K")
    );
    // A top-level key changed (the start); the rules, the board and castling are normal's.
    assert_ne!(child.start, normal.start);
    assert_eq!(format!("{:?}", child.rules), format!("{:?}", normal.rules));
    assert_eq!(child.rules.stalemate, Verdict::Draw);
    assert_eq!(child.rules.repetition, Repetition::Draw(3));
    assert_eq!(child.shape, normal.shape);
    assert_eq!(format!("{:?}", child.castling), format!("{:?}", normal.castling));
    // The XBoard door's section is inherited key by key too: the child says XBoard does not know
    // the game (normal.toml says it does).
    assert!(XboardInfo::of(&normal).builtin);
    assert!(!XboardInfo::of(&child).builtin);
    let files: Vec<&str> = DefinitionSource::of(&child)
        .chain()
        .iter()
        .map(|s| s.file.as_str())
        .collect();
    assert_eq!(files, ["normal.toml", file.display().to_string().as_str()]);
}

#[test]
fn wildcastle_and_crazyhouse_inherit_normal() {
    let registry = fairybridge::protocol::builtin_games();
    let normal = registry.get("normal").expect("normal");
    for name in ["wildcastle", "crazyhouse"] {
        let v = registry.get(name).expect(name);
        let chain: Vec<&str> = DefinitionSource::of(&v)
            .chain()
            .iter()
            .map(|s| s.file.as_str())
            .collect();
        assert_eq!(chain, ["normal.toml", &format!("{name}.toml")]);
        assert_eq!(v.shape, normal.shape);
        // XBoard knows both games: normal's `builtin = true`.
        assert!(XboardInfo::of(&v).builtin, "{name}");
        assert_eq!(v.castling.as_ref().map(|c| c.king_steps.clone()), Some(vec![2]));
    }
    let wild = registry.get("wildcastle").expect("wildcastle");
    assert_eq!(format!("{:?}", wild.pieces), format!("{:?}", normal.pieces));
    assert_eq!(wild.castling.as_ref().map(|c| c.king_files.clone()), Some(vec![3, 4]));
    assert!(wild.shuffle.is_some() && normal.shuffle.is_none());
    assert_eq!(zillions::game_name(&wild), "Wild Castle");
    let house = registry.get("crazyhouse").expect("crazyhouse");
    // Normal's six pieces first (the pawn with its drop ranks), then the four promoted ones.
    let letters: String = house.pieces.iter().map(|p| p.letter).collect();
    assert_eq!(letters, "PNBRQKQRBN");
    let pawn_drops = house.pieces[0].drop.as_ref().map(|d| d.ranks.clone());
    assert_eq!(pawn_drops, Some(vec![1, 2, 3, 4, 5, 6]));
    assert_eq!(house.pieces[0].betza, normal.pieces[0].betza);
    assert!(!house.rules.insufficient_material && normal.rules.insufficient_material);
    assert!(house.captures_to_hand && !normal.captures_to_hand);
}

#[test]
fn a_bad_key_of_the_child_is_named_at_the_childs_line() {
    let file = example("bad/inherited-bad-child-key.toml").display().to_string();
    let errors = cli_errors(&[&file]);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].starts_with(&format!("fairybridge: {file}:7: piece N: ")),
        "{errors:?}"
    );
    assert!(errors[0].contains("\"Nk\""), "{errors:?}");
}

#[test]
fn a_bad_key_inherited_from_the_parent_is_named_at_the_parents_file_and_line() {
    let file = example("bad/inherited-bad-parent-key.toml").display().to_string();
    let errors = cli_errors(&[&file]);
    assert_eq!(errors.len(), 1, "{errors:?}");
    let line = normal_line_containing("promotion = { ranks = [8]");
    assert_eq!(
        errors[0],
        format!("fairybridge: normal.toml:{line}: rank 8 is not on a board with 6 ranks (inherited by {file})")
    );
}

#[test]
fn a_parent_with_a_mistake_keeps_its_child_out_with_both_errors_at_their_lines() {
    let mut registry = fairybridge::protocol::builtin_games();
    let loaded = registry.load_dir(&example("bad/broken-parent"));
    assert!(loaded.variants.is_empty());
    let parent = example("bad/broken-parent/parent.toml").display().to_string();
    let child = example("bad/broken-parent/child.toml").display().to_string();
    let lines: Vec<String> = loaded.errors.iter().map(DefinitionError::to_string).collect();
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(
        lines[0].starts_with(&format!("{parent}:6: unknown field `stalemat`")),
        "{lines:?}"
    );
    assert_eq!(
        lines[1],
        format!("{child}:4: inherit = \"broken-parent\": the parent's definition {parent} could not be loaded")
    );
    assert!(registry.get("broken-parent-child").is_none());
}

#[test]
fn an_unknown_parent_is_an_error_at_the_inherit_line() {
    let file = example("bad/unknown-parent.toml").display().to_string();
    let errors = cli_errors(&[&file]);
    assert_eq!(errors.len(), 1, "{errors:?}");
    let want = format!(
        "fairybridge: {file}:4: inherit = \"no-such-game\": no variant of that name is loaded (known: normal, "
    );
    assert!(errors[0].starts_with(&want), "{errors:?}");
    assert!(
        errors[0].ends_with("a parent's definition must be loaded before its child's"),
        "{errors:?}"
    );
}

#[test]
fn a_parent_must_be_loaded_before_its_child_or_with_it() {
    let child = example("inherit/child.toml");
    let parent = example("inherit/parent.toml");
    // One by one: the child first is refused; after its parent it loads.
    let mut registry = fairybridge::protocol::builtin_games();
    let e = registry.load_file(&child).expect_err("its parent is not loaded yet");
    assert_eq!(e.line, Some(5), "{e}");
    assert!(
        e.message
            .contains("\"inherit-parent\": no variant of that name is loaded"),
        "{e}"
    );
    registry.load_file(&parent).unwrap_or_else(|e| panic!("{e}"));
    let loaded_child = registry.load_file(&child).unwrap_or_else(|e| panic!("{e}"));
    // As a set (the folder lists child.toml first): the parent is loaded first.
    let mut registry = fairybridge::protocol::builtin_games();
    let loaded = registry.load_dir(&example("inherit"));
    assert!(loaded.errors.is_empty(), "{:?}", loaded.errors);
    let names: Vec<&str> = loaded.variants.iter().map(|v| v.name.as_str()).collect();
    assert_eq!(names, ["inherit-parent", "inherit-child"]);
    // Three generations: normal's pieces and rules, the parent's move rule, the child's bishop.
    let v = registry.get("inherit-child").expect("child");
    assert_eq!(v.rules.move_rule, Some(50));
    assert_eq!(v.pieces[2].letter, 'B');
    assert_eq!(
        (v.pieces[2].betza.as_str(), v.pieces[2].name.as_str()),
        ("BW", "Bishop")
    );
    assert_eq!(format!("{:?}", v.pieces), format!("{:?}", loaded_child.pieces));
    let files: Vec<&str> = DefinitionSource::of(&v)
        .chain()
        .iter()
        .map(|s| s.file.as_str())
        .collect();
    assert_eq!(files[0], "normal.toml");
    assert_eq!(files.len(), 3);
    // The command line reads its files as one set too: child first works.
    let (c, p) = (child.display().to_string(), parent.display().to_string());
    let o = run(&[
        "--variants",
        &c,
        "--variants",
        &p,
        "perft",
        "--variant",
        "inherit-child",
        "--depth",
        "3",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // More than orthodox chess's 8902 at depth 3: a bishop (BW) steps onto c2 after 1. c3.
    let nodes: u64 = stdout(&o)
        .lines()
        .last()
        .and_then(|l| l.strip_prefix("nodes "))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{}", stdout(&o)));
    assert!(nodes > 8902, "{nodes}");
}

#[test]
fn a_cycle_of_inherit_is_an_error_naming_its_files() {
    let mut registry = fairybridge::protocol::builtin_games();
    let loaded = registry.load_dir(&example("bad/cycle"));
    assert!(loaded.variants.is_empty());
    let first = example("bad/cycle/first.toml").display().to_string();
    let second = example("bad/cycle/second.toml").display().to_string();
    let lines: Vec<String> = loaded.errors.iter().map(DefinitionError::to_string).collect();
    assert_eq!(
        lines,
        [
            format!(
                "{second}:3: inherit = \"cycle-first\": a cycle of inherit: cycle-first ({first}) -> cycle-second ({second}) -> cycle-first ({first})"
            ),
            format!("{first}:3: inherit = \"cycle-second\": the parent's definition {second} could not be loaded"),
        ]
    );
    // On the command line: exit 2, the same two lines.
    let dir = example("bad/cycle").display().to_string();
    let errors = cli_errors(&[&dir]);
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert!(errors.iter().all(|e| e.starts_with("fairybridge: ")), "{errors:?}");
    assert!(errors[0].contains("a cycle of inherit"), "{errors:?}");
}
