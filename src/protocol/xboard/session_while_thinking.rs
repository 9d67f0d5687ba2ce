//! The stop rule in the command loop, with our engine's session behind it: during a search on our
//! own move, `Beside` commands leave it running, `AfterMove` ones wait for our move, and a
//! `StopsSearch` command calls it off without a move, after the commands that waited.

use std::sync::Arc;
use std::time::Instant;

use tokio::sync::mpsc::unbounded_channel;

use super::Session;
use crate::protocol::captured::CapturedOutput as Output;
use crate::protocol::xboard::CommandLoop;

/// Not thinking output (`depth score time nodes pv`).
fn answers(lines: Vec<String>) -> Vec<String> {
    lines
        .into_iter()
        .filter(|l| {
            !l.split_whitespace()
                .next()
                .is_some_and(|w| w.chars().all(|c| c.is_ascii_digit()))
        })
        .collect()
}

#[test]
fn commands_beside_a_search_leave_it_running_and_force_calls_it_off_without_a_move() {
    let (tx, _rx) = unbounded_channel();
    let out = Output::default();
    let mut session = CommandLoop::new(Session::new(
        Arc::new(crate::protocol::builtin_games()),
        out.clone(),
        tx,
    ));
    let send = |session: &mut CommandLoop<Session<Output>>, line: &str| {
        session.line(line, Instant::now());
    };
    // A long search on our move: nothing here waits for it to end (the reports are never read,
    // so it cannot play a move by itself either).
    for line in ["xboard", "protover 2", "new", "st 600", "force", "usermove e2e4", "go"] {
        send(&mut session, line);
    }
    out.take_lines();
    assert!(session.brain().searcher().thinking_on_move());
    for line in [
        "post",
        "nopost",
        "hard",
        "easy",
        "time 6000",
        "otim 6000",
        "draw",
        "hint",
        ".",
        "bk",
        "option No Such Option=1",
        "cores 1",
        "lift e7",
        "frobnicate",
        "perft 3",
    ] {
        send(&mut session, line);
        assert!(
            session.brain().searcher().thinking_on_move(),
            "{line} stopped the search"
        );
    }
    let answered = answers(out.take_lines());
    assert!(answered.iter().any(|l| l.starts_with("highlight ")), "{answered:?}");
    assert!(
        answered.iter().any(|l| l == "Error (unknown command): perft"),
        "{answered:?}"
    );
    // `ping` waits for our move.
    send(&mut session, "ping 7");
    assert!(session.brain().searcher().thinking_on_move());
    assert!(!answers(out.take_lines()).iter().any(|l| l.starts_with("pong")));
    // `force` calls the search off: no move, and the ping that waited is answered.
    send(&mut session, "force");
    assert!(session.brain().searcher().purpose().is_none());
    assert_eq!(answers(out.take_lines()), ["pong 7"]);
}
