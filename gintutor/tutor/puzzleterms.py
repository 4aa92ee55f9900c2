"""The words of a puzzle that need no engine: its themes and the grades of an answer.

:mod:`gintutor.tutor.puzzles` (which solves puzzles) re-exports both; a command that only
counts a learner's results (``puzzle --stats``) imports this alone.
"""

from __future__ import annotations

from enum import Enum


class Theme(Enum):
    """What a puzzle is about, and so which choices it compares."""

    DEADWOOD = "deadwood"
    OUTS = "outs"
    SAFETY = "safety"
    KNOCK_OR_PLAY = "knock-or-play"
    UPCARD = "upcard"
    LAYOFF_EXPOSURE = "layoff-exposure"

    @property
    def exact(self) -> bool:
        """True when the table shows the exact numbers of every discard (the evaluator's)."""
        return self in (Theme.DEADWOOD, Theme.OUTS, Theme.SAFETY)

    @property
    def judged(self) -> bool:
        """True when the coach's verdict decides the answer (every theme but ``deadwood``)."""
        return self is not Theme.DEADWOOD


class Grade(Enum):
    """How good a choice is, by what it costs against the best."""

    BEST = "Best"
    GOOD = "Good"
    INACCURACY = "Inaccuracy"
    MISTAKE = "Mistake"
    BLUNDER = "Blunder"


class PuzzleKind(Enum):
    """What a puzzle is for: a ``daily`` one has one clear idea (``puzzles check`` holds it to
    the rule); a ``close-call`` one teaches that two or more answers are as good, and is never
    the daily puzzle."""

    DAILY = "daily"
    CLOSE_CALL = "close-call"
