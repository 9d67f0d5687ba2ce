//! The CECP game session: the one state machine behind the one command loop (`command_loop`),
//! whatever searches. It owns the game (variant and its size check, position with its history,
//! `setboard`, edit mode, `undo`/`remove`), the clocks, force / play / analyze / ponder, the
//! feature announcement and the claims of a game's end, and answers every command; the thinking
//! is its `Searcher`'s: our engine's search (`SearchDriver`) or a Zillions plug-in's
//! (`zillions::host`). What a searcher cannot do is a capability it lacks (`Capabilities`),
//! announced and refused here. The session holds no rules: it asks the game; its clock is
//! `clock`, the `edit` board is `edit`. What a command does to a running search
//! (`Command::while_thinking`) and what waits for our move are the loop's.

use std::io::Write;
use std::sync::Arc;
use std::time::Instant;

use tokio::sync::mpsc::UnboundedSender;

use super::announce;
use super::clock::{CecpClock, OverheadWatch};
use super::command::{Command, EditCommand, MoveFilter};
use super::driver::{Purpose, SearchDriver};
use super::edit::{EditBoard, EditStep};
use super::features::Capabilities;
use super::ghosts;
use super::reply::{Reply, ThinkingExtras, ThinkingLine, cecp_score};
use super::searcher::{Reported, Searcher};
use super::variant_choice::choose_variant;
use super::variant_info::XboardInfo;
use super::wire::{self, WireStyle};
use crate::core::{Color, Move, Outcome, Position, Setup, Variant};
use crate::engine::{Game, GameError, ThinkerEvent, draw};
use crate::notation::{Coords, fen, parse_square};
use crate::search::{Limits, SearchInfo};
use crate::variants::Registry;

pub use crate::engine::memory::DEFAULT_HASH_MB;

#[derive(Copy, Clone, Debug, Eq, PartialEq)]
enum Mode {
    /// Play neither side.
    Force,
    /// Play `engine`'s moves.
    Play { engine: Color },
    /// Analyse whatever position is set, forever.
    Analyze,
}

/// The session state; `S` thinks (our engine's search unless said otherwise).
pub struct Session<W: Write, S: Searcher = SearchDriver> {
    out: W,
    game: Game,
    /// The game `new` starts.
    default_variant: Arc<Variant>,
    searcher: S,
    /// What the searcher can do (fixed for its life).
    caps: Capabilities,
    /// The searcher follows the game (false before the first set-up it was asked to follow, and
    /// after it refused one).
    followed: bool,
    mode: Mode,
    post: bool,
    ponder: bool,
    clock: CecpClock,
    /// The GUI's per-move overhead, learnt from its `time` reports.
    overhead: OverheadWatch,
    hint: Option<Move>,
    /// Score of our last search, from our side's view (for draw offers).
    last_score: Option<i32>,
    debug: bool,
    edit: Option<EditBoard>,
    /// We played the first move of a turn of several (growing roses) and wait for the GUI to let
    /// us go on: `usermove @@@@`, or the `setboard` XBoard sends after the opponent's pass.
    awaiting_pass: bool,
    /// When the command being handled was read: time spent since then is on our clock.
    received: Instant,
    /// The GUI has gone while a search ran that must be waited for: the session ends once it has.
    closing: bool,
    finished: bool,
}

impl<W: Write> Session<W> {
    /// Our engine's session writing to `out`, whose searches report to `events`.
    pub fn new(registry: Arc<Registry>, out: W, events: UnboundedSender<ThinkerEvent>) -> Session<W> {
        let normal = Arc::clone(Game::new(Arc::clone(&registry)).variant());
        let mut session = Session::with_searcher(registry, normal, SearchDriver::new(DEFAULT_HASH_MB, events), out);
        // Our search follows any game: it plays from the start, before any `new`.
        session.follow_game();
        session
    }
}

