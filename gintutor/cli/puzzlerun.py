"""Playing a puzzle on the terminal (the learner's statistics are in :mod:`.puzzlestats`)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass

from gintutor.cli.learner import Runner
from gintutor.cli.prompts import Command, Prompt, Quit
from gintutor.cli.puzzlestats import count_of, rating_of, theme_ratings
from gintutor.cli.puzzlestats import puzzle_stats as puzzle_stats
from gintutor.cli.puzzlestats import show_stats as show_stats
from gintutor.cli.puzzlestats import streaks as streaks
from gintutor.engine.cards import Card
from gintutor.errors import GinError
from gintutor.text.blocks import Line
from gintutor.text.i18n import _, error_text, number, percent, puzzle_text
from gintutor.tutor.daily import next_puzzle
from gintutor.tutor.puzzles import (
    Grade,
    Puzzle,
    Solution,
    Theme,
    choice_codes,
    fill_explanation,
)
from gintutor.tutor.puzzletext import feedback, setting_out
from gintutor.tutor.rating import Rating, puzzle_rating


def _solved(puzzle: Puzzle) -> Solution:
    """The puzzle's solution (from its stored verdict; the reader is imported when needed)."""
    if not puzzle.theme.judged:  # exact numbers only: no verdict to read
        from gintutor.tutor.puzzles import solve_puzzle

        return solve_puzzle(puzzle)
    from gintutor.content.verdicts import solve

    return solve(puzzle)


def choices(puzzle: Puzzle) -> list[str]:
    """What may be answered: legal discards, or the actions of a rollout theme."""
    if puzzle.theme in (Theme.KNOCK_OR_PLAY, Theme.UPCARD):
        return list(choice_codes(puzzle))
    taken = puzzle.position.took_from_discard
    return [card.code for card in puzzle.position.hand if card != taken]


def read_choice(puzzle: Puzzle, text: str) -> str:
    """The choice a reply names (a card in any spelling, or an action word)."""
    allowed = choices(puzzle)
    word = text.strip().lower()
    if word in allowed:
        return word
    try:
        card = Card.parse(text)
    except GinError:
        raise GinError(
            _(
                "{text!r}: answer with one of {choices}",
                text=text.strip(),
                choices=", ".join(allowed),
            )
        ) from None
    if card.code in allowed:
        return card.code
    if card not in puzzle.position.hand:
        raise GinError(_("you don't hold {card}", card=card.code))
    if card == puzzle.position.took_from_discard:
        raise GinError(
            _("{card} was just taken from the discard pile: not this turn", card=card.code)
        )
    raise GinError(
        _("{card} is not a choice here: {choices}", card=card.code, choices=", ".join(allowed))
    )


@dataclass(frozen=True)
class Attempt:
    """One answer to a puzzle: its grade (``None``: the answer was revealed), the hints
    asked, the answer given."""

    grade: Grade | None
    hints: int
    answer: str | None


class PuzzleRunner(Runner):
    """Shows a puzzle, takes one answer (hints allowed), grades it and records the result.

    Only the first attempt at a puzzle is recorded, and it stands: a replay says when it was
    played and what the answer was, and is practice. A puzzle is *solved* when the answer was
    Best (hints allowed); *first try* when it was Best with no hint at the first attempt; a
    revealed answer (``skip``) or a worse grade is an attempt, not a solve.
    """

    def run(self, puzzle: Puzzle, daily_date: dt.date | None = None) -> Grade:
        """Play one puzzle; ``daily_date`` marks it as today's daily puzzle (streak, share line).

        A first attempt moves the learner's rating in the puzzle's theme (first try: a win;
        anything else: a loss) and says so; any later attempt is practice and is counted as
        such. Returns the grade (a revealed answer is a Blunder).
        """
        earlier = self.progress.data.get("puzzles", {}).get("solved", {}).get(puzzle.id)
        if earlier is not None:
            before = earlier.get("answer")
            values = {
                "date": earlier.get("date") or _("an earlier day"),
                "answer": before,
                "grade": earlier["grade"],
            }
            if before:
                text = _(
                    "Already played on {date}: your answer was {answer} ({grade}). This is "
                    "practice: your first attempt stands.",
                    **values,
                )
            else:
                text = _(
                    "Already played on {date} ({grade}). This is practice: your first attempt "
                    "stands.",
                    **values,
                )
            self.terminal.say(text, "yellow")
        self.terminal.show(setting_out(puzzle, self.style))
        # Solved once answered: nothing waits on it before the prompt, or if the learner leaves.
        hints = list(puzzle.hints[:2])
        used = 0

        def validate(text: str) -> str | None:
            try:
                read_choice(puzzle, text)
            except GinError as error:
                return error_text(error)
            return None

        prompt = Prompt(">", choices(puzzle), validate)
        answer: str | None = None
        while answer is None:
            reply = self.asker.ask(prompt)
            if reply is Command.HINT and used < len(hints):
                hint = puzzle_text("hint", hints[used])
                if "{" in hint:  # a placeholder: the engine's number for this position
                    hint = fill_explanation(hint, _solved(puzzle))
                self.terminal.say(_("Hint: {hint}", hint=hint), "yellow")
                used += 1
                continue
            if reply in (Command.HINT, Command.SKIP):
                used += 1
                solution = _solved(puzzle)
                accepted = ", ".join(solution.accepted)
                self.terminal.say(_("The answer: {answer}", answer=accepted), "bold")
                self.terminal.show(feedback(solution, solution.accepted[0], self.style)[1:])
                self._finish(puzzle, daily_date, Attempt(None, used, None))
                return Grade.BLUNDER
            assert isinstance(reply, str)
            answer = read_choice(puzzle, reply)
        solution = _solved(puzzle)
        blocks = feedback(solution, answer, self.style)
        grade = solution.row(answer).grade
        self.terminal.say(
            blocks[0].text if isinstance(blocks[0], Line) else "",
            "bold green" if grade is Grade.BEST else "bold red",
        )
        self.terminal.show(blocks[1:])
        self._finish(puzzle, daily_date, Attempt(grade, used, answer))
        return grade

    def _finish(self, puzzle: Puzzle, daily_date: dt.date | None, attempt: Attempt) -> None:
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
        self, puzzle: Puzzle, daily_date: dt.date | None, attempt: Attempt
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
    runner: PuzzleRunner,
    first: Puzzle,
    pool: Callable[[], list[Puzzle]],
    *,
    daily_date: dt.date | None = None,
    theme: str | None = None,
) -> None:
    """The training loop: ``first``, then, while the learner wants (Enter), the next puzzle
    not played yet from ``pool()`` (of ``theme``), the nearest their rating in its theme; a
    failed puzzle may be retried at once, as practice."""
    puzzle: Puzzle | None = first
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
    """A spoiler-free line to share: ``gintutor daily 2026-12-01: first try, no hints``."""
    how = (
        "revealed"
        if grade is None
        else "first try"
        if grade is Grade.BEST
        else (grade.value.lower())
    )
    hinted = "no hints" if hints == 0 else f"{hints} hint{'s' if hints != 1 else ''}"
    return f"gintutor daily {date.isoformat()}: {how}, {hinted}"
