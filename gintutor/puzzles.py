"""Discard puzzles: YAML positions whose answers the engine decides (format in puzzles/README.md).

A puzzle's theme picks the measure that ranks the choices: exact numbers for ``deadwood``,
``outs`` and ``safety`` (the evaluator), expected points by seeded rollouts for ``knock-or-play``,
``upcard`` and ``layoff-exposure`` (the verdict layer). The YAML states the answers so that
``gintutor puzzles check`` catches drift; every answer within the theme's tolerance of the best
is accepted.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import random
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

import yaml

from gintutor.cards import Card, CardSet
from gintutor.content import content_dir
from gintutor.errors import GinError
from gintutor.evaluate import DiscardEval, Evaluation, Position, evaluate, verify_position
from gintutor.rollout import Action, Candidate, CandidateResult, Verdict, verdict
from gintutor.rules import PRESETS
from gintutor.solver import min_deadwood_mask
from gintutor.yamlread import Problem, Reader, check_keys, compose


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
_UNITS = {Theme.DEADWOOD: "deadwood", Theme.OUTS: "chance to knock within two draws",
          Theme.SAFETY: "chance the opponent melds it", Theme.KNOCK_OR_PLAY: "expected points",
          Theme.UPCARD: "expected points", Theme.LAYOFF_EXPOSURE: "expected points"}
ROLLOUT_WORLDS = 400
PUZZLE_KEYS = {"id", "title", "theme", "difficulty", "position", "question", "answers", "hints",
               "explanation"}
POSITION_KEYS = {"hand", "upcard", "took_from_discard", "dead", "opponent_known", "stock_size",
                 "rules", "first_upcard", "score"}


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
        return int(hashlib.sha256(repr(_position_key(self.position)).encode()).hexdigest()[:8],
                   16)


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
        Candidate(Action.KNOCK, card) for card in position.hand
        if card != position.took_from_discard
        and min_deadwood_mask(position.hand.mask & ~card.mask) <= limit
    )


def solve_puzzle(puzzle: Puzzle) -> Solution:
    """Rank every choice of the puzzle by its theme's measure (best first) and grade it."""
    theme = puzzle.theme
    position = puzzle.position
    if theme is Theme.SAFETY:
        return _solve_safety(puzzle)
    if theme.exact:
        exact = evaluate(position)
        ranked = exact.ranked(theme.value)
        top = ranked[0].measure(theme.value)
        rows = tuple(
            Row(e.card.code, e.measure(theme.value), e.measure(theme.value) - top,
                _grade(theme, e.measure(theme.value) - top, False), evaluation=e)
            for e in ranked
        )
        return Solution(puzzle, rows, exact, None)
    result = verdict(position, candidates(puzzle), ROLLOUT_WORLDS, puzzle.seed)
    evaluation: Evaluation | None = None
    if len(position.hand) == 11:
        evaluation = evaluate(position)
    elif position.upcard is not None:
        taken = Position(position.hand | CardSet(position.upcard.mask), position.rules,
                         took_from_discard=position.upcard, dead=position.dead,
                         opponent_known=position.opponent_known,
                         stock_size=position.stock_size, first_upcard=position.first_upcard)
        evaluation = evaluate(taken)
    by_card = {e.card.code: e for e in evaluation.options} if evaluation is not None else {}
    rows = tuple(
        Row(r.candidate.code, r.mean, r.gap, _grade(theme, r.gap, r.equally_good), result=r,
            evaluation=by_card.get(r.candidate.code))
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
        Row(e.card.code, e.p_opponent_melds, float(e.deadwood - least),
            _grade(Theme.DEADWOOD, e.deadwood - least, False), evaluation=e)
        for e in sorted(group, key=lambda e: (e.deadwood, e.card.index))
    ]
    others = sorted((e for e in exact.options if e not in group),
                    key=lambda e: (e.p_opponent_melds, e.deadwood, e.card.index))
    rows += [
        Row(e.card.code, e.p_opponent_melds, e.p_opponent_melds - safest,
            _grade(Theme.SAFETY, e.p_opponent_melds - safest, False), evaluation=e)
        for e in others
    ]
    return Solution(puzzle, tuple(rows), exact, None)


def theme_unit(theme: Theme) -> str:
    """What the theme's measure is, in words."""
    return _UNITS[theme]


# --- explanations ------------------------------------------------------------------------------

_FIELD = re.compile(r"\{([A-Za-z0-9-]+)(?:\.([a-z_0-9]+))?(?::(%|n))?\}")
_EVAL_FIELDS = {"deadwood", "p_knock_next", "p_knock_within_2", "p_opponent_melds",
                "expected_deadwood_next", "outs", "knock_outs", "gin_outs", "can_knock"}


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


# --- reading -----------------------------------------------------------------------------------


