"""Lessons: every shipped lesson loads and is played to the end with the engine's answers; wrong
answers, hints, interrupts, resume, progress files and the authors' checker."""

from __future__ import annotations

import io
import json
import os
import re
from pathlib import Path

import pytest
from carousel_answers import wrong_carousel_answer
from clirun import run
from sweep import in_turns
from syrupy.assertion import SnapshotAssertion

from gintutor.cli.learn import LessonRunner
from gintutor.cli.progress import Progress, write_atomically
from gintutor.cli.prompts import Command, PlainAsker, Prompt, Quit, TerminalAsker
from gintutor.cli.render import Terminal
from gintutor.content.lessons import (
    check_lessons,
    lesson_files,
    load_lessons,
    load_outlines,
    read_lesson,
    read_outline,
)
from gintutor.engine.cards import Card, CardSet
from gintutor.engine.rules import preset
from gintutor.engine.solver import discard_options
from gintutor.errors import GinError
from gintutor.tutor.lessons import (
    Ask,
    Lesson,
    LessonStatus,
    next_lesson,
    resume_point,
    standing,
)
from gintutor.tutor.questions import (
    CarouselQuestion,
    ChoiceQuestion,
    DiscardQuestion,
    KnockOrPlayQuestion,
    KnockQuestion,
    LayoffsQuestion,
    MeldsQuestion,
    Question,
)

LESSONS = load_lessons()
BROKEN = Path(__file__).parent / "broken_lessons"


@pytest.fixture
def home(warm_home: Path) -> Path:
    """The data folder of a learner's second run (conftest.py's ``warm_home``): these tests are
    about the lessons, not about building their caches (test_startup.py's are)."""
    return warm_home


def learn(*args: str, stdin: str = "") -> tuple[int, str, str]:
    return run("learn", *args, stdin=stdin)


def right_answers(lesson: Lesson) -> list[str]:
    return [step.question.solve().answer for step in lesson.questions]


def wrong_answer(question: Question) -> str:
    """An answer the engine judges wrong (but that is a valid answer)."""
    if isinstance(question, CarouselQuestion):
        return wrong_carousel_answer(question)
    answer = question.solve().answer
    if isinstance(question, KnockQuestion):
        return "no" if answer == "yes" else "yes"
    if isinstance(question, KnockOrPlayQuestion):
        return "play-on" if answer == "knock" else "knock"
    if isinstance(question, ChoiceQuestion):
        right = question.correct_options()
        wrong = next(i for i in range(len(question.options)) if i not in right)
        return chr(ord("a") + wrong)
    if isinstance(question, DiscardQuestion):
        return discard_options(question.hand, question.taken)[-1].card.code
    if isinstance(question, MeldsQuestion):
        return "none"
    if isinstance(question, LayoffsQuestion):
        if answer != "none":
            return "none"
        laid = question.showdown().defence.laid_off
        return next(iter(question.defender - laid)).code
    if answer in ("yes", "no"):
        return "no" if answer == "yes" else "yes"
    return str(int(answer) + 1)


def test_there_are_at_least_18_lessons_and_all_are_valid() -> None:
    lessons, problems = check_lessons(lesson_files())
    assert problems == []
    assert len(lessons) >= 18
    assert [lesson.number for lesson in lessons] == list(range(1, len(lessons) + 1))
    for lesson in lessons:
        assert 3 <= len(lesson.questions) <= 8, lesson.id


def test_every_expect_is_the_engines_answer() -> None:
    for lesson in LESSONS:
        for step in lesson.questions:
            assert step.expect is not None, f"{lesson.path}:{step.line}: no expect"
            assert step.question.judge(step.expect).correct, f"{lesson.path}:{step.line}"


def test_wrong_answers_are_judged_wrong() -> None:
    for lesson in LESSONS:
        for step in lesson.questions:
            feedback = step.question.judge(wrong_answer(step.question))
            assert not feedback.correct, f"{lesson.path}:{step.line}"
            assert feedback.message


