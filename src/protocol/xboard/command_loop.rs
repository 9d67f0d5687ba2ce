//! The one CECP command loop, whatever thinks behind it: our engine's session, or the Zillions
//! host's plug-in. The loop reads the GUI's lines (through `protocol::input`'s bounded reader),
//! parses each once, applies the one rule of what a command does to a search on the brain's own
//! move (`Command::while_thinking`), holds back what must wait for that move, and hands the brain
//! its commands and its workers' reports one at a time.
//!
//! A brain calls a search off either at once (our engine: the search's reports are dropped from
//! then on) or later (a plug-in's search, which blocks, ends when it ends): the commands after a
//! call-off wait until the brain no longer thinks, the same rule for both.

use std::collections::VecDeque;
use std::time::Instant;

use tokio::sync::mpsc::UnboundedReceiver;

use super::command::{Command, EditCommand, parse_command, parse_edit_line};
use super::reply::Reply;
use super::while_thinking::WhileThinking;
use crate::protocol::input::Input;

/// What thinks behind the CECP door: it executes the GUI's commands and its own workers'
/// reports one at a time, and is the only writer of its output.
pub trait Brain {
    /// What the brain's own workers (a search) report while the GUI's lines keep coming.
    type Report;
    /// A search on the brain's own move runs (or has been called off and not ended yet): a
    /// `move` line, or nothing if it was called off, is to come.
    fn thinking_on_move(&self) -> bool;
    /// Calls the search on the brain's own move off: it plays no move. The brain may think on
    /// until the search has ended.
    fn call_off(&mut self);
    /// Executes one command, read at `read_at` (the brain's clock runs from then).
    fn execute(&mut self, command: Command, read_at: Instant);
    /// Between `edit` and `.`: lines are edit commands. A brain without edit mode never is.
    fn editing(&self) -> bool {
        false
    }
    /// One line of edit mode.
    fn edit(&mut self, _line: EditCommand) {}
    /// A report of one of the brain's workers.
    fn report(&mut self, report: Self::Report);
    /// The GUI closed our input.
    fn eof(&mut self);
    /// Writes a reply line.
    fn send(&mut self, reply: Reply);
    /// Has the GUI asked the brain to quit (or gone away, and the brain has wound up)?
    fn finished(&self) -> bool;
}

/// A brain with the commands held back for it: the loop's state between two inputs.
pub struct CommandLoop<B: Brain> {
    brain: B,
    /// Commands that wait for the brain's search to end, in the order received, with when each
    /// was read.
    held: VecDeque<(Command, Instant)>,
}

impl<B: Brain> CommandLoop<B> {
    pub fn new(brain: B) -> CommandLoop<B> {
        CommandLoop {
            brain,
            held: VecDeque::new(),
        }
    }

    pub fn brain(&self) -> &B {
        &self.brain
    }

    pub fn brain_mut(&mut self) -> &mut B {
        &mut self.brain
    }

    /// How many commands wait for the brain's search to end.
    pub fn held(&self) -> usize {
        self.held.len()
    }

    pub fn finished(&self) -> bool {
        self.brain.finished()
    }

    /// One input from the GUI's reader. A line too long to read is refused here, the same for
    /// every brain.
    pub fn input(&mut self, input: Input) {
        match input {
            Input::Line(line, read_at) => self.line(&line, read_at),
            Input::TooLong { start, bytes } => self.brain.send(Reply::Error {
                kind: "line too long".to_string(),
                text: Input::too_long_text(&start, bytes),
            }),
            Input::Eof => self.brain.eof(),
        }
    }

    /// One line from the GUI, parsed once: an edit line in edit mode, else a command, which runs
    /// now, waits for the brain's move, or calls the brain's search off (`WhileThinking`).
    pub fn line(&mut self, line: &str, read_at: Instant) {
        if self.brain.editing() {
            self.brain.edit(parse_edit_line(line));
            return;
        }
        let command = parse_command(line);
        if self.brain.thinking_on_move() {
            match command.while_thinking() {
                WhileThinking::Beside => {}
                WhileThinking::AfterMove => {
                    self.held.push_back((command, read_at));
                    return;
                }
                WhileThinking::StopsSearch => {
                    self.brain.call_off();
                    if self.brain.thinking_on_move() {
                        // The search ends later: this command waits for it, after the others.
                        self.held.push_back((command, read_at));
                        return;
                    }
                    // What waited for the search comes first.
                    self.run_held();
                }
            }
        }
        self.brain.execute(command, read_at);
    }

    /// A report of the brain's workers; then the commands it let through.
    pub fn report(&mut self, report: B::Report) {
        self.brain.report(report);
        self.run_held();
    }

    /// Executes the commands held back, in order, while the brain does not think on its move
    /// and has not finished; while it thinks (a held command started a search), a command that
    /// calls the search off does so and the others wait.
    fn run_held(&mut self) {
        while let Some((command, _)) = self.held.front() {
            if self.brain.finished() {
                return;
            }
            if self.brain.thinking_on_move() {
                if command.while_thinking() != WhileThinking::StopsSearch {
                    return;
                }
                self.brain.call_off();
                if self.brain.thinking_on_move() {
                    return;
                }
            }
            if let Some((command, read_at)) = self.held.pop_front() {
                self.brain.execute(command, read_at);
            }
        }
    }
}

