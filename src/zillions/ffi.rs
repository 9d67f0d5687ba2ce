//! The C layer of the plug-in (feature `zillions`): the six `DLL_*` calls of Zillions' engine API
//! (protocol/zillions.md §4, header `tests/c/zillions_engine.h`). Each call converts its
//! arguments, runs the `Session` and converts the result; a panic is caught here and answered
//! with `DLL_GENERIC_ERROR`, so nothing unwinds into the caller.
//!
//! `extern "system"` is stdcall on 32-bit Windows (Zillions' `FAR PASCAL`) and the C convention
//! everywhere else. `long` is C's `long` (`c_long`): 32 bits on Windows, 64 bits on 64-bit Linux —
//! what a C program including the header passes.

use std::ffi::{CStr, c_char, c_int, c_long};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::{Arc, Mutex};

use super::bridge::Bridge;
use super::codes::*;
use super::session::{SearchProgress, SearchRequest, SessionError, StartReply, StopRequest};

/// The one session of the loaded library (Zillions plays one game at a time).
static SESSION: Mutex<Option<Bridge>> = Mutex::new(None);

/// Runs a call: its error's code, or `DLL_GENERIC_ERROR` for a panic.
fn guarded(call: impl FnOnce() -> Result<c_int, SessionError>) -> c_int {
    match catch_unwind(AssertUnwindSafe(call)) {
        Ok(Ok(code)) => code,
        Ok(Err(e)) => {
            // A configuration's or an engine's failure was logged where its context is known.
            log::debug!("zillions: {e}");
            e.code()
        }
        Err(_) => DLL_GENERIC_ERROR,
    }
}

fn with_session<R>(f: impl FnOnce(&mut Bridge) -> Result<R, SessionError>) -> Result<R, SessionError> {
    // A poisoned lock means a caught panic; the session is still whole (every call either
    // completes its change or makes none).
    let mut guard = SESSION.lock().unwrap_or_else(|e| e.into_inner());
    let session = guard.get_or_insert_with(|| {
        // Messages (a bad configuration, an engine's fault) go to stderr, and to the file the
        // configuration's `log` names.
        crate::logging::init();
        let user_games = std::env::var_os(super::VARIANTS_ENV);
        Bridge::new(Arc::new(super::plugin_registry(user_games.as_deref())))
    });
    f(session)
}

/// The text a caller passes.
///
/// # Safety
/// `p` is null or points to a NUL-terminated string.
unsafe fn text_arg<'a>(p: *const c_char) -> Result<&'a str, SessionError> {
    if p.is_null() {
        return Err(SessionError::BadArgument("null string"));
    }
    // SAFETY: non-null and NUL-terminated by the caller's contract.
    unsafe { CStr::from_ptr(p) }
        .to_str()
        .map_err(|_| SessionError::BadArgument("text is not UTF-8"))
}

/// Writes `text` and its NUL into a caller's buffer of `capacity` bytes; refuses (writing nothing
/// but an empty string) when it does not fit.
///
/// # Safety
/// `buf` is null or points to at least `capacity` writable bytes.
unsafe fn write_text(buf: *mut c_char, text: &str, capacity: usize) -> Result<(), SessionError> {
    if buf.is_null() {
        return Err(SessionError::BadArgument("null buffer"));
    }
    let bytes = text.as_bytes();
    if bytes.len() + 1 > capacity {
        // SAFETY: capacity >= 1 byte by the contract.
        unsafe { *buf = 0 };
        return Err(SessionError::BadArgument("text longer than the buffer"));
    }
    // SAFETY: bytes.len() + 1 <= capacity bytes are writable.
    unsafe {
        std::ptr::copy_nonoverlapping(bytes.as_ptr().cast::<c_char>(), buf, bytes.len());
        *buf.add(bytes.len()) = 0;
    }
    Ok(())
}

/// `DLL_StartNewGame`: `DLL_OK_DONT_SEND_SETUP` for a game whose start we know, `DLL_OK` for one
/// with a random start (send the setup), `DLL_UNKNOWN_VARIANT_ERROR`.
///
/// # Safety
/// `variant` is null or a NUL-terminated string.
#[unsafe(no_mangle)]
pub unsafe extern "system" fn DLL_StartNewGame(variant: *const c_char) -> c_int {
    guarded(|| {
        // SAFETY: the caller's contract.
        let name = unsafe { text_arg(variant) }?;
        with_session(|s| s.start_new_game(name)).map(|r| match r {
            StartReply::KnownStart => DLL_OK_DONT_SEND_SETUP,
            StartReply::SendSetup => DLL_OK,
        })
    })
}

/// `DLL_MakeAMove`: a setup placement or a move, in Zillions notation.
///
/// # Safety
/// `mv` is null or a NUL-terminated string.
#[unsafe(no_mangle)]
pub unsafe extern "system" fn DLL_MakeAMove(mv: *const c_char) -> c_int {
    guarded(|| {
        // SAFETY: the caller's contract.
        let text = unsafe { text_arg(mv) }?;
        with_session(|s| s.make_move(text)).map(|()| DLL_OK)
    })
}

/// Writes a value through an optional `long` out-pointer.
///
/// # Safety
/// `p` is null or points to a writable `long`.
unsafe fn put_long(p: *mut c_long, value: i64) {
    if !p.is_null() {
        let v = c_long::try_from(value).unwrap_or(if value < 0 { c_long::MIN } else { c_long::MAX });
        // SAFETY: the caller's contract.
        unsafe { *p = v };
    }
}

