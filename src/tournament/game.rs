//! One refereed game between two engines, each CECP or UCI (`player` translates both to the same
//! terms).
//!
//! The referee is the rules core: every move an engine sends is looked up among the legal moves of
//! the game's position (CECP: wire notation first, SAN as a fallback for engines that send `O-O`;
//! UCI: our UCI move text), and the game ends by rule when `Position::outcome` says so — not when
//! an engine claims it. Forfeits:
//!
//! | what | reason in the PGN | `Termination` |
//! |---|---|---|
//! | a move that is not legal | `White makes an illegal move: e2e5` | rules infraction |
//! | a `move` that is no move at all (a bare `move` too) | `White sends an unreadable move: …` | rules infraction |
//! | a line longer than 64 KiB where its move is due | `White sends an unreadable line: line of N bytes starting "…"... ignored (at most 65536)` | rules infraction |
//! | `bestmove (none)` (or `0000`) while it has legal moves (UCI) | `White sends no move (bestmove (none)) but has legal moves` | rules infraction |
//! | a result claim the rules do not support | `White makes a false claim: 1-0 …` | rules infraction |
//! | `Illegal move` in reply to a legal move | `White rejects the legal move …` | rules infraction |
//! | the process exits (even if a child of it keeps its output open) | `White disconnects (exit status 3)` | abandoned |
//! | it exits or hangs during start-up or set-up | `White fails to start: …` | abandoned |
//! | a move after the flag fell | `White loses on time (…)` | time forfeit |
//! | no move at all (a hang): the flag falls, `?` (UCI `stop`) is sent, 1 s more passes | `White loses on time: no move within … (stalled)` | time forfeit |
//!
//! Lines a CECP engine sends in force mode — during the set-up, or later while it has not had its
//! first `go` — are dropped with a warning on stderr: CECP forbids an engine in force mode to move,
//! so such a `move` or result claim is an engine bug, but not one of the game's moves or claims;
//! so is a UCI `bestmove` sent while the engine is not searching. A line longer than 64 KiB is
//! not read (see `process`): where the engine's move is due it is an unreadable line.
//!
//! A claim of one's own loss (`0-1` from White, or any `resign`) is a resignation. Adjudication
//! (`--draw`, `--resign`, `--maxmoves`) reads the scores of the engines' thinking output.

use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use super::engine::EngineConfig;
use super::player::{Heard, MoveRead, Player};
use super::process::{Trace, exit_text};
use super::timecontrol::{Clock, TimeControl};
use crate::core::{Color, GameResult, Move, Outcome, Position, Variant};
use crate::notation::{Coords, OutcomeText, fen};

/// Draw adjudication: from move `move_number` on, when both engines' scores stayed within
/// `±score` centipawns for `move_count` consecutive moves each.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DrawRule {
    pub move_number: u32,
    pub move_count: u32,
    pub score: i32,
}

/// Resign adjudication: a side whose score stayed at or below `-score` for `move_count`
/// consecutive moves loses (with `two_sided`, only if the opponent's stayed at or above `score`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ResignRule {
    pub move_count: u32,
    pub score: i32,
    pub two_sided: bool,
}

/// All adjudication rules of a match.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Adjudication {
    pub draw: Option<DrawRule>,
    pub resign: Option<ResignRule>,
    /// Draw after this many full moves.
    pub max_moves: Option<u32>,
}

/// Why an engine lost by forfeit.
#[derive(Clone, Debug, PartialEq)]
pub enum Forfeit {
    Illegal(String),
    Unreadable(String),
    /// A line too long to read where its move was due (the line's description).
    TooLong(String),
    /// A UCI `bestmove (none)` (the text it sent) while legal moves exist.
    NoMove(String),
    FalseClaim(String),
    RejectedLegalMove(String),
    Crash(String),
    StartFailure(String),
    Time {
        used: f64,
        available: f64,
    },
    Stalled {
        waited: f64,
    },
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq)]
pub enum Ending {
    /// By rule, as the core judged it.
    Rule(Outcome),
    Forfeit {
        loser: Color,
        why: Forfeit,
    },
    Resign(Color),
    Adjudicated {
        winner: Option<Color>,
        why: String,
    },
    /// Neither engine could play: no result.
    Aborted(String),
    /// A bug in fairybridge (a panic, its message) stopped the game: no result.
    InternalError(String),
}

