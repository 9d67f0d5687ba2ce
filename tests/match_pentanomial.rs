//! The pentanomial statistics against an independent computation: `tests/support/
//! pentanomial_llr.py` works the normalized-Elo SPRT out from the published formulas (plain
//! Python, bisection) — the pair counts of a game list, and the log-likelihood ratio — and the
//! Rust side must agree, edge cases included (no draws, all pairs equal, an unfinished pair).

use std::io::Write;
use std::process::{Command, Stdio};

use fairybridge::core::GameResult;
use fairybridge::tournament::pentanomial::{Pentanomial, llr};
use fairybridge::tournament::report::{Standings, render};
use fairybridge::tournament::results::ScoredGame;
use fairybridge::tournament::stats::{Score, Sprt, SprtModel, SprtVerdict};

/// Runs the reference script on `input`, one answer line per input line.
fn reference(input: &str) -> Vec<String> {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/support/pentanomial_llr.py");
    let mut child = Command::new("python3")
        .arg(script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("python3 is needed (scripts/install-deps.sh installs it): {e}"));
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "reference script failed");
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

fn assert_close(got: f64, want: f64, what: &str) {
    assert!(
        (got - want).abs() <= 1e-7 * want.abs().max(1.0),
        "{what}: got {got}, reference {want}"
    );
}

#[test]
fn llr_matches_the_reference_computation() {
    let cases: &[([u32; 5], f64, f64)] = &[
        // Realistic fishtest-sized samples.
        ([461, 4864, 10391, 5264, 470], -1.75, 0.25),
        ([461, 4864, 10391, 5264, 470], 0.0, 2.0),
        ([10, 40, 100, 45, 12], 0.0, 5.0),
        ([120, 300, 500, 260, 90], 0.0, 5.0),
        ([3, 9, 20, 12, 6], -3.0, 1.0),
        // No draws: only LL, WL and WW pairs.
        ([30, 0, 55, 0, 41], 0.0, 5.0),
        // All pairs equal.
        ([0, 0, 50, 0, 0], 0.0, 5.0),
        ([0, 0, 0, 0, 20], 0.0, 5.0),
        ([7, 0, 0, 0, 0], 0.0, 5.0),
        // Few pairs, gaps.
        ([0, 30, 0, 40, 0], 0.0, 2.0),
        ([0, 0, 1, 0, 0], 0.0, 5.0),
        ([1, 0, 0, 0, 1], 0.0, 10.0),
        // No complete pair: no data.
        ([0, 0, 0, 0, 0], 0.0, 5.0),
    ];
    let input: String = cases
        .iter()
        .map(|(c, e0, e1)| format!("counts {} {} {} {} {} {e0} {e1}\n", c[0], c[1], c[2], c[3], c[4]))
        .collect();
    let answers = reference(&input);
    assert_eq!(answers.len(), cases.len());
    for ((counts, e0, e1), answer) in cases.iter().zip(&answers) {
        let want: f64 = answer.parse().unwrap();
        let got = llr(&Pentanomial(*counts), *e0, *e1);
        assert_close(got, want, &format!("{counts:?} [{e0}, {e1}]"));
    }
    // The realistic sample crosses the upper bound; all-equal pairs lean to H0; no data is 0.
    let sprt = Sprt::new(-1.75, 0.25, 0.05, 0.05)
        .unwrap()
        .with_model(SprtModel::Pentanomial);
    let st = sprt.status_of(&Score::default(), &Pentanomial([461, 4864, 10391, 5264, 470]));
    assert_eq!(st.verdict, SprtVerdict::AcceptH1, "{st}");
    let first: f64 = answers[0].parse().unwrap();
    assert!(first > 2.95, "{first}");
    assert_eq!(answers.last().map(String::as_str), Some("0.0"));
}

