//! Our engine's search behind the CECP game session (its `Searcher`): the one search that may run
//! (on our move, pondering, or analysing), the root moves `exclude` takes out of it, and the
//! reports of the search that is running told apart from those of searches called off.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::mpsc::UnboundedSender;

use super::features::Capabilities;
use super::reply::{AnalysisStatus, cecp_score};
use super::searcher::{Reported, Searcher};
use crate::core::{Move, Position};
use crate::engine::memory::{DEFAULT_HASH_MB, max_hash_mb};
use crate::engine::{Thinker, ThinkerEvent};
use crate::search::{Limits, SearchControl, SearchInfo, TimeBudget};

/// Why a search runs.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum Purpose {
    /// Thinking on our own move.
    Move,
    /// Thinking on the opponent's time, assuming `predicted` will be played.
    Ponder {
        predicted: Move,
    },
    Analyze,
}

struct Active {
    id: u64,
    purpose: Purpose,
    control: Arc<SearchControl>,
    /// The position searched (to write the PV).
    root: Position,
    /// Number of legal root moves (for `stat01`).
    root_moves: usize,
    last_info: Option<SearchInfo>,
}

/// Starts, stops and follows the session's searches.
pub struct SearchDriver {
    thinker: Thinker,
    events: UnboundedSender<ThinkerEvent>,
    active: Option<Active>,
    /// Root moves excluded by `exclude` (the session clears them with every new position).
    excluded: Vec<Move>,
}

impl SearchDriver {
    pub fn new(hash_mb: usize, events: UnboundedSender<ThinkerEvent>) -> SearchDriver {
        SearchDriver {
            thinker: Thinker::new(hash_mb),
            events,
            active: None,
            excluded: Vec::new(),
        }
    }

    /// The searcher itself (hash size, a new game), between searches.
    pub fn thinker(&mut self) -> &mut Thinker {
        &mut self.thinker
    }

    /// Calls the running search off; its reports are dropped from now on.
    pub fn stop(&mut self) {
        self.thinker.stop();
        self.active = None;
    }

    /// Starts searching `root` (stopping any search first). Searches on our move and analysis
    /// leave out the excluded root moves; pondering searches the opponent's reply to a guess, to
    /// which no exclusion applies.
    pub fn start(&mut self, root: Position, mut limits: Limits, purpose: Purpose) {
        if !matches!(purpose, Purpose::Ponder { .. }) && !self.excluded.is_empty() {
            let allowed = self.allowed_root_moves(&root);
            limits.root_moves = Some(match limits.root_moves.take() {
                Some(given) => given.into_iter().filter(|m| allowed.contains(m)).collect(),
                None => allowed,
            });
        }
        let events = self.events.clone();
        let root_moves = root.legal_moves().len();
        let (id, control) = self.thinker.start(root.clone(), limits, move |e| {
            let _ = events.send(e);
        });
        self.active = Some(Active {
            id,
            purpose,
            control,
            root,
            root_moves,
            last_info: None,
        });
    }

    /// Root moves the search may play: all legal moves minus the excluded ones.
    fn allowed_root_moves(&self, pos: &Position) -> Vec<Move> {
        pos.legal_moves()
            .iter()
            .filter(|m| !self.excluded.contains(m))
            .copied()
            .collect()
    }

    /// Why the running search runs, if one does.
    pub fn purpose(&self) -> Option<Purpose> {
        self.active.as_ref().map(|a| a.purpose)
    }

    /// Is a search running on our own move?
    pub fn thinking_on_move(&self) -> bool {
        self.purpose() == Some(Purpose::Move)
    }

    /// The move a running ponder search assumes.
    pub fn pondering_on(&self) -> Option<Move> {
        match self.purpose() {
            Some(Purpose::Ponder { predicted }) => Some(predicted),
            _ => None,
        }
    }

    /// Ponder hit: the running search goes on as the search on our move, within `budget`.
    pub fn ponder_hit(&mut self, budget: TimeBudget) {
        if let Some(a) = self.active.as_mut() {
            a.control.ponder_hit(budget);
            a.purpose = Purpose::Move;
        }
    }

    /// `?`: a search on our move stops at once and plays what it has.
    pub fn move_now(&self) {
        if let Some(a) = &self.active
            && a.purpose == Purpose::Move
        {
            a.control.stop();
        }
    }

    /// A progress report of search `id`: the root it searched, if that search is the running one.
    pub fn info(&mut self, id: u64, info: &SearchInfo) -> Option<&Position> {
        let active = self.active.as_mut().filter(|a| a.id == id)?;
        active.last_info = Some(info.clone());
        Some(&active.root)
    }

