//! The session under random input: long random sequences of commands, good and bad, in every
//! built-in game. Whatever comes in, the engine never panics, answers every `ping` in order, writes
//! only protocol lines, sends only legal moves, and still plays afterwards.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use crate::notation::{Coords, fen};
use crate::protocol::xboard::checked_session::CheckedSession;
use crate::protocol::xboard::variant_info::wire;
use crate::test_rng::Rng;

/// Panics in search threads (named `search-N`), which the session would otherwise only log.
static SEARCH_PANICS: AtomicUsize = AtomicUsize::new(0);

/// How long the harness waits for a search to end when it waits for the move: a bound against a
/// hang, far beyond the short searches the sequence sets (`sd 2`, `st 0.02`, a 1 s clock).
const SEARCH_END_BOUND: Duration = Duration::from_secs(5);

/// What the random sequence does next.
enum Step {
    Line(String),
    /// A `ping` numbered by the harness, so that the order of the answers is checked.
    Ping,
}

/// A random command; `h` gives the engine's position, so that many moves are legal.
fn random_step(rng: &mut Rng, h: &CheckedSession, variants: &[&str]) -> Step {
    let mut pos = h.session().game().position_clone();
    let valid = h.session().game().is_valid();
    let square = |rng: &mut Rng| format!("{}{}", (b'a' + rng.below(10) as u8) as char, rng.below(11));
    if h.session().editing() {
        // Edit mode takes only edit commands until `.` (XBoard sends nothing else there).
        return Step::Line(
            rng.pick(&["#", "c", "Pe4", "Ke1", "ke8", "Qd1", "xe4", "Zz9", "."])
                .to_string(),
        );
    }
    Step::Line(match rng.below(40) {
        0..=11 if valid => {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                return Step::Line("usermove e2e4".to_string());
            }
            let mv = legal.iter().nth(rng.below(legal.len())).copied();
            let text = mv.map(|m| wire(&pos, &m)).unwrap_or_default();
            if rng.below(4) == 0 {
                text
            } else {
                format!("usermove {text}")
            }
        }
        12 => format!("usermove {}{}", square(rng), square(rng)),
        13 => "usermove @@@@".to_string(),
        14 => format!("variant {}", rng.pick(variants)),
        15 => "new".to_string(),
        16 if valid => {
            // A position from a short random playout, or a damaged one.
            let legal = pos.legal_moves();
            if let Some(&mv) = legal.iter().nth(rng.below(legal.len().max(1))) {
                pos.make(mv);
            }
            let mut text = fen::to_fen(&pos, Coords::Wire);
            if rng.below(3) == 0 {
                let cut = rng.below(text.len().max(1));
                text.truncate(cut);
            }
            format!("setboard {text}")
        }
        17 => "undo".to_string(),
        18 => "remove".to_string(),
        19 => "force".to_string(),
        20 | 21 => "go".to_string(),
        22 => "playother".to_string(),
        23 => "?".to_string(),
        24 => rng
            .pick(&["sd 1", "sd 2", "st 0.02", "level 0 0:01 0", "time 50", "otim 80"])
            .to_string(),
        25 => rng
            .pick(&["hard", "easy", "post", "nopost", "random", "computer"])
            .to_string(),
        26 => rng.pick(&["analyze", "exit", ".", "hint", "bk", "draw"]).to_string(),
        27 => return Step::Ping,
        28 => rng
            .pick(&["result 1-0 {White mates}", "result *", "result 1/2-1/2"])
            .to_string(),
        29 => format!("{} {}", rng.pick(&["lift", "put", "hover"]), square(rng)),
        30 => format!("{} {}{}", rng.pick(&["exclude", "include"]), square(rng), square(rng)),
        31 => rng.pick(&["exclude all", "include all"]).to_string(),
        32 => "edit".to_string(),
        34 => "white".to_string(),
        35 => "black".to_string(),
        36 => {
            let bytes: String = (0..rng.below(12))
                .map(|_| (b' ' + rng.below(95) as u8) as char)
                .collect();
            bytes
        }
        37 => rng
            .pick(&["option Hash=1", "memory 1", "cores 2", "nps 5000", "setscore 10 2"])
            .to_string(),
        _ => "sd 1".to_string(),
    })
}

fn fuzz(seed: u64, commands: usize) {
    let registry = Arc::new(crate::protocol::builtin_games());
    let names: Vec<String> = registry.names().iter().map(|s| s.to_string()).collect();
    let mut variants: Vec<&str> = names.iter().map(String::as_str).collect();
    variants.push("no-such-game");
    let mut rng = Rng(seed);
    let mut h = CheckedSession::new(registry);
    for cmd in ["xboard", "protover 2", "memory 1", "sd 2", "st 0.02"] {
        h.line(cmd);
    }
    for _ in 0..commands {
        match random_step(&mut rng, &h, &variants) {
            Step::Line(line) => h.line(&line),
            Step::Ping => h.ping(),
        }
        // A command often comes while the engine thinks; now and then the harness waits for the
        // engine's move instead, so that moves come however slow the machine or the search's
        // threads are.
        let wait = match rng.below(3) {
            0 => Duration::ZERO,
            1 => Duration::from_millis(10),
            _ => SEARCH_END_BOUND,
        };
        h.pump(wait);
    }
    // Whatever happened, the engine still answers, and plays a legal move from a fresh start.
    if h.session().editing() {
        h.line(".");
    }
    for cmd in ["exit", "new", "sd 2", "go"] {
        h.line(cmd);
    }
    // Pumps until the move (the bound is for a hang only).
    h.pump(Duration::from_secs(60));
    h.ping();
    h.pump(Duration::from_secs(1));
    assert!(h.moved_lately(200), "no move after `new` / `go`\n{}", h.context());
    h.assert_pings_answered();
    let count = |prefix: &str| h.count_written(prefix);
    let pongs = count("pong ");
    eprintln!(
        "seed {seed:#x}: {} engine moves, {} illegal-move answers, {} errors, {} claims, {pongs} pongs, {} setup lines",
        count("move "),
        count("Illegal move"),
        count("Error"),
        count("1-0") + count("0-1") + count("1/2-1/2"),
        count("setup "),
    );
    // The sequence must have exercised the engine, or this test proves nothing.
    assert!(count("move ") >= 100 && pongs >= 20, "too little happened");
    assert_eq!(SEARCH_PANICS.load(Ordering::SeqCst), 0, "a search thread panicked");
}

fn count_search_panics() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if std::thread::current().name().is_some_and(|n| n.starts_with("search-")) {
            SEARCH_PANICS.fetch_add(1, Ordering::SeqCst);
        }
        default(info);
    }));
}

#[test]
fn random_command_sequences_never_break_the_engine() {
    count_search_panics();
    for seed in [0x5eed_0001, 0x0dd_ba11] {
        fuzz(seed, 3000);
    }
}
