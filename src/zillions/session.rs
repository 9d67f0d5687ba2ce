//! The Zillions plug-in session: what the six `DLL_*` calls mean, in safe Rust over our engine
//! (protocol/zillions.md §4). The C layer (`ffi`) only converts arguments and results.
//!
//! A game starts with `start_new_game`; placements before its first move set the board up; every
//! move — also the engine's own, after `search` reported it — arrives through `make_move`.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::core::{Color, Move, Position, Variant};
use crate::notation::OutcomeText;
use crate::notation::zillions::{self, ZillionsError, looks_like_placement, move_text, parse_placement};
use crate::search::{Limits, Score, SearchControl, SearchInfo, SearchResult, Searcher, movetime_budget};
use crate::variants::Registry;

use super::codes::*;
use super::find_variant;
use super::setup::SetupBuilder;
use super::zsg::is_placement;

/// Hash table of a plug-in session (MB).
const HASH_MB: usize = 64;
/// Deepest search a caller may ask for (plies).
const MAX_DEPTH: i64 = 100;
/// Longest search time taken at face value (ms): a day.
const MAX_TIME_MS: i64 = 86_400_000;
/// Kept back from Zillions' time for a move (ms): the search seeing its deadline, the move's
/// text, the return through the call.
const ANSWER_OVERHEAD_MS: i64 = 10;
/// How often a running search looks at the caller's stop request and reports progress.
const POLL: Duration = Duration::from_millis(2);
/// Most alternatives a search with variety compares with its best move.
const VARIETY_ALTERNATIVES: usize = 3;
/// Centipawns a move may be worse than the best and still be chosen, per step of variety.
const VARIETY_MARGIN_CP: i32 = 6;

/// Why a call was refused; `code` is its Zillions return code.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum SessionError {
    /// A call before `DLL_StartNewGame`, or after `DLL_CleanUp`.
    NoGame,
    /// A call that makes no sense now (`DLL_GenerateMoves` with a buffer before the `NULL` call).
    WrongOrder(&'static str),
    UnknownVariant(String),
    /// A move or placement that is not accepted.
    Notation(ZillionsError),
    /// The placements do not make a position.
    InvalidPosition(String),
    /// The side to move has no legal move.
    NoMoves,
    /// A null pointer or a text that is not valid UTF-8.
    BadArgument(&'static str),
    /// The search thread could not be started.
    OutOfMemory,
    /// Something that should not happen (a panic caught at the C boundary).
    Internal(String),
    /// The configuration file cannot be used (protocol/zillions.md §6).
    Config(String),
    /// The configured engine cannot play the game (not started, no handshake, not its game).
    Engine(String),
}

impl SessionError {
    /// The `DLL_Result` for this error.
    pub fn code(&self) -> i32 {
        match self {
            SessionError::UnknownVariant(_) => DLL_UNKNOWN_VARIANT_ERROR,
            SessionError::Notation(ZillionsError::UnknownPlayer(_)) => DLL_UNKNOWN_PLAYER_ERROR,
            SessionError::Notation(ZillionsError::UnknownPiece(_)) => DLL_UNKNOWN_PIECE_ERROR,
            SessionError::Notation(ZillionsError::WrongSide) => DLL_WRONG_SIDE_TO_MOVE_ERROR,
            SessionError::InvalidPosition(_) => DLL_INVALID_POSITION_ERROR,
            SessionError::NoMoves => DLL_NO_MOVES,
            SessionError::OutOfMemory => DLL_OUT_OF_MEMORY_ERROR,
            _ => DLL_GENERIC_ERROR,
        }
    }
}

impl std::fmt::Display for SessionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SessionError::NoGame => write!(f, "no game: DLL_StartNewGame comes first"),
            SessionError::WrongOrder(why) => write!(f, "{why}"),
            SessionError::UnknownVariant(v) => write!(f, "unknown variant {v:?}"),
            SessionError::Notation(e) => write!(f, "{e}"),
            SessionError::InvalidPosition(e) => write!(f, "the setup is not a position: {e}"),
            SessionError::NoMoves => write!(f, "no legal move"),
            SessionError::BadArgument(why) => write!(f, "{why}"),
            SessionError::OutOfMemory => write!(f, "cannot start the search thread"),
            SessionError::Internal(e) => write!(f, "internal error: {e}"),
            SessionError::Config(e) => write!(f, "configuration: {e}"),
            SessionError::Engine(e) => write!(f, "engine {e}"),
        }
    }
}

