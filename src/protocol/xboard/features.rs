//! The answer to `protover 2`, built in one place for every brain behind the CECP door: the
//! features the door itself implements are the same for all; what one brain lacks (analysis, move
//! exclusion, `lift`, a hash table, threads, `#` debug lines) is a capability it says it has or
//! not, announced from here and refused by the same rule.

use super::command::Command;
use super::reply::{FeatureValue, Reply};

/// What a brain can do beyond playing the game: the door announces exactly this.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Capabilities {
    /// `feature myname`.
    pub myname: String,
    /// `analyze`, `exit`, `.`.
    pub analyze: bool,
    /// Thinking on the opponent's time (`hard`), and `hint`.
    pub ponder: bool,
    /// `draw`: it judges a draw offer (the engine's draw policy).
    pub draws: bool,
    /// `nps`: a node budget per second of the clock.
    pub nps: bool,
    /// `memory`: a hash table the GUI may size.
    pub memory: bool,
    /// `cores`: search threads.
    pub smp: bool,
    /// `exclude` / `include` (analysis of chosen moves).
    pub exclude: bool,
    /// `lift` answered with `highlight`.
    pub highlight: bool,
    /// `#` lines once the GUI accepts `debug`.
    pub debug: bool,
    /// What `bk` shows (nothing: it does not answer `bk`).
    pub book: Vec<String>,
    /// `option=` features (`Name -kind …`), each announced on a line of its own.
    pub options: Vec<String>,
}

impl Capabilities {
    /// A brain that plays and nothing more, under `myname`: no analysis, pondering, draw policy,
    /// node budget, hash table, threads, move filter, highlights, debug lines, book or options.
    pub fn plays_only(myname: String) -> Capabilities {
        Capabilities {
            myname,
            analyze: false,
            ponder: false,
            draws: false,
            nps: false,
            memory: false,
            smp: false,
            exclude: false,
            highlight: false,
            debug: false,
            book: Vec::new(),
            options: Vec::new(),
        }
    }

    /// The reply lines to `protover`: `done=0` first (the list is long), the door's own features
    /// and the brain's, one line per option, `done=1`.
    pub fn announcement(&self, variants: &[&str]) -> Vec<Reply> {
        let f = |k: &str, v: FeatureValue| (k.to_string(), v);
        let mut replies = vec![Reply::Features(vec![f("done", FeatureValue::Int(0))])];
        replies.push(Reply::Features(vec![
            // What the door does for every brain.
            f("ping", true.into()),
            f("setboard", true.into()),
            f("playother", true.into()),
            f("usermove", true.into()),
            f("time", true.into()),
            f("draw", self.draws.into()),
            f("sigint", false.into()),
            f("sigterm", false.into()),
            f("reuse", true.into()),
            f("analyze", self.analyze.into()),
            f("colors", false.into()),
            f("name", true.into()),
            // What the brain may lack.
            f("nps", self.nps.into()),
            f("memory", self.memory.into()),
            f("smp", self.smp.into()),
            f("exclude", self.exclude.into()),
            f("highlight", self.highlight.into()),
            f("debug", self.debug.into()),
            f("myname", self.myname.clone().into()),
            f("variants", variants.join(",").into()),
        ]));
        for option in &self.options {
            replies.push(Reply::Features(vec![f("option", option.clone().into())]));
        }
        replies.push(Reply::Features(vec![f("done", FeatureValue::Int(1))]));
        replies
    }

    /// Is `name` one of the brain's `option=` features?
    pub fn has_option(&self, name: &str) -> bool {
        self.options
            .iter()
            .any(|o| o.strip_prefix(name).is_some_and(|rest| rest.starts_with(" -")))
    }

    /// Does the brain do what `command` asks for? A command of a capability the brain lacks is
    /// answered like any command the door does not know.
    pub fn has(&self, command: &Command) -> bool {
        match command {
            Command::Analyze | Command::ExitAnalyze | Command::AnalyzeStatus => self.analyze,
            Command::NodesPerSecond(_) => self.nps,
            Command::Exclude(_) | Command::Include(_) => self.exclude,
            Command::Lift(_) => self.highlight,
            Command::Hint => self.ponder,
            Command::Book => !self.book.is_empty(),
            _ => true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::xboard::command::parse_command;

    fn plain() -> Capabilities {
        Capabilities {
            options: vec!["Hash -spin 16 1 64".to_string()],
            ..Capabilities::plays_only("Test \"one\"".to_string())
        }
    }

    #[test]
    fn the_announcement_opens_with_done_0_and_closes_with_done_1() {
        let lines: Vec<String> = plain()
            .announcement(&["normal", "wildrose"])
            .iter()
            .map(Reply::to_string)
            .collect();
        assert_eq!(lines.len(), 4, "{lines:?}");
        assert_eq!(lines[0], "feature done=0");
        assert!(lines[1].starts_with("feature ping=1 setboard=1 playother=1 usermove=1"));
        assert!(lines[1].contains(" analyze=0 "), "{lines:?}");
        assert!(lines[1].contains(" highlight=0 "), "{lines:?}");
        assert!(lines[1].contains(" draw=0 "), "{lines:?}");
        assert!(
            lines[1].ends_with(" myname=\"Test 'one'\" variants=\"normal,wildrose\""),
            "{lines:?}"
        );
        assert_eq!(lines[2], "feature option=\"Hash -spin 16 1 64\"");
        assert_eq!(lines[3], "feature done=1");
    }

    #[test]
    fn options_are_known_by_name() {
        let caps = plain();
        assert!(caps.has_option("Hash"));
        assert!(!caps.has_option("Has"));
        assert!(!caps.has_option("Log_File"));
    }

    #[test]
    fn a_command_of_a_capability_the_brain_lacks_is_not_done() {
        let caps = plain();
        for line in [
            "analyze",
            "exit",
            ".",
            "nps 1000",
            "exclude e2e4",
            "include all",
            "lift e2",
            "hint",
            "bk",
        ] {
            assert!(!caps.has(&parse_command(line)), "{line}");
        }
        for line in ["new", "go", "usermove e2e4", "memory 64", "cores 2", "ping 1"] {
            assert!(caps.has(&parse_command(line)), "{line}");
        }
        let full = Capabilities {
            analyze: true,
            ponder: true,
            nps: true,
            exclude: true,
            highlight: true,
            book: vec!["no book".to_string()],
            ..plain()
        };
        for line in [
            "analyze",
            "exit",
            ".",
            "nps 1000",
            "exclude e2e4",
            "lift e2",
            "hint",
            "bk",
        ] {
            assert!(full.has(&parse_command(line)), "{line}");
        }
    }
}