impl<W: Write, S: Searcher> Session<W, S> {
    /// A session on `registry`'s games, starting (and `new` starting) `default_variant`, thinking
    /// with `searcher`, writing to `out`. The searcher is first asked to follow on `new`.
    pub fn with_searcher(registry: Arc<Registry>, default_variant: Arc<Variant>, searcher: S, out: W) -> Self {
        let mut game = Game::new(registry);
        game.new_game(&default_variant);
        Session {
            out,
            game,
            default_variant,
            caps: searcher.capabilities(),
            searcher,
            followed: false,
            mode: Mode::Play { engine: Color::Black },
            post: true,
            ponder: false,
            clock: CecpClock::default(),
            overhead: OverheadWatch::default(),
            hint: None,
            last_score: None,
            debug: false,
            edit: None,
            awaiting_pass: false,
            received: Instant::now(),
            closing: false,
            finished: false,
        }
    }

    /// Has the GUI asked us to quit (or gone away)?
    pub fn finished(&self) -> bool {
        self.finished
    }

    /// The game as the session holds it (read-only: for harnesses that check the engine's moves).
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// What thinks.
    pub fn searcher(&self) -> &S {
        &self.searcher
    }

    /// What the searcher can do, as the session announces it.
    pub fn capabilities(&self) -> &Capabilities {
        &self.caps
    }

    /// The side we play; `None` in force mode and analysis.
    pub fn engine_side(&self) -> Option<Color> {
        match self.mode {
            Mode::Play { engine } => Some(engine),
            Mode::Force | Mode::Analyze => None,
        }
    }

    /// Where the session writes.
    pub fn out_mut(&mut self) -> &mut W {
        &mut self.out
    }

    /// Between `edit` and `.`: lines are edit commands.
    pub fn editing(&self) -> bool {
        self.edit.is_some()
    }

    /// Thinking on its own move: a `move` line (or nothing, if called off) is to come.
    pub fn thinking_on_move(&self) -> bool {
        self.searcher.thinking_on_move()
    }

    fn send(&mut self, reply: Reply) {
        // A GUI that has gone away cannot be told anything; EOF on stdin will end the session.
        let _ = writeln!(self.out, "{reply}");
        let _ = self.out.flush();
    }

    // ----- searches -----

    fn stop_search(&mut self) {
        self.searcher.stop();
    }

    fn engine_moves_played(&self) -> u32 {
        self.game.position().fullmove_number().saturating_sub(1)
    }

    /// Our turn in play mode: claim the result if the game is over, else start thinking.
    fn think_on_move(&mut self) {
        if !self.game.is_valid() {
            return;
        }
        if let Some(outcome) = self.game.outcome() {
            self.claim(&outcome);
            return;
        }
        let root = self.game.position_clone();
        let cost = self.overhead.move_cost();
        let mut limits = self.clock.limits(self.engine_moves_played(), cost);
        limits.root_moves = ghosts::without_ghost_drops(&root, self.wire_style());
        // Our clock has been running since the GUI's command arrived (a stopped ponder search,
        // a busy machine): take that time off this move's budget.
        let spent = self.received.elapsed();
        limits.time = limits.time.map(|t| t.less(spent));
        self.debug_line(|| {
            format!(
                "thinking on our move: {}, overhead {} ms, a move at least {} ms",
                limits_text(&limits, spent),
                cost.overhead_ms,
                cost.least_ms
            )
        });
        if let Err(why) = self.searcher.start(root, limits, Purpose::Move) {
            // A GUI waiting for our move gets an answer, never silence.
            self.forfeit(why);
        }
    }

    /// How the current variant's castling and e.p. go on the wire.
    fn wire_style(&self) -> WireStyle {
        XboardInfo::of(self.game.variant()).wire
    }

    /// A `#` line, only once the GUI has accepted `feature debug=1` (cecp-reference §13.28).
    fn debug_line(&mut self, text: impl FnOnce() -> String) {
        if self.debug {
            self.send(Reply::Debug(text()));
        }
    }

    /// Resizes the hash table (between searches) and says what it got.
    fn set_hash_mb(&mut self, megabytes: u64) {
        if let Some(got) = self.searcher.set_hash_mb(megabytes) {
            self.debug_line(|| format!("hash table {got} MB ({megabytes} MB asked)"));
        }
    }

