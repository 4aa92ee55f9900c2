"""Choosing a puzzle: the daily cycle, by id, by theme and difficulty."""

from __future__ import annotations

import datetime as dt
import hashlib
import random
from collections.abc import Container, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Protocol, TypeVar

from gintutor.errors import GinError, Phrase
from gintutor.tutor.puzzleterms import Theme
from gintutor.tutor.rating import Rating, puzzle_rating

if TYPE_CHECKING:  # the daily pick needs ids only (a Carousel puzzle's too)
    from gintutor.tutor.puzzles import Puzzle
    from gintutor.tutor.rating import Rating


class _Theme(Protocol):
    @property
    def value(self) -> str: ...


class Trainable(Protocol):
    """What training on puzzles reads of one: its id, theme and difficulty (gin's puzzles and
    Carousel's have them)."""

    @property
    def id(self) -> str: ...

    @property
    def theme(self) -> _Theme: ...

    @property
    def difficulty(self) -> int: ...


P = TypeVar("P", bound=Trainable)
"""A kind of puzzle (gin's or Carousel's)."""


def pack_fingerprint(ids: Iterable[str]) -> str:
    """A short hash of the pack's puzzle ids: the same pack gives the same daily sequence."""
    digest = hashlib.sha256("\n".join(sorted(ids)).encode()).hexdigest()
    return digest[:12]


def daily_id(ids: Iterable[str], date: dt.date) -> str:
    """The id of the puzzle of the day: the pack in a fixed shuffled cycle, one per day.

    The shuffle is seeded by the pack, so everybody with the same pack gets the same puzzle on
    the same date; consecutive days walk the cycle, so with at least 366 puzzles none repeats
    within a year (any 366 days in a row), and every puzzle comes round once per cycle. Only
    the ids are needed, so the day's puzzle is found without reading the others.
    """
    ordered = sorted(ids)
    if not ordered:
        raise GinError("there are no puzzles to choose from")
    seed = int(hashlib.sha256(pack_fingerprint(ordered).encode()).hexdigest(), 16)
    order = list(range(len(ordered)))
    random.Random(seed).shuffle(order)
    return ordered[order[date.toordinal() % len(ordered)]]


def daily(puzzles: Sequence[Puzzle], date: dt.date) -> Puzzle:
    """The puzzle of the day among ``puzzles`` (see :func:`daily_id`)."""
    return find_puzzle(puzzles, daily_id((p.id for p in puzzles), date))


def find_puzzle(puzzles: Sequence[Puzzle], puzzle_id: str) -> Puzzle:
    """The puzzle with this id."""
    for puzzle in puzzles:
        if puzzle.id == puzzle_id:
            return puzzle
    raise GinError("no puzzle {puzzle_id!r}", puzzle_id=puzzle_id)


def select(
    puzzles: Sequence[Puzzle], *, theme: str | None = None, difficulty: int | None = None
) -> list[Puzzle]:
    """The puzzles of a theme and/or difficulty; an error naming only what was asked if none.

    >>> select([], theme="bogus")
    Traceback (most recent call last):
    ...
    gintutor.errors.GinError: no puzzle with theme 'bogus' (themes: deadwood, outs, safety, \
knock-or-play, upcard, layoff-exposure)
    """
    chosen = [
        p
        for p in puzzles
        if (theme is None or p.theme.value == theme)
        and (difficulty is None or p.difficulty == difficulty)
    ]
    if not chosen:
        asked = []
        if theme is not None:
            asked.append(Phrase("theme {theme!r}", theme=theme))
        if difficulty is not None:
            asked.append(Phrase("difficulty {difficulty}", difficulty=difficulty))
        said = (
            Phrase("these choices")
            if not asked
            else asked[0]
            if len(asked) == 1
            else Phrase("{first} and {second}", first=asked[0], second=asked[1])
        )
        raise GinError(
            "no puzzle with {asked} (themes: {themes})",
            asked=said,
            themes=", ".join(t.value for t in Theme),
        )
    return chosen


def next_puzzle(
    puzzles: Sequence[P],
    played: Container[str],
    ratings: Mapping[str, Rating],
    *,
    theme: str | None = None,
) -> P | None:
    """The next puzzle to train on: one not played yet (of ``theme``), whose rating (from its
    difficulty) is the nearest the learner's in its theme; ties go round by a hash of the id
    and how many were played, so the order is stable but not the pack's. ``None`` when every
    such puzzle has been played.

    >>> next_puzzle([], set(), {}) is None
    True
    """
    pool = [p for p in puzzles if p.id not in played and (theme is None or p.theme.value == theme)]
    if not pool:
        return None
    count = sum(1 for p in puzzles if p.id in played)

    def distance(puzzle: P) -> tuple[float, str]:
        mine = ratings.get(puzzle.theme.value, Rating()).rating
        spread = hashlib.sha256(f"{puzzle.id}/{count}".encode()).hexdigest()
        return abs(puzzle_rating(puzzle.difficulty)[0] - mine), spread

    return min(pool, key=distance)
