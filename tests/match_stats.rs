//! The final table's statistics for known W/D/L counts: the Elo difference with its 95 % interval,
//! LOS, and the SPRT log-likelihood ratio and verdict — the numbers are the ones `stats.rs` is
//! tested against (cutechess-cli's formulas), checked here through the report the runner prints.

use fairybridge::tournament::report::{Standings, render};
use fairybridge::tournament::stats::{Score, Sprt};

fn standings(w: u32, d: u32, l: u32) -> Standings {
    let mut st = Standings::new(vec!["New".into(), "Old".into()]);
    st.pairs[0].score = Score::new(w, d, l);
    st
}

#[test]
fn report_for_50_20_30() {
    let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05).unwrap();
    let text = render(&standings(50, 20, 30), Some(&sprt));
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "Score of New vs Old: 50 - 30 - 20  [0.600] 100");
    assert_eq!(
        lines[1],
        "Elo difference: 70.4 +/- 62.6, LOS: 98.7 %, DrawRatio: 20.0 %"
    );
    // elo(0.6 -/+ 1.96 * sqrt(0.19) / 10) = 10.125..., 135.300...
    assert_eq!(lines[2], "Elo 95% interval: [+10.1, +135.3]");
    // cutechess_llr(50, 20, 30, 0, 5) = 0.3507437359257992
    assert_eq!(lines[3], "SPRT: llr 0.35, lbound -2.94, ubound 2.94");
    assert!(
        lines[4].contains("llr 0.351 [-2.944, 2.944] - no verdict yet"),
        "{}",
        lines[4]
    );
    let new_row = text.lines().find(|l| l.trim_start().starts_with("1 New")).unwrap();
    let cells: Vec<&str> = new_row.split_whitespace().collect();
    assert_eq!(
        cells,
        [
            "1", "New", "100", "50", "20", "30", "60.0%", "+70.4", "[+10.1,", "+135.3]", "98.7%", "0"
        ]
    );
    let old_row = text.lines().find(|l| l.trim_start().starts_with("2 Old")).unwrap();
    assert!(old_row.contains("-70.4") && old_row.contains("1.3%"), "{old_row}");
}

#[test]
fn sprt_verdicts_in_words() {
    let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05).unwrap();
    // cutechess_llr(361, 600, 250, 0, 5) = 2.951118621217711 > 2.944: H1.
    let text = render(&standings(361, 600, 250), Some(&sprt));
    assert!(
        text.contains("SPRT: llr 2.95, lbound -2.94, ubound 2.94 - H1 was accepted"),
        "{text}"
    );
    assert!(text.contains("H1 accepted: New is stronger than Old"), "{text}");
    // cutechess_llr(250, 600, 343, 0, 5) = -2.9649919163484455 < -2.944: H0.
    let text = render(&standings(250, 600, 343), Some(&sprt));
    assert!(
        text.contains("SPRT: llr -2.96, lbound -2.94, ubound 2.94 - H0 was accepted"),
        "{text}"
    );
    assert!(text.contains("H0 accepted: New is not stronger than Old"), "{text}");
    // Without --sprt there is no SPRT line.
    assert!(!render(&standings(1, 1, 1), None).contains("SPRT"));
}

#[test]
fn report_for_869_357_646_matches_cutechess_output() {
    // Real cutechess-cli output for this sample: "Elo difference: 41.6 +/- 14.2, LOS: 100.0 %".
    let text = render(&standings(869, 357, 646), None);
    assert!(
        text.contains("Score of New vs Old: 869 - 646 - 357  [0.560] 1872"),
        "{text}"
    );
    assert!(
        text.contains("Elo difference: 41.6 +/- 14.2, LOS: 100.0 %, DrawRatio: 19.1 %"),
        "{text}"
    );
}