    /// Sets the threads of the next search (a running one keeps its own: `cores` may come while
    /// we think or ponder, cecp-reference §13.9) and says what it got.
    fn set_threads(&mut self, cores: u32) {
        if let Some(got) = self.searcher.set_threads(cores) {
            self.debug_line(|| format!("{got} search threads from the next search on ({cores} asked)"));
        }
    }

    fn start_analysis(&mut self) {
        self.stop_search();
        if !self.game.is_valid() || !self.caps.analyze {
            return;
        }
        let pos = self.game.position();
        if pos.legal_moves().is_empty() || pos.goal_reached().is_some() {
            return;
        }
        // A searcher that analyses does not refuse to.
        let _ = self
            .searcher
            .start(self.game.position_clone(), Limits::infinite(), Purpose::Analyze);
    }

    fn start_pondering(&mut self, predicted: Option<Move>) {
        let Some(predicted) = predicted else { return };
        if !self.ponder || !self.caps.ponder || !self.game.is_valid() {
            return;
        }
        if !self.game.position().is_legal(&predicted) {
            return;
        }
        let mut root = self.game.position_clone();
        let hint = wire::text(&root, &predicted, self.wire_style());
        root.make(predicted);
        // In the middle of the opponent's turn of several moves we answer its sub-moves with a
        // pass, not with a move: nothing to ponder on. Nor after a reply that ends the game (a
        // repetition, the move limit): then we claim the result, never play on.
        if root.in_continuation() || root.outcome().is_some() {
            return;
        }
        // The ponder PV starts after the predicted move; XBoard shows it after this hint.
        self.send(Reply::Hint(hint));
        // On a ponder hit this search's move is played: it leaves out what XBoard would refuse,
        // and it goes no deeper than `sd` (a ponder search that ends there is dropped, and the
        // hit is searched afresh).
        let limits = Limits {
            root_moves: ghosts::without_ghost_drops(&root, self.wire_style()),
            depth: self.clock.max_depth(),
            ..Limits::infinite()
        };
        // A searcher that ponders does not refuse to.
        let _ = self.searcher.start(root, limits, Purpose::Ponder { predicted });
    }

    /// A report of the searcher's workers: a thinking line, our move, or a forfeit.
    fn searcher_report(&mut self, report: S::Report) {
        let style = self.wire_style();
        let post = self.post;
        match self.searcher.report(report) {
            Reported::Nothing => {}
            Reported::Thinking { root, info } => {
                if post {
                    let line = thinking_line(root, &info, style);
                    self.send(Reply::Thinking(line));
                }
            }
            Reported::Move {
                best,
                score,
                ponder,
                note,
            } => {
                if let Some(note) = note {
                    self.debug_line(|| note);
                }
                self.play_our_move(best, score, ponder);
            }
            Reported::Forfeit(why) => self.forfeit(why),
        }
        self.finished |= self.closing && !self.searcher.thinking_on_move();
    }

    fn play_our_move(&mut self, best: Option<Move>, score: Option<i32>, ponder: Option<Move>) {
        let Some(best) = best else {
            // No legal move: the game is over; say how.
            if let Some(o) = self.game.outcome() {
                self.claim(&o);
            }
            return;
        };
        self.last_score = score;
        let text = wire::text(self.game.position(), &best, self.wire_style());
        self.send(Reply::Move(text));
        self.overhead.after_move(&self.clock, self.received.elapsed());
        self.game.play(best);
        self.searcher.clear_exclusions();
        if self.game.position().in_continuation() {
            // Our turn goes on; the GUI must first let the opponent pass (the clock it reports
            // then includes the pass: no measure of its overhead).
            self.overhead.forget_expected();
            self.awaiting_pass = true;
            return;
        }
        self.hint = ponder;
        if let Some(outcome) = self.game.outcome() {
            self.claim(&outcome);
            return;
        }
        self.start_pondering(ponder);
    }

    fn claim(&mut self, outcome: &Outcome) {
        self.send(Reply::game_over(outcome));
    }

