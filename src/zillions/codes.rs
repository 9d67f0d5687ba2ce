//! The numbers of the Zillions plug-in API (`EngineDLL.h`): return codes, scores, search status.

/// `DLL_Result`: what every call returns.
pub const DLL_OK: i32 = 0;
/// From `DLL_StartNewGame` only: the engine knows the start position; send no setup.
pub const DLL_OK_DONT_SEND_SETUP: i32 = 1;
pub const DLL_GENERIC_ERROR: i32 = -1;
pub const DLL_OUT_OF_MEMORY_ERROR: i32 = -2;
pub const DLL_UNKNOWN_VARIANT_ERROR: i32 = -3;
pub const DLL_UNKNOWN_PLAYER_ERROR: i32 = -4;
pub const DLL_UNKNOWN_PIECE_ERROR: i32 = -5;
pub const DLL_WRONG_SIDE_TO_MOVE_ERROR: i32 = -6;
pub const DLL_INVALID_POSITION_ERROR: i32 = -7;
pub const DLL_NO_MOVES: i32 = -8;

/// Scores (`*plScore`, `*lResult`), from the point of view of the side to move.
pub const UNKNOWN_SCORE: i32 = -2_140_000_000;
pub const LOSS_SCORE: i32 = -2_130_000_000;
pub const DRAW_SCORE: i32 = 0;
pub const WIN_SCORE: i32 = 2_130_000_000;

/// `Search_Status`: written by Zillions while `DLL_Search` runs, read by the engine.
pub const K_KEEP_SEARCHING: i32 = 0;
pub const K_STOP_SOON: i32 = 1;
pub const K_STOP_NOW: i32 = 2;

/// Bytes the caller's move buffers (`bestMove`, `currentMove`, `DLL_GenerateMoves`) must hold,
/// the terminating NUL included; we never write more.
pub const MOVE_BUFFER_BYTES: usize = 256;
/// Bytes of `DLL_IsGameOver`'s comment buffer (Zillions: a 500-char string).
pub const COMMENT_BUFFER_BYTES: usize = 500;
