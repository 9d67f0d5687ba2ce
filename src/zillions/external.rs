//! An external XBoard or UCI engine behind the plug-in (protocol/zillions.md §6): its process,
//! kept in step with the game our session plays, and its searches in Zillions' terms.
//!
//! The protocol's client side is the match runner's (`tournament::player`: CECP and UCI, async on
//! tokio); this file owns a current-thread runtime and drives it from Zillions' calls, which
//! block. The engine is told the game lazily, at its next search: UCI gets the whole game with
//! every `go`; a CECP engine is kept in force mode between searches, told the moves it has not
//! made itself, and set up afresh (`new`, the start, every move) when the game left its board
//! behind (a move other than the one it made, or a move it sent after we had stopped waiting).

use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::runtime::Runtime;

use super::config::EngineEntry;
use super::session::{SearchProgress, SearchRequest, StopRequest};
use crate::core::{Move, Position, Variant};
use crate::notation::Coords;
use crate::notation::movetext;
use crate::notation::zillions::move_text;
use crate::protocol::uci::moves as uci_moves;
use crate::tournament::engine::{EngineConfig, Protocol};
use crate::tournament::game::Forfeit;
use crate::tournament::player::{Heard, MoveRead, Player};
use crate::tournament::timecontrol::TimeControl;

use super::codes::{LOSS_SCORE, WIN_SCORE};

/// How often a search looks at Zillions' stop request.
const POLL: Duration = Duration::from_millis(2);
/// How long an engine told to stop (`?`, `stop`) has to send its move before the search ends
/// without it (with its best move so far, or ours).
pub const STOP_GRACE: Duration = Duration::from_millis(250);
/// Longest search time taken at face value (ms): a day.
const MAX_TIME_MS: i64 = 86_400_000;
/// Deepest search asked for (plies).
const MAX_DEPTH: i64 = 100;

/// Why the engine could not give a move; the plug-in plays our own engine's instead.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault(pub String);

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// A running engine playing one game.
pub struct ExternalEngine {
    /// `cmd` as the file names it, for messages.
    pub name: String,
    runtime: Runtime,
    /// `None` once it failed (the game goes on with our engine).
    player: Option<Player>,
    protocol: Protocol,
    variant: Arc<Variant>,
    /// The game's start (known at the first move or search: placements may come first).
    start: Option<Position>,
    /// Every move of the game: the position before it and the move.
    history: Vec<(Position, Move)>,
    /// The engine has the game's start and has been told (or will be, at its next `go`) every move.
    in_step: bool,
    /// CECP: the move it made on its own board at its last search (not told again if played).
    ahead: Option<Move>,
    /// It was told to move and did not within [`STOP_GRACE`]: it may think on, deaf to us
    /// (Fairy-Max 5.0b does not know `?`), so it is started afresh before its next
    /// search.
    busy: bool,
    entry: EngineEntry,
}

/// Runs engine I/O to its end on this thread (Zillions' calling thread), where a write to an
/// engine that has exited must not raise `SIGPIPE`: its default kills the host program (Rust
/// programs ignore it; a C host like Zillions' does not). On Linux the signal is blocked on this
/// thread meanwhile and one it raised is taken back before the old mask returns; the write
/// itself fails with `EPIPE`, which the client reads as the engine's end. Windows has no such
/// signal.
fn run<F: std::future::Future>(runtime: &Runtime, io: F) -> F::Output {
    #[cfg(target_os = "linux")]
    {
        without_sigpipe(|| runtime.block_on(io))
    }
    #[cfg(not(target_os = "linux"))]
    {
        runtime.block_on(io)
    }
}

#[cfg(target_os = "linux")]
fn without_sigpipe<T>(f: impl FnOnce() -> T) -> T {
    // SAFETY: sigset_t is plain data that sigemptyset initialises; the calls touch only this
    // thread's mask and its pending signals.
    unsafe {
        let mut pipe: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut pipe);
        libc::sigaddset(&mut pipe, libc::SIGPIPE);
        let mut old: libc::sigset_t = std::mem::zeroed();
        libc::pthread_sigmask(libc::SIG_BLOCK, &pipe, &mut old);
        let mut pending: libc::sigset_t = std::mem::zeroed();
        libc::sigpending(&mut pending);
        let was_pending = libc::sigismember(&pending, libc::SIGPIPE) == 1;
        let result = f();
        if !was_pending {
            let none = libc::timespec { tv_sec: 0, tv_nsec: 0 };
            while libc::sigtimedwait(&pipe, std::ptr::null_mut(), &none) == libc::SIGPIPE {}
        }
        libc::pthread_sigmask(libc::SIG_SETMASK, &old, std::ptr::null_mut());
        result
    }
}

