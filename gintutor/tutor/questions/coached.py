"""Questions the coach answers: a position judged at the puzzle budget against a named opponent.

Judging costs seconds of CPU, so a lesson never judges: the verdict is computed once by
``gintutor puzzles check --write-verdicts`` and stored with the puzzles' (``puzzles/verdicts.json``,
under the key of :meth:`CoachedQuestion.puzzle`); the lesson reader hands it to the question
(``verdict``). Without it the question cannot be answered, and ``lessons check`` says so. A
lesson teaches a clear case: the best choice must lead by more than two standard errors.

The engine and the coach's records are imported when a question is solved, not with the module
(as the other kinds do: see :mod:`gintutor.tutor.questions.hands`).
"""

from __future__ import annotations

from abc import abstractmethod
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

from gintutor.engine.cards import CardSet
from gintutor.errors import GinError
from gintutor.text.blocks import Block, Line, Style
from gintutor.text.i18n import _, number, pgettext
from gintutor.tutor.questions.base import (
    PLAIN,
    AnswerError,
    Feedback,
    Question,
    Solved,
    facts,
    quoted,
)

if TYPE_CHECKING:
    from gintutor.engine.judgement import Verdict
    from gintutor.tutor.puzzles import Puzzle, Row, Solution

REFRESH = "run 'gintutor puzzles check --write-verdicts' (it judges the positions without one)"
"""How to store a missing verdict (a command: kept out of the catalog, as the pack's is)."""


@dataclass(frozen=True, kw_only=True)
class CoachedQuestion(Question):
    """A question whose answer is the coach's stored verdict on a puzzle position.

    ``opponent``: the bot the coach assumes across the table (a name of
    :data:`gintutor.engine.coach.OPPONENTS`). ``verdict``: filled by the lesson reader from
    the stored verdicts (never a key of a lesson file); ``None`` when none is stored.
    """

    opponent: str
    verdict: Verdict | None = None

    @abstractmethod
    def puzzle(self) -> Puzzle:
        """The puzzle the coach judges: its key finds the stored verdict."""

    def solution(self) -> Solution:
        """The puzzle solved from the stored verdict; :class:`GinError` when none is stored
        (a lesson never judges: seconds of CPU)."""
        from gintutor.tutor.puzzles import solve_puzzle

        if self.verdict is None:
            raise GinError(
                "no stored coach verdict for this position against {opponent}: {refresh}",
                opponent=self.opponent,
                refresh=REFRESH,
            )
        return solve_puzzle(self.puzzle(), self.verdict)

    def verify(self) -> None:
        """Raise :class:`GinError` for an unknown opponent, a missing verdict, or a close call
        (the best does not lead the next choice by more than two standard errors)."""
        from gintutor.engine.coach import OPPONENTS, opponent_model

        if self.opponent not in OPPONENTS:
            opponent_model(self.opponent)  # raises, naming the models
            raise GinError(
                "opponent: write {name!r} as {known!r}",
                name=self.opponent,
                known=opponent_model(self.opponent).name,
            )
        rows = self.solution().rows
        if len(rows) > 1 and _is_close(rows[1]):
            raise GinError(
                "a close call against {opponent}: {second} is {cost} ± {stderr} points behind "
                "{best}, within two standard errors; a lesson teaches a clear case",
                opponent=self.opponent,
                second=rows[1].code,
                best=rows[0].code,
                cost=number(rows[1].cost, 1),
                stderr=number(rows[1].cost_stderr, 1),
            )


def _is_close(row: Row) -> bool:
    from gintutor.tutor.puzzles import Grade

    return row.grade is Grade.BEST


_KNOCK_WORDS = {"knock", "k"}
_PLAY_ON_WORDS = {"play-on", "play on", "playon", "play", "p"}


