"""The cycle collector paused while the interface starts (a leaf: ``cli/__init__.py`` pauses
it, ``cli/app.py`` resumes it as a command is invoked; neither imports the other for it).

A start (importing the interface, then Typer's reading of the options, which imports its
pydantic adapters) creates only objects that live as long as the process, and the cycle
collector's passes over them are a measurable share of it (about 6 ms of a 190 ms start).
"""

import gc

_paused = False


def pause_collector() -> None:
    """No cycle collection until :func:`collect_from_here` (the installed command's start)."""
    global _paused
    gc.disable()
    _paused = True


def collect_from_here() -> None:
    """The start is over: what it made is frozen (never scanned again) and the collector,
    if :func:`pause_collector` paused it, resumes. Called as a command is about to run."""
    global _paused
    if _paused:
        _paused = False
        gc.freeze()
        gc.enable()
