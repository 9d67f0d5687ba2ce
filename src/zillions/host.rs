//! `fairybridge zillions-host --plugin PATH`: any Zillions plug-in as a CECP engine. The GUI's wire
//! moves are read by our core and passed on in Zillions notation; the plug-in's moves are read by
//! our core too (an illegal one forfeits the game with a message), announced to XBoard with the
//! same `setup`/`piece` lines as our own games; we keep the clock; `?` becomes `kSTOPSOON`.
//!
//! The host is the CECP door with a plug-in to think: the GUI's lines come through the engine's
//! bounded reader (`protocol::input`) and its command loop (`protocol::xboard::command_loop`), and
//! are answered by the engine's game session (`protocol::xboard::session`), which owns the game,
//! the clock, the modes and the feature announcement. What is the plug-in's is its search: a
//! `Searcher` that follows the game (the plug-in has no undo, so every set-up, `undo` and `remove`
//! restarts it and replays the game), is told every move, and searches on a thread of its own,
//! because its search blocks, reporting to the loop when it ends: `?` stops it with a move
//! (`kSTOPSOON`), a command that calls it off stops it at once (`kSTOPNOW`) and drops its move, and
//! the commands after it wait for its end. What a plug-in cannot do (analysis, pondering, draw
//! offers, move exclusion, `lift`) are capabilities it lacks, announced and refused by the session.
//!
//! A turn of several moves (Wild Rose's growing roses) goes to the plug-in as Zillions gives it:
//! one `DLL_MakeAMove` per part, and one `DLL_Search` per part of the plug-in's own turn. On the
//! CECP side it goes as our engine sends it (protocol/wildrose-turns.md): each part as a `move` of
//! its own, the opponent passing with `@@@@` in between.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicI32, Ordering};

use tokio::sync::mpsc::UnboundedSender;

use crate::core::{Color, Move, Position};
use crate::notation::zillions::{self as znot, Placement, PlacementTarget, placement_text};
use crate::notation::{Coords, fen};
use crate::protocol::input;
use crate::protocol::xboard::driver::Purpose;
use crate::protocol::xboard::features::Capabilities;
use crate::protocol::xboard::searcher::{Reported, Searcher};
use crate::protocol::xboard::session::Session;
use crate::protocol::xboard::{CommandLoop, serve_door};
use crate::search::Limits;
use crate::variants::Registry;

use super::codes::{DLL_OK, K_STOP_NOW, K_STOP_SOON};
use super::find_variant;
use super::plugin::{Plugin, PluginCalls, PluginSearch};

/// The plug-in's search has ended: what it reported (`None`: the search thread panicked).
#[derive(Debug)]
pub struct SearchDone(Option<PluginSearch>);

/// The plug-in's search while it runs.
struct Searching {
    /// Read by the plug-in: `kSTOPSOON` or `kSTOPNOW` stop it.
    status: Arc<AtomicI32>,
    /// The search was called off: its move is dropped.
    dropped: bool,
    /// The position searched: the plug-in's move is read there.
    root: Position,
}

/// A Zillions plug-in as the searcher of the CECP game session.
pub struct PluginSearcher<P: PluginCalls> {
    plugin: Arc<P>,
    /// The plug-in's name, in what the user is told.
    name: String,
    /// The plug-in is in step with the game (false after it refused something: play stops).
    in_step: bool,
    /// Why the plug-in is not in a game (it refused the game, its setup or a move of it): what a
    /// search for its move is answered with.
    refusal: Option<String>,
    /// The plug-in's search, while one runs.
    searching: Option<Searching>,
    /// Where a search thread reports its end.
    reports: UnboundedSender<SearchDone>,
}

/// The host: the engine's CECP game session, with a plug-in to think.
pub type Host<P, W> = Session<W, PluginSearcher<P>>;

/// Serves the plug-in over CECP until `quit` or end of input; the exit code.
pub fn run(registry: Arc<Registry>, plugin_path: &Path, variant: Option<&str>) -> i32 {
    let plugin = match Plugin::load(plugin_path) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("fairybridge: {e}");
            return 2;
        }
    };
    let default_variant = match variant {
        None => registry.get(crate::variants::NORMAL),
        Some(n) => find_variant(&registry, n),
    };
    let Some(default_variant) = default_variant else {
        eprintln!(
            "fairybridge: unknown variant {:?}",
            variant.unwrap_or(crate::variants::NORMAL)
        );
        return 2;
    };
    let name = plugin_path
        .file_stem()
        .map_or_else(|| "plug-in".to_string(), |s| s.to_string_lossy().into_owned());
    let served = input::serve_stdin(|mut inputs| async move {
        let (reports, mut done) = tokio::sync::mpsc::unbounded_channel();
        let searcher = PluginSearcher::new(Arc::new(plugin), name, reports);
        let host = Session::with_searcher(registry, default_variant, searcher, std::io::stdout());
        serve_door(&mut CommandLoop::new(host), None, &mut inputs, &mut done).await;
    });
    match served {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("fairybridge: {e}");
            1
        }
    }
}