# Each lesson is played through once in the developer loop, by one of these two sweeps (every
# other lesson each, ~4 s CPU saved); CI plays every lesson both ways.
@pytest.mark.parametrize("lesson", in_turns(LESSONS, 0, [lesson.id for lesson in LESSONS]))
def test_play_every_lesson_with_the_engines_answers(home: Path, lesson: Lesson) -> None:
    code, out, err = learn(lesson.id, stdin="\n".join(right_answers(lesson)) + "\n")
    assert (code, err) == (0, "")
    assert out.count("✓ ") == len(lesson.questions)
    assert "✗" not in out
    assert f"Lesson {lesson.number} done: {len(lesson.questions)} of {len(lesson.questions)}" in out
    record = Progress(home / "progress.json").lesson(lesson.id)
    assert record["status"] == "done"
    assert all(step["first_try"] for step in record["steps"].values())
    assert len(record["steps"]) == len(lesson.questions)


@pytest.mark.parametrize("lesson", in_turns(LESSONS, 1, [lesson.id for lesson in LESSONS]))
def test_wrong_answer_then_hints_then_the_answer(home: Path, lesson: Lesson) -> None:
    first = lesson.questions[0]
    wrong = wrong_answer(first.question)
    # Wrong, then a hint for every level, which ends in the engine's answer.
    replies = [wrong, "hint", "hint", "hint"]
    code, out, _ = learn(lesson.id, stdin="\n".join(replies + right_answers(lesson)[1:]) + "\n")
    assert code == 0
    assert "✗ " in out
    assert "Hint: " in out
    assert f"The answer: {first.question.solve().answer}" in out
    record = Progress(home / "progress.json").lesson(lesson.id)
    assert record["status"] == "done" and record["passed"] is False
    assert standing(lesson, record).status is LessonStatus.NOT_PASSED
    index = str(lesson.steps.index(first))
    assert record["steps"][index]["correct"] is False
    assert record["steps"][index]["tries"] >= 1


def test_first_lesson_transcript(home: Path, snapshot: SnapshotAssertion) -> None:
    lesson = LESSONS[0]
    answers = right_answers(lesson)
    replies = [wrong_answer(lesson.questions[0].question), "hint", answers[0], "skip", *answers[2:]]
    code, out, _ = learn("1", stdin="\n".join(replies) + "\n")
    assert code == 0
    assert out == snapshot


def test_invalid_input_is_refused_before_it_counts(tmp_path: Path) -> None:
    question = DiscardQuestion(
        prompt="Your discard?",
        rules=preset("standard"),
        hand=CardSet.parse("2C 3C 4C 9D TD JD 5H 5S 5D 8S KS"),
        taken=Card.parse("KS"),
    )
    out = io.StringIO()
    terminal = Terminal.for_stream(out, color=False)
    asker = PlainAsker(io.StringIO("9S\nKS\n8S\n"), out)
    runner = LessonRunner(terminal, asker, Progress(tmp_path / "progress.json"))
    result = runner.ask(Ask(question))
    text = out.getvalue()
    assert "(you don't hold 9S)" in text
    assert "(KS was just taken from the discard pile: it may not be discarded this turn)" in text
    assert (result.correct, result.tries, result.first_try) == (True, 1, True)


def test_list_shows_status_and_progress(home: Path, snapshot: SnapshotAssertion) -> None:
    learn(LESSONS[0].id, stdin="\n".join(right_answers(LESSONS[0])) + "\n")
    learn(LESSONS[1].id, stdin=right_answers(LESSONS[1])[0] + "\n")
    code, out, _ = learn("--list")
    assert code == 0
    assert out == snapshot
    done = 1
    assert f"{done}/{len(LESSONS)} lessons, {round(100 * done / len(LESSONS))}%" in out


def test_list_json(home: Path) -> None:
    learn(LESSONS[0].id, stdin="\n".join(right_answers(LESSONS[0])) + "\n")
    learn(LESSONS[2].id, stdin="\n".join(["skip"] * len(LESSONS[2].questions)) + "\n")
    code, out, _ = learn("--list", "--json")
    assert code == 0
    data = json.loads(out)
    assert len(data) == len(LESSONS)
    assert set(data[0]) >= {"id", "title", "level", "concepts", "status", "score"}
    assert [item["status"] for item in data[:3]] == ["done", "new", "not-passed"]
    assert data[0]["id"] == LESSONS[0].id
    questions = len(LESSONS[0].questions)
    assert data[0]["score"] == {"right_first_time": questions, "questions": questions}
    assert data[2]["score"] == {"right_first_time": 0, "questions": len(LESSONS[2].questions)}
    assert [item["passed"] for item in data[:3]] == [True, False, False]


