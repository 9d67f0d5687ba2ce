//! The UCI session: options, the position the GUI set, and the search with its `bestmove`. It
//! holds no rules: legality and game end come from the core, the search from the engine.
//!
//! Every `go` gets exactly one `bestmove`: when the search ends by itself, at `stop`, at
//! `ponderhit` for a search that ended while pondering, or — when the GUI sends `position`, `go`,
//! `ucinewgame`, `setoption` or `quit` during a search without `stop` first — before that command
//! is carried out. `go infinite` and `go ponder` hold their `bestmove` until `stop`/`ponderhit`,
//! as UCI requires. `isready` is answered at once, also during a search (which runs on its own
//! thread).

use std::io::Write;
use std::sync::Arc;
use std::time::Instant;

use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender, unbounded_channel};

use super::command::{Command, Go, Start, parse_command};
use super::moves;
use super::options::{
    MAX_MULTI_PV, OptionName, Options, check, max_overhead_ms, registry_variant_name, spin, uci_variant_name,
};
use super::reply::{Id, Info, InfoScore, InfoTail, Reply, ScoreValue};
use crate::core::{Color, Move, Position, Variant};
use crate::engine::latency::OverheadEstimator;
use crate::engine::{Game, Thinker, ThinkerEvent};
use crate::notation::{Coords, fen};
use crate::search::{
    Clock, Limits, MIN_OVERHEAD_MS, RootProgress, Score, SearchControl, SearchInfo, SearchResult, TimeBudget,
    clock_budget, movetime_budget,
};
use crate::variants::Registry;

/// Deepest `go depth` (and `go mate`) we search.
const MAX_DEPTH: u32 = 100;

/// How often the serve loop asks a running search which root move it is on.
pub const PROGRESS_INTERVAL: std::time::Duration = std::time::Duration::from_millis(100);
/// A search shows its root moves (`currmove`) once it has run this long, as Stockfish does after
/// a few seconds: short searches are not flooded with them.
const CURRMOVE_AFTER: std::time::Duration = std::time::Duration::from_secs(1);

/// The search running for a `go`.
struct Active {
    id: u64,
    control: Arc<SearchControl>,
    root: Position,
    /// `go infinite` or `go ponder` (before `ponderhit`): `bestmove` waits for `stop`/`ponderhit`.
    holds: bool,
    /// The search ends by itself (a depth, node, time or mate limit): at end of input it may finish.
    ends_by_itself: bool,
    /// The time for this move once `ponderhit` arrives (`None`: no clock, search on).
    ponderhit_budget: Option<TimeBudget>,
    /// A `go ponder` before its `ponderhit`.
    pondering: bool,
    /// The search ended by itself while its `bestmove` is held.
    held: Option<SearchResult>,
    last_info: Option<SearchInfo>,
    /// Our clock when this `go` was read (ms, with the increment), for a search on our clock (not
    /// pondering): what the GUI's next report of it is compared with.
    clock_at_go: Option<ClockAtGo>,
    /// The root move last shown with `currmove`.
    shown: Option<RootProgress>,
}

/// Our side's clock as a `go` gave it.
#[derive(Clone, Copy, Debug)]
struct ClockAtGo {
    color: Color,
    remaining_ms: i64,
    increment_ms: i64,
    /// When the `go` was read: the time since is ours.
    received: Instant,
    /// Plies played at the root: the next report must be of a later position of the same game.
    plies: usize,
}

/// What our clock should show at our next `go`, if the GUI charged only the time we used.
#[derive(Clone, Copy, Debug)]
struct ExpectedClock {
    color: Color,
    ms: i64,
    /// How long the move took (ms).
    thought_ms: i64,
    plies: usize,
}

/// At most this many plies (a few turns of several moves) between our move and the next `go` for
/// a clock report to count as evidence of the GUI's overhead.
const MAX_PLIES_BETWEEN_REPORTS: usize = 8;

