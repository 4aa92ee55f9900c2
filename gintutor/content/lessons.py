"""Lessons: YAML files turned into validated frozen models (format in ``lessons/README.md``).

Every problem is reported as ``file:line: what is wrong`` so an author can fix it; questions
carry no answers of their own: the engine answers them, and an optional ``expect:`` must agree.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import yaml

from gintutor.content.paths import content_dir
from gintutor.content.yamlread import Problem, Reader, check_keys, compose
from gintutor.engine.rules import PRESETS, RuleSet
from gintutor.errors import GinError
from gintutor.tutor.lessons import Ask, Lesson, LessonError, Level, Prose, Show, Step, fill_rules
from gintutor.tutor.questions import (
    GameAsk,
    Predicate,
    Question,
    QuestionKind,
    same_answer,
    solve_question,
    verify_question,
)

_ID = re.compile(r"^[a-z0-9][a-z0-9-]*$")
_LESSON_KEYS = {"id", "title", "level", "concepts", "prerequisites", "rules", "summary", "steps"}
_QUESTION_KEYS = {
    "question", "prompt", "hand", "rules", "upcard", "taken", "defender", "options",
    "predicate", "opponent_known", "setting", "entries", "players", "want", "game", "hints",
    "expect", "explain",
}
_SHOW_KEYS = {"hand", "rules", "upcard", "taken", "opponent", "caption"}
_NEEDS: dict[QuestionKind, tuple[str, ...]] = {
    QuestionKind.DEADWOOD: ("hand",),
    QuestionKind.MELDS: ("hand",),
    QuestionKind.KNOCK: ("hand",),
    QuestionKind.DISCARD: ("hand",),
    QuestionKind.LAYOFFS: ("hand", "defender"),
    QuestionKind.POINTS: ("hand", "defender"),
    QuestionKind.CHOICE: ("options", "predicate"),
    QuestionKind.RULE: ("setting",),
    QuestionKind.GAME: ("entries", "want"),
}


def _show(reader: Reader, node: yaml.Node, rules: RuleSet) -> Show | None:
    items = reader.mapping(node, "show")
    check_keys(reader, items, _SHOW_KEYS, "a show step")
    if "hand" not in items:
        reader.fail(node, "show: needs a hand")
        return None
    hand = reader.cards(items["hand"][1], "hand")
    step_rules = reader.rules(items["rules"][1], "rules") if "rules" in items else rules
    upcard = reader.card(items["upcard"][1], "upcard") if "upcard" in items else None
    taken = reader.card(items["taken"][1], "taken") if "taken" in items else None
    opponent = reader.cards(items["opponent"][1], "opponent") if "opponent" in items else None
    caption = reader.text(items["caption"][1], "caption") if "caption" in items else None
    if hand is None or step_rules is None:
        return None
    show = Show(hand, step_rules, upcard, taken, opponent, caption, node.start_mark.line + 1)
    try:
        from gintutor.engine.analysis import analyze

        analyze(hand, step_rules, upcard=upcard, taken_from_discard=taken, opponent=opponent)
    except GinError as error:
        reader.fail(node, f"show: {error}")
        return None
    return show


def _question(reader: Reader, node: yaml.Node, rules: RuleSet) -> Ask | None:
    items = reader.mapping(node, "question")
    check_keys(reader, items, _QUESTION_KEYS, "a question")
    kind_node = items["question"][1]
    try:
        kind = QuestionKind(reader.scalar(kind_node))
    except ValueError:
        kinds = ", ".join(k.value for k in QuestionKind)
        reader.fail(kind_node, f"question: unknown kind {reader.scalar(kind_node)!r} (use {kinds})")
        return None
    before = len(reader.problems)
    for need in _NEEDS[kind]:
        if need not in items:
            reader.fail(node, f"a {kind.value} question needs {need}:")
    prompt = reader.text(items["prompt"][1], "prompt") if "prompt" in items else None
    if prompt is None and "prompt" not in items:
        reader.fail(node, "a question needs a prompt:")
    fields: dict[str, Any] = {}
    if "rules" in items:
        fields["rules"] = reader.rules(items["rules"][1], "rules")
    for key in ("hand", "defender", "opponent_known"):
        if key in items:
            fields[key] = reader.cards(items[key][1], key)
    for key in ("upcard", "taken"):
        if key in items:
            fields[key] = reader.card(items[key][1], key)
    for key in ("options", "entries", "hints"):
        if key in items:
            fields[key] = reader.strings(items[key][1], key)
    question_rules = fields.get("rules") or rules
    try:
        if "hints" in fields:
            fields["hints"] = tuple(fill_rules(hint, question_rules) for hint in fields["hints"])
        if "explain" in items:
            text = reader.text(items["explain"][1], "explain")
            fields["explanation"] = fill_rules(text, question_rules) if text else None
        if "prompt" in items and prompt is not None:
            prompt = fill_rules(prompt, question_rules)
    except GinError as error:
        reader.fail(node, str(error))
    if "players" in items:
        players = reader.strings(items["players"][1], "players")
        if len(players) == 2:
            fields["players"] = players
        else:
            reader.fail(items["players"][1], "players: expected two names")
    if "setting" in items:
        fields["setting"] = reader.text(items["setting"][1], "setting")
    for key, enum, target in (("predicate", Predicate, "predicate"), ("want", GameAsk, "ask")):
        if key in items:
            value = reader.scalar(items[key][1])
            try:
                fields[target] = enum(value)
            except ValueError:
                choices = ", ".join(str(member.value) for member in enum)
                reader.fail(items[key][1], f"{key}: unknown value {value!r} (use {choices})")
    if "game" in items:
        number = reader.scalar(items["game"][1])
        if number in (1, 2, 3):
            fields["game"] = number
        else:
            reader.fail(items["game"][1], "game: expected 1, 2 or 3 (a Hollywood game)")
    if len(reader.problems) > before or prompt is None:
        return None
    question_rules = fields.pop("rules", None) or rules
    question = Question(kind, prompt, question_rules,
                        **{k: v for k, v in fields.items() if v is not None})
    try:
        verify_question(question)
    except GinError as error:
        reader.fail(node, f"the engine cannot answer this question: {error}")
        return None
    expect = None
    if "expect" in items:
        expect = _expect_text(reader.scalar(items["expect"][1]))
        if not same_answer(question, expect):
            answer = solve_question(question).answer
            reader.fail(items["expect"][1],
                        f"expect: {expect!r} but the engine's answer is {answer!r}: fix expect")
    return Ask(question, expect, node.start_mark.line + 1)


def _expect_text(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return " ".join(str(item) for item in value)
    return str(value)


def _steps(reader: Reader, node: yaml.Node, rules: RuleSet) -> Iterator[Step]:
    if not isinstance(node, yaml.SequenceNode) or not node.value:
        reader.fail(node, "steps: expected a list of steps (prose, show or question)")
        return
    for step_node in node.value:
        items = reader.mapping(step_node, "a step")
        if "prose" in items and len(items) == 1:
            text = reader.text(items["prose"][1], "prose")
            if text is not None:
                try:
                    yield Prose(fill_rules(text.strip(), rules), step_node.start_mark.line + 1)
                except GinError as error:
                    reader.fail(items["prose"][1], f"prose: {error}")
        elif "show" in items and len(items) == 1:
            show = _show(reader, items["show"][1], rules)
            if show is not None:
                yield show
        elif "question" in items:
            ask = _question(reader, step_node, rules)
            if ask is not None:
                yield ask
        elif items:
            reader.fail(step_node, f"unknown step kind {', '.join(items)}: a step is "
                                   "'prose: ...', 'show: ...' or 'question: KIND' with its keys")


def read_lesson(text: str, path: str) -> tuple[Lesson | None, list[Problem]]:
    """A lesson from YAML text, and the problems found (the lesson is ``None`` if any)."""
    reader = Reader(path)
    root, problems = compose(path, text)
    if problems:
        return None, problems
    if root is None:
        return None, [Problem(path, 1, "the file is empty: a lesson needs id, title and steps")]
    items = reader.mapping(root, "a lesson")
    check_keys(reader, items, _LESSON_KEYS, "a lesson")
    for key in ("id", "title", "level", "steps"):
        if key not in items:
            reader.fail(root, f"a lesson needs {key}:")
    lesson_id = reader.text(items["id"][1], "id") if "id" in items else None
    if lesson_id is not None and not _ID.match(lesson_id):
        reader.fail(items["id"][1], f"id: {lesson_id!r}: use lowercase letters, digits and -")
    title = reader.text(items["title"][1], "title") if "title" in items else None
    level = None
    if "level" in items:
        try:
            level = Level(reader.scalar(items["level"][1]))
        except ValueError:
            reader.fail(items["level"][1], "level: use beginner, intermediate or advanced")
    concepts = reader.strings(items["concepts"][1], "concepts") if "concepts" in items else ()
    prerequisites = (
        reader.strings(items["prerequisites"][1], "prerequisites") if "prerequisites" in items
        else ()
    )
    summary = reader.text(items["summary"][1], "summary") if "summary" in items else ""
    rules = PRESETS["standard"]
    if "rules" in items:
        rules = reader.rules(items["rules"][1], "rules") or rules
    steps = tuple(_steps(reader, items["steps"][1], rules)) if "steps" in items else ()
    if reader.problems or lesson_id is None or title is None or level is None:
        return None, reader.problems
    lesson = Lesson(lesson_id, title, level, concepts, prerequisites, steps, path,
                    summary=summary or "")
    return lesson, []


def lesson_files(folder: Path | None = None) -> list[tuple[str, str]]:
    """``(path, text)`` of every lesson YAML file, in file-name order."""
    if folder is not None:
        return [(str(p), p.read_text(encoding="utf-8")) for p in sorted(folder.glob("*.yaml"))]
    root = content_dir("lessons")
    files = sorted((entry for entry in root.iterdir() if entry.name.endswith(".yaml")),
                   key=lambda entry: entry.name)
    return [(f"lessons/{entry.name}", entry.read_text(encoding="utf-8")) for entry in files]


def check_lessons(files: Iterable[tuple[str, str]]) -> tuple[list[Lesson], list[Problem]]:
    """Load every lesson; report every problem, including ids and prerequisites across files."""
    lessons: list[Lesson] = []
    problems: list[Problem] = []
    for path, text in files:
        lesson, found = read_lesson(text, path)
        problems += found
        if lesson is not None:
            lessons.append(lesson)
    seen: dict[str, Lesson] = {}
    for lesson in lessons:
        if lesson.id in seen:
            problems.append(Problem(lesson.path, 1,
                                    f"id {lesson.id!r} is also used by {seen[lesson.id].path}"))
        seen[lesson.id] = lesson
    for lesson in lessons:
        for needed in lesson.prerequisites:
            if needed not in seen:
                problems.append(Problem(lesson.path, 1,
                                        f"prerequisites: no lesson has id {needed!r}"))
    numbered = [replace(lesson, number=n) for n, lesson in enumerate(lessons, start=1)]
    return numbered, problems


def load_lessons(folder: Path | None = None) -> list[Lesson]:
    """Every shipped lesson (or those in ``folder``), numbered from 1; LessonError if any is bad."""
    lessons, problems = check_lessons(lesson_files(folder))
    if problems:
        raise LessonError("\n".join(str(problem) for problem in problems))
    return lessons
