"""Coached lesson questions (``knock-or-play``): answered from the coach's stored verdict against
a named opponent, never judged while a lesson runs; a missing verdict or a close call is a
problem of ``lessons check``; a puzzle that names no opponent keeps the key it always had."""

from __future__ import annotations

import hashlib
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from clirun import run

from gintutor.content import verdicts
from gintutor.content.lessons import coached_solutions, load_lessons, read_lesson
from gintutor.content.puzzles import load_puzzles
from gintutor.content.verdicts import entry_of, load_verdicts, verdict_of, verdicts_text
from gintutor.engine.hand import Action, Phase
from gintutor.engine.judgement import Grade, Judged, Verdict
from gintutor.errors import GinError
from gintutor.tutor.lessons import Ask
from gintutor.tutor.puzzles import (
    COACH_VERSION,
    PUZZLE_WORLDS,
    Theme,
    answer_of,
    position_key,
    verdict_key,
)
from gintutor.tutor.questions import KnockOrPlayQuestion

BROKEN = Path(__file__).parent / "broken_lessons"
LESSON = """\
id: coached
title: Coached
level: advanced
steps:
  - question: knock-or-play
    prompt: Knock now or play on?
    hand: "3C QC QD KD 3H TH QH KH 3S 8S KS"
    opponent_known: "5C"
    stock_size: 31
    opponent: simple
"""
KNOCK = Action.parse("knock TH: QC QD QH | 3C 3H 3S | KD KH KS")
PLAY_ON = Action.parse("discard 8S")


def coached_questions() -> list[tuple[str, KnockOrPlayQuestion]]:
    return [
        (f"{lesson.path}:{step.line}", step.question)
        for lesson in load_lessons()
        for step in lesson.questions
        if isinstance(step.question, KnockOrPlayQuestion)
    ]


def fake_verdict(knock: float, play_on: float, stderr: float = 1.0) -> Verdict:
    """A verdict of the lesson's position with these expected points (no judging)."""
    rows = sorted([(knock, KNOCK), (play_on, PLAY_ON)], key=lambda row: -row[0])
    top = rows[0][0]
    close = top - rows[1][0] <= 2 * stderr
    judged = tuple(
        Judged(
            action,
            mean,
            stderr,
            top - mean,
            0.0 if mean == top else stderr,
            None,
            None,
            Grade.BEST if mean == top or close else Grade.MISTAKE,
            close,
            (),
            64,
        )
        for mean, action in rows
    )
    return Verdict(0, Phase.DISCARD, judged, 64, 1.0, "simple")


def read_with(monkeypatch: pytest.MonkeyPatch, table: dict[str, Any]) -> Any:
    monkeypatch.setattr(verdicts, "load_verdicts", lambda: table)
    return read_lesson(LESSON, "coached.yaml")


def key_of(verdict: Verdict) -> dict[str, Any]:
    question = read_lesson(LESSON, "coached.yaml", engine=False)[0]
    assert question is not None
    ask = question.questions[0].question
    assert isinstance(ask, KnockOrPlayQuestion)
    return {verdict_key(ask.puzzle()): json.loads(json.dumps(entry_of(verdict)))}


def test_lesson_18_backs_its_advice_with_the_coach_against_each_opponent() -> None:
    found = coached_questions()
    by_opponent = {question.opponent: question.solve().answer for _, question in found}
    assert by_opponent == {"simple": "knock", "expert": "play-on"}


@pytest.mark.parametrize(("where", "question"), coached_questions())
def test_a_shipped_coached_question_answers_its_stored_verdicts_best(
    where: str, question: KnockOrPlayQuestion
) -> None:
    assert question.verdict is not None, where
    assert question.verdict.opponent == question.opponent
    best = answer_of(Theme.KNOCK_OR_PLAY, question.verdict.best.action)
    assert question.solve().answer == best
    assert question.judge(best).correct
    question.verify()  # a clear case: the best leads by more than two standard errors


def test_the_answer_is_the_verdicts_best_and_the_explanation_gives_its_numbers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    verdict = fake_verdict(knock=30.0, play_on=21.5)
    lesson, problems = read_with(monkeypatch, key_of(verdict))
    assert problems == []
    question = lesson.questions[0].question
    assert question.verdict == verdict_of(key_of(verdict).popitem()[1])
    solved = question.solve()
    assert solved.answer == "knock"
    text = "\n".join(str(getattr(block, "text", "")) for block in solved.explanation)
    assert "plays like simple" in text
    assert "knocking (discarding 10♥) +30.0 ± 1.0, playing on (discarding 8♠) +21.5 ± 1.0" in text
    assert question.judge("knock").correct and question.judge("k").correct
    assert not question.judge("play on").correct
    assert "Hand: " in str(question.facts()[0])


