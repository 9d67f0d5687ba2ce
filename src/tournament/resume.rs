//! `--resume FILE`: the state a match keeps so that a stopped or killed run continues where it
//! stopped — the seed, a fingerprint of what fixes the schedule, the engines' names, the SPRT, the
//! PGN's length, and every finished game. Rewritten atomically (temporary file, fsync, rename)
//! after each game, so a kill at any moment leaves either the old or the new state. `merge` reads
//! the same files. A finished match is extended by running it again with more `--rounds`: the
//! earlier rounds' games keep their numbers and openings.
//!
//! ```text
//! fairybridge match state 1
//! seed 42
//! fingerprint 9c0f3d2a11b7e655                (of every setting below but the rounds)
//! rounds 3                               (absent in older files: the fingerprint has them)
//! setting engine1 5f0c1e22a9d7b3c4       (one line per setting: which one differs is named)
//! paired 1
//! sprt 0 5 0.05 0.05 pentanomial        (or: sprt -)
//! pgn-bytes 10734                       (or: pgn-bytes -)
//! engine NAME                           (one line per engine, in order)
//! game NUMBER PAIR WHITE BLACK RESULT FORFEIT   (see ScoredGame::to_line)
//! ```

use std::io::Write;
use std::path::{Path, PathBuf};

use super::engine::Protocol;
use super::results::ScoredGame;
use super::runner::MatchConfig;
use super::stats::{Sprt, SprtModel};

const MAGIC: &str = "fairybridge match state 1";

/// A match's saved state.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchState {
    pub seed: u64,
    pub fingerprint: u64,
    /// The rounds the match had (`None`: a file from before they were kept apart, whose
    /// fingerprint includes them).
    pub rounds: Option<u32>,
    /// Each setting that fixes the schedule and the games, as text (hashes for long ones).
    pub settings: Vec<(String, String)>,
    pub names: Vec<String>,
    pub paired: bool,
    pub sprt: Option<Sprt>,
    /// The PGN file's length after the last recorded game (`None`: no PGN).
    pub pgn_bytes: Option<u64>,
    pub games: Vec<ScoredGame>,
}

/// Does this text look like a state file (rather than PGN)?
pub fn is_state(text: &str) -> bool {
    text.starts_with(MAGIC)
}

impl MatchState {
    pub fn new(cfg: &MatchConfig) -> MatchState {
        MatchState {
            seed: cfg.seed,
            fingerprint: fingerprint(cfg),
            rounds: Some(cfg.rounds),
            settings: settings(cfg),
            names: cfg.engines.iter().map(|e| e.name.clone()).collect(),
            paired: cfg.games >= 2,
            sprt: cfg.sprt,
            pgn_bytes: None,
            games: Vec::new(),
        }
    }

    /// Reads a state file; `Ok(None)` when it does not exist yet.
    ///
    /// # Errors
    ///
    /// The file exists but cannot be read or parsed.
    pub fn read(path: &Path) -> Result<Option<MatchState>, String> {
        match std::fs::read_to_string(path) {
            Ok(text) => MatchState::parse(&text)
                .map(Some)
                .map_err(|e| format!("state file {}: {e}", path.display())),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(format!("cannot read the state file {}: {e}", path.display())),
        }
    }