@dataclass(frozen=True, kw_only=True)
class KnockOrPlayQuestion(CoachedQuestion):
    """Knock now or play on, with these 11 cards, against this opponent: the choice with the
    higher expected points (the best knock, or the best discard that plays on).

    The position is a ``knock-or-play`` puzzle's: ``hand`` (11 cards, after the draw),
    ``dead`` (the discard pile and cards out of play), ``opponent_known`` (picked up and still
    held), ``stock_size`` (the cards left; by default what the others leave).
    """

    kind: ClassVar[str] = "knock-or-play"
    hand: CardSet
    dead: CardSet = field(default_factory=lambda: CardSet(0))
    opponent_known: CardSet = field(default_factory=lambda: CardSet(0))
    stock_size: int | None = None

    def puzzle(self) -> Puzzle:
        from gintutor.engine.evaluate import Position
        from gintutor.tutor.puzzles import Puzzle, Theme

        position = Position(
            self.hand,
            self.rules,
            dead=self.dead,
            opponent_known=self.opponent_known,
            stock_size=self.stock_size,
        )
        return Puzzle(
            "lesson", "", Theme.KNOCK_OR_PLAY, 1, position, "", (), (), "", opponent=self.opponent
        )

    def verify(self) -> None:
        from gintutor.engine.evaluate import verify_position

        verify_position(self.puzzle().position)
        super().verify()

    def solve(self, style: Style = PLAIN) -> Solved:
        from gintutor.tutor.puzzletext import option_table

        solution = self.solution()
        best, second = solution.rows[0], solution.rows[1]
        values = _(
            "Expected points against {bot}: {best} {mean} ± {stderr}, {second} {second_mean} ± "
            "{second_stderr}.",
            bot=self.opponent,
            best=_choice_words(best.code, style, solution),
            mean=number(best.measure, 1, signed=True),
            stderr=number(_stderr(best), 1),
            second=_choice_words(second.code, style, solution),
            second_mean=number(second.measure, 1, signed=True),
            second_stderr=number(_stderr(second), 1),
        )
        gap = {"cost": number(second.cost, 1), "stderr": number(second.cost_stderr, 1)}
        lead = (
            _(
                "The difference, {cost} ± {stderr}, is within two standard errors: a close call.",
                **gap,
            )
            if _is_close(second)
            else _("The best leads by {cost} ± {stderr}, more than two standard errors.", **gap)
        )
        return Solved(
            best.code,
            (Line(self._assumes()), option_table(solution, style), Line(f"{values} {lead}")),
        )

    def _assumes(self) -> str:
        return _(
            "The coach assumes an opponent who plays like {bot}, and values each choice by its "
            "best action.",
            bot=self.opponent,
        )

    def judge(self, text: str, style: Style = PLAIN) -> Feedback:
        said = _read_choice(text)
        solution = self.solution()
        row = solution.row(said)
        if row is solution.rows[0]:
            return Feedback(
                True,
                _(
                    "Right: against {bot} {choice} is worth {mean} ± {stderr} points on average.",
                    bot=self.opponent,
                    choice=_choice_words(row.code, style, solution),
                    mean=number(row.measure, 1, signed=True),
                    stderr=number(_stderr(row), 1),
                ),
            )
        return Feedback(
            False,
            _(
                "Not against this opponent: weigh how soon a player like {bot} is likely to "
                "knock, and what it leaves you while you wait.",
                bot=self.opponent,
            ),
        )

    def facts(self, style: Style = PLAIN) -> list[Block]:
        blocks = facts(style, self.rules, hand=self.hand, opponent_known=self.opponent_known)
        dead = style.cards(self.dead) if self.dead else pgettext("no cards", "none")
        blocks.append(Line(_("Discard pile and cards out of play: {cards}", cards=dead)))
        if self.stock_size is not None:
            blocks.append(Line(_("Cards left in the stock: {count}", count=self.stock_size)))
        blocks.append(Line(_("The opponent plays like {bot}.", bot=self.opponent)))
        return blocks

    def completions(self) -> list[str]:
        return ["knock", "play-on"]


def _read_choice(text: str) -> str:
    """``knock`` or ``play-on`` as a learner types it (``k``, ``play on``, ``p``...)."""
    word = " ".join(text.strip().lower().split())
    if word in _KNOCK_WORDS or word == pgettext("answer", "knock").lower():
        return "knock"
    if word in _PLAY_ON_WORDS or word == pgettext("answer", "play-on").lower():
        return "play-on"
    raise AnswerError(_("{text}: answer knock or play-on", text=quoted(text.strip())))


def _stderr(row: Row) -> float:
    """The standard error of the row's expected points (its coach entry's)."""
    return row.judged.stderr if row.judged is not None else 0.0


def _choice_words(code: str, style: Style, solution: Solution) -> str:
    """``knocking (discarding 8♠)`` or ``playing on (discarding K♣)``: the choice and the
    discard of the coach's best action for it."""
    from gintutor.engine.cards import Card
    from gintutor.engine.hand import NO_CARD

    row = solution.row(code)
    judged = row.judged
    card = judged.action.card if judged is not None else NO_CARD
    if card == NO_CARD:
        return _("knocking") if code == "knock" else _("playing on")
    shown = style.card(Card.from_index(card))
    if code == "knock":
        return _("knocking (discarding {card})", card=shown)
    return _("playing on (discarding {card})", card=shown)