impl Ending {
    /// The result: the winner's, a draw, or none for a game that was not played out.
    pub fn result(&self) -> GameResult {
        match self {
            Ending::Rule(o) => o.result(),
            Ending::Forfeit { loser, .. } | Ending::Resign(loser) => GameResult::decided(Some(loser.opposite())),
            Ending::Adjudicated { winner, .. } => GameResult::decided(*winner),
            Ending::Aborted(_) | Ending::InternalError(_) => GameResult::Unfinished,
        }
    }

    /// The PGN `Termination` tag.
    pub fn termination(&self) -> &'static str {
        match self {
            Ending::Rule(_) | Ending::Resign(_) => "normal",
            Ending::Adjudicated { .. } => "adjudication",
            Ending::Aborted(_) | Ending::InternalError(_) => "abandoned",
            Ending::Forfeit { why, .. } => match why {
                Forfeit::Time { .. } | Forfeit::Stalled { .. } => "time forfeit",
                Forfeit::Crash(_) | Forfeit::StartFailure(_) => "abandoned",
                _ => "rules infraction",
            },
        }
    }

    /// The reason as people read it (the last comment of the PGN game).
    pub fn description(&self) -> String {
        match self {
            Ending::Rule(o) => o.description(),
            Ending::Resign(c) => format!("{} resigns", c.name()),
            Ending::Adjudicated { why, .. } => why.clone(),
            Ending::Aborted(why) => why.clone(),
            Ending::InternalError(why) => format!("internal error: {why}"),
            Ending::Forfeit { loser, why } => {
                let who = loser.name();
                match why {
                    Forfeit::Illegal(m) => format!("{who} makes an illegal move: {m}"),
                    Forfeit::Unreadable(m) if m.is_empty() => {
                        format!("{who} sends an unreadable move: move without a move")
                    }
                    Forfeit::Unreadable(m) => format!("{who} sends an unreadable move: {m}"),
                    Forfeit::TooLong(l) => format!("{who} sends an unreadable line: {l}"),
                    Forfeit::NoMove(m) => format!("{who} sends no move ({m}) but has legal moves"),
                    Forfeit::FalseClaim(l) => format!("{who} makes a false claim: {l}"),
                    Forfeit::RejectedLegalMove(l) => format!("{who} rejects a legal move: {l}"),
                    Forfeit::Crash(s) => format!("{who} disconnects ({s})"),
                    Forfeit::StartFailure(s) => format!("{who} fails to start: {s}"),
                    Forfeit::Time { used, available } => {
                        format!("{who} loses on time ({used:.3} s used, {available:.3} s available)")
                    }
                    Forfeit::Stalled { waited } => {
                        format!("{who} loses on time: no move within {waited:.2} s (stalled)")
                    }
                }
            }
        }
    }
}

/// A game's start position, read once when the match is set up (from an opening file, or the
/// variant's start, shuffled where it has a shuffle rule), with its FEN for the records. The
/// position is the one its FEN states, the one the engines are given: it has no history.
#[derive(Clone)]
pub struct Start {
    position: Position,
    /// In human coordinates.
    fen: String,
}

impl Start {
    /// A position set up with no moves played on it (a variant's start, a position read from a
    /// FEN); the end of a line of moves is [`Start::after_line`].
    pub fn new(position: Position) -> Start {
        let fen = fen::to_fen(&position, Coords::Human);
        Start { position, fen }
    }

    /// Where a line of moves led (a PGN opening), as its FEN states it: the line's moves are not
    /// the game's, so a position the line passed through is no repetition in the game, as it is
    /// none for the engines, which are given the FEN.
    ///
    /// # Errors
    ///
    /// The position, set up afresh, is not one of its variant (the text says why).
    pub fn after_line(position: &Position) -> Result<Start, String> {
        let fresh = Position::from_setup(position.variant(), &position.to_setup()).map_err(|e| e.to_string())?;
        Ok(Start::new(fresh))
    }

