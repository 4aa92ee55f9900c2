"""``gintutor learn``'s work: the lesson list with the learner's progress, a reset, or the
course from where the learner left off (the command is declared in :mod:`gintutor.cli.app`;
a lesson runs in :mod:`gintutor.cli.learn`)."""

from __future__ import annotations

import json

import typer

from gintutor.cli.learn import LessonRunner
from gintutor.cli.progress import Progress
from gintutor.cli.prompts import Quit, asker_for
from gintutor.cli.shared import terminal
from gintutor.content.lessons import load_outlines
from gintutor.content.store import LESSON_OUTLINES, cache_file
from gintutor.text.blocks import Line, Table
from gintutor.text.i18n import ENGLISH, N_, _, error_text, percent, use
from gintutor.tutor.lessons import (
    LessonOutline,
    LessonStatus,
    Standing,
    find_lesson,
    resume_point,
    standing,
)


def run_learn(
    lesson: str | None,
    list_lessons_only: bool,
    reset: bool,
    yes: bool,
    as_json: bool,
    no_color: bool,
    ascii_only: bool,
) -> None:
    """List the lessons, reset progress, or run the course (``lesson``, or where it stopped)."""
    if as_json:
        use(ENGLISH)  # --json never depends on the language: the titles are the lessons' own
    progress = Progress()
    if not list_lessons_only:
        progress.verify_writable()  # a newer gintutor's file: refused before any lesson
    if progress.warning:
        typer.echo(_("warning: {problem}", problem=error_text(progress.warning)), err=True)
    # After the progress file is read: nothing is written beside one that cannot be.
    lessons = load_outlines(cache=cache_file(LESSON_OUTLINES))
    if list_lessons_only:
        list_lessons(lessons, progress, as_json, no_color, ascii_only)
        return
    chosen = find_lesson(lessons, lesson) if lesson is not None else None
    asker = asker_for()
    if reset:
        if chosen is None:
            question, done = (
                _("Forget your progress in every lesson?"),
                _("Progress in every lesson reset."),
            )
        else:
            lesson_of = {"number": chosen.number, "title": chosen.title}
            question = _("Forget your progress in lesson {number} ({title})?", **lesson_of)
            done = _("Progress in lesson {number} ({title}) reset.", **lesson_of)
        try:
            if not yes and not asker.confirm(question):
                typer.echo(_("Nothing reset."))
                return
        except Quit:
            typer.echo(_("Nothing reset."))
            return
        progress.reset(chosen.id if chosen else None)
        progress.save()
        typer.echo(done)
        return
    screen = terminal(no_color, ascii_only)
    runner = LessonRunner(screen, asker, progress)
    records = progress.data["lessons"]
    if chosen is not None:
        target: tuple[LessonOutline, int] | None = (
            chosen,
            standing(chosen, records.get(chosen.id)).step,
        )
    else:
        target = resume_point(lessons, records, progress.data.get("current"))
    if target is None:
        typer.echo(
            _(
                "All {count} lessons are done. Replay one with: gintutor learn NUMBER",
                count=len(lessons),
            )
        )
        return
    try:
        runner.course(lessons, *target)
    except Quit:
        typer.echo("\n" + _("Progress saved. Run gintutor learn to pick up where you left off."))


STATUS_TEXT = {
    "new": N_("new"),
    "started": N_("started"),
    "not-passed": N_("not passed"),
    "done": N_("done"),
}
"""A lesson's status in words (:class:`~gintutor.tutor.lessons.LessonStatus`'s values)."""


def list_lessons(
    lessons: list[LessonOutline],
    progress: Progress,
    as_json: bool,
    no_color: bool,
    ascii_only: bool,
) -> None:
    rows = [
        (lesson, standing(lesson, progress.data["lessons"].get(lesson.id))) for lesson in lessons
    ]
    if as_json:
        typer.echo(
            json.dumps(
                [
                    {
                        "id": lesson.id,
                        "number": lesson.number,
                        "title": lesson.title,
                        "level": lesson.level.value,
                        "concepts": list(lesson.concepts),
                        "status": found.status.value,
                        "passed": found.status is LessonStatus.DONE,
                        "score": {
                            "right_first_time": found.right_first_time,
                            "questions": found.questions,
                        },
                        "answered": found.answered,
                    }
                    for lesson, found in rows
                ],
                ensure_ascii=False,
            )
        )
        return

    def status_text(found: Standing) -> str:
        if found.status is LessonStatus.STARTED:
            return _("at question {number}", number=found.question)
        return _(STATUS_TEXT[found.status.value])

    done = sum(1 for _lesson, found in rows if found.status is LessonStatus.DONE)
    table = Table(
        ("#", "id", _("lesson"), _("score"), _("status")),
        tuple(
            (
                str(lesson.number),
                lesson.id,
                lesson.title,
                f"{found.right_first_time}/{found.questions}",
                status_text(found),
            )
            for lesson, found in rows
        ),
        frozenset(
            i for i, (_lesson, found) in enumerate(rows) if found.status is LessonStatus.DONE
        ),
    )
    terminal(no_color, ascii_only).show(
        [
            table,
            Line(
                _(
                    "{done}/{count} lessons, {percent}",
                    done=done,
                    count=len(rows),
                    percent=percent(done / len(rows) if rows else 0),
                )
            ),
            Line(
                _("score: questions right first time; done: every question answered, none skipped")
            ),
        ]
    )
