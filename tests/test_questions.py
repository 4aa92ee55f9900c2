"""Question kinds: one class each, answers read safely, feedback that never gives the answer."""

from __future__ import annotations

import re

import pytest
from test_lessons import LESSONS  # read once for both modules (~0.06 s CPU a process)

from gintutor.content.lessons import read_lesson
from gintutor.engine.cards import Card, CardSet
from gintutor.engine.rules import preset
from gintutor.tutor.questions import (
    CAROUSEL_KIND_NAMES,
    COACHED_KIND_NAMES,
    KIND_NAMES,
    QUESTION_KINDS,
    AnswerError,
    ChoiceQuestion,
    CoachedQuestion,
    DeadwoodQuestion,
    DiscardQuestion,
    Predicate,
    Question,
    question_kind,
)
from gintutor.tutor.questions.carousel import CAROUSEL_KINDS, CarouselQuestion

STANDARD = preset("standard")
HOSTILE = ["²", "①", "٣", "\uff11\uff14", "5" * 5000, "-" + "9" * 7, "1e3", "0x10"]


def questions() -> list[Question]:
    return [step.question for lesson in LESSONS for step in lesson.questions]


def test_every_kind_is_its_own_frozen_class() -> None:
    assert list(QUESTION_KINDS) == [
        "deadwood",
        "melds",
        "knock",
        "discard",
        "layoffs",
        "points",
        "choice",
        "rule",
        "game",
        "knock-or-play",
        "carousel-meld",
        "carousel-place",
        "carousel-play",
        "carousel-joker",
        "carousel-knock",
        "carousel-turn",
        "carousel-score",
    ]
    for name, kind in QUESTION_KINDS.items():
        assert kind.kind == name
        assert kind.__dataclass_params__.frozen  # type: ignore[attr-defined]
    assert {type(q).kind for q in questions()} == set(QUESTION_KINDS)


def test_the_kind_registry_names_each_kind_where_it_lives() -> None:
    # Kinds are imported on first use, from a table of names: it must list every kind class
    # under its own name, and say which are Carousel's without importing them.
    assert list(QUESTION_KINDS) == list(KIND_NAMES)
    for name in KIND_NAMES:
        kind = question_kind(name)
        assert kind is not None and kind.kind == name
    assert question_kind("nothing") is None
    assert {kind.kind for kind in CAROUSEL_KINDS} == CAROUSEL_KIND_NAMES
    assert {
        name for name, kind in QUESTION_KINDS.items() if issubclass(kind, CarouselQuestion)
    } == CAROUSEL_KIND_NAMES
    assert (
        {name for name, kind in QUESTION_KINDS.items() if issubclass(kind, CoachedQuestion)}
        == COACHED_KIND_NAMES
        == {"knock-or-play"}
    )
    concrete: set[type[Question]] = set()
    stack: list[type[Question]] = [Question]
    while stack:
        for sub in stack.pop().__subclasses__():
            stack.append(sub)
            if "kind" in vars(sub):
                concrete.add(sub)
    assert concrete == set(QUESTION_KINDS.values())


@pytest.mark.parametrize("text", HOSTILE)
def test_odd_numbers_are_refused_with_a_message_never_a_crash(text: str) -> None:
    for question in questions():
        answer = question.solve().answer
        try:
            feedback = question.judge(text)
        except AnswerError as error:
            assert len(str(error)) < 200
            continue
        # Only a real answer gets a verdict (yes/no questions read "1" and "0").
        assert feedback.correct == (text.strip() == answer), (question.prompt, text)


def test_a_too_low_deadwood_count_does_not_give_the_answer_away() -> None:
    seen = 0
    for question in questions():
        if not isinstance(question, DeadwoodQuestion):
            continue
        best = int(question.solve().answer)
        for value in {0, best - 1, best + 1, best + 5, question.hand.points}:
            if value < 0 or value == best:
                continue
            message = question.judge(str(value)).message
            # The least count, as a number (not a card such as 10♠), is never in the feedback.
            assert not re.search(rf"(?<![\w]){best}(?![\w♣♦♥♠])", message), message
            seen += 1
    assert seen > 20


def test_the_lesson_2_example_says_too_low_without_the_number() -> None:
    question = DeadwoodQuestion(
        prompt="?", rules=STANDARD, hand=CardSet.parse("KC KD KH 2S 5D 9C AH 3C 8S JD")
    )
    best = question.solve().answer
    message = question.judge("0").message
    assert message == "0 is too low: no arrangement of these cards leaves that little."
    assert best not in message


def test_a_discard_is_checked_by_the_engines_one_rule() -> None:
    question = DiscardQuestion(
        prompt="?",
        rules=STANDARD,
        hand=CardSet.parse("2C 3C 4C 9D TD JD 5H 5S 5D 8S KS"),
        taken=Card.parse("KS"),
    )
    with pytest.raises(AnswerError, match="you don't hold 9S"):
        question.judge("9S")
    with pytest.raises(AnswerError, match="KS was just taken from the discard pile"):
        question.judge("KS")
    assert question.judge("8S").correct


def test_legal_discard_choice_says_why_each_card_may_or_may_not_go() -> None:
    question = ChoiceQuestion(
        prompt="?",
        rules=STANDARD,
        predicate=Predicate.LEGAL_DISCARD,
        options=((Card.parse("TS"),), (Card.parse("KH"),), (Card.parse("9H"),)),
        hand=CardSet.parse("TS JS 3C 3D 3H 4D 5D 6D 7D KH 2C"),
        taken=Card.parse("TS"),
    )
    assert question.correct_options() == [1]
    assert [v.why for v in question.verdicts()] == [
        "just taken from the discard pile: not this turn",
        "may be discarded",
        "not in the hand",
    ]


LESSON = """\
id: keys
title: Keys
level: beginner
steps:
  - question: deadwood
    prompt: Deadwood?
    hand: "7C 7D 7S 4H 5H 6H TD JD QD KC"
    defender: "AS 2S 3S"
    expect: 10
"""


def test_a_key_the_kind_does_not_use_is_a_problem() -> None:
    lesson, problems = read_lesson(LESSON, "keys.yaml")
    assert lesson is None
    assert [str(p) for p in problems] == [
        "keys.yaml:8: defender: a deadwood question does not use it (it uses hand)"
    ]
    lesson, problems = read_lesson(LESSON.replace('    defender: "AS 2S 3S"\n', ""), "k.yaml")
    assert problems == [] and lesson is not None


def test_the_norwegian_lessons_answer_words_are_read() -> None:
    """The nb lessons say 'skriv ja eller nei' and '... eller ingen': those words are answers."""
    from gintutor.engine.cards import parse_cards
    from gintutor.tutor.questions.base import read_yes_no
    from gintutor.tutor.questions.hands import read_melds

    assert (read_yes_no("Ja"), read_yes_no(" nei ")) == (True, False)
    assert read_melds("Ingen", CardSet.from_cards(parse_cards("7C 7D 7S"))) == []


def test_the_portuguese_lessons_answer_words_are_read() -> None:
    """The pt_BR lessons say 'digite sim ou não' and '... ou nenhuma': those words are answers."""
    from gintutor.engine.cards import parse_cards
    from gintutor.tutor.questions.base import read_yes_no
    from gintutor.tutor.questions.hands import read_melds

    assert (read_yes_no("Sim"), read_yes_no(" não "), read_yes_no("nao")) == (True, False, False)
    assert read_melds("Nenhuma", CardSet.from_cards(parse_cards("7C 7D 7S"))) == []
