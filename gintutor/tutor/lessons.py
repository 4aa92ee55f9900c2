"""Lessons as validated frozen models: prose, hands shown, and questions the engine answers."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Any, TypeVar

from gintutor.engine.rules import RULE_SETS
from gintutor.errors import GinError
from gintutor.text.rules import setting_text

if TYPE_CHECKING:
    from gintutor.engine.cards import Card, CardSet
    from gintutor.engine.carousel.cards import Hand, Table
    from gintutor.engine.carousel.rules import CarouselRules
    from gintutor.engine.rules import RuleSet
    from gintutor.tutor.questions import Question

_PLACEHOLDER = re.compile(r"\{(?:([a-z]+)\.)?([a-z_]+)\}")


def fill_rules(text: str, rules: RuleSet) -> str:
    """Replace ``{setting}`` (the lesson's rules) and ``{preset.setting}`` with rule-set values.

    Numbers about the rules in prose come from the rule-set data this way, never typed in.

    >>> from gintutor.engine.rules import RULE_SETS
    >>> standard = RULE_SETS["standard"]
    >>> fill_rules("Gin earns {gin_bonus}; classic gives {classic.gin_bonus}.", standard)
    'Gin earns 25; classic gives 20.'
    """

    def value(match: re.Match[str]) -> str:
        preset_name, key = match.group(1), match.group(2)
        source = rules if preset_name is None else RULE_SETS.get(preset_name)
        if source is None:
            raise GinError(
                "{placeholder}: no rule set called {name!r}",
                placeholder="{" + match.group(0)[1:-1] + "}",
                name=preset_name,
            )
        if key == "name":
            return source.name
        if key not in source.settings():
            raise GinError(
                "{placeholder}: no setting called {key!r}", placeholder=match.group(0), key=key
            )

        return setting_text(source, key)

    return _PLACEHOLDER.sub(value, text)


_CAROUSEL_SETTINGS = (
    "hand_size",
    "draws_per_turn",
    "knock_limit",
    "undercut_bonus",
    "going_out_bonus",
    "game_target",
    "game_bonus",
    "round_bonus",
)


def fill_carousel_rules(text: str, rules: CarouselRules) -> str:
    """Replace ``{setting}`` with a Carousel rule setting (a Carousel lesson's placeholders).

    >>> from gintutor.engine.carousel.rules import STANDARD
    >>> fill_carousel_rules("Knock with {knock_limit} or fewer; +{undercut_bonus}.", STANDARD)
    'Knock with 5 or fewer; +10.'
    """

    def value(match: re.Match[str]) -> str:
        key = match.group(2)
        if match.group(1) is not None or key not in _CAROUSEL_SETTINGS:
            known = ", ".join(_CAROUSEL_SETTINGS)
            raise GinError(
                "{placeholder}: not a Carousel setting (use {known})",
                placeholder=match.group(0),
                known=known,
            )
        return str(getattr(rules, key))

    return _PLACEHOLDER.sub(value, text)


class Game(Enum):
    """The game a lesson is about (``game:`` in a lesson file, gin by default)."""

    GIN = "gin"
    CAROUSEL = "carousel"


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
class CarouselShow:
    """A Carousel table and hand shown with the best play, as ``gintutor carousel analyze``."""

    table: Table
    hand: Hand
    players: int = 3
    first_meld: bool = False
    caption: str | None = None
    line: int = 0


@dataclass(frozen=True)
class Ask:
    """A question step: the question, plus the content's ``expect:`` (checked, never shown)."""

    question: Question
    expect: str | None = None
    line: int = 0


Step = Prose | Show | CarouselShow | Ask


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
    game: Game = Game.GIN

    @property
    def questions(self) -> list[Ask]:
        """The question steps."""
        return [step for step in self.steps if isinstance(step, Ask)]

    @property
    def step_count(self) -> int:
        """How many steps the lesson has."""
        return len(self.steps)

    @property
    def question_steps(self) -> tuple[int, ...]:
        """The indexes of the question steps, in order."""
        return tuple(index for index, step in enumerate(self.steps) if isinstance(step, Ask))

    @property
    def outline(self) -> LessonOutline:
        """The lesson's outline (which loads back this lesson)."""
        return LessonOutline(
            self.id,
            self.title,
            self.level,
            self.concepts,
            self.prerequisites,
            self.path,
            self.step_count,
            self.question_steps,
            self.number,
            self.summary,
            self.game,
            lambda: self,
        )


@dataclass(frozen=True)
class LessonOutline:
    """What a list of lessons and a learner's standing need, without the steps themselves:
    the lesson's metadata, how many steps it has and which are questions.

    Equal to :attr:`Lesson.outline` of the lesson it outlines; :meth:`lesson` reads that
    lesson in full, so only the lesson being run pays for its hands and questions.
    """

    id: str
    title: str
    level: Level
    concepts: tuple[str, ...]
    prerequisites: tuple[str, ...]
    path: str
    step_count: int
    question_steps: tuple[int, ...]
    number: int = 0
    summary: str = ""
    game: Game = Game.GIN
    load: Callable[[], Lesson] | None = field(default=None, compare=False, repr=False)

    def lesson(self) -> Lesson:
        """The full lesson this outlines (LessonError if it cannot be read)."""
        if self.load is None:
            raise LessonError("{path}: lesson {id!r} has no reader", path=self.path, id=self.id)
        return self.load()


AnyLesson = TypeVar("AnyLesson", bound="Lesson | LessonOutline")
"""A lesson read in full or only outlined: standing and order need no more than the outline."""


def full_lesson(lesson: Lesson | LessonOutline) -> Lesson:
    """``lesson`` itself if read in full, else the lesson its outline reads."""
    return lesson if isinstance(lesson, Lesson) else lesson.lesson()


LessonRecord = Mapping[str, Any]
"""A lesson's saved progress as stored (JSON): ``status`` (``new``, ``started``, or ``done``
once played to the end), ``passed``, ``step`` (where to resume) and ``steps`` (a
:meth:`QuestionResult.record` by step index)."""


@dataclass(frozen=True)
class QuestionResult:
    """How a question went: answered right (first time?), tries, hints used, or skipped.

    ``correct`` is false when the answer was revealed (the last hint) or the question skipped.
    """

    correct: bool
    first_try: bool
    tries: int
    hints: int
    skipped: bool = False

    def record(self) -> dict[str, Any]:
        """The result as stored in a lesson record."""
        return {
            "correct": self.correct,
            "first_try": self.first_try,
            "tries": self.tries,
            "hints": self.hints,
            "skipped": self.skipped,
        }


class LessonStatus(Enum):
    """Where a learner stands in a lesson."""

    NEW = "new"
    """Never started."""
    STARTED = "started"
    """Left before the end: ``gintutor learn`` resumes it."""
    NOT_PASSED = "not-passed"
    """Played to the end with a question skipped or its answer revealed."""
    DONE = "done"
    """Passed: every question answered right by the learner, at some time."""

    @property
    def text(self) -> str:
        """The status in words."""
        return self.value.replace("-", " ")


@dataclass(frozen=True)
class Standing:
    """A learner's standing in one lesson: its status and score, from the lesson record.

    The score is the questions answered right first time (no wrong try, no hint) out of all;
    a lesson is passed when every question is answered right, hints allowed, none skipped or
    revealed; once passed it stays done (a replay is practice).
    """

    status: LessonStatus
    right_first_time: int
    answered: int
    """Questions answered right, first time or not."""
    questions: int
    step: int
    """The step to start at: where a started lesson stopped, else the first."""
    question: int
    """The question (from 1) a started lesson resumes at."""


def _results(lesson: Lesson | LessonOutline, record: LessonRecord) -> list[Mapping[str, Any]]:
    steps = record.get("steps")
    steps = steps if isinstance(steps, Mapping) else {}
    found = (steps.get(str(index)) for index in lesson.question_steps)
    return [result if isinstance(result, Mapping) else {} for result in found]


def is_passed(lesson: Lesson | LessonOutline, record: LessonRecord) -> bool:
    """True when every question of the lesson has been answered right (see :class:`Standing`)."""
    return all(result.get("correct") is True for result in _results(lesson, record))


def standing(lesson: Lesson | LessonOutline, record: LessonRecord | None) -> Standing:
    """The learner's status and score in ``lesson`` from its saved record."""
    record = record or {}
    results = _results(lesson, record)
    first = sum(1 for result in results if result.get("first_try") is True)
    answered = sum(1 for result in results if result.get("correct") is True)
    stored = record.get("status")
    step = record.get("step", 0)
    step = min(step, lesson.step_count - 1) if isinstance(step, int) and step > 0 else 0
    # Stored "done" means played to the end; "passed" says whether that passed (a record
    # from before "passed" was kept is judged by its answers).
    passed = record.get("passed")
    if passed is True:
        status = LessonStatus.DONE
    elif stored == "started":
        status = LessonStatus.STARTED
    elif stored == "done":
        judged = is_passed(lesson, record) if passed is None else False
        status = LessonStatus.DONE if judged else LessonStatus.NOT_PASSED
    else:
        status = LessonStatus.NEW
    if status is not LessonStatus.STARTED:
        step = 0
    question = 1 + sum(1 for index in lesson.question_steps if index < step)
    return Standing(status, first, answered, len(results), step, question)


def resume_point(
    lessons: Sequence[AnyLesson], records: Mapping[str, LessonRecord], current: str | None
) -> tuple[AnyLesson, int] | None:
    """Where ``gintutor learn`` continues: the current lesson (in progress, or the one
    suggested next) unless done, else the first lesson not done, in order."""
    for lesson in sorted(lessons, key=lambda lesson: lesson.id != current):
        found = standing(lesson, records.get(lesson.id))
        if found.status is not LessonStatus.DONE:
            return lesson, found.step
    return None


def next_lesson(
    lessons: Sequence[AnyLesson], after: AnyLesson, records: Mapping[str, LessonRecord]
) -> AnyLesson | None:
    """The lesson to suggest after ``after``: the next one in order not done (wrapping round
    to the first), or ``None`` when every other lesson is done."""
    at = lessons.index(after)
    for lesson in [*lessons[at + 1 :], *lessons[:at]]:
        if standing(lesson, records.get(lesson.id)).status is not LessonStatus.DONE:
            return lesson
    return None


def find_lesson(lessons: Sequence[AnyLesson], key: str) -> AnyLesson:
    """The lesson with id ``key`` or number ``key``."""
    for lesson in lessons:
        if lesson.id == key or (
            key.isascii() and key.isdigit() and len(key) < 7 and lesson.number == int(key)
        ):
            return lesson
    known = ", ".join(lesson.id for lesson in lessons)
    raise LessonError(
        "no lesson {key!r}: choose a number from 1 to {count} or an id ({known})",
        key=key,
        count=len(lessons),
        known=known,
    )