/// The session state.
pub struct Session<W: Write> {
    out: W,
    registry: Arc<Registry>,
    game: Game,
    thinker: Thinker,
    events_tx: UnboundedSender<ThinkerEvent>,
    events: UnboundedReceiver<ThinkerEvent>,
    options: Options,
    active: Option<Active>,
    /// A `go infinite`/`go ponder` on a position without a move: `bestmove (none)` waits.
    held_no_move: bool,
    debug: bool,
    /// When the line being handled was read: our clock has run since then.
    received: Instant,
    /// The overhead a move costs beyond our thinking: at least `Move Overhead`, more when the
    /// GUI's clock reports show it (engine::latency).
    overhead: OverheadEstimator,
    /// What our clock should show at the next `go` (set at each `bestmove` on our clock).
    expected_clock: Option<ExpectedClock>,
    finished: bool,
    /// The GUI closed our input: the session ends once the search in progress has answered.
    input_closed: bool,
}

impl<W: Write> Session<W> {
    pub fn new(registry: Arc<Registry>, out: W) -> Session<W> {
        let (events_tx, events) = unbounded_channel();
        let options = Options::new();
        Session {
            out,
            game: Game::new(Arc::clone(&registry)),
            registry,
            thinker: Thinker::new(options.hash_mb),
            events_tx,
            events,
            options,
            active: None,
            held_no_move: false,
            debug: false,
            received: Instant::now(),
            overhead: OverheadEstimator::new(MIN_OVERHEAD_MS),
            expected_clock: None,
            finished: false,
            input_closed: false,
        }
    }

    /// The search threads' reports, for the serve loop to wait on.
    pub fn events(&mut self) -> &mut UnboundedReceiver<ThinkerEvent> {
        &mut self.events
    }

    /// Is a search running whose root moves may be shown?
    pub fn searching(&self) -> bool {
        self.active.as_ref().is_some_and(|a| a.held.is_none())
    }

    /// Shows the root move a search that has run [`CURRMOVE_AFTER`] is on, when it is a new one:
    /// `info depth D currmove M currmovenumber N`.
    pub fn progress(&mut self) {
        let Some(active) = self.active.as_mut().filter(|a| a.held.is_none()) else {
            return;
        };
        if active.control.elapsed() < CURRMOVE_AFTER {
            return;
        }
        let Some(now) = active.control.current().filter(|p| active.shown != Some(*p)) else {
            return;
        };
        active.shown = Some(now);
        let info = Info {
            depth: Some(now.depth),
            currmove: Some(moves::move_text(&active.root, &now.mv, self.options.chess960)),
            currmovenumber: Some(now.number),
            ..Info::default()
        };
        self.send(&Reply::Info(info));
    }

    /// Has the GUI sent `quit`, or closed our input and had its last `go` answered?
    pub fn finished(&self) -> bool {
        self.finished || (self.input_closed && !self.bestmove_pending())
    }

    /// Has the GUI closed our input (no more lines to read)?
    pub fn input_closed(&self) -> bool {
        self.input_closed
    }

    /// The game as the session holds it (read-only: for harnesses that check the engine's moves).
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// A search runs (or its `bestmove` is held): a `bestmove` line is to come.
    pub fn bestmove_pending(&self) -> bool {
        self.active.is_some() || self.held_no_move
    }

    fn send(&mut self, reply: &Reply) {
        // A GUI that has gone away cannot be told anything; end of input will end the session.
        let _ = writeln!(self.out, "{reply}");
        let _ = self.out.flush();
    }

    fn info_strings(&mut self, lines: &[String]) {
        for line in lines {
            self.send(&Reply::info_string(line.as_str()));
        }
    }

    fn error(&mut self, text: impl std::fmt::Display) {
        self.send(&Reply::info_string(format!("error: {text}")));
    }

    /// Handles one GUI line, read at `received`.
    pub fn line(&mut self, line: &str, received: Instant) {
        self.received = received;
        let command = parse_command(line);
        self.execute(command);
    }

