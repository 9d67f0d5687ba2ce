//! External engines behind the Zillions plug-in (protocol/zillions.md §6), driven the way
//! Zillions drives the library: tests/c/zillions_bridge_driver.c loads it with dlopen, names a
//! configuration file in FAIRYBRIDGE_ZILLIONS_CONFIG, and plays whole games in which the
//! configured engine plays one side (or both) and the driver the other with random legal moves;
//! every move the library answers must be one of DLL_GenerateMoves' moves. Fairy-Stockfish (UCI:
//! chess, crazyhouse, minishogi) and Fairy-Max (CECP: chess) are installed on demand; the broken
//! engines of scripts/e2e/ supply the faults. After DLL_CleanUp no process of the engine may be
//! left (the driver checks /proc).
//!
//! Needs the feature `zillions` (on by default).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod common;

const FAIRY_STOCKFISH: &str = "/usr/games/fairy-stockfish";

fn fairy_stockfish() -> &'static str {
    common::require_peer("fairy-stockfish", || Path::new(FAIRY_STOCKFISH).exists());
    FAIRY_STOCKFISH
}

fn e2e(script: &str) -> String {
    format!("{}/scripts/e2e/{script}", env!("CARGO_MANIFEST_DIR"))
}

/// A file in the test target's temporary folder, unique to this test.
fn temp(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("bridge-{}-{name}", std::process::id()))
}

/// Writes a configuration file `name` with `text`; returns its path.
fn config(name: &str, text: &str) -> PathBuf {
    let path = temp(&format!("{name}.toml"));
    std::fs::write(&path, text).expect("write the configuration");
    path
}

/// One `[[engine]]` entry for the Zillions game `game`.
fn entry(game: &str, cmd: &str, protocol: &str, args: &[&str]) -> String {
    let args: Vec<String> = args.iter().map(|a| format!("{a:?}")).collect();
    format!(
        "[[engine]]\nzillions = {game:?}\ncmd = {cmd:?}\nprotocol = {protocol:?}\nargs = [{}]\n",
        args.join(", ")
    )
}

/// Runs the driver on `game` with the configuration at `config` and the driver's `key=value`
/// arguments.
fn drive(config: &Path, game: &str, args: &[&str]) -> Output {
    Command::new(common::c_driver("zillions_bridge_driver"))
        .arg(common::plugin_library())
        .arg(game)
        .args(args)
        .env("FAIRYBRIDGE_ZILLIONS_CONFIG", config)
        .env("RUST_LOG", "info")
        .output()
        .expect("the driver runs")
}

/// The driver passed all its checks; its stdout and stderr.
fn passed(out: &Output) -> (String, String) {
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(0), "driver failed:\n{stdout}\n{stderr}");
    assert!(stdout.contains("ok all checks"), "{stdout}");
    (stdout, stderr)
}

/// A game that ended by rule (mate, stalemate …), not at the ply limit.
fn assert_game_over(stdout: &str) {
    assert!(stdout.contains("ok game over after"), "the game did not end:\n{stdout}");
}

/// The driver's report of a search stopped with `code`.
fn assert_stopped(stdout: &str, code: &str) {
    let line = format!("ok search stopped with {code}");
    assert!(stdout.contains(&line), "no {line:?} in\n{stdout}");
}

#[test]
fn fairy_stockfish_plays_chess_over_uci_and_honours_both_stop_codes() {
    let cfg = config(
        "fsf-chess",
        &format!(
            "{}options = {{ Hash = 16, Threads = 1 }}\n",
            entry("Chess", fairy_stockfish(), "uci", &[])
        ),
    );
    // The plug-in plays Black from the start sent as placements (a `position fen`), is asked
    // for hints on White's side that White does not follow, and is stopped twice.
    let (stdout, stderr) = passed(&drive(
        &cfg,
        "Chess",
        &[
            "side=black",
            "setup=chess",
            "time=100",
            "hint=3",
            "stopsoon=5",
            "stopnow=9",
            "plies=300",
        ],
    ));
    assert_game_over(&stdout);
    assert_stopped(&stdout, "kSTOPSOON");
    assert_stopped(&stdout, "kSTOPNOW");
    assert!(
        stderr.contains("\"Chess\" is played by /usr/games/fairy-stockfish"),
        "{stderr}"
    );
    assert!(!stderr.contains("our engine plays on"), "a fault:\n{stderr}");
}