    /// The position of a FEN (human coordinates) in `variant`.
    ///
    /// # Errors
    ///
    /// The text is not a FEN, or not a position of `variant` (the text says which).
    pub fn parse(variant: &Arc<Variant>, text: &str) -> Result<Start, String> {
        let setup = fen::parse_fen(text, Coords::Human).map_err(|e| e.to_string())?;
        let position = Position::from_setup(variant, &setup).map_err(|e| format!("{text}: {e}"))?;
        Ok(Start::new(position))
    }

    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The FEN in human coordinates.
    pub fn fen(&self) -> &str {
        &self.fen
    }
}

/// The FEN's own `Debug`: a resumed match's fingerprint hashes the openings' `Debug` text, which
/// must not change with their type.
impl std::fmt::Debug for Start {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&self.fen, f)
    }
}

impl PartialEq for Start {
    fn eq(&self, other: &Start) -> bool {
        self.fen == other.fen
    }
}

impl Eq for Start {}

/// A move as played, with its comment (`+0.25/12 0.81s`); its text is written from the position
/// it was played in, by each record's writer.
#[derive(Clone, Debug)]
pub struct MoveRecord {
    pub mv: Move,
    pub comment: String,
}

/// One side's turn as played: its moves in order, one except in a Wild Rose growing-roses turn.
/// A game that ended inside a turn ends with that turn as far as it was played.
#[derive(Clone, Debug)]
pub struct Turn {
    pub moves: Vec<MoveRecord>,
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    pub white: String,
    pub black: String,
    /// The start position, which is of the game's variant.
    pub start: Arc<Start>,
    pub turns: Vec<Turn>,
    pub ending: Ending,
    /// White's and Black's.
    pub time_controls: [TimeControl; 2],
    pub started: SystemTime,
    pub duration: Duration,
}

impl GameRecord {
    /// A game with no moves yet (or never played) from `start`, ended by `ending` so far.
    pub fn unplayed(cfgs: [&EngineConfig; 2], start: &Arc<Start>, ending: Ending) -> GameRecord {
        GameRecord {
            white: cfgs[0].name.clone(),
            black: cfgs[1].name.clone(),
            start: Arc::clone(start),
            turns: Vec::new(),
            ending,
            time_controls: [cfgs[0].tc, cfgs[1].tc],
            started: SystemTime::now(),
            duration: Duration::ZERO,
        }
    }

    /// The name of the game's variant.
    pub fn variant_name(&self) -> &str {
        &self.start.position().variant().name
    }

    /// Every move in the order played.
    pub fn moves(&self) -> impl Iterator<Item = &MoveRecord> {
        self.turns.iter().flat_map(|turn| &turn.moves)
    }

    /// How many moves were played (the sub-moves of a turn count one each).
    pub fn ply_count(&self) -> usize {
        self.turns.iter().map(|turn| turn.moves.len()).sum()
    }

    /// The PGN `TimeControl` tag: the time control of both, or White's and Black's as `W:B`.
    pub fn time_control_tag(&self) -> String {
        let [white, black] = self.time_controls;
        if white == black {
            white.to_string()
        } else {
            format!("{white}:{black}")
        }
    }

    /// Records a move played: the first of a new turn, or the next of the turn being played.
    fn push_move(&mut self, mv: MoveRecord, starts_turn: bool) {
        match self.turns.last_mut() {
            Some(turn) if !starts_turn => turn.moves.push(mv),
            _ => self.turns.push(Turn { moves: vec![mv] }),
        }
    }
}

/// `+0.25`, `-1.50`, `+M3`, `-M2`.
fn format_score(score: i32) -> String {
    if score >= 100_000 {
        format!("+M{}", score - 100_000)
    } else if score <= -100_000 {
        format!("-M{}", -score - 100_000)
    } else {
        format!("{:+.2}", f64::from(score) / 100.0)
    }
}

