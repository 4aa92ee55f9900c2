"""The command line (Typer + Rich): :func:`main` is the installed ``gintutor`` command."""

INTERRUPTED = 130
"""The exit status after Ctrl-C (128 + SIGINT), as a shell reports it."""


def main() -> None:
    """Run the command line."""
    try:
        _stop_quietly()
        from gintutor.cli.app import main as run

        run()
    except KeyboardInterrupt:
        _interrupted()


def _stop_quietly() -> None:
    """SIGTERM and SIGHUP end a command as Ctrl-C does, by an exception: the stack unwinds (a
    prompt puts the terminal back, a saved game is closed, worker processes are stopped) and
    the exit status is 143 or 129, what a shell reports for a process the signal killed. Killed
    outright (the default), a prompt left the terminal raw: no echo, no line editing. A signal
    the command was started to ignore (``nohup``) stays ignored."""
    import signal  # here, not at the top: importing this package is a start no try can guard

    for name in ("SIGTERM", "SIGHUP"):
        signum = getattr(signal, name, None)
        if signum is not None and signal.getsignal(signum) is signal.SIG_DFL:
            signal.signal(signum, _stop)


def _stop(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)


def _interrupted() -> None:
    """Ctrl-C outside a command's own handling (while the interface loads, in the first tenth
    of a second: 8 of 120 early interrupts printed a ``KeyboardInterrupt`` traceback): exit 130
    quietly; a second Ctrl-C while the process ends is ignored."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    raise SystemExit(INTERRUPTED) from None
