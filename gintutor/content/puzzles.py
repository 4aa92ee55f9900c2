"""Reading and checking puzzle YAML files; every problem as ``file:line: what is wrong``.

``gintutor puzzles check`` runs :func:`check_puzzles` with ``solve`` so that a stated answer
that drifts from the engine's is caught.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import yaml

from gintutor.content.paths import content_dir
from gintutor.content.verdicts import stored_verdict
from gintutor.content.yamlread import Problem, Reader, check_keys, compose
from gintutor.engine.evaluate import Position, verify_position
from gintutor.engine.rules import PRESETS
from gintutor.errors import GinError
from gintutor.tutor.daily import find_puzzle
from gintutor.tutor.puzzles import (
    Puzzle,
    Solution,
    Theme,
    fill_explanation,
    position_key,
    solve_puzzle,
)

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
POSITION_KEYS = {
    "hand",
    "upcard",
    "took_from_discard",
    "dead",
    "opponent_known",
    "stock_size",
    "rules",
    "first_upcard",
    "score",
}


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
            reader.fail(
                items["position"][1], f"position: a {theme.value} puzzle has {want} cards in hand"
            )
        if (theme is Theme.UPCARD) != (position.upcard is not None):
            reader.fail(
                items["position"][1],
                "position: an upcard puzzle (and only one) gives the upcard offered",
            )
    if len(reader.problems) > before or position is None:
        return None
    assert puzzle_id and title and question
    return Puzzle(
        puzzle_id,
        title,
        theme,
        int(difficulty),
        position,
        question,
        tuple(a.upper() if len(a) <= 3 else a.lower() for a in answers),
        hints,
        explanation.strip(),
        reader.path,
        node.start_mark.line + 1,
        score,
    )


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
        from gintutor.content.textfile import read_text

        return [(str(path), read_text(path, "the puzzles")) for path in paths]
    root = content_dir("puzzles")
    files = sorted((e for e in root.iterdir() if e.name.endswith(".yaml")), key=lambda e: e.name)
    return [(f"puzzles/{e.name}", e.read_text(encoding="utf-8")) for e in files]


def check_puzzles(
    files: Iterable[tuple[str, str]],
    *,
    solve: bool = True,
    jobs: int = 1,
    progress: Callable[[int, int], None] | None = None,
    stored: dict[str, Any] | None = None,
    solutions: list[Solution] | None = None,
) -> tuple[list[Puzzle], list[Problem]]:
    """Load puzzles and check them: schema, legal positions, unique ids and positions, and
    (with ``solve``) that the stated answers are exactly the engine's accepted answers.

    Solving is per puzzle, so ``jobs`` processes share it; ``progress(done, total)`` is called
    as puzzles are solved. ``stored``: the stored verdicts (:mod:`gintutor.content.verdicts`),
    each compared with the verdict played afresh; ``solutions`` collects every solution. The
    problems come in file order whatever ``jobs`` is.
    """
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
            problems.append(
                Problem(
                    puzzle.path,
                    puzzle.line,
                    f"id {puzzle.id!r} is also used at {other.path}:{other.line}",
                )
            )
        ids[puzzle.id] = puzzle
        key = position_key(puzzle.position)
        if key in positions:
            other = positions[key]
            problems.append(
                Problem(
                    puzzle.path,
                    puzzle.line,
                    f"the same position as {other.id} ({other.path}:{other.line})",
                )
            )
        positions[key] = puzzle
    if solve:
        work = [(puzzle, (stored or {}).get(puzzle.id)) for puzzle in puzzles]
        for checked, solution in _solved(work, jobs, progress):
            problems += checked
            if solutions is not None and solution is not None:
                solutions.append(solution)
    return puzzles, problems


def _solved(
    work: list[tuple[Puzzle, Any]],
    jobs: int,
    progress: Callable[[int, int], None] | None,
) -> Iterator[tuple[list[Problem], Solution | None]]:
    """:func:`_check` of every puzzle, in order, on ``jobs`` processes."""
    total = len(work)
    if jobs <= 1 or total < 2:
        results: Iterable[tuple[list[Problem], Solution | None]] = map(_check, work)
        for done, found in enumerate(results, start=1):
            if progress is not None:
                progress(done, total)
            yield found
        return
    import multiprocessing

    with multiprocessing.Pool(min(jobs, total)) as pool:
        for done, found in enumerate(pool.imap(_check, work, chunksize=2), start=1):
            if progress is not None:
                progress(done, total)
            yield found


def _check(item: tuple[Puzzle, Any]) -> tuple[list[Problem], Solution | None]:
    puzzle, entry = item
    try:
        solution = solve_puzzle(puzzle)
    except GinError as error:
        return [Problem(puzzle.path, puzzle.line, f"{puzzle.id}: {error}")], None
    problems = verify_answers(puzzle, solution)
    if solution.verdict is not None and entry is not None:
        stored = stored_verdict(puzzle, {puzzle.id: entry})
        if stored != solution.verdict:
            why = "is for another position" if stored is None else "differs from a fresh one"
            problems.append(
                Problem(
                    puzzle.path,
                    puzzle.line,
                    f"{puzzle.id}: the stored verdict {why}: run "
                    "'gintutor puzzles check --write-verdicts'",
                )
            )
    return problems, solution


def verify_answers(puzzle: Puzzle, solution: Solution | None = None) -> list[Problem]:
    """A problem unless the stated answers are exactly the engine's accepted answers."""
    try:
        solution = solution or solve_puzzle(puzzle)
        for hint in (*puzzle.hints, puzzle.explanation):
            fill_explanation(hint, solution)
    except GinError as error:
        return [Problem(puzzle.path, puzzle.line, f"{puzzle.id}: {error}")]
    accepted = sorted(solution.accepted)
    if sorted(puzzle.answers) != accepted:
        return [
            Problem(
                puzzle.path,
                puzzle.line,
                f"{puzzle.id}: answers {sorted(puzzle.answers)} but the engine accepts "
                f"{accepted} (best first: "
                f"{', '.join(f'{r.code} {r.measure:.3g}' for r in solution.rows[:4])})",
            )
        ]
    return []


