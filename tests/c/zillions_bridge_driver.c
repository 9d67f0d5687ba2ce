/* Drives the fairybridge plug-in with an external engine behind it (protocol/zillions.md §6), the
 * way Zillions does: dlopen, DLL_StartNewGame (the configuration file is named by
 * FAIRYBRIDGE_ZILLIONS_CONFIG), DLL_Search / DLL_MakeAMove, DLL_CleanUp. The plug-in plays one
 * side (or both); the driver plays the other with random legal moves from DLL_GenerateMoves, so a
 * game ends soon. Every move the plug-in answers must be one of the listed moves.
 *
 * Usage: zillions_bridge_driver LIBRARY GAME [key=value ...]
 *   side=white|black|both   the side the plug-in plays (white)
 *   plies=N                 at most N plies (200)
 *   time=MS depth=N         the limits of each search (300, 0)
 *   start=CODE              DLL_StartNewGame must return CODE; a negative one ends the run
 *   setup=chess             send the chess start as placements (as for a game with a random start)
 *   stopsoon=P stopnow=P    at ply P the search is unlimited and stopped with that code by a second
 *                           thread 300 ms after it began; it must return within 500 ms of the stop
 *   hint=N                  every N-th ply of the driver's side, ask the plug-in for a move (a
 *                           hint) and play another one
 *   pidfile=PATH            after DLL_CleanUp, none of the pids in PATH may still run
 *   cleanup=0               end without DLL_CleanUp: unload the library and exit (the caller
 *                           checks that nothing of the engine is left)
 *   seed=N                  the driver's random moves
 * Prints "ok ..." lines; exit 0 when every check passed, 1 if one failed, 2 on bad usage.
 * After DLL_CleanUp no child process of the driver may be left (Linux: /proc). */
#ifdef _WIN32
#include <windows.h>
#else
#include <dirent.h>
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
#define FIND(lib, type, name) ((type)(void (*)(void))GetProcAddress(lib, name))
#else
typedef void *Library;
static Library open_library(const char *path) { return dlopen(path, RTLD_NOW); }
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

#define MAX_MOVES 512
static char legal[MAX_MOVES][ZILLIONS_MOVE_BUFFER];