    /// The GUI closed our input: `quit` once the search in progress has answered, as a script
    /// piping `go depth 6` expects. A search that would wait for `stop` (`go infinite`, `go
    /// ponder`) or has no limit is stopped now and answers at once.
    pub fn eof(&mut self) {
        self.input_closed = true;
        let finishes = self.active.as_ref().is_some_and(|a| !a.holds && a.ends_by_itself);
        if !finishes {
            self.finish_search();
        }
    }

    /// A line too long to read was thrown away.
    pub fn too_long(&mut self, text: &str) {
        self.error(text);
    }

    /// A search thread reported.
    pub fn think(&mut self, event: ThinkerEvent) {
        match event {
            ThinkerEvent::Info { id, info } => self.search_info(id, info),
            ThinkerEvent::Done { id, result } => self.search_done(id, result),
        }
    }

    fn execute(&mut self, command: Command) {
        match command {
            Command::Empty | Command::Register => {}
            Command::Uci => self.uci(),
            Command::Debug(on) => self.debug = on,
            Command::IsReady => self.send(&Reply::ReadyOk),
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::UciNewGame => {
                self.finish_search();
                let variant = self.variant();
                self.game.new_game(&variant);
                self.thinker.with_searcher(|s| s.new_game());
                // A new game's clock says nothing about the last move of the old one.
                self.expected_clock = None;
            }
            Command::Position { start, moves } => self.position(start, &moves),
            Command::Go(go) => self.go(go),
            Command::Stop => self.stop(),
            Command::PonderHit => self.ponder_hit(),
            Command::Quit => {
                self.finish_search();
                self.finished = true;
            }
            Command::Display => {
                let lines = super::inspect::board_lines(self.game.position());
                self.info_strings(&lines);
            }
            Command::Eval => {
                let pos = self.game.position();
                let value = self.thinker.with_searcher(|s| s.evaluate(pos));
                self.send(&Reply::info_string(format!(
                    "eval cp {value} (static, from the side to move's point of view)"
                )));
            }
            Command::Perft(depth) => {
                self.finish_search();
                if depth > super::inspect::MAX_PERFT_DEPTH {
                    self.error(format!(
                        "go perft {depth}: counted to depth {} at most",
                        super::inspect::MAX_PERFT_DEPTH
                    ));
                }
                let lines = super::inspect::perft_lines(self.game.position(), depth);
                self.info_strings(&lines);
            }
            Command::Bad { command, reason } => self.error(format!("{command}: {reason}")),
            Command::Unknown(word) => self.error(format!("unknown command {}", shorten(&word))),
        }
    }

    fn uci(&mut self) {
        self.send(&Reply::Id(Id::Name(crate::version::ENGINE_NAME.to_string())));
        self.send(&Reply::Id(Id::Author("the fairybridge authors".to_string())));
        for option in self.options.announce(&self.registry) {
            self.send(&Reply::Option(option));
        }
        self.send(&Reply::UciOk);
    }

    /// The variant `UCI_Variant` names.
    fn variant(&self) -> Arc<Variant> {
        self.registry
            .get(&self.options.variant)
            .unwrap_or_else(|| Arc::clone(self.game.variant()))
    }

