"""Reading and checking puzzle YAML files; every problem as ``file:line: what is wrong``.

``gintutor puzzles check`` runs :func:`check_puzzles` with ``solve`` so that a stated answer
that drifts from the engine's is caught: ``deadwood`` exactly, the judged themes against the
stored coach verdict of exactly their position (a missing one is a problem), or against a
verdict judged afresh (``replay``, or ``judge_missing`` for positions with none stored).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import yaml

from gintutor.content import puzzlerules
from gintutor.content.packs import read_head, read_pack
from gintutor.content.packtext import ID_LINE, entry_only
from gintutor.content.paths import content_dir
from gintutor.content.problems import Problem, problems_error
from gintutor.content.textfile import read_text
from gintutor.content.verdicts import entry_of, stored_verdict
from gintutor.content.yamlread import Reader, check_keys
from gintutor.engine.cards import CardSet
from gintutor.engine.evaluate import Position, verify_position
from gintutor.engine.rules import PRESETS
from gintutor.engine.workers import Workers
from gintutor.errors import GinError, Note, Phrase
from gintutor.tutor.daily import find_puzzle
from gintutor.tutor.puzzles import (
    Puzzle,
    PuzzleKind,
    Solution,
    Theme,
    fill_explanation,
    puzzle_key,
    solve_puzzle,
    verdict_key,
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
    "kind",
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
    "opponent_discards",
    "opponent_passed",
}
REFRESH = "run 'gintutor puzzles check --write-verdicts' (it judges the positions without one)"


_Seen = tuple[CardSet, CardSet]
"""What the opponent was seen to do: (its discards, the cards it passed)."""


def _position(
    reader: Reader, node: yaml.Node
) -> tuple[Position | None, tuple[int, int] | None, _Seen]:
    items = reader.mapping(node, "position")
    check_keys(reader, items, POSITION_KEYS, Phrase("a position"))
    seen = (CardSet(0), CardSet(0))
    if "hand" not in items:
        reader.fail(node, Note("position: needs a hand"))
        return None, None, seen
    rules = reader.rules(items["rules"][1], "rules") if "rules" in items else PRESETS["standard"]
    hand = reader.cards(items["hand"][1], "hand")
    cards: dict[str, Any] = {}
    for key in ("dead", "opponent_known", "opponent_discards", "opponent_passed"):
        if key in items:
            cards[key] = reader.cards(items[key][1], key)
    for key in ("upcard", "took_from_discard", "first_upcard"):
        if key in items:
            cards[key] = reader.card(items[key][1], key)
    stock = None
    if "stock_size" in items:
        stock = reader.scalar(items["stock_size"][1])
        if not isinstance(stock, int) or isinstance(stock, bool) or stock < 0:
            reader.fail(items["stock_size"][1], Note("stock_size: expected a whole number >= 0"))
            stock = None
    score = None
    if "score" in items:
        raw = reader.scalar(items["score"][1])
        if isinstance(raw, list) and len(raw) == 2 and all(isinstance(v, int) for v in raw):
            score = (raw[0], raw[1])
        else:
            reader.fail(items["score"][1], Note("score: expected [mine, theirs], e.g. [40, 65]"))
    if hand is None or rules is None or any(v is None for v in cards.values()):
        return None, score, seen
    seen = (cards.pop("opponent_discards", CardSet(0)), cards.pop("opponent_passed", CardSet(0)))
    position = Position(hand, rules, stock_size=stock, **cards)
    try:
        verify_position(position)
        position.knock_limit  # noqa: B018 - Oklahoma needs first_upcard
        _verify_seen(position, seen)
    except GinError as error:
        reader.fail(node, Note("position: {error}", error=error))
        return None, score, seen
    return position, score, seen


def _verify_seen(position: Position, seen: _Seen) -> None:
    """The opponent's discards and passes were on the pile: now dead, in my hand, offered, or
    taken back by the opponent later."""
    public = position.dead.mask | position.hand.mask | position.opponent_known.mask
    if position.upcard is not None:
        public |= position.upcard.mask
    for name, cards in zip(("opponent_discards", "opponent_passed"), seen, strict=True):
        stray = cards.mask & ~public
        if stray:
            code = next(iter(CardSet(stray))).code
            raise GinError(
                "{name}: {card} is not dead, in a hand or the upcard", name=name, card=code
            )


_Word = TypeVar("_Word", Theme, PuzzleKind)


def _word(
    reader: Reader, items: dict[str, tuple[yaml.Node, yaml.Node]], key: str, words: type[_Word]
) -> _Word | None:
    """The enum member ``items[key]`` names (``None``, with a problem, if it names none)."""
    try:
        return words(reader.scalar(items[key][1]))
    except ValueError:
        reader.fail(
            items[key][1],
            Note("{key}: use one of {words}", key=key, words=", ".join(w.value for w in words)),
        )
        return None


def _puzzle(reader: Reader, node: yaml.Node) -> Puzzle | None:
    before = len(reader.problems)
    head = read_head(reader, node, PUZZLE_KEYS)
    if head is None:
        return None
    items = head.items
    theme = _word(reader, items, "theme", Theme)
    kind = _word(reader, items, "kind", PuzzleKind) if "kind" in items else PuzzleKind.DAILY
    if theme is None or kind is None:
        return None
    position, score, seen = _position(reader, items["position"][1])
    if position is not None:
        want = 10 if theme is Theme.UPCARD else 11
        if len(position.hand) != want:
            reader.fail(
                items["position"][1],
                Note(
                    "position: a {theme} puzzle has {want} cards in hand",
                    theme=theme.value,
                    want=want,
                ),
            )
        if (theme is Theme.UPCARD) != (position.upcard is not None):
            reader.fail(
                items["position"][1],
                Note("position: an upcard puzzle (and only one) gives the upcard offered"),
            )
    if len(reader.problems) > before or position is None:
        return None
    return Puzzle(
        head.id,
        head.title,
        theme,
        head.difficulty,
        position,
        head.question,
        tuple(a.upper() if len(a) <= 3 else a.lower() for a in head.answers),
        head.hints,
        head.explanation,
        reader.path,
        node.start_mark.line + 1,
        score,
        opponent_discards=seen[0],
        opponent_passed=seen[1],
        kind=kind,
    )


def read_puzzles(text: str, path: str) -> tuple[list[Puzzle], list[Problem]]:
    """The puzzles of one YAML file (a list under ``puzzles:``) and the problems found."""
    return read_pack(text, path, _puzzle)


def puzzle_files(folder: str | Path | None = None) -> list[tuple[str, str]]:
    """``(path, text)`` of every puzzle YAML file, in file-name order."""
    if folder is not None:
        paths = sorted(Path(folder).glob("*.yaml"))

        return [(str(path), read_text(path, Phrase("the puzzles"))) for path in paths]
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
    replay: bool = False,
    judge_missing: bool = False,
    baseline: dict[str, list[str]] | None = None,
    violations: list[Any] | None = None,
    whole_pack: bool = False,
) -> tuple[list[Puzzle], list[Problem]]:
    """Load puzzles and check them: schema, legal positions, unique ids and positions, and
    (with ``solve``) that the stated answers are exactly the engine's accepted answers.

    A judged puzzle is graded by its stored verdict (``stored``, by key; see
    :mod:`gintutor.content.verdicts`); one with no stored verdict is a problem, unless
    ``judge_missing`` (then it is judged now). ``replay`` judges every one afresh and reports a
    stored verdict that differs. ``stored=None``: nothing is stored, every verdict is judged.
    Solving is per puzzle, so ``jobs`` processes share it; ``progress(done, total)`` is called
    as puzzles are solved; ``solutions`` collects every solution. The problems come in file
    order whatever ``jobs`` is.

    With ``solve``, the rules of :mod:`gintutor.content.puzzlerules` (facts in words, titles,
    histories) are checked too: ``violations`` collects every violation; those ``baseline`` lists
    are known and not reported, and a baseline entry that no longer fires is (``whole_pack``:
    an entry whose puzzle is not in the files too).
    """
    files = list(files)
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
                    Note(
                        "id {id!r} is also used at {path}:{line}",
                        id=puzzle.id,
                        path=other.path,
                        line=other.line,
                    ),
                )
            )
        ids[puzzle.id] = puzzle
        key = puzzle_key(puzzle)
        if key in positions:
            other = positions[key]
            problems.append(
                Problem(
                    puzzle.path,
                    puzzle.line,
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
        work = [_task(puzzle, stored, replay, judge_missing) for puzzle in puzzles]
        # The judging is the long work: it goes first so that the processes finish together.
        order = sorted(range(len(work)), key=lambda i: work[i][1] != "judge")
        results: dict[int, tuple[list[Problem], Solution | None]] = {}
        tasks = [(i, work[i]) for i in order]
        for done, (index, result) in enumerate(_solved(tasks, jobs), start=1):
            results[index] = result
            if progress is not None:
                progress(done, len(work))
        solved: dict[str, Solution] = {}
        for index in range(len(work)):
            checked, solution = results[index]
            problems += checked
            if solution is not None:
                solved[puzzles[index].id] = solution
                if solutions is not None:
                    solutions.append(solution)
        problems += _rule_problems(puzzles, solved, files, baseline, violations, whole_pack)
    return puzzles, problems


def _rule_problems(
    puzzles: list[Puzzle],
    solved: dict[str, Solution],
    files: Iterable[tuple[str, str]],
    baseline: dict[str, list[str]] | None,
    found: list[Any] | None,
    whole_pack: bool,
) -> list[Problem]:
    """The puzzle rules' problems (:mod:`gintutor.content.puzzlerules`), baseline applied."""
    every = [v for p in puzzles for v in puzzlerules.violations(p, solved.get(p.id))]
    every += puzzlerules.near_duplicates(puzzles) + puzzlerules.shared_hints(puzzles)
    if found is not None:
        found += every
    unsolved = frozenset(p.id for p in puzzles if p.id not in solved)
    new, stale = puzzlerules.apply_baseline(every, baseline or {}, puzzles, whole_pack, unsolved)
    return puzzlerules.rule_problems(new, stale, dict(files))