    /// The searcher cannot play on: the user is told why, and we resign.
    fn forfeit(&mut self, why: String) {
        self.send(Reply::TellUserError(why));
        self.send(Reply::Resign);
        self.awaiting_pass = false;
        self.mode = Mode::Force;
    }

    /// A game was started (`new`, `variant`): the searcher follows it, or the user is told why
    /// it cannot, and a search for our move forfeits. Whether it follows.
    fn follow_game(&mut self) -> bool {
        self.follow(false)
    }

    /// A position was set up (`setboard`, edit mode, `white`/`black`, `undo`, `remove`): one
    /// the searcher cannot play is no position, as one the rules reject. Whether it follows.
    fn follow_position(&mut self) -> bool {
        self.follow(true)
    }

    fn follow(&mut self, refusal_is_no_position: bool) -> bool {
        self.searcher.clear_exclusions();
        self.followed = false;
        if !self.game.is_valid() {
            return false;
        }
        match self.searcher.follow(self.game.position()) {
            Ok(()) => self.followed = true,
            Err(why) if refusal_is_no_position => {
                self.game.invalidate();
                self.send(Reply::TellUserError(format!("Illegal position: {why}")));
            }
            Err(why) => self.send(Reply::TellUserError(why)),
        }
        self.followed
    }

    // ----- commands -----

    fn execute(&mut self, command: Command) {
        if !self.caps.has(&command) {
            // What this searcher cannot do, the door does not know.
            return self.send(Reply::unknown_command(&command.to_string()));
        }
        match command {
            Command::Empty | Command::Xboard | Command::Random | Command::Computer => {}
            Command::Protover(_) => self.features(),
            Command::Accepted(feature) => {
                if feature == "debug" && self.caps.debug {
                    self.debug = true;
                }
            }
            Command::Rejected(_) => {}
            Command::New => self.new_game(),
            Command::Variant(name) => self.variant(&name),
            Command::Force => {
                self.stop_search();
                // The GUI takes over: a pass it owed us inside our turn is no longer awaited.
                self.awaiting_pass = false;
                self.mode = Mode::Force;
            }
            Command::Go => self.go(),
            Command::PlayOther => {
                self.stop_search();
                self.mode = Mode::Play {
                    engine: self.game.position().side_to_move().opposite(),
                };
                let hint = self.hint;
                self.start_pondering(hint);
            }
            Command::White => self.white_or_black(Color::White),
            Command::Black => self.white_or_black(Color::Black),
            Command::Level {
                moves_per_session,
                base_seconds,
                increment_seconds,
            } => {
                self.overhead.forget_expected();
                self.clock.level(moves_per_session, base_seconds, increment_seconds)
            }
            Command::MoveTime { seconds } => self.clock.move_time(seconds),
            Command::DepthLimit { plies } => self.clock.depth_limit(plies),
            Command::NodesPerSecond(n) => self.clock.nodes_per_second(n),
            Command::EngineTime { centiseconds } => {
                self.overhead.time_report(centiseconds);
                self.clock.engine_time(centiseconds);
            }
            Command::OpponentTime { .. } => {}
            Command::UserMove { text, .. } => self.user_move(&text),
            Command::MoveNow => self.searcher.move_now(),
            Command::Ping(n) => self.send(Reply::Pong(n)),
            Command::DrawOffer => {
                // CECP takes an offered draw by offering one back.
                if self.caps.draws && draw::takes_draw(self.game.position(), self.last_score) {
                    self.send(Reply::OfferDraw);
                }
            }
            Command::Result { .. } => {
                self.stop_search();
                self.awaiting_pass = false;
                self.mode = Mode::Force;
            }
            Command::SetBoard(_) if self.awaiting_pass && matches!(self.mode, Mode::Play { .. }) => {
                // XBoard turns the opponent's pass into a `setboard` of its own (wrong) picture of
                // a turn of several moves; our position is the real one: just go on.
                self.awaiting_pass = false;
                if matches!(self.mode, Mode::Play { .. }) {
                    self.think_on_move();
                }
            }
            Command::SetBoard(fen) => self.set_board(&fen),
            Command::Edit => {
                self.stop_search();
                self.awaiting_pass = false;
                self.edit = Some(EditBoard::from_position(self.game.position()));
            }
            Command::Hint => self.send_hint(),
            Command::Book => {
                let lines = self.caps.book.clone();
                self.send(Reply::BookInfo(lines));
            }
            Command::Undo => self.take_back(1),
            Command::Remove => self.take_back(2),
            Command::Ponder(on) => {
                self.ponder = on;
                if !on && self.searcher.pondering_on().is_some() {
                    self.stop_search();
                }
            }
            Command::Post(on) => self.post = on,
            Command::Analyze => {
                self.mode = Mode::Analyze;
                self.start_analysis();
            }
            Command::ExitAnalyze => {
                if self.mode == Mode::Analyze {
                    self.stop_search();
                    self.mode = Mode::Force;
                }
            }
            Command::AnalyzeStatus => self.analysis_status(),
            Command::OpponentName(_) | Command::Rating { .. } | Command::Ics(_) => {}
            Command::Pause | Command::Resume => {}
            Command::Memory { megabytes } => {
                self.set_hash_mb(megabytes);
            }
            Command::Cores(cores) => self.set_threads(cores),
            Command::EgtPath { .. } | Command::SetScore { .. } => {}
            Command::SetOption { name, value } => self.option(&name, value.as_deref()),
            Command::Exclude(filter) => self.exclude(filter, true),
            Command::Include(filter) => self.exclude(filter, false),
            Command::Lift(square) => self.lift(&square),
            Command::Put(_) | Command::Hover(_) => {}
            Command::Holding { .. } | Command::Partner(_) | Command::PartnerTell(_) => {}
            Command::Quit => {
                self.stop_search();
                self.finished = true;
            }
            other @ (Command::Bad { .. } | Command::Unknown(_)) => {
                if let Some(reply) = Reply::for_unparsed(&other) {
                    self.send(reply);
                }
            }
        }
    }

