"""Playing a gin puzzle on the terminal: asked, graded and explained here; recorded, rated and
trained on by :mod:`gintutor.cli.puzzletraining` (the learner's statistics are in
:mod:`.puzzlestats`)."""

from __future__ import annotations

import datetime as dt

from gintutor.cli.prompts import Command, Prompt
from gintutor.cli.puzzletraining import Attempt, PuzzleTrainer
from gintutor.engine.cards import Card
from gintutor.errors import GinError
from gintutor.text.blocks import Line
from gintutor.text.i18n import _, error_text, puzzle_text
from gintutor.tutor.puzzles import (
    Grade,
    Puzzle,
    Solution,
    Theme,
    choice_codes,
    fill_explanation,
    solve_puzzle,
)
from gintutor.tutor.puzzletext import feedback, setting_out


def _solved(puzzle: Puzzle) -> Solution:
    """The puzzle's solution (from its stored verdict when its theme is judged)."""
    if not puzzle.theme.judged:  # exact numbers only: no verdict to read
        return solve_puzzle(puzzle)
    # The stored verdicts' reader names the hand state machine: imported for a judged puzzle's
    # answer, not before the daily's first prompt. Measured at the top of this module and of
    # puzzlepick.py (bench_startup.py, least CPU, ratio to the bare Typer + Rich app, load
    # ~8-10): the daily (EOF) 1.14x and 1.15x against 1.03x and 1.05x.
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


class PuzzleRunner(PuzzleTrainer[Puzzle]):
    """Shows a gin puzzle, takes one answer (hints allowed), grades it; the record is
    :class:`~gintutor.cli.puzzletraining.PuzzleTrainer`'s."""

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