/// `DLL_Search`: searches until the time (ms, 0 = none) or depth (0 = none) is reached or
/// `*pSearchStatus` asks to stop, keeping `bestMove`, `currentMove` and the three counters updated
/// meanwhile. `pSearchStatus` and `bestMove` are required (`DLL_GENERIC_ERROR` if null); the other
/// outputs may be null. Buffers: `MOVE_BUFFER_BYTES`.
///
/// # Safety
/// Every non-null pointer points to what the header says; `pSearchStatus` stays valid and may be
/// written by another thread while the call runs.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
// `c_long` is i32 on Windows: the `i64::from` conversions are needed there.
#[allow(clippy::useless_conversion)]
pub unsafe extern "system" fn DLL_Search(
    l_search_time: c_long,
    l_depth_limit: c_long,
    l_variety: c_long,
    p_search_status: *const c_int,
    best_move: *mut c_char,
    current_move: *mut c_char,
    pl_nodes: *mut c_long,
    pl_score: *mut c_long,
    pl_depth: *mut c_long,
) -> c_int {
    guarded(|| {
        if p_search_status.is_null() || best_move.is_null() {
            return Err(SessionError::BadArgument("null pSearchStatus or bestMove"));
        }
        // SAFETY: a valid, aligned int that another thread may write: read it atomically.
        let status = unsafe { &*p_search_status.cast::<AtomicI32>() };
        let mut poll = || StopRequest::from_status(status.load(Ordering::SeqCst));
        let publish = |p: &SearchProgress| {
            // SAFETY: the caller's contract for each pointer; a move too long for the buffer
            // leaves it empty (it cannot happen with names of at most 32 characters).
            unsafe {
                let _ = write_text(best_move, &p.best_move, MOVE_BUFFER_BYTES);
                if !current_move.is_null() {
                    let _ = write_text(current_move, &p.current_move, MOVE_BUFFER_BYTES);
                }
                put_long(pl_nodes, p.nodes.min(i64::MAX as u64) as i64);
                put_long(pl_score, p.score as i64);
                put_long(pl_depth, p.depth as i64);
            }
        };
        let request = SearchRequest {
            time_ms: i64::from(l_search_time),
            depth: i64::from(l_depth_limit),
            variety: i64::from(l_variety),
        };
        let result = with_session(|s| s.search(&request, &mut poll, &mut |p| publish(p)))?;
        publish(&result);
        // SAFETY: as above; here a failed write is an error.
        unsafe { write_text(best_move, &result.best_move, MOVE_BUFFER_BYTES) }?;
        Ok(DLL_OK)
    })
}

/// `DLL_CleanUp`: frees the session (the library may be unloaded next).
#[unsafe(no_mangle)]
pub extern "system" fn DLL_CleanUp() -> c_int {
    guarded(|| {
        *SESSION.lock().unwrap_or_else(|e| e.into_inner()) = None;
        Ok(DLL_OK)
    })
}

/// `DLL_IsGameOver`: `*lResult` = `WIN_SCORE` / `DRAW_SCORE` / `LOSS_SCORE` for the side to move
/// and the reason in `zcomment` (`COMMENT_BUFFER_BYTES`, cut to fit), or `UNKNOWN_SCORE` and
/// `zcomment` untouched while the game goes on.
///
/// # Safety
/// `l_result` is null or a writable `long`; `zcomment` is null or `COMMENT_BUFFER_BYTES` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "system" fn DLL_IsGameOver(l_result: *mut c_long, zcomment: *mut c_char) -> c_int {
    guarded(|| {
        if l_result.is_null() || zcomment.is_null() {
            return Err(SessionError::BadArgument("null lResult or zcomment"));
        }
        let over = with_session(|s| s.game_over())?;
        // SAFETY: the caller's contract.
        unsafe {
            match over {
                None => put_long(l_result, UNKNOWN_SCORE as i64),
                Some((score, why)) => {
                    put_long(l_result, score as i64);
                    let mut cut = why.len().min(COMMENT_BUFFER_BYTES - 1);
                    while !why.is_char_boundary(cut) {
                        cut -= 1;
                    }
                    write_text(zcomment, &why[..cut], COMMENT_BUFFER_BYTES)?;
                }
            }
        }
        Ok(DLL_OK)
    })
}

/// `DLL_GenerateMoves`: `NULL` starts the list of legal moves; each later call writes the next
/// one into the buffer (`MOVE_BUFFER_BYTES`), an empty string after the last. The parameter is
/// declared `LPCSTR` by Zillions but written to.
///
/// # Safety
/// `move_buffer` is null or `MOVE_BUFFER_BYTES` writable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "system" fn DLL_GenerateMoves(move_buffer: *const c_char) -> c_int {
    guarded(|| {
        if move_buffer.is_null() {
            return with_session(|s| s.begin_move_list()).map(|()| DLL_OK);
        }
        let next = with_session(|s| s.next_listed_move())?;
        // SAFETY: the caller's contract (a writable buffer despite the const).
        unsafe { write_text(move_buffer.cast_mut(), next.as_deref().unwrap_or(""), MOVE_BUFFER_BYTES) }?;
        Ok(DLL_OK)
    })
}
