"""Running a lesson: show its steps, ask its questions, judge answers by the engine, save progress.

Progress is saved before every step, so quitting (``quit``, Ctrl-C, end of input) loses nothing
and the next ``gintutor learn`` resumes at the same step.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from gintutor.cli.learner import Runner
from gintutor.cli.prompts import Asker, Command, Prompt, Quit
from gintutor.errors import GinError
from gintutor.text.i18n import _, error_text
from gintutor.tutor.lessons import (
    AnyLesson,
    CarouselShow,
    Lesson,
    Prose,
    QuestionResult,
    Show,
    Standing,
    full_lesson,
    is_passed,
    next_lesson,
    standing,
)

if TYPE_CHECKING:
    from gintutor.tutor.lessons import Ask
    from gintutor.tutor.questions import Question


def hint_levels(question: Question) -> list[str]:
    """The author's hints in order (the concept, then where to look); the answer comes after."""
    return list(question.hints[:2])


def go_on(asker: Asker, question: str) -> bool:
    """Ask whether to go on: Enter (or yes) goes on; anything else, or the end of input, stops."""
    try:
        return asker.confirm(question, default=True)
    except Quit:
        return False


def _rank(result: object) -> tuple[bool, bool]:
    """How good a recorded answer is: right, then right first time."""
    if not isinstance(result, dict):
        return (False, False)
    return (result.get("correct") is True, result.get("first_try") is True)


def _keep_the_better(steps: dict[str, Any], key: str, result: dict[str, Any]) -> None:
    """Record ``result`` for a question unless the one recorded is as good: playing a finished
    lesson again never lowers its score (a skip on a replay turned 4/4 into 3/4).

    >>> steps = {"2": {"correct": True, "first_try": True}}
    >>> _keep_the_better(steps, "2", {"correct": False, "first_try": False, "skipped": True})
    >>> steps["2"]["first_try"]
    True
    >>> _keep_the_better(steps, "3", {"correct": True, "first_try": False})
    >>> sorted(steps)
    ['2', '3']
    """
    if key not in steps or _rank(result) > _rank(steps[key]):
        steps[key] = result