/// The score of a move's comment as [`format_score`] wrote it (`+0.25/12 0.81s`, `-M2/9 0.02s`;
/// cutechess-cli writes the same): centipawns for the side that moved, a mate in `n` as
/// `100_000 + n` (`-` for being mated). None for a comment without a score (`0.81s`, a book
/// move, an ending).
pub fn comment_score(comment: &str) -> Option<i32> {
    let (score, depth) = comment.split_whitespace().next()?.split_once('/')?;
    depth.parse::<u32>().ok()?;
    let (sign, rest) = match score.as_bytes().first()? {
        b'+' => (1, &score[1..]),
        b'-' => (-1, &score[1..]),
        _ => (1, score),
    };
    if let Some(n) = rest.strip_prefix('M') {
        let n: i32 = n.parse().ok().filter(|n| (0..100_000).contains(n))?;
        return Some(sign * (100_000 + n));
    }
    let pawns: f64 = rest.parse().ok().filter(|p: &f64| p.is_finite() && *p < 999.0)?;
    Some(sign * (pawns * 100.0).round() as i32)
}

struct Side {
    engine: Option<Player>,
    clock: Clock,
    margin: Duration,
    last_score: Option<i32>,
    draw_count: u32,
    lose_count: u32,
    win_count: u32,
}

/// What happened while waiting for a move.
enum Wait {
    /// A move line from the mover, with its arrival time.
    Move(String, Instant),
    Thinking(u32, i32),
    End(Ending),
    Nothing,
}

/// How long the referee waits for a move after the flag fell and `?` was sent.
const GRACE: Duration = Duration::from_secs(1);

/// How long the opponent may take to pass inside a turn of several moves (it does not think).
const PASS_WAIT: Duration = Duration::from_secs(5);

/// Hard cap on a game's length, whatever the rules and adjudication say.
const MAX_PLIES: usize = 2000;

/// How long a side may take for its move: the time available plus the margin, saturating (the
/// CLI refuses times above a year, but increments add up and margins come from outside). A clock
/// below zero (a flag within the margin) leaves what is left of the margin: were each move given
/// the whole margin again, a side could live on past its flag, its clock sinking move by move.
fn allowance(available: f64, margin: Duration) -> Duration {
    if available.is_nan() {
        return margin;
    }
    if available < 0.0 {
        let overdrawn = Duration::try_from_secs_f64(-available).unwrap_or(Duration::MAX);
        return margin.saturating_sub(overdrawn);
    }
    Duration::try_from_secs_f64(available)
        .unwrap_or(Duration::MAX)
        .saturating_add(margin)
}

/// Plays one game; never fails (every failure is some side's forfeit, or an aborted game).
pub async fn play_game(
    cfgs: [&EngineConfig; 2],
    variant: &Arc<Variant>,
    start: &Arc<Start>,
    adj: &Adjudication,
    trace: Option<Arc<Trace>>,
) -> GameRecord {
    let t_start = Instant::now();
    let mut pos = start.position().clone();
    let mut record = GameRecord::unplayed(cfgs, start, Ending::Aborted(String::new()));
    let (w, b) = tokio::join!(
        start_engine(cfgs[0], variant, &pos, trace.clone()),
        start_engine(cfgs[1], variant, &pos, trace)
    );
    let mut errors = [None, None];
    let mut sides: Vec<Side> = Vec::with_capacity(2);
    for (i, (started, cfg)) in [w, b].into_iter().zip(cfgs).enumerate() {
        let engine = match started {
            Ok(e) => Some(e),
            Err(e) => {
                errors[i] = Some(e);
                None
            }
        };
        sides.push(Side {
            engine,
            clock: Clock::new(cfg.tc),
            margin: cfg.margin,
            last_score: None,
            draw_count: 0,
            lose_count: 0,
            win_count: 0,
        });
    }
    let ending = match errors {
        [Some(_), Some(_)] => Some(Ending::Aborted("neither engine could start".into())),
        [Some(e), None] => Some(forfeit(Color::White, Forfeit::StartFailure(e))),
        [None, Some(e)] => Some(forfeit(Color::Black, Forfeit::StartFailure(e))),
        [None, None] => None,
    };
    let ending = match ending {
        Some(e) => e,
        None => referee(&mut sides, &mut pos, &mut record, adj).await,
    };
    let result = ending.result();
    let comment = ending.description().replace(['{', '}'], "");
    record.ending = ending;
    let finishing: Vec<_> = sides
        .iter_mut()
        .filter_map(|s| s.engine.take())
        .map(|e| e.finish(Some((result, comment.clone()))))
        .collect();
    for f in finishing {
        f.await;
    }
    record.duration = t_start.elapsed();
    record
}

