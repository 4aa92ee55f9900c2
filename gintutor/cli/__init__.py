"""The command line (Typer + Rich): :func:`main` is the installed ``gintutor`` command."""

import gc

_paused = False
INTERRUPTED = 130
"""The exit status after Ctrl-C (128 + SIGINT), as a shell reports it."""


def main() -> None:
    """Run the command line.

    A start (importing the interface, then Typer's reading of the options, which imports its
    pydantic adapters) creates only objects that live as long as the process, and the cycle
    collector's passes over them are a measurable share of it (about 6 ms of a 190 ms start):
    the collector is paused until the command is invoked (:func:`collect_from_here`), so every
    command runs and collects as usual.
    """
    global _paused
    try:
        _stop_quietly()
        gc.disable()
        _paused = True
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


def collect_from_here() -> None:
    """The start is over: what it made is frozen (never scanned again) and the collector,
    if :func:`main` paused it, resumes. Called as a command is about to run."""
    global _paused
    if _paused:
        _paused = False
        gc.freeze()
        gc.enable()