    /// # Errors
    ///
    /// A line that is not one of the state file's.
    pub fn parse(text: &str) -> Result<MatchState, String> {
        let mut lines = text.lines();
        if lines.next() != Some(MAGIC) {
            return Err(format!("not a match state (the first line is not \"{MAGIC}\")"));
        }
        let mut state = MatchState {
            seed: 0,
            fingerprint: 0,
            rounds: None,
            settings: Vec::new(),
            names: Vec::new(),
            paired: false,
            sprt: None,
            pgn_bytes: None,
            games: Vec::new(),
        };
        let (mut seen_seed, mut seen_fingerprint) = (false, false);
        for line in lines {
            let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
            let bad = || format!("bad line \"{line}\"");
            match key {
                "seed" => {
                    state.seed = rest.parse().map_err(|_| bad())?;
                    seen_seed = true;
                }
                "fingerprint" => {
                    state.fingerprint = u64::from_str_radix(rest, 16).map_err(|_| bad())?;
                    seen_fingerprint = true;
                }
                "rounds" => state.rounds = Some(rest.parse().map_err(|_| bad())?),
                "setting" => {
                    let (key, value) = rest.split_once(' ').ok_or_else(bad)?;
                    state.settings.push((key.to_string(), value.to_string()));
                }
                "paired" => state.paired = rest == "1",
                "sprt" if rest == "-" => state.sprt = None,
                "sprt" => {
                    let w: Vec<&str> = rest.split_whitespace().collect();
                    let [e0, e1, a, b, model] = w[..] else {
                        return Err(bad());
                    };
                    let num = |s: &str| s.parse::<f64>().map_err(|_| bad());
                    let model = match model {
                        "pentanomial" => SprtModel::Pentanomial,
                        "trinomial" => SprtModel::Trinomial,
                        _ => return Err(bad()),
                    };
                    let sprt = Sprt::new(num(e0)?, num(e1)?, num(a)?, num(b)?).map_err(|e| e.to_string())?;
                    state.sprt = Some(sprt.with_model(model));
                }
                "pgn-bytes" if rest == "-" => state.pgn_bytes = None,
                "pgn-bytes" => state.pgn_bytes = Some(rest.parse().map_err(|_| bad())?),
                "engine" => state.names.push(rest.to_string()),
                "game" => {
                    let g = ScoredGame::from_line(line)?;
                    if g.white >= state.names.len() || g.black >= state.names.len() || g.white == g.black {
                        return Err(format!("game {}: no such engines", g.number));
                    }
                    if state.games.iter().any(|h| h.number == g.number) {
                        return Err(format!("game {} is recorded twice", g.number));
                    }
                    state.games.push(g);
                }
                _ => return Err(bad()),
            }
        }
        if !seen_seed || !seen_fingerprint || state.names.len() < 2 {
            return Err("incomplete (seed, fingerprint or engines missing)".to_string());
        }
        Ok(state)
    }

    pub fn to_text(&self) -> String {
        let mut out = format!("{MAGIC}\nseed {}\nfingerprint {:016x}\n", self.seed, self.fingerprint);
        if let Some(rounds) = self.rounds {
            out.push_str(&format!("rounds {rounds}\n"));
        }
        for (key, value) in &self.settings {
            out.push_str(&format!("setting {key} {value}\n"));
        }
        out.push_str(&format!("paired {}\n", u8::from(self.paired)));
        match &self.sprt {
            Some(s) => out.push_str(&format!(
                "sprt {} {} {} {} {}\n",
                s.elo0,
                s.elo1,
                s.alpha,
                s.beta,
                s.model.name()
            )),
            None => out.push_str("sprt -\n"),
        }
        match self.pgn_bytes {
            Some(n) => out.push_str(&format!("pgn-bytes {n}\n")),
            None => out.push_str("pgn-bytes -\n"),
        }
        for name in &self.names {
            out.push_str(&format!("engine {}\n", name.replace('\n', " ")));
        }
        for g in &self.games {
            out.push_str(&g.to_line());
            out.push('\n');
        }
        out
    }

    /// Replaces the file with this state in one step: a kill leaves the old or the new file.
    ///
    /// # Errors
    ///
    /// The temporary file cannot be written or renamed over `path`.
    pub fn write_atomic(&self, path: &Path) -> std::io::Result<()> {
        let tmp = temporary_path(path);
        {
            let mut f = std::fs::File::create(&tmp)?;
            f.write_all(self.to_text().as_bytes())?;
            f.sync_all()?;
        }
        std::fs::rename(&tmp, path)
    }

