//! `fairybridge bench` as OpenBench's client reads it: it runs `ENGINE bench` with no arguments
//! and takes, from the last line backwards, the first number before `nodes` and the first before
//! `nps` (after turning every other character into a space). The node count is the build's
//! signature: it must be the same on every run.

use std::process::Command;

/// OpenBench's reading of a bench output: (nodes, nps).
fn openbench_reading(output: &str) -> (Option<u64>, Option<u64>) {
    let number_before = |words: &[&str], unit: &str| {
        words
            .windows(2)
            .find(|w| w[1] == unit)
            .and_then(|w| w[0].parse::<u64>().ok())
    };
    let (mut nodes, mut nps) = (None, None);
    for line in output.lines().rev() {
        let cleaned: String = line
            .to_lowercase()
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() || c == ' ' { c } else { ' ' })
            .collect();
        let words: Vec<&str> = cleaned.split_whitespace().collect();
        nodes = nodes.or(number_before(&words, "nodes"));
        nps = nps.or(number_before(&words, "nps"));
    }
    (nodes, nps)
}

fn bench() -> (String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_fairybridge"))
        .arg("bench")
        .output()
        .expect("the engine runs");
    assert!(out.status.success(), "bench exited with {}", out.status);
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn the_reader_takes_the_last_counts() {
    assert_eq!(
        openbench_reading("x\nbench 12 nodes 34 nps\n3 positions, depth 2"),
        (Some(12), Some(34))
    );
    assert_eq!(openbench_reading("Nodes searched: 5\n"), (None, None));
    assert_eq!(openbench_reading("1 nodes 2 nps\n7 nodes 8 nps"), (Some(7), Some(8)));
}

#[test]
fn bench_gives_openbench_a_stable_node_count_and_a_speed() {
    let (stdout, stderr) = bench();
    // OpenBench reads stdout; some workers merge stderr into it: both readings must agree.
    let (nodes, nps) = openbench_reading(&stdout);
    let merged = openbench_reading(&format!("{stdout}{stderr}"));
    let merged_other_order = openbench_reading(&format!("{stderr}{stdout}"));
    assert!(nodes.is_some_and(|n| n > 10_000), "{stdout}");
    assert!(nps.is_some_and(|n| n > 0), "{stdout}");
    assert_eq!(merged.0, nodes);
    assert_eq!(merged_other_order.0, nodes);
    assert_eq!(stdout.lines().count(), 1, "one line on stdout: {stdout}");
    let (again, _) = bench();
    assert_eq!(
        openbench_reading(&again).0,
        nodes,
        "the node count is the build's signature"
    );
}
