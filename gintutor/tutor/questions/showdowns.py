"""Questions about a knock played out: the defender's layoffs and the hand's points.

The engine plays the knock out when a question needs it, imported then, not with the module.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from gintutor.engine.cards import Card, CardSet
from gintutor.text.blocks import Block, Line, Style
from gintutor.tutor.questions.base import (
    PLAIN,
    Feedback,
    Question,
    Solved,
    facts,
    read_held,
    read_number,
)

if TYPE_CHECKING:
    from gintutor.engine.showdown import Showdown


@dataclass(frozen=True, kw_only=True)
class _ShowdownQuestion(Question):
    """A knocker's hand against a defender's, with the first upcard and a card just taken."""

    hand: CardSet
    defender: CardSet
    upcard: Card | None = None
    taken: Card | None = None

    def showdown(self) -> Showdown:
        """The knock this question is about, played out by the engine."""
        from gintutor.engine.showdown import showdown

        return showdown(self.hand, self.defender, self.rules, self.upcard, self.taken)

    def _explanation(self, style: Style) -> tuple[Block, ...]:
        from gintutor.text.explain import explain_showdown

        return tuple(explain_showdown(self.showdown(), style, mine=False)[1:])


@dataclass(frozen=True, kw_only=True)
class LayoffsQuestion(_ShowdownQuestion):
    """Which cards the defender lays off against the knocker's spread."""

    kind: ClassVar[str] = "layoffs"

    def solve(self, style: Style = PLAIN) -> Solved:
        return Solved(self.showdown().defence.laid_off.text() or "none", self._explanation(style))

    def judge(self, text: str, style: Style = PLAIN) -> Feedback:
        given = (
            CardSet(0)
            if text.strip().lower() in ("none", "-", "ingen", "nenhuma")
            else CardSet.from_cards(read_held(text, self.defender, "the defender"))
        )
        from gintutor.engine.layoffs import layoff_plan

        result = self.showdown()
        plan = layoff_plan(self.defender, result.spread.melds, given)
        if plan is None:
            return Feedback(
                False,
                f"{style.cards(given)} cannot all be laid off on "
                f"{', '.join(style.meld(m) for m in result.spread.melds)}.",
            )
        if plan.deadwood == result.defence.deadwood:
            return Feedback(True, f"Right: the defender is left with {plan.deadwood}.")
        return Feedback(
            False,
            f"Those layoffs leave the defender {plan.deadwood}; the best "
            f"leaves {result.defence.deadwood}.",
        )

    def facts(self, style: Style = PLAIN) -> list[Block]:
        spread = self.showdown().spread
        melds = ", ".join(style.meld(meld) for meld in spread.melds) or "no melds"
        return [
            Line(f"The knocker spreads {melds}; deadwood {style.cards(spread.deadwood_cards)}."),
            Line(f"The defender holds {style.cards(self.defender)}."),
            *facts(style, self.rules, taken=self.taken, upcard=self.upcard),
        ]

    def completions(self) -> list[str]:
        return [card.code for card in self.defender]


@dataclass(frozen=True, kw_only=True)
class PointsQuestion(_ShowdownQuestion):
    """How many points the hand scores (knocker against defender, after layoffs)."""

    kind: ClassVar[str] = "points"

    def solve(self, style: Style = PLAIN) -> Solved:
        return Solved(str(self.showdown().points), self._explanation(style))

    def judge(self, text: str, style: Style = PLAIN) -> Feedback:
        value = read_number(text)
        result = self.showdown()
        if value == result.points:
            return Feedback(True, f"Right: {result.points}.")
        return Feedback(False, _points_meaning(result, value))

    def facts(self, style: Style = PLAIN) -> list[Block]:
        return [
            Line(f"Knocker: {style.cards(self.hand)}"),
            Line(f"Defender: {style.cards(self.defender)}"),
            *facts(style, self.rules, taken=self.taken, upcard=self.upcard),
        ]


def _points_meaning(result: Showdown, value: int) -> str:
    """What a wrong score means: an item left out, or the wrong winner."""
    from gintutor.engine.scoring import ItemKind, Side

    score = result.score
    for item in score.items:
        if item.kind is not ItemKind.DEADWOOD_DIFFERENCE and value == score.points - item.points:
            return f"Not {value}: you left out the {item.kind.value} ({item.points})."
    winner = "knocker" if score.winner is Side.KNOCKER else "defender"
    return f"Not {value}: work out who wins (the {winner}?) and add every item."
