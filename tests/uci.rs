//! The UCI door against the built binary: first-line dispatch, options, positions, searches,
//! bad input, and the line-length bound shared with the CECP door.

mod common;

use std::time::{Duration, Instant};

use common::{EngineProcess, LINE_TIMEOUT};
use fairybridge::protocol::uci::engine_line::{EngineLine, parse_engine_line};
use fairybridge::protocol::uci::reply::Reply;

/// A UCI conversation: every line is kept for failure messages.
struct Uci {
    process: EngineProcess,
    seen: Vec<String>,
}

impl Uci {
    /// A started engine after `uci`, its `uciok` read; returns the `uci` answer too.
    fn start() -> (Uci, Vec<String>) {
        Uci::start_with(&[])
    }

    fn start_with(args: &[&str]) -> (Uci, Vec<String>) {
        let mut e = Uci {
            process: EngineProcess::start(args, false),
            seen: Vec::new(),
        };
        e.send("uci");
        let answer = e.until("uciok", |l| l == "uciok");
        (e, answer)
    }

    fn send(&mut self, line: &str) {
        self.seen.push(format!("> {line}"));
        self.process.send(line);
    }

    /// Reads lines up to and including the first that satisfies `want`; returns them all.
    fn until(&mut self, what: &str, mut want: impl FnMut(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + LINE_TIMEOUT;
        let mut got = Vec::new();
        loop {
            let Some(line) = self.process.next_line_before(deadline) else {
                panic!("expected {what}, got nothing\nconversation:\n{}", self.seen.join("\n"))
            };
            self.seen.push(format!("< {line}"));
            got.push(line.clone());
            if want(&line) {
                return got;
            }
        }
    }

    /// Sends `isready` and returns the lines before `readyok`.
    fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.until("readyok", |l| l == "readyok");
        lines.pop();
        lines
    }

    /// Waits for `bestmove` and returns its move and ponder move.
    fn best_move(&mut self) -> (String, Option<String>) {
        let lines = self.until("bestmove", |l| l.starts_with("bestmove "));
        let last = lines.last().cloned().unwrap_or_default();
        let words: Vec<&str> = last.split_whitespace().collect();
        let ponder = (words.get(2) == Some(&"ponder")).then(|| words[3].to_string());
        (words[1].to_string(), ponder)
    }

    fn transcript(&self) -> String {
        self.seen.join("\n")
    }

    fn quit(mut self) {
        self.send("quit");
        let status = self.process.wait_for_exit(Duration::from_secs(10));
        assert!(status.is_some_and(|s| s.success()), "{}", self.transcript());
    }
}

/// Plays `moves` (UCI words) from the start of `variant` in the engine: it must accept them all.
fn accepts(e: &mut Uci, moves: &str) {
    e.send(&format!("position startpos moves {moves}"));
    let lines = e.sync();
    assert!(lines.is_empty(), "{lines:?}\n{}", e.transcript());
}

#[test]
fn uci_first_line_chooses_uci_and_the_answer_is_complete() {
    let (e, answer) = Uci::start();
    assert!(answer[0].starts_with("id name fairybridge "), "{answer:?}");
    assert!(answer.iter().any(|l| l.starts_with("id author ")));
    for option in [
        "Hash",
        "Threads",
        "Ponder",
        "MultiPV",
        "Move Overhead",
        "UCI_Variant",
        "VariantPath",
        "UCI_Chess960",
    ] {
        assert!(
            answer
                .iter()
                .any(|l| l.starts_with(&format!("option name {option} type "))),
            "{option} missing: {answer:?}"
        );
    }
    let combo = answer.iter().find(|l| l.contains("name UCI_Variant")).unwrap();
    assert!(
        combo.contains("default chess var chess var wildcastle var pillage var wildrose var wreckage var crazyhouse")
    );
    e.quit();
}