def test_skipping_every_question_does_not_mark_a_lesson_done(home: Path) -> None:
    lesson = LESSONS[2]
    code, out, _ = learn(lesson.id, stdin="skip\n" * len(lesson.questions))
    assert code == 0
    assert f"Lesson {lesson.number} done" not in out
    assert f"Lesson {lesson.number} finished, not passed: 0 of {len(lesson.questions)}" in out
    assert Progress(home / "progress.json").lesson(lesson.id)["passed"] is False
    code, out, _ = learn("--list")
    assert f"0/{len(LESSONS)} lessons, 0%" in out
    assert re.search(rf"\b{lesson.id}\b.*0/{len(lesson.questions)}\s+not passed", out)


def test_hints_are_allowed_but_a_revealed_answer_does_not_pass(home: Path) -> None:
    lesson = LESSONS[0]
    answers = right_answers(lesson)
    _, out, _ = learn(lesson.id, stdin="\n".join(["hint", *answers]) + "\n")
    assert f"Lesson {lesson.number} done: {len(answers) - 1} of {len(answers)}" in out
    assert Progress(home / "progress.json").status(lesson.id) == "done"
    assert standing(lesson, Progress(home / "progress.json").lesson(lesson.id)).status is (
        LessonStatus.DONE
    )


def test_a_too_low_answer_never_gives_the_answer_away(home: Path) -> None:
    lesson = LESSONS[1]
    first = lesson.questions[0].question
    number = next(i for i, step in enumerate(lesson.questions) if step.question.kind == "deadwood")
    replies = [*right_answers(lesson)[:number], "0", "0", "0", "0", "quit"]
    code, out, _ = learn(lesson.id, stdin="\n".join(replies) + "\n")
    assert code == 0 and first is not None
    answer = lesson.questions[number].question.solve().answer
    assert "0 is too low" in out
    assert f"less than {answer}" not in out
    assert "The answer:" not in out
    assert "Try again, or type hint to see the answer." in out


def test_after_a_lesson_enter_goes_on_to_the_next(home: Path) -> None:
    first, second = LESSONS[0], LESSONS[1]
    replies = [*right_answers(first), "", *right_answers(second)]
    code, out, _ = learn(first.id, stdin="\n".join(replies) + "\n")
    assert code == 0
    assert f"Start lesson {second.number} now? Enter goes on" in out
    assert f"Lesson {second.number}: {second.title}" in out
    progress = Progress(home / "progress.json")
    assert [progress.status(lesson.id) for lesson in (first, second)] == ["done", "done"]
    code, out, _ = learn(LESSONS[3].id, stdin="\n".join(right_answers(LESSONS[3])) + "\nq\n")
    assert f"Lesson {LESSONS[4].number}:" not in out


def test_next_is_the_following_lesson_in_a_fresh_home(home: Path) -> None:
    sixth, seventh = LESSONS[5], LESSONS[6]
    code, out, _ = learn(sixth.id, stdin="\n".join(right_answers(sixth)) + "\n")
    assert code == 0
    assert f"Next: gintutor learn {seventh.number} ({seventh.title})" in out
    # Plain `learn` then starts that lesson, as suggested.
    code, out, _ = learn(stdin="quit\n")
    assert out.startswith(f"Lesson {seventh.number}: {seventh.title}")


def test_next_lesson_and_resume_point_skip_lessons_done() -> None:
    done = {"status": "done", "passed": True, "step": 0, "steps": {}}
    records = {LESSONS[6].id: done, LESSONS[7].id: done}
    assert next_lesson(LESSONS, LESSONS[5], records) == LESSONS[8]
    assert next_lesson(LESSONS, LESSONS[-1], records) == LESSONS[0]
    assert resume_point(LESSONS, records, LESSONS[7].id) == (LESSONS[0], 0)
    assert resume_point(LESSONS, records, LESSONS[8].id) == (LESSONS[8], 0)
    every = {lesson.id: done for lesson in LESSONS}
    assert next_lesson(LESSONS, LESSONS[0], every) is None
    assert resume_point(LESSONS, every, None) is None