/// Starts the process of `entry` and gets through its handshake and options; checks that it
/// plays `variant`.
fn launch(runtime: &Runtime, entry: &EngineEntry, variant: &Variant) -> Result<Player, String> {
    let cfg = EngineConfig {
        name: entry.cmd.clone(),
        cmd: entry.cmd.clone(),
        args: entry.args.clone(),
        dir: entry.working_dir.clone(),
        options: entry.options.clone(),
        tc: TimeControl::PerMove(1.0),
        margin: Duration::ZERO,
        stderr: None,
        depth: None,
        nodes: None,
        // An engine's threads are its own option (`options = { Threads = 2 }` for UCI engines).
        cores: None,
        proto: entry.protocol,
    };
    let mut player = run(runtime, Player::start(&cfg, None)).map_err(|e| format!("{}: {e}", entry.cmd))?;
    player.set_variant_name(entry.engine_variant.clone());
    if let Err(why) = player.plays(variant) {
        run(runtime, player.finish(None));
        return Err(format!("{}: {why}", entry.cmd));
    }
    live_groups::add(player.process_group());
    Ok(player)
}

/// Ends a player: `quit` and a second to go (`politely`), then its process group is killed.
fn end(runtime: &Runtime, player: Player, politely: bool) {
    let group = player.process_group();
    if politely {
        run(runtime, player.finish(None));
    }
    // Dropping it (`finish` does too) kills its group.
    live_groups::remove(group);
}

/// The process groups of the engines running now, killed when the library is unloaded or the
/// program exits without `DLL_CleanUp` (Linux: a destructor in `.fini_array`, which both run);
/// the engines' own end is otherwise their stdin's, at the host's exit.
mod live_groups {
    use std::sync::Mutex;

    static GROUPS: Mutex<Vec<u32>> = Mutex::new(Vec::new());

    pub fn add(group: Option<u32>) {
        if let Some(g) = group {
            GROUPS.lock().unwrap_or_else(|e| e.into_inner()).push(g);
        }
    }

    pub fn remove(group: Option<u32>) {
        GROUPS
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .retain(|&g| Some(g) != group);
    }

    #[cfg(target_os = "linux")]
    #[used]
    #[unsafe(link_section = ".fini_array")]
    static KILL_AT_UNLOAD: extern "C" fn() = kill_all;

    #[cfg(target_os = "linux")]
    extern "C" fn kill_all() {
        // No panic may leave a destructor: a poisoned or busy lock is skipped.
        let Ok(groups) = GROUPS.try_lock() else { return };
        for &g in groups.iter() {
            if let Ok(pid) = libc::pid_t::try_from(g)
                && pid > 1
            {
                // SAFETY: kill(2) takes plain integers; a group that is gone gives ESRCH.
                unsafe {
                    libc::kill(-pid, libc::SIGKILL);
                }
            }
        }
    }
}