def test_a_missing_verdict_is_a_problem_naming_the_question_not_a_traceback() -> None:
    code, out, err = run("lessons", "check", str(BROKEN / "missing-verdict.yaml"))
    assert code == 1
    assert out.splitlines() == [
        f"{BROKEN / 'missing-verdict.yaml'}:5: the engine cannot answer this question: no stored "
        "coach verdict for this position against simple: run 'gintutor puzzles check "
        "--write-verdicts' (it judges the positions without one)"
    ]
    assert "Traceback" not in err


def test_a_close_call_is_no_lesson(monkeypatch: pytest.MonkeyPatch) -> None:
    _lesson, problems = read_with(monkeypatch, key_of(fake_verdict(knock=30.0, play_on=29.0)))
    assert [str(p.message) for p in problems] == [
        "the engine cannot answer this question: a close call against simple: play-on is "
        "1.0 ± 1.0 points behind knock, within two standard errors; a lesson teaches a clear case"
    ]


def test_a_verdict_of_another_opponent_is_not_used(monkeypatch: pytest.MonkeyPatch) -> None:
    verdict = fake_verdict(knock=30.0, play_on=21.5)
    table = key_of(verdict)
    lesson, _problems = read_with(monkeypatch, table)
    moved = replace(lesson.questions[0].question, opponent="expert", verdict=None)
    assert verdict_key(moved.puzzle()) not in table
    with pytest.raises(GinError, match="no stored coach verdict"):
        moved.solve()


def test_an_unknown_opponent_is_named_with_the_models() -> None:
    lesson, problems = read_lesson(LESSON.replace("simple", "grandmaster"), "coached.yaml")
    assert lesson is None
    assert "unknown opponent 'grandmaster': choose one of expert" in str(problems[0].message)


def test_a_puzzle_that_names_no_opponent_keeps_its_key() -> None:
    puzzle = next(p for p in load_puzzles() if p.theme is Theme.KNOCK_OR_PLAY)
    assert puzzle.opponent is None
    old_key = (
        *position_key(puzzle.position),
        puzzle.opponent_discards.mask,
        puzzle.opponent_passed.mask,
        puzzle.score,
    )
    seed = int(hashlib.sha256(repr(old_key).encode()).hexdigest()[:8], 16)
    parts = (old_key, COACH_VERSION, PUZZLE_WORLDS, seed)
    assert puzzle.seed == seed
    assert verdict_key(puzzle) == hashlib.sha256(repr(parts).encode()).hexdigest()[:16]
    assert verdict_key(puzzle) in load_verdicts()
    named = replace(puzzle, opponent="simple")
    assert verdict_key(named) != verdict_key(puzzle) and named.seed != puzzle.seed


def test_a_verdicts_opponent_is_stored_only_when_it_is_not_the_strong_default() -> None:
    simple = fake_verdict(knock=30.0, play_on=21.5)
    expert = replace(simple, opponent="expert")
    assert entry_of(simple)["opponent"] == "simple" and "opponent" not in entry_of(expert)
    assert verdict_of(json.loads(json.dumps(entry_of(simple)))).opponent == "simple"
    assert verdict_of(json.loads(json.dumps(entry_of(expert)))).opponent == "expert"


def test_writing_the_verdicts_keeps_the_lessons() -> None:
    stored = load_verdicts()
    solutions, problems = coached_solutions(stored)
    assert problems == []
    assert {s.puzzle.id for s in solutions} == {
        f"knock-or-gin-{n}" for n in _coached_steps("knock-or-gin")
    }
    written = json.loads(verdicts_text(solutions))["verdicts"]
    assert all(written[key] == stored[key] for key in written)


def _coached_steps(lesson_id: str) -> list[int]:
    lesson = next(lesson for lesson in load_lessons() if lesson.id == lesson_id)
    return [
        number
        for number, step in enumerate(lesson.steps, start=1)
        if isinstance(step, Ask) and isinstance(step.question, KnockOrPlayQuestion)
    ]
