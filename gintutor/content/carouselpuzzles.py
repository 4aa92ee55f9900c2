"""Reading and checking the Carousel puzzle pack; every problem as ``file:line: what is wrong``.

The pack (``puzzles/carousel/carousel.yaml``) has the gin packs' shape (a list under
``puzzles:``, theme ``carousel``) with a Carousel position: ``table``, ``hand``, ``players``,
``first_meld``. The stated ``answers`` are new tables; each must be a legal play placing as
many points as the solver's best, and every placeholder must fill.

YAML and the pack reader are imported when the pack is read, not to find its files or a puzzle
in the pack kept in the data folder (measured: see :mod:`gintutor.tutor.carouselpuzzles`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from gintutor.content.paths import content_dir
from gintutor.content.problems import Problem, problems_error
from gintutor.engine.carousel.cards import parse_hand_cards, parse_table
from gintutor.errors import GinError, Note, Phrase
from gintutor.tutor.carouselpuzzles import (
    THEME,
    CarouselPuzzle,
    Grade,
    Position,
    fill_explanation,
    grade,
    solve_puzzle,
)

if TYPE_CHECKING:  # YAML is imported by the readers, when a pack is read (not to find it)
    import yaml

    from gintutor.content.problems import Problem
    from gintutor.content.yamlread import Reader

PACK = "carousel/carousel.yaml"
"""The pack's place under the shipped ``puzzles`` folder."""
MAX_TABLE = 40
"""The most table cards in a shipped puzzle, so the whole pack checks in a few seconds."""

PUZZLE_KEYS = {
    "id",
    "title",
    "theme",
    "difficulty",
    "position",
    "question",
    "answers",
    "hints",
    "explanation",
}
POSITION_KEYS = {"table", "hand", "players", "first_meld"}


def _position(reader: Reader, node: yaml.Node) -> Position | None:
    from gintutor.content.yamlread import check_keys

    items = reader.mapping(node, "position")
    check_keys(reader, items, POSITION_KEYS, Phrase("a Carousel position"))
    if "hand" not in items:
        reader.fail(node, Note("position: needs a hand"))
        return None
    values: dict[str, Any] = {}
    for key in ("table", "hand"):
        if key not in items:
            continue
        text = reader.scalar(items[key][1])
        try:
            if not isinstance(text, str) and not (key == "table" and text is None):
                raise GinError('expected text like "7H 8H 9H | JK=7C 7D 7S"')
            values[key] = (
                parse_table(text or "") if key == "table" else parse_hand_cards(text or "")
            )
        except GinError as error:
            reader.fail(items[key][1], Note("{key}: {error}", key=key, error=error))
            return None
    players = reader.scalar(items["players"][1]) if "players" in items else 3
    if isinstance(players, bool) or players not in (2, 3, 4, 5):
        reader.fail(items["players"][1], Note("players: expected 2 to 5"))
        return None
    first_meld = reader.scalar(items["first_meld"][1]) if "first_meld" in items else False
    if not isinstance(first_meld, bool):
        reader.fail(items["first_meld"][1], Note("first_meld: expected true or false"))
        return None
    position = Position(values.get("table", parse_table("")), values["hand"], players, first_meld)
    try:
        position.verify()
    except GinError as error:
        reader.fail(node, Note("position: {error}", error=error))
        return None
    if position.table.card_count > MAX_TABLE:
        reader.fail(
            node,
            Note(
                "position: {count} table cards; keep puzzles to {most} so the pack checks quickly",
                count=position.table.card_count,
                most=MAX_TABLE,
            ),
        )
        return None
    return position


def _puzzle(reader: Reader, node: yaml.Node) -> CarouselPuzzle | None:
    from gintutor.content.packs import read_head

    before = len(reader.problems)
    head = read_head(reader, node, PUZZLE_KEYS)
    if head is None:
        return None
    items = head.items
    if reader.scalar(items["theme"][1]) != THEME:
        reader.fail(
            items["theme"][1], Note("theme: a Carousel puzzle's theme is {theme}", theme=THEME)
        )
    if not head.answers and len(reader.problems) == before:
        reader.fail(items["answers"][1], Note("answers: give the best play's new table"))
    position = _position(reader, items["position"][1])
    if len(reader.problems) > before or position is None:
        return None
    return CarouselPuzzle(
        head.id,
        head.title,
        head.difficulty,
        position,
        head.question,
        head.answers,
        head.hints,
        head.explanation,
        reader.path,
        node.start_mark.line + 1,
    )


