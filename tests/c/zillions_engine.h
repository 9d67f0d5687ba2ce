/* The Zillions of Games engine plug-in API as fairybridge implements it (protocol/zillions.md §4).
 * Portable: on Windows the calls are stdcall (FAR PASCAL); elsewhere they use the C convention.
 * `long` is the platform's long: 32 bits on Windows, 64 bits on 64-bit Linux. */
#ifndef FAIRYBRIDGE_ZILLIONS_ENGINE_H
#define FAIRYBRIDGE_ZILLIONS_ENGINE_H

#if defined(_WIN32)
#define ZCALL __stdcall
#else
#define ZCALL
#endif

typedef enum {
    DLL_OK = 0,
    DLL_OK_DONT_SEND_SETUP = 1,
    DLL_GENERIC_ERROR = -1,
    DLL_OUT_OF_MEMORY_ERROR = -2,
    DLL_UNKNOWN_VARIANT_ERROR = -3,
    DLL_UNKNOWN_PLAYER_ERROR = -4,
    DLL_UNKNOWN_PIECE_ERROR = -5,
    DLL_WRONG_SIDE_TO_MOVE_ERROR = -6,
    DLL_INVALID_POSITION_ERROR = -7,
    DLL_NO_MOVES = -8
} DLL_Result;

#define UNKNOWN_SCORE (-2140000000L)
#define LOSS_SCORE (-2130000000L)
#define DRAW_SCORE 0L
#define WIN_SCORE 2130000000L

typedef enum { kKEEPSEARCHING = 0, kSTOPSOON = 1, kSTOPNOW = 2 } Search_Status;

/* Buffers the caller provides: moves 256 bytes, the game-over comment 500 bytes. */
#define ZILLIONS_MOVE_BUFFER 256
#define ZILLIONS_COMMENT_BUFFER 500

typedef DLL_Result (ZCALL *DLL_StartNewGame_t)(const char *variant);
typedef DLL_Result (ZCALL *DLL_MakeAMove_t)(const char *move);
typedef DLL_Result (ZCALL *DLL_Search_t)(long lSearchTime, long lDepthLimit, long lVariety,
                                        Search_Status *pSearchStatus, char *bestMove, char *currentMove,
                                        long *plNodes, long *plScore, long *plDepth);
typedef DLL_Result (ZCALL *DLL_CleanUp_t)(void);
typedef DLL_Result (ZCALL *DLL_IsGameOver_t)(long *lResult, char *zcomment);
typedef DLL_Result (ZCALL *DLL_GenerateMoves_t)(const char *moveBuffer);

#endif