static int list_moves(void) {
    if (generate_moves(NULL) != DLL_OK) return -1;
    int n = 0;
    for (;;) {
        char b[ZILLIONS_MOVE_BUFFER];
        if (generate_moves(b) != DLL_OK) return -1;
        if (b[0] == 0) break;
        if (n < MAX_MOVES) strcpy(legal[n++], b);
    }
    return n;
}
static int is_listed(const char *mv, int n) {
    for (int i = 0; i < n; i++)
        if (strcmp(legal[i], mv) == 0) return 1;
    return 0;
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static unsigned long long rng = 88172645463325252ULL;
static unsigned next_random(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (unsigned)(rng >> 11);
}

typedef struct {
    volatile Search_Status *status;
    volatile long *nodes, *depth;
    Search_Status stop_with;
    double stopped_at;
} Stopper;

static void *stopper(void *arg) {
    Stopper *s = arg;
    /* Stop once the engine's thinking has been relayed (polled, the only signal the calling
       convention has); the 30 s are for thinking that never comes. */
    for (int i = 0; i < 30000 && (*s->nodes == 0 || *s->depth == 0); i++) usleep(1000);
    s->stopped_at = now();
    *s->status = s->stop_with;
    return NULL;
}

/* Counters a search reported while it ran. */
static long seen_nodes = 0, seen_depth = 0;

typedef struct {
    const char *library, *game, *setup, *pidfile;
    int white, black, plies, time, depth, start, stopsoon, stopnow, hint;
    int has_start, cleanup;
} Options;

/* One search of the plug-in; the move it answers, checked against the n listed moves. */
static int ask(const Options *o, int ply, int n, char *best) {
    Search_Status status = kKEEPSEARCHING;
    char current[ZILLIONS_MOVE_BUFFER] = "";
    long nodes = 0, score = 0, depth = 0;
    best[0] = 0;
    Search_Status stop = ply == o->stopsoon ? kSTOPSOON : ply == o->stopnow ? kSTOPNOW : kKEEPSEARCHING;
    if (stop != kKEEPSEARCHING) {
        Stopper s = {&status, &nodes, &depth, stop, 0};
        pthread_t t;
        pthread_create(&t, NULL, stopper, &s);
        int r = search(0, 0, 0, &status, best, current, &nodes, &score, &depth);
        double returned = now();
        pthread_join(t, NULL);
        const char *how = stop == kSTOPSOON ? "kSTOPSOON" : "kSTOPNOW";
        CHECK(r == DLL_OK, "stopped search returned %d", r);
        CHECK(returned - s.stopped_at < 0.5, "%s answered after %.3f s", how, returned - s.stopped_at);
        CHECK(is_listed(best, n), "stopped search: '%s' is not listed", best);
        CHECK(nodes > 0 && depth > 0, "no thinking relayed (nodes %ld, depth %ld)", nodes, depth);
        printf("ok search stopped with %s, answered %.3f s after the stop: %s (%ld nodes, depth %ld)\n", how,
               returned - s.stopped_at, best, nodes, depth);
        return r;
    }
    int r = search(o->time, o->depth, 0, &status, best, current, &nodes, &score, &depth);
    CHECK(r == DLL_OK, "ply %d: Search returned %d", ply, r);
    CHECK(is_listed(best, n), "ply %d: the plug-in's move '%s' is not a listed move", ply, best);
    CHECK(status == kKEEPSEARCHING, "the plug-in wrote the status");
    if (nodes > seen_nodes) seen_nodes = nodes;
    if (depth > seen_depth) seen_depth = depth;
    return r;
}

static const char *chess_rank[8] = {"Rook", "Knight", "Bishop", "Queen", "King", "Bishop", "Knight", "Rook"};

static void chess_setup(void) {
    char text[64];
    for (int f = 0; f < 8; f++) {
        snprintf(text, sizeof text, "White %s %c1", chess_rank[f], 'a' + f);
        CHECK(make_a_move(text) == DLL_OK, "placement %s", text);
        snprintf(text, sizeof text, "(White Pawn %c2)", 'a' + f);
        CHECK(make_a_move(text) == DLL_OK, "placement %s", text);
        snprintf(text, sizeof text, "Black Pawn %c7", 'a' + f);
        CHECK(make_a_move(text) == DLL_OK, "placement %s", text);
        snprintf(text, sizeof text, "Black %s %c8", chess_rank[f], 'a' + f);
        CHECK(make_a_move(text) == DLL_OK, "placement %s", text);
    }
}

/* Processes whose parent is this one, not yet reaped zombies excepted. */
static int live_children(void) {
#ifdef _WIN32
    return 0;
#else
    int n = 0;
    DIR *d = opendir("/proc");
    if (!d) return 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
        char path[300], line[512];
        snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
        FILE *f = fopen(path, "r");
        if (!f) continue;
        if (fgets(line, sizeof line, f)) {
            char *close = strrchr(line, ')');
            char state = 0;
            int ppid = 0;
            if (close && sscanf(close + 1, " %c %d", &state, &ppid) == 2 && ppid == getpid() && state != 'Z') n++;
        }
        fclose(f);
    }
    closedir(d);
    return n;
#endif
}

/* Does the process run (a zombie does not count)? */
static int running(int pid) {
#ifdef _WIN32
    (void)pid;
    return 0;
#else
    char path[64], line[512];
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    int alive = 0;
    if (fgets(line, sizeof line, f)) {
        char *close = strrchr(line, ')');
        alive = close && close[1] == ' ' && close[2] != 'Z';
    }
    fclose(f);
    return alive;
#endif
}

