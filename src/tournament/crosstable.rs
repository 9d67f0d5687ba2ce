//! The crosstable of a tournament of three or more engines: the points each engine (row) scored
//! against each other one (column), out of the games they played; `-` on the diagonal, blank where
//! two engines do not meet (a gauntlet).

use std::fmt::Write;

use super::report::Standings;

/// One cell: `points/games` of `row` against `column`, `None` if they have no pairing.
fn cell(st: &Standings, row: usize, column: usize) -> Option<String> {
    let p = st
        .pairs
        .iter()
        .find(|p| (p.first, p.second) == (row, column) || (p.first, p.second) == (column, row))?;
    let s = p.score;
    let wins = if p.first == row { s.wins } else { s.losses };
    let points = f64::from(wins) + 0.5 * f64::from(s.draws);
    Some(format!("{points:.1}/{}", s.games()))
}

/// The table, engines in the order given (the report passes its ranking order).
pub fn crosstable(st: &Standings, order: &[usize]) -> String {
    const TITLE: &str = "Crosstable";
    let name_width = order
        .iter()
        .map(|&e| st.names[e].len())
        .max()
        .unwrap_or(0)
        .max(TITLE.len());
    let width = order
        .iter()
        .flat_map(|&r| order.iter().filter_map(move |&c| cell(st, r, c)))
        .map(|c| c.len())
        .chain(order.iter().map(|&e| st.names[e].len()))
        .max()
        .unwrap_or(1);
    let mut out = format!("{TITLE:<name_width$}");
    for &c in order {
        let _ = write!(out, "  {:>width$}", st.names[c]);
    }
    out.push('\n');
    for &r in order {
        let _ = write!(out, "{:<name_width$}", st.names[r]);
        for &c in order {
            let text = if r == c {
                "-".to_string()
            } else {
                cell(st, r, c).unwrap_or_default()
            };
            let _ = write!(out, "  {text:>width$}");
        }
        out.truncate(out.trim_end().len());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::stats::Score;

    #[test]
    fn points_from_each_side_and_blank_for_no_pairing() {
        let mut st = Standings::with_pairings(vec!["Alpha".into(), "B".into(), "C".into()], vec![(0, 1), (0, 2)]);
        st.pairs[0].score = Score::new(3, 2, 1); // Alpha vs B
        st.pairs[1].score = Score::new(0, 1, 5); // Alpha vs C
        let text = crosstable(&st, &[0, 1, 2]);
        let rows: Vec<Vec<&str>> = text.lines().map(|l| l.split_whitespace().collect()).collect();
        assert_eq!(rows[0], ["Crosstable", "Alpha", "B", "C"]);
        assert_eq!(rows[1], ["Alpha", "-", "4.0/6", "0.5/6"]);
        assert_eq!(rows[2], ["B", "2.0/6", "-"]); // B and C never meet
        assert_eq!(rows[3], ["C", "5.5/6", "-"]);
        // The blank cell keeps the columns aligned: C's "-" sits under the C header.
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[3].rfind('-'), lines[0].rfind('C'), "{text}");
    }
}