def test_the_counter_counts_questions_not_steps(home: Path) -> None:
    lesson = LESSONS[0]
    _, out, _ = learn(lesson.id, stdin="\n".join(right_answers(lesson)) + "\n")
    count = len(lesson.questions)
    assert [f"[question {n} of {count}] >" in out for n in range(1, count + 1)] == [True] * count
    assert f"/{len(lesson.steps)}]" not in out


@pytest.mark.parametrize("odd", ["²", "①", "5" * 5000, "\uff11\uff15"])
def test_odd_numbers_in_a_lesson_are_refused_with_a_message(home: Path, odd: str) -> None:
    lesson = LESSONS[0]
    code, out, err = learn(lesson.id, stdin="\n".join([odd, *right_answers(lesson)]) + "\n")
    assert (code, err) == (0, "")
    assert "is not a number: type a whole number like 14)" in out or "far too big" in out
    assert f"Lesson {lesson.number} done" in out


def test_end_of_input_leaves_cleanly_and_resume_continues(home: Path) -> None:
    lesson = LESSONS[1]
    answers = right_answers(lesson)
    code, out, _ = learn(lesson.id, stdin=answers[0] + "\n")
    assert code == 0
    assert "Progress saved" in out
    record = Progress(home / "progress.json").lesson(lesson.id)
    assert record["status"] == "started"
    stopped_at = record["step"]
    assert isinstance(lesson.steps[stopped_at], Ask)
    # Plain `learn` resumes the same lesson at the same step.
    code, out, _ = learn(stdin="\n".join(answers[1:]) + "\n")
    assert code == 0
    assert out.startswith(f"Lesson {lesson.number}: {lesson.title}")
    assert out.count("✓ ") == len(answers) - 1
    assert Progress(home / "progress.json").status(lesson.id) == "done"


def test_quit_command_keeps_progress(home: Path) -> None:
    lesson = LESSONS[0]
    code, out, _ = learn(lesson.id, stdin=right_answers(lesson)[0] + "\nquit\n")
    assert code == 0 and "Progress saved" in out
    assert Progress(home / "progress.json").lesson(lesson.id)["step"] > 0


def test_ctrl_c_and_ctrl_d_on_a_terminal_become_quit(monkeypatch: pytest.MonkeyPatch) -> None:
    asker = TerminalAsker.__new__(TerminalAsker)

    class Session:
        def __init__(self, error: type[BaseException]) -> None:
            self.error = error

        def prompt(self, *args: object, **kwargs: object) -> str:
            raise self.error

    for error in (KeyboardInterrupt, EOFError):
        asker.session = Session(error)
        with pytest.raises(Quit):
            asker.ask(Prompt(">"))


def test_plain_asker_commands_and_validation() -> None:
    import io

    out = io.StringIO()
    asker = PlainAsker(io.StringIO("9S\n\n8S\nhint\nskip\n"), out)
    prompt = Prompt(">", validate=lambda text: "you don't hold 9S" if "9S" in text else None)
    assert asker.ask(prompt) == "8S"
    assert "(you don't hold 9S)" in out.getvalue()
    assert asker.ask(prompt) is Command.HINT
    assert asker.ask(prompt) is Command.SKIP
    with pytest.raises(Quit):
        asker.ask(prompt)


def test_reset_asks_first(home: Path) -> None:
    learn(LESSONS[0].id, stdin="\n".join(right_answers(LESSONS[0])) + "\n")
    code, out, _ = learn("--reset", stdin="n\n")
    assert code == 0 and "Nothing reset." in out
    assert Progress(home / "progress.json").status(LESSONS[0].id) == "done"
    code, out, _ = learn("--reset", LESSONS[0].id, stdin="y\n")
    assert code == 0 and "reset" in out
    assert Progress(home / "progress.json").status(LESSONS[0].id) == "new"


def test_unknown_lesson_is_a_usage_error(home: Path) -> None:
    code, _, err = learn("no-such-lesson")
    assert code == 2
    assert err.startswith("error: no lesson 'no-such-lesson': choose a number from 1 to")