static void check_nothing_left(const Options *o) {
    double until = now() + 2.0;
    while (live_children() > 0 && now() < until) usleep(20000);
    CHECK(live_children() == 0, "%d child processes outlived DLL_CleanUp", live_children());
    if (o->pidfile) {
        FILE *f = fopen(o->pidfile, "r");
        int pid, listed = 0;
        while (f && fscanf(f, "%d", &pid) == 1) {
            listed++;
            while (running(pid) && now() < until) usleep(20000);
            CHECK(!running(pid), "process %d (%s) outlived DLL_CleanUp", pid, o->pidfile);
        }
        if (f) fclose(f);
        CHECK(listed > 0, "no pid in %s", o->pidfile);
    }
    printf("ok nothing left after DLL_CleanUp\n");
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s LIBRARY GAME [key=value ...]\n", argv[0]);
        return 2;
    }
    Options o = {argv[1], argv[2], NULL, NULL, 1, 0, 200, 300, 0, 0, -1, -1, 0, 0, 1};
    for (int i = 3; i < argc; i++) {
        char *eq = strchr(argv[i], '=');
        if (!eq) {
            fprintf(stderr, "not key=value: %s\n", argv[i]);
            return 2;
        }
        *eq = 0;
        const char *k = argv[i], *v = eq + 1;
        if (!strcmp(k, "side")) {
            o.white = !strcmp(v, "white") || !strcmp(v, "both");
            o.black = !strcmp(v, "black") || !strcmp(v, "both");
        } else if (!strcmp(k, "plies")) o.plies = atoi(v);
        else if (!strcmp(k, "time")) o.time = atoi(v);
        else if (!strcmp(k, "depth")) o.depth = atoi(v);
        else if (!strcmp(k, "start")) { o.start = atoi(v); o.has_start = 1; }
        else if (!strcmp(k, "setup")) o.setup = v;
        else if (!strcmp(k, "stopsoon")) o.stopsoon = atoi(v);
        else if (!strcmp(k, "stopnow")) o.stopnow = atoi(v);
        else if (!strcmp(k, "hint")) o.hint = atoi(v);
        else if (!strcmp(k, "pidfile")) o.pidfile = v;
        else if (!strcmp(k, "cleanup")) o.cleanup = atoi(v);
        else if (!strcmp(k, "seed")) rng = strtoull(v, NULL, 10) * 2654435761ULL + 1;
        else {
            fprintf(stderr, "unknown key %s\n", k);
            return 2;
        }
    }
    Library lib = open_library(o.library);
    if (!lib) {
        fprintf(stderr, "cannot load %s\n", o.library);
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

    double t0 = now();
    int code = start_new_game(o.game);
    printf("ok StartNewGame(\"%s\") returned %d after %.2f s\n", o.game, code, now() - t0);
    if (o.has_start) CHECK(code == o.start, "StartNewGame returned %d, not %d", code, o.start);
    else CHECK(code >= 0, "StartNewGame returned %d", code);
    if (code < 0) {
        CHECK(clean_up() == DLL_OK, "CleanUp");
        check_nothing_left(&o);
        if (!failures) printf("ok all checks\n");
        return failures ? 1 : 0;
    }
    if (o.setup && !strcmp(o.setup, "chess")) chess_setup();

    int ply = 0, ours = 0, theirs = 0;
    long result = UNKNOWN_SCORE;
    char comment[ZILLIONS_COMMENT_BUFFER] = "";
    char best[ZILLIONS_MOVE_BUFFER];
    for (; ply < o.plies; ply++) {
        CHECK(is_game_over(&result, comment) == DLL_OK, "IsGameOver");
        if (result != UNKNOWN_SCORE) break;
        int n = list_moves();
        CHECK(n > 0, "ply %d: no moves listed but the game is not over", ply);
        if (n <= 0) break;
        int white = ply % 2 == 0;
        const char *mv;
        if (white ? o.white : o.black) {
            if (ask(&o, ply, n, best) != DLL_OK || !is_listed(best, n)) break;
            mv = best;
            ours++;
        } else {
            if (o.hint && theirs % o.hint == o.hint - 1) ask(&o, ply, n, best);
            mv = legal[next_random() % n];
            theirs++;
        }
        int r = make_a_move(mv);
        CHECK(r == DLL_OK, "ply %d: MakeAMove('%s') returned %d", ply, mv, r);
        if (r != DLL_OK) break;
    }
    CHECK(ours > 0, "the plug-in made no move");
    CHECK(seen_nodes > 0 && seen_depth > 0, "no thinking was relayed (nodes %ld, depth %ld)", seen_nodes, seen_depth);
    if (result != UNKNOWN_SCORE)
        printf("ok game over after %d plies (%d by the plug-in): %ld (%s)\n", ply, ours, result, comment);
    else
        printf("ok %d plies played (%d by the plug-in) without an end\n", ply, ours);
    printf("ok thinking relayed: up to %ld nodes, depth %ld\n", seen_nodes, seen_depth);

    if (o.cleanup) {
        CHECK(clean_up() == DLL_OK, "CleanUp");
        check_nothing_left(&o);
    }
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