    // ----- options -----

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        let Some(option) = OptionName::parse(name) else {
            self.error(format!("unknown option {}", shorten(name)));
            return;
        };
        let result = match option {
            OptionName::Hash => spin(value, 1, self.options.max_hash_mb as i64).map(|mb| {
                self.finish_search();
                // The size the table really got (it halves where memory is refused).
                self.options.hash_mb = self.thinker.set_hash_mb(mb as u64);
            }),
            // Taken by the next search: one running keeps its threads.
            OptionName::Threads => spin(value, 1, self.options.max_threads as i64)
                .map(|n| self.options.threads = self.thinker.set_threads(n as u64)),
            OptionName::ClearHash => {
                self.finish_search();
                self.thinker.with_searcher(|s| s.new_game());
                Ok(())
            }
            OptionName::Ponder => check(value).map(|on| self.options.ponder = on),
            OptionName::MultiPv => spin(value, 1, MAX_MULTI_PV).map(|n| self.options.multi_pv = n as u32),
            OptionName::MoveOverhead => spin(value, 0, max_overhead_ms()).map(|ms| {
                self.options.move_overhead_ms = ms;
                self.overhead.set_floor_ms(ms);
            }),
            OptionName::Chess960 => check(value).map(|on| self.options.chess960 = on),
            OptionName::Variant => self.set_variant(value.unwrap_or("").trim()),
            OptionName::VariantPath => self.load_variants(value.unwrap_or("").trim()),
        };
        if let Err(e) = result {
            self.error(format!("option {}: {e}", name.trim()));
        }
    }

    fn set_variant(&mut self, uci_name: &str) -> Result<(), String> {
        let name = registry_variant_name(uci_name);
        let Some(variant) = self.registry.get(name) else {
            return Err(format!("unknown variant {}", shorten(uci_name)));
        };
        self.finish_search();
        self.options.variant = variant.name.clone();
        self.game.new_game(&variant);
        self.announce_variant(&variant);
        Ok(())
    }

    /// What a GUI needs to show a game it does not know, in Fairy-Stockfish's words (orthodox
    /// chess needs none).
    fn announce_variant(&mut self, variant: &Arc<Variant>) {
        if variant.name == crate::variants::NORMAL {
            return;
        }
        let pocket = variant.pieces.iter().filter(|p| p.drop.is_some()).count();
        let start = fen::to_fen(&Position::start(variant), Coords::Human);
        self.send(&Reply::info_string(format!(
            "variant {} files {} ranks {} pocket {pocket} template fairy startpos {start}",
            uci_variant_name(&variant.name),
            variant.shape.files,
            variant.shape.ranks
        )));
    }

    /// `VariantPath`: definition files (several separated by `;`, as Fairy-Stockfish allows one)
    /// loaded now; their games join `UCI_Variant`.
    fn load_variants(&mut self, paths: &str) -> Result<(), String> {
        if paths.is_empty() || paths == "<empty>" {
            return Ok(());
        }
        let mut registry = (*self.registry).clone();
        let mut loaded = Vec::new();
        let mut errors = Vec::new();
        for path in paths.split(';').map(str::trim).filter(|p| !p.is_empty()) {
            match registry.load_file(std::path::Path::new(path)) {
                Ok(v) => loaded.push(uci_variant_name(&v.name).to_string()),
                Err(e) => errors.push(e.to_string()),
            }
        }
        if !loaded.is_empty() {
            self.registry = Arc::new(registry);
            self.send(&Reply::info_string(format!("VariantPath: loaded {}", loaded.join(" "))));
        }
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors.join("; "))
        }
    }

    // ----- position -----

    fn position(&mut self, start: Start, words: &[String]) {
        self.finish_search();
        let variant = self.variant();
        self.game.new_game(&variant);
        if let Start::Fen(text) = &start
            && let Err(e) = self.game.set_fen(text, Coords::Human)
        {
            self.game.new_game(&variant);
            self.error(format!("{e}; the position is the start position"));
            return;
        }
        let mut pos = self.game.position_clone();
        for (i, word) in words.iter().enumerate() {
            if let Err(e) = moves::play_word(&mut pos, word, self.options.chess960) {
                let why = match e {
                    crate::notation::movetext::MoveTextError::Illegal => "illegal move",
                    crate::notation::movetext::MoveTextError::Unparsable => "not a move",
                };
                self.error(format!(
                    "{why} {} (move {} of position); the position is the one before it",
                    shorten(word),
                    i + 1
                ));
                break;
            }
        }
        self.game.set_position(pos);
    }

    // ----- searches -----

    fn go(&mut self, go: Go) {
        self.finish_search();
        self.held_no_move = false;
        let mut root = self.game.position_clone();
        if root.legal_moves().is_empty() || root.goal_reached().is_some() {
            let lost = root
                .outcome()
                .is_some_and(|o| o.winner == Some(root.side_to_move().opposite()));
            let score = InfoScore {
                value: if lost { ScoreValue::Mate(0) } else { ScoreValue::Cp(0) },
                bound: crate::search::Bound::Exact,
            };
            self.send(&Reply::Info(Info {
                depth: Some(0),
                score: Some(score),
                ..Info::default()
            }));
            if go.infinite || go.ponder {
                self.held_no_move = true;
            } else {
                self.send(&Reply::no_move());
            }
            return;
        }
        let clock_at_go = self.our_clock(&go, &root);
        self.observe_clock(clock_at_go.as_ref());
        let mut limits = Limits::default();
        // `mate N` alone: a mate in N needs 2N-1 plies; two more for what our reductions and
        // pruning may hide at that depth, so that the search always ends (Stockfish's would run
        // until `stop`). The search ends earlier, after the iteration that proves such a mate.
        let alone = go.depth.is_none() && go.nodes.is_none() && go.movetime.is_none() && !go.infinite;
        let mate_depth = go.mate.filter(|_| alone).map(|m| m.saturating_mul(2).saturating_add(1));
        limits.depth = go.depth.or(mate_depth).map(|d| d.clamp(1, MAX_DEPTH));
        limits.nodes = go.nodes.map(|n| n.max(1));
        limits.mate = go.mate.filter(|&n| n > 0);
        let budget = self.budget(&go, &root);
        let holds = go.infinite || go.ponder;
        if !holds {
            limits.time = budget.map(|b| self.less_time_spent(b));
        }
        let ends_by_itself =
            limits.depth.is_some() || limits.nodes.is_some() || limits.time.is_some() || limits.mate.is_some();
        limits.root_moves = self.search_moves(&mut root, &go.searchmoves);
        limits.multi_pv = Some(self.options.multi_pv);
        let events = self.events_tx.clone();
        let (id, control) = self.thinker.start(root.clone(), limits, move |e| {
            let _ = events.send(e);
        });
        self.active = Some(Active {
            id,
            control,
            root,
            holds,
            ends_by_itself,
            ponderhit_budget: if go.ponder && !go.infinite { budget } else { None },
            pondering: go.ponder,
            held: None,
            last_info: None,
            clock_at_go: clock_at_go.filter(|_| !holds),
            shown: None,
        });
    }

    /// Our clock as `go` gives it (`wtime`/`btime` of the side to move), if it does.
    fn our_clock(&self, go: &Go, root: &Position) -> Option<ClockAtGo> {
        let color = root.side_to_move();
        let (time, inc) = match color {
            Color::White => (go.wtime, go.winc),
            Color::Black => (go.btime, go.binc),
        };
        Some(ClockAtGo {
            color,
            remaining_ms: time?,
            increment_ms: inc.unwrap_or(0).max(0),
            received: self.received,
            plies: root.plies_played(),
        })
    }

    /// A clock report after our last move: what the GUI charged beyond the time we used is its
    /// overhead, which the estimator learns (a report of another game, side or a far later
    /// position is no evidence).
    fn observe_clock(&mut self, reported: Option<&ClockAtGo>) {
        let (Some(expected), Some(reported)) = (self.expected_clock.take(), reported) else {
            return;
        };
        let later = reported.plies.checked_sub(expected.plies);
        if reported.color == expected.color && later.is_some_and(|n| (1..=MAX_PLIES_BETWEEN_REPORTS).contains(&n)) {
            self.overhead
                .observe(expected.ms, reported.remaining_ms, expected.thought_ms);
        }
    }

    /// The overhead (ms) kept in reserve on every move now: never below `Move Overhead`.
    pub fn overhead_ms(&self) -> i64 {
        self.overhead.overhead_ms()
    }

    /// The time for this move from `go`'s clock or move time; `None` when there is none.
    fn budget(&self, go: &Go, root: &Position) -> Option<TimeBudget> {
        let cost = self.overhead.move_cost();
        if let Some(ms) = go.movetime {
            return Some(movetime_budget(ms, cost.overhead_ms));
        }
        let (time, inc) = match root.side_to_move() {
            Color::White => (go.wtime, go.winc),
            Color::Black => (go.btime, go.binc),
        };
        let clock = Clock {
            remaining_ms: time?,
            increment_ms: inc.unwrap_or(0),
            moves_to_go: go.movestogo.filter(|&n| n > 0),
            moves_played: root.fullmove_number().saturating_sub(1),
        };
        Some(clock_budget(&clock, cost))
    }

    /// Our clock has run since the GUI's line arrived (a busy machine, a stopped search).
    fn less_time_spent(&self, budget: TimeBudget) -> TimeBudget {
        budget.less(self.received.elapsed())
    }

    /// The root moves `searchmoves` allows; words that name no legal move are reported and left
    /// out (and if none is left, every move is searched).
    fn search_moves(&mut self, root: &mut Position, words: &[String]) -> Option<Vec<Move>> {
        let mut allowed = Vec::new();
        for word in words {
            match moves::play_word(root, word, self.options.chess960) {
                Ok(played) => {
                    for _ in &played {
                        root.unmake();
                    }
                    allowed.push(played[0]);
                }
                Err(_) => self.error(format!("searchmoves: {} is not a legal move here", shorten(word))),
            }
        }
        (!allowed.is_empty()).then_some(allowed)
    }

    fn stop(&mut self) {
        if self.held_no_move {
            self.held_no_move = false;
            self.send(&Reply::no_move());
            return;
        }
        let Some(active) = self.active.as_mut() else { return };
        active.holds = false;
        if let Some(result) = active.held.take() {
            self.best_move(result);
        } else {
            active.control.stop();
        }
    }

    fn ponder_hit(&mut self) {
        if self.held_no_move {
            self.held_no_move = false;
            self.send(&Reply::no_move());
            return;
        }
        let Some(active) = self.active.as_mut() else { return };
        if !active.pondering {
            return;
        }
        active.pondering = false;
        let Some(budget) = active.ponderhit_budget else {
            // `go ponder` without a clock: search on until `stop`, as `go infinite` would.
            return;
        };
        active.holds = false;
        if let Some(result) = active.held.take() {
            self.best_move(result);
            return;
        }
        let budget = self.less_time_spent(budget);
        if let Some(active) = self.active.as_ref() {
            active.control.ponder_hit(budget);
        }
    }

    /// Ends any search now, answering its `go` first.
    fn finish_search(&mut self) {
        if self.held_no_move {
            self.held_no_move = false;
            self.send(&Reply::no_move());
        }
        let Some(active) = self.active.as_mut() else { return };
        active.holds = false;
        if let Some(result) = active.held.take() {
            self.best_move(result);
            return;
        }
        active.control.stop();
        let id = active.id;
        self.thinker.stop();
        // The search thread has ended: its last reports are in the channel.
        while self.active.as_ref().is_some_and(|a| a.id == id) {
            match self.events.try_recv() {
                Ok(event) => self.think(event),
                Err(_) => {
                    // No result (the thread could not start or panicked): answer with a legal move.
                    if let Some(active) = self.active.take() {
                        let result = SearchResult::first_legal(&active.root);
                        self.active = Some(active);
                        self.best_move(result);
                    }
                }
            }
        }
    }

    fn search_info(&mut self, id: u64, info: SearchInfo) {
        let Some(active) = self.active.as_mut().filter(|a| a.id == id) else {
            return;
        };
        // The final report before `bestmove` repeats the best line (MultiPV's others come after it).
        if info.line == 1 {
            active.last_info = Some(info.clone());
        }
        let root = active.root.clone();
        let info = self.info(&root, &info, None);
        self.send(&Reply::Info(info));
    }

    /// A search report as `info`, with the table's fill when it is given.
    fn info(&self, root: &Position, info: &SearchInfo, hashfull: Option<u32>) -> Info {
        let score = match info.score {
            Score::Cp(c) => ScoreValue::Cp(i64::from(c)),
            Score::Mate(n) => ScoreValue::Mate(i64::from(n)),
        };
        let pv = moves::line_text(root, &info.pv, self.options.chess960);
        Info {
            depth: Some(info.depth),
            seldepth: Some(info.seldepth),
            multipv: Some(info.line),
            score: Some(InfoScore {
                value: score,
                bound: info.bound,
            }),
            nodes: Some(info.nodes),
            nps: Some((info.nodes as f64 / info.elapsed.as_secs_f64().max(1e-3)) as u64),
            hashfull,
            time: Some(info.elapsed.as_millis() as u64),
            tail: (!pv.is_empty()).then_some(InfoTail::Pv(pv)),
            ..Info::default()
        }
    }

    fn search_done(&mut self, id: u64, result: SearchResult) {
        self.thinker.finished(id);
        let Some(active) = self.active.as_mut().filter(|a| a.id == id) else {
            return;
        };
        if active.holds {
            active.held = Some(result);
            return;
        }
        self.best_move(result);
    }

    /// Sends the last `info` (with the table's fill) and `bestmove` for the active search, and
    /// forgets it.
    fn best_move(&mut self, result: SearchResult) {
        let Some(active) = self.active.take() else { return };
        if let Some(c) = active.clock_at_go {
            let spent = i64::try_from(c.received.elapsed().as_millis()).unwrap_or(i64::MAX);
            self.expected_clock = Some(ExpectedClock {
                color: c.color,
                ms: c.remaining_ms.saturating_sub(spent).saturating_add(c.increment_ms),
                thought_ms: spent,
                plies: c.plies,
            });
        }
        let root = active.root;
        let mut pos = root.clone();
        let Some(best) = result.best.and_then(|m| pos.find_legal(&m)) else {
            self.send(&Reply::no_move());
            return;
        };
        let hashfull = self.thinker.with_searcher(|s| s.hashfull());
        if let Some(last) = &active.last_info {
            // The best line of the last completed iteration, but the whole search's nodes and
            // time: a search stopped inside an iteration (by `nodes`, the clock or `stop`) did more.
            let mut whole = last.clone();
            whole.nodes = whole.nodes.max(result.nodes);
            whole.elapsed = whole.elapsed.max(active.control.elapsed());
            let info = self.info(&root, &whole, Some(hashfull));
            self.send(&Reply::Info(info));
        }
        // The line after the best move, if it starts with it.
        let rest: &[Move] = match result.pv.split_first() {
            Some((first, rest)) if *first == best => rest,
            _ => &[],
        };
        let mut turn = vec![best];
        pos.make(best);
        let mut rest = rest.iter();
        while pos.in_continuation() {
            let next = rest.next().and_then(|m| pos.find_legal(m));
            let next = next.or_else(|| self.continue_turn(&pos));
            let Some(next) = next else { break };
            turn.push(next);
            pos.make(next);
        }
        let text = moves::turn_text(&root, &turn, self.options.chess960);
        let rest: Vec<Move> = rest.copied().collect();
        let ponder = moves::turns(&pos, &rest)
            .into_iter()
            .next()
            .map(|t| moves::turn_text(&pos, &t, self.options.chess960));
        self.send(&Reply::best_move(text, ponder));
    }

    /// The next sub-move of our own turn of several moves when the search's line does not give it:
    /// a short search of the position inside the turn.
    fn continue_turn(&mut self, pos: &Position) -> Option<Move> {
        let mut p = pos.clone();
        let limits = Limits {
            depth: Some(4),
            time: Some(movetime_budget(40, 0)),
            ..Limits::default()
        };
        let control = SearchControl::new();
        let result = self
            .thinker
            .with_searcher(|s| s.search(&mut p, &limits, &control, &mut |_| {}));
        result.best.or_else(|| SearchResult::first_legal(&p).best)
    }
}

