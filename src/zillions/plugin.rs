//! A Zillions plug-in loaded from a file (`libloading`): the six `DLL_*` calls behind safe
//! methods. The buffers we pass are larger than the API's sizes and end in a NUL we put there, so
//! a plug-in that writes a full buffer cannot make us read past it.

use std::ffi::{CStr, CString, c_char, c_int, c_long};
use std::path::Path;
use std::sync::atomic::AtomicI32;

use super::codes::{COMMENT_BUFFER_BYTES, MOVE_BUFFER_BYTES};

type StartNewGame = unsafe extern "system" fn(*const c_char) -> c_int;
type MakeAMove = unsafe extern "system" fn(*const c_char) -> c_int;
type Search = unsafe extern "system" fn(
    c_long,
    c_long,
    c_long,
    *const c_int,
    *mut c_char,
    *mut c_char,
    *mut c_long,
    *mut c_long,
    *mut c_long,
) -> c_int;
type CleanUp = unsafe extern "system" fn() -> c_int;
type IsGameOver = unsafe extern "system" fn(*mut c_long, *mut c_char) -> c_int;
type GenerateMoves = unsafe extern "system" fn(*const c_char) -> c_int;

/// The calls the host makes of a plug-in: a loaded library ([`Plugin`]), or, in the host's tests,
/// our own session behind the same answers.
pub trait PluginCalls: Sync {
    /// `DLL_StartNewGame`: its return code.
    ///
    /// # Errors
    ///
    /// A variant name with a NUL, which no C string can carry.
    fn start_new_game(&self, variant: &str) -> Result<i32, String>;
    /// `DLL_MakeAMove`: its return code.
    ///
    /// # Errors
    ///
    /// A move text with a NUL, which no C string can carry.
    fn make_move(&self, text: &str) -> Result<i32, String>;
    /// `DLL_Search`; `status` may be set by another thread meanwhile.
    fn search(&self, time_ms: i64, depth: i64, variety: i64, status: &AtomicI32) -> PluginSearch;
}

/// Slack after each buffer we hand over, beyond the API's size.
const SLACK: usize = 64;

/// A loaded plug-in.
pub struct Plugin {
    start_new_game: StartNewGame,
    make_a_move: MakeAMove,
    search: Search,
    clean_up: CleanUp,
    is_game_over: Option<IsGameOver>,
    generate_moves: Option<GenerateMoves>,
    // Last: the calls above point into it.
    _library: libloading::Library,
}

/// What `DLL_Search` reported.
#[derive(Clone, Debug, Default, Eq, PartialEq)]
pub struct PluginSearch {
    pub code: i32,
    pub best_move: String,
    pub nodes: i64,
    pub score: i64,
    pub depth: i64,
}

fn c_text(buf: &[u8]) -> String {
    CStr::from_bytes_until_nul(buf).map_or_else(|_| String::new(), |c| c.to_string_lossy().into_owned())
}

fn c_string(text: &str) -> Result<CString, String> {
    CString::new(text).map_err(|_| format!("{text:?} contains a NUL"))
}

impl Plugin {
    /// Loads the library and finds its calls (the four required ones must exist).
    ///
    /// # Errors
    ///
    /// The library cannot be loaded, or lacks one of the four calls every plug-in has.
    pub fn load(path: &Path) -> Result<Plugin, String> {
        // SAFETY: loading a library runs its initialisers; the user named it as a plug-in.
        let library = unsafe { libloading::Library::new(path) }.map_err(|e| format!("{}: {e}", path.display()))?;
        /// # Safety
        /// `T` is the call's true signature.
        unsafe fn call<T: Copy>(lib: &libloading::Library, name: &str) -> Option<T> {
            // SAFETY: the caller's contract; the symbol outlives no one but the library.
            unsafe { lib.get::<T>(name.as_bytes()).ok().map(|s| *s) }
        }
        let missing = |name: &str| format!("{}: no {name} in the library", path.display());
        // SAFETY: the signatures of the Zillions engine API (protocol/zillions.md §4).
        unsafe {
            Ok(Plugin {
                start_new_game: call(&library, "DLL_StartNewGame").ok_or_else(|| missing("DLL_StartNewGame"))?,
                make_a_move: call(&library, "DLL_MakeAMove").ok_or_else(|| missing("DLL_MakeAMove"))?,
                search: call(&library, "DLL_Search").ok_or_else(|| missing("DLL_Search"))?,
                clean_up: call(&library, "DLL_CleanUp").ok_or_else(|| missing("DLL_CleanUp"))?,
                is_game_over: call(&library, "DLL_IsGameOver"),
                generate_moves: call(&library, "DLL_GenerateMoves"),
                _library: library,
            })
        }
    }

