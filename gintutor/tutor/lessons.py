"""Lessons as validated frozen models: prose, hands shown, and questions the engine answers."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

from gintutor.engine.cards import Card, CardSet
from gintutor.engine.rules import RULE_SETS, RuleSet
from gintutor.errors import GinError
from gintutor.tutor.questions import Question

_PLACEHOLDER = re.compile(r"\{(?:([a-z]+)\.)?([a-z_]+)\}")


def fill_rules(text: str, rules: RuleSet) -> str:
    """Replace ``{setting}`` (the lesson's rules) and ``{preset.setting}`` with rule-set values.

    Numbers about the rules in prose come from the rule-set data this way, never typed in.

    >>> standard = RULE_SETS["standard"]
    >>> fill_rules("Gin earns {gin_bonus}; classic gives {classic.gin_bonus}.", standard)
    'Gin earns 25; classic gives 20.'
    """

    def value(match: re.Match[str]) -> str:
        preset_name, key = match.group(1), match.group(2)
        source = rules if preset_name is None else RULE_SETS.get(preset_name)
        if source is None:
            raise GinError(f"{{{match.group(0)[1:-1]}}}: no rule set called {preset_name!r}")
        if key == "name":
            return source.name
        if key not in source.settings():
            raise GinError(f"{match.group(0)}: no setting called {key!r}")
        from gintutor.text.explain import setting_text

        return setting_text(source, key)

    return _PLACEHOLDER.sub(value, text)


class Level(Enum):
    """How far along a learner should be for a lesson."""

    BEGINNER = "beginner"
    INTERMEDIATE = "intermediate"
    ADVANCED = "advanced"


class LessonError(GinError):
    """A lesson file that cannot be used; the message starts with ``file:line:``."""


@dataclass(frozen=True)
class Prose:
    """Text to read (short Markdown)."""

    text: str
    line: int = 0


@dataclass(frozen=True)
class Show:
    """A hand shown as ``gintutor analyze`` shows it (with an opponent: the showdown)."""

    hand: CardSet
    rules: RuleSet
    upcard: Card | None = None
    taken: Card | None = None
    opponent: CardSet | None = None
    caption: str | None = None
    line: int = 0


@dataclass(frozen=True)
class Ask:
    """A question step: the question, plus the content's ``expect:`` (checked, never shown)."""

    question: Question
    expect: str | None = None
    line: int = 0


Step = Prose | Show | Ask


@dataclass(frozen=True)
class Lesson:
    """One lesson: metadata and its steps in order."""

    id: str
    title: str
    level: Level
    concepts: tuple[str, ...]
    prerequisites: tuple[str, ...]
    steps: tuple[Step, ...]
    path: str
    number: int = 0
    summary: str = ""

    @property
    def questions(self) -> list[Ask]:
        """The question steps."""
        return [step for step in self.steps if isinstance(step, Ask)]


LessonRecord = Mapping[str, Any]
"""A lesson's saved progress as stored: ``status``, ``step`` (where to resume), ``steps``."""


def start_step(lesson: Lesson, record: LessonRecord | None) -> int:
    """The step a lesson starts at: where a started lesson stopped, else the first."""
    if record is None or record.get("status") != "started":
        return 0
    return min(int(record.get("step", 0)), len(lesson.steps) - 1)


def resume_point(lessons: list[Lesson], records: Mapping[str, LessonRecord],
                 current: str | None) -> tuple[Lesson, int] | None:
    """Where ``gintutor learn`` continues: the lesson in progress, else the first not done."""
    for lesson in sorted(lessons, key=lambda lesson: lesson.id != current):
        record = records.get(lesson.id)
        if record is None or record.get("status") != "done":
            return lesson, start_step(lesson, record)
    return None


def find_lesson(lessons: list[Lesson], key: str) -> Lesson:
    """The lesson with id ``key`` or number ``key``."""
    for lesson in lessons:
        if lesson.id == key or (key.isdigit() and lesson.number == int(key)):
            return lesson
    known = ", ".join(lesson.id for lesson in lessons)
    raise LessonError(f"no lesson {key!r}: choose a number from 1 to {len(lessons)} or an id "
                      f"({known})")
