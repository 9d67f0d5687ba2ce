//! What the plug-in's six calls do: our own engine's session, or — for a game the configuration
//! file gives to an external XBoard or UCI engine — that engine behind the same session
//! (protocol/zillions.md §4, §6). Our session always keeps the game: it reads Zillions' moves and
//! placements, lists the legal moves and judges the end, and checks the engine's every move; the
//! engine only searches. When the engine fails mid-game, our engine plays on (the fault logged).

use std::sync::Arc;
use std::time::Instant;

use super::config::{self, Config};
use super::external::ExternalEngine;
use super::find_variant;
use super::session::{SearchProgress, SearchRequest, Session, SessionError, StartReply, StopRequest};
use crate::variants::Registry;

/// The plug-in: our session and, for a configured game, its engine.
pub struct Bridge {
    /// Our games and those of `FAIRYBRIDGE_VARIANTS`.
    games: Arc<Registry>,
    session: Session,
    engine: Option<ExternalEngine>,
}

impl Bridge {
    pub fn new(games: Arc<Registry>) -> Bridge {
        Bridge {
            session: Session::new(Arc::clone(&games)),
            games,
            engine: None,
        }
    }

    /// `DLL_StartNewGame`: the configuration file is read again (a fix applies at the next
    /// game); an entry for this game starts its engine, else our engine plays.
    ///
    /// # Errors
    ///
    /// [`SessionError`]: the call does not fit the session's state (no game, the wrong order) or
    /// its argument is refused; its `code` is what the `DLL_*` call returns.
    pub fn start_new_game(&mut self, name: &str) -> Result<StartReply, SessionError> {
        self.engine = None;
        let config = config::load().map_err(|e| {
            log::error!("zillions: {e}");
            SessionError::Config(e)
        })?;
        if let Some(log_file) = config.as_ref().and_then(|c| c.log.as_ref())
            && let Err(e) = crate::logging::set_file(&log_file.to_string_lossy())
        {
            log::error!("zillions: log file {}: {e}", log_file.display());
        }
        match config.as_ref().and_then(|c| c.entry(name).map(|e| (c, e))) {
            None => self.session.start_new_game(name),
            Some((config, entry)) => {
                let result = self.start_engine(config, entry, name);
                if let Err(e) = &result {
                    log::error!("zillions: {}: game {name:?}: {e}", config.path.display());
                }
                result
            }
        }
    }

    fn start_engine(
        &mut self,
        config: &Config,
        entry: &config::EngineEntry,
        name: &str,
    ) -> Result<StartReply, SessionError> {
        let games = if entry.variants.is_empty() {
            Arc::clone(&self.games)
        } else {
            let mut games = (*self.games).clone();
            let loaded = games.load_paths(&entry.variants, |_| Ok(()));
            if let Some(e) = loaded.errors.first() {
                return Err(SessionError::Config(format!("variants: {e}")));
            }
            Arc::new(games)
        };
        let ours = entry.variant.as_deref().unwrap_or(name);
        let variant = find_variant(&games, ours)
            .ok_or_else(|| SessionError::UnknownVariant(format!("{ours} (`variant` in {})", config.path.display())))?;
        let engine = ExternalEngine::start(entry, &variant).map_err(SessionError::Engine)?;
        log::info!("zillions: {name:?} is played by {}", engine.name);
        let reply = self.session.start_variant(&variant);
        self.engine = Some(engine);
        Ok(reply)
    }

    /// `DLL_MakeAMove`: our session reads and plays it; the engine hears it at its next search.
    ///
    /// # Errors
    ///
    /// [`SessionError`]: the call does not fit the session's state (no game, the wrong order) or
    /// its argument is refused; its `code` is what the `DLL_*` call returns.
    pub fn make_move(&mut self, text: &str) -> Result<(), SessionError> {
        if let Some((before, mv)) = self.session.play(text)?
            && let Some(engine) = self.engine.as_mut()
        {
            engine.moved(&before, mv);
        }
        Ok(())
    }

    /// `DLL_Search`: the engine's move, checked by our rules; our engine's when there is no
    /// engine or it fails now (then for the rest of the game, in what is left of the time).
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
        let Some(engine) = self.engine.as_mut().filter(|e| e.alive()) else {
            return self.session.search(request, poll, progress);
        };
        let pos = self.session.current_position()?;
        if pos.legal_moves().0.is_empty() {
            return Err(SessionError::NoMoves);
        }
        let started = Instant::now();
        match engine.search(&pos, request, poll, progress) {
            Ok(answer) => Ok(answer),
            Err(fault) => {
                engine.fail(&fault);
                let used = started.elapsed().as_millis() as i64;
                let rest = SearchRequest {
                    time_ms: if request.time_ms > 0 {
                        (request.time_ms - used).max(50)
                    } else {
                        0
                    },
                    ..*request
                };
                self.session.search(&rest, poll, progress)
            }
        }
    }

    /// # Errors
    ///
    /// [`SessionError`]: the call does not fit the session's state (no game, the wrong order) or
    /// its argument is refused; its `code` is what the `DLL_*` call returns.
    pub fn begin_move_list(&mut self) -> Result<(), SessionError> {
        self.session.begin_move_list()
    }

    /// # Errors
    ///
    /// [`SessionError`]: the call does not fit the session's state (no game, the wrong order) or
    /// its argument is refused; its `code` is what the `DLL_*` call returns.
    pub fn next_listed_move(&mut self) -> Result<Option<String>, SessionError> {
        self.session.next_listed_move()
    }

    /// # Errors
    ///
    /// [`SessionError`]: the call does not fit the session's state (no game, the wrong order) or
    /// its argument is refused; its `code` is what the `DLL_*` call returns.
    pub fn game_over(&mut self) -> Result<Option<(i32, String)>, SessionError> {
        self.session.game_over()
    }

    /// `DLL_CleanUp`: the engine ends (its process group with it) and the game is forgotten.
    pub fn clean_up(&mut self) {
        if let Some(engine) = self.engine.take() {
            engine.finish();
        }
        self.session.clean_up();
    }
}
