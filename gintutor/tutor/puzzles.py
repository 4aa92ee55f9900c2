"""Discard puzzles and their grading: the engine decides every answer (format in puzzles/README.md).

A puzzle's theme picks the measure that ranks the choices: exact numbers for ``deadwood``,
``outs`` and ``safety`` (the evaluator), expected points by seeded rollouts for ``knock-or-play``,
``upcard`` and ``layoff-exposure`` (the verdict layer). Every answer within the theme's
tolerance of the best is accepted.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from enum import Enum

from gintutor.engine.cards import Card, CardSet
from gintutor.engine.evaluate import DiscardEval, Evaluation, Position, evaluate
from gintutor.engine.rollout import Action, Candidate, CandidateResult, Verdict, verdict
from gintutor.engine.solver import min_deadwood_mask
from gintutor.errors import GinError


class Theme(Enum):
    """What a puzzle is about, and so how its choices are ranked."""

    DEADWOOD = "deadwood"
    OUTS = "outs"
    SAFETY = "safety"
    KNOCK_OR_PLAY = "knock-or-play"
    UPCARD = "upcard"
    LAYOFF_EXPOSURE = "layoff-exposure"

    @property
    def exact(self) -> bool:
        """True when the exact evaluator decides the answer (else rollouts)."""
        return self in (Theme.DEADWOOD, Theme.OUTS, Theme.SAFETY)


class Grade(Enum):
    """How good a choice is, by what it costs in the theme's measure."""

    BEST = "Best"
    GOOD = "Good"
    INACCURACY = "Inaccuracy"
    MISTAKE = "Mistake"
    BLUNDER = "Blunder"


# Cost thresholds for Good / Inaccuracy / Mistake (above the last: Blunder), and the tolerance
# within which a choice is as good as the best, in the theme's own unit.
_SCALES: dict[Theme, tuple[float, tuple[float, float, float]]] = {
    Theme.DEADWOOD: (0.0, (2, 5, 10)),
    Theme.OUTS: (0.005, (0.03, 0.08, 0.15)),
    Theme.SAFETY: (0.005, (0.05, 0.15, 0.30)),
    Theme.KNOCK_OR_PLAY: (0.0, (3, 8, 15)),
    Theme.UPCARD: (0.0, (3, 8, 15)),
    Theme.LAYOFF_EXPOSURE: (0.0, (3, 8, 15)),
}
_UNITS = {
    Theme.DEADWOOD: "deadwood",
    Theme.OUTS: "chance to knock within two draws",
    Theme.SAFETY: "chance the opponent melds it",
    Theme.KNOCK_OR_PLAY: "expected points",
    Theme.UPCARD: "expected points",
    Theme.LAYOFF_EXPOSURE: "expected points",
}
ROLLOUT_WORLDS = 400


@dataclass(frozen=True)
class Puzzle:
    """One puzzle as read from YAML."""

    id: str
    title: str
    theme: Theme
    difficulty: int
    position: Position
    question: str
    answers: tuple[str, ...]
    hints: tuple[str, ...]
    explanation: str
    path: str = ""
    line: int = 0
    score: tuple[int, int] | None = None

    @property
    def seed(self) -> int:
        """The rollout seed, from the position itself: the same position always gets the same
        deals, whatever the puzzle is called or where it is filed."""
        return int(hashlib.sha256(repr(position_key(self.position)).encode()).hexdigest()[:8], 16)


@dataclass(frozen=True)
class Row:
    """One choice of a puzzle with its measure, its cost against the best and its grade."""

    code: str
    measure: float
    cost: float
    grade: Grade
    evaluation: DiscardEval | None = None
    result: CandidateResult | None = None


@dataclass(frozen=True)
class Solution:
    """The engine's answer to a puzzle: every choice ranked, and the accepted answers."""

    puzzle: Puzzle
    rows: tuple[Row, ...]
    evaluation: Evaluation | None
    verdict: Verdict | None

    @property
    def accepted(self) -> tuple[str, ...]:
        """The answers graded Best (equally good within the theme's tolerance)."""
        return tuple(row.code for row in self.rows if row.grade is Grade.BEST)

    def row(self, code: str) -> Row:
        """The row of a choice (a card code or an action)."""
        for row in self.rows:
            if row.code == code.upper() or row.code == code.lower():
                return row
        choices = ", ".join(r.code for r in self.rows)
        raise GinError(f"{code!r} is not one of the choices: {choices}")