def test_corrupt_progress_is_set_aside_with_a_warning(home: Path) -> None:
    path = home / "progress.json"
    path.write_text("{not json", encoding="utf-8")
    code, out, err = learn("--list")
    assert code == 0
    assert err.startswith(f"warning: {path} was not valid progress (not JSON")
    assert "progress starts afresh" in err
    aside = [p for p in home.iterdir() if p.name.startswith("progress.json.corrupt-")]
    assert len(aside) == 1 and aside[0].read_text(encoding="utf-8") == "{not json"
    assert "0/" in out


def test_progress_of_the_wrong_shape_is_corrupt(home: Path) -> None:
    (home / "progress.json").write_text('{"version": 1, "lessons": []}', encoding="utf-8")
    progress = Progress(home / "progress.json")
    assert progress.warning is not None
    assert progress.data["lessons"] == {}


def test_atomic_write_keeps_the_old_file_when_writing_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "progress.json"
    write_atomically(path, "old")

    def broken_replace(src: str, dst: str) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", broken_replace)
    # A failed save is an error the command line reports (never a traceback).
    with pytest.raises(GinError, match=r"cannot write .*disk full"):
        write_atomically(path, "new")
    assert path.read_text(encoding="utf-8") == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["progress.json"]


def check(path: Path) -> tuple[int, str]:
    code, out, _ = run("lessons", "check", str(path))
    return code, out


def test_lessons_check_passes_on_the_shipped_lessons() -> None:
    code, out, _ = run("lessons", "check")
    assert code == 0
    assert out.endswith(": all good\n")


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        (
            "bad-card.yaml",
            ["bad-card.yaml:7: hand: '1H': unknown rank '1' (use A, 2-9, T or 10, J, Q, K)"],
        ),
        (
            "unknown-step.yaml",
            [
                "unknown-step.yaml:6: unknown step kind video: a step is 'prose: ...', 'show: ...' "
                "or 'question: KIND' with its keys"
            ],
        ),
        (
            "show-cannot-knock.yaml",
            [
                "show-cannot-knock.yaml:6: show: the hand cannot knock, so the opponent's hand is "
                "never played out: drop 'opponent' or show a hand that can knock"
            ],
        ),
        (
            "wrong-expect.yaml",
            ["wrong-expect.yaml:8: expect: '29' but the engine's answer is '24': fix expect"],
        ),
        (
            "syntax-error.yaml",
            [
                "syntax-error.yaml:7: YAML syntax: expected <block end>, but found '<scalar>' "
                "(check indentation and quotes)"
            ],
        ),
        (
            "missing-keys.yaml",
            [
                "missing-keys.yaml:1: id: 'Missing Keys': use lowercase letters, digits and -",
                "missing-keys.yaml:3: level: use beginner, intermediate or advanced",
                "missing-keys.yaml:6: a layoffs question needs defender:",
                "missing-keys.yaml:12: unknown key 'colour' in a question (known: dead, defender, "
                "entries, expect, explain, game, hand, hints, opponent, opponent_known, options, "
                "players, predicate, prompt, question, rules, setting, stock_size, taken, upcard, "
                "want)",
            ],
        ),
    ],
)
def test_lessons_check_reports_file_line_and_fix(name: str, expected: list[str]) -> None:
    code, out = check(BROKEN / name)
    assert code == 1
    assert out.splitlines() == [f"{BROKEN / line}" for line in expected]


def test_lessons_check_on_a_folder_reports_every_file() -> None:
    code, out = check(BROKEN)
    assert code == 1
    files = {line.split(":", 1)[0] for line in out.splitlines()}
    assert len(files) == 7


def test_learn_reads_the_same_lessons_without_the_engine_checks() -> None:
    # The shipped lessons are checked by the engine here and in 'lessons check'; 'learn' reads
    # them without those checks to start at once, and must get exactly the same lessons.
    checked, problems = check_lessons(lesson_files())
    assert problems == [] and load_lessons() == checked


def test_the_outlines_learn_reads_are_those_of_the_full_lessons() -> None:
    # 'learn --list' and resuming read only outlines (no steps built); the lesson run is read
    # in full from its outline. Both must say what the full reading says.
    outlines = load_outlines()
    assert outlines == [lesson.outline for lesson in LESSONS]
    for outline, lesson in zip(outlines, LESSONS, strict=True):
        assert outline.lesson() == lesson
        assert outline.step_count == len(lesson.steps)
        assert [lesson.steps[i] for i in outline.question_steps] == lesson.questions