/// What `start_new_game` answers.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum StartReply {
    /// `DLL_OK_DONT_SEND_SETUP`: we know the start position.
    KnownStart,
    /// `DLL_OK`: send the setup (a game with a random start, like Wild Castle).
    SendSetup,
}

/// What the caller wants of a running search (`*pSearchStatus`).
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum StopRequest {
    KeepSearching,
    /// Answer now with the best move so far.
    StopSoon,
    /// Return at once.
    StopNow,
}

impl StopRequest {
    /// The request a `Search_Status` value means (unknown values: keep searching).
    pub fn from_status(status: i32) -> StopRequest {
        match status {
            K_STOP_SOON => StopRequest::StopSoon,
            K_STOP_NOW => StopRequest::StopNow,
            _ => StopRequest::KeepSearching,
        }
    }
}

/// The limits of one `DLL_Search`, as Zillions gives them (clamped here).
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq)]
pub struct SearchRequest {
    /// Milliseconds; 0 or less: no time limit.
    pub time_ms: i64,
    /// Plies; 0 or less: no depth limit.
    pub depth: i64,
    /// 0: always the best move; 1..10: more and more often one of the near-equal ones.
    pub variety: i64,
}

/// A search's state, as `DLL_Search` reports it while running and at the end.
#[derive(Clone, Debug, Default, Eq, PartialEq)]
pub struct SearchProgress {
    /// The best move so far (Zillions notation); empty before the first one.
    pub best_move: String,
    /// The root move being searched (the best move so far until the search names one).
    pub current_move: String,
    pub nodes: u64,
    /// Zillions' scale, side to move's view: centipawns, `WIN_SCORE - n` / `LOSS_SCORE + n` for
    /// a mate in n moves found.
    pub score: i32,
    pub depth: u32,
}

/// A game in progress.
struct Game {
    position: Position,
    /// Placements received before the first move.
    setup: Option<SetupBuilder>,
    /// Moves made (placements not counted).
    moves: usize,
    /// `DLL_GenerateMoves` enumeration: the texts and the next index.
    listing: Option<(Vec<String>, usize)>,
}

/// One plug-in session: the variants it knows, the game, the searcher.
pub struct Session {
    registry: Arc<Registry>,
    game: Option<Game>,
    searcher: Searcher,
    seed: u64,
}

/// Zillions' score for ours.
pub fn zillions_score(score: Score) -> i32 {
    match score {
        Score::Cp(c) => c.clamp(LOSS_SCORE + 1_000_000, WIN_SCORE - 1_000_000),
        Score::Mate(n) if n > 0 => WIN_SCORE - n,
        Score::Mate(n) => LOSS_SCORE + n.saturating_neg(),
    }
}

impl Session {
    pub fn new(registry: Arc<Registry>) -> Session {
        Session {
            registry,
            game: None,
            searcher: Searcher::new(HASH_MB),
            seed: 0x9e37_79b9_7f4a_7c15,
        }
    }

    /// `DLL_StartNewGame`: a new game of the variant Zillions names (its menu name or ours).
    ///
    /// # Errors
    ///
    /// [`SessionError`]: the call does not fit the session's state (no game, the wrong order) or
    /// its argument is refused; its `code` is what the `DLL_*` call returns.
    pub fn start_new_game(&mut self, variant: &str) -> Result<StartReply, SessionError> {
        let v = find_variant(&self.registry, variant).ok_or_else(|| SessionError::UnknownVariant(variant.into()))?;
        Ok(self.start_variant(&v))
    }

    /// A new game of `v` (found by the caller: the plug-in's configuration names games too).
    pub fn start_variant(&mut self, v: &Arc<Variant>) -> StartReply {
        self.searcher.new_game();
        self.game = Some(Game {
            position: Position::start(v),
            setup: None,
            moves: 0,
            listing: None,
        });
        if v.shuffle.is_some() {
            StartReply::SendSetup
        } else {
            StartReply::KnownStart
        }
    }

    fn game(&mut self) -> Result<&mut Game, SessionError> {
        self.game.as_mut().ok_or(SessionError::NoGame)
    }

