/* Drives the fairybridge plug-in the way Zillions does: dlopen, StartNewGame, the setup as
 * placements, a whole Wreckage game against itself through DLL_Search/DLL_MakeAMove with every
 * move checked against DLL_GenerateMoves, searches stopped from a second thread with kSTOPSOON
 * and kSTOPNOW, null pointers, bad strings, and guard bytes after every buffer.
 * Usage: zillions_driver LIBRARY. Prints "ok ..." lines; exit 0 when every check passed.
 * On Windows (built with mingw-w64, run under wine by scripts/windows-dll-check.sh) the library is
 * loaded as Zillions loads a plug-in: LoadLibrary, then GetProcAddress with the plain names. */
#ifdef _WIN32
#include <windows.h>
#else
#include <dlfcn.h>
#endif
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "zillions_engine.h"

static DLL_StartNewGame_t start_new_game;
static DLL_MakeAMove_t make_a_move;
static DLL_Search_t search;
static DLL_CleanUp_t clean_up;
static DLL_IsGameOver_t is_game_over;
static DLL_GenerateMoves_t generate_moves;

#ifdef _WIN32
typedef HMODULE Library;
static Library open_library(const char *path) { return LoadLibraryA(path); }
static const char *library_error(void) {
    static char text[64];
    snprintf(text, sizeof text, "LoadLibrary error %lu", (unsigned long)GetLastError());
    return text;
}
/* The stdcall exports must be found under their undecorated names, as Zillions asks for them. */
#define FIND(lib, type, name) ((type)(void (*)(void))GetProcAddress(lib, name))
#else
typedef void *Library;
static Library open_library(const char *path) { return dlopen(path, RTLD_NOW); }
static const char *library_error(void) { return dlerror(); }
#define FIND(lib, type, name) ((type)dlsym(lib, name))
#endif

static int failures = 0;
#define CHECK(cond, ...)                                   \
    do {                                                   \
        if (!(cond)) {                                     \
            fprintf(stderr, "FAIL line %d: ", __LINE__);   \
            fprintf(stderr, __VA_ARGS__);                  \
            fprintf(stderr, "\n");                         \
            failures++;                                    \
        }                                                  \
    } while (0)

#define GUARD 64
/* A move buffer with guard bytes behind it: nothing may be written past its 256 bytes. */
typedef struct {
    char text[ZILLIONS_MOVE_BUFFER];
    unsigned char guard[GUARD];
} MoveBuffer;

static void arm(MoveBuffer *b) {
    memset(b->text, 'Q', sizeof b->text);
    memset(b->guard, 0xA5, sizeof b->guard);
}
static int intact(const MoveBuffer *b) {
    for (int i = 0; i < GUARD; i++)
        if (b->guard[i] != 0xA5) return 0;
    return 1;
}

#define MAX_MOVES 512
static char legal[MAX_MOVES][ZILLIONS_MOVE_BUFFER];

/* The legal moves through DLL_GenerateMoves; -1 on error. */
static int list_moves(void) {
    if (generate_moves(NULL) != DLL_OK) return -1;
    int n = 0;
    for (;;) {
        MoveBuffer b;
        arm(&b);
        if (generate_moves(b.text) != DLL_OK) return -1;
        CHECK(intact(&b), "GenerateMoves wrote past the buffer");
        if (b.text[0] == 0) break;
        if (n < MAX_MOVES) strcpy(legal[n++], b.text);
    }
    return n;
}
static int is_listed(const char *mv, int n) {
    for (int i = 0; i < n; i++)
        if (strcmp(legal[i], mv) == 0) return 1;
    return 0;
}

typedef struct {
    volatile Search_Status *status;
    volatile long *nodes;
    Search_Status stop_with;
    long nodes_seen;
} Stopper;

