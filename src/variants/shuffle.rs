//! Shuffled start positions (Wild Castle): every arrangement a `ShuffleRule` allows, and a seeded
//! choice among them.

use crate::core::variant::{ShuffleRule, Variant};
use crate::core::zobrist::splitmix64;
use crate::notation::fen;

/// Every distinct back rank the rule allows, sorted, as strings of upper-case letters.
pub fn arrangements(rule: &ShuffleRule) -> Vec<String> {
    let rank: Vec<char> = rule.rank.chars().collect();
    let blanks: Vec<usize> = rank
        .iter()
        .enumerate()
        .filter(|(_, c)| **c == '.')
        .map(|(i, _)| i)
        .collect();
    let mut pieces: Vec<char> = rule.pieces.chars().collect();
    pieces.sort_unstable();
    let mut out = Vec::new();
    permute(&mut pieces, 0, &mut |perm| {
        let mut r = rank.clone();
        for (&i, &p) in blanks.iter().zip(perm) {
            r[i] = p;
        }
        let ok = rule.opposite_colors.chars().all(|c| {
            // Pieces that must be on opposite colours: one on light and one on dark squares
            // (file parity on the first rank: a1 is dark, so even files are dark).
            let colours: Vec<usize> = r
                .iter()
                .enumerate()
                .filter(|(_, x)| **x == c)
                .map(|(i, _)| i % 2)
                .collect();
            colours.len() != 2 || colours[0] != colours[1]
        });
        if ok {
            out.push(r.into_iter().collect::<String>());
        }
    });
    out.sort();
    out.dedup();
    out
}

fn permute(items: &mut Vec<char>, k: usize, visit: &mut impl FnMut(&[char])) {
    if k == items.len() {
        visit(items);
        return;
    }
    for i in k..items.len() {
        items.swap(k, i);
        permute(items, k + 1, visit);
        items.swap(k, i);
    }
}

/// The start FEN for `rank` (White's first rank; Black copies it file for file).
pub fn start_fen(variant: &Variant, rank: &str) -> String {
    let files = variant.shape.files as usize;
    let ranks = variant.shape.ranks as usize;
    let start = fen::start_fen(variant);
    let pawns = start.split('/').nth(1).unwrap_or("").to_string();
    let mut rows = vec![rank.to_ascii_lowercase(), pawns.clone()];
    rows.extend(std::iter::repeat_n(files.to_string(), ranks.saturating_sub(4)));
    rows.push(pawns.to_ascii_uppercase());
    rows.push(rank.to_string());
    format!("{} w KQkq - 0 1", rows.join("/"))
}

/// A shuffled start position chosen by `seed`, or the fixed start if the variant has no shuffle.
pub fn random_start(variant: &Variant, seed: u64) -> String {
    let Some(rule) = &variant.shuffle else {
        return fen::start_fen(variant);
    };
    let all = arrangements(rule);
    start_fen(variant, &all[pick(seed, all.len())])
}

/// Which of `count` starts `seed` chooses (`count` > 0): as [`random_start`] chooses its
/// arrangement.
pub fn pick(seed: u64, count: usize) -> usize {
    let mut s = seed;
    (splitmix64(&mut s) % count as u64) as usize
}