    /// The current position, after turning pending placements into one.
    fn position(&mut self) -> Result<&mut Position, SessionError> {
        let game = self.game()?;
        if let Some(builder) = game.setup.take() {
            game.position = builder
                .build()
                .map_err(|e| SessionError::InvalidPosition(e.to_string()))?;
        }
        Ok(&mut game.position)
    }

    /// The position (read-only view), for hosts and tests.
    ///
    /// # Errors
    ///
    /// [`SessionError`]: the call does not fit the session's state (no game, the wrong order) or
    /// its argument is refused; its `code` is what the `DLL_*` call returns.
    pub fn current_position(&mut self) -> Result<Position, SessionError> {
        self.position().map(|p| p.clone())
    }

    /// `DLL_MakeAMove`: a placement (before the first move) or a move of the side to move.
    ///
    /// # Errors
    ///
    /// [`SessionError`]: the call does not fit the session's state (no game, the wrong order) or
    /// its argument is refused; its `code` is what the `DLL_*` call returns.
    pub fn make_move(&mut self, text: &str) -> Result<(), SessionError> {
        self.play(text).map(|_| ())
    }

    /// `make_move`, answering what it played: `None` for a placement, else the position before
    /// the move and the move (for an external engine that is told the moves).
    ///
    /// # Errors
    ///
    /// [`SessionError`]: the call does not fit the session's state (no game, the wrong order) or
    /// its argument is refused; its `code` is what the `DLL_*` call returns.
    pub fn play(&mut self, text: &str) -> Result<Option<(Position, Move)>, SessionError> {
        let game = self.game()?;
        game.listing = None;
        if game.moves == 0
            && looks_like_placement(text)
            && (game.setup.is_some() || is_placement(&mut game.position, text))
        {
            let v = Arc::clone(game.position.variant());
            let p = parse_placement(&v, text).map_err(SessionError::Notation)?;
            let builder = game.setup.get_or_insert_with(|| SetupBuilder::new(&v));
            return builder
                .place(&p)
                .map(|()| None)
                .map_err(|e| SessionError::InvalidPosition(e.to_string()));
        }
        let pos = self.position()?;
        let mv = zillions::parse_move(pos, text).map_err(SessionError::Notation)?;
        let before = pos.clone();
        pos.make(mv);
        self.game()?.moves += 1;
        Ok(Some((before, mv)))
    }

    /// `DLL_GenerateMoves(NULL)`: starts listing the legal moves.
    ///
    /// # Errors
    ///
    /// [`SessionError`]: the call does not fit the session's state (no game, the wrong order) or
    /// its argument is refused; its `code` is what the `DLL_*` call returns.
    pub fn begin_move_list(&mut self) -> Result<(), SessionError> {
        let pos = self.position()?;
        let moves = pos.legal_moves();
        let texts = moves.iter().map(|m| move_text(pos, m)).collect();
        self.game()?.listing = Some((texts, 0));
        Ok(())
    }

    /// `DLL_GenerateMoves(buffer)`: the next legal move, `None` after the last.
    ///
    /// # Errors
    ///
    /// [`SessionError`]: the call does not fit the session's state (no game, the wrong order) or
    /// its argument is refused; its `code` is what the `DLL_*` call returns.
    pub fn next_listed_move(&mut self) -> Result<Option<String>, SessionError> {
        let game = self.game()?;
        let (texts, next) = game.listing.as_mut().ok_or(SessionError::WrongOrder(
            "DLL_GenerateMoves(NULL) must start the list (and again after each move)",
        ))?;
        let text = texts.get(*next).cloned();
        *next += 1;
        Ok(text)
    }

    /// `DLL_IsGameOver`: `None` while the game goes on, else the score for the side to move
    /// (`WIN_SCORE`, `DRAW_SCORE`, `LOSS_SCORE`) and why.
    ///
    /// # Errors
    ///
    /// [`SessionError`]: the call does not fit the session's state (no game, the wrong order) or
    /// its argument is refused; its `code` is what the `DLL_*` call returns.
    pub fn game_over(&mut self) -> Result<Option<(i32, String)>, SessionError> {
        let pos = self.position()?;
        let us = pos.side_to_move();
        Ok(pos.outcome().map(|o| {
            let score = match o.winner {
                None => DRAW_SCORE,
                Some(c) if c == us => WIN_SCORE,
                Some(_) => LOSS_SCORE,
            };
            (score, o.description())
        }))
    }