#[test]
fn fairy_max_plays_chess_over_cecp_and_a_search_it_does_not_stop_is_cut_at_a_stop() {
    let fairymax = common::require_fairymax();
    let cfg = config("fairymax-chess", &entry("Chess", fairymax, "xboard", &[]));
    // Depth-limited searches (Fairy-Max counts CPU time, so its time per move is not ours on a
    // loaded machine); the unlimited ones are stopped: Fairy-Max does not know `?`, so the
    // answer is its best move so far and it is started afresh after.
    let (stdout, stderr) = passed(&drive(
        &cfg,
        "Chess",
        &[
            "side=white",
            "time=0",
            "depth=4",
            "hint=4",
            "stopsoon=4",
            "stopnow=8",
            "plies=300",
        ],
    ));
    assert_game_over(&stdout);
    assert_stopped(&stdout, "kSTOPSOON");
    assert_stopped(&stdout, "kSTOPNOW");
    assert!(!stderr.contains("our engine plays on"), "a fault:\n{stderr}");
    // The chess start as placements: Fairy-Max has no setboard and is set up with `edit`.
    let (stdout, stderr) = passed(&drive(
        &cfg,
        "Chess",
        &["side=both", "setup=chess", "time=0", "depth=2", "plies=12"],
    ));
    assert!(stdout.contains("12 plies played (12 by the plug-in)"), "{stdout}");
    assert!(!stderr.contains("our engine plays on"), "a fault:\n{stderr}");
}

#[test]
fn fairy_stockfish_plays_crazyhouse_and_minishogi() {
    let fsf = fairy_stockfish();
    let cfg = config("fsf-crazyhouse", &entry("Crazyhouse", fsf, "uci", &[]));
    let (stdout, stderr) = passed(&drive(
        &cfg,
        "Crazyhouse",
        &["side=white", "time=100", "stopnow=6", "plies=300"],
    ));
    assert_game_over(&stdout);
    assert!(!stderr.contains("our engine plays on"), "a fault:\n{stderr}");
    // A shogi-style game of ours from a definition file, under the engine's own name for it.
    let minishogi = format!(
        "{}/fixtures/variants/examples/minishogi.toml",
        env!("CARGO_MANIFEST_DIR")
    );
    let cfg = config(
        "fsf-minishogi",
        &format!(
            "[[engine]]\nzillions = \"Mini Shogi\"\nvariant = \"minishogi\"\nvariants = [{minishogi:?}]\n\
             engine_variant = \"minishogi\"\ncmd = {fsf:?}\nprotocol = \"uci\"\n"
        ),
    );
    let (stdout, stderr) = passed(&drive(&cfg, "Mini Shogi", &["side=black", "time=100", "plies=300"]));
    assert_game_over(&stdout);
    assert!(!stderr.contains("our engine plays on"), "a fault:\n{stderr}");
}

/// A broken engine's fault mid-game: logged, our engine's move instead, the game goes on with
/// every move legal, and nothing of the engine is left.
fn fault_mid_game(script: &str, protocol: &str, mode: &str, logged: &str) {
    common::require_python_chess();
    let pids = temp(&format!("{mode}-{protocol}.pids"));
    let _ = std::fs::remove_file(&pids);
    let pidfile = pids.to_string_lossy().into_owned();
    let mut args = vec![mode, "--at", "2"];
    if protocol == "uci" {
        args.extend(["--child", &pidfile]);
    }
    let cfg = config(
        &format!("{mode}-{protocol}"),
        &entry("Chess", &e2e(script), protocol, &args),
    );
    let pid_check = format!("pidfile={pidfile}");
    // A second a move, so that on a loaded machine the broken engine's fault comes before the
    // deadline; our engine, which plays on, stops at depth 3 long before it.
    let mut driver_args = vec!["side=both", "time=1000", "depth=3", "plies=8"];
    if protocol == "uci" {
        driver_args.push(&pid_check);
    }
    let (stdout, stderr) = passed(&drive(&cfg, "Chess", &driver_args));
    assert!(stdout.contains("8 plies played (8 by the plug-in)"), "{mode}: {stdout}");
    assert!(
        stderr.contains(logged) && stderr.contains("our engine plays on"),
        "{protocol} {mode}: no {logged:?} in\n{stderr}"
    );
}

#[test]
fn uci_faults_mid_game_cost_the_engine_not_the_game() {
    for (mode, logged) in [
        ("illegal", "an illegal move"),
        ("crash", "the engine exited"),
        ("silent", "within 250 ms"),
        ("garbage", "an unreadable move"),
        ("none", "no move (bestmove (none))"),
    ] {
        fault_mid_game("broken-uci-engine.py", "uci", mode, logged);
    }
}

#[test]
fn cecp_faults_mid_game_cost_the_engine_not_the_game() {
    for (mode, logged) in [
        ("illegal", "an illegal move"),
        ("crash", "the engine exited"),
        ("false-claim", "instead of moving"),
        ("garbage", "an unreadable move"),
        // 9 MB take long to read: it is cut at the time, or its line is unreadable.
        ("flood", "zillions: engine"),
    ] {
        fault_mid_game("broken-engine.py", "xboard", mode, logged);
    }
}