    /// Checks that this state belongs to `cfg`'s match (more rounds than it had extend it); the
    /// refusal names the setting that differs.
    ///
    /// # Errors
    ///
    /// A setting that differs between the match and the state at `path` (the text names it).
    pub fn check(&self, cfg: &MatchConfig, path: &Path) -> Result<(), String> {
        let refuse = |what: String| {
            Err(format!(
                "the state file {} belongs to another match: {what}",
                path.display()
            ))
        };
        if self.seed != cfg.seed {
            return refuse(format!("its seed is {}, this match's {}", self.seed, cfg.seed));
        }
        let names: Vec<String> = cfg.engines.iter().map(|e| e.name.clone()).collect();
        if self.names != names {
            return refuse(format!(
                "its engines are {}, this match's {}",
                self.names.join(" vs "),
                names.join(" vs ")
            ));
        }
        let Some(rounds) = self.rounds else {
            // A file from before the settings were kept one by one: all of them or none.
            if self.fingerprint != fingerprint_with_rounds(cfg) {
                return refuse(
                    "same engines, variant, games, rounds, openings, shard and seed are needed to resume".to_string(),
                );
            }
            return Ok(());
        };
        let now = settings(cfg);
        for (key, value) in &self.settings {
            match now.iter().find(|(k, _)| k == key) {
                Some((_, v)) if v == value => {}
                Some((_, v)) => return refuse(setting_differs(key, value, v)),
                None => return refuse(format!("its setting {key} is unknown here")),
            }
        }
        if cfg.rounds < rounds {
            return refuse(format!(
                "it has {rounds} round(s), this match {} (more rounds extend a match, fewer cannot)",
                cfg.rounds
            ));
        }
        if self.fingerprint != fingerprint(cfg) {
            return refuse("its settings differ".to_string());
        }
        Ok(())
    }

    /// This state as the match `cfg` (which it belongs to) keeps it from now on: with its rounds.
    pub fn extended_to(mut self, cfg: &MatchConfig) -> MatchState {
        self.fingerprint = fingerprint(cfg);
        self.rounds = Some(cfg.rounds);
        self.settings = settings(cfg);
        self
    }
}

/// What a refusal says of a setting that differs.
fn setting_differs(key: &str, was: &str, now: &str) -> String {
    if let Some(n) = key.strip_prefix("engine") {
        return format!("engine {n}'s command, options, time control or limits differ");
    }
    match key {
        "openings" | "adjudication" => format!("the {key} differ"),
        _ => format!("--{key} is {was} there, {now} here"),
    }
}

/// `--resume FILE` of a match: where the state goes, and what it held at the start.
#[derive(Clone, Debug)]
pub struct Resume {
    pub path: PathBuf,
    pub previous: Option<MatchState>,
}

/// Cuts the PGN back to the length the state recorded (a game written just before a kill, not in
/// the state, is played again and must not appear twice); returns the length.
pub fn trim_pgn(pgn: &std::fs::File, recorded: Option<u64>) -> u64 {
    let len = pgn.metadata().map(|m| m.len()).unwrap_or(0);
    match recorded {
        Some(n) if len > n => match pgn.set_len(n) {
            Ok(()) => n,
            Err(e) => {
                eprintln!("fairybridge: cannot cut the PGN back to the recorded games: {e}");
                len
            }
        },
        Some(n) if len < n => {
            eprintln!("fairybridge: the PGN is shorter than the state file records: games are missing from it");
            len
        }
        _ => len,
    }
}

fn temporary_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().map(|n| n.to_os_string()).unwrap_or_default();
    name.push(".tmp");
    path.with_file_name(name)
}

/// Each engine's text as it enters the fingerprint.
fn engine_texts(cfg: &MatchConfig) -> Vec<String> {
    cfg.engines
        .iter()
        .map(|e| {
            let mut text = format!(
                "{} {:?} {:?} {:?} {:?} {:?}",
                e.cmd, e.args, e.dir, e.options, e.tc, e.depth
            );
            // CECP engines' text as before UCI existed: their state files stay valid.
            if e.proto != Protocol::Cecp {
                text.push_str(&format!(" {:?}", e.proto));
            }
            if let Some(n) = e.nodes {
                text.push_str(&format!(" nodes {n}"));
            }
            text
        })
        .collect()
}

