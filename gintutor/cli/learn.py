"""Running a lesson: show its steps, ask its questions, judge answers by the engine, save progress.

Progress is saved before every step, so quitting (``quit``, Ctrl-C, end of input) loses nothing
and the next ``gintutor learn`` resumes at the same step.
"""

from __future__ import annotations

from dataclasses import dataclass

from gintutor.cli.progress import Progress
from gintutor.cli.prompts import Asker, Command, Prompt
from gintutor.cli.render import Terminal
from gintutor.engine.analysis import analyze
from gintutor.errors import GinError
from gintutor.text.explain import Style, explain_analysis
from gintutor.tutor.lessons import Ask, Lesson, Prose, Show
from gintutor.tutor.questions import Question


@dataclass(frozen=True)
class StepResult:
    """How a question went: solved first time, tries, hints used, revealed or skipped."""

    correct: bool
    first_try: bool
    tries: int
    hints: int
    skipped: bool = False


def hint_levels(question: Question) -> list[str]:
    """The author's hints in order (the concept, then where to look); the answer comes after."""
    return list(question.hints[:2])


class Session:
    """Where a learner works: the terminal, the asker, the saved progress, the card style."""

    def __init__(self, terminal: Terminal, asker: Asker, progress: Progress,
                 style: Style | None = None) -> None:
        self.terminal = terminal
        self.asker = asker
        self.progress = progress
        self.style = style or Style(ascii_only=terminal.ascii_only)


class LessonRunner(Session):
    """Plays lessons on a terminal with an asker, keeping progress."""

    def run(self, lesson: Lesson, start: int = 0) -> None:
        """Play ``lesson`` from step ``start``; raises ``Quit`` if left."""
        record = self.progress.lesson(lesson.id)
        record["status"] = "started" if record.get("status") != "done" else "done"
        self.progress.data["current"] = lesson.id
        self.terminal.say(f"Lesson {lesson.number}: {lesson.title}", "bold")
        for index in range(start, len(lesson.steps)):
            record["step"] = index
            self.progress.save()
            step = lesson.steps[index]
            self.terminal.say("")
            if isinstance(step, Prose):
                self.terminal.markdown(step.text)
            elif isinstance(step, Show):
                self._show(step)
            else:
                result = self.ask(step, f"{index + 1}/{len(lesson.steps)}")
                record["steps"][str(index)] = {
                    "correct": result.correct, "first_try": result.first_try,
                    "tries": result.tries, "hints": result.hints, "skipped": result.skipped,
                }
        record["status"] = "done"
        record["step"] = len(lesson.steps)
        self.progress.data["current"] = None
        self.progress.save()
        asked = [r for r in record["steps"].values()]
        first = sum(1 for r in asked if r.get("first_try"))
        self.terminal.say("")
        self.terminal.say(
            f"Lesson {lesson.number} done: {first} of {len(asked)} questions right first time.",
            "bold green",
        )

    def _show(self, step: Show) -> None:
        if step.caption:
            self.terminal.say(step.caption)
        analysis = analyze(step.hand, step.rules, upcard=step.upcard,
                           taken_from_discard=step.taken, opponent=step.opponent)
        self.terminal.show(explain_analysis(analysis, self.style))

    def ask(self, step: Ask, where: str = "") -> StepResult:
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
                return str(error)
            return None

        prompt = Prompt(f"[{where}] >" if where else ">", question.completions(), validate)

        def next_hint() -> bool:
            """Show the next hint; False when they have run out (the answer comes next)."""
            nonlocal shown_hints
            if shown_hints == len(hints):
                return False
            self.terminal.say(f"Hint: {hints[shown_hints]}", "yellow")
            shown_hints += 1
            return True

        while True:
            reply = self.asker.ask(prompt)
            if reply is Command.SKIP:
                self.terminal.say("Skipped.")
                self._reveal(question)
                return StepResult(False, False, tries, shown_hints, skipped=True)
            if isinstance(reply, str):
                tries += 1
                feedback = question.judge(reply, self.style)
                if feedback.correct:
                    self.terminal.say(f"✓ {feedback.message}", "bold green")
                    self._explain(question)
                    return StepResult(True, tries == 1 and shown_hints == 0, tries, shown_hints)
                self.terminal.say(f"✗ {feedback.message}", "bold red")
            if not next_hint():
                self._reveal(question)
                return StepResult(False, False, tries, shown_hints + 1)

    def _reveal(self, question: Question) -> None:
        solved = question.solve(self.style)
        self.terminal.say(f"The answer: {solved.answer}", "bold")
        self._explain(question)

    def _explain(self, question: Question) -> None:
        self.terminal.show(question.solve(self.style).explanation)
        if question.explanation:
            self.terminal.markdown(question.explanation)