    fn new_game(&mut self) {
        self.stop_search();
        self.awaiting_pass = false;
        let variant = Arc::clone(&self.default_variant);
        self.game.new_game(&variant);
        self.mode = Mode::Play { engine: Color::Black };
        self.clock.new_game();
        self.overhead.forget_expected();
        self.hint = None;
        self.last_score = None;
        self.searcher.new_game();
        self.follow_game();
    }

    /// `go`: we play the side to move, from now on.
    fn go(&mut self) {
        self.stop_search();
        self.awaiting_pass = false;
        self.mode = Mode::Play {
            engine: self.game.position().side_to_move(),
        };
        if !self.game.is_valid() {
            self.send(Reply::Error {
                kind: "no position, setboard was rejected".to_string(),
                text: "go".to_string(),
            });
            return;
        }
        self.think_on_move();
    }

    /// `white` / `black` (protocol 1): `to_move` is to move, and we play the other side.
    fn white_or_black(&mut self, to_move: Color) {
        self.stop_search();
        self.awaiting_pass = false;
        self.set_side_to_move(to_move);
        self.mode = Mode::Play {
            engine: to_move.opposite(),
        };
    }

    fn set_board(&mut self, fen: &str) {
        self.stop_search();
        self.awaiting_pass = false;
        self.hint = None;
        let set = self.game.set_fen(fen, Coords::Wire);
        let playable = self.follow_position();
        if let Err(e) = set {
            self.send(Reply::TellUserError(illegal_position(&e)));
        } else if playable && self.mode == Mode::Analyze {
            self.start_analysis();
        }
    }

    /// `hint`: the move we expect, if it is legal here.
    fn send_hint(&mut self) {
        if let Some(h) = self.hint {
            let pos = self.game.position();
            if pos.is_legal(&h) {
                let text = wire::text(pos, &h, self.wire_style());
                self.send(Reply::Hint(text));
            }
        }
    }

    fn features(&mut self) {
        let names = self.game.registry().names();
        for reply in self.caps.announcement(&names) {
            self.send(reply);
        }
    }