def _grade(theme: Theme, cost: float, equal: bool) -> Grade:
    tolerance, (good, inaccuracy, mistake) = _SCALES[theme]
    if equal or cost <= tolerance + 1e-9:
        return Grade.BEST
    if cost <= good:
        return Grade.GOOD
    if cost <= inaccuracy:
        return Grade.INACCURACY
    if cost <= mistake:
        return Grade.MISTAKE
    return Grade.BLUNDER


def candidates(puzzle: Puzzle) -> tuple[Candidate, ...]:
    """The choices a rollout theme compares."""
    position = puzzle.position
    if puzzle.theme is Theme.UPCARD:
        return (Candidate(Action.TAKE), Candidate(Action.DRAW))
    if puzzle.theme is Theme.KNOCK_OR_PLAY:
        return (Candidate(Action.KNOCK), Candidate(Action.PLAY_ON))
    limit = position.knock_limit
    return tuple(
        Candidate(Action.KNOCK, card)
        for card in position.hand
        if card != position.took_from_discard
        and min_deadwood_mask(position.hand.mask & ~card.mask) <= limit
    )


def verdict_key(puzzle: Puzzle) -> str:
    """What a rollout verdict depends on: the position, the choices, the worlds and the seed.

    A stored verdict is used only while its key is unchanged (and ``puzzles check`` replays
    every stored verdict, so a change of the rollout policy is caught too).
    """
    codes = sorted(candidate.code for candidate in candidates(puzzle))
    text = repr((position_key(puzzle.position), codes, ROLLOUT_WORLDS, puzzle.seed))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def solve_puzzle(puzzle: Puzzle, known: Verdict | None = None) -> Solution:
    """Rank every choice of the puzzle by its theme's measure (best first) and grade it.

    ``known``: the rollout verdict already computed for this puzzle (a stored one), used
    instead of playing the worlds again.
    """
    theme = puzzle.theme
    position = puzzle.position
    if theme is Theme.SAFETY:
        return _solve_safety(puzzle)
    if theme.exact:
        exact = evaluate(position)
        ranked = exact.ranked(theme.value)
        top = ranked[0].measure(theme.value)
        rows = tuple(
            Row(
                e.card.code,
                e.measure(theme.value),
                e.measure(theme.value) - top,
                _grade(theme, e.measure(theme.value) - top, False),
                evaluation=e,
            )
            for e in ranked
        )
        return Solution(puzzle, rows, exact, None)
    choices = candidates(puzzle)
    if not choices:
        raise GinError(
            f"no discard lets this hand knock (limit {position.knock_limit}): a "
            f"{theme.value} puzzle needs at least one"
        )
    result = known or verdict(position, choices, ROLLOUT_WORLDS, puzzle.seed)
    evaluation: Evaluation | None = None
    if len(position.hand) == 11:
        evaluation = evaluate(position)
    elif position.upcard is not None:
        taken = Position(
            position.hand | CardSet(position.upcard.mask),
            position.rules,
            took_from_discard=position.upcard,
            dead=position.dead,
            opponent_known=position.opponent_known,
            stock_size=position.stock_size,
            first_upcard=position.first_upcard,
        )
        evaluation = evaluate(taken)
    by_card = {e.card.code: e for e in evaluation.options} if evaluation is not None else {}
    rows = tuple(
        Row(
            r.candidate.code,
            r.mean,
            r.gap,
            _grade(theme, r.gap, r.equally_good),
            result=r,
            evaluation=by_card.get(r.candidate.code),
        )
        for r in result.results
    )
    return Solution(puzzle, rows, evaluation, result)


def safe_group(evaluation: Evaluation) -> tuple[DiscardEval, ...]:
    """The discards as safe as the safest (within the safety tolerance)."""
    tolerance = _SCALES[Theme.SAFETY][0]
    safest = min(e.p_opponent_melds for e in evaluation.options)
    return tuple(e for e in evaluation.options if e.p_opponent_melds <= safest + tolerance + 1e-9)