/// Games `(pair, first engine's result)`, the first engine White in the pair's first game.
fn games(list: &[(Option<u32>, char)]) -> Vec<ScoredGame> {
    let mut seen = std::collections::HashMap::new();
    list.iter()
        .enumerate()
        .map(|(i, &(pair, r))| {
            let second_of_pair = pair.is_some_and(|p| seen.insert(p, ()).is_some());
            let (white, black) = if second_of_pair { (1, 0) } else { (0, 1) };
            let first_is_white = white == 0;
            let outcome = match (r, first_is_white) {
                ('d', _) => GameResult::Draw,
                ('w', true) | ('l', false) => GameResult::WhiteWins,
                _ => GameResult::BlackWins,
            };
            ScoredGame {
                number: i as u32 + 1,
                pair,
                white,
                black,
                result: outcome,
                forfeit: false,
            }
        })
        .collect()
}

#[test]
fn pair_counts_from_games_match_the_reference() {
    let lists: &[&[(Option<u32>, char)]] = &[
        // An unfinished pair (7: one game), a lone unpaired game, pairs finishing out of order.
        &[
            (Some(0), 'w'),
            (Some(1), 'd'),
            (Some(0), 'l'),
            (Some(1), 'w'),
            (Some(2), 'w'),
            (Some(2), 'w'),
            (Some(7), 'l'),
            (None, 'w'),
            (Some(3), 'd'),
            (Some(3), 'd'),
            (Some(4), 'l'),
            (Some(4), 'd'),
        ],
        // No draws.
        &[
            (Some(0), 'w'),
            (Some(0), 'w'),
            (Some(1), 'w'),
            (Some(1), 'l'),
            (Some(2), 'l'),
            (Some(2), 'l'),
            (Some(3), 'w'),
            (Some(3), 'l'),
        ],
        // Only an unfinished pair.
        &[(Some(5), 'w')],
    ];
    let mut input = String::new();
    for list in lists {
        input.push_str("games 0 5");
        for (pair, r) in *list {
            // The reference needs a pair name for every game; unpaired games get their own.
            let name = pair.map_or(format!("single{}", input.len()), |p| p.to_string());
            input.push_str(&format!(" {name}:{r}"));
        }
        input.push('\n');
    }
    for (list, answer) in lists.iter().zip(reference(&input)) {
        let words: Vec<&str> = answer.split_whitespace().collect();
        let want_counts: Vec<u32> = words[..5].iter().map(|w| w.parse().unwrap()).collect();
        let want_llr: f64 = words[5].parse().unwrap();
        let mut st = Standings::new(vec!["A".into(), "B".into()]);
        st.paired = true;
        let results = games(list);
        // The order games finish in does not matter.
        for g in results.iter().rev() {
            st.add(g);
        }
        assert_eq!(st.pairs[0].ptnml.0.to_vec(), want_counts, "{list:?}");
        assert_close(llr(&st.pairs[0].ptnml, 0.0, 5.0), want_llr, &format!("{list:?}"));
        let games_counted = st.pairs[0].score.games();
        assert_eq!(games_counted, list.len() as u64, "every game counts in W/D/L");
    }
}

#[test]
fn report_shows_pairs_and_the_chosen_model() {
    let mut st = Standings::new(vec!["New".into(), "Old".into()]);
    st.paired = true;
    st.pairs[0].score = Score::new(50, 20, 30);
    st.pairs[0].ptnml = Pentanomial([10, 40, 100, 45, 12]);
    let penta = Sprt::new(0.0, 5.0, 0.05, 0.05)
        .unwrap()
        .with_model(SprtModel::Pentanomial);
    let text = render(&st, Some(&penta));
    assert!(text.contains("Ptnml(0-2): [10, 40, 100, 45, 12]"), "{text}");
    let want: f64 = reference("counts 10 40 100 45 12 0 5\n")[0].parse().unwrap();
    assert!(text.contains(&format!("SPRT: llr {want:.2}, lbound -2.94")), "{text}");
    assert!(
        text.contains("SPRT (pentanomial, normalized Elo): elo0=0 elo1=5"),
        "{text}"
    );
    // The trinomial model keeps cutechess's number for the same W/D/L (0.3507437359257992).
    let tri = penta.with_model(SprtModel::Trinomial);
    let text = render(&st, Some(&tri));
    assert!(text.contains("SPRT: llr 0.35, lbound -2.94, ubound 2.94"), "{text}");
}