    fn variant(&mut self, requested: &str) {
        self.stop_search();
        self.awaiting_pass = false;
        let registry = Arc::clone(self.game.registry());
        let variant = match choose_variant(requested, |name| registry.get(name)) {
            Ok(v) => v,
            Err(refusal) => return self.send(refusal),
        };
        self.game.new_game(&variant);
        // A game the searcher refused is not set up: the GUI has seen why.
        if !self.follow_game() {
            return;
        }
        if let Some(a) = announce::announcement(&variant) {
            self.send(Reply::Setup(a.setup));
            for (id, betza) in a.pieces {
                self.send(Reply::Piece { id, betza });
            }
        }
    }

    fn set_side_to_move(&mut self, color: Color) {
        if !self.game.is_valid() {
            // No position to turn round: the rejected set-up stays rejected.
            return;
        }
        let pos = self.game.position();
        if pos.side_to_move() == color {
            return;
        }
        let mut setup: Setup = pos.to_setup();
        setup.side = color;
        setup.ep = None;
        let variant = Arc::clone(pos.variant());
        match Position::from_setup(&variant, &setup) {
            Ok(p) => self.game.set_position(p),
            Err(_) => self.game.invalidate(),
        }
        self.follow_position();
    }

    fn user_move(&mut self, text: &str) {
        if text.trim() == "@@@@" {
            // The opponent's pass inside our turn of several moves; anything else is no move.
            if self.awaiting_pass {
                self.awaiting_pass = false;
                if matches!(self.mode, Mode::Play { .. }) {
                    self.think_on_move();
                }
            } else {
                self.send(Reply::IllegalMove {
                    reason: None,
                    text: text.to_string(),
                });
            }
            return;
        }
        if let Some(predicted) = self.searcher.pondering_on() {
            match self.game.parse_move(text, Coords::Wire) {
                Ok(mv) if mv == predicted => {
                    // Ponder hit: keep the search, give it the time for this move.
                    self.game.play(mv);
                    if let Some(outcome) = self.game.outcome() {
                        self.stop_search();
                        self.claim(&outcome);
                        return;
                    }
                    let budget = self
                        .clock
                        .budget(self.engine_moves_played(), self.overhead.move_cost())
                        .less(self.received.elapsed());
                    if self.clock.counts_nodes() {
                        // Node-counted time cannot be added to a running search: search afresh.
                        self.stop_search();
                        self.think_on_move();
                    } else {
                        self.debug_line(|| {
                            format!(
                                "ponder hit: soft {} ms, hard {} ms",
                                budget.soft.as_millis(),
                                budget.hard.as_millis()
                            )
                        });
                        self.searcher.ponder_hit(budget);
                    }
                    return;
                }
                Ok(_) => self.stop_search(),
                Err(_) => {
                    self.send(Reply::IllegalMove {
                        reason: None,
                        text: text.to_string(),
                    });
                    return;
                }
            }
        }
        if self.mode == Mode::Analyze {
            self.stop_search();
        }
        match self.play_gui_move(text) {
            Ok(()) => {
                self.searcher.clear_exclusions();
                let to_move = self.game.position().side_to_move();
                match self.mode {
                    Mode::Analyze => self.start_analysis(),
                    Mode::Play { engine } if to_move == engine => self.think_on_move(),
                    // The opponent's turn of several moves goes on: we pass, so that the GUI,
                    // which alternates turns, lets the opponent move again.
                    Mode::Play { .. } if self.game.position().in_continuation() => {
                        self.send(Reply::Move("@@@@".to_string()));
                    }
                    _ => {}
                }
            }
            Err(reason) => {
                self.send(Reply::IllegalMove {
                    reason,
                    text: text.to_string(),
                });
                if self.mode == Mode::Analyze {
                    self.start_analysis();
                }
            }
        }
    }

    /// Plays the GUI's move once the rules and the searcher accept it; else why not (`None`:
    /// no legal move).
    fn play_gui_move(&mut self, text: &str) -> Result<(), Option<String>> {
        let mv = self.game.parse_move(text, Coords::Wire).map_err(|_| None)?;
        self.searcher.tell(self.game.position(), mv).map_err(Some)?;
        self.game.play(mv);
        Ok(())
    }