    /// The side to move, for hosts.
    ///
    /// # Errors
    ///
    /// [`SessionError`]: the call does not fit the session's state (no game, the wrong order) or
    /// its argument is refused; its `code` is what the `DLL_*` call returns.
    pub fn side_to_move(&mut self) -> Result<Color, SessionError> {
        self.position().map(|p| p.side_to_move())
    }

    /// `DLL_CleanUp`: forgets the game (the searcher's memory goes with the session).
    pub fn clean_up(&mut self) {
        self.game = None;
        self.searcher.new_game();
    }

    /// `DLL_Search`: searches the current position within `request`, calling `poll` for the
    /// caller's stop request and `progress` with the state so far while it runs. Returns the
    /// final state; its `best_move` is the move to play (it is not made).
    ///
    /// # Errors
    ///
    /// [`SessionError`]: the call does not fit the session's state (no game, the wrong order) or
    /// its argument is refused; its `code` is what the `DLL_*` call returns.
    pub fn search(
        &mut self,
        request: &SearchRequest,
        poll: &mut dyn FnMut() -> StopRequest,
        progress: &mut dyn FnMut(&SearchProgress),
    ) -> Result<SearchProgress, SessionError> {
        let mut pos = self.position()?.clone();
        let legal = pos.legal_moves().0;
        if legal.is_empty() {
            return Err(SessionError::NoMoves);
        }
        let time_ms = request.time_ms.clamp(0, MAX_TIME_MS);
        let variety = request.variety.clamp(0, 10) as i32;
        let depth = (request.depth > 0).then(|| request.depth.min(MAX_DEPTH) as u32);
        // With variety, the alternatives get a third of the time.
        let main_ms = if variety > 0 { time_ms * 2 / 3 } else { time_ms };
        // Zillions' time is for this move alone: used to its end, less what answering costs.
        let budget = |ms: i64| (ms > 0).then(|| movetime_budget(ms as u64, ANSWER_OVERHEAD_MS));
        let limits = Limits {
            depth,
            time: budget(main_ms),
            ..Limits::default()
        };
        let mut state = SearchProgress::default();
        let (result, stopped) = run_search(&mut self.searcher, &mut pos, &limits, poll, &mut state, progress)?;
        let Some(best) = result.best else {
            return Err(SessionError::NoMoves);
        };
        state.best_move = move_text(&pos, &best);
        state.score = zillions_score(result.score);
        state.depth = result.depth.max(state.depth);
        state.nodes = state.nodes.max(result.nodes);
        if variety == 0 || stopped || matches!(result.score, Score::Mate(_)) || result.depth == 0 {
            return Ok(state);
        }
        // Variety: moves searched as deep as the best and at most a margin worse are candidates.
        let margin = VARIETY_MARGIN_CP * variety;
        let mut candidates = vec![best];
        let alt_ms = time_ms / 3 / VARIETY_ALTERNATIVES as i64;
        while candidates.len() < VARIETY_ALTERNATIVES + 1 && candidates.len() < legal.len() {
            let alt_limits = Limits {
                depth: Some(result.depth),
                time: budget(alt_ms),
                root_moves: Some(legal.iter().filter(|m| !candidates.contains(m)).copied().collect()),
                ..Limits::default()
            };
            let mut alt_state = state.clone();
            let (alt, stopped) = run_search(
                &mut self.searcher,
                &mut pos,
                &alt_limits,
                poll,
                &mut alt_state,
                &mut |_| {},
            )?;
            state.nodes = state.nodes.saturating_add(alt.nodes);
            let good = alt.depth >= result.depth
                && alt.best.is_some()
                && zillions_score(alt.score) >= zillions_score(result.score).saturating_sub(margin);
            match alt.best {
                Some(mv) if good && !stopped => candidates.push(mv),
                _ => break,
            }
        }
        self.seed ^= state.nodes.wrapping_mul(0x2545_f491_4f6c_dd1d) ^ time_seed();
        self.seed ^= self.seed << 13;
        self.seed ^= self.seed >> 7;
        self.seed ^= self.seed << 17;
        let chosen: Move = candidates[(self.seed % candidates.len() as u64) as usize];
        state.best_move = move_text(&pos, &chosen);
        Ok(state)
    }
}

fn time_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}

