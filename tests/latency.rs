//! A slow GUI (XBoard charges some 75-165 ms a move on top of the engine's thinking, enough to
//! flag an engine that ignores it in sudden-death games): a scripted GUI that charges the engine every millisecond
//! from its `usermove` to the engine's `move`, plus 120 ms, and reports the clock with `time`
//! as XBoard does. The engine learns the overhead from those reports and must never flag.

mod common;

use std::time::{Duration, Instant};

use common::{EngineProcess, LINE_TIMEOUT, XorShift, is_thinking};
use fairybridge::core::Position;
use fairybridge::notation::Coords;
use fairybridge::notation::movetext::parse_move;
use fairybridge::protocol::xboard::variant_info::wire;

/// What the GUI adds to the engine's clock on every move, beyond the time the move took.
const CHARGED_MS: i64 = 120;
/// Sudden death: the whole game in this many ms.
const CLOCK_MS: i64 = 10_000;
/// Moves the engine must play on that one clock.
const ENGINE_MOVES: usize = 50;

struct SlowGui {
    engine: EngineProcess,
    seen: Vec<String>,
    ping: u32,
}

impl SlowGui {
    fn send(&mut self, line: &str) {
        self.seen.push(format!("> {line}"));
        self.engine.send(line);
    }

    fn line(&mut self, what: &str) -> String {
        let Some(l) = self.engine.next_line_before(Instant::now() + LINE_TIMEOUT) else {
            panic!("expected {what}, got nothing\n{}", self.tail())
        };
        self.seen.push(format!("< {l}"));
        l
    }

    fn sync(&mut self) {
        self.ping += 1;
        let pong = format!("pong {}", self.ping);
        self.send(&format!("ping {}", self.ping));
        while self.line("pong") != pong {}
    }

    fn tail(&self) -> String {
        let from = self.seen.len().saturating_sub(40);
        self.seen[from..].join("\n")
    }
}

#[test]
fn a_gui_that_charges_120_ms_a_move_never_flags_the_engine() {
    let variant = fairybridge::protocol::builtin_games().get("normal").expect("normal");
    let mut gui = SlowGui {
        engine: EngineProcess::start(&[], false),
        seen: Vec::new(),
        ping: 0,
    };
    gui.send("xboard");
    gui.send("protover 2");
    while !gui.line("features").contains("done=1") {}
    let mut rng = XorShift::new(15);
    let mut clock_ms = CLOCK_MS;
    let mut pos = Position::start(&variant);
    let mut games = 1;
    gui.send("new");
    gui.send("level 0 0:10 0");
    gui.send("post");
    gui.sync();
    let mut played = 0;
    while played < ENGINE_MOVES {
        if pos.outcome().is_some() {
            // A game over by rule: the GUI goes on with a new one, on the same clock.
            gui.send("new");
            gui.send("level 0 0:10 0");
            gui.sync();
            pos = Position::start(&variant);
            games += 1;
            continue;
        }
        // The opponent (the GUI's side, White) plays a random legal move.
        let list = pos.legal_moves();
        let ours = list.0[rng.below(list.len())];
        let text = wire(&pos, &ours);
        pos.make(ours);
        gui.send(&format!("time {}", clock_ms / 10));
        gui.send("otim 100000");
        gui.send(&format!("usermove {text}"));
        let sent = Instant::now();
        if pos.outcome().is_some() {
            continue;
        }
        let reply = loop {
            let l = gui.line("the engine's move");
            if let Some(mv) = l.strip_prefix("move ") {
                break mv.to_string();
            }
            assert!(
                is_thinking(&l) || l.starts_with("hint"),
                "unexpected {l:?}\n{}",
                gui.tail()
            );
        };
        let took = i64::try_from(sent.elapsed().as_millis()).expect("ms");
        clock_ms -= took + CHARGED_MS;
        played += 1;
        assert!(
            clock_ms > 0,
            "the engine lost on time on its move {played} (game {games}): it took {took} ms, the GUI charged \
             {CHARGED_MS} ms more\n{}",
            gui.tail()
        );
        let mv = parse_move(&pos, &reply, Coords::Wire)
            .unwrap_or_else(|e| panic!("illegal engine move {reply:?}: {e:?}\n{}", gui.tail()));
        pos.make(mv);
    }
    eprintln!("{played} engine moves in {games} game(s), {clock_ms} ms left of {CLOCK_MS}");
    gui.engine.close_input_with_quit();
    assert!(
        gui.engine
            .wait_for_exit(Duration::from_secs(5))
            .is_some_and(|s| s.success())
    );
}
