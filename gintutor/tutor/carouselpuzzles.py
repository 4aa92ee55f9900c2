"""Carousel puzzles: "play the most you can" positions, solved and graded by the exact solver.

A learner's answer is the whole new table. It is graded by the points it places against the
best play's: any legal play placing as many points as the best is Best (there are often
several); an illegal play is graded Illegal with the engine's reason.

>>> puzzle = CarouselPuzzle("c-1", "Seven", 1, Position(parse_table("7H 8H 9H TH"),
...     parse_hand_cards("7C 7D 2S")), "Play the most you can.", ("7C 7D 7H | 8H 9H TH",))
>>> solution = solve_puzzle(puzzle)
>>> fill_explanation("{best.placed} for {best.points} points, {best.moves} moved", solution)
'7♣ 7♦ for 14 points, 1 moved'
>>> grade(solution, "7C 7D 7H | 8H 9H TH").grade.value
'best'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from typing import Any

from gintutor.engine.carousel.cards import (
    Hand,
    Table,
    decks_for,
    parse_hand_cards,
    parse_table,
    verify_counts,
)
from gintutor.engine.carousel.rules import STANDARD
from gintutor.engine.carousel.solver import MoveKind, Play, best_play
from gintutor.errors import GinError
from gintutor.text.blocks import Block, Heading, Line, Style
from gintutor.text.carousel import explain_play, hand_text, play_data, table_lines
from gintutor.text.i18n import _, ngettext, pgettext, puzzle_text

THEME = "carousel"
"""The theme of every Carousel puzzle."""

GRADE_LIMITS = (0, 5, 10, 20)
"""Points short of the best play for Best, Good, Inaccuracy, Mistake (more: Blunder)."""


@dataclass(frozen=True)
class Position:
    """A Carousel position: the table, your hand (after drawing), the players, the first meld."""

    table: Table
    hand: Hand
    players: int = 3
    first_meld: bool = False

    @property
    def decks(self) -> int:
        """One deck for two players, two for more."""
        return decks_for(self.players)

    def verify(self) -> None:
        """Raise :class:`GinError` unless the position is possible (cards, decks, first meld)."""
        verify_counts(self.table, [self.hand], self.decks)
        if self.first_meld and self.table.melds:
            raise GinError("first_meld: the first meld of the round is made on an empty table")

    def key(self) -> tuple[str, str, int, bool]:
        """What makes two positions the same."""
        return (self.table.text(), self.hand.text(), self.decks, self.first_meld)


class CarouselTheme(Enum):
    """The theme a Carousel puzzle is recorded and rated under (beside gin's themes)."""

    CAROUSEL = THEME


@dataclass(frozen=True)
class CarouselPuzzle:
    """One puzzle: the position, the question, the stated answers (checked, never trusted)."""

    id: str
    title: str
    difficulty: int
    position: Position
    question: str
    answers: tuple[str, ...]
    hints: tuple[str, ...] = ()
    explanation: str = ""
    path: str = ""
    line: int = 0

    @property
    def theme(self) -> CarouselTheme:
        """The theme of every Carousel puzzle (what the puzzle record and rating read)."""
        return CarouselTheme.CAROUSEL


@dataclass(frozen=True)
class Solution:
    """The puzzle and the solver's best play."""

    puzzle: CarouselPuzzle
    best: Play


def solve_puzzle(puzzle: CarouselPuzzle) -> Solution:
    """The best play of the puzzle's position; :class:`GinError` if no card can be placed."""
    position = puzzle.position
    position.verify()
    best = best_play(
        position.table, position.hand, position.decks, STANDARD, first_meld=position.first_meld
    )
    if best is None:
        raise GinError("no card of the hand can be placed: not a puzzle")
    return Solution(puzzle, best)


class Grade(Enum):
    """How a play compares with the best."""

    BEST = "best"
    GOOD = "good"
    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"
    ILLEGAL = "illegal"


@dataclass(frozen=True)
class Graded:
    """A learner's play graded: the grade, the points placed and short of the best, why."""

    grade: Grade
    points: int
    short: int
    reason: str
    placed: Hand | None = None


def grade_label(grade: Grade) -> str:
    """A grade as the learner reads it (``Best``, ``Illegal``...)."""
    labels = {
        Grade.BEST: pgettext("puzzle grade", "Best"),
        Grade.GOOD: pgettext("puzzle grade", "Good"),
        Grade.INACCURACY: pgettext("puzzle grade", "Inaccuracy"),
        Grade.MISTAKE: pgettext("puzzle grade", "Mistake"),
        Grade.BLUNDER: pgettext("puzzle grade", "Blunder"),
        Grade.ILLEGAL: pgettext("puzzle grade", "Illegal"),
    }
    return labels[grade]


def grade_for(short: int) -> Grade:
    """The grade of a legal play placing ``short`` points fewer than the best.

    >>> grade_for(0), grade_for(7), grade_for(40)
    (<Grade.BEST: 'best'>, <Grade.INACCURACY: 'inaccuracy'>, <Grade.BLUNDER: 'blunder'>)
    """
    for limit, found in zip(GRADE_LIMITS, Grade, strict=False):
        if short <= limit:
            return found
    return Grade.BLUNDER


def grade(solution: Solution, text: str) -> Graded:
    """Grade the new table typed by the learner (``none``: no play);
    :class:`~gintutor.tutor.questions.base.AnswerError` if it is not a table at all."""
    position = solution.puzzle.position
    best = solution.best.points_placed
    if text.strip().lower() in ("none", "pass"):
        return Graded(grade_for(best), 0, best, _("you place nothing"))
    # The lesson questions' play checker: imported when a reply is graded. With it (and the
    # Carousel pack's YAML reader) at the top, carousel puzzle started at 1.20x the bare Typer +
    # Rich app's least CPU, against 1.07x (bench_startup.py, 3 rounds, load ~7-9).
    from gintutor.tutor.questions.carousel import check_play, read_table

    new_table = read_table(text)
    try:
        placed = check_play(
            position.table, position.hand, new_table, position.decks, position.first_meld
        )
    except GinError as error:
        return Graded(Grade.ILLEGAL, 0, best, str(error))
    points = placed.points
    short = best - points
    cards = hand_text(placed, Style())
    reason = ngettext(
        "you place {cards}: {points} point",
        "you place {cards}: {points} points",
        points,
        cards=cards,
        points=points,
    )
    if short > 0:
        reason = ngettext(
            "you place {cards}: {points} point, {short} fewer than the best play",
            "you place {cards}: {points} points, {short} fewer than the best play",
            points,
            cards=cards,
            points=points,
            short=short,
        )
    elif short < 0:  # the solver is exact: a better legal play is a solver bug, said as such
        raise GinError(
            "the play places {points} points, more than the solver's {best}",
            points=points,
            best=best,
        )
    return Graded(grade_for(short), points, short, reason, placed)


_PLACEHOLDER = re.compile(r"\{([a-z]+)\.([a-z_]+)\}")


def _fields(solution: Solution, style: Style, translate: bool) -> dict[str, dict[str, str]]:
    best = solution.best
    hand = solution.puzzle.position.hand
    limit = STANDARD.knock_limit
    if not len(best.hand_after):
        knock = _("you go out") if translate else "you go out"
    elif best.points_after <= limit:
        knock = _("you may knock") if translate else "you may knock"
    else:
        knock = _("you may not knock") if translate else "you may not knock"
    return {
        "best": {
            "points": str(best.points_placed),
            "cards": str(best.cards_placed),
            "placed": hand_text(best.placed, style),
            "moves": str(len(best.moves)),
            "freed": str(sum(move.kind is MoveKind.FREED for move in best.moves)),
            "left": str(best.points_after),
            "hand_after": hand_text(best.hand_after, style),
            "knock": knock,
            "melds": str(len(best.table)),
            "table": " | ".join(m.display(ascii_only=style.ascii_only) for m in best.table),
        },
        "hand": {"points": str(hand.points), "cards": str(len(hand))},
    }


def fill_explanation(
    text: str, solution: Solution, style: Style | None = None, *, translate: bool = False
) -> str:
    """Fill ``{best.points}`` and the other placeholders from the solver's best play.

    Fields of ``best``: points, cards, placed, moves, freed, left, hand_after, knock, melds,
    table; of ``hand``: points, cards. An unknown one is a :class:`GinError`. ``translate``:
    the words (``you may knock``) in the active language, for the learner's eyes (``--json``
    keeps them English).
    """
    values = _fields(solution, style or Style(), translate)

    def value(match: re.Match[str]) -> str:
        group, key = match.group(1), match.group(2)
        if group not in values or key not in values[group]:
            known = ", ".join(f"{g}.{k}" for g, keys in values.items() for k in keys)
            raise GinError(
                "{placeholder}: unknown placeholder (use {known})",
                placeholder=match.group(0),
                known=known,
            )
        return values[group][key]

    return _PLACEHOLDER.sub(value, text)


def puzzle_blocks(puzzle: CarouselPuzzle, style: Style) -> list[Block]:
    """The puzzle as the learner sees it: title, table, hand, question."""
    position = puzzle.position
    hand = position.hand
    blocks: list[Block] = [
        Heading(
            _(
                "{title} ({id}, difficulty {difficulty})",
                title=puzzle_text("title", puzzle.title),
                id=puzzle.id,
                difficulty=puzzle.difficulty,
            )
        ),
        Line(
            ngettext(
                "Table ({players} players, {decks} deck):",
                "Table ({players} players, {decks} decks):",
                position.decks,
                players=position.players,
                decks=position.decks,
            )
        ),
        *table_lines(position.table, style),
        Line(
            ngettext(
                "Your hand: {cards} ({points} point)",
                "Your hand: {cards} ({points} points)",
                hand.points,
                cards=hand_text(hand, style),
                points=hand.points,
            )
        ),
    ]
    if position.first_meld:
        blocks.append(Line(_("Nobody has melded yet: your first meld is of your own cards.")))
    blocks.append(Line(puzzle_text("question", puzzle.question)))
    return blocks


def solution_blocks(solution: Solution, style: Style) -> list[Block]:
    """The best play explained, then the author's explanation with its numbers filled."""
    position = solution.puzzle.position
    blocks = explain_play(position.table, position.hand, solution.best, STANDARD, style)
    if solution.puzzle.explanation:
        explanation = puzzle_text("explanation", solution.puzzle.explanation)
        blocks.append(Line(fill_explanation(explanation, solution, style, translate=True)))
    return blocks


def puzzle_data(solution: Solution) -> dict[str, Any]:
    """The ``carousel puzzle --json`` object: the puzzle, and the best play as ``analyze``."""
    puzzle = solution.puzzle
    position = puzzle.position
    analysis = play_data(position.table, position.hand, solution.best, STANDARD)
    return {
        "id": puzzle.id,
        "title": puzzle.title,
        "theme": THEME,
        "difficulty": puzzle.difficulty,
        "players": position.players,
        "first_meld": position.first_meld,
        "table": analysis["table"],
        "hand": analysis["hand"],
        "question": puzzle.question,
        "hints": [fill_explanation(hint, solution) for hint in puzzle.hints],
        "best_points": solution.best.points_placed,
        "play": analysis["play"],
        "explanation": fill_explanation(puzzle.explanation, solution),
    }


def position_of(table: str, hand: str, players: int = 3, first_meld: bool = False) -> Position:
    """A position from its notation (the tests' and the generator's shorthand)."""
    return Position(parse_table(table), parse_hand_cards(hand), players, first_meld)