fn forfeit(loser: Color, why: Forfeit) -> Ending {
    Ending::Forfeit { loser, why }
}

async fn start_engine(
    cfg: &EngineConfig,
    variant: &Arc<Variant>,
    pos: &Position,
    trace: Option<Arc<Trace>>,
) -> Result<Player, String> {
    let mut e = Player::start(cfg, trace).await.map_err(|e| e.to_string())?;
    match e.new_game(variant, pos, &cfg.tc).await {
        Ok(()) => Ok(e),
        Err(err) => {
            e.finish(None).await;
            Err(err)
        }
    }
}

fn crash_text(status: Option<std::process::ExitStatus>) -> String {
    match status {
        Some(s) => exit_text(s),
        None => "output closed".to_string(),
    }
}

/// Both engines, the mover's first.
fn mover_and_other(sides: &mut [Side], color: Color) -> (&mut Side, &mut Side) {
    let (first, second) = sides.split_at_mut(1);
    if color == Color::White {
        (&mut first[0], &mut second[0])
    } else {
        (&mut second[0], &mut first[0])
    }
}

/// Plays until the game ends.
async fn referee(sides: &mut [Side], pos: &mut Position, record: &mut GameRecord, adj: &Adjudication) -> Ending {
    loop {
        if let Some(o) = pos.outcome() {
            return Ending::Rule(o);
        }
        if record.ply_count() >= MAX_PLIES {
            return Ending::Adjudicated {
                winner: None,
                why: format!("Draw by adjudication: {MAX_PLIES} moves played"),
            };
        }
        let color = pos.side_to_move();
        // Tell the mover what happened and start its clock.
        let (mover, other) = mover_and_other(sides, color);
        let (own, theirs) = (mover.clock.reading(Duration::ZERO), other.clock.reading(Duration::ZERO));
        let engine = mover.engine.as_mut().expect("both engines run during the game");
        if engine.go(color, &own, &theirs).await.is_err() {
            let status = engine.exit_status();
            return forfeit(color, Forfeit::Crash(crash_text(status)));
        }
        let t0 = Instant::now();
        match play_turn(sides, pos, record, color, t0).await {
            Some(ending) => return ending,
            None => {
                if let Some(ending) = adjudicate(sides, pos, record, adj, color) {
                    return ending;
                }
            }
        }
    }
}

