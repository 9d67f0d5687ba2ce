//! Pondering over the wire: the engine never plays on after the opponent's reply ended the game.
//!
//! Regression (src/protocol/xboard/session.rs `start_pondering`): the engine pondered on a predicted
//! reply that repeated the position a third time, and on the ponder hit kept searching and sent a
//! move instead of claiming the draw (the search does not judge its root). Real XBoard logged it as
//! "Ignoring extra move" after a repetition draw in a Wild Castle self-play match.

mod common;

use std::time::Instant;

use fairybridge::core::MoveKind;
use fairybridge::notation::Coords;
use fairybridge::notation::movetext::{parse_move, wire};

use common::{EngineProcess, LINE_TIMEOUT, builtin, is_thinking, position};

/// The engine with the non-thinking lines it has sent.
struct Engine {
    process: EngineProcess,
    seen: Vec<String>,
}

impl Engine {
    fn send(&mut self, line: &str) {
        self.seen.push(format!("> {line}"));
        self.process.send(line);
    }

    /// The next line other than thinking output.
    fn next(&mut self, what: &str) -> String {
        let deadline = Instant::now() + LINE_TIMEOUT;
        loop {
            let Some(line) = self.process.next_line_before(deadline) else {
                panic!("expected {what}, got nothing\n{}", self.seen.join("\n"));
            };
            if is_thinking(&line) {
                continue;
            }
            self.seen.push(format!("< {line}"));
            return line;
        }
    }
}

impl Engine {
    fn start(fen_text: &str, moves: &[&str]) -> Engine {
        let mut e = Engine {
            process: EngineProcess::start(&[], false),
            seen: Vec::new(),
        };
        for line in ["xboard", "protover 2", "new", "force"] {
            e.send(line);
        }
        e.send(&format!("setboard {fen_text}"));
        for m in moves {
            e.send(&format!("usermove {m}"));
        }
        e.send("hard");
        e.send("st 1");
        e.send("go");
        e
    }

    /// The engine's move, and the hint it sends with it if it ponders.
    fn move_and_hint(&mut self) -> (String, Option<String>) {
        let our_move = loop {
            let line = self.next("the engine's move");
            if let Some(m) = line.strip_prefix("move ") {
                break m.to_string();
            }
        };
        // Whatever the engine sends right after its move comes before the pong.
        self.send("ping 1");
        let mut hint = None;
        loop {
            let line = self.next("pong 1");
            if line == "pong 1" {
                return (our_move, hint);
            }
            if let Some(h) = line.strip_prefix("Hint: ") {
                hint = Some(h.to_string());
            }
        }
    }

    /// After `reply`, which ends the game, the engine claims the result and sends no move.
    fn claims_after(&mut self, reply: &str, why: &str) {
        self.send(&format!("usermove {reply}"));
        let answer = self.next("the claim");
        assert!(
            answer.starts_with("1/2-1/2 {"),
            "after {reply} the game is drawn by {why}; the engine sent {answer:?}\n{}",
            self.seen.join("\n")
        );
        self.send("ping 2");
        assert_eq!(self.next("pong 2"), "pong 2", "{}", self.seen.join("\n"));
    }
}

/// Perpetual check: the engine (White, a queen down and more) repeats with Qg5+, and Black's only
/// reply Kh8 repeats the position a third time. The engine ponders on exactly that reply.
#[test]
fn after_a_reply_that_repeats_the_position_a_third_time_the_engine_claims_and_does_not_move() {
    let fen_text = "q4r1k/r4p1p/8/6Q1/8/8/8/1K6 w - - 0 1";
    let history = ["g5f6", "h8g8", "f6g5", "g8h8", "g5f6", "h8g8"];
    let mut e = Engine::start(fen_text, &history);
    let (our_move, hint) = e.move_and_hint();
    assert_eq!(our_move, "f6g5", "the perpetual check\n{}", e.seen.join("\n"));
    e.claims_after("g8h8", "threefold repetition");
    assert_eq!(
        hint.as_deref(),
        None,
        "no pondering on a drawn position\n{}",
        e.seen.join("\n")
    );
}

/// White (the engine) moves with the fifty-move count at 98: any quiet Black reply makes it 100,
/// a draw. Whether the engine ponders on its predicted reply or not, after that reply it must claim
/// the draw and send no move.
#[test]
fn after_a_reply_that_draws_by_the_move_rule_the_engine_claims_and_does_not_move() {
    let fen_text = "8/8/3k4/8/8/8/1R6/4K3 w - - 98 80";
    let mut e = Engine::start(fen_text, &[]);
    let (our_move, hint) = e.move_and_hint();
    // The reply: the predicted one if there is one, else any quiet Black move.
    let mut pos = position(&builtin("normal"), fen_text);
    let ours = parse_move(&mut pos, &our_move, Coords::Wire).expect("the engine's move is legal");
    pos.make(ours);
    assert_eq!(pos.halfmove_clock(), 99, "{}", e.seen.join("\n"));
    let reply = match hint {
        Some(h) => h,
        None => {
            let legal = pos.legal_moves();
            let quiet = legal
                .iter()
                .find(|m| m.kind == MoveKind::Normal && pos.piece_at(m.to).is_none())
                .expect("Black has a quiet move");
            wire(&pos, quiet)
        }
    };
    let replied = parse_move(&mut pos, &reply, Coords::Wire).expect("the reply is legal");
    assert!(pos.piece_at(replied.to).is_none(), "the reply {reply} captures");
    e.claims_after(&reply, "the fifty-move rule");
}