def read_carousel_puzzles(text: str, path: str) -> tuple[list[CarouselPuzzle], list[Problem]]:
    """The puzzles of one Carousel pack file and the problems found (schema and positions)."""
    from gintutor.content.packs import read_pack

    return read_pack(text, path, _puzzle)


def verify_answers(puzzle: CarouselPuzzle) -> list[Problem]:
    """Problems unless every stated answer is a best play and every placeholder fills."""
    where = (puzzle.path, puzzle.line)
    try:
        solution = solve_puzzle(puzzle)
        for text in (*puzzle.hints, puzzle.explanation, puzzle.title):
            fill_explanation(text, solution)
    except GinError as error:
        return [Problem(*where, Note("{id}: {error}", id=puzzle.id, error=error))]
    problems = []
    for answer in puzzle.answers:
        try:
            graded = grade(solution, answer)
        except GinError as error:
            problems.append(
                Problem(
                    *where,
                    Note(
                        "{id}: answer {answer!r}: {error}", id=puzzle.id, answer=answer, error=error
                    ),
                )
            )
            continue
        if graded.grade is not Grade.BEST:
            problems.append(
                Problem(
                    *where,
                    Note(
                        "{id}: answer {answer!r} is {grade} ({reason}); the engine's best places "
                        "{points} points: {table}",
                        id=puzzle.id,
                        answer=answer,
                        grade=graded.grade.value,
                        reason=graded.reason,
                        points=solution.best.points_placed,
                        table=solution.best.table.text(),
                    ),
                )
            )
    return problems


def check_carousel_puzzles(
    files: Iterable[tuple[str, str]], *, solve: bool = True
) -> tuple[list[CarouselPuzzle], list[Problem]]:
    """Load Carousel puzzles and check them: schema, possible positions, unique ids and
    positions, and (with ``solve``) that every stated answer is a best play."""
    puzzles: list[CarouselPuzzle] = []
    problems: list[Problem] = []
    for path, text in files:
        found, issues = read_carousel_puzzles(text, path)
        puzzles += found
        problems += issues
    ids: dict[str, CarouselPuzzle] = {}
    positions: dict[tuple[str, str, int, bool], CarouselPuzzle] = {}
    for puzzle in puzzles:
        where = (puzzle.path, puzzle.line)
        if puzzle.id in ids:
            other = ids[puzzle.id]
            problems.append(
                Problem(
                    *where,
                    Note(
                        "id {id!r} is also used at {path}:{line}",
                        id=puzzle.id,
                        path=other.path,
                        line=other.line,
                    ),
                )
            )
        ids[puzzle.id] = puzzle
        key = puzzle.position.key()
        if key in positions:
            other = positions[key]
            problems.append(
                Problem(
                    *where,
                    Note(
                        "the same position as {id} ({path}:{line})",
                        id=other.id,
                        path=other.path,
                        line=other.line,
                    ),
                )
            )
        positions[key] = puzzle
    if solve:
        for puzzle in puzzles:
            problems += verify_answers(puzzle)
    return puzzles, problems


_CAROUSEL_THEME = re.compile(r"^\s*theme:\s*[\"']?carousel[\"']?\s*$", re.MULTILINE)


def is_carousel_pack(text: str) -> bool:
    r"""True when a puzzle file holds Carousel puzzles (a light scan for ``theme: carousel``),
    so a checker of every pack can hand it to :func:`check_carousel_puzzles`.

    >>> is_carousel_pack("puzzles:\n  - id: c-1\n    theme: carousel\n")
    True
    """
    return _CAROUSEL_THEME.search(text) is not None


def carousel_pack_files() -> list[tuple[str, str]]:
    """``(path, text)`` of the shipped Carousel pack (none if it is not there)."""
    entry = content_dir("puzzles").joinpath(PACK)
    if not entry.is_file():
        return []
    return [(f"puzzles/{PACK}", entry.read_text(encoding="utf-8"))]


def load_carousel_puzzles() -> list[CarouselPuzzle]:
    """Every shipped Carousel puzzle (read and schema-checked, not solved), in pack order."""
    puzzles, problems = check_carousel_puzzles(carousel_pack_files(), solve=False)
    if problems:
        raise problems_error(problems)
    return puzzles


def find_carousel_puzzle(puzzles: list[CarouselPuzzle], puzzle_id: str) -> CarouselPuzzle:
    """The puzzle with this id; :class:`GinError` naming an example id if none."""
    for puzzle in puzzles:
        if puzzle.id == puzzle_id:
            return puzzle
    example = puzzles[0].id if puzzles else "carousel-001"
    raise GinError(
        "no Carousel puzzle {puzzle_id!r} (ids look like {example})",
        puzzle_id=puzzle_id,
        example=example,
    )