impl ExternalEngine {
    /// Starts the engine of `entry` for `variant` and gets through its handshake and options;
    /// `Err` says why not.
    ///
    /// # Errors
    ///
    /// The engine cannot be run, does not get through its handshake, or does not play the variant.
    pub fn start(entry: &EngineEntry, variant: &Arc<Variant>) -> Result<ExternalEngine, String> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| format!("cannot start the engine's runtime: {e}"))?;
        let player = launch(&runtime, entry, variant)?;
        Ok(ExternalEngine {
            name: entry.cmd.clone(),
            runtime,
            player: Some(player),
            protocol: entry.protocol,
            variant: Arc::clone(variant),
            start: None,
            history: Vec::new(),
            in_step: false,
            ahead: None,
            busy: false,
            entry: entry.clone(),
        })
    }

    /// Is the engine still playing (no fault so far)?
    pub fn alive(&self) -> bool {
        self.player.is_some()
    }

    /// A move of the game (either side's), played from `before`.
    pub fn moved(&mut self, before: &Position, mv: Move) {
        self.start.get_or_insert_with(|| before.clone());
        self.history.push((before.clone(), mv));
        let ahead = self.ahead.take();
        let Some(player) = self.player.as_mut().filter(|_| self.in_step) else {
            return;
        };
        match ahead {
            Some(made) if made == mv => player.played(before, &mv, true),
            // It made another move on its board: set it up afresh at its next search.
            Some(_) => self.in_step = false,
            None => player.played(before, &mv, false),
        }
    }

    /// Ends the engine after a fault; the game goes on without it.
    pub fn fail(&mut self, why: &Fault) {
        log::warn!("zillions: engine {}: {why}; our engine plays on", self.name);
        if let Some(player) = self.player.take() {
            end(&self.runtime, player, true);
        }
    }

    /// Ends the engine (`quit`, then its process group killed if it is still there).
    pub fn finish(self) {
        drop(self);
    }

    /// Asks the engine for a move in `pos` (the game's current position) within `request`,
    /// reporting its thinking through `progress` and stopping it when `poll` asks to. The answer's
    /// `best_move` is a legal move in Zillions notation; `Err` is a fault (the engine is then
    /// finished by the caller with [`fail`](Self::fail)).
    ///
    /// # Errors
    ///
    /// The engine's pipe is closed, or it sends no legal move.
    pub fn search(
        &mut self,
        pos: &Position,
        request: &SearchRequest,
        poll: &mut dyn FnMut() -> StopRequest,
        progress: &mut dyn FnMut(&SearchProgress),
    ) -> Result<SearchProgress, Fault> {
        self.start.get_or_insert_with(|| pos.clone());
        if self.busy && self.player.is_some() {
            // Killed and started again.
            if let Some(player) = self.player.take() {
                end(&self.runtime, player, false);
            }
            self.busy = false;
            self.in_step = false;
            self.player = Some(launch(&self.runtime, &self.entry, &self.variant).map_err(Fault)?);
        }
        let Some(player) = self.player.as_mut() else {
            return Err(Fault("the engine is gone".into()));
        };
        let time_ms = request.time_ms.clamp(0, MAX_TIME_MS);
        let time = (time_ms > 0).then(|| Duration::from_millis(time_ms as u64));
        let depth = (request.depth > 0).then(|| request.depth.min(MAX_DEPTH) as u32);
        let started = Instant::now();
        let protocol = self.protocol;
        let in_step = self.in_step;
        let (start, history, variant) = (self.start.as_ref(), &self.history, &self.variant);
        let outcome = run(&self.runtime, async {
            if !in_step {
                let start = start.ok_or_else(|| Fault("no start position".into()))?;
                player
                    .new_game(variant, start, &TimeControl::PerMove(1.0))
                    .await
                    .map_err(|e| Fault(format!("setting up the game: {e}")))?;
                for (before, mv) in history {
                    player.played(before, mv, false);
                }
            }
            player
                .go_limited(time.map(|t| t.as_millis() as u64), depth)
                .await
                .map_err(|e| Fault(format!("go: {e}")))?;
            // Told to move at the time asked for and a quarter more: an engine's clock may run
            // behind ours (Fairy-Max counts CPU time).
            ask(player, protocol, pos, time.map(|t| started + t + t / 4), poll, progress).await
        });
        self.ahead = None;
        match outcome {
            Ok(answer) => {
                // What it sent is its move: CECP has made it on its own board; a move cut short
                // still comes, on a board we no longer follow.
                self.in_step = answer.own_move;
                self.busy = !answer.own_move;
                if protocol == Protocol::Cecp {
                    if answer.own_move {
                        self.ahead = Some(answer.mv);
                    }
                    if let Err(e) = run(&self.runtime, player.stand_by()) {
                        return Err(Fault(format!("force: {e}")));
                    }
                } else if !answer.own_move {
                    // A UCI engine that does not answer `stop` is not searching for us any more.
                    return Err(Fault(format!(
                        "no bestmove within {} ms of stop",
                        STOP_GRACE.as_millis()
                    )));
                }
                Ok(answer.progress)
            }
            Err(fault) => {
                self.in_step = false;
                Err(fault)
            }
        }
    }
}

impl Drop for ExternalEngine {
    /// `quit`, a second to go, then the process group is killed: nothing of it outlives us.
    fn drop(&mut self) {
        // A busy engine would not read `quit`: it is killed at once.
        if let Some(player) = self.player.take() {
            end(&self.runtime, player, !self.busy);
        }
    }
}

/// What a search came to.
struct Answer {
    mv: Move,
    progress: SearchProgress,
    /// The engine sent this move (else it is its best move so far: it was stopped and did not
    /// answer in time).
    own_move: bool,
}

/// Why a move text the engine sent is refused.
fn refused(forfeit: &Forfeit) -> String {
    match forfeit {
        Forfeit::Illegal(text) => format!("an illegal move {text:?}"),
        Forfeit::Unreadable(text) => format!("an unreadable move {text:?}"),
        Forfeit::NoMove(text) => format!("no move ({text}) where there are legal moves"),
        other => format!("{other:?}"),
    }
}

/// Zillions' score for an engine's (centipawns, ±100000+N for a mate in N moves).
fn zillions_score(score: i32) -> i32 {
    match score {
        s if s >= 100_000 => WIN_SCORE - (s - 100_000),
        s if s <= -100_000 => LOSS_SCORE + (-s - 100_000),
        s => s,
    }
}

