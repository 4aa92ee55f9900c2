"""Lesson questions speak the learner's language past their prompt: the facts shown with the
question, the feedback on a right and a wrong answer, and the explanation of the answer, for
every question kind whose own sentences the tutor writes (choice, rule, game, Carousel)."""

from __future__ import annotations

import contextlib
import dataclasses
import functools
from collections.abc import Iterator

import pytest
from carousel_answers import wrong_carousel_answer

from gintutor.content.lessons import check_lessons, lesson_files
from gintutor.text import i18n
from gintutor.tutor.lessons import Ask, Lesson
from gintutor.tutor.questions.base import AnswerError, Question
from gintutor.tutor.questions.carousel import CarouselQuestion

pytest.importorskip("babel")

KINDS = ("choice", "rule", "game")
"""The Gin Rummy question kinds checked here besides every Carousel kind."""

ENGLISH_ONLY = (
    "Right",
    "Not that one",
    "Not quite",
    "Hands:",
    "not a meld",
    "is a valid",
    "is not a meld",
    "Table (",
    "you place",
    "Legal",
    "You would keep",
    "may be discarded",
    "gives the opponent",
    "these cards are not",
    "Answer valid, or",
    "the limit is",
    "moving",
    "add the hand points",
)
"""Words of these questions' English sentences that none of the translations uses."""


@functools.cache
def _questions() -> list[Question]:
    lessons, _problems = check_lessons(lesson_files())
    found: list[Question] = []
    for lesson in lessons:
        assert isinstance(lesson, Lesson)
        for step in lesson.steps:
            if isinstance(step, Ask) and (
                isinstance(step.question, CarouselQuestion) or step.question.kind in KINDS
            ):
                found.append(step.question)
    return found


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    yield
    i18n.use(i18n.ENGLISH)


def _texts(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, (tuple, list)):
        for item in value:
            yield from _texts(item)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            yield from _texts(getattr(value, field.name))


def _wrong(question: Question, answer: str) -> str:
    if isinstance(question, CarouselQuestion):
        return wrong_carousel_answer(question)
    if answer in ("yes", "no"):
        return "no" if answer == "yes" else "yes"
    if answer.isdigit():
        return str(int(answer) + 1)
    return "a" if answer != "a" else "b"


def _shown(question: Question) -> list[str]:
    """Everything the learner reads of ``question`` past its prompt (the answer typed as
    English words, which every language accepts)."""
    solved = question.solve()
    texts = [*_texts(question.facts()), *_texts(solved.explanation)]
    for typed in (solved.answer, _wrong(question, solved.answer)):
        with contextlib.suppress(AnswerError):
            texts.append(question.judge(typed).message)
    return texts


def test_the_checked_kinds_are_asked_in_the_lessons() -> None:
    kinds = {question.kind for question in _questions()}
    assert set(KINDS) <= kinds and "carousel-meld" in kinds and "carousel-knock" in kinds


@pytest.mark.parametrize("language", ["id", "pt_BR", "nb"])
def test_lesson_questions_past_their_prompt_are_in_the_language(language: str) -> None:
    i18n.use(language)
    english = [
        (question.kind, text)
        for question in _questions()
        for text in _shown(question)
        if any(word in text for word in ENGLISH_ONLY)
    ]
    assert english == []


@pytest.mark.parametrize("language", ["id", "pt_BR", "nb"])
def test_a_turn_questions_prompt_names_the_words_the_question_accepts(language: str) -> None:
    from gintutor.tutor.questions.carousel import CarouselTurnQuestion, TurnAction

    i18n.use(language)
    lessons, _problems = check_lessons(lesson_files())
    prompts = [
        step.question.prompt
        for lesson in lessons
        for step in getattr(lesson, "steps", ())
        if isinstance(step, Ask) and isinstance(step.question, CarouselTurnQuestion)
    ]
    named = [p for p in prompts if all(action.value in p for action in TurnAction)]
    assert len(named) == 2, prompts