_Task = tuple[Puzzle, str, Any]
"""A puzzle, how to grade it (``exact``, ``stored``, ``judge``, ``missing``) and the stored
verdict entry (when one is to be compared or used)."""


def _task(puzzle: Puzzle, stored: dict[str, Any] | None, replay: bool, missing: bool) -> _Task:
    if not puzzle.theme.judged:
        return puzzle, "exact", None
    entry = None if stored is None else stored.get(verdict_key(puzzle))
    if replay or stored is None:
        return puzzle, "judge", entry
    if entry is not None:
        return puzzle, "stored", entry
    return puzzle, "judge" if missing else "missing", None


def _solved(
    work: list[tuple[int, _Task]], jobs: int
) -> Iterator[tuple[int, tuple[list[Problem], Solution | None]]]:
    """:func:`_check` of every task, as they finish, on ``jobs`` processes."""
    if jobs <= 1 or len(work) < 2:
        yield from map(_check, work)
        return

    with Workers(min(jobs, len(work))) as workers:
        yield from workers.imap_unordered(_check, work)


def _check(item: tuple[int, _Task]) -> tuple[int, tuple[list[Problem], Solution | None]]:
    index, (puzzle, how, entry) = item
    if how == "missing":
        return index, (
            [
                Problem(
                    puzzle.path,
                    puzzle.line,
                    Note(
                        "{id}: no stored verdict for this position: {refresh}",
                        id=puzzle.id,
                        refresh=REFRESH,
                    ),
                )
            ],
            None,
        )
    try:
        known = None
        if how == "stored":
            known = stored_verdict(puzzle, {verdict_key(puzzle): entry})
            if known is None:
                problem = Note(
                    "{id}: the stored verdict is unreadable: {refresh}",
                    id=puzzle.id,
                    refresh=REFRESH,
                )
                return index, ([Problem(puzzle.path, puzzle.line, problem)], None)
        solution = solve_puzzle(puzzle, known)  # judged afresh when nothing is known
    except GinError as error:
        return index, (
            [Problem(puzzle.path, puzzle.line, Note("{id}: {error}", id=puzzle.id, error=error))],
            None,
        )
    problems = verify_answers(puzzle, solution)
    if how == "judge" and entry is not None and _differs(solution, entry):
        problems.append(
            Problem(
                puzzle.path,
                puzzle.line,
                Note(
                    "{id}: the stored verdict differs from a fresh one: {refresh}",
                    id=puzzle.id,
                    # A command, kept out of the catalog as REFRESH is (the glossary check
                    # would take 'run' for the game's run).
                    refresh="run 'gintutor puzzles check --replay --write-verdicts'",
                ),
            )
        )
    return index, (problems, solution)


