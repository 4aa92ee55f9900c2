"""What every puzzle pack shares, whatever its game: the file (a list under ``puzzles:``) and
the fields of a puzzle that are not about its position (id, title, question, difficulty,
answers, hints, explanation), read and checked in one place."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

import yaml

from gintutor.content.problems import Problem
from gintutor.content.yamlread import Reader, check_keys, compose
from gintutor.errors import Note, Phrase

T = TypeVar("T")

REQUIRED = ("id", "title", "theme", "difficulty", "position", "question", "answers")
"""The keys every puzzle has."""


def read_pack(
    text: str, path: str, read_one: Callable[[Reader, yaml.Node], T | None]
) -> tuple[list[T], list[Problem]]:
    """The puzzles of one pack file, each read by ``read_one``, and the problems found, in
    line order."""
    root, problems = compose(path, text)
    if problems:
        return [], problems
    if root is None:
        return [], [Problem(path, 1, Note("the file is empty: it needs 'puzzles:' and a list"))]
    reader = Reader(path)
    items = reader.mapping(root, Phrase("a puzzle file"))
    check_keys(reader, items, {"puzzles"}, Phrase("a puzzle file"))
    if "puzzles" not in items or not isinstance(items["puzzles"][1], yaml.SequenceNode):
        reader.fail(root, Note("a puzzle file needs 'puzzles:' with a list of puzzles"))
        return [], reader.problems
    found = [p for node in items["puzzles"][1].value if (p := read_one(reader, node)) is not None]
    return found, sorted(reader.problems, key=lambda problem: problem.line)


@dataclass(frozen=True)
class Head:
    """A puzzle's fields apart from its theme and position; ``items`` are all its keys."""

    items: dict[str, tuple[yaml.Node, yaml.Node]]
    id: str
    title: str
    question: str
    difficulty: int
    answers: tuple[str, ...]
    hints: tuple[str, ...]
    explanation: str


def read_head(reader: Reader, node: yaml.Node, keys: set[str]) -> Head | None:
    """The common fields of the puzzle at ``node`` (``keys``: every key it may have);
    ``None`` when a key is missing or unknown (the problems are on ``reader``)."""
    items = reader.mapping(node, Phrase("a puzzle"))
    before = len(reader.problems)
    check_keys(reader, items, keys, Phrase("a puzzle"))
    for key in REQUIRED:
        if key not in items:
            reader.fail(node, Note("a puzzle needs {key}:", key=key))
    if len(reader.problems) > before:
        return None
    puzzle_id = reader.text(items["id"][1], "id")
    title = reader.text(items["title"][1], "title")
    question = reader.text(items["question"][1], "question")
    difficulty = reader.scalar(items["difficulty"][1])
    if isinstance(difficulty, bool) or difficulty not in (1, 2, 3, 4, 5):
        reader.fail(items["difficulty"][1], Note("difficulty: expected 1 to 5"))
        difficulty = 1
    answers = reader.strings(items["answers"][1], "answers")
    hints = reader.strings(items["hints"][1], "hints") if "hints" in items else ()
    explanation = ""
    if "explanation" in items:
        explanation = reader.text(items["explanation"][1], "explanation") or ""
    return Head(
        items,
        puzzle_id or "",
        title or "",
        question or "",
        int(difficulty),
        tuple(answers),
        tuple(hints),
        explanation.strip(),
    )