/// The settings that fix the schedule and the games, one by one (long ones hashed), but the
/// rounds.
fn settings(cfg: &MatchConfig) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = engine_texts(cfg)
        .iter()
        .enumerate()
        .map(|(i, text)| (format!("engine{}", i + 1), format!("{:016x}", fnv(text))))
        .collect();
    out.push(("variant".into(), cfg.variant.name.clone()));
    out.push(("games".into(), cfg.games.to_string()));
    out.push((
        "openings".into(),
        format!("{:016x}", fnv(&format!("{:?}", cfg.openings))),
    ));
    out.push(("shard".into(), cfg.shard.map_or("-".to_string(), |s| s.to_string())));
    out.push(("tournament".into(), format!("{:?}", cfg.tournament).to_lowercase()));
    out.push((
        "adjudication".into(),
        format!("{:016x}", fnv(&format!("{:?}", cfg.adjudication))),
    ));
    out
}

/// FNV-1a of the text of everything that fixes the schedule and the games but the rounds (more
/// rounds extend a match): a resumed run must play the same games with the same engines.
pub fn fingerprint(cfg: &MatchConfig) -> u64 {
    let text = format!(
        "{:?}|{}|{}|{:?}|{}|{:?}|{:?}|{:?}",
        engine_texts(cfg),
        cfg.variant.name,
        cfg.games,
        cfg.openings,
        cfg.seed,
        cfg.shard,
        cfg.tournament,
        cfg.adjudication
    );
    fnv(&text)
}

/// The fingerprint of state files written before the rounds were kept apart.
fn fingerprint_with_rounds(cfg: &MatchConfig) -> u64 {
    let text = format!(
        "{:?}|{}|{}|{}|{:?}|{}|{:?}|{:?}|{:?}",
        engine_texts(cfg),
        cfg.variant.name,
        cfg.games,
        cfg.rounds,
        cfg.openings,
        cfg.seed,
        cfg.shard,
        cfg.tournament,
        cfg.adjudication
    );
    fnv(&text)
}

fn fnv(text: &str) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in text.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::GameResult;

    fn sample() -> MatchState {
        MatchState {
            seed: 42,
            fingerprint: 0xdead_beef,
            rounds: Some(3),
            settings: vec![("games".into(), "2".into()), ("engine1".into(), "00ff".into())],
            names: vec!["New one".into(), "Old".into()],
            paired: true,
            sprt: Some(
                Sprt::new(-1.75, 0.25, 0.05, 0.1)
                    .unwrap()
                    .with_model(SprtModel::Pentanomial),
            ),
            pgn_bytes: Some(1234),
            games: vec![ScoredGame {
                number: 3,
                pair: Some(1),
                white: 0,
                black: 1,
                result: GameResult::Draw,
                forfeit: false,
            }],
        }
    }

    #[test]
    fn text_round_trips() {
        let s = sample();
        assert!(is_state(&s.to_text()));
        assert_eq!(MatchState::parse(&s.to_text()), Ok(s));
    }

    #[test]
    fn bad_files_are_errors() {
        let text = sample().to_text();
        for (bad, wanted) in [
            ("[Event \"x\"]\n".to_string(), "not a match state"),
            (text.replace("seed 42\n", ""), "incomplete"),
            (text.replace("game 3 1 0 1", "game 3 1 0 7"), "no such engines"),
            (format!("{text}game 3 - 1 0 1-0 -\n"), "twice"),
            (text.replace("paired 1", "colour 1"), "bad line"),
        ] {
            let err = MatchState::parse(&bad).unwrap_err();
            assert!(err.contains(wanted), "{err}");
        }
    }

    #[test]
    fn writes_atomically() {
        let dir = std::env::temp_dir().join(format!("fb-state-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("m.state");
        assert_eq!(MatchState::read(&path), Ok(None));
        sample().write_atomic(&path).unwrap();
        assert_eq!(MatchState::read(&path), Ok(Some(sample())));
        assert!(!temporary_path(&path).exists());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
