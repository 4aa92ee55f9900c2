"""Playing a puzzle on the terminal (the learner's statistics are in :mod:`.puzzlestats`)."""

from __future__ import annotations

import datetime as dt

from gintutor.cli.learner import Session
from gintutor.cli.prompts import Command, Prompt
from gintutor.cli.puzzlestats import puzzle_stats as puzzle_stats
from gintutor.cli.puzzlestats import show_stats as show_stats
from gintutor.cli.puzzlestats import streaks as streaks
from gintutor.engine.cards import Card
from gintutor.errors import GinError
from gintutor.text.blocks import Line
from gintutor.tutor.puzzles import (
    Grade,
    Puzzle,
    Solution,
    Theme,
    choice_codes,
    fill_explanation,
)
from gintutor.tutor.puzzletext import feedback, setting_out


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
        raise GinError(f"{text.strip()!r}: answer with one of {', '.join(allowed)}") from None
    if card.code in allowed:
        return card.code
    if card not in puzzle.position.hand:
        raise GinError(f"you don't hold {card.code}")
    if card == puzzle.position.took_from_discard:
        raise GinError(f"{card.code} was just taken from the discard pile: not this turn")
    raise GinError(f"{card.code} is not a choice here: {', '.join(allowed)}")


class PuzzleRunner(Session):
    """Shows a puzzle, takes one answer (hints allowed), grades it and records the result.

    Only the first attempt at a puzzle is recorded, and it stands: a replay says when it was
    played and what the answer was, and is practice. A puzzle is *solved* when the answer was
    Best (hints allowed); *first try* when it was Best with no hint at the first attempt; a
    revealed answer (``skip``) or a worse grade is an attempt, not a solve.
    """

    def run(self, puzzle: Puzzle, daily_date: dt.date | None = None) -> Grade:
        """Play one puzzle; ``daily_date`` marks it as that day's puzzle (streaks, share line)."""
        earlier = self.progress.data.get("puzzles", {}).get("solved", {}).get(puzzle.id)
        if earlier is not None:
            before = earlier.get("answer")
            self.terminal.say(
                f"Already played on {earlier.get('date', 'an earlier day')}"
                + (
                    f": your answer was {before} ({earlier['grade']})"
                    if before
                    else f" ({earlier['grade']})"
                )
                + ". This is practice: your first attempt stands.",
                "yellow",
            )
        self.terminal.show(setting_out(puzzle, self.style))
        # Solved once answered: nothing waits on it before the prompt, or if the learner leaves.
        hints = list(puzzle.hints[:2])
        used = 0

        def validate(text: str) -> str | None:
            try:
                read_choice(puzzle, text)
            except GinError as error:
                return str(error)
            return None

        prompt = Prompt(">", choices(puzzle), validate)
        answer: str | None = None
        while answer is None:
            reply = self.asker.ask(prompt)
            if reply is Command.HINT and used < len(hints):
                hint = hints[used]
                if "{" in hint:  # a placeholder: the engine's number for this position
                    hint = fill_explanation(hint, _solved(puzzle))
                self.terminal.say(f"Hint: {hint}", "yellow")
                used += 1
                continue
            if reply in (Command.HINT, Command.SKIP):
                used += 1
                solution = _solved(puzzle)
                self.terminal.say(f"The answer: {', '.join(solution.accepted)}", "bold")
                self.terminal.show(feedback(solution, solution.accepted[0], self.style)[1:])
                self._record(puzzle, daily_date, None, used, None)
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
        first = self._record(puzzle, daily_date, grade, used, answer)
        if daily_date is not None and first:
            self.terminal.say("")
            self.terminal.say(share_line(daily_date, grade, used))
        return grade

    def _record(
        self,
        puzzle: Puzzle,
        daily_date: dt.date | None,
        grade: Grade | None,
        hints: int,
        answer: str | None,
    ) -> bool:
        """Record a first attempt (under the lock, so two processes cannot both be first);
        ``False`` when the puzzle had been played before (nothing is written)."""
        entry = {
            "grade": grade.value if grade else "revealed",
            "first_try": grade is Grade.BEST and hints == 0,
            "hints": hints,
            "theme": puzzle.theme.value,
            "date": dt.date.today().isoformat(),
        }
        if answer is not None:
            entry["answer"] = answer
        with self.progress.locked() as data:
            store = data.setdefault("puzzles", {})
            solved = store.setdefault("solved", {})
            if puzzle.id in solved:
                return False
            solved[puzzle.id] = entry
            if daily_date is not None:
                store.setdefault("daily", {}).setdefault(
                    daily_date.isoformat(), {"id": puzzle.id, **entry}
                )
        return True


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