    /// Search `id` has finished: why it ran and how long it took, if it was the running one
    /// (else it was called off).
    pub fn done(&mut self, id: u64) -> Option<(Purpose, Duration)> {
        self.thinker.finished(id);
        self.active
            .take_if(|a| a.id == id)
            .map(|a| (a.purpose, a.control.elapsed()))
    }

    /// `stat01` of a running analysis that has reported at least once.
    pub fn analysis_status(&self) -> Option<AnalysisStatus> {
        let a = self.active.as_ref().filter(|a| a.purpose == Purpose::Analyze)?;
        let info = a.last_info.as_ref()?;
        Some(AnalysisStatus {
            centiseconds: a.control.elapsed().as_millis() as u64 / 10,
            nodes: info.nodes,
            depth: info.depth,
            moves_left: 0,
            moves_total: a.root_moves as u32,
            current_move: None,
        })
    }

    /// A new position: no exclusions.
    pub fn clear_exclusions(&mut self) {
        self.excluded.clear();
    }

    /// `exclude all` (`exclude`) or `include all` (not): of the legal moves of `pos`.
    pub fn exclude_all(&mut self, pos: &Position, exclude: bool) {
        self.excluded = if exclude {
            pos.legal_moves().iter().copied().collect()
        } else {
            Vec::new()
        };
    }

    /// `exclude MOVE` / `include MOVE`.
    pub fn exclude_move(&mut self, mv: Move, exclude: bool) {
        self.excluded.retain(|m| *m != mv);
        if exclude {
            self.excluded.push(mv);
        }
    }
}

/// Our engine's search behind the CECP game session: it does everything the door can ask for.
impl Searcher for SearchDriver {
    type Report = ThinkerEvent;

    fn capabilities(&self) -> Capabilities {
        Capabilities {
            myname: crate::version::ENGINE_NAME.to_string(),
            analyze: true,
            ponder: true,
            draws: true,
            nps: true,
            memory: true,
            smp: true,
            exclude: true,
            highlight: true,
            debug: true,
            book: vec!["fairybridge has no opening book: it searches from the first move.".to_string()],
            options: vec![
                format!("Hash -spin {} 1 {}", DEFAULT_HASH_MB.min(max_hash_mb()), max_hash_mb()),
                "Log_File -file ".to_string(),
            ],
        }
    }

    fn new_game(&mut self) {
        self.thinker.with_searcher(|s| s.new_game());
    }

    fn start(&mut self, root: Position, limits: Limits, purpose: Purpose) -> Result<(), String> {
        SearchDriver::start(self, root, limits, purpose);
        Ok(())
    }

    fn stop(&mut self) {
        SearchDriver::stop(self);
    }

    fn move_now(&mut self) {
        SearchDriver::move_now(self);
    }

    fn thinking_on_move(&self) -> bool {
        SearchDriver::thinking_on_move(self)
    }

    fn pondering_on(&self) -> Option<Move> {
        SearchDriver::pondering_on(self)
    }

    fn ponder_hit(&mut self, budget: TimeBudget) {
        SearchDriver::ponder_hit(self, budget);
    }

    /// Reports of searches called off are dropped here.
    fn report(&mut self, report: ThinkerEvent) -> Reported<'_> {
        match report {
            ThinkerEvent::Info { id, info } => match self.info(id, &info) {
                Some(root) => Reported::Thinking { root, info },
                None => Reported::Nothing,
            },
            ThinkerEvent::Done { id, result } => match self.done(id) {
                Some((Purpose::Move, elapsed)) => Reported::Move {
                    best: result.best,
                    score: Some(cecp_score(result.score)),
                    ponder: result.ponder,
                    note: Some(format!(
                        "searched depth {}, {} nodes in {} ms",
                        result.depth,
                        result.nodes,
                        elapsed.as_millis()
                    )),
                },
                _ => Reported::Nothing,
            },
        }
    }

    fn analysis_status(&self) -> Option<AnalysisStatus> {
        SearchDriver::analysis_status(self)
    }

    fn clear_exclusions(&mut self) {
        SearchDriver::clear_exclusions(self);
    }

    fn exclude_all(&mut self, pos: &Position, exclude: bool) {
        SearchDriver::exclude_all(self, pos, exclude);
    }

    fn exclude_move(&mut self, mv: Move, exclude: bool) {
        SearchDriver::exclude_move(self, mv, exclude);
    }

    fn set_hash_mb(&mut self, megabytes: u64) -> Option<usize> {
        SearchDriver::stop(self);
        Some(self.thinker.set_hash_mb(megabytes))
    }

    fn set_threads(&mut self, cores: u32) -> Option<usize> {
        Some(self.thinker.set_threads(u64::from(cores)))
    }
}
