"""Carousel lessons and question kinds: every kind accepts the engine's answer and rejects a
wrong one with a reason; the Carousel lessons load, check and play through ``learn``."""

from __future__ import annotations

import functools
import random
from pathlib import Path

import pytest
from carousel_answers import wrong_carousel_answer
from clirun import run

from gintutor.content.lessons import check_lessons, lesson_files, read_lesson
from gintutor.content.problems import Problem
from gintutor.engine.cards import CARDS
from gintutor.engine.carousel.cards import (
    Slot,
    make_meld,
    parse_hand_cards,
    parse_slots,
    parse_table,
)
from gintutor.engine.carousel.rules import STANDARD
from gintutor.errors import GinError
from gintutor.tutor.lessons import CarouselShow, Game, Lesson, fill_carousel_rules
from gintutor.tutor.questions import QUESTION_KINDS
from gintutor.tutor.questions.base import AnswerError
from gintutor.tutor.questions.carousel import (
    CAROUSEL_KINDS,
    GIN,
    CarouselJokerQuestion,
    CarouselKnockQuestion,
    CarouselMeldQuestion,
    CarouselPlaceQuestion,
    CarouselPlayQuestion,
    CarouselQuestion,
    CarouselScoreQuestion,
    CarouselTurnQuestion,
    MeldFault,
    ScoreAsk,
    meld_faults,
)


@functools.cache
def _checked() -> tuple[list[Lesson], list[Problem]]:
    """Every shipped lesson, checked once (when a test first needs them, not at collection)."""
    lessons, problems = check_lessons(lesson_files())
    return list(lessons), list(problems)


def _carousel() -> list[Lesson]:
    return [lesson for lesson in _checked()[0] if lesson.game is Game.CAROUSEL]


def meld(cards: str) -> CarouselMeldQuestion:
    return CarouselMeldQuestion(prompt="?", rules=GIN, cards=parse_slots(cards))


def play(table: str, hand: str, **more: object) -> CarouselPlayQuestion:
    return CarouselPlayQuestion(
        prompt="?", rules=GIN, table=parse_table(table), hand=parse_hand_cards(hand), **more
    )


# --- the lessons -----------------------------------------------------------------------------


def test_five_carousel_lessons_check_clean_and_cover_every_kind() -> None:
    assert _checked()[1] == []
    carousel = _carousel()
    assert len(carousel) >= 5
    kinds = {type(step.question).kind for lesson in carousel for step in lesson.questions}
    assert kinds == {kind.kind for kind in CAROUSEL_KINDS}
    for lesson in carousel:
        assert all(isinstance(step.question, CarouselQuestion) for step in lesson.questions)
        for step in lesson.questions:
            assert step.expect is not None and step.question.accepts(step.expect)
            wrong = step.question.judge(wrong_carousel_answer(step.question))
            assert not wrong.correct and wrong.message, f"{lesson.path}:{step.line}"


def test_gin_lessons_stay_gin() -> None:
    gin = [lesson for lesson in _checked()[0] if lesson.game is Game.GIN]
    assert len(gin) >= 18
    assert not any(
        isinstance(step.question, CarouselQuestion) for lesson in gin for step in lesson.questions
    )


def test_carousel_prose_numbers_come_from_the_carousel_rules() -> None:
    knocking = next(lesson for lesson in _carousel() if lesson.id == "carousel-knocking")
    first = knocking.steps[0]
    assert "5 points or fewer" in getattr(first, "text", "")  # Carousel's limit, not gin's 10
    with pytest.raises(GinError, match="not a Carousel setting"):
        fill_carousel_rules("{gin_bonus}", STANDARD)


LESSON = """\
id: c
title: C
level: beginner
game: carousel
steps:
  - show:
      table: "7H 8H 9H"
      hand: "7C 7D"
  - question: carousel-meld
    prompt: Valid?
    cards: "{cards}"
    expect: {expect}
"""


def test_a_carousel_lesson_reads_its_own_keys_and_checks_expect() -> None:
    lesson, problems = read_lesson(LESSON.format(cards="KS AS 2S", expect="corner"), "c.yaml")
    assert problems == [] and lesson is not None
    assert isinstance(lesson.steps[0], CarouselShow) and lesson.game is Game.CAROUSEL
    _, problems = read_lesson(LESSON.format(cards="KS AS 2S", expect="valid"), "c.yaml")
    assert [str(p) for p in problems] == [
        "c.yaml:12: expect: 'valid' but the engine's answer is 'corner': fix expect"
    ]
    _, problems = read_lesson(LESSON.format(cards="KS 1S 2S", expect="gap"), "c.yaml")
    assert [str(p) for p in problems] == [
        "c.yaml:11: cards: '1S': unknown rank '1' (use A, 2-9, T or 10, J, Q, K)"
    ]


