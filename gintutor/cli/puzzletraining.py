"""What every kind of puzzle shares on the terminal: the record of a first attempt, the rating
it moves, and the training loop (retry a failed puzzle as practice, Enter for the next one
nearest the learner's rating).

Gin's puzzles (:mod:`gintutor.cli.puzzlerun`) and Carousel's
(:mod:`gintutor.cli.carouselpuzzlerun`) each ask and grade their own way on top of this; it
imports neither game's puzzles, so each starts without the other's engine.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic

from gintutor.cli.learner import Runner
from gintutor.cli.prompts import Quit
from gintutor.cli.puzzlestats import count_of, puzzle_stats, rating_of, theme_ratings
from gintutor.text.i18n import _, ngettext, number, percent, pgettext
from gintutor.tutor.daily import P, Trainable, next_puzzle
from gintutor.tutor.puzzleterms import Grade
from gintutor.tutor.rating import Rating, puzzle_rating


@dataclass(frozen=True)
class Attempt:
    """One answer to a puzzle: its grade (``None``: the answer was revealed), the hints
    asked, the answer given."""

    grade: Grade | None
    hints: int
    answer: str | None


class PuzzleTrainer(Runner, Generic[P]):
    """Records the first attempt at each puzzle and moves the learner's rating; a subclass asks
    and grades (:meth:`run`).

    Only the first attempt at a puzzle is recorded, and it stands: a replay says when it was
    played and what the answer was, and is practice. A puzzle is *solved* when the answer was
    Best (hints allowed); *first try* when it was Best with no hint at the first attempt; a
    revealed answer (``skip``) or a worse grade is an attempt, not a solve.
    """

    def run(self, puzzle: P, daily_date: dt.date | None = None) -> Grade:
        """Play one puzzle (``daily_date``: today's daily); returns the grade."""
        raise NotImplementedError

    def _finish(self, puzzle: P, daily_date: dt.date | None, attempt: Attempt) -> None:
        """Record the attempt and say what it did: the rating's move and the first-try rate of
        the theme (the figures ``puzzle --stats`` shows), or that it was practice."""
        moved = self._record(puzzle, daily_date, attempt)
        theme = puzzle.theme.value
        self.terminal.say("")
        if moved is None:
            self.terminal.say(_("Practice: your rating does not move."), "yellow")
            return
        before, after = moved
        row = puzzle_stats(self.progress)["themes"].get(theme, {})
        tried, first = row.get("attempted", 0), row.get("first_try", 0)
        change = number(after.rating - before.rating, signed=True)
        self.terminal.say(
            _(
                "Your {theme} puzzle rating: {rating} ({change}). First try: {first} of {tried} "
                "{theme} puzzles ({percent}).",
                theme=theme,
                rating=after.text(),
                change=change,
                first=first,
                tried=tried,
                percent=percent(first / max(tried, 1)),
            )
        )
        if daily_date is not None:
            self.terminal.say(share_line(daily_date, attempt.grade, attempt.hints))

    def _record(
        self, puzzle: Trainable, daily_date: dt.date | None, attempt: Attempt
    ) -> tuple[Rating, Rating] | None:
        """Record a first attempt and move the theme's rating (under the lock, so two processes
        cannot both be first): the rating before and after. ``None`` when the puzzle had been
        played before: nothing but the practice count is written.

        ``daily_date`` is recorded as a daily (it makes the streak) only when it is the day
        the puzzle is solved: a past date's daily is practice for the streak.
        """
        today = dt.date.today()
        grade = attempt.grade
        entry = {
            "grade": grade.value if grade else "revealed",
            "first_try": grade is Grade.BEST and attempt.hints == 0,
            "hints": attempt.hints,
            "theme": puzzle.theme.value,
            "date": today.isoformat(),
        }
        if attempt.answer is not None:
            entry["answer"] = attempt.answer
        with self.progress.locked() as data:
            store = data.setdefault("puzzles", {})
            solved = store.setdefault("solved", {})
            if puzzle.id in solved:
                store["practice"] = count_of(store.get("practice")) + 1
                return None
            solved[puzzle.id] = entry
            if daily_date == today:
                store.setdefault("daily", {}).setdefault(
                    daily_date.isoformat(), {"id": puzzle.id, **entry}
                )
            ratings = store.setdefault("ratings", {})
            if not isinstance(ratings, dict):
                ratings = store["ratings"] = {}
            before = rating_of(ratings.get(puzzle.theme.value))
            opponent, deviation = puzzle_rating(puzzle.difficulty)
            after = before.after([(opponent, deviation, 1.0 if entry["first_try"] else 0.0)])
            ratings[puzzle.theme.value] = {
                "rating": after.rating,
                "deviation": after.deviation,
                "volatility": after.volatility,
                "games": count_of(_games(ratings.get(puzzle.theme.value))) + 1,
            }
        return before, after


def _games(record: object) -> object:
    return record.get("games") if isinstance(record, dict) else None


def train(
    runner: PuzzleTrainer[P],
    first: P,
    pool: Callable[[], Sequence[P]],
    *,
    daily_date: dt.date | None = None,
    theme: str | None = None,
) -> None:
    """The training loop: ``first``, then, while the learner wants (Enter), the next puzzle
    not played yet from ``pool()`` (of ``theme``), the nearest their rating in its theme; a
    failed puzzle may be retried at once, as practice."""
    puzzle: P | None = first
    while puzzle is not None:
        grade = runner.run(puzzle, daily_date)
        daily_date = None
        try:
            while grade is not Grade.BEST and runner.asker.confirm(
                _("Try it again (practice)?"), default=False
            ):
                grade = runner.run(puzzle)
            if not runner.asker.confirm(_("Next puzzle? (Enter)"), default=True):
                return
        except Quit:  # leaving between puzzles: everything is saved
            return
        played = runner.progress.data.get("puzzles", {}).get("solved", {})
        ratings = theme_ratings(runner.progress)
        puzzle = next_puzzle(pool(), played, ratings, theme=theme)
        if puzzle is None:
            if theme:
                done = _("You have played every {theme} puzzle: well done.", theme=theme)
            else:
                done = _("You have played every puzzle: well done.")
            runner.terminal.say(done)


def share_line(date: dt.date, grade: Grade | None, hints: int) -> str:
    """A spoiler-free line to share: ``gintutor daily 2026-12-01: first try, no hints`` (in
    the active language; ``gintutor daily`` and the date as written, to be recognized)."""
    if grade is None:
        how = pgettext("daily share line", "revealed")
    elif grade.name == "BEST":
        how = pgettext("daily share line", "first try")
    else:  # the grade's name as the puzzle table shows it (Gin's and Carousel's agree)
        how = pgettext("puzzle grade", grade.value.capitalize()).lower()
    hinted = (
        _("no hints")
        if hints == 0
        else ngettext("{count} hint", "{count} hints", hints, count=hints)
    )
    return _("gintutor daily {date}: {how}, {hints}", date=date.isoformat(), how=how, hints=hinted)