def load_puzzles(folder: Any = None) -> list[Puzzle]:
    """Every shipped puzzle (read and schema-checked, not solved), sorted by id."""
    return _loaded(puzzle_files(folder))


def _loaded(files: list[tuple[str, str]]) -> list[Puzzle]:
    puzzles, problems = check_puzzles(files, solve=False)
    if problems:
        raise GinError("\n".join(str(problem) for problem in problems))
    return sorted(puzzles, key=lambda p: p.id)


# A puzzle entry starts with its id (``- id: outs-049``); the index below reads only those
# lines, so a command that needs one puzzle parses one file. A test holds it equal to the ids
# a full read finds.
_ID_LINE = re.compile(r"^\s*-\s+id:\s*[\"']?([A-Za-z0-9][A-Za-z0-9-]*)", re.MULTILINE)


def pack_index() -> dict[str, str]:
    """Every shipped puzzle id and the name of the file that holds it (no YAML parsing)."""
    root = content_dir("puzzles")
    index: dict[str, str] = {}
    for entry in root.iterdir():
        if entry.name.endswith(".yaml"):
            for match in _ID_LINE.finditer(entry.read_text(encoding="utf-8")):
                index[match.group(1)] = entry.name
    return index


def load_puzzle(puzzle_id: str, index: dict[str, str] | None = None) -> Puzzle:
    """The shipped puzzle with this id, reading only the file that holds it."""
    index = pack_index() if index is None else index
    name = index.get(puzzle_id)
    if name is None:
        raise GinError(
            f"no puzzle {puzzle_id!r} (ids look like outs-049; "
            "'gintutor puzzle --random' picks one)"
        )
    text = content_dir("puzzles").joinpath(name).read_text(encoding="utf-8")
    return find_puzzle(_loaded([(f"puzzles/{name}", text)]), puzzle_id)