def _solve_safety(puzzle: Puzzle) -> Solution:
    """Safety: the safest discards first; among those equally safe, the least deadwood is best
    and the others are graded by the deadwood they waste (breaking a meld is no safe play)."""
    exact = evaluate(puzzle.position)
    group = safe_group(exact)
    safest = min(e.p_opponent_melds for e in group)
    least = min(e.deadwood for e in group)
    rows = [
        Row(
            e.card.code,
            e.p_opponent_melds,
            float(e.deadwood - least),
            _grade(Theme.DEADWOOD, e.deadwood - least, False),
            evaluation=e,
        )
        for e in sorted(group, key=lambda e: (e.deadwood, e.card.index))
    ]
    others = sorted(
        (e for e in exact.options if e not in group),
        key=lambda e: (e.p_opponent_melds, e.deadwood, e.card.index),
    )
    rows += [
        Row(
            e.card.code,
            e.p_opponent_melds,
            e.p_opponent_melds - safest,
            _grade(Theme.SAFETY, e.p_opponent_melds - safest, False),
            evaluation=e,
        )
        for e in others
    ]
    return Solution(puzzle, tuple(rows), exact, None)


def theme_unit(theme: Theme) -> str:
    """What the theme's measure is, in words."""
    return _UNITS[theme]


def position_key(position: Position) -> tuple[object, ...]:
    return (
        position.hand.mask,
        position.upcard,
        position.took_from_discard,
        position.dead.mask,
        position.opponent_known.mask,
        position.stock_size,
        position.rules.name,
        position.first_upcard,
    )


# --- explanations ------------------------------------------------------------------------------

_FIELD = re.compile(r"\{([A-Za-z0-9-]+)(?:\.([a-z_0-9]+))?(?::(%|n))?\}")
_EVAL_FIELDS = {
    "deadwood",
    "p_knock_next",
    "p_knock_within_2",
    "p_opponent_melds",
    "expected_deadwood_next",
    "outs",
    "knock_outs",
    "gin_outs",
    "can_knock",
}


def fill_explanation(text: str, solution: Solution) -> str:
    """Fill ``{best}``, ``{best.p_knock_within_2:%}``, ``{KS.outs:n}`` with engine numbers.

    Names: ``best``, ``second`` (rank in the theme), ``natural`` (least deadwood now, then the
    highest card), or a card code; fields as in ``puzzle --json``; ``:%`` a percentage,
    ``:n`` a count of cards.
    """

    def value(match: re.Match[str]) -> str:
        name, key, fmt = match.group(1), match.group(2), match.group(3)
        row = _named_row(solution, name)
        if key is None:
            return _code_display(row.code)
        if key == "mean":
            return f"{row.measure:+.1f}"
        if row.evaluation is None or key not in _EVAL_FIELDS:
            raise GinError(f"{{{name}.{key}}}: no such number for this puzzle")
        raw = getattr(row.evaluation, key)
        if key in ("outs", "knock_outs", "gin_outs"):
            cards = [o.card if hasattr(o, "card") else o for o in raw]
            if fmt == "n":
                return str(len(cards))
            return " ".join(card.display() for card in cards) or "none"
        if fmt == "%":
            return f"{100 * raw:.0f}%"
        if isinstance(raw, float):
            return f"{raw:.1f}"
        return str(raw)

    return _FIELD.sub(value, text)


def _code_display(code: str) -> str:
    try:
        return Card.parse(code).display()
    except GinError:
        return code


def natural_choice(solution: Solution) -> str:
    """The natural-looking answer: the least deadwood now, ties to the highest card."""
    evaluation = solution.evaluation
    if evaluation is None or solution.puzzle.theme in (Theme.UPCARD, Theme.KNOCK_OR_PLAY):
        return solution.rows[0].code
    options = evaluation.options
    if solution.puzzle.theme is Theme.DEADWOOD:
        natural = max(options, key=lambda e: (e.card.points, e.card.index))
    else:
        natural = min(options, key=lambda e: (e.deadwood, -e.card.points, -e.card.index))
    return natural.card.code


def _named_row(solution: Solution, name: str) -> Row:
    rows = solution.rows
    if name == "best":
        return rows[0]
    if name == "second":
        return rows[1] if len(rows) > 1 else rows[0]
    code = natural_choice(solution) if name == "natural" else name
    for row in rows:
        if row.code == code or row.code == code.upper():
            return row
    if solution.evaluation is not None:
        for option in solution.evaluation.options:
            if option.card.code == code.upper():
                return Row(code.upper(), 0.0, 0.0, Grade.BEST, evaluation=option)
    raise GinError(f"{{{name}}}: not a choice of this puzzle")