    fn take_back(&mut self, plies: usize) {
        self.stop_search();
        self.awaiting_pass = false;
        let word = if plies == 1 { "undo" } else { "remove" };
        if self.game.position().plies_played() < plies || !self.game.is_valid() {
            self.send(Reply::Error {
                kind: "command not legal now".to_string(),
                text: word.to_string(),
            });
            return;
        }
        for _ in 0..plies {
            let _ = self.game.undo();
        }
        self.hint = None;
        if self.follow_position() && self.mode == Mode::Analyze {
            self.start_analysis();
        }
    }

    fn analysis_status(&mut self) {
        if let Some(status) = self.searcher.analysis_status() {
            self.send(Reply::Status(status));
        }
    }

    fn option(&mut self, name: &str, value: Option<&str>) {
        let name = name.trim();
        if !self.caps.has_option(name) {
            return self.send(Reply::Error {
                kind: "unknown option".to_string(),
                text: name.to_string(),
            });
        }
        match name {
            "Hash" => match value.and_then(|v| v.trim().parse::<u64>().ok()) {
                Some(mb) => {
                    self.set_hash_mb(mb);
                }
                None => self.send(Reply::Error {
                    kind: "bad option value".to_string(),
                    text: format!("Hash={}", value.unwrap_or("")),
                }),
            },
            "Log_File" => {
                if let Err(e) = crate::logging::set_file(value.unwrap_or("")) {
                    self.send(Reply::TellUserError(format!("cannot open log file: {e}")));
                }
            }
            other => self.send(Reply::Error {
                kind: "unknown option".to_string(),
                text: other.to_string(),
            }),
        }
    }

    fn exclude(&mut self, filter: MoveFilter, exclude: bool) {
        if !self.game.is_valid() {
            return;
        }
        match filter {
            MoveFilter::All => self.searcher.exclude_all(self.game.position(), exclude),
            MoveFilter::Move(text) => match self.game.parse_move(&text, Coords::Wire) {
                Ok(mv) => self.searcher.exclude_move(mv, exclude),
                Err(_) => {
                    self.send(Reply::IllegalMove { reason: None, text });
                    return;
                }
            },
        }
        if self.mode == Mode::Analyze {
            self.start_analysis();
        }
    }

    /// `lift SQ`: mark the legal destinations of the piece there (`Y` move, `R` capture, `M`
    /// promotion choice); a move that captures without moving marks its victims.
    fn lift(&mut self, square: &str) {
        if !self.game.is_valid() {
            return;
        }
        let pos = self.game.position();
        let shape = pos.variant().shape;
        let Some((from, "")) = parse_square(shape, square, Coords::Wire) else {
            return;
        };
        let mut marks = vec!['.'; shape.num_squares()];
        for mv in pos.legal_moves().iter() {
            if mv.from() != Some(from) {
                continue;
            }
            let capture = pos.is_capture(mv);
            if mv.stays() {
                for (sq, _) in pos.captures_of(mv) {
                    marks[sq.index()] = 'R';
                }
                continue;
            }
            let mark = if mv.promotion().is_some() {
                'M'
            } else if capture {
                'R'
            } else {
                'Y'
            };
            let cell = &mut marks[mv.to().index()];
            if *cell == '.' || mark == 'M' {
                *cell = mark;
            }
            if matches!(mv, Move::Castle { .. }) {
                *cell = 'Y';
            }
        }
        let mut board = String::new();
        for rank in (0..shape.ranks).rev() {
            let cells =
                (0..shape.files).map(|file| Some(marks[shape.square(file, rank).index()]).filter(|&c| c != '.'));
            fen::push_rank(&mut board, cells, String::push);
            if rank > 0 {
                board.push('/');
            }
        }
        self.send(Reply::Highlight(board));
    }

    fn edit_line(&mut self, line: EditCommand) {
        let Some(edit) = self.edit.as_mut() else { return };
        if edit.apply(line, self.game.variant()) == EditStep::Done {
            self.finish_edit();
        }
    }