impl<P: PluginCalls + Send + 'static> PluginSearcher<P> {
    /// The searcher on `plugin` (called `name` to the user), whose searches report to `reports`.
    /// It is in no game until the session asks it to follow one.
    pub fn new(plugin: Arc<P>, name: String, reports: UnboundedSender<SearchDone>) -> Self {
        PluginSearcher {
            plugin,
            name,
            in_step: false,
            refusal: None,
            searching: None,
            reports,
        }
    }

    /// Restarts the plug-in and replays the game into it: the set-up `start`, then `moves`.
    fn replay(&self, start: &Position, moves: &[Move]) -> Result<(), String> {
        let v = Arc::clone(start.variant());
        if start.side_to_move() != Color::White {
            return Err("a plug-in's setup starts with White to move".into());
        }
        let code = self.plugin.start_new_game(znot::game_name(&v))?;
        if code < 0 {
            return Err(format!(
                "the plug-in refuses the game {:?}: DLL_StartNewGame = {code}",
                znot::game_name(&v)
            ));
        }
        let standard = fen::to_fen(&Position::start(&v), Coords::Human) == fen::to_fen(start, Coords::Human);
        if code == DLL_OK || !standard {
            for p in placements(start) {
                let text = format!("({})", placement_text(&v, &p));
                self.tell_plugin(&text)
                    .map_err(|why| format!("the plug-in refuses the setup: {why}"))?;
            }
        }
        let mut pos = start.clone();
        for &mv in moves {
            let text = znot::move_text(&pos, &mv);
            self.tell_plugin(&text)
                .map_err(|why| format!("the plug-in refuses a move of the game: {why}"))?;
            pos.make(mv);
        }
        Ok(())
    }

    fn tell_plugin(&self, text: &str) -> Result<(), String> {
        match self.plugin.make_move(text) {
            Ok(code) if code >= 0 => Ok(()),
            Ok(code) => Err(format!("DLL_MakeAMove({text:?}) = {code}")),
            Err(e) => Err(e),
        }
    }

    /// Play stops: what the user is told of why.
    fn give_up(&mut self, why: &str) -> String {
        self.in_step = false;
        format!("{}: {why}", self.name)
    }

    /// The plug-in's move, read in `root` and made in the plug-in as Zillions makes it (through
    /// DLL_MakeAMove, as any other move); or why it is none.
    fn read_move(&self, root: &Position, result: Option<PluginSearch>) -> Result<Move, String> {
        let result = result.ok_or("the plug-in's search crashed")?;
        if result.code < 0 {
            return Err(format!("DLL_Search = {}", result.code));
        }
        let mv = znot::parse_move(root, &result.best_move)
            .map_err(|e| format!("illegal move {:?} from the plug-in: {e}", result.best_move))?;
        self.tell_plugin(&result.best_move)?;
        Ok(mv)
    }
}