/// Waits for the mover's whole turn (several moves in a turn of sub-moves) and plays it; returns
/// an ending if the game ended on the way.
async fn play_turn(
    sides: &mut [Side],
    pos: &mut Position,
    record: &mut GameRecord,
    color: Color,
    t0: Instant,
) -> Option<Ending> {
    let m = color.index();
    let available = sides[m].clock.available();
    let margin = sides[m].margin;
    let allowed = allowance(available, margin);
    let deadline = t0.checked_add(allowed);
    let mut think: Option<(u32, i32)> = None;
    // A move of this turn was played: the next is the turn's next, not a new turn.
    let mut turn_begun = false;
    loop {
        let got = wait(sides, color, deadline).await;
        let (text, at) = match got {
            Wait::End(e) => return Some(e),
            Wait::Thinking(d, s) => {
                think = Some((d, s));
                continue;
            }
            Wait::Nothing => {
                // The flag fell without a move: one `?` (`stop`), a last second, then it is a hang.
                let mover = sides[m].engine.as_mut().expect("engine runs");
                mover.move_now().await;
                let waited = t0.elapsed().as_secs_f64();
                let grace = Instant::now() + GRACE;
                loop {
                    match wait(sides, color, Some(grace)).await {
                        Wait::End(e) => return Some(e),
                        Wait::Thinking(..) => continue,
                        Wait::Move(_, at) => {
                            return Some(forfeit(
                                color,
                                Forfeit::Time {
                                    used: (at - t0).as_secs_f64(),
                                    available,
                                },
                            ));
                        }
                        Wait::Nothing => return Some(forfeit(color, Forfeit::Stalled { waited })),
                    }
                }
            }
            Wait::Move(text, at) => (text, at),
        };
        let used = at.saturating_duration_since(t0);
        if used > allowed {
            return Some(forfeit(
                color,
                Forfeit::Time {
                    used: used.as_secs_f64(),
                    available,
                },
            ));
        }
        let mover = sides[m].engine.as_mut().expect("engine runs");
        let moves = match mover.read_move(pos, &text) {
            Ok(MoveRead::Moves(moves)) => moves,
            Ok(MoveRead::More) => continue,
            Err(why) => return Some(forfeit(color, why)),
        };
        let mut comment = String::new();
        if let Some((d, s)) = think {
            comment = format!("{}/{d} ", format_score(s));
            sides[m].last_score = Some(s);
        } else {
            sides[m].last_score = None;
        }
        comment.push_str(&format!("{:.2}s", used.as_secs_f64()));
        let count = moves.len();
        for (i, mv) in moves.into_iter().enumerate() {
            if i > 0 && (pos.side_to_move() != color || pos.outcome().is_some()) {
                // A turn text that goes on past its turn: the core read it as legal sub-moves of
                // one turn, so this cannot happen; refuse it rather than play the other side.
                return Some(forfeit(color, Forfeit::Illegal(text)));
            }
            for (i_side, side) in sides.iter_mut().enumerate() {
                if let Some(e) = side.engine.as_mut() {
                    e.played(pos, &mv, i_side == m);
                }
            }
            let played = MoveRecord {
                mv,
                comment: comment.clone(),
            };
            record.push_move(played, !turn_begun);
            turn_begun = true;
            pos.make(mv);
            if pos.side_to_move() == color && pos.outcome().is_none() {
                // The same side moves again: the rest of its turn (protocol/wildrose-turns.md).
                let asks_again = i + 1 == count;
                if let Some(ending) = pass_inside_turn(sides, color, t0, asks_again).await {
                    return Some(ending);
                }
            }
        }
        if pos.side_to_move() == color && pos.outcome().is_none() {
            continue;
        }
        sides[m].clock.spend(used, margin);
        return None;
    }
}

/// Inside a turn of several moves: an opponent that passes (a CECP engine out of force mode) is
/// told the sub-move at once and answers with the pass `@@@@`; then, if `asks_again`, the mover
/// is asked for the rest of its turn, with its clock as it stands. Any other opponent hears the
/// sub-moves with the rest of the turn, and the referee confirms the pass itself.
async fn pass_inside_turn(sides: &mut [Side], color: Color, t0: Instant, asks_again: bool) -> Option<Ending> {
    let o = color.opposite().index();
    let them = sides[o].engine.as_mut().expect("both engines run during the game");
    if them.passes_inside_turns() {
        if them.tell_pending().await.is_err() {
            let status = them.exit_status();
            return Some(forfeit(color.opposite(), Forfeit::Crash(crash_text(status))));
        }
        // The opponent's answer, read like any move (claims, resignations and crashes of either
        // side included).
        let deadline = Instant::now() + PASS_WAIT;
        loop {
            match wait(sides, color.opposite(), Some(deadline)).await {
                Wait::Move(text, _) if sides[o].engine.as_ref().is_some_and(|e| e.is_pass(&text)) => break,
                Wait::Move(text, _) => return Some(forfeit(color.opposite(), Forfeit::Illegal(text))),
                Wait::Thinking(..) => continue,
                Wait::End(ending) => return Some(ending),
                Wait::Nothing => {
                    let waited = PASS_WAIT.as_secs_f64();
                    return Some(forfeit(color.opposite(), Forfeit::Stalled { waited }));
                }
            }
        }
    }
    if !asks_again {
        return None;
    }
    let (mover, other) = mover_and_other(sides, color);
    let own = mover.clock.reading(t0.elapsed());
    let theirs = other.clock.reading(Duration::ZERO);
    let me = mover.engine.as_mut().expect("both engines run during the game");
    if me.continue_turn(color, &own, &theirs).await.is_err() {
        let status = me.exit_status();
        return Some(forfeit(color, Forfeit::Crash(crash_text(status))));
    }
    None
}