/// The first move of a principal variation, in the engine's notation, if it is legal in `pos`.
fn pv_move(protocol: Protocol, pos: &Position, word: &str) -> Option<Move> {
    match protocol {
        Protocol::Uci => uci_moves::play_word(&mut pos.clone(), word, false)
            .ok()?
            .first()
            .copied(),
        Protocol::Cecp => movetext::parse_move(pos, word, Coords::Wire).ok(),
    }
}

/// Reads the engine until its move (checked against `pos`), relaying its thinking; asks it to
/// move when `poll` says so or at `deadline`, and then waits [`STOP_GRACE`] before taking its
/// best move so far.
async fn ask(
    player: &mut Player,
    protocol: Protocol,
    pos: &Position,
    deadline: Option<Instant>,
    poll: &mut dyn FnMut() -> StopRequest,
    progress: &mut dyn FnMut(&SearchProgress),
) -> Result<Answer, Fault> {
    let mut state = SearchProgress::default();
    let mut best_so_far: Option<Move> = None;
    let mut stop_sent: Option<Instant> = None;
    loop {
        let heard = player.next(Some(Instant::now() + POLL)).await;
        match heard {
            None | Some(Heard::Other) => {}
            Some(Heard::Thinking {
                depth,
                score,
                nodes,
                first_move,
            }) => {
                if let Some(mv) = first_move.and_then(|w| pv_move(protocol, pos, &w)) {
                    best_so_far = Some(mv);
                    state.best_move = move_text(pos, &mv);
                    state.current_move = state.best_move.clone();
                }
                state.depth = depth;
                state.score = zillions_score(score);
                state.nodes = state.nodes.max(nodes);
                progress(&state);
            }
            Some(Heard::Move(text, _)) => match player.read_move(pos, &text) {
                Ok(MoveRead::More) => {}
                Ok(MoveRead::Moves(moves)) => {
                    let Some(&mv) = moves.first() else {
                        return Err(Fault(format!("an empty move {text:?}")));
                    };
                    state.best_move = move_text(pos, &mv);
                    state.current_move = state.best_move.clone();
                    return Ok(Answer {
                        mv,
                        progress: state,
                        own_move: true,
                    });
                }
                Err(forfeit) => return Err(Fault(refused(&forfeit))),
            },
            Some(Heard::Gone) => return Err(Fault("the engine exited".into())),
            Some(Heard::Resign) => return Err(Fault("it resigned instead of moving".into())),
            Some(Heard::Claim { text, .. }) => return Err(Fault(format!("it claimed {text:?} instead of moving"))),
            Some(Heard::RejectsMove(line)) => return Err(Fault(format!("it refused a move: {}", line.trim()))),
            Some(Heard::TooLong(text, _)) => return Err(Fault(format!("an unreadable line: {text}"))),
        }
        let now = Instant::now();
        match stop_sent {
            None => {
                if poll() != StopRequest::KeepSearching || deadline.is_some_and(|d| now >= d) {
                    player.move_now().await;
                    stop_sent = Some(now);
                }
            }
            Some(at) if now.duration_since(at) >= STOP_GRACE => {
                let Some(mv) = best_so_far else {
                    return Err(Fault(format!(
                        "no move within {} ms of being told to move, and no best move so far",
                        STOP_GRACE.as_millis()
                    )));
                };
                state.best_move = move_text(pos, &mv);
                return Ok(Answer {
                    mv,
                    progress: state,
                    own_move: false,
                });
            }
            Some(_) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_scores_become_zillions_scores() {
        assert_eq!(zillions_score(35), 35);
        assert_eq!(zillions_score(-99_999), -99_999);
        assert_eq!(zillions_score(100_003), WIN_SCORE - 3);
        assert_eq!(zillions_score(-100_002), LOSS_SCORE + 2);
    }

    #[test]
    fn a_pv_move_is_read_in_the_engines_notation_or_not_at_all() {
        let v = crate::protocol::builtin_games().get("normal").expect("chess");
        let start = Position::start(&v);
        let e4 = pv_move(Protocol::Uci, &start, "e2e4").expect("legal");
        assert_eq!(move_text(&start, &e4), "Pawn e2 - e4");
        assert_eq!(
            pv_move(Protocol::Cecp, &start, "g1f3")
                .map(|m| move_text(&start, &m))
                .as_deref(),
            Some("Knight g1 - f3")
        );
        assert_eq!(pv_move(Protocol::Uci, &start, "e2e5"), None);
        assert_eq!(pv_move(Protocol::Cecp, &start, "junk"), None);
    }
}