/// The CECP command loop on a runtime: hands `commands` the GUI's `inputs` (after `first`, if a
/// line was already read) and its brain's `reports` until the brain is finished. Reports are
/// handled before waiting GUI lines.
pub async fn serve_door<B: Brain>(
    commands: &mut CommandLoop<B>,
    first: Option<Input>,
    inputs: &mut UnboundedReceiver<Input>,
    reports: &mut UnboundedReceiver<B::Report>,
) {
    let mut next = first;
    let mut input_closed = false;
    while !commands.finished() {
        let input = match next.take() {
            Some(i) => i,
            // The GUI has gone: only the brain's workers may still report.
            None if input_closed => match reports.recv().await {
                Some(report) => {
                    commands.report(report);
                    continue;
                }
                None => return,
            },
            None => tokio::select! {
                biased;
                Some(report) = reports.recv() => {
                    commands.report(report);
                    continue;
                }
                input = inputs.recv() => input.unwrap_or(Input::Eof),
            },
        };
        input_closed |= input == Input::Eof;
        commands.input(input);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A brain that writes down what it executes: `go` and a move start a search on its move,
    /// which ends with a report; a call-off ends it at once, or (`stops_later`) at the report.
    #[derive(Default)]
    struct Scripted {
        stops_later: bool,
        thinking: bool,
        calls_off: usize,
        executed: Vec<String>,
        edited: Vec<EditCommand>,
        editing: bool,
        sent: Vec<String>,
    }

    impl Brain for Scripted {
        type Report = ();

        fn thinking_on_move(&self) -> bool {
            self.thinking
        }

        fn call_off(&mut self) {
            self.calls_off += 1;
            self.thinking &= self.stops_later;
        }

        fn execute(&mut self, command: Command, _read_at: Instant) {
            self.thinking |= matches!(command, Command::Go | Command::UserMove { .. });
            self.editing |= command == Command::Edit;
            self.executed.push(command.to_string());
        }

        fn editing(&self) -> bool {
            self.editing
        }

        fn edit(&mut self, line: EditCommand) {
            self.editing = line != EditCommand::Done;
            self.edited.push(line);
        }

        fn report(&mut self, (): ()) {
            self.thinking = false;
        }

        fn eof(&mut self) {}

        fn send(&mut self, reply: Reply) {
            self.sent.push(reply.to_string());
        }

        fn finished(&self) -> bool {
            false
        }
    }

    fn say<B: Brain>(commands: &mut CommandLoop<B>, lines: &[&str]) {
        for line in lines {
            commands.line(line, Instant::now());
        }
    }

    /// Our engine's case: the search stops at once, what waited runs, then the command.
    #[test]
    fn a_search_called_off_at_once_runs_what_waited_then_the_command() {
        let mut commands = CommandLoop::new(Scripted::default());
        say(&mut commands, &["go", "ping 1", "post", "usermove e2e4"]);
        assert_eq!(commands.brain().executed, ["go", "post"]);
        assert_eq!(commands.held(), 2);
        say(&mut commands, &["force"]);
        // The held move started a search of its own; `force` came after it.
        assert_eq!(
            commands.brain().executed,
            ["go", "post", "ping 1", "usermove e2e4", "force"]
        );
        assert_eq!(commands.brain().calls_off, 1);
    }

    /// The plug-in's case: the commands after a call-off wait for the search's end; a held command
    /// that calls off the search a held move started does so, and waits again.
    #[test]
    fn a_search_that_ends_later_is_waited_for() {
        let mut commands = CommandLoop::new(Scripted {
            stops_later: true,
            ..Scripted::default()
        });
        say(&mut commands, &["go", "ping 1", "usermove e2e4", "new", "?", "sd 3"]);
        assert_eq!(commands.brain().executed, ["go", "?"]);
        assert_eq!(commands.held(), 4);
        commands.report(());
        assert_eq!(commands.brain().executed, ["go", "?", "ping 1", "usermove e2e4"]);
        assert_eq!(commands.brain().calls_off, 3, "`new`, `sd`, then `new` again");
        commands.report(());
        assert_eq!(
            commands.brain().executed,
            ["go", "?", "ping 1", "usermove e2e4", "new", "sd 3"]
        );
        assert_eq!(commands.held(), 0);
    }

    /// Each line is parsed once, as a command or, in edit mode, as an edit line; a line too long
    /// to read is refused the same for every brain.
    #[test]
    fn edit_lines_and_overlong_lines() {
        let mut commands = CommandLoop::new(Scripted::default());
        say(&mut commands, &["edit", "c", "Pe4", ".", "ping 2"]);
        assert_eq!(commands.brain().executed, ["edit", "ping 2"]);
        assert_eq!(
            commands.brain().edited,
            [
                EditCommand::ToggleColor,
                EditCommand::Place {
                    piece: "P".to_string(),
                    square: "e4".to_string(),
                    promoted: false
                },
                EditCommand::Done
            ]
        );
        commands.input(Input::TooLong {
            start: "xxxx".to_string(),
            bytes: 1 << 20,
        });
        assert_eq!(commands.brain().sent.len(), 1);
        assert!(
            commands.brain().sent[0].starts_with("Error (line too long): line of 1048576 bytes"),
            "{:?}",
            commands.brain().sent
        );
    }
}