#[test]
fn any_other_first_line_is_cecp_and_nothing_comes_before_it() {
    // One stdout keeps the order of what the engine writes: had it said anything before reading
    // its first line, that would be read here before the answer to `protover`.
    let mut p = EngineProcess::start(&[], false);
    p.send("xboard");
    p.send("protover 2");
    let first = p.next_line_before(Instant::now() + LINE_TIMEOUT);
    assert_eq!(
        first.as_deref(),
        Some("feature done=0"),
        "the first line the engine wrote"
    );
    // A first line that is a CECP command is carried out, not dropped.
    let mut q = EngineProcess::start(&[], false);
    q.send("ping 7");
    assert_eq!(
        q.next_line_before(Instant::now() + LINE_TIMEOUT).as_deref(),
        Some("pong 7")
    );
}

#[test]
fn plays_legal_moves_with_info_and_ponder() {
    let (mut e, _) = Uci::start();
    e.send("ucinewgame");
    e.send("position startpos moves e2e4 e7e5");
    e.send("go depth 4");
    let lines = e.until("bestmove", |l| l.starts_with("bestmove "));
    let info = lines
        .iter()
        .find(|l| l.starts_with("info depth 4 "))
        .expect("depth 4 info");
    for word in [" seldepth ", " score cp ", " nodes ", " nps ", " time ", " pv "] {
        assert!(info.contains(word), "{word} missing in {info}");
    }
    assert!(lines.iter().any(|l| l.contains(" hashfull ")), "{lines:?}");
    let last: Vec<&str> = lines.last().unwrap().split_whitespace().collect();
    assert_eq!(last[0], "bestmove");
    assert_eq!(last.get(2), Some(&"ponder"), "{last:?}");
    // Both moves are legal: the engine takes them back as a position.
    accepts(&mut e, &format!("e2e4 e7e5 {} {}", last[1], last[3]));
    e.quit();
}

#[test]
fn multipv_reports_that_many_lines_and_plays_the_first() {
    let (mut e, answer) = Uci::start();
    assert!(
        answer
            .iter()
            .any(|l| l == "option name MultiPV type spin default 1 min 1 max 64"),
        "{answer:?}"
    );
    e.send("setoption name MultiPV value 3");
    e.send("position startpos moves e2e4");
    e.send("go depth 5");
    let lines = e.until("bestmove", |l| l.starts_with("bestmove "));
    let word_after = |l: &str, w: &str| {
        let words: Vec<&str> = l.split_whitespace().collect();
        words
            .iter()
            .position(|x| *x == w)
            .and_then(|i| words.get(i + 1))
            .map(|s| s.to_string())
    };
    for depth in 1..=5 {
        let at: Vec<&String> = lines
            .iter()
            .filter(|l| l.starts_with(&format!("info depth {depth} ")) && !l.contains(" hashfull "))
            .collect();
        let numbers: Vec<String> = at.iter().filter_map(|l| word_after(l, "multipv")).collect();
        assert_eq!(numbers, ["1", "2", "3"], "depth {depth}: {at:?}");
        let firsts: std::collections::BTreeSet<String> = at.iter().filter_map(|l| word_after(l, "pv")).collect();
        assert_eq!(firsts.len(), 3, "three different first moves at depth {depth}: {at:?}");
    }
    let best_line = lines
        .iter()
        .rev()
        .find(|l| l.contains(" multipv 1 ") && l.starts_with("info depth 5 "))
        .expect("line 1 at depth 5");
    let bestmove = word_after(lines.last().unwrap(), "bestmove");
    assert_eq!(word_after(best_line, "pv"), bestmove, "{lines:?}");
    // Out-of-range values are clamped: 0 is one line again.
    e.send("setoption name MultiPV value 0");
    e.send("go depth 2");
    let lines = e.until("bestmove", |l| l.starts_with("bestmove "));
    assert!(lines.iter().all(|l| !l.contains(" multipv 2 ")), "{lines:?}");
    e.quit();
}

