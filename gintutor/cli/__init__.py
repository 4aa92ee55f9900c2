"""The command line (Typer + Rich): :func:`main` is the installed ``gintutor`` command."""

import gc

_paused = False


def main() -> None:
    """Run the command line.

    A start (importing the interface, then Typer's reading of the options, which imports its
    pydantic adapters) creates only objects that live as long as the process, and the cycle
    collector's passes over them are a measurable share of it (about 6 ms of a 190 ms start):
    the collector is paused until the command is invoked (:func:`collect_from_here`), so every
    command runs and collects as usual.
    """
    global _paused
    gc.disable()
    _paused = True
    from gintutor.cli.app import main as run

    run()


def collect_from_here() -> None:
    """The start is over: what it made is frozen (never scanned again) and the collector,
    if :func:`main` paused it, resumes. Called as a command is about to run."""
    global _paused
    if _paused:
        _paused = False
        gc.freeze()
        gc.enable()
