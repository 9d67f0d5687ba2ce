//! EXPERIMENT: knobs from the environment and counters (goes with knobs.diff as src/search/knobs.rs).
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

pub struct Knobs {
    pub noage: bool,
    pub keep: bool,
    pub refresh: bool,
    pub stats: bool,
    pub age_w: i32,
    pub noevalstore: bool,
    pub qskeep: bool,
    pub ttcuthist: bool,
    pub iirk: i32,
    pub oldpv: bool,
}

pub fn k() -> &'static Knobs {
    static K: OnceLock<Knobs> = OnceLock::new();
    K.get_or_init(|| {
        let b = |n: &str| std::env::var(n).is_ok_and(|v| v == "1");
        Knobs {
            noage: b("FB_NOAGE"),
            keep: b("FB_KEEP"),
            refresh: b("FB_REFRESH"),
            stats: b("FB_STATS"),
            age_w: std::env::var("FB_AGEW").ok().and_then(|v| v.parse().ok()).unwrap_or(8),
            noevalstore: b("FB_NOEVALSTORE"),
            qskeep: b("FB_QSKEEP"),
            ttcuthist: b("FB_TTCUTHIST"),
            oldpv: b("FB_NOOLDPV"),
            iirk: std::env::var("FB_IIRK").ok().and_then(|v| v.parse().ok()).unwrap_or(0),
        }
    })
}

pub const N: usize = 20;
pub static C: [AtomicU64; N] = [const { AtomicU64::new(0) }; N];
pub const NAMES: [&str; N] = [
    "probe", "hit_scored", "hit_old", "nonpv_hit", "cut_new", "cut_old", "shallow_new", "shallow_old",
    "wrongb_new", "wrongb_old", "hit_evalonly", "qs_probe", "qs_hit_old", "qs_cut_old", "store_over_old_deeper", "iir",
    "ttpv_nonpv", "sing_test", "sing_ext", "ttpv_old",
];
#[inline]
pub fn inc(i: usize) {
    if k().stats {
        C[i].fetch_add(1, Ordering::Relaxed);
    }
}
pub fn dump(tag: &str) {
    if !k().stats {
        return;
    }
    let s: Vec<String> = (0..N).map(|i| format!("{}={}", NAMES[i], C[i].swap(0, Ordering::Relaxed))).collect();
    eprintln!("STATS {tag} {}", s.join(" "));
}