def _differs(solution: Solution, entry: dict[str, Any]) -> bool:
    """True when the fresh verdict is not the stored one (the time taken aside)."""
    if solution.verdict is None:
        return False
    fresh = json.loads(json.dumps(entry_of(solution.verdict)))
    return _comparable(fresh) != _comparable(entry)


def _comparable(entry: dict[str, Any]) -> dict[str, Any]:
    """A stored entry without what may differ between two equal verdicts (the time taken)."""
    return {k: v for k, v in entry.items() if k not in ("id", "seconds")}


def verify_answers(puzzle: Puzzle, solution: Solution | None = None) -> list[Problem]:
    """A problem unless the stated answers are exactly the engine's accepted answers."""
    try:
        solution = solution or solve_puzzle(puzzle)
        for hint in (*puzzle.hints, puzzle.explanation):
            fill_explanation(hint, solution)
    except GinError as error:
        return [Problem(puzzle.path, puzzle.line, Note("{id}: {error}", id=puzzle.id, error=error))]
    accepted = sorted(solution.accepted)
    if sorted(puzzle.answers) != accepted:
        return [
            Problem(
                puzzle.path,
                puzzle.line,
                Note(
                    "{id}: answers {answers} but the engine accepts {accepted} (best first: "
                    "{best})",
                    id=puzzle.id,
                    answers=sorted(puzzle.answers),
                    accepted=accepted,
                    best=", ".join(f"{r.code} {r.measure:.3g}" for r in solution.rows[:4]),
                ),
            )
        ]
    return []