/// Waits for the mover's next meaningful line (until `deadline`), watching the other engine for
/// claims, resignations and crashes at the same time.
async fn wait(sides: &mut [Side], color: Color, deadline: Option<Instant>) -> Wait {
    let (mover, other) = mover_and_other(sides, color);
    let me = mover.engine.as_mut().expect("engine runs");
    let them = other.engine.as_mut().expect("engine runs");
    loop {
        let (heard, who) = tokio::select! {
            heard = me.next(deadline) => match heard {
                None => return Wait::Nothing,
                Some(heard) => (heard, color),
            },
            Some(heard) = them.next(None) => (heard, color.opposite()),
        };
        match heard {
            Heard::Gone => {
                let engine = if who == color { &mut *me } else { &mut *them };
                let status = engine.wait_exit(Duration::from_millis(300)).await;
                return Wait::End(forfeit(who, Forfeit::Crash(crash_text(status))));
            }
            Heard::Resign => return Wait::End(Ending::Resign(who)),
            Heard::Claim { result, text } => {
                let own_loss = match who {
                    Color::White => result == GameResult::BlackWins,
                    Color::Black => result == GameResult::WhiteWins,
                };
                if own_loss {
                    return Wait::End(Ending::Resign(who));
                }
                // The game is not over by rule (the referee checks before every turn), so a claim
                // of a win or a draw is false.
                return Wait::End(forfeit(who, Forfeit::FalseClaim(text)));
            }
            Heard::RejectsMove(line) => return Wait::End(forfeit(who, Forfeit::RejectedLegalMove(line))),
            Heard::Move(text, at) if who == color => return Wait::Move(text, at),
            Heard::TooLong(text, _) if who == color => return Wait::End(forfeit(who, Forfeit::TooLong(text))),
            Heard::Thinking { depth, score, .. } if who == color => return Wait::Thinking(depth, score),
            _ => {}
        }
    }
}