/// The plug-in as the searcher of the CECP game session.
impl<P: PluginCalls + Send + 'static> Searcher for PluginSearcher<P> {
    type Report = SearchDone;

    /// What a plug-in does beyond playing: nothing the door could ask for (it has no analysis,
    /// no pondering, no draw policy, no hash table or threads we could set, and we do not mark
    /// its moves).
    fn capabilities(&self) -> Capabilities {
        Capabilities::plays_only(format!("{} (Zillions plug-in, fairybridge zillions-host)", self.name))
    }

    /// The plug-in has no undo: it is restarted on the game's set-up and told its moves again.
    /// When it refuses, the session treats the game as a rejected set-up, and a search for its
    /// move is answered by resigning with the reason.
    fn follow(&mut self, pos: &Position) -> Result<(), String> {
        let mut start = pos.clone();
        let mut moves = Vec::new();
        while let Some(mv) = start.unmake() {
            moves.push(mv);
        }
        moves.reverse();
        self.in_step = false;
        self.refusal = None;
        match self.replay(&start, &moves) {
            Ok(()) => {
                self.in_step = true;
                Ok(())
            }
            Err(why) => {
                let told = format!("{}: {why}", self.name);
                self.refusal = Some(why);
                Err(told)
            }
        }
    }

    fn tell(&mut self, pos: &Position, mv: Move) -> Result<(), String> {
        if !self.in_step {
            return Err("the plug-in is not in a game".into());
        }
        self.tell_plugin(&znot::move_text(pos, &mv))
            .map_err(|why| format!("the plug-in refused it: {why}"))
    }

    /// Starts the plug-in's search for its move, on a thread of its own that reports its end
    /// ([`SearchDone`]) to the command loop.
    fn start(&mut self, root: Position, limits: Limits, purpose: Purpose) -> Result<(), String> {
        if purpose != Purpose::Move {
            return Err(self.give_up("the plug-in only searches for its own move"));
        }
        if !self.in_step {
            let why = self
                .refusal
                .clone()
                .unwrap_or_else(|| "the plug-in is not in a game".into());
            return Err(self.give_up(&why));
        }
        // A plug-in is given one time for its move, which it uses: the time the move should take,
        // not the most it may.
        let time_ms = limits
            .time
            .map_or(0, |b| b.soft.as_millis().clamp(1, i64::MAX as u128) as i64);
        let depth = limits.depth.map_or(0, i64::from);
        let status = Arc::new(AtomicI32::new(0));
        let (plugin, reports, flag) = (Arc::clone(&self.plugin), self.reports.clone(), Arc::clone(&status));
        let spawned = std::thread::Builder::new()
            .name("plug-in search".into())
            .spawn(move || {
                let search = std::panic::AssertUnwindSafe(|| plugin.search(time_ms, depth, 0, &flag));
                let result = std::panic::catch_unwind(search).ok();
                // The host may end as soon as it hears of the end: the plug-in is let go first,
                // so that its last owner, and `DLL_CleanUp`, is the host's thread.
                drop(plugin);
                let _ = reports.send(SearchDone(result));
            });
        if let Err(e) = spawned {
            return Err(self.give_up(&format!("cannot start the plug-in's search: {e}")));
        }
        self.searching = Some(Searching {
            status,
            dropped: false,
            root,
        });
        Ok(())
    }

    /// The plug-in is told to stop at once (`kSTOPNOW`); it thinks on until its search returns,
    /// and that search's move is dropped.
    fn stop(&mut self) {
        if let Some(search) = &mut self.searching {
            search.status.store(K_STOP_NOW, Ordering::SeqCst);
            search.dropped = true;
        }
    }

    fn move_now(&mut self) {
        if let Some(search) = self.searching.as_ref().filter(|s| !s.dropped) {
            search.status.store(K_STOP_SOON, Ordering::SeqCst);
        }
    }

    fn thinking_on_move(&self) -> bool {
        self.searching.is_some()
    }

    fn report(&mut self, SearchDone(result): SearchDone) -> Reported<'_> {
        let Some(search) = self.searching.take() else {
            return Reported::Nothing;
        };
        // A dropped move was never told to the plug-in: it still is in step.
        if search.dropped {
            return Reported::Nothing;
        }
        match self.read_move(&search.root, result) {
            Ok(mv) => Reported::Move {
                best: Some(mv),
                score: None,
                ponder: None,
                note: None,
            },
            Err(why) => Reported::Forfeit(self.give_up(&why)),
        }
    }
}