def test_games_do_not_mix_in_a_lesson() -> None:
    text = LESSON.replace("game: carousel\n", "").replace('      table: "7H 8H 9H"\n', "")
    text = text.replace('      hand: "7C 7D"\n', '      hand: "7C 7D 7S 4H 5H 6H TD JD QD KC"\n')
    _, problems = read_lesson(text.format(cards="KS AS 2S", expect="corner"), "g.yaml")
    assert [str(p) for p in problems] == [
        "g.yaml:7: question: a carousel-meld question is about carousel; this lesson is about "
        "gin (set game: in the lesson)"
    ]
    bad = LESSON.replace("game: carousel", "game: poker")
    _, problems = read_lesson(bad.format(cards="KS AS 2S", expect="corner"), "p.yaml")
    assert "p.yaml:4: game: use gin or carousel" in [str(p) for p in problems]


def test_learn_plays_a_carousel_lesson_with_the_engines_answers(home: Path) -> None:
    lesson = _carousel()[1]
    answers = [step.question.solve().answer for step in lesson.questions]
    code, out, err = run("learn", lesson.id, stdin="\n".join(answers) + "\n")
    assert (code, err) == (0, "")
    assert out.count("✓ ") == len(lesson.questions)
    assert "Best play" in out  # the show step: the solver's play


# --- carousel-meld ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "answer"),
    [
        ("QS KS AS", "valid"),
        ("AS 2S 3S", "valid"),
        ("KH AH 2H", "corner"),
        ("8S 8H 8S", "identical"),
        ("5D 6D 8D", "gap"),
        ("4C 5C", "short"),
        ("3D 4D JK=5C", "mixed"),
        ("9C 9D 9C 9H", "identical"),
        ("9C 9D JK=9D", "identical"),
    ],
)
def test_meld_question(cards: str, answer: str) -> None:
    question = meld(cards)
    assert question.solve().answer == answer
    assert question.judge(answer).correct
    wrong = question.judge("valid" if answer != "valid" else "gap")
    assert not wrong.correct and answer not in wrong.message


def test_meld_question_accepts_any_true_fault_and_refuses_non_answers() -> None:
    question = meld("8S 8H 8S")
    assert question.judge("suit").correct and question.judge("Identical").correct
    with pytest.raises(AnswerError, match="answer valid, or what is wrong"):
        question.judge("8S")


def test_meld_faults_agree_with_the_engines_melds() -> None:
    rng = random.Random(11)
    for _ in range(3000):
        size = rng.choice([2, 3, 3, 4, 4, 5])
        slots = tuple(Slot(rng.choice(CARDS[:26]), rng.random() < 0.1) for _ in range(size))
        try:
            make_meld(slots)
            valid = True
        except GinError:
            valid = False
        assert (not meld_faults(slots)) == valid, slots
    assert MeldFault.CORNER in meld_faults(parse_slots("QC KC AC 2C"))


# --- carousel-place --------------------------------------------------------------------------


def test_place_question() -> None:
    question = CarouselPlaceQuestion(
        prompt="?",
        rules=GIN,
        table=parse_table("5S 6S 7S 8S | 9D TD JD"),
        hand=parse_hand_cards("4S 9S 8D QD KC"),
    )
    assert question.solve().answer == "8D QD 4S 9S"
    assert question.judge("4s 9s qd 8d").correct
    wrong = question.judge("4S 9S 8D QD KC")
    assert not wrong.correct and "K♣ cannot be placed on its own" in wrong.message
    assert not question.judge("4S").correct
    with pytest.raises(AnswerError, match="you don't hold 2C"):
        question.judge("2C")


def test_place_question_by_rearranging_only() -> None:
    question = CarouselPlaceQuestion(
        prompt="?", rules=GIN, table=parse_table("7H 8H 9H TH"), hand=parse_hand_cards("7C KD")
    )
    assert question.solve().answer == "none"  # one seven alone cannot take the 7♥
    assert question.judge("none").correct


# --- carousel-play ---------------------------------------------------------------------------


def test_play_question_accepts_any_play_of_the_most_points() -> None:
    question = play("3C 4C 5C 6C 7C 8C 9C", "6D 6H 2S")
    assert question.judge("3C 4C 5C | 6C 6D 6H | 7C 8C 9C").correct
    assert question.judge(question.solve().answer).correct