class LessonRunner(Runner):
    """Plays lessons on a terminal with an asker, keeping progress."""

    def course(self, lessons: Sequence[AnyLesson], lesson: AnyLesson, start: int = 0) -> None:
        """Play ``lesson`` from step ``start``, then offer the next lessons one after another
        (each read in full when it starts, if an outline); raises ``Quit`` if the learner
        leaves inside a lesson."""
        while True:
            self.run(full_lesson(lesson), start)
            following = next_lesson(lessons, lesson, self.progress.data["lessons"])
            self.progress.data["current"] = following.id if following else None
            self.progress.save()
            if following is None:
                self.terminal.say(_("Every lesson is done."))
                return
            values = {"number": following.number, "title": following.title}
            self.terminal.say(_("Next: gintutor learn {number} ({title})", **values))
            if not go_on(
                self.asker, _("Start lesson {number} now? Enter goes on, n stops", **values)
            ):
                return
            self.terminal.say("")
            lesson, start = following, 0

    def run(self, lesson: Lesson, start: int = 0) -> Standing:
        """Play ``lesson`` from step ``start``; raises ``Quit`` if left."""
        record = self.progress.lesson(lesson.id)
        record["status"] = "started"
        self.progress.data["current"] = lesson.id
        self.terminal.say(
            _("Lesson {number}: {title}", number=lesson.number, title=lesson.title), "bold"
        )
        questions = len(lesson.question_steps)
        number = sum(1 for index in lesson.question_steps if index < start)
        for index in range(start, len(lesson.steps)):
            record["step"] = index
            self.progress.save()
            step = lesson.steps[index]
            self.terminal.say("")
            if isinstance(step, Prose):
                self.terminal.markdown(step.text)
            elif isinstance(step, Show):
                self._show(step)
            elif isinstance(step, CarouselShow):
                self._show_carousel(step)
            else:
                number += 1
                result = self.ask(
                    step, _("question {number} of {count}", number=number, count=questions)
                )
                _keep_the_better(record["steps"], str(index), result.record())
        passed = is_passed(lesson, record)
        record["status"] = "done"
        record["passed"] = record.get("passed") is True or passed
        record["step"] = 0
        self.progress.save()
        found = standing(lesson, record)
        values = {
            "number": lesson.number,
            "right": found.right_first_time,
            "count": found.questions,
            "missed": found.questions - found.answered,
        }
        self.terminal.say("")
        if passed:
            self.terminal.say(
                _("Lesson {number} done: {right} of {count} questions right first time.", **values),
                "bold green",
            )
        else:
            self.terminal.say(
                _(
                    "Lesson {number} finished, not passed: {right} of {count} questions right "
                    "first time, {missed} skipped or revealed.",
                    **values,
                ),
                "bold",
            )
            self.terminal.say(
                _("To pass it, answer every question: gintutor learn {number}", **values)
            )
        return found

    def _show(self, step: Show) -> None:
        # At a lesson's first hand shown, not at its start: the analysis and its prose, and
        # the Carousel solver and its prose (below), are not needed for the first prompt.
        # Measured at the top of this module (bench_startup.py, least CPU, 2x4 rounds, load
        # ~7): learn 1 (EOF) 1.18x and 1.15x the bare Typer + Rich app, against 1.06x here;
        # learn --list 1.11x and 1.21x against 1.07x and 1.09x.
        from gintutor.engine.analysis import analyze
        from gintutor.text.explain import explain_analysis

        if step.caption:
            self.terminal.say(step.caption)
        analysis = analyze(
            step.hand,
            step.rules,
            upcard=step.upcard,
            taken_from_discard=step.taken,
            opponent=step.opponent,
        )
        self.terminal.show(explain_analysis(analysis, self.style))

    def _show_carousel(self, step: CarouselShow) -> None:
        # As in _show: only when a lesson shows a Carousel position.
        from gintutor.engine.carousel.cards import decks_for
        from gintutor.engine.carousel.rules import STANDARD
        from gintutor.engine.carousel.solver import best_play
        from gintutor.text.carousel import explain_play

        if step.caption:
            self.terminal.say(step.caption)
        play = best_play(step.table, step.hand, decks_for(step.players), first_meld=step.first_meld)
        self.terminal.show(explain_play(step.table, step.hand, play, STANDARD, self.style))

    def ask(self, step: Ask, where: str = "") -> QuestionResult:
        """Ask one question until it is answered right, revealed or skipped."""
        question = step.question
        self.terminal.show(question.facts(self.style))
        self.terminal.say(question.prompt, "bold")
        hints = hint_levels(question)
        shown_hints = 0
        tries = 0

        def validate(text: str) -> str | None:
            try:
                question.judge(text, self.style)
            except GinError as error:
                return error_text(error)
            return None

        prompt = Prompt(f"[{where}] >" if where else ">", question.completions(), validate)

        def next_hint() -> bool:
            """Show the next hint; False when they have run out (the answer comes next)."""
            nonlocal shown_hints
            if shown_hints == len(hints):
                return False
            self.terminal.say(_("Hint: {hint}", hint=hints[shown_hints]), "yellow")
            shown_hints += 1
            return True

        while True:
            reply = self.asker.ask(prompt)
            if reply is Command.SKIP:
                self.terminal.say(_("Skipped."))
                self._reveal(question)
                return QuestionResult(False, False, tries, shown_hints, skipped=True)
            if isinstance(reply, str):
                tries += 1
                feedback = question.judge(reply, self.style)
                if feedback.correct:
                    self.terminal.say(f"✓ {feedback.message}", "bold green")
                    self._explain(question)
                    return QuestionResult(True, tries == 1 and shown_hints == 0, tries, shown_hints)
                self.terminal.say(f"✗ {feedback.message}", "bold red")
            if next_hint():
                continue
            if reply is Command.HINT:
                self._reveal(question)
                return QuestionResult(False, False, tries, shown_hints + 1)
            # Out of hints: the answer is the next level, shown only when asked for.
            self.terminal.say(_("Try again, or type hint to see the answer."))

    def _reveal(self, question: Question) -> None:
        solved = question.solve(self.style)
        self.terminal.say(_("The answer: {answer}", answer=solved.answer), "bold")
        self._explain(question)

    def _explain(self, question: Question) -> None:
        self.terminal.show(question.solve(self.style).explanation)
        if question.explanation:
            self.terminal.markdown(question.explanation)