@pytest.mark.parametrize("path", sorted(BROKEN.glob("*.yaml")), ids=lambda path: path.name)
def test_an_outline_finds_no_problem_the_full_reading_does_not(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    outline, outline_problems = read_outline(text, path.name)
    lesson, problems = read_lesson(text, path.name, engine=False)
    assert set(outline_problems) <= set(problems)
    assert (outline is None) == bool(outline_problems)
    if lesson is not None:
        assert outline == lesson.outline


def test_outlines_from_the_cache_are_those_read_from_the_files(tmp_path: Path) -> None:
    cache = tmp_path / "cache" / "outlines.json"
    read = load_outlines(cache=cache)
    assert cache.is_file() and read == load_outlines()
    cache.write_text(cache.read_text(encoding="utf-8").replace('"Sets"', '"Cached"'))
    cached = load_outlines(cache=cache)
    # Taken from the cache (as the edit shows), each loading its own full lesson.
    assert [o.title for o in cached][:2] == ["Cards and their values", "Cached"]
    assert [o.lesson() for o in cached] == LESSONS


def test_the_outline_cache_is_stale_when_a_file_changes(tmp_path: Path) -> None:
    folder = tmp_path / "lessons"
    folder.mkdir()
    for name in ("01-cards.yaml", "02-sets.yaml"):
        (folder / name).write_text((Path("lessons") / name).read_text(encoding="utf-8"))
    cache = tmp_path / "outlines.json"
    assert [o.title for o in load_outlines(folder, cache=cache)][1] == "Sets"
    sets = folder / "02-sets.yaml"
    sets.write_text(sets.read_text(encoding="utf-8").replace("title: Sets", "title: Sets!"))
    assert [o.title for o in load_outlines(folder, cache=cache)][1] == "Sets!"
    assert [o.title for o in load_outlines(folder, cache=cache)][1] == "Sets!"


@pytest.mark.parametrize("stored", ["", "{", "[]", '{"key": 1}', '{"key": "x", "outlines": 3}'])
def test_a_broken_or_unwritable_outline_cache_is_passed_by(tmp_path: Path, stored: str) -> None:
    cache = tmp_path / "outlines.json"
    cache.write_text(stored)
    assert load_outlines(cache=cache) == load_outlines()
    blocked = tmp_path / "file" / "outlines.json"
    (tmp_path / "file").write_text("not a folder")
    assert load_outlines(cache=blocked) == load_outlines()


def test_standing_and_order_read_the_same_from_an_outline() -> None:
    outlines = load_outlines()
    records = {
        LESSONS[0].id: {"status": "done", "passed": True},
        LESSONS[1].id: {"status": "started", "step": 5, "steps": {"1": {"correct": True}}},
    }
    for outline, lesson in zip(outlines, LESSONS, strict=True):
        assert standing(outline, records.get(outline.id)) == standing(
            lesson, records.get(lesson.id)
        )
    assert resume_point(outlines, records, None) == (outlines[1], 5)
    assert next_lesson(outlines, outlines[0], records) == outlines[1]
    assert next_lesson(outlines, outlines[-1], records) == outlines[1]


def test_lessons_check_file_checks_that_file_only(tmp_path: Path) -> None:
    # issue 12: 'lessons check FILE' checked its neighbours too; a broken file beside it is not
    # its problem, but its prerequisites still resolve against the lessons beside it.
    folder = tmp_path / "lessons"
    folder.mkdir()
    for name in ("01-cards.yaml", "02-sets.yaml"):
        (folder / name).write_text(
            (Path("lessons") / name).read_text(encoding="utf-8"), encoding="utf-8"
        )
    (folder / "03-broken.yaml").write_text("id: broken\nsteps: [\n", encoding="utf-8")
    (folder / "04-dangling.yaml").symlink_to(tmp_path / "nowhere.yaml")
    code, out = check(folder / "02-sets.yaml")
    assert code == 0 and out == "1 lesson, 6 questions: all good\n", out
    (folder / "01-cards.yaml").unlink()
    code, out = check(folder / "02-sets.yaml")
    assert code == 1 and "prerequisites: no lesson has id 'cards'" in out