/// `DLL_StartNewGame` answers `code` and the log says `logged`.
fn refused_start(name: &str, config_text: &str, game: &str, code: i32, logged: &str) {
    let cfg = config(name, config_text);
    let (_, stderr) = passed(&drive(&cfg, game, &[&format!("start={code}")]));
    assert!(stderr.contains(logged), "{name}: no {logged:?} in\n{stderr}");
}

#[test]
fn an_engine_that_cannot_start_or_play_the_game_is_a_negative_code() {
    common::require_python_chess();
    let uci = e2e("broken-uci-engine.py");
    refused_start(
        "crash-start",
        &entry("Chess", &uci, "uci", &["crash-start"]),
        "Chess",
        -1,
        "exited during start-up",
    );
    refused_start(
        "hang-start",
        &entry("Chess", &uci, "uci", &["hang-start"]),
        "Chess",
        -1,
        "no uciok within 10 s",
    );
    let cecp = e2e("broken-engine.py");
    refused_start(
        "cecp-crash",
        &entry("Chess", &cecp, "xboard", &["crash-start"]),
        "Chess",
        -1,
        "exited during start-up",
    );
    refused_start(
        "missing",
        &entry("Chess", "/no/such/engine", "uci", &[]),
        "Chess",
        -1,
        "cannot start \"/no/such/engine\"",
    );
    // Its UCI_Variant lists only chess.
    refused_start(
        "not-its-game",
        &entry("Crazyhouse", &uci, "uci", &["good"]),
        "Crazyhouse",
        -1,
        "does not play the variant crazyhouse",
    );
    refused_start(
        "unknown-variant",
        &format!("{}variant = \"nosuch\"\n", entry("Chess", &uci, "uci", &["good"])),
        "Chess",
        -3,
        "nosuch",
    );
}

#[test]
fn a_bad_configuration_is_a_negative_code_naming_the_file_and_other_games_play_ours() {
    refused_start(
        "syntax",
        "[[engine]\n",
        "Chess",
        -1,
        "syntax.toml: TOML parse error at line 1",
    );
    refused_start(
        "typo",
        "[[engine]]\nzillions = \"Chess\"\ncommand = \"x\"\nprotocol = \"uci\"\n",
        "Chess",
        -1,
        "unknown field `command`",
    );
    refused_start(
        "protocol",
        "[[engine]]\nzillions = \"Chess\"\ncmd = \"x\"\nprotocol = \"winboard\"\n",
        "Chess",
        -1,
        "protocol is \"uci\" or \"xboard\"",
    );
    // The variable names a file that is not there.
    let (_, stderr) = passed(&drive(&temp("absent.toml"), "Chess", &["start=-1"]));
    assert!(
        stderr.contains("cannot read") && stderr.contains("FAIRYBRIDGE_ZILLIONS_CONFIG"),
        "{stderr}"
    );
    // A game without an entry is our engine's, as without a file.
    let cfg = config("only-chess", &entry("Chess", "/no/such/engine", "uci", &[]));
    let (stdout, _) = passed(&drive(
        &cfg,
        "Wreckage",
        &["start=1", "side=white", "time=20", "plies=6"],
    ));
    assert!(stdout.contains("6 plies played (3 by the plug-in)"), "{stdout}");
}

#[test]
fn nothing_of_the_engine_outlives_the_library_without_clean_up() {
    common::require_python_chess();
    let pids = temp("unload.pids");
    let _ = std::fs::remove_file(&pids);
    let pidfile = pids.to_string_lossy().into_owned();
    let cfg = config(
        "unload",
        &entry(
            "Chess",
            &e2e("broken-uci-engine.py"),
            "uci",
            &["good", "--child", &pidfile],
        ),
    );
    passed(&drive(&cfg, "Chess", &["time=50", "plies=4", "cleanup=0"]));
    // The engine's child sleeps a minute holding its output open: only a kill of the group ends it.
    let text = std::fs::read_to_string(&pids).expect("the engine wrote its child's pid");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(3);
    for pid in text.split_whitespace() {
        let stat = format!("/proc/{pid}/stat");
        let running = || {
            std::fs::read_to_string(&stat).is_ok_and(|s| {
                s.rsplit_once(')')
                    .is_some_and(|(_, rest)| !rest.trim_start().starts_with('Z'))
            })
        };
        while running() && std::time::Instant::now() < deadline {
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        assert!(!running(), "process {pid} outlived the library");
    }
}