def test_play_question_rejects_with_the_reason() -> None:
    question = play("7H 8H 9H TH", "7C 7D 2S")
    taken = play("7H 8H 9H TH JH", "7C 7D 2S").judge("7C 7D 7H | 8H 9H TH")
    assert not taken.correct and "JH left the table" in taken.message
    weaker = play("5S 6S 7S 8S", "4S 9S")
    feedback = weaker.judge("4S 5S 6S 7S 8S")
    assert not feedback.correct and "places 4 points" in feedback.message
    assert "a better play places more" in feedback.message
    not_held = question.judge("7C 7D 7H 7S | 8H 9H TH")
    assert not not_held.correct and "7S" in not_held.message
    with pytest.raises(AnswerError, match="meld 1"):
        question.judge("7C 7D | 8H 9H TH")


def test_play_question_first_meld_leaves_the_table_alone() -> None:
    question = play("", "7C 8C 9C KD KS KH", first_meld=True)
    assert question.judge("KD KH KS | 7C 8C 9C").correct
    assert not question.judge("7C 8C 9C").correct
    opening = play("5H 6H 7H", "8H 9H TH", first_meld=True)
    feedback = opening.judge("5H 6H 7H 8H 9H TH")
    assert not feedback.correct and "first meld" in feedback.message


def test_play_question_with_nothing_to_play() -> None:
    question = play("2D 3D 4D | JS QS KS", "6D 9H 9C")
    assert question.solve().answer == "none"
    assert question.judge("pass").correct
    assert not question.judge("2D 3D 4D | JS QS KS").correct


# --- carousel-joker --------------------------------------------------------------------------


def joker(table: str, hand: str, after: str) -> CarouselJokerQuestion:
    return CarouselJokerQuestion(
        prompt="?",
        rules=GIN,
        table=parse_table(table),
        hand=parse_hand_cards(hand),
        after=parse_table(after),
    )


def test_joker_question() -> None:
    back_to_hand = joker("5H 6H JK=7H", "7H 2C", "5H 6H 7H")
    assert back_to_hand.solve().answer == "no"
    assert "must be used again" in str(back_to_hand.solve().explanation[0])
    assert back_to_hand.judge("no").correct
    wrong = back_to_hand.judge("yes")
    assert not wrong.correct and "you said yes" in wrong.message
    reused = joker("5H 6H JK=7H | KC KD KS", "7H", "5H 6H 7H | KC KD KS JK=KH")
    assert reused.judge("yes").correct and not reused.judge("no").correct
    redeclared = joker("JK=5H 6H 7H | 3C 3D 3S", "8H", "6H 7H 8H | 3C 3D 3S JK=3H")
    assert redeclared.judge("no").correct


def test_joker_question_needs_a_joker() -> None:
    with pytest.raises(GinError, match="needs a joker"):
        joker("5H 6H 7H", "8H", "5H 6H 7H 8H").verify()


# --- carousel-turn --------------------------------------------------------------------------


def turn(hand: str, drawn: int, table: str = "") -> CarouselTurnQuestion:
    return CarouselTurnQuestion(
        prompt="?", rules=GIN, hand=parse_hand_cards(hand), table=parse_table(table), drawn=drawn
    )


@pytest.mark.parametrize(
    ("hand", "drawn", "table", "answer"),
    [
        ("7C 7D 7S 2H 9D", 1, "", "meld draw"),  # a meld in hand: meld, or draw again
        ("7C 7D 7S 2H 9D", 2, "", "meld draw"),
        ("2H 9D KC QS 4D", 1, "", "draw"),  # nothing to play: draw again
        ("7C 7D 7S 2H 9D", 3, "", "end"),  # no meld after the third draw
        ("8H 2C KD", 2, "5H 6H 7H", "meld draw"),  # a layoff on the table is a play
        ("8H 2C KD", 3, "5H 6H 7H", "end"),
    ],
)
def test_turn_draw_then_meld_or_draw_again_up_to_three_draws(
    hand: str, drawn: int, table: str, answer: str
) -> None:
    question = turn(hand, drawn, table)
    assert question.solve().answer == answer
    assert question.judge(answer).correct
    assert question.judge(" or ".join(reversed(answer.split()))).correct
    assert not question.judge("end" if answer != "end" else "meld").correct


