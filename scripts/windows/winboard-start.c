/* Starts an engine the way WinBoard does, for scripts/windows-check.sh under Wine.
 *
 * WinBoard 4.9.1 (winboard/winboard.c, StartChildProcess) makes the engine's folder (/fd) the
 * current directory, passes the engine command (/fcp, with the Load Engine dialog's
 * "command-line parameters:" after it) to CreateProcess as one string, which the engine's own
 * C runtime splits into arguments, and starts it with DETACHED_PROCESS | CREATE_NEW_PROCESS_GROUP
 * (no console) and three pipes' ends: stdin, stdout, and stderr the SAME pipe as stdout. This
 * program does exactly that and relays its own stdin to the engine and the engine's pipe to its
 * own stdout, so a check written for a program on pipes (scripts/windows/wire-check.py) talks to
 * the engine as WinBoard would.
 *
 *   FB_COMMAND='fairybridge.exe --variants "D:\My Variants"' winboard-start.exe DIR [ARG...]
 *
 * FB_COMMAND is the command line, verbatim (an environment variable, so that no quoting by Wine
 * or a shell comes between); ARGs are appended to it, each after a space, quoted when it holds
 * a space. Exit status: the engine's; 125 when the engine cannot be started.
 */
#include <windows.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static HANDLE to_engine;

/* Our stdin to the engine's stdin; closes the engine's stdin at our end of input. */
static DWORD WINAPI relay_input(LPVOID unused) {
    char buf[4096];
    DWORD got, put;
    HANDLE in = GetStdHandle(STD_INPUT_HANDLE);
    (void)unused;
    while (ReadFile(in, buf, sizeof buf, &got, NULL) && got > 0) {
        if (!WriteFile(to_engine, buf, got, &put, NULL) || put != got) break;
    }
    CloseHandle(to_engine);
    return 0;
}

int main(int argc, char **argv) {
    static char command[32768];
    const char *given = getenv("FB_COMMAND");
    HANDLE out_rd, out_wr, out_rd_own, in_rd, in_wr;
    SECURITY_ATTRIBUTES sa = {sizeof sa, NULL, TRUE};
    STARTUPINFOA si;
    PROCESS_INFORMATION pi;
    DWORD got, put, code = 125;
    char buf[4096];
    int i;

    if (argc < 2 || !given) {
        fprintf(stderr, "usage: FB_COMMAND='engine.exe ...' winboard-start.exe DIR [ARG...]\n");
        return 2;
    }
    snprintf(command, sizeof command, "%s", given);
    for (i = 2; i < argc; i++) {
        const char *quote = strchr(argv[i], ' ') ? "\"" : "";
        size_t len = strlen(command);
        snprintf(command + len, sizeof command - len, " %s%s%s", quote, argv[i], quote);
    }

    /* WinBoard's pipes: inheritable ends for the engine, our ends duplicated uninheritable. */
    if (!CreatePipe(&out_rd, &out_wr, &sa, 0) ||
        !DuplicateHandle(GetCurrentProcess(), out_rd, GetCurrentProcess(), &out_rd_own, 0, FALSE,
                         DUPLICATE_SAME_ACCESS) ||
        !CreatePipe(&in_rd, &in_wr, &sa, 0) ||
        !DuplicateHandle(GetCurrentProcess(), in_wr, GetCurrentProcess(), &to_engine, 0, FALSE,
                         DUPLICATE_SAME_ACCESS)) {
        fprintf(stderr, "winboard-start: pipes: error %lu\n", GetLastError());
        return 125;
    }
    CloseHandle(out_rd);
    CloseHandle(in_wr);

    if (!SetCurrentDirectoryA(argv[1])) {
        fprintf(stderr, "winboard-start: cannot enter %s: error %lu\n", argv[1], GetLastError());
        return 125;
    }
    memset(&si, 0, sizeof si);
    si.cb = sizeof si;
    si.dwFlags = STARTF_USESTDHANDLES;
    si.hStdInput = in_rd;
    si.hStdOutput = out_wr;
    si.hStdError = out_wr;
    if (!CreateProcessA(NULL, command, NULL, NULL, TRUE, DETACHED_PROCESS | CREATE_NEW_PROCESS_GROUP,
                        NULL, NULL, &si, &pi)) {
        fprintf(stderr, "winboard-start: cannot start %s in %s: error %lu\n", command, argv[1],
                GetLastError());
        return 125;
    }
    CloseHandle(pi.hThread);
    CloseHandle(in_rd);
    CloseHandle(out_wr);

    CreateThread(NULL, 0, relay_input, NULL, 0, NULL);
    /* The engine's lines (stdout and stderr, one pipe) to our stdout, as they come. */
    while (ReadFile(out_rd_own, buf, sizeof buf, &got, NULL) && got > 0) {
        if (!WriteFile(GetStdHandle(STD_OUTPUT_HANDLE), buf, got, &put, NULL)) break;
    }
    WaitForSingleObject(pi.hProcess, INFINITE);
    GetExitCodeProcess(pi.hProcess, &code);
    return (int)code;
}