/// Runs one search on a thread of its own while this thread polls the stop request and reports
/// progress. Returns the result and whether the caller stopped it.
fn run_search(
    searcher: &mut Searcher,
    pos: &mut Position,
    limits: &Limits,
    poll: &mut dyn FnMut() -> StopRequest,
    state: &mut SearchProgress,
    progress: &mut dyn FnMut(&SearchProgress),
) -> Result<(SearchResult, bool), SessionError> {
    let control = SearchControl::new();
    let latest: Mutex<Option<SearchInfo>> = Mutex::new(None);
    let shown = pos.clone();
    std::thread::scope(|scope| {
        let handle = std::thread::Builder::new()
            .name("zillions-search".into())
            .stack_size(64 << 20)
            .spawn_scoped(scope, || {
                let mut report = |info: &SearchInfo| {
                    *latest.lock().unwrap_or_else(|e| e.into_inner()) = Some(info.clone());
                };
                searcher.search(pos, limits, &control, &mut report)
            })
            .map_err(|_| SessionError::OutOfMemory)?;
        let mut stopped = false;
        loop {
            let finished = handle.is_finished();
            if !stopped && poll() != StopRequest::KeepSearching {
                control.stop();
                stopped = true;
            }
            let info = latest.lock().unwrap_or_else(|e| e.into_inner()).take();
            let mut changed = false;
            if let Some(info) = info {
                if let Some(first) = info.pv.first() {
                    state.best_move = move_text(&shown, first);
                }
                state.nodes = info.nodes;
                state.score = zillions_score(info.score);
                state.depth = info.depth;
                changed = true;
            }
            // Zillions shows the root move being searched; before the search names one, the best.
            let current = control
                .current()
                .map_or_else(|| state.best_move.clone(), |root| move_text(&shown, &root.mv));
            if current != state.current_move {
                state.current_move = current;
                changed = true;
            }
            if changed {
                progress(state);
            }
            if finished {
                break;
            }
            std::thread::sleep(POLL);
        }
        let result = handle
            .join()
            .map_err(|_| SessionError::Internal("the search panicked".into()))?;
        Ok((result, stopped))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session() -> Session {
        Session::new(Arc::new(crate::protocol::builtin_games()))
    }

    /// A session playing `game` after `moves` (Zillions move texts, placements too).
    fn game_after(game: &str, moves: &[&str]) -> Session {
        let mut s = session();
        s.start_new_game(game).expect(game);
        for &m in moves {
            s.make_move(m).expect(m);
        }
        s
    }

    fn keep() -> StopRequest {
        StopRequest::KeepSearching
    }

    /// The answer of a search to `depth` plies with `variety`, never stopped early.
    fn search_to(s: &mut Session, depth: i64, variety: i64) -> SearchProgress {
        let request = SearchRequest {
            depth,
            variety,
            ..Default::default()
        };
        s.search(&request, &mut keep, &mut |_| {}).expect("search")
    }

    #[test]
    fn calls_before_a_game_are_refused() {
        let mut s = session();
        assert_eq!(
            s.make_move("Pawn e2 - e4").map_err(|e| e.code()),
            Err(DLL_GENERIC_ERROR)
        );
        assert_eq!(
            s.start_new_game("Checkers").map_err(|e| e.code()),
            Err(DLL_UNKNOWN_VARIANT_ERROR)
        );
        assert_eq!(s.start_new_game("wild rose chess"), Ok(StartReply::KnownStart));
        assert_eq!(s.start_new_game("Wild Castle"), Ok(StartReply::SendSetup));
        assert_eq!(s.start_new_game("Chess"), Ok(StartReply::KnownStart));
        assert_eq!(
            s.next_listed_move().map_err(|e| e.code()),
            Err(DLL_GENERIC_ERROR),
            "a listing starts with the NULL call"
        );
        for (text, code) in [
            ("Pawn e2 - e5", DLL_GENERIC_ERROR),
            ("Pawn e7 - e5", DLL_WRONG_SIDE_TO_MOVE_ERROR),
            ("Elephant e2 - e4", DLL_UNKNOWN_PIECE_ERROR),
            ("Green Pawn e2 - e4", DLL_UNKNOWN_PLAYER_ERROR),
        ] {
            assert_eq!(s.make_move(text).map_err(|e| e.code()), Err(code), "{text}");
        }
        s.clean_up();
        assert_eq!(s.begin_move_list(), Err(SessionError::NoGame));
    }

    #[test]
    fn placements_then_a_search_and_a_move() {
        let mut s = game_after("Chess", &["(White King e1)", "White Queen d1", "(Black King e8)"]);
        s.begin_move_list().expect("list");
        let mut n = 0;
        while let Some(m) = s.next_listed_move().expect("next") {
            assert!(m.starts_with("King") || m.starts_with("Queen"), "{m}");
            n += 1;
        }
        // King d2 e2 f2 f1; queen a1-c1, d2-d8, c2-a4, e2-h5.
        assert_eq!(n, 4 + 17);
        let r = search_to(&mut s, 3, 0);
        assert_eq!(r.depth, 3);
        s.make_move(&r.best_move).expect("the engine's own move");
        assert_eq!(s.side_to_move(), Ok(Color::Black));
    }

    #[test]
    fn a_found_mate_scores_as_a_win_and_the_end_is_reported() {
        let mut s = game_after("Chess", &["Pawn f2 - f3", "Pawn e7 - e5", "Pawn g2 - g4"]);
        let r = search_to(&mut s, 4, 0);
        assert_eq!(r.best_move, "Queen d8 - h4");
        assert_eq!(r.score, WIN_SCORE - 1);
        assert_eq!(s.game_over(), Ok(None));
        s.make_move(&r.best_move).expect("mate");
        assert_eq!(s.game_over(), Ok(Some((LOSS_SCORE, "Black mates".to_string()))));
        assert_eq!(
            s.search(&SearchRequest::default(), &mut keep, &mut |_| {})
                .map_err(|e| e.code()),
            Err(DLL_NO_MOVES)
        );
    }

    #[test]
    fn a_stop_request_ends_an_unlimited_search_with_a_legal_move() {
        let mut s = game_after("Wreckage", &[]);
        let mut polls = 0;
        let mut poll = || {
            polls += 1;
            if polls > 50 {
                StopRequest::StopSoon
            } else {
                StopRequest::KeepSearching
            }
        };
        let mut reports = 0;
        let r = s
            .search(&SearchRequest::default(), &mut poll, &mut |_| reports += 1)
            .expect("search");
        assert!(reports > 0);
        s.make_move(&r.best_move).expect("legal");
    }

    #[test]
    fn current_move_is_the_root_move_being_searched() {
        let mut s = game_after("Chess", &[]);
        let start = s.current_position().expect("a game");
        // Every report: (best move, current move). The search runs until it has shown a root
        // move other than the best one (Zillions' "currently searching"), or for a long while.
        let reports: std::cell::RefCell<Vec<(String, String)>> = Default::default();
        let seen_other = || reports.borrow().iter().any(|(b, c)| !b.is_empty() && b != c);
        let mut polls = 0u32;
        let mut poll = || {
            polls += 1;
            if seen_other() || polls > 100_000 {
                StopRequest::StopSoon
            } else {
                StopRequest::KeepSearching
            }
        };
        let r = s
            .search(&SearchRequest::default(), &mut poll, &mut |p| {
                reports.borrow_mut().push((p.best_move.clone(), p.current_move.clone()))
            })
            .expect("search");
        assert!(
            seen_other(),
            "no root move but the best one was shown: {:?}",
            reports.borrow()
        );
        for (best, current) in reports.borrow().iter() {
            assert!(
                !current.is_empty() || best.is_empty(),
                "a current move once a best one exists"
            );
            if !current.is_empty() {
                zillions::parse_move(&start, current).unwrap_or_else(|e| panic!("{current}: {e}"));
            }
        }
        s.make_move(&r.best_move).expect("legal");
    }

    #[test]
    fn variety_picks_among_near_equal_moves() {
        let mut s = game_after("Chess", &[]);
        let mut seen = std::collections::BTreeSet::new();
        for _ in 0..8 {
            seen.insert(search_to(&mut s, 3, 10).best_move);
        }
        assert!(seen.len() > 1, "always {seen:?}");
        let mut none = std::collections::BTreeSet::new();
        for _ in 0..3 {
            none.insert(search_to(&mut s, 3, 0).best_move);
        }
        assert_eq!(none.len(), 1, "variety 0 is deterministic: {none:?}");
    }
}