def load_puzzles(folder: str | Path | None = None) -> list[Puzzle]:
    """Every shipped puzzle (read and schema-checked, not solved), sorted by id."""
    return _loaded(puzzle_files(folder))


def _loaded(files: list[tuple[str, str]]) -> list[Puzzle]:
    puzzles, problems = check_puzzles(files, solve=False)
    if problems:
        raise problems_error(problems)
    return sorted(puzzles, key=lambda p: p.id)


def pack_index() -> dict[str, str]:
    """Every shipped puzzle id and the name of the file that holds it (no YAML parsing)."""
    root = content_dir("puzzles")
    index: dict[str, str] = {}
    for entry in root.iterdir():
        if entry.name.endswith(".yaml"):
            for match in ID_LINE.finditer(entry.read_text(encoding="utf-8")):
                index[match.group(1)] = entry.name
    return index


CLOSE_CALL_LINE = re.compile(r"^\s+kind:\s*[\"']?close-call", re.MULTILINE)


def close_call_ids() -> frozenset[str]:
    """The shipped puzzles labelled ``kind: close-call`` (never the daily), read without YAML:
    the entry of each id runs to the next id."""
    found: set[str] = set()
    root = content_dir("puzzles")
    for entry in root.iterdir():
        if entry.name.endswith(".yaml"):
            text = entry.read_text(encoding="utf-8")
            matches = list(ID_LINE.finditer(text))
            for match, after in zip(matches, [*matches[1:], None], strict=True):
                end = after.start() if after is not None else len(text)
                if CLOSE_CALL_LINE.search(text, match.end(), end):
                    found.add(match.group(1))
    return frozenset(found)


def load_puzzle(puzzle_id: str, index: dict[str, str] | None = None) -> Puzzle:
    """The shipped puzzle with this id, reading only the file that holds it."""
    index = pack_index() if index is None else index
    name = index.get(puzzle_id)
    if name is None:
        raise GinError(
            "no puzzle {puzzle_id!r} (ids look like outs-049; 'gintutor puzzle --random' "
            "picks one)",
            puzzle_id=puzzle_id,
        )
    text = content_dir("puzzles").joinpath(name).read_text(encoding="utf-8")
    path = f"puzzles/{name}"
    entry = entry_only(text, puzzle_id)
    if entry is not None:
        found, problems = read_puzzles(entry, path)
        if not problems and len(found) == 1 and found[0].id == puzzle_id:
            return found[0]
    return find_puzzle(_loaded([(path, text)]), puzzle_id)