/// The placements that describe a position (board, then hands).
fn placements(pos: &Position) -> Vec<Placement> {
    let v = pos.variant();
    let mut out = Vec::new();
    for sq in v.shape.squares() {
        if let Some(p) = pos.piece_at(sq) {
            out.push(Placement {
                color: p.color(),
                kind: p.kind(),
                target: PlacementTarget::Square(sq),
            });
        }
    }
    for color in Color::BOTH {
        for k in 0..v.pieces.len() {
            let kind = crate::core::Kind(k as u8);
            let n = pos.hand_count(color, kind);
            if n > 0 {
                out.push(Placement {
                    color,
                    kind,
                    target: PlacementTarget::Hand(n),
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use std::collections::VecDeque;
    use std::sync::Mutex;
    use std::sync::atomic::AtomicBool;

    use std::io::Write;
    use std::time::Instant;

    use tokio::sync::mpsc::UnboundedReceiver;

    use super::*;
    use crate::core::MoveKind;
    use crate::notation::OutcomeText;
    use crate::notation::movetext;
    use crate::protocol::input::MAX_LINE_BYTES;
    use crate::protocol::xboard::reply::Reply;
    use crate::protocol::xboard::variant_info::wire as xboard_wire;
    use crate::zillions::codes::DLL_OK_DONT_SEND_SETUP;
    use crate::zillions::session::{SearchRequest, Session, StartReply, StopRequest};

    /// After Wild Rose spec T6: the pawn on e7 reaches e8 and may convert a black unit into a rose.
    const START: &str = "vn5w/4P3/7w/8/8/8/W7/1W5N w - - 0 1";

    /// Our own plug-in session behind the plug-in calls, as the cdylib answers them; it records
    /// what it was told and may be given the answers of its next searches.
    struct SessionPlugin {
        session: Mutex<Session>,
        told: Mutex<Vec<String>>,
        answers: Mutex<VecDeque<String>>,
        /// Its searches end only once the host asks them to stop (`?`, or a call-off).
        until_stopped: AtomicBool,
    }

    fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
        m.lock().unwrap_or_else(|e| e.into_inner())
    }

    impl PluginCalls for SessionPlugin {
        fn start_new_game(&self, variant: &str) -> Result<i32, String> {
            Ok(match lock(&self.session).start_new_game(variant) {
                Ok(StartReply::KnownStart) => DLL_OK_DONT_SEND_SETUP,
                Ok(StartReply::SendSetup) => DLL_OK,
                Err(e) => e.code(),
            })
        }

        fn make_move(&self, text: &str) -> Result<i32, String> {
            lock(&self.told).push(text.to_string());
            Ok(lock(&self.session)
                .make_move(text)
                .map_or_else(|e| e.code(), |()| DLL_OK))
        }

        fn search(&self, time_ms: i64, depth: i64, variety: i64, status: &AtomicI32) -> PluginSearch {
            if self.until_stopped.load(Ordering::SeqCst) {
                // Waits for the host's request, as a search without a limit does.
                while status.load(Ordering::SeqCst) == 0 {
                    std::thread::sleep(std::time::Duration::from_millis(1));
                }
            }
            if let Some(answer) = lock(&self.answers).pop_front() {
                return PluginSearch {
                    best_move: answer,
                    ..PluginSearch::default()
                };
            }
            let request = SearchRequest {
                time_ms,
                depth,
                variety,
            };
            let mut poll = || StopRequest::from_status(status.load(Ordering::SeqCst));
            match lock(&self.session).search(&request, &mut poll, &mut |_| {}) {
                Ok(p) => PluginSearch {
                    code: DLL_OK,
                    best_move: p.best_move,
                    nodes: p.nodes as i64,
                    score: i64::from(p.score),
                    depth: i64::from(p.depth),
                },
                Err(e) => PluginSearch {
                    code: e.code(),
                    ..PluginSearch::default()
                },
            }
        }
    }

    /// A host on our own plug-in session, whose rules know `registry`'s games (the plug-in knows
    /// the built-in ones), writing to `out`; and where its searches report.
    fn host_knowing<W: Write>(registry: Registry, out: W) -> (Host<SessionPlugin, W>, UnboundedReceiver<SearchDone>) {
        let registry = Arc::new(registry);
        let plugin = SessionPlugin {
            session: Mutex::new(Session::new(Arc::new(crate::protocol::builtin_games()))),
            told: Mutex::new(Vec::new()),
            answers: Mutex::new(VecDeque::new()),
            until_stopped: AtomicBool::new(false),
        };
        let normal = registry.get("normal").expect("normal");
        let (reports, done) = tokio::sync::mpsc::unbounded_channel();
        let searcher = PluginSearcher::new(Arc::new(plugin), "test".into(), reports);
        (Host::with_searcher(registry, normal, searcher, out), done)
    }

    /// A host on our plug-in behind the command loop, fed one GUI line at a time (each handled
    /// to the end, a search included: nothing arrives during it).
    struct Gui {
        commands: CommandLoop<Host<SessionPlugin, Vec<u8>>>,
        done: UnboundedReceiver<SearchDone>,
    }

    impl Gui {
        fn new() -> Gui {
            Gui::knowing(crate::protocol::builtin_games())
        }

        /// A host whose rules know `registry`'s games, on a plug-in that knows the built-in ones.
        fn knowing(registry: Registry) -> Gui {
            let (host, done) = host_knowing(registry, Vec::new());
            Gui {
                commands: CommandLoop::new(host),
                done,
            }
        }

        fn host(&self) -> &Host<SessionPlugin, Vec<u8>> {
            self.commands.brain()
        }

        /// Sends `line`; the lines the host answered.
        fn say(&mut self, line: &str) -> Vec<String> {
            self.commands.line(line, Instant::now());
            while self.host().thinking_on_move() {
                self.search_ends();
            }
            assert!(!self.commands.finished(), "{line} ends the host");
            assert_eq!(self.commands.held(), 0, "commands wait after {line}");
            self.output()
        }

        /// What the host has written since the last look.
        fn output(&mut self) -> Vec<String> {
            let out = self.commands.brain_mut().out_mut();
            let text = String::from_utf8_lossy(out).into_owned();
            out.clear();
            text.lines().map(str::to_string).collect()
        }

        /// The plug-in's search reports its end to the loop.
        fn search_ends(&mut self) {
            let done = self.done.blocking_recv().expect("the search reports its end");
            self.commands.report(done);
        }

        /// Moves (not setup placements) the plug-in was told.
        fn moves_told(&self) -> Vec<String> {
            lock(&self.host().searcher().plugin.told)
                .iter()
                .filter(|t| !t.starts_with('('))
                .cloned()
                .collect()
        }

        fn plugin_fen(&self) -> String {
            let pos = lock(&self.host().searcher().plugin.session)
                .current_position()
                .expect("a game");
            fen::to_fen(&pos, Coords::Wire)
        }

        /// Starts Wild Rose from `START`.
        fn wild_rose(&mut self, play: &[&str]) {
            for line in ["xboard", "protover 2", "new", "variant wildrose", "sd 2"] {
                self.say(line);
            }
            for line in play {
                self.say(line);
            }
            assert!(self.say(&format!("setboard {START}")).is_empty());
        }
    }

    /// A game the plug-in refuses (DLL_StartNewGame < 0) is an error the GUI sees, is not set up,
    /// and a `go` is answered (never `setup` and then silence).
    #[test]
    fn a_refused_game_is_an_error_and_go_is_answered() {
        let mut registry = crate::protocol::builtin_games();
        let file = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/fixtures/variants/examples/minicannon.toml"
        );
        registry.load_file(std::path::Path::new(file)).expect("minicannon");
        let mut gui = Gui::knowing(registry);
        gui.say("xboard");
        gui.say("protover 2");
        gui.say("new");
        let answer = gui.say("variant minicannon");
        assert_eq!(answer.len(), 1, "{answer:?}");
        assert!(
            answer[0].starts_with("tellusererror test: the plug-in refuses the game"),
            "{answer:?}"
        );
        gui.say("st 1");
        let answer = gui.say("go");
        assert!(answer.iter().any(|l| l == "resign"), "{answer:?}");
        assert!(answer.iter().any(|l| l.contains("DLL_StartNewGame = ")), "{answer:?}");
        // A game it knows plays again.
        gui.say("new");
        gui.say("sd 1");
        let answer = gui.say("go");
        assert!(answer.iter().any(|l| l.starts_with("move ")), "{answer:?}");
    }

    /// The GUI's lines to an engine session and the lines it wrote back (our engine as the
    /// brain), for comparing the host's answers with the engine's.
    fn engine_answers(lines: &[&str]) -> Vec<String> {
        let mut engine =
            crate::protocol::xboard::checked_session::CheckedSession::new(Arc::new(crate::protocol::builtin_games()));
        for line in lines {
            engine.line(line);
        }
        engine
            .transcript()
            .iter()
            .filter_map(|l| l.strip_prefix("< "))
            .map(str::to_string)
            .collect()
    }

    /// What the engine answers to `lines` once it has been sent `before`.
    fn engine_answers_to(before: &[&str], lines: &[&str]) -> Vec<String> {
        let all: Vec<&str> = before.iter().chain(lines).copied().collect();
        engine_answers(&all)[engine_answers(before).len()..].to_vec()
    }

    /// Zillions sends a setup with White to move: a Black-to-move `setboard` the plug-in cannot
    /// take is a rejected set-up, as one the rules reject: no position (neither the old game's
    /// nor one the plug-in does not hold), `go`, moves and `undo` answered as the engine answers
    /// them after a rejected `setboard`; the next good set-up plays again.
    #[test]
    fn a_setup_the_plugin_refuses_leaves_no_position() {
        let mut gui = Gui::new();
        for line in ["xboard", "protover 2", "new", "force"] {
            gui.say(line);
        }
        let said = gui.say("setboard rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
        assert_eq!(
            said,
            ["tellusererror Illegal position: test: a plug-in's setup starts with White to move"]
        );
        assert!(!gui.host().game().is_valid());
        let after = ["go", "force", "usermove e7e5", "undo", "white", "go"];
        let host: Vec<String> = after.iter().flat_map(|l| gui.say(l)).collect();
        let rejected = ["xboard", "new", "force", "setboard 8/8/8/8/8/8/8/8 w - - 0 1"];
        assert_eq!(host, engine_answers_to(&rejected, &after));
        assert!(
            host.contains(&"Error (no position, setboard was rejected): go".to_string()),
            "{host:?}"
        );
        assert!(gui.moves_told().is_empty(), "no move reached the plug-in");
        for line in ["new", "sd 1"] {
            gui.say(line);
        }
        let answer = gui.say("go");
        assert!(answer.iter().any(|l| l.starts_with("move ")), "{answer:?}");
    }

    /// Where the one session answers for both brains the host answers as the engine: `undo` and
    /// `remove` with no move to take back, a mate made in force mode (nobody claims it), `go`
    /// on a game already over (the result, no search).
    #[test]
    fn the_host_answers_take_backs_and_finished_games_as_the_engine() {
        let before = ["xboard", "protover 2", "new"];
        let mate_in_force = [
            "force",
            "usermove f2f3",
            "usermove e7e5",
            "usermove g2g4",
            "usermove d8h4",
        ];
        let cases: [(&[&str], Option<&str>); 3] = [
            (&["undo", "remove"], Some("Error (command not legal now): undo")),
            (&mate_in_force, None),
            (
                &[
                    "setboard rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
                    "go",
                ],
                Some("0-1 {Black mates}"),
            ),
        ];
        for (lines, expected) in cases {
            let mut gui = Gui::new();
            for line in before {
                gui.say(line);
            }
            let host: Vec<String> = lines.iter().flat_map(|l| gui.say(l)).collect();
            assert_eq!(host, engine_answers_to(&before, lines), "{lines:?}");
            match expected {
                Some(line) => assert!(host.contains(&line.to_string()), "{lines:?}: {host:?}"),
                None => assert!(host.is_empty(), "{lines:?}: {host:?}"),
            }
        }
    }

    /// `white` and edit mode set a position up: the plug-in, which has no undo, is restarted on
    /// it and holds what the host holds; one it cannot take (Black to move, `black`) is no
    /// position.
    #[test]
    fn white_black_and_edit_set_the_plugin_up_afresh() {
        let mut gui = Gui::new();
        for line in ["xboard", "protover 2", "new", "force", "usermove e2e4"] {
            gui.say(line);
        }
        assert!(gui.say("white").is_empty());
        let host_fen = fen::to_fen(gui.host().game().position(), Coords::Wire);
        assert!(host_fen.contains(" w "), "{host_fen}");
        assert_eq!(gui.plugin_fen(), host_fen);
        let said = gui.say("black");
        assert_eq!(
            said,
            ["tellusererror Illegal position: test: a plug-in's setup starts with White to move"]
        );
        assert!(!gui.host().game().is_valid());
        for line in ["new", "force", "edit", "#", "Ke1", "Qd1", "c", "ke8", "."] {
            assert!(gui.say(line).is_empty(), "{line}");
        }
        assert!(gui.host().game().is_valid());
        let host_fen = fen::to_fen(gui.host().game().position(), Coords::Wire);
        assert!(host_fen.starts_with("4k3/8/8/8/8/8/8/3QK3 w"), "{host_fen}");
        assert_eq!(gui.plugin_fen(), host_fen);
    }

    /// A size prefix that is not the variant's own is refused by the host with the engine's very
    /// error, and the game stays as it was; the variant's own size is accepted.
    #[test]
    fn the_host_checks_a_variants_size_as_the_engine_does() {
        let mut gui = Gui::new();
        for line in ["xboard", "protover 2", "new", "variant wildrose", "force"] {
            gui.say(line);
        }
        for bad in ["variant 10x8_normal", "variant 8x8+x_normal", "variant 8x8_nosuch"] {
            let answer = gui.say(bad);
            assert_eq!(answer, engine_answers(&["xboard", bad]), "{bad}");
            assert_eq!(answer.len(), 1, "{answer:?}");
            assert!(answer[0].starts_with("Error (unsupported "), "{answer:?}");
            assert_eq!(gui.host().game().variant().name, "wildrose", "{bad} changed the game");
        }
        assert_eq!(
            gui.say("variant 8x8+0_normal"),
            engine_answers(&["variant 8x8+0_normal"])
        );
        assert_eq!(gui.host().game().variant().name, "normal");
    }

    /// Both brains announce their features from one source: the door's own features are the
    /// same; what differs is what the plug-in lacks (analysis, exclusion, `lift`, hash, threads).
    #[test]
    fn the_host_announces_the_doors_features_and_its_own_capabilities() {
        let mut gui = Gui::new();
        gui.say("xboard");
        let host = gui.say("protover 2");
        let names = crate::protocol::builtin_games().names().join(",");
        let expected: Vec<String> = gui
            .host()
            .capabilities()
            .announcement(&crate::protocol::builtin_games().names())
            .iter()
            .map(Reply::to_string)
            .collect();
        assert_eq!(host, expected);
        let engine = engine_answers(&["xboard", "protover 2"]);
        let features = |lines: &[String]| -> Vec<(String, String)> {
            lines
                .iter()
                .filter_map(|l| l.strip_prefix("feature "))
                .flat_map(|l| l.split(' ').map(str::to_string).collect::<Vec<_>>())
                .filter_map(|kv| kv.split_once('=').map(|(k, v)| (k.to_string(), v.to_string())))
                .filter(|(k, _)| k != "option")
                .collect()
        };
        let (host, engine) = (features(&host), features(&engine));
        let keys = |f: &[(String, String)]| f.iter().map(|(k, _)| k.clone()).collect::<Vec<_>>();
        assert_eq!(keys(&host), keys(&engine), "the same features, in the same order");
        let lacks = [
            "draw",
            "analyze",
            "nps",
            "memory",
            "smp",
            "exclude",
            "highlight",
            "debug",
        ];
        for ((key, host), (_, engine)) in host.iter().zip(&engine) {
            if lacks.contains(&key.as_str()) {
                assert_eq!((host.as_str(), engine.as_str()), ("0", "1"), "{key}");
            } else if key != "myname" {
                assert_eq!(host, engine, "{key}");
            }
        }
        assert!(host.contains(&("variants".to_string(), format!("\"{names}\""))));
    }

    /// The host reads the GUI through the engine's bounded reader and command loop: an over-long
    /// line is refused with the error line of the engine's door, never kept whole, and the next
    /// line is answered.
    #[test]
    fn an_overlong_line_is_refused_and_the_next_one_answered() {
        let mut bytes = b"xboard\n".to_vec();
        bytes.extend(std::iter::repeat_n(b'x', 3 * MAX_LINE_BYTES));
        bytes.extend_from_slice(b"\nping 7\n");
        let (host, mut done) = host_knowing(crate::protocol::builtin_games(), Vec::new());
        let mut commands = CommandLoop::new(host);
        let runtime = tokio::runtime::Builder::new_current_thread().build().expect("runtime");
        let (tx, mut inputs) = tokio::sync::mpsc::unbounded_channel();
        runtime.block_on(input::read_lines(tokio::io::BufReader::new(&bytes[..]), tx));
        runtime.block_on(serve_door(&mut commands, None, &mut inputs, &mut done));
        assert!(commands.finished(), "end of input ends the host");
        let text = String::from_utf8_lossy(commands.brain_mut().out_mut()).into_owned();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2, "{lines:?}");
        let expected = format!(
            "Error (line too long): line of {} bytes starting \"xxxx",
            3 * MAX_LINE_BYTES
        );
        assert!(lines[0].starts_with(&expected), "{lines:?}");
        assert!(lines[0].len() < 200, "{lines:?}");
        assert_eq!(lines[1], "pong 7");
    }

    /// The engine's stop rule holds for the plug-in's search (cecp-reference §13.6–9): `ping` and
    /// a GUI move wait for its move, commands beside it are answered while it runs, `?` stops it
    /// with its move, and `force` calls it off: no move, the plug-in not told one, and what waited
    /// comes first.
    #[test]
    fn the_plugins_search_follows_the_engines_stop_rule() {
        let mut gui = Gui::new();
        for line in ["xboard", "protover 2", "new", "force"] {
            gui.say(line);
        }
        let start = gui.host().game().position_clone();
        let e4 = movetext::parse_move(&start, "e2e4", Coords::Wire).expect("e2e4");
        let mut after_e4 = start.clone();
        after_e4.make(e4);
        let e5 = movetext::parse_move(&after_e4, "e7e5", Coords::Wire).expect("e7e5");
        let mut after_e5 = after_e4.clone();
        after_e5.make(e5);
        let nf3 = movetext::parse_move(&after_e5, "g1f3", Coords::Wire).expect("g1f3");
        gui.host().searcher().plugin.until_stopped.store(true, Ordering::SeqCst);
        lock(&gui.host().searcher().plugin.answers)
            .extend([znot::move_text(&start, &e4), znot::move_text(&after_e5, &nf3)]);

        gui.commands.line("go", Instant::now());
        for line in ["ping 1", "usermove e7e5", "time 500", "otim 500", "post", "hint"] {
            gui.commands.line(line, Instant::now());
        }
        assert!(gui.host().thinking_on_move(), "nothing here stops the search");
        assert_eq!(gui.commands.held(), 2, "ping and the move wait");
        assert_eq!(gui.output(), ["Error (unknown command): hint"]);
        gui.commands.line("?", Instant::now());
        gui.search_ends();
        // The move first, then what waited: the pong, and the GUI's move, which the plug-in
        // answers with a search of its own.
        assert_eq!(gui.output(), ["move e2e4", "pong 1"]);
        assert!(gui.host().thinking_on_move());
        assert_eq!(
            gui.moves_told(),
            [znot::move_text(&start, &e4), znot::move_text(&after_e4, &e5)]
        );

        gui.commands.line("ping 2", Instant::now());
        gui.commands.line("force", Instant::now());
        assert!(gui.output().is_empty(), "the called-off search is waited for");
        assert_eq!(gui.commands.held(), 2);
        gui.search_ends();
        assert_eq!(gui.output(), ["pong 2"]);
        assert_eq!(gui.commands.held(), 0);
        assert!(gui.host().engine_side().is_none(), "force ran");
        assert_eq!(
            gui.moves_told().len(),
            2,
            "the dropped move was never told to the plug-in"
        );
        assert_eq!(
            fen::to_fen(gui.host().game().position(), Coords::Wire),
            fen::to_fen(&after_e5, Coords::Wire)
        );
        assert_eq!(gui.plugin_fen(), fen::to_fen(&after_e5, Coords::Wire));
    }

    /// The GUI going away while the plug-in searches calls the search off; the host ends once it
    /// has returned.
    #[test]
    fn end_of_input_during_a_search_waits_for_it() {
        let mut gui = Gui::new();
        for line in ["xboard", "protover 2", "new", "force"] {
            gui.say(line);
        }
        gui.host().searcher().plugin.until_stopped.store(true, Ordering::SeqCst);
        gui.commands.line("go", Instant::now());
        gui.commands.input(input::Input::Eof);
        assert!(!gui.commands.finished(), "the search still runs");
        gui.search_ends();
        assert!(gui.commands.finished());
        assert!(gui.output().is_empty(), "no move from a called-off search");
    }

    /// A growing-roses move from `START` and a move after it that does not end the game.
    fn growing_roses_turn() -> (Position, Move, Move) {
        let v = crate::protocol::builtin_games().get("wildrose").expect("wildrose");
        let setup = fen::parse_fen(START, Coords::Wire).expect("fen");
        let pos = Position::from_setup(&v, &setup).expect("position");
        for grow in pos.legal_moves().iter().copied().filter(|m| m.kind() == MoveKind::Grow) {
            let mut mid = pos.clone();
            mid.make(grow);
            assert!(mid.in_continuation());
            let legal = mid.legal_moves();
            let next = legal.iter().copied().find(|m| {
                let mut after = mid.clone();
                after.make(*m);
                after.outcome().is_none()
            });
            if let Some(next) = next {
                return (pos, grow, next);
            }
        }
        panic!("no growing-roses turn from {START}");
    }

    #[test]
    fn the_plugins_turn_of_several_moves_goes_to_the_gui_part_by_part() {
        let (pos, grow, next) = growing_roses_turn();
        let mut mid = pos.clone();
        mid.make(grow);
        let (grow_z, next_z) = (znot::move_text(&pos, &grow), znot::move_text(&mid, &next));
        let mut gui = Gui::new();
        gui.wild_rose(&["force"]);
        lock(&gui.host().searcher().plugin.answers).extend([grow_z.clone(), next_z.clone()]);
        // The first part goes out as our engine sends it (`e7e8,e8b8`); the plug-in waits.
        assert_eq!(gui.say("go"), [format!("move {}", xboard_wire(&pos, &grow))]);
        assert!(xboard_wire(&pos, &grow).contains(','), "a two-leg first part");
        assert_eq!(
            lock(&gui.host().searcher().plugin.answers).len(),
            1,
            "no second search before the pass"
        );
        assert_eq!(gui.say("ping 1"), ["pong 1"]);
        assert!(gui.say("time 500").is_empty());
        // The opponent's pass: the plug-in searches again and its next part goes out.
        assert_eq!(gui.say("usermove @@@@"), [format!("move {}", xboard_wire(&mid, &next))]);
        // Each part went back to the plug-in through DLL_MakeAMove, as Zillions does it.
        assert_eq!(gui.moves_told(), [grow_z, next_z]);
        let mut after = mid.clone();
        after.make(next);
        assert_eq!(gui.plugin_fen(), fen::to_fen(&after, Coords::Wire));
        assert_eq!(
            fen::to_fen(gui.host().game().position(), Coords::Wire),
            fen::to_fen(&after, Coords::Wire)
        );
        // A pass nobody owes is no move.
        assert_eq!(gui.say("usermove @@@@"), ["Illegal move: @@@@"]);
    }

    #[test]
    fn xboards_setboard_stands_for_the_pass_and_an_illegal_second_part_forfeits() {
        let (pos, grow, _) = growing_roses_turn();
        let mut gui = Gui::new();
        gui.wild_rose(&["force"]);
        // After the first part the plug-in answers a move of the other side.
        lock(&gui.host().searcher().plugin.answers)
            .extend([znot::move_text(&pos, &grow), "Knight b8 - c6".to_string()]);
        assert_eq!(gui.say("go"), [format!("move {}", xboard_wire(&pos, &grow))]);
        // XBoard sends its own picture of the turn instead of a pass: our position stays.
        let said = gui.say("setboard 8/8/8/8/8/8/8/8 b - - 0 1");
        assert!(
            said.iter()
                .any(|l| l.starts_with("tellusererror test: illegal move \"Knight b8 - c6\"")),
            "{said:?}"
        );
        assert_eq!(said.last().map(String::as_str), Some("resign"), "{said:?}");
        assert!(!said.iter().any(|l| l.starts_with("move ")), "{said:?}");
        assert_eq!(gui.moves_told().len(), 1, "the illegal part never reached the plug-in");
    }

    #[test]
    fn the_guis_turn_of_several_moves_reaches_the_plugin_move_by_move() {
        let (pos, grow, next) = growing_roses_turn();
        let mut mid = pos.clone();
        mid.make(grow);
        let mut after = mid.clone();
        after.make(next);
        let mut gui = Gui::new();
        // The plug-in plays Black (`new`); White's turn has two parts.
        gui.wild_rose(&[]);
        assert_eq!(
            gui.say(&format!("usermove {}", xboard_wire(&pos, &grow))),
            ["move @@@@"]
        );
        assert_eq!(gui.moves_told(), [znot::move_text(&pos, &grow)]);
        // The turn is complete: the plug-in (our session, searching) answers a legal move.
        let said = gui.say(&format!("usermove {}", xboard_wire(&mid, &next)));
        assert_eq!(gui.moves_told()[1], znot::move_text(&mid, &next));
        let answer = said[0].strip_prefix("move ").unwrap_or_else(|| panic!("{said:?}"));
        let mv = movetext::parse_move(&after, answer, Coords::Wire).expect("a legal reply");
        after.make(mv);
        assert_eq!(gui.plugin_fen(), fen::to_fen(&after, Coords::Wire));
        // A game end after the reply is the core's verdict, claimed once.
        let claims: Vec<String> = after
            .outcome()
            .map(|o| format!("{} {{{}}}", o.result(), o.description()))
            .into_iter()
            .collect();
        assert_eq!(said[1..], claims, "{said:?}");
        // In force mode nobody passes: both parts are just made.
        let mut gui = Gui::new();
        gui.wild_rose(&["force"]);
        assert!(gui.say(&format!("usermove {}", xboard_wire(&pos, &grow))).is_empty());
        assert!(gui.say(&format!("usermove {}", xboard_wire(&mid, &next))).is_empty());
        assert_eq!(gui.moves_told().len(), 2);
    }
}