    /// Leaves edit mode with the position set up, if the core accepts it.
    fn finish_edit(&mut self) {
        let Some(edit) = self.edit.take() else { return };
        let variant = Arc::clone(self.game.variant());
        let setup = edit.to_setup(&variant, self.game.position().side_to_move());
        match Position::from_setup(&variant, &setup) {
            Ok(p) => {
                self.game.set_position(p);
                if self.follow_position() && self.mode == Mode::Analyze {
                    self.start_analysis();
                }
            }
            Err(e) => {
                self.game.invalidate();
                self.follow_position();
                self.send(Reply::TellUserError(format!("Illegal position: {e}")));
            }
        }
    }
}

/// The game session as the brain behind the CECP command loop.
impl<W: Write, S: Searcher> super::Brain for Session<W, S> {
    type Report = S::Report;

    fn thinking_on_move(&self) -> bool {
        self.searcher.thinking_on_move()
    }

    /// The search is called off: its move is dropped (our engine's search ends at once, a
    /// plug-in's when it returns).
    fn call_off(&mut self) {
        self.stop_search();
    }

    fn execute(&mut self, command: Command, read_at: Instant) {
        self.received = read_at;
        Session::execute(self, command);
    }

    fn editing(&self) -> bool {
        self.edit.is_some()
    }

    fn edit(&mut self, line: EditCommand) {
        self.edit_line(line);
    }

    fn report(&mut self, report: S::Report) {
        self.searcher_report(report);
    }

    /// A search running is waited for (a plug-in is not left in the middle of one).
    fn eof(&mut self) {
        self.stop_search();
        self.closing = true;
        self.finished = !self.searcher.thinking_on_move();
    }

    fn send(&mut self, reply: Reply) {
        Session::send(self, reply);
    }

    fn finished(&self) -> bool {
        Session::finished(self)
    }
}

#[cfg(test)]
#[path = "session_fuzz.rs"]
mod fuzz;

#[cfg(test)]
#[path = "session_while_thinking.rs"]
mod while_thinking_tests;

/// The limits of a search on our move, for a debug line.
fn limits_text(limits: &Limits, spent: std::time::Duration) -> String {
    let mut parts = Vec::new();
    if let Some(t) = &limits.time {
        parts.push(format!(
            "soft {} ms, hard {} ms",
            t.soft.as_millis(),
            t.hard.as_millis()
        ));
    }
    if let Some(d) = limits.depth {
        parts.push(format!("depth {d}"));
    }
    if let Some(n) = limits.nps {
        parts.push(format!("nps {n}"));
    }
    if let Some(moves) = &limits.root_moves {
        parts.push(format!("{} root moves", moves.len()));
    }
    parts.push(format!("{} ms since the command", spent.as_millis()));
    parts.join(", ")
}

/// The answer to a rejected `setboard`: XBoard shows it in an error box.
fn illegal_position(error: &GameError) -> String {
    match error {
        GameError::BadPosition(why) => format!("Illegal position: {why}"),
        other => format!("Illegal position: {other}"),
    }
}

/// A thinking line of a search from `root`.
fn thinking_line(root: &Position, info: &SearchInfo, style: WireStyle) -> ThinkingLine {
    let centiseconds = info.elapsed.as_millis() as u64 / 10;
    let secs = info.elapsed.as_secs_f64();
    ThinkingLine {
        depth: info.depth,
        score: cecp_score(info.score),
        centiseconds,
        nodes: info.nodes,
        extras: Some(ThinkingExtras {
            seldepth: info.seldepth,
            nps: if secs > 0.0 {
                (info.nodes as f64 / secs) as u64
            } else {
                0
            },
            tbhits: 0,
        }),
        pv: pv_text(root, &info.pv, style),
    }
}

/// A PV in wire notation, cut at the first move that is not legal (a stale TT move).
fn pv_text(root: &Position, pv: &[Move], style: WireStyle) -> String {
    let mut pos = root.clone();
    let mut words = Vec::new();
    for mv in pv {
        if pos.find_legal(mv).is_none() {
            break;
        }
        words.push(wire::text(&pos, mv, style));
        pos.make(*mv);
    }
    words.join(" ")
}