def _position(reader: Reader, node: yaml.Node) -> tuple[Position | None, tuple[int, int] | None]:
    items = reader.mapping(node, "position")
    check_keys(reader, items, POSITION_KEYS, "a position")
    if "hand" not in items:
        reader.fail(node, "position: needs a hand")
        return None, None
    rules = reader.rules(items["rules"][1], "rules") if "rules" in items else PRESETS["standard"]
    hand = reader.cards(items["hand"][1], "hand")
    cards: dict[str, Any] = {}
    for key in ("dead", "opponent_known"):
        if key in items:
            cards[key] = reader.cards(items[key][1], key)
    for key in ("upcard", "took_from_discard", "first_upcard"):
        if key in items:
            cards[key] = reader.card(items[key][1], key)
    stock = None
    if "stock_size" in items:
        stock = reader.scalar(items["stock_size"][1])
        if not isinstance(stock, int) or isinstance(stock, bool) or stock < 0:
            reader.fail(items["stock_size"][1], "stock_size: expected a whole number >= 0")
            stock = None
    score = None
    if "score" in items:
        raw = reader.scalar(items["score"][1])
        if isinstance(raw, list) and len(raw) == 2 and all(isinstance(v, int) for v in raw):
            score = (raw[0], raw[1])
        else:
            reader.fail(items["score"][1], "score: expected [mine, theirs], e.g. [40, 65]")
    if hand is None or rules is None or any(v is None for v in cards.values()):
        return None, score
    position = Position(hand, rules, stock_size=stock, **cards)
    try:
        verify_position(position)
        position.knock_limit  # noqa: B018 - Oklahoma needs first_upcard
    except GinError as error:
        reader.fail(node, f"position: {error}")
        return None, score
    return position, score


def _puzzle(reader: Reader, node: yaml.Node) -> Puzzle | None:
    items = reader.mapping(node, "a puzzle")
    before = len(reader.problems)
    check_keys(reader, items, PUZZLE_KEYS, "a puzzle")
    for key in ("id", "title", "theme", "difficulty", "position", "question", "answers"):
        if key not in items:
            reader.fail(node, f"a puzzle needs {key}:")
    if len(reader.problems) > before:
        return None
    puzzle_id = reader.text(items["id"][1], "id")
    title = reader.text(items["title"][1], "title")
    question = reader.text(items["question"][1], "question")
    try:
        theme = Theme(reader.scalar(items["theme"][1]))
    except ValueError:
        themes = ", ".join(t.value for t in Theme)
        reader.fail(items["theme"][1], f"theme: use one of {themes}")
        return None
    difficulty = reader.scalar(items["difficulty"][1])
    if difficulty not in (1, 2, 3, 4, 5):
        reader.fail(items["difficulty"][1], "difficulty: expected 1 to 5")
    answers = reader.strings(items["answers"][1], "answers")
    hints = reader.strings(items["hints"][1], "hints") if "hints" in items else ()
    explanation = ""
    if "explanation" in items:
        explanation = reader.text(items["explanation"][1], "explanation") or ""
    position, score = _position(reader, items["position"][1])
    if position is not None:
        want = 10 if theme is Theme.UPCARD else 11
        if len(position.hand) != want:
            reader.fail(items["position"][1],
                        f"position: a {theme.value} puzzle has {want} cards in hand")
        if (theme is Theme.UPCARD) != (position.upcard is not None):
            reader.fail(items["position"][1],
                        "position: an upcard puzzle (and only one) gives the upcard offered")
    if len(reader.problems) > before or position is None:
        return None
    assert puzzle_id and title and question
    return Puzzle(puzzle_id, title, theme, int(difficulty), position, question,
                  tuple(a.upper() if len(a) <= 3 else a.lower() for a in answers),
                  hints, explanation.strip(), reader.path, node.start_mark.line + 1, score)


def read_puzzles(text: str, path: str) -> tuple[list[Puzzle], list[Problem]]:
    """The puzzles of one YAML file (a list under ``puzzles:``) and the problems found."""
    root, problems = compose(path, text)
    if problems:
        return [], problems
    reader = Reader(path)
    if root is None:
        return [], [Problem(path, 1, "the file is empty: it needs 'puzzles:' and a list")]
    items = reader.mapping(root, "a puzzle file")
    check_keys(reader, items, {"puzzles"}, "a puzzle file")
    if "puzzles" not in items or not isinstance(items["puzzles"][1], yaml.SequenceNode):
        reader.fail(root, "a puzzle file needs 'puzzles:' with a list of puzzles")
        return [], reader.problems
    found = [p for node in items["puzzles"][1].value if (p := _puzzle(reader, node)) is not None]
    return found, reader.problems


def puzzle_files(folder: Any = None) -> list[tuple[str, str]]:
    """``(path, text)`` of every puzzle YAML file, in file-name order."""
    from pathlib import Path

    if folder is not None:
        paths = sorted(Path(folder).glob("*.yaml"))
        return [(str(path), path.read_text(encoding="utf-8")) for path in paths]
    root = content_dir("puzzles")
    files = sorted((e for e in root.iterdir() if e.name.endswith(".yaml")), key=lambda e: e.name)
    return [(f"puzzles/{e.name}", e.read_text(encoding="utf-8")) for e in files]