/// Adjudication after `color` completed a turn.
fn adjudicate(
    sides: &mut [Side],
    pos: &Position,
    record: &GameRecord,
    adj: &Adjudication,
    color: Color,
) -> Option<Ending> {
    let m = color.index();
    let score = sides[m].last_score;
    if let Some(rule) = adj.resign {
        let s = &mut sides[m];
        match score {
            Some(x) if x <= -rule.score => s.lose_count += 1,
            _ => s.lose_count = 0,
        }
        match score {
            Some(x) if x >= rule.score => s.win_count += 1,
            _ => s.win_count = 0,
        }
        for c in Color::BOTH {
            let loser = &sides[c.index()];
            let winner = &sides[c.opposite().index()];
            if loser.lose_count >= rule.move_count && (!rule.two_sided || winner.win_count >= rule.move_count) {
                return Some(Ending::Adjudicated {
                    winner: Some(c.opposite()),
                    why: format!(
                        "{} wins by adjudication: {} scored -{} or worse for {} moves",
                        c.opposite().name(),
                        c.name(),
                        rule.score,
                        rule.move_count
                    ),
                });
            }
        }
    }
    if let Some(rule) = adj.draw {
        let in_window = pos.fullmove_number() >= rule.move_number;
        let s = &mut sides[m];
        match score {
            Some(x) if in_window && x.abs() <= rule.score => s.draw_count += 1,
            _ => s.draw_count = 0,
        }
        if sides.iter().all(|s| s.draw_count >= rule.move_count) {
            return Some(Ending::Adjudicated {
                winner: None,
                why: format!(
                    "Draw by adjudication: both scores within {} for {} moves",
                    rule.score, rule.move_count
                ),
            });
        }
    }
    if let Some(n) = adj.max_moves {
        let full_moves = record.turns.len() as u32 / 2;
        if full_moves >= n {
            return Some(Ending::Adjudicated {
                winner: None,
                why: format!("Draw by adjudication: {n} moves played"),
            });
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allowances_saturate() {
        let margin = Duration::from_millis(50);
        assert_eq!(allowance(1.0, margin), Duration::from_millis(1050));
        assert_eq!(allowance(-3.0, margin), Duration::ZERO);
        assert_eq!(allowance(-0.03, margin), Duration::from_millis(20));
        assert_eq!(allowance(1e30, margin), Duration::MAX);
        assert_eq!(allowance(f64::NAN, Duration::MAX), Duration::MAX);
        // A deadline that far away is no deadline at all (no panic adding it to an instant).
        assert!(Instant::now().checked_add(allowance(1e30, margin)).is_none());
    }

    #[test]
    fn a_clock_overdrawn_move_after_move_flags() {
        // 2 s + 0.02 s, each move 40 ms: the clock sinks by 20 ms a move and the side must lose
        // on time once a move would take it more than 50 ms (the margin) below zero, not be given
        // the margin afresh each move.
        let margin = Duration::from_millis(50);
        let mut clock = Clock::new(TimeControl::parse_tc("2+0.02").expect("time control"));
        let used = Duration::from_millis(40);
        let flagged_at = (1..200).find(|_| {
            let late = used > allowance(clock.available(), margin);
            clock.spend(used, margin);
            late
        });
        // After 101 moves the clock shows -0.02 s: the 102nd move would leave it at -0.06 s.
        assert_eq!(flagged_at, Some(102));
    }

    /// A record from the chess start between engines at `tcs`.
    fn chess_record(tcs: [&str; 2]) -> GameRecord {
        let v = crate::variants::Registry::builtin()
            .get(crate::variants::NORMAL)
            .expect("built-in");
        let [white, black] = tcs.map(|tc| TimeControl::parse_tc(tc).expect("time control"));
        GameRecord {
            white: "W".into(),
            black: "B".into(),
            start: Arc::new(Start::new(Position::start(&v))),
            turns: Vec::new(),
            ending: Ending::Aborted(String::new()),
            time_controls: [white, black],
            started: SystemTime::UNIX_EPOCH,
            duration: Duration::ZERO,
        }
    }

    #[test]
    fn moves_are_kept_in_their_turns() {
        let mut rec = chess_record(["1+0", "1+0"]);
        assert_eq!(rec.variant_name(), "normal");
        let legal = rec.start.position().clone().legal_moves();
        let [a, b, c] = [legal.0[0], legal.0[1], legal.0[2]];
        let played = |mv: Move, comment: &str| MoveRecord {
            mv,
            comment: comment.to_string(),
        };
        rec.push_move(played(a, "a"), false);
        rec.push_move(played(b, "b"), true);
        rec.push_move(played(c, "c"), false);
        let turns: Vec<Vec<&str>> = rec
            .turns
            .iter()
            .map(|t| t.moves.iter().map(|m| m.comment.as_str()).collect())
            .collect();
        assert_eq!(turns, [vec!["a"], vec!["b", "c"]]);
        assert_eq!(rec.ply_count(), 3);
        let moves: Vec<Move> = rec.moves().map(|m| m.mv).collect();
        assert_eq!(moves, [a, b, c]);
    }

    #[test]
    fn the_time_control_tag_names_both_only_when_they_differ() {
        assert_eq!(chess_record(["40/60+0.5", "40/60+0.5"]).time_control_tag(), "40/60+0.5");
        assert_eq!(chess_record(["40/60+0.5", "10"]).time_control_tag(), "40/60+0.5:10");
    }

    #[test]
    fn scores_read_like_cutechess() {
        assert_eq!(format_score(25), "+0.25");
        assert_eq!(format_score(-150), "-1.50");
        assert_eq!(format_score(100_003), "+M3");
        assert_eq!(format_score(-100_002), "-M2");
        for score in [0, 25, -150, 999, -31_999, 100_003, -100_002] {
            let comment = format!("{}/12 0.81s", format_score(score));
            assert_eq!(comment_score(&comment), Some(score), "{comment}");
        }
        for comment in [
            "0.81s",
            "Black mates",
            "+0.25 0.81s",
            "+0.25/x 1s",
            "+M/3 1s",
            "+nan/3 1s",
            "",
        ] {
            assert_eq!(comment_score(comment), None, "{comment}");
        }
    }
}