#[test]
fn a_mate_is_announced_and_a_finished_game_has_no_move() {
    let (mut e, _) = Uci::start();
    e.send("position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    e.send("go depth 3");
    let lines = e.until("bestmove", |l| l.starts_with("bestmove "));
    assert!(lines.iter().any(|l| l.contains("score mate 1")), "{lines:?}");
    assert_eq!(lines.last().unwrap(), "bestmove a1a8");
    // Mated: no move, as Fairy-Stockfish and python-chess expect.
    e.send("position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1 moves a1a8");
    e.send("go wtime 1000 btime 1000");
    let lines = e.until("bestmove", |l| l.starts_with("bestmove "));
    assert_eq!(lines, ["info depth 0 score mate 0", "bestmove (none)"]);
    // Stalemate: a draw, no move.
    e.send("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    e.send("go infinite");
    assert!(e.sync().iter().all(|l| !l.starts_with("bestmove")));
    e.send("stop");
    assert_eq!(e.best_move().0, "(none)");
    e.quit();
}

#[test]
fn go_mate_stops_at_the_mate_and_always_ends() {
    let (mut e, _) = Uci::start();
    // A mate in 2 (Kb6, Rh8#): `go mate 3` ends at the iteration that finds it, before the
    // 2*3+1 plies that bound a `go mate 3` without a mate.
    e.send("position fen k7/8/2K5/8/8/8/8/7R w - - 0 1");
    e.send("go mate 3");
    let lines = e.until("bestmove", |l| l.starts_with("bestmove "));
    let last_info = lines.iter().rev().find(|l| l.starts_with("info depth")).expect("info");
    assert!(last_info.contains("score mate 2"), "{lines:?}");
    let depth: u32 = last_info.split_whitespace().nth(2).unwrap().parse().unwrap();
    assert!(depth < 7, "{lines:?}");
    accepts_from(&mut e, "k7/8/2K5/8/8/8/8/7R w - - 0 1", &lines.last().unwrap()[9..]);
    // No mate to find: `go mate 1` ends by itself at 3 plies.
    e.send("position startpos");
    e.send("go mate 1");
    let lines = e.until("bestmove", |l| l.starts_with("bestmove "));
    let last_info = lines.iter().rev().find(|l| l.starts_with("info depth")).expect("info");
    assert!(last_info.starts_with("info depth 3 "), "{lines:?}");
    e.quit();
}

/// The engine accepts `word` (a `bestmove` line's move) after the position `fen`.
fn accepts_from(e: &mut Uci, fen: &str, bestmove: &str) {
    let word = bestmove.split_whitespace().next().unwrap_or("");
    e.send(&format!("position fen {fen} moves {word}"));
    let lines = e.sync();
    assert!(lines.is_empty(), "{lines:?}\n{}", e.transcript());
}

#[test]
fn a_long_search_shows_its_root_moves() {
    let (mut e, _) = Uci::start();
    e.send("position startpos");
    e.send("go infinite");
    // After a second of search: `info depth D currmove M currmovenumber N`, M a legal move.
    let lines = e.until("currmove", |l| l.contains(" currmove "));
    let words: Vec<&str> = lines.last().unwrap().split_whitespace().collect();
    assert_eq!(
        (words[0], words[1], words[3], words[5]),
        ("info", "depth", "currmove", "currmovenumber")
    );
    let number: u32 = words[6].parse().unwrap();
    assert!((1..=20).contains(&number), "{words:?}");
    e.send("stop");
    e.best_move();
    accepts(&mut e, words[4]);
    // A short search shows none.
    e.send("go depth 3");
    let lines = e.until("bestmove", |l| l.starts_with("bestmove "));
    assert!(lines.iter().all(|l| !l.contains("currmove")), "{lines:?}");
    e.quit();
}

#[test]
fn isready_is_answered_during_a_search_and_stop_ends_infinite() {
    let (mut e, _) = Uci::start();
    e.send("position startpos");
    e.send("go infinite");
    // `isready` while the search runs: once it has reported an iteration, and again once it has
    // reported more (an infinite search goes on reporting until it is stopped).
    e.until("the first iteration", |l| l.starts_with("info depth "));
    let before = e.sync();
    assert!(before.iter().all(|l| !l.starts_with("bestmove")), "{before:?}");
    e.until("more of the search", |l| l.starts_with("info "));
    assert!(e.sync().iter().all(|l| !l.starts_with("bestmove")));
    e.send("stop");
    let (best, _) = e.best_move();
    accepts(&mut e, &best);
    // Exactly one bestmove per go: nothing more after a second stop.
    e.send("stop");
    assert!(e.sync().is_empty(), "{}", e.transcript());
    e.quit();
}

#[test]
fn a_go_without_stop_is_answered_before_the_next_command() {
    let (mut e, _) = Uci::start();
    e.send("position startpos");
    e.send("go infinite");
    e.send("position startpos moves e2e4");
    e.send("go depth 2");
    let lines = e.until("second bestmove", {
        let mut n = 0;
        move |l: &str| {
            n += l.starts_with("bestmove ") as u32;
            n == 2
        }
    });
    let best: Vec<&String> = lines.iter().filter(|l| l.starts_with("bestmove")).collect();
    assert_eq!(best.len(), 2, "{lines:?}");
    e.quit();
}

#[test]
fn ponder_then_ponderhit_plays_on_the_clock() {
    let (mut e, _) = Uci::start();
    e.send("setoption name Ponder value true");
    e.send("position startpos moves e2e4 e7e5");
    e.send("go depth 3");
    let (best, ponder) = e.best_move();
    let ponder = ponder.expect("a ponder move");
    e.send(&format!("position startpos moves e2e4 e7e5 {best} {ponder}"));
    e.send("go ponder wtime 2000 btime 2000 winc 0 binc 0");
    // Pondering has begun once it reports; it waits for `ponderhit` however long it has thought.
    e.until("the ponder search", |l| l.starts_with("info depth "));
    assert!(e.sync().iter().all(|l| !l.starts_with("bestmove")));
    e.send("ponderhit");
    let (reply, _) = e.best_move();
    accepts(&mut e, &format!("e2e4 e7e5 {best} {ponder} {reply}"));
    // A ponder miss: stop, then the real position.
    e.send("go ponder wtime 2000 btime 2000");
    e.send("stop");
    e.best_move();
    e.quit();
}

#[test]
fn go_limits_and_searchmoves() {
    let (mut e, _) = Uci::start();
    e.send("position startpos");
    e.send("go depth 3 searchmoves a2a3 h2h3");
    let (best, _) = e.best_move();
    assert!(best == "a2a3" || best == "h2h3", "{best}");
    e.send("go nodes 500");
    let lines = e.until("bestmove", |l| l.starts_with("bestmove "));
    assert!(lines.iter().any(|l| l.starts_with("info depth")));
    e.send("go mate 1");
    e.best_move();
    e.send("go movetime 50");
    e.best_move();
    // Absurd numbers are clamped: no panic, a move at once on a fallen flag.
    e.send("go wtime -5000 btime 99999999999999999999999 winc 99999999999999999999 movestogo 0");
    let (best, _) = e.best_move();
    accepts(&mut e, &best);
    e.send("go depth 99999999999 movetime 30");
    e.best_move();
    e.quit();
}

#[test]
fn the_report_before_bestmove_counts_the_whole_search() {
    let (mut e, _) = Uci::start();
    e.send("position startpos");
    // The limit falls inside an iteration: the last completed one searched fewer nodes.
    e.send("go nodes 30000");
    let lines = e.until("bestmove", |l| l.starts_with("bestmove "));
    // Read as the match runner reads another engine's lines.
    let infos: Vec<u64> = lines
        .iter()
        .filter_map(|l| match parse_engine_line(l) {
            EngineLine::Reply(Reply::Info(info)) if info.depth.is_some() => info.nodes,
            _ => None,
        })
        .collect();
    assert!(infos.len() >= 2, "{lines:?}");
    assert_eq!(infos.last(), Some(&30_000), "{lines:?}");
    assert!(infos[infos.len() - 2] < 30_000, "{lines:?}");
    e.quit();
}

#[test]
fn bad_input_gets_an_error_and_changes_nothing() {
    let (mut e, _) = Uci::start();
    for (line, error) in [
        ("frobnicate 3", "info string error: unknown command frobnicate"),
        ("go depth x", "info string error: go: bad number for depth: x"),
        ("position", "info string error: position: expected"),
        (
            "setoption name Threds value 4",
            "info string error: unknown option Threds",
        ),
        ("setoption name Threads value two", "info string error: option Threads:"),
        ("setoption name Hash value lots", "info string error: option Hash:"),
        (
            "setoption name UCI_Variant value shogi",
            "info string error: option UCI_Variant: unknown variant shogi",
        ),
        (
            "setoption name VariantPath value /nonexistent/x.toml",
            "info string error: option VariantPath:",
        ),
        (
            "position startpos moves e2e4 e7e5 e1e3 g1f3",
            "info string error: illegal move e1e3 (move 3 of position); the position is the one before it",
        ),
        ("position fen 8/8/8/8 w - - 0 1", "info string error: illegal position"),
    ] {
        e.send(line);
        let got = e.sync();
        assert!(
            got.len() == 1 && got[0].starts_with(error),
            "{line}: {got:?}\n{}",
            e.transcript()
        );
    }
    // The engine stayed on the last legal position: e2e4 e7e5, White to move.
    e.send("position startpos moves e2e4 e7e5 e1e3 g1f3");
    e.sync();
    e.send("go depth 2");
    let (best, _) = e.best_move();
    accepts(&mut e, &format!("e2e4 e7e5 {best}"));
    // Out-of-range numbers are clamped to the announced range (the largest Hash is not tried
    // here: it would fill half of this machine's memory).
    e.send("setoption name Hash value -99999999999999");
    e.send("setoption name Move Overhead value -3");
    e.send("setoption name Threads value 99999");
    e.send("setoption name Threads value 0");
    assert!(e.sync().is_empty());
    e.quit();
}

#[test]
fn threads_are_announced_up_to_the_machine_and_searches_with_two_play_legal_moves() {
    let (mut e, answer) = Uci::start();
    let machine = std::thread::available_parallelism().map_or(1, |n| n.get()).min(256);
    let threads = format!("option name Threads type spin default 1 min 1 max {machine}");
    assert!(answer.contains(&threads), "{threads} missing: {answer:?}");
    e.send("setoption name Threads value 2");
    e.send("ucinewgame");
    e.send("position startpos moves e2e4 e7e5");
    assert!(e.sync().is_empty(), "{}", e.transcript());
    e.send("go depth 6");
    let (best, ponder) = e.best_move();
    accepts(&mut e, &format!("e2e4 e7e5 {best} {}", ponder.unwrap_or_default()));
    // A clock-limited search: its helper stops with it, and the move is legal.
    e.send("position startpos moves e2e4 e7e5 g1f3");
    e.send("go movetime 300");
    let (best, _) = e.best_move();
    accepts(&mut e, &format!("e2e4 e7e5 g1f3 {best}"));
    // Changed during a search, the count is taken by the next one (`accepts` moved the position
    // on: it is set again).
    e.send("position startpos moves e2e4 e7e5 g1f3");
    e.send("go infinite");
    e.send("setoption name Threads value 1");
    e.send("stop");
    let (best, _) = e.best_move();
    accepts(&mut e, &format!("e2e4 e7e5 g1f3 {best}"));
    e.send("position startpos moves e2e4 e7e5 g1f3");
    e.send("go depth 3");
    let (best, _) = e.best_move();
    accepts(&mut e, &format!("e2e4 e7e5 g1f3 {best}"));
    e.quit();
}

#[test]
fn an_overlong_line_is_refused_without_echo_in_both_doors() {
    let huge = "x".repeat(3 << 20);
    let (mut e, _) = Uci::start();
    e.send(&huge);
    let got = e.sync();
    assert_eq!(got.len(), 1, "{got:?}");
    assert!(
        got[0].starts_with("info string error: line of 3145728 bytes"),
        "{}",
        got[0]
    );
    assert!(got[0].len() < 200);
    e.quit();

    let mut p = EngineProcess::start(&[], false);
    p.send(&huge);
    p.send("ping 1");
    let reply = p.next_line_before(Instant::now() + LINE_TIMEOUT).expect("a reply");
    assert!(
        reply.starts_with("Error (line too long): line of 3145728 bytes"),
        "{reply}"
    );
    assert!(reply.len() < 200);
    assert_eq!(
        p.next_line_before(Instant::now() + LINE_TIMEOUT).as_deref(),
        Some("pong 1")
    );
}

#[test]
fn variants_are_announced_and_played_in_human_coordinates() {
    let (mut e, _) = Uci::start();
    e.send("setoption name UCI_Variant value pillage");
    let got = e.sync();
    assert_eq!(
        got,
        [
            "info string variant pillage files 10 ranks 10 pocket 0 template fairy startpos \
          cv6vc/srnbqkbnrs/pppppppppp/10/10/10/10/PPPPPPPPPP/SRNBQKBNRS/CV6VC w KQkq - 0 1"
        ]
    );
    // Rank 10 is `10`, never `9` as on the CECP wire.
    accepts(&mut e, "e3e5 d9c10 e2e4 c10d9");
    e.send("position startpos moves e3e5 e8e6");
    e.send("go depth 2");
    let (best, ponder) = e.best_move();
    accepts(&mut e, &format!("e3e5 e8e6 {best} {}", ponder.unwrap_or_default()));
    e.send("setoption name UCI_Variant value chess");
    assert!(e.sync().is_empty(), "orthodox chess needs no announcement");
    e.quit();
}

/// Wild Rose, T6 of the rules: White's pawn e7 may grow a rose on b8 and then move again.
const WILDROSE_T6: &str = "1n5w/4P3/7w/8/8/8/W7/1W6 w - - 0 1";

#[test]
fn a_wild_rose_turn_of_several_moves_is_one_uci_move() {
    let (mut e, _) = Uci::start();
    e.send("setoption name UCI_Variant value wildrose");
    let got = e.sync();
    assert!(
        got[0].starts_with("info string variant wildrose files 8 ranks 8 pocket 0 "),
        "{got:?}"
    );
    // The whole turn as one word, or its sub-moves as words of their own.
    // Every growing turn of T6 wins at once: the game is over after it.
    for moves in ["e7e8=b8,a2a3", "e7e8=b8 a2a3"] {
        e.send(&format!("position fen {WILDROSE_T6} moves {moves}"));
        assert!(e.sync().is_empty(), "{moves}\n{}", e.transcript());
        e.send("go depth 2");
        assert_eq!(e.best_move().0, "(none)");
    }
    // Not a turn: the second part is not the same side's move, or the turn is not over.
    e.send(&format!("position fen {WILDROSE_T6} moves e7e8=b8,h8h7"));
    assert!(e.sync()[0].starts_with("info string error: illegal move e7e8=b8,h8h7"));
    e.send(&format!("position fen {WILDROSE_T6} moves a2a3,h8h7"));
    assert!(e.sync()[0].starts_with("info string error: illegal move a2a3,h8h7"));
    e.send(&format!("position fen {WILDROSE_T6} moves e7e8=b8 h8h7"));
    assert!(e.sync()[0].starts_with("info string error: illegal move h8h7 (move 2"));
    // The engine's own growing turn comes whole.
    e.send(&format!("position fen {WILDROSE_T6}"));
    e.send("go depth 3 searchmoves e7e8=b8");
    let (best, _) = e.best_move();
    let extra = best.strip_prefix("e7e8=b8,").unwrap_or_else(|| panic!("{best}"));
    assert!(extra.starts_with("a2") || extra.starts_with("b1"), "{best}");
    e.send(&format!("position fen {WILDROSE_T6} moves {best}"));
    assert!(e.sync().is_empty());
    // Asked inside the turn (a GUI that sends the sub-moves apart), it gives the rest of it.
    e.send(&format!("position fen {WILDROSE_T6} moves e7e8=b8"));
    e.send("go depth 2");
    let (rest, _) = e.best_move();
    assert!(
        !rest.contains(',') && (rest.starts_with("a2") || rest.starts_with("b1")),
        "{rest}"
    );
    e.quit();
}

/// Wreckage, T7 of the rules: the Detonator e5 may remove the enemies around it.
const WRECKAGE_T7: &str = "K8k/10/10/10/3jr5/4XP4/3b1p4/10/10/10 w - - 0 1";

#[test]
fn a_detonation_is_the_detonator_moving_to_its_own_square() {
    let (mut e, _) = Uci::start();
    e.send("setoption name UCI_Variant value wreckage");
    let got = e.sync();
    assert!(got[0].contains(" pocket 2 "), "{got:?}");
    e.send(&format!("position fen {WRECKAGE_T7}"));
    e.send("go depth 2 searchmoves e5e5");
    assert_eq!(e.best_move().0, "e5e5");
    // Also read as two legs through any victim (the CECP form, in human coordinates).
    for moves in ["e5e5", "e5e6,e6e5", "e5d4,d4e5"] {
        e.send(&format!("position fen {WRECKAGE_T7} moves {moves} j10i10"));
        assert!(e.sync().is_empty(), "{moves}\n{}", e.transcript());
    }
    // Drops from the holdings, pushed one square (written on the final square).
    e.send("position startpos moves e2e4 e9e7 J@e3 J@e8");
    assert!(e.sync().is_empty(), "{}", e.transcript());
    e.quit();
}

#[test]
fn variant_path_loads_a_game_at_run_time() {
    let dir = std::env::temp_dir().join(format!("fairybridge-uci-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let normal =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/variants/normal.toml")).unwrap();
    let file = dir.join("nocastle.toml");
    let text = normal.replacen("name = \"normal\"", "name = \"nocastle\"", 1);
    assert_ne!(text, normal, "normal.toml names itself");
    std::fs::write(&file, text).unwrap();
    let (mut e, _) = Uci::start();
    e.send("setoption name UCI_Variant value nocastle");
    assert!(e.sync()[0].contains("unknown variant nocastle"));
    e.send(&format!("setoption name VariantPath value {}", file.display()));
    assert_eq!(e.sync(), ["info string VariantPath: loaded nocastle"]);
    // As Fairy-Stockfish (11.1): the option line is not sent again by itself; the next `uci`
    // answer lists the new game.
    e.send("uci");
    let answer = e.until("uciok", |l| l == "uciok");
    let combo = answer
        .iter()
        .find(|l| l.starts_with("option name UCI_Variant "))
        .expect("combo");
    assert!(combo.contains(" var nocastle"), "{combo}");
    e.send("setoption name UCI_Variant value nocastle");
    let got = e.sync();
    assert!(
        got[0].starts_with("info string variant nocastle files 8 ranks 8 pocket 0 "),
        "{got:?}"
    );
    e.send("position startpos moves e2e4");
    e.send("go depth 2");
    let (best, _) = e.best_move();
    accepts(&mut e, &format!("e2e4 {best}"));
    e.quit();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn chess960_castling_is_king_takes_rook() {
    let (mut e, _) = Uci::start();
    let fen = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1";
    e.send(&format!("position fen {fen} moves e1h1"));
    assert!(e.sync()[0].starts_with("info string error: illegal move e1h1"));
    e.send("setoption name UCI_Chess960 value true");
    e.send(&format!("position fen {fen} moves e1h1 e8a8"));
    assert!(e.sync().is_empty(), "{}", e.transcript());
    e.send(&format!("position fen {fen}"));
    e.send("go depth 1 searchmoves e1h1");
    assert_eq!(e.best_move().0, "e1h1");
    e.quit();
}

/// The score of an `info` line, comparable across lines: mates beyond every centipawn score.
fn score_of(line: &str) -> Option<i64> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let i = words.iter().position(|w| *w == "score")?;
    let n: i64 = words.get(i + 2)?.parse().ok()?;
    match *words.get(i + 1)? {
        "cp" => Some(n),
        "mate" if n > 0 => Some(1_000_000 - n),
        "mate" => Some(-1_000_000 - n),
        _ => None,
    }
}

/// MultiPV lines come best first at every depth, and line 1 is the move played (found wrong on
/// 1aeafcb: from the start at depth 3, pv 3 `g1f3` cp 60 after pv 2 `b1a3` cp 5; from the Italian
/// below at depth 5, multipv 3 `f1b5` cp 28 above multipv 1 `b1c3` cp 19).
#[test]
fn multipv_lines_come_best_first_and_line_1_is_played() {
    let (mut e, _) = Uci::start();
    for (lines, position, depth) in [
        (3, "position startpos", 3),
        (
            4,
            "position fen r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
            5,
        ),
        (5, "position startpos moves e2e4 c7c5 g1f3", 5),
        (
            3,
            "position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            4,
        ),
        (3, "position startpos moves e3e5", 4),
    ] {
        e.send(&format!("setoption name MultiPV value {lines}"));
        if position.ends_with("e3e5") {
            e.send("setoption name UCI_Variant value pillage");
        } else {
            e.send("setoption name UCI_Variant value chess");
        }
        e.send(position);
        e.send(&format!("go depth {depth}"));
        let got = e.until("bestmove", |l| l.starts_with("bestmove "));
        let bestmove = got.last().and_then(|l| l.split_whitespace().nth(1)).map(str::to_string);
        let mut last_first = None;
        for d in 1..=depth {
            let at: Vec<&String> = got
                .iter()
                .filter(|l| {
                    l.starts_with(&format!("info depth {d} ")) && !l.contains(" hashfull ") && !l.contains("bound")
                })
                .collect();
            // The iteration's final lines (after 1 s a new best line 1 is also shown on the way).
            assert!(at.len() >= lines, "{position} depth {d}: {at:?}");
            let at = &at[at.len() - lines..];
            let numbers: Vec<usize> = at
                .iter()
                .filter_map(|l| l.split(" multipv ").nth(1)?.split(' ').next()?.parse().ok())
                .collect();
            assert_eq!(numbers, (1..=lines).collect::<Vec<_>>(), "{position} depth {d}: {at:?}");
            let scores: Vec<i64> = at.iter().filter_map(|l| score_of(l)).collect();
            assert!(
                scores.windows(2).all(|w| w[0] >= w[1]),
                "{position} depth {d}: lines not best first: {at:?}"
            );
            last_first = at[0]
                .split(" pv ")
                .nth(1)
                .and_then(|pv| pv.split(' ').next())
                .map(str::to_string);
        }
        assert_eq!(bestmove, last_first, "{position}: the move played is line 1\n{got:?}");
    }
    e.quit();
}

/// End of input is `quit` once the search in progress has answered: the README's own example,
/// piped, prints its `bestmove` (the engine does not exit while a search it owes an answer runs).
#[test]
fn end_of_input_after_go_depth_still_gets_the_bestmove() {
    for input in [
        "uci\nsetoption name UCI_Variant value pillage\nposition startpos moves e3e5\ngo depth 6\n",
        "uci\nposition startpos\ngo depth 5\n",
        "uci\ngo nodes 20000\n",
        // A search that would wait for `stop` is stopped and answers at once.
        "uci\ngo infinite\n",
    ] {
        let mut engine = common::EngineProcess::start(&[], false);
        for line in input.lines() {
            engine.send(line);
        }
        let status = engine.wait_for_exit(Duration::from_secs(60));
        assert!(status.is_some_and(|s| s.success()), "{input:?}: did not exit by itself");
        let deadline = Instant::now() + LINE_TIMEOUT;
        let mut lines = Vec::new();
        while let Some(l) = engine.next_line_before(deadline) {
            lines.push(l);
        }
        let bestmoves: Vec<&String> = lines.iter().filter(|l| l.starts_with("bestmove ")).collect();
        assert_eq!(bestmoves.len(), 1, "{input:?}: {lines:?}");
        assert_eq!(
            lines.last(),
            bestmoves.last().copied(),
            "{input:?}: bestmove comes last"
        );
        assert_ne!(bestmoves[0].as_str(), "bestmove (none)", "{input:?}");
    }
}

/// Fairy-Stockfish's debugging habits over UCI: `d`, `go perft N`, `eval` (all `info string`
/// lines, none an "unknown command").
#[test]
fn d_go_perft_and_eval_as_fairy_stockfish_users_type_them() {
    let (mut e, _) = Uci::start();
    e.send("position startpos moves e2e4");
    e.send("d");
    let lines = e.sync();
    assert!(lines.iter().all(|l| l.starts_with("info string ")), "{lines:?}");
    assert!(lines.contains(&"info string r n b q k b n r".to_string()), "{lines:?}");
    assert!(
        lines.contains(&"info string Fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1".to_string()),
        "{lines:?}"
    );
    e.send("go perft 2");
    let lines = e.sync();
    assert_eq!(lines.len(), 21, "{lines:?}");
    assert_eq!(
        lines.last().map(String::as_str),
        Some("info string Nodes searched: 600")
    );
    assert!(lines.iter().all(|l| l.starts_with("info string ")), "{lines:?}");
    e.send("eval");
    let lines = e.sync();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(lines[0].starts_with("info string eval cp "), "{lines:?}");
    e.send("go perft x");
    let lines = e.sync();
    assert!(lines[0].starts_with("info string error: go perft"), "{lines:?}");
    e.quit();
}