def _position_key(position: Position) -> tuple[object, ...]:
    return (position.hand.mask, position.upcard, position.took_from_discard,
            position.dead.mask, position.opponent_known.mask, position.stock_size,
            position.rules.name, position.first_upcard)


def check_puzzles(files: Iterable[tuple[str, str]], *, solve: bool = True
                  ) -> tuple[list[Puzzle], list[Problem]]:
    """Load puzzles and check them: schema, legal positions, unique ids and positions, and
    (with ``solve``) that the stated answers are exactly the engine's accepted answers."""
    puzzles: list[Puzzle] = []
    problems: list[Problem] = []
    for path, text in files:
        found, issues = read_puzzles(text, path)
        puzzles += found
        problems += issues
    ids: dict[str, Puzzle] = {}
    positions: dict[tuple[object, ...], Puzzle] = {}
    for puzzle in puzzles:
        if puzzle.id in ids:
            other = ids[puzzle.id]
            problems.append(Problem(puzzle.path, puzzle.line,
                                    f"id {puzzle.id!r} is also used at {other.path}:{other.line}"))
        ids[puzzle.id] = puzzle
        key = _position_key(puzzle.position)
        if key in positions:
            other = positions[key]
            problems.append(Problem(puzzle.path, puzzle.line,
                                    f"the same position as {other.id} ({other.path}:{other.line})"))
        positions[key] = puzzle
        if solve:
            problems += verify_answers(puzzle)
    return puzzles, problems


def verify_answers(puzzle: Puzzle) -> list[Problem]:
    """A problem unless the stated answers are exactly the engine's accepted answers."""
    try:
        solution = solve_puzzle(puzzle)
        for hint in (*puzzle.hints, puzzle.explanation):
            fill_explanation(hint, solution)
    except GinError as error:
        return [Problem(puzzle.path, puzzle.line, f"{puzzle.id}: {error}")]
    accepted = sorted(solution.accepted)
    if sorted(puzzle.answers) != accepted:
        return [Problem(puzzle.path, puzzle.line,
                        f"{puzzle.id}: answers {sorted(puzzle.answers)} but the engine accepts "
                        f"{accepted} (best first: "
                        f"{', '.join(f'{r.code} {r.measure:.3g}' for r in solution.rows[:4])})")]
    return []


def load_puzzles(folder: Any = None) -> list[Puzzle]:
    """Every shipped puzzle (read and schema-checked, not solved), sorted by id."""
    puzzles, problems = check_puzzles(puzzle_files(folder), solve=False)
    if problems:
        raise GinError("\n".join(str(problem) for problem in problems))
    return sorted(puzzles, key=lambda p: p.id)


# --- choosing a puzzle -------------------------------------------------------------------------


def pack_fingerprint(puzzles: Sequence[Puzzle]) -> str:
    """A short hash of the pack's puzzle ids: the same pack gives the same daily sequence."""
    digest = hashlib.sha256("\n".join(sorted(p.id for p in puzzles)).encode()).hexdigest()
    return digest[:12]


def daily(puzzles: Sequence[Puzzle], date: dt.date) -> Puzzle:
    """The puzzle of the day: the pack in a fixed shuffled cycle, one puzzle per day.

    The shuffle is seeded by the pack, so everybody with the same pack gets the same puzzle on
    the same date; consecutive days walk the cycle, so with at least 366 puzzles none repeats
    within a year (any 366 days in a row), and every puzzle comes round once per cycle.
    """
    ordered = sorted(puzzles, key=lambda p: p.id)
    seed = int(hashlib.sha256(pack_fingerprint(ordered).encode()).hexdigest(), 16)
    order = list(range(len(ordered)))
    random.Random(seed).shuffle(order)
    return ordered[order[date.toordinal() % len(ordered)]]


def find_puzzle(puzzles: Sequence[Puzzle], puzzle_id: str) -> Puzzle:
    """The puzzle with this id."""
    for puzzle in puzzles:
        if puzzle.id == puzzle_id:
            return puzzle
    raise GinError(f"no puzzle {puzzle_id!r}")


def select(puzzles: Sequence[Puzzle], *, theme: str | None = None,
           difficulty: int | None = None) -> list[Puzzle]:
    """The puzzles of a theme and/or difficulty (an error if none)."""
    chosen = [p for p in puzzles
              if (theme is None or p.theme.value == theme)
              and (difficulty is None or p.difficulty == difficulty)]
    if not chosen:
        themes = ", ".join(t.value for t in Theme)
        raise GinError(f"no puzzle with theme {theme!r} and difficulty {difficulty!r} "
                       f"(themes: {themes}; difficulty 1 to 5)")
    return chosen