/// A word from the GUI, cut for an error reply.
fn shorten(word: &str) -> String {
    const MAX: usize = 40;
    if word.chars().count() <= MAX {
        word.to_string()
    } else {
        format!("{}...", word.chars().take(MAX).collect::<String>())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::captured::CapturedOutput as Shared;
    use crate::search::DEFAULT_OVERHEAD_MS;

    fn session() -> (Session<Shared>, Shared) {
        let out = Shared::default();
        (Session::new(Arc::new(Registry::builtin()), out.clone()), out)
    }

    /// Sends a line and, for a `go`, runs the search to its `bestmove`, which it returns.
    fn send(s: &mut Session<Shared>, out: &Shared, line: &str) -> Option<String> {
        s.line(line, Instant::now());
        if !line.starts_with("go") {
            return None;
        }
        loop {
            let best = out
                .text()
                .lines()
                .rev()
                .find_map(|l| l.strip_prefix("bestmove ").map(str::to_string));
            if let Some(best) = best {
                out.clear();
                return best.split_whitespace().next().map(str::to_string);
            }
            let event = s.events().blocking_recv().expect("the search reports");
            s.think(event);
        }
    }

    fn go(wtime: i64) -> Go {
        Go {
            wtime: Some(wtime),
            btime: Some(wtime),
            ..Go::default()
        }
    }

    #[test]
    fn move_overhead_is_the_least_reserve() {
        let (mut s, _) = session();
        let root = s.game.position_clone();
        assert_eq!(s.overhead_ms(), DEFAULT_OVERHEAD_MS);
        s.line("setoption name Move Overhead value 1000", Instant::now());
        assert_eq!(s.overhead_ms(), 1000);
        let clock = Clock {
            remaining_ms: 5000,
            increment_ms: 0,
            moves_to_go: None,
            moves_played: 0,
        };
        assert_eq!(s.budget(&go(5000), &root), Some(clock_budget(&clock, 1000)));
        let movetime = Go {
            movetime: Some(1500),
            ..Go::default()
        };
        assert_eq!(s.budget(&movetime, &root), Some(movetime_budget(1500, 1000)));
        // Clamped to the announced range.
        s.line("setoption name Move Overhead value 999999", Instant::now());
        assert_eq!(s.overhead_ms(), max_overhead_ms());
    }

    /// Our move at depth 1 on a 10 s clock, then the GUI reports our clock `charged_ms` lower
    /// than the time we used; returns the overhead the session then keeps.
    fn after_a_gui_charging(floor: Option<i64>, charged_ms: i64, new_game_between: bool) -> i64 {
        let (mut s, out) = session();
        if let Some(ms) = floor {
            send(&mut s, &out, &format!("setoption name Move Overhead value {ms}"));
        }
        send(&mut s, &out, "position startpos");
        let ours = send(&mut s, &out, "go wtime 10000 btime 10000 depth 1").expect("a move");
        let mut pos = s.game.position_clone();
        moves::play_word(&mut pos, &ours, false).expect("our move is legal");
        let reply = pos.legal_moves().iter().next().copied().expect("a reply");
        let reply = moves::move_text(&pos, &reply, false);
        if new_game_between {
            send(&mut s, &out, "ucinewgame");
        }
        send(&mut s, &out, &format!("position startpos moves {ours} {reply}"));
        // The GUI's report: the clock before our move less `charged_ms` (we used far less).
        let reported = 10_000 - charged_ms;
        send(&mut s, &out, &format!("go wtime {reported} btime 10000 depth 1"));
        s.overhead_ms()
    }

    #[test]
    fn a_gui_charging_more_raises_the_reserve_above_move_overhead() {
        // 2 s charged for a depth-1 move: the learnt overhead is far above the default 40 ms.
        let learnt = after_a_gui_charging(None, 2000, false);
        assert!(learnt >= 1000, "{learnt}");
        // A higher Move Overhead stays the reserve.
        assert_eq!(after_a_gui_charging(Some(4000), 2000, false), 4000);
        // A new game's clock is no evidence.
        assert_eq!(after_a_gui_charging(None, 2000, true), DEFAULT_OVERHEAD_MS);
    }
}