    /// # Errors
    ///
    /// A variant name with a NUL, which no C string can carry.
    pub fn start_new_game(&self, variant: &str) -> Result<i32, String> {
        let name = c_string(variant)?;
        // SAFETY: a NUL-terminated string that lives through the call.
        Ok(unsafe { (self.start_new_game)(name.as_ptr()) })
    }

    /// # Errors
    ///
    /// A move text with a NUL, which no C string can carry.
    pub fn make_move(&self, text: &str) -> Result<i32, String> {
        let mv = c_string(text)?;
        // SAFETY: as above.
        Ok(unsafe { (self.make_a_move)(mv.as_ptr()) })
    }

    /// Runs `DLL_Search`; `status` may be set by another thread meanwhile.
    // `c_long` is i32 on Windows: the `into` conversions are needed there.
    #[allow(clippy::useless_conversion)]
    pub fn search(&self, time_ms: i64, depth: i64, variety: i64, status: &AtomicI32) -> PluginSearch {
        let mut best = vec![0u8; MOVE_BUFFER_BYTES + SLACK];
        let mut current = vec![0u8; MOVE_BUFFER_BYTES + SLACK];
        let (mut nodes, mut score, mut d): (c_long, c_long, c_long) = (0, 0, 0);
        let long = |v: i64| c_long::try_from(v).unwrap_or(if v < 0 { c_long::MIN } else { c_long::MAX });
        // SAFETY: buffers of the API's sizes (and more), live for the call; `status` is an
        // aligned int that stays valid; the plug-in reads it while we may write it atomically.
        let code = unsafe {
            (self.search)(
                long(time_ms),
                long(depth),
                long(variety),
                status.as_ptr().cast_const(),
                best.as_mut_ptr().cast(),
                current.as_mut_ptr().cast(),
                &mut nodes,
                &mut score,
                &mut d,
            )
        };
        *best.last_mut().unwrap_or(&mut 0) = 0;
        PluginSearch {
            code,
            best_move: c_text(&best),
            nodes: nodes.into(),
            score: score.into(),
            depth: d.into(),
        }
    }

    /// The legal moves through `DLL_GenerateMoves`, `None` if the plug-in has no such call.
    pub fn generate_moves(&self) -> Option<Result<Vec<String>, i32>> {
        let generate = self.generate_moves?;
        // SAFETY: NULL starts the list.
        let code = unsafe { generate(std::ptr::null()) };
        if code < 0 {
            return Some(Err(code));
        }
        let mut moves = Vec::new();
        let mut buf = vec![0u8; MOVE_BUFFER_BYTES + SLACK];
        // A plug-in that never ends its list is cut off.
        for _ in 0..100_000 {
            buf.fill(0);
            // SAFETY: a writable buffer of the API's size and more.
            let code = unsafe { generate(buf.as_mut_ptr().cast_const().cast()) };
            if code < 0 {
                return Some(Err(code));
            }
            let text = c_text(&buf);
            if text.is_empty() {
                break;
            }
            moves.push(text);
        }
        Some(Ok(moves))
    }

    /// `DLL_IsGameOver`: the result and comment, `None` if the plug-in has no such call.
    #[allow(clippy::useless_conversion)]
    pub fn is_game_over(&self) -> Option<(i32, i64, String)> {
        let call = self.is_game_over?;
        let mut result: c_long = 0;
        let mut comment = vec![0u8; COMMENT_BUFFER_BYTES + SLACK];
        // SAFETY: a writable long and a comment buffer of the API's size and more.
        let code = unsafe { call(&mut result, comment.as_mut_ptr().cast()) };
        Some((code, result.into(), c_text(&comment)))
    }

    pub fn clean_up(&self) -> i32 {
        // SAFETY: no arguments.
        unsafe { (self.clean_up)() }
    }
}

impl PluginCalls for Plugin {
    fn start_new_game(&self, variant: &str) -> Result<i32, String> {
        Plugin::start_new_game(self, variant)
    }

    fn make_move(&self, text: &str) -> Result<i32, String> {
        Plugin::make_move(self, text)
    }

    fn search(&self, time_ms: i64, depth: i64, variety: i64, status: &AtomicI32) -> PluginSearch {
        Plugin::search(self, time_ms, depth, variety, status)
    }
}

impl Drop for Plugin {
    fn drop(&mut self) {
        self.clean_up();
    }
}
