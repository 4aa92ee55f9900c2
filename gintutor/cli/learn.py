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
from gintutor.text.explain import Block, Line, Style, explain_analysis
from gintutor.tutor.lessons import Ask, Lesson, Prose, Show
from gintutor.tutor.questions import (
    AnswerError,
    Question,
    QuestionKind,
    completions,
    judge,
    option_lines,
    question_showdown,
    read_melds,
    solve_question,
)

CONCEPT_HINTS: dict[QuestionKind, str] = {
    QuestionKind.DEADWOOD: "Deadwood is the total value of the cards in no meld (ace 1, face "
    "cards 10). Find the melds that leave the least.",
    QuestionKind.MELDS: "A set is 3 or 4 cards of one rank, a run 3+ cards in a row of one suit "
    "(ace low). Each card goes in one meld at most; leave the least deadwood.",
    QuestionKind.KNOCK: "You may knock when your deadwood is at most the knock limit.",
    QuestionKind.DISCARD: "Try each discard and count the deadwood left; the best leaves least.",
    QuestionKind.LAYOFFS: "The defender may add cards to the knocker's melds: the fourth card "
    "of a 3-card set, or cards extending a run at either end, one after another.",
    QuestionKind.POINTS: "After layoffs compare the deadwood: the lower count wins the "
    "difference; add the bonuses the rules give.",
    QuestionKind.CHOICE: "Check each option against the rule the question is about.",
    QuestionKind.RULE: "Look at the rule set's settings (gintutor rules NAME).",
    QuestionKind.GAME: "Add the hand scores, then the game bonus, the box bonuses and any "
    "shutout.",
}


@dataclass(frozen=True)
class StepResult:
    """How a question went: solved first time, tries, hints used, revealed or skipped."""

    correct: bool
    first_try: bool
    tries: int
    hints: int
    skipped: bool = False


def hint_levels(question: Question) -> list[str]:
    """The hints in order: the concept, where to look (from the lesson), then the answer."""
    given = list(question.hints)
    if not given:
        given = [CONCEPT_HINTS[question.kind]]
    return given[:2]


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

    def _setting_out(self, question: Question) -> list[Block]:
        """What the learner sees before answering: the hands, the spread, the options."""
        style = self.style
        blocks: list[Block] = []
        if question.kind in (QuestionKind.LAYOFFS, QuestionKind.POINTS):
            result = question_showdown(question)
            if question.kind is QuestionKind.LAYOFFS:
                melds = ", ".join(style.meld(meld) for meld in result.spread.melds) or "no melds"
                blocks.append(Line(f"The knocker spreads {melds}; deadwood "
                                   f"{style.cards(result.spread.deadwood_cards)}."))
                blocks.append(Line(f"The defender holds {style.cards(question.defender or [])}."))
            else:
                blocks.append(Line(f"Knocker: {style.cards(question.hand or [])}"))
                blocks.append(Line(f"Defender: {style.cards(question.defender or [])}"))
        elif question.hand is not None:
            blocks.append(Line(f"Hand: {style.cards(question.hand)}"))
        if question.taken is not None:
            blocks.append(Line(f"{style.card(question.taken)} was just taken from the discard "
                               "pile."))
        if question.upcard is not None:
            blocks.append(Line(f"First upcard: {style.card(question.upcard)}."))
        if question.opponent_known:
            blocks.append(Line(f"The opponent is known to hold "
                               f"{style.cards(question.opponent_known)}."))
        if question.rules.name != "standard":
            blocks.append(Line(f"Rules: {question.rules.name}."))
        blocks += [Line(text, 1) for text in option_lines(question, style)]
        if question.entries:
            blocks.append(Line("Hands: " + "; ".join(question.entries)))
        return blocks

    def ask(self, step: Ask, where: str = "") -> StepResult:
        """Ask one question until it is answered right, revealed or skipped."""
        question = step.question
        self.terminal.show(self._setting_out(question))
        self.terminal.say(question.prompt, "bold")
        hints = hint_levels(question)
        shown_hints = 0
        tries = 0

        def validate(text: str) -> str | None:
            try:
                if question.kind is QuestionKind.MELDS and question.hand is not None:
                    read_melds(text, question.hand)
                else:
                    judge(question, text, self.style)
            except AnswerError as error:
                return str(error)
            except GinError as error:
                return str(error)
            return None

        prompt = Prompt(f"[{where}] >" if where else ">", completions(question), validate)
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
                feedback = judge(question, reply, self.style)
                if feedback.correct:
                    self.terminal.say(f"✓ {feedback.message}", "bold green")
                    self._explain(question)
                    return StepResult(True, tries == 1 and shown_hints == 0, tries, shown_hints)
                self.terminal.say(f"✗ {feedback.message}", "bold red")
            if not next_hint():
                self._reveal(question)
                return StepResult(False, False, tries, shown_hints + 1)

    def _reveal(self, question: Question) -> None:
        solved = solve_question(question, self.style)
        self.terminal.say(f"The answer: {solved.answer}", "bold")
        self._explain(question)

    def _explain(self, question: Question) -> None:
        self.terminal.show(solve_question(question, self.style).explanation)
        if question.explanation:
            self.terminal.markdown(question.explanation)


def resume_point(lessons: list[Lesson], progress: Progress) -> tuple[Lesson, int] | None:
    """Where ``gintutor learn`` continues: the lesson in progress, else the first not done."""
    current = progress.data.get("current")
    ordered = sorted(lessons, key=lambda lesson: lesson.id != current)
    for lesson in ordered:
        if progress.status(lesson.id) != "done":
            step = int(progress.data["lessons"].get(lesson.id, {}).get("step", 0))
            return lesson, min(step, len(lesson.steps) - 1)
    return None