static void *stopper(void *arg) {
    Stopper *s = arg;
    /* Ask it to stop once it shows that it searches: its node counter moves (polled, the only
       signal the calling convention has). The 30 s are for a search that never counts. */
    for (int i = 0; i < 30000 && *s->nodes == 0; i++) usleep(1000);
    s->nodes_seen = *s->nodes;
    *s->status = s->stop_with;
    return NULL;
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

/* An unlimited search (no time, no depth) stopped from a second thread. */
static void stopped_search(Search_Status how, int n_legal) {
    Search_Status status = kKEEPSEARCHING;
    MoveBuffer best, current;
    arm(&best);
    arm(&current);
    long nodes = 0, score = 0, depth = 0;
    Stopper s = {&status, &nodes, how, 0};
    pthread_t t;
    pthread_create(&t, NULL, stopper, &s);
    double t0 = now();
    int r = search(0, 0, 0, &status, best.text, current.text, &nodes, &score, &depth);
    double took = now() - t0;
    pthread_join(t, NULL);
    CHECK(r == DLL_OK, "stopped search returned %d", r);
    CHECK(s.nodes_seen > 0, "no nodes reported while the search ran (%s)", how == kSTOPSOON ? "kSTOPSOON" : "kSTOPNOW");
    CHECK(status == how, "the engine wrote the status");
    CHECK(is_listed(best.text, n_legal), "stopped search: best move '%s' not listed", best.text);
    /* An unlimited search ends only by the stop; the bound is for a stop taking no effect. */
    CHECK(took < 30.0, "the stop took %.1f s", took);
    CHECK(intact(&best) && intact(&current), "Search wrote past a buffer");
    printf("ok search stopped with %s after %.2f s: %s (%ld nodes, depth %ld)\n",
           how == kSTOPSOON ? "kSTOPSOON" : "kSTOPNOW", took, best.text, nodes, depth);
}

static const char *files = "abcdefghij";
static const char *back_rank[10] = {"Detonator", "Rook", "Wazir-Knight", "Bishop", "Queen",
                                     "King", "Bishop", "Ferz-Knight", "Rook", "Dragon"};

static int place(const char *text) {
    int r = make_a_move(text);
    CHECK(r == DLL_OK, "placement '%s' returned %d", text, r);
    return r;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s LIBRARY\n", argv[0]);
        return 2;
    }
    Library lib = open_library(argv[1]);
    if (!lib) {
        fprintf(stderr, "loading %s: %s\n", argv[1], library_error());
        return 2;
    }
    start_new_game = FIND(lib, DLL_StartNewGame_t, "DLL_StartNewGame");
    make_a_move = FIND(lib, DLL_MakeAMove_t, "DLL_MakeAMove");
    search = FIND(lib, DLL_Search_t, "DLL_Search");
    clean_up = FIND(lib, DLL_CleanUp_t, "DLL_CleanUp");
    is_game_over = FIND(lib, DLL_IsGameOver_t, "DLL_IsGameOver");
    generate_moves = FIND(lib, DLL_GenerateMoves_t, "DLL_GenerateMoves");
    if (!start_new_game || !make_a_move || !search || !clean_up || !is_game_over || !generate_moves) {
        fprintf(stderr, "missing DLL_* symbols\n");
        return 2;
    }

    /* Wrong order, null pointers, unknown names. */
    CHECK(make_a_move("Pawn e2 - e4") == DLL_GENERIC_ERROR, "a move before StartNewGame");
    CHECK(start_new_game(NULL) == DLL_GENERIC_ERROR, "StartNewGame(NULL)");
    CHECK(start_new_game("Checkers") == DLL_UNKNOWN_VARIANT_ERROR, "unknown variant");
    CHECK(start_new_game("wild rose chess") == DLL_OK_DONT_SEND_SETUP, "names in any case");
    CHECK(start_new_game("Wreckage") == DLL_OK_DONT_SEND_SETUP, "Wreckage: we know its start");
    printf("ok start and error codes\n");

    /* The setup as placements, as Zillions sends it (with and without parentheses). */
    char text[128];
    for (int f = 0; f < 10; f++) {
        snprintf(text, sizeof text, "(White %s %c1)", back_rank[f], files[f]);
        place(text);
        snprintf(text, sizeof text, "White Pawn %c2", files[f]);
        place(text);
        snprintf(text, sizeof text, "(Black Pawn %c9)", files[f]);
        place(text);
        snprintf(text, sizeof text, "Black %s %c10", back_rank[f], files[f]);
        place(text);
    }
    place("White Flying-Guillotine off 1");
    place("(White Ninja-Pawn off 5)");
    place("Black Flying-Guillotine off 1");
    place("(Black Ninja-Pawn off 5)");
    CHECK(make_a_move("(Green King e5)") == DLL_UNKNOWN_PLAYER_ERROR, "unknown player");
    CHECK(make_a_move("(White Unicorn e5)") == DLL_UNKNOWN_PIECE_ERROR, "unknown piece");
    int n = list_moves();
    CHECK(n == 36, "the start has %d moves (perft 1 of Wreckage: 36)", n);
    printf("ok setup as placements: %d legal moves\n", n);

    /* Null and bad arguments. */
    MoveBuffer best, current;
    arm(&best);
    arm(&current);
    long nodes = -1, score = 0, depth = -1, result = 0;
    Search_Status status = kKEEPSEARCHING;
    CHECK(make_a_move(NULL) == DLL_GENERIC_ERROR, "MakeAMove(NULL)");
    CHECK(make_a_move("") == DLL_GENERIC_ERROR, "an empty move");
    CHECK(make_a_move("Pawn") == DLL_UNKNOWN_PIECE_ERROR || make_a_move("Pawn") == DLL_GENERIC_ERROR, "half a move");
    CHECK(make_a_move("Pawn e2 - e6") == DLL_GENERIC_ERROR, "an illegal move");
    CHECK(make_a_move("Pawn e9 - e7") == DLL_WRONG_SIDE_TO_MOVE_ERROR, "the other side's move");
    CHECK(search(100, 0, 0, NULL, best.text, current.text, &nodes, &score, &depth) == DLL_GENERIC_ERROR,
          "Search without pSearchStatus");
    CHECK(search(100, 0, 0, &status, NULL, current.text, &nodes, &score, &depth) == DLL_GENERIC_ERROR,
          "Search without bestMove");
    CHECK(is_game_over(NULL, current.text) == DLL_GENERIC_ERROR, "IsGameOver(NULL, ...)");
    CHECK(list_moves() == n, "the refused calls changed the position");
    /* A listing must start with NULL again after a move. */
    CHECK(make_a_move("Pawn e2 - e4") == DLL_OK, "a legal move");
    CHECK(generate_moves(best.text) == DLL_GENERIC_ERROR, "GenerateMoves(buffer) without the NULL call");
    CHECK(intact(&best), "GenerateMoves wrote past the buffer");
    printf("ok null pointers and bad strings\n");

    /* A whole game against itself. */
    int plies = 1;
    char comment[ZILLIONS_COMMENT_BUFFER + GUARD];
    memset(comment, 0xA5, sizeof comment);
    strcpy(comment, "untouched");
    for (; plies < 400; plies++) {
        CHECK(is_game_over(&result, comment) == DLL_OK, "IsGameOver");
        if (result != UNKNOWN_SCORE) break;
        CHECK(strcmp(comment, "untouched") == 0, "the comment was written while the game goes on");
        n = list_moves();
        CHECK(n > 0, "no moves listed but the game is not over");
        if (n <= 0) break;
        if (plies == 11) stopped_search(kSTOPSOON, n);
        if (plies == 12) stopped_search(kSTOPNOW, n);
        arm(&best);
        arm(&current);
        status = kKEEPSEARCHING;
        long variety = plies % 3 == 0 ? 5 : 0;
        int r = search(plies % 2 ? 20 : 0, plies % 2 ? 0 : 2, variety, &status, best.text, current.text, &nodes,
                       &score, &depth);
        CHECK(r == DLL_OK, "ply %d: Search returned %d", plies, r);
        CHECK(intact(&best) && intact(&current), "Search wrote past a buffer");
        CHECK(is_listed(best.text, n), "ply %d: the engine's move '%s' is not a listed move", plies, best.text);
        CHECK(status == kKEEPSEARCHING, "the engine wrote the status");
        r = make_a_move(best.text);
        CHECK(r == DLL_OK, "ply %d: MakeAMove('%s') returned %d", plies, best.text, r);
        if (r != DLL_OK) break;
    }
    if (result != UNKNOWN_SCORE) {
        CHECK(result == WIN_SCORE || result == LOSS_SCORE || result == DRAW_SCORE, "result %ld", result);
        for (int i = 0; i < GUARD; i++)
            CHECK((unsigned char)comment[ZILLIONS_COMMENT_BUFFER + i] == 0xA5, "the comment overflowed");
        CHECK(search(100, 0, 0, &status, best.text, current.text, &nodes, &score, &depth) == DLL_NO_MOVES ||
                  list_moves() > 0,
              "Search after the end");
        printf("ok game over after %d plies: %ld (%s)\n", plies - 1, result, comment);
    } else {
        printf("ok %d plies played without an end\n", plies - 1);
    }

    CHECK(clean_up() == DLL_OK, "CleanUp");
    CHECK(make_a_move("Pawn e2 - e4") == DLL_GENERIC_ERROR, "a move after CleanUp");
#ifdef _WIN32
    FreeLibrary(lib);
#else
    dlclose(lib);
#endif
    if (failures) {
        fprintf(stderr, "%d checks failed\n", failures);
        return 1;
    }
    printf("ok all checks\n");
    return 0;
}
