//! Pondering over the wire: the engine never plays on after the opponent's reply ended the game.
//!
//! The engine does not ponder on a predicted reply that ends the game (src/protocol/xboard/session.rs
//! `start_pondering`), such as one that repeats the position a third time: on the ponder hit it
//! would keep searching and send a move instead of claiming the draw (the search does not judge
//! its root), which XBoard logs as "Ignoring extra move".

mod common;

use fairybridge::core::MoveKind;
use fairybridge::notation::Coords;
use fairybridge::notation::movetext::parse_move;
use fairybridge::protocol::xboard::variant_info::wire;

use common::{Conversation, builtin, position};

/// An engine set up at `fen_text` after `moves`, pondering, thinking on its move.
fn start(fen_text: &str, moves: &[&str]) -> Conversation {
    let mut e = Conversation::start();
    e.send("new");
    e.send("force");
    e.send(&format!("setboard {fen_text}"));
    for m in moves {
        e.send(&format!("usermove {m}"));
    }
    e.send("hard");
    e.send("st 1");
    e.send("go");
    e
}

/// The engine's move, and the hint it sends with it if it ponders (before the pong).
fn move_and_hint(e: &mut Conversation) -> (String, Option<String>) {
    let line = e.expect("the engine's move", |l| l.starts_with("move "));
    let our_move = line.trim_start_matches("move ").to_string();
    let hint = e
        .sync(1)
        .iter()
        .find_map(|l| l.strip_prefix("Hint: ").map(str::to_string));
    (our_move, hint)
}

/// After `reply`, which ends the game, the engine claims the result and sends no move.
fn claims_after(e: &mut Conversation, reply: &str, why: &str) {
    e.send(&format!("usermove {reply}"));
    let answer = e.next_reply("the claim");
    assert!(
        answer.starts_with("1/2-1/2 {"),
        "after {reply} the game is drawn by {why}; the engine sent {answer:?}\n{}",
        e.transcript()
    );
    let after = e.sync(2);
    assert!(
        after.is_empty(),
        "nothing after the claim: {after:?}\n{}",
        e.transcript()
    );
}

/// Perpetual check: the engine (White, a queen down and more) repeats with Qg5+, and Black's only
/// reply Kh8 repeats the position a third time. The engine ponders on exactly that reply.
#[test]
fn after_a_reply_that_repeats_the_position_a_third_time_the_engine_claims_and_does_not_move() {
    let fen_text = "q4r1k/r4p1p/8/6Q1/8/8/8/1K6 w - - 0 1";
    let history = ["g5f6", "h8g8", "f6g5", "g8h8", "g5f6", "h8g8"];
    let mut e = start(fen_text, &history);
    let (our_move, hint) = move_and_hint(&mut e);
    assert_eq!(our_move, "f6g5", "the perpetual check\n{}", e.transcript());
    claims_after(&mut e, "g8h8", "threefold repetition");
    assert_eq!(
        hint.as_deref(),
        None,
        "no pondering on a drawn position\n{}",
        e.transcript()
    );
}

/// White (the engine) moves with the fifty-move count at 98: any quiet Black reply makes it 100,
/// a draw. Whether the engine ponders on its predicted reply or not, after that reply it must claim
/// the draw and send no move.
#[test]
fn after_a_reply_that_draws_by_the_move_rule_the_engine_claims_and_does_not_move() {
    let fen_text = "8/8/3k4/8/8/8/1R6/4K3 w - - 98 80";
    let mut e = start(fen_text, &[]);
    let (our_move, hint) = move_and_hint(&mut e);
    // The reply: the predicted one if there is one, else any quiet Black move.
    let mut pos = position(&builtin("normal"), fen_text);
    let ours = parse_move(&pos, &our_move, Coords::Wire).expect("the engine's move is legal");
    pos.make(ours);
    assert_eq!(pos.halfmove_clock(), 99, "{}", e.transcript());
    let reply = match hint {
        Some(h) => h,
        None => {
            let legal = pos.legal_moves();
            let quiet = legal
                .iter()
                .find(|m| m.kind() == MoveKind::Normal && pos.piece_at(m.to()).is_none())
                .expect("Black has a quiet move");
            wire(&pos, quiet)
        }
    };
    let replied = parse_move(&pos, &reply, Coords::Wire).expect("the reply is legal");
    assert!(pos.piece_at(replied.to()).is_none(), "the reply {reply} captures");
    claims_after(&mut e, &reply, "the fifty-move rule");
}

/// The depth field of a thinking line (`DEPTH SCORE TIME NODES PV`), read from the transcript.
fn thinking_depth(line: &str) -> Option<u32> {
    let text = line.strip_prefix("< ")?;
    let mut fields = text.split_whitespace();
    let depth = fields.next()?.parse().ok()?;
    fields.next()?.parse::<i32>().ok()?;
    Some(depth)
}

/// `sd` bounds every search: pondering, and the ponder hit's search that plays the move (a
/// handicap of `sd 2` must not turn into a full search whenever the engine guesses right).
#[test]
fn under_a_depth_limit_neither_pondering_nor_a_ponder_hit_searches_deeper() {
    let mut e = Conversation::start();
    for line in ["new", "hard", "post", "level 0 10 0", "sd 2", "usermove e2e4"] {
        e.send(line);
    }
    e.expect("the engine's move", |l| l.starts_with("move "));
    let hint = e.expect("its hint", |l| l.starts_with("Hint: "));
    let predicted = hint.trim_start_matches("Hint: ").to_string();
    // Some time to ponder: without the limit it is many plies deep by now.
    std::thread::sleep(std::time::Duration::from_millis(300));
    e.send(&format!("usermove {predicted}"));
    e.expect("the engine's move after the ponder hit", |l| l.starts_with("move "));
    e.sync(1);
    let transcript = e.transcript();
    let depths: Vec<u32> = transcript.lines().filter_map(thinking_depth).collect();
    assert!(!depths.is_empty(), "no thinking output\n{transcript}");
    assert!(
        depths.iter().all(|&d| d <= 2),
        "a search deeper than sd 2: depths {depths:?}\n{transcript}"
    );
}
