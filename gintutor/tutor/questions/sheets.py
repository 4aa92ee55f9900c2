"""Questions about the rules themselves: a rule-set setting, a number of a game's score sheet.

A score sheet is scored (by the engine) when a question needs it, imported then (measured: see
:mod:`gintutor.tutor.questions.hands`).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, ClassVar

from gintutor.engine.cards import Card
from gintutor.engine.rules import SETTING_NAMES
from gintutor.errors import GinError, Phrase
from gintutor.text.blocks import Block, Line, Style
from gintutor.text.i18n import _
from gintutor.text.rules import setting_text
from gintutor.tutor.questions.base import (
    PLAIN,
    Feedback,
    Question,
    Solved,
    facts,
    read_number,
    read_yes_no,
    yes_no,
)

if TYPE_CHECKING:
    from gintutor.engine.game import GameSheet


@dataclass(frozen=True, kw_only=True)
class RuleQuestion(Question):
    """The value of a rule-set setting: a number, or yes/no (``knock_limit`` per ``upcard``)."""

    kind: ClassVar[str] = "rule"
    setting: str
    upcard: Card | None = None

    def value(self) -> int | bool:
        """The setting's value under the question's rules."""
        if self.setting == "knock_limit":
            return self.rules.knock_limit_for(self.upcard)
        if self.setting not in SETTING_NAMES:
            raise GinError("unknown setting {setting!r}", setting=self.setting)
        value = self.rules.settings()[self.setting]
        if not isinstance(value, (bool, int)):
            raise GinError(
                "setting {setting!r} is {value!r}, not a number or yes/no: "
                "ask about it with a game question",
                setting=self.setting,
                value=value,
            )
        return value

    def solve(self, style: Style = PLAIN) -> Solved:
        value = self.value()
        shown = yes_no(value) if isinstance(value, bool) else str(value)
        text = (
            str(value) if self.setting == "knock_limit" else setting_text(self.rules, self.setting)
        )
        return Solved(
            shown,
            (
                Line(
                    _(
                        "{setting} under {rules} rules: {text}.",
                        setting=self.setting,
                        rules=self.rules.name,
                        text=text,
                    )
                ),
            ),
        )

    def judge(self, text: str, style: Style = PLAIN) -> Feedback:
        value = self.value()
        said: int | bool
        if isinstance(value, bool):
            said = read_yes_no(text)
            typed = yes_no(said)
        else:
            said = read_number(text)
            typed = str(said)
        if said == value:
            return Feedback(True, _("Right: {value}.", value=typed))
        return Feedback(False, _("Not {value}.", value=typed))

    def facts(self, style: Style = PLAIN) -> list[Block]:
        return facts(style, self.rules, upcard=self.upcard)


class GameAsk(Enum):
    """Which number of a score sheet a game question asks for."""

    WINNER_FINAL = "winner-final"
    LOSER_FINAL = "loser-final"
    MARGIN = "margin"
    BOXES = "boxes"
    """The winner's box bonus points."""


@dataclass(frozen=True, kw_only=True)
class GameQuestion(Question):
    """A number from the score sheet of a game written as hand results (``A knock 20``)."""

    kind: ClassVar[str] = "game"
    entries: tuple[str, ...]
    want: GameAsk
    players: tuple[str, str] = ("A", "B")
    game: int = 1
    """Under Hollywood rules, which of the three games (1 to 3)."""

    def sheet(self) -> GameSheet:
        """The score sheet of the entries (of the chosen game under Hollywood rules)."""
        from gintutor.engine.game import score_game, score_match
        from gintutor.tutor.scoresheet import parse_entries

        entries = [
            (Phrase("entry {number}", number=n), text) for n, text in enumerate(self.entries, 1)
        ]
        records = parse_entries(entries, self.players, self.rules)
        if self.rules.hollywood:
            return score_match(records, self.rules).games[self.game - 1]
        return score_game(records, self.rules)

    def number(self, sheet: GameSheet) -> int:
        """The number the question asks for."""
        if sheet.winner is None:
            raise GinError("this game question needs a finished game")
        finals = sheet.final_totals
        if self.want is GameAsk.WINNER_FINAL:
            return finals[sheet.winner]
        if self.want is GameAsk.LOSER_FINAL:
            return finals[1 - sheet.winner]
        if self.want is GameAsk.MARGIN:
            return sheet.margin
        return sum(
            b.points for b in sheet.bonuses if b.player == sheet.winner and b.setting == "box_bonus"
        )

    def solve(self, style: Style = PLAIN) -> Solved:
        from gintutor.text.sheets import explain_sheet

        sheet = self.sheet()
        return Solved(
            str(self.number(sheet)), tuple(explain_sheet(sheet, self.players, self.rules))
        )

    def judge(self, text: str, style: Style = PLAIN) -> Feedback:
        typed = read_number(text)
        if typed == self.number(self.sheet()):
            return Feedback(True, _("Right: {value}.", value=typed))
        return Feedback(
            False,
            _(
                "Not {value}: add the hand points, then the game bonus, any shutout, and the "
                "box bonuses for every hand won.",
                value=typed,
            ),
        )

    def facts(self, style: Style = PLAIN) -> list[Block]:
        return [*facts(style, self.rules), Line(_("Hands: {hands}", hands="; ".join(self.entries)))]
