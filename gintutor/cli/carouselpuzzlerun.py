"""``gintutor carousel puzzle`` at work: the puzzle training loop with Carousel puzzles.

The loop (retry a failed puzzle as practice, Enter for the next one nearest your rating), the
record of each first attempt, the Glicko-2 rating and the statistics are shared with gin's
puzzles (:mod:`gintutor.cli.puzzletraining`, :mod:`gintutor.cli.puzzlestats`): a Carousel
puzzle is recorded under the theme ``carousel`` in the same progress file, so ``puzzle --stats``
and ``carousel puzzle --stats`` show it beside the gin themes. Only the asking and the grading
are Carousel's: the learner types the whole new table (hints on request), graded by the exact
solver.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

from gintutor.cli.prompts import Command, Prompt
from gintutor.cli.puzzletraining import Attempt, PuzzleTrainer, train
from gintutor.errors import GinError
from gintutor.text.i18n import _, error_text, puzzle_text
from gintutor.tutor.carouselpuzzles import (
    CarouselPuzzle,
    Grade,
    Solution,
    fill_explanation,
    grade,
    grade_label,
    puzzle_blocks,
    solution_blocks,
    solve_puzzle,
)
from gintutor.tutor.puzzleterms import Grade as GinGrade

GRADES = {
    Grade.BEST: GinGrade.BEST,
    Grade.GOOD: GinGrade.GOOD,
    Grade.INACCURACY: GinGrade.INACCURACY,
    Grade.MISTAKE: GinGrade.MISTAKE,
    Grade.BLUNDER: GinGrade.BLUNDER,
    Grade.ILLEGAL: GinGrade.BLUNDER,
}
"""A Carousel grade as the puzzle record keeps it (an illegal table is refused at the prompt;
one graded illegal anyway counts as a blunder)."""


class CarouselPuzzleRunner(PuzzleTrainer[CarouselPuzzle]):
    """Asks one Carousel puzzle and grades it; the record, rating and loop are shared."""

    def run(self, puzzle: CarouselPuzzle, daily_date: dt.date | None = None) -> GinGrade:
        """Play one puzzle; returns its grade as gin's puzzles record it."""
        earlier = self.progress.data.get("puzzles", {}).get("solved", {}).get(puzzle.id)
        if earlier is not None:
            self.terminal.say(
                _(
                    "Already played on {date} ({grade}). This is practice: your first attempt "
                    "stands.",
                    date=earlier.get("date") or _("an earlier day"),
                    grade=earlier.get("grade"),
                ),
                "yellow",
            )
        self.terminal.show(puzzle_blocks(puzzle, self.style))
        solved: list[Solution] = []

        def solution() -> Solution:
            if not solved:  # searched once the learner replies, never before the prompt
                solved.append(solve_puzzle(puzzle))
            return solved[0]

        def validate(text: str) -> str | None:
            try:
                if grade(solution(), text).grade is Grade.ILLEGAL:
                    return grade(solution(), text).reason
            except GinError as error:
                return error_text(error)
            return None

        position = puzzle.position
        words = sorted({s.code for s in position.table.slots()} | set(position.hand.codes()))
        prompt = Prompt(_("new table (or hint, skip):"), [*words, "|", "none"], validate)
        used = 0
        while True:
            reply = self.asker.ask(prompt)
            if reply is Command.HINT and used < len(puzzle.hints):
                hint = puzzle_text("hint", puzzle.hints[used])
                hint = fill_explanation(hint, solution(), self.style, translate=True)
                self.terminal.say(_("Hint: {hint}", hint=hint), "yellow")
                used += 1
                continue
            if isinstance(reply, str):
                break
            self.terminal.say(_("The answer:"), "bold")
            self.terminal.show(solution_blocks(solution(), self.style))
            self._finish(puzzle, None, Attempt(None, used + 1, None))
            return GinGrade.BLUNDER
        graded = grade(solution(), reply)
        mark = "✓" if graded.grade is Grade.BEST else "✗"
        self.terminal.say(
            _(
                "{mark} {grade}: {reason}.",
                mark=mark,
                grade=grade_label(graded.grade),
                reason=graded.reason,
            ),
            "bold green" if graded.grade is Grade.BEST else "bold red",
        )
        self.terminal.show(solution_blocks(solution(), self.style))
        result = GRADES[graded.grade]
        self._finish(puzzle, None, Attempt(result, used, reply.strip()))
        return result


def train_carousel(
    runner: CarouselPuzzleRunner,
    first: CarouselPuzzle,
    pool: Callable[[], list[CarouselPuzzle]],
) -> None:
    """The training loop over Carousel puzzles: ``first``, a retry of a failed one, then the
    next (Enter) not played yet from ``pool()``, the nearest the learner's rating."""
    train(runner, first, pool)