def test_turn_question_no_meld_after_the_last_draw_says_why() -> None:
    feedback = turn("7C 7D 7S 2H 9D", 3).judge("meld")
    assert not feedback.correct and "may not meld" in feedback.message
    assert "draws at most 3" in turn("7C 7D 7S 2H 9D", 3).judge("draw end").message


def test_turn_question_agrees_with_the_rounds_state_machine() -> None:
    # Replayed draws on the engine's round: a play is refused after the third draw.
    round_ = turn("7C 7D 7S 2H 9D", 3).round()
    assert round_.draws == 3 and not round_.can_play() and not round_.can_draw()
    with pytest.raises(GinError):
        round_.play(parse_table("7C 7D 7S"))
    assert turn("7C 7D 7S 2H 9D", 2).round().can_play()


def test_turn_question_errors() -> None:
    with pytest.raises(GinError):
        turn("7C 7D 7S", 4).verify()
    with pytest.raises(AnswerError):
        turn("7C 7D 7S", 1).judge("discard")
    with pytest.raises(AnswerError):
        turn("7C 7D 7S", 1).judge("")


# --- carousel-knock --------------------------------------------------------------------------


def test_knock_question() -> None:
    def knock(hand: str, table: str = "", with_play: bool = False) -> CarouselKnockQuestion:
        return CarouselKnockQuestion(
            prompt="?",
            rules=GIN,
            table=parse_table(table),
            hand=parse_hand_cards(hand),
            play=with_play,
        )

    assert knock("AC 2D 2H").judge("yes").correct  # 5: the limit itself
    assert knock("JK").judge("no").correct  # a joker counts 25
    wrong = knock("JK").judge("yes")
    assert not wrong.correct and "joker 25" in wrong.message
    after_play = knock("7H 9H 2C 3D", "4H 5H 6H | 9S 9D 9C", with_play=True)
    assert after_play.judge("yes").correct and not after_play.judge("no").correct
    assert knock("7H 9H KD 3C", "4H 5H 6H | 9S 9D 9C", with_play=True).judge("no").correct


# --- carousel-score --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rounds", "player", "want", "answer"),
    [
        (["A knock 3, B 12, C 20"], "A", ScoreAsk.ROUND, 26),
        (["A knock 4, B 2, C 15"], "B", ScoreAsk.ROUND, 25),  # undercut
        (["A knock 3, B 3, C 10"], "B", ScoreAsk.ROUND, 17),  # the knocker loses the tie
        (["A knock 2, B 2, C 2, D 9"], "C", ScoreAsk.ROUND, 17),  # two tied others both win
        (["A knock 2, B 2, C 2, D 9"], "A", ScoreAsk.ROUND, 0),
        (["A out, B 9, C 14"], "A", ScoreAsk.ROUND, 48),
        (["A 5, B 12, C 30"], "A", ScoreAsk.ROUND, 32),
        (["A knock 3, B 12, C 20", "A 8, B out, C 11"], "B", ScoreAsk.TOTAL, 44),
        (
            ["A knock 1, B 40, C 50", "A 30, B out, C 45", "A knock 2, B 35, C 45"],
            "B",
            ScoreAsk.FINAL,
            125,
        ),
    ],
)
def test_score_question(rounds: list[str], player: str, want: ScoreAsk, answer: int) -> None:
    question = CarouselScoreQuestion(
        prompt="?", rules=GIN, rounds=tuple(rounds), player=player, want=want
    )
    assert question.solve().answer == str(answer)
    assert question.judge(str(answer)).correct
    wrong = question.judge(str(answer + 10))
    assert not wrong.correct and wrong.message.startswith(f"Not {answer + 10}:")
    assert str(answer) not in wrong.message.replace(str(answer + 10), "")


def test_score_question_errors() -> None:
    unknown = CarouselScoreQuestion(prompt="?", rules=GIN, rounds=("A knock 3, B 9",), player="Z")
    with pytest.raises(GinError, match="player 'Z' is not in the rounds"):
        unknown.verify()
    unfinished = CarouselScoreQuestion(
        prompt="?", rules=GIN, rounds=("A knock 3, B 9",), player="A", want=ScoreAsk.FINAL
    )
    with pytest.raises(GinError, match="finished game"):
        unfinished.verify()
    with pytest.raises(AnswerError):
        unknown.judge("²")


def test_every_kind_is_registered_and_frozen() -> None:
    for kind in CAROUSEL_KINDS:
        assert QUESTION_KINDS[kind.kind] is kind
        assert kind.__dataclass_params__.frozen  # type: ignore[attr-defined]
