// GNU readline for guessnum's terminal. Swift 6 cannot touch readline's global variables
// directly, so the shim gives them small getters and setters, prefixed `creadline_`.
//
// The functions are `static inline`: each Swift file that calls one gets its own copy, and so
// do the function-local `static` variables below. GuessnumTerminal therefore calls the signal
// and terminal helpers from one file only (ReadlineSession.swift).
#ifndef CREADLINE_SHIM_H
#define CREADLINE_SHIM_H

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>
#include <readline/readline.h>
#include <readline/history.h>

// MARK: - Readline's global variables

static inline char *creadline_line_buffer(void) { return rl_line_buffer; }
static inline int creadline_point(void) { return rl_point; }
static inline void creadline_set_point(int point) { rl_point = point; }
static inline int creadline_end(void) { return rl_end; }

/// The text of the newest history entry, or NULL when the history is empty.
static inline const char *creadline_last_history_line(void) {
    if (history_length <= 0) { return NULL; }
    HIST_ENTRY *entry = history_get(history_base + history_length - 1);
    return entry ? entry->line : NULL;
}

static inline void creadline_set_readline_name(const char *name) { rl_readline_name = name; }

// MARK: - Hidden lines (passwords)

/// Redisplays the prompt without the text typed: readline's own redisplay, shown an empty line.
static inline void creadline_hidden_redisplay(void) {
    int end = rl_end, point = rl_point;
    char first = rl_line_buffer ? rl_line_buffer[0] : 0;
    rl_end = 0;
    rl_point = 0;
    if (rl_line_buffer) { rl_line_buffer[0] = 0; }
    rl_redisplay();
    if (rl_line_buffer) { rl_line_buffer[0] = first; }
    rl_end = end;
    rl_point = point;
}

/// Whether the line being typed is shown (0) or hidden (1).
static inline void creadline_hide_line(int hidden) {
    rl_redisplay_function = hidden ? creadline_hidden_redisplay : rl_redisplay;
}

/// Redisplays the line as the current mode shows it.
static inline void creadline_redisplay(void) { (*rl_redisplay_function)(); }

/// Leaves SIGINT, SIGWINCH… to the program: readline's own handlers are not installed.
static inline void creadline_disable_signal_handlers(void) {
    rl_catch_signals = 0;
    rl_catch_sigwinch = 0;
}

/// Installs (or, with NULL, removes) the attempted-completion function; readline's default
/// filename completion is never used.
static inline void creadline_set_completion(rl_completion_func_t *function) {
    rl_attempted_completion_function = function;
}

/// Called from the completion function: tells readline not to fall back to filename completion.
static inline void creadline_set_attempted_completion_over(void) { rl_attempted_completion_over = 1; }

/// Writes `count` bytes to readline's output stream (standard output when readline has not
/// set one) and flushes it. Returns 0, or -1 when the stream failed.
static inline int creadline_write_out(const char *bytes, size_t count) {
    FILE *stream = rl_outstream ? rl_outstream : stdout;
    if (count > 0 && fwrite(bytes, 1, count, stream) != count) { return -1; }
    return fflush(stream) == 0 ? 0 : -1;
}

/// Writes `count` bytes to standard output and flushes it (no readline involved; Swift 6
/// cannot name C's `stdout`). Returns 0, or -1 when the stream failed.
static inline int creadline_write_stdout(const char *bytes, size_t count) {
    if (count > 0 && fwrite(bytes, 1, count, stdout) != count) { return -1; }
    return fflush(stdout) == 0 ? 0 : -1;
}

/// Writes `count` bytes to standard error and flushes it. Returns 0, or -1 when the stream failed.
static inline int creadline_write_stderr(const char *bytes, size_t count) {
    if (count > 0 && fwrite(bytes, 1, count, stderr) != count) { return -1; }
    return fflush(stderr) == 0 ? 0 : -1;
}

// MARK: - Signals through a self-pipe

/// The write end of the pipe the signal handler writes the signal number to; -1 when none.
/// (Function-local statics: Swift emits a header's static functions but not its static variables.)
static inline volatile sig_atomic_t *creadline_signal_fd(void) {
    static volatile sig_atomic_t fd = -1;
    return &fd;
}

static inline void creadline_signal_handler(int signal) {
    int saved = errno;
    int fd = *creadline_signal_fd();
    if (fd >= 0) {
        unsigned char byte = (unsigned char)signal;
        ssize_t ignored = write(fd, &byte, 1);
        (void)ignored;
    }
    errno = saved;
}

/// Routes `signal` to `fd` (one byte per delivery, the signal number), saving the previous
/// action in `previous`. Returns 0 or -1 (errno set).
static inline int creadline_route_signal(int signal, int fd, struct sigaction *previous) {
    *creadline_signal_fd() = fd;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = creadline_signal_handler;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    return sigaction(signal, &action, previous);
}

/// Puts back the action saved by `creadline_route_signal`.
static inline int creadline_restore_signal(int signal, const struct sigaction *previous) {
    return sigaction(signal, previous, NULL);
}

/// Stops the handler from writing (call before closing the pipe).
static inline void creadline_forget_signal_fd(void) { *creadline_signal_fd() = -1; }

// MARK: - A safety net for programs that exit without closing the console

struct creadline_terminal_state {
    struct termios settings;
    volatile int isSaved;
    int isAtExitRegistered;
};

static inline struct creadline_terminal_state *creadline_terminal_state(void) {
    static struct creadline_terminal_state state;
    return &state;
}

static inline void creadline_restore_terminal_at_exit(void) {
    struct creadline_terminal_state *state = creadline_terminal_state();
    if (state->isSaved) {
        tcsetattr(STDIN_FILENO, TCSANOW, &state->settings);
    }
}

/// Remembers the terminal settings of standard input, to be restored at `exit` unless
/// `creadline_forget_terminal` is called first (the console closed properly).
static inline void creadline_remember_terminal(void) {
    struct creadline_terminal_state *state = creadline_terminal_state();
    if (tcgetattr(STDIN_FILENO, &state->settings) == 0) {
        state->isSaved = 1;
        if (!state->isAtExitRegistered) {
            state->isAtExitRegistered = 1;
            atexit(creadline_restore_terminal_at_exit);
        }
    }
}

static inline void creadline_forget_terminal(void) { creadline_terminal_state()->isSaved = 0; }

#endif
